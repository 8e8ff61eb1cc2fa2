// ReduceMax over many short rows of 1- and 4-byte integers ([N, 7] over the last axis: a few
// classes, quantized scores), rows of 5 to 3N bytes or 8N int32 (N lanes; see applies()).
// Integers have no NaN and equal maxima have equal bits, so a max may be taken in any order: each
// row becomes one vector (a row under N lanes masked to the type's lowest past its end, a longer
// one as two or more loads maxed, the last ending the row; byte rows of up to 8 go two to a
// vector, 8 bytes each), and the vectors of N rows fold into one vector of their maxima by
// halving: rounds pairing vectors and maxing the even units of the pair against the odd ones
// (units of 8 bytes, then 4, 2, 1, down to one lane). No scratch, no transposition lane by
// lane: the short-row path (ShortRows) gathers rows of 5-7 and 9-15 bytes one lane at a time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernels/lanes.h"
#include "kernels/simd.h"

namespace ox {

template <class T>
struct RowHalving {
  using V = simd::Vec<T>;
  static constexpr int kN = simd::kBytes / sizeof(T);
  static constexpr bool kTakes = std::is_integral<T>::value && (sizeof(T) == 1 || sizeof(T) == 4);

  // The lengths it takes, by measurement against the short-row path (kernel µs for 4 MiB of rows,
  // before -> after): int32 rows of 5-8 296-352 -> 189-233; bytes 5-8 (paired) 600-1040 ->
  // 267-479, 9-15 1000-1100 -> 340-600, 17-32 310-460 -> 220-320; three loads a row, folded
  // depth first, against the short-row path's GB/s in cache: bytes 33-48 2.0-2.35x, int32 9-12
  // 2.1-2.4x, uint32 1.5-1.6x; four to eight loads, int32 13-32 1.33-1.99x, uint32 1.3-1.4x.
  // Not taken: rows of 2-4 (the short-row path splits them in registers: bytes 300-390 against
  // 740-2350 here), and bytes of 16 (290 against 330).
  static bool applies(int64_t length) {
    return length > 4 && length <= (sizeof(T) == 1 ? 3 : 8) * kN && (sizeof(T) == 4 || length != 16);
  }

  // Rows [0, done) of n rows of `length` at x merged into acc[0, done) (acc[k] = max(acc[k], row
  // k)); returns done, a multiple of N (0 where applies(length) does not hold). A row under N
  // lanes is loaded whole from its start, so the rows whose load would pass the end of x are left
  // to the caller.
  static int64_t run(const T* x, int64_t n, int64_t length, T* acc) {
    if (!applies(length)) return 0;
    const ptrdiff_t k = static_cast<ptrdiff_t>(length), rows = static_cast<ptrdiff_t>(n);
    if (rows < kN) return 0;
    // Rows of up to 8 bytes go two to a vector, 8 bytes each (half the loads, masks and rounds).
    const bool paired = sizeof(T) == 1 && k <= 8;
    const ptrdiff_t reach = paired ? 8 : kN;  // elements each row's load reads from its start
    // (rows * k >= reach here) the rows whose load stays within x
    const ptrdiff_t loadable = k >= reach ? rows : (rows * k - reach) / k + 1;
    const ptrdiff_t groups = loadable / kN;
    // Lanes past a row's end in its load (from `length` on, or in each 8-byte half when paired):
    // the lowest value, so they never win.
    V keep{}, fill{};
    for (int i = 0; i < kN; ++i) {
      const bool in_row = (paired ? i % 8 : i) < k;
      keep[i] = in_row ? T(~T(0)) : T(0);
      fill[i] = in_row ? T(0) : std::numeric_limits<T>::lowest();
    }
    // Byte rows of 9-48 and int32 rows of 9-32 fold depth first (fold): kernel in cache, byte rows
    // of 9-15 1.8-2.2x, 17-32 1.4-1.5x. Paired byte rows and int32 rows of 5-8 keep the array
    // below (depth first 0.87-0.93x).
    const auto three_loads = [&](const T* row) {
      return vmax(vmax(simd::load(row), simd::load(row + kN)), simd::load(row + k - kN));
    };
    if constexpr (sizeof(T) == 1) {
      if (!paired) {
        if (k < kN) fold_groups(x, groups, k, acc, [&](const T* row) { return (simd::load(row) & keep) | fill; });
        else if (k <= 2 * kN) fold_groups(x, groups, k, acc, [&](const T* row) { return vmax(simd::load(row), simd::load(row + k - kN)); });
        else fold_groups(x, groups, k, acc, three_loads);
        return groups * kN;
      }
    } else if (k > 3 * kN) {  // four to eight loads: a loop (over rows of 9-12 0.5x the three)
      fold_groups(x, groups, k, acc, [&](const T* row) {
        V v = simd::load(row + k - kN);
        for (ptrdiff_t j = 0; j + kN < k; j += kN) v = vmax(v, simd::load(row + j));
        return v;
      });
      return groups * kN;
    } else if (k > 2 * kN) {
      fold_groups(x, groups, k, acc, three_loads);
      return groups * kN;
    }
    for (ptrdiff_t g = 0; g < groups; ++g) {
      const T* row = x + g * kN * k;
      V v[kN];
      if constexpr (sizeof(T) == 1) {
        if (paired) {
          for (int r = 0; r < kN / 2; ++r, row += 2 * k) {
            uint64_t a, b;
            std::memcpy(&a, row, 8);
            std::memcpy(&b, row + k, 8);
            v[r] = (simd::bits<V>(simd::U64{a, b}) & keep) | fill;
          }
          simd::store(acc + g * kN, vmax(simd::load(acc + g * kN), halve<kN / 2>(v)));
          continue;
        }
      }
      // (4-byte rows of 5-8: byte rows got here paired)
      for (int r = 0; r < kN; ++r, row += k) v[r] = vmax(simd::load(row), simd::load(row + k - kN));
      simd::store(acc + g * kN, vmax(simd::load(acc + g * kN), halve<kN>(v)));
    }
    return groups * kN;
  }

