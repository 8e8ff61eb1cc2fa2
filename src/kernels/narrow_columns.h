// Columns narrower than a SIMD tile ([N, 3] over axis 0: the bounding box of a point cloud; the
// best of N rows for each of a few classes) run as wider virtual columns. R consecutive rows of
// width w (contiguous) read as one virtual row of P = R * w elements, P a multiple of the tile, so
// virtual column q * w + c holds rows q, q + R, q + 2R, ... of real column c. The kernel set's
// own column kernel reduces the virtual matrix into a local state at full vector width; each real
// column then merges its R candidates into its carried state. The merge is the kernels' own rule:
// the winner is the best value's first (last) row, so candidates of disjoint rows combine in any
// order by value, then by row. The caller's portable loop takes the rows after the last whole
// virtual row.
// ReduceMax keeps no index: where tied candidates differ in bits (-0 against +0, NaN payloads)
// their order is unknown, and the whole call is left to the portable loop.
// One untyped copy serves every kernel set (values are moved as bytes and compared through the
// set's rule), so the path adds little to the module.
#pragma once
#include <cstdint>

namespace ox {

struct NarrowColumnKernels {
  // The set's column entry (KernelSet::columns) and start value (KernelSet::fill_start).
  void (*columns)(const void* x, int64_t rows, int64_t width, int64_t stride, int64_t first, void* best,
                  int32_t* index);
  void (*fill_start)(void* best, int64_t count);
  // ArgRule::replaces(*candidate, *best): whether a later candidate takes the place of best.
  bool (*replaces)(const void* candidate, const void* best);
  int64_t size;         // bytes per element
  int64_t tile;         // the column kernel's narrowest width (ColumnScan::kTile)
  bool tracks_index;
};

// The virtual width P for columns of `width`, or 0 when the path does not apply: `rows` contiguous
// rows (stride == width) narrower than a tile, enough of them for 32 virtual rows.
int64_t narrow_virtual_width(const NarrowColumnKernels& k, int64_t rows, int64_t width, int64_t stride);

// `rows` rows of `width` elements (narrow_virtual_width > 0); row j has index first + j; column c
// continues best[c] (index[c] for arg kinds). Returns how many leading rows it took (whole virtual
// rows, or none): the caller's portable loop does the rest from the state left.
int64_t narrow_columns(const NarrowColumnKernels& k, const void* x, int64_t rows, int64_t width, int64_t first,
                       void* best, int32_t* index);

}  // namespace ox
