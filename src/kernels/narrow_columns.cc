#include "kernels/narrow_columns.h"

namespace ox {
namespace {

constexpr int64_t kTiles = 4;               // rows up to this many tiles wide, not a whole number of them
constexpr int64_t kMaxSize = 8;             // bytes per element
constexpr int64_t kBlockBytes = 16 * 1024;  // input per column call: in L1 while each group walks it
// Fewer virtual rows do not pay for the start and the merge. Measured on rows under a tile against
// the portable loop: 8 slower; 16 even for float32 and uint8, 2x faster for float16; 32 1.4-3x
// faster for all three. Rows of a few tiles and a part, and of whole tiles under a register group,
// against the column kernels: 1-2x faster. Since the arg kinds' merge compares int64 keys (a
// few times cheaper), 16 pay for 1- and 2-byte arg kinds, against SlicesAsRows' lane by lane
// gathers (kernel us per 4 MiB, 256 KiB chunks: uint8 ArgMax [N,256,5..15] 1170-1290 -> 840-995,
// float16 [N,128,5] and [N,128,7] 1000 -> 790-800); float32 [N,64,5] and [N,64,7] got 1.3-1.8x
// slower, float32/float64 ReduceMax [N,64,5] and [N,32,5] 1.1-1.4x.
constexpr int64_t kLeastVirtualRows = 32, kLeastVirtualRowsNarrowArg = 16;

}  // namespace

// Rows of a few tiles and a part: the narrowest whole number of tiles that is a whole number of
// rows, lcm(w, tile). Whole tiles narrower than a register group: a whole number of groups,
// lcm(w, group), so each pass over the rows keeps a group's registers busy. A part-of-a-tile row
// whose lcm(w, tile) is still under a group (float32 rows of 2 or 3) is widened the same way where
// there are rows enough: float32 [N, 3] ran 1.5x (ArgMax) and 1.8x (ReduceMax) faster with
// virtual rows of 48 than of 12.
// Tiles and register groups are powers of two, so lcm(w, t) is w times the part of t that w's
// factors of two do not cover: shifts, where std::lcm's divisions (it runs once per slice) were a
// tenth of the time of a float16 ArgMax [N,256,5] slice.
int64_t narrow_virtual_width(const NarrowColumnKernels& k, int64_t rows, int64_t width, int64_t stride) {
  if (width < 2 || width >= kMaxNarrowWidth || stride != width) return 0;
  const bool part = (width & (k.tile - 1)) != 0;
  if (part ? width >= kTiles * k.tile : width >= k.group_width) return 0;
  const auto rows_per_lcm = [width](int64_t t) {  // lcm(width, t) / width
    const int shift = __builtin_ctzll(t) - __builtin_ctzll(width);
    return shift > 0 ? int64_t{1} << shift : int64_t{1};
  };
  int64_t narrow = rows_per_lcm(part ? k.tile : k.group_width);
  // A 1-byte arg kind's part width is up to 16 rows to a virtual row, and the merge compares R w
  // candidates a column call: up to 32 virtual rows (slices of 256 rows), half as many rows to a
  // virtual row of half as many tiles, at least one (an odd width's last tile overlapping the one
  // before: a fifth more read at most), halve the merge. Kernel us per 4 MiB, 256 KiB chunks:
  // uint8 ArgMax [N,256,5] 979 -> 827, [N,256,7] 938 -> 762, [N,256,9..15] 894-961 -> 643-666,
  // [N,384,5] 340 -> 298, [N,256,6] 0.88-0.95x, [N,128,6] 0.8x; [N,256,10] and [N,256,14] level.
  // The same for 2-byte widths past a tile: float16 and int16 [N,256,9..15] 0.76-0.88x, float16
  // [N,128,11] 0.83x; under a tile they measured level to 1.16x slower and keep whole tiles. With
  // more rows the whole tiles stay ([N,2048,5] took 1.8x as long with half tiles).
  const bool narrow_arg = k.tracks_index && k.size <= 2;  // 1- and 2-byte arg kinds (see kLeastVirtualRows)
  const bool halves = part && narrow_arg && (k.size == 1 || width > k.tile);
  if (halves && width * narrow >= 2 * k.tile && rows <= kLeastVirtualRows * narrow) narrow /= 2;
  const int64_t wide = width * narrow < k.group_width ? rows_per_lcm(k.group_width) : narrow;
  if (width * wide <= kMaxNarrowCandidates && rows >= kLeastVirtualRows * wide) return width * wide;
  // (Widened rows keep 32: uint8 ArgMax [N,256,12] as 16 rows of 192 was 1.6x slower than 64 of 48.)
  const int64_t least = narrow_arg ? kLeastVirtualRowsNarrowArg : kLeastVirtualRows;
  return width * narrow <= kMaxNarrowCandidates && rows >= least * narrow ? width * narrow : 0;
}

int64_t narrow_columns(const NarrowColumnKernels& k, int64_t p, const void* x, int64_t rows, int64_t width,
                       int64_t first, void* best, int32_t* index) {
  const int64_t r = p / width, virtual_rows = rows / r;
  alignas(16) char vbest[kMaxNarrowCandidates * kMaxSize];
  alignas(16) int32_t vindex[kMaxNarrowCandidates];
  if (!k.tracks_index) k.fill_start(vbest, p);  // arg kinds: the call from row 0 starts it (registry.h)
  const char* in = static_cast<const char*>(x);
  int64_t block = kBlockBytes / (p * k.size);
  if (block < 1) block = 1;
  for (int64_t j = 0; j < virtual_rows; j += block)
    k.columns(in + j * p * k.size, virtual_rows - j < block ? virtual_rows - j : block, p, p, j, vbest,
              k.tracks_index ? vindex : nullptr);
  return k.merge(vbest, vindex, width, r, first, best, index) ? virtual_rows * r : 0;
}

void narrow_slices(const NarrowColumnKernels& k, int64_t p, const void* x, int64_t count, int64_t reduce,
                   int64_t width, void* best, int32_t* index) {
  const int64_t span = reduce * width * k.size;
  const char* in = static_cast<const char*>(x);
  char* out = static_cast<char*>(best);
  for (int64_t s = 0; s < count; ++s, in += span, out += width * k.size) {
    int32_t* at = index ? index + s * width : nullptr;
    const int64_t done = p ? narrow_columns(k, p, in, reduce, width, 0, out, at) : 0;
    if (done < reduce) k.columns(in + done * width * k.size, reduce - done, width, width, done, out, at);
  }
}

}  // namespace ox
