// ReduceMax over many short rows of 1- and 4-byte integers by halving (kernels/row_halving.h),
// through the kernel set's row entry, against the trivial loop: every length from 2 to past the
// longest it takes (3N bytes, 8N int32; N lanes; the lengths the path does not take check the
// paths they do take), row counts around the group of N and past the rows whose whole-vector
// load would pass the end, the type's extremes and ties, and a carried state above or below each
// row's maximum.
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
    return v < 0 ? v : static_cast<R>(-1 - static_cast<R>(v % 100));
  }
}

template <DType D>
void halving_checks() {
  using R = RawOf<D>;
  constexpr int64_t lanes = 16 / static_cast<int64_t>(sizeof(R));
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 65537);
  const ox::KernelSet k = kernels(PlanKind::ReduceMax, D, false);
  for (int64_t length = 2; length <= (sizeof(R) == 1 ? 3 : 8) * lanes + 2; ++length)
    for (int64_t rows : {lanes - 1, lanes, lanes + 1, 2 * lanes + 3, int64_t{100}})
      for (int variant = 0; variant < 4; ++variant) {
        const Mix mix = variant == 3 ? Mix::Wide : static_cast<Mix>(variant);
        const bool negative = variant == 3;
        INFO(name(D) << " " << rows << " rows of " << length << " mix " << int(mix) << (negative ? " negative" : ""));
        const int offset = static_cast<int>(rng() % 4);
        Shifted<R> buf(rows * length, offset);
        for (int64_t i = 0; i < rows * length; ++i) buf.data[i] = row_value<D>(rng, mix, negative);
        // The state each row continues: the starting value, or a value of the same mix.
        std::vector<R> acc(static_cast<size_t>(rows));
        k.fill_start(acc.data(), rows);
        for (int64_t r = 0; r < rows; ++r)
          if (rng() % 2) acc[static_cast<size_t>(r)] = row_value<D>(rng, mix, negative);
        check_max_rows<D>(k, buf.data, rows, length, acc);
      }
}

}  // namespace

TEMPLATE_TEST_CASE("ReduceMax over short integer rows by halving matches the trivial loop", "[simd][rows][halving]",
                   simdtest::Tag<ox::DType::Int8>, simdtest::Tag<ox::DType::Uint8>, simdtest::Tag<ox::DType::Bool>,
                   simdtest::Tag<ox::DType::Int32>, simdtest::Tag<ox::DType::Uint32>) {
  halving_checks<TestType::dtype>();
}
