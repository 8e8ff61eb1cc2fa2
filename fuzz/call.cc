#include "call.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "core/limits.h"
#include "wire/wire.h"

namespace oxfuzz {

int code_size(int code) {
  switch (code) {
    case kUint8: case kInt8: case kBool: return 1;
    case kUint16: case kInt16: case kFloat16: case kBFloat16: return 2;
    case kFloat32: case kInt32: case kUint32: return 4;
    case kInt64: case kFloat64: case kUint64: return 8;
    default: return 0;
  }
}

namespace {

template <class T>
double element(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return static_cast<double>(v);
}

}  // namespace

std::vector<double> tensor_numbers(const JsTensor& t) {
  if (!t.lies.empty()) return t.lies;
  const int size = code_size(t.code);
  std::vector<double> out;
  if (size == 0) return out;
  for (size_t at = 0; at + size <= t.bytes.size(); at += size) {
    const uint8_t* p = &t.bytes[at];
    switch (t.code) {
      case kFloat32: out.push_back(element<float>(p)); break;
      case kFloat64: out.push_back(element<double>(p)); break;
      case kInt8: out.push_back(element<int8_t>(p)); break;
      case kUint8: case kBool: out.push_back(element<uint8_t>(p)); break;
      case kInt16: out.push_back(element<int16_t>(p)); break;
      case kUint16: case kFloat16: case kBFloat16: out.push_back(element<uint16_t>(p)); break;
      case kInt32: out.push_back(element<int32_t>(p)); break;
      case kUint32: out.push_back(element<uint32_t>(p)); break;
      case kInt64: out.push_back(element<int64_t>(p)); break;  // Number(bigint): rounds like JS
      case kUint64: out.push_back(element<uint64_t>(p)); break;
    }
  }
  return out;
}

namespace {

class Words {
 public:
  void put(double v) { words_.push_back(v); }
  void name(const std::string& s) {
    put(static_cast<double>(s.size()));
    const size_t n = std::min<size_t>(s.size(), ox::kMaxNameLength);
    for (size_t i = 0; i < n; ++i) put(static_cast<unsigned char>(s[i]));
  }
  void value(const JsValue& v) {
    put(v.kind);
    put(v.kind == JsValue::Other ? v.other : 0);
    switch (v.kind) {
      case JsValue::Absent:
      case JsValue::Other:
        put(0);
        return;
      case JsValue::Number:
      case JsValue::Boolean:
        put(1);
        put(v.values.empty() ? 0 : v.values[0]);
        return;
      case JsValue::List:
        put(static_cast<double>(v.values.size()));
        for (size_t i = 0; i < v.values.size() && i < static_cast<size_t>(ox::kMaxListed); ++i) put(v.values[i]);
        return;
    }
  }
  void tensor(const JsTensor& t, bool inline_values) {
    if (!t.present) return put(0);
    put(1);
    put(t.code);
    put(t.length);
    put(static_cast<double>(t.dims.size()));
    for (size_t i = 0; i < t.dims.size() && i < static_cast<size_t>(ox::kMaxRank); ++i) put(t.dims[i]);
    if (!inline_values) return put(0);
    // The writer sends data.length, then Number(data[i]) for i < min(length, listed): NaN where a
    // lying length runs past the real elements.
    const std::vector<double> values = tensor_numbers(t);
    put(t.length);
    const double shown = std::min(t.length, static_cast<double>(ox::kMaxListed));
    for (size_t i = 0; static_cast<double>(i) < shown; ++i) put(i < values.size() ? values[i] : NAN);
  }
  std::vector<double> take() { return std::move(words_); }

 private:
  std::vector<double> words_;
};

std::string number(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

std::string value_text(const JsValue& v) {
  switch (v.kind) {
    case JsValue::Absent: return "undefined";
    case JsValue::Number: return number(v.values[0]);
    case JsValue::Boolean: return v.values[0] != 0 ? "true" : "false";
    case JsValue::Other: return "<other " + std::to_string(v.other) + ">";
    case JsValue::List: {
      std::string s = "[";
      for (size_t i = 0; i < v.values.size(); ++i) s += (i ? "," : "") + number(v.values[i]);
      return s + "]";
    }
  }
  return "?";
}

}  // namespace

std::vector<double> encode_wire(const Call& call) {
  Words w;
  w.put(ox::kWireVersion);
  w.name(call.op);
  w.value(call.opset);
  w.put(static_cast<double>(call.inputs.size()));
  for (size_t k = 0; k < call.inputs.size() && k < static_cast<size_t>(ox::kMaxInputsListed); ++k)
    w.tensor(call.inputs[k], k > 0);
  w.put(static_cast<double>(call.attrs.size()));
  for (size_t a = 0; a < call.attrs.size() && a < static_cast<size_t>(ox::kMaxAttrsListed); ++a) {
    w.name(call.attrs[a].name);
    w.value(call.attrs[a].value);
  }
  return w.take();
}

std::string describe(const Call& call) {
  std::string s = call.op + " opset=" + value_text(call.opset) + " inputs=[";
  for (size_t k = 0; k < call.inputs.size(); ++k) {
    const JsTensor& t = call.inputs[k];
    s += k ? "; " : "";
    if (!t.present) {
      s += "null";
      continue;
    }
    s += "code " + std::to_string(t.code) + " length " + number(t.length) + " dims " +
         value_text(JsValue::list(t.dims)) + " data " + value_text(JsValue::list(tensor_numbers(t)));
  }
  s += "] attrs={";
  for (size_t a = 0; a < call.attrs.size(); ++a)
    s += (a ? ", " : "") + call.attrs[a].name + ": " + value_text(call.attrs[a].value);
  return s + "}";
}

}  // namespace oxfuzz
