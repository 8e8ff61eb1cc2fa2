// Test data: a tiny deterministic RNG, the interesting bit patterns of every element type, and random
// values drawn from a narrow set (many ties) or the whole finite range.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "reference.h"

namespace tv {

using ox::DType;

// SplitMix64: fixed seeds give the same data with every compiler and standard library.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }
  int64_t between(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo + 1))); }
  bool chance(int percent) { return below(100) < static_cast<uint64_t>(percent); }
  template <class T>
  const T& pick(const std::vector<T>& from) { return from[below(from.size())]; }

 private:
  uint64_t state_;
};

inline bool is_float(DType t) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::Float16 || t == DType::BFloat16;
}

inline uint64_t all_ones(DType t) {
  const int bits = 8 * ref::element_size(t);
  return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

inline uint64_t f32(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline uint64_t f64(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// NaN bit patterns of a floating type: quiet and signalling, both signs, with payloads. Empty for
// integer types.
inline std::vector<uint64_t> nan_patterns(DType t) {
  switch (t) {
    case DType::Float32:
      return {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFF800001u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x7FA00000u};
    case DType::Float64:
      return {0x7FF8000000000000u, 0xFFF8000000000000u, 0x7FF0000000000001u, 0xFFF0000000000001u,
              0x7FFFFFFFFFFFFFFFu, 0xFFFFFFFFFFFFFFFFu};
    case DType::Float16:
      return {0x7E00, 0xFE00, 0x7C01, 0xFC01, 0x7D00, 0x7FFF, 0xFFFF};
    case DType::BFloat16:
      return {0x7FC0, 0xFFC0, 0x7F81, 0xFF81, 0x7FA0, 0x7FFF, 0xFFFF};
    default:
      return {};
  }
}

// The largest and smallest values of a type (infinities for floating types), and the largest and
// smallest finite ones.
inline uint64_t highest(DType t) {
  switch (t) {
    case DType::Float32: return 0x7F800000u;
    case DType::Float64: return 0x7FF0000000000000u;
    case DType::Float16: return 0x7C00;
    case DType::BFloat16: return 0x7F80;
    case DType::Bool: return 1;
    case DType::Int8: case DType::Int16: case DType::Int32: case DType::Int64: return all_ones(t) >> 1;
    default: return all_ones(t);
  }
}
inline uint64_t lowest(DType t) { return ref::lowest_bits(t); }
inline uint64_t highest_finite(DType t) {
  switch (t) {
    case DType::Float32: return 0x7F7FFFFFu;
    case DType::Float64: return 0x7FEFFFFFFFFFFFFFu;
    case DType::Float16: return 0x7BFF;
    case DType::BFloat16: return 0x7F7F;
    default: return highest(t);
  }
}
inline uint64_t lowest_finite(DType t) {
  return is_float(t) ? highest_finite(t) | ref::sign_bit(t) : lowest(t);
}

struct Special {
  std::string name;
  uint64_t bits;
};

// Named values worth placing: every NaN pattern, both zeros, both infinities, the finite extremes,
// subnormals, and for integers the type's limits and the values that a trip through double would
// confuse (2^53 + 1 against 2^53, uint64 values above 2^63).
inline std::vector<Special> make_specials(DType t) {
  std::vector<Special> out;
  for (uint64_t n : nan_patterns(t)) out.push_back({"NaN#" + std::to_string(n), n});
  if (is_float(t)) {
    const uint64_t sign = ref::sign_bit(t);
    out.push_back({"+0", 0});
    out.push_back({"-0", sign});
    out.push_back({"+inf", highest(t)});
    out.push_back({"-inf", highest(t) | sign});
    out.push_back({"max finite", highest_finite(t)});
    out.push_back({"-max finite", lowest_finite(t)});
    out.push_back({"min subnormal", 1});
    out.push_back({"-min subnormal", 1 | sign});
    return out;
  }
  out.push_back({"lowest", lowest(t)});
  out.push_back({"highest", highest(t)});
  out.push_back({"0", 0});
  out.push_back({"1", 1});
  if (t == DType::Bool) return out;
  out.push_back({"-1 / all ones", all_ones(t)});
  out.push_back({"sign bit only", ref::sign_bit(t)});
  out.push_back({"highest - 1", highest(t) - 1});
  out.push_back({"lowest + 1", (lowest(t) + 1) & all_ones(t)});
  if (t == DType::Int64 || t == DType::Uint64) {
    out.push_back({"2^53", uint64_t{1} << 53});
    out.push_back({"2^53 + 1", (uint64_t{1} << 53) + 1});
    out.push_back({"2^63 + 1", (uint64_t{1} << 63) + 1});  // int64: -2^63 + 1; uint64: above 2^63
    out.push_back({"-(2^53 + 1)", 0 - ((uint64_t{1} << 53) + 1)});
  }
  return out;
}

inline const std::vector<Special>& specials(DType t) {
  static std::vector<Special> cache[32];
  static bool made[32] = {};
  const int code = static_cast<int>(t);
  if (!made[code]) cache[code] = make_specials(t), made[code] = true;
  return cache[code];
}

// A value drawn from a handful of small numbers, so ties are frequent (floats include -0 and +0).
inline uint64_t narrow_value(DType t, Rng& rng) {
  static const int kSmall[] = {-2, -1, 0, 0, 1, 2};  // 0 twice: once as -0 for floats
  const int pick = static_cast<int>(rng.below(6));
  const int v = kSmall[pick];
  switch (t) {
    case DType::Float32: return pick == 2 ? f32(-0.0f) : f32(static_cast<float>(v));
    case DType::Float64: return pick == 2 ? f64(-0.0) : f64(v);
    case DType::Float16: { static const uint64_t b[] = {0xC000, 0xBC00, 0x8000, 0, 0x3C00, 0x4000}; return b[pick]; }
    case DType::BFloat16: { static const uint64_t b[] = {0xC000, 0xBF80, 0x8000, 0, 0x3F80, 0x4000}; return b[pick]; }
    case DType::Bool: return static_cast<uint64_t>(pick & 1);
    case DType::Uint8: case DType::Uint16: case DType::Uint32: case DType::Uint64:
      return static_cast<uint64_t>(v + 2);
    default: return static_cast<uint64_t>(static_cast<int64_t>(v)) & all_ones(t);
  }
}

// Any value of the type that is not NaN (infinities included, rarely).
inline uint64_t wide_value(DType t, Rng& rng) {
  if (t == DType::Bool) return rng.below(2);
  for (;;) {
    const uint64_t bits = rng.next() & all_ones(t);
    if (!is_float(t) || !ref::is_nan_bits(t, bits)) return bits;
  }
}

// Values strictly inside the type's finite range, so a placed extreme or infinity decides a slice.
inline uint64_t inner_value(DType t, Rng& rng) {
  if (t == DType::Bool) return rng.below(2);
  for (;;) {
    const uint64_t bits = wide_value(t, rng);
    if (bits != highest(t) && bits != lowest(t) && bits != highest_finite(t) && bits != lowest_finite(t) &&
        !(is_float(t) && (bits & ~ref::sign_bit(t)) == (highest(t) & ~ref::sign_bit(t))))
      return bits;
  }
}

// A value of either sign, mostly ordinary, sometimes special (NaN included for floating types).
inline uint64_t mixed_value(DType t, Rng& rng, int special_percent) {
  if (rng.chance(special_percent)) return rng.pick(specials(t)).bits;
  return rng.chance(50) ? narrow_value(t, rng) : wide_value(t, rng);
}

// Packs one bit pattern per element into the type's little-endian bytes, and back.
inline std::vector<uint8_t> pack(DType t, const std::vector<uint64_t>& bits) {
  const int size = ref::element_size(t);
  std::vector<uint8_t> bytes(bits.size() * static_cast<size_t>(size));
  for (size_t k = 0; k < bits.size(); ++k)
    for (int b = 0; b < size; ++b) bytes[k * size + b] = static_cast<uint8_t>(bits[k] >> (8 * b));
  return bytes;
}
inline uint64_t load(DType t, const void* at) {
  uint64_t v = 0;
  const uint8_t* p = static_cast<const uint8_t*>(at);
  for (int b = 0; b < ref::element_size(t); ++b) v |= uint64_t{p[b]} << (8 * b);
  return v;
}
inline void store(DType t, void* at, uint64_t bits) {
  uint8_t* p = static_cast<uint8_t*>(at);
  for (int b = 0; b < ref::element_size(t); ++b) p[b] = static_cast<uint8_t>(bits >> (8 * b));
}
inline std::vector<uint64_t> unpack(DType t, const void* data, int64_t count) {
  std::vector<uint64_t> bits(static_cast<size_t>(count));
  const uint8_t* p = static_cast<const uint8_t*>(data);
  for (int64_t k = 0; k < count; ++k) bits[static_cast<size_t>(k)] = load(t, p + k * ref::element_size(t));
  return bits;
}

inline std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace tv
