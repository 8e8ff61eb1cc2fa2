// Per-dtype vector facts for the SIMD kernels, so each kernel family is written once:
//  - Summary: what a row block's first pass accumulates (a running max/min per lane and, for
//    floats, a NaN detector), and the block's extreme value afterwards;
//  - nan_mask / equal_mask: the exact per-lane tests of the rescan that settles a block;
//  - Key / key(): a lane-wise compare domain with the ArgRule order built in, for the column
//    kernels that compare element by element.
// Extremes are ordered as the scalar Traits order them: -0 == +0, and NaN handled apart.
#pragma once
#include <cstdint>

#include "core/half.h"
#include "kernels/simd.h"
#include "kernels/traits.h"

namespace ox {

template <class V>
inline V vmax(V a, V b) { return a < b ? b : a; }  // wasm: f32x4.pmax / i32x4.max_s / u8x16.max_u ...
template <class V>
inline V vmin(V a, V b) { return b < a ? b : a; }  // wasm: f32x4.pmin / i32x4.min_s ...
template <Direction D, class V>
inline V vbetter(V a, V b) { return D == Direction::Max ? vmax(a, b) : vmin(a, b); }

// float, double. A running sum of the block (one add per vector) turns NaN when a NaN was added
// (or +inf met -inf: a false alarm the rescan clears), the cheapest sticky NaN test in wasm. The
// running extreme uses pmax/pmin (f32x4.max is several times slower in wasm): NaN lanes may
// garble it, but it is only read when the block holds no NaN.
template <class T>
struct FloatLanes {
  using Raw = T;
  using V = simd::Vec<T>;
  using M = simd::MaskOf<T>;
  using Key = V;
  static constexpr int kLanes = simd::kBytes / sizeof(T);
  static constexpr int kUnroll = 8;  // vectors merged as a tree per loop iteration

  template <Direction D>
  struct Summary {
    V ext, sum;
    static Summary of(V v) { return {v, v}; }
    void merge(const Summary& o) { ext = vbetter<D>(ext, o.ext), sum += o.sum; }
    bool maybe_nan() const { return simd::any(sum != sum); }
    // Whether some lane is better than b (or as good, OrEqual); b and the block hold no NaN.
    template <bool OrEqual>
    bool may_beat(Raw b) const {
      const V bv = simd::splat(b);
      if (D == Direction::Max) return simd::any(OrEqual ? ext >= bv : ext > bv);
      return simd::any(OrEqual ? ext <= bv : ext < bv);
    }
    // The block's extreme in every lane (no NaN in the block here): the rescan compares with
    // it directly, without a round trip through a scalar.
    V spread() const { return simd::fold_lanes(ext, [](V a, V b) { return vbetter<D>(a, b); }); }
    Raw extreme() const { return spread()[0]; }
    // The lane-wise extreme, kept per group of a block: the lanes of a group that hold the
    // block's extreme m (no NaN in the block) are the lanes whose mark equals m.
    using Mark = V;
    Mark mark() const { return ext; }
    static M holds(Mark k, V m) { return k == m; }  // -0 == +0
  };
  static M nan_mask(V v) { return v != v; }
  static M equal_mask(V v, V m) { return v == m; }  // -0 == +0
  static bool zero(Raw m) { return m == 0; }  // an extreme whose bits depend on which element

  template <Direction D>
  static Key rule_key(V v) { return v; }
  static V raw_of(Key k) { return k; }
  static constexpr bool kKeyInvertible = true;
  // Columns try the fast update first (valid while no NaN is met: a NaN sends the tile to the
  // exact update below), tracked by a running sum as in Summary.
  static constexpr bool kFastColumns = true;
  static constexpr bool kHasNan = true;
  // One lane-wise update of the best b by the candidate c: one compare (the replace mask) and
  // the value it selects in one pmax/pmin (b < c ? c : b, or c < b ? b : c for Last).
  template <Direction D>
  static Key fast_key(V v) { return v; }
  // The mask comes from the result, as for integers: "kept" (same bits) for the first-index
  // rule, "reached" (c equals the new best) for the last-index rule. Comparing c with b instead
  // lets clang fuse compare and pmax into one select: three instructions in V8 for one.
  template <Direction D, bool Last>
  static constexpr bool fast_keeps() { return !Last; }
  template <Direction D, bool Last>
  static M fast_step(Key c, Key& b) {
    const Key old = b;
    if (D == Direction::Max) b = simd::opaque(Last ? vmax(c, b) : vmax(b, c));
    else b = simd::opaque(Last ? vmin(c, b) : vmin(b, c));
    return Last ? c == b : simd::bits<M>(old) == simd::bits<M>(b);
  }
  // Whether each candidate lane replaces the best lane under ArgRule<.., D, Last>.
  template <Direction D, bool Last>
  static M replaces(Key c, Key b) {
    const M better = D == Direction::Max ? (Last ? c >= b : c > b) : (Last ? c <= b : c < b);
    const M c_nan = c != c;
    return Last ? (better | c_nan) : ((better | c_nan) & (b == b));
  }
};

// int8..uint32 with native max/min; int64 via compare + select; uint64 in a key domain with the
// sign bit flipped (wasm has no unsigned 64-bit compare). No NaN.
template <class T, class K = T>
struct IntLanes {
  using Raw = T;
  using V = simd::Vec<T>;
  using M = simd::MaskOf<T>;
  using Key = simd::Vec<K>;
  static constexpr int kLanes = simd::kBytes / sizeof(T);
  static constexpr int kUnroll = 8;  // vectors merged as a tree per loop iteration

