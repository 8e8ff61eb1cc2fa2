// ReduceMax over rows of 3 along the axis before them (kernels/interleaved_max.h: the rows read
// straight, each column at fixed lanes of a period of three vectors), through the kernel set's
// slice entry and its column entry, against the trivial loop: run lengths around the period and
// the unrolled step (a last period reaching back over rows already read), a NaN at every position
// of a run, mixed signed zeros (whose first one decides the bits, so the path hands the run on),
// infinities of both signs (the NaN detector's false alarm), and state carried across column
// calls that cut a run anywhere. Every dtype: the ones the path does not take check the paths
// they do take on the same shapes.
#include <catch2/catch.hpp>

#include <algorithm>

#include "simd_support.h"

using namespace simdtest;
using ox::PlanKind;

namespace {

template <DType D>
std::vector<RawOf<D>> column_of(const RawOf<D>* x, int64_t rows, int64_t c) {
  std::vector<RawOf<D>> column(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) column[static_cast<size_t>(r)] = x[r * 3 + c];
  return column;
}

// `slices` slices of [length, 3]: whole, through the slice entry; and the first slice through the
// column entry, cut at random rows, the state carried from call to call.
template <DType D>
void check_runs(const RawOf<D>* x, int64_t slices, int64_t length, std::mt19937_64& rng, const std::string& what) {
  INFO(name(D) << " " << slices << " slices of [" << length << ", 3] " << what);
  const ox::KernelSet k = kernels(PlanKind::ReduceMax, D, false);
  std::vector<RawOf<D>> best(static_cast<size_t>(slices * 3));
  k.fill_start(best.data(), slices * 3);
  k.slices(x, slices, length, 3, best.data(), nullptr);
  for (int64_t s = 0; s < slices; ++s)
    for (int64_t c = 0; c < 3; ++c) {
      INFO("slice " << s << " column " << c);
      const std::vector<RawOf<D>> column = column_of<D>(x + s * length * 3, length, c);
      CHECK(same_bits(best[static_cast<size_t>(s * 3 + c)], trivial_max<D>(column.data(), length)));
    }

  std::vector<int64_t> cuts = {0, length};
  for (int p = static_cast<int>(rng() % 4); p > 0 && length > 1; --p) cuts.push_back(1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(length - 1)));
  std::sort(cuts.begin(), cuts.end());
  RawOf<D> carried[3];
  k.fill_start(carried, 3);
  for (size_t p = 0; p + 1 < cuts.size(); ++p)
    if (cuts[p + 1] > cuts[p]) k.columns(x + cuts[p] * 3, cuts[p + 1] - cuts[p], 3, 3, cuts[p], carried, nullptr);
  for (int64_t c = 0; c < 3; ++c) {
    INFO("column entry, cut into " << cuts.size() - 1 << " calls, column " << c);
    const std::vector<RawOf<D>> column = column_of<D>(x, length, c);
    CHECK(same_bits(carried[c], trivial_max<D>(column.data(), length)));
  }
}

template <DType D>
void interleaved_checks() {
  using R = RawOf<D>;
  constexpr int64_t lanes = 16 / static_cast<int64_t>(sizeof(R));  // rows of 3 in a period
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 40503);
  const std::vector<int64_t> lengths = {lanes - 1, lanes,         lanes + 1,     2 * lanes - 1, 2 * lanes, 2 * lanes + 1,
                                        3 * lanes + 2, 4 * lanes + 1, 7 * lanes + 3, 64,        257};
  for (int64_t length : lengths)
    for (int64_t slices : {int64_t{1}, int64_t{3}})
      for (Mix mix : {Mix::Ties, Mix::Specials, Mix::Wide}) {
        const int offset = static_cast<int>(rng() % 4);
        Shifted<R> buf(slices * length * 3, offset);
        for (int64_t i = 0; i < slices * length * 3; ++i) buf.data[i] = random_value<D>(rng, mix);
        check_runs<D>(buf.data, slices, length, rng, "mix " + std::to_string(int(mix)) + " offset " + std::to_string(offset));
      }

  if constexpr (has_nan<D>()) {
    const auto payloads = nans<D>();
    size_t payload = 0;
    for (int64_t length : {lanes, 2 * lanes + 1, 4 * lanes + 1})
      for (int64_t p = 0; p < length * 3; ++p)
        for (int pair = 0; pair < 2; ++pair) {
          std::vector<R> x(static_cast<size_t>(length * 3));
          for (auto& e : x) e = random_value<D>(rng, Mix::Ties);
          x[static_cast<size_t>(p)] = payloads[payload++ % payloads.size()];
          if (pair) x[static_cast<size_t>(rng() % (length * 3))] = payloads[payload++ % payloads.size()];
          check_runs<D>(x.data(), 1, length, rng, "NaN at " + std::to_string(p) + (pair ? " and another" : ""));
        }
    for (int64_t length : {lanes, 3 * lanes + 2, int64_t{64}})
      for (int rep = 0; rep < 12; ++rep) {
        std::vector<R> zeros(static_cast<size_t>(length * 3)), infinities(zeros.size());
        for (auto& e : zeros) {
          const uint64_t u = rng() % 5;
          e = u == 0 ? from_double<D>(-0.0) : u == 1 ? from_double<D>(0.0) : from_double<D>(-1.0 - double(u));
        }
        check_runs<D>(zeros.data(), 1, length, rng, "signed zeros among negatives");
        for (auto& e : infinities) {
          const uint64_t u = rng() % 4;
          e = u == 0 ? from_double<D>(INFINITY) : u == 1 ? from_double<D>(-INFINITY) : from_double<D>(double(u));
        }
        check_runs<D>(infinities.data(), 1, length, rng, "infinities of both signs");
      }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("ReduceMax over rows of 3 along an outer axis reads them straight and matches the trivial loop",
                   "[simd][columns][interleaved]", OX_SIMD_TEST_DTYPES) {
  if constexpr (TestType::dtype != DType::Int16 && TestType::dtype != DType::Uint16)  // no ReduceMax kernels
    interleaved_checks<TestType::dtype>();
}
