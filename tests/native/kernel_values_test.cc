// Every kernel with NaN (quiet, signalling, negative, payload), +-0, +-inf, ties, and the finite and
// integer extremes placed at every position that matters to a tiled kernel: first, last, each lane
// of a 16/32/64-element tile, the middle of a long run, block edges, the tail.
#include <catch2/catch.hpp>

#include <set>

#include "kernel_harness.h"

using ox::DType;
using tk::Case;

namespace {

// Positions worth a placement in a run of `length`: all of a short run; otherwise the lanes that
// start and end 16-, 32- and 64-element tiles at both ends of the run, the middle, and block edges.
std::vector<int64_t> positions(int64_t length) {
  std::set<int64_t> s;
  if (length <= 70) {
    for (int64_t p = 0; p < length; ++p) s.insert(p);
  } else {
    for (int64_t i : {0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65}) {
      s.insert(i);
      s.insert(length - 1 - i);
    }
    for (int64_t p : {length / 2 - 1, length / 2, length / 2 + 1}) s.insert(p);
    for (int64_t edge : {256, 1024, 2048, 4096, 8192, 16384, 32768, 65536})
      for (int64_t p : {edge - 1, edge, edge + 1})
        if (p < length) s.insert(p);
  }
  return std::vector<int64_t>(s.begin(), s.end());
}

// The values that decide most outcomes: a quiet, a negative and a signalling NaN, the infinities or
// integer limits, the finite extremes, -0; for 64-bit integers 2^53 + 1.
std::vector<uint64_t> core_specials(DType t) {
  std::vector<uint64_t> out;
  const std::vector<uint64_t> nans = tv::nan_patterns(t);
  if (!nans.empty()) out.insert(out.end(), {nans[0], nans[1], nans[2]});
  out.insert(out.end(), {tv::highest(t), tv::lowest(t)});
  if (tv::is_float(t)) out.insert(out.end(), {tv::highest_finite(t), tv::lowest_finite(t), ref::sign_bit(t)});
  if (t == DType::Int64 || t == DType::Uint64) out.push_back((uint64_t{1} << 53) + 1);
  return out;
}

using Placement = std::vector<std::pair<int64_t, uint64_t>>;

// Runs the placements as rows of one [placements, length] matrix over a shared base run, through
// the row family and (for shorter runs) the column family on its transpose.
void check_placements(const Case& c, const ox::KernelSet& k, int64_t length, const std::vector<Placement>& placements,
                      const std::vector<uint64_t>& base, const std::string& what) {
  const int64_t rows = static_cast<int64_t>(placements.size());
  if (rows == 0) return;
  std::vector<uint64_t> x;
  x.reserve(static_cast<size_t>(rows * length));
  for (const Placement& p : placements) {
    const size_t start = x.size();
    x.insert(x.end(), base.begin(), base.end());
    for (const auto& at : p) x[start + static_cast<size_t>(at.first)] = at.second;
  }
  const int shift = static_cast<int>(length % 4);
  {
    const tk::Outcome o = tk::run_rows(c, k, x, rows, length, shift, tk::whole(length));
    const std::string v = tk::verdict(c, tk::expected(c, x, rows, length, 1), o);
    INFO(c.name() << ", row family, runs of " << length << ": " << what);
    CHECK(v == "");
  }
  if (length <= 300) {
    const std::vector<uint64_t> t = tk::transpose(x, rows, length);
    const tk::Outcome o = tk::run_columns(c, k, t, length, rows, rows, 3 - shift, tk::whole(length), tk::whole(rows));
    const std::string v = tk::verdict(c, tk::expected(c, t, length, rows, 0), o);
    INFO(c.name() << ", column family, columns of " << length << ": " << what);
    CHECK(v == "");
  }
}

std::vector<uint64_t> inner_run(DType t, int64_t length, tv::Rng& rng) {
  std::vector<uint64_t> base(static_cast<size_t>(length));
  for (uint64_t& v : base) v = tv::inner_value(t, rng);
  return base;
}

// A partner position for a pair: mirrored, so first/last lanes and the tail meet.
int64_t partner(int64_t p, int64_t length) {
  const int64_t q = length - 1 - p;
  return q != p ? q : (p + 1) % length;
}

}  // namespace

TEST_CASE("kernels: every special value alone at every position of short runs") {
  tv::Rng rng(5005);
  for (const Case& c : tk::cases()) {
    const ox::KernelSet k = tk::kernels_for(c);
    for (int64_t length : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65}) {
      const std::vector<uint64_t> base = inner_run(c.dtype, length, rng);
      for (const tv::Special& s : tv::specials(c.dtype)) {
        std::vector<Placement> ps;
        for (int64_t p : positions(length)) ps.push_back({{p, s.bits}});
        check_placements(c, k, length, ps, base, s.name + " alone");
      }
    }
  }
}

