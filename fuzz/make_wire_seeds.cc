// Writes fuzz/corpus/wire_fuzz/: representative requests (valid and not) in wire_fuzz's token
// format, so the fuzzer starts past the decoder. Regenerate with
//   build/fuzz/make_wire_seeds fuzz/corpus/wire_fuzz
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "call.h"

namespace {

using oxfuzz::Call;
using oxfuzz::JsTensor;
using oxfuzz::JsValue;

// Same table as wire_fuzz.cc's specials (only exact matches are used; anything else is raw).
const double kSpecial[32] = {
    NAN, INFINITY, -INFINITY, -0.0, 0.5, 1.5, -1.5, 9007199254740992.0, 9007199254740991.0, 9007199254740994.0,
    1e300, -1e300, 2147483648.0, 2147483647.0, 4294967296.0, 65536, 1048576, 1e15, 9223372036854775808.0,
    -9223372036854775808.0, 18446744073709551616.0, 4096, 1e16, 0x10FFFF, 0x110000, 64, 65, 66, 5e-324, 1e-300,
    127, 128};

std::vector<uint8_t> tokens(const std::vector<double>& words) {
  std::vector<uint8_t> out = {1};
  for (double w : words) {
    const bool integer = w == std::floor(w) && !(w == 0 && std::signbit(w));  // -0 goes as a special
    if (integer && w >= -32 && w <= 159) {
      out.push_back(static_cast<uint8_t>(w + 32));
      continue;
    }
    if (integer && w >= 0 && w <= 65535) {
      const uint16_t v = static_cast<uint16_t>(w);
      out.push_back(0xE0);
      out.push_back(static_cast<uint8_t>(v & 0xFF));
      out.push_back(static_cast<uint8_t>(v >> 8));
      continue;
    }
    int special = -1;
    for (int i = 0; i < 32; ++i)
      if (std::memcmp(&kSpecial[i], &w, 8) == 0) special = i;
    if (special >= 0) {
      out.push_back(static_cast<uint8_t>(0xC0 + special));
      continue;
    }
    uint8_t raw[8];
    std::memcpy(raw, &w, 8);
    out.push_back(0xF0);
    out.insert(out.end(), raw, raw + 8);
  }
  return out;
}

JsTensor tensor(int code, std::vector<double> dims) {
  JsTensor t;
  t.code = code;
  t.dims = dims;
  double n = 1;
  for (double d : dims) n *= d;
  t.length = n;
  t.bytes.assign(static_cast<size_t>(n) * oxfuzz::code_size(code), 0);
  for (size_t i = 0; i < t.bytes.size(); ++i) t.bytes[i] = static_cast<uint8_t>(i * 37);
  return t;
}

JsTensor axes(std::vector<int64_t> list) {
  JsTensor t;
  t.code = oxfuzz::kInt64;
  t.dims = {static_cast<double>(list.size())};
  t.length = static_cast<double>(list.size());
  for (int64_t a : list) {
    uint8_t b[8];
    std::memcpy(b, &a, 8);
    t.bytes.insert(t.bytes.end(), b, b + 8);
  }
  return t;
}

Call call(const char* op, JsValue opset, std::vector<JsTensor> inputs, std::vector<oxfuzz::JsAttr> attrs) {
  return Call{op, opset, std::move(inputs), std::move(attrs)};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_wire_seeds <directory>\n");
    return 2;
  }
  using V = JsValue;
  const V none;
  const std::vector<Call> calls = {
      call("ArgMax", none, {tensor(oxfuzz::kFloat32, {2, 3})}, {{"axis", V::number(-1)}}),
      call("ArgMax", V::number(11), {tensor(oxfuzz::kInt8, {4})}, {{"keepdims", V::number(0)}}),
      call("ArgMax", V::number(12), {tensor(oxfuzz::kUint64, {2, 2, 2})}, {{"axis", V::number(1)}, {"select_last_index", V::boolean(true)}}),
      call("ArgMax", V::number(13), {tensor(oxfuzz::kBFloat16, {3, 1, 2})}, {{"axis", V::number(0)}}),
      call("ArgMin", V::number(1), {tensor(oxfuzz::kFloat64, {5})}, {}),
      call("ArgMin", none, {tensor(oxfuzz::kFloat16, {2, 0, 3})}, {{"axis", V::number(2)}}),
      call("ArgMin", none, {tensor(oxfuzz::kInt16, {1, 1, 1, 1, 7})}, {{"axis", V::number(-1)}, {"keepdims", V::number(1)}}),
      call("ReduceMax", V::number(1), {tensor(oxfuzz::kFloat32, {2, 3, 4})}, {{"axes", V::list({0, 2})}}),
      call("ReduceMax", V::number(12), {tensor(oxfuzz::kUint8, {3, 3})}, {{"axes", V::list({-1})}, {"keepdims", V::number(0)}}),
      call("ReduceMax", V::number(13), {tensor(oxfuzz::kInt32, {2, 2, 2, 2})}, {}),
      call("ReduceMax", V::number(18), {tensor(oxfuzz::kFloat32, {2, 3}), axes({1})}, {}),
      call("ReduceMax", V::number(18), {tensor(oxfuzz::kInt64, {2, 3}), axes({})}, {{"noop_with_empty_axes", V::number(1)}}),
      call("ReduceMax", V::number(20), {tensor(oxfuzz::kBool, {4, 2})}, {{"keepdims", V::boolean(false)}}),
      call("ReduceMax", none, {tensor(oxfuzz::kFloat64, {0, 2}), axes({0})}, {}),
      call("ReduceMax", none, {tensor(oxfuzz::kFloat32, {3, 1, 4, 1, 5}), axes({0, 2, 4})}, {}),
      call("ReduceMax", none, {tensor(oxfuzz::kUint32, {})}, {}),
      call("Hardmax", V::number(1), {tensor(oxfuzz::kFloat32, {2, 3, 2})}, {}),
      call("Hardmax", V::number(11), {tensor(oxfuzz::kFloat16, {3, 4})}, {{"axis", V::number(0)}}),
      call("Hardmax", none, {tensor(oxfuzz::kBFloat16, {2, 5})}, {}),
      call("Hardmax", V::number(13), {tensor(oxfuzz::kFloat64, {2, 2, 3})}, {{"axis", V::number(1)}}),
      call("Hardmax", V::number(13), {tensor(oxfuzz::kFloat32, {2, 0, 3})}, {{"axis", V::number(1)}}),  // empty output
      call("Hardmax", V::number(11), {tensor(oxfuzz::kFloat16, {0, 4})}, {}),
      // Errors of every kind the resolver knows.
      call("argmax", none, {tensor(oxfuzz::kFloat32, {2})}, {}),
      call("ArgMax", V::number(0), {tensor(oxfuzz::kFloat32, {2})}, {}),
      call("ArgMax", V::thing(1), {tensor(oxfuzz::kFloat32, {2})}, {}),
      call("ArgMax", none, {tensor(oxfuzz::kFloat32, {2}), tensor(oxfuzz::kFloat32, {2})}, {}),
      call("ArgMax", none, {tensor(oxfuzz::kBool, {2})}, {}),
      call("ArgMax", none, {tensor(oxfuzz::kFloat32, {2, 0})}, {{"axis", V::number(1)}}),
      call("ArgMax", none, {tensor(oxfuzz::kFloat32, {2})}, {{"axis", V::number(3)}}),
      call("ArgMax", none, {tensor(oxfuzz::kFloat32, {2})}, {{"bogus", V::number(0)}}),
      call("ArgMax", V::number(11), {tensor(oxfuzz::kFloat32, {2})}, {{"select_last_index", V::number(1)}}),
      call("ReduceMax", V::number(13), {tensor(oxfuzz::kFloat32, {2, 2})}, {{"axes", V::list({1, -1})}}),
      call("ReduceMax", V::number(18), {tensor(oxfuzz::kFloat32, {2, 2})}, {{"axes", V::list({1})}}),
      call("ReduceMax", V::number(11), {tensor(oxfuzz::kInt16, {2, 2})}, {}),
      call("ReduceMax", none, {tensor(oxfuzz::kFloat32, {2, 2}), tensor(oxfuzz::kInt32, {1})}, {}),
      call("Hardmax", V::number(1), {tensor(oxfuzz::kFloat32, {4})}, {}),
      call("Hardmax", none, {tensor(oxfuzz::kFloat32, {})}, {}),
  };
  int written = 0;
  for (const Call& c : calls) {
    const std::vector<uint8_t> bytes = tokens(oxfuzz::encode_wire(c));
    char path[4096];
    std::snprintf(path, sizeof path, "%s/seed-%02d", argv[1], written);
    FILE* f = std::fopen(path, "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
      std::perror(path);
      return 1;
    }
    std::fclose(f);
    ++written;
  }
  std::printf("wrote %d seeds to %s\n", written, argv[1]);
  return 0;
}
