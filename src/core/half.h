// float16 / bfloat16 as raw bits. Comparisons never widen to float: the bits map to an ordered
// int16 key (sign-magnitude -> two's complement, with -0 and +0 both 0), and NaN is detected from
// the magnitude. Conversions to/from float are exact (round to nearest even) and used by tests.
#pragma once
#include <cstdint>
#include <cstring>

namespace ox {

struct Float16Format {
  static constexpr uint16_t kInf = 0x7C00;    // +infinity; larger magnitudes are NaN
  static constexpr uint16_t kOne = 0x3C00;
};
struct BFloat16Format {
  static constexpr uint16_t kInf = 0x7F80;
  static constexpr uint16_t kOne = 0x3F80;
};

// The kernels run float16 and bfloat16 with one copy of their code (a copy each cost 1.6 KB of
// the gzipped module): there the two formats differ only in +infinity's bits, which this format
// reads at run time. Whoever starts a kernel on either names its format first with use<Format>()
// (registry.cc's entries; the SIMD tests, which call kernels directly). The wasm module runs one
// thread; natively each thread names its own.
class HalfFormatAtRunTime {
 public:
  static uint16_t inf() { return static_cast<uint16_t>(inf_bits); }
  template <class Format>
  static void use() { inf_bits = Format::kInf; }

 private:
  // As uint64_t, a type no half kernel stores: their stores (uint16_t states, int32_t indices)
  // then cannot alias it, and a loop reads it once instead of after every store.
#ifdef __EMSCRIPTEN__  // one thread (wasm-ld takes thread-local storage only with atomics)
  static inline uint64_t inf_bits = Float16Format::kInf;
#else
  static inline thread_local uint64_t inf_bits = Float16Format::kInf;
#endif
};

// Ordered key: a < b as numbers  <=>  key(a) < key(b), for non-NaN a, b; key(-0) == key(+0).
inline int16_t half_key(uint16_t bits) {
  const int32_t magnitude = bits & 0x7FFF;
  return static_cast<int16_t>((bits & 0x8000) ? -magnitude : magnitude);
}

template <class Format>
inline bool half_is_nan(uint16_t bits) {
  return (bits & 0x7FFF) > Format::inf();
}

inline float bits_to_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
inline uint32_t float_to_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

inline float bfloat16_to_float(uint16_t bits) { return bits_to_float(uint32_t{bits} << 16); }

inline uint16_t float_to_bfloat16(float f) {
  const uint32_t bits = float_to_bits(f);
  if ((bits & 0x7FFFFFFF) > 0x7F800000) return static_cast<uint16_t>((bits >> 16) | 0x0040);  // quiet NaN
  const uint32_t rounding = 0x7FFF + ((bits >> 16) & 1);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

inline float float16_to_float(uint16_t h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  const uint32_t exponent = (h >> 10) & 0x1F;
  uint32_t mantissa = h & 0x3FF;
  if (exponent == 0x1F) return bits_to_float(sign | 0x7F800000 | (mantissa << 13));
  if (exponent != 0) return bits_to_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
  if (mantissa == 0) return bits_to_float(sign);
  int e = 113;  // subnormal: normalise
  while ((mantissa & 0x400) == 0) {
    mantissa <<= 1;
    --e;
  }
  return bits_to_float(sign | (uint32_t(e) << 23) | ((mantissa & 0x3FF) << 13));
}

inline uint16_t float_to_float16(float f) {
  const uint32_t bits = float_to_bits(f);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const uint32_t abs = bits & 0x7FFFFFFF;
  if (abs > 0x7F800000) return static_cast<uint16_t>(sign | 0x7E00 | ((abs >> 13) & 0x3FF));
  if (abs >= 0x477FF000) return static_cast<uint16_t>(sign | 0x7C00);  // rounds to infinity
  if (abs < 0x38800000) {                                                // float16 subnormal or zero
    if (abs < 0x33000000) return sign;                                   // below half the smallest
    const uint32_t e = abs >> 23;
    const uint32_t m = (abs & 0x7FFFFF) | 0x800000;
    const uint32_t shift = 126 - e;  // 14 + (112 - e) ... chosen so the result is in units of 2^-24
    const uint32_t value = m >> shift;
    const uint32_t rest = m & ((1u << shift) - 1);
    const uint32_t half = 1u << (shift - 1);
    const uint32_t rounded = value + ((rest > half || (rest == half && (value & 1))) ? 1 : 0);
    return static_cast<uint16_t>(sign | rounded);
  }
  const uint32_t rounding = 0xFFF + ((abs >> 13) & 1);
  return static_cast<uint16_t>(sign | ((abs - 0x38000000 + rounding) >> 13));
}

}  // namespace ox
