// The SIMD row kernels (reduced axis innermost) against the portable kernels and a trivial loop,
// for every dtype, ArgMax/ArgMin with both select_last values and ReduceMax: lengths around each
// vector, unroll and block size, misaligned starts, NaN in every position, signed zeros,
// infinities, type extremes, ties, and state carried across calls that split a row anywhere.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "kernels/arg_portable.h"
#include "kernels/arg_rows_simd.h"
#include "kernels/lanes.h"
#include "kernels/max_portable.h"
#include "fresh_state.h"
#include "simd_support.h"

using namespace simdtest;
using ox::Direction;
using ox::PlanKind;

namespace {

template <DType D>
struct Sizes {
  using L = typename ox::LanesFor<D>::type;
  static constexpr int64_t lanes = L::kLanes;
  static constexpr int64_t unrolled = L::kLanes * L::kUnroll;
  static constexpr int64_t block = ox::kRowBlockBytes / sizeof(RawOf<D>);

  // Lengths equal to, below, just above and multiples of the vector, unroll and block sizes.
  static std::vector<int64_t> lengths() {
    std::vector<int64_t> n;
    for (int64_t i = 1; i <= 2 * unrolled + lanes + 2; ++i) n.push_back(i);
    for (int64_t m : std::initializer_list<int64_t>{unrolled * 3, unrolled * 4, block / 2})
      for (int64_t d : std::initializer_list<int64_t>{-1, 0, 1}) n.push_back(m + d);
    for (int64_t m : std::initializer_list<int64_t>{block, 2 * block, 3 * block})
      for (int64_t d : std::initializer_list<int64_t>{-lanes - 1, -lanes, -1, 0, 1, lanes - 1, lanes, lanes + 1, unrolled + 3}) n.push_back(m + d);
    return n;
  }
};

template <DType D, Direction Dir, bool Last>
void portable_arg(const RawOf<D>* x, int64_t n, RawOf<D>* best, int32_t* index) {
  using Rule = ox::ArgRule<ox::Traits<D>, Dir, Last>;
  *best = Rule::identity();
  *index = 0;
  ox::arg_rows_portable<Rule>(x, 1, n, 0, best, index);
}
template <DType D>
void portable_arg(const RawOf<D>* x, int64_t n, bool max, bool last, RawOf<D>* best, int32_t* index) {
  if (max) return last ? portable_arg<D, Direction::Max, true>(x, n, best, index)
                       : portable_arg<D, Direction::Max, false>(x, n, best, index);
  return last ? portable_arg<D, Direction::Min, true>(x, n, best, index)
              : portable_arg<D, Direction::Min, false>(x, n, best, index);
}

// Random cut points in [1, n): the pieces a staging buffer may deliver.
std::vector<int64_t> cuts(int64_t n, std::mt19937_64& rng) {
  std::vector<int64_t> c = {0};
  const int pieces = static_cast<int>(rng() % 5);
  for (int p = 0; p < pieces && n > 1; ++p) c.push_back(1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(n - 1)));
  c.push_back(n);
  std::sort(c.begin(), c.end());
  return c;
}

