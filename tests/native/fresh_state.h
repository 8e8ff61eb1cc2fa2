// Arg kinds: a call from index 0 of the reduced axis (rows or columns) neither reads nor needs
// the state it starts (kernels/registry.h), and Execution skips the reset for them. So the
// kernel tests hand such calls a poisoned state instead of fill_start's: all-ones bits (a NaN for
// every float type, and a NaN wins under every rule; -1 or the largest unsigned value for
// integers) and an index no row has. A kernel that read it would report the poison.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/registry.h"

namespace fresh {

constexpr int32_t kPoisonIndex = 0x7EADBEEF;

inline void poison(void* best, size_t best_bytes, int32_t* index, int64_t count) {
  std::memset(best, 0xFF, best_bytes);
  for (int64_t k = 0; k < count; ++k) index[k] = kPoisonIndex;
}

// The state before the first call of `count` outputs: poisoned for an arg kind whose first call
// starts at index 0 with at least one row (`starts`), else the kernel set's starting value.
inline void start(const ox::KernelSet& k, void* best, size_t best_bytes, int32_t* index, int64_t count, bool starts = true) {
  if (k.tracks_index && starts)
    poison(best, best_bytes, index, count);
  else
    k.fill_start(best, count);
}

}  // namespace fresh
