// ArgMax / ArgMin kernels in plain C++: the reference shape of the two families that the SIMD
// variants specialise. Both continue a running state (best value, index) per output, so input can
// arrive in chunks that split rows anywhere.
#pragma once
#include <cstdint>

#include "kernels/traits.h"

namespace ox {

// The loops stay rolled (`#pragma GCC unroll 1`): in wasm they run only on rows shorter than two
// vectors and columns narrower than a tile, and clang's runtime unrolling of them, a copy per type
// and rule, took 2.6 KB of the gzipped module (tests/js/size.test.mjs) for no measured speed.

// Row family (the reduced axis is innermost): `rows` runs of `length` contiguous elements; run k
// continues state best[k], index[k]; its first element has index `first`. Runs from index 0 start
// fresh (registry.h) without reading the state.
template <class Rule, class Raw>
void arg_rows_portable(const Raw* x, int64_t rows, int64_t length, int64_t first, Raw* best, int32_t* index) {
  for (int64_t k = 0; k < rows; ++k, x += length) {
    Raw b = state_value<Rule, true>(best + k, first);
    int32_t at = static_cast<int32_t>(state_index<true>(index + k, first));
#pragma GCC unroll 1
    for (int64_t j = 0; j < length; ++j)
      if (Rule::replaces(x[j], b)) b = x[j], at = static_cast<int32_t>(first + j);
    best[k] = b;
    index[k] = at;
  }
}

// Column family (the reduced axis has inner elements after it): `rows` rows of `width` elements,
// `stride` apart; column j's state is best[j], index[j]; row k has index first + k. A call from
// row 0 starts fresh (registry.h): that row is the state, read from nowhere else.
template <class Rule, class Raw>
void arg_columns_portable(const Raw* x, int64_t rows, int64_t width, int64_t stride, int64_t first, Raw* best,
                          int32_t* index) {
  if (starts_fresh<true>(first) && rows > 0) {
#pragma GCC unroll 1
    for (int64_t j = 0; j < width; ++j) best[j] = x[j], index[j] = 0;
    return arg_columns_portable<Rule>(x + stride, rows - 1, width, stride, 1, best, index);
  }
  for (int64_t k = 0; k < rows; ++k, x += stride)
#pragma GCC unroll 1
    for (int64_t j = 0; j < width; ++j)
      if (Rule::replaces(x[j], best[j])) best[j] = x[j], index[j] = static_cast<int32_t>(first + k);
}

}  // namespace ox
