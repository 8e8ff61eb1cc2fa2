// Many short rows (class scores in NHWC layout: [1,512,512,21] over the last axis; a binary head
// [N,2]) run as columns. A row of a few elements gives the row kernels nothing to vectorize and
// costs each row a block's fixed work (a summary, a rescan); the column kernels instead put one
// row in each lane. A block of rows is transposed into an L1 scratch (element j of row r at
// scratch[j * block + r]) and ColumnScan reduces it: virtual row j is element j, virtual column r
// is row r, so the column state best[r], index[r] is the row state as is, and every rule of the
// column kernels (NaN, ties, -0 == +0, the carried state) holds unchanged.
// Many small slices of a strided axis ([65536, 4, 5] over the middle axis) are the same problem
// with each element a run of `inner` values: row j of the scratch holds row j of each slice of
// the block side by side, so slice s's column i is scratch column s * inner + i, its state's
// place too. One column-kernel call then covers the block instead of one call per slice.
// Whole rows of up to ColumnScan::kMaxWholeRow elements (a binary head's [N,2] scores, RGB
// channels; RGBA for some kernel sets) skip the scratch: ColumnScan::whole_rows splits them with
// shuffles and decides each in registers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/simd.h"

namespace ox {

// Rows of K elements, K a power of two below the lane count N or prime to N (RGB or RGBA bytes,
// 4 or 8 classes of 1- or 2-byte values, x y z coordinates of any type): N rows at a time are K
// loads, split in registers (simd::split_rows), K stores.
template <int K, class Raw>
void transpose_rows_split(const Raw* x, ptrdiff_t n, Raw* out) {
  constexpr int kN = simd::kBytes / sizeof(Raw);
  for (ptrdiff_t r = 0; r < n; r += kN, x += kN * K) {
    simd::Vec<Raw> v[K], e[K];
    for (int i = 0; i < K; ++i) v[i] = simd::load(x + i * kN);
    simd::split_rows<K, Raw>(v, e);
    for (int j = 0; j < K; ++j) simd::store(out + j * n + r, e[j]);
  }
}

// 16-bit rows of 6 (neither a power of two nor prime to 8 lanes): rows of three 4-byte units,
// split in registers four rows at a time, then each unit's two elements apart by deinterleave.
template <class Raw>
void transpose_rows_split6(const Raw* x, ptrdiff_t n, Raw* out) {
  static_assert(sizeof(Raw) == 2, "16-bit rows");
  constexpr int kN = simd::kBytes / sizeof(Raw);  // rows a round: six loads
  using U = simd::Vec<uint32_t>;
  for (ptrdiff_t r = 0; r < n; r += kN, x += 6 * kN) {
    U v[6], u[6];
    for (int i = 0; i < 6; ++i) v[i] = simd::bits<U>(simd::load(x + kN * i));
    simd::split_rows<3, uint32_t>(v, u);          // unit i of rows 0-3 in u[i]
    simd::split_rows<3, uint32_t>(v + 3, u + 3);  // of rows 4-7 in u[3 + i]
    for (int i = 0; i < 3; ++i) {
      const simd::Vec<Raw> a = simd::bits<simd::Vec<Raw>>(u[i]), b = simd::bits<simd::Vec<Raw>>(u[3 + i]);
      simd::store(out + 2 * i * n + r, simd::deinterleave<false, Raw>(a, b));
      simd::store(out + (2 * i + 1) * n + r, simd::deinterleave<true, Raw>(a, b));
    }
  }
}

// Element j of each of `rows` rows (a multiple of the lane count N) to out[j * rows, +rows).
// Rows of N or more elements go N rows by N elements at a time: N loads, an in-register
// transpose, N stores (a last square of a row overlaps the one before: the same values stored
// twice). Rows of 3, shorter rows of 2, 4 or 8 elements, 16-bit rows of 5, 6 or 7 and byte rows of
// 5 are split in registers (transpose_rows_split: rows of 3 of 8-byte values take 3 shuffles for
// 2 rows where two overlapping squares took 4; short rows of 2 and 3 come here mostly as columns
// of slices, SlicesAsRows below, as ColumnScan::whole_rows takes them as rows); other shorter
// rows gather each vector lane by lane.
// (Out of line, one per element size: transpose_rows below.)
template <class Raw>
__attribute__((noinline)) void transpose_rows_of(const Raw* x, int64_t rows, int64_t length, Raw* out) {
  constexpr int kN = simd::kBytes / sizeof(Raw);
  using V = simd::Vec<Raw>;
  const ptrdiff_t n = static_cast<ptrdiff_t>(rows), len = static_cast<ptrdiff_t>(length);
  if constexpr (kN > 2) {
    if (len == 2) return transpose_rows_split<2>(x, n, out);
  }
  if (len == 3) return transpose_rows_split<3>(x, n, out);
  if constexpr (kN > 4) {
    if (len == 4) return transpose_rows_split<4>(x, n, out);
  }
  if constexpr (kN > 8) {
    if (len == 8) return transpose_rows_split<8>(x, n, out);
  }
  // 16-bit rows of 5-7 (float16 [N, 5] 1.46x, [N, 7] 1.33x, kernel in cache [N, 6] 1.44-1.73x
  // faster than gathers). Rows of 7 as 8x8 squares (eight loads, each one element into the next
  // row; 24 unpacks where the split takes 49 blends and permutes) ran 0.86-0.89x in cache.
  if constexpr (kN == 8) {
    if (len == 5) return transpose_rows_split<5>(x, n, out);
    if (len == 7) return transpose_rows_split<7>(x, n, out);
    if (len == 6) return transpose_rows_split6(x, n, out);
  }
  if constexpr (kN == 16) {  // byte rows of 5: the columns of uint8 [N, 40, 5] slices 1.65x faster than gathers
    if (len == 5) return transpose_rows_split<5>(x, n, out);
  }
  if (len < kN) {
    for (ptrdiff_t j = 0; j < len; ++j) {
      const Raw* p = x + j;
      for (ptrdiff_t r = 0; r < n; r += kN, p += kN * len) simd::store(out + j * n + r, simd::gather(p, len));
    }
    return;
  }
  // Squares down the rows for each run of N elements: the stores fill the scratch's runs in
  // order and every address steps by a constant (3x faster in V8 than rows outer with
  // addresses multiplied out).
  for (ptrdiff_t j = 0;; j += kN) {
    if (j > len - kN) j = len - kN;
    const Raw* p = x + j;
    Raw* o = out + j * n;
    for (ptrdiff_t r = 0; r < n; r += kN, p += kN * len) {
      V v[kN];
      for (int i = 0; i < kN; ++i) v[i] = simd::load(p + i * len);
      simd::transpose<Raw>(v);
      for (int q = 0; q < kN; ++q) simd::store(o + q * n + r, v[q]);
    }
    if (j == len - kN) break;
  }
}

// Row j of each of `slices` slices of [length, inner] (inner > 1) side by side: out[j * slices *
// inner + s * inner + i] = x[(s * length + j) * inner + i]. The stores run in order; a run of
// inner values goes as vectors (the last one overlapping the one before) or, below a vector, as
// scalars.
template <class Raw>
__attribute__((noinline)) void transpose_slices_of(const Raw* x, int64_t slices, int64_t length, int64_t inner, Raw* out) {
  constexpr int kN = simd::kBytes / sizeof(Raw);
  const ptrdiff_t n = static_cast<ptrdiff_t>(slices), len = static_cast<ptrdiff_t>(length), w = static_cast<ptrdiff_t>(inner);
  const ptrdiff_t span = len * w;
  for (ptrdiff_t j = 0; j < len; ++j) {
    const Raw* p = x + j * w;
    Raw* o = out + j * n * w;
    if (w >= kN) {
      for (ptrdiff_t s = 0; s < n; ++s, p += span, o += w) {
        for (ptrdiff_t i = 0; i + kN < w; i += kN) simd::store(o + i, simd::load(p + i));
        simd::store(o + w - kN, simd::load(p + w - kN));
      }
    } else {
      for (ptrdiff_t s = 0; s < n; ++s, p += span, o += w)
        for (ptrdiff_t i = 0; i < w; ++i) std::memcpy(o + i, p + i, sizeof(Raw));  // bits of any type
    }
  }
}

// The transposes move bits, so every element type of a size shares one out-of-line copy (float,
// int32 and uint32 one, where 4- and 8-byte slices had two each: 84 bytes of the gzipped module).
// The callers' data goes as the unsigned integer type of its size, read and written only through
// memcpy (simd::load and store, gather, the scalar copies above), never a plain lvalue of it.
template <class Raw>
using TransposedBits = typename std::make_unsigned<typename simd::SignedOf<sizeof(Raw)>::type>::type;
template <class Raw>
inline void transpose_rows(const Raw* x, int64_t rows, int64_t length, Raw* out) {
  using B = TransposedBits<Raw>;
  transpose_rows_of(reinterpret_cast<const B*>(x), rows, length, reinterpret_cast<B*>(out));
}
template <class Raw>
inline void transpose_slices(const Raw* x, int64_t slices, int64_t length, int64_t inner, Raw* out) {
  using B = TransposedBits<Raw>;
  transpose_slices_of(reinterpret_cast<const B*>(x), slices, length, inner, reinterpret_cast<B*>(out));
}

template <class Columns>
struct ShortRows {
  using Raw = typename Columns::Raw;
  static constexpr int64_t kTile = Columns::kTile;
  // The scratch and the block's input both stay in L1 (32 KiB).
  static constexpr int64_t kScratchElements = 8192 / sizeof(Raw);
  // Rows up to 12 vectors long take the column path (6 for ReduceMax, whose row kernel has no
  // index to find); longer rows vectorize along the row well enough. Measured crossovers, in
  // elements: ArgMax near 48 float32, 32 float64, past 64 float16 and uint8; ReduceMax float32
  // between 21 and 40. (Rows some kinds take by groups first, ahead of this path: RowGroupMax,
  // row_group_max.h, e.g. the arg kinds' byte rows from 129; RowHalving, row_halving.h,
  // ReduceMax over float32 and 1- and 4-byte integer rows from 5, float16/bfloat16 from 9.)
  static constexpr int64_t kMaxLength = (Columns::kTracksIndex ? 12 : 6) * simd::kBytes / sizeof(Raw);
  static constexpr int64_t kBlockRows = 1024 / sizeof(Raw);
  static_assert(kTile % (simd::kBytes / sizeof(Raw)) == 0, "blocks are whole squares of lanes");
  static_assert(kScratchElements / kMaxLength >= kTile, "a block of the longest short rows fills a tile");

