#include "reference.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace oxfuzz {
namespace {

constexpr uint64_t kSafe = 9007199254740991ull;  // 2^53 - 1
constexpr uint64_t kInt32Max = 2147483647ull;

uint32_t bits(std::initializer_list<int> codes) {
  uint32_t set = 0;
  for (int c : codes) set |= 1u << c;
  return set;
}

// ---- the version table, from api.md / the ONNX operator documents -------------------------------
enum Form { Int, Flag, Ints };
struct RefAttr {
  const char* name;
  Form form;
};
struct RefVersion {
  int since;
  uint32_t types;
  std::vector<RefAttr> attrs;
  int max_inputs;
};
struct RefOp {
  const char* name;
  RefKind kind;
  std::vector<RefVersion> versions;  // ascending
};

const std::vector<RefOp>& ops() {
  const uint32_t arg = bits({kFloat64, kFloat32, kFloat16, kInt16, kInt32, kInt64, kInt8, kUint16, kUint32,
                             kUint64, kUint8});
  const uint32_t arg13 = arg | bits({kBFloat16});
  const uint32_t red1 = bits({kFloat64, kFloat32, kFloat16, kInt32, kInt64, kUint32, kUint64});
  const uint32_t red12 = red1 | bits({kInt8, kUint8});
  const uint32_t red13 = red12 | bits({kBFloat16});
  const uint32_t red20 = red13 | bits({kBool});
  const uint32_t hard = bits({kFloat16, kFloat32, kFloat64});
  const uint32_t hard13 = hard | bits({kBFloat16});
  const std::vector<RefAttr> arg_old = {{"axis", Int}, {"keepdims", Flag}};
  const std::vector<RefAttr> arg_new = {{"axis", Int}, {"keepdims", Flag}, {"select_last_index", Flag}};
  const std::vector<RefAttr> red_attr = {{"axes", Ints}, {"keepdims", Flag}};
  const std::vector<RefAttr> red_input = {{"keepdims", Flag}, {"noop_with_empty_axes", Flag}};
  const std::vector<RefAttr> hard_attrs = {{"axis", Int}};
  static const std::vector<RefOp> table = {
      {"ArgMax", RefKind::ArgMax, {{1, arg, arg_old, 1}, {11, arg, arg_old, 1}, {12, arg, arg_new, 1}, {13, arg13, arg_new, 1}}},
      {"ArgMin", RefKind::ArgMin, {{1, arg, arg_old, 1}, {11, arg, arg_old, 1}, {12, arg, arg_new, 1}, {13, arg13, arg_new, 1}}},
      {"ReduceMax", RefKind::ReduceMax,
       {{1, red1, red_attr, 1}, {11, red1, red_attr, 1}, {12, red12, red_attr, 1}, {13, red13, red_attr, 1},
        {18, red13, red_input, 2}, {20, red20, red_input, 2}}},
      {"Hardmax", RefKind::Hardmax, {{1, hard, hard_attrs, 1}, {11, hard, hard_attrs, 1}, {13, hard13, hard_attrs, 1}}},
  };
  return table;
}

bool is_integer(double v) { return std::isfinite(v) && v == std::floor(v); }

// Exact product, saturating at 2^63 (a zero anywhere makes it 0).
uint64_t product(const std::vector<int64_t>& dims, size_t from, size_t to) {
  for (size_t d = from; d < to; ++d)
    if (dims[d] == 0) return 0;
  unsigned __int128 p = 1;
  for (size_t d = from; d < to; ++d) {
    p *= static_cast<uint64_t>(dims[d]);
    if (p > (static_cast<unsigned __int128>(1) << 63)) return 1ull << 63;
  }
  return static_cast<uint64_t>(p);
}

struct Judging {
  Verdict v;
  bool fail(const std::string& why) {
    v.error = true;
    v.why = why;
    return false;
  }
};

// dims valid (non-negative integers <= 2^53-1, rank <= 64) and matching the data length.
bool read_dims(const JsTensor& t, std::vector<int64_t>* dims, Judging& j) {
  if (t.dims.size() > 64) return j.fail("rank above 64");
  dims->clear();
  for (double d : t.dims) {
    if (!is_integer(d) || d < 0 || d > static_cast<double>(kSafe)) return j.fail("bad dim");
    dims->push_back(static_cast<int64_t>(d));
  }
  if (!is_integer(t.length) || t.length < 0) return j.fail("bad length");
  const uint64_t n = product(*dims, 0, dims->size());
  if (n > kSafe || static_cast<double>(n) != t.length) return j.fail("length does not match dims");
  return true;
}

bool in_range(double axis, size_t rank, int* out) {
  const double r = static_cast<double>(rank);
  if (rank == 0 || axis < -r || axis > r - 1) return false;
  *out = static_cast<int>(axis < 0 ? axis + r : axis);
  return true;
}

bool flag_ok(const JsValue& v) {
  return (v.kind == JsValue::Number || v.kind == JsValue::Boolean) && (v.values[0] == 0 || v.values[0] == 1);
}

bool form_ok(Form form, const JsValue& v) {
  switch (form) {
    case Int: return v.kind == JsValue::Number && is_integer(v.values[0]);
    case Flag: return flag_ok(v);
    case Ints:
      if (v.kind != JsValue::List) return false;
      for (double e : v.values)
        if (!is_integer(e)) return false;
      return true;
  }
  return false;
}

std::vector<int64_t> kept_dims(const std::vector<int64_t>& dims, const std::vector<bool>& reduced, bool keep) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < dims.size(); ++d)
    if (!reduced[d]) out.push_back(dims[d]);
    else if (keep) out.push_back(1);
  return out;
}

}  // namespace

