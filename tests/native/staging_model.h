// How js/feed.js stages a call, for the native tests and the fuzzers that play its part: column
// tiles and gathered windows packed from the input, and the output elements behind a range of states (the outputs a
// windowed Execution has made final).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "exec/execution.h"
#include "plan/plan.h"

namespace stage {

// Columns [c, c + w) of reduced rows [r0, r0 + rows) of outer slice o of `input` (row-major,
// `size` bytes per element), packed row after row into a block of exactly rows x w elements (ASan
// sees any read past it), as feedTiles copies them into the staging buffer; all rows by default.
inline std::unique_ptr<uint8_t[]> pack_tile(const uint8_t* input, const ox::Plan& p, int size, int64_t o, int64_t c,
                                            int64_t w, int64_t r0 = 0, int64_t rows = -1) {
  if (rows < 0) rows = p.reduce;
  std::unique_ptr<uint8_t[]> tile(new uint8_t[static_cast<size_t>(rows * w * size)]);
  for (int64_t r = 0; r < rows; ++r)
    std::memcpy(tile.get() + r * w * size, input + ((o * p.reduce + r0 + r) * p.inner + c) * size,
                static_cast<size_t>(w * size));
  return tile;
}

// Feeds input elements [at, at + n) (row-major, `size` bytes each) from a block of exactly their
// size, so ASan sees any read past them.
inline void feed_piece(ox::Execution& execution, const uint8_t* input, int size, int64_t at, int64_t n) {
  std::unique_ptr<uint8_t[]> piece(new uint8_t[static_cast<size_t>(n * size)]);
  if (n > 0) std::memcpy(piece.get(), input + at * size, static_cast<size_t>(n * size));
  execution.feed(piece.get(), n);
}

// Feeds the next gathered window (ox::Execution::next_gather) as js/feed.js feedGathered packs
// it: from each block of the group, its runs, block after block, in a block of exactly their size
// (ASan sees any read past it). Returns the input elements fed.
inline int64_t feed_gathered_window(ox::Execution& execution, const uint8_t* input, int size) {
  const ox::GatherWindow w = execution.next_gather();
  const int64_t blocks = execution.gather_blocks();
  const int64_t count = blocks * w.runs * w.length;
  std::unique_ptr<uint8_t[]> packed(new uint8_t[static_cast<size_t>(count * size)]);
  uint8_t* to = packed.get();
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t r = 0; r < w.runs; ++r, to += w.length * size) {
      const int64_t from = static_cast<int64_t>(execution.gather_offsets()[b]) + w.offset + r * w.stride;
      std::memcpy(to, input + from * size, static_cast<size_t>(w.length * size));
    }
  execution.feed_gathered(packed.get());
  return count;
}

// The output runs [begin, begin + count) behind states [s0, s1), in order of states: the same
// elements for arg kinds and ReduceMax; for Hardmax (a state per (outer, inner)) whole rows
// (inner == 1), whole outer slices, or within one slice the run of those columns in each of its
// reduce rows.
inline std::vector<std::pair<int64_t, int64_t>> output_runs(const ox::Plan& p, int64_t s0, int64_t s1) {
  std::vector<std::pair<int64_t, int64_t>> runs;
  if (s1 <= s0) return runs;
  if (p.kind != ox::PlanKind::Hardmax) return {{s0, s1 - s0}};
  const int64_t inner = p.inner, span = p.reduce * inner;
  if (inner == 1) return {{s0 * p.reduce, (s1 - s0) * p.reduce}};
  for (int64_t s = s0; s < s1;) {
    const int64_t o = s / inner, slice_end = (o + 1) * inner;
    if (s == o * inner && s1 >= slice_end) {  // whole slices: one contiguous run
      const int64_t last = s1 / inner;
      runs.push_back({o * span, (last - o) * span});
      s = last * inner;
      continue;
    }
    const int64_t end = std::min(s1, slice_end);
    for (int64_t r = 0; r < p.reduce; ++r) runs.push_back({o * span + r * inner + (s - o * inner), end - s});
    s = end;
  }
  return runs;
}

// The first output element behind state s (see output_runs).
inline int64_t first_output_of_state(const ox::Plan& p, int64_t s) {
  if (p.kind != ox::PlanKind::Hardmax) return s;
  if (p.inner == 1) return s * p.reduce;
  return s / p.inner * p.reduce * p.inner + s % p.inner;
}

}  // namespace stage
