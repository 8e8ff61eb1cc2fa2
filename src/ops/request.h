// A node call as the caller gave it, before any validation: what the wire decoder produces and
// what the resolver checks. Lists longer than the carried capacity keep their true length so the
// resolver can reject them with an exact message.
#pragma once
#include <cstdint>

#include "core/limits.h"

namespace ox {

// The longest text one character code takes in NameText::chars (`\u{10FFFF}`).
constexpr int kMaxCodeText = 10;

struct NameText {
  int length = 0;  // true length, in character codes
  // The first kMaxNameLength codes as printable text, NUL terminated: printable ASCII as itself,
  // a backslash as `\\`, any other code as a JS escape (`\u0430`, `\u{1F600}`), so an error shows
  // what a look-alike or invisible character was. No operator or attribute name holds a
  // backslash, so an escaped name never equals one.
  char chars[kMaxNameLength * kMaxCodeText + 1] = {};
};

// What kind of JS value an attribute or opset was.
enum class ValueKind : int32_t {
  Absent = 0,
  Number = 1,  // a number or BigInt (values[0]; may be non-integer, NaN or infinite)
  Boolean = 2, // values[0] is 0 or 1
  List = 3,    // an array / typed array of numbers or BigInts
  Other = 4,   // anything else; `other` says what
};

enum class OtherKind : int32_t {
  None = 0,
  String = 1,
  Object = 2,
  Null = 3,
  Function = 4,
  Symbol = 5,
  ListWithNonNumber = 6,
};

struct Value {
  ValueKind kind = ValueKind::Absent;
  OtherKind other = OtherKind::None;
  int64_t count = 0;              // list length (true); 1 for Number/Boolean
  double values[kMaxListed] = {};  // first kMaxListed entries
};

struct TensorArg {
  bool present = false;
  int32_t dtype = 0;          // ONNX code as the JS dtype table mapped it
  double length = 0;          // elements in data
  int64_t rank = 0;           // true rank
  double dims[kMaxRank] = {};  // first kMaxRank dims, unvalidated
  int64_t value_count = 0;    // inline values (small inputs such as ReduceMax's axes)
  double values[kMaxListed] = {};
};

struct AttrArg {
  NameText name;
  Value value;
};

struct NodeRequest {
  NameText op;
  Value opset;  // Absent means "newest version"
  int64_t input_count = 0;  // true count
  TensorArg inputs[kMaxInputsListed];
  int64_t attr_count = 0;  // true count
  AttrArg attrs[kMaxAttrsListed];
};

}  // namespace ox
