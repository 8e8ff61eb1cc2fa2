// ReduceMax over float slices of [reduce, inner] with a few columns, through the kernel set's
// slice entry as Execution calls it, against the trivial loop. float16 / bfloat16 slices narrower
// than a vector take kernels/half_slices_max.cc (8 rows read as one virtual row of `inner`
// vectors, three lane-wise extremes of the raw bits folded by halving); float32 / float64 (and
// the shapes HalfSlicesMax does not take) check the paths they take on the same shapes: the narrow
// path's virtual rows, InterleavedMax's rows of three, SlicesAsRows. Every inner from 2 to 17 and
// reduce lengths around a virtual row, the thresholds and a 16 KiB slice; a NaN of each payload
// at every position of a slice (the first NaN's bits win); zeros of both signs among negatives (a
// zero maximum takes the first zero's bits), columns wholly negative, infinities of both signs;
// and states carried in, NaN states among them.
#include <catch2/catch.hpp>

#include "row_checks.h"

using namespace simdtest;
using ox::PlanKind;

namespace {

// The starting value, or states a block before this one left: random values, a NaN now and then.
template <DType D>
std::vector<RawOf<D>> start_states(int64_t count, bool carried, std::mt19937_64& rng) {
  std::vector<RawOf<D>> start(static_cast<size_t>(count));
  kernels(PlanKind::ReduceMax, D, false).fill_start(start.data(), count);
  if (carried)
    for (auto& s : start) s = rng() % 8 == 0 ? nans<D>()[rng() % nans<D>().size()] : random_value<D>(rng, Mix::Specials);
  return start;
}

template <DType D>
void slices_checks() {
  using R = RawOf<D>;
  constexpr int64_t rows = 16 / static_cast<int64_t>(sizeof(R));  // a virtual row
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 6007);
  for (int64_t inner = 2; inner <= 17; ++inner) {
    const int64_t widest = 16 * 1024 / (inner * static_cast<int64_t>(sizeof(R)));  // HalfSlicesMax's longest slice
    for (int64_t reduce : {rows - 1, rows, rows + 1, 2 * rows - 1, 2 * rows, 2 * rows + 1, int64_t{31}, int64_t{32},
                           int64_t{33}, int64_t{64}, int64_t{65}, int64_t{259}, widest, widest + 1})
      for (int64_t slices : {int64_t{1}, int64_t{3}})
        for (Mix mix : {Mix::Ties, Mix::Specials, Mix::Wide}) {
          const bool carried = mix != Mix::Wide;
          INFO(name(D) << " " << slices << " slices of [" << reduce << ", " << inner << "], mix " << int(mix)
                       << (carried ? ", states carried in" : ""));
          Shifted<R> buf(slices * reduce * inner, static_cast<int>(rng() % 8));
          for (int64_t i = 0; i < slices * reduce * inner; ++i) buf.data[i] = random_value<D>(rng, mix);
          check_max_slices<D>(buf.data, slices, reduce, inner, start_states<D>(slices * inner, carried, rng));
        }
  }
  // A NaN at every position of the middle one of three slices (each payload in turn, sometimes a
  // second one later), the slices around it taken by the path.
  const auto payloads = nans<D>();
  size_t payload = 0;
  for (int64_t inner : {int64_t{3}, int64_t{5}, int64_t{7}, int64_t{12}}) {
    const int64_t reduce = inner > 8 ? 256 : 64, span = reduce * inner;  // lengths HalfSlicesMax takes
    for (int64_t p = 0; p < span; ++p) {
      std::vector<R> x(static_cast<size_t>(3 * span));
      for (auto& e : x) e = random_value<D>(rng, Mix::Wide);
      x[static_cast<size_t>(span + p)] = payloads[payload++ % payloads.size()];
      if (p % 3 == 0) x[static_cast<size_t>(span + (p * 5 + 11) % span)] = payloads[payload++ % payloads.size()];
      INFO(name(D) << " [3, " << reduce << ", " << inner << "], a NaN at element " << p << " of slice 1");
      check_max_slices<D>(x.data(), 3, reduce, inner, start_states<D>(3 * inner, false, rng));
    }
  }
  // Zeros of both signs among negatives (the maximum a zero: the first zero's bits), negatives
  // only (the least magnitude), and infinities of both signs among numbers.
  for (int64_t inner : {int64_t{3}, int64_t{4}, int64_t{6}, int64_t{9}})
    for (int rep = 0; rep < 40; ++rep)
      for (int pool = 0; pool < 3; ++pool) {
        const int64_t reduce = (inner > 8 ? 256 : 64) + static_cast<int64_t>(rng() % 70), span = reduce * inner;
        std::vector<R> x(static_cast<size_t>(2 * span));
        for (auto& e : x) {
          const uint64_t u = rng() % 6;
          if (pool == 0) e = u == 0 ? from_double<D>(-0.0) : u == 1 ? from_double<D>(0.0) : from_double<D>(-1.0 - double(u));
          if (pool == 1) e = from_double<D>(-0.5 - double(rng() % 1000));
          if (pool == 2) e = u == 0 ? from_double<D>(INFINITY) : u == 1 ? from_double<D>(-INFINITY) : from_double<D>(double(u) - 3.0);
        }
        INFO(name(D) << " pool " << pool << ", 2 slices of [" << reduce << ", " << inner << "]");
        check_max_slices<D>(x.data(), 2, reduce, inner, start_states<D>(2 * inner, rep % 2 == 1, rng));
      }
}

}  // namespace

TEMPLATE_TEST_CASE("ReduceMax over float slices of a few columns folds virtual rows and matches the trivial loop",
                   "[simd][columns][float-slices]", simdtest::Tag<ox::DType::Float16>, simdtest::Tag<ox::DType::BFloat16>,
                   simdtest::Tag<ox::DType::Float32>, simdtest::Tag<ox::DType::Float64>) {
  simdtest::use_format_of<TestType::dtype>();
  slices_checks<TestType::dtype>();
}
