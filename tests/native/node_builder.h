// Builds node calls for tests: a readable description (op, opset, inputs, attributes) that becomes
// either an ox::NodeRequest directly or the flat wire words of src/wire/wire.h, encoded here by hand
// from the layout documented there. Long lists, names and counts keep their true length and carry
// only what the format carries, exactly as js/wire.js does.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/dtype.h"
#include "core/limits.h"
#include "ops/request.h"
#include "wire/wire.h"

namespace tb {

using ox::OtherKind;
using ox::ValueKind;

// An attribute or opset value as JS would describe it.
struct ValueSpec {
  ValueKind kind = ValueKind::Absent;
  OtherKind other = OtherKind::None;
  std::vector<double> values;
  int64_t count = -1;  // true count; -1: values.size()
  int64_t true_count() const { return count >= 0 ? count : static_cast<int64_t>(values.size()); }
};

inline ValueSpec absent() { return {}; }
inline ValueSpec number(double v) { return {ValueKind::Number, OtherKind::None, {v}, 1}; }
inline ValueSpec boolean(bool v) { return {ValueKind::Boolean, OtherKind::None, {v ? 1.0 : 0.0}, 1}; }
inline ValueSpec list(std::vector<double> v) { return {ValueKind::List, OtherKind::None, std::move(v), -1}; }
inline ValueSpec other(OtherKind k) { return {ValueKind::Other, k, {}, 0}; }

// An input tensor's description (its data travels separately, through Execution::feed).
struct TensorSpec {
  bool present = true;
  int32_t dtype = 0;
  double length = 0;
  std::vector<double> dims;
  int64_t rank = -1;  // true rank; -1: dims.size()
  std::vector<double> values;  // inline values (ReduceMax's axes input)
  int64_t value_count = -1;
  int64_t true_rank() const { return rank >= 0 ? rank : static_cast<int64_t>(dims.size()); }
  int64_t true_value_count() const { return value_count >= 0 ? value_count : static_cast<int64_t>(values.size()); }
};

inline TensorSpec tensor(ox::DType dtype, const std::vector<int64_t>& dims) {
  TensorSpec t;
  t.dtype = static_cast<int32_t>(dtype);
  t.length = 1;
  bool empty = false;
  for (int64_t d : dims) {
    t.dims.push_back(static_cast<double>(d));
    t.length *= static_cast<double>(d);
    empty |= d == 0;
  }
  if (empty) t.length = 0;  // not inf * 0 when huge dims overflow the product
  return t;
}

// ReduceMax 18+'s axes input: a 1-D int64 tensor with its values inline.
inline TensorSpec axes_input(const std::vector<double>& axes) {
  TensorSpec t;
  t.dtype = static_cast<int32_t>(ox::DType::Int64);
  t.length = static_cast<double>(axes.size());
  t.dims = {static_cast<double>(axes.size())};
  t.values = axes;
  return t;
}

inline TensorSpec missing_input() {
  TensorSpec t;
  t.present = false;
  return t;
}

struct Node {
  std::string op;
  ValueSpec opset;
  std::vector<TensorSpec> inputs;
  int64_t input_count = -1;  // -1: inputs.size()
  std::vector<std::pair<std::string, ValueSpec>> attrs;
  int64_t attr_count = -1;  // -1: attrs.size()

  explicit Node(std::string op_name) : op(std::move(op_name)) {}
  Node& at(double opset_number) { return opset = number(opset_number), *this; }
  Node& at(ValueSpec opset_value) { return opset = std::move(opset_value), *this; }
  Node& in(TensorSpec t) { return inputs.push_back(std::move(t)), *this; }
  Node& attr(std::string name, ValueSpec v) { return attrs.emplace_back(std::move(name), std::move(v)), *this; }
  Node& attr(std::string name, double v) { return attr(std::move(name), number(v)); }
  Node& attr(std::string name, std::vector<double> v) { return attr(std::move(name), list(std::move(v))); }

