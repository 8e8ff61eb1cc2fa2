#include "kernels/keyed_kernels.h"

#include <algorithm>
#include <cstring>

#include "kernels/simd.h"

namespace ox {
namespace {

// The keys of one piece. 32 KiB: a piece and what the kernels keep beside it stay in L1.
// (Pieces split where the feed did not: a call gets fewer rows or a part of a row, which every
// kernel takes with its state carried, as from the feed's own chunks.)
constexpr int64_t kScratchBytes = 32 * 1024;
alignas(64) uint8_t g_scratch[kScratchBytes];

// dst = src ^ flip over `bytes` bytes from an element boundary.
void xor_copy(uint8_t* dst, const uint8_t* src, int64_t bytes, const KeyFlip& flip) {
  const simd::Vec<uint8_t> f = simd::load(flip.bytes);
  int64_t b = 0;
  for (; b + 64 <= bytes; b += 64)
    for (int k = 0; k < 64; k += 16) simd::store(dst + b + k, simd::load(src + b + k) ^ f);
  for (; b + 16 <= bytes; b += 16) simd::store(dst + b, simd::load(src + b) ^ f);
  for (; b < bytes; ++b) dst[b] = src[b] ^ flip.bytes[b % 16];
}

// The keys of `rows` rows of `width` elements `stride` apart at x, packed into the scratch.
const void* keys_of(const KeyFlip& flip, int size, const uint8_t* x, int64_t rows, int64_t width, int64_t stride) {
  const int64_t row_bytes = width * size;
  if (stride == width) {
    xor_copy(g_scratch, x, rows * row_bytes, flip);
  } else {
    for (int64_t r = 0; r < rows; ++r) xor_copy(g_scratch + r * row_bytes, x + r * stride * size, row_bytes, flip);
  }
  return g_scratch;
}

// index + k, or none for ReduceMax (no index array).
int32_t* index_at(int32_t* index, int64_t k) { return index ? index + k : nullptr; }

// The states between values and keys (either way: the flip is its own inverse).
void flip_states(const KeyFlip& flip, int size, uint8_t* best, int64_t count) {
  xor_copy(best, best, count * size, flip);
}

void rows_of_keys(const KernelSet& target, const KeyFlip& flip, int size, const uint8_t* in, int64_t n,
                  int64_t length, int64_t first, uint8_t* b, int32_t* index) {
  const int64_t cap = kScratchBytes / size;
  if (length == 0) return target.rows(in, n, 0, first, b, index);  // no element to key
  if (length <= cap) {  // whole rows a piece
    const int64_t per = cap / length;
    for (int64_t k = 0; k < n; k += per) {
      const int64_t m = std::min(per, n - k);
      target.rows(keys_of(flip, size, in + k * length * size, m, length, length), m, length, first, b + k * size,
                  index_at(index, k));
    }
    return;
  }
  for (int64_t k = 0; k < n; ++k)  // each row in parts, its state carried from part to part
    for (int64_t at = 0; at < length; at += cap) {
      const int64_t m = std::min(cap, length - at);
      target.rows(keys_of(flip, size, in + (k * length + at) * size, 1, m, m), 1, m, first + at, b + k * size,
                  index_at(index, k));
    }
}

void columns_of_keys(const KernelSet& target, const KeyFlip& flip, int size, const uint8_t* in, int64_t n,
                     int64_t width, int64_t stride, int64_t first, uint8_t* b, int32_t* index) {
  const int64_t cap = kScratchBytes / size;
  if (width == 0) return target.columns(in, n, 0, stride, first, b, index);  // no element to key
  // Blocks of columns, each down all the rows in pieces (a column's rows stay in order): as many
  // rows a piece as fit, for the column kernels' row groups, with blocks of at least 256 columns.
  const int64_t columns = std::min(width, std::max(cap / std::max<int64_t>(n, 1), std::min<int64_t>(cap, 256)));
  const int64_t per = cap / columns;
  for (int64_t c = 0; c < width; c += columns) {
    const int64_t w = std::min(columns, width - c);
    for (int64_t r = 0; r < n; r += per) {
      const int64_t m = std::min(per, n - r);
      target.columns(keys_of(flip, size, in + (r * stride + c) * size, m, w, stride), m, w, w, first + r,
                     b + c * size, index_at(index, c));
    }
  }
}

}  // namespace

void keyed_rows(const KernelSet& target, const KeyFlip& flip, int size, const void* x, int64_t n, int64_t length,
                int64_t first, void* best, int32_t* index) {
  uint8_t* b = static_cast<uint8_t*>(best);
  flip_states(flip, size, b, n);
  rows_of_keys(target, flip, size, static_cast<const uint8_t*>(x), n, length, first, b, index);
  flip_states(flip, size, b, n);
}

void keyed_columns(const KernelSet& target, const KeyFlip& flip, int size, const void* x, int64_t n, int64_t width,
                   int64_t stride, int64_t first, void* best, int32_t* index) {
  uint8_t* b = static_cast<uint8_t*>(best);
  flip_states(flip, size, b, width);
  columns_of_keys(target, flip, size, static_cast<const uint8_t*>(x), n, width, stride, first, b, index);
  flip_states(flip, size, b, width);
}

void keyed_slices(const KernelSet& target, const KeyFlip& flip, int size, const void* x, int64_t n, int64_t reduce,
                  int64_t inner, void* best, int32_t* index) {
  const uint8_t* in = static_cast<const uint8_t*>(x);
  uint8_t* b = static_cast<uint8_t*>(best);
  const int64_t span = reduce * inner, cap = kScratchBytes / size;
  flip_states(flip, size, b, n * inner);
  if (span == 0) {  // no element to key
    target.slices(in, n, reduce, inner, b, index);
  } else if (span > cap) {  // a slice larger than a piece: its column problem
    for (int64_t k = 0; k < n; ++k)
      columns_of_keys(target, flip, size, in + k * span * size, reduce, inner, inner, 0, b + k * inner * size,
                      index_at(index, k * inner));
  } else {
    const int64_t per = cap / span;
    for (int64_t k = 0; k < n; k += per) {
      const int64_t m = std::min(per, n - k);
      target.slices(keys_of(flip, size, in + k * span * size, m, span, span), m, reduce, inner, b + k * inner * size,
                    index_at(index, k * inner));
    }
  }
  flip_states(flip, size, b, n * inner);
}

void keyed_fill_start(const KernelSet& target, const KeyFlip& flip, int size, void* best, int64_t count) {
  target.fill_start(best, count);
  flip_states(flip, size, static_cast<uint8_t*>(best), count);
}

}  // namespace ox
