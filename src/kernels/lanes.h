// Per-dtype vector facts for the SIMD kernels, so each kernel family is written once:
//  - Summary: what a row block's first pass accumulates (a running max/min per lane and, for
//    floats, a NaN detector), and the block's extreme value afterwards;
//  - nan_mask / equal_mask: the exact per-lane tests of the rescan that settles a block;
//  - Key / key(): a lane-wise compare domain with the ArgRule order built in, for the column
//    kernels that compare element by element.
// Extremes are ordered as the scalar Traits order them: -0 == +0, and NaN handled apart.
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/half.h"
#include "kernels/simd.h"
#include "kernels/traits.h"

namespace ox {

template <class V>
inline V vmax(V a, V b) { return a < b ? b : a; }  // wasm: f32x4.pmax / i32x4.max_s / u8x16.max_u ...
template <class V>
inline V vmin(V a, V b) { return b < a ? b : a; }  // wasm: f32x4.pmin / i32x4.min_s ...
// vmax / vmin of float lanes as the wasm instruction itself. clang matched f32x4.pmin from
// `b < a ? b : a` in some kernels only: the arg kinds' column steps (FastWay) took a compare and a
// v128.bitselect instead, four instructions in V8 for one (float32 ArgMin over [8192, 8] columns
// ran 1.7x ArgMax's time). Used where that was measured; elsewhere the plain forms let clang fold
// the surrounding code (as builtins everywhere, float64 ReduceMax over columns ran 0.86-0.92x).
template <Direction D, class V>
inline V vbetter_instruction(V a, V b) {
#if defined(__wasm_simd128__)
  if constexpr (std::is_same<V, simd::Vec<float>>::value)
    return D == Direction::Max ? __builtin_wasm_pmax_f32x4(a, b) : __builtin_wasm_pmin_f32x4(a, b);
  if constexpr (std::is_same<V, simd::Vec<double>>::value)
    return D == Direction::Max ? __builtin_wasm_pmax_f64x2(a, b) : __builtin_wasm_pmin_f64x2(a, b);
#endif
  return D == Direction::Max ? vmax(a, b) : vmin(a, b);
}
template <Direction D, class V>
inline V vbetter(V a, V b) { return D == Direction::Max ? vmax(a, b) : vmin(a, b); }
// Lanes where a beats b in direction D (OrEqual: or ties it), for a domain whose plain compares
// order it (numbers without NaN, or keys).
template <Direction D, bool OrEqual, class V>
inline auto vbeats(V a, V b) { return D == Direction::Max ? (OrEqual ? a >= b : a > b) : (OrEqual ? a <= b : a < b); }

// Where a block of `lanes` columns starting at c0 begins among w columns: the last block reaches
// back to end at column w (columns folded twice fold alike), and with fewer columns than lanes it
// starts at 0, its lanes past w unused (the interleaved paths' vector folds).
constexpr ptrdiff_t column_block_start(ptrdiff_t c0, ptrdiff_t w, ptrdiff_t lanes) {
  return c0 + lanes <= w || w < lanes ? c0 : w - lanes;
}

// Pieces of the column update ways (see arg_columns_simd.h) that several lane families share.
// The guard of a way exact for every lane: nothing to watch.
struct NoGuard {
  template <int N, class V, class K>
  void row(const V*, const K*) {}
  template <int N, class K>
  static constexpr bool fails(const K*) { return false; }
};
// The exact step in a domain whose compares implement the rule: replace where c beats b (or
// ties it, for the last-index rule), by a select.
template <Direction D, bool Last, class K>
inline auto select_step(K c, K& b) {
  const auto m = vbeats<D, Last>(c, b);
  b = simd::select(m, c, b);
  return m;
}

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
    // (float32: the instruction, else clang fused a following compare into a compare and a
    // select in RowGroupMax's tree merge, ArgMax's rows of 150 1.12x in cache; float64's column
    // ReduceMax ran 0.85-0.95x with it, so float64 keeps the plain form but where RowGroupMax
    // numbers its trees: merge_instruction.)
    void merge(const Summary& o) {
      if constexpr (std::is_same<T, float>::value) merge_instruction(o);
      else ext = vbetter<D>(ext, o.ext), sum += o.sum;
    }
    void merge_instruction(const Summary& o) { ext = vbetter_instruction<D>(ext, o.ext), sum += o.sum; }
    bool maybe_nan() const { return simd::any(sum != sum); }
    // Whether some lane is better than b (or as good, OrEqual); b and the block hold no NaN.
    template <bool OrEqual>
    bool may_beat(Raw b) const { return simd::any(vbeats<D, OrEqual>(ext, simd::splat(b))); }
    // The block's extreme in every lane (no NaN in the block here): the rescan compares with
    // it directly, without a round trip through a scalar.
    V spread() const { return simd::fold_lanes(ext, [](V a, V b) { return vbetter<D>(a, b); }); }
    // The lane-wise extreme, kept per group of a block: the lanes of a group that hold the
    // block's extreme m (no NaN in the block) are the lanes whose mark equals m.
    using Mark = V;
    Mark mark() const { return ext; }
    static M holds(Mark k, V m) { return k == m; }  // -0 == +0
    // Columns (ReduceMax): each lane's extreme over the rows merged into it, exact unless a NaN
    // (or +inf meeting -inf) was summed; pmax keeps the first of equal values (the first zero).
    bool lanes_exact() const { return !maybe_nan(); }
    V lane_extreme() const { return ext; }
    // float32 columns' raw pass (kRawSummary; a max only): ext and sum hold the bits' signed and
    // unsigned maxima, P and H of SignMagnitudeSummary, two integer ops where pmax and the sum
    // take two float ops. Exact where every lane's P is a positive number (its maximum's bits)
    // and neither shows a NaN (P beyond +inf's bits, H beyond -inf's).
    using Bits = simd::Vec<uint32_t>;
    using SignedBits = simd::Vec<int32_t>;
    void merge_raw(const Summary& o) {
      ext = simd::bits<V>(vmax(simd::bits<SignedBits>(ext), simd::bits<SignedBits>(o.ext)));
      sum = simd::bits<V>(vmax(simd::bits<Bits>(sum), simd::bits<Bits>(o.sum)));
    }
    bool raw_lanes_exact() const {
      const SignedBits p = simd::bits<SignedBits>(ext);
      return !simd::any((p <= SignedBits{}) | (p > simd::splat<int32_t>(0x7F800000)) |
                        simd::bits<SignedBits>(simd::bits<Bits>(sum) > simd::splat<uint32_t>(0xFF800000u)));
    }
  };
  static M nan_mask(V v) { return v != v; }
  static M equal_mask(V v, V m) { return v == m; }  // -0 == +0
  static bool zero(Raw m) { return m == 0; }  // an extreme whose bits depend on which element

  static V raw_of(Key k) { return k; }

  // Column update ways (see arg_columns_simd.h). Fast: one pmax/pmin and one compare per vector
  // (b < c ? c : b, or c < b ? b : c for the last-index rule), the mask taken from the result:
  // "kept" (same bits) for the first-index rule, "reached" (c equals the new best) for the last.
  // Comparing c with b instead lets clang fuse compare and pmax into one select: three
  // instructions in V8 for one. Valid while no NaN is met: a running sum of each row's vectors
  // (as in Summary) sends the tile to the exact way.
  template <Direction D>
  struct FastWay {
    using K = V;
    static constexpr bool kKeyOnly = true, kKeyOnlyForIndex = true;
    static bool state_ok(V b) { return !simd::any(b != b); }
    static K key(V v) { return v; }
    static V raw(K k) { return k; }
    template <bool Last>
    static constexpr bool keeps() { return !Last; }
    template <bool Last>
    static M step(K c, K& b) {
      const K old = b;
      b = simd::opaque(Last ? vbetter_instruction<D>(c, b) : vbetter_instruction<D>(b, c));
      return Last ? c == b : simd::bits<M>(old) == simd::bits<M>(b);
    }
    struct Guard {
      V sum{};
      template <int N>
      void row(const V* raw, const K*) {
        V t = raw[0];
        for (int v = 1; v < N; ++v) t += raw[v];
        sum += t;
      }
      template <int N>
      bool fails(const K*) const { return simd::any(sum != sum); }
    };
  };
  // Exact: the replace mask of ArgRule<.., D, Last> (a NaN beats a number), then a select.
  template <Direction D>
  struct ExactWay {
    using K = V;
    static constexpr bool kKeyOnly = true, kKeyOnlyForIndex = true;
    static bool state_ok(V) { return true; }
    static K key(V v) { return v; }
    static V raw(K k) { return k; }
    template <bool Last>
    static constexpr bool keeps() { return false; }
    template <bool Last>
    static M step(K c, K& b) {
      const M better = vbeats<D, Last>(c, b);
      const M c_nan = c != c;
      const M m = Last ? (better | c_nan) : ((better | c_nan) & (b == b));
      b = simd::select(m, c, b);
      return m;
    }
    using Guard = NoGuard;
  };
  static constexpr bool kRawWay = false;
  template <Direction D>
  using RawWay = void;
  static constexpr bool kRawRows = false;  // the Summary is keyless already
  // Column ReduceMax tries the Summary's raw pass first (float32: merge_raw above).
  static constexpr bool kRawSummary = std::is_same<T, float>::value;
};

