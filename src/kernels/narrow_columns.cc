#include "kernels/narrow_columns.h"

#include <initializer_list>
#include <numeric>

namespace ox {
namespace {

constexpr int64_t kTiles = 4;               // rows up to this many tiles wide, not a whole number of them
constexpr int64_t kMaxVirtual = 1024;       // elements of a virtual row (lcm(63, 16) = 1008 fits)
constexpr int64_t kMaxSize = 8;             // bytes per element
constexpr int64_t kBlockBytes = 16 * 1024;  // input per column call: in L1 while each group walks it
// Fewer virtual rows do not pay for the start and the merge. Measured on rows under a tile against
// the portable loop: 8 slower; 16 even for float32 and uint8, 2x faster for float16; 32 1.4-3x
// faster for all three. Rows of a few tiles and a part, and of whole tiles under a register group,
// against the column kernels: 1-2x faster.
constexpr int64_t kLeastVirtualRows = 32;

}  // namespace

// Rows of a few tiles and a part: the narrowest whole number of tiles that is a whole number of
// rows, lcm(w, tile). Whole tiles narrower than a register group: a whole number of groups,
// lcm(w, group), so each pass over the rows keeps a group's registers busy. A part-of-a-tile row
// whose lcm(w, tile) is still under a group (float32 rows of 2 or 3) is widened the same way where
// there are rows enough: float32 [N, 3] ran 1.5x (ArgMax) and 1.8x (ReduceMax) faster with
// virtual rows of 48 than of 12.
int64_t narrow_virtual_width(const NarrowColumnKernels& k, int64_t rows, int64_t width, int64_t stride) {
  if (width < 2 || width >= kMaxNarrowWidth || stride != width) return 0;
  const bool part = width % k.tile != 0;
  if (part ? width >= kTiles * k.tile : width >= k.group_width) return 0;
  const int64_t narrow = std::lcm(width, part ? k.tile : k.group_width);
  const int64_t wide = narrow < k.group_width ? std::lcm(width, k.group_width) : narrow;
  for (const int64_t p : {wide, narrow})
    if (p <= kMaxVirtual && rows >= kLeastVirtualRows * (p / width)) return p;
  return 0;
}

int64_t narrow_columns(const NarrowColumnKernels& k, int64_t p, const void* x, int64_t rows, int64_t width,
                       int64_t first, void* best, int32_t* index) {
  const int64_t r = p / width, virtual_rows = rows / r;
  alignas(16) char vbest[kMaxVirtual * kMaxSize];
  alignas(16) int32_t vindex[kMaxVirtual];
  if (!k.tracks_index) k.fill_start(vbest, p);  // arg kinds: the call from row 0 starts it (registry.h)
  const char* in = static_cast<const char*>(x);
  int64_t block = kBlockBytes / (p * k.size);
  if (block < 1) block = 1;
  for (int64_t j = 0; j < virtual_rows; j += block)
    k.columns(in + j * p * k.size, virtual_rows - j < block ? virtual_rows - j : block, p, p, j, vbest,
              k.tracks_index ? vindex : nullptr);
  return k.merge(vbest, vindex, width, r, first, best, index) ? virtual_rows * r : 0;
}

}  // namespace ox
