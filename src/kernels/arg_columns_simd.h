// ArgMax / ArgMin / ReduceMax over columns (the reduced axis has `inner` elements after it) in
// SIMD: vectorized across the row, whole rows compared lane-wise against the running best of
// their columns. A group of columns keeps its best values (and winning rows) in registers over
// the rows of the call, then stores them back to the state arrays.
// Each lane applies ArgRule exactly (NaN wins, ties by position, -0 == +0): a pass tries the
// cheapest update way of lanes.h first (float16/bfloat16: raw bits, then ordered keys; floats:
// pmax) and a tile whose result it cannot vouch for (a NaN, a zero's sign) is walked again
// the exact way. ReduceMax merges each lane's rows into the rows kernel's Summary.
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernels/l1_geometry.h"
#include "kernels/lanes.h"
#include "kernels/traits.h"

namespace ox {

template <class L, class Rule, bool Index>
struct ColumnScan {
  using Raw = typename L::Raw;
  using V = typename L::V;
  using M = typename L::M;
  using Key = typename L::Key;
  static constexpr Direction D = Rule::kDirection;
  static constexpr bool Last = Rule::kLast;
  static constexpr bool kTracksIndex = Index;
  static constexpr int kLanes = L::kLanes;
  // A tile is whole value vectors covering whole int32x4 index vectors (4 lanes, or 8, 16).
  static constexpr int kTile = kLanes < 4 ? 4 : kLanes;
  static constexpr int kValueVectors = kTile / kLanes;
  static constexpr int kIndexVectors = kTile / 4;
  // The winning row of each lane is tracked in a vector of the value's lane width, so a compare
  // mask selects it directly (no widening in the row loop): the absolute row for 4- and 8-byte
  // lanes (8-byte lanes: as int32 in the low half, read from there; the high half takes the same
  // updates); for 1- and 2-byte lanes 1 + the row within the pass, 0 meaning "not replaced",
  // merged into the int32 indices once per pass (a pass seeded with row 0 has every lane's row:
  // the row itself, stored as is). Rows only grow, so the update is max(rows, row & mask): two
  // ops where a select takes three on x86 (8-byte lanes: i32x4.max on the halves, as wasm has no
  // int64 max; float64 ArgMax [N,256,5] and [N,256,7] over axis 1 1-19% and 6-7% less time).
  static constexpr bool kRelative = sizeof(Raw) <= 2;
  using RowLane =
      typename std::conditional<kRelative, typename std::make_unsigned<typename simd::SignedOf<sizeof(Raw)>::type>::type,
                                int32_t>::type;
  using RV = simd::Vec<RowLane>;
  static constexpr int64_t kPassRows = kRelative ? static_cast<int64_t>(static_cast<RowLane>(-1)) - 1 : INT64_MAX;
  // The fast pass pays off over several rows; a call of one row (the staged [N,C,H,W] case) takes
  // the exact update directly.
  static constexpr int64_t kFastRows = 4;
  // Registers per value vector in the common (fast) way: the key, the raw bits beside it unless
  // the key gives them back, the winning rows.
  template <class W>
  static constexpr bool key_only() { return W::kKeyOnly || (Index && W::kKeyOnlyForIndex); }
  static constexpr int kRegs = kValueVectors * ((key_only<typename L::template FastWay<D>>() ? 1 : 2) + (Index ? 1 : 0));
  static constexpr int kGroup = kRegs >= 8 ? 1 : (8 / kRegs > 4 ? 4 : 8 / kRegs);  // tiles in registers

  // Whether a call's columns start fresh, so its row 0 seeds their state: for the arg kinds a
  // call whose first row is row 0 of the reduced axis meets states nothing was fed to, left unset
  // (registry.h), and after row 0 any fresh state is (row 0, index 0) under every rule. A way's
  // state_ok vouches for a seeded row 0 as its guard does for the rows after it (both watch for
  // NaN). ReduceMax folds several blocks (prefix axes) into the same
  // states, each from its row 0.
  static bool starts_fresh(int64_t first) { return ox::starts_fresh<Index>(first); }

  // The rows of lanes [4q, 4q + 4) of a tile's row vectors, as int32. Narrow lanes are
  // zero-extended by __builtin_convertvector (i16x8/i32x4.extend_*_u: one instruction a step in
  // V8, where a shuffle against a zero vector was two pshufb and a por with both masks rebuilt
  // inside the loop: float16 pairs 0.08 -> 0.11 of the stream loop).
  static simd::I32 rows_of(const RV* r, int q) {
    if constexpr (sizeof(Raw) == 8) {
      return __builtin_shufflevector(simd::bits<simd::I32>(r[0]), simd::bits<simd::I32>(r[1]), 0, 2, 4, 6);
    } else if constexpr (sizeof(Raw) == 4) {
      return simd::bits<simd::I32>(r[0]);
    } else {
      typedef uint16_t Four __attribute__((vector_size(8)));
      simd::Vec<uint16_t> v;  // the half of the rows holding lanes 4q .. 4q + 3, as uint16
      if constexpr (sizeof(Raw) == 2) {
        v = simd::bits<simd::Vec<uint16_t>>(r[0]);
      } else {
        typedef uint8_t Eight __attribute__((vector_size(8)));
        const simd::Vec<uint8_t> b = simd::bits<simd::Vec<uint8_t>>(r[0]);
        const Eight half = q < 2 ? __builtin_shufflevector(b, b, 0, 1, 2, 3, 4, 5, 6, 7)
                                 : __builtin_shufflevector(b, b, 8, 9, 10, 11, 12, 13, 14, 15);
        v = __builtin_convertvector(half, simd::Vec<uint16_t>);
      }
      const Four lanes = q % 2 == 0 ? __builtin_shufflevector(v, v, 0, 1, 2, 3) : __builtin_shufflevector(v, v, 4, 5, 6, 7);
      return __builtin_convertvector(lanes, simd::I32);
    }
  }

