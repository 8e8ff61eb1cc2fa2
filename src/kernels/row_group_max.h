// ReduceMax, ArgMax and ArgMin over rows of a few dozen to a few hundred float32, float64, int32,
// uint8, int64, float16 or bfloat16 values, and ReduceMax over int64 and float64 rows from 9
// values ([N, 64] over the last axis; a detector's [8400, 80] class scores): the row
// kernel (RowScan::run) pays a block's fixed work per row (marks, a settle: the
// fold, a compare) that so short a row does not amortize. Here each of N rows (N lanes) is
// reduced lane-wise as RowScan's pass does (its Summary: a pmax / max and, for floats, a NaN
// detector), and the N lane-wise extremes fold into one vector of the N rows' maxima by halving
// (row_halving.h), merged into the states as one vector. It stops before a group whose maxima it
// cannot vouch for (a NaN met, or +inf and -inf summed; a zero maximum, whose bits must be the
// first zero's): the caller runs that group through RowScan::run, row by row, and comes back.
// float16/bfloat16 rows (eight a group) fold their raw pass's int16 maxima the same way
// (HalfGroupMaxima below), where every row's maximum is positive.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/row_halving.h"
#include "kernels/simd.h"

namespace ox {

// float16/bfloat16 rows, eight at a time: each row's raw pass (HalfLanes' Summary, merge_raw: P,
// the int16 max of the bits, and H for the NaN detector), the eight P vectors folded by halving
// into m, lane r row r's int16 maximum. True when no row holds a NaN and every row's maximum is
// positive: there m[r] is the bits of row r's maximum (equal positive numbers have equal bits).
// For ArgMin (Summary<Min>) the eight H vectors, the uint16 maxima of the bits: the minimum
// where every row's minimum is negative (below -0). Out of line, one copy per direction and tie
// rule (ArgMax and ReduceMax share the max one).
template <class Summary, bool Last = false>
struct HalfGroupMaxima {
  using S = simd::Vec<int16_t>;
  using Mark = typename Summary::Mark;
  static constexpr int kN = 8;
  // MarkStride (the arg kinds' marks for RowGroupMax::locate, 0 for none): row r's two marks at
  // marks + r * MarkStride (numbered below). (A copy with marks and one without: ReduceMax paying
  // for a test of the marks ran 0.88-0.9x end to end.)
  template <int MarkStride>
  __attribute__((noinline)) static bool run(const uint16_t* x, ptrdiff_t len, S* m, Mark* marks) {
    // Max: P, the int16 max of the bits; min: H, their uint16 max. Either is exact where it is
    // strictly on its side of the zeros: above +0 as int16, above -0 (0x8000) as uint16.
    constexpr bool kMax = Summary::kDirection == Direction::Max;
    using Lane = typename std::conditional<kMax, int16_t, uint16_t>::type;
    using F = simd::Vec<Lane>;
    F e[kN];
    bool exact = true;
    for (int r = 0; r < kN; ++r) {
      const Summary s = summary<MarkStride != 0>(x + r * len, len, marks + r * MarkStride);
      exact &= !s.maybe_nan();
      e[r] = simd::bits<F>(kMax ? simd::bits<simd::Vec<uint16_t>>(s.p) : s.h);
    }
    const F f = RowHalving<Lane>::template halve<kN>(e);
    *m = simd::bits<S>(f);
    return exact && !simd::any(f <= simd::splat(static_cast<Lane>(kMax ? 0 : 0x8000)));
  }