  static Key key(V v) {
    if constexpr (sizeof(K) == 8 && K(-1) < 0 && T(-1) > 0)
      return simd::bits<Key>(v ^ simd::splat<T>(T(1) << 63));
    else
      return v;
  }
  static Raw unkey(K k) {
    if constexpr (sizeof(K) == 8 && K(-1) < 0 && T(-1) > 0)
      return static_cast<Raw>(static_cast<T>(k) ^ (T(1) << 63));
    else
      return k;
  }

  template <Direction D>
  struct Summary {
    Key ext;
    static Summary of(V v) { return {key(v)}; }
    void merge(const Summary& o) { ext = vbetter<D>(ext, o.ext); }
    static constexpr bool maybe_nan() { return false; }
    template <bool OrEqual>
    bool may_beat(Raw b) const {
      const Key bv = key(simd::splat(b));
      if (D == Direction::Max) return simd::any(OrEqual ? ext >= bv : ext > bv);
      return simd::any(OrEqual ? ext <= bv : ext < bv);
    }
    V spread() const { return raw_of(simd::fold_lanes(ext, [](Key a, Key b) { return vbetter<D>(a, b); })); }
    Raw extreme() const { return spread()[0]; }
    using Mark = Key;
    Mark mark() const { return ext; }
    static Key holds(Mark k, V m) { return k == key(m); }
  };
  static M nan_mask(V) { return M{}; }
  static M equal_mask(V v, V m) { return v == m; }
  static bool zero(Raw) { return false; }

  template <Direction D>
  static Key rule_key(V v) { return key(v); }
  static V raw_of(Key k) {
    if constexpr (sizeof(K) == 8 && K(-1) < 0 && T(-1) > 0)
      return simd::bits<V>(k) ^ simd::splat<T>(T(1) << 63);
    else
      return k;
  }
  static constexpr bool kKeyInvertible = true;
  static constexpr bool kFastColumns = true;  // exact: integers have no NaN
  static constexpr bool kHasNan = false;
  // One update: b = max(b, c) (min), and the mask from comparing the result, which needs no
  // unsigned compare (x86 has none): "kept" (result == b) for the first-index rule, "replaced"
  // (result == c) for the last-index rule. Equal integers have equal bits.
  template <Direction D>
  static Key fast_key(V v) { return key(v); }
  template <Direction D, bool Last>
  static constexpr bool fast_keeps() { return !Last; }
  template <Direction D, bool Last>
  static M fast_step(Key c, Key& b) {
    const Key n = simd::opaque(vbetter<D>(b, c));
    const M m = Last ? (n == c) : (n == b);
    b = n;
    return m;
  }

  template <Direction D, bool Last>
  static M replaces(Key c, Key b) {
    return D == Direction::Max ? (Last ? c >= b : c > b) : (Last ? c <= b : c < b);
  }
};

// float16 / bfloat16 as raw bits, never widened. As int16, the non-negative values (+0 .. +inf,
// then +NaN) are ordered; the negative ones are ordered by magnitude as uint16. So a block needs
// three lane-wise ops: P = max_s(bits), L = min_u(bits), H = max_u(bits):
//   max = (P >= 0) ? P : L        (some non-negative lane, else the negative of least magnitude)
//   min = (H >= 0x8000) ? H : L   (the negative of most magnitude, else the least non-negative)
//   NaN present <=> P > +inf or H > -inf (as uint16)
template <class Format>
struct HalfLanes {
  using Raw = uint16_t;
  using V = simd::Vec<uint16_t>;
  using S = simd::Vec<int16_t>;
  using M = simd::MaskOf<uint16_t>;
  using Key = S;
  static constexpr int kLanes = 8;
  static constexpr int kUnroll = 8;
  static constexpr uint16_t kInf = Format::kInf;
  static constexpr uint16_t kNegInf = 0x8000 | Format::kInf;

