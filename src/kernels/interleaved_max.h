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
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/narrow_columns.h"
#include "kernels/simd.h"

namespace ox {

template <class Set>
struct InterleavedMax {
  using Raw = typename Set::Raw;
  using Summary = typename Set::Rows::Summary;
  static constexpr ptrdiff_t kLanes = simd::kBytes / sizeof(Raw);
  static constexpr ptrdiff_t kPeriod = 3 * kLanes;  // elements: whole rows of 3

  static constexpr bool kTakes = !Set::Columns::kTracksIndex && sizeof(Raw) >= 4;
  static bool applies(int64_t rows, int64_t width) { return width == 3 && rows * 3 >= kPeriod; }

  // Slices of [reduce, 3] (applies(reduce, 3)), each continuing its three states. A slice this
  // path cannot take goes to the set's column entry, which tries rows() once more (a pass in L1,
  // for a slice with a NaN or mixed zeros) before its own paths: a second call site of
  // SlicesAsRows would keep a copy of it per set out of line (2 KB).
  static void run(const Raw* x, int64_t count, int64_t reduce, Raw* best) {
    for (int64_t s = 0; s < count; ++s, x += reduce * 3, best += 3)
      if (!rows(x, reduce, best)) Set::columns(x, reduce, 3, 3, 0, best, nullptr);
  }

  static constexpr int kUnroll = 2;  // periods per loop step (see rows())

  // `count` rows of 3 (applies(count, 3)) continuing best[0, 3): a slice, or part of one (the
  // column entry's chunk of rows). False, with best untouched, where they must go another way.
  // (Out of line: one copy per kernel set.)
  __attribute__((noinline)) static bool rows(const Raw* x, int64_t count, Raw* best) {
    const ptrdiff_t n = static_cast<ptrdiff_t>(count) * 3;
    Summary acc[3];
    for (int k = 0; k < 3; ++k) acc[k] = Summary::of(simd::load(x + k * kLanes));
    // kUnroll periods per step, merged as a tree so that each running maximum's chain (a pmax
    // and the NaN detector's add, 4 cycles each) takes one merge per step: with one period per
    // step the loop ran at 12 bytes a cycle, slower than the narrow path on a chunk in cache.
    ptrdiff_t i = kPeriod;
    for (; i + kUnroll * kPeriod <= n; i += kUnroll * kPeriod)
      for (int k = 0; k < 3; ++k) acc[k].merge(Set::Rows::template tree<kUnroll, false, kPeriod>(x + i + k * kLanes));
    // Whole periods, the last reaching back to end the run (n and the period are multiples of
    // 3, so the lanes keep their columns): elements met twice change no maximum, and a maximum
    // met again keeps its first bits.
    for (; i < n; i += kPeriod) {
      const Raw* at = i + kPeriod <= n ? x + i : x + n - kPeriod;
      for (int k = 0; k < 3; ++k) acc[k].merge(Summary::of(simd::load(at + k * kLanes)));
    }
    alignas(16) Raw lanes[kPeriod];
    for (int k = 0; k < 3; ++k) {
      if (!acc[k].lanes_exact()) return false;
      simd::store(lanes + k * kLanes, acc[k].lane_extreme());
    }
    return narrow_merge<typename Set::Rule, false>(lanes, nullptr, 3, kLanes, 0, best, nullptr);
  }
};

}  // namespace ox
