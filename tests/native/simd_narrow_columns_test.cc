// The narrow-column path of the column kernels (kernels/narrow_columns.h: rows narrower than four
// tiles and not a whole number of them, or whole tiles under a register group; R rows read as one
// wide virtual row, each column's R candidates merged into its state) against the trivial loop,
// for every dtype, ArgMax/ArgMin with both select_last values and ReduceMax: every width up to
// four tiles, row counts below and past the path's threshold with remainders, misaligned starts,
// NaN anywhere (columns of NaN too, payloads that differ), signed zeros that tie as the maximum,
// ties, and state carried from one call to the next with the second call's rows numbered from the
// cut.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include "kernels/arg_columns_simd.h"
#include "fresh_state.h"
#include "simd_support.h"

using namespace simdtest;
using ox::PlanKind;

namespace {

// Row counts from a few to several 16 KiB blocks of virtual rows, with remainders, and around
// the path's thresholds, 16 and 32 virtual rows of r rows each (16: 1- and 2-byte arg kinds' part
// widths; 8 r: 16 virtual rows of r / 2, short slices of 1- and 2-byte arg kinds), for each
// virtual width the kinds may use (lcm(width, tile) for a part of a tile, widened to lcm(width,
// group) when under a group; lcm(width, group) for whole tiles; groups differ by kind).
std::vector<int64_t> row_counts(int64_t width, int64_t tile, std::vector<int64_t> groups, int64_t size) {
  std::vector<int64_t> counts = {1, 5, 64, 1000, 3 * (16 * 1024 / (width * size)) + 7};
  for (int64_t group : groups) {
    const int64_t narrow = std::lcm(width, width % tile ? tile : group);
    for (int64_t p : {narrow, narrow < group ? std::lcm(width, group) : narrow}) {
      const int64_t r = p / width;  // (1- and 2-byte arg kinds may take r / 2 up to 32 r rows)
      for (int64_t least : {8 * r, 16 * r, 32 * r})
        for (int64_t n : {least - 1, least, least + r - 1, least + r + 1, 3 * least + 5})
          if (std::find(counts.begin(), counts.end(), n) == counts.end()) counts.push_back(n);
    }
  }
  return counts;
}

template <DType D>
void fill_columns(RawOf<D>* x, int64_t rows, int64_t w, std::mt19937_64& rng, Mix mix, int zeros) {
  for (int64_t i = 0; i < rows * w; ++i) x[i] = random_value<D>(rng, mix);
  if (zeros) {  // columns whose maximum is a zero of either sign: which zero comes first decides the bits
    for (int64_t i = 0; i < rows * w; ++i) {
      const uint64_t u = rng() % 5;
      x[i] = u == 0 ? from_double<D>(-0.0) : u == 1 ? from_double<D>(0.0) : from_double<D>(-1.0 - double(u));
    }
  }
  if constexpr (has_nan<D>()) {
    const auto payloads = nans<D>();
    const int64_t hits = static_cast<int64_t>(rng() % 4);  // none, or a few anywhere
    for (int64_t h = 0; h < hits; ++h) x[rng() % static_cast<uint64_t>(rows * w)] = payloads[rng() % payloads.size()];
    if (rng() % 4 == 0) {  // a column of NaN, payloads that differ
      const int64_t c = static_cast<int64_t>(rng() % static_cast<uint64_t>(w));
      for (int64_t r = 0; r < rows; ++r) x[r * w + c] = payloads[rng() % payloads.size()];
    }
  }
}

// `rows` rows of w at x through KernelSet::columns, whole in one call and split at row `cut` into
// two calls (the second continuing the state, its first row numbered cut), against the trivial
// loop per column.
template <DType D>
void check_columns(const RawOf<D>* x, int64_t rows, int64_t w, int64_t cut, const std::string& what) {
  using R = RawOf<D>;
  INFO(name(D) << " " << rows << " rows of " << w << ", cut at " << cut << ", " << what);
  std::vector<R> column(static_cast<size_t>(rows));
  const auto column_of = [&](int64_t c) {
    for (int64_t r = 0; r < rows; ++r) column[static_cast<size_t>(r)] = x[r * w + c];
  };
  std::vector<R> best(static_cast<size_t>(w));
  std::vector<int32_t> index(static_cast<size_t>(w));
  const auto run = [&](const ox::KernelSet& k, bool split) {
    int32_t* at = k.tracks_index ? index.data() : nullptr;
    fresh::start(k, best.data(), best.size() * sizeof(R), at, w);  // the first call starts every column at row 0
    if (!split) return k.columns(x, rows, w, w, 0, best.data(), at);
    if (cut > 0) k.columns(x, cut, w, w, 0, best.data(), at);
    k.columns(x + cut * w, rows - cut, w, w, cut, best.data(), at);
  };
  for (int split = 0; split < 2; ++split) {
    for (int kind = 0; kind < 2; ++kind)
      for (int last = 0; last < 2; ++last) {
        run(kernels(kind ? PlanKind::ArgMin : PlanKind::ArgMax, D, last), split);
        for (int64_t c = 0; c < w; ++c) {
          column_of(c);
          const int64_t want = trivial_arg<D>(column.data(), rows, kind == 0, last);
          INFO("column " << c << (kind ? " ArgMin" : " ArgMax") << " select_last " << last << " split " << split);
          CHECK(index[static_cast<size_t>(c)] == want);
          CHECK(same_number<D>(best[static_cast<size_t>(c)], column[static_cast<size_t>(want)]));
        }
      }
    if constexpr (D != DType::Int16 && D != DType::Uint16) {  // ReduceMax has no int16/uint16
      run(kernels(PlanKind::ReduceMax, D, false), split);
      for (int64_t c = 0; c < w; ++c) {
        column_of(c);
        INFO("column " << c << " ReduceMax split " << split << ": " << bits_text(best[static_cast<size_t>(c)]));
        CHECK(same_bits(best[static_cast<size_t>(c)], trivial_max<D>(column.data(), rows)));
      }
    }
  }
}

template <DType D>
void narrow_column_checks() {
  using L = typename ox::LanesFor<D>::type;
  using Rule = ox::ArgRule<ox::Traits<D>, ox::Direction::Max, false>;
  // Rows narrower than four tiles go this way unless a whole number of tiles as wide as a
  // register group or wider (those are checked too: the usual way).
  using ArgColumns = ox::ColumnScan<L, Rule, true>;
  using MaxColumns = ox::ColumnScan<L, Rule, false>;
  constexpr int64_t tile = ArgColumns::kTile;
  const std::vector<int64_t> groups = {ArgColumns::kGroup * tile, MaxColumns::kGroup * tile};
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 7919);
  for (int64_t w = 2; w < 4 * tile; ++w)
    for (int64_t rows : row_counts(w, tile, groups, sizeof(RawOf<D>)))
      for (int zeros = 0; zeros < (has_nan<D>() ? 2 : 1); ++zeros) {
        const Mix mix = static_cast<Mix>(rng() % 3);
        const int offset = static_cast<int>(rng() % 4);
        Shifted<RawOf<D>> buf(rows * w, offset);
        fill_columns<D>(buf.data, rows, w, rng, mix, zeros);
        const int64_t cut = static_cast<int64_t>(rng() % static_cast<uint64_t>(rows));
        check_columns<D>(buf.data, rows, w, cut,
                         "offset " + std::to_string(offset) + " mix " + std::to_string(int(mix)) + " zeros " + std::to_string(zeros));
      }
}

}  // namespace

TEMPLATE_TEST_CASE("Columns narrower than a tile run as wide virtual columns and match the trivial loop",
                   "[simd][columns][narrow]", OX_SIMD_TEST_DTYPES) {
  simdtest::use_format_of<TestType::dtype>();
  narrow_column_checks<TestType::dtype>();
}