Verdict judge(const Call& call) {
  Judging j;
  Verdict& v = j.v;
  const RefOp* op = nullptr;
  for (const RefOp& o : ops())
    if (call.op == o.name) op = &o;
  if (!op) {
    v.label = "onnx-extrema: unknown operator";
    j.fail("unknown operator");
    return v;
  }
  v.kind = op->kind;
  v.label = op->name;
  const RefVersion* version = &op->versions.back();
  if (call.opset.kind != JsValue::Absent) {
    const double opset = call.opset.kind == JsValue::Number ? call.opset.values[0] : 0;
    if (call.opset.kind != JsValue::Number || !is_integer(opset) || opset < 1) {
      j.fail("bad opset");
      return v;
    }
    for (const RefVersion& candidate : op->versions)
      if (candidate.since <= opset) version = &candidate;
  }
  v.label = std::string(op->name) + " version " + std::to_string(version->since);

  // Inputs.
  if (call.inputs.size() > static_cast<size_t>(version->max_inputs)) return j.fail("too many inputs"), v;
  if (call.inputs.empty() || !call.inputs[0].present) return j.fail("missing input"), v;

  // Attributes.
  const JsValue* given[5] = {};
  const char* names[5] = {"axis", "axes", "keepdims", "select_last_index", "noop_with_empty_axes"};
  for (const JsAttr& a : call.attrs) {
    if (a.value.kind == JsValue::Absent) continue;
    const RefAttr* spec = nullptr;
    for (const RefAttr& s : version->attrs)
      if (a.name == s.name) spec = &s;
    if (!spec) return j.fail("attribute " + a.name + " not in this version"), v;
    int slot = 0;
    while (a.name != names[slot]) ++slot;
    if (given[slot]) return j.fail("attribute given twice"), v;
    given[slot] = &a.value;
    if (!form_ok(spec->form, a.value)) return j.fail("attribute " + a.name + " has a bad value"), v;
  }
  if (call.attrs.size() > 8) return j.fail("too many attributes"), v;
  auto number_attr = [&](int slot, double fallback) { return given[slot] ? given[slot]->values[0] : fallback; };

  // Data.
  const JsTensor& x = call.inputs[0];
  if (code_size(x.code) == 0 || !(version->types & (1u << x.code))) return j.fail("type not accepted"), v;
  if (!read_dims(x, &v.in_dims, j)) return v;
  v.in_count = product(v.in_dims, 0, v.in_dims.size());
  const size_t rank = v.in_dims.size();
  const bool keep = number_attr(2, 1) != 0;

  switch (op->kind) {
    case RefKind::ArgMax:
    case RefKind::ArgMin: {
      if (!in_range(number_attr(0, 0), rank, &v.axis)) return j.fail("axis out of range"), v;
      const int64_t reduce = v.in_dims[v.axis];
      if (reduce == 0) return j.fail("arg over an empty axis"), v;
      std::vector<bool> reduced(rank, false);
      reduced[v.axis] = true;
      v.out_dims = kept_dims(v.in_dims, reduced, keep);
      v.out_code = kInt64;
      v.select_last = number_attr(3, 0) != 0;
      v.out_count = product(v.out_dims, 0, v.out_dims.size());
      if (v.out_count > kSafe) return j.fail("output too large"), v;
      if (v.out_count > 0 && static_cast<uint64_t>(reduce) > kInt32Max) return j.fail("axis too long"), v;
      return v;
    }
    case RefKind::Hardmax: {
      v.coerce_2d = version->since < 13;
      if (!in_range(number_attr(0, v.coerce_2d ? 1 : -1), rank, &v.axis)) return j.fail("axis out of range"), v;
      v.out_dims = v.in_dims;
      v.out_code = x.code;
      v.out_count = v.in_count;
      const uint64_t reduce = v.coerce_2d ? product(v.in_dims, v.axis, rank) : v.in_dims[v.axis];
      if (v.in_count > 0 && reduce > kInt32Max) return j.fail("axis too long"), v;
      return v;
    }
    case RefKind::ReduceMax: {
      v.out_code = x.code;
      std::vector<double> axes;
      bool have_axes = false;
      if (version->max_inputs == 2) {
        if (call.inputs.size() > 1 && call.inputs[1].present) {
          const JsTensor& a = call.inputs[1];
          if (a.code != kInt64) return j.fail("axes input not int64"), v;
          std::vector<int64_t> adims;
          if (!read_dims(a, &adims, j)) return v;
          if (adims.size() != 1) return j.fail("axes input not 1-D"), v;
          axes = tensor_numbers(a);
          for (double e : axes)
            if (!is_integer(e)) return j.fail("axes input entry not an integer"), v;
          have_axes = !axes.empty();
        }
        if (!have_axes && number_attr(4, 0) != 0) {
          v.identity = true;
          v.out_dims = v.in_dims;
          v.out_count = v.in_count;
          return v;
        }
      } else if (given[1]) {
        axes = given[1]->values;
        have_axes = !axes.empty();
      }
      v.reduced.assign(rank, !have_axes);
      for (double e : axes) {
        int axis;
        if (!in_range(e, rank, &axis)) return j.fail("axes entry out of range"), v;
        if (v.reduced[axis]) return j.fail("repeated axis"), v;
        v.reduced[axis] = true;
      }
      v.out_dims = kept_dims(v.in_dims, v.reduced, keep);
      v.out_count = product(v.out_dims, 0, v.out_dims.size());
      if (v.out_count > kSafe) return j.fail("output too large"), v;
      return v;
    }
  }
  return v;
}