// Every kind over one row: the registry's kernels (whole row, and split at random points with
// the state carried) against the portable kernels and the trivial loop.
template <DType D>
void check_row(const RawOf<D>* x, int64_t n, std::mt19937_64& rng, const std::string& what) {
  using R = RawOf<D>;
  INFO(name(D) << " length " << n << " " << what);
  const std::vector<int64_t> split = cuts(n, rng);
  for (int kind = 0; kind < 2; ++kind)
    for (int last = 0; last < 2; ++last) {
      const bool max = kind == 0;
      INFO((max ? "ArgMax" : "ArgMin") << " select_last " << last);
      const ox::KernelSet k = kernels(max ? PlanKind::ArgMax : PlanKind::ArgMin, D, last);
      R best, split_best, ref_best;
      int32_t index = 0, split_index = 0, ref_index = 0;
      fresh::poison(&best, sizeof best, &index, 1);  // runs from index 0 start fresh, unfilled
      k.rows(x, 1, n, 0, &best, &index);
      fresh::poison(&split_best, sizeof split_best, &split_index, 1);
      for (size_t p = 0; p + 1 < split.size(); ++p)
        k.rows(x + split[p], 1, split[p + 1] - split[p], split[p], &split_best, &split_index);
      portable_arg<D>(x, n, max, last, &ref_best, &ref_index);
      const int64_t trivial = trivial_arg<D>(x, n, max, last);
      CHECK(index == trivial);
      CHECK(index == ref_index);
      CHECK(split_index == trivial);
      CHECK(same_bits(best, ref_best));
      CHECK(same_bits(best, x[trivial]));
      CHECK(same_bits(split_best, ref_best));
    }
  if constexpr (D != DType::Int16 && D != DType::Uint16) {  // ReduceMax has no int16/uint16
    INFO("ReduceMax");
    const ox::KernelSet k = kernels(PlanKind::ReduceMax, D, false);
    R acc, split_acc, ref = ox::Traits<D>::lowest();
    k.fill_start(&acc, 1);
    k.rows(x, 1, n, 0, &acc, nullptr);
    k.fill_start(&split_acc, 1);
    for (size_t p = 0; p + 1 < split.size(); ++p)
      k.rows(x + split[p], 1, split[p + 1] - split[p], split[p], &split_acc, nullptr);
    ox::max_rows_portable<ox::Traits<D>>(x, 1, n, &ref);
    INFO("got " << bits_text(acc) << " split " << bits_text(split_acc) << " portable " << bits_text(ref));
    CHECK(same_bits(acc, ref));
    CHECK(same_bits(split_acc, ref));
    CHECK(same_bits(acc, trivial_max<D>(x, n)));
  }
}

template <DType D>
void fill(RawOf<D>* x, int64_t n, std::mt19937_64& rng, Mix mix) {
  for (int64_t i = 0; i < n; ++i) x[i] = random_value<D>(rng, mix);
}

// Lengths x offsets x value mixes, no NaN.
template <DType D>
void lengths_and_offsets() {
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 7919);
  for (int64_t n : Sizes<D>::lengths())
    for (int offset = 0; offset < 4; ++offset)
      for (Mix mix : {Mix::Ties, Mix::Specials, Mix::Wide}) {
        Shifted<RawOf<D>> buf(n, offset);
        fill<D>(buf.data, n, rng, mix);
        check_row<D>(buf.data, n, rng, "offset " + std::to_string(offset) + " mix " + std::to_string(int(mix)));
      }
}

// NaN at every lane of the first vectors, the last vectors, and around each block boundary;
// alone, with a second NaN later, and in rows whose other values tie.
template <DType D>
void nan_positions() {
  if constexpr (has_nan<D>()) {
    using Z = Sizes<D>;
    std::mt19937_64 rng(static_cast<uint64_t>(D) * 104729);
    const auto payloads = nans<D>();
    size_t payload = 0;
    for (int64_t n : {Z::lanes, Z::lanes + 1, Z::unrolled, Z::unrolled + Z::lanes + 3, Z::block, Z::block + 1,
                      Z::block + Z::lanes + 3, 2 * Z::block + Z::unrolled - 1}) {
      std::vector<int64_t> where;
      for (int64_t p = 0; p < std::min<int64_t>(n, 2 * Z::unrolled + 1); ++p) where.push_back(p);
      for (int64_t p = std::max<int64_t>(0, n - 2 * Z::lanes - 1); p < n; ++p) where.push_back(p);
      for (int64_t m = Z::block; m < n; m += Z::block)
        for (int64_t p = m - Z::lanes - 1; p <= m + Z::lanes; ++p)
          if (p >= 0 && p < n) where.push_back(p);
      for (int64_t p : where)
        for (int pair = 0; pair < 2; ++pair) {
          const int offset = static_cast<int>(rng() % 4);
          Shifted<RawOf<D>> buf(n, offset);
          fill<D>(buf.data, n, rng, pair ? Mix::Ties : Mix::Specials);
          buf.data[p] = payloads[payload++ % payloads.size()];
          std::string what = "NaN at " + std::to_string(p);
          if (pair && p + 1 < n) {
            const int64_t q = p + 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(n - p - 1));
            buf.data[q] = payloads[payload++ % payloads.size()];
            what += " and " + std::to_string(q);
          }
          check_row<D>(buf.data, n, rng, what);
        }
    }
  }
}

