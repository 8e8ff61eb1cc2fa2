// The SIMD column kernels (the reduced axis has inner elements after it) against the portable
// kernels and a trivial per-column loop, for every dtype, ArgMax/ArgMin with both select_last
// values and ReduceMax: widths around each tile and register group, misaligned starts, row
// strides wider than the width, NaN in every lane and row position, signed zeros, infinities,
// type extremes, ties, and the state carried across calls split the way the chunk walker splits
// them (part of a row, whole rows).
#include <catch2/catch.hpp>

#include <algorithm>

#include "kernels/arg_columns_simd.h"
#include "kernels/arg_portable.h"
#include "kernels/lanes.h"
#include "kernels/max_portable.h"
#include "fresh_state.h"
#include "simd_support.h"

using namespace simdtest;
using ox::Direction;
using ox::PlanKind;

namespace {

template <DType D>
struct Tiles {
  using L = typename ox::LanesFor<D>::type;
  using Rule = ox::ArgRule<ox::Traits<D>, Direction::Max, false>;
  static constexpr int64_t tile = ox::ColumnScan<L, Rule, true>::kTile;
  static constexpr int64_t group = tile * ox::ColumnScan<L, Rule, true>::kGroup;
  static constexpr int64_t max_group = tile * ox::ColumnScan<L, Rule, false>::kGroup;

  static std::vector<int64_t> widths() {
    std::vector<int64_t> w;
    const int64_t top = std::max(group, max_group) * 2 + tile + 2;
    for (int64_t i = 1; i <= top; ++i) w.push_back(i);
    for (int64_t i : {top + 29, 4 * top + 1}) w.push_back(i);
    return w;
  }
};

template <DType D, Direction Dir, bool Last>
void portable_arg(const RawOf<D>* x, int64_t rows, int64_t width, int64_t stride, RawOf<D>* best, int32_t* index) {
  using Rule = ox::ArgRule<ox::Traits<D>, Dir, Last>;
  for (int64_t j = 0; j < width; ++j) best[j] = Rule::identity(), index[j] = 0;
  ox::arg_columns_portable<Rule>(x, rows, width, stride, 0, best, index);
}
template <DType D>
void portable_arg(const RawOf<D>* x, int64_t rows, int64_t width, int64_t stride, bool max, bool last,
                  RawOf<D>* best, int32_t* index) {
  if (max) return last ? portable_arg<D, Direction::Max, true>(x, rows, width, stride, best, index)
                       : portable_arg<D, Direction::Max, false>(x, rows, width, stride, best, index);
  return last ? portable_arg<D, Direction::Min, true>(x, rows, width, stride, best, index)
              : portable_arg<D, Direction::Min, false>(x, rows, width, stride, best, index);
}

// Feeds the rows x width grid in row-major chunks of random sizes, calling the column kernel as
// the execution walker does: part of one row (rows = 1, a column offset), or whole rows.
template <class R>
void walk_chunks(const ox::KernelSet& k, const R* x, int64_t rows, int64_t width, int64_t stride, R* best,
                 int32_t* index, std::mt19937_64& rng) {
  int64_t position = 0;
  const int64_t total = rows * width;
  while (position < total) {
    const int64_t chunk = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * width + 3));
    const int64_t r = position / width, i = position % width;
    int64_t take;
    if (i != 0 || chunk < width) {
      take = std::min(chunk, width - i);
      k.columns(x + r * stride + i, 1, take, stride, r, best + i, index ? index + i : nullptr);
    } else {
      const int64_t whole = std::min(chunk / width, rows - r);
      take = whole * width;
      k.columns(x + r * stride, whole, width, stride, r, best, index);
    }
    position += take;
  }
}

