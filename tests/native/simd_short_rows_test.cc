// The short-row path of the row kernels (kernels/short_rows.h: many rows of at most
// kMaxLength elements, transposed block by block and reduced as columns) against the trivial
// loop, for every dtype, ArgMax/ArgMin with both select_last values and ReduceMax: every length
// up to past the limit, row counts around the tile and the block (the last block reaches back
// over rows already done), misaligned starts, NaN anywhere (rows of NaN too), signed zeros,
// ties, and state carried from one call to the next with the second call's indices offset.
#include <catch2/catch.hpp>

#include <algorithm>

#include "kernels/arg_columns_simd.h"
#include "kernels/short_rows.h"
#include "fresh_state.h"
#include "simd_support.h"

using namespace simdtest;
using ox::PlanKind;

namespace {

template <DType D>
struct ShortSizes {
  using L = typename ox::LanesFor<D>::type;
  using Rule = ox::ArgRule<ox::Traits<D>, ox::Direction::Max, false>;
  using Short = ox::ShortRows<ox::ColumnScan<L, Rule, true>>;
  using MaxShort = ox::ShortRows<ox::ColumnScan<L, Rule, false>>;  // ReduceMax's shorter limit
  using Arg = ox::ColumnScan<L, Rule, true>;
  static constexpr int64_t lanes = L::kLanes;
  static constexpr int64_t tile = Short::kTile;
  // The lengths the fast ways take whole in registers (rows of 2 to 5), the 8-byte pairs' range,
  // and the squares' (float32 ArgMax, int32 ArgMax and ArgMin, first index).
  static constexpr int64_t longest_fast_whole = 5;
  static constexpr int64_t shortest_paired = Arg::kShortestPaired, longest_paired = Arg::kLongestPaired;
  static constexpr int64_t shortest_squared = Arg::kShortestSquared, longest_squared = Arg::kLongestSquared;

  static std::vector<int64_t> lengths() {
    std::vector<int64_t> n;
    for (int64_t i = 1; i <= 2 * lanes + 1; ++i) n.push_back(i);
    for (int64_t m : {int64_t{10}, int64_t{14}, int64_t{21}, int64_t{31}, int64_t{33}, MaxShort::kMaxLength - 1,
                      MaxShort::kMaxLength, MaxShort::kMaxLength + 1, Short::kMaxLength - 1, Short::kMaxLength,
                      Short::kMaxLength + 1})
      if (m > 2 * lanes + 1 && std::find(n.begin(), n.end(), m) == n.end()) n.push_back(m);
    return n;
  }
  // A tile, one more, several tiles and a remainder, and counts past one and three blocks of
  // `length` (the block depends on the length) by less than a tile.
  static std::vector<int64_t> row_counts(int64_t length) {
    const int64_t by_scratch = Short::kScratchElements / length, block_rows = by_scratch < Short::kBlockRows ? by_scratch : Short::kBlockRows;
    const int64_t block = std::max<int64_t>(tile, block_rows / tile * tile);
    return {tile, tile + 1, 3 * tile + 1, block + 1, 3 * block + tile - 1};
  }
};

// NaN planted unless `with_nan` is false (then infinities of one sign in half the calls): the fast
// ways (whole rows of 2-5 decided in registers, the column passes' pmax) give their result only
// where their guard saw no NaN, so a call with a NaN never shows what they decided. Half the calls with NaN hold stray ones only (no row of NaN,
// which trips every guard whichever positions it watches). Signed zeros in a third of the calls,
// NaN or not: among negatives (ArgMax's ties) in every third row, among positives (ArgMin's) in
// the next; which zero comes first decides the index and the bits.
template <DType D>
void fill_rows(RawOf<D>* x, int64_t rows, int64_t n, std::mt19937_64& rng, Mix mix, bool with_nan = true) {
  for (int64_t i = 0; i < rows * n; ++i) x[i] = random_value<D>(rng, mix);
  if constexpr (has_nan<D>()) {
    if (with_nan) {
      const auto payloads = nans<D>();
      const int64_t hits = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(rows));  // some rows get one or two
      for (int64_t h = 0; h < hits; ++h) x[rng() % static_cast<uint64_t>(rows * n)] = payloads[rng() % payloads.size()];
      if (rng() % 2 == 0) {
        const int64_t all = static_cast<int64_t>(rng() % static_cast<uint64_t>(rows));  // a row of NaN
        for (int64_t j = 0; j < n; ++j) x[all * n + j] = payloads[rng() % payloads.size()];
      }
    } else if (rng() % 2 == 0) {
      // Infinities of one sign, some rows two (ties): the float guards' running sums stay free of
      // NaN, so the fast ways keep results that involve them (+inf beside -inf would trip them).
      const RawOf<D> inf = specials<D>()[rng() % 2];  // -inf or +inf
      const int64_t hits = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * rows));
      for (int64_t h = 0; h < hits; ++h) x[rng() % static_cast<uint64_t>(rows * n)] = inf;
    }
  }
  if (rng() % 3 == 0 && (std::is_floating_point<RawOf<D>>::value || D == DType::Float16 || D == DType::BFloat16)) {
    for (int64_t r = 0; r < rows; ++r) {
      if (r % 3 == 2) continue;
      const double side = r % 3 == 0 ? -1.0 : 1.0;
      for (int64_t j = 0; j < n; ++j) {
        const uint64_t u = rng() % 4;
        x[r * n + j] = u == 0 ? from_double<D>(-0.0) : u == 1 ? from_double<D>(0.0) : from_double<D>(side * (1.0 + double(u)));
      }
    }
  }
}