// Rows of one repeated value, of signed zeros, of infinities, of type extremes.
template <DType D>
void uniform_rows() {
  using R = RawOf<D>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 31337);
  std::vector<R> values = specials<D>();
  for (R v : nans<D>()) values.push_back(v);
  for (int64_t n : {int64_t{5}, Sizes<D>::unrolled + 1, Sizes<D>::block + 3}) {
    for (R v : values) {
      std::vector<R> x(static_cast<size_t>(n), v);
      check_row<D>(x.data(), n, rng, "all " + bits_text(v));
    }
    // Two values in random places: every pair of specials, e.g. -0 among +0, -inf among +inf.
    for (R a : values)
      for (R b : values) {
        std::vector<R> x(static_cast<size_t>(n));
        for (auto& e : x) e = rng() % 3 ? a : b;
        check_row<D>(x.data(), n, rng, "mix of " + bits_text(a) + " and " + bits_text(b));
      }
  }
  if constexpr (std::is_floating_point<R>::value || D == DType::Float16 || D == DType::BFloat16) {
    // Signed zeros with negative values only: the zero wins, and which zero decides the bits.
    for (int64_t n : {Sizes<D>::lanes * 2, Sizes<D>::block + 7})
      for (int rep = 0; rep < 20; ++rep) {
        std::vector<R> x(static_cast<size_t>(n));
        for (auto& e : x) {
          const uint64_t u = rng() % 8;
          e = u == 0 ? from_double<D>(-0.0) : u == 1 ? from_double<D>(0.0) : from_double<D>(-1.0 - double(u));
        }
        check_row<D>(x.data(), n, rng, "signed zeros");
      }
  }
}

// Monotone rows make every block a new winner (the rescan path on each block).
template <DType D>
void monotone_rows() {
  using R = RawOf<D>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 7);
  const int64_t n = 2 * Sizes<D>::block + 5;
  std::vector<R> up(static_cast<size_t>(n)), down(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    // Steps small enough for 8-bit types to saturate into ties, which is fine: still monotone.
    const double v = D == DType::Int8 || D == DType::Uint8 ? double(i / 40) : double(i) * 0.25;
    up[static_cast<size_t>(i)] = from_double<D>(D == DType::Int8 ? v - 100 : v);
    down[static_cast<size_t>(n - 1 - i)] = up[static_cast<size_t>(i)];
  }
  check_row<D>(up.data(), n, rng, "increasing");
  check_row<D>(down.data(), n, rng, "decreasing");
}