template <DType D>
void check_grid(const RawOf<D>* x, int64_t rows, int64_t width, int64_t stride, std::mt19937_64& rng,
                const std::string& what) {
  using R = RawOf<D>;
  INFO(name(D) << " rows " << rows << " width " << width << " stride " << stride << " " << what);
  const size_t w = static_cast<size_t>(width);
  std::vector<R> column(static_cast<size_t>(rows));
  for (int kind = 0; kind < 2; ++kind)
    for (int last = 0; last < 2; ++last) {
      const bool max = kind == 0;
      INFO((max ? "ArgMax" : "ArgMin") << " select_last " << last);
      const ox::KernelSet k = kernels(max ? PlanKind::ArgMax : PlanKind::ArgMin, D, last);
      std::vector<R> best(w), split_best(w), ref_best(w);
      std::vector<int32_t> index(w, 0), split_index(w, 0), ref_index(w, 0);
      fresh::poison(best.data(), w * sizeof(R), index.data(), width);  // calls from row 0 start fresh, unfilled
      k.columns(x, rows, width, stride, 0, best.data(), index.data());
      fresh::poison(split_best.data(), w * sizeof(R), split_index.data(), width);
      walk_chunks(k, x, rows, width, stride, split_best.data(), split_index.data(), rng);
      portable_arg<D>(x, rows, width, stride, max, last, ref_best.data(), ref_index.data());
      for (int64_t j = 0; j < width; ++j) {
        for (int64_t r = 0; r < rows; ++r) column[static_cast<size_t>(r)] = x[r * stride + j];
        const int64_t trivial = trivial_arg<D>(column.data(), rows, max, last);
        const size_t s = static_cast<size_t>(j);
        INFO("column " << j);
        CHECK(index[s] == trivial);
        CHECK(index[s] == ref_index[s]);
        CHECK(split_index[s] == trivial);
        CHECK(same_number<D>(best[s], ref_best[s]));
        CHECK(same_number<D>(best[s], column[static_cast<size_t>(trivial)]));
        CHECK(same_number<D>(split_best[s], ref_best[s]));
      }
    }
  if constexpr (D != DType::Int16 && D != DType::Uint16) {
    INFO("ReduceMax");
    const ox::KernelSet k = kernels(PlanKind::ReduceMax, D, false);
    std::vector<R> acc(w), split_acc(w), ref(w, ox::Traits<D>::lowest());
    k.fill_start(acc.data(), width);
    k.columns(x, rows, width, stride, 0, acc.data(), nullptr);
    k.fill_start(split_acc.data(), width);
    walk_chunks<R>(k, x, rows, width, stride, split_acc.data(), nullptr, rng);
    ox::max_columns_portable<ox::Traits<D>>(x, rows, width, stride, ref.data());
    for (int64_t j = 0; j < width; ++j) {
      for (int64_t r = 0; r < rows; ++r) column[static_cast<size_t>(r)] = x[r * stride + j];
      const size_t s = static_cast<size_t>(j);
      INFO("column " << j << " got " << bits_text(acc[s]) << " portable " << bits_text(ref[s]));
      CHECK(same_bits(acc[s], ref[s]));
      CHECK(same_bits(split_acc[s], ref[s]));
      CHECK(same_bits(acc[s], trivial_max<D>(column.data(), rows)));
    }
  }
}

template <DType D>
void widths_rows_offsets() {
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 6151);
  for (int64_t width : Tiles<D>::widths())
    for (int64_t rows : {1, 2, 3, 7})
      for (int offset = 0; offset < 4; ++offset) {
        const Mix mix = static_cast<Mix>((width + rows + offset) % 3);
        const int64_t stride = width + (offset == 3 ? 5 : 0);
        Shifted<RawOf<D>> buf(rows * stride, offset);
        for (int64_t e = 0; e < rows * stride; ++e) buf.data[e] = random_value<D>(rng, mix);
        check_grid<D>(buf.data, rows, width, stride, rng, "offset " + std::to_string(offset));
      }
}

// Input beyond the cache threshold with more rows than one pass: the cache-blocked walk (column
// blocks, a few rows per pass), with NaN in some columns.
template <DType D>
void cache_blocked() {
  using L = typename ox::LanesFor<D>::type;
  using Arg = ox::ColumnScan<L, ox::ArgRule<ox::Traits<D>, Direction::Max, false>, true>;
  using Max = ox::ColumnScan<L, ox::ArgRule<ox::Traits<D>, Direction::Max, false>, false>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 977);
  for (int64_t block : {Arg::kBlockColumns, Max::kBlockColumns})
    for (int64_t width : {block + 1, 2 * block + Tiles<D>::tile - 1})
      for (int64_t extra : {1, 3}) {
        const int64_t rows = std::max<int64_t>(Arg::kCachedBytes / (width * static_cast<int64_t>(sizeof(RawOf<D>))),
                                               Arg::kRowsPerPass) + extra;
        Shifted<RawOf<D>> buf(rows * width, 1);
        for (int64_t e = 0; e < rows * width; ++e) buf.data[e] = random_value<D>(rng, static_cast<Mix>(e % 3));
        if constexpr (has_nan<D>())
          for (int n = 0; n < 5; ++n) buf.data[rng() % static_cast<uint64_t>(rows * width)] = nans<D>()[n % nans<D>().size()];
        check_grid<D>(buf.data, rows, width, width, rng, "cache-blocked");
      }
  // Row counts whose last pass is short (8 a pass for the arg kinds of 4- and 8-byte lanes: 43 ends
  // with 3 rows, 50 with 2, 57 with 1; 4 a pass for ReduceMax but float64's: 3, 2, 1), beyond the
  // cache there.
  for (int64_t rows : {43, 50, 57}) {
    const int64_t width = Arg::kBlockColumns + 1;
    Shifted<RawOf<D>> buf(rows * width, 1);
    for (int64_t e = 0; e < rows * width; ++e) buf.data[e] = random_value<D>(rng, static_cast<Mix>(e % 3));
    if constexpr (has_nan<D>()) buf.data[rng() % static_cast<uint64_t>(rows * width)] = nans<D>()[0];
    check_grid<D>(buf.data, rows, width, width, rng, "cache-blocked, a short last pass");
  }
}