// `rows` rows of n at x, whole in one call and split at column `cut` into two calls (the second
// continuing the state, its first element numbered cut), against the trivial loop per row.
template <DType D>
void check_short_rows(const RawOf<D>* x, int64_t rows, int64_t n, int64_t cut, const std::string& what) {
  using R = RawOf<D>;
  INFO(name(D) << " " << rows << " rows of " << n << ", cut at " << cut << ", " << what);
  std::vector<R> head(static_cast<size_t>(rows * cut)), tail(static_cast<size_t>(rows * (n - cut)));
  for (int64_t r = 0; r < rows; ++r) {
    std::copy(x + r * n, x + r * n + cut, head.begin() + r * cut);
    std::copy(x + r * n + cut, x + (r + 1) * n, tail.begin() + r * (n - cut));
  }
  const auto run = [&](const ox::KernelSet& k, std::vector<R>& best, std::vector<int32_t>& index, bool split) {
    best.assign(static_cast<size_t>(rows), R{});
    index.assign(static_cast<size_t>(rows), 0);
    int32_t* at = k.tracks_index ? index.data() : nullptr;
    fresh::start(k, best.data(), best.size() * sizeof(R), at, rows);  // the first call starts every row at index 0
    if (!split) return k.rows(x, rows, n, 0, best.data(), at);
    if (cut > 0) k.rows(head.data(), rows, cut, 0, best.data(), at);
    k.rows(tail.data(), rows, n - cut, cut, best.data(), at);
  };
  std::vector<R> best;
  std::vector<int32_t> index;
  for (int split = 0; split < 2; ++split) {
    for (int kind = 0; kind < 2; ++kind)
      for (int last = 0; last < 2; ++last) {
        run(kernels(kind ? PlanKind::ArgMin : PlanKind::ArgMax, D, last), best, index, split);
        for (int64_t r = 0; r < rows; ++r) {
          const int64_t want = trivial_arg<D>(x + r * n, n, kind == 0, last);
          INFO("row " << r << (kind ? " ArgMin" : " ArgMax") << " select_last " << last << " split " << split);
          CHECK(index[static_cast<size_t>(r)] == want);
          CHECK(same_number<D>(best[static_cast<size_t>(r)], x[r * n + want]));  // the zero's sign: see ReduceMax
        }
      }
    if constexpr (D != DType::Int16 && D != DType::Uint16) {  // ReduceMax has no int16/uint16
      run(kernels(PlanKind::ReduceMax, D, false), best, index, split);
      for (int64_t r = 0; r < rows; ++r) {
        INFO("row " << r << " ReduceMax split " << split);
        CHECK(same_bits(best[static_cast<size_t>(r)], trivial_max<D>(x + r * n, n)));
      }
    }
  }
}