  // Whether way W's pass steps its row vector by a vector one, hidden from clang so that V8
  // keeps it in a register: one add a row, where a splat of the count is three instructions in
  // V8. For 2-byte lanes in every way, and 1-byte lanes outside the exact way (which takes calls
  // of 2 or 3 rows: there the step's setup cost uint8 [1,2,65536] 0.95x). Kernel in cache: uint8
  // ArgMax over 21 channels 1.03-1.12x, over narrow columns of 5-20 1.07-1.17x, float16 columns
  // of 7 1.08-1.11x; end to end uint8 [1,1048576,5] and float16 [1,524288,7] over axis 1
  // 1.04-1.11x. Float lanes keep the splat: V8 rebuilt the one inside the float32 loop and
  // spilled (0.95x), float64 0.86x. int32 gained 1.11x, but passed the module's size budget
  // (tests/js/size.test.mjs), as did keeping the splat in 2-byte lanes' exact way (float16
  // [1,2,65536] 0.97x).
  template <class W>
  static constexpr bool steps_row() {
    return sizeof(Raw) == 2 || (sizeof(Raw) == 1 && !std::is_same<W, typename L::template ExactWay<D>>::value);
  }
  // Columns [0, Tiles * kTile) of x (row k at x + k * stride, rows <= kPassRows) against
  // best/index, updated the way W says (lanes.h: RawWay, FastWay, ExactWay). A way whose result
  // is not exact for every lane (a NaN met by a fast way, a column out of the raw way's range)
  // returns false and stores nothing; the next way starts again from the same state.
  template <int Tiles, class W>
  static bool pass(const Raw* x, int64_t rows, int64_t stride, int64_t first, Raw* best, int32_t* index) {
    constexpr int NV = Tiles * kValueVectors;
    constexpr bool Keeps = W::template keeps<Last>();  // the mask says "kept", else "replaced"
    constexpr bool KeyOnly = key_only<W>();
    using K = typename W::K;
    const bool seeded = starts_fresh(first);
    typename W::Guard guard;  // one register at most, fed each row's vectors
    V b[NV];
    K bk[NV];
    RV r[NV];
    for (int v = 0; v < NV; ++v) {
      b[v] = simd::load((seeded ? x : best) + v * kLanes);
      if (!W::state_ok(b[v])) return false;
      bk[v] = W::key(b[v]);
      if constexpr (Index) {
        if constexpr (kRelative) {
          r[v] = RV{};  // 0: not replaced, or row 0 when seeded
        } else if (seeded) {
          r[v] = RV{};  // row 0
        } else if constexpr (sizeof(Raw) == 4) {
          r[v] = simd::bits<RV>(simd::load(index + v * 4));
        } else {  // two int32 indices in the low halves of int64 lanes (one load32x2)
          r[v] = simd::bits<RV>(simd::Vec<int64_t>{index[v * 2], index[v * 2 + 1]});
        }
      }
    }
    // The row's address steps by the stride: recomputed from k, each row cost V8 a multiply
    // chain, a third of the loop's overhead (ArgMax over the 21 channels of a float32 map 6-9%
    // faster end to end, float16 13-20% in the kernel). The row vector: see steps_row. Not
    // unrolled: as fast, and the module smaller.
    const int64_t k0 = seeded ? 1 : 0;
    const Raw* p = x + k0 * stride;
    const auto row_at = [&](int64_t k) { return simd::splat(static_cast<RowLane>(kRelative ? (seeded ? k : k + 1) : first + k)); };
    RV stepped = row_at(k0);
    const RV one = simd::opaque(simd::splat(static_cast<RowLane>(1)));
#pragma GCC unroll 1  // clang and gcc both read this one (gcc warned on clang's nounroll)
    for (int64_t k = k0; k < rows; ++k, p += stride) {
      const RV row = steps_row<W>() ? stepped : row_at(k);
      if constexpr (steps_row<W>()) stepped += one;
      V xs[NV];
      K ks[NV];
      for (int v = 0; v < NV; ++v) xs[v] = simd::load(p + v * kLanes), ks[v] = W::key(xs[v]);
      guard.template row<NV>(xs, ks);
      for (int v = 0; v < NV; ++v) {
        const M m = W::template step<Last>(ks[v], bk[v]);
        if constexpr (!KeyOnly) b[v] = Keeps ? simd::select(m, b[v], xs[v]) : simd::select(m, xs[v], b[v]);
        if constexpr (Index) {
          // row where replaced, else 0 (an and / andnot: with the mask hidden, clang cannot turn
          // it into a select, three instructions in V8).
          const RV mo = simd::opaque(simd::bits<RV>(m));
          r[v] = vmax(r[v], Keeps ? row & ~mo : row & mo);
        }
      }
    }
    if (guard.template fails<NV>(bk)) return false;
    for (int v = 0; v < NV; ++v) simd::store(best + v * kLanes, KeyOnly ? W::raw(bk[v]) : b[v]);
    if constexpr (Index)
      for (int t = 0; t < Tiles; ++t) store_rows(r + t * kValueVectors, kRelative && !seeded, first, index + t * kTile);
    return true;
  }
  // A tile's winning rows (r: its row vectors) to its int32 indices: as they are (absolute rows,
  // or relative ones of a pass seeded with row 0), or merged into the earlier state (`merge`:
  // relative rows, 0 keeping the stored index, k + 1 meaning row first + k).
  static void store_rows(const RV* r, bool merge, int64_t first, int32_t* index) {
    for (int q = 0; q < kIndexVectors; ++q) {
      const simd::I32 rows_q = rows_of(r, q);
      int32_t* at = index + q * 4;
      if (merge) {
        const simd::I32 set = rows_q != simd::I32{};
        simd::store(at, simd::select(set, rows_q + simd::splat(static_cast<int32_t>(first - 1)), simd::load(at)));
      } else {
        simd::store(at, rows_q);
      }
    }
  }
  // The exact update of one value vector of state b by c (ArgRule in every lane), b updated in
  // place (exact_update: stored at `to`); the mask says where c replaced b. And a tile's masks as
  // its int32 index masks.
  static M exact_step(V c, V& b) {
    using W = typename L::template ExactWay<D>;
    static_assert(!W::template keeps<Last>(), "the exact way's mask says replaced");
    typename W::K bk = W::key(b);
    const M m = W::template step<Last>(W::key(c), bk);
    b = simd::select(m, c, b);
    return m;
  }
  static M exact_update(V c, V b, Raw* to) {
    const M m = exact_step(c, b);
    simd::store(to, b);
    return m;
  }
  static void tile_index_masks(const M (&m)[kValueVectors], simd::I32 (&im)[kIndexVectors]) {
    if constexpr (kValueVectors == 2)
      im[0] = simd::index_masks(m[0], m[1]);
    else
      simd::index_masks(m[0], im);
  }