TEST_CASE("kernels: ties and NaN pairs at every position of short runs") {
  tv::Rng rng(6006);
  for (const Case& c : tk::cases()) {
    const ox::KernelSet k = tk::kernels_for(c);
    for (int64_t length : {2, 3, 4, 5, 8, 9, 16, 17, 31, 32, 33, 63, 64, 65}) {
      const std::vector<uint64_t> base = inner_run(c.dtype, length, rng);
      for (uint64_t s : core_specials(c.dtype)) {
        std::vector<Placement> pairs;
        for (int64_t p : positions(length)) pairs.push_back({{p, s}, {partner(p, length), s}});
        check_placements(c, k, length, pairs, base, "a pair of " + tv::hex(s));
      }
      // NaN against an extreme, both orders (only floating types have a NaN).
      const std::vector<uint64_t> nans = tv::nan_patterns(c.dtype);
      if (nans.empty()) continue;
      for (uint64_t extreme : {tv::highest(c.dtype), tv::lowest(c.dtype)}) {
        std::vector<Placement> ps;
        for (int64_t p : positions(length))
          ps.push_back({{p, nans[static_cast<size_t>(p) % nans.size()]}, {partner(p, length), extreme}});
        check_placements(c, k, length, ps, base, "NaN against " + tv::hex(extreme));
      }
      // Two different NaNs: first or last wins by position, whatever their bits.
      std::vector<Placement> ps;
      for (int64_t p : positions(length)) ps.push_back({{p, nans[1]}, {partner(p, length), nans[2]}});
      check_placements(c, k, length, ps, base, "two NaNs");
    }
  }
}

TEST_CASE("kernels: decisive values placed at lanes, middles, block edges and tails of long runs") {
  tv::Rng rng(7007);
  for (const Case& c : tk::cases()) {
    const ox::KernelSet k = tk::kernels_for(c);
    const std::vector<uint64_t> nans = tv::nan_patterns(c.dtype);
    // A NaN (where the type has one), the largest and the smallest value: alone, and tied in pairs.
    std::vector<uint64_t> singles = {tv::highest(c.dtype), tv::lowest(c.dtype)};
    if (!nans.empty()) singles.insert(singles.begin(), nans[1]);
    if (tv::is_float(c.dtype)) singles.push_back(tv::highest_finite(c.dtype));
    if (c.dtype == DType::Int64 || c.dtype == DType::Uint64) singles.push_back((uint64_t{1} << 53) + 1);
    for (int64_t length : {127, 128, 129, 257, 1025, 4097}) {
      const std::vector<uint64_t> base = inner_run(c.dtype, length, rng);
      for (size_t v = 0; v < singles.size(); ++v) {
        std::vector<Placement> ps;
        for (int64_t p : positions(length)) {
          if (length > 1025 && p % 2) continue;
          ps.push_back({{p, singles[v]}});
          if (v < 2) ps.push_back({{p, singles[v]}, {partner(p, length), singles[v]}});
        }
        check_placements(c, k, length, ps, base, tv::hex(singles[v]) + " alone and in pairs");
      }
    }
    for (int64_t length : {16385, 65537}) {  // a few placements across block edges and in the tail
      const std::vector<uint64_t> base = inner_run(c.dtype, length, rng);
      const uint64_t s = singles.front();
      check_placements(c, k, length,
                       {{{length - 1, s}}, {{4096, s}, {length - 2, s}}, {{length / 2, s}, {16384, singles[1]}}},
                       base, "long runs");
    }
  }
}

