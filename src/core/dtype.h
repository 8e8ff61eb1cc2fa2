// The element types onnx-extrema knows, keyed by their ONNX TensorProto codes.
// This is the C++ side's single dtype table (js/dtypes.js holds the JS side's).
#pragma once
#include <cstdint>

namespace ox {

enum class DType : int32_t {
  Undefined = 0,
  Float32 = 1,
  Uint8 = 2,
  Int8 = 3,
  Uint16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  Bool = 9,
  Float16 = 10,
  Float64 = 11,
  Uint32 = 12,
  Uint64 = 13,
  BFloat16 = 16,
};

struct DTypeInfo {
  DType code;
  const char* name;  // the name the JS API uses ("float32", "bfloat16", ...)
  int32_t size;      // bytes per element
};

// Info for an ONNX code, or nullptr when the code is not a type onnx-extrema knows.
const DTypeInfo* dtype_info(int32_t code);
const char* dtype_name(DType t);
int32_t dtype_size(DType t);

// Type sets are bit masks over ONNX codes (all codes are < 32).
using TypeSet = uint32_t;
constexpr TypeSet type_bit(DType t) { return TypeSet{1} << static_cast<int32_t>(t); }
constexpr bool type_in(TypeSet set, DType t) { return (set & type_bit(t)) != 0; }

}  // namespace ox