 private:
  // The raw Summary of p[0, n), n >= 4 N, as RowGroupMax::summary (trees of four vectors), and if
  // Marked the row's two marks (numbered).
  static Summary of(const uint16_t* q) { return Summary::of(simd::load(q)); }
  static Summary tree4(const uint16_t* q) {
    Summary a = of(q), b = of(q + 2 * kN);
    a.merge_raw(of(q + kN)), b.merge_raw(of(q + 3 * kN));
    a.merge_raw(b);
    return a;
  }
  template <bool Marked>
  static Summary summary(const uint16_t* p, ptrdiff_t n, Mark* marks) {
    if constexpr (Marked) return numbered(p, n, marks);
    Summary s = of(p + n - kN);
    ptrdiff_t i = 0;
    for (; i + 4 * kN <= n; i += 4 * kN) s.merge_raw(tree4(p + i));
    for (; i + kN < n; i += kN) s.merge_raw(of(p + i));
    return s;
  }
  // The raw Summary by trees of four vectors, the tail's vectors the last tree, and the row's two
  // marks (RowGroupMax::kTreeNumbers): its raw mark and each lane's first (Last: last) tree holding
  // the lane's raw extreme (P as int16 for the max, H as uint16 for the min: exact for the lanes that hold
  // the row's extreme where the group is, every row's maximum positive or minimum negative).
  static Summary numbered(const uint16_t* p, ptrdiff_t n, Mark* marks) {
    constexpr bool kMax = Summary::kDirection == Direction::Max;
    using Lane = typename std::conditional<kMax, int16_t, uint16_t>::type;
    using F = simd::Vec<Lane>;
    Summary s = tree4(p);
    S number{}, first{};
    // ArgMin's lanes (H) are uint16, whose greater-than V8 builds of four instructions: a lane
    // improved where the merge changed it, an equality (opaque, or clang folds it back).
    // Under select_last_index the last tree reaching it: where the merge left the tree's own.
    const auto add = [&](const Summary& t) {
      number += 1;
      if constexpr (kMax && !Last) {
        first = simd::select(simd::bits<S>(simd::bits<F>(t.p) > simd::bits<F>(s.p)), number, first);
        s.merge_raw(t);
      } else if constexpr (kMax) {
        first = simd::select(simd::bits<S>(simd::bits<F>(s.p) > simd::bits<F>(t.p)), first, number);
        s.merge_raw(t);
      } else {
        const F before = Last ? t.h : s.h;
        s.merge_raw(t);
        first = simd::select(simd::bits<S>(simd::opaque(s.h) == before), Last ? number : first, Last ? first : number);
      }
    };
    ptrdiff_t i = 4 * kN;
    for (; i + 4 * kN <= n; i += 4 * kN) add(tree4(p + i));
    if (i < n) {
      Summary t = of(p + n - kN);
      for (; i + kN < n; i += kN) t.merge_raw(of(p + i));
      add(t);
    }
    marks[0] = s.mark_raw(), marks[1] = simd::bits<Mark>(first);
    return s;
  }
};

template <class Set>
struct RowGroupMax {
  using Raw = typename Set::Raw;
  using Rows = typename Set::Rows;
  using Summary = typename Rows::Summary;
  using V = simd::Vec<Raw>;
  using Mark = typename Summary::Mark;
  static constexpr int kN = simd::kBytes / sizeof(Raw);
  static constexpr bool kHalf = Rows::Lanes::kRawRows;  // float16/bfloat16 bits (HalfLanes)
  // The arg kinds keep, instead of a mark per tree, two per row: the row's lane-wise
  // extreme and each lane's tree number (the first, or last, tree of four vectors holding that
  // lane's extreme; a compare and a select per tree in the pass). The winner's tree is then the
  // least (greatest) number among the lanes holding the row's extreme: a fold of the lanes, no
  // test per mark, no store per tree (the marks' tests and stores took about 40% of the kernel
  // over rows of 64). Kernel in cache, rows of 64 and 150: float32 1.26x, 1.17x, int32 1.42x,
  // 1.58x, float64 (64) 1.45x. End to end (bench/ab.mjs, two runs): float32 [13108, 80]
  // 1.10-1.18x, [16384, 64] 1.10-1.18x, [32768, 49] 1.17x, [8192, 192] 1.22x, [1,128,128,150]
  // 1.13x; int32 [13108, 80] 1.23-1.24x; float64 [8400, 80] 1.18-1.24x, [16384, 49] 1.20x; ArgMin
  // float32 [8192, 150] 1.22-1.23x; select_last_index float32 [8400, 80] 1.18-1.19x; uint8,
  // float16 and rows of 1024 level. +101 bytes gzipped (with locate's packed bits). float16 and
  // bfloat16 too (marks up to 32 vectors and a search past them before; HalfGroupMaxima::numbered):
  // float16 [16384, 100] 1.08x, [8192, 150] 1.26x, [8192, 256] 1.18x, [4096, 384] 1.17x, [2048,
  // 1000] 1.09x, [1,128,128,150] 1.19x, ArgMin [16384, 100] 1.07x, bfloat16 [8192, 256] 1.21x;
  // -0.5 KB gzipped. uint8's 16 lanes keep a mark per tree (0.93x by tree numbers: a fold of 16
  // lanes), tested in turn.
  static constexpr bool kTreeNumbers = kHalf || sizeof(Raw) >= 4;
  // The longest rows ArgMax takes here, in vectors (arg_applies). By tree numbers up to 128 as well
  // (with marks 48: at 64 they ran 4-6% slower than the row kernel): end to end (bench/ab.mjs)
  // float32 [8192, 256] 1.14x, [4096, 384] 1.09x, [2048, 512] 1.04-1.07x, int32 [8192, 256] 1.20x,
  // float64 [4096, 128] 1.14x, [2048, 256] 1.03x; at 192 vectors 1.03x, at 250 level.
  // float32 ArgMax (first index) to 112: past that the row kernel's raw-bits pass is faster (kernel
  // in cache, rows of 480 1.14x, 512 1.21x, 448 1.06x, 401 0.95x); ArgMin and select_last_index
  // measured 0.77-0.86x there and keep 128.
  static constexpr int kArgVectors =
      std::is_same<Raw, float>::value && Set::kDirection == Direction::Max && !Set::Rule::kLast ? 112 : kTreeNumbers ? 128 : 48;
  // Marks a row: two, or one per four vectors and one for the tail.
  static constexpr int kMaxMarks = kTreeNumbers ? 2 : kArgVectors / 4 + 1;
  using Tree = simd::MaskOf<Raw>;  // tree numbers, in lanes as wide as the values'
  // uint8 (and the integers keyed onto it, int8 ArgMax: keyed_kernels.h) by groups of 16 rows:
  // end to end ReduceMax [32768, 128] 1.17-1.19x, [65536, 100] 1.30x, [16384, 256] 1.07x, ArgMax
  // [8192, 256] 1.21-1.22x, [16384, 200] 1.32x, [8192, 500] 1.17x, [4096, 768] 1.04x, int8
  // [8192, 256] 1.09x; ReduceMax [4096, 1024] level (copy-bound). +1.3 KB gzipped. int8
  // ReduceMax too: [32768, 128] 1.16x, [65536, 100] 1.32x, [16384, 256] 1.05x; +0.35 KB.
  // int64 ReduceMax (wasm has no 64-bit max: a compare and a select per merge) by pairs of rows,
  // from rows of 5 (before the short-row path) to 64 vectors: kernel in cache, 21 runs, rows of 5 1.15x,
  // of 7 1.22x, of 8 1.17x, of 10 1.50x, of 21 1.61x, of 64 1.30x, of 150 (not taken) 1.06-1.13x;
  // rows of 4 0.94-0.96x (the short-row path keeps them). End to end (bench/ab.mjs) [32768, 21]
  // 1.22-1.28x, [65536, 10] 1.13x, [16, 1024, 64] over axes 0 and 2 1.07-1.12x, [131072, 7]
  // 0.98-1.15x (the copy in dominates). +364 bytes gzipped. int64 ArgMax and ArgMin (and uint64's,
  // keyed onto them) by tree numbers too since the budget allowed (uint32/uint64 ReduceMax went
  // keyed): kernel in cache rows of 40 1.53x, 64 1.49x, 150 1.25x; end to end [13108, 80] 1.20x,
  // with select_last_index 1.22x, ArgMin [16384, 64] 1.21x, [32768, 40] 1.28x, [8192, 150] 1.06x;
  // +1.1 KB gzipped.
  static constexpr bool kInt64 = std::is_same<Raw, int64_t>::value;
  static constexpr bool kTakes = std::is_same<Raw, float>::value || std::is_same<Raw, double>::value ||
                                 std::is_same<Raw, int32_t>::value || std::is_same<Raw, uint8_t>::value ||
                                 std::is_same<Raw, int8_t>::value || kHalf || kInt64;