TEST_CASE("kernels: all-NaN runs, all-equal runs and runs of zeros of both signs") {
  tv::Rng rng(8008);
  for (const Case& c : tk::cases()) {
    const ox::KernelSet k = tk::kernels_for(c);
    for (int64_t length : tk::tile_lengths(4097)) {
      if (length == 0) continue;
      std::vector<uint64_t> x;
      std::vector<std::string> kinds;
      const std::vector<uint64_t> nans = tv::nan_patterns(c.dtype);
      if (!nans.empty()) {  // all NaN, patterns mixed
        for (int64_t i = 0; i < length; ++i) x.push_back(nans[rng.below(nans.size())]);
        kinds.push_back("all NaN");
      }
      for (uint64_t v : {tv::highest(c.dtype), tv::lowest(c.dtype), tv::narrow_value(c.dtype, rng)}) {
        x.insert(x.end(), static_cast<size_t>(length), v);
        kinds.push_back("all " + tv::hex(v));
      }
      if (tv::is_float(c.dtype)) {  // zeros of random sign: all tied
        for (int64_t i = 0; i < length; ++i) x.push_back(rng.chance(50) ? 0 : ref::sign_bit(c.dtype));
        kinds.push_back("zeros of both signs");
      }
      const int64_t rows = static_cast<int64_t>(kinds.size());
      const tk::Outcome o = tk::run_rows(c, k, x, rows, length, static_cast<int>(length % 4), tk::whole(length));
      INFO(c.name() << ", runs of " << length);
      CHECK(tk::verdict(c, tk::expected(c, x, rows, length, 1), o) == "");
      for (int64_t r = 0; r < rows && c.arg(); ++r) {  // every element ties: the first or the last index
        INFO(kinds[static_cast<size_t>(r)]);
        CHECK(o.index[static_cast<size_t>(r)] == (c.last ? length - 1 : 0));
      }
      if (length <= 1025) {
        const std::vector<uint64_t> t = tk::transpose(x, rows, length);
        const tk::Outcome oc = tk::run_columns(c, k, t, length, rows, rows, 1, tk::whole(length), tk::whole(rows));
        CHECK(tk::verdict(c, tk::expected(c, t, length, rows, 0), oc) == "");
      }
    }
  }
}

TEST_CASE("kernels: +0 and -0 tie as maxima and as minima") {
  tv::Rng rng(9009);
  for (const Case& c : tk::cases()) {
    if (!tv::is_float(c.dtype)) continue;
    const ox::KernelSet k = tk::kernels_for(c);
    const uint64_t sign = ref::sign_bit(c.dtype);
    for (int64_t length : {2, 3, 16, 17, 33, 64, 65, 129, 1025}) {
      // Base values all negative (zeros are the maxima) or all positive (zeros are the minima).
      for (bool negative : {true, false}) {
        std::vector<uint64_t> base(static_cast<size_t>(length));
        for (uint64_t& v : base) {
          do v = tv::inner_value(c.dtype, rng); while (ref::decode(c.dtype, v).r == 0);
          v = negative ? (v | sign) : (v & ~sign);
        }
        std::vector<Placement> ps;
        for (int64_t p : positions(length)) {
          ps.push_back({{p, 0}, {partner(p, length), sign}});
          ps.push_back({{p, sign}, {partner(p, length), 0}});
        }
        check_placements(c, k, length, ps, base, negative ? "zeros above negatives" : "zeros below positives");
      }
    }
  }
}

namespace {

// One run through the row family; returns the index (arg kinds) or the value bits (ReduceMax).
uint64_t one_run(const Case& c, const std::vector<uint64_t>& x) {
  const ox::KernelSet k = tk::kernels_for(c);
  const int64_t n = static_cast<int64_t>(x.size());
  const tk::Outcome o = tk::run_rows(c, k, x, 1, n, 1, tk::whole(n));
  CHECK(tk::verdict(c, tk::expected(c, x, 1, n, 1), o) == "");
  return c.arg() ? static_cast<uint64_t>(o.index[0]) : o.best[0];
}

// `x` padded to `length` with copies of `filler` placed before it, so its values land in a tail.
std::vector<uint64_t> padded(std::vector<uint64_t> x, int64_t length, uint64_t filler) {
  std::vector<uint64_t> out(static_cast<size_t>(length) - x.size(), filler);
  out.insert(out.end(), x.begin(), x.end());
  return out;
}

}  // namespace