  // A call of one row (a staged chunk of a wide [N,C,H,W] map is part of one row): straight
  // from the state arrays to the state arrays, each int32 index vector selected by its mask.
  // The first row of fresh states is the state as is, with index 0 (written: fresh states are
  // unset; registry.h).
  template <int Tiles>
  static void one_row(const Raw* p, int64_t row, Raw* best, int32_t* index) {
    if (starts_fresh(row)) {
      for (int v = 0; v < Tiles * kValueVectors; ++v) simd::store(best + v * kLanes, simd::load(p + v * kLanes));
      for (int q = 0; q < Tiles * kIndexVectors; ++q) simd::store(index + q * 4, simd::I32{});
      return;
    }
    const simd::I32 rowv = simd::splat(static_cast<int32_t>(row));
    for (int t = 0; t < Tiles; ++t) {
      M m[kValueVectors];
      for (int r = 0; r < kValueVectors; ++r) {
        const int v = t * kValueVectors + r;
        m[r] = exact_update(simd::load(p + v * kLanes), simd::load(best + v * kLanes), best + v * kLanes);
      }
      if constexpr (Index) {
        simd::I32 im[kIndexVectors];
        tile_index_masks(m, im);
        for (int q = 0; q < kIndexVectors; ++q) {
          int32_t* at = index + t * kTile + q * 4;
          simd::store(at, simd::select(im[q], rowv, simd::load(at)));
        }
      }
    }
  }

  // float16/bfloat16 (the lanes with a raw way) arg kinds, and float32 ArgMax and ArgMin (first
  // index; the other rules stay exact for size): whole_rows below by the fast way first (float16/bfloat16:
  // ordered keys, a max and a compare an element, where the exact keys cost a NaN test and a
  // select more; float32: a pmax and a compare), watched by the way's guard (a NaN shows beyond
  // +-inf in the keys' running extremes, or in float32's running sum); where it trips, every row
  // is decided again the exact way (the call starts fresh). Kernel in cache, rows of 2 and 3:
  // float16 1.17x and 1.43x, float32 1.14x and 1.33x faster; float32 ArgMin (fifty-fourth
  // session) 1.21x and 1.45x, end to end [262144, 2] 1.05x, [174762, 3] 1.17-1.19x, for 212 bytes
  // (its rows of four, below, would take 271 more: ArgMax only).
  static constexpr bool kFastWholeRows =
      Index && (L::kRawWay || (std::is_same<Raw, float>::value && !Last));
  template <int K>
  static bool whole_rows_fast(const Raw* x, int64_t count, Raw* best, int32_t* index) {
    static_assert(kValueVectors == 1, "a tile is one vector");
    using W = typename L::template FastWay<D>;
    using WK = typename W::K;
    constexpr bool Keeps = W::template keeps<Last>();
    typename W::Guard guard;
    WK seen{};  // the best keys' running extreme in the rule's direction, for the guard
    for (int64_t r = 0;; r += kTile) {
      if (r > count - kTile) r = count - kTile;
      V in[K], e[K];
      for (int s = 0; s < K; ++s) in[s] = simd::load(x + K * r + s * kLanes);
      simd::split_rows<K, Raw>(in, e);
      WK k[K];
      for (int j = 0; j < K; ++j) k[j] = W::key(e[j]);
      guard.template row<K>(e, k);
      WK bk = k[0];
      RV rel{};  // the winning element: 0, or j where element j replaced
      for (int j = 1; j < K; ++j) {
        const RV mo = simd::opaque(simd::bits<RV>(W::template step<Last>(k[j], bk)));
        rel = vmax(rel, simd::splat(static_cast<RowLane>(j)) & (Keeps ? ~mo : mo));
      }
      seen = r == 0 ? bk : vbetter<D>(seen, bk);
      simd::store(best + r, W::raw(bk));
      store_rows(&rel, false, 0, index + r);
      if (r == count - kTile) break;
    }
    return !guard.template fails<1>(&seen);
  }

