// ReduceMax, ArgMax and ArgMin (both tie rules) over rows of 3 along the axis before them
// (kernels/interleaved_max.h: the rows read straight, each column at fixed lanes of a period of
// three vectors, the arg kinds' rows then located by compares; float32/float64 slices of rows of
// 5 from 128 rows, five vectors; kernels/interleaved_arg.h: the arg kinds' slices of rows of 3
// to 8 read straight with each lane's period), through the kernel set's slice entry and its column entry,
// against the trivial loop: run lengths around the period and
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
std::vector<RawOf<D>> column_of(const RawOf<D>* x, int64_t rows, int64_t width, int64_t c) {
  std::vector<RawOf<D>> column(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) column[static_cast<size_t>(r)] = x[r * width + c];
  return column;
}

// The arg kinds on the same runs: indices against the trivial ArgMax/ArgMin, and the state's value
// the element there (a zero of either sign).
template <DType D>
void check_arg_runs(const RawOf<D>* x, int64_t slices, int64_t length, int64_t w, const std::vector<int64_t>& cuts) {
  for (PlanKind kind : {PlanKind::ArgMax, PlanKind::ArgMin})
    for (bool last : {false, true}) {
      INFO((kind == PlanKind::ArgMax ? "ArgMax" : "ArgMin") << (last ? " select_last_index" : ""));
      const ox::KernelSet k = kernels(kind, D, last);
      std::vector<RawOf<D>> best(static_cast<size_t>(slices * w));
      std::vector<int32_t> index(best.size(), -7);
      k.slices(x, slices, length, w, best.data(), index.data());
      for (int64_t s = 0; s < slices; ++s)
        for (int64_t c = 0; c < w; ++c) {
          INFO("slice " << s << " column " << c);
          const std::vector<RawOf<D>> column = column_of<D>(x + s * length * w, length, w, c);
          const int64_t want = trivial_arg<D>(column.data(), length, kind == PlanKind::ArgMax, last);
          const size_t at = static_cast<size_t>(s * w + c);
          REQUIRE(index[at] == want);
          CHECK(same_number<D>(best[at], column[static_cast<size_t>(want)]));
        }
      RawOf<D> carried[8];
      int32_t carried_index[8];
      for (size_t p = 0; p + 1 < cuts.size(); ++p)
        if (cuts[p + 1] > cuts[p])
          k.columns(x + cuts[p] * w, cuts[p + 1] - cuts[p], w, w, cuts[p], carried, carried_index);
      for (int64_t c = 0; c < w; ++c) {
        INFO("column entry, cut into " << cuts.size() - 1 << " calls, column " << c);
        const std::vector<RawOf<D>> column = column_of<D>(x, length, w, c);
        const int64_t want = trivial_arg<D>(column.data(), length, kind == PlanKind::ArgMax, last);
        REQUIRE(carried_index[c] == want);
        CHECK(same_number<D>(carried[c], column[static_cast<size_t>(want)]));
      }
    }
}

