// Per-dtype comparison facts, so every kernel is written once over a Traits parameter.
// greater() is only asked of non-NaN values; NaN is always tested separately with nan().
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/dtype.h"
#include "core/half.h"

// Scalar code that runs once per call or per slice, never per element (the narrow path's merge):
// compiled for size where the compiler can (clang, the wasm build). narrow_merge's 40-odd
// instantiations took 1.4 KB of the gzipped module less this way, at the same speed.
#if defined(__clang__)
#define OX_SMALL_CODE __attribute__((minsize))
#else
#define OX_SMALL_CODE
#endif

namespace ox {

template <class T>
struct IntegerTraits {
  using Raw = T;
  static bool nan(Raw) { return false; }
  static bool greater(Raw a, Raw b) { return a > b; }
  // order_key(a) > order_key(b) exactly when greater(a, b), as int64 (uint64 with its sign bit flipped).
  static int64_t order_key(Raw v) {
    return sizeof(T) == 8 && T(-1) > 0 ? static_cast<int64_t>(static_cast<uint64_t>(v) ^ (uint64_t{1} << 63))
                                       : static_cast<int64_t>(v);
  }
  static Raw lowest() { return std::numeric_limits<T>::lowest(); }
  static Raw highest() { return std::numeric_limits<T>::max(); }
};

template <class T>
struct FloatTraits {
  using Raw = T;
  static bool nan(Raw v) { return v != v; }
  static bool greater(Raw a, Raw b) { return a > b; }
  // The bits as a signed integer, negatives by magnitude: -0 and +0 both 0.
  static int64_t order_key(Raw v) {
    using Bits = typename std::conditional<sizeof(T) == 8, int64_t, int32_t>::type;
    Bits b;
    std::memcpy(&b, &v, sizeof b);
    const Bits magnitude = b & std::numeric_limits<Bits>::max();
    return b < 0 ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  }
  static Raw lowest() { return -std::numeric_limits<T>::infinity(); }
  static Raw highest() { return std::numeric_limits<T>::infinity(); }
};

template <class Format>
struct HalfTraits {
  using Raw = uint16_t;
  static bool nan(Raw v) { return half_is_nan<Format>(v); }
  static bool greater(Raw a, Raw b) { return half_key(a) > half_key(b); }
  static int64_t order_key(Raw v) { return half_key(v); }
  static Raw lowest() { return static_cast<Raw>(0x8000 | Format::inf()); }
  static Raw highest() { return Format::inf(); }
};

template <DType D> struct Traits;
template <> struct Traits<DType::Float32> : FloatTraits<float> {};
template <> struct Traits<DType::Float64> : FloatTraits<double> {};
template <> struct Traits<DType::Float16> : HalfTraits<HalfFormatAtRunTime> {};  // format: half.h
template <> struct Traits<DType::BFloat16> : HalfTraits<HalfFormatAtRunTime> {};
template <> struct Traits<DType::Int8> : IntegerTraits<int8_t> {};
template <> struct Traits<DType::Uint8> : IntegerTraits<uint8_t> {};
template <> struct Traits<DType::Int16> : IntegerTraits<int16_t> {};
template <> struct Traits<DType::Uint16> : IntegerTraits<uint16_t> {};
template <> struct Traits<DType::Int32> : IntegerTraits<int32_t> {};
template <> struct Traits<DType::Uint32> : IntegerTraits<uint32_t> {};
template <> struct Traits<DType::Int64> : IntegerTraits<int64_t> {};
template <> struct Traits<DType::Uint64> : IntegerTraits<uint64_t> {};
template <> struct Traits<DType::Bool> : IntegerTraits<uint8_t> {};  // false < true; normalised on output

// ArgMax / ArgMin selection rule. A NaN wins over any number: the first NaN, or the last one with
// select_last_index. Among numbers the strictly better value wins (first index), or the better or
// equal one (last index). Equal values include -0 == +0.
enum class Direction { Max, Min };

template <class Tr, Direction D, bool Last>
struct ArgRule {
  using Raw = typename Tr::Raw;
  using ValueTraits = Tr;
  static constexpr Direction kDirection = D;
  static constexpr bool kLast = Last;
  static Raw identity() { return D == Direction::Max ? Tr::lowest() : Tr::highest(); }
  static bool better(Raw candidate, Raw best) {
    return D == Direction::Max ? Tr::greater(candidate, best) : Tr::greater(best, candidate);
  }
  static bool replaces(Raw candidate, Raw best) {
    if (Tr::nan(candidate)) return Last || !Tr::nan(best);
    if (Tr::nan(best)) return false;
    return Last ? !better(best, candidate) : better(candidate, best);
  }
  // The rule's order as one int64: a larger key is better, every NaN the same top key, equal
  // values (-0, +0) equal keys; ties then go by position. (~ reverses the order without overflow.)
  __attribute__((always_inline)) static int64_t merge_key(Raw v) {
    if (Tr::nan(v)) return std::numeric_limits<int64_t>::max();
    const int64_t k = Tr::order_key(v);
    return D == Direction::Max ? k : ~k;
  }
};

// registry.h: an arg kind's call from index 0 of the reduced axis starts the states it continues,
// reading nothing from them. Its state before that index is the rule's starting value at index 0.
template <bool Index>
constexpr bool starts_fresh(int64_t first) { return Index && first == 0; }
template <class Rule, bool Index>
typename Rule::Raw state_value(const typename Rule::Raw* best, int64_t first) {
  return starts_fresh<Index>(first) ? Rule::identity() : *best;
}
template <bool Index>
int64_t state_index(const int32_t* index, int64_t first) { return Index && !starts_fresh<Index>(first) ? *index : 0; }

}  // namespace ox
