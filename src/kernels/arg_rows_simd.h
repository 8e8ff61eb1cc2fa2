// ArgMax / ArgMin / ReduceMax over rows (the reduced axis innermost) in SIMD, blocked two-pass:
//  1. one pass over a block of a few KB keeps a lane-wise running max (min) and a NaN detector,
//     the cheapest loop there is (for float32: f32x4.pmax + f32x4.add per vector);
//  2. only when the block's extreme beats the running best (or the detector fires) is the block,
//     still in L1, rescanned for the exact index: the first (last) lane equal to the extreme, or
//     the first (last) NaN. A NaN ends the row for the first-index rule: nothing replaces it.
// Ties, -0 == +0, NaN payload bits and the carried state match the portable kernels exactly.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/lanes.h"
#include "kernels/traits.h"

namespace ox {

// 16 KiB: a settle per block (NaN check, the block's extreme folded, compared) costs about as
// much as streaming a few hundred bytes, so longer blocks pay on long rows: the kernel over
// [1,32000] logits, float16 1.44 -> 1.26-1.33 us, float32 2.6-2.7 -> 2.3, float64 5.6 -> 4.5
// (4 KiB before). The rescan reads the marks and one group, still in L1; 32 KiB measured alike.
constexpr int64_t kRowBlockBytes = 16384;

// Which first pass a block of the row kernel takes (lanes with raw passes: L::kRawRows): the full
// summary, the raw bits' pass for an extreme on the favoured side of zero (a positive max), or
// the other side's (a max of all-negative values). Carried from block to block and row to row.
enum class RowPass : uint8_t { Full, Raw, Other };

// The pass for the first block of a call's rows (RowScan::first_pass), which no block before it
// has chosen: the other side's when 16 vectors spread over the block (its first n elements, n >=
// the lanes) lie wholly there (log-probabilities for a max, distances for a min), else the raw
// pass (a row whose first values alone are masked to -inf still takes it). A wrong guess costs the
// full pass it falls back to, as the raw guess always made did on such rows; end to end (an
// alternating A/B of whole calls) log-probabilities [1,32000] float32 1.06-1.09x, float16 1.15-1.18x,
// [8,128256] 1.05-1.10x, ArgMin over non-negative rows 1.06-1.16x, logits level (docs/speed.md).
// One copy per lanes and direction (not per rule), its loop not unrolled: the module's size.
template <class L, Direction D>
__attribute__((noinline)) RowPass first_row_pass(const typename L::Raw* x, int64_t n) {
  if constexpr (!L::kRawRows) {
    return RowPass::Full;  // (no raw passes to choose)
  } else {
    using Summary = typename L::template Summary<D>;
    const int64_t last = n - L::kLanes;
    Summary s = Summary::of(simd::load(x));
#pragma GCC unroll 1  // (clang reads it too)
    for (int64_t k = 1; k <= 15; ++k) s.merge(Summary::of(simd::load(x + last * k / 15)));
    return s.other_would_decide() ? RowPass::Other : RowPass::Raw;
  }
}

template <class L, class Rule, bool Index>
struct RowScan {
  using Lanes = L;
  using Raw = typename L::Raw;
  using V = typename L::V;
  using Tr = typename Rule::ValueTraits;
  static constexpr Direction D = Rule::kDirection;
  static constexpr bool Last = Rule::kLast;
  static constexpr ptrdiff_t kLanes = L::kLanes;
  static constexpr int64_t kBlock = kRowBlockBytes / sizeof(Raw);
  using Summary = typename L::template Summary<D>;

