// ReduceMax over many short rows of 1- and 4-byte integers, float32, float16 and bfloat16 by
// halving (kernels/row_halving.h), and of 8-byte values two rows at a time
// (kernels/paired_rows_max.h), through the kernel set's row entry, against the trivial loop:
// every length from 2 to past 3N bytes or 12N wider values and lengths around 24N, the longest
// the 4-byte types take (N lanes; the lengths the path does not take check the paths they do
// take), row counts around the group of N and past the rows whose whole-vector load would pass
// the end, the type's extremes and ties, and a carried state above or below each row's maximum.
// Floats also: groups it must hand to the other paths (a NaN in a row, +inf beside -inf for
// float32 and float64, a zero maximum with a -0 in the group) amid groups it keeps, zero maxima in groups
// without a -0 (kept), rows wholly negative, and states that are NaN of either sign or zeros.
#include <catch2/catch.hpp>

#include "row_checks.h"

using namespace simdtest;
using ox::PlanKind;

namespace {

// A value of the mix; `negative`: of a signed type, below zero only (lanes past a short row's end
// must not lift such a row's maximum to a zero).
template <DType D>
constexpr bool kFloatKind = std::is_floating_point<RawOf<D>>::value || D == DType::Float16 || D == DType::BFloat16;

template <DType D>
bool is_zero(RawOf<D> v) {
  if constexpr (D == DType::Float16 || D == DType::BFloat16) return (v & 0x7FFF) == 0;
  else return v == 0;
}

template <DType D>
RawOf<D> row_value(std::mt19937_64& rng, Mix mix, bool negative) {
  using R = RawOf<D>;
  if constexpr (D == DType::Bool) {
    return static_cast<R>(rng() % 2);
  } else {
    const R v = random_value<D>(rng, mix);
    if (!negative || !(std::is_signed<R>::value || kFloatKind<D>)) return v;
    if constexpr (kFloatKind<D>) return is_zero<D>(v) ? from_double<D>(-1) : negative_of<D>(v);
    else return v < 0 ? v : static_cast<R>(-1 - static_cast<R>(v % 100));
  }
}

// Float rows shaped as variant v (4 and up) asks: 4, a NaN in about a fifth of the rows; 5,
// zero maxima of either sign (zeros of both signs in about a third of the rows, others wholly
// negative); 6, no -0 anywhere, rows non-positive with +0s (zero maxima the fold keeps); 7, as 6
// with a lone -0 in about a third of the rows, its first zero (the group must go to the exact
// loop, wherever in the group it is); 8, one row in eight wholly negative or with a zero maximum
// (float16/bfloat16 take a few such rows of a group by the plain loop).
template <DType D>
void shape_float_rows(std::mt19937_64& rng, int variant, RawOf<D>* x, int64_t rows, int64_t length) {
  using R = RawOf<D>;
  for (int64_t r = 0; r < rows; ++r) {
    R* row = x + r * length;
    if (variant == 4 && rng() % 5 == 0) row[rng() % static_cast<uint64_t>(length)] = nans<D>()[rng() % nans<D>().size()];
    if (variant == 5 && rng() % 3 == 0) zero_maximum<D>(rng, row, length);
    else if (variant == 5 && rng() % 2) for (int64_t j = 0; j < length; ++j) row[j] = negative_of<D>(row[j]);
    if (variant == 8 && rng() % 8 == 0) {
      if (rng() % 2) zero_maximum<D>(rng, row, length);
      else for (int64_t j = 0; j < length; ++j) row[j] = is_zero<D>(row[j]) ? from_double<D>(-2) : negative_of<D>(row[j]);
    }
    const R plus_zero = from_double<D>(0.0);
    if (variant == 6 || variant == 7)
      for (int64_t j = 0; j < length; ++j) row[j] = rng() % 4 == 0 || is_zero<D>(row[j]) ? plus_zero : negative_of<D>(row[j]);
    if (variant == 7 && rng() % 3 == 0) {
      const int64_t at = static_cast<int64_t>(rng() % static_cast<uint64_t>(length));
      for (int64_t j = 0; j < at; ++j) row[j] = is_zero<D>(row[j]) ? from_double<D>(-1) : row[j];
      row[at] = from_double<D>(-0.0);
    }
  }
}

template <DType D>
void halving_checks() {
  using R = RawOf<D>;
  constexpr bool kFloat = kFloatKind<D>;
  constexpr int64_t lanes = 16 / static_cast<int64_t>(sizeof(R));
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 65537);
  const ox::KernelSet k = kernels(PlanKind::ReduceMax, D, false);
  // Every length to 3N + 2 (bytes) or 12N + 2, then around 16N and the 4-byte types' last (24N).
  std::vector<int64_t> lengths;
  for (int64_t length = 2; length <= (sizeof(R) == 1 ? 3 : 12) * lanes + 2; ++length) lengths.push_back(length);
  if (sizeof(R) == 4)
    for (int64_t length : {16 * lanes - 1, 16 * lanes, 24 * lanes - 1, 24 * lanes, 24 * lanes + 1}) lengths.push_back(length);
  for (int64_t length : lengths)
    for (int64_t rows : {lanes - 1, lanes, lanes + 1, 2 * lanes + 3, int64_t{100}})
      for (int variant = 0; variant < (kFloat ? 9 : 4); ++variant) {
        const Mix mix = variant == 3 ? Mix::Wide : variant > 3 ? Mix::Specials : static_cast<Mix>(variant);
        const bool negative = variant == 3;
        INFO(name(D) << " " << rows << " rows of " << length << " variant " << variant);
        const int offset = static_cast<int>(rng() % 4);
        Shifted<R> buf(rows * length, offset);
        for (int64_t i = 0; i < rows * length; ++i) buf.data[i] = row_value<D>(rng, mix, negative);
        if constexpr (kFloat) shape_float_rows<D>(rng, variant, buf.data, rows, length);
        // The state each row continues: the starting value, a value of the same mix, or for
        // floats a zero or a NaN of either sign.
        std::vector<R> acc(static_cast<size_t>(rows));
        k.fill_start(acc.data(), rows);
        for (int64_t r = 0; r < rows; ++r) {
          R& a = acc[static_cast<size_t>(r)];
          const uint64_t pick = rng() % 8;
          if (pick < 4) a = row_value<D>(rng, mix, negative);
          if constexpr (kFloat) {
            if (pick == 4) a = from_double<D>(rng() % 2 ? -0.0 : 0.0);
            if (pick == 5 && rng() % 2) a = nans<D>()[rng() % nans<D>().size()];
          }
        }
        check_max_rows<D>(k, buf.data, rows, length, acc);
      }
}

