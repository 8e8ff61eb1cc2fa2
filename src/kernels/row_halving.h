// ReduceMax over many short rows of 1- and 4-byte integers and float32 ([N, 7] over the last
// axis: a few classes, quantized scores), rows of 5 to 3N bytes or 24N 4-byte values (N lanes; see
// applies()). Integers have no NaN and equal maxima have equal bits, so a max may be taken in any
// order: each row becomes one vector (a row under N lanes masked to the type's lowest past its
// end, a longer one as two or more loads maxed, the last ending the row; byte rows of up to 8 go
// two to a vector, 8 bytes each), and the vectors of N rows fold into one vector of their maxima
// by halving: rounds pairing vectors and maxing the even units of the pair against the odd ones
// (units of 8 bytes, then 4, 2, 1, down to one lane). No scratch, no transposition lane by lane:
// the short-row path (ShortRows) gathers rows of 5-7 and 9-15 bytes one lane at a time.
// float32 folds the same way by pmax, which is exact where the group holds no NaN and no row's
// maximum is a zero (equal nonzero floats have equal bits): every load is also summed, up the
// same tree (a NaN turns the sum NaN; so does +inf beside -inf, a false alarm), and a group whose
// sum is NaN, or whose maxima hold a zero while a -0 is among its values (the maximum's bits must
// be the first zero's), stops it: the caller takes that group on by other paths.
// float16/bfloat16 rows of 9-64 fold their bits' int16 max, exact where a row's maximum is
// positive, beside a uint16 max for negative NaNs (HalfLanes' raw pass); a group with a NaN
// stops it, and a row whose maximum is not positive goes by the plain loop (two a group at most).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernels/lanes.h"
#include "kernels/max_portable.h"
#include "kernels/simd.h"

namespace ox {

// HalfTraits: T is uint16_t, the bits of float16/bfloat16, and these their Traits (highest() is
// +inf, lowest() -inf, for the format read at run time), else void.
template <class T, class HalfTraits = void>
struct RowHalving {
  using V = simd::Vec<T>;
  using S = simd::Vec<int16_t>;
  static constexpr int kN = simd::kBytes / sizeof(T);
  static constexpr bool kFloat = std::is_same<T, float>::value;
  static constexpr bool kHalf = !std::is_void<HalfTraits>::value;
  static constexpr bool kChecked = kFloat || kHalf;  // folds that stop at a group they cannot vouch for
  static constexpr bool kTakes = (std::is_integral<T>::value && (sizeof(T) == 1 || sizeof(T) == 4)) || kChecked;

  // The lengths it takes, by measurement against the short-row path (kernel µs for 4 MiB of rows,
  // before -> after): int32 rows of 5-8 296-352 -> 189-233; bytes 5-8 (paired) 600-1040 ->
  // 267-479, 9-15 1000-1100 -> 340-600, 17-32 310-460 -> 220-320; three loads a row, folded
  // depth first, against the short-row path's GB/s in cache: bytes 33-48 2.0-2.35x, int32 9-12
  // 2.1-2.4x, uint32 1.5-1.6x; four loads and more, int32 13-32 1.33-1.99x, uint32 1.3-1.4x.
  // float32 (kernel in cache against the short-row path to 24, RowGroupMax from 25): rows of
  // 5-12 1.37-1.90x, 13-32 1.5-1.9x, 33-44 1.4-1.5x; int32 against RowGroupMax: 33-44 1.37-1.51x,
  // 48-64 1.3x, 80-96 1.03-1.15x; float32 48-64 1.22-1.32x, 80-96 1.09-1.15x. Past 24 vectors
  // RowGroupMax keeps them (int32 rows of 128-256 0.89-0.95x here).
  // Not taken: rows of 2-4 (the short-row path splits them in registers: bytes 300-390 against
  // 740-2350 here), and bytes of 16 (290 against 330).
  // float16/bfloat16 (kernel in cache, values of both signs, against the short-row path to 32
  // and RowGroupMax from 33): rows of 9-16 1.4-1.6x, 20-40 1.45-1.6x, 48-56 1.3-1.4x, 64
  // 1.05-1.2x; past 64 0.8-0.98x. Rows of 5-8 (one masked load, eight rows a group) ran 0.7-1.0x
  // but 1.45x for 6, and a copy for them cost 0.35 KB gzipped: left to the short-row path.
  static bool applies(int64_t length) {
    if constexpr (kHalf) return length > kN && length <= kHalfLongest;
    return length > 4 && length <= (sizeof(T) == 1 ? 3 : 24) * kN && (sizeof(T) == 4 || length != 16);
  }
  static constexpr int64_t kHalfLongest = 8 * kN;

