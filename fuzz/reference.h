// A deliberately simple scalar reference for the fuzz targets, written from api.md and the ONNX
// operator documents, independent of src/ops, src/plan and src/kernels: its own table of versions,
// types and attributes, its own N-d index loops, its own float16/bfloat16 decoding.
//   judge():   would the call be accepted? If so, the output type and dims; if not, the prefix the
//              error message must start with ("ArgMax version 13", "ReduceMax", ...).
//   compute(): the output values of an accepted call, element by element.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "call.h"

namespace oxfuzz {

// One element as a comparable number: NaN flag, else its exact value (long double holds every
// int64/uint64/float64 exactly).
struct Elem {
  bool nan = false;
  long double value = 0;
};
Elem decode_elem(int code, const uint8_t* p);
bool same_elem(const Elem& a, const Elem& b);  // both NaN, or numerically equal (-0 == +0)

enum class RefKind { ArgMax, ArgMin, ReduceMax, Hardmax };

struct Verdict {
  bool error = false;
  std::string label;  // what the message starts with (then ':' or ' ')
  std::string why;    // the reference's own reason, for reports
  // When accepted:
  RefKind kind = RefKind::ArgMax;
  int out_code = 0;
  std::vector<int64_t> in_dims;
  std::vector<int64_t> out_dims;
  uint64_t in_count = 0;
  uint64_t out_count = 0;
  bool select_last = false;
  bool identity = false;          // ReduceMax noop_with_empty_axes with no axes
  int axis = 0;                   // ArgMax/ArgMin/Hardmax
  bool coerce_2d = false;         // Hardmax 1 and 11
  std::vector<bool> reduced;      // ReduceMax
};

Verdict judge(const Call& call);

// Output elements of an accepted call (input 0's bytes as data).
std::vector<Elem> compute(const Call& call, const Verdict& verdict);

}  // namespace oxfuzz
