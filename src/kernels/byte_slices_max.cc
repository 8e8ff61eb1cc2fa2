#include "kernels/byte_slices_max.h"

#include <cstddef>

#include "kernels/virtual_rows.h"

namespace ox {

namespace {

using Bytes = virtual_rows::Bytes;

// The running maximum of bytes in unsigned order (int8 flipped to it on loading).
struct ByteMax {
  Bytes m;
  void merge(const ByteMax& o) { m = m < o.m ? o.m : m; }  // u8x16.max_u
  static ByteMax funnel(const ByteMax& a, const ByteMax& b, Bytes low, Bytes high) {
    return {virtual_rows::funnel(a.m, b.m, low, high)};
  }
};

}  // namespace

bool ByteSlicesMax::applies(int64_t reduce, int64_t inner) {
  if (inner < 3 || inner >= 16 || reduce * inner > 16 * 1024) return false;
  return reduce >= (inner == 3 || inner == 4 ? 64 : inner == 8 ? 32 : 16);
}

void ByteSlicesMax::run(const uint8_t* x, int64_t count, int64_t reduce, int64_t inner, uint8_t flip, uint8_t* best) {
  const ptrdiff_t w = static_cast<ptrdiff_t>(inner), span = static_cast<ptrdiff_t>(reduce) * w;
  const ptrdiff_t last = (static_cast<ptrdiff_t>(reduce) - 16) * w;  // a virtual row: 16 rows
  const Bytes f = simd::splat(flip);
  ByteMax acc[16];
  acc[w] = ByteMax{Bytes{}};
  for (int64_t s = 0; s < count; ++s, x += span, best += w) {
    virtual_rows::walk<4>(x, w, 16 * w, last, acc, [f](Bytes v) { return ByteMax{v ^ f}; });
    virtual_rows::fold(acc, w, 16);
    for (ptrdiff_t c = 0; c < w; ++c) {
      const uint8_t m = acc[0].m[c], b = static_cast<uint8_t>(best[c] ^ flip);
      if (b < m) best[c] = static_cast<uint8_t>(m ^ flip);
    }
  }
}

}  // namespace ox
