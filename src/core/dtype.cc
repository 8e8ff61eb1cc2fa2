#include "core/dtype.h"

namespace ox {
namespace {

constexpr DTypeInfo kTypes[] = {
    {DType::Float32, "float32", 4}, {DType::Uint8, "uint8", 1},     {DType::Int8, "int8", 1},
    {DType::Uint16, "uint16", 2},   {DType::Int16, "int16", 2},     {DType::Int32, "int32", 4},
    {DType::Int64, "int64", 8},     {DType::Bool, "bool", 1},       {DType::Float16, "float16", 2},
    {DType::Float64, "float64", 8}, {DType::Uint32, "uint32", 4},   {DType::Uint64, "uint64", 8},
    {DType::BFloat16, "bfloat16", 2},
};

}  // namespace

const DTypeInfo* dtype_info(int32_t code) {
  for (const DTypeInfo& info : kTypes)
    if (static_cast<int32_t>(info.code) == code) return &info;
  return nullptr;
}

const char* dtype_name(DType t) {
  const DTypeInfo* info = dtype_info(static_cast<int32_t>(t));
  return info ? info->name : "undefined";
}

int32_t dtype_size(DType t) {
  const DTypeInfo* info = dtype_info(static_cast<int32_t>(t));
  return info ? info->size : 0;
}

}  // namespace ox