  // Whether `count` rows of `length` elements (slices of [length, inner]) take this path: small
  // rows (slices), together at least a tile wide.
  static bool applies(int64_t count, int64_t length, int64_t inner = 1) {
    return length * inner <= kMaxLength && count * inner >= kTile;
  }

  // `count` rows of `length` elements, or whole slices of [length, inner] (applies() holds): row
  // (slice) k's column i continues best[k * inner + i] (index[...]); element j has index first + j.
  // Block by block through the scratch. Rows (inner 1) go in whole tiles, as the transpose goes a
  // square of lanes at a time; a block must be at least a tile wide. What is left after the last
  // full block takes one block reaching back over rows (slices) already done: walking a row again
  // from the state it produced leaves that state unchanged, under either tie rule.
  // (Out of line: rows and slices share one copy per kind.)
  __attribute__((noinline)) static void run(const Raw* x, int64_t count, int64_t length, int64_t inner, int64_t first,
                                            Raw* best, int32_t* index) {
    // Arg kinds only from index 0: rows continued from an earlier call keep the scratch, one copy
    // of the kernel per kind and dtype fewer (size budget) for calls Execution never makes (it
    // continues one row at a time). ReduceMax reads its states.
    if constexpr (Columns::kPairedRows)
      if (inner == 1 && length >= Columns::kShortestPaired && length <= Columns::kLongestPaired &&
          (!Columns::kTracksIndex || Columns::starts_fresh(first)) && Columns::paired_rows(x, count, length, best, index))
        return;
    if constexpr (Columns::kSquaredRows)
      if (inner == 1 && length >= Columns::kShortestSquared && length <= Columns::kLongestSquared &&
          Columns::starts_fresh(first) && Columns::square_rows(x, count, length, best, index))
        return;
    if constexpr (Columns::kFastWholeRowsOf4)
      if (inner == 1 && length == 4 && Columns::starts_fresh(first) &&
          Columns::template whole_rows_fast<4>(x, count, best, index))
        return;
    if constexpr (Columns::kFastWholeRowsOf5)
      if (inner == 1 && length == 5 && Columns::starts_fresh(first) &&
          Columns::template whole_rows_fast<5>(x, count, best, index))
        return;
    if (inner == 1 && length >= 2 && length <= Columns::kMaxWholeRow &&
        (!Columns::kTracksIndex || Columns::starts_fresh(first))) {
      if (length == 2) return Columns::template whole_rows<2>(x, count, first, best, index);
      if (length == 3) return Columns::template whole_rows<3>(x, count, first, best, index);
      if constexpr (Columns::kMaxWholeRow >= 4) return Columns::template whole_rows<4>(x, count, first, best, index);
    }
    alignas(16) Raw scratch[kScratchElements];
    const int64_t unit = inner == 1 ? kTile : 1;           // rows / slices per step
    const int64_t least = (kTile + inner - 1) / inner;     // a tile wide
    // At most 1 KiB per element's run (kBlockRows): runs 4 KiB apart alias the block's loads.
    const int64_t by_scratch = kScratchElements / (length * inner), by_run = kBlockRows / inner;
    int64_t block = (by_scratch < by_run ? by_scratch : by_run) / unit * unit;
    if (block < least) block = least;
    const int64_t span = length * inner;
    for (int64_t k = 0; k < count;) {
      int64_t k0 = k, n = (count - k < block ? count - k : block) / unit * unit;
      if (n < least) k0 = count - least, n = least;
      if (inner == 1)
        transpose_rows(x + k0 * span, n, length, scratch);
      else
        transpose_slices(x + k0 * span, n, length, inner, scratch);
      Columns::run(scratch, length, n * inner, n * inner, first, best + k0 * inner, index ? index + k0 * inner : nullptr);
      k = k0 + n;
    }
  }
};

// Slices of [reduce, inner] with inner narrower than a column tile (a vector; two for 8-byte
// lanes) and reduce at least a vector ([N, 256, 3] over the middle axis: the best row of each of
// x, y, z in a batch of point sets, of each colour over an image's rows): the column kernels would
// load a part of a tile per row, the narrow path (narrow_columns.h) finds too few virtual rows in
// one slice to pay for its merge, and ShortRows copies runs narrower than a vector into its
// scratch element by element. Instead each slice's columns are transposed into rows of an L1
// scratch (transpose_rows), several slices one after another, and the set's row kernels reduce
// them: row s * inner + i of a block is column i of slice s, so the row states are the column
// states as they lie. A slice goes a multiple of the lane count of rows at a time (as many as the
// scratch holds), each run continued from the state the one before left; a last part that is not
// such a multiple takes one reaching back over rows already done, which leaves the state as it
// was under either tie rule (ShortRows::run does the same).
template <class Set>
struct SlicesAsRows {
  using Raw = typename Set::Raw;
  static constexpr int64_t kLanes = simd::kBytes / sizeof(Raw);
  // 16 KiB (of 48 in L1 here): twice the slices of 256 rows of 3 a pass (a block's rows, a few
  // slices' columns, fill whole row groups): end to end (bench/ab.mjs) ArgMax over [1366,256,3]
  // float16 1.14-1.15x, bfloat16 ArgMin 1.15-1.17x, uint8 and int8 1.09x, float32 [5461,64,3]
  // 1.02-1.03x; rows of 2, 4 and 8 and ReduceMax level, against 8 KiB.
  static constexpr int64_t kScratchElements = 16384 / sizeof(Raw);

