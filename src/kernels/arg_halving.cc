#include "kernels/arg_halving.h"

#include <cstddef>
#include <cstring>

#include "kernels/row_halving.h"
#include "kernels/simd.h"

namespace ox {

namespace {

using Keys = simd::Vec<uint16_t>;
using Bytes = simd::Vec<uint8_t>;

// The 8 bytes at p as the high bytes of 8 keys, xored with `keys` (the value flip above, the
// position keys below).
inline Keys keys_of(const uint8_t* p, Keys keys) {
  uint64_t b;
  std::memcpy(&b, p, 8);
  const Bytes x = simd::bits<Bytes>(simd::U64{b, 0});
  const Bytes high = __builtin_shufflevector(Bytes{}, x, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  return simd::bits<Keys>(high) ^ keys;
}

}  // namespace

int64_t ArgHalvingBytes::run(const uint8_t* x, int64_t n, int64_t length, uint8_t flip, bool last, uint8_t* best,
                             int32_t* index) {
  if (!applies(length) || n < 8) return 0;
  const ptrdiff_t k = static_cast<ptrdiff_t>(length), rows = static_cast<ptrdiff_t>(n);
  // Each row loads 8 bytes from its start (and, past 8, the 8 ending it): the rows whose load
  // stays within x (rows * k >= 8 here).
  const ptrdiff_t loadable = k >= 8 ? rows : (rows * k - 8) / k + 1;
  const ptrdiff_t groups = loadable / 8;
  // Per lane of the first load (position i) and of the second (position k - 8 + i): the value
  // flip in the high byte, the position key in the low one. Lanes past a short row's end are
  // zeroed (`keep`): key 0 is below every element's key but (value key 0, position key 0), which
  // names the same winner.
  const Keys lane = {0, 1, 2, 3, 4, 5, 6, 7}, flip_high = simd::splat(static_cast<uint16_t>(flip << 8));
  const auto position_key = [&](Keys j) { return flip_high | (last ? j : simd::splat(uint16_t{255}) - j); };
  const Keys head = position_key(lane), tail = position_key(lane + simd::splat(static_cast<uint16_t>(k - 8)));
  const Keys keep = simd::bits<Keys>(lane < simd::splat(static_cast<uint16_t>(k)));
  const Keys position_flip = simd::splat(static_cast<uint16_t>(last ? 0 : 255));
  for (ptrdiff_t g = 0; g < groups; ++g) {
    const uint8_t* row = x + g * 8 * k;
    // The row loops unrolled whole keep v in registers: as loops (what -O2 left them) V8 stored
    // each row's keys to the wasm stack and read them back for the halving; unrolled, kernel in
    // cache rows of 5, 7 and 10 1.39-1.51x, end to end uint8 [131072,7] 1.10x, [104857,10] 1.24x,
    // int8 ArgMin [209715,5] 1.19x, for 62 bytes gzipped.
    Keys v[8];
    if (k > 8) {
#pragma GCC unroll 8
      for (int r = 0; r < 8; ++r, row += k) v[r] = vmax(keys_of(row, head), keys_of(row + k - 8, tail));
    } else {
#pragma GCC unroll 8
      for (int r = 0; r < 8; ++r, row += k) v[r] = keys_of(row, head) & keep;
    }
    const Keys winners = RowHalving<uint16_t>::halve<8>(v);  // row r's largest key in lane r
    const Keys j = (winners & simd::splat(static_cast<uint16_t>(0xff))) ^ position_flip;
    simd::store(index + g * 8, __builtin_convertvector(__builtin_shufflevector(j, j, 0, 1, 2, 3), simd::I32));
    simd::store(index + g * 8 + 4, __builtin_convertvector(__builtin_shufflevector(j, j, 4, 5, 6, 7), simd::I32));
    const Keys values = (winners >> 8) ^ simd::splat(static_cast<uint16_t>(flip));
    const Bytes packed = simd::bits<Bytes>(values);
    const Bytes low = __builtin_shufflevector(packed, packed, 0, 2, 4, 6, 8, 10, 12, 14, 0, 2, 4, 6, 8, 10, 12, 14);
    const uint64_t out = simd::bits<simd::U64>(low)[0];
    std::memcpy(best + g * 8, &out, 8);
  }
  return groups * 8;
}

}  // namespace ox