// Runs `attempt` (a raw way or pass over columns, which fails where a result lies on the other
// side of zero) unless a recent failure says skip it: whether it settled. After a failure the
// next kRawRetry tries are skipped. The count is carried from call to call and shared by every
// kernel that tries a raw pass over columns (ColumnScan, InterleavedExtremes): a speed hint only,
// so that many small slices of one kind (ReduceMax over axis 1 of [64,64,64], all negative:
// 0.90x before, 0.98x carried) do not each pay a failing raw try.
inline int column_raw_skip = 0;
constexpr int kRawRetry = 16;
template <class F>
bool try_raw(F attempt) {
  if (column_raw_skip > 0) {
    --column_raw_skip;
    return false;
  }
  if (attempt()) return true;
  column_raw_skip = kRawRetry;
  return false;
}

// int8..uint32 with native max/min; int64 via compare + select; uint64 in a key domain with the
// sign bit flipped (wasm has no unsigned 64-bit compare). No NaN.
template <class T, class KeyLane = T>
struct IntLanes {
  using Raw = T;
  using V = simd::Vec<T>;
  using M = simd::MaskOf<T>;
  using Key = simd::Vec<KeyLane>;
  static constexpr int kLanes = simd::kBytes / sizeof(T);
  static constexpr int kUnroll = 8;  // vectors merged as a tree per loop iteration

