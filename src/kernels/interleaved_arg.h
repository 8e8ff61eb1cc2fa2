// ArgMax / ArgMin (first-index rule) over slices of [reduce, W], W 3 to 8 columns ([N, 256, 3] over
// axis 1: the best of 256 rows for each of x, y, z), for 4- and 8-byte values, each slice starting
// its states. A slice is one contiguous run in which each column's elements sit at fixed lanes of
// every period of W vectors (InterleavedMax's layout), so it is read once, straight: each vector
// of the period keeps a running extreme and, beside it, the period where a lane last improved
// (rows only grow, so that is a max of the period number and the compare's mask: two ops). The
// period's W * lanes candidates then fold into the W columns' states (InterleavedArgFold: period
// p's lane q * W + c is row p * lanes + q of column c), and the rows after the last whole period
// go to the column entry, continuing those states. Where the paths before paid per slice for a
// transposition into rows and the row kernels' setup (SlicesAsRows), or a virtual-row column call
// and its merge (the narrow path), this is one pass.
// A long run of such rows ([131072, 7] over axis 0) goes the same way chunk by chunk through the
// column entry, each chunk's candidates merged into the states the chunk before left.
// The float passes over runs of 256 periods and more mark blocks of periods instead of periods
// (InterleavedArgPass::blocked), a max alone a vector in the loop.
// A float slice that may hold a NaN (a running sum turned NaN; or +inf met -inf, a false alarm)
// goes the other paths (registry.cc: column_slices), and so do the next few slices.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/lanes.h"
#include "kernels/simd.h"
#include "kernels/traits.h"

namespace ox {

// Vectors [k0, k0 + G) of `periods` periods of `period` elements at x: each lane's extreme
// (values + k * lanes) and the first period holding it (numbers + k * lanes, in lanes as wide as
// the values, for InterleavedArgFold). False where a float
// lane may have met a NaN: FloatLanes' detector, a running sum, kept once for the pass rather
// than beside each extreme as its Summary does (G more registers; V8 spilled five vectors' worth).
// The float passes over runs of 256 periods and more go by blocks instead (blocked).
// Out of line: one copy per value type, direction and G, whatever W.
template <class Raw, Direction D, int G>
struct InterleavedArgPass {
  using V = simd::Vec<Raw>;
  using I32 = simd::I32;
  static constexpr int kLanes = simd::kBytes / sizeof(Raw);
  static constexpr bool kFloat = std::is_floating_point<Raw>::value;
  // int64's update is a compare and a three-op select, each op 2 cycles of latency on the Zen 5
  // hosts here: a chain of 6 cycles a period (a float's pmax: 2).
  static constexpr bool kPairs = std::is_same<Raw, int64_t>::value;

  using N = typename simd::SignedOf<sizeof(Raw)>::type;

  // Periods a block (1: the run goes period by period). The marks cost about G * 4 ops a block and
  // the search about `block` / 2 periods a lane, so the block grows with the run (kernel in cache
  // against period by period, float32 slices of [1024, 3]: blocks of 4 1.13x, 8 1.21x, 16 1.14x;
  // of [4096, 3]: 16 1.36x, 32 1.32x). Blocks of 2 and 3 ran 0.66x (V8 spills the extremes
  // around the loop of a block's periods). From 256 periods: end to end, runs of 128 periods by
  // blocks of 4 had run 0.94-0.95x (float32 [820, 512, 5], [585, 512, 7], [1366, 512, 3]; float64
  // [1366, 256, 3] 0.97x), though 1.03-1.20x in cache; float64 from 256 periods 1.04-1.12x end to
  // end ([683, 512, 3], [410, 512, 5], [341, 512, 6], [293, 512, 7], [131072, 7] over axis 0).
  // The passes of two too since the ninety-seventh session (225 bytes gzipped): end to end into
  // { out } over axis 0, float64 [131072, 7] 1.12-1.15x, [131072, 5] 1.07-1.14x, float32
  // [131072, 5] 1.13x, [131072, 7] 1.13-1.14x; over axis 1, float64 [410, 512, 5] 1.05-1.07x,
  // [64, 2048, 7] 1.13-1.14x, [293, 512, 7] 1.02-1.04x; widths 3 and 6 (passes of three) level.
  // Floats only: int32's copies did not fit the gzipped module's budget (int64 steps by pairs).
  static constexpr bool kBlocks = kFloat;
  static int64_t block_periods(int64_t periods) {
    return kBlocks && periods >= 256 ? std::min<int64_t>(32, periods / 32) : 1;
  }