  // Lane-wise pass over p[0, n), n >= kLanes; the last vector may overlap the one before. Each
  // iteration merges kUnroll vectors as a tree, so the loop-carried chain is one merge (the add
  // of the float NaN detector has a 3-cycle latency).
  template <RowPass P>
  static void merge(Summary& a, const Summary& b) {
    if constexpr (P == RowPass::Raw) a.merge_raw(b);
    else if constexpr (P == RowPass::Other) a.merge_other(b);
    else a.merge(b);
  }
  // The summary of G vectors `Step` elements apart (contiguous by default), earlier ones first.
  // (Also the period-strided tree of InterleavedMax.)
  template <int G, RowPass P, ptrdiff_t Step = kLanes>
  static Summary tree(const Raw* q) {
    if constexpr (G == 1) {
      return Summary::of(simd::load(q));
    } else {
      Summary a = tree<G / 2, P, Step>(q);
      merge<P>(a, tree<G / 2, P, Step>(q + (G / 2) * Step));
      return a;
    }
  }
  // Also stores the summary of each group of kUnroll vectors (the tail's vectors make one last
  // group) as a mark: a rescan looks at the marks first, then at the one group holding the
  // extreme. One store per group; the rescan reads a 32nd of the block.
  // ReduceMax's float32 passes store none (kMaxRowMarks: float_lanes.h). The marks go through a
  // pointer, not an index: the loop is then small enough for Node 26's V8 to unroll its raw and
  // other passes 3x (ArgMax float16 [1,32000] 1.10-1.12x end to end there, level on Node 20; the
  // input stepped by a pointer too cost 1 KB gzipped for nothing more: docs/speed.md).
  static constexpr ptrdiff_t kStep = L::kUnroll * kLanes;
  static constexpr bool kMarked = Index || kMaxRowMarks<L>;
  static constexpr int kMaxGroups = static_cast<int>(kBlock / kStep) + 1;
  using Mark = typename Summary::Mark;
  template <RowPass P>
  static Mark mark(const Summary& t) {
    if constexpr (P == RowPass::Raw) return t.mark_raw();
    else if constexpr (P == RowPass::Other) return t.mark_other();
    else return t.mark();
  }
  template <RowPass P>
  static Summary summarize(const Raw* p, ptrdiff_t n, Mark* marks, int* groups) {
    Summary s = Summary::of(simd::load(p));
    ptrdiff_t i = 0;
    Mark* m = marks;
    for (; i + kStep <= n; i += kStep) {
      const Summary t = tree<L::kUnroll, P>(p + i);
      if constexpr (kMarked) *m++ = mark<P>(t);
      merge<P>(s, t);
    }
    if (i < n) {
      Summary t = Summary::of(simd::load(p + n - kLanes));
      for (; i + kLanes < n; i += kLanes) merge<P>(t, Summary::of(simd::load(p + i)));
      if constexpr (kMarked) *m++ = mark<P>(t);
      merge<P>(s, t);
    }
    *groups = static_cast<int>(m - marks);
    return s;
  }

  // The first / last j in [0, n) whose lane the mask function marks, or -1 (n >= kLanes). Eight
  // vectors per test; the lane comes from their byte masks (a count of zero bits), so the one
  // branch is whether the eight hold a mark. Runs once per winning block, in L1.
  static constexpr int kSize = sizeof(Raw);
  template <class F>
  static uint64_t masks4(const Raw* q, F mask_of) {
    return simd::byte_mask(mask_of(simd::load(q)), mask_of(simd::load(q + kLanes)), mask_of(simd::load(q + 2 * kLanes)),
                           mask_of(simd::load(q + 3 * kLanes)));
  }
  // Lanes wider than a byte: eight vectors' masks as one bit mask in memory order, narrowed first
  // (fewer bitmasks, shifts and ors than a bitmask a vector: rows of 1000 float32 1.07x in
  // cache), one bit per kBitBytes bytes.
  static constexpr int kBitBytes = kSize >= 4 ? 4 : kSize;
  template <class F>
  static uint64_t masks8(const Raw* q, F mask_of) {
    static_assert(kSize >= 2, "bytes: masks4");
    const auto at = [&](int k) { return mask_of(simd::load(q + k * kLanes)); };
    if constexpr (kSize == 2)
      return (simd::narrowed_mask(at(0), at(1)) | simd::narrowed_mask(at(2), at(3)) << 16) |
             uint64_t{simd::narrowed_mask(at(4), at(5)) | simd::narrowed_mask(at(6), at(7)) << 16} << 32;
    else
      return simd::packed_mask(at(0), at(1), at(2), at(3)) | simd::packed_mask(at(4), at(5), at(6), at(7)) << 16;
  }
  template <class F>
  __attribute__((always_inline)) static ptrdiff_t find_first(const Raw* p, ptrdiff_t n, F mask_of) {
    ptrdiff_t i = 0;
    for (; i + 8 * kLanes <= n; i += 8 * kLanes) {
      if constexpr (kSize >= 2) {
        const uint64_t m = masks8(p + i, mask_of);
        if (m) return i + __builtin_ctzll(m) * kBitBytes / kSize;
      } else {
        const uint64_t lo = masks4(p + i, mask_of), hi = masks4(p + i + 4 * kLanes, mask_of);
        if (lo | hi) return i + (lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(hi)) / kSize;
      }
    }
    for (;; i += kLanes) {
      const bool final = i + kLanes >= n;
      if (final) i = n - kLanes;
      const uint32_t m = simd::byte_mask(mask_of(simd::load(p + i)));
      if (m) return i + __builtin_ctz(m) / kSize;
      if (final) return -1;
    }
  }
  template <class F>
  __attribute__((always_inline)) static ptrdiff_t find_last(const Raw* p, ptrdiff_t n, F mask_of) {
    ptrdiff_t i = n;  // lanes [i, n) are done
    for (; i >= 8 * kLanes; i -= 8 * kLanes) {
      const ptrdiff_t at = i - 8 * kLanes;
      if constexpr (kSize >= 2) {
        const uint64_t m = masks8(p + at, mask_of);
        if (m) return at + (63 - __builtin_clzll(m)) * kBitBytes / kSize;
      } else {
        const uint64_t lo = masks4(p + at, mask_of), hi = masks4(p + at + 4 * kLanes, mask_of);
        if (lo | hi) return at + (hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo)) / kSize;
      }
    }
    for (;;) {
      const bool final = i <= kLanes;
      i = final ? 0 : i - kLanes;
      const uint32_t m = simd::byte_mask(mask_of(simd::load(p + i)));
      if (m) return i + (31 - __builtin_clz(m)) / kSize;
      if (final) return -1;
    }
  }
  template <class F>
  __attribute__((always_inline)) static ptrdiff_t find(const Raw* p, ptrdiff_t n, F mask_of) {
    return Last ? find_last(p, n, mask_of) : find_first(p, n, mask_of);
  }