  // uint64 keys: the sign bit flipped, so signed 64-bit compares order them.
  static constexpr bool kFlipsSign = sizeof(KeyLane) == 8 && KeyLane(-1) < 0 && T(-1) > 0;
  static Key key(V v) {
    if constexpr (kFlipsSign)
      return simd::bits<Key>(v ^ simd::splat<T>(T(1) << 63));
    else
      return v;
  }

  template <Direction D>
  struct Summary {
    Key ext;
    static Summary of(V v) { return {key(v)}; }
    void merge(const Summary& o) { ext = vbetter<D>(ext, o.ext); }
    static constexpr bool maybe_nan() { return false; }
    template <bool OrEqual>
    bool may_beat(Raw b) const { return simd::any(vbeats<D, OrEqual>(ext, key(simd::splat(b)))); }
    V spread() const { return raw_of(simd::fold_lanes(ext, [](Key a, Key b) { return vbetter<D>(a, b); })); }
    using Mark = Key;
    Mark mark() const { return ext; }
    static Key holds(Mark k, V m) { return k == key(m); }
    static constexpr bool lanes_exact() { return true; }
    V lane_extreme() const { return raw_of(ext); }
  };
  static M nan_mask(V) { return M{}; }
  static M equal_mask(V v, V m) { return v == m; }
  static bool zero(Raw) { return false; }

  static V raw_of(Key k) {
    if constexpr (kFlipsSign)
      return simd::bits<V>(k) ^ simd::splat<T>(T(1) << 63);
    else
      return k;
  }