template <DType D>
void short_row_checks() {
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 4099);
  for (int64_t n : ShortSizes<D>::lengths())
    for (int64_t rows : ShortSizes<D>::row_counts(n))
      for (Mix mix : {Mix::Ties, Mix::Specials, Mix::Wide}) {
        if (rows > 4 * ShortSizes<D>::tile && mix != static_cast<Mix>(n % 3)) continue;  // one mix for the long calls
        const int offset = static_cast<int>(rng() % 4);
        Shifted<RawOf<D>> buf(rows * n, offset);
        const bool with_nan = mix == Mix::Specials || rng() % 2 == 0;
        fill_rows<D>(buf.data, rows, n, rng, mix, with_nan);
        const int64_t cut = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
        check_short_rows<D>(buf.data, rows, n, cut,
                            "offset " + std::to_string(offset) + " mix " + std::to_string(int(mix)) + (with_nan ? "" : " no NaN"));
      }
}

// Rows of 2 to 5 without NaN, every row count and mix: the fast ways that decide whole rows in
// registers (float32 ArgMax, the float16/bfloat16 arg kinds) keep their result only then.
template <DType D>
void fast_whole_row_checks() {
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 7919);
  for (int64_t n = 2; n <= ShortSizes<D>::longest_fast_whole; ++n)
    for (int64_t rows : ShortSizes<D>::row_counts(n))
      for (Mix mix : {Mix::Ties, Mix::Wide}) {
        Shifted<RawOf<D>> buf(rows * n, static_cast<int>(rng() % 4));
        fill_rows<D>(buf.data, rows, n, rng, mix, false);
        check_short_rows<D>(buf.data, rows, n, static_cast<int64_t>(rng() % static_cast<uint64_t>(n)),
                            "no NaN, mix " + std::to_string(int(mix)));
      }
}

// Two NaN of different payloads in one row of a call otherwise free of NaN, in a tile before the
// last: which of them the rule picks (the first or last NaN) is not what a fast way's pick among
// its keys gives, so only its guard over every tile's best keys sends such a call the exact way.
template <DType D>
void nan_pairs_in_a_row() {
  if constexpr (has_nan<D>()) {
    using Z = ShortSizes<D>;
    std::mt19937_64 rng(static_cast<uint64_t>(D) * 2903);
    const auto payloads = nans<D>();
    for (int64_t n = 2; n <= Z::longest_fast_whole; ++n)
      for (size_t a = 0; a < payloads.size(); ++a)
        for (size_t b = 0; b < payloads.size(); ++b) {
          if (a == b) continue;
          const int64_t rows = 2 * Z::tile + 1, row = static_cast<int64_t>(rng() % static_cast<uint64_t>(Z::tile));
          std::vector<RawOf<D>> x(static_cast<size_t>(rows * n));
          fill_rows<D>(x.data(), rows, n, rng, Mix::Wide, false);
          const int64_t p = static_cast<int64_t>(rng() % static_cast<uint64_t>(n - 1));
          const int64_t q = p + 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(n - 1 - p));
          x[static_cast<size_t>(row * n + p)] = payloads[a];
          x[static_cast<size_t>(row * n + q)] = payloads[b];
          check_short_rows<D>(x.data(), rows, n, static_cast<int64_t>(rng() % static_cast<uint64_t>(n)),
                              "NaN pair " + std::to_string(a) + "," + std::to_string(b) + " in row " + std::to_string(row));
        }
  }
}

