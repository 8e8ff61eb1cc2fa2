// The reference itself, pinned to the spec documents' worked examples and to hand-checked facts
// about the number formats, so the comparisons elsewhere rest on something known to be right.
#include <catch2/catch.hpp>

#include <cmath>

#include "harness.h"
#include "reference.h"
#include "values.h"

using ox::DType;

namespace {

ref::Tensor f32_tensor(std::vector<int64_t> dims, std::vector<float> values) {
  std::vector<uint64_t> bits;
  for (float v : values) bits.push_back(tv::f32(v));
  return th::make_tensor(DType::Float32, std::move(dims), bits);
}

std::vector<uint64_t> f32_bits(std::vector<float> values) {
  std::vector<uint64_t> bits;
  for (float v : values) bits.push_back(tv::f32(v));
  return bits;
}

}  // namespace

TEST_CASE("reference: float16 decoding of landmark bit patterns") {
  CHECK(ref::decode_float16(0x3C00) == 1.0);
  CHECK(ref::decode_float16(0xC000) == -2.0);
  CHECK(ref::decode_float16(0x7BFF) == 65504.0);
  CHECK(ref::decode_float16(0x0400) == std::ldexp(1.0, -14));  // smallest normal
  CHECK(ref::decode_float16(0x0001) == std::ldexp(1.0, -24));  // smallest subnormal
  CHECK(ref::decode_float16(0x03FF) == std::ldexp(1023.0, -24));
  CHECK(ref::decode_float16(0x3555) == (1 + 0x155 / 1024.0) * 0.25);  // 0.333251953125
  CHECK(ref::decode_float16(0x7C00) == INFINITY);
  CHECK(ref::decode_float16(0xFC00) == -INFINITY);
  CHECK(std::signbit(ref::decode_float16(0x8000)));
  CHECK(ref::decode_float16(0x8000) == 0.0);
  for (uint64_t nan : {0x7E00u, 0xFE00u, 0x7C01u, 0xFC01u, 0x7FFFu})
    CHECK(std::isnan(ref::decode_float16(nan)));
}

TEST_CASE("reference: bfloat16 decoding of landmark bit patterns") {
  CHECK(ref::decode_bfloat16(0x3F80) == 1.0);
  CHECK(ref::decode_bfloat16(0xC000) == -2.0);
  CHECK(ref::decode_bfloat16(0x7F7F) == 0x1.FEp127);
  CHECK(ref::decode_bfloat16(0x0080) == std::ldexp(1.0, -126));
  CHECK(ref::decode_bfloat16(0x0001) == std::ldexp(1.0, -133));
  CHECK(ref::decode_bfloat16(0x4049) == 3.140625);
  CHECK(ref::decode_bfloat16(0x7F80) == INFINITY);
  CHECK(ref::decode_bfloat16(0xFF80) == -INFINITY);
  for (uint64_t nan : {0x7FC0u, 0xFFC0u, 0x7F81u, 0xFF81u, 0x7FFFu})
    CHECK(std::isnan(ref::decode_bfloat16(nan)));
}

TEST_CASE("reference: 64-bit integers compare exactly, never through double") {
  const ref::Number a = ref::decode(DType::Int64, (uint64_t{1} << 53) + 1);
  const ref::Number b = ref::decode(DType::Int64, uint64_t{1} << 53);
  CHECK(ref::compare(a, b) == 1);
  CHECK(ref::compare(ref::decode(DType::Int64, uint64_t{1} << 63), ref::decode(DType::Int64, 0)) == -1);
  CHECK(ref::compare(ref::decode(DType::Uint64, uint64_t{1} << 63), ref::decode(DType::Uint64, 0)) == 1);
  CHECK(ref::compare(ref::decode(DType::Uint64, ~uint64_t{0}), ref::decode(DType::Uint64, ~uint64_t{0} - 1)) == 1);
  CHECK(ref::compare(ref::decode(DType::Int8, 0xFF), ref::decode(DType::Int8, 0x01)) == -1);
  CHECK(ref::compare(ref::decode(DType::Uint8, 0xFF), ref::decode(DType::Uint8, 0x01)) == 1);
  CHECK(ref::compare(ref::decode(DType::Float32, 0x80000000u), ref::decode(DType::Float32, 0)) == 0);
}

TEST_CASE("reference: ArgMax and ArgMin reproduce the spec's examples") {
  const ref::Tensor x = f32_tensor({2, 2}, {2, 1, 3, 10});
  const ref::Tensor ties = f32_tensor({2, 2}, {2, 2, 3, 10});
  // ArgMax.rst: keepdims axis 1 -> [[0], [1]]; no_keepdims -> [0, 1]; default axis -> [[1, 1]].
  CHECK(ref::arg_extreme(x, true, 1, true, false).bits == std::vector<uint64_t>{0, 1});
  CHECK(ref::arg_extreme(x, true, 1, true, false).dims == std::vector<int64_t>{2, 1});
  CHECK(ref::arg_extreme(x, true, 1, true, false).dtype == DType::Int64);
  CHECK(ref::arg_extreme(x, true, 1, false, false).dims == std::vector<int64_t>{2});
  CHECK(ref::arg_extreme(x, true, 0, true, false).bits == std::vector<uint64_t>{1, 1});
  CHECK(ref::arg_extreme(x, true, 0, true, false).dims == std::vector<int64_t>{1, 2});
  CHECK(ref::arg_extreme(x, true, -1, true, false).bits == std::vector<uint64_t>{0, 1});
  // select_last_index: [[2, 2], [3, 10]] axis 1 -> [1, 1].
  CHECK(ref::arg_extreme(ties, true, 1, false, true).bits == std::vector<uint64_t>{1, 1});
  CHECK(ref::arg_extreme(ties, true, 1, false, false).bits == std::vector<uint64_t>{0, 1});
  // ArgMin.rst: [[2, 1], [3, 10]] axis 1 -> [[1], [0]]; select_last on [[2, 2], [3, 10]] -> [[1], [0]].
  CHECK(ref::arg_extreme(x, false, 1, true, false).bits == std::vector<uint64_t>{1, 0});
  CHECK(ref::arg_extreme(ties, false, 1, true, true).bits == std::vector<uint64_t>{1, 0});
  CHECK(ref::arg_extreme(ties, false, 1, true, false).bits == std::vector<uint64_t>{0, 0});
}