// ---- values ------------------------------------------------------------------------------------

namespace {

long double half_value(uint16_t h, int exponent_bits, int mantissa_bits, bool* nan) {
  const int bias = (1 << (exponent_bits - 1)) - 1;
  const uint32_t exponent = (h >> mantissa_bits) & ((1u << exponent_bits) - 1);
  const uint32_t mantissa = h & ((1u << mantissa_bits) - 1);
  const long double sign = (h & 0x8000) ? -1.0L : 1.0L;
  *nan = false;
  if (exponent == (1u << exponent_bits) - 1) {
    if (mantissa) *nan = true;
    return sign * std::numeric_limits<long double>::infinity();
  }
  if (exponent == 0) return sign * std::ldexp(static_cast<long double>(mantissa), 1 - bias - mantissa_bits);
  return sign * std::ldexp(static_cast<long double>(mantissa + (1u << mantissa_bits)),
                           static_cast<int>(exponent) - bias - mantissa_bits);
}

template <class T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

Elem lowest(int code) {
  Elem e;
  switch (code) {
    case kFloat32: case kFloat64: case kFloat16: case kBFloat16:
      e.value = -std::numeric_limits<long double>::infinity();
      break;
    case kInt8: e.value = -128; break;
    case kInt16: e.value = -32768; break;
    case kInt32: e.value = -2147483648.0L; break;
    case kInt64: e.value = -9223372036854775808.0L; break;
    default: e.value = 0;  // unsigned and bool
  }
  return e;
}

// Row-major strides of dims.
std::vector<uint64_t> strides(const std::vector<int64_t>& dims) {
  std::vector<uint64_t> s(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) s[d - 1] = s[d] * static_cast<uint64_t>(dims[d]);
  return s;
}

// Position of the winner among `n` candidates: NaN wins (first, or last with `last`); else the
// best by `better`, first index unless `last` (then the last of the ties).
template <class Get>
int64_t winner(int64_t n, bool maximum, bool last, Get get) {
  int64_t nan_at = -1;
  for (int64_t j = 0; j < n; ++j)
    if (get(j).nan && (nan_at < 0 || last)) nan_at = j;
  if (nan_at >= 0) return nan_at;
  int64_t at = 0;
  for (int64_t j = 1; j < n; ++j) {
    const long double a = get(j).value, b = get(at).value;
    const bool better = maximum ? a > b : a < b;
    if (better || (last && a == b)) at = j;
  }
  return at;
}

}  // namespace

