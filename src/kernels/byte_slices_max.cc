#include "kernels/byte_slices_max.h"

#include <cstddef>

#include "kernels/simd.h"

namespace ox {

namespace {

using Bytes = simd::Vec<uint8_t>;

inline Bytes vmax(Bytes a, Bytes b) { return a < b ? b : a; }  // u8x16.max_u

}  // namespace

bool ByteSlicesMax::applies(int64_t reduce, int64_t inner) {
  if (inner < 3 || inner >= 16 || reduce * inner > 16 * 1024) return false;
  return reduce >= (inner == 3 || inner == 4 ? 64 : inner == 8 ? 32 : 16);
}

void ByteSlicesMax::run(const uint8_t* x, int64_t count, int64_t reduce, int64_t inner, uint8_t flip, uint8_t* best) {
  const ptrdiff_t w = static_cast<ptrdiff_t>(inner), span = static_cast<ptrdiff_t>(reduce) * w;
  const ptrdiff_t stride = 16 * w;                                   // a virtual row: 16 rows, w vectors
  const ptrdiff_t last = (static_cast<ptrdiff_t>(reduce) - 16) * w;  // the last one reaches back
  const Bytes f = simd::splat(flip), lanes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  // The running maxima (16 rows of w bytes) and one more vector the fold's funnel shifts may
  // read, as whole vectors: every load meets a store of the same vector (loads across two
  // stores, as byte offsets into one buffer made them, stall the store forwarding).
  Bytes acc[16];
  acc[w] = Bytes{};
  for (int64_t s = 0; s < count; ++s, x += span, best += w) {
    // Vector v of every virtual row, four vectors (a group) at a time in four chains, a group
    // past w repeating vector w - 1 (the same maximum stored twice). The virtual row at `last`
    // seeds them; it may overlap the one before it, and a byte met twice changes no maximum.
    for (ptrdiff_t v0 = 0; v0 < w; v0 += 4) {
      ptrdiff_t v[4];
      Bytes m[4];
      for (int g = 0; g < 4; ++g) v[g] = (v0 + g < w ? v0 + g : w - 1) * 16, m[g] = simd::load(x + last + v[g]) ^ f;
      for (const uint8_t* p = x; p < x + last; p += stride)
        for (int g = 0; g < 4; ++g) m[g] = vmax(m[g], simd::load(p + v[g]) ^ f);
      for (int g = 0; g < 4; ++g) acc[v[g] / 16] = m[g];
    }
    // Halving: bytes [h, 2h) onto [0, h) for h = 8w, 4w, 2w, w (rows 8-15 onto 0-7, ... 1 onto
    // 0). Vector j meets the 16 bytes from 16 j + h: vectors j + h / 16 and the next, funnel-
    // shifted by h % 16 with two swizzles (lanes out of range read 0). Bytes past 2h reach only
    // bytes past h, which later steps do not read; vector j is written before any later j reads.
    for (ptrdiff_t h = 8 * w; h >= w; h /= 2) {
      const Bytes low = lanes + simd::splat(static_cast<uint8_t>(h % 16)), high = low - simd::splat(uint8_t{16});
      for (ptrdiff_t j = 0, q = h / 16; 16 * j < h; ++j)
        acc[j] = vmax(acc[j], simd::swizzle(acc[j + q], low) | simd::swizzle(acc[j + q + 1], high));
    }
    for (ptrdiff_t c = 0; c < w; ++c) {
      const uint8_t m = acc[0][c], b = static_cast<uint8_t>(best[c] ^ flip);
      if (b < m) best[c] = static_cast<uint8_t>(m ^ flip);
    }
  }
}

}  // namespace ox
