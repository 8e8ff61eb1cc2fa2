#include "kernels/registry.h"

#include <algorithm>
#include <type_traits>

#include "kernels/arg_columns_simd.h"
#include "kernels/arg_halving.h"
#include "kernels/arg_portable.h"
#include "kernels/arg_rows_simd.h"
#include "kernels/byte_slices_max.h"
#include "kernels/half_slices_max.h"
#include "kernels/interleaved_arg.h"
#include "kernels/interleaved_max.h"
#include "kernels/keyed_kernels.h"
#include "kernels/lanes.h"
#include "kernels/max_portable.h"
#include "kernels/narrow_columns.h"
#include "kernels/paired_rows_max.h"
#include "kernels/row_group_max.h"
#include "kernels/row_halving.h"
#include "kernels/short_rows.h"
#include "kernels/traits.h"
#include "ops/schema.h"

namespace ox {
namespace {

// How many rows (slices) go the other paths after a fast path stopped at one it could not vouch
// for: `base` when it took some first, else twice as many as the last time, at most `cap`. (So
// data it never takes costs one wasted try per `cap` rows, and a rare stop only `base`.)
inline int64_t aside_after(int64_t done, int64_t last, int64_t base, int64_t cap) {
  return done > 0 ? base : std::min(2 * last, cap);
}

// Below this length the portable loop wins for a row (rows too short for it and too few for the
// short-row path).
template <class L>
constexpr int64_t min_simd_row() { return 2 * L::kLanes; }
// The arg kinds' rows fewer than 4 (a lone row of logits or scores; too few for the short-row path
// of any type) go portable below 4 vectors where a vector holds 8 lanes or fewer: the SIMD pass's
// setup and its settle cost more than such a row's scalar loop. End to end (bench/ab.mjs, 4
// processes): float32 ArgMax [1,10] 1.10-1.12x, [3,15] 1.07x, float16 [1,30] 1.04x, float64 [1,7]
// 1.03x, int32 [1,15] level; bytes' 16 lanes stay at 2 vectors (uint8 [3,40] at 4 vectors: 0.77x);
// ReduceMax keeps 2 vectors (bfloat16 [1,30] 0.97x, float32 rows of 12-15 level).
template <class L>
constexpr int64_t min_simd_arg_row(int64_t rows) { return (rows < 4 && L::kLanes <= 8 ? 4 : 2) * L::kLanes; }

// The column kernels without the narrow step: the portable loop below a tile, else ColumnScan.
// Out of line, one copy per kernel set: the entry below calls it, and so does the narrow path for
// its virtual rows, which must not take the narrow step a second time.
template <class Set>
__attribute__((noinline)) void direct_columns(const void* x, int64_t n, int64_t width, int64_t stride, int64_t first,
                                              void* best, int32_t* index) {
  using Raw = typename Set::Raw;
  const Raw* in = static_cast<const Raw*>(x);
  Raw* b = static_cast<Raw*>(best);
  if (width < Set::Columns::kTile) return Set::portable_columns(in, n, width, stride, first, b, index);
  Set::Columns::run(in, n, width, stride, first, b, index);
}

// What the narrow-column path (narrow_columns.h) needs of a kernel set.
template <class Set, class Rule>
constexpr NarrowColumnKernels narrow_kernels_of() {
  using Columns = typename Set::Columns;
  return {&direct_columns<Set>, &Set::fill_start, &narrow_merge<Rule, Columns::kTracksIndex>, sizeof(typename Set::Raw),
          Columns::kTile, Columns::kGroup * Columns::kTile, Columns::kTracksIndex};
}

// The column entry of either kernel set below (Set::columns, out of line so column_slices adds no
// copy): narrow rows as wide virtual ones where that applies, the rows left (or all) straight to
// the column kernels.
template <class Set, class Rule>
void columns_of(const void* x, int64_t n, int64_t width, int64_t stride, int64_t first, void* best, int32_t* index) {
  using Raw = typename Set::Raw;
  int32_t* at = Set::Columns::kTracksIndex ? index : nullptr;  // ReduceMax has no indices
  if constexpr (InterleavedMax<Set>::kTakes)
    if (stride == width && InterleavedMax<Set>::applies(n, width) &&
        InterleavedMax<Set>::rows(static_cast<const Raw*>(x), n, first, static_cast<Raw*>(best), at))
      return;
  // Runs of rows of a few (InterleavedArg, as slices are: [131072, 7] over axis 0), each chunk from
  // its state; rows of 3 of the types InterleavedMax takes go there (a float chunk with a NaN would
  // pay both passes: float32 [349525, 3] 0.78x with a NaN every 37 values; rows of 5 and 7 pay one,
  // 0.85-0.92x).
  if constexpr (InterleavedArg<Set>::kTakes)
    if (stride == width && (width != 3 || !InterleavedMax<Set>::kTakes) && InterleavedArg<Set>::applies(n, width) &&
        InterleavedArg<Set>::run(static_cast<const Raw*>(x), 1, n, width, static_cast<Raw*>(best), at, first) == 1)
      return;
  static constexpr NarrowColumnKernels narrow = narrow_kernels_of<Set, Rule>();
  const int64_t p = narrow_virtual_width(narrow, n, width, stride);
  const int64_t done = p ? narrow_columns(narrow, p, x, n, width, first, best, at) : 0;
  if (done < n)
    direct_columns<Set>(static_cast<const Raw*>(x) + done * stride, n - done, width, stride, first + done, best, at);
}

// Whole slices of a column problem, for either kernel set below. ReduceMax first tries the paths
// that read a slice straight, with no index to keep: rows of three of 4- and 8-byte values, and of
// five from 128 rows (InterleavedMax), bytes and float16/bfloat16 of a few columns as virtual rows
// (ByteSlicesMax, HalfSlicesMax); a slice these cannot vouch for (a NaN, a zero maximum) goes
// through the column entry. The arg kinds' slices of rows of 3 to 8 of 4- and 8-byte values read
// straight too, each lane's period kept (InterleavedArg, at the widths it measured faster at; a
// slice with a NaN goes on below). Then columns narrower than a tile transposed into rows where
// that is faster (SlicesAsRows), side by side through the short-row scratch when small, else one
// column call per slice (narrow_slices: the narrow path where it applies, then the kernels, out of
// line in direct_columns, so this adds no copy of them).
template <class Set, class Rule>
void other_slices(const typename Set::Raw* in, int64_t n, int64_t reduce, int64_t inner, typename Set::Raw* b,
                  int32_t* at);
template <class Set, class Rule>
void column_slices(const void* x, int64_t n, int64_t reduce, int64_t inner, void* best, int32_t* index) {
  using Raw = typename Set::Raw;
  const Raw* in = static_cast<const Raw*>(x);
  Raw* b = static_cast<Raw*>(best);
  int32_t* at = Set::Columns::kTracksIndex ? index : nullptr;  // ReduceMax has no indices
  if constexpr (InterleavedMax<Set>::kTakes && !Set::Columns::kTracksIndex)
    if (InterleavedMax<Set>::applies(reduce, inner)) return InterleavedMax<Set>::run(in, n, reduce, b);
  if constexpr (InterleavedMax<Set, 5>::kTakes)
    if (InterleavedMax<Set, 5>::applies(reduce, inner)) return InterleavedMax<Set, 5>::run(in, n, reduce, b);
  if constexpr (sizeof(Raw) == 1 && !Set::Columns::kTracksIndex)
    if (ByteSlicesMax::applies(reduce, inner))
      return ByteSlicesMax::run(reinterpret_cast<const uint8_t*>(in), n, reduce, inner,
                                std::is_signed<Raw>::value ? 0x80 : 0x00, reinterpret_cast<uint8_t*>(b));
  if constexpr (sizeof(Raw) == 2 && !Set::Columns::kTracksIndex) {  // ReduceMax: float16, bfloat16
    if (HalfSlicesMax::applies(reduce, inner)) {
      const uint16_t inf = Rule::ValueTraits::highest();
      for (int64_t k = 0; k < n; ++k) {
        k += HalfSlicesMax::run(in + k * reduce * inner, n - k, reduce, inner, inf, b + k * inner);
        if (k < n) Set::columns(in + k * reduce * inner, reduce, inner, inner, 0, b + k * inner, nullptr);
      }
      return;
    }
  }
  if constexpr (InterleavedArg<Set>::kTakes) {
    if (InterleavedArg<Set>::applies(reduce, inner)) {
      // A slice it cannot vouch for (a NaN) goes the other paths with the 15 after it; twice as
      // many each time it stops again at once, up to 1024, so data with NaN throughout pays one
      // wasted pass in that many slices (trying every slice ran float32 [1366,256,3] at 0.31x).
      constexpr int64_t kAside = 16, kMostAside = 1024;
      int64_t aside = kAside / 2;  // (a first stop with nothing taken doubles it to kAside)
      for (int64_t s = 0; s < n;) {
        const int64_t done = InterleavedArg<Set>::run(in + s * reduce * inner, n - s, reduce, inner, b + s * inner,
                                                      at + s * inner);
        s += done;
        if (s == n) return;
        aside = aside_after(done, aside, kAside, kMostAside);
        const int64_t k = std::min(aside, n - s);
        other_slices<Set, Rule>(in + s * reduce * inner, k, reduce, inner, b + s * inner, at + s * inner);
        s += k;
      }
      return;
    }
  }
  other_slices<Set, Rule>(in, n, reduce, inner, b, at);
}

// column_slices' paths for the slices InterleavedArg does not take.
template <class Set, class Rule>
void other_slices(const typename Set::Raw* in, int64_t n, int64_t reduce, int64_t inner, typename Set::Raw* b,
                  int32_t* at) {
  static constexpr NarrowColumnKernels narrow = narrow_kernels_of<Set, Rule>();
  const int64_t p = narrow_virtual_width(narrow, reduce, inner, inner);
  if (SlicesAsRows<Set>::applies(reduce, inner, p ? reduce * inner / p : 0))
    return SlicesAsRows<Set>::run(in, n, reduce, inner, b, at);
  if (Set::Short::applies(n, reduce, inner)) return Set::Short::run(in, n, reduce, inner, 0, b, at);
  narrow_slices(narrow, p, in, n, reduce, inner, b, at);
}

// The entries the two kernel sets below share, over a set's own Rule, Raw and rows() (Set
// derives from this): the column and slice entries (columns out of line, so column_slices adds
// no copy), the fill of the start state and the KernelSet. ReduceMax's start, ArgRule<Tr,
// Max>::identity(), is Tr::lowest().
template <class Set>
struct ScanEntries {
  __attribute__((noinline)) static void columns(const void* x, int64_t n, int64_t width, int64_t stride, int64_t first,
                                                void* best, int32_t* index) {
    columns_of<Set, typename Set::Rule>(x, n, width, stride, first, best, index);
  }
  static void slices(const void* x, int64_t n, int64_t reduce, int64_t inner, void* best, int32_t* index) {
    column_slices<Set, typename Set::Rule>(x, n, reduce, inner, best, index);
  }
  static void fill_start(void* best, int64_t count) {
    typename Set::Raw* b = static_cast<typename Set::Raw*>(best);
#pragma GCC unroll 1  // one fill a call: its runtime unrolling, a copy per kernel set, was 1.0 KB gzipped
    for (int64_t k = 0; k < count; ++k) b[k] = Set::Rule::identity();
  }
  static constexpr KernelSet set() { return {&Set::rows, &columns, &slices, &fill_start, Set::Columns::kTracksIndex}; }
};

template <class R, class L>
struct ArgKernels : ScanEntries<ArgKernels<R, L>> {
  using Rule = R;
  using Raw = typename Rule::Raw;
  static constexpr Direction kDirection = Rule::kDirection;
  static constexpr bool kLast = Rule::kLast;
  using Rows = RowScan<L, Rule, true>;
  using LongRows = RowScan<typename LongRowLanes<L>::type, Rule, true>;  // rows past the groups
  using Columns = ColumnScan<L, Rule, true>;
  using Short = ShortRows<Columns>;
  // What ArgHalvingBytes xors into a byte for its value key: unsigned order, inverted for ArgMin.
  static constexpr uint8_t byte_key_flip() {
    return (std::is_signed<Raw>::value ? 0x80 : 0x00) ^ (kDirection == Direction::Min ? 0xff : 0x00);
  }
  static void rows(const void* x, int64_t n, int64_t length, int64_t first, void* best, int32_t* index) {
    const Raw* in = static_cast<const Raw*>(x);
    Raw* b = static_cast<Raw*>(best);
    if constexpr (sizeof(Raw) == 1) {
      if (starts_fresh<true>(first)) {
        const int64_t done = ArgHalvingBytes::run(reinterpret_cast<const uint8_t*>(in), n, length, byte_key_flip(), kLast,
                                                  reinterpret_cast<uint8_t*>(b), index);
        if (done == n) return;
        in += done * length, b += done, index += done, n -= done;
      }
    }
    using Grouped = RowGroupMax<ArgKernels>;
    if constexpr (Grouped::kTakes) {
      if (starts_fresh<true>(first) && Grouped::arg_applies(length)) {
        const int64_t done = Grouped::arg_run(in, n, length, b, index);
        if (done == n) return;
        in += done * length, b += done, index += done, n -= done;  // from a group with a NaN on
      }
    }
    if (Short::applies(n, length)) return Short::run(in, n, length, 1, first, b, index);
    if (length < min_simd_arg_row<L>(n)) return arg_rows_portable<Rule>(in, n, length, first, b, index);
    if (length <= LongRows::kBlock) return LongRows::short_runs(in, n, length, first, b, index);
    if (n == 0) return;
    RowPass pass = LongRows::first_pass(in, length);  // (then carried from row to row)
    for (int64_t k = 0; k < n; ++k) LongRows::run(in + k * length, length, first, b + k, index + k, pass);
  }
  static void portable_columns(const Raw* x, int64_t n, int64_t width, int64_t stride, int64_t first, Raw* best,
                               int32_t* index) {
    arg_columns_portable<Rule>(x, n, width, stride, first, best, index);
  }
};

// ReduceMax is ArgMax's value under the first-index rule: the first NaN sticks, and among equal
// maxima (-0, +0) the first one's bits stay. So it runs the arg scans without their index.
template <class Tr, class L>
struct MaxKernels : ScanEntries<MaxKernels<Tr, L>> {
  using Raw = typename Tr::Raw;
  using Rule = ArgRule<Tr, Direction::Max, false>;
  static constexpr Direction kDirection = Direction::Max;
  using Rows = RowScan<L, Rule, false>;
  using LongRows = RowScan<typename LongRowLanes<L>::type, Rule, false>;  // rows past the groups
  using Columns = ColumnScan<L, Rule, false>;
  using Short = ShortRows<Columns>;
  // Short rows read straight, before the other paths: 8-byte rows of 4-8 two at a time, the
  // other types' rows folded by halving (float16/bfloat16: Tr).
  using Halving = typename std::conditional<sizeof(Raw) == 8, PairedRowsMax<Raw>,
                                            RowHalving<Raw, typename std::conditional<L::kRawRows, Tr, void>::type>>::type;
  static void rows(const void* x, int64_t n, int64_t length, int64_t, void* acc, int32_t*) {
    const Raw* in = static_cast<const Raw*>(x);
    Raw* a = static_cast<Raw*>(acc);
    int64_t aside_rows = 128;
    for (;;) {
      int64_t done = 0;
      if constexpr (Halving::kTakes) {
        done = Halving::run(in, n, length, a);
        in += done * length, a += done, n -= done;
        if (n == 0) return;
      }
      // RowHalving stops before a group it cannot vouch for (float32: a NaN, a zero maximum
      // beside a -0; float16/bfloat16: a NaN, more than two maxima not above +0): the next 256
      // rows go the other paths, then it goes on; twice as many each time it stops again at once,
      // up to 4096 (rows of log-probabilities stop every group: 256 rows each time cost them 3-5%).
      // (Such groups one at a time through the portable loop ran data with a NaN every 37 values
      // 4x slower than these paths alone; 256 rows, a few KiB, make the group it stopped at a
      // small share.)
      const bool stopped = Halving::kChecked && Halving::applies(length) && n >= Halving::kN;
      aside_rows = aside_after(done, aside_rows, 256, 4096);
      const int64_t aside = stopped ? std::min<int64_t>(n, aside_rows) : n;
      other_rows(in, aside, length, a);
      if (aside == n) return;
      in += aside * length, a += aside, n -= aside;
    }
  }
  // Rows RowHalving does not take.
  static void other_rows(const Raw* in, int64_t n, int64_t length, Raw* a) {
    using Grouped = RowGroupMax<MaxKernels>;  // float16/bfloat16 from rows of 33, int64/float64 of 9, bytes of 49: before the short rows
    if (Short::applies(n, length) && !(Grouped::kBeforeShortRows && Grouped::applies(length)))
      return Short::run(in, n, length, 1, 0, a, nullptr);
    if (length < min_simd_row<L>()) return max_rows_portable<Tr>(in, n, length, a);
    // float16/bfloat16 pay more per row (a raw pass first, L::kRawRows): issuing the next row's
    // summary before this row's settle, as the arg kinds do, pays there ([4096,1024] 23-25 ->
    // 26-27 GB/s, a 256 KiB chunk of it 41-43 -> 48); for the other types it measured 3-14%
    // slower (int32 chunk 83-86 -> 74-78), so they keep one run per row. (Where RowGroupMax
    // takes the length, it goes first for them too.)
    if constexpr (L::kRawRows)
      if (!Grouped::applies(length) && length <= Rows::kBlock) return Rows::short_runs(in, n, length, 0, a, nullptr);
    int64_t stretch = Grouped::kN;
    RowPass pass = n > 0 ? LongRows::first_pass(in, length) : RowPass::Raw;  // (LongRows', carried from row to row)
    for (int64_t k = 0; k < n;) {
      // Rows from k run one at a time: all, or the rows from a group Grouped left: a group, twice
      // as many each time it leaves the next group at once, up to 512 (float16 rows of 64 all
      // negative, which it leaves every time, went row by row through Grouped and then RowScan at
      // 1.8 GB/s end to end).
      int64_t one_by_one = n;
      if constexpr (Grouped::kTakes) {
        if (Grouped::applies(length)) {
          const int64_t done = Grouped::run(in + k * length, n - k, length, a + k);
          k += done;
          stretch = aside_after(done, stretch, Grouped::kN, 512);
          one_by_one = n - k > stretch ? k + stretch : n;
        }
      }
      // float16/bfloat16: the runs of a stretch overlapped, as above, and a raw pass skipped after
      // a row it did not settle.
      if constexpr (L::kRawRows) {
        if (length <= Rows::kBlock && one_by_one > k) {  // (short_runs reads its first row at once)
          Rows::short_runs(in + k * length, one_by_one - k, length, 0, a + k, nullptr);
          k = one_by_one;
        }
      }
      for (; k < one_by_one; ++k) LongRows::run(in + k * length, length, 0, a + k, nullptr, pass);
    }
  }
  static void portable_columns(const Raw* x, int64_t n, int64_t width, int64_t stride, int64_t, Raw* acc, int32_t*) {
    max_columns_portable<Tr>(x, n, width, stride, acc);
  }
};

// float16 and bfloat16 share one copy of the kernels, which read the format at run time (half.h):
// each entry of a half dtype names its format, then runs the shared kernel F.
template <class Format, auto F>
struct InFormat;
template <class Format, class... Args, void (*F)(Args...)>
struct InFormat<Format, F> {
  static void run(Args... args) {
    HalfFormatAtRunTime::use<Format>();
    F(args...);
  }
};
template <class Format, class Kernels>
KernelSet half_entries() {
  return {&InFormat<Format, &Kernels::rows>::run, &InFormat<Format, &Kernels::columns>::run,
          &InFormat<Format, &Kernels::slices>::run, &InFormat<Format, &Kernels::fill_start>::run,
          Kernels::Columns::kTracksIndex};
}

// The entries of dtype D's kernels: the kernels themselves, or for float16/bfloat16 the ones that
// name the format first. Both of those run float16's kernel code (one copy).
template <DType D, class Kernels>
KernelSet entries() {
  if constexpr (D == DType::Float16) return half_entries<Float16Format, Kernels>();
  else if constexpr (D == DType::BFloat16) return half_entries<BFloat16Format, Kernels>();
  else return Kernels::set();
}
constexpr DType kernel_code_of(DType d) { return d == DType::BFloat16 ? DType::Float16 : d; }

// Integer ArgMax/ArgMin run the ArgMax kernels of their width over keys (keyed_kernels.h), and
// uint32/uint64 ReduceMax int32's/int64's ReduceMax kernels: the entries of a (type, kind) whose
// key is not the value itself.
template <class Target, uint64_t Flip>
struct Keyed {
  using Raw = typename Target::Raw;
  static constexpr KernelSet kTarget = Target::set();
  static constexpr KeyFlip kFlip = key_flip_of<Raw>(Flip);
  static void rows(const void* x, int64_t n, int64_t length, int64_t first, void* best, int32_t* index) {
    keyed_rows(kTarget, kFlip, sizeof(Raw), x, n, length, first, best, index);
  }
  static void columns(const void* x, int64_t n, int64_t width, int64_t stride, int64_t first, void* best,
                      int32_t* index) {
    keyed_columns(kTarget, kFlip, sizeof(Raw), x, n, width, stride, first, best, index);
  }
  static void slices(const void* x, int64_t n, int64_t reduce, int64_t inner, void* best, int32_t* index) {
    keyed_slices(kTarget, kFlip, sizeof(Raw), x, n, reduce, inner, best, index);
  }
  static void fill_start(void* best, int64_t count) { keyed_fill_start(kTarget, kFlip, sizeof(Raw), best, count); }
  static KernelSet set() { return {&rows, &columns, &slices, &fill_start, kTarget.tracks_index}; }
};

// The integer (type, direction)s on keys: all but the key types' ArgMax, int8's ArgMax and the
// ArgMin of uint8, int8, int32 and int64, which keep their own kernels: the extra pass measured 0.55x
// end to end for int32 ArgMin [1,32000] and 0.77x for [4096,1024] when it took keys too. int64,
// onnxruntime's thinnest margin (its scalar loop pays per element, ours per byte): ArgMin on its own kernels
// ran 1.26-1.33x faster over [1024,1024] rows and columns and [1,32000], 1.14-1.19x over
// [131072,7] and [1366,256,3] (dist/ox.wasm +0.69 KB gzipped). int8 ArgMax (quantized models'
// logits) keeps its own too, since the module's functions are ordered for gzip (+1.0 KB): end to
// end [4096,1024] 1.42x, select_last_index 1.38x, [1,32000] 1.36x, [1,21,512,512] over axis 1
// 1.25x, [8192,256] 1.29x, [1024,1024] over axis 0 1.52x, [131072,7] 1.04x. int8 ArgMin keeps
// its own since the function groups' greedy order for gzip made room (+1,263 bytes of 2,209):
// end to end into { out } [1024,1024] select_last_index 1.39-1.50x, [4096,1024] 1.39-1.43x,
// [1,32000] 1.43x, [1,21,512,512] over axis 1 1.40-1.45x, [1024,1024] over axis 0 1.54x,
// [8192,256] 1.28-1.30x, [131072,7] 1.17-1.20x, [820,256,5] over axis 1 1.05-1.08x.
// On the keyed ones: int16 ArgMin [1,21,512,512] over axis 1 0.77-0.82x, uint32 ArgMax
// [1,32000] 0.72x, [16384,80] 0.91-0.96x.
template <DType D, Direction Dir>
constexpr bool keyed() {
  constexpr bool kInteger = std::is_base_of<IntegerTraits<typename Traits<D>::Raw>, Traits<D>>::value;
  constexpr bool kOwnMin = D == DType::Uint8 || D == DType::Int8 || D == DType::Int32 || D == DType::Int64;
  constexpr bool kOwnMax = D == DType::Int8;
  return kInteger && !(Dir == Direction::Min ? kOwnMin : kOwnMax);
}
// The key type of integers of a width: the one whose ArgMax kernels are in the module.
template <class Raw>
constexpr DType key_dtype() {
  return sizeof(Raw) == 1   ? DType::Uint8
         : sizeof(Raw) == 2 ? DType::Int16
         : sizeof(Raw) == 4 ? DType::Int32
                            : DType::Int64;
}
// key = value ^ flip: the sign bit where the signedness differs, every bit for ArgMin.
template <DType D, Direction Dir>
constexpr uint64_t key_flip() {
  using Raw = typename Traits<D>::Raw;
  using Key = typename Traits<key_dtype<Raw>()>::Raw;
  constexpr int kBits = 8 * sizeof(Raw);
  const uint64_t sign = std::is_signed<Raw>::value != std::is_signed<Key>::value ? uint64_t{1} << (kBits - 1) : 0;
  const uint64_t all = kBits == 64 ? ~uint64_t{0} : (uint64_t{1} << kBits) - 1;
  return sign ^ (Dir == Direction::Min ? all : 0);
}
// D's entries on Target, a kernel set of D's key type: Target itself where the key is the value.
template <DType D, Direction Dir, class Target>
KernelSet on_keys() {
  if constexpr (key_flip<D, Dir>() == 0) return Target::set();
  else return Keyed<Target, key_flip<D, Dir>()>::set();
}
template <DType D>
using KeyTraits = Traits<key_dtype<typename Traits<D>::Raw>()>;
template <DType D>
using KeyLanes = typename LanesFor<key_dtype<typename Traits<D>::Raw>()>::type;

// ReduceMax over uint32 and uint64 (no peer runs them; ReduceMax takes them from version 1) runs
// int32's and int64's kernels on keys, the sign bit flipped: 1.8 KB of the gzipped module less,
// for an extra pass over data in cache (measured in docs/speed.md) on those two rare types.
template <DType D>
constexpr bool reduce_keyed() { return D == DType::Uint32 || D == DType::Uint64; }

template <DType D, Direction Dir>
KernelSet arg_entries(bool last) {
  if constexpr (keyed<D, Dir>()) {
    return last ? on_keys<D, Dir, ArgKernels<ArgRule<KeyTraits<D>, Direction::Max, true>, KeyLanes<D>>>()
                : on_keys<D, Dir, ArgKernels<ArgRule<KeyTraits<D>, Direction::Max, false>, KeyLanes<D>>>();
  } else {
    using Tr = Traits<kernel_code_of(D)>;
    using L = typename LanesFor<kernel_code_of(D)>::type;
    return last ? entries<D, ArgKernels<ArgRule<Tr, Dir, true>, L>>()
                : entries<D, ArgKernels<ArgRule<Tr, Dir, false>, L>>();
  }
}

template <DType D>
KernelSet kernels_for(PlanKind kind, bool last) {
  using Tr = Traits<kernel_code_of(D)>;
  using L = typename LanesFor<kernel_code_of(D)>::type;
  // Only the kinds some operator version takes this dtype for (schema.h): no module code for
  // ArgMax over bool or ReduceMax over int16.
  constexpr bool kArg = type_in(kArgKernelTypes, D), kReduce = type_in(kReduceKernelTypes, D);
  switch (kind) {
    case PlanKind::ArgMax:
    case PlanKind::Hardmax:
      if constexpr (kArg) return arg_entries<D, Direction::Max>(last);
      break;
    case PlanKind::ArgMin:
      if constexpr (kArg) return arg_entries<D, Direction::Min>(last);
      break;
    case PlanKind::ReduceMax:
      if constexpr (kReduce) {
        if constexpr (reduce_keyed<D>()) return on_keys<D, Direction::Max, MaxKernels<KeyTraits<D>, KeyLanes<D>>>();
        else return entries<D, MaxKernels<Tr, L>>();
      }
      break;
    case PlanKind::Identity:
      break;
  }
  return {nullptr, nullptr, nullptr, nullptr, false};
}

}  // namespace

bool select_kernels(PlanKind kind, DType dtype, bool select_last, KernelSet* out) {
  switch (dtype) {
#define OX_CASE(D) \
  case DType::D: *out = kernels_for<DType::D>(kind, select_last); break;
    OX_CASE(Float32) OX_CASE(Float64) OX_CASE(Float16) OX_CASE(BFloat16) OX_CASE(Int8) OX_CASE(Uint8)
    OX_CASE(Int16) OX_CASE(Uint16) OX_CASE(Int32) OX_CASE(Uint32) OX_CASE(Int64) OX_CASE(Uint64) OX_CASE(Bool)
#undef OX_CASE
    default:
      return false;
  }
  return out->rows != nullptr;
}

}  // namespace ox