  // 8-byte lanes, arg kinds: whole rows of kShortestPaired to kLongestPaired elements ([N, 7]
  // float64 scores or int64 labels) without the scratch: element j of two rows is one vector (two
  // 8-byte loads), so a tile of four rows is decided in registers, element by element, by the
  // fast way (float64: a pmax and a compare; int64: a compare and a select), watched by
  // its guard (float64: a NaN in the running sum; then the call goes the scratch's way, exact).
  // The squares' stores and reloads and the column sweep's fixed work per tile cost more than the
  // comparisons with two lanes a vector. Kernel in cache (bench/kernels.mjs --ab, 11 rounds):
  // float64 rows of 4-10 1.34-1.57x, int64 1.30-1.49x; rows of 2-3 0.44-0.78x (whole_rows splits
  // them in registers). Rows of 13-24 since (rows of 21 had measured level against an older
  // scratch path): kernel in cache 1.33-1.47x, end to end (bench/ab.mjs) float64 [13107, 20]
  // 1.20x, [20164, 13] 1.25x, [1, 128, 128, 21] 1.25x, ArgMin [12483, 21] 1.22x, int64 [16384, 16]
  // 1.23x, select_last_index [10922, 24] 1.21x. An arg kind's states are fresh here (ShortRows sends
  // arg kinds only from index 0) and are not read. ReduceMax's are (paired_reduce).
  static constexpr bool kPairedRows = sizeof(Raw) == 8;
  // Element j of rows p and p + k (k elements long) as one vector: paired_rows' and paired_reduce's unit.
  static V pair_element(const Raw* p, ptrdiff_t k, ptrdiff_t j) { return V{p[j], p[k + j]}; }
  static constexpr int64_t kShortestPaired = 4, kLongestPaired = 24;
  __attribute__((noinline)) static bool paired_rows(const Raw* x, int64_t count, int64_t length, Raw* best,
                                                    int32_t* index) {
    if constexpr (!Index) {
      paired_reduce(x, count, length, best);
      return true;
    }
    using W = typename L::template FastWay<D>;
    using WK = typename W::K;
    constexpr bool Keeps = W::template keeps<Last>();
    typename W::Guard guard;
    const ptrdiff_t k = static_cast<ptrdiff_t>(length);
    const auto element = [k](const Raw* p, ptrdiff_t j) { return pair_element(p, k, j); };
    for (int64_t r = 0;; r += kTile) {
      if (r > count - kTile) r = count - kTile;  // the last tile reaches back: fresh rows decided again
      const Raw* p = x + r * k;
      V c[kValueVectors];
      WK bk[kValueVectors];
      RV rel[kValueVectors] = {};  // the winning element: 0, or j where element j replaced
      for (int v = 0; v < kValueVectors; ++v) c[v] = element(p + 2 * v * k, 0), bk[v] = W::key(c[v]);
      guard.template row<kValueVectors>(c, bk);
      for (ptrdiff_t j = 1; j < k; ++j) {
        WK kc[kValueVectors];
        for (int v = 0; v < kValueVectors; ++v) c[v] = element(p + 2 * v * k, j), kc[v] = W::key(c[v]);
        guard.template row<kValueVectors>(c, kc);
        const RV row = simd::splat(static_cast<RowLane>(j));
        for (int v = 0; v < kValueVectors; ++v) {
          const RV mo = simd::opaque(simd::bits<RV>(W::template step<Last>(kc[v], bk[v])));
          rel[v] = vmax(rel[v], row & (Keeps ? ~mo : mo));
        }
      }
      for (int v = 0; v < kValueVectors; ++v) simd::store(best + r + v * kLanes, W::raw(bk[v]));
      store_rows(rel, false, 0, index + r);
      if (r == count - kTile) break;
    }
    return !guard.template fails<kValueVectors>(static_cast<const WK*>(nullptr));
  }
  // float32 ArgMax, int32 ArgMax and ArgMin (first index, and Hardmax) over whole fresh rows of
  // kShortestSquared to kLongestSquared ([N, 21] class scores in NHWC layout) without the
  // scratch: a square of four rows
  // by four elements, transposed in registers, gives element j of the four rows as one vector (the
  // last square of a row reaching back over elements already merged, which leaves the state as it
  // is), decided by the fast way as paired_rows does; where its guard trips (a NaN) the caller goes
  // the scratch's way. Kernel in cache against the scratch: rows of 6 1.09-1.11x, 7 1.25-1.30x, 8
  // 1.37x, 13 1.17x, 21 1.18-1.30x, 24 1.30x, 33 1.36x, 40 1.26x; end to end [1,512,512,21]
  // 1.09-1.13x, [104857,10] 1.11x, [26214,40] 1.16-1.19x. Rows of 4 and 5 keep the whole-row ways
  // (squares 0.46x and 0.68x of them); from 41 RowGroupMax takes them first (squares ran level at
  // 64, 0.67x at 150). +0.38 KB gzipped.
  // int32's set too (its ArgMax; uint32's ArgMax and ArgMin run on it keyed, keyed_kernels.h), by
  // the integer fast way (a max and a compare) with no guard: kernel in cache against the scratch,
  // rows of 6 1.05x, 7 1.11x, 8 1.20x, 10-13 1.22-1.25x, 16-40 1.29-1.36x; end to end (bench/ab.mjs)
  // [131072,7] 1.04x, [1,512,512,21] 1.14x, [65536,16] 1.15x, [26214,40] 1.25x, uint32 [131072,7]
  // 1.04x. +0.31 KB gzipped (the budget's last room but 105 bytes). int32's ArgMin too (fifty-fourth
  // session): kernel in cache rows of 8 1.14x, 21 1.15x, 40 1.17x (6 level); end to end [131072,7]
  // 1.06x, [65536,16] 1.08x, [26214,40] 1.08x, [1,512,512,21] 1.07x, for 49 bytes. float32's ArgMin
  // gained 0.99-1.13x in cache for 0.19 KB more: its way through the scratch is already faster.
  static constexpr bool kSquaredRows =
      Index && !Last && kLanes == 4 && (D == Direction::Max || !std::is_floating_point<Raw>::value);
  static constexpr int64_t kShortestSquared = 6, kLongestSquared = 40;
  __attribute__((noinline)) static bool square_rows(const Raw* x, int64_t count, int64_t length, Raw* best,
                                                    int32_t* index) {
    static_assert(kLanes == 4 && kValueVectors == 1, "squares of four rows of 4-byte values");
    using W = typename L::template FastWay<D>;
    using WK = typename W::K;
    constexpr bool Keeps = W::template keeps<Last>();
    typename W::Guard guard;
    const ptrdiff_t k = static_cast<ptrdiff_t>(length);
    const auto square = [&](const Raw* p, ptrdiff_t j, V (&e)[kLanes]) {
      for (int i = 0; i < kLanes; ++i) e[i] = simd::load(p + i * k + j);
      simd::transpose<Raw>(e);
      guard.template row<kLanes>(e, e);
    };
    const RV one = simd::opaque(simd::splat(static_cast<RowLane>(1)));
    for (int64_t r = 0;; r += kTile) {
      if (r > count - kTile) r = count - kTile;  // the last tile reaches back: fresh rows decided again
      const Raw* p = x + r * k;
      WK bk{};
      RV rel{};  // the winning element: 0, or j where element j replaced
      for (ptrdiff_t j = 0;; j += kLanes) {
        if (j > k - kLanes) j = k - kLanes;
        V e[kLanes];
        square(p, j, e);
        if (j == 0) bk = W::key(e[0]);  // element 0 seeds the state (its merge below keeps it)
        RV element = simd::splat(static_cast<RowLane>(j));  // stepped by one (see steps_row)
        for (int i = 0; i < kLanes; ++i, element += one) {
          const RV mo = simd::opaque(simd::bits<RV>(W::template step<Last>(W::key(e[i]), bk)));
          rel = vmax(rel, element & (Keeps ? ~mo : mo));
        }
        if (j == k - kLanes) break;
      }
      simd::store(best + r, W::raw(bk));
      store_rows(&rel, false, 0, index + r);
      if (r == count - kTile) break;
    }
    return !guard.template fails<1>(static_cast<const WK*>(nullptr));
  }
  // ReduceMax over such rows, the same pairs: each tile's states merge its rows' elements into the
  // rows kernel's Summary (float64: a pmax and an add an element, exact unless a NaN was summed;
  // int64: a compare and a select, always exact), else (a NaN) the tile goes by exact steps.
  // int64 merges even and odd elements in two chains, so each waits on half the merges (exact:
  // integers have no zeros of two signs); float64 keeps one chain, so that the first of equal
  // zeros is the one kept (two chains measured 0.81-1.06x, one 1.07-1.17x). The last tile reaching
  // back merges rows already merged again, which leaves their states as they are.
  static constexpr int kPairedChains = std::is_floating_point<Raw>::value ? 1 : 2;
  static void paired_reduce(const Raw* x, int64_t count, int64_t length, Raw* best) {
    const ptrdiff_t k = static_cast<ptrdiff_t>(length);
    const auto element = [k](const Raw* p, ptrdiff_t j) { return pair_element(p, k, j); };
    for (int64_t r = 0;; r += kTile) {
      if (r > count - kTile) r = count - kTile;
      const Raw* p = x + r * k;
      V b[kValueVectors];
      Sum sum[kPairedChains][kValueVectors];
      for (int v = 0; v < kValueVectors; ++v) {
        b[v] = simd::load(best + r + v * kLanes);
        sum[0][v] = Sum::of(b[v]);
        if constexpr (kPairedChains == 2) sum[1][v] = Sum::of(element(p + 2 * v * k, 0));
      }
      ptrdiff_t j = kPairedChains - 1;
      for (; j + kPairedChains <= k; j += kPairedChains)
        for (int c = 0; c < kPairedChains; ++c)
          for (int v = 0; v < kValueVectors; ++v) sum[c][v].merge(Sum::of(element(p + 2 * v * k, j + c)));
      bool exact = true;
      for (int v = 0; v < kValueVectors; ++v) {
        if (j < k) sum[0][v].merge(Sum::of(element(p + 2 * v * k, j)));
        if constexpr (kPairedChains == 2) sum[0][v].merge(sum[1][v]);
        exact = exact && sum[0][v].lanes_exact();
      }
      if (exact) {
        for (int v = 0; v < kValueVectors; ++v) simd::store(best + r + v * kLanes, sum[0][v].lane_extreme());
      } else {
        for (ptrdiff_t e = 0; e < k; ++e)
          for (int v = 0; v < kValueVectors; ++v) exact_step(element(p + 2 * v * k, e), b[v]);
        for (int v = 0; v < kValueVectors; ++v) simd::store(best + r + v * kLanes, b[v]);
      }
      if (r == count - kTile) break;
    }
  }

