// ReduceMax over rows of 3 along the axis before them (x y z coordinates: [N, 3] over axis 0; a
// middle axis over 3 channels: [N, 256, 3] over axis 1), for 4- and 8-byte types. The rows are
// one contiguous run in which each column's elements sit at fixed lanes of every period of three
// vectors (3 N elements, N lanes, N a power of two): so the run is read once, straight, into
// three running maxima, with no transposition. Their 3 N lane maxima then merge into the three
// columns' states by the narrow path's rule (narrow_merge). Rows holding a NaN (the lanes are not
// exact) or whose candidates tie with different bits (-0 against +0: which came first is
// unknown) go another way. Kernel GB/s against the paths before (SlicesAsRows for slices, the
// narrow path for long runs), as a share of a plain streaming max: float32 [N, 256, 3] 0.56 ->
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
// budget's last room: narrow_columns.cc went to -O2 to make it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/narrow_columns.h"
#include "kernels/simd.h"

namespace ox {

template <class Set, int W = 3>
struct InterleavedMax {
  using Raw = typename Set::Raw;
  using Summary = typename Set::Rows::Summary;
  static constexpr ptrdiff_t kLanes = simd::kBytes / sizeof(Raw);
  static constexpr ptrdiff_t kPeriod = W * kLanes;  // elements: whole rows of W

  static constexpr bool kTakes =
      !Set::Columns::kTracksIndex && sizeof(Raw) >= 4 && (W == 3 || std::is_floating_point<Raw>::value);
  static constexpr int64_t kLeastRows = W == 3 ? 1 : 128;
  static bool applies(int64_t rows, int64_t width) {
    return width == W && rows * W >= kPeriod && rows >= kLeastRows;
  }

  // Slices of [reduce, W] (applies(reduce, W)), each continuing its W states. A slice this
  // path cannot take goes to the set's column entry, which tries rows() once more (a pass in L1,
  // for a slice with a NaN or mixed zeros) before its own paths: a second call site of
  // SlicesAsRows would keep a copy of it per set out of line (2 KB).
  static void run(const Raw* x, int64_t count, int64_t reduce, Raw* best) {
    for (int64_t s = 0; s < count; ++s, x += reduce * W, best += W)
      if (!rows(x, reduce, best)) Set::columns(x, reduce, W, W, 0, best, nullptr);
  }

  // Periods per loop step (see rows()); five running maxima keep the chains busy with one.
  static constexpr int kUnroll = W < 4 ? 2 : 1;

  // `count` rows of W (applies(count, W)) continuing best[0, W): a slice, or part of one (the
  // column entry's chunk of rows). False, with best untouched, where they must go another way.
  // (Out of line: one copy per kernel set.)
  __attribute__((noinline)) static bool rows(const Raw* x, int64_t count, Raw* best) {
    const ptrdiff_t n = static_cast<ptrdiff_t>(count) * W;
    Summary acc[W];
    for (int k = 0; k < W; ++k) acc[k] = Summary::of(simd::load(x + k * kLanes));
    // kUnroll periods per step, merged as a tree so that each running maximum's chain (a pmax
    // and the NaN detector's add, 4 cycles each) takes one merge per step: with one period per
    // step the loop ran at 12 bytes a cycle, slower than the narrow path on a chunk in cache.
    ptrdiff_t i = kPeriod;
    for (; i + kUnroll * kPeriod <= n; i += kUnroll * kPeriod)
      for (int k = 0; k < W; ++k) acc[k].merge(Set::Rows::template tree<kUnroll, false, kPeriod>(x + i + k * kLanes));
    // Whole periods, the last reaching back to end the run (n and the period are multiples of
    // W, so the lanes keep their columns): elements met twice change no maximum, and a maximum
    // met again keeps its first bits.
    for (; i < n; i += kPeriod) {
      const Raw* at = i + kPeriod <= n ? x + i : x + n - kPeriod;
      for (int k = 0; k < W; ++k) acc[k].merge(Summary::of(simd::load(at + k * kLanes)));
    }
    alignas(16) Raw lanes[kPeriod];
    for (int k = 0; k < W; ++k) {
      if (!acc[k].lanes_exact()) return false;
      simd::store(lanes + k * kLanes, acc[k].lane_extreme());
    }
    return narrow_merge<typename Set::Rule, false>(lanes, nullptr, W, kLanes, 0, best, nullptr);
  }
};

}  // namespace ox
