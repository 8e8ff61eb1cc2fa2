// What a validated call computes, in the only shape kernels know: a final step over a contiguous
// block [outer, reduce, inner], repeated over a short "prefix" of merged axes (ReduceMax with
// several non-adjacent axes). Kernels never see N-d indices.
#pragma once
#include <cstdint>

#include "core/dtype.h"
#include "core/limits.h"

namespace ox {

enum class PlanKind : uint8_t {
  ArgMax,
  ArgMin,
  ReduceMax,
  Hardmax,   // ArgMax (first index, NaN wins) along the step's reduce, written out one-hot
  Identity,  // output equals input (ReduceMax with nothing to reduce)
};

struct Plan {
  PlanKind kind = PlanKind::Identity;
  bool select_last = false;
  DType input_dtype = DType::Undefined;
  DType output_dtype = DType::Undefined;
  int64_t input_count = 0;
  int64_t output_count = 0;
  int output_rank = 0;
  int64_t output_dims[kMaxRank] = {};

  // The step: a contiguous input block of outer*reduce*inner elements whose result is a
  // contiguous run of outer*inner outputs.
  int64_t outer = 1;
  int64_t reduce = 1;
  int64_t inner = 1;
  // Axes outside the step, outermost first. A reduced prefix axis has output stride 0: its blocks
  // fold into the same outputs.
  int prefix_count = 0;
  int64_t prefix_extent[kMaxRank] = {};
  int64_t prefix_output_stride[kMaxRank] = {};
};

// ReduceMax: merges the axes of `dims` (rank entries, all >= 0) into a Plan's step and prefix.
// `reduced[d]` marks reduced axes. Output dims and counts are filled in by the caller.
void build_reduce_steps(const int64_t* dims, const bool* reduced, int rank, Plan* plan);

}  // namespace ox
