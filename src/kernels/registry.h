// The kernel manifest: which kernels run a plan, chosen once per call from (kind, dtype,
// select_last). Execution, tests and benchmarks all go through this one table.
#pragma once
#include <cstdint>

#include "core/dtype.h"
#include "plan/plan.h"

namespace ox {

// Arg kinds (tracks_index): a call whose first row (element) is index 0 of the reduced axis, with
// at least one, starts the states it continues. Both families neither read them nor need them
// filled (no fill_start, no zeroed index): they write every one, the columns family seeding it
// from that row instead of comparing it.
struct KernelSet {
  // Row family: `rows` runs of `length` elements; state best[k] (and index[k] for arg kinds).
  void (*rows)(const void* x, int64_t rows, int64_t length, int64_t first, void* best, int32_t* index);
  // Column family: `rows` rows of `width` elements `stride` apart; state best[j] (index[j]).
  void (*columns)(const void* x, int64_t rows, int64_t width, int64_t stride, int64_t first, void* best,
                  int32_t* index);
  // Many whole slices of a column problem: `slices` slices of [reduce, inner], each from its
  // first row; slice k's column i has state best[k * inner + i] (index[...]).
  void (*slices)(const void* x, int64_t slices, int64_t reduce, int64_t inner, void* best, int32_t* index);
  // Sets `count` states to the starting value (the lowest value for a max, the highest for a min).
  void (*fill_start)(void* best, int64_t count);
  bool tracks_index;
};

// False when the combination has no kernels (the resolver never produces one).
bool select_kernels(PlanKind kind, DType dtype, bool select_last, KernelSet* out);

}  // namespace ox
