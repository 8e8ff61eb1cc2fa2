// ReduceMax and ArgMax over rows of a few dozen to a few hundred values by groups of N rows
// folded by halving (kernels/row_group_max.h), through the kernel set's row entry, against the
// trivial loop: lengths around both ends of the path's range (the lengths it does not take check
// the paths they do take), row counts around the group of N, groups it must hand back (a NaN,
// +inf beside -inf, a zero maximum of either sign; for float16/bfloat16 also a wholly negative
// row) amid groups it keeps, and carried states: NaN of either sign, zeros, values above and
// below the rows' maxima; stretches of thousands of rows it hands back.
#include <catch2/catch.hpp>

#include "row_checks.h"

using namespace simdtest;
using ox::PlanKind;

namespace {

// Rows of v vectors of `lanes` elements, and one element shorter and longer, for each v.
std::vector<int64_t> lengths_around(int64_t lanes, std::initializer_list<int64_t> vectors) {
  std::vector<int64_t> lengths;
  for (int64_t v : vectors)
    for (int64_t d : {int64_t{-1}, int64_t{0}, int64_t{1}}) lengths.push_back(v * lanes + d);
  return lengths;
}

template <DType D>
void group_max_checks() {
  using R = RawOf<D>;
  constexpr int64_t lanes = 16 / static_cast<int64_t>(sizeof(R));
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 7919);
  const ox::KernelSet k = kernels(PlanKind::ReduceMax, D, false);
  for (int64_t length : lengths_around(lanes, {2, 3, 4, 5, 6, 7, 13, 32, 64, 65}))  // int64 from rows of 5
    for (int64_t rows : {lanes - 1, lanes, lanes + 1, 3 * lanes + 1, int64_t{37}})
      for (int variant = 0; variant < 5; ++variant) {
        INFO(name(D) << " " << rows << " rows of " << length << ", variant " << variant);
        const int offset = static_cast<int>(rng() % 4);
        Shifted<R> buf(rows * length, offset);
        const Mix mix = variant == 1 ? Mix::Specials : variant == 4 ? Mix::Ties : Mix::Wide;
        for (int64_t i = 0; i < rows * length; ++i) buf.data[i] = random_value<D>(rng, mix);
        const int64_t odd_row = static_cast<int64_t>(rng() % static_cast<uint64_t>(rows));
        R* odd = buf.data + odd_row * length;
        if constexpr (has_nan<D>()) {
          if (variant == 2) {  // one NaN in one row
            const auto n = nans<D>();
            odd[rng() % static_cast<uint64_t>(length)] = n[rng() % n.size()];
          }
          // Rows whose maximum is a zero, both signs present (that one, and about a third), and
          // about a third wholly negative (a -0 maybe).
          if (variant == 3) {
            for (int64_t r = 0; r < rows; ++r) {
              R* row = buf.data + r * length;
              if (r == odd_row || rng() % 3 == 0) {
                zero_maximum<D>(rng, row, length);
              } else if (rng() % 2) {
                for (int64_t j = 0; j < length; ++j) row[j] = negative_of<D>(row[j]);
              }
            }
          }
        }
        // The state each row continues: the starting value, a value of the mix, a zero or a NaN.
        std::vector<R> acc(static_cast<size_t>(rows));
        k.fill_start(acc.data(), rows);
        for (int64_t r = 0; r < rows; ++r) {
          R& a = acc[static_cast<size_t>(r)];
          const uint64_t pick = rng() % 8;
          if (pick < 3) a = random_value<D>(rng, mix);
          if (pick == 3) a = from_double<D>(rng() % 2 ? -0.0 : 0.0);
          if constexpr (has_nan<D>())
            if (pick == 4 && rng() % 4 == 0) a = nans<D>()[rng() % nans<D>().size()];  // either sign
        }
        check_max_rows<D>(k, buf.data, rows, length, acc);
      }
}

// ReduceMax over thousands of rows with stretches of rows it hands back (a NaN, a zero maximum
// beside a -0, a row wholly negative): the rows the row kernel takes from there double while it
// hands back the next group at once, and it resumes after them (states and rows kept in step).
template <DType D>
void group_stretch_checks() {
  using R = RawOf<D>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 6151);
  const ox::KernelSet k = kernels(PlanKind::ReduceMax, D, false);
  for (int64_t length : {41, 100, 200, 600})
    for (int64_t rows : {700, 2500}) {
      INFO(name(D) << " " << rows << " rows of " << length);
      Shifted<R> buf(rows * length, static_cast<int>(rng() % 4));
      for (int64_t i = 0; i < rows * length; ++i) buf.data[i] = random_value<D>(rng, Mix::Wide);
      handed_back_stretches<D>(rng, buf.data, rows, length, 2000);
      std::vector<R> acc(static_cast<size_t>(rows));
      k.fill_start(acc.data(), rows);
      for (R& a : acc)
        if (rng() % 4 == 0) a = random_value<D>(rng, Mix::Wide);
      check_max_rows<D>(k, buf.data, rows, length, acc);
    }
}

