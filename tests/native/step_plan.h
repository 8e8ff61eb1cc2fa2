// A Plan of one (outer, reduce, inner) step built by hand, for tests that drive kernels and
// Execution directly without a request: output dtype, counts and a rank-1 output shape follow
// from the kind.
#pragma once
#include <cstdint>

#include "core/dtype.h"
#include "plan/plan.h"

inline ox::Plan step_plan(ox::PlanKind kind, ox::DType dtype, bool last, int64_t outer, int64_t reduce, int64_t inner) {
  using ox::PlanKind;
  ox::Plan p;
  p.kind = kind;
  p.select_last = last;
  p.input_dtype = dtype;
  p.output_dtype = kind == PlanKind::ArgMax || kind == PlanKind::ArgMin ? ox::DType::Int64 : dtype;
  p.outer = outer, p.reduce = reduce, p.inner = inner;
  p.input_count = outer * reduce * inner;
  p.output_count = kind == PlanKind::Hardmax ? p.input_count : outer * inner;
  p.output_rank = 1;
  p.output_dims[0] = p.output_count;
  return p;
}