  // Column update ways. Fast (exact here: integers have no NaN): b = max(b, c) (min), and the
  // mask from comparing the result, which needs no unsigned compare (x86 has none): "kept"
  // (result == b) for the first-index rule, "reached" (result == c) for the last-index rule.
  // Equal integers have equal bits. 8-byte keys have no max in wasm (a compare and a select), so
  // that compare is the mask: "replaced" (c strictly better) for the first-index rule, "kept" (b
  // strictly better) for the last. Kernel in cache, int64 ArgMax and ArgMin over rows of 5-21
  // (paired_rows) 1.09-1.17x under both rules; end to end [131072,7] 1.08x.
  static constexpr bool kCompareSteps = sizeof(KeyLane) == 8;
  template <Direction D>
  struct FastWay {
    using K = Key;
    static constexpr bool kKeyOnly = true, kKeyOnlyForIndex = true;
    static bool state_ok(V) { return true; }
    static K key(V v) { return IntLanes::key(v); }
    static V raw(K k) { return raw_of(k); }
    template <bool Last>
    static constexpr bool keeps() { return kCompareSteps ? Last : !Last; }
    template <bool Last>
    static M step(K c, K& b) {
      if constexpr (kCompareSteps) {
        const M m = Last ? vbeats<D, false>(b, c) : vbeats<D, false>(c, b);
        b = Last ? simd::select(m, b, c) : simd::select(m, c, b);
        return m;
      }
      const K n = simd::opaque(vbetter<D>(b, c));
      const M m = Last ? (n == c) : (n == b);
      b = n;
      return m;
    }
    using Guard = NoGuard;
  };
  template <Direction D>
  struct ExactWay : FastWay<D> {  // for one-row calls: the replace mask, then a select
    using K = Key;
    template <bool Last>
    static constexpr bool keeps() { return false; }
    template <bool Last>
    static M step(K c, K& b) { return select_step<D, Last>(c, b); }
  };
  static constexpr bool kRawWay = false;
  template <Direction D>
  using RawWay = void;
  static constexpr bool kRawRows = false;  // the Summary is keyless already
  static constexpr bool kRawSummary = false;
};

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
// minimum beside positives) is summarized in full (float32: by FloatLanes' pass, below).
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

// float32 rows in the row kernel (RowScan, for rows longer than the row groups take): the raw
// passes (either side of zero) are SignMagnitudeSummary's on the bits, the full pass FloatLanes'
// own pmax and add, so a block neither raw pass settles (a zero maximum beside negatives, signs
// mixed around a zero) costs what it did before, plus the raw pass the choice carried from the
// last block or row tried. Each pass leaves the other's accumulators at the block's first
// vector, a part of the block, so the NaN test reads both; may_beat leaves it to spread().
struct Float32BitsRowLanes : FloatLanes<float> {
  static constexpr bool kRawRows = true;
  struct Infinity {
    static uint32_t bits() { return 0x7F800000u; }
  };
  template <Direction D>
  struct Summary {
    using Bits = SignMagnitudeSummary<D, V, uint32_t, Infinity>;
    using Full = typename FloatLanes<float>::template Summary<D>;
    Bits raw;
    Full full;
    static Summary of(V v) { return {Bits::of(v), Full::of(v)}; }
    void merge(const Summary& o) { full.merge(o.full); }
    void merge_raw(const Summary& o) { raw.merge_raw(o.raw); }
    void merge_other(const Summary& o) { raw.merge_other(o.raw); }
    bool maybe_nan() const { return raw.maybe_nan() || full.maybe_nan(); }
    bool raw_decides() const { return raw.raw_decides(); }
    bool other_decides() const { return raw.other_decides(); }
    bool raw_would_decide() const { return full.maybe_nan() || simd::any(vbeats<D, false>(full.ext, V{})); }
    // (no NaN here: raw_would_decide is asked first) every lane's extreme strictly on the other side
    bool other_would_decide() const { return !simd::any(vbeats<D, true>(full.ext, V{})); }
    template <bool OrEqual>
    static constexpr bool may_beat(Raw) { return true; }
    V spread() const { return full.spread(); }
    V spread_raw() const { return raw.spread_raw(); }
    V spread_other() const { return raw.spread_other(); }
    using Mark = V;
    Mark mark() const { return full.mark(); }
    Mark mark_raw() const { return simd::bits<V>(raw.mark_raw()); }
    Mark mark_other() const { return simd::bits<V>(raw.mark_other()); }
    static M holds(Mark k, V m) { return k == m; }  // -0 == +0; a raw mark holds a number's bits
  };
};
// The lanes of the row kernel for rows past the row groups (ArgKernels / MaxKernels::LongRows): a
// type's own but for float32.
template <class L>
struct LongRowLanes {
  using type = L;
};
template <>
struct LongRowLanes<FloatLanes<float>> {
  using type = Float32BitsRowLanes;
};

