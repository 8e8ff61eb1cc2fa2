// ReduceMax over int64 rows of 4 to 8 (a detector's [N, 7] boxes over the last axis): two rows
// are W vectors of two lanes, so they are read straight, two rows a step. Row 0 is the first
// W / 2 vectors (and the low lane of the middle one when W is odd), row 1 the rest: each side's
// vectors fold by max, the two sides' lanes pair up by two shuffles and one max, and the middle
// vector's lanes (row 0's last element, row 1's first) join with one max more. The short-row path
// before transposed each block into a scratch for the column kernels: 0.3 of a streaming max in
// cache; this runs 1.17-1.33x that (V8's int64 max is a compare and a three-op select, seven of
// them per two rows of 7), end to end [131072, 7] 1.09-1.20x, rows of 5 1.12x, of 4 1.22x. Rows
// of 2 and 3 measured 0.93-0.98x and stay. int64 only: no NaN, no zero of two signs, so a max is
// exact (uint64 runs on int64 keys: 1.10-1.13x). dist/ox.wasm +235 bytes gzipped.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/lanes.h"
#include "kernels/simd.h"

namespace ox {

template <int W>
struct PairedRowsMax {
  using V = simd::Vec<int64_t>;
  static constexpr int kHalf = W / 2;  // whole vectors of each row

  static V fold(const int64_t* x, int from, int count) {
    V m = simd::load(x + 2 * from);
    for (int k = 1; k < count; ++k) m = vmax(m, simd::load(x + 2 * (from + k)));
    return m;
  }
  // Rows [0, n & ~1) of W at x merged into acc (acc[r] = max(acc[r], row r's max)).
  __attribute__((noinline)) static void run(const int64_t* x, int64_t n, int64_t* acc) {
    for (int64_t r = 0; r + 2 <= n; r += 2, x += 2 * W) {
      const V a = fold(x, 0, kHalf), b = fold(x, W - kHalf, kHalf);
      V m = vmax(V(__builtin_shufflevector(a, b, 0, 2)), V(__builtin_shufflevector(a, b, 1, 3)));
      if constexpr (W % 2 == 1) m = vmax(m, simd::load(x + 2 * kHalf));
      simd::store(acc + r, vmax(simd::load(acc + r), m));
    }
  }
};

// Rows of `length` (2 to 8: paired_rows_take) of int64, all but an odd last one: how many it took.
inline bool paired_rows_take(int64_t length) { return length >= 4 && length <= 8; }
inline int64_t paired_rows_max(const int64_t* x, int64_t n, int64_t length, int64_t* acc) {
  switch (length) {
    case 4: PairedRowsMax<4>::run(x, n, acc); break;
    case 5: PairedRowsMax<5>::run(x, n, acc); break;
    case 6: PairedRowsMax<6>::run(x, n, acc); break;
    case 7: PairedRowsMax<7>::run(x, n, acc); break;
    case 8: PairedRowsMax<8>::run(x, n, acc); break;
    default: return 0;
  }
  return n & ~int64_t{1};
}

}  // namespace ox