TEST_CASE("kernels: 64-bit integers are compared exactly") {
  const uint64_t p53 = uint64_t{1} << 53, p63 = uint64_t{1} << 63;
  for (int64_t length : {3, 17, 65, 129}) {
    INFO("run of " << length);
    const int64_t off = length - 3;  // the three values sit in the tail
    const uint64_t small = 5;
    // int64: 2^53 + 1 beats 2^53, which a trip through double would tie.
    const std::vector<uint64_t> near = padded({p53, p53 + 1, p53}, length, small);
    CHECK(one_run({ox::PlanKind::ArgMax, DType::Int64, false}, near) == static_cast<uint64_t>(off + 1));
    CHECK(one_run({ox::PlanKind::ArgMax, DType::Int64, true}, near) == static_cast<uint64_t>(off + 1));
    CHECK(one_run({ox::PlanKind::ReduceMax, DType::Int64, false}, near) == p53 + 1);
    CHECK(one_run({ox::PlanKind::ArgMin, DType::Int64, true}, padded({p53, p53 + 1, p53}, length, p53 + 7)) ==
          static_cast<uint64_t>(off + 2));
    // int64 limits: -2^63 is the minimum, 2^63 - 1 the maximum.
    const std::vector<uint64_t> limits = padded({p63 - 1, p63, p63 - 2}, length, small);
    CHECK(one_run({ox::PlanKind::ArgMax, DType::Int64, false}, limits) == static_cast<uint64_t>(off));
    CHECK(one_run({ox::PlanKind::ArgMin, DType::Int64, false}, limits) == static_cast<uint64_t>(off + 1));
    CHECK(one_run({ox::PlanKind::ReduceMax, DType::Int64, false}, limits) == p63 - 1);
    // uint64 above 2^63 is large, not negative.
    const std::vector<uint64_t> high = padded({p63 + 1, p63, ~uint64_t{0} - 1}, length, small);
    CHECK(one_run({ox::PlanKind::ArgMax, DType::Uint64, false}, high) == static_cast<uint64_t>(off + 2));
    CHECK(one_run({ox::PlanKind::ArgMin, DType::Uint64, false}, padded({p63 + 1, p63, ~uint64_t{0} - 1}, length, ~uint64_t{0})) ==
          static_cast<uint64_t>(off + 1));
    CHECK(one_run({ox::PlanKind::ReduceMax, DType::Uint64, false}, high) == ~uint64_t{0} - 1);
    CHECK(one_run({ox::PlanKind::ArgMin, DType::Uint64, false}, padded({p63 + 1, p63}, length, p63 + 9)) ==
          static_cast<uint64_t>(length - 1));
    // uint64 2^53 + 1 against 2^53.
    CHECK(one_run({ox::PlanKind::ArgMax, DType::Uint64, false}, padded({p53 + 1, p53}, length, 0)) ==
          static_cast<uint64_t>(length - 2));
    // uint32 and uint8 values with the top bit set are large.
    CHECK(one_run({ox::PlanKind::ArgMax, DType::Uint32, false}, padded({0x80000000u, 0x7FFFFFFFu}, length, 1)) ==
          static_cast<uint64_t>(length - 2));
    CHECK(one_run({ox::PlanKind::ArgMin, DType::Int8, false}, padded({0x80, 0x7F}, length, 1)) ==
          static_cast<uint64_t>(length - 2));
    CHECK(one_run({ox::PlanKind::ReduceMax, DType::Uint8, false}, padded({0x80, 0x7F}, length, 1)) == 0x80);
  }
}

TEST_CASE("kernels: float16 and bfloat16 NaN patterns, signalling ones included, are NaN") {
  struct Half {
    DType t;
    uint64_t inf, snan, neg_snan, neg_qnan, one, two;
  };
  for (const Half& h : {Half{DType::Float16, 0x7C00, 0x7C01, 0xFC01, 0xFE00, 0x3C00, 0x4000},
                        Half{DType::BFloat16, 0x7F80, 0x7F81, 0xFF81, 0xFFC0, 0x3F80, 0x4000}}) {
    INFO(ox::dtype_name(h.t));
    for (int64_t length : {4, 16, 33, 129}) {
      const int64_t off = length - 4;
      const std::vector<uint64_t> x = padded({h.inf, h.snan, h.two, h.neg_snan}, length, h.one);
      CHECK(one_run({ox::PlanKind::ArgMax, h.t, false}, x) == static_cast<uint64_t>(off + 1));
      CHECK(one_run({ox::PlanKind::ArgMax, h.t, true}, x) == static_cast<uint64_t>(off + 3));
      CHECK(one_run({ox::PlanKind::ArgMin, h.t, false}, x) == static_cast<uint64_t>(off + 1));
      CHECK(one_run({ox::PlanKind::Hardmax, h.t, false}, x) == static_cast<uint64_t>(off + 1));
      CHECK(ref::is_nan_bits(h.t, one_run({ox::PlanKind::ReduceMax, h.t, false}, x)));
      const std::vector<uint64_t> negative_nan = padded({h.inf, h.neg_qnan}, length, h.one);
      CHECK(one_run({ox::PlanKind::ArgMax, h.t, false}, negative_nan) == static_cast<uint64_t>(length - 1));
      CHECK(ref::is_nan_bits(h.t, one_run({ox::PlanKind::ReduceMax, h.t, false}, negative_nan)));
      // Without a NaN, +inf is the maximum and -inf (the sign bit on inf) the minimum.
      const std::vector<uint64_t> infs = padded({h.inf | 0x8000, h.inf, h.two}, length, h.one);
      CHECK(one_run({ox::PlanKind::ArgMax, h.t, false}, infs) == static_cast<uint64_t>(length - 2));
      CHECK(one_run({ox::PlanKind::ArgMin, h.t, false}, infs) == static_cast<uint64_t>(length - 3));
      CHECK(one_run({ox::PlanKind::ReduceMax, h.t, false}, infs) == h.inf);
    }
  }
}
