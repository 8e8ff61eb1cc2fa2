// A deliberately simple reference for ArgMax, ArgMin, ReduceMax and Hardmax, written from the spec
// text and api.md, sharing no code with src/ beyond the DType enum. It walks the whole tensor with a
// plain N-d index (no (outer, reduce, inner) plans), decodes every element into an exact number of
// its own (int64 and uint64 stay integers; float16 and bfloat16 go through the decoders below, not
// src/core/half.h), and decides each slice by the definition: "the first (last) NaN if there is
// one, else the first (last) position equal to the extreme". It favours obviousness over speed.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/dtype.h"

namespace ref {

using ox::DType;

// A tensor as one bit pattern per element (the element's little-endian bytes, zero-extended).
struct Tensor {
  DType dtype = DType::Undefined;
  std::vector<int64_t> dims;
  std::vector<uint64_t> bits;
};

inline int element_size(DType t) {
  switch (t) {
    case DType::Int8: case DType::Uint8: case DType::Bool: return 1;
    case DType::Int16: case DType::Uint16: case DType::Float16: case DType::BFloat16: return 2;
    case DType::Int32: case DType::Uint32: case DType::Float32: return 4;
    case DType::Int64: case DType::Uint64: case DType::Float64: return 8;
    default: throw std::logic_error("reference: no such element type");
  }
}

inline int64_t element_count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

// ---- exact numbers ----------------------------------------------------------------------------

// An element's value. Signed and unsigned integers keep their own exact type; floating types are
// held in a double, which represents every float16, bfloat16, float32 and float64 exactly.
struct Number {
  enum Kind { Signed, Unsigned, Real } kind = Signed;
  bool nan = false;
  int64_t s = 0;
  uint64_t u = 0;
  double r = 0;
};

// IEEE binary16: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits.
inline double decode_float16(uint64_t bits) {
  const bool negative = (bits >> 15) & 1;
  const int exponent = static_cast<int>((bits >> 10) & 0x1F);
  const int fraction = static_cast<int>(bits & 0x3FF);
  double magnitude;
  if (exponent == 31) magnitude = fraction ? NAN : INFINITY;
  else if (exponent == 0) magnitude = std::ldexp(fraction, -24);              // 0.fraction * 2^-14
  else magnitude = std::ldexp(1024 + fraction, exponent - 15 - 10);           // 1.fraction * 2^(e-15)
  return negative ? -magnitude : magnitude;
}

// bfloat16: 1 sign bit, 8 exponent bits (bias 127), 7 fraction bits.
inline double decode_bfloat16(uint64_t bits) {
  const bool negative = (bits >> 15) & 1;
  const int exponent = static_cast<int>((bits >> 7) & 0xFF);
  const int fraction = static_cast<int>(bits & 0x7F);
  double magnitude;
  if (exponent == 255) magnitude = fraction ? NAN : INFINITY;
  else if (exponent == 0) magnitude = std::ldexp(fraction, -126 - 7);
  else magnitude = std::ldexp(128 + fraction, exponent - 127 - 7);
  return negative ? -magnitude : magnitude;
}

inline Number decode(DType t, uint64_t bits) {
  Number n;
  switch (t) {
    case DType::Int8: n.s = static_cast<int8_t>(bits & 0xFF); return n;
    case DType::Int16: n.s = static_cast<int16_t>(bits & 0xFFFF); return n;
    case DType::Int32: n.s = static_cast<int32_t>(bits & 0xFFFFFFFF); return n;
    case DType::Int64: n.s = static_cast<int64_t>(bits); return n;
    case DType::Uint8: case DType::Bool: n.kind = Number::Unsigned; n.u = bits & 0xFF; return n;
    case DType::Uint16: n.kind = Number::Unsigned; n.u = bits & 0xFFFF; return n;
    case DType::Uint32: n.kind = Number::Unsigned; n.u = bits & 0xFFFFFFFF; return n;
    case DType::Uint64: n.kind = Number::Unsigned; n.u = bits; return n;
    case DType::Float32: {
      const uint32_t b = static_cast<uint32_t>(bits);
      float f;
      std::memcpy(&f, &b, 4);
      n.r = f;
      break;
    }
    case DType::Float64: std::memcpy(&n.r, &bits, 8); break;
    case DType::Float16: n.r = decode_float16(bits & 0xFFFF); break;
    case DType::BFloat16: n.r = decode_bfloat16(bits & 0xFFFF); break;
    default: throw std::logic_error("reference: no such element type");
  }
  n.kind = Number::Real;
  n.nan = std::isnan(n.r);
  return n;
}

// -1, 0 or 1 for two numbers of one tensor, neither of them NaN. -0 and +0 are equal.
inline int compare(const Number& a, const Number& b) {
  switch (a.kind) {
    case Number::Signed: return a.s < b.s ? -1 : a.s > b.s ? 1 : 0;
    case Number::Unsigned: return a.u < b.u ? -1 : a.u > b.u ? 1 : 0;
    case Number::Real: return a.r < b.r ? -1 : a.r > b.r ? 1 : 0;
  }
  return 0;
}

// ---- per-type constants -----------------------------------------------------------------------

// The lowest value of a type, as bits: ReduceMax of an empty set.
inline uint64_t lowest_bits(DType t) {
  switch (t) {
    case DType::Float32: return 0xFF800000u;             // -inf
    case DType::Float64: return 0xFFF0000000000000u;     // -inf
    case DType::Float16: return 0xFC00;                  // -inf
    case DType::BFloat16: return 0xFF80;                 // -inf
    case DType::Int8: return 0x80;
    case DType::Int16: return 0x8000;
    case DType::Int32: return 0x80000000u;
    case DType::Int64: return 0x8000000000000000u;
    default: return 0;                                   // unsigned types and bool: 0 / false
  }
}

// 1.0 in a floating type, as bits: Hardmax's mark.
inline uint64_t one_bits(DType t) {
  switch (t) {
    case DType::Float32: return 0x3F800000u;
    case DType::Float64: return 0x3FF0000000000000u;
    case DType::Float16: return 0x3C00;
    case DType::BFloat16: return 0x3F80;
    default: throw std::logic_error("reference: Hardmax of a non-float type");
  }
}

inline uint64_t sign_bit(DType t) { return uint64_t{1} << (8 * element_size(t) - 1); }

// ---- walking the tensor -----------------------------------------------------------------------

inline int64_t normalize_axis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) throw std::logic_error("reference: axis out of range");
  return axis < 0 ? axis + rank : axis;
}