Elem decode_elem(int code, const uint8_t* p) {
  Elem e;
  switch (code) {
    case kFloat32: { const float f = load<float>(p); e.nan = f != f; e.value = f; break; }
    case kFloat64: { const double f = load<double>(p); e.nan = f != f; e.value = f; break; }
    case kFloat16: e.value = half_value(load<uint16_t>(p), 5, 10, &e.nan); break;
    case kBFloat16: e.value = half_value(load<uint16_t>(p), 8, 7, &e.nan); break;
    case kInt8: e.value = load<int8_t>(p); break;
    case kUint8: e.value = load<uint8_t>(p); break;
    case kBool: e.value = load<uint8_t>(p) != 0 ? 1 : 0; break;
    case kInt16: e.value = load<int16_t>(p); break;
    case kUint16: e.value = load<uint16_t>(p); break;
    case kInt32: e.value = load<int32_t>(p); break;
    case kUint32: e.value = load<uint32_t>(p); break;
    case kInt64: e.value = load<int64_t>(p); break;
    case kUint64: e.value = load<uint64_t>(p); break;
  }
  if (e.nan) e.value = 0;
  return e;
}

bool same_elem(const Elem& a, const Elem& b) { return a.nan == b.nan && (a.nan || a.value == b.value); }

std::vector<Elem> compute(const Call& call, const Verdict& v) {
  const JsTensor& x = call.inputs[0];
  const int size = code_size(x.code);
  std::vector<Elem> in(v.in_count);
  for (uint64_t i = 0; i < v.in_count; ++i) in[i] = decode_elem(x.code, &x.bytes[i * size]);
  const size_t rank = v.in_dims.size();
  const std::vector<uint64_t> stride = strides(v.in_dims);
  std::vector<Elem> out(v.out_count);

  if (v.kind == RefKind::ReduceMax) {
    if (v.identity) return in;
    for (Elem& e : out) e = lowest(x.code);
    // Output index of each input element: the kept coordinates, row-major over the output.
    std::vector<bool> seen(v.out_count, false);
    for (uint64_t i = 0; i < v.in_count; ++i) {
      uint64_t o = 0;
      for (size_t d = 0; d < rank; ++d) {
        const uint64_t coord = (i / stride[d]) % static_cast<uint64_t>(v.in_dims[d]);
        if (!v.reduced[d]) o = o * static_cast<uint64_t>(v.in_dims[d]) + coord;
      }
      Elem& acc = out[o];
      if (!seen[o]) acc = in[i], seen[o] = true;
      else if (!acc.nan && (in[i].nan || in[i].value > acc.value)) acc = in[i];
    }
    return out;
  }

  if (v.in_count == 0) return out;  // no element: no winner (and outer may be huge beside a 0)
  // One axis (or, for Hardmax 1/11, the flattened tail from `axis` on) split as outer x n x inner.
  uint64_t outer = 1, n = 1, inner = 1;
  for (size_t d = 0; d < rank; ++d) {
    const uint64_t e = static_cast<uint64_t>(v.in_dims[d]);
    if (static_cast<int>(d) < v.axis) outer *= e;
    else if (static_cast<int>(d) == v.axis || v.coerce_2d) n *= e;
    else inner *= e;
  }
  if (v.kind == RefKind::Hardmax) {
    for (Elem& e : out) e.value = 0;
    if (n == 0) return out;
    for (uint64_t o = 0; o < outer; ++o)
      for (uint64_t i = 0; i < inner; ++i) {
        const uint64_t base = o * n * inner + i;
        const int64_t w = winner(static_cast<int64_t>(n), true, false, [&](int64_t j) { return in[base + j * inner]; });
        out[base + w * inner].value = 1;
      }
    return out;
  }
  const bool maximum = v.kind == RefKind::ArgMax;
  for (uint64_t o = 0; o < outer; ++o)
    for (uint64_t i = 0; i < inner; ++i) {
      const uint64_t base = o * n * inner + i;
      out[o * inner + i].value = static_cast<long double>(
          winner(static_cast<int64_t>(n), maximum, v.select_last, [&](int64_t j) { return in[base + j * inner]; }));
    }
  return out;
}

}  // namespace oxfuzz