// float16 / bfloat16 as raw bits, never widened: as int16 and uint16, the non-negative values
// ordered as int16, the negative ones by magnitude as uint16 (SignMagnitudeSummary above).
template <class Format>
struct HalfLanes {
  using Raw = uint16_t;
  using V = simd::Vec<uint16_t>;
  using S = simd::Vec<int16_t>;
  using M = simd::MaskOf<uint16_t>;
  using Key = S;
  static constexpr int kLanes = 8;
  static constexpr int kUnroll = 8;
  static uint16_t inf() { return Format::inf(); }  // read at run time (half.h)
  static uint16_t neg_inf() { return 0x8000 | Format::inf(); }

  // Rows first try a raw pass (kRawRows).
  static constexpr bool kRawRows = true;
  struct Infinity {
    static uint16_t bits() { return inf(); }
  };
  template <Direction D>
  using Summary = SignMagnitudeSummary<D, V, uint16_t, Infinity>;
  static M nan_mask(V v) {
    return simd::bits<S>(v & simd::splat<uint16_t>(0x7FFF)) > simd::splat<int16_t>(inf());
  }
  static M equal_mask(V v, V m) { return same_number_bits<uint16_t>(v, m); }
  static bool zero(Raw m) { return (m & 0x7FFF) == 0; }

  // The magnitude by two shifts: V8 rebuilds a v128.const on every loop iteration.
  static V magnitude(V v) { return (v << 1) >> 1; }
  // Sign-magnitude to two's complement without a constant (four ops): -0 and +0 both 0, a NaN
  // beyond +-inf (positive NaN above +inf, negative below -inf).
  static S ordered(V v) {
    const S neg = simd::bits<S>(v) >> 15;  // all ones for a negative
    return (simd::bits<S>(v) ^ simd::bits<S>(simd::bits<V>(neg) >> 1)) - neg;
  }