// Rows a multiple of 4 KiB apart in a staged-size call: ReduceMax walks them blocked (8 rows a
// pass, split evenly) where they start off a cache line or hold integers or 16-bit floats, else
// (float32, float64) sweeps; rows on and off a line, rows just past a pass and many passes, widths narrower than the
// stride, NaN, signed zeros and the state carried across calls.
template <DType D>
void aliasing_strides() {
  using L = typename ox::LanesFor<D>::type;
  using Max = ox::ColumnScan<L, ox::ArgRule<ox::Traits<D>, Direction::Max, false>, false>;
  using R = RawOf<D>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 7919);
  const int64_t page = ox::kL1SetSpanBytes / static_cast<int64_t>(sizeof(R));
  const int64_t line = ox::kL1LineBytes / static_cast<int64_t>(sizeof(R));
  for (int64_t stride : {page, 2 * page})
    for (int64_t width : {stride, Tiles<D>::group + Tiles<D>::tile + 1})
      for (int64_t rows : {Max::kAliasingRowsPerPass + 1, 4 * Max::kAliasingRowsPerPass + 3})
        for (int64_t shift : {int64_t{0}, int64_t{1}}) {  // rows on a line, and one element off
          std::vector<R> storage(static_cast<size_t>(rows * stride + 2 * line));
          const uintptr_t at = reinterpret_cast<uintptr_t>(storage.data());
          R* x = storage.data() + (ox::kL1LineBytes - at % ox::kL1LineBytes) % ox::kL1LineBytes / sizeof(R) + shift;
          REQUIRE(reinterpret_cast<uintptr_t>(x) % ox::kL1LineBytes == static_cast<uintptr_t>(shift) * sizeof(R));
          if (shift == 1) REQUIRE(Max::blocked_in_cache(x, stride));  // off a line: always blocked
          for (int64_t e = 0; e < rows * stride; ++e) x[e] = random_value<D>(rng, static_cast<Mix>(e % 3));
          if constexpr (has_nan<D>())
            for (int n = 0; n < 4; ++n) x[rng() % static_cast<uint64_t>(rows * stride)] = nans<D>()[n % nans<D>().size()];
          check_grid<D>(x, rows, width, stride, rng, "aliasing rows, shift " + std::to_string(shift));
        }
}

// A call of more rows than one register pass tracks for 1- and 2-byte lanes (kPassRows: 254,
// 65534), whose relative rows would overflow their lane: every column holds a unique maximum and
// a unique minimum, each at a row around the end of a pass (the seeded first pass, the unseeded
// second, or the same rows one further, where a limit one or two too large would wrap).
template <DType D>
std::vector<RawOf<D>> pass_boundary_grid(int64_t pass_rows, int64_t rows, int64_t width, std::mt19937_64& rng) {
  std::vector<int64_t> at;
  for (int64_t end : {pass_rows, 2 * pass_rows})
    for (int64_t d = -2; d <= 3; ++d)
      if (end + d < rows) at.push_back(end + d);
  at.push_back(rows - 1);
  std::vector<RawOf<D>> x(static_cast<size_t>(rows * width));
  for (auto& e : x) e = from_double<D>(static_cast<double>(1 + rng() % 5));  // ties in 1..5
  for (int64_t j = 0; j < width; ++j) {
    const size_t n = at.size();
    x[static_cast<size_t>(at[static_cast<size_t>(j) % n] * width + j)] = from_double<D>(7);
    x[static_cast<size_t>(at[(static_cast<size_t>(j) + n / 2) % n] * width + j)] = from_double<D>(0);
  }
  return x;
}

