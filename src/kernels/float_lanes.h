// The lanes of float32 and float64 (FloatLanes), and float32's long-row lanes on the raw bits
// (Float32BitsRowLanes, LongRowLanes). See lanes.h.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/lane_ops.h"
#include "kernels/sign_magnitude.h"
#include "kernels/simd.h"

namespace ox {

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
// Whether ReduceMax's row kernel (RowScan without an index) stores its blocks' group marks, as
// the arg kinds' does. It would read them only for the bits of a zero maximum, which a scan from
// the block's start finds as well (RowScan::locate); without the store float32's passes ran 1.2x
// in cache (rows of 1024, ReduceMax over spatial axes and all axes). The other lanes keep them:
// their ReduceMax code is then the arg kinds' own, which wasm-opt merges. Dropped for them too,
// the marks gained 1.10x on float16 rows of 4096 and more in cache and none on float64 rows; for
// float16/bfloat16 alone, 0.5 KB (gzipped) for calls level end to end (docs/speed.md, the
// ninety-sixth session: the copy is most of such a call).
template <class L>
inline constexpr bool kMaxRowMarks = true;
template <>
inline constexpr bool kMaxRowMarks<Float32BitsRowLanes> = false;

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

}  // namespace ox
