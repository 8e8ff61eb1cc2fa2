// Integer ArgMax/ArgMin of every signedness and direction on one kernel set per width: the ArgMax
// kernels of uint8, int16, int32 and int64. A value xored with a flip is a key of that type which
// orders as the value does (the sign bit flipped where the signedness differs: int8 -> uint8,
// uint16 -> int16, ...), or in reverse for ArgMin (every bit flipped too: ~x reverses the order of
// a two's-complement or unsigned type without overflow). A bijection, so equal values have equal
// keys and the tie rules hold. The input goes to the kernels xored into a scratch buffer, piece by
// piece: one extra pass over data in cache (registry.cc says which types take it and what it
// costs), where their own kernel sets (every row, column and slice path of 10 types and
// directions, under both tie rules) took 6.8 KB of the gzipped module. ReduceMax over uint32 and
// uint64 runs on int32's and int64's ReduceMax kernels the same way (the sign bit flipped).
#pragma once
#include <cstdint>

#include "kernels/registry.h"

namespace ox {

// The flip as 16 bytes (the element's little-endian bytes repeated): xoring a copy that starts at
// an element boundary with it flips every element, whatever the width.
struct KeyFlip {
  alignas(16) uint8_t bytes[16];
};

template <class Raw>
constexpr KeyFlip key_flip_of(uint64_t flip) {
  KeyFlip f{};
  for (int b = 0; b < 16; ++b) f.bytes[b] = static_cast<uint8_t>(flip >> (8 * (b % sizeof(Raw))));
  return f;
}

// A kernel set's entries over the keys of the input. The states stay values at the entries (the
// contract of registry.h): the keys live only within a call. Out of line: one copy for every
// width, type and rule.
__attribute__((noinline)) void keyed_rows(const KernelSet& target, const KeyFlip& flip, int size, const void* x,
                                          int64_t n, int64_t length, int64_t first, void* best, int32_t* index);
__attribute__((noinline)) void keyed_columns(const KernelSet& target, const KeyFlip& flip, int size, const void* x,
                                             int64_t n, int64_t width, int64_t stride, int64_t first, void* best,
                                             int32_t* index);
__attribute__((noinline)) void keyed_slices(const KernelSet& target, const KeyFlip& flip, int size, const void* x,
                                            int64_t n, int64_t reduce, int64_t inner, void* best, int32_t* index);
__attribute__((noinline)) void keyed_fill_start(const KernelSet& target, const KeyFlip& flip, int size, void* best,
                                                int64_t count);

}  // namespace ox