// The column sweep itself, one call from row 0 and one from row 1 (every pass unseeded): the
// registry's column kernel splits inputs past 256 KiB into passes of 16 rows, so for 2-byte lanes
// only a direct call reaches a pass limit of 65534.
template <DType D, Direction Dir, bool Last>
void check_long_sweep(const RawOf<D>* x, int64_t rows, int64_t width) {
  using Arg = ox::ColumnScan<typename ox::LanesFor<D>::type, ox::ArgRule<ox::Traits<D>, Dir, Last>, true>;
  const bool max = Dir == Direction::Max;
  INFO(name(D) << (max ? " ArgMax" : " ArgMin") << " select_last " << Last << " rows " << rows << " width " << width);
  const size_t w = static_cast<size_t>(width);
  std::vector<RawOf<D>> best(w), column(static_cast<size_t>(rows));
  std::vector<int32_t> index(w);
  for (int64_t split : {int64_t{0}, int64_t{1}}) {
    INFO("first call's rows " << split);
    fresh::poison(best.data(), w * sizeof(RawOf<D>), index.data(), width);
    typename Arg::Hint hint;
    if (split > 0) Arg::sweep(x, split, width, width, 0, best.data(), index.data(), &hint);
    Arg::sweep(x + split * width, rows - split, width, width, split, best.data(), index.data(), &hint);
    for (int64_t j = 0; j < width; ++j) {
      for (int64_t r = 0; r < rows; ++r) column[static_cast<size_t>(r)] = x[r * width + j];
      INFO("column " << j);
      CHECK(index[static_cast<size_t>(j)] == trivial_arg<D>(column.data(), rows, max, Last));
    }
  }
}

template <DType D>
void long_columns() {
  using Arg = ox::ColumnScan<typename ox::LanesFor<D>::type, ox::ArgRule<ox::Traits<D>, Direction::Max, false>, true>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 1009);
  if constexpr (Arg::kRelative) {
    const int64_t rows = 2 * Arg::kPassRows + 8;
    const int64_t width = Tiles<D>::group + Tiles<D>::tile + 1;  // a register group, a tile, an overlapping tile
    const std::vector<RawOf<D>> x = pass_boundary_grid<D>(Arg::kPassRows, rows, width, rng);
    check_long_sweep<D, Direction::Max, false>(x.data(), rows, width);
    check_long_sweep<D, Direction::Max, true>(x.data(), rows, width);
    check_long_sweep<D, Direction::Min, false>(x.data(), rows, width);
    check_long_sweep<D, Direction::Min, true>(x.data(), rows, width);
    // Through the registry too, where 1-byte inputs stay in cache (one sweep) or, wide enough,
    // are cache-blocked.
    if constexpr (sizeof(RawOf<D>) == 1)
      for (int64_t wide : {width, Arg::kBlockColumns + 1}) {
        const std::vector<RawOf<D>> g = pass_boundary_grid<D>(Arg::kPassRows, rows, wide, rng);
        check_grid<D>(g.data(), rows, wide, wide, rng, "long columns");
      }
  } else {  // absolute rows: no pass limit, just long columns
    const int64_t rows = 300, width = Tiles<D>::tile + 1;
    const std::vector<RawOf<D>> g = pass_boundary_grid<D>(rows / 3, rows, width, rng);
    check_grid<D>(g.data(), rows, width, width, rng, "long columns");
  }
}

// NaN in every lane of the first tiles and of the overlapping last tile, in the first, a middle
// and the last row; alone, and with a second NaN lower in the same column.
template <DType D>
void nan_positions() {
  if constexpr (has_nan<D>()) {
    std::mt19937_64 rng(static_cast<uint64_t>(D) * 3571);
    const auto payloads = nans<D>();
    size_t payload = 0;
    const int64_t rows = 5;
    for (int64_t width : {Tiles<D>::tile, Tiles<D>::tile + 3, Tiles<D>::group + Tiles<D>::tile + 1}) {
      for (int64_t col = 0; col < width; ++col)
        for (int64_t row : {int64_t{0}, int64_t{2}, rows - 1})
          for (int pair = 0; pair < 2; ++pair) {
            const int offset = static_cast<int>(rng() % 4);
            Shifted<RawOf<D>> buf(rows * width, offset);
            for (int64_t e = 0; e < rows * width; ++e) buf.data[e] = random_value<D>(rng, pair ? Mix::Ties : Mix::Specials);
            buf.data[row * width + col] = payloads[payload++ % payloads.size()];
            if (pair && row + 1 < rows) buf.data[(rows - 1) * width + col] = payloads[payload++ % payloads.size()];
            check_grid<D>(buf.data, rows, width, width, rng,
                          "NaN at row " + std::to_string(row) + " column " + std::to_string(col) + (pair ? " (+ last row)" : ""));
          }
    }
  }
}

