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
// channels) skip the scratch: ColumnScan::whole_rows splits them with shuffles and decides each
// in registers.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/simd.h"

namespace ox {

// Rows of K elements, K a power of two below the lane count N (RGBA bytes, 4 or 8 classes of
// 1- or 2-byte values): N rows at a time are K loads, split in registers, K stores.
template <int K, class Raw>
void transpose_rows_pow2(const Raw* x, ptrdiff_t n, Raw* out) {
  constexpr int kN = simd::kBytes / sizeof(Raw);
  for (ptrdiff_t r = 0; r < n; r += kN, x += kN * K) {
    simd::Vec<Raw> v[K], e[K];
    for (int i = 0; i < K; ++i) v[i] = simd::load(x + i * kN);
    simd::split_rows<K, Raw>(v, e);
    for (int j = 0; j < K; ++j) simd::store(out + j * n + r, e[j]);
  }
}

// Element j of each of `rows` rows (a multiple of the lane count N) to out[j * rows, +rows).
// Rows of N or more elements go N rows by N elements at a time: N loads, an in-register
// transpose, N stores (a last square of a row overlaps the one before: the same values stored
// twice). Shorter rows of 4 or 8 elements are split in registers (transpose_rows_pow2); other
// shorter rows gather each vector lane by lane (rows of 2 and 3 never come here:
// ColumnScan::whole_rows).
// (One per element type, kept out of line so every kind and rule shares it.)
template <class Raw>
__attribute__((noinline)) void transpose_rows(const Raw* x, int64_t rows, int64_t length, Raw* out) {
  constexpr int kN = simd::kBytes / sizeof(Raw);
  using V = simd::Vec<Raw>;
  const ptrdiff_t n = static_cast<ptrdiff_t>(rows), len = static_cast<ptrdiff_t>(length);
  if constexpr (kN > 4) {
    if (len == 4) return transpose_rows_pow2<4>(x, n, out);
  }
  if constexpr (kN > 8) {
    if (len == 8) return transpose_rows_pow2<8>(x, n, out);
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
__attribute__((noinline)) void transpose_slices(const Raw* x, int64_t slices, int64_t length, int64_t inner, Raw* out) {
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
        for (ptrdiff_t i = 0; i < w; ++i) o[i] = p[i];
    }
  }
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
  // between 21 and 40.
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
    if (inner == 1 && length >= 2 && length <= Columns::kMaxWholeRow &&
        (!Columns::kTracksIndex || Columns::starts_fresh(first))) {
      return length == 2 ? Columns::template whole_rows<2>(x, count, first, best, index)
                         : Columns::template whole_rows<3>(x, count, first, best, index);
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

}  // namespace ox