  // The lengths it takes: rows longer than the short-row path's (ShortRows, 6 vectors; it comes
  // first) up to 64 vectors. Kernel µs per 256 KiB of rows in L1/L2, before -> after: float32
  // rows of 32 16.5 -> 8.5, of 64 10.2 -> 6.4, of 128 7.3 -> 5.2, of 256 5.5 -> 4.5; float64
  // rows of 16 16 -> 7.5, of 32 9.9 -> 5.6, of 128 5.5 -> 4.6; int32 rows of 32 7.9 -> 5.4, of
  // 64 5.0 -> 4.1, of 256 3.9 -> 3.5. Past 64 vectors level; taking the short-row path's lengths
  // as well was slower for float32 rows of 12-16 (11 -> 14-19) and int32 rows of 12.
  // float16/bfloat16 up to 128 vectors (kernel GB/s in cache, before -> after: rows of 49 7.0 ->
  // 18.0, of 64 9.7 -> 23.7, of 100 13.2 -> 27.5, of 150 18.0 -> 29.8, of 256 27.7 -> 38.2, of
  // 512 38.0 -> 43.3, of 1024 43.2 -> 47.1; bfloat16 alike; 2-5% past that). A group goes back
  // where a row's maximum is not positive (HalfGroupMaxima) or a state is a negative NaN. Their
  // rows of 33-48 too, before the short-row path: end to end float16 [32768, 33] 1.06x, [32768,
  // 40] 1.10x, [32768, 48] 1.17x, bfloat16 [32768, 36] 1.09x, float16 [512, 512, 40] 1.09x (rows
  // of 17-32 measured 0.92-1.0x: the short-row path keeps them).
  // float64 from rows of 8 values as well (kernel in cache, 15 rounds: rows of 8 1.06-1.15x, of
  // 10 1.26-1.45x; rows of 5 0.75x and of 7 0.94-1.13x stay with the short-row path; end to end
  // [131072, 8] 1.04-1.06x, [116508, 9] 1.10x, [104857, 10] 1.13-1.21x, [87381, 12] 1.15-1.20x,
  // [64, 1024, 10] over axes 0 and 2 1.16x). int32 from rows of 9 measured 0.65-0.94x.
  static constexpr bool kDouble = std::is_same<Raw, double>::value;
  // int64 and float64 rows of 4-8 go by pairs of rows in registers first (ColumnScan::paired_rows,
  // kernel in cache against these groups: int64 rows of 5 1.13x, 7 1.15-1.26x, 8 1.11x, float64
  // rows of 8 1.10x; rows of 10 level for int64, 0.90x for float64).
  // Bytes from rows of 49 (3 vectors) too, before the short-row path: kernel in cache uint8 rows
  // of 49-64 1.11-1.22x, of 72-96 1.46-1.56x; end to end uint8 [20164, 52] 1.50x, [16384, 64]
  // 1.51x, [13107, 80] 1.69x, int8 [10922, 96] 1.81x, uint8 [1, 512, 512, 64] 1.15x. Rows of
  // 33-48 measured level; of 13-32 0.2-0.5x against RowHalving, which comes first. (RowHalving
  // also takes ReduceMax's float32 and int32/uint32 rows up to 24 vectors: it is faster there.)
  static constexpr int64_t kShortest =
      kHalf ? 4 * kN + 1 : (kInt64 || kDouble) ? 9 : sizeof(Raw) == 1 ? 3 * kN + 1 : Set::Short::kMaxLength + 1;
  static constexpr int64_t kLongest = (kHalf ? 128 : 64) * kN;
  static bool applies(int64_t length) { return length >= kShortest && length <= kLongest; }
  // Whether it goes before the short-row path (ShortRows), for the lengths both take.
  static constexpr bool kBeforeShortRows = kShortest <= Set::Short::kMaxLength;

