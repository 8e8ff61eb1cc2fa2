// Hardmax write-out: one output row segment of a one-hot tensor. Element j is `one` (the output
// type's 1.0 bits) where winners[j] == row, else 0; one vector compare and one masked store per
// 4 int32 winners, whatever the output width (16-, 32- or 64-bit elements).
#pragma once
#include <cstdint>
#include <cstring>

#include "kernels/simd.h"

namespace ox {

template <class Out>  // uint16_t, uint32_t or uint64_t: the output element's bits
void one_hot_row(Out* out, const int32_t* winners, int64_t n, int32_t row, Out one) {
  using simd::I32;
  const I32 r = simd::splat(row);
  int64_t j = 0;
  if constexpr (sizeof(Out) == 2) {
    const simd::I16 ones = simd::bits<simd::I16>(simd::splat(one));
    for (; j + 8 <= n; j += 8) {
      const I32 m0 = simd::load(winners + j) == r, m1 = simd::load(winners + j + 4) == r;
      const simd::I16 m = __builtin_shufflevector(simd::bits<simd::I16>(m0), simd::bits<simd::I16>(m1), 0, 2, 4, 6, 8,
                                                  10, 12, 14);
      simd::store(out + j, simd::bits<simd::Vec<Out>>(m & ones));
    }
  } else if constexpr (sizeof(Out) == 4) {
    const I32 ones = simd::bits<I32>(simd::splat(one));
    for (; j + 4 <= n; j += 4) simd::store(out + j, simd::bits<simd::Vec<Out>>((simd::load(winners + j) == r) & ones));
  } else {
    const I32 ones = simd::bits<I32>(simd::splat(one));
    for (; j + 4 <= n; j += 4) {
      const I32 m = simd::load(winners + j) == r;
      simd::store(out + j, simd::bits<simd::Vec<Out>>(__builtin_shufflevector(m, m, 0, 0, 1, 1) & ones));
      simd::store(out + j + 2, simd::bits<simd::Vec<Out>>(__builtin_shufflevector(m, m, 2, 2, 3, 3) & ones));
    }
  }
  for (; j < n; ++j) out[j] = winners[j] == row ? one : Out{0};
}

}  // namespace ox
