// ReduceMax over rows of 3 along the axis before them (x y z coordinates: [N, 3] over axis 0; a
// middle axis over 3 channels: [N, 256, 3] over axis 1), for 4- and 8-byte types. The rows are
// one contiguous run in which each column's elements sit at fixed lanes of every period of three
// vectors (3 N elements, N lanes, N a power of two): so the run is read once, straight, into
// three running maxima, with no transposition. Their 3 N lane maxima then fold into the three
// columns' states (fold_columns; where a maximum is zero, the narrow path's rule, narrow_merge).
// Rows holding a NaN (the lanes are not exact) or whose candidates tie with different bits (-0
// against +0: which came first is unknown) go another way. Kernel GB/s against the paths before
// (SlicesAsRows for slices, the narrow path for long runs), as a share of a plain streaming max
// (before the fold, below): float32 [N, 256, 3] 0.56 ->
// 0.66, float64 0.63 -> 0.92; float32 [N, 3] 0.60 -> 0.95, float64 0.70 -> 0.95. End to end
// (staged), [1366, 256, 3] over axis 1 took 17-22% less for float32, float64 and int32; [N, 3]
// over axis 0 is copy-bound and stayed level. dist/ox.wasm +1.5 KB gzipped.
// Not taken: 1- and 2-byte types, whose merge (scalar, over 3 N candidates) cost more than the
// transposition saved (uint8 [N, 256, 3] 360 -> 630 us, float16 380 -> 490); rows of 2, which
// SlicesAsRows splits cheaply (float32 [N, 256, 2] 0.60 -> 0.53).
// Slices of rows of 5 (W = 5: five running maxima) for float32 and float64 from 128 rows, where
// the narrow path's 4 rows to a virtual row paid its start and merge per slice: kernel us per
// 4 MiB, 256 KiB chunks, float64 [N, 256, 5] 318 -> 199, [N, 128, 5] 340 -> 230, float32
// [N, 256, 5] 274-298 -> 254-257, [N, 2048, 5] 227 -> 185 (64 rows: 1.2x slower, so not there;
// int32 ran at 0.8 of the stream loop already). End to end, alternating A/B: [820, 256, 5] over
// axis 1 0.87x the time for float32, 0.88x for float64. dist/ox.wasm +0.76 KB gzipped (the
// budget's last room: narrow_columns.cc went to -O2 to make it). int32 and int64 (and uint32/uint64,
// keyed onto them) too since the module's functions are ordered for gzip: +0.39 KB gzipped; end
// to end (bench/ab.mjs) over axis 1 int32 [820, 256, 5] 1.22x, [1640, 128, 5] 1.34x, int64
// [820, 256, 5] 1.12x, uint32 and uint64 1.12x.
// ArgMax / ArgMin over long runs of rows of 3 (the extreme points of a point cloud: [N, 3] over
// axis 0), float32, float64 and int32, first-index rule: a chunk after the first (its states
// hold a value and an index) is read into its lane extremes as ReduceMax reads it, and only a
// column whose extreme beats its state is located, by compares, in the chunk still in cache
// (InterleavedLocate): after the first chunks a new best is rare, where the column kernels track
// an index at every row. End to end (bench/ab.mjs against cdf7477, two runs, AMD EPYC host):
// float32 [1048576, 3] 1.29-1.33x (ArgMin 1.44x), int32 1.30-1.31x, float64 1.21x, float32
// [262144, 3] 1.17-1.20x, [65536, 3] (three chunks) 1.01-1.10x; smaller inputs, slices
// ([1366, 256, 3] over axis 1) and select_last_index level. A run that starts its states
// stays with the column kernels (its rows would be read twice). dist/ox.wasm +2.2 KB gzipped.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/arg_rows_simd.h"
#include "kernels/narrow_columns.h"
#include "kernels/simd.h"