  __attribute__((noinline)) static bool run(const Raw* x, int64_t periods, ptrdiff_t period, int k0, Raw* values,
                                            N* numbers) {
    if constexpr (kBlocks) {
      const int64_t block = block_periods(periods);
      if (block > 1) return blocked(x + k0 * kLanes, periods, period, block, values + k0 * kLanes, numbers + k0 * kLanes);
    }
    x += k0 * kLanes;
    V e[G], sum{};
    I32 r[G];
    for (int k = 0; k < G; ++k) e[k] = simd::load(x + k * kLanes), r[k] = I32{};
    if constexpr (kFloat) {
      sum = e[0];
      for (int k = 1; k < G; ++k) sum += e[k];
    }
    I32 number{};
    const I32 one = simd::opaque(simd::splat(1));
    const Raw* at = x;
    int64_t p = 1;
    if constexpr (kPairs) {
      // Two periods a step: the better of the pair first (the earlier on a tie), then against the
      // running extreme, so its chain takes one compare and select per two periods.
#pragma GCC unroll 1
      for (; p + 1 < periods; p += 2) {
        const I32 next = number + one;
        for (int k = 0; k < G; ++k) {
          const V a = simd::load(at + period + k * kLanes), b = simd::load(at + 2 * period + k * kLanes);
          const auto later = vbeats<D, false>(b, a);
          const V t = simd::select(later, b, a);
          const I32 from = next + (simd::bits<I32>(later) & one);
          const I32 m = simd::opaque(simd::bits<I32>(vbeats<D, false>(t, e[k])));
          e[k] = simd::select(m, t, e[k]);
          r[k] = vmax(r[k], from & m);
        }
        at += 2 * period, number = next + one;
      }
    }
#pragma GCC unroll 1
    for (; p < periods; ++p) {
      at += period, number += one;
      V part{};  // the period's sum: one add a period on the running sum's chain
      for (int k = 0; k < G; ++k) {
        const V v = simd::load(at + k * kLanes);
        if constexpr (kFloat) part = k == 0 ? v : part + v;
        const I32 m = simd::opaque(simd::bits<I32>(vbeats<D, false>(v, e[k])));
        e[k] = vbetter<D>(e[k], simd::opaque(v));  // (opaque: a pmax, not a select on the compare)
        r[k] = vmax(r[k], number & m);
      }
      if constexpr (kFloat) sum += part;
    }
    if constexpr (kFloat)
      if (simd::any(sum != sum)) return false;
    for (int k = 0; k < G; ++k) {
      simd::store(values + (k0 + k) * kLanes, e[k]);
      simd::store(numbers + (k0 + k) * kLanes, simd::bits<simd::Vec<N>>(r[k]));  // (8-byte lanes: n in both halves)
    }
    return true;
  }

