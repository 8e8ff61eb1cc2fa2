// ArgMax / ArgMin / ReduceMax over columns (the reduced axis has `inner` elements after it) in
// SIMD: vectorized across the row, whole rows compared lane-wise against the running best of
// their columns. A group of columns keeps its best values (and int32 index vectors) in
// registers over all the rows of the call, then stores them back to the state arrays.
// Each lane applies ArgRule exactly (NaN wins, ties by position, -0 == +0) through the lane
// policy's rule key and replaces() mask, so no block ever needs settling afterwards.
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernels/lanes.h"
#include "kernels/traits.h"

namespace ox {

template <class L, class Rule, bool Index>
struct ColumnScan {
  using Raw = typename L::Raw;
  using V = typename L::V;
  using Key = typename L::Key;
  static constexpr Direction D = Rule::kDirection;
  static constexpr bool Last = Rule::kLast;
  static constexpr int kLanes = L::kLanes;
  // A tile is whole vectors of values and whole int32x4 index vectors.
  static constexpr int kTile = kLanes < 4 ? 4 : kLanes;
  static constexpr int kValueVectors = kTile / kLanes;
  static constexpr int kIndexVectors = Index ? kTile / 4 : 0;
  static constexpr bool kKeyIsRaw = std::is_same<Key, V>::value;  // else keep both
  static constexpr int kRegs = kValueVectors * (kKeyIsRaw ? 1 : 2) + kIndexVectors;
  static constexpr int kGroup = kRegs >= 8 ? 1 : (8 / kRegs > 4 ? 4 : 8 / kRegs);  // tiles in registers

  // Columns [0, Tiles * kTile) of x (row k at x + k * stride) against best/index.
  template <int Tiles>
  static void group(const Raw* x, int64_t rows, int64_t stride, int64_t first, Raw* best, int32_t* index) {
    constexpr int NV = Tiles * kValueVectors;
    constexpr int NI = Tiles * kIndexVectors + (Index ? 0 : 1);
    V b[NV];
    Key bk[NV];
    simd::I32 ix[NI];
    for (int v = 0; v < NV; ++v) b[v] = simd::load(best + v * kLanes), bk[v] = L::template rule_key<D>(b[v]);
    for (int q = 0; q < Tiles * kIndexVectors; ++q) ix[q] = simd::load(index + q * 4);
    for (int64_t k = 0; k < rows; ++k) {
      const Raw* p = x + k * stride;
      const simd::I32 row = simd::splat(static_cast<int32_t>(first + k));
      for (int t = 0; t < Tiles; ++t) {
        typename L::M m[kValueVectors];
        for (int r = 0; r < kValueVectors; ++r) {
          const int v = t * kValueVectors + r;
          const V x_v = simd::load(p + v * kLanes);
          const Key c = L::template rule_key<D>(x_v);
          m[r] = L::template replaces<D, Last>(c, bk[v]);
          bk[v] = simd::select(m[r], c, bk[v]);
          if constexpr (!kKeyIsRaw) b[v] = simd::select(m[r], x_v, b[v]);
        }
        if constexpr (Index) {
          simd::I32 im[kIndexVectors];
          if constexpr (kValueVectors == 2)
            im[0] = simd::index_masks(m[0], m[1]);
          else
            simd::index_masks(m[0], im);
          for (int q = 0; q < kIndexVectors; ++q)
            ix[t * kIndexVectors + q] = simd::select(im[q], row, ix[t * kIndexVectors + q]);
        }
      }
    }
    for (int v = 0; v < NV; ++v) simd::store(best + v * kLanes, kKeyIsRaw ? simd::bits<V>(bk[v]) : b[v]);
    for (int q = 0; q < Tiles * kIndexVectors; ++q) simd::store(index + q * 4, ix[q]);
  }

  // `rows` rows of `width` >= kTile elements, `stride` apart; row k has index first + k. A width
  // that is not a whole number of tiles ends with a tile overlapping the one before: walking the
  // same rows again from the state they produced leaves it unchanged, under either tie rule.
  static void run(const Raw* x, int64_t rows, int64_t width, int64_t stride, int64_t first, Raw* best,
                  int32_t* index) {
    int64_t j = 0;
    for (; j + kGroup * kTile <= width; j += kGroup * kTile)
      group<kGroup>(x + j, rows, stride, first, best + j, Index ? index + j : nullptr);
    for (; j + kTile <= width; j += kTile) group<1>(x + j, rows, stride, first, best + j, Index ? index + j : nullptr);
    if (j < width) {
      j = width - kTile;
      group<1>(x + j, rows, stride, first, best + j, Index ? index + j : nullptr);
    }
  }
};

}  // namespace ox
