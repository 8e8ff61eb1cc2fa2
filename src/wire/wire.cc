#include "wire/wire.h"

#include <cmath>

namespace ox {

char* put_name_code(uint32_t code, char* at) {
  if (code >= 32 && code < 127 && code != '\\') {
    *at++ = static_cast<char>(code);
    return at;
  }
  *at++ = '\\';
  if (code == '\\') {
    *at++ = '\\';
    return at;
  }
  *at++ = 'u';
  const bool braced = code > 0xFFFF;  // (JS's \u{...}: four hex digits cannot hold it)
  const int digits = !braced ? 4 : code > 0xFFFFF ? 6 : 5;
  if (braced) *at++ = '{';
  for (int d = digits - 1; d >= 0; --d) *at++ = "0123456789abcdef"[(code >> (4 * d)) & 0xF];
  if (braced) *at++ = '}';
  return at;
}

namespace {

class Reader {
 public:
  Reader(const double* words, size_t count) : words_(words), count_(count) {}

  bool word(double* out) {
    if (next_ >= count_) return false;
    *out = words_[next_++];
    return true;
  }
  // A count or code: a finite integer in [lo, hi].
  bool integer(int64_t lo, int64_t hi, int64_t* out) {
    double v;
    if (!word(&v) || !std::isfinite(v) || v != std::floor(v) || v < static_cast<double>(lo) ||
        v > static_cast<double>(hi))
      return false;
    *out = static_cast<int64_t>(v);
    return true;
  }
  bool words(double* out, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
      if (!word(&out[i])) return false;
    return true;
  }
  bool at_end() const { return next_ == count_; }

 private:
  const double* words_;
  size_t count_;
  size_t next_ = 0;
};

int64_t carried(int64_t count, int64_t capacity) { return count < capacity ? count : capacity; }

bool read_name(Reader& in, NameText* name) {
  int64_t length;
  if (!in.integer(0, kMaxSafeInteger, &length)) return false;
  name->length = static_cast<int>(carried(length, kMaxNameLength + 1));  // keeps "too long" visible
  const int64_t n = carried(length, kMaxNameLength);
  char* at = name->chars;
  for (int64_t i = 0; i < n; ++i) {
    int64_t code;
    if (!in.integer(0, 0x10FFFF, &code)) return false;
    at = put_name_code(static_cast<uint32_t>(code), at);
  }
  *at = '\0';
  return true;
}

bool read_value(Reader& in, Value* value) {
  int64_t kind, other, count;
  if (!in.integer(0, 4, &kind) || !in.integer(0, 6, &other) || !in.integer(0, kMaxSafeInteger, &count))
    return false;
  value->kind = static_cast<ValueKind>(kind);
  value->other = static_cast<OtherKind>(other);
  value->count = count;
  if ((value->kind == ValueKind::Number || value->kind == ValueKind::Boolean) && count != 1) return false;
  return in.words(value->values, carried(count, kMaxListed));
}

bool read_tensor(Reader& in, TensorArg* t) {
  int64_t present;
  if (!in.integer(0, 1, &present)) return false;
  t->present = present == 1;
  t->value_count = 0;
  if (!t->present) return true;
  int64_t dtype, rank, value_count;
  if (!in.integer(0, 1 << 20, &dtype) || !in.word(&t->length) || !in.integer(0, kMaxSafeInteger, &rank))
    return false;
  t->dtype = static_cast<int32_t>(dtype);
  t->rank = rank;
  if (!in.words(t->dims, carried(rank, kMaxRank))) return false;
  if (!in.integer(0, kMaxSafeInteger, &value_count)) return false;
  t->value_count = value_count;
  return in.words(t->values, carried(value_count, kMaxListed));
}

}  // namespace

Status decode_request(const double* words, size_t count, NodeRequest* request) {
  // Every field within the counts is written below; the rest of the ~10 KB request is left as it
  // was rather than zeroed on every call (see wire.h).
  request->input_count = request->attr_count = 0;
  Reader in(words, count);
  double version;
  int64_t n;
  bool ok = in.word(&version) && version == kWireVersion && read_name(in, &request->op);
  ok = ok && read_value(in, &request->opset) && in.integer(0, kMaxSafeInteger, &n);
  if (ok) {
    request->input_count = n;
    for (int64_t i = 0; ok && i < carried(n, kMaxInputsListed); ++i) ok = read_tensor(in, &request->inputs[i]);
  }
  ok = ok && in.integer(0, kMaxSafeInteger, &n);
  if (ok) {
    request->attr_count = n;
    for (int64_t i = 0; ok && i < carried(n, kMaxAttrsListed); ++i)
      ok = read_name(in, &request->attrs[i].name) && read_value(in, &request->attrs[i].value);
  }
  if (!ok || !in.at_end()) return Status::error("onnx-extrema: malformed request (internal error)");
  return Status::ok();
}

}  // namespace ox
