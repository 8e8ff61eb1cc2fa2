// The SIMD kernels as the execution walker drives them: input fed in chunks of random sizes
// (rows and columns split anywhere, state carried), output read back in random pieces. Checks
// ArgMax/ArgMin (both select_last values), ReduceMax and the Hardmax one-hot write-out for every
// dtype and output width against the trivial reference.
#include <catch2/catch.hpp>

#include <algorithm>

#include "exec/execution.h"
#include "simd_support.h"
#include "step_plan.h"

using namespace simdtest;
using ox::PlanKind;

namespace {

template <class T>
void feed_in_chunks(ox::Execution& run, const T* x, int64_t count, std::mt19937_64& rng, int64_t max_chunk) {
  for (int64_t at = 0; at < count;) {
    const int64_t take = std::min<int64_t>(count - at, 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(max_chunk)));
    run.feed(x + at, take);
    at += take;
  }
}

template <class T>
std::vector<T> read_in_pieces(const ox::Execution& run, int64_t count, std::mt19937_64& rng) {
  std::vector<T> out(static_cast<size_t>(count));
  for (int64_t at = 0; at < count;) {
    const int64_t take = std::min<int64_t>(count - at, 1 + static_cast<int64_t>(rng() % 97));
    run.write_output(out.data() + at, at, take);
    at += take;
  }
  return out;
}

// The values of reduced run (o, i): x[o][r][i] for r in [0, reduce).
template <class T>
std::vector<T> run_of(const std::vector<T>& x, int64_t o, int64_t i, int64_t reduce, int64_t inner) {
  std::vector<T> v(static_cast<size_t>(reduce));
  for (int64_t r = 0; r < reduce; ++r) v[static_cast<size_t>(r)] = x[static_cast<size_t>((o * reduce + r) * inner + i)];
  return v;
}

template <DType D>
void check_shape(int64_t outer, int64_t reduce, int64_t inner, std::mt19937_64& rng) {
  using R = RawOf<D>;
  const int64_t n = outer * reduce * inner;
  std::vector<R> x(static_cast<size_t>(n));
  for (auto& e : x) e = random_value<D>(rng, static_cast<Mix>(rng() % 3));
  if constexpr (has_nan<D>())
    if (rng() % 2) x[static_cast<size_t>(rng() % static_cast<uint64_t>(n))] = nans<D>()[rng() % nans<D>().size()];
  const int64_t max_chunk = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * reduce * inner + 8));
  INFO(name(D) << " [" << outer << "," << reduce << "," << inner << "] chunks up to " << max_chunk);

  for (PlanKind kind : {PlanKind::ArgMax, PlanKind::ArgMin})
    for (bool last : {false, true}) {
      INFO((kind == PlanKind::ArgMax ? "ArgMax" : "ArgMin") << " select_last " << last);
      ox::Execution run;
      REQUIRE(run.start(step_plan(kind, D, last, outer, reduce, inner)).is_ok());
      feed_in_chunks(run, x.data(), n, rng, max_chunk);
      const std::vector<int64_t> out = read_in_pieces<int64_t>(run, outer * inner, rng);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          const auto v = run_of(x, o, i, reduce, inner);
          CHECK(out[static_cast<size_t>(o * inner + i)] == trivial_arg<D>(v.data(), reduce, kind == PlanKind::ArgMax, last));
        }
    }
  if constexpr (D != DType::Int16 && D != DType::Uint16) {
    INFO("ReduceMax");
    ox::Execution run;
    REQUIRE(run.start(step_plan(PlanKind::ReduceMax, D, false, outer, reduce, inner)).is_ok());
    feed_in_chunks(run, x.data(), n, rng, max_chunk);
    const std::vector<R> out = read_in_pieces<R>(run, outer * inner, rng);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const auto v = run_of(x, o, i, reduce, inner);
        CHECK(same_bits(out[static_cast<size_t>(o * inner + i)], trivial_max<D>(v.data(), reduce)));
      }
  }
  if constexpr (D == DType::Float32 || D == DType::Float64 || D == DType::Float16 || D == DType::BFloat16) {
    INFO("Hardmax");
    ox::Execution run;
    REQUIRE(run.start(step_plan(PlanKind::Hardmax, D, false, outer, reduce, inner)).is_ok());
    feed_in_chunks(run, x.data(), n, rng, max_chunk);
    const std::vector<R> out = read_in_pieces<R>(run, n, rng);
    const R one = from_double<D>(1.0), zero = from_double<D>(0.0);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const auto v = run_of(x, o, i, reduce, inner);
        const int64_t winner = trivial_arg<D>(v.data(), reduce, true, false);
        for (int64_t r = 0; r < reduce; ++r)
          CHECK(same_bits(out[static_cast<size_t>((o * reduce + r) * inner + i)], r == winner ? one : zero));
      }
  }
}

template <DType D>
void shapes() {
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 2654435761u);
  // Rows (inner 1), short and long; columns narrow (2..7), around the tiles, wide.
  const int64_t shapes[][3] = {{3, 1, 1},  {4, 5, 1},   {2, 37, 1},  {3, 300, 1}, {1, 5000, 1}, {5, 3, 2},
                               {3, 7, 7},  {2, 3, 16},  {2, 5, 33},  {3, 2, 67},  {1, 21, 300}, {2, 4, 129}};
  for (const auto& s : shapes)
    for (int rep = 0; rep < 3; ++rep) check_shape<D>(s[0], s[1], s[2], rng);
}

}  // namespace

TEMPLATE_TEST_CASE("SIMD kernels through the chunked execution and the output write-out", "[simd][exec]",
                   OX_SIMD_TEST_DTYPES) {
  shapes<TestType::dtype>();
}
