// What the spec documents (../shared/spec/*.rst) and api.md say about every operator version, written
// out by hand from that text, so the schema in src/ops/schema.cc is checked against an independent
// source rather than read back from itself.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.h"

namespace spec {

using ox::DType;

enum class Form { Int, Ints, Flag };

struct Attribute {
  std::string name;
  Form form;
  int64_t default_value;  // unused for Ints (axes: absent means every axis)
};

enum class Kind { Arg, ReduceAxesAttribute, ReduceAxesInput, HardmaxCoerced, HardmaxAlongAxis };

struct Version {
  std::string op;
  int since;
  Kind kind;
  std::vector<DType> types;
  std::vector<Attribute> attrs;
  int min_inputs;
  int max_inputs;
  std::vector<std::string> input_names;
};

// Every element type the project knows (api.md's table).
inline const std::vector<DType>& known_types() {
  static const std::vector<DType> all = {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16,
                                         DType::Int8,    DType::Uint8,   DType::Int16,   DType::Uint16,
                                         DType::Int32,   DType::Uint32,  DType::Int64,   DType::Uint64,
                                         DType::Bool};
  return all;
}

inline const std::vector<Version>& versions() {
  using D = DType;
  // ArgMax / ArgMin 1, 11, 12: "all numeric tensors" (the listed 11), bfloat16 from 13.
  const std::vector<D> arg = {D::Float64, D::Float32, D::Float16, D::Int16,  D::Int32, D::Int64,
                              D::Int8,    D::Uint16,  D::Uint32,  D::Uint64, D::Uint8};
  std::vector<D> arg13 = arg;
  arg13.push_back(D::BFloat16);
  // ReduceMax 1 and 11: high-precision numeric; 12 adds int8 and uint8; 13 bfloat16; 20 bool (api.md).
  const std::vector<D> reduce1 = {D::Float64, D::Float32, D::Float16, D::Int32, D::Int64, D::Uint32, D::Uint64};
  std::vector<D> reduce12 = reduce1;
  reduce12.insert(reduce12.end(), {D::Int8, D::Uint8});
  std::vector<D> reduce13 = reduce12;
  reduce13.push_back(D::BFloat16);
  std::vector<D> reduce20 = reduce13;
  reduce20.push_back(D::Bool);
  // Hardmax: float tensors; bfloat16 from 13.
  const std::vector<D> hard = {D::Float64, D::Float32, D::Float16};
  std::vector<D> hard13 = hard;
  hard13.push_back(D::BFloat16);

  const Attribute axis0{"axis", Form::Int, 0};
  const Attribute keepdims{"keepdims", Form::Flag, 1};
  const Attribute last{"select_last_index", Form::Flag, 0};
  const Attribute axes{"axes", Form::Ints, 0};
  const Attribute noop{"noop_with_empty_axes", Form::Flag, 0};
  const Attribute hard_axis1{"axis", Form::Int, 1};
  const Attribute hard_axis13{"axis", Form::Int, -1};

  static const std::vector<Version> table = [&] {
    std::vector<Version> t;
    for (const char* op : {"ArgMax", "ArgMin"}) {
      t.push_back({op, 1, Kind::Arg, arg, {axis0, keepdims}, 1, 1, {"data"}});
      t.push_back({op, 11, Kind::Arg, arg, {axis0, keepdims}, 1, 1, {"data"}});
      t.push_back({op, 12, Kind::Arg, arg, {axis0, keepdims, last}, 1, 1, {"data"}});
      t.push_back({op, 13, Kind::Arg, arg13, {axis0, keepdims, last}, 1, 1, {"data"}});
    }
    t.push_back({"ReduceMax", 1, Kind::ReduceAxesAttribute, reduce1, {axes, keepdims}, 1, 1, {"data"}});
    t.push_back({"ReduceMax", 11, Kind::ReduceAxesAttribute, reduce1, {axes, keepdims}, 1, 1, {"data"}});
    t.push_back({"ReduceMax", 12, Kind::ReduceAxesAttribute, reduce12, {axes, keepdims}, 1, 1, {"data"}});
    t.push_back({"ReduceMax", 13, Kind::ReduceAxesAttribute, reduce13, {axes, keepdims}, 1, 1, {"data"}});
    t.push_back({"ReduceMax", 18, Kind::ReduceAxesInput, reduce13, {keepdims, noop}, 1, 2, {"data", "axes"}});
    t.push_back({"ReduceMax", 20, Kind::ReduceAxesInput, reduce20, {keepdims, noop}, 1, 2, {"data", "axes"}});
    t.push_back({"Hardmax", 1, Kind::HardmaxCoerced, hard, {hard_axis1}, 1, 1, {"input"}});
    t.push_back({"Hardmax", 11, Kind::HardmaxCoerced, hard, {hard_axis1}, 1, 1, {"input"}});
    t.push_back({"Hardmax", 13, Kind::HardmaxAlongAxis, hard13, {hard_axis13}, 1, 1, {"input"}});
    return t;
  }();
  return table;
}

inline const std::vector<std::string>& op_names() {
  static const std::vector<std::string> names = {"ArgMax", "ArgMin", "ReduceMax", "Hardmax"};
  return names;
}

inline bool accepts(const Version& v, DType t) {
  return std::find(v.types.begin(), v.types.end(), t) != v.types.end();
}

inline const Attribute* find_attribute(const Version& v, const std::string& name) {
  for (const Attribute& a : v.attrs)
    if (a.name == name) return &a;
  return nullptr;
}

// The version an opset_import selects: the highest since_version <= opset, or nullptr.
inline const Version* version_for(const std::string& op, int64_t opset) {
  const Version* found = nullptr;
  for (const Version& v : versions())
    if (v.op == op && v.since <= opset && (!found || v.since > found->since)) found = &v;
  return found;
}

inline const Version& newest(const std::string& op) { return *version_for(op, INT64_MAX); }

inline std::vector<const Version*> versions_of(const std::string& op) {
  std::vector<const Version*> out;
  for (const Version& v : versions())
    if (v.op == op) out.push_back(&v);
  return out;
}

// The earliest version of `op` accepting type `t`, or 0.
inline int first_accepting(const std::string& op, DType t) {
  int first = 0;
  for (const Version& v : versions())
    if (v.op == op && accepts(v, t) && (first == 0 || v.since < first)) first = v.since;
  return first;
}

}  // namespace spec