  int64_t true_input_count() const { return input_count >= 0 ? input_count : static_cast<int64_t>(inputs.size()); }
  int64_t true_attr_count() const { return attr_count >= 0 ? attr_count : static_cast<int64_t>(attrs.size()); }
};

inline int64_t carried(int64_t count, int64_t capacity) { return std::min(count, capacity); }

// ---- straight into a NodeRequest --------------------------------------------------------------

inline void fill_name(const std::string& s, ox::NameText* name) {
  name->length = static_cast<int>(carried(static_cast<int64_t>(s.size()), ox::kMaxNameLength + 1));
  const int64_t n = carried(static_cast<int64_t>(s.size()), ox::kMaxNameLength);
  char* at = name->chars;
  for (int64_t i = 0; i < n; ++i) at = ox::put_name_code(static_cast<unsigned char>(s[static_cast<size_t>(i)]), at);
  *at = '\0';
}

inline void fill_value(const ValueSpec& v, ox::Value* out) {
  out->kind = v.kind;
  out->other = v.other;
  out->count = v.true_count();
  for (int64_t i = 0; i < carried(static_cast<int64_t>(v.values.size()), ox::kMaxListed); ++i)
    out->values[i] = v.values[static_cast<size_t>(i)];
}

inline ox::NodeRequest to_request(const Node& node) {
  ox::NodeRequest r;
  fill_name(node.op, &r.op);
  fill_value(node.opset, &r.opset);
  r.input_count = node.true_input_count();
  for (int64_t i = 0; i < carried(static_cast<int64_t>(node.inputs.size()), ox::kMaxInputsListed); ++i) {
    const TensorSpec& t = node.inputs[static_cast<size_t>(i)];
    ox::TensorArg& a = r.inputs[i];
    a.present = t.present;
    if (!t.present) continue;
    a.dtype = t.dtype;
    a.length = t.length;
    a.rank = t.true_rank();
    for (int64_t d = 0; d < carried(static_cast<int64_t>(t.dims.size()), ox::kMaxRank); ++d)
      a.dims[d] = t.dims[static_cast<size_t>(d)];
    a.value_count = t.true_value_count();
    for (int64_t k = 0; k < carried(static_cast<int64_t>(t.values.size()), ox::kMaxListed); ++k)
      a.values[k] = t.values[static_cast<size_t>(k)];
  }
  r.attr_count = node.true_attr_count();
  for (int64_t i = 0; i < carried(static_cast<int64_t>(node.attrs.size()), ox::kMaxAttrsListed); ++i) {
    fill_name(node.attrs[static_cast<size_t>(i)].first, &r.attrs[i].name);
    fill_value(node.attrs[static_cast<size_t>(i)].second, &r.attrs[i].value);
  }
  return r;
}

// ---- as wire words ----------------------------------------------------------------------------
// Layout (src/wire/wire.h): version; op name; opset value; input count, inputs; attribute count,
// attributes. Only carried entries are written; counts are true counts.

inline void put_name(const std::string& s, std::vector<double>* w) {
  w->push_back(static_cast<double>(s.size()));
  for (int64_t i = 0; i < carried(static_cast<int64_t>(s.size()), ox::kMaxNameLength); ++i)
    w->push_back(static_cast<unsigned char>(s[static_cast<size_t>(i)]));
}

inline void put_value(const ValueSpec& v, std::vector<double>* w) {
  w->push_back(static_cast<double>(v.kind));
  w->push_back(static_cast<double>(v.other));
  w->push_back(static_cast<double>(v.true_count()));
  for (int64_t i = 0; i < carried(v.true_count(), ox::kMaxListed); ++i) w->push_back(v.values[static_cast<size_t>(i)]);
}

inline void put_tensor(const TensorSpec& t, std::vector<double>* w) {
  w->push_back(t.present ? 1 : 0);
  if (!t.present) return;
  w->push_back(t.dtype);
  w->push_back(t.length);
  w->push_back(static_cast<double>(t.true_rank()));
  for (int64_t d = 0; d < carried(t.true_rank(), ox::kMaxRank); ++d) w->push_back(t.dims[static_cast<size_t>(d)]);
  w->push_back(static_cast<double>(t.true_value_count()));
  for (int64_t k = 0; k < carried(t.true_value_count(), ox::kMaxListed); ++k) w->push_back(t.values[static_cast<size_t>(k)]);
}

inline std::vector<double> to_wire(const Node& node) {
  std::vector<double> w = {ox::kWireVersion};
  put_name(node.op, &w);
  put_value(node.opset, &w);
  w.push_back(static_cast<double>(node.true_input_count()));
  for (int64_t i = 0; i < carried(node.true_input_count(), ox::kMaxInputsListed); ++i)
    put_tensor(node.inputs[static_cast<size_t>(i)], &w);
  w.push_back(static_cast<double>(node.true_attr_count()));
  for (int64_t i = 0; i < carried(node.true_attr_count(), ox::kMaxAttrsListed); ++i) {
    put_name(node.attrs[static_cast<size_t>(i)].first, &w);
    put_value(node.attrs[static_cast<size_t>(i)].second, &w);
  }
  return w;
}

}  // namespace tb