  // Whole rows of K (2 .. kMaxWholeRow) elements: a binary or few-class head, [N,K] over the
  // last axis, or a pixel's channels. K loads hold kLanes rows and K - 1 shuffles per element
  // split them (simd::split_rows), so each row is a K-row column problem decided in registers by
  // exact updates (after the fast ways below where they hold), with no scratch. An arg kind's states are fresh here (ShortRows sends arg
  // kinds only from index 0: the caller checks starts_fresh): they start as element 0 and are not
  // read. ReduceMax's states are read and updated by all K. A count that is not a whole number of
  // tiles ends with a tile overlapping the one before: the same rows decided again, from the
  // state they produced when it was read (unchanged under either tie rule). Out of line: one copy
  // per kernel set, not per caller.
  // Rows of four (a four-class map's scores, a canvas's RGBA bytes: four loads, eight shuffles for
  // four float32 rows) go whole only where the wasm size budget had room: ReduceMax over float32
  // and uint8 (kernel in cache 1.45x and 1.27x faster than through the scratch), and the arg
  // kinds with a fast way by it alone (kFastWholeRowsOf4). Whole rows of four of every kernel set
  // measured 1.3-1.8x for the 1- to 4-byte types but cost 1.5 KB gzipped.
  static constexpr int kMaxWholeRow = (std::is_same<Raw, float>::value || std::is_same<Raw, uint8_t>::value) && !Index ? 4 : 3;
  // float32 ArgMax (first index) and the float16/bfloat16 arg kinds over rows of four:
  // whole_rows_fast<4> alone; where its guard trips (a NaN) the caller goes the scratch's way (the
  // exact loop of whole_rows is not copied once more). Kernel in cache against the scratch:
  // float32 1.69x; float16 and bfloat16 ArgMax, ArgMin, select_last_index 1.52-1.87x.
  static constexpr bool kFastWholeRowsOf4 = kFastWholeRows && kLanes >= 4 && (L::kRawWay || D == Direction::Max);
  // float32 ArgMax (first index) over rows of five the same way (five loads, four blends and a
  // permute an element): a five-class head's scores. Kernel in cache 1.58x, end to end [52428,5]
  // 1.27x, [209715,5] 1.39-1.44x; +170 bytes gzipped. With a NaN every 37 values the call goes
  // twice (0.80x), as rows of four do.
  static constexpr bool kFastWholeRowsOf5 = kFastWholeRows && std::is_same<Raw, float>::value && D == Direction::Max;
  // ReduceMax over float whole rows: a tile first by its Summary (float32/float64: a pmax and an
  // add an element; float16/bfloat16: int16 max, uint16 min and max), the state first so a tie
  // keeps the earliest bits, stored unless a lane is not exact (a NaN; for the 16-bit floats also
  // a zero maximum beside a negative); such a tile goes the exact way. Kernel in cache, rows of 2
  // and 3: float32 1.37x and 1.50x faster, float64 1.36x and 1.83x, float16 1.43x and 1.62x.
  static constexpr bool kFastReduceRows = !Index && (std::is_floating_point<Raw>::value || L::kRawWay);
  template <int K>
  __attribute__((noinline)) static void whole_rows(const Raw* x, int64_t count, int64_t first, Raw* best, int32_t* index) {
    static_assert(K >= 2 && K <= kMaxWholeRow, "rows of two to four");
    static_assert(!kRelative || kValueVectors == 1, "a tile of narrow lanes is one vector");
    if constexpr (kFastWholeRows)
      if (whole_rows_fast<K>(x, count, best, index)) return;
    constexpr int J0 = Index ? 1 : 0;  // an arg kind's fresh state is element 0 as is
    for (int64_t r = 0;; r += kTile) {
      if (r > count - kTile) r = count - kTile;
      M m[K][kValueVectors];
      for (int v = 0; v < kValueVectors; ++v) {
        const Raw* p = x + K * (r + v * kLanes);
        V in[K], e[K];
        for (int s = 0; s < K; ++s) in[s] = simd::load(p + s * kLanes);
        simd::split_rows<K, Raw>(in, e);
        V b = Index ? e[0] : simd::load(best + r + v * kLanes);
        if constexpr (kFastReduceRows) {
          Sum sum = Sum::of(b);
          for (int j = 0; j < K; ++j) sum.merge(Sum::of(e[j]));
          if (sum.lanes_exact()) {
            simd::store(best + r + v * kLanes, sum.lane_extreme());
            continue;
          }
        }
        for (int j = J0; j < K; ++j) m[j][v] = exact_step(e[j], b);
        simd::store(best + r + v * kLanes, b);
      }
      if constexpr (Index && kRelative) {
        // 1- and 2-byte lanes: the winning element in the value's lane width, widened once.
        RV rel{};
        for (int j = J0; j < K; ++j) rel = vmax(rel, simd::splat(static_cast<RowLane>(j)) & simd::opaque(simd::bits<RV>(m[j][0])));
        store_rows(&rel, false, first, index + r);
      } else if constexpr (Index) {
        simd::I32 at[kIndexVectors] = {};
        for (int j = J0; j < K; ++j) {
          simd::I32 im[kIndexVectors];
          tile_index_masks(m[j], im);
          const simd::I32 row = simd::splat(static_cast<int32_t>(first + j));
          for (int q = 0; q < kIndexVectors; ++q) at[q] = simd::select(im[q], row, at[q]);
        }
        for (int q = 0; q < kIndexVectors; ++q) simd::store(index + r + q * 4, at[q]);
      }
      if (r == count - kTile) break;
    }
  }