  // Whether slices of [reduce, inner] come here rather than to ShortRows or the narrow path, by
  // measurement (kernel GB/s, this path against the one before it). `narrow_rows`: the virtual
  // rows the narrow path makes of one slice, 0 where it does not apply (then this path wins:
  // uint8 [N, 256, 3] 9.1 against 1.1, [N, 256, 5] 3.8 against 1.4, [N, 16, 3] 4.5 against 1.4;
  // float16 [N, 8, 2] 4.6 against 1.8; float64 [N, 40, 3] 8.0 against 3.4).
  // - Rows of 2 and 3, which transpose_rows splits with a few shuffles (rows of 2 of 8-byte
  //   values go by squares), also where it applies:
  //   - ReduceMax (no indices to merge) below 128 virtual rows: uint8 [N, 4096, 3] 18.3
  //     against 15.5, [N, 8192, 3] 17.8 against 21.4.
  //   - an arg kind's narrow path merges its candidates with their indices per slice: rows of
  //     two pay that back from 16 KiB slices (float32 [N, 2048, 2] 22.3 against 22.2; uint8
  //     [N, 2048, 2] 18.1 against 11.2, [N, 8192, 2] 20.9 against 20.3), rows of three only
  //     past 256 KiB (float32 [N, 8192, 3] 17.9 against 14.9, uint8 [N, 65536, 3] even).
  // - Rows of 4 and 8, which it splits in registers too, where the narrow path makes few virtual
  //   rows of a slice and pays its merge for each (kernel us per 2 MiB, before -> after): rows of
  //   4 below 128 (float16 ArgMax [N, 64, 4] 1190-1256 -> 558-562, [N, 256, 4] 946-988 -> 536-568;
  //   int16 [N, 256, 4] 614-646 -> 419-422; uint8 [N, 256, 4] 338-347 -> 263-309), rows of 8
  //   below 32 (uint8 [N, 64, 8] 623-655 -> 450-469; [N, 256, 8], 32 of them, 1.04-1.06x slower).
  // - Other widths the narrow path streams faster (uint8 [N, 2048, 4] 16.8 against 12.2,
  //   [N, 2048, 5] 15 against 4.7), and below 128 virtual rows it measured level with the lane
  //   by lane gathers here (float16 ArgMax [N, 256, 5] and [N, 256, 7] 0.74-1.04x).
  static bool applies(int64_t reduce, int64_t inner, int64_t narrow_rows) {
    if (inner < 2 || inner >= Set::Columns::kTile || reduce < kLanes) return false;
    if (!narrow_rows) return true;
    if (inner == 4) return narrow_rows < 128;
    if (inner == 8) return narrow_rows < 32;
    if (inner > 3) return false;
    if (!Set::Columns::kTracksIndex) return narrow_rows < 128;
    const int64_t bytes = reduce * inner * static_cast<int64_t>(sizeof(Raw));
    return bytes < (inner == 2 ? 16 << 10 : 256 << 10);
  }