namespace ox {

// The lane extremes of `count` rows of W (at least a period), read straight into W running
// extremes, the period's lanes stored at `lanes`: false where a lane is not exact (a NaN met, or
// +inf and -inf summed). One copy per value type, direction and W (out of line): ReduceMax and
// both ArgMax rules share the max one.
template <class Tr, class L, Direction D, int W>
struct InterleavedExtremes {
  using Raw = typename L::Raw;
  using Rows = RowScan<L, ArgRule<Tr, D, false>, false>;  // (ReduceMax's own for the max)
  using Summary = typename Rows::Summary;
  static constexpr ptrdiff_t kLanes = simd::kBytes / sizeof(Raw);
  static constexpr ptrdiff_t kPeriod = W * kLanes;
  // Periods per loop step; five running maxima keep the chains busy with one.
  static constexpr int kUnroll = W < 4 ? 2 : 1;

  // float32 maxima over rows of 3 try the raw pass first (FloatLanes' merge_raw: the bits' int32
  // and uint32 maxima), exact where every lane's maximum is a positive number; a failure sends
  // the next tries away (try_raw, as ColumnScan's). End to end ReduceMax [1366,256,3]
  // over axis 1 1.09-1.12x; all negative, zero maxima or NaNs 0.97-0.99x; +196 bytes gzipped.
  // Rows of 5: 1.02x end to end on [820,256,5] (all negative 0.97x) for 0.54 KB, not kept.
  static constexpr bool kRaw = std::is_same<Raw, float>::value && D == Direction::Max && W == 3;
  __attribute__((noinline)) static bool run(const Raw* x, int64_t count, Raw* lanes) {
    if constexpr (kRaw)
      if (try_raw([&] { return pass<RowPass::Raw>(x, count, lanes); })) return true;
    return pass<RowPass::Full>(x, count, lanes);
  }

 private:
  template <RowPass P>
  static bool pass(const Raw* x, int64_t count, Raw* lanes) {
    const ptrdiff_t n = static_cast<ptrdiff_t>(count) * W;
    Summary acc[W];
    for (int k = 0; k < W; ++k) acc[k] = Summary::of(simd::load(x + k * kLanes));
    // kUnroll periods per step, merged as a tree so that each running maximum's chain (a pmax
    // and the NaN detector's add, 4 cycles each) takes one merge per step: with one period per
    // step the loop ran at 12 bytes a cycle, slower than the narrow path on a chunk in cache.
    ptrdiff_t i = kPeriod;
    for (; i + kUnroll * kPeriod <= n; i += kUnroll * kPeriod)
      for (int k = 0; k < W; ++k) Rows::template merge<P>(acc[k], Rows::template tree<kUnroll, P, kPeriod>(x + i + k * kLanes));
    // Whole periods, the last reaching back to end the run (n and the period are multiples of
    // W, so the lanes keep their columns): elements met twice change no maximum, and a maximum
    // met again keeps its first bits.
    for (; i < n; i += kPeriod) {
      const Raw* at = i + kPeriod <= n ? x + i : x + n - kPeriod;
      for (int k = 0; k < W; ++k) Rows::template merge<P>(acc[k], Summary::of(simd::load(at + k * kLanes)));
    }
    for (int k = 0; k < W; ++k) {
      if constexpr (P == RowPass::Raw) {
        if (!acc[k].raw_lanes_exact()) return false;
      } else if (!acc[k].lanes_exact()) {
        return false;
      }
      simd::store(lanes + k * kLanes, acc[k].lane_extreme());
    }
    return true;
  }
};

// ArgMax / ArgMin (first-index rule) over a run continuing states that hold a value and an index
// (`first` > 0), from its lane extremes (no NaN among them): each column's extreme m[c] (equal
// values such as -0 and +0 are ties: any of them serves) and, where m[c] beats the column's state,
// its first row: the run's periods are compared with the extremes laid out
// as a period (one test per period for a hit), from the start, until every such column has its
// row (the last period reaches back over elements already searched). The column kernels' answers
// in a pass of compares over a run in cache, taken only where an extreme beats the state: rarely,
// after the first chunks of a long run. One copy per value type: the direction is an argument.
template <class Tr, class L, int W>
struct InterleavedLocate {
  using Raw = typename L::Raw;
  static constexpr ptrdiff_t kLanes = simd::kBytes / sizeof(Raw);
  static constexpr ptrdiff_t kPeriod = W * kLanes;
  // The bytes of vector k of a period whose elements belong to column c (a byte mask's bits).
  struct ColumnBytes {
    uint32_t bits[W][W] = {};
    constexpr ColumnBytes() {
      for (int k = 0; k < W; ++k)
        for (int lane = 0; lane < kLanes; ++lane)
          bits[k][(k * kLanes + lane) % W] |= ((1u << sizeof(Raw)) - 1) << (lane * sizeof(Raw));
    }
  };