// For every output position (row-major over the kept axes), the flat indices of the input elements
// that fold into it, in row-major input order (so in increasing order along the reduced axes).
inline std::vector<std::vector<int64_t>> gather_slices(const std::vector<int64_t>& dims,
                                                       const std::vector<bool>& reduced) {
  const size_t rank = dims.size();
  int64_t outputs = 1;
  for (size_t d = 0; d < rank; ++d)
    if (!reduced[d]) outputs *= dims[d];
  std::vector<std::vector<int64_t>> slices(static_cast<size_t>(outputs));
  const int64_t total = element_count(dims);
  for (std::vector<int64_t>& slice : slices) slice.reserve(static_cast<size_t>(total / outputs));
  std::vector<int64_t> index(rank, 0);  // the multi-index of element e
  for (int64_t e = 0; e < total; ++e) {
    int64_t out = 0;
    for (size_t d = 0; d < rank; ++d)
      if (!reduced[d]) out = out * dims[d] + index[d];
    slices[static_cast<size_t>(out)].push_back(e);
    for (size_t d = rank; d-- > 0;) {  // odometer step
      if (++index[d] < dims[d]) break;
      index[d] = 0;
    }
  }
  return slices;
}

inline std::vector<int64_t> reduced_dims(const std::vector<int64_t>& dims, const std::vector<bool>& reduced,
                                         bool keepdims) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!reduced[d]) out.push_back(dims[d]);
    else if (keepdims) out.push_back(1);
  }
  return out;
}