  // Rows [0, done) of n rows of `length` at x merged into acc[0, done) (acc[k] = max(acc[k], row
  // k)); returns done, a multiple of N (0 where applies(length) does not hold). A row under N
  // lanes is loaded whole from its start, so the rows whose load would pass the end of x are left
  // to the caller. float32, float16/bfloat16: it stops before the first group it cannot vouch for
  // (fold_groups).
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
    // Byte rows of 9-48, int32 rows of 9-96 and float32 rows of 5-96 fold depth first (fold):
    // kernel in cache, byte rows of 9-15 1.8-2.2x, 17-32 1.4-1.5x. Paired byte rows and int32
    // rows of 5-8 keep the array (halve_groups: depth first 0.87-0.93x).
    if constexpr (!kFloat) {
      if (paired || (sizeof(T) == 4 && k <= 2 * kN)) {
        halve_groups(x, groups, k, paired, acc);
        return groups * kN;
      }
    }
    // (The lambdas capture by value: by reference, k lived on the wasm stack and V8 reloaded it
    // through a pointer every group, int32 rows of 9-12 0.78x.)
    const auto two_loads = [=](const T* row) { return with(leaf(simd::load(row)), simd::load(row + k - kN)); };
    const auto three_loads = [=](const T* row) {
      return with(with(leaf(simd::load(row)), simd::load(row + kN)), simd::load(row + k - kN));
    };
    // The groups folded: all, or up to the first one fold_groups cannot vouch for (float32).
    const auto folded = [=]() -> ptrdiff_t {
      const auto fold_rows = [=](const auto& row) {
        return fold_groups(x, groups, k, acc, [=](const T* at) { return fold<0, kN>([=](int r) { return row(at + r * k); }); });
      };
      if constexpr (sizeof(T) == 1) {
        // Lanes past a row's end: the lowest value, so they never win.
        V keep{}, fill{};
        for (int i = 0; i < kN; ++i) keep[i] = i < k ? T(~T(0)) : T(0), fill[i] = i < k ? T(0) : std::numeric_limits<T>::lowest();
        if (k < kN) return fold_rows([=](const T* row) { return (simd::load(row) & keep) | fill; });
        return k <= 2 * kN ? fold_rows(two_loads) : fold_rows(three_loads);
      } else {
        // Four loads a row and more (over rows of 9-12 the loop ran 0.5-0.8x the three): the
        // group's rows step through theirs together, one loop a group (a loop a row, its entry
        // padded by V8's loop alignment, ran 0.83-0.94x so). float16/bfloat16 from three loads:
        // a depth-first copy for three (+0.3 KB gzipped) was not worth its bytes.
        if (k > (kHalf ? 2 : 3) * kN)
          return fold_groups(x, groups, k, acc, [=](const T* at) {
            Node v[kN];
            for (int r = 0; r < kN; ++r) v[r] = leaf(simd::load(at + r * k + k - kN));
            for (ptrdiff_t j = 0; j + kN < k; j += kN)
              for (int r = 0; r < kN; ++r) v[r] = with(v[r], simd::load(at + r * k + j));
            return fold<0, kN>([&](int r) { return v[r]; });
          });
        if (!kChecked || (!kHalf && k > 2 * kN)) return fold_rows(three_loads);
        return fold_rows(two_loads);
      }
    };
    return folded() * kN;
  }