// The rescan of a winning block first picks the group of kUnroll vectors (or the tail group)
// whose stored lane-wise extreme holds the block's extreme, then searches that group: the
// extreme (and a tie of it) at the first and last lane of every group, in tails of every length.
template <DType D>
void extreme_in_every_group() {
  using R = RawOf<D>;
  using Z = Sizes<D>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 2741);
  std::vector<int64_t> lengths = {Z::block, Z::block - 1, 2 * Z::block + Z::unrolled / 2};
  for (int64_t t = 1; t <= Z::lanes + 1; ++t) lengths.push_back(3 * Z::unrolled + t);
  for (int64_t n : lengths) {
    // Every lane position in the groups near each block's ends; one of them, in turn, in the
    // groups between (the test is quadratic in the block: all of them took 30 s natively).
    std::vector<int64_t> where;
    const int64_t groups_per_block = Z::block / Z::unrolled;
    for (int64_t g = 0; g * Z::unrolled < n; ++g) {
      const int64_t in_block = g % groups_per_block;
      const bool near_end = in_block < 4 || in_block >= groups_per_block - 4;
      const int64_t d4[] = {0, Z::lanes - 1, Z::lanes, Z::unrolled - 1};
      for (int k = 0; k < 4; ++k)
        if (near_end || k == g % 4) where.push_back(g * Z::unrolled + d4[k]);
    }
    for (int64_t p = std::max<int64_t>(0, n - Z::lanes - 1); p < n; ++p) where.push_back(p);
    for (int64_t p : where) {
      if (p >= n) continue;
      for (int tie = 0; tie < 3; ++tie) {
        std::vector<R> x(static_cast<size_t>(n));
        R top = from_double<D>(D == DType::Uint8 ? 200.0 : 100.0), twin = top;
        if (tie == 2 && has_nan<D>()) {  // zeros among negatives: the twin is the other zero
          top = from_double<D>(-0.0), twin = from_double<D>(0.0);
          if (rng() % 2) std::swap(top, twin);
          for (auto& e : x) e = from_double<D>(-1.0 - static_cast<double>(rng() % 50));
        } else {
          if (tie == 2) top = twin = ox::Traits<D>::highest();
          for (auto& e : x) e = from_double<D>(static_cast<double>(rng() % 50) + (D == DType::Uint8 ? 0.0 : -25.0));
        }
        x[static_cast<size_t>(p)] = top;
        if (tie) {
          const int64_t q = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
          if (q != p) x[static_cast<size_t>(q)] = twin;
        }
        check_row<D>(x.data(), n, rng, "extreme at " + std::to_string(p) + " tie " + std::to_string(tie));
        // The minimum's turn: one low value at p.
        std::vector<R> y(static_cast<size_t>(n));
        for (auto& e : y) e = from_double<D>(static_cast<double>(rng() % 50) + 10.0);
        y[static_cast<size_t>(p)] = from_double<D>(1.0);
        check_row<D>(y.data(), n, rng, "low at " + std::to_string(p));
      }
    }
  }
}

// Several rows in one call, each continuing its own state.
// ArgMax and ArgMin, first and last index, over `rows` rows of n at x in one kernel call: each
// row's index against the trivial loop; and ReduceMax's maxima, bit for bit (its row kernel
// carries the raw pass's choice from row to row).
template <DType D>
void check_rows_per_call(const RawOf<D>* x, int64_t rows, int64_t n, const std::string& label) {
  if constexpr (D != DType::Int16 && D != DType::Uint16) {  // ReduceMax has no int16/uint16
    const ox::KernelSet k = kernels(PlanKind::ReduceMax, D, false);
    std::vector<RawOf<D>> acc(static_cast<size_t>(rows));
    k.fill_start(acc.data(), rows);
    k.rows(x, rows, n, 0, acc.data(), nullptr);
    for (int64_t r = 0; r < rows; ++r) {
      INFO(name(D) << " " << label << "ReduceMax row " << r << " of length " << n << " got "
                   << bits_text(acc[static_cast<size_t>(r)]));
      CHECK(same_bits(acc[static_cast<size_t>(r)], trivial_max<D>(x + r * n, n)));
    }
  }
  for (int kind = 0; kind < 2; ++kind)
    for (int last = 0; last < 2; ++last) {
      const ox::KernelSet k = kernels(kind ? PlanKind::ArgMin : PlanKind::ArgMax, D, last);
      std::vector<RawOf<D>> best(static_cast<size_t>(rows));
      std::vector<int32_t> index(static_cast<size_t>(rows), 0);
      fresh::poison(best.data(), best.size() * sizeof(RawOf<D>), index.data(), rows);
      k.rows(x, rows, n, 0, best.data(), index.data());
      for (int64_t r = 0; r < rows; ++r) {
        INFO(name(D) << " " << label << "row " << r << " of length " << n << " kind " << kind << " last " << last);
        CHECK(index[static_cast<size_t>(r)] == trivial_arg<D>(x + r * n, n, kind == 0, last));
      }
    }
}