  // The first (last) j in [0, n) where p[j] equals m, the extreme of a block without NaN: the
  // first (last) group whose mark holds m, then within that group. A group shorter than a vector
  // (the tail) is searched from n - kLanes: the elements it reaches back to are in earlier
  // groups, which hold no m under the first-index rule and come before the answer under the
  // last-index rule.
  static ptrdiff_t locate(const Raw* p, ptrdiff_t n, const Mark* marks, int groups, V m) {
    static_assert(sizeof(Mark) == simd::kBytes, "a mark is one vector");
    const auto eq = [m](V v) { return L::equal_mask(v, m); };
    // Without marks (ReduceMax, kMarked): its zero maximum, searched for from the start.
    if constexpr (!kMarked) return find(p, n, eq);
    const ptrdiff_t g = find(reinterpret_cast<const Raw*>(marks), groups * kLanes,
                             [m](V v) { return Summary::holds(simd::bits<Mark>(v), m); }) / kLanes;
    ptrdiff_t start = g * kStep, len = (g + 1) * kStep < n ? kStep : n - start;
    if (len < kLanes) start = n - kLanes, len = kLanes;
    return start + find(p + start, len, eq);
  }

  // A summarized block of n elements at p (index `at0` = its first element's index): the block
  // settles the state (b, at). Returns false when nothing later can change it (a first NaN).
  // Lanes with raw passes (L::kRawRows) try the one `pass` names first; `pass` carries, from block
  // to block, the one that would have settled the last block (or Full: neither), so rows of one
  // kind pay for a pass that fails only at a switch. The other side's pass (an all-negative max:
  // log-probabilities; an all-non-negative min: distances), against the full summary there:
  // kernel in cache ArgMax [1,32000] float32 1.35x, float16 1.44x, ReduceMax rows of 1024 1.34-1.36x,
  // ArgMin rows of 1024 float32 1.14x, float16 1.17x; end to end (bench/ab.mjs) ArgMax [1,32000]
  // float32 1.16-1.18x, float16 1.21x, [8,128256] 1.16-1.21x, ReduceMax [4096,1024] 1.09-1.15x,
  // ArgMin float32 [4096,1024] 1.07-1.11x, float16 [1024,4096] 1.17-1.19x; +517 bytes gzipped.
  struct Block {
    Summary sum;
    Mark marks[kMaxGroups];
    int groups;
    RowPass by = RowPass::Full;  // the pass that settles it
    void summarize(const Raw* p, ptrdiff_t n, RowPass& pass) {
      if constexpr (L::kRawRows) {
        by = RowPass::Full;
        if (pass == RowPass::Raw) {
          sum = RowScan::summarize<RowPass::Raw>(p, n, marks, &groups);
          if (sum.raw_decides()) {
            by = RowPass::Raw;
            return;
          }
        } else if (pass == RowPass::Other) {
          sum = RowScan::summarize<RowPass::Other>(p, n, marks, &groups);
          if (sum.other_decides()) {
            by = RowPass::Other;
            return;
          }
        }
        sum = RowScan::summarize<RowPass::Full>(p, n, marks, &groups);
        pass = sum.raw_would_decide() ? RowPass::Raw : sum.other_would_decide() ? RowPass::Other : RowPass::Full;
      } else {
        sum = RowScan::summarize<RowPass::Full>(p, n, marks, &groups);
      }
    }
    // The block's extreme in every lane; after a raw pass, from its lanes alone.
    V spread() const {
      if constexpr (L::kRawRows) {
        if (by == RowPass::Raw) return sum.spread_raw();
        if (by == RowPass::Other) return sum.spread_other();
      }
      return sum.spread();
    }
    bool settle(const Raw* p, ptrdiff_t n, int64_t at0, Raw& b, int64_t& at) const {
      if (sum.maybe_nan()) {
        const ptrdiff_t j = find(p, n, [](V v) { return L::nan_mask(v); });
        if (j >= 0) {
          b = p[j], at = at0 + j;
          return Last;
        }
      }
      if (Tr::nan(b)) return true;  // (last-index rule) only a later NaN replaces a NaN
      if (!sum.template may_beat<Last>(b)) return true;  // the common case: one vector compare
      const V mv = spread();
      const Raw m = mv[0];
      if (Last ? Rule::better(b, m) : !Rule::better(m, b)) return true;
      if (Index || L::zero(m)) {  // ReduceMax needs the element only for the bits of a zero
        const ptrdiff_t j = locate(p, n, marks, groups, mv);
        b = p[j], at = at0 + j;
      } else {
        b = m;
      }
      return true;
    }
  };

