// ArgMax / ArgMin over many short byte rows by halving 16-bit keys (kernels/arg_halving.cc),
// through the kernel set's row entry as Execution calls it (from index 0), against the trivial
// loop: every length from 2 to 50 (the lengths the path does not take check the paths they do
// take), both directions and tie rules, row counts around the group of 8 and past the rows whose
// 8-byte load would pass the end, the type's extremes, ties everywhere and rows of one value.
#include <catch2/catch.hpp>

#include <algorithm>

#include "row_checks.h"

using namespace simdtest;
using ox::PlanKind;

namespace {

template <DType D>
void arg_halving_checks(PlanKind kind, bool last) {
  using R = RawOf<D>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 257 + static_cast<uint64_t>(kind) * 17 + (last ? 1 : 0));
  const ox::KernelSet k = kernels(kind, D, last);
  const bool max = kind != PlanKind::ArgMin;
  for (int64_t length = 2; length <= 50; ++length)
    for (int64_t rows : {int64_t{7}, int64_t{8}, int64_t{9}, int64_t{17}, int64_t{100}, int64_t{131}})
      for (int variant = 0; variant < 5; ++variant) {
        INFO(name(D) << (max ? " ArgMax" : " ArgMin") << (last ? " last" : "") << ": " << rows << " rows of " << length
                     << ", variant " << variant);
        const int offset = static_cast<int>(rng() % 8);
        Shifted<R> buf(rows * length, offset);
        // Variants: ties (few values), the extremes mixed in, wide values, one value per row
        // (every position ties), and the rows' extremes at their first or last position.
        for (int64_t i = 0; i < rows * length; ++i) {
          const Mix mix = variant == 0 ? Mix::Ties : variant == 1 ? Mix::Specials : Mix::Wide;
          buf.data[i] = random_value<D>(rng, mix);
        }
        if (variant == 3)
          for (int64_t r = 0; r < rows; ++r)
            std::fill(buf.data + r * length, buf.data + (r + 1) * length, buf.data[r * length]);
        if (variant == 4)
          for (int64_t r = 0; r < rows; ++r) {
            const auto s = specials<D>();
            buf.data[r * length + (r % 2 ? length - 1 : 0)] = s[static_cast<size_t>(r) % s.size()];
          }
        check_fresh_arg_rows<D>(k, buf.data, rows, length, max, last);
      }
}

}  // namespace

TEMPLATE_TEST_CASE("ArgMax and ArgMin over short byte rows by halving keys match the trivial loop",
                   "[simd][rows][halving]", simdtest::Tag<ox::DType::Int8>, simdtest::Tag<ox::DType::Uint8>) {
  for (PlanKind kind : {PlanKind::ArgMax, PlanKind::ArgMin, PlanKind::Hardmax})
    for (bool last : {false, true}) arg_halving_checks<TestType::dtype>(kind, last);
}