// Float calls of a few hundred rows where the groups it hands back (a row with a NaN, a row
// whose maximum is a zero beside a -0) fall at chosen rows: the 256 rows after such a group go
// the other paths and the fold resumes after them (states and rows kept in step). And calls of
// thousands of rows with stretches of such rows (and for float16/bfloat16 of rows wholly
// negative), where it sets aside twice as many rows each time it stops again at once.
template <DType D>
void aside_checks() {
  using R = RawOf<D>;
  std::mt19937_64 rng(2027);
  const ox::KernelSet k = kernels(PlanKind::ReduceMax, D, false);
  for (int64_t length : {5, 7, 9, 13, 16, 24, 50, 64, 96})
    for (int64_t rows : {261, 300, 517, 700, 3000, 9000})
      for (int variant = rows > 1000 ? 3 : 0; variant < (rows > 1000 ? 4 : 3); ++variant) {
        INFO(name(D) << " " << rows << " rows of " << length << " variant " << variant);
        Shifted<R> buf(rows * length, static_cast<int>(rng() % 4));
        for (int64_t i = 0; i < rows * length; ++i) buf.data[i] = random_value<D>(rng, Mix::Wide);
        // 0: one NaN row; 1: one zero-maximum row with a -0; 2: both, and a NaN row near the end.
        const auto pick_row = [&] { return buf.data + static_cast<int64_t>(rng() % static_cast<uint64_t>(rows)) * length; };
        if (variant != 1) pick_row()[rng() % static_cast<uint64_t>(length)] = nans<D>()[rng() % nans<D>().size()];
        if (variant >= 1) zero_maximum<D>(rng, pick_row(), length);
        if (variant == 2) buf.data[(rows - 2) * length + static_cast<int64_t>(rng() % static_cast<uint64_t>(length))] = nans<D>()[0];
        if (variant == 3) handed_back_stretches<D>(rng, buf.data, rows, length, 4000);  // two stretches of such rows
        std::vector<R> acc(static_cast<size_t>(rows));
        k.fill_start(acc.data(), rows);
        for (R& a : acc)
          if (rng() % 4 == 0) a = random_value<D>(rng, Mix::Wide);
        check_max_rows<D>(k, buf.data, rows, length, acc);
      }
}

}  // namespace

TEMPLATE_TEST_CASE("ReduceMax over float rows by halving resumes after the rows it hands back", "[simd][rows][halving]",
                   simdtest::Tag<ox::DType::Float32>, simdtest::Tag<ox::DType::Float16>, simdtest::Tag<ox::DType::BFloat16>,
                   simdtest::Tag<ox::DType::Float64>) {
  aside_checks<TestType::dtype>();
}

TEMPLATE_TEST_CASE("ReduceMax over short integer and float rows by halving matches the trivial loop",
                   "[simd][rows][halving]", simdtest::Tag<ox::DType::Int8>, simdtest::Tag<ox::DType::Uint8>,
                   simdtest::Tag<ox::DType::Bool>, simdtest::Tag<ox::DType::Int32>, simdtest::Tag<ox::DType::Uint32>,
                   simdtest::Tag<ox::DType::Float32>, simdtest::Tag<ox::DType::Float16>, simdtest::Tag<ox::DType::BFloat16>,
                   simdtest::Tag<ox::DType::Int64>, simdtest::Tag<ox::DType::Uint64>, simdtest::Tag<ox::DType::Float64>) {
  halving_checks<TestType::dtype>();
}
