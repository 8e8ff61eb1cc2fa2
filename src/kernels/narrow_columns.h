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
// One untyped driver serves every kernel set; only the merge is typed, per rule (a short pass
// over the candidates), so the path adds little to the module.
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>

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

// The arg kinds' merge finds each column's best candidate in one branch-free pass (a branchy
// compare per candidate, NaN tests and all, was most of a float16 [N,256,5] slice's time).
// 1- to 4-byte kinds compare a candidate as one uint64, larger when better under the rule: its
// value key (merge_key above the rule's worst value's: under 2^32, every NaN 2^32) over its row
// (31 bits, as rows lie below kMaxAxisLength = INT32_MAX: the row under the last-index rule,
// INT32_MAX - row under the first), so a column's winner is a plain max; its row gives back
// which candidate it was, so its bits (a NaN's payload, a zero's sign) are the ones kept. 8-byte
// kinds' keys fill an int64: they compare (key, row) pairs. Kernel in cache (bench/kernels.mjs
// --ab), slices over axis 1 of [N,256,W], against the two passes before (the best key, then the
// first row holding it, over int64 keys an untyped function took): uint8 W = 5 and 15
// 1.35-1.39x, float32 W = 5 1.17-1.20x, float16 W = 7 1.19x, int32 W = 5 1.10x faster; pairs
// for every width 0.86-0.89x of the composite keys; int64 W = 5 pairs 1.03x. +0.4 KB gzipped.
// Ranked holds either way, so narrow_merge has one loop for both.
// A candidate as the merge ranks it: Ranked<Rule>::of(value, row), the better of two under the
// rule, and its row back.
template <class Rule, bool Composite = sizeof(typename Rule::Raw) <= 4>
struct Ranked {  // 1- to 4-byte kinds: one uint64
  uint64_t key;
  static inline __attribute__((always_inline)) Ranked of(typename Rule::Raw v, int64_t row) {
    const int64_t k = Rule::merge_key(v);
    const uint64_t value = k == std::numeric_limits<int64_t>::max()
                               ? uint64_t{1} << 32
                               : static_cast<uint64_t>(k - Rule::merge_key(Rule::identity()));
    return {value << 31 | static_cast<uint64_t>(Rule::kLast ? row : INT32_MAX - row)};
  }
  static Ranked better(Ranked x, Ranked y) { return {x.key > y.key ? x.key : y.key}; }
  int64_t row() const {
    const int64_t low = static_cast<int64_t>(key & INT32_MAX);
    return Rule::kLast ? low : INT32_MAX - low;
  }
};
template <class Rule>
struct Ranked<Rule, false> {  // 8-byte kinds: the key and the row
  int64_t key, at;
  static inline __attribute__((always_inline)) Ranked of(typename Rule::Raw v, int64_t row) {
    return {Rule::merge_key(v), row};
  }
  static Ranked better(Ranked x, Ranked y) {  // field by field: selects, no branch
    const bool wins = x.key > y.key || (x.key == y.key && (Rule::kLast ? x.at > y.at : x.at < y.at));
    return {wins ? x.key : y.key, wins ? x.at : y.at};
  }
  int64_t row() const { return at; }
};

// `count` slices of [reduce, width], each from row 0 into its own states (best and index + s * width),
// by p = narrow_virtual_width(k, reduce, width, width) (0: not at all), the rows it leaves by the
// set's column kernels: one slice's choice holds for every slice, so the column entry's per-call
// checks are skipped (kernel in cache: slices of 40 rows of 5 1.03-1.16x, of 256 rows 1.01-1.07x).
void narrow_slices(const NarrowColumnKernels& k, int64_t p, const void* x, int64_t count, int64_t reduce,
                   int64_t width, void* best, int32_t* index);

// Each real column's carried state (earliest) and its r candidates: virtual column q * width + c,
// at row first + vindex * r + q. False, with nothing stored, when ReduceMax (no index) cannot tell
// which of tied candidates with different bits came first. An arg kind's call from row 0 starts
// fresh (registry.h): its first candidate stands in for the carried state.
template <class Rule, bool Index>
__attribute__((noinline)) OX_SMALL_CODE bool narrow_merge(const void* vbest_bytes, const int32_t* vindex, int64_t width,
                                                         int64_t r, int64_t first, void* best_bytes, int32_t* index) {
  using Raw = typename Rule::Raw;
  const Raw* vbest = static_cast<const Raw*>(vbest_bytes);
  Raw* best = static_cast<Raw*>(best_bytes);
  if constexpr (Index) {
    const bool fresh = starts_fresh<Index>(first);
    for (int64_t c = 0; c < width; ++c) {
      // The carried state's row (index[c]) lies before every candidate's.
      Ranked<Rule> top = fresh ? Ranked<Rule>::of(vbest[c], first + static_cast<int64_t>(vindex[c]) * r)
                               : Ranked<Rule>::of(best[c], index[c]);
      for (int64_t q = 0, v = c; q < r; ++q, v += width) {
        const Ranked<Rule> x = Ranked<Rule>::of(vbest[v], first + static_cast<int64_t>(vindex[v]) * r + q);
        top = Ranked<Rule>::better(x, top);
      }
      const int64_t row = top.row();
      if (row < first) continue;  // the carried state stays
      best[c] = vbest[(row - first) % r * width + c];
      index[c] = static_cast<int32_t>(row);
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
