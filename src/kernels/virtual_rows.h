// Slices of [reduce, w] with rows narrower than a vector (w elements of 1 or 2 bytes, w * size <
// 16) read as virtual rows of w whole vectors: 16 / size rows each, so that every column of the
// slice sits at the same bytes of every virtual row. A slice is then read straight, vector v of
// each virtual row merged into a running lane-wise summary acc[v] (walk), and the summaries of the
// rows a virtual row holds fold into one row by halving (fold): each column's summary over the
// whole slice, with no transposition. For ByteSlicesMax and HalfSlicesMax.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/simd.h"

namespace ox {
namespace virtual_rows {

using Bytes = simd::Vec<uint8_t>;

// Sum is a lane-wise summary of vectors: merge(const Sum&), and funnel(a, b, low, high), the
// summary whose every vector is funnel(a's, b's, low, high) below. of(Bytes) makes one.

// a and b as one 32-byte run shifted down by k bytes (low = lanes + k, high = low - 16): byte i is
// the run's byte i + k (swizzle lanes out of range read 0, so each swizzle gives its own part).
inline Bytes funnel(Bytes a, Bytes b, Bytes low, Bytes high) { return simd::swizzle(a, low) | simd::swizzle(b, high); }

// The virtual rows of one slice at x (stride: a virtual row's bytes, 16 w; last: the byte offset
// of the last virtual row, which reaches back to end the slice and may overlap the one before it:
// a value met twice changes no maximum) into acc[0, w): G vectors at a time in G chains, a group
// past w repeating vector w - 1 (the same summary stored twice). The last virtual row seeds them.
template <int G, class Sum, class Of>
inline void walk(const uint8_t* x, ptrdiff_t w, ptrdiff_t stride, ptrdiff_t last, Sum* acc, Of of) {
  for (ptrdiff_t v0 = 0; v0 < w; v0 += G) {
    ptrdiff_t v[G];
    Sum m[G];
    for (int g = 0; g < G; ++g) v[g] = (v0 + g < w ? v0 + g : w - 1) * 16, m[g] = of(simd::load(x + last + v[g]));
    for (const uint8_t* p = x; p < x + last; p += stride)
      for (int g = 0; g < G; ++g) m[g].merge(of(simd::load(p + v[g])));
    for (int g = 0; g < G; ++g) acc[v[g] / 16] = m[g];
  }
}

// Halving the rows of acc[0, w) (`rows` rows of row_bytes bytes): bytes [h, 2h) onto [0, h) for h
// = rows / 2 rows, then a quarter, ..., one row, after which acc[0]'s first row_bytes bytes hold
// each column's summary. Vector j meets the 16 bytes from 16 j + h: vectors j + h / 16 and the
// next, funnel-shifted by h % 16 (swizzle lanes out of range read 0; acc[w] must exist). Bytes
// past 2h reach only bytes past h, which later steps do not read; vector j is written before any
// later j reads it. Every access is a whole vector of acc: a load never spans two stores, which
// would stall the store forwarding (as byte offsets into one buffer did, once per step).
template <class Sum>
inline void fold(Sum* acc, ptrdiff_t row_bytes, ptrdiff_t rows) {
  const Bytes lanes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  for (ptrdiff_t h = row_bytes * rows / 2; h >= row_bytes; h /= 2) {
    const Bytes low = lanes + simd::splat(static_cast<uint8_t>(h % 16)), high = low - simd::splat(uint8_t{16});
    for (ptrdiff_t j = 0, q = h / 16; 16 * j < h; ++j) acc[j].merge(Sum::funnel(acc[j + q], acc[j + q + 1], low, high));
  }
}

}  // namespace virtual_rows
}  // namespace ox