  // ReduceMax (no index): each lane merges the rows into the rows kernel's Summary (floats:
  // pmax + a sum; integers: max; float16/bfloat16: int16 max, uint16 min and max), seeded with
  // the state. False, storing nothing, when a lane's extreme is not exact (a NaN, or a zero whose
  // sign is in doubt): the exact pass decides. float16/bfloat16 first try the raw pass (int16 and
  // uint16 max, two ops where the full summary takes three), exact where every lane's maximum is
  // positive: end to end [8,256,3136] and [8,256,56,56] over axis 1, bfloat16 [1024,1000] over
  // axis 0 1.06-1.13x (three runs), [1024,1024] level; +343 bytes gzipped. Where it fails, the
  // call's next kRawRetry groups skip it (all-negative data 0.66-0.75x without that, 0.96-0.97x).
  // float32 likewise (FloatLanes' merge_raw: the bits' int32 and uint32 maxima, two integer ops
  // where pmax and the sum are two float ops): end to end [1024,1024] over axis 0 1.12-1.13x,
  // [1024,1000] 1.16x, [64,64,64] over axis 1 1.14x, [8,256,3136] 1.04-1.07x, [4096,4096] 1.03x;
  // all negative 0.94-1.0x, zero maxima 0.93-0.98x, a NaN every 37 values 0.96-0.99x; +0.33 KB
  // gzipped. (The blocked walk on aliasing rows, which the raw pass makes faster in cache, still
  // lost end to end: [1024,1024] 0.88x.)
  using Sum = typename L::template Summary<D>;
  static constexpr int kSumTiles = [] {
    const int regs = static_cast<int>(sizeof(Sum) / simd::kBytes) * kValueVectors;
    int t = kGroup;
    while (t > 1 && t * regs > 8) t /= 2;
    return t;
  }();
  template <int Tiles, bool RawPass = false>
  static bool summary_pass(const Raw* x, int64_t rows, int64_t stride, Raw* best) {
    constexpr int NV = Tiles * kValueVectors;
    Sum s[NV];
    for (int v = 0; v < NV; ++v) s[v] = Sum::of(simd::load(best + v * kLanes));
    for (int64_t k = 0; k < rows; ++k, x += stride)
      for (int v = 0; v < NV; ++v) {
        if constexpr (RawPass) s[v].merge_raw(Sum::of(simd::load(x + v * kLanes)));
        else s[v].merge(Sum::of(simd::load(x + v * kLanes)));
      }
    for (int v = 0; v < NV; ++v) {
      if constexpr (RawPass) {
        if (!s[v].raw_lanes_exact()) return false;
      } else if (!s[v].lanes_exact()) {
        return false;
      }
    }
    for (int v = 0; v < NV; ++v) simd::store(best + v * kLanes, s[v].lane_extreme());
    return true;
  }

