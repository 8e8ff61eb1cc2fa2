#include "kernels/narrow_columns.h"

#include <cstring>

namespace ox {
namespace {

constexpr int64_t kMaxVirtual = 256;        // elements of a virtual row (lcm(15, 16) = 240 fits)
constexpr int64_t kMaxSize = 8;             // bytes per element
constexpr int64_t kMaxWidth = 16;           // narrower than the widest tile
constexpr int64_t kBlockBytes = 16 * 1024;  // input per column call: in L1 while each group walks it
// Fewer virtual rows do not pay for the start and the merge. Measured against the portable loop:
// 8 slower; 16 even for float32 and uint8, 2x faster for float16; 32 1.4-3x faster for all three.
constexpr int64_t kLeastVirtualRows = 32;

int64_t gcd(int64_t a, int64_t b) { return b == 0 ? a : gcd(b, a % b); }

// The narrowest whole number of tiles that is a whole number of rows: lcm(w, tile). (Wider virtual
// rows, a register group's width, measured no faster and need more rows to pay off.)
int64_t virtual_width(const NarrowColumnKernels& k, int64_t w) { return w / gcd(w, k.tile) * k.tile; }

// Each real column's carried state (earliest) and its r candidates: virtual column q * width + c,
// at row first + vindex * r + q. False, with nothing stored, when ReduceMax cannot tell which of
// tied candidates with different bits came first.
bool merge(const NarrowColumnKernels& k, const char* vbest, const int32_t* vindex, int64_t width, int64_t r,
           int64_t first, char* best, int32_t* index) {
  const int64_t size = k.size;
  char value[kMaxWidth * kMaxSize];
  int64_t row[kMaxWidth];
  for (int64_t c = 0; c < width; ++c) {
    char* b = value + c * size;
    std::memcpy(b, best + c * size, static_cast<size_t>(size));
    int64_t at = -1;  // -1: the carried state, before every candidate
    bool unknown_order = false;
    for (int64_t q = 0; q < r; ++q) {
      const int64_t v = q * width + c;
      const char* x = vbest + v * size;
      if (k.tracks_index) {
        const int64_t xrow = first + static_cast<int64_t>(vindex[v]) * r + q;
        if (at >= 0 && xrow < at ? !k.replaces(b, x) : k.replaces(x, b)) std::memcpy(b, x, size), at = xrow;
      } else if (k.replaces(x, b)) {  // (ReduceMax's first-index rule: strictly better, in either order)
        std::memcpy(b, x, static_cast<size_t>(size)), at = 0, unknown_order = false;
      } else if (at >= 0 && !k.replaces(b, x) && std::memcmp(b, x, static_cast<size_t>(size)) != 0) {
        unknown_order = true;  // tied with a candidate whose bits may have come first
      }
    }
    if (unknown_order) return false;
    row[c] = at;
  }
  std::memcpy(best, value, static_cast<size_t>(width * size));
  if (k.tracks_index)
    for (int64_t c = 0; c < width; ++c)
      if (row[c] >= 0) index[c] = static_cast<int32_t>(row[c]);
  return true;
}

}  // namespace

int64_t narrow_virtual_width(const NarrowColumnKernels& k, int64_t rows, int64_t width, int64_t stride) {
  if (width < 2 || width >= k.tile || stride != width) return 0;
  const int64_t p = virtual_width(k, width);
  return p <= kMaxVirtual && rows >= kLeastVirtualRows * (p / width) ? p : 0;
}

int64_t narrow_columns(const NarrowColumnKernels& k, const void* x, int64_t rows, int64_t width, int64_t first,
                       void* best, int32_t* index) {
  const int64_t p = virtual_width(k, width), r = p / width, virtual_rows = rows / r;
  alignas(16) char vbest[kMaxVirtual * kMaxSize];
  alignas(16) int32_t vindex[kMaxVirtual];
  k.fill_start(vbest, p);
  std::memset(vindex, 0, sizeof(vindex));
  const char* in = static_cast<const char*>(x);
  int64_t block = kBlockBytes / (p * k.size);
  if (block < 1) block = 1;
  for (int64_t j = 0; j < virtual_rows; j += block)
    k.columns(in + j * p * k.size, virtual_rows - j < block ? virtual_rows - j : block, p, p, j, vbest,
              k.tracks_index ? vindex : nullptr);
  return merge(k, vbest, vindex, width, r, first, static_cast<char*>(best), index) ? virtual_rows * r : 0;
}

}  // namespace ox
