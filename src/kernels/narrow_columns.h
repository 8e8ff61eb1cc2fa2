// Narrow columns run as wider virtual ones: rows narrower than a SIMD tile ([N, 3] over axis 0:
// the bounding box of a point cloud; the best of N rows for each of a few classes), where the
// column kernels would load a tile for 3 values; rows of a few tiles plus a part ([N, 5]), where a
// last tile overlapping the one before re-reads most of a vector; and rows of a tile or two ([N, 4]
// boxes), where each row pays a loop step for one vector. R consecutive rows of
// width w (contiguous) read as one virtual row of P = R * w elements, P a multiple of the tile (of
// half a tile for a 1-byte arg kind's odd widths in short slices: narrow_virtual_width), so
// virtual column q * w + c holds rows q, q + R, q + 2R, ... of real column c. The kernel set's
// own column kernel reduces the virtual matrix into a local state at full vector width; each real
// column then merges its R candidates into its carried state. The merge is the kernels' own rule:
// the winner is the best value's first (last) row, so candidates of disjoint rows combine in any
// order by value, then by row. The caller's usual kernels take the rows after the last whole
// virtual row.
// ReduceMax keeps no index: where tied candidates differ in bits (-0 against +0, NaN payloads)
// their order is unknown, and the whole call is left to the usual kernels.
// One untyped driver serves every kernel set; only the merge is typed, per rule (for the arg kinds
// only its keys), so the path adds little to the module.
#pragma once
#include <cstdint>
#include <cstring>

#include "kernels/traits.h"

namespace ox {

// Widths the path takes are under this (four of the widest tiles, and the widest register group).
constexpr int64_t kMaxNarrowWidth = 64;
// Elements of a virtual row, the candidates a merge takes (lcm(63, 16) = 1008 fits).
constexpr int64_t kMaxNarrowCandidates = 1024;

struct NarrowColumnKernels {
  // The set's column kernels without the narrow step, and its start value (KernelSet::fill_start).
  void (*columns)(const void* x, int64_t rows, int64_t width, int64_t stride, int64_t first, void* best,
                  int32_t* index);
  void (*fill_start)(void* best, int64_t count);
  // narrow_merge<Rule, Index> below.
  bool (*merge)(const void* vbest, const int32_t* vindex, int64_t width, int64_t r, int64_t first, void* best,
                int32_t* index);
  int64_t size;         // bytes per element
  int64_t tile;         // the column kernel's narrowest width (ColumnScan::kTile)
  int64_t group_width;  // columns one register group covers (ColumnScan::kGroup * kTile)
  bool tracks_index;
};

// The virtual width P for columns of `width`, or 0 when the path does not apply: `rows` contiguous
// rows (stride == width) either narrower than four tiles and not a whole number of tiles, or whole
// tiles narrower than a register group; enough of them for 32 virtual rows.
int64_t narrow_virtual_width(const NarrowColumnKernels& k, int64_t rows, int64_t width, int64_t stride);

// `rows` rows of `width` elements as virtual rows of p = narrow_virtual_width(...) > 0 elements;
// row j has index first + j; column c continues best[c] (index[c] for arg kinds). Returns how many
// leading rows it took (whole virtual rows, or none): the caller's usual kernels do the rest from
// the state left.
int64_t narrow_columns(const NarrowColumnKernels& k, int64_t p, const void* x, int64_t rows, int64_t width,
                       int64_t first, void* best, int32_t* index);

// The arg kinds' merge below, untyped: keys[v] (Rule::merge_key) for the width * r candidates,
// virtual column q * width + c at row first + vindex[v] * r + q, then each column's carried
// state's key. For each column, from[c] is its winning candidate (-1: the carried state, before
// every candidate) and row[c] that candidate's row.
void merge_keys(const int64_t* keys, const int32_t* vindex, int64_t width, int64_t r, int64_t first, bool last,
                int64_t* from, int64_t* row);

// Each real column's carried state (earliest) and its r candidates: virtual column q * width + c,
// at row first + vindex * r + q. False, with nothing stored, when ReduceMax (no index) cannot tell
// which of tied candidates with different bits came first. An arg kind's call from row 0 starts
// fresh (registry.h): the carried state is the starting value at index 0, not read.
// The arg kinds compare candidates as int64 keys in merge_keys: a branchy compare per candidate,
// NaN tests and all, was most of a float16 [N,256,5] slice's time (8 candidates a column), and
// the keys keep the typed code small. ReduceMax's merges are of a few candidates (InterleavedMax:
// one a lane), where the keys' extra pass measured 4-13% slower.
template <class Rule, bool Index>
__attribute__((noinline)) OX_SMALL_CODE bool narrow_merge(const void* vbest_bytes, const int32_t* vindex, int64_t width,
                                                         int64_t r, int64_t first, void* best_bytes, int32_t* index) {
  using Raw = typename Rule::Raw;
  const Raw* vbest = static_cast<const Raw*>(vbest_bytes);
  Raw* best = static_cast<Raw*>(best_bytes);
  if constexpr (Index) {
    const int64_t count = width * r;
    int64_t keys[kMaxNarrowCandidates + kMaxNarrowWidth], from[kMaxNarrowWidth], row[kMaxNarrowWidth];
    for (int64_t v = 0; v < count; ++v) keys[v] = Rule::merge_key(vbest[v]);
    for (int64_t c = 0; c < width; ++c) keys[count + c] = Rule::merge_key(state_value<Rule, Index>(best + c, first));
    merge_keys(keys, vindex, width, r, first, Rule::kLast, from, row);
    const bool fresh = starts_fresh<Index>(first);
    for (int64_t c = 0; c < width; ++c) {
      if (from[c] < 0 && !fresh) continue;  // the carried state stays
      best[c] = from[c] >= 0 ? vbest[from[c]] : Rule::identity();
      index[c] = static_cast<int32_t>(from[c] >= 0 ? row[c] : 0);
    }
  } else {
    Raw value[kMaxNarrowWidth];
    for (int64_t c = 0; c < width; ++c) {
      Raw b = best[c];
      int64_t at = -1;  // -1: the carried state, before every candidate
      bool unknown_order = false;
      for (int64_t q = 0, v = c; q < r; ++q, v += width) {
        const Raw x = vbest[v];
        if (Rule::replaces(x, b)) {  // (the first-index rule: strictly better, in either order)
          b = x, at = 0, unknown_order = false;
        } else if (at >= 0 && !Rule::replaces(b, x) && std::memcmp(&b, &x, sizeof(Raw)) != 0) {
          unknown_order = true;  // tied with a candidate whose bits may have come first
        }
      }
      if (unknown_order) return false;
      value[c] = b;
    }
    for (int64_t c = 0; c < width; ++c) best[c] = value[c];
  }
  return true;
}

}  // namespace ox
