// ReduceMax over int64 and float64 rows of 4 to 8 (a detector's [N, 7] boxes over the last axis):
// two rows are W vectors of two lanes, so they are read straight, two rows a step. Row 0 is the
// first W / 2 vectors (and the low lane of the middle one when W is odd), row 1 the rest: each
// side's vectors fold by max, the two sides' lanes pair up by two shuffles and one max, and the
// middle vector's lanes (row 0's last element, row 1's first) join with one max more. The
// short-row path before transposed each block into a scratch for the column kernels: 0.3 of a
// streaming max in cache. Kernel in cache against it: int64 1.18-1.25x (V8's int64 max is a
// compare and a three-op select, seven of them per two rows of 7), float64 1.22-1.64x; end to
// end (bench/ab.mjs) int64 [131072, 7] 1.09-1.20x, rows of 5 1.12x, of 4 1.22x (uint64 runs on
// int64 keys: 1.10-1.13x), float64 rows of 7 1.10-1.19x, of 4 1.16-1.21x. Rows of 2 and 3
// measured 0.93-0.98x and stay. float64 also sums every vector (the row kernels' NaN detector)
// and stops before a pair holding a NaN (or +inf beside -inf) or whose maximum is a zero (its
// bits are the first zero's, which the fold loses); the caller runs some rows the other paths,
// as after RowHalving, whose interface this shares (MaxKernels takes one or the other by the
// value's size).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/lanes.h"
#include "kernels/simd.h"

namespace ox {

template <class Raw>
struct PairedRowsMax {
  using V = simd::Vec<Raw>;
  static constexpr int kN = 2;  // rows a step (the lanes)
  static constexpr bool kChecked = std::is_floating_point<Raw>::value;
  static constexpr bool kTakes = sizeof(Raw) == 8;
  static bool applies(int64_t length) { return length >= 4 && length <= 8; }

  // Rows [0, done) of n rows of `length` at x merged into acc (acc[r] = max(acc[r], row r's
  // max)); done is n rounded down to pairs, or for float64 the pairs before the first it cannot
  // vouch for (0 where applies(length) does not hold). A loop per row length, its vectors
  // unrolled, against one loop for every length: float64 kernel in cache 1.02-1.36x, end to end
  // [131072, 5] 1.15-1.17x, of 7 1.06x, [262144, 4] 1.07x; int64 (bound by V8's max) level.
  // 0.15 KB gzipped, less than float64's copies alone (the two types' compress together).
  __attribute__((noinline)) static int64_t run(const Raw* x, int64_t n, int64_t length, Raw* acc) {
    switch (length) {
      case 4: return pairs<4>(x, n, acc);
      case 5: return pairs<5>(x, n, acc);
      case 6: return pairs<6>(x, n, acc);
      case 7: return pairs<7>(x, n, acc);
      case 8: return pairs<8>(x, n, acc);
      default: return 0;
    }
  }

  // Rows of W: a pair is W vectors.
  template <int W>
  static int64_t pairs(const Raw* x, int64_t n, Raw* acc) {
    constexpr int kHalf = W / 2;  // whole vectors of each row
    int64_t r = 0;
    for (; r + 2 <= n; r += 2, x += 2 * W) {
      V a = simd::load(x), b = simd::load(x + 2 * (W - kHalf)), sum{};  // (sum: float64's NaN detector)
      if constexpr (kChecked) sum = a + b;
      for (int k = 1; k < kHalf; ++k) {
        const V c = simd::load(x + 2 * k), d = simd::load(x + 2 * (W - kHalf + k));
        a = vmax(a, c), b = vmax(b, d);
        if constexpr (kChecked) sum += c + d;
      }
      V m = vmax(V(__builtin_shufflevector(a, b, 0, 2)), V(__builtin_shufflevector(a, b, 1, 3)));
      if constexpr (W % 2 == 1) {
        const V c = simd::load(x + 2 * kHalf);
        m = vmax(m, c);
        if constexpr (kChecked) sum += c;
      }
      if constexpr (kChecked)
        if (simd::any((sum != sum) | (m == V{}))) break;
      simd::store(acc + r, vmax(simd::load(acc + r), m));
    }
    return r;
  }
};

}  // namespace ox