  // Rows [0, done) of n rows of `length` at x merged into acc[0, done) (acc[k] = max(acc[k], row
  // k), ReduceMax's rule), applies(length) holding; returns done, a multiple of N: every whole
  // group, or up to the first group it cannot vouch for.
  static int64_t run(const Raw* x, int64_t n, int64_t length, Raw* acc) {
    const ptrdiff_t len = static_cast<ptrdiff_t>(length);
    const int64_t groups = n / kN;
    for (int64_t g = 0; g < groups; ++g) {
      const Raw* row = x + g * kN * len;
      E e[kN];
      bool exact = lane_maxima(row, len, e);
      const E m = maxima_of(e);  // row r's maximum in lane r
      Raw* a = acc + g * kN;
      if constexpr (kHalf) {
        // A positive maximum beats every state but a NaN: a positive NaN is above it as int16 too,
        // a negative one (-1023 .. -1 as int16 for float16) is not, so such a state goes back.
        const E state = simd::bits<E>(simd::load(a));
        exact = exact && !simd::any(negative_nan_lanes(state, Rows::Lanes::neg_inf()));
        if (!exact) return g * kN;
        simd::store(a, simd::bits<V>(vmax(state, m)));
      } else {
        if constexpr (std::is_floating_point<Raw>::value) exact = exact && !simd::any(m == V{});
        if (!exact) return g * kN;
        simd::store(a, vmax(simd::load(a), m));  // a NaN state stays (NaN < m is false)
      }
    }
    return groups * kN;
  }

