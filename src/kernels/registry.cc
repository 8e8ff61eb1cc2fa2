#include "kernels/registry.h"

#include "kernels/arg_portable.h"
#include "kernels/max_portable.h"
#include "kernels/traits.h"

namespace ox {
namespace {

template <class Rule>
struct ArgKernels {
  using Raw = typename Rule::Raw;
  static void rows(const void* x, int64_t n, int64_t length, int64_t first, void* best, int32_t* index) {
    arg_rows_portable<Rule>(static_cast<const Raw*>(x), n, length, first, static_cast<Raw*>(best), index);
  }
  static void columns(const void* x, int64_t n, int64_t width, int64_t stride, int64_t first, void* best,
                      int32_t* index) {
    arg_columns_portable<Rule>(static_cast<const Raw*>(x), n, width, stride, first, static_cast<Raw*>(best), index);
  }
  static void fill_start(void* best, int64_t count) {
    Raw* b = static_cast<Raw*>(best);
    for (int64_t k = 0; k < count; ++k) b[k] = Rule::identity();
  }
  static KernelSet set() { return {&rows, &columns, &fill_start, true}; }
};

template <class Tr>
struct MaxKernels {
  using Raw = typename Tr::Raw;
  static void rows(const void* x, int64_t n, int64_t length, int64_t, void* acc, int32_t*) {
    max_rows_portable<Tr>(static_cast<const Raw*>(x), n, length, static_cast<Raw*>(acc));
  }
  static void columns(const void* x, int64_t n, int64_t width, int64_t stride, int64_t, void* acc, int32_t*) {
    max_columns_portable<Tr>(static_cast<const Raw*>(x), n, width, stride, static_cast<Raw*>(acc));
  }
  static void fill_start(void* acc, int64_t count) {
    Raw* a = static_cast<Raw*>(acc);
    for (int64_t k = 0; k < count; ++k) a[k] = Tr::lowest();
  }
  static KernelSet set() { return {&rows, &columns, &fill_start, false}; }
};

template <DType D>
KernelSet kernels_for(PlanKind kind, bool last) {
  using Tr = Traits<D>;
  switch (kind) {
    case PlanKind::ArgMax:
    case PlanKind::Hardmax:
      return last ? ArgKernels<ArgRule<Tr, Direction::Max, true>>::set()
                  : ArgKernels<ArgRule<Tr, Direction::Max, false>>::set();
    case PlanKind::ArgMin:
      return last ? ArgKernels<ArgRule<Tr, Direction::Min, true>>::set()
                  : ArgKernels<ArgRule<Tr, Direction::Min, false>>::set();
    case PlanKind::ReduceMax:
      return MaxKernels<Tr>::set();
    case PlanKind::Identity:
      break;
  }
  return {nullptr, nullptr, nullptr, false};
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