  // (Out of line: one copy per kernel set.)
  __attribute__((noinline)) static void run(const Raw* x, int64_t count, int64_t reduce, int64_t inner, Raw* best,
                                            int32_t* index) {
    alignas(16) Raw scratch[kScratchElements];
    const int64_t most = kScratchElements / inner / kLanes * kLanes;
    const int64_t whole = reduce / kLanes * kLanes;
    const int64_t chunk = whole < most ? whole : most;         // rows of a slice per pass
    const int64_t block = kScratchElements / (inner * chunk);  // slices per pass
    const int64_t span = reduce * inner;
    for (int64_t s0 = 0; s0 < count; s0 += block) {
      const int64_t slices = count - s0 < block ? count - s0 : block;
      for (int64_t r0 = 0; r0 < reduce; r0 += chunk) {
        int64_t first = r0, rows = chunk;
        if (reduce - r0 < chunk) {  // the last part, rounded up to whole vectors, reaching back
          rows = (reduce - r0 + kLanes - 1) / kLanes * kLanes;
          first = reduce - rows;
        }
        for (int64_t s = 0; s < slices; ++s)
          transpose_rows(x + (s0 + s) * span + first * inner, rows, inner, scratch + s * inner * rows);
        Set::rows(scratch, slices * inner, rows, first, best + s0 * inner, index ? index + s0 * inner : nullptr);
      }
    }
  }
};

}  // namespace ox