  // Each group of kN rows at x, k apart, folded into one vector of their maxima (row r's in lane
  // r) by fold, and merged into acc; row(p) loads the row at p as one vector.
  template <class Row>
  static void fold_groups(const T* x, ptrdiff_t groups, ptrdiff_t k, T* acc, const Row& row) {
    for (ptrdiff_t g = 0; g < groups; ++g) {
      const T* at = x + g * kN * k;
      const V m = fold<0, kN>([&](int r) { return row(at + r * k); });
      simd::store(acc + g * kN, vmax(simd::load(acc + g * kN), m));
    }
  }
  // halve's rounds depth first, for rows [First, First + Count), each loaded by row(r): the two
  // halves folded, then their units paired, so a few vectors are live at a time. (As an array
  // halved round by round, byte rows went through the stack: ReduceMax over rows of 9-15 ran at
  // 3-5 GB/s in cache.)
  template <int First, int Count, class Row>
  static V fold(const Row& row) {
    if constexpr (Count == 1) {
      return row(First);
    } else {
      const V a = fold<First, Count / 2>(row), b = fold<First + Count / 2, Count / 2>(row);
      using U = typename simd::SignedOf<simd::kBytes / Count>::type;  // only its size matters
      return vmax(units<U, 0>(a, b), units<U, 1>(a, b));
    }
  }

  // (Public: ArgHalvingBytes halves 16-bit keys with it, RowGroupMax rows' lane maxima.)
  // Units 2i + Odd (of type U) of the pair a, b (the even units, or the odd ones), as T vectors.
  template <class U, int Odd, size_t... I>
  static V units(V a, V b, std::index_sequence<I...>) {
    return simd::bits<V>(__builtin_shufflevector(simd::bits<simd::Vec<U>>(a), simd::bits<simd::Vec<U>>(b), (2 * I + Odd)...));
  }
  template <class U, int Odd>
  static V units(V a, V b) {
    return units<U, Odd>(a, b, std::make_index_sequence<simd::kBytes / sizeof(U)>());
  }
  // Count vectors v[0, Count), each holding N / Count rows' partial maxima, folded in place:
  // rounds of units of 8 bytes, 4, 2, 1, while a unit is at least a lane. Row r's maximum ends in
  // lane r. (D: minima instead, for a group of ArgMin rows.)
  template <int Count, Direction D = Direction::Max>
  static V halve(V* v) {
    constexpr int kUnitBytes = simd::kBytes / 2 / (kN / Count);  // 8 in the first round
    if constexpr (Count == 1) {
      return v[0];
    } else {
      using U = typename simd::SignedOf<kUnitBytes>::type;  // only its size matters
      for (int p = 0; p < Count / 2; ++p)
        v[p] = vbetter<D>(units<U, 0>(v[2 * p], v[2 * p + 1]), units<U, 1>(v[2 * p], v[2 * p + 1]));
      return halve<Count / 2, D>(v);
    }
  }
};

}  // namespace ox
