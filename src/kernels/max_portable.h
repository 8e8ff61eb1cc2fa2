// ReduceMax kernels in plain C++, same families as the arg kernels. A NaN anywhere makes the
// result NaN; once the accumulator holds a NaN it stays.
#pragma once
#include <cstdint>

namespace ox {

// Loops kept rolled: see arg_portable.h.

template <class Tr>
inline typename Tr::Raw max_step(typename Tr::Raw acc, typename Tr::Raw v) {
  if (Tr::nan(acc)) return acc;
  return (Tr::nan(v) || Tr::greater(v, acc)) ? v : acc;
}

template <class Tr>
void max_rows_portable(const typename Tr::Raw* x, int64_t rows, int64_t length, typename Tr::Raw* acc) {
  for (int64_t k = 0; k < rows; ++k, x += length) {
    typename Tr::Raw a = acc[k];
#pragma GCC unroll 1
    for (int64_t j = 0; j < length; ++j) a = max_step<Tr>(a, x[j]);
    acc[k] = a;
  }
}

template <class Tr>
void max_columns_portable(const typename Tr::Raw* x, int64_t rows, int64_t width, int64_t stride,
                          typename Tr::Raw* acc) {
  for (int64_t k = 0; k < rows; ++k, x += stride)
#pragma GCC unroll 1
    for (int64_t j = 0; j < width; ++j) acc[j] = max_step<Tr>(acc[j], x[j]);
}

}  // namespace ox