// `slices` slices of [length, w]: whole, through the slice entry; and the first slice through the
// column entry, cut at random rows, the state carried from call to call. ReduceMax, then the arg
// kinds.
template <DType D>
void check_runs(const RawOf<D>* x, int64_t slices, int64_t length, int64_t w, std::mt19937_64& rng,
                const std::string& what) {
  INFO(name(D) << " " << slices << " slices of [" << length << ", " << w << "] " << what);
  std::vector<int64_t> cuts = {0, length};
  for (int p = static_cast<int>(rng() % 4); p > 0 && length > 1; --p) cuts.push_back(1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(length - 1)));
  std::sort(cuts.begin(), cuts.end());
  if constexpr (D != DType::Int16 && D != DType::Uint16) {  // (no ReduceMax kernels)
    const ox::KernelSet k = kernels(PlanKind::ReduceMax, D, false);
    std::vector<RawOf<D>> best(static_cast<size_t>(slices * w));
    k.fill_start(best.data(), slices * w);
    k.slices(x, slices, length, w, best.data(), nullptr);
    for (int64_t s = 0; s < slices; ++s)
      for (int64_t c = 0; c < w; ++c) {
        INFO("slice " << s << " column " << c);
        const std::vector<RawOf<D>> column = column_of<D>(x + s * length * w, length, w, c);
        CHECK(same_bits(best[static_cast<size_t>(s * w + c)], trivial_max<D>(column.data(), length)));
      }
    RawOf<D> carried[8];
    k.fill_start(carried, w);
    for (size_t p = 0; p + 1 < cuts.size(); ++p)
      if (cuts[p + 1] > cuts[p]) k.columns(x + cuts[p] * w, cuts[p + 1] - cuts[p], w, w, cuts[p], carried, nullptr);
    for (int64_t c = 0; c < w; ++c) {
      INFO("column entry, cut into " << cuts.size() - 1 << " calls, column " << c);
      const std::vector<RawOf<D>> column = column_of<D>(x, length, w, c);
      CHECK(same_bits(carried[c], trivial_max<D>(column.data(), length)));
    }
  }
  check_arg_runs<D>(x, slices, length, w, cuts);
}