// ArgMax (first index) from index 0, as Execution calls it, over the same kinds of rows; ArgMin
// (`max` false) over the same rows, floats negated, so zero minima of both signs come up too.
template <DType D>
void group_arg_checks(bool max = true, bool last = false) {
  using R = RawOf<D>;
  constexpr int64_t lanes = 16 / static_cast<int64_t>(sizeof(R));
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 104729 + (max ? 0 : 1) + (last ? 2 : 0));
  const ox::KernelSet k = kernels(max ? PlanKind::ArgMax : PlanKind::ArgMin, D, last);
  for (int64_t length : lengths_around(lanes, {8, 10, 12, 13, 20, 48, 49, 112, 128, 129}))  // 8: bytes from 129; 10: float16 from 81; 112: float32 ArgMax (first index) to 448
    for (int64_t rows : {lanes - 1, lanes, lanes + 1, 3 * lanes + 1, int64_t{37}})
      for (int variant = 0; variant < 5; ++variant) {
        INFO(name(D) << (max ? " ArgMax" : " ArgMin") << (last ? " (last), " : ", ") << rows << " rows of " << length
                     << ", variant " << variant);
        const int offset = static_cast<int>(rng() % 4);
        Shifted<R> buf(rows * length, offset);
        const Mix mix = variant == 1 ? Mix::Specials : variant == 4 ? Mix::Ties : Mix::Wide;
        for (int64_t i = 0; i < rows * length; ++i) buf.data[i] = random_value<D>(rng, mix);
        for (int64_t r = 0; r < rows; ++r) {
          R* row = buf.data + r * length;
          if constexpr (has_nan<D>())
            if (variant == 2 && r % 5 == 3) row[rng() % static_cast<uint64_t>(length)] = nans<D>()[rng() % nans<D>().size()];
          if (variant == 3 && rng() % 2) zero_maximum<D>(rng, row, length);  // the first zero wins
          else if (variant == 3 && rng() % 2)  // wholly negative (log-probabilities), a -0 maybe
            for (int64_t j = 0; j < length; ++j) row[j] = negative_of<D>(row[j]);
          if constexpr (has_nan<D>())  // floats: negated (the sign bit flipped)
            if (!max)
              for (int64_t j = 0; j < length; ++j) row[j] = negated<D>(row[j]);
        }
        check_fresh_arg_rows<D>(k, buf.data, rows, length, max, last);
      }
}

}  // namespace

TEMPLATE_TEST_CASE("ArgMax over rows of a few dozen values by groups of rows matches the trivial loop",
                   "[simd][rows][grouped]", simdtest::Tag<ox::DType::Float32>, simdtest::Tag<ox::DType::Float64>,
                   simdtest::Tag<ox::DType::Int32>, simdtest::Tag<ox::DType::Uint8>, simdtest::Tag<ox::DType::Int8>,
                   simdtest::Tag<ox::DType::Uint32>, simdtest::Tag<ox::DType::Int64>, simdtest::Tag<ox::DType::Uint64>,
                   simdtest::Tag<ox::DType::Float16>, simdtest::Tag<ox::DType::BFloat16>) {
  group_arg_checks<TestType::dtype>();
}

TEMPLATE_TEST_CASE("ReduceMax over rows of a few dozen values by groups of rows matches the trivial loop",
                   "[simd][rows][grouped]", simdtest::Tag<ox::DType::Float32>, simdtest::Tag<ox::DType::Float64>,
                   simdtest::Tag<ox::DType::Int32>, simdtest::Tag<ox::DType::Uint8>, simdtest::Tag<ox::DType::Int8>,
                   simdtest::Tag<ox::DType::Int64>, simdtest::Tag<ox::DType::Float16>, simdtest::Tag<ox::DType::BFloat16>) {
  group_max_checks<TestType::dtype>();
}

TEMPLATE_TEST_CASE("ReduceMax by groups of rows resumes after stretches of rows it hands back", "[simd][rows][grouped]",
                   simdtest::Tag<ox::DType::Float32>, simdtest::Tag<ox::DType::Float64>, simdtest::Tag<ox::DType::Float16>,
                   simdtest::Tag<ox::DType::BFloat16>) {
  group_stretch_checks<TestType::dtype>();
}

TEMPLATE_TEST_CASE("ArgMin over rows of a few dozen values by groups of rows matches the trivial loop",
                   "[simd][rows][grouped]", simdtest::Tag<ox::DType::Float32>, simdtest::Tag<ox::DType::Float64>,
                   simdtest::Tag<ox::DType::Int32>, simdtest::Tag<ox::DType::Uint8>, simdtest::Tag<ox::DType::Int8>,
                   simdtest::Tag<ox::DType::Int64>, simdtest::Tag<ox::DType::Float16>, simdtest::Tag<ox::DType::BFloat16>) {
  group_arg_checks<TestType::dtype>(false);
}

TEMPLATE_TEST_CASE("ArgMax and ArgMin with select_last_index over rows by groups of rows match the trivial loop",
                   "[simd][rows][grouped]", simdtest::Tag<ox::DType::Float32>, simdtest::Tag<ox::DType::Float64>,
                   simdtest::Tag<ox::DType::Int32>, simdtest::Tag<ox::DType::Uint8>, simdtest::Tag<ox::DType::Uint32>,
                   simdtest::Tag<ox::DType::Int64>, simdtest::Tag<ox::DType::Float16>, simdtest::Tag<ox::DType::BFloat16>) {
  group_arg_checks<TestType::dtype>(true, true);
  group_arg_checks<TestType::dtype>(false, true);
}
