// A kernel set's row and slice entries against the trivial loops, as the SIMD row and slice suites
// check them.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "simd_support.h"

namespace simdtest {

// v made negative (or a zero negative): its sign set, or minus its magnitude; for an unsigned
// type, into the low half of its range.
template <DType D>
RawOf<D> negative_of(RawOf<D> v) {
  if constexpr (D == DType::Float16 || D == DType::BFloat16) return static_cast<RawOf<D>>(v | 0x8000);
  else if constexpr (std::is_unsigned<RawOf<D>>::value) return static_cast<RawOf<D>>(v >> 1);
  else return static_cast<RawOf<D>>(-std::abs(v));
}

// -v for a float type (float16/bfloat16 bits: the sign bit flipped).
template <DType D>
RawOf<D> negated(RawOf<D> v) {
  if constexpr (D == DType::Float16 || D == DType::BFloat16) return static_cast<RawOf<D>>(v ^ 0x8000);
  else return -v;
}

// A row made non-positive with zeros of both signs: its maximum is a zero whose bits depend on
// which zero comes first.
template <DType D>
void zero_maximum(std::mt19937_64& rng, RawOf<D>* row, int64_t length) {
  const RawOf<D> minus_zero = from_double<D>(-0.0), plus_zero = from_double<D>(0.0);
  for (int64_t j = 0; j < length; ++j) row[j] = rng() % 3 ? negative_of<D>(row[j]) : rng() % 2 ? minus_zero : plus_zero;
  row[rng() % static_cast<uint64_t>(length)] = minus_zero;
  row[rng() % static_cast<uint64_t>(length)] = plus_zero;
}

// Two stretches of up to `longest` rows at random places among the `rows` rows of `length` at x,
// of rows a fold hands back: each row gets a NaN, or a zero maximum beside a -0, or is made
// wholly negative (float16/bfloat16 folds hand those back too).
template <DType D>
void handed_back_stretches(std::mt19937_64& rng, RawOf<D>* x, int64_t rows, int64_t length, int64_t longest) {
  for (int stretch = 0; stretch < 2; ++stretch) {
    const int64_t from = static_cast<int64_t>(rng() % static_cast<uint64_t>(rows));
    const int64_t count = static_cast<int64_t>(rng() % static_cast<uint64_t>(longest));
    for (int64_t r = from; r < std::min(rows, from + count); ++r) {
      RawOf<D>* row = x + r * length;
      const uint64_t kind = rng() % 3;
      if (kind == 0) row[rng() % static_cast<uint64_t>(length)] = nans<D>()[rng() % nans<D>().size()];
      else if (kind == 1) zero_maximum<D>(rng, row, length);
      else for (int64_t j = 0; j < length; ++j) row[j] = negative_of<D>(row[j]);
    }
  }
}

// ReduceMax: k.rows over `rows` rows of `length` at x, continuing the states in acc (updated in
// place); each state must come out as trivial_max of itself followed by its row.
template <DType D>
void check_max_rows(const ox::KernelSet& k, const RawOf<D>* x, int64_t rows, int64_t length, std::vector<RawOf<D>>& acc) {
  const std::vector<RawOf<D>> start = acc;
  k.rows(x, rows, length, 0, acc.data(), nullptr);
  for (int64_t r = 0; r < rows; ++r) {
    INFO("row " << r);
    std::vector<RawOf<D>> with_state(static_cast<size_t>(length + 1));
    with_state[0] = start[static_cast<size_t>(r)];
    std::copy(x + r * length, x + (r + 1) * length, with_state.begin() + 1);
    CHECK(same_bits(acc[static_cast<size_t>(r)], trivial_max<D>(with_state.data(), length + 1)));
  }
}

// An arg kind from index 0 (fresh states, as Execution calls it): k.rows over `rows` rows of
// `length` at x; each row's index must be trivial_arg's, and its value the winner's number (a
// zero's sign may differ: an arg state's zero is never told from the other one, as -0 == +0 in
// every later compare; the short-row path's float16 state may hold the other zero).
template <DType D>
void check_fresh_arg_rows(const ox::KernelSet& k, const RawOf<D>* x, int64_t rows, int64_t length, bool max, bool last) {
  std::vector<RawOf<D>> best(static_cast<size_t>(rows));
  std::vector<int32_t> index(static_cast<size_t>(rows), -7);
  k.rows(x, rows, length, 0, best.data(), index.data());
  for (int64_t r = 0; r < rows; ++r) {
    INFO("row " << r);
    const RawOf<D>* row = x + r * length;
    const int64_t want = trivial_arg<D>(row, length, max, last);
    CHECK(index[static_cast<size_t>(r)] == want);
    CHECK(same_number<D>(best[static_cast<size_t>(r)], row[want]));
  }
}

// ReduceMax: k.slices over `slices` slices of [reduce, inner] at x, from the states in `start`;
// each state must come out as the trivial maximum of itself followed by its column, bit for bit.
template <DType D>
void check_max_slices(const RawOf<D>* x, int64_t slices, int64_t reduce, int64_t inner, const std::vector<RawOf<D>>& start) {
  const ox::KernelSet k = kernels(ox::PlanKind::ReduceMax, D, false);
  std::vector<RawOf<D>> best = start;
  k.slices(x, slices, reduce, inner, best.data(), nullptr);
  for (int64_t s = 0; s < slices; ++s)
    for (int64_t c = 0; c < inner; ++c) {
      std::vector<RawOf<D>> column(static_cast<size_t>(reduce + 1));
      column[0] = start[static_cast<size_t>(s * inner + c)];
      for (int64_t r = 0; r < reduce; ++r) column[static_cast<size_t>(r + 1)] = x[(s * reduce + r) * inner + c];
      const RawOf<D> want = trivial_max<D>(column.data(), reduce + 1), got = best[static_cast<size_t>(s * inner + c)];
      INFO("slice " << s << " column " << c << ": " << bits_text(got) << ", want " << bits_text(want));
      CHECK(same_bits(got, want));
    }
}

}  // namespace simdtest
