#include "kernels/half_slices_max.h"

#include <cstddef>

#include "core/half.h"
#include "kernels/virtual_rows.h"

namespace ox {

namespace {

using Bytes = virtual_rows::Bytes;
using Signed = simd::Vec<int16_t>;
using Unsigned = simd::Vec<uint16_t>;

// HalfLanes' Summary of raw bits (half_lanes.h): P = max as int16, L = min and H = max as uint16.
struct HalfExtremes {
  Signed p;
  Unsigned l, h;
  static HalfExtremes of(Bytes v) { return {simd::bits<Signed>(v), simd::bits<Unsigned>(v), simd::bits<Unsigned>(v)}; }
  void merge(const HalfExtremes& o) {
    p = p < o.p ? o.p : p;
    l = o.l < l ? o.l : l;
    h = h < o.h ? o.h : h;
  }
  static HalfExtremes funnel(const HalfExtremes& a, const HalfExtremes& b, Bytes low, Bytes high) {
    const auto shift = [&](auto x, auto y) {
      using T = decltype(x);
      return simd::bits<T>(virtual_rows::funnel(simd::bits<Bytes>(x), simd::bits<Bytes>(y), low, high));
    };
    return {shift(a.p, b.p), shift(a.l, b.l), shift(a.h, b.h)};
  }
};

}  // namespace

// By measurement against the paths before it (kernel us per 2 MiB of float16, before -> after):
// from 32 rows for 5-7 columns ([N, 32, 5] 783 -> 601, [N, 256, 5] 912 -> 257, [N, 16, 5] 834 ->
// 1060), from 64 for 3 and 4, which SlicesAsRows splits in registers ([N, 64, 3] 623 -> 418,
// [N, 32, 3] 475 -> 660), never pairs ([N, 1024, 2] 252 -> 256). 9-15 columns (a tile and a
// part) from 256 rows, where the narrow path takes over from the column kernels ([N, 256, 12]
// 957 -> 321, [N, 512, 15] 637 -> 365; below it the column kernels' overlapping tiles win, [N,
// 160, 15] 275 against 332, 256 KiB chunks in cache). Up to 16 KiB a slice (in L1 while each
// vector walks it; level with the narrow path at 2048 rows of 3 and 4).
bool HalfSlicesMax::applies(int64_t reduce, int64_t inner) {
  if (inner < 3 || inner >= 16 || inner == 8 || reduce * inner > 8 * 1024) return false;
  return reduce >= (inner <= 4 ? 64 : inner < 8 ? 32 : 256);
}

int64_t HalfSlicesMax::run(const uint16_t* x, int64_t count, int64_t reduce, int64_t inner, uint16_t inf,
                           uint16_t* best) {
  const ptrdiff_t w = static_cast<ptrdiff_t>(inner), span = static_cast<ptrdiff_t>(reduce) * w;
  const ptrdiff_t last = (static_cast<ptrdiff_t>(reduce) - 8) * w * 2;  // bytes; a virtual row: 8 rows
  const int16_t pos_inf = static_cast<int16_t>(inf);
  const uint16_t neg_inf = static_cast<uint16_t>(0x8000 | inf);
  HalfExtremes acc[16];
  acc[w] = HalfExtremes::of(Bytes{});
  for (int64_t s = 0; s < count; ++s, x += span, best += w) {
    // One vector at a time: its three extremes are three chains already (groups of 2 and 4 were
    // 15-35% slower).
    virtual_rows::walk<1>(reinterpret_cast<const uint8_t*>(x), w, 16 * w, last, acc, HalfExtremes::of);
    virtual_rows::fold(acc, 2 * w, 8);
    uint16_t m[16];
    for (ptrdiff_t c = 0; c < w; ++c) {  // column c: lane c % 8 of acc[c / 8]
      const HalfExtremes& e = acc[c / 8];
      const int16_t p = e.p[c % 8];
      if (p > pos_inf || e.h[c % 8] > neg_inf || p == 0) return s;  // a NaN, or a zero maximum
      m[c] = p > 0 ? static_cast<uint16_t>(p) : e.l[c % 8];
    }
    for (ptrdiff_t c = 0; c < w; ++c)
      if ((best[c] & 0x7FFF) <= inf && half_key(best[c]) < half_key(m[c])) best[c] = m[c];  // a NaN state stays
  }
  return count;
}

}  // namespace ox