// One NaN (then two) at every position of tile + 1 rows, for lengths around the vector: every
// lane of every transposed vector, in the overlapping last tile too.
template <DType D>
void nan_at_every_position() {
  if constexpr (has_nan<D>()) {
    using Z = ShortSizes<D>;
    std::mt19937_64 rng(static_cast<uint64_t>(D) * 6151);
    const auto payloads = nans<D>();
    // Every length the fast ways take whole, the 8-byte pairs' and the squares' ends and a middle
    // one (NaN matters to float32's squares: int32's have no guard).
    std::vector<int64_t> lengths;
    for (int64_t n = 1; n <= Z::longest_fast_whole; ++n) lengths.push_back(n);
    for (int64_t n : {Z::shortest_paired, Z::shortest_paired + 3, (Z::shortest_paired + Z::longest_paired) / 2,
                      Z::longest_paired, Z::shortest_squared, Z::shortest_squared + 4, Z::longest_squared - 1,
                      Z::lanes - 3, Z::lanes - 1, Z::lanes, Z::lanes + 1, 2 * Z::lanes + 1})
      if (n >= 1 && std::find(lengths.begin(), lengths.end(), n) == lengths.end()) lengths.push_back(n);
    for (int64_t n : lengths) {
      const int64_t rows = Z::tile + 1;
      for (int64_t p = 0; p < rows * n; ++p) {
        std::vector<RawOf<D>> x(static_cast<size_t>(rows * n));
        for (auto& e : x) e = random_value<D>(rng, Mix::Ties);
        x[static_cast<size_t>(p)] = payloads[rng() % payloads.size()];
        const int64_t q = static_cast<int64_t>(rng() % static_cast<uint64_t>(rows * n));  // sometimes in the same row
        if (rng() % 2) x[static_cast<size_t>(q)] = payloads[rng() % payloads.size()];
        check_short_rows<D>(x.data(), rows, n, static_cast<int64_t>(rng() % static_cast<uint64_t>(n)), "NaN at " + std::to_string(p));
      }
    }
  }
}

// Whole slices of [length, inner] in one call (KernelSet::slices: side by side through the
// scratch when small, else a column call per slice): each output column against the trivial loop.
template <DType D>
void check_slices(const RawOf<D>* x, int64_t slices, int64_t length, int64_t inner, const std::string& what) {
  using R = RawOf<D>;
  INFO(name(D) << " " << slices << " slices of [" << length << ", " << inner << "], " << what);
  const int64_t outputs = slices * inner;
  std::vector<R> best(static_cast<size_t>(outputs)), column(static_cast<size_t>(length));
  std::vector<int32_t> index(static_cast<size_t>(outputs));
  const auto column_of = [&](int64_t out) {
    const int64_t s = out / inner, i = out % inner;
    for (int64_t j = 0; j < length; ++j) column[static_cast<size_t>(j)] = x[(s * length + j) * inner + i];
  };
  for (int kind = 0; kind < 2; ++kind)
    for (int last = 0; last < 2; ++last) {
      const ox::KernelSet k = kernels(kind ? PlanKind::ArgMin : PlanKind::ArgMax, D, last);
      fresh::poison(best.data(), best.size() * sizeof(R), index.data(), outputs);  // slices start fresh
      k.slices(x, slices, length, inner, best.data(), index.data());
      for (int64_t out = 0; out < outputs; ++out) {
        column_of(out);
        const int64_t want = trivial_arg<D>(column.data(), length, kind == 0, last);
        INFO("output " << out << (kind ? " ArgMin" : " ArgMax") << " select_last " << last);
        CHECK(index[static_cast<size_t>(out)] == want);
        CHECK(same_number<D>(best[static_cast<size_t>(out)], column[static_cast<size_t>(want)]));
      }
    }
  if constexpr (D != DType::Int16 && D != DType::Uint16) {
    const ox::KernelSet k = kernels(PlanKind::ReduceMax, D, false);
    k.fill_start(best.data(), outputs);
    k.slices(x, slices, length, inner, best.data(), nullptr);
    for (int64_t out = 0; out < outputs; ++out) {
      column_of(out);
      INFO("output " << out << " ReduceMax");
      CHECK(same_bits(best[static_cast<size_t>(out)], trivial_max<D>(column.data(), length)));
    }
  }
}

// Inner widths around the vector, lengths up to past both limits (in elements per slice), slice
// counts from the fewest that fill a tile to several blocks.
template <DType D>
void slice_checks() {
  using Z = ShortSizes<D>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 8191);
  std::vector<int64_t> inners;
  for (int64_t w : {int64_t{2}, int64_t{3}, Z::lanes - 1, Z::lanes, Z::lanes + 1, 2 * Z::lanes + 1})
    if (w >= 2 && std::find(inners.begin(), inners.end(), w) == inners.end()) inners.push_back(w);
  for (int64_t inner : inners) {
    std::vector<int64_t> lengths = {1, 2, 3, 5};
    for (int64_t limit : {Z::MaxShort::kMaxLength, Z::Short::kMaxLength})
      for (int64_t m : {limit / inner, limit / inner + 1})
        if (m > 5) lengths.push_back(m);
    for (int64_t length : lengths) {
      const int64_t fewest = (Z::tile + inner - 1) / inner;
      for (int64_t slices : {fewest, fewest + 1, 300 / inner + 7, 3000 / (length * inner) + 3}) {
        const Mix mix = static_cast<Mix>(rng() % 3);
        const int offset = static_cast<int>(rng() % 4);
        Shifted<RawOf<D>> buf(slices * length * inner, offset);
        fill_rows<D>(buf.data, slices * length, inner, rng, mix);
        check_slices<D>(buf.data, slices, length, inner, "offset " + std::to_string(offset) + " mix " + std::to_string(int(mix)));
      }
    }
  }
}

