// Shared by the simd_*_test.cc files: value generators that favour the hard cases (NaN of both
// signs and several payloads, -0/+0, +-inf, type extremes, ties), and a deliberately trivial
// reference that shares no code with the kernels: floats compare as C++ floats, float16/bfloat16
// are widened to float (the kernels never widen), integers compare natively.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "core/dtype.h"
#include "core/half.h"
#include "kernels/registry.h"
#include "kernels/traits.h"

namespace simdtest {

using ox::DType;

template <DType D>
using RawOf = typename ox::Traits<D>::Raw;

template <DType D>
struct Tag {
  static constexpr DType dtype = D;
  using Raw = RawOf<D>;
};

// The dtypes every SIMD suite runs over, as TEMPLATE_TEST_CASE type arguments.
#define OX_SIMD_TEST_DTYPES                                                                                  \
  simdtest::Tag<ox::DType::Float32>, simdtest::Tag<ox::DType::Float64>, simdtest::Tag<ox::DType::Float16>,   \
      simdtest::Tag<ox::DType::BFloat16>, simdtest::Tag<ox::DType::Int8>, simdtest::Tag<ox::DType::Uint8>,   \
      simdtest::Tag<ox::DType::Int16>, simdtest::Tag<ox::DType::Uint16>, simdtest::Tag<ox::DType::Int32>,    \
      simdtest::Tag<ox::DType::Uint32>, simdtest::Tag<ox::DType::Int64>, simdtest::Tag<ox::DType::Uint64>

inline const char* name(DType d) { return ox::dtype_name(d); }

// The float16/bfloat16 kernels read their format at run time (core/half.h): a suite calling them
// directly (not through the registry's entries) names D's first.
template <DType D>
void use_format_of() {
  if constexpr (D == DType::BFloat16)
    ox::HalfFormatAtRunTime::use<ox::BFloat16Format>();
  else
    ox::HalfFormatAtRunTime::use<ox::Float16Format>();
}

// ---- the trivial reference ------------------------------------------------------------------

// A number the reference can compare with plain C++ operators (NaN stays NaN).
template <DType D>
double number(RawOf<D> v) {
  if constexpr (D == DType::Float16) return ox::float16_to_float(v);
  else if constexpr (D == DType::BFloat16) return ox::bfloat16_to_float(v);
  else return static_cast<double>(v);
}
// Integers compare natively: int64/uint64 do not fit a double.
template <DType D>
bool less(RawOf<D> a, RawOf<D> b) {
  if constexpr (D == DType::Float16 || D == DType::BFloat16) return number<D>(a) < number<D>(b);
  else return a < b;
}
template <DType D>
bool is_nan(RawOf<D> v) {
  const double n = number<D>(v);
  return n != n;
}

// ArgMax / ArgMin of x[0, n) by definition: the first (last) NaN if any, else the first (last)
// position holding the extreme value.
template <DType D>
int64_t trivial_arg(const RawOf<D>* x, int64_t n, bool max, bool last) {
  int64_t nan_at = -1;
  for (int64_t i = 0; i < n; ++i)
    if (is_nan<D>(x[i])) {
      nan_at = i;
      if (!last) break;
    }
  if (nan_at >= 0) return nan_at;
  RawOf<D> extreme = x[0];
  for (int64_t i = 1; i < n; ++i)
    if (max ? less<D>(extreme, x[i]) : less<D>(x[i], extreme)) extreme = x[i];
  int64_t at = -1;
  for (int64_t i = 0; i < n; ++i)
    if (!less<D>(x[i], extreme) && !less<D>(extreme, x[i])) {
      at = i;
      if (!last) break;
    }
  return at;
}

// ReduceMax by definition: NaN if any element is NaN (the first NaN's bits), else the maximum
// (the bits of its first occurrence: -0 or +0).
template <DType D>
RawOf<D> trivial_max(const RawOf<D>* x, int64_t n) {
  if (n == 0) return ox::Traits<D>::lowest();
  return x[trivial_arg<D>(x, n, true, false)];
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <DType D>
constexpr bool has_nan() {
  return D == DType::Float32 || D == DType::Float64 || D == DType::Float16 || D == DType::BFloat16;
}

// The same number with the same bits, except that a zero matches a zero of either sign. The arg
// kinds' state is checked this way: their result is the index, and the float16/bfloat16 column
// pass keeps only ordered keys, which map both zeros to +0.
template <DType D>
bool same_number(RawOf<D> a, RawOf<D> b) {
  if (same_bits(a, b)) return true;
  if constexpr (has_nan<D>()) return number<D>(a) == 0 && number<D>(b) == 0;
  return false;
}

template <class T>
std::string bits_text(T v) {
  uint64_t u = 0;
  std::memcpy(&u, &v, sizeof(T));
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(u));
  return buffer;
}

// ---- generators -----------------------------------------------------------------------------

template <class T>
T from_bits(uint64_t u) {
  T v;
  std::memcpy(&v, &u, sizeof(T));
  return v;
}

// NaN bit patterns of the type, both signs, quiet and signalling payloads (float64: also a payload
// in the low word only, whose high word is an infinity's).
template <DType D>
std::vector<RawOf<D>> nans() {
  if constexpr (D == DType::Float32)
    return {from_bits<float>(0x7FC00000), from_bits<float>(0xFFC00000), from_bits<float>(0x7F800001),
            from_bits<float>(0xFFFFFFFF), from_bits<float>(0x7FC01234)};
  else if constexpr (D == DType::Float64)
    return {from_bits<double>(0x7FF8000000000000ull), from_bits<double>(0xFFF8000000000000ull),
            from_bits<double>(0x7FF0000000000001ull), from_bits<double>(0xFFF0000000000001ull),
            from_bits<double>(0xFFFFFFFFFFFFFFFFull)};
  else if constexpr (D == DType::Float16)
    return {0x7E00, 0xFE00, 0x7C01, 0xFFFF, 0x7FFF};
  else if constexpr (D == DType::BFloat16)
    return {0x7FC0, 0xFFC0, 0x7F81, 0xFFFF, 0x7FFF};
  else
    return {};
}

template <DType D>
RawOf<D> from_double(double v) {
  if constexpr (D == DType::Float16) return ox::float_to_float16(static_cast<float>(v));
  else if constexpr (D == DType::BFloat16) return ox::float_to_bfloat16(static_cast<float>(v));
  else if constexpr (std::is_floating_point<RawOf<D>>::value) return static_cast<RawOf<D>>(v);
  else return static_cast<RawOf<D>>(static_cast<int64_t>(v));  // wraps for unsigned types
}

// Values that are not NaN: zeros of both signs, infinities, type extremes, small ties.
template <DType D>
std::vector<RawOf<D>> specials() {
  using R = RawOf<D>;
  if constexpr (std::is_floating_point<R>::value) {
    const R inf = std::numeric_limits<R>::infinity();
    return {-inf, inf, R(-0.0), R(0.0), std::numeric_limits<R>::max(), std::numeric_limits<R>::lowest(),
            std::numeric_limits<R>::denorm_min(), -std::numeric_limits<R>::denorm_min(), R(1), R(-1)};
  } else if constexpr (D == DType::Float16 || D == DType::BFloat16) {
    const uint16_t inf = D == DType::Float16 ? ox::Float16Format::kInf : ox::BFloat16Format::kInf;
    return {inf, static_cast<uint16_t>(0x8000 | inf), 0x0000, 0x8000, static_cast<uint16_t>(inf - 1),
            static_cast<uint16_t>((0x8000 | inf) - 1), 0x0001, 0x8001, from_double<D>(1), from_double<D>(-1)};
  } else {
    const R lo = std::numeric_limits<R>::lowest(), hi = std::numeric_limits<R>::max();
    return {lo, static_cast<R>(lo + 1), hi, static_cast<R>(hi - 1), R(0), R(1), static_cast<R>(R(0) - R(1))};
  }
}

// Generator modes: few distinct values (many ties), specials mixed in, or wide random values.
enum class Mix { Ties, Specials, Wide };

template <DType D>
RawOf<D> random_value(std::mt19937_64& rng, Mix mix) {
  using R = RawOf<D>;
  const uint64_t u = rng();
  if (mix == Mix::Ties) return from_double<D>(static_cast<double>(static_cast<int>(u % 5)) - 2.0);
  if (mix == Mix::Specials && u % 4 == 0) {
    const auto s = specials<D>();
    return s[(u >> 8) % s.size()];
  }
  if constexpr (std::is_floating_point<R>::value) {
    return static_cast<R>((static_cast<double>(u >> 11) / 9007199254740992.0 - 0.5) * 2000.0);
  } else if constexpr (D == DType::Float16 || D == DType::BFloat16) {
    R bits = static_cast<R>(u >> 16);
    return is_nan<D>(bits) ? static_cast<R>(bits & 0x83FF) : bits;  // any non-NaN pattern
  } else {
    return from_bits<R>(u >> 3);
  }
}

// A buffer whose data start `offset` elements past an 8-aligned address (the kernels load
// vectors with memcpy from any element boundary).
template <class T>
struct Shifted {
  std::vector<T> storage;
  T* data;
  Shifted(int64_t n, int offset) : storage(static_cast<size_t>(n + offset + 1)), data(storage.data() + offset) {}
};

inline ox::KernelSet kernels(ox::PlanKind kind, DType dtype, bool last) {
  ox::KernelSet set{};
  ox::select_kernels(kind, dtype, last, &set);
  return set;
}

}  // namespace simdtest