  // Column update ways, tried in this order. Raw: no key at all (as cheap as float32): int16
  // max on the bits finds a column's largest positive number (a max), uint16 max its most
  // negative one (a min); equal numbers there have equal bits. Exact only for columns whose
  // result lies on that side of zero and is not a zero (whose sign would be in doubt), and
  // without a NaN (one beyond the favoured end shows in the result, one of the other sign in a
  // running max of the other kind): else the tile goes on to the next way.
  static constexpr bool kRawWay = true;
  static constexpr bool kRawSummary = true;
  template <Direction D>
  struct RawWay {
    using K = typename std::conditional<D == Direction::Max, S, V>::type;
    static constexpr bool kKeyOnly = true, kKeyOnlyForIndex = true;
    static bool state_ok(V b) { return !simd::any(nan_mask(b)); }
    static K key(V v) { return simd::bits<K>(v); }
    static V raw(K k) { return simd::bits<V>(k); }
    template <bool Last>
    static constexpr bool keeps() { return !Last; }
    template <bool Last>
    static M step(K c, K& b) {
      const K n = simd::opaque(vmax(b, c));
      const M m = simd::bits<M>(Last ? (n == c) : (n == b));
      b = n;
      return m;
    }
    struct Guard {
      using Other = typename std::conditional<D == Direction::Max, V, S>::type;
      Other far = simd::bits<Other>(simd::splat<uint16_t>(D == Direction::Max ? 0 : 0x8000));
      template <int N>
      void row(const V* raw, const K*) {
        for (int v = 0; v < N; ++v) far = vmax(far, simd::bits<Other>(raw[v]));
      }
      template <int N>
      bool fails(const K* best) const {
        M out;
        if constexpr (D == Direction::Max) {  // results in [smallest positive, +inf]; no negative NaN
          out = simd::bits<M>(far > simd::splat<uint16_t>(neg_inf()));
          for (int v = 0; v < N; ++v) out |= (best[v] <= S{}) | (best[v] > simd::splat<int16_t>(inf()));
        } else {  // results in [-inf, largest negative]; no positive NaN
          out = simd::bits<M>(far > simd::splat<int16_t>(inf()));
          for (int v = 0; v < N; ++v)
            out |= simd::bits<M>((best[v] <= simd::splat<uint16_t>(0x8000)) | (best[v] > simd::splat<uint16_t>(neg_inf())));
        }
        return simd::any(out);
      }
    };
  };
  // Fast: the ordered key with a max/min and a compare. Its inverse gives +0 for either zero, so
  // a pass keeping only keys is exact when the bits of a zero do not matter (the arg kinds
  // report indices); ReduceMax keeps the raw bits beside it. A NaN lands beyond the end the rule
  // favours (in the best keys) or beyond the other end (in a running opposite extreme).
  template <Direction D>
  struct FastWay {
    using K = S;
    static constexpr bool kKeyOnly = false, kKeyOnlyForIndex = true;
    static bool state_ok(V b) { return !simd::any(nan_mask(b)); }
    static K key(V v) { return ordered(v); }
    static V raw(K k) {  // +0 for either zero
      const S neg = k >> 15;
      return simd::bits<V>((k ^ neg) - neg) | (simd::bits<V>(neg) << 15);
    }
    template <bool Last>
    static constexpr bool keeps() { return !Last; }
    template <bool Last>
    static M step(K c, K& b) {  // equal keys: a raw select beside keeps the first zero
      const K n = simd::opaque(vbetter<D>(b, c));
      const M m = Last ? (n == c) : (n == b);
      b = n;
      return m;
    }
    struct Guard {
      S far{};
      template <int N>
      void row(const V*, const K* k) {
        for (int v = 0; v < N; ++v) far = D == Direction::Max ? vmin(far, k[v]) : vmax(far, k[v]);
      }
      template <int N>
      bool fails(const K* best) const {
        const S hi = simd::splat<int16_t>(inf()), lo = simd::splat<int16_t>(-inf());
        M out = (far > hi) | (far < lo);
        for (int v = 0; v < N; ++v) out |= (best[v] > hi) | (best[v] < lo);
        return simd::any(out);
      }
    };
  };
  // Exact: the ordered key with NaN moved past the end the rule favours (above +inf for a max,
  // below -inf for a min), so plain int16 compares implement ArgRule: a NaN beats any number,
  // ties between NaNs go by position. The raw bits (which zero, which NaN) are kept beside.
  template <Direction D>
  struct ExactWay {
    using K = S;
    static constexpr bool kKeyOnly = false, kKeyOnlyForIndex = false;
    static bool state_ok(V) { return true; }
    static K key(V v) {
      // (opaque: knowing the magnitude non-negative, clang turns the signed compare into an
      // unsigned one, five instructions in V8 where pcmpgtw is one)
      const M nan = simd::opaque(simd::bits<S>(magnitude(v))) > simd::splat<int16_t>(inf());
      return simd::select(nan, simd::splat<int16_t>(D == Direction::Max ? INT16_MAX : INT16_MIN), ordered(v));
    }
    static V raw(K k) { return simd::bits<V>(k); }  // unused: the raw bits are kept
    template <bool Last>
    static constexpr bool keeps() { return false; }
    template <bool Last>
    static M step(K c, K& b) { return select_step<D, Last>(c, b); }
    using Guard = NoGuard;
  };
};

template <DType D> struct LanesFor;
template <> struct LanesFor<DType::Float32> { using type = FloatLanes<float>; };
template <> struct LanesFor<DType::Float64> { using type = FloatLanes<double>; };
template <> struct LanesFor<DType::Float16> { using type = HalfLanes<HalfFormatAtRunTime>; };
template <> struct LanesFor<DType::BFloat16> { using type = HalfLanes<HalfFormatAtRunTime>; };
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
