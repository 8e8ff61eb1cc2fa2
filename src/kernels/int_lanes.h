// The lanes of the integer types (IntLanes). See lanes.h.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/lane_ops.h"
#include "kernels/simd.h"

namespace ox {

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

}  // namespace ox