  __attribute__((noinline)) static void run(const Raw* x, ptrdiff_t n, const Raw* lanes, bool max, int64_t first,
                                            Raw* best, int32_t* index) {
    const auto better = [max](Raw a, Raw b) { return max ? Tr::greater(a, b) : Tr::greater(b, a); };
    alignas(16) Raw pattern[kPeriod];
    unsigned todo = 0;  // columns to locate
    for (int c = 0; c < W; ++c) {
      Raw m = lanes[c];
      for (ptrdiff_t k = c + W; k < kPeriod; k += W)
        if (better(lanes[k], m)) m = lanes[k];
      for (ptrdiff_t k = c; k < kPeriod; k += W) pattern[k] = m;
      if (better(m, best[c])) todo |= 1u << c;  // (nothing compares better than a NaN state: it stays)
    }
    static constexpr ColumnBytes kBytesOf{};
    typename L::V pat[W];
    for (int k = 0; k < W; ++k) pat[k] = simd::load(pattern + k * kLanes);
    for (ptrdiff_t i = 0; todo && i < n; i += kPeriod) {
      const ptrdiff_t at = i + kPeriod <= n ? i : n - kPeriod;
      typename L::M hit[W];
      for (int k = 0; k < W; ++k) hit[k] = L::equal_mask(simd::load(x + at + k * kLanes), pat[k]);
      typename L::M any = hit[0];
      for (int k = 1; k < W; ++k) any = any | hit[k];
      if (!simd::any(any)) continue;
      for (int k = 0; k < W; ++k) {  // vectors in order, so a column's first hit is its first row
        const uint32_t mask = simd::byte_mask(hit[k]);
        for (int c = 0; c < W; ++c) {
          const uint32_t bytes = todo >> c & 1 ? mask & kBytesOf.bits[k][c] : 0;
          if (!bytes) continue;
          const ptrdiff_t e = at + k * kLanes + __builtin_ctz(bytes) / static_cast<int>(sizeof(Raw));
          best[c] = x[e], index[c] = static_cast<int32_t>(first + e / W);
          todo &= ~(1u << c);
        }
      }
    }
  }
};

template <class Set, int W = 3>
struct InterleavedMax {
  using Raw = typename Set::Raw;
  using Rule = typename Set::Rule;
  using L = typename Set::Rows::Lanes;
  static constexpr bool kIndex = Set::Columns::kTracksIndex;
  static constexpr ptrdiff_t kLanes = simd::kBytes / sizeof(Raw);
  static constexpr ptrdiff_t kPeriod = W * kLanes;  // elements: whole rows of W

  // ReduceMax: 4- and 8-byte types, rows of 3 and 5. The arg kinds: rows of 3 of float32,
  // float64 and int32 (and the types keyed to it) under the first-index rule, the long runs of
  // point coordinates; each rule and type adds code (select_last_index 0.6 KB gzipped more).
  static constexpr bool kTakes =
      sizeof(Raw) >= 4 && (!kIndex || (W == 3 && !Rule::kLast && !std::is_same<Raw, int64_t>::value));
  static constexpr int64_t kLeastRows = W == 3 ? 1 : 128;
  static bool applies(int64_t rows, int64_t width) {
    return width == W && rows * W >= kPeriod && rows >= kLeastRows;
  }

