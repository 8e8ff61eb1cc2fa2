// ArgMax / ArgMin / ReduceMax over rows (the reduced axis innermost) in SIMD, blocked two-pass:
//  1. one pass over a block of a few KB keeps a lane-wise running max (min) and a NaN detector,
//     the cheapest loop there is (for float32: f32x4.pmax + f32x4.add per vector);
//  2. only when the block's extreme beats the running best (or the detector fires) is the block,
//     still in L1, rescanned for the exact index: the first (last) lane equal to the extreme, or
//     the first (last) NaN. A NaN ends the row for the first-index rule: nothing replaces it.
// Ties, -0 == +0, NaN payload bits and the carried state match the portable kernels exactly.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/lanes.h"
#include "kernels/traits.h"

namespace ox {

// 4 KiB: the rescan stays in L1; 1-8 KiB measured alike on the logits rows.
constexpr int64_t kRowBlockBytes = 4096;

template <class L, class Rule, bool Index>
struct RowScan {
  using Raw = typename L::Raw;
  using V = typename L::V;
  using Tr = typename Rule::ValueTraits;
  static constexpr Direction D = Rule::kDirection;
  static constexpr bool Last = Rule::kLast;
  static constexpr ptrdiff_t kLanes = L::kLanes;
  static constexpr int64_t kBlock = kRowBlockBytes / sizeof(Raw);
  using Summary = typename L::template Summary<D>;

  // Lane-wise pass over p[0, n), n >= kLanes; the last vector may overlap the one before. Each
  // iteration merges kUnroll vectors as a tree, so the loop-carried chain is one merge (the add
  // of the float NaN detector has a 3-cycle latency).
  template <int G>
  static Summary tree(const Raw* q) {
    if constexpr (G == 1) {
      return Summary::of(simd::load(q));
    } else {
      Summary a = tree<G / 2>(q);
      a.merge(tree<G / 2>(q + (G / 2) * kLanes));
      return a;
    }
  }
  static Summary summarize(const Raw* p, ptrdiff_t n) {
    constexpr ptrdiff_t step = L::kUnroll * kLanes;
    Summary s = Summary::of(simd::load(p));
    ptrdiff_t i = 0;
    for (; i + step <= n; i += step) s.merge(tree<L::kUnroll>(p + i));
    for (; i + kLanes <= n; i += kLanes) s.merge(Summary::of(simd::load(p + i)));
    if (i < n) s.merge(Summary::of(simd::load(p + n - kLanes)));
    return s;
  }

  // The first / last j in [0, n) whose lane the mask function marks, or -1 (n >= kLanes). Four
  // vectors per test: the block is in L1 and this runs once per winning block.
  template <class M>
  static int first_lane(M m) {
    for (int l = 0; l < kLanes; ++l)
      if (m[l]) return l;
    return -1;
  }
  template <class M>
  static int last_lane(M m) {
    for (int l = kLanes - 1; l >= 0; --l)
      if (m[l]) return l;
    return -1;
  }
  template <class F>
  static ptrdiff_t find_first(const Raw* p, ptrdiff_t n, F mask_of) {
    ptrdiff_t i = 0;
    for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
      const auto m0 = mask_of(simd::load(p + i)), m1 = mask_of(simd::load(p + i + kLanes));
      const auto m2 = mask_of(simd::load(p + i + 2 * kLanes)), m3 = mask_of(simd::load(p + i + 3 * kLanes));
      if (simd::any(m0 | m1 | m2 | m3)) {
        if (simd::any(m0)) return i + first_lane(m0);
        if (simd::any(m1)) return i + kLanes + first_lane(m1);
        if (simd::any(m2)) return i + 2 * kLanes + first_lane(m2);
        return i + 3 * kLanes + first_lane(m3);
      }
    }
    for (;; i += kLanes) {
      const bool final = i + kLanes >= n;
      if (final) i = n - kLanes;
      const auto m = mask_of(simd::load(p + i));
      if (simd::any(m)) return i + first_lane(m);
      if (final) return -1;
    }
  }
  template <class F>
  static ptrdiff_t find_last(const Raw* p, ptrdiff_t n, F mask_of) {
    ptrdiff_t i = n;  // lanes [i, n) are done
    for (; i >= 4 * kLanes; i -= 4 * kLanes) {
      const auto m0 = mask_of(simd::load(p + i - kLanes)), m1 = mask_of(simd::load(p + i - 2 * kLanes));
      const auto m2 = mask_of(simd::load(p + i - 3 * kLanes)), m3 = mask_of(simd::load(p + i - 4 * kLanes));
      if (simd::any(m0 | m1 | m2 | m3)) {
        if (simd::any(m0)) return i - kLanes + last_lane(m0);
        if (simd::any(m1)) return i - 2 * kLanes + last_lane(m1);
        if (simd::any(m2)) return i - 3 * kLanes + last_lane(m2);
        return i - 4 * kLanes + last_lane(m3);
      }
    }
    for (;;) {
      const bool final = i <= kLanes;
      i = final ? 0 : i - kLanes;
      const auto m = mask_of(simd::load(p + i));
      if (simd::any(m)) return i + last_lane(m);
      if (final) return -1;
    }
  }
  template <class F>
  static ptrdiff_t find(const Raw* p, ptrdiff_t n, F mask_of) {
    return Last ? find_last(p, n, mask_of) : find_first(p, n, mask_of);
  }

  // One run of `length` >= kLanes elements continuing state (*best, *index); x[0] has index `first`.
  static void run(const Raw* x, int64_t length, int64_t first, Raw* best, int32_t* index) {
    Raw b = *best;
    int64_t at = Index ? *index : 0;
    if (!Last && Tr::nan(b)) return;  // the first NaN already won
    for (int64_t s = 0; s < length; s += kBlock) {
      ptrdiff_t n = static_cast<ptrdiff_t>(length - s < kBlock ? length - s : kBlock);
      int64_t base = s;
      if (n < kLanes) base = length - kLanes, n = kLanes;  // a short tail reaches back: harmless
      const Raw* p = x + base;
      const Summary sum = summarize(p, n);
      if (sum.maybe_nan()) {
        const ptrdiff_t j = find(p, n, [](V v) { return L::nan_mask(v); });
        if (j >= 0) {
          b = p[j], at = first + base + j;
          if (!Last) break;
          continue;
        }
      }
      if (Tr::nan(b)) continue;  // (last-index rule) only a later NaN replaces a NaN
      if (!sum.template may_beat<Last>(b)) continue;  // the common case: one vector compare
      const Raw m = sum.extreme();
      if (Last ? Rule::better(b, m) : !Rule::better(m, b)) continue;
      if (Index || L::zero(m)) {  // ReduceMax needs the element only for the bits of a zero
        const ptrdiff_t j = find(p, n, [m](V v) { return L::equal_mask(v, m); });
        b = p[j], at = first + base + j;
      } else {
        b = m;
      }
    }
    *best = b;
    if (Index) *index = static_cast<int32_t>(at);
  }
};

}  // namespace ox
