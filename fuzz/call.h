// A node call as JavaScript would make it (op name, opset, tensor-likes, attributes), described
// independently of src/, plus its encoding into the wire words js/wire.js writes. The fuzz targets
// build Calls from fuzz input; reference.h judges them; encode_wire() feeds them to the core.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace oxfuzz {

// ONNX TensorProto codes (the fuzz side's own copy: 0 and unlisted codes are invalid types).
enum Code : int {
  kFloat32 = 1, kUint8 = 2, kInt8 = 3, kUint16 = 4, kInt16 = 5, kInt32 = 6, kInt64 = 7,
  kBool = 9, kFloat16 = 10, kFloat64 = 11, kUint32 = 12, kUint64 = 13, kBFloat16 = 16,
};
int code_size(int code);  // bytes per element, 0 for an unknown code

// A JS value in an attribute or opset position, as the JS writer classifies it.
struct JsValue {
  enum Kind { Absent = 0, Number = 1, Boolean = 2, List = 3, Other = 4 } kind = Absent;
  int other = 0;               // OtherKind code when kind == Other (1 string, 2 object, ...)
  std::vector<double> values;  // Number/Boolean: one value; List: the entries as numbers
  static JsValue number(double v) { return {Number, 0, {v}}; }
  static JsValue boolean(bool b) { return {Boolean, 0, {b ? 1.0 : 0.0}}; }
  static JsValue list(std::vector<double> v) { return {List, 0, std::move(v)}; }
  static JsValue thing(int other) { return {Other, other, {}}; }
};

struct JsTensor {
  bool present = true;        // false: null in the inputs array
  int code = kFloat32;        // ONNX code (the JS side maps the type name to it)
  double length = 0;          // data.length
  std::vector<double> dims;   // as given (may be invalid)
  std::vector<uint8_t> bytes; // element bytes; length * size when the length is honest
  std::vector<double> lies;   // if set: what a Proxy posing as the data returns for data[i]
};

struct JsAttr {
  std::string name;
  JsValue value;
};

struct Call {
  std::string op;
  JsValue opset;  // Absent: the newest version
  std::vector<JsTensor> inputs;
  std::vector<JsAttr> attrs;
};

// The element values of a tensor as JS numbers (what the writer inlines for inputs after the first).
std::vector<double> tensor_numbers(const JsTensor& t);

// The words js/wire.js writes for this call (capacities from src/core/limits.h).
std::vector<double> encode_wire(const Call& call);

// A readable one-line description, for crash reports.
std::string describe(const Call& call);

}  // namespace oxfuzz
