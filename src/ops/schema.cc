#include "ops/schema.h"

#include <cstring>

namespace ox {
namespace {

constexpr AttrSpec kAxis0{Attr::Axis, AttrForm::Int, 0};
constexpr AttrSpec kKeepdims{Attr::Keepdims, AttrForm::Flag, 1};
constexpr AttrSpec kSelectLast{Attr::SelectLastIndex, AttrForm::Flag, 0};
constexpr AttrSpec kAxes{Attr::Axes, AttrForm::Ints, 0};
constexpr AttrSpec kNoop{Attr::NoopWithEmptyAxes, AttrForm::Flag, 0};

#define ARG_VERSIONS(OP)                                                                   \
  {OP, 1, Semantics::ArgAlongAxis, kArgTypes, 2, {kAxis0, kKeepdims}, 1, 1, {"data"}},                \
      {OP, 11, Semantics::ArgAlongAxis, kArgTypes, 2, {kAxis0, kKeepdims}, 1, 1, {"data"}},           \
      {OP, 12, Semantics::ArgAlongAxis, kArgTypes, 3, {kAxis0, kKeepdims, kSelectLast}, 1, 1, {"data"}}, \
      {OP, 13, Semantics::ArgAlongAxis, kArgTypes13, 3, {kAxis0, kKeepdims, kSelectLast}, 1, 1, {"data"}}

// Ordered by operator, then by since_version ascending.
constexpr OpVersion kVersions[] = {
    ARG_VERSIONS(OpType::ArgMax),
    ARG_VERSIONS(OpType::ArgMin),
    {OpType::ReduceMax, 1, Semantics::ReduceAxesAttr, kReduceTypes1, 2, {kAxes, kKeepdims}, 1, 1, {"data"}},
    {OpType::ReduceMax, 11, Semantics::ReduceAxesAttr, kReduceTypes1, 2, {kAxes, kKeepdims}, 1, 1, {"data"}},
    {OpType::ReduceMax, 12, Semantics::ReduceAxesAttr, kReduceTypes12, 2, {kAxes, kKeepdims}, 1, 1, {"data"}},
    {OpType::ReduceMax, 13, Semantics::ReduceAxesAttr, kReduceTypes13, 2, {kAxes, kKeepdims}, 1, 1, {"data"}},
    {OpType::ReduceMax, 18, Semantics::ReduceAxesInput, kReduceTypes13, 2, {kKeepdims, kNoop}, 1, 2, {"data", "axes"}},
    {OpType::ReduceMax, 20, Semantics::ReduceAxesInput, kReduceTypes20, 2, {kKeepdims, kNoop}, 1, 2, {"data", "axes"}},
    {OpType::Hardmax, 1, Semantics::HardmaxCoerce2D, kHardmaxTypes, 1, {{Attr::Axis, AttrForm::Int, 1}}, 1, 1, {"input"}},
    {OpType::Hardmax, 11, Semantics::HardmaxCoerce2D, kHardmaxTypes, 1, {{Attr::Axis, AttrForm::Int, 1}}, 1, 1, {"input"}},
    {OpType::Hardmax, 13, Semantics::HardmaxAlongAxis, kHardmaxTypes13, 1, {{Attr::Axis, AttrForm::Int, -1}}, 1, 1, {"input"}},
};
#undef ARG_VERSIONS

// The kernel type sets of schema.h are the newest lists; no version may take a type they lack.
constexpr TypeSet union_of_types(bool (*in_family)(OpType)) {
  TypeSet set = 0;
  for (const OpVersion& v : kVersions)
    if (in_family(v.op)) set |= v.types;
  return set;
}
constexpr bool is_arg_family(OpType op) { return op != OpType::ReduceMax; }
constexpr bool is_reduce(OpType op) { return op == OpType::ReduceMax; }
static_assert(union_of_types(is_arg_family) == kArgKernelTypes, "an arg-kind version takes a type without kernels");
static_assert(union_of_types(is_reduce) == kReduceKernelTypes, "a ReduceMax version takes a type without kernels");

constexpr const char* kOpNames[] = {"ArgMax", "ArgMin", "ReduceMax", "Hardmax"};
constexpr const char* kAttrNames[] = {"axis", "axes", "keepdims", "select_last_index", "noop_with_empty_axes"};

bool name_equals(const char* name, int length, const char* candidate) {
  return static_cast<int>(std::strlen(candidate)) == length && std::memcmp(name, candidate, length) == 0;
}

}  // namespace

const char* op_name(OpType op) { return kOpNames[static_cast<int>(op)]; }
const char* attr_name(Attr attr) { return kAttrNames[static_cast<int>(attr)]; }

bool op_from_name(const char* name, int length, OpType* op) {
  for (int i = 0; i < 4; ++i)
    if (name_equals(name, length, kOpNames[i])) return *op = static_cast<OpType>(i), true;
  return false;
}

bool attr_from_name(const char* name, int length, Attr* attr) {
  for (int i = 0; i < kAttrCount; ++i)
    if (name_equals(name, length, kAttrNames[i])) return *attr = static_cast<Attr>(i), true;
  return false;
}

const OpVersion* resolve_version(OpType op, int64_t opset) {
  const OpVersion* found = nullptr;
  for (const OpVersion& v : kVersions)
    if (v.op == op && v.since <= opset) found = &v;
  return found;
}

const OpVersion* newest_version(OpType op) { return resolve_version(op, INT64_MAX); }

const AttrSpec* find_attr(const OpVersion& version, Attr attr) {
  for (int i = 0; i < version.attr_count; ++i)
    if (version.attrs[i].attr == attr) return &version.attrs[i];
  return nullptr;
}

int first_version_accepting(OpType op, DType t) {
  for (const OpVersion& v : kVersions)
    if (v.op == op && type_in(v.types, t)) return v.since;
  return 0;
}

int first_version_with_attr(OpType op, Attr a) {
  for (const OpVersion& v : kVersions)
    if (v.op == op && find_attr(v, a)) return v.since;
  return 0;
}

std::string type_names(TypeSet set) {
  std::string out;
  for (int code = 0; code < 32; ++code) {
    const DTypeInfo* info = dtype_info(code);
    if (!info || !(set & (TypeSet{1} << code))) continue;
    if (!out.empty()) out += ", ";
    out += info->name;
  }
  return out;
}

int version_count() { return static_cast<int>(sizeof kVersions / sizeof kVersions[0]); }
const OpVersion& version_at(int index) { return kVersions[index]; }

}  // namespace ox
