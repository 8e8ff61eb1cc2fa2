// ReduceMax over many short rows of 1- and 4-byte integers and float32 by halving
// (kernels/row_halving.h), through the kernel set's row entry, against the trivial loop: every
// length from 2 to past 3N bytes or 12N 4-byte values and lengths around 24N, the longest the
// 4-byte types take (N lanes; the lengths the path does not take check the paths they do take),
// row counts around the group of N and past the rows whose whole-vector load would pass the end,
// the type's extremes and ties, and a carried state above or below each row's maximum. float32
// also: groups it must hand to the exact loop (a NaN in a row, +inf beside -inf, a zero maximum
// with a -0 in the group) amid groups it keeps, zero maxima in groups without a -0 (kept), and
// states that are NaN of either sign or zeros.
#include <catch2/catch.hpp>

#include "row_checks.h"

using namespace simdtest;
using ox::PlanKind;

namespace {

// A value of the mix; `negative`: of a signed type, below zero only (lanes past a short row's end
// must not lift such a row's maximum to a zero).
template <DType D>
RawOf<D> row_value(std::mt19937_64& rng, Mix mix, bool negative) {
  using R = RawOf<D>;
  if constexpr (D == DType::Bool) {
    return static_cast<R>(rng() % 2);
  } else {
    const R v = random_value<D>(rng, mix);
    if (!negative || !std::is_signed<R>::value) return v;
    if constexpr (std::is_floating_point<R>::value) return v < 0 ? v : -1 - v;
    else return v < 0 ? v : static_cast<R>(-1 - static_cast<R>(v % 100));
  }
}

// float32 rows shaped as variant v (4 and up) asks: 4, a NaN in about a fifth of the rows; 5,
// zero maxima of either sign (zeros of both signs in about a third of the rows, others wholly
// negative); 6, no -0 anywhere, rows non-positive with +0s (zero maxima the fold keeps); 7, as 6
// with a lone -0 in about a third of the rows, its first zero (the group must go to the exact
// loop, wherever in the group it is).
template <DType D>
void shape_float_rows(std::mt19937_64& rng, int variant, RawOf<D>* x, int64_t rows, int64_t length) {
  using R = RawOf<D>;
  for (int64_t r = 0; r < rows; ++r) {
    R* row = x + r * length;
    if (variant == 4 && rng() % 5 == 0) row[rng() % static_cast<uint64_t>(length)] = nans<D>()[rng() % nans<D>().size()];
    if (variant == 5 && rng() % 3 == 0) zero_maximum<D>(rng, row, length);
    else if (variant == 5 && rng() % 2) for (int64_t j = 0; j < length; ++j) row[j] = negative_of<D>(row[j]);
    if (variant >= 6)
      for (int64_t j = 0; j < length; ++j) row[j] = rng() % 4 == 0 ? R(0) : row[j] > 0 ? -row[j] : row[j] == 0 ? R(0) : row[j];
    if (variant == 7 && rng() % 3 == 0) {
      const int64_t at = static_cast<int64_t>(rng() % static_cast<uint64_t>(length));
      for (int64_t j = 0; j < at; ++j) row[j] = row[j] == 0 ? R(-1) : row[j];
      row[at] = R(-0.0);
    }
  }
}

template <DType D>
void halving_checks() {
  using R = RawOf<D>;
  constexpr bool kFloat = std::is_floating_point<R>::value;
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
      for (int variant = 0; variant < (kFloat ? 8 : 4); ++variant) {
        const Mix mix = variant == 3 ? Mix::Wide : variant > 3 ? Mix::Specials : static_cast<Mix>(variant);
        const bool negative = variant == 3;
        INFO(name(D) << " " << rows << " rows of " << length << " variant " << variant);
        const int offset = static_cast<int>(rng() % 4);
        Shifted<R> buf(rows * length, offset);
        for (int64_t i = 0; i < rows * length; ++i) buf.data[i] = row_value<D>(rng, mix, negative);
        if constexpr (kFloat) shape_float_rows<D>(rng, variant, buf.data, rows, length);
        // The state each row continues: the starting value, a value of the same mix, or for
        // float32 a zero or a NaN of either sign.
        std::vector<R> acc(static_cast<size_t>(rows));
        k.fill_start(acc.data(), rows);
        for (int64_t r = 0; r < rows; ++r) {
          R& a = acc[static_cast<size_t>(r)];
          const uint64_t pick = rng() % 8;
          if (pick < 4) a = row_value<D>(rng, mix, negative);
          if constexpr (kFloat) {
            if (pick == 4) a = rng() % 2 ? R(-0.0) : R(0.0);
            if (pick == 5 && rng() % 2) a = nans<D>()[rng() % nans<D>().size()];
          }
        }
        check_max_rows<D>(k, buf.data, rows, length, acc);
      }
}

// float32 calls of a few hundred rows where the groups it hands back (a row with a NaN, a row
// whose maximum is a zero beside a -0) fall at chosen rows: the 256 rows after such a group go
// the other paths and the fold resumes after them (states and rows kept in step).
void aside_checks() {
  using R = float;
  std::mt19937_64 rng(2027);
  const ox::KernelSet k = kernels(PlanKind::ReduceMax, DType::Float32, false);
  for (int64_t length : {5, 9, 13, 24, 50, 96})
    for (int64_t rows : {261, 300, 517, 700})
      for (int variant = 0; variant < 3; ++variant) {
        INFO(rows << " rows of " << length << " variant " << variant);
        Shifted<R> buf(rows * length, static_cast<int>(rng() % 4));
        for (int64_t i = 0; i < rows * length; ++i) buf.data[i] = random_value<DType::Float32>(rng, Mix::Wide);
        // 0: one NaN row; 1: one zero-maximum row with a -0; 2: both, and a NaN row near the end.
        const auto pick_row = [&] { return buf.data + static_cast<int64_t>(rng() % static_cast<uint64_t>(rows)) * length; };
        if (variant != 1) pick_row()[rng() % static_cast<uint64_t>(length)] = nans<DType::Float32>()[rng() % nans<DType::Float32>().size()];
        if (variant >= 1) zero_maximum<DType::Float32>(rng, pick_row(), length);
        if (variant == 2) buf.data[(rows - 2) * length + static_cast<int64_t>(rng() % static_cast<uint64_t>(length))] = std::nanf("");
        std::vector<R> acc(static_cast<size_t>(rows));
        k.fill_start(acc.data(), rows);
        for (R& a : acc)
          if (rng() % 4 == 0) a = random_value<DType::Float32>(rng, Mix::Wide);
        check_max_rows<DType::Float32>(k, buf.data, rows, length, acc);
      }
}

}  // namespace

TEST_CASE("ReduceMax over float32 rows by halving resumes after the rows it hands back", "[simd][rows][halving]") {
  aside_checks();
}

TEMPLATE_TEST_CASE("ReduceMax over short integer and float32 rows by halving matches the trivial loop",
                   "[simd][rows][halving]", simdtest::Tag<ox::DType::Int8>, simdtest::Tag<ox::DType::Uint8>,
                   simdtest::Tag<ox::DType::Bool>, simdtest::Tag<ox::DType::Int32>, simdtest::Tag<ox::DType::Uint32>,
                   simdtest::Tag<ox::DType::Float32>) {
  halving_checks<TestType::dtype>();
}