  // ArgMax or ArgMin (`Set` an ArgKernels; for ArgMin read "minimum" for "maximum") over rows
  // [0, done) of n rows of `length` at x, each starting a fresh state (the call begins at index
  // 0): the groups' row maxima as above, then each row's first element equal to its maximum
  // (locate, the row still in L1)
  // gives best[k] and index[k]. Stops before a group with a NaN (or +inf beside -inf); -0 == +0
  // here. The types above, under either tie rule (select_last_index: the last tree holding the
  // maximum, the last match in it) but for float16/bfloat16, whose select_last_index stays with
  // the row kernel. Lengths past the short-row path's (ShortRows: 12 vectors for the arg kinds;
  // bytes from 8 and 4-byte values from 10, below)
  // up to 48 vectors (128 by tree numbers: kArgVectors), by measurement (kernel µs per 256 KiB in
  // cache, before -> after): float32 rows of 64 23 -> 14.8, of 80 19.4 -> 13.5, of 128 14.8 ->
  // 11.3, of 192 10.4 -> 9.1; float64 rows of 32 22.9 -> 14.8, of 64 14.7 -> 11.1, of 80 11.6 -> 9.7, of 96
  // 10.4 -> 8.9; int32 rows of 64 22.4 -> 13.7, of 80 16.5 -> 11.5, of 128 11.6 -> 10.1; at 64
  // vectors 4-6% slower (float32 rows of 256, float64 of 128).
  // float16/bfloat16 up to 128 vectors, where every row's maximum is positive (HalfGroupMaxima):
  // kernel GB/s in cache, before -> after, float16 rows of 100 6.8 -> 15.9, of 150 9.1 -> 18.6,
  // of 192 12.5 -> 20.8, of 384 19.3 -> 26.3, of 1000 31.8 -> 33.4 (bfloat16 alike); past 128
  // vectors slower (rows of 1500 0.93x: the row kernel's summary amortizes there). Of the
  // short-row path's lengths, rows of 81-96 come here too, by tree numbers (end to end float16
  // [16384, 84] 1.06-1.10x, [16384, 88] 1.08x, [16384, 96] 1.17-1.19x, ArgMin 1.14x, bfloat16
  // [16384, 90] 1.24x); rows of 65-80 measured level (0.97-1.05x; with marks 0.96-1.03x, with a
  // search that stops at the winner 0.86-0.89x) and stay there.
  // ArgMin too (distances: the nearest of a few dozen centroids), by row minima: end to end
  // float32 [8400, 80] 1.37-1.38x, [16384, 64] 1.30x, [32768, 49] 1.53x, [8192, 150] 1.22x;
  // float64 [8400, 80] 1.20x, int32 [16384, 64] 1.30x, uint8 [16384, 200] 1.32x; [4096, 1024]
  // level. +0 KB gzipped (-0.2). float16/bfloat16 where every row's minimum is negative
  // (HalfGroupMaxima): float16 [16384, 100] 1.53x, [8192, 150] 1.44x, [8192, 256] 1.35x,
  // bfloat16 [8192, 192] 1.41x, [2048, 1000] level; +0.6 KB gzipped.
  // select_last_index too: float32 ArgMax [8400, 80] 1.30x, ArgMin [16384, 64] 1.25x, int32
  // [16384, 64] 1.22x, uint8 [16384, 200] 1.47x, float64 [8400, 80] 1.18x; +0.1 KB gzipped.
  // Byte rows from 8 vectors (ahead of the short-row path, which takes them to 12): end to end
  // (bench/ab.mjs) uint8 [7710, 136] 1.21x, [6990, 150] 1.25x, [6553, 160] 1.35x, [5957, 176]
  // 1.46x, [5461, 192] 1.52x, ArgMin and select_last_index [6990, 150] 1.32x, int8 1.26x; kernel
  // in cache rows of 150 1.38x; rows of 112-128 level, of 70-100 0.76-0.91x (there the short-row
  // path stays). 4-byte rows from 10 vectors (41-48): kernel in cache float32 rows of 44 1.09-1.22x,
  // of 48 1.29-1.35x (ArgMin, select_last_index 1.31-1.50x), int32 1.27-1.35x; end to end float32
  // [23831, 44] 1.13x, [21845, 48] 1.17x, ArgMin 1.46x, int32 1.26x, uint32 1.21x, [1, 256, 256,
  // 45] 1.15x, [25575, 41] level (33-40 level to 0.94x: left). float16 rows of 33-64 0.55-0.80x,
  // float64 and int64 rows of 17-24 level to 0.94x: left with the short-row path.
  // Every rule of the types it takes (kTakes): float16/bfloat16 under select_last_index too since
  // the fifty-fourth session (the row kernel before): end to end float16 [16384, 100] 2.28x, [8192,
  // 150] 2.02x, [4096, 256] 1.73x, [4096, 1024] 1.21x, bfloat16 ArgMin [8192, 150] 2.06x; +337
  // bytes gzipped.
  static constexpr int64_t kArgShortest =
      (kHalf ? 10 * kN : sizeof(Raw) == 1 ? 8 * kN : sizeof(Raw) == 4 ? 10 * kN : Set::Short::kMaxLength) + 1;
  static bool arg_applies(int64_t length) {  // float16/bfloat16 from 10 vectors (above)
    return length >= kArgShortest && length <= kArgVectors * kN;
  }
  // The next group's pass is issued before this group's locates, so their chains (compare, fold,
  // then the loads of the winner's four vectors) do not hold up its loads: on rows in memory,
  // float32 [13108, 80] 353 -> 293 us (measured with a search that stopped at the winner, whose
  // branch mispredicted about once a row); in cache, rows of 80 14.5 -> 12.5 per 256 KiB.
  static int64_t arg_run(const Raw* x, int64_t n, int64_t length, Raw* best, int32_t* index) {
    const ptrdiff_t len = static_cast<ptrdiff_t>(length);
    const int64_t groups = n / kN;
    E e[kN];
    Mark marks[2][kN * kMaxMarks];  // this group's rows' marks and the next one's
    bool exact = groups > 0 && lane_maxima<true>(x, len, e, marks[0]);
    for (int64_t g = 0; g < groups; ++g) {
      const Raw* row = x + g * kN * len;
      if (!exact) return g * kN;
      const E m = maxima_of(e);
      if (g + 1 < groups) exact = lane_maxima<true>(row + kN * len, len, e, marks[(g + 1) & 1]);
      const Mark* mark = marks[g & 1];
      for (int r = 0; r < kN; ++r, row += len, mark += kMaxMarks) {
        const V mr = simd::splat(static_cast<Raw>(m[r]));
        const ptrdiff_t j = locate(row, len, mark, mr);
        best[g * kN + r] = row[j];
        index[g * kN + r] = static_cast<int32_t>(j);
      }
    }
    return groups * kN;
  }