// The winning position among `values` by the contract: the first (last) NaN if any; else the first
// (last) position holding the maximum (minimum). `values` must not be empty.
inline size_t pick(const std::vector<Number>& values, bool want_max, bool select_last) {
  const size_t n = values.size();
  for (size_t j = 0; j < n; ++j) {  // NaN positions first
    const size_t k = select_last ? n - 1 - j : j;
    if (values[k].nan) return k;
  }
  size_t extreme = 0;  // any position holding the extreme value
  for (size_t k = 1; k < n; ++k) {
    const int c = compare(values[k], values[extreme]);
    if (want_max ? c > 0 : c < 0) extreme = k;
  }
  for (size_t j = 0; j < n; ++j) {  // the first (last) position equal to it
    const size_t k = select_last ? n - 1 - j : j;
    if (compare(values[k], values[extreme]) == 0) return k;
  }
  return extreme;
}

inline std::vector<Number> values_at(const Tensor& x, const std::vector<int64_t>& flat) {
  std::vector<Number> out;
  out.reserve(flat.size());
  for (int64_t e : flat) out.push_back(decode(x.dtype, x.bits[static_cast<size_t>(e)]));
  return out;
}

inline std::vector<bool> one_axis(size_t rank, int64_t axis) {
  std::vector<bool> reduced(rank, false);
  reduced[static_cast<size_t>(axis)] = true;
  return reduced;
}

// ---- the operators ----------------------------------------------------------------------------

// What the reference expects of each output element. Usually its exact bits; ReduceMax leaves two
// choices open: which NaN it returns (any NaN is right), and the sign of a zero maximum when the
// maxima include both +0 and -0 (they are equal).
struct Expected {
  DType dtype = DType::Undefined;
  std::vector<int64_t> dims;
  std::vector<uint64_t> bits;
  std::vector<uint8_t> any_nan;
  std::vector<uint8_t> either_zero;
};

inline Expected exact(DType dtype, std::vector<int64_t> dims, std::vector<uint64_t> bits) {
  Expected e;
  e.dtype = dtype;
  e.dims = std::move(dims);
  e.bits = std::move(bits);
  e.any_nan.assign(e.bits.size(), 0);
  e.either_zero.assign(e.bits.size(), 0);
  return e;
}

// ArgMax (want_max) or ArgMin: int64 indices along `axis`.
inline Expected arg_extreme(const Tensor& x, bool want_max, int64_t axis, bool keepdims, bool select_last) {
  const int64_t a = normalize_axis(axis, static_cast<int64_t>(x.dims.size()));
  if (x.dims[static_cast<size_t>(a)] == 0) throw std::logic_error("reference: ArgMax over an empty axis");
  const std::vector<bool> reduced = one_axis(x.dims.size(), a);
  std::vector<uint64_t> out;
  for (const std::vector<int64_t>& slice : gather_slices(x.dims, reduced))
    out.push_back(static_cast<uint64_t>(pick(values_at(x, slice), want_max, select_last)));
  return exact(DType::Int64, reduced_dims(x.dims, reduced, keepdims), out);
}