  // The raw way (and ReduceMax's raw pass) fails on columns whose result lies on the other side of
  // zero: tried through try_raw (lane_ops.h), which skips the next tries after a failure. (The Hint
  // handed down the sweep is that call; its count is shared, but passing it kept the module 1.3 KB
  // smaller than calling try_raw directly, which changed what clang inlines.)
  struct Hint {
    template <class F>
    bool raw(F attempt) { return try_raw(attempt); }
  };

  template <int Tiles>
  static void group(const Raw* x, int64_t rows, int64_t stride, int64_t first, Raw* best, int32_t* index, Hint* hint) {
    if (rows == 1) return one_row<Tiles>(x, first, best, index);
    if constexpr (!Index) {
      if (rows >= kFastRows) {
        constexpr int Sub = Tiles < kSumTiles ? Tiles : kSumTiles;
        for (int t = 0; t < Tiles; t += Sub) {
          if constexpr (L::kRawSummary)
            if (hint->raw([&] { return summary_pass<Sub, true>(x + t * kTile, rows, stride, best + t * kTile); })) continue;
          if (!summary_pass<Sub>(x + t * kTile, rows, stride, best + t * kTile))
            pass<Sub, typename L::template ExactWay<D>>(x + t * kTile, rows, stride, first, best + t * kTile, nullptr);
        }
        return;
      }
    }
    for (int64_t k = 0; k < rows; k += kPassRows) {  // one pass, except relative rows beyond 254 / 65534
      const int64_t n = rows - k < kPassRows ? rows - k : kPassRows;
      const Raw* xk = x + k * stride;
      if (n >= kFastRows) {
        if constexpr (L::kRawWay)
          if (hint->raw([&] { return pass<Tiles, typename L::template RawWay<D>>(xk, n, stride, first + k, best, index); }))
            continue;
        if (pass<Tiles, typename L::template FastWay<D>>(xk, n, stride, first + k, best, index)) continue;
      }
      pass<Tiles, typename L::template ExactWay<D>>(xk, n, stride, first + k, best, index);
    }
  }

  // `rows` rows of `width` >= kTile elements, `stride` apart; row k has index first + k. A width
  // that is not a whole number of tiles ends with a tile overlapping the one before: walking the
  // same rows again from the state they produced leaves it unchanged, under either tie rule.
  // Measured and left out for size: a group of three tiles for int64 first-index arg kinds (the
  // narrow path's virtual rows of 12 for [N,256,3] slices in one pass instead of SlicesAsRows'
  // transposition: kernel 1.22x, end to end 1.05x, +0.8 KB gzipped) and a group of two tiles
  // before the single ones for 1- and 2-byte arg kinds (uint8 [N,256,5]'s 40-wide virtual rows in
  // two passes instead of three: kernel 1.14x, +3 KB).
  static void sweep(const Raw* x, int64_t rows, int64_t width, int64_t stride, int64_t first, Raw* best,
                    int32_t* index, Hint* hint) {
    int64_t j = 0;
    for (; j + kGroup * kTile <= width; j += kGroup * kTile)
      group<kGroup>(x + j, rows, stride, first, best + j, Index ? index + j : nullptr, hint);
    for (; j + kTile <= width; j += kTile) group<1>(x + j, rows, stride, first, best + j, Index ? index + j : nullptr, hint);
    if (j < width) {
      j = width - kTile;
      group<1>(x + j, rows, stride, first, best + j, Index ? index + j : nullptr, hint);
    }
  }

