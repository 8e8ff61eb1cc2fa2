// The lane operations every lane family shares: max / min (the plain forms and the wasm
// instructions themselves), better / beats by direction, the column update ways' shared pieces
// (NoGuard, select_step), a column block's start, and the raw-try skip of the column kernels.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/simd.h"
#include "kernels/traits.h"

namespace ox {

template <class V>
inline V vmax(V a, V b) { return a < b ? b : a; }  // wasm: f32x4.pmax / i32x4.max_s / u8x16.max_u ...
template <class V>
inline V vmin(V a, V b) { return b < a ? b : a; }  // wasm: f32x4.pmin / i32x4.min_s ...
// vmax / vmin of float lanes as the wasm instruction itself. clang matched f32x4.pmin from
// `b < a ? b : a` in some kernels only: the arg kinds' column steps (FastWay) took a compare and a
// v128.bitselect instead, four instructions in V8 for one (float32 ArgMin over [8192, 8] columns
// ran 1.7x ArgMax's time). Used where that was measured; elsewhere the plain forms let clang fold
// the surrounding code (as builtins everywhere, float64 ReduceMax over columns ran 0.86-0.92x).
template <Direction D, class V>
inline V vbetter_instruction(V a, V b) {
#if defined(__wasm_simd128__)
  if constexpr (std::is_same<V, simd::Vec<float>>::value)
    return D == Direction::Max ? __builtin_wasm_pmax_f32x4(a, b) : __builtin_wasm_pmin_f32x4(a, b);
  if constexpr (std::is_same<V, simd::Vec<double>>::value)
    return D == Direction::Max ? __builtin_wasm_pmax_f64x2(a, b) : __builtin_wasm_pmin_f64x2(a, b);
#endif
  return D == Direction::Max ? vmax(a, b) : vmin(a, b);
}
template <Direction D, class V>
inline V vbetter(V a, V b) { return D == Direction::Max ? vmax(a, b) : vmin(a, b); }
// Lanes where a beats b in direction D (OrEqual: or ties it), for a domain whose plain compares
// order it (numbers without NaN, or keys).
template <Direction D, bool OrEqual, class V>
inline auto vbeats(V a, V b) { return D == Direction::Max ? (OrEqual ? a >= b : a > b) : (OrEqual ? a <= b : a < b); }

// Where a block of `lanes` columns starting at c0 begins among w columns: the last block reaches
// back to end at column w (columns folded twice fold alike), and with fewer columns than lanes it
// starts at 0, its lanes past w unused (the interleaved paths' vector folds).
constexpr ptrdiff_t column_block_start(ptrdiff_t c0, ptrdiff_t w, ptrdiff_t lanes) {
  return c0 + lanes <= w || w < lanes ? c0 : w - lanes;
}

// Pieces of the column update ways (see arg_columns_simd.h) that several lane families share.
// The guard of a way exact for every lane: nothing to watch.
struct NoGuard {
  template <int N, class V, class K>
  void row(const V*, const K*) {}
  template <int N, class K>
  static constexpr bool fails(const K*) { return false; }
};
// The exact step in a domain whose compares implement the rule: replace where c beats b (or
// ties it, for the last-index rule), by a select.
template <Direction D, bool Last, class K>
inline auto select_step(K c, K& b) {
  const auto m = vbeats<D, Last>(c, b);
  b = simd::select(m, c, b);
  return m;
}

// Runs `attempt` (a raw way or pass over columns, which fails where a result lies on the other
// side of zero) unless a recent failure says skip it: whether it settled. After a failure the
// next kRawRetry tries are skipped. The count is carried from call to call and shared by every
// kernel that tries a raw pass over columns (ColumnScan, InterleavedExtremes): a speed hint only,
// so that many small slices of one kind (ReduceMax over axis 1 of [64,64,64], all negative:
// 0.90x before, 0.98x carried) do not each pay a failing raw try.
inline int column_raw_skip = 0;
constexpr int kRawRetry = 16;
template <class F>
bool try_raw(F attempt) {
  if (column_raw_skip > 0) {
    --column_raw_skip;
    return false;
  }
  if (attempt()) return true;
  column_raw_skip = kRawRetry;
  return false;
}

}  // namespace ox