  // A row's fold so far: its maximum, and for float32 the sum of its loads (the NaN detector).
  struct Checked {
    V max, sum;
  };
  // float16/bfloat16: P, the int16 max of the bits (the maximum where it is positive), and H,
  // their uint16 max (a negative NaN is above -inf's bits; a positive one shows in P), as
  // HalfLanes' raw pass: two ops a load, as float32's. (The values' ordered keys instead, or
  // their uint16 min beside, for rows wholly negative: LLVM loads a group's vectors all first,
  // V8 spilled them, rows of 16 0.35x.)
  struct HalfChecked {
    S p;
    V h;
  };
  using Node = typename std::conditional<kFloat, Checked, typename std::conditional<kHalf, HalfChecked, V>::type>::type;
  static Node leaf(V v) {
    if constexpr (kFloat) return {v, v};
    else if constexpr (kHalf) return {simd::bits<S>(v), v};
    else return v;
  }
  static Node with(Node a, V v) {
    if constexpr (kFloat) return {vmax(a.max, v), a.sum + v};
    else if constexpr (kHalf) return {vmax(a.p, simd::bits<S>(v)), vmax(a.h, v)};
    else return vmax(a, v);
  }

  // The `groups` groups of kN rows at x, k apart, each folded into one vector of their maxima (row
  // r's in lane r) by group(p), the group at p, and merged into acc. Returns
  // groups, or for float32 the first group whose sum is NaN or whose maxima hold a zero beside a
  // -0 (left to the caller); for float16/bfloat16 the first group with a NaN, more than two row
  // maxima not above +0 (rows_not_positive), or a state that is a negative NaN.
  template <class Group>
  static ptrdiff_t fold_groups(const T* x, ptrdiff_t groups, ptrdiff_t k, T* acc, const Group& group) {
    for (ptrdiff_t g = 0; g < groups; ++g) {
      const T* at = x + g * kN * k;
      T* a = acc + g * kN;
      const Node m = group(at);
      if constexpr (kFloat) {
        if (simd::any(m.sum != m.sum) || (simd::any(m.max == V{}) && holds_minus_zero(at, kN * k))) return g;
        simd::store(a, vmax(simd::load(a), m.max));  // a NaN state stays (NaN < m is false)
      } else if constexpr (kHalf) {
        if (!merge_half(at, k, m, a)) return g;
      } else {
        simd::store(a, vmax(simd::load(a), m));
      }
    }
    return groups;
  }
  // float16/bfloat16: a group's Node into the states at a. Exact where no NaN is met and a row's
  // maximum is positive (as int16 1 .. +inf). Such a maximum beats every state but a NaN: a
  // positive NaN is above it as int16 too, a negative one (-1023 .. -1 as int16 for float16) is
  // not, so such a state stops it (false, the states untouched), as does a NaN in the group.
  // (Out of line, one copy for the row loaders, it ran rows of 9-20 0.8x: a call a group.)
  static bool merge_half(const T* at, ptrdiff_t k, Node m, T* a) {
    const S state = simd::bits<S>(simd::load(a));
    if (simd::any((m.p > simd::splat(static_cast<int16_t>(HalfTraits::highest()))) |
                  (m.h > simd::splat(static_cast<uint16_t>(HalfTraits::lowest()))) |
                  negative_nan_lanes(state, HalfTraits::lowest())))
      return false;
    if (simd::any(m.p <= S{})) return rows_not_positive(at, k, m.p, a);
    simd::store(a, simd::bits<V>(vmax(state, m.p)));
    return true;
  }
  // float16/bfloat16, a group of no NaN and no negative NaN state where some row's maximum p[r] is
  // not positive (a row wholly negative or a zero maximum): the group into the states at a, those
  // rows by the plain loop. False, the states untouched, where more than two rows are such (rows
  // of log-probabilities: the caller's paths are faster there). Out of line: cold.
  __attribute__((noinline)) static bool rows_not_positive(const T* at, ptrdiff_t k, S p, T* a) {
    const auto positive = p > S{};
    uint32_t rest = ~simd::byte_mask(positive) & 0x5555;  // bit 2r: row r
    if (__builtin_popcount(rest) > 2) return false;
    const S state = simd::bits<S>(simd::load(a));
    simd::store(a, simd::bits<V>(simd::select(positive, vmax(state, p), state)));
    for (; rest != 0; rest &= rest - 1) {
      const int r = __builtin_ctz(rest) / 2;
      max_rows_portable<HalfTraits>(at + r * k, 1, k, a + r);
    }
    return true;
  }
  // Whether a -0 is among the count floats at x (count a multiple of N, at least 4N): without one,
  // a zero maximum is +0 whichever zero the fold kept. (Rows of ReLU outputs or of negative scores
  // beside zeros have zero maxima.) -0's bits are the least int32, so the int32 minimum of the bits
  // tells; four vectors a step, the last four ending at count (a loop of one vector a step ran
  // rows of 5-16 with zero maxima at 0.75-0.8x the short-row path).
  static bool holds_minus_zero(const T* x, ptrdiff_t count) {
    using I = simd::Vec<int32_t>;
    const auto least = [&](const T* p) {
      const auto at = [&](int v) { return simd::bits<I>(simd::load(p + v * kN)); };
      return vmin(vmin(at(0), at(1)), vmin(at(2), at(3)));
    };
    I m = least(x + count - 4 * kN);
    for (ptrdiff_t i = 0; i + 4 * kN < count; i += 4 * kN) m = vmin(m, least(x + i));
    return simd::any(m == simd::splat(std::numeric_limits<int32_t>::min()));
  }
  // halve's rounds depth first, for rows [First, First + Count), each loaded by row(r): the two
  // halves folded, then their units paired, so a few vectors are live at a time. (As an array
  // halved round by round, byte rows went through the stack: ReduceMax over rows of 9-15 ran at
  // 3-5 GB/s in cache.)
  template <int First, int Count, class Row>
  static Node fold(const Row& row) {
    if constexpr (Count == 1) {
      return row(First);
    } else {
      const Node a = fold<First, Count / 2>(row), b = fold<First + Count / 2, Count / 2>(row);
      using U = typename simd::SignedOf<simd::kBytes / Count>::type;  // only its size matters
      if constexpr (kFloat) return {vmax(units<U, 0>(a.max, b.max), units<U, 1>(a.max, b.max)), a.sum + b.sum};
      else if constexpr (kHalf) return {vmax(units<U, 0>(a.p, b.p), units<U, 1>(a.p, b.p)), vmax(a.h, b.h)};
      else return vmax(units<U, 0>(a, b), units<U, 1>(a, b));
    }
  }

  // Paired byte rows and int32 rows of 5-8: each group's rows as an array, halved round by round.
  static void halve_groups(const T* x, ptrdiff_t groups, ptrdiff_t k, bool paired, T* acc) {
    // Lanes past a row's end in each 8-byte half when paired: the lowest value.
    V keep{}, fill{};
    for (int i = 0; i < kN; ++i) keep[i] = i % 8 < k ? T(~T(0)) : T(0), fill[i] = i % 8 < k ? T(0) : std::numeric_limits<T>::lowest();
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
  }

  // (Public: ArgHalvingBytes halves 16-bit keys with it, RowGroupMax rows' lane maxima.)
  // Units 2i + Odd (of type U) of the pair a, b (the even units, or the odd ones), as T vectors.
  template <class U, int Odd, class W, size_t... I>
  static W units(W a, W b, std::index_sequence<I...>) {
    return simd::bits<W>(__builtin_shufflevector(simd::bits<simd::Vec<U>>(a), simd::bits<simd::Vec<U>>(b), (2 * I + Odd)...));
  }
  template <class U, int Odd, class W>
  static W units(W a, W b) {
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
