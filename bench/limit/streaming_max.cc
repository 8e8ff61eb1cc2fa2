// The streaming limit of this runtime, for scale: a NaN-propagating float32 max over memory
// already in the wasm heap (f32x4.pmax with four accumulators, plus an x != x mask OR-ed in, as
// in peers.md's limit-wasm-pmax-nan). Any dtype's bytes are read as float32: the figure is
// bandwidth, not a result.
#include <wasm_simd128.h>

#include <cstddef>
#include <cstring>

extern "C" {

// Max of n floats at x, continuing from `carry` (NaN when any element or the carry is NaN).
float max_f32(const float* x, size_t n, float carry) {
  v128_t a0 = wasm_f32x4_splat(carry), a1 = a0, a2 = a0, a3 = a0;
  v128_t nan = wasm_f32x4_ne(a0, a0);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128_t x0 = wasm_v128_load(x + i), x1 = wasm_v128_load(x + i + 4);
    const v128_t x2 = wasm_v128_load(x + i + 8), x3 = wasm_v128_load(x + i + 12);
    a0 = wasm_f32x4_pmax(a0, x0);
    a1 = wasm_f32x4_pmax(a1, x1);
    a2 = wasm_f32x4_pmax(a2, x2);
    a3 = wasm_f32x4_pmax(a3, x3);
    nan = wasm_v128_or(nan, wasm_v128_or(wasm_v128_or(wasm_f32x4_ne(x0, x0), wasm_f32x4_ne(x1, x1)),
                                         wasm_v128_or(wasm_f32x4_ne(x2, x2), wasm_f32x4_ne(x3, x3))));
  }
  const v128_t a = wasm_f32x4_pmax(wasm_f32x4_pmax(a0, a1), wasm_f32x4_pmax(a2, a3));
  float lanes[4];
  std::memcpy(lanes, &a, sizeof lanes);
  float best = lanes[0];
  bool any_nan = wasm_v128_any_true(nan);
  for (int k = 1; k < 4; ++k) best = lanes[k] > best ? lanes[k] : best;
  for (; i < n; ++i) {
    any_nan |= x[i] != x[i];
    best = x[i] > best ? x[i] : best;
  }
  return any_nan ? __builtin_nanf("") : best;
}

}  // extern "C"