  // Input larger than the caches (a whole tensor already in wasm memory, fed at once) is walked
  // cache-blocked: a block of columns whose state stays in L1 takes kRowsPerPass rows per pass,
  // so memory is read as a few sequential runs at a time instead of one stream per row (21 rows
  // 1 MiB apart in the [1,21,512,512] case). Input in cache (a staged chunk) keeps every row of
  // the call in one register pass, unless its rows alias in L1 (blocked_in_cache). Narrow lanes
  // merge rows once per pass: 16. The arg kinds of wider lanes read 8 a pass (bench/kernels.mjs
  // against 4, from memory: ArgMax over the 21 channels of [1,21,512,512] float32 1.13-1.29x,
  // float64 1.11-1.26x, int32 1.03-1.06x, Hardmax 1.03-1.05x); ReduceMax keeps 4 ([8,256,3136]
  // over axis 1 float32 0.68-0.77x at 8, int32 0.90x), but for float64, which reads 8 (a
  // wasmTensor into { out }: [4096,4096] over axis 0 1.34-1.55x, [8,256,3136] over axis 1
  // 1.04-1.19x, [8,256,56,56] 1.01-1.08x; staged chunks, which sweep, level; +78 bytes). int64 at 8
  // would be 465 bytes smaller but ran slower ([8,256,3136] over axis 1 0.86-0.95x, on a quiet host)
  // and stays at 4.
  static constexpr int64_t kRowsPerPass = kRelative ? 16 : (Index || std::is_same<Raw, double>::value) ? 8 : 4;
  static constexpr int64_t kCachedBytes = 256 * 1024;
  static constexpr int64_t kBlockColumns =
      (16384 / (sizeof(Raw) + (Index ? 4 : 0))) / (kGroup * kTile) * (kGroup * kTile);

  // Rows a multiple of 4 KiB apart fall in one L1 set (l1_geometry.h). ReduceMax's sweep walks
  // each 64-byte column group down all the call's rows: where the rows do not start on a line,
  // each group spans two lines of every row and the second is gone from the set by the next
  // group (a 256 KiB chunk of [1024,1024] int32 over axis 0 at 8 mod 64: 7-9 GB/s, where 1000 or
  // 1056 columns read 28-47). Such calls take the blocked walk in cache too, 8 rows a pass (16
  // thrashed again): 1.3-3.5x there. On rows that start on a line (the staging buffer is aligned:
  // js/session.js) the blocked walk still gains for integers ([1024,1024] int32 1.08-1.14x, uint8
  // [1024,4096] 1.07-1.13x end to end) and for float16/bfloat16, whose summary is three integer
  // registers (Zen 5 host: [1024,2048] and [2048,2048] over axis 0 1.48-1.50x end to end), and
  // loses for float32 and float64 (pmax and sum: 0.91-0.97x on Zen 3 and Zen 5 hosts alike), so
  // those two sweep. The arg kinds measured slower blocked (Zen 5: 0.59-0.97x end to end).
  static constexpr int64_t kAliasingRowsPerPass = kL1Ways;
  static bool blocked_in_cache(const Raw* x, int64_t stride) {
    if (Index || stride * static_cast<int64_t>(sizeof(Raw)) % kL1SetSpanBytes != 0) return false;
    return reinterpret_cast<uintptr_t>(x) % kL1LineBytes != 0 || !std::is_floating_point<Raw>::value;
  }

  static void run(const Raw* x, int64_t rows, int64_t width, int64_t stride, int64_t first, Raw* best,
                  int32_t* index) {
    Hint hint;
    const bool blocked = blocked_in_cache(x, stride);
    const int64_t rows_per_pass = blocked ? kAliasingRowsPerPass : kRowsPerPass;
    if (rows <= rows_per_pass || (!blocked && rows * stride * static_cast<int64_t>(sizeof(Raw)) <= kCachedBytes))
      return sweep(x, rows, width, stride, first, best, index, &hint);
    // Rows split over the fewest passes, ceil(rows / passes) a pass and the rest last (21 rows:
    // 7 + 7 + 7 at 8 a pass; 4 + 4 + 4 + 4 + 4 + 1 at 4). A pass of fewer than kFastRows rows takes
    // the exact way (one row: one_row), only slower: 21 rows at 4 a pass split 4 + 4 + 4 + 3 + 3 + 3
    // ran the [1,21,512,512] map 0.77x.
    const int64_t passes = (rows + rows_per_pass - 1) / rows_per_pass, per_pass = (rows + passes - 1) / passes;
    for (int64_t j = 0; j < width;) {
      const int64_t w = width - j < kBlockColumns + kTile ? width - j : kBlockColumns;  // no sliver left
      for (int64_t k = 0; k < rows; k += per_pass)
        sweep(x + k * stride + j, rows - k < per_pass ? rows - k : per_pass, w, stride, first + k, best + j,
              Index ? index + j : nullptr, &hint);
      j += w;
    }
  }
};

}  // namespace ox
