// Sign-magnitude floats as raw bits (float16/bfloat16 as uint16, float32 as uint32): the lanes
// holding the same number, a negative NaN's lanes, and the row pass on the bits
// (SignMagnitudeSummary).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/lane_ops.h"
#include "kernels/simd.h"

namespace ox {

// float16/bfloat16 lanes (bits as int16) holding a negative NaN: above -inf's bits (`neg_inf`),
// below zero. An int16 max keeps such a state against every positive number, so the halving
// folds (row_halving.h, row_group_max.h) hand a group with one back instead of merging it.
inline simd::Vec<int16_t> negative_nan_lanes(simd::Vec<int16_t> bits, uint16_t neg_inf) {
  return (bits > simd::splat(static_cast<int16_t>(neg_inf))) & (bits < simd::Vec<int16_t>{});
}

// The sign bit of a sign-magnitude float held as the unsigned integer U.
template <class U>
constexpr U sign_bit() {
  return U(U(1) << (8 * sizeof(U) - 1));
}

// Lanes of v holding the same number as m, both as the bits of a sign-magnitude float (a NaN-free
// m): equal bits, or both zeros of either sign.
template <class U>
inline simd::MaskOf<U> same_number_bits(simd::Vec<U> v, simd::Vec<U> m) {
  const simd::Vec<U> care = ~(simd::bits<simd::Vec<U>>(((m << 1) >> 1) == simd::Vec<U>{}) & simd::splat<U>(sign_bit<U>()));
  return ((v ^ m) & care) == simd::Vec<U>{};
}

// The row pass of a sign-magnitude float (float16/bfloat16 as uint16, float32 as uint32) on its
// raw bits. As signed integers the non-negative values (+0 .. +inf, then +NaN) are ordered; the
// negative ones are ordered by magnitude as unsigned. So a block needs three lane-wise integer
// ops: P = max_s(bits), L = min_u(bits), H = max_u(bits):
//   max = (P >= 0) ? P : L        (some non-negative lane, else the negative of least magnitude)
//   min = (H >= sign) ? H : L     (the negative of most magnitude, else the least non-negative)
//   NaN present <=> P > +inf or H > -inf (as unsigned)
// A raw pass keeps P and H only, two integer ops per vector (for float32 1.4-1.5x FloatLanes'
// pmax and add in cache, V8 on a Zen 5 host). A max that is positive (P > 0) and a min that is
// negative (H > sign as unsigned) are then exact, as are the NaN detector and the marks: equal
// numbers there have equal bits, and L stands in for the favoured side's extreme, so mark() and
// spread() read P (H). A block wholly on the other side of zero (all negative for a max, e.g.
// log-probabilities; all non-negative for a min, e.g. distances) has a raw pass of its own, the
// other side's: L and the one of P, H that orders that side as L does (on it signed and unsigned
// order agree), two ops again; its extreme is L's. A zero maximum beside negatives (a zero
// minimum beside positives) is summarized in full (float32: by FloatLanes' pass, float_lanes.h).
// `Outer` is the row's vector type (the float's own for float32), `Inf::bits()` +infinity's bits.
template <Direction D, class Outer, class U, class Inf>
struct SignMagnitudeSummary {
  static constexpr Direction kDirection = D;
  using V = simd::Vec<U>;
  using S = simd::Vec<typename simd::SignedOf<sizeof(U)>::type>;
  using M = simd::MaskOf<U>;
  static constexpr U kSign = sign_bit<U>();
  static S pos_inf() { return simd::bits<S>(simd::splat<U>(Inf::bits())); }
  static V neg_inf() { return simd::splat<U>(U(kSign | Inf::bits())); }
  S p;
  V l, h;
  static SignMagnitudeSummary of(Outer o) {
    const V v = simd::bits<V>(o);
    return {simd::bits<S>(v), v, v};
  }
  void merge(const SignMagnitudeSummary& o) { p = vmax(p, o.p), l = vmin(l, o.l), h = vmax(h, o.h); }
  void merge_raw(const SignMagnitudeSummary& o) {
    p = vmax(p, o.p), h = vmax(h, o.h);
    l = D == Direction::Max ? simd::bits<V>(p) : h;
  }
  // The other side's pass: L and P (a max), L and H (a min); the third copies its twin, so the
  // NaN test holds as it is.
  void merge_other(const SignMagnitudeSummary& o) {
    l = vmin(l, o.l);
    if (D == Direction::Max) p = vmax(p, o.p), h = simd::bits<V>(p);
    else h = vmax(h, o.h), p = simd::bits<S>(h);
  }
  // Whether a raw pass settles the block: a NaN, or an extreme strictly on the favoured side.
  bool raw_decides() const {
    if (maybe_nan()) return true;
    if (D == Direction::Max) return simd::any(p > S{});
    return simd::any(h > simd::splat<U>(kSign));
  }
  // After a full pass: whether a raw one would have settled the block (picks the next block's).
  bool raw_would_decide() const { return raw_decides(); }
  // Whether the other side's pass settles the block: a NaN, or every value on that side.
  bool other_decides() const { return maybe_nan() || other_would_decide(); }
  bool other_would_decide() const {
    if (D == Direction::Max) return !simd::any(p >= S{});
    return !simd::any(h >= simd::splat<U>(kSign));
  }
  bool maybe_nan() const { return simd::any(p > pos_inf()) || simd::any(h > neg_inf()); }
  template <bool OrEqual, class R>
  static constexpr bool may_beat(R) { return true; }  // the spread() extreme decides
  Outer spread() const {
    const V lm = simd::fold_lanes(l, [](V a, V b) { return vmin(a, b); });
    if (D == Direction::Max) {
      const S pm = simd::fold_lanes(p, [](S a, S b) { return vmax(a, b); });
      return simd::bits<Outer>(simd::select(pm >= S{}, simd::bits<V>(pm), lm));
    }
    const V hm = simd::fold_lanes(h, [](V a, V b) { return vmax(a, b); });
    return simd::bits<Outer>(simd::select(simd::bits<S>(hm) < S{}, hm, lm));
  }
  // After a raw pass that settles the block (raw_decides), the extreme is P's max (H's):
  // spread() without L's fold and the select, a few ops less per row of short rows.
  Outer spread_raw() const {
    if (D == Direction::Max) return simd::bits<Outer>(simd::fold_lanes(p, [](S a, S b) { return vmax(a, b); }));
    return simd::bits<Outer>(simd::fold_lanes(h, [](V a, V b) { return vmax(a, b); }));
  }
  // After the other side's pass: the value of least magnitude, L's.
  Outer spread_other() const { return simd::bits<Outer>(simd::fold_lanes(l, [](V a, V b) { return vmin(a, b); })); }
  // The lane-wise extreme as bits (max: P if non-negative, else L; min: H if negative, else L).
  using Mark = V;
  Mark mark() const {
    if (D == Direction::Max) return simd::select(p >= S{}, simd::bits<V>(p), l);
    return simd::select(simd::bits<S>(h) < S{}, h, l);
  }
  // After a raw pass, which keeps L equal to P (H), the same mark without the select (clang
  // does not see that both arms are equal and spends three ops per group on it).
  Mark mark_raw() const { return D == Direction::Max ? simd::bits<V>(p) : h; }
  Mark mark_other() const { return l; }
  static M holds(Mark k, Outer m) { return same_number_bits<U>(k, simd::bits<V>(m)); }
  // Columns (ReduceMax): exact unless a NaN, or unless the extreme is a zero whose sign is in
  // doubt: +0 from P while the lane also met a negative (maybe a -0 first), -0 from H while
  // the lane also met a +0.
  bool lanes_exact() const {
    if (maybe_nan()) return false;
    if (D == Direction::Max) return !simd::any((p == S{}) & simd::bits<S>(h >= simd::splat<U>(kSign)));
    return !simd::any((h == simd::splat<U>(kSign)) & (l == V{}));
  }
  Outer lane_extreme() const { return simd::bits<Outer>(mark()); }
  // After a raw pass (P and H only): every lane exact, its extreme on the favoured side and not a zero.
  bool raw_lanes_exact() const {
    if (maybe_nan()) return false;
    if (D == Direction::Max) return !simd::any(~(p > S{}));
    return !simd::any(~(h > simd::splat<U>(kSign)));
  }
};

}  // namespace ox