  static RowPass first_pass(const Raw* x, int64_t length) { return first_row_pass<L, D>(x, length < kBlock ? length : kBlock); }

  // One run of `length` >= kLanes elements continuing state (*best, *index); x[0] has index `first`.
  // `pass` (lanes with raw passes): the first block's first pass; left as the last block would
  // pick for the next, so rows one after another carry it.
  static void run(const Raw* x, int64_t length, int64_t first, Raw* best, int32_t* index, RowPass& pass) {
    Raw b = state_value<Rule, Index>(best, first);  // (traits.h: a fresh run reads neither)
    int64_t at = state_index<Index>(index, first);
    if (!Last && Tr::nan(b)) return;  // the first NaN already won
    for (int64_t s = 0; s < length; s += kBlock) {
      ptrdiff_t n = static_cast<ptrdiff_t>(length - s < kBlock ? length - s : kBlock);
      int64_t base = s;
      if (n < kLanes) base = length - kLanes, n = kLanes;  // a short tail reaches back: harmless
      Block block;
      block.summarize(x + base, n, pass);
      if (!block.settle(x + base, n, first + base, b, at)) break;
    }
    *best = b;
    if (Index) *index = static_cast<int32_t>(at);
  }

  // `rows` runs of kLanes <= length <= kBlock elements, each one block: the next row's summary
  // pass is issued before this row's rescan, so the rescan's dependent chain (extreme, marks,
  // group, element) overlaps with loads instead of stalling them.
  static void short_runs(const Raw* x, int64_t rows, int64_t length, int64_t first, Raw* best, int32_t* index) {
    const ptrdiff_t n = static_cast<ptrdiff_t>(length);
    Block blocks[2];
    RowPass pass = first_pass(x, n);
    blocks[0].summarize(x, n, pass);
    for (int64_t k = 0; k < rows; ++k) {
      if (k + 1 < rows) blocks[(k + 1) & 1].summarize(x + (k + 1) * length, n, pass);
      Raw b = state_value<Rule, Index>(best + k, first);
      int64_t at = state_index<Index>(Index ? index + k : nullptr, first);  // (ReduceMax: no index array)
      if (Last || !Tr::nan(b)) blocks[k & 1].settle(x + k * length, n, first, b, at);
      best[k] = b;
      if (Index) index[k] = static_cast<int32_t>(at);
    }
  }
};

}  // namespace ox