// Slices whose columns are narrower than a tile (kernels/short_rows.h SlicesAsRows: columns
// transposed into rows, a slice a scratch's worth of rows at a time, a last part reaching back
// over rows already done): every such width, lengths from just under the path's least (a vector)
// to several scratch passes with remainders, one slice to past a
// block of them, ties everywhere (the reaching back meets states it already holds), a few NaN or
// none, signed zeros.
template <DType D>
void slices_as_rows_checks() {
  using Z = ShortSizes<D>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 12289);
  const int64_t lanes = Z::lanes, scratch = 8192 / static_cast<int64_t>(sizeof(RawOf<D>));
  for (int64_t inner = 2; inner <= Z::tile; ++inner) {  // a whole tile: another path, for contrast
    const int64_t most = scratch / inner / lanes * lanes;  // rows of a slice per scratch pass
    const std::vector<int64_t> lengths = {lanes - 1,     lanes + 0,           lanes + 1,    2 * lanes + 1,
                                          5 * lanes + 3, most + lanes / 2 + 1, 2 * most + 3};
    for (int64_t length : lengths) {
      const int64_t rows_per_pass = std::min(most, std::max(lanes, length / lanes * lanes));
      const int64_t block = std::max<int64_t>(1, scratch / (inner * rows_per_pass));  // slices per pass
      for (int64_t slices : {int64_t{1}, int64_t{2}, block + 1}) {
        if (slices * length * inner > (1 << 16) && slices > 2) continue;  // the long ones: one and two slices
        const Mix mix = static_cast<Mix>(rng() % 3);
        const int offset = static_cast<int>(rng() % 4);
        const int64_t n = slices * length * inner;
        Shifted<RawOf<D>> buf(n, offset);
        for (int64_t i = 0; i < n; ++i) buf.data[i] = random_value<D>(rng, mix);
        if constexpr (has_nan<D>()) {
          const auto payloads = nans<D>();
          for (int64_t h = static_cast<int64_t>(rng() % 4); h > 0; --h)
            buf.data[rng() % static_cast<uint64_t>(n)] = payloads[rng() % payloads.size()];
        }
        if (rng() % 3 == 0 && (std::is_floating_point<RawOf<D>>::value || D == DType::Float16 || D == DType::BFloat16))
          for (int64_t i = 0; i < n; ++i) {
            const uint64_t u = rng() % 4;
            buf.data[i] = u == 0   ? from_double<D>(-0.0)
                          : u == 1 ? from_double<D>(0.0)
                                   : from_double<D>(-1.0 - double(u));
          }
        const std::string what = "offset " + std::to_string(offset) + " mix " + std::to_string(int(mix));
        check_slices<D>(buf.data, slices, length, inner, what);
      }
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("Slices of columns narrower than a tile run as rows and match the trivial loop",
                   "[simd][columns][short]", OX_SIMD_TEST_DTYPES) {
  simdtest::use_format_of<TestType::dtype>();
  slices_as_rows_checks<TestType::dtype>();
}

TEMPLATE_TEST_CASE("Many small slices of a strided axis go side by side and match the trivial loop",
                   "[simd][columns][short]", OX_SIMD_TEST_DTYPES) {
  simdtest::use_format_of<TestType::dtype>();
  slice_checks<TestType::dtype>();
}

TEMPLATE_TEST_CASE("Short rows run as columns and match the trivial loop", "[simd][rows][short]", OX_SIMD_TEST_DTYPES) {
  simdtest::use_format_of<TestType::dtype>();
  short_row_checks<TestType::dtype>();
  fast_whole_row_checks<TestType::dtype>();
  nan_pairs_in_a_row<TestType::dtype>();
  nan_at_every_position<TestType::dtype>();
}