template <DType D>
void many_rows_per_call() {
  using R = RawOf<D>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 99991);
  for (int64_t n : {int64_t{3}, Sizes<D>::lanes * 2, Sizes<D>::unrolled + 5, Sizes<D>::block + 1}) {
    const int64_t rows = 7;
    std::vector<R> x(static_cast<size_t>(rows * n));
    fill<D>(x.data(), rows * n, rng, Mix::Specials);
    if constexpr (has_nan<D>()) x[static_cast<size_t>(rng() % (rows * n))] = nans<D>()[0];
    check_rows_per_call<D>(x.data(), rows, n, "");
  }
}

// Blocks on one side of zero or the other (float32 and float16/bfloat16 first try the pass the
// last block chose: the raw pass that settles a positive max or a negative min, the other side's
// that settles an all-negative max or an all-non-negative min, or the full summary; one that
// fails is followed by the full one, which picks for the next block and row): each block of a row
// all negative, all positive, mixed, or signed zeros among negatives or positives, sometimes with
// a NaN of either sign; single long rows and many rows per call.
template <DType D>
void sign_regimes() {
  if constexpr (has_nan<D>()) {
    using R = RawOf<D>;
    using Z = Sizes<D>;
    std::mt19937_64 rng(static_cast<uint64_t>(D) * 6007);
    const auto payloads = nans<D>();
    uint64_t rare = 6;  // one zero in `rare` values: a few per group, or groups without one
    const auto value = [&](int regime) {
      const double m = 1.0 + static_cast<double>(rng() % 40);
      switch (regime) {
        case 0: return from_double<D>(-m);
        case 1: return from_double<D>(m);
        case 2: return from_double<D>(rng() % 2 ? m : -m);
        case 3: return rng() % rare ? from_double<D>(-m) : from_double<D>(rng() % 2 ? 0.0 : -0.0);
        default: return rng() % rare ? from_double<D>(m) : from_double<D>(rng() % 2 ? 0.0 : -0.0);
      }
    };
    // Each block's regime, block by block: a row of `blocks` blocks (+ a tail).
    const auto fill_row = [&](R* x, int64_t n, int64_t block) {
      for (int64_t s = 0; s < n; s += block) {
        const int regime = static_cast<int>(rng() % 5);
        rare = rng() % 2 ? 6 : 150;
        for (int64_t i = s; i < std::min(n, s + block); ++i) x[i] = value(regime);
        if (rng() % 5 == 0) {
          const R nan = payloads[rng() % payloads.size()];  // of either sign
          x[s + static_cast<int64_t>(rng() % static_cast<uint64_t>(std::min(block, n - s)))] = nan;
        }
      }
    };
    for (int rep = 0; rep < 40; ++rep) {
      const int64_t n = 5 * Z::block + static_cast<int64_t>(rng() % static_cast<uint64_t>(Z::block));
      std::vector<R> x(static_cast<size_t>(n));
      fill_row(x.data(), n, Z::block);
      check_row<D>(x.data(), n, rng, "sign regimes per block, rep " + std::to_string(rep));
    }
    for (int64_t n : {Z::unrolled + 3, Z::block / 2 + 1, Z::block}) {
      const int64_t rows = 24;
      std::vector<R> x(static_cast<size_t>(rows * n));
      for (int64_t r = 0; r < rows; ++r) fill_row(x.data() + r * n, n, n);
      check_rows_per_call<D>(x.data(), rows, n, "sign regimes, ");
    }
  }
}