TEST_CASE("reference: NaN wins ArgMax and ArgMin, first or last") {
  const float nan = NAN;
  const ref::Tensor x = f32_tensor({5}, {1, nan, 7, nan, -3});
  CHECK(ref::arg_extreme(x, true, 0, false, false).bits == std::vector<uint64_t>{1});
  CHECK(ref::arg_extreme(x, true, 0, false, true).bits == std::vector<uint64_t>{3});
  CHECK(ref::arg_extreme(x, false, 0, false, false).bits == std::vector<uint64_t>{1});
  CHECK(ref::arg_extreme(x, false, 0, false, true).bits == std::vector<uint64_t>{3});
  const ref::Tensor zeros = f32_tensor({4}, {-1, -0.0f, 0.0f, -5});
  CHECK(ref::arg_extreme(zeros, true, 0, false, false).bits == std::vector<uint64_t>{1});
  CHECK(ref::arg_extreme(zeros, true, 0, false, true).bits == std::vector<uint64_t>{2});
}

TEST_CASE("reference: ReduceMax reproduces the spec's examples") {
  const ref::Tensor x = f32_tensor({3, 2, 2}, {5, 1, 20, 2, 30, 1, 40, 2, 55, 1, 60, 2});
  ref::Expected e = ref::reduce_max(x, {1}, false);
  CHECK(e.dims == std::vector<int64_t>{3, 2});
  CHECK(e.bits == f32_bits({20, 2, 40, 2, 60, 2}));
  e = ref::reduce_max(x, {-2}, true);
  CHECK(e.dims == std::vector<int64_t>{3, 1, 2});
  CHECK(e.bits == f32_bits({20, 2, 40, 2, 60, 2}));
  e = ref::reduce_max_all(x, true);
  CHECK(e.dims == std::vector<int64_t>{1, 1, 1});
  CHECK(e.bits == f32_bits({60}));
  e = ref::reduce_max(x, {0, 2}, false);
  CHECK(e.bits == f32_bits({55, 60}));
}

TEST_CASE("reference: ReduceMax of NaN, of an empty set, and of equal zeros") {
  const ref::Tensor x = f32_tensor({2, 3}, {1, NAN, 2, 3, 4, 5});
  ref::Expected e = ref::reduce_max(x, {1}, false);
  CHECK(e.any_nan == std::vector<uint8_t>{1, 0});
  CHECK(ref::matches(e, 0, 0x7FC00001u));
  CHECK_FALSE(ref::matches(e, 0, tv::f32(2)));
  CHECK(e.bits[1] == tv::f32(5));
  const ref::Tensor empty = th::make_tensor(DType::Int32, {2, 0}, {});
  e = ref::reduce_max(empty, {1}, true);
  CHECK(e.dims == std::vector<int64_t>{2, 1});
  CHECK(e.bits == std::vector<uint64_t>{0x80000000u, 0x80000000u});
  const ref::Tensor zeros = f32_tensor({3}, {-1, -0.0f, 0.0f});
  e = ref::reduce_max(zeros, {0}, false);
  CHECK(ref::matches(e, 0, 0));
  CHECK(ref::matches(e, 0, 0x80000000u));
  const ref::Tensor one_zero = f32_tensor({2}, {-1, 0.0f});
  e = ref::reduce_max(one_zero, {0}, false);
  CHECK(ref::matches(e, 0, 0));
  CHECK_FALSE(ref::matches(e, 0, 0x80000000u));  // -0 appears nowhere in the input
}

TEST_CASE("reference: Hardmax reproduces the spec's examples") {
  const ref::Tensor x = f32_tensor({4, 4}, {3, 0, 1, 2, 2, 5, 1, 0, 0, 1, 3, 2, 0, 1, 2, 3});
  const std::vector<uint64_t> eye = f32_bits({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  CHECK(ref::hardmax_along_axis(x, -1).bits == eye);
  CHECK(ref::hardmax_coerced(x, 1).bits == eye);
  const ref::Tensor ties = f32_tensor({1, 4}, {3, 3, 3, 1});
  CHECK(ref::hardmax_along_axis(ties, -1).bits == f32_bits({1, 0, 0, 0}));
  // Coerced to 2-D around axis 1 of [2, 2, 2]: each row of 4 has one 1; along axis 1 there are 4 slices.
  const ref::Tensor cube = f32_tensor({2, 2, 2}, {1, 2, 3, 0, 0, 0, 9, 9});
  CHECK(ref::hardmax_coerced(cube, 1).bits == f32_bits({0, 0, 1, 0, 0, 0, 1, 0}));
  CHECK(ref::hardmax_along_axis(cube, 1).bits == f32_bits({0, 1, 1, 0, 0, 0, 1, 1}));
  CHECK(ref::hardmax_coerced(cube, 0).bits == f32_bits({0, 0, 0, 0, 0, 0, 1, 0}));
}