 private:
  // By blocks of periods: each vector's extreme over a block by a max alone (and the NaN sum),
  // then one compare a vector with the running extreme marks the last block where each lane
  // improved, and at the end each lane's first period holding its extreme is searched for in that
  // block (every period before it holds less, none after it more): a max a vector and period where
  // the step above takes a compare, a max, an and and a max.
  static bool blocked(const Raw* x, int64_t periods, ptrdiff_t period, int64_t block, Raw* values, N* numbers) {
    V e[G], sum{};
    I32 last[G];  // per lane: 1 + the last block where the lane improved (0 for none: period 0)
    for (int k = 0; k < G; ++k) e[k] = simd::load(x + k * kLanes), last[k] = I32{};
    sum = e[0];
    for (int k = 1; k < G; ++k) sum += e[k];
    I32 mark{};
    const I32 one = simd::opaque(simd::splat(1));
#pragma GCC unroll 1
    for (int64_t p0 = 1; p0 < periods; p0 += block) {
      const int64_t p1 = std::min(periods, p0 + block);
      const Raw* at = x + p0 * period;
      V b[G], part{};  // the block's extremes and sum
      for (int k = 0; k < G; ++k) b[k] = simd::load(at + k * kLanes), part = k == 0 ? b[0] : part + b[k];
#pragma GCC unroll 1
      for (int64_t p = p0 + 1; p < p1; ++p) {
        at += period;
        V t{};  // (summed apart: one add a period on the chain of `part`)
        for (int k = 0; k < G; ++k) {
          const V v = simd::load(at + k * kLanes);
          t = k == 0 ? v : t + v;
          b[k] = vbetter<D>(b[k], simd::opaque(v));
        }
        part += t;
      }
      sum += part, mark += one;
      for (int k = 0; k < G; ++k) {
        const I32 m = simd::opaque(simd::bits<I32>(vbeats<D, false>(b[k], e[k])));
        e[k] = vbetter<D>(e[k], simd::opaque(b[k]));
        last[k] = vmax(last[k], mark & m);
      }
    }
    if (simd::any(sum != sum)) return false;
    alignas(16) int32_t marks[G * 4];
    for (int k = 0; k < G; ++k) simd::store(values + k * kLanes, e[k]), simd::store(marks + k * 4, last[k]);
    constexpr int kMarkStride = sizeof(Raw) / 4;  // (8-byte lanes: the mark in both halves)
    for (int j = 0; j < G * kLanes; ++j) {  // each lane's first period holding its extreme
      int64_t p = 0;
      const int32_t last_block = marks[j * kMarkStride];
      if (last_block > 0)
        for (p = 1 + (last_block - 1) * block; x[j + p * period] != values[j];) ++p;  // (the block holds it)
      numbers[j] = static_cast<N>(sizeof(N) == 8 ? p * 0x100000001 : p);  // (as run() stores it: in both halves)
    }
    return true;
  }
};

// The period's candidates (values, and numbers: the first period holding each, in lanes as wide)
// folded into the w columns' states, in vectors. Column c's candidates sit at c, c + w, ..., one
// in each row q of the period's kLanes rows, so the loads at c0 + q w hold row q of the columns
// c0 .. c0 + kLanes - 1 (the last block reaching back over columns already folded; with fewer
// columns than lanes, the lanes past them fold lanes past the period, and are not merged): q
// ascending, a candidate takes a lane when it is better, or equal (-0 == +0) from an earlier
// period (from the same period it is a later row). Then each column's best replaces its state
// where better (the state's row comes first); a fresh state (first == 0) takes it. No NaN among
// the candidates (the pass sends such slices away). It replaced the narrow path's scalar merge
// (narrow_merge), 17% of float32 [1366, 256, 3]'s time: kernel in cache 1.22x, end to end 1.15x.
// One copy per value type and direction (a run-time direction gzipped larger).
constexpr int kInterleavedArgMaxWidth = 8;  // the widest rows InterleavedArg takes (int64's 8)
template <class Raw, Direction D>
struct InterleavedArgFold {
  using V = simd::Vec<Raw>;
  using N = typename simd::SignedOf<sizeof(Raw)>::type;
  using NV = simd::Vec<N>;
  static constexpr int kLanes = simd::kBytes / sizeof(Raw);
  static constexpr int kMaxWidth = kInterleavedArgMaxWidth;