 private:
  // The lanes a group's rows fold in: the values, or for float16/bfloat16 their bits as int16.
  using E = simd::Vec<typename std::conditional<kHalf, int16_t, Raw>::type>;
  // The lane-wise maxima of N rows of len at row, len apart, into e; false where a row's Summary
  // saw a NaN (or +inf and -inf summed). Marked (the arg kinds): each row's marks too, at
  // marks + r * kMaxMarks (marked_summary, HalfGroupMaxima::numbered). float16/bfloat16: e[0] is already the rows' maxima
  // (HalfGroupMaxima), false also where one is not positive.
  template <bool Marked = false>
  static bool lane_maxima(const Raw* row, ptrdiff_t len, E* e, Mark* marks = nullptr) {
    if constexpr (kHalf) {
      return HalfGroupMaxima<Summary, Marked && Set::Rule::kLast>::template run<Marked ? kMaxMarks : 0>(row, len, e, marks);
    } else {
      bool exact = true;
      for (int r = 0; r < kN; ++r) {
        const Summary s = row_summary<Marked>(row + r * len, len, Marked ? marks + r * kMaxMarks : nullptr);
        exact &= !s.maybe_nan();
        e[r] = s.ext;
      }
      return exact;
    }
  }
  // Row r's maximum in lane r, from lane_maxima's e.
  static E maxima_of(E* e) {
    if constexpr (kHalf) return e[0];
    else return RowHalving<Raw>::template halve<kN, Set::kDirection>(e);
  }
  // The first j in [0, len) where row[j] is m, the row's maximum: the first of the row's trees of
  // four vectors holding m (holding_tree: no branch on the values), then that tree's four vectors
  // (the tail's four reaching back to end at len: the ones they repeat hold no m). Under
  // select_last_index the last j: the last tree holding m, the last match in its four vectors (a
  // reach-back window ends at len, so it holds the row's last m).
  // A search that stops at the winner pays a mispredicted branch a row, where winners fall at
  // random. Marks (one per tree, tested in turn) against such a search (Rows::find; for
  // float16/bfloat16 four vectors a test), end to end (bench/ab.mjs): float32
  // [8400, 80] 1.12-1.13x, [13108, 80] 1.14x, [16384, 64] 1.13x, [32768, 49] 1.18x, [8192, 150]
  // 1.07x, [8192, 192] 1.06x; int32 [13108, 80] 1.13x, [16384, 64] 1.21x, [8192, 150] 1.07x;
  // float64 [8400, 80] 1.06x, [16384, 49] 1.11x, [8192, 96] 1.06x, [4096, 192] level; float16
  // [16384, 100] 1.15x, [8192, 150] 1.11x, [8192, 192] 1.14x, bfloat16 [8192, 256] 1.06x; tree
  // numbers since (kTreeNumbers).
  static ptrdiff_t locate(const Raw* row, ptrdiff_t len, const Mark* marks, V m) {
    const ptrdiff_t start = static_cast<ptrdiff_t>(holding_tree(len, marks, m)) * 4 * kN;
    const ptrdiff_t at = start < len - 4 * kN ? start : len - 4 * kN;
    if constexpr (sizeof(Raw) >= 4) {  // a bit per 4 bytes: one bitmask for the four (kernel 1.05-1.1x)
      const auto eq = [&](int k) { return simd::load(row + at + k * kN) == m; };
      const uint32_t bits = simd::packed_mask(eq(0), eq(1), eq(2), eq(3));
      return at + first_or_last(bits) / static_cast<int>(sizeof(Raw) / 4);
    }
    const uint64_t bits = Rows::masks4(row + at, [m](V v) { return v == m; });
    return at + first_or_last(bits) / static_cast<int>(sizeof(Raw));
  }
  // The first (last) tree of four vectors of the row holding m: by the marks' tests, or from the
  // tree numbers (kTreeNumbers) of the lanes whose extreme is m.
  static int holding_tree(ptrdiff_t len, const Mark* marks, V m) {
    if constexpr (kTreeNumbers) {
      using Lane = typename std::remove_reference<decltype(Tree{}[0])>::type;
      const Tree hit = simd::bits<Tree>(Summary::holds(marks[0], m));
      const Tree none = simd::splat(static_cast<Lane>(Set::kLast ? -1 : 127));
      const Tree t = simd::fold_lanes(simd::select(hit, simd::bits<Tree>(marks[1]), none),
                                      [](Tree a, Tree b) { return Set::kLast ? vmax(a, b) : vmin(a, b); });
      return static_cast<int>(t[0]);
    } else {
      const int count = static_cast<int>((len + 4 * kN - 1) / (4 * kN));
      uint64_t held = 0;
      for (int g = 0; g < count; ++g) held |= uint64_t{simd::any(Summary::holds(marks[g], m))} << g;
      return first_or_last(held);
    }
  }
  // The lowest set bit of bits, or under select_last_index the highest.
  static int first_or_last(uint64_t bits) {
    return Set::kLast ? 63 - __builtin_clzll(bits) : __builtin_ctzll(bits);
  }
  template <bool Marked>
  static Summary row_summary(const Raw* p, ptrdiff_t n, Mark* marks) {
    if constexpr (Marked) return marked_summary(p, n, marks);
    else return summary(p, n);
  }
  // summary's pass with a mark per tree of four vectors (their lane-wise extreme) and one for
  // the tail's vectors, or (kTreeNumbers) the row's two marks; n >= 4 N (rows past the short-row
  // path's). (ReduceMax keeps summary: the marks are the arg kinds' only.)
  static Summary marked_summary(const Raw* p, ptrdiff_t n, Mark* marks) {
    Summary s = Rows::template tree<4, RowPass::Full>(p);
    int g = 0;
    Tree number{}, first{};  // tree 0 holds every lane's extreme so far
    const auto add = [&](const Summary& t) {
      if constexpr (kTreeNumbers) {
        number += 1;
        first = simd::select(simd::bits<Tree>(vbeats<Set::kDirection, Set::kLast>(t.ext, s.ext)), number, first);
        // (float64 too: clang fused that compare with a plain merge's pmax into a compare and a
        // select, ArgMax only)
        if constexpr (std::is_floating_point<Raw>::value) s.merge_instruction(t);
        else s.merge(t);
      } else {
        marks[++g] = t.mark();
        s.merge(t);
      }
    };
    if constexpr (!kTreeNumbers) marks[0] = s.mark();
    ptrdiff_t i = 4 * kN;
    for (; i + 4 * kN <= n; i += 4 * kN) add(Rows::template tree<4, RowPass::Full>(p + i));
    if (i < n) {
      Summary t = Summary::of(simd::load(p + n - kN));
      for (; i + kN < n; i += kN) t.merge(Summary::of(simd::load(p + i)));
      add(t);
    }
    if constexpr (kTreeNumbers) marks[0] = s.mark(), marks[1] = simd::bits<Mark>(first);
    return s;
  }
  // The lane-wise Summary of p[0, n), n >= N: trees of four vectors, then single ones, the
  // last vector loaded from n - N (it may overlap the one before: a max, or a NaN detector,
  // loses nothing by a value met twice).
  static Summary summary(const Raw* p, ptrdiff_t n) {
    Summary s = Summary::of(simd::load(p + n - kN));
    ptrdiff_t i = 0;
    for (; i + 4 * kN <= n; i += 4 * kN) s.merge(Rows::template tree<4, RowPass::Full>(p + i));
    for (; i + kN < n; i += kN) s.merge(Summary::of(simd::load(p + i)));
    return s;
  }
};

}  // namespace ox
