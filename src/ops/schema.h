// The operator table: every version of every operator onnx-extrema implements, with its
// attributes, defaults, inputs and type list. This is the single source of these facts.
#pragma once
#include <cstdint>
#include <string>

#include "core/dtype.h"

namespace ox {

enum class OpType : uint8_t { ArgMax, ArgMin, ReduceMax, Hardmax };
enum class Attr : uint8_t { Axis, Axes, Keepdims, SelectLastIndex, NoopWithEmptyAxes };
constexpr int kAttrCount = 5;

enum class AttrForm : uint8_t {
  Int,   // one integer
  Ints,  // a list of integers
  Flag,  // 0 or 1 (true/false accepted)
};

struct AttrSpec {
  Attr attr;
  AttrForm form;
  int64_t default_value;  // unused for Ints (absent means "all axes")
};

// How a version computes; the resolver builds its plan from this.
enum class Semantics : uint8_t {
  ArgAlongAxis,      // ArgMax / ArgMin
  ReduceAxesAttr,    // ReduceMax 1-13: axes attribute
  ReduceAxesInput,   // ReduceMax 18+: axes as optional input, noop_with_empty_axes
  HardmaxCoerce2D,   // Hardmax 1, 11: [prod(d[:axis]), prod(d[axis:])] rows
  HardmaxAlongAxis,  // Hardmax 13
};

// Type lists exactly as ../shared/spec and api.md give them (the table in schema.cc uses them).
constexpr TypeSet kArgTypes = type_bit(DType::Float64) | type_bit(DType::Float32) | type_bit(DType::Float16) |
                              type_bit(DType::Int16) | type_bit(DType::Int32) | type_bit(DType::Int64) |
                              type_bit(DType::Int8) | type_bit(DType::Uint16) | type_bit(DType::Uint32) |
                              type_bit(DType::Uint64) | type_bit(DType::Uint8);
constexpr TypeSet kArgTypes13 = kArgTypes | type_bit(DType::BFloat16);
constexpr TypeSet kReduceTypes1 = type_bit(DType::Float64) | type_bit(DType::Float32) | type_bit(DType::Float16) |
                                  type_bit(DType::Int32) | type_bit(DType::Int64) | type_bit(DType::Uint32) |
                                  type_bit(DType::Uint64);
constexpr TypeSet kReduceTypes12 = kReduceTypes1 | type_bit(DType::Int8) | type_bit(DType::Uint8);
constexpr TypeSet kReduceTypes13 = kReduceTypes12 | type_bit(DType::BFloat16);
constexpr TypeSet kReduceTypes20 = kReduceTypes13 | type_bit(DType::Bool);
constexpr TypeSet kHardmaxTypes = type_bit(DType::Float64) | type_bit(DType::Float32) | type_bit(DType::Float16);
constexpr TypeSet kHardmaxTypes13 = kHardmaxTypes | type_bit(DType::BFloat16);

// The types kernels are built for (kernels/registry.cc): every type some version takes, of the arg
// kinds (ArgMax, ArgMin, and Hardmax, which runs their kernels) and of ReduceMax.
constexpr TypeSet kArgKernelTypes = kArgTypes13 | kHardmaxTypes13;
constexpr TypeSet kReduceKernelTypes = kReduceTypes20;

constexpr int kMaxAttrsPerVersion = 3;

struct OpVersion {
  OpType op;
  int since;
  Semantics semantics;
  TypeSet types;
  int attr_count;
  AttrSpec attrs[kMaxAttrsPerVersion];
  int min_inputs;
  int max_inputs;
  const char* input_names[2];
};

const char* op_name(OpType op);
bool op_from_name(const char* name, int length, OpType* op);
const char* attr_name(Attr attr);
bool attr_from_name(const char* name, int length, Attr* attr);

// The version an ONNX model with this opset_import uses: the highest since_version <= opset;
// nullptr when the opset predates the operator.
const OpVersion* resolve_version(OpType op, int64_t opset);
const OpVersion* newest_version(OpType op);
// The spec entry for an attribute in a version, or nullptr if that version does not take it.
const AttrSpec* find_attr(const OpVersion& version, Attr attr);
// The earliest version of `op` that accepts type `t` / attribute `a`, or 0 if none does.
int first_version_accepting(OpType op, DType t);
int first_version_with_attr(OpType op, Attr a);
// Names of the types in a set, comma separated, for messages.
std::string type_names(TypeSet set);

// Iteration over the whole table (tests use it to sweep every version).
int version_count();
const OpVersion& version_at(int index);

}  // namespace ox