  // ReduceMax over slices of [reduce, W] (applies(reduce, W)), each continuing its W states. A
  // slice this path cannot take goes to the set's column entry, which tries rows() once more (a
  // pass in L1, for a slice with a NaN or mixed zeros) before its own paths: a second call site
  // of SlicesAsRows would keep a copy of it per set out of line (2 KB).
  static void run(const Raw* x, int64_t count, int64_t reduce, Raw* best) {
    static_assert(!kIndex, "an arg kind's slice starts its states: rows() leaves it to the column kernels");
    for (int64_t s = 0; s < count; ++s, x += reduce * W, best += W)
      if (!rows(x, reduce, 0, best, nullptr)) Set::columns(x, reduce, W, W, 0, best, nullptr);
  }

  // `count` rows of W (applies(count, W)) continuing best[0, W) (and index[0, W) for the arg
  // kinds; row 0 has index `first`): a slice, or part of one (the column entry's chunk of rows).
  // False, with the states untouched, where they must go another way. (Out of line: one copy per
  // kernel set.)
  __attribute__((noinline)) static bool rows(const Raw* x, int64_t count, int64_t first, Raw* best, int32_t* index) {
    // An arg kind's run that starts its states (a slice, the first chunk) has every column to
    // locate, so it would be read twice: slices ran 0.84-0.90x so, and stay with the column
    // kernels' one pass. Later chunks of a long run rarely hold a new best.
    if (kIndex && starts_fresh<true>(first)) return false;
    alignas(16) Raw lanes[kPeriod + kLanes];  // (room for fold_columns' padding)
    if (!InterleavedExtremes<typename Rule::ValueTraits, L, Rule::kDirection, W>::run(x, count, lanes)) return false;
    if constexpr (kIndex) {
      InterleavedLocate<typename Rule::ValueTraits, L, W>::run(
          x, static_cast<ptrdiff_t>(count) * W, lanes, Rule::kDirection == Direction::Max, first, best, index);
      return true;
    } else {
      return fold_columns(lanes, best) || narrow_merge<Rule, false>(lanes, nullptr, W, kLanes, 0, best, nullptr);
    }
  }

  // ReduceMax: the lane extremes folded into the columns' states, in vectors. Column c's lanes
  // are c, c + W, ..., kLanes of them W apart, so the load at c0 + q W holds one lane of each of
  // the columns c0 .. c0 + kLanes - 1: kLanes loads and their max give kLanes columns (the last
  // block reaching back over columns already folded; with W < kLanes the lanes past W fold the
  // padding and are not merged). narrow_merge's scalar loop over the lanes had taken a third of
  // a slice's time: kernel in cache 1.45x (float32 [N, 256, 3]), 1.32x (rows of 5), float64
  // 1.22x and 1.13x, int32 1.37x, int64 1.12x and 1.04x. A zero maximum goes to narrow_merge
  // (false, the states untouched): the lanes may hold -0 and +0, whose order the fold loses.
  static bool fold_columns(Raw* lanes, Raw* best) {
    using V = typename L::V;
    static constexpr int kBlocks = (W + kLanes - 1) / kLanes;
    const auto at = [](int k) { return column_block_start(k * kLanes, W, kLanes); };
    if constexpr (W < kLanes)
      for (ptrdiff_t k = kPeriod; k < kPeriod + kLanes - W; ++k) lanes[k] = lanes[0];
    V m[kBlocks];
    for (int k = 0; k < kBlocks; ++k) {
      m[k] = simd::load(lanes + at(k));
      for (ptrdiff_t q = 1; q < kLanes; ++q) m[k] = vbetter<Rule::kDirection>(m[k], simd::load(lanes + at(k) + q * W));
      if (std::is_floating_point<Raw>::value && simd::any(m[k] == V{})) return false;
    }
    // Each column's maximum replaces a worse state (no NaN among them; a NaN state stays): the
    // state first, so an equal maximum keeps it. Blocks may overlap: a column merged twice.
    if constexpr (W >= kLanes) {
      for (int k = 0; k < kBlocks; ++k)
        simd::store(best + at(k), vbetter<Rule::kDirection>(simd::load(best + at(k)), m[k]));
    } else {
      alignas(16) Raw column[kLanes];
      simd::store(column, m[0]);
      for (int c = 0; c < W; ++c)
        if (Rule::better(column[c], best[c])) best[c] = column[c];
    }
    return true;
  }
};

}  // namespace ox
