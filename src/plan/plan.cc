#include "plan/plan.h"

namespace ox {

void build_reduce_steps(const int64_t* dims, const bool* reduced, int rank, Plan* plan) {
  // Drop axes of extent 1 (reducing or keeping them changes nothing) and merge neighbours of the
  // same kind. A zero extent never reaches here: the caller handles empty inputs.
  int64_t extent[kMaxRank];
  bool is_reduced[kMaxRank];
  int count = 0;
  for (int d = 0; d < rank; ++d) {
    if (dims[d] == 1) continue;
    if (count > 0 && is_reduced[count - 1] == reduced[d]) {
      extent[count - 1] *= dims[d];
    } else {
      extent[count] = dims[d];
      is_reduced[count] = reduced[d];
      ++count;
    }
  }
  plan->outer = plan->reduce = plan->inner = 1;
  plan->prefix_count = 0;
  if (count == 0 || (count == 1 && !is_reduced[0])) {  // nothing to reduce
    plan->kind = PlanKind::Identity;
    return;
  }
  // Peel the step off the end: [K] R or [K] R K.
  int end = count;
  if (!is_reduced[end - 1]) plan->inner = extent[--end];
  plan->reduce = extent[--end];
  if (end > 0) plan->outer = extent[--end];
  // The rest is the prefix; output strides follow the kept axes, innermost first.
  int64_t stride = plan->outer * plan->inner;
  for (int p = end - 1; p >= 0; --p) {
    plan->prefix_extent[p] = extent[p];
    plan->prefix_output_stride[p] = is_reduced[p] ? 0 : stride;
    if (!is_reduced[p]) stride *= extent[p];
  }
  plan->prefix_count = end;
}

}  // namespace ox