  __attribute__((noinline)) static void run(const Raw* values, const N* numbers, int64_t w, int64_t first, Raw* best,
                                            int32_t* index) {
    alignas(16) Raw value[kMaxWidth + kLanes];
    alignas(16) N row[kMaxWidth + kLanes];
    for (int64_t c0 = 0; c0 < w; c0 += kLanes) {
      const ptrdiff_t at = column_block_start(static_cast<ptrdiff_t>(c0), static_cast<ptrdiff_t>(w), kLanes);
      V v = simd::load(values + at);
      NV n = simd::load(numbers + at), q{};
      for (int j = 1; j < kLanes; ++j) {
        const V cv = simd::load(values + at + j * w);
        const NV cn = simd::load(numbers + at + j * w);
        const NV take = simd::bits<NV>(vbeats<D, false>(cv, v)) | (simd::bits<NV>(cv == v) & (cn < n));
        v = simd::select(take, cv, v), n = simd::select(take, cn, n), q = simd::select(take, simd::splat(N(j)), q);
      }
      simd::store(value + at, v);
      simd::store(row + at, n * N(kLanes) + q);  // (8-byte lanes: the low half holds the row)
    }
    const bool fresh = first == 0;
    for (int64_t c = 0; c < w; ++c) {
      const Raw m = value[c];
      if (!fresh && !vbeats<D, false>(m, best[c])) continue;  // (a NaN state stays)
      best[c] = m, index[c] = static_cast<int32_t>(first + static_cast<int32_t>(row[c]));
    }
  }
};

template <class Set>
struct InterleavedArg {
  using Raw = typename Set::Raw;
  using Rule = typename Set::Rule;
  static constexpr int kLanes = simd::kBytes / sizeof(Raw);
  static constexpr Direction D = Rule::kDirection;
  static constexpr bool kTakes = Set::Columns::kTracksIndex && !Rule::kLast && sizeof(Raw) >= 4;
  // The widths it takes, by measurement (kernel in cache against the paths before, slices of 64,
  // 256 and 2048 rows): int64 3-8 (1.1-1.9x); the other types 3, 5, 6 (1.04-1.3x) and 7 but for
  // float64 (1.26-1.34x from 256 rows), rows of 3 and 7 from 32 periods (float32 and int32 rows of
  // 7 0.90-0.96x at 64 rows; rows of 3: SlicesAsRows, above). Not taken: 4 (0.82-1.06x; float64 to
  // 0.94x), 8 (0.61-0.97x), float64's 7 under 256 periods (0.90-1.12x period by period;
  // from 256 by blocks, end to end 1.07-1.10x against the paths before: [293, 512, 7], [64, 2048, 7]).
  static constexpr bool kInt64 = std::is_same<Raw, int64_t>::value;
  static constexpr int kMaxWidth = kInterleavedArgMaxWidth;
  static bool applies(int64_t reduce, int64_t inner) {
    if (inner < 3 || inner > (kInt64 ? 8 : 7) || reduce < 4 * kLanes || reduce > (int64_t{1} << 30)) return false;
    if (!kInt64 && (inner == 4 || (inner == 7 && sizeof(Raw) == 8 && reduce < 256 * kLanes))) return false;
    return (inner != 3 && (inner != 7 || kInt64)) || reduce >= 32 * kLanes;
  }

  // Slices of [reduce, inner] (applies), each starting its states, or (count 1, `first` > 0) a
  // chunk of a run continuing them from row `first`; up to the first that may hold a NaN: returns
  // how many it took.
  static int64_t run(const Raw* x, int64_t count, int64_t reduce, int64_t inner, Raw* best, int32_t* index,
                     int64_t first = 0) {
    const ptrdiff_t period = inner * kLanes;
    const int64_t periods = reduce / kLanes, done = periods * kLanes;
    using N = typename simd::SignedOf<sizeof(Raw)>::type;
    // (initialized: with fewer columns than lanes the fold reads a few lanes past the period)
    alignas(16) Raw values[kMaxWidth * kLanes] = {};
    alignas(16) N numbers[kMaxWidth * kLanes] = {};
    for (int64_t s = 0; s < count; ++s, x += reduce * inner, best += inner, index += inner) {
      // Passes of three vectors of the period, two where two or four are left (passes of three
      // only, the last reaching back over vectors already passed, ran rows of 5 and 7 at 128
      // periods 0.97x and 0.91x in cache against these, then period by period at every length).
      bool exact = true;
      for (int k = 0; exact && k < inner;) {
        const bool two = inner - k == 2 || inner - k == 4;
        exact = two ? InterleavedArgPass<Raw, D, 2>::run(x, periods, period, k, values, numbers)
                    : InterleavedArgPass<Raw, D, 3>::run(x, periods, period, k, values, numbers);
        k += two ? 2 : 3;
      }
      if (!exact) return s;
      InterleavedArgFold<Raw, D>::run(values, numbers, inner, first, best, index);
      if (done < reduce) Set::columns(x + done * inner, reduce - done, inner, inner, first + done, best, index);
    }
    return count;
  }
};

}  // namespace ox