// ReduceMax over `axes` (each in [-r, r-1], no repeats; callers expand "all axes" themselves).
inline Expected reduce_max(const Tensor& x, const std::vector<int64_t>& axes, bool keepdims) {
  const int64_t rank = static_cast<int64_t>(x.dims.size());
  std::vector<bool> reduced(x.dims.size(), false);
  for (int64_t axis : axes) {
    const size_t a = static_cast<size_t>(normalize_axis(axis, rank));
    if (reduced[a]) throw std::logic_error("reference: repeated axis");
    reduced[a] = true;
  }
  Expected e = exact(x.dtype, reduced_dims(x.dims, reduced, keepdims), {});
  for (const std::vector<int64_t>& slice : gather_slices(x.dims, reduced)) {
    const std::vector<Number> values = values_at(x, slice);
    uint64_t bits = lowest_bits(x.dtype);
    bool nan = false, either_zero = false;
    if (!values.empty()) {
      const size_t k = pick(values, true, false);  // the first NaN, or the first maximum
      bits = x.bits[static_cast<size_t>(slice[k])];
      nan = values[k].nan;
      if (!nan && values[k].kind == Number::Real && values[k].r == 0)
        for (size_t j = 0; j < values.size(); ++j)
          if (!values[j].nan && values[j].r == 0 && x.bits[static_cast<size_t>(slice[j])] != bits) either_zero = true;
    }
    e.bits.push_back(bits);
    e.any_nan.push_back(nan);
    e.either_zero.push_back(either_zero);
  }
  return e;
}

// ReduceMax over every axis.
inline Expected reduce_max_all(const Tensor& x, bool keepdims) {
  std::vector<int64_t> axes;
  for (size_t d = 0; d < x.dims.size(); ++d) axes.push_back(static_cast<int64_t>(d));
  return reduce_max(x, axes, keepdims);
}

// Hardmax 13: 1 at the first maximum (first NaN) along `axis`, 0 elsewhere.
inline Expected hardmax_along_axis(const Tensor& x, int64_t axis) {
  const int64_t a = normalize_axis(axis, static_cast<int64_t>(x.dims.size()));
  std::vector<uint64_t> out(x.bits.size(), 0);
  for (const std::vector<int64_t>& slice : gather_slices(x.dims, one_axis(x.dims.size(), a)))
    if (!slice.empty()) out[static_cast<size_t>(slice[pick(values_at(x, slice), true, false)])] = one_bits(x.dtype);
  return exact(x.dtype, x.dims, out);
}

// Hardmax 1 and 11: the input viewed as a matrix [d0*...*d(axis-1), d(axis)*...*d(r-1)]; 1 at the first
// maximum (first NaN) of each matrix row.
inline Expected hardmax_coerced(const Tensor& x, int64_t axis) {
  const int64_t a = normalize_axis(axis, static_cast<int64_t>(x.dims.size()));
  int64_t row_length = 1;
  for (size_t d = static_cast<size_t>(a); d < x.dims.size(); ++d) row_length *= x.dims[d];
  std::vector<uint64_t> out(x.bits.size(), 0);
  const int64_t total = static_cast<int64_t>(x.bits.size());
  for (int64_t start = 0; start < total; start += row_length) {
    std::vector<int64_t> row;
    for (int64_t k = 0; k < row_length; ++k) row.push_back(start + k);
    out[static_cast<size_t>(row[pick(values_at(x, row), true, false)])] = one_bits(x.dtype);
  }
  return exact(x.dtype, x.dims, out);
}

// ---- comparing --------------------------------------------------------------------------------

inline bool is_nan_bits(DType t, uint64_t bits) { return decode(t, bits).nan; }

inline bool matches(const Expected& e, size_t k, uint64_t actual) {
  if (e.any_nan[k]) return is_nan_bits(e.dtype, actual);
  if (actual == e.bits[k]) return true;
  return e.either_zero[k] && actual == (e.bits[k] ^ sign_bit(e.dtype));
}

// Index of the first element that does not match, or -1 when all match (a size mismatch reports 0).
inline int64_t first_mismatch(const Expected& e, const std::vector<uint64_t>& actual) {
  if (actual.size() != e.bits.size()) return 0;
  for (size_t k = 0; k < actual.size(); ++k)
    if (!matches(e, k, actual[k])) return static_cast<int64_t>(k);
  return -1;
}

}  // namespace ref