// Rows of 3 (every length from a period), and rows of 5 around the 128 rows the path starts at.
template <DType D>
void interleaved_checks(int64_t w) {
  using R = RawOf<D>;
  constexpr int64_t lanes = 16 / static_cast<int64_t>(sizeof(R));  // rows of w in a period
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 40503 + static_cast<uint64_t>(w));
  // (The arg kinds' slices of rows of 3 and 7 go straight from 32 periods, the other widths from
  // 4: around both, with every count of rows after the last whole period.)
  // Long runs too: the float arg passes go by blocks of periods/32 periods (8 to 32) from 256
  // periods, so runs of 48, 100 and 128 periods go period by period, 256 by blocks of 8, 512 of
  // 16, 555 of 17 and 1000 of 31, each but 256 and 512 with a short last block (float64 rows of 7
  // take the path from 256 periods).
  const std::vector<int64_t> lengths =
      w == 3 ? std::vector<int64_t>{lanes - 1, lanes, lanes + 1, 2 * lanes - 1, 2 * lanes, 2 * lanes + 1,
                                    3 * lanes + 2, 4 * lanes + 1, 7 * lanes + 3, 64, 257, 32 * lanes - 1,
                                    32 * lanes, 32 * lanes + 1, 33 * lanes - 1, 48 * lanes + 1, 100 * lanes + 2,
                                    128 * lanes, 128 * lanes + 3, 256 * lanes, 512 * lanes,
                                    555 * lanes + 1, 1000 * lanes + 3}
             : std::vector<int64_t>{4 * lanes - 1, 4 * lanes, 4 * lanes + 1, 5 * lanes - 1, 40, 64, 127, 128, 129,
                                    128 + 2 * lanes - 1, 257, 300, 100 * lanes + 1, 256 * lanes, 512 * lanes + 1,
                                    555 * lanes + 2};
  for (int64_t length : lengths)
    for (int64_t slices : {int64_t{1}, int64_t{3}})
      for (Mix mix : {Mix::Ties, Mix::Specials, Mix::Wide}) {
        const int offset = static_cast<int>(rng() % 4);
        Shifted<R> buf(slices * length * w, offset);
        for (int64_t i = 0; i < slices * length * w; ++i) buf.data[i] = random_value<D>(rng, mix);
        check_runs<D>(buf.data, slices, length, w, rng, "mix " + std::to_string(int(mix)) + " offset " + std::to_string(offset));
      }

  if constexpr (has_nan<D>()) {
    const auto payloads = nans<D>();
    size_t payload = 0;
    const std::vector<int64_t> nan_lengths =
        w == 3 ? std::vector<int64_t>{lanes, 2 * lanes + 1, 4 * lanes + 1, 32 * lanes + 1}
               : std::vector<int64_t>{4 * lanes + 1, 128, 129};
    for (int64_t length : nan_lengths)
      for (int64_t p = 0; p < length * w; ++p)
        for (int pair = 0; pair < 2; ++pair) {
          std::vector<R> x(static_cast<size_t>(length * w));
          for (auto& e : x) e = random_value<D>(rng, Mix::Ties);
          x[static_cast<size_t>(p)] = payloads[payload++ % payloads.size()];
          if (pair) x[static_cast<size_t>(rng() % (length * w))] = payloads[payload++ % payloads.size()];
          check_runs<D>(x.data(), 1, length, w, rng, "NaN at " + std::to_string(p) + (pair ? " and another" : ""));
        }
    // Long runs (blocks of up to 32 periods): a NaN at sampled positions, one or two.
    for (int64_t length : {100 * lanes + 1, 555 * lanes + 2})
      for (int rep = 0; rep < 24; ++rep) {
        std::vector<R> x(static_cast<size_t>(length * w));
        for (auto& e : x) e = random_value<D>(rng, Mix::Ties);
        const int64_t p = rep < 2 ? (rep == 0 ? 0 : length * w - 1) : static_cast<int64_t>(rng() % static_cast<uint64_t>(length * w));
        x[static_cast<size_t>(p)] = payloads[payload++ % payloads.size()];
        if (rep % 2) x[static_cast<size_t>(rng() % (length * w))] = payloads[payload++ % payloads.size()];
        check_runs<D>(x.data(), 1, length, w, rng, "NaN at " + std::to_string(p) + (rep % 2 ? " and another" : ""));
      }
    // Many slices, a few with a NaN: the arg kinds' slices around one go the other paths, as many
    // as a hint says (16, doubling while it stops at once), then straight again.
    for (int64_t length : {32 * lanes + 1, 4 * lanes + 1}) {
      const int64_t slices = 70;
      std::vector<R> x(static_cast<size_t>(slices * length * w));
      for (auto& e : x) e = random_value<D>(rng, Mix::Wide);
      for (int64_t s : {0, 1, 2, 19, 20, 36, 69})
        x[static_cast<size_t>((s * length + static_cast<int64_t>(rng() % static_cast<uint64_t>(length))) * w +
                              static_cast<int64_t>(rng() % static_cast<uint64_t>(w)))] = payloads[payload++ % payloads.size()];
      check_runs<D>(x.data(), slices, length, w, rng, "a NaN in slices 0, 1, 2, 19, 20, 36 and 69");
    }
    const std::vector<int64_t> zero_lengths =
        w == 3 ? std::vector<int64_t>{lanes, 3 * lanes + 2, 64, 32 * lanes + 2, 555 * lanes + 1}
               : std::vector<int64_t>{4 * lanes, 128, 3 * lanes + 130, 555 * lanes + 2};
    for (int64_t length : zero_lengths)
      for (int rep = 0; rep < 12; ++rep) {
        std::vector<R> zeros(static_cast<size_t>(length * w)), infinities(zeros.size());
        for (auto& e : zeros) {
          const uint64_t u = rng() % 5;
          e = u == 0 ? from_double<D>(-0.0) : u == 1 ? from_double<D>(0.0) : from_double<D>(-1.0 - double(u));
        }
        check_runs<D>(zeros.data(), 1, length, w, rng, "signed zeros among negatives");
        for (auto& e : infinities) {
          const uint64_t u = rng() % 4;
          e = u == 0 ? from_double<D>(INFINITY) : u == 1 ? from_double<D>(-INFINITY) : from_double<D>(double(u));
        }
        check_runs<D>(infinities.data(), 1, length, w, rng, "infinities of both signs");
      }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("ReduceMax, ArgMax and ArgMin over rows of 3 (and 4 to 8) along an outer axis read them straight and match the trivial loop",
                   "[simd][columns][interleaved]", OX_SIMD_TEST_DTYPES) {
  simdtest::use_format_of<TestType::dtype>();
  for (int64_t w : {3, 4, 5, 6, 7, 8}) interleaved_checks<TestType::dtype>(w);
}