// The first block's pass is a guess from a few vectors spread over it (RowScan::first_pass): rows
// that mislead it (all on one side of zero but one value on the other, anywhere in the first
// block, or only at the sampled vectors) and rows whose first values alone are masked to -inf or
// +inf (the rest mixed) must come out as any other row, under every rule.
template <DType D>
void first_pass_guesses() {
  if constexpr (has_nan<D>()) {
    using R = RawOf<D>;
    using Z = Sizes<D>;
    std::mt19937_64 rng(static_cast<uint64_t>(D) * 7919);
    const auto magnitude = [&] { return 1.0 + static_cast<double>(rng() % 40); };
    for (int64_t n : {Z::unrolled * 3 + 1, Z::block - 1, Z::block + Z::block / 2, 3 * Z::block + 7}) {
      const int64_t first_block = std::min(n, Z::block);
      std::vector<R> x(static_cast<size_t>(n));
      for (int rep = 0; rep < 24; ++rep) {
        const double side = rep % 2 ? 1.0 : -1.0;
        for (auto& e : x) e = from_double<D>(side * magnitude());
        // one value of the other side: anywhere in the first block, or at a vector a guess samples
        const int64_t last = first_block - Z::lanes;
        const int64_t at = rep % 4 < 2 ? static_cast<int64_t>(rng() % static_cast<uint64_t>(first_block))
                                       : last * static_cast<int64_t>(rng() % 16) / 15 + static_cast<int64_t>(rng() % Z::lanes);
        x[static_cast<size_t>(at)] = rep % 3 == 0 ? from_double<D>(side > 0 ? -0.0 : 0.0) : from_double<D>(-side * magnitude());
        check_row<D>(x.data(), n, rng, "one value across zero at " + std::to_string(at) + ", rep " + std::to_string(rep));
      }
      for (int64_t prefix : {Z::lanes, Z::unrolled, 64 + Z::lanes / 2}) {
        if (prefix >= n) continue;
        for (const double mask : {-INFINITY, INFINITY}) {
          for (auto& e : x) e = from_double<D>(rng() % 2 ? magnitude() : -magnitude());
          for (int64_t i = 0; i < prefix; ++i) x[static_cast<size_t>(i)] = from_double<D>(mask);
          check_row<D>(x.data(), n, rng, "first " + std::to_string(prefix) + " masked to " + std::to_string(mask));
        }
      }
    }
  }
}

template <DType D>
void all_row_checks() {
  lengths_and_offsets<D>();
  nan_positions<D>();
  uniform_rows<D>();
  monotone_rows<D>();
  extreme_in_every_group<D>();
  many_rows_per_call<D>();
  sign_regimes<D>();
  first_pass_guesses<D>();
}

}  // namespace

TEMPLATE_TEST_CASE("SIMD row kernels match the portable kernels and a trivial loop", "[simd][rows]",
                   OX_SIMD_TEST_DTYPES) {
  simdtest::use_format_of<TestType::dtype>();
  all_row_checks<TestType::dtype>();
}

TEST_CASE("SIMD ReduceMax rows over bool are uint8 max", "[simd][rows]") {
  std::mt19937_64 rng(5);
  for (int64_t n : {int64_t{1}, int64_t{15}, int64_t{16}, int64_t{17}, int64_t{4095}, int64_t{4096}, int64_t{4097}}) {
    for (int ones = 0; ones < 3; ++ones) {
      std::vector<uint8_t> x(static_cast<size_t>(n), 0);
      if (ones) x[static_cast<size_t>(ones == 1 ? n - 1 : rng() % n)] = 1;
      const ox::KernelSet k = kernels(PlanKind::ReduceMax, DType::Bool, false);
      uint8_t acc;
      k.fill_start(&acc, 1);
      k.rows(x.data(), 1, n, 0, &acc, nullptr);
      CHECK(acc == (ones ? 1 : 0));
    }
  }
}