// Columns of one repeated value and of two specials in random places (signed zeros, infinities,
// extremes, NaN payloads).
template <DType D>
void uniform_columns() {
  using R = RawOf<D>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 421);
  std::vector<R> values = specials<D>();
  for (R v : nans<D>()) values.push_back(v);
  const int64_t rows = 6, width = Tiles<D>::group + 3;
  for (R a : values)
    for (R b : values) {
      std::vector<R> x(static_cast<size_t>(rows * width));
      for (auto& e : x) e = rng() % 3 ? a : b;
      check_grid<D>(x.data(), rows, width, width, rng, "mix of " + bits_text(a) + " and " + bits_text(b));
    }
}

// Columns whose result lies on either side of zero, is a zero of either sign reached in either
// order, or is a NaN of either sign, mixed within a tile and across the groups of a wide call:
// the float16/bfloat16 raw way (exact only for results on one side of zero, and skipped for a
// while after it fails), the key ways, and the ReduceMax summary pass that doubts the sign of a
// zero.
template <DType D>
void sides_and_zeros() {
  using R = RawOf<D>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 5039);
  const auto payloads = nans<D>();
  const R pz = from_double<D>(0.0), nz = has_nan<D>() ? from_double<D>(-0.0) : pz;
  auto value = [&](int kind, int64_t r) -> R {
    const double mag = 1.0 + static_cast<double>(rng() % 20);
    switch (kind) {
      case 0: return from_double<D>(mag);                               // positive column
      case 1: return from_double<D>(-mag);                              // negative column
      case 2: return from_double<D>(rng() % 2 ? mag : -mag);            // both signs
      case 3: return rng() % 3 ? from_double<D>(-mag) : (rng() % 2 ? pz : nz);  // zeros, negatives
      case 4: return rng() % 3 ? from_double<D>(mag) : (rng() % 2 ? pz : nz);   // zeros, positives
      default: return r % 2 ? nz : pz;                                   // zeros alternating
    }
  };
  for (int64_t rows : {int64_t{4}, int64_t{7}, int64_t{21}})
    for (int trial = 0; trial < 12; ++trial) {
      const int64_t width = trial < 6 ? Tiles<D>::group + Tiles<D>::tile + 1 : 40 * Tiles<D>::group + 3;
      std::vector<int> kind(static_cast<size_t>(width));
      for (int64_t j = 0; j < width; ++j)  // wide calls: runs of one kind, so whole groups agree
        kind[static_cast<size_t>(j)] = trial < 6 ? static_cast<int>(rng() % 6) : static_cast<int>((j / (5 * Tiles<D>::group) + trial) % 6);
      std::vector<R> x(static_cast<size_t>(rows * width));
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < width; ++j) x[static_cast<size_t>(r * width + j)] = value(kind[static_cast<size_t>(j)], r + j);
      if (has_nan<D>() && trial % 3 == 2)  // a NaN of either sign in a few columns
        for (int n = 0; n < 3; ++n)
          x[static_cast<size_t>(rng() % static_cast<uint64_t>(rows * width))] = payloads[rng() % payloads.size()];
      check_grid<D>(x.data(), rows, width, width, rng, "sides, trial " + std::to_string(trial));
    }
}

}  // namespace

TEMPLATE_TEST_CASE("SIMD column kernels match the portable kernels and a trivial loop", "[simd][columns]",
                   OX_SIMD_TEST_DTYPES) {
  simdtest::use_format_of<TestType::dtype>();
  widths_rows_offsets<TestType::dtype>();
  nan_positions<TestType::dtype>();
  uniform_columns<TestType::dtype>();
  cache_blocked<TestType::dtype>();
  aliasing_strides<TestType::dtype>();
  long_columns<TestType::dtype>();
  sides_and_zeros<TestType::dtype>();
}

TEST_CASE("SIMD ReduceMax columns over bool are uint8 max", "[simd][columns]") {
  const ox::KernelSet k = kernels(PlanKind::ReduceMax, DType::Bool, false);
  for (int64_t width : {int64_t{15}, int64_t{16}, int64_t{17}, int64_t{40}}) {
    const int64_t rows = 3;
    std::vector<uint8_t> x(static_cast<size_t>(rows * width), 0);
    for (int64_t j = 0; j < width; j += 3) x[static_cast<size_t>((j % rows) * width + j)] = 1;
    std::vector<uint8_t> acc(static_cast<size_t>(width));
    k.fill_start(acc.data(), width);
    k.columns(x.data(), rows, width, width, 0, acc.data(), nullptr);
    for (int64_t j = 0; j < width; ++j) CHECK(acc[static_cast<size_t>(j)] == (j % 3 == 0 ? 1 : 0));
  }
}