  template <Direction D>
  struct Summary {
    S p;
    V l, h;
    static Summary of(V v) { return {simd::bits<S>(v), v, v}; }
    void merge(const Summary& o) { p = vmax(p, o.p), l = vmin(l, o.l), h = vmax(h, o.h); }
    bool maybe_nan() const {
      return simd::any(p > simd::splat<int16_t>(kInf)) || simd::any(h > simd::splat<uint16_t>(kNegInf));
    }
    template <bool OrEqual>
    static constexpr bool may_beat(Raw) { return true; }  // extreme() decides
    V spread() const {
      const V lm = simd::fold_lanes(l, [](V a, V b) { return vmin(a, b); });
      if (D == Direction::Max) {
        const S pm = simd::fold_lanes(p, [](S a, S b) { return vmax(a, b); });
        return simd::select(pm >= S{}, simd::bits<V>(pm), lm);
      }
      const V hm = simd::fold_lanes(h, [](V a, V b) { return vmax(a, b); });
      return simd::select(simd::bits<S>(hm) < S{}, hm, lm);
    }
    Raw extreme() const { return spread()[0]; }
    // The lane-wise extreme as bits (max: P if non-negative, else L; min: H if negative, else L).
    using Mark = V;
    Mark mark() const {
      if (D == Direction::Max) return simd::select(p >= S{}, simd::bits<V>(p), l);
      return simd::select(simd::bits<S>(h) < S{}, h, l);
    }
    static M holds(Mark k, V m) { return equal_mask(k, m); }
  };
  static M nan_mask(V v) {
    return simd::bits<S>(v & simd::splat<uint16_t>(0x7FFF)) > simd::splat<int16_t>(kInf);
  }
  static M equal_mask(V v, V m) {  // the same number: -0 and +0 both match a zero
    const V care = ~(simd::bits<V>(magnitude(m) == V{}) & simd::splat<uint16_t>(0x8000));
    return ((v ^ m) & care) == V{};
  }
  static bool zero(Raw m) { return (m & 0x7FFF) == 0; }

  // Ordered int16 key (sign-magnitude -> two's complement, -0 == +0); NaN moved past the end
  // the rule favours: above +inf for a max, below -inf for a min. Then plain int16 compares
  // implement ArgRule exactly: a NaN beats any number, and ties between NaNs go by position.
  template <Direction D>
  static Key rule_key(V v) {
    const S mag = simd::bits<S>(v & simd::splat<uint16_t>(0x7FFF));
    const S neg = simd::bits<S>(v) >> 15;
    const S k = (mag ^ neg) - neg;
    const M nan = mag > simd::splat<int16_t>(kInf);
    const S nan_key = simd::splat<int16_t>(D == Direction::Max ? INT16_MAX : INT16_MIN);
    return simd::select(nan, nan_key, k);
  }
  template <Direction D, bool Last>
  static M replaces(Key c, Key b) {
    return D == Direction::Max ? (Last ? c >= b : c > b) : (Last ? c <= b : c < b);
  }
  // The key folds -0/+0 and NaN payloads: the raw bits are kept beside it.
  static constexpr bool kKeyInvertible = false;
  static V raw_of(Key k) { return simd::bits<V>(k); }  // unused
  // Columns first try the plain ordered key (-0 == +0, four ops) with a max/min and a compare,
  // the raw bits selected beside it; the running max of the magnitudes flags a NaN, which sends
  // the tile to the exact update on rule keys.
  static constexpr bool kFastColumns = true;
  static constexpr bool kHasNan = true;
  // The magnitude by two shifts: V8 rebuilds a v128.const on every loop iteration.
  static V magnitude(V v) { return (v << 1) >> 1; }
  template <Direction D>
  static Key fast_key(V v) {
    const S mag = simd::bits<S>(magnitude(v));
    const S neg = simd::bits<S>(v) >> 15;
    return (mag ^ neg) - neg;
  }
  template <Direction D, bool Last>
  static constexpr bool fast_keeps() { return !Last; }
  template <Direction D, bool Last>
  static M fast_step(Key c, Key& b) {  // as for floats; equal keys: the raw select keeps the zero
    const Key n = simd::opaque(vbetter<D>(b, c));
    const M m = Last ? (n == c) : (n == b);
    b = n;
    return m;
  }
};

template <DType D> struct LanesFor;
template <> struct LanesFor<DType::Float32> { using type = FloatLanes<float>; };
template <> struct LanesFor<DType::Float64> { using type = FloatLanes<double>; };
template <> struct LanesFor<DType::Float16> { using type = HalfLanes<Float16Format>; };
template <> struct LanesFor<DType::BFloat16> { using type = HalfLanes<BFloat16Format>; };
template <> struct LanesFor<DType::Int8> { using type = IntLanes<int8_t>; };
template <> struct LanesFor<DType::Uint8> { using type = IntLanes<uint8_t>; };
template <> struct LanesFor<DType::Int16> { using type = IntLanes<int16_t>; };
template <> struct LanesFor<DType::Uint16> { using type = IntLanes<uint16_t>; };
template <> struct LanesFor<DType::Int32> { using type = IntLanes<int32_t>; };
template <> struct LanesFor<DType::Uint32> { using type = IntLanes<uint32_t>; };
template <> struct LanesFor<DType::Int64> { using type = IntLanes<int64_t>; };
template <> struct LanesFor<DType::Uint64> { using type = IntLanes<uint64_t, int64_t>; };
template <> struct LanesFor<DType::Bool> { using type = IntLanes<uint8_t>; };

}  // namespace ox
