// The lanes of float16 and bfloat16 as raw bits (HalfLanes). See lanes.h.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/lane_ops.h"
#include "kernels/sign_magnitude.h"
#include "kernels/simd.h"

namespace ox {

// float16 / bfloat16 as raw bits, never widened: as int16 and uint16, the non-negative values
// ordered as int16, the negative ones by magnitude as uint16 (SignMagnitudeSummary: sign_magnitude.h).
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

}  // namespace ox
