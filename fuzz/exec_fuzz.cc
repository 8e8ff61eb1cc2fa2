// Fuzz target (b): the whole call path. The input picks an operator, opset, dtype, dims,
// attributes, an optional axes input and the data; the call goes through the wire encoding,
// decode_request, resolve and ox::Execution (input fed in random chunks, or in column tiles of
// random widths where a plan allows them, each in its own exact-size allocation so ASan sees any
// read past it; output read in random pieces; or windowed: a tiny staging size, the final outputs
// read after every feed and every windowing promise checked), twice on one Execution. Every verdict and every value is checked against fuzz/reference.h:
//   accepted <=> the reference accepts; an error names "<Op> version <v>" (or the op);
//   output dtype, dims and element count; every output element.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "call.h"
#include "exec/execution.h"
#include "ops/resolve.h"
#include "reference.h"
#include "staging_model.h"
#include "wire/wire.h"

namespace {

using oxfuzz::Call;
using oxfuzz::JsAttr;
using oxfuzz::JsTensor;
using oxfuzz::JsValue;

constexpr uint64_t kMaxElements = 4096;  // larger calls are judged but not executed
constexpr double kHuge[] = {2147483647.0, 2147483648.0, 1099511627776.0, 9007199254740991.0, 1e15, 3e9, 65536};

const Call* g_call = nullptr;  // for failure reports
const char* g_stage = "";

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "\n*** exec_fuzz: %s (%s)\n  %s\n  call: %s\n", what, g_stage, detail.c_str(),
               g_call ? oxfuzz::describe(*g_call).c_str() : "?");
  std::abort();
}

template <class T>
T pick(FuzzedDataProvider& in, std::initializer_list<T> list) {
  return *(list.begin() + in.ConsumeIntegralInRange<size_t>(0, list.size() - 1));
}

int64_t small_int(FuzzedDataProvider& in, int64_t lo, int64_t hi) { return in.ConsumeIntegralInRange<int64_t>(lo, hi); }

// ---- values --------------------------------------------------------------------------------------

JsValue opset_value(FuzzedDataProvider& in) {
  const int sel = in.ConsumeIntegralInRange(0, 15);
  if (sel <= 4) return {};
  if (sel <= 11) return JsValue::number(static_cast<double>(small_int(in, 1, 22)));
  if (sel == 12)
    return JsValue::number(pick<double>(in, {0, -1, 1.5, NAN, 1e300, INFINITY, -INFINITY, 9007199254740992.0, 1e15, -0.0}));
  if (sel == 13) return JsValue::boolean(in.ConsumeBool());
  if (sel == 14) return JsValue::thing(in.ConsumeIntegralInRange(1, 6));
  return JsValue::list({13});
}

JsValue axis_value(FuzzedDataProvider& in, int64_t rank) {
  const int sel = in.ConsumeIntegralInRange(0, 15);
  if (sel <= 11) return JsValue::number(static_cast<double>(small_int(in, -rank - 1, rank)));
  if (sel == 12) return JsValue::boolean(in.ConsumeBool());
  if (sel == 13) return JsValue::number(pick<double>(in, {0.5, NAN, 1e300, -1e300, 9007199254740992.0, INFINITY, -0.0}));
  if (sel == 14) return JsValue::list({0});
  return JsValue::thing(in.ConsumeIntegralInRange(1, 6));
}

std::vector<double> axis_list(FuzzedDataProvider& in, int64_t rank) {
  std::vector<double> axes(static_cast<size_t>(small_int(in, 0, rank + 1)));
  for (double& a : axes) a = static_cast<double>(small_int(in, -rank - 1, rank));
  return axes;
}

JsValue axes_value(FuzzedDataProvider& in, int64_t rank) {
  const int sel = in.ConsumeIntegralInRange(0, 15);
  if (sel <= 11) return JsValue::list(axis_list(in, rank));
  if (sel == 12) return JsValue::list({0, pick<double>(in, {0.5, NAN, 1e300, -INFINITY})});
  if (sel == 13) return JsValue::number(0);
  if (sel == 14) return JsValue::thing(in.ConsumeIntegralInRange(1, 6));
  return JsValue::list({});
}

JsValue flag_value(FuzzedDataProvider& in) {
  const int sel = in.ConsumeIntegralInRange(0, 7);
  if (sel <= 4) return JsValue::number(in.ConsumeBool() ? 1 : 0);
  if (sel == 5) return JsValue::boolean(in.ConsumeBool());
  if (sel == 6) return JsValue::number(pick<double>(in, {2, -1, 0.5, NAN, -0.0}));
  return JsValue::thing(in.ConsumeIntegralInRange(1, 6));
}

// ---- tensors -------------------------------------------------------------------------------------

// Element bit patterns that matter: zeros of both signs, ties, infinities, NaNs, extremes.
template <class T>
void put(std::vector<uint8_t>& bytes, T v) {
  uint8_t b[sizeof(T)];
  std::memcpy(b, &v, sizeof v);
  bytes.insert(bytes.end(), b, b + sizeof v);
}

void put_element(std::vector<uint8_t>& bytes, int code, FuzzedDataProvider& in, uint64_t& lcg) {
  lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
  const unsigned r = in.remaining_bytes() > 0 ? in.ConsumeIntegral<uint8_t>() : static_cast<unsigned>(lcg >> 56);
  const unsigned k = r & 15;
  switch (code) {
    case oxfuzz::kFloat32: {
      const float pool[] = {0.f, -0.f, 1.f, -1.f, 2.f, 0.5f, INFINITY, -INFINITY, NAN, -NAN,
                            3.4e38f, -3.4e38f, 1e-45f, 3.f, -3.f, static_cast<float>(r)};
      return put(bytes, pool[k]);
    }
    case oxfuzz::kFloat64: {
      const double pool[] = {0., -0., 1., -1., 2., 0.5, INFINITY, -INFINITY, NAN, -NAN,
                             1.7e308, -1.7e308, 5e-324, 3., 1. + 1e-16 * 2.2, static_cast<double>(r) - 128};
      return put(bytes, pool[k]);
    }
    case oxfuzz::kFloat16: {
      const uint16_t pool[] = {0x0000, 0x8000, 0x3C00, 0xBC00, 0x4000, 0x7C00, 0xFC00, 0x7E00,
                               0xFE00, 0x7C01, 0x0001, 0x8001, 0x7BFF, 0xFBFF, 0x3800, static_cast<uint16_t>(lcg >> 48)};
      return put(bytes, pool[k]);
    }
    case oxfuzz::kBFloat16: {
      const uint16_t pool[] = {0x0000, 0x8000, 0x3F80, 0xBF80, 0x4000, 0x7F80, 0xFF80, 0x7FC0,
                               0xFFC0, 0x7F81, 0x0001, 0x8001, 0x7F7F, 0xFF7F, 0x3F00, static_cast<uint16_t>(lcg >> 48)};
      return put(bytes, pool[k]);
    }
    case oxfuzz::kBool:
      return put(bytes, static_cast<uint8_t>(k < 7 ? 0 : k < 14 ? 1 : k == 14 ? 2 : 255));
    default: {
      // Integers: small values (many ties), the extremes and their neighbours, random bits.
      const int size = oxfuzz::code_size(code);
      uint64_t v;
      if (k < 8) v = static_cast<uint64_t>(static_cast<int64_t>(k) - 3);  // -3 .. 4
      else if (k < 15) {
        const bool is_signed = code == oxfuzz::kInt8 || code == oxfuzz::kInt16 || code == oxfuzz::kInt32 || code == oxfuzz::kInt64;
        const uint64_t top = size == 8 ? ~0ull : (1ull << (8 * size)) - 1;
        const uint64_t max = is_signed ? top >> 1 : top, min = is_signed ? ~(top >> 1) : 0;
        const uint64_t pool[] = {max, min, max - 1, min + 1, is_signed ? 0 : max >> 1, 1ull << (8 * size - 2), 7};
        v = pool[k - 8];
      } else {
        v = lcg;
      }
      uint8_t b[8];
      std::memcpy(b, &v, 8);  // little endian: the low bytes
      bytes.insert(bytes.end(), b, b + size);
      return;
    }
  }
}

void fill(JsTensor& t, FuzzedDataProvider& in, uint64_t seed) {
  const double n = t.length;
  if (!(n >= 0 && n <= static_cast<double>(kMaxElements) && n == std::floor(n))) return;
  if (oxfuzz::code_size(t.code) == 0) {  // an unknown type: rejected whatever the bytes
    t.bytes.resize(static_cast<size_t>(n) * 4);
    return;
  }
  uint64_t lcg = seed;
  for (uint64_t i = 0; i < static_cast<uint64_t>(n); ++i) put_element(t.bytes, t.code, in, lcg);
}

JsTensor input_tensor(FuzzedDataProvider& in) {
  static const int kCodes[] = {oxfuzz::kFloat32, oxfuzz::kFloat64, oxfuzz::kFloat16, oxfuzz::kBFloat16,
                               oxfuzz::kInt8,    oxfuzz::kUint8,   oxfuzz::kInt16,   oxfuzz::kUint16,
                               oxfuzz::kInt32,   oxfuzz::kUint32,  oxfuzz::kInt64,   oxfuzz::kUint64,
                               oxfuzz::kBool};
  JsTensor t;
  const int type_sel = in.ConsumeIntegralInRange(0, 31);
  t.code = type_sel < 31 ? kCodes[type_sel % 13] : pick<int>(in, {0, 8, 14, 15, 17, 100});

  const int shape = in.ConsumeIntegralInRange(0, 15);
  const int64_t rank = shape == 15 ? small_int(in, 6, 70) : shape == 13 ? small_int(in, 0, 40) : small_int(in, 0, 5);
  t.dims.resize(static_cast<size_t>(rank));
  if (shape <= 10) {
    for (double& d : t.dims) {
      const int v = in.ConsumeIntegralInRange(0, 8);
      d = v == 0 ? 0 : 1 + (v - 1) % 4;
    }
  } else if (shape <= 12) {  // one long axis
    for (double& d : t.dims) d = static_cast<double>(small_int(in, 1, 3));
    if (rank > 0) t.dims[static_cast<size_t>(small_int(in, 0, rank - 1))] = static_cast<double>(small_int(in, 1, 700));
    double p = 1;
    for (double d : t.dims) p *= d;
    while (p > static_cast<double>(kMaxElements)) {  // keep it executable
      for (double& d : t.dims)
        if (d > 1) {
          p /= d;
          d = std::floor(d / 2);
          p *= d;
          break;
        }
    }
  } else if (shape == 13) {  // empty with huge neighbours
    for (double& d : t.dims) d = in.ConsumeBool() ? in.PickValueInArray(kHuge) : static_cast<double>(small_int(in, 0, 3));
    if (rank > 0) t.dims[static_cast<size_t>(small_int(in, 0, rank - 1))] = 0;
  } else if (shape == 14) {  // one invalid dim
    for (double& d : t.dims) d = static_cast<double>(small_int(in, 1, 3));
    if (rank > 0)
      t.dims[static_cast<size_t>(small_int(in, 0, rank - 1))] =
          pick<double>(in, {-1, 1.5, NAN, INFINITY, 9007199254740992.0, -0.0, 1e300});
  } else {  // high rank: mostly ones
    for (double& d : t.dims) d = in.ConsumeIntegralInRange(0, 15) == 0 ? 2 : 1;
  }

  double n = 1;
  bool zero = false, bad = false;
  for (double d : t.dims) {
    zero = zero || d == 0;
    bad = bad || !(d >= 0 && d == std::floor(d) && std::isfinite(d));
    n *= d;
  }
  t.length = zero ? 0 : bad ? 3 : n;
  if (in.ConsumeIntegralInRange(0, 15) == 0) t.length = pick<double>(in, {t.length + 1, t.length > 0 ? t.length - 1 : 2, 0.5, 0});
  fill(t, in, in.ConsumeIntegral<uint64_t>());
  return t;
}

JsTensor axes_tensor(FuzzedDataProvider& in, int64_t rank) {
  JsTensor t;
  t.code = oxfuzz::kInt64;
  const std::vector<double> axes = axis_list(in, rank);
  for (double a : axes) put(t.bytes, static_cast<int64_t>(a));
  t.length = static_cast<double>(axes.size());
  t.dims = {t.length};
  switch (in.ConsumeIntegralInRange(0, 15)) {
    case 0: t.code = oxfuzz::kInt32; t.bytes.resize(axes.size() * 4); break;  // wrong type
    case 1: t.dims = {1, t.length}; break;                                     // 2-D
    case 2: t.dims = {}; t.length = 1; t.bytes.resize(8); break;               // scalar
    case 3: t.dims = {t.length + 1}; break;                                    // length mismatch
    case 4:  // a Proxy posing as a BigInt64Array, whose entries are no integers
      t.lies.assign(axes.size() + 1, pick<double>(in, {NAN, 0.5, INFINITY, -1e300}));
      t.lies[0] = 0;
      t.length = static_cast<double>(t.lies.size());
      t.dims = {t.length};
      break;
    default: break;
  }
  return t;
}

Call build_call(FuzzedDataProvider& in) {
  static const char* kOps[] = {"ArgMax", "ArgMin", "ReduceMax", "Hardmax"};
  Call c;
  const int op = in.ConsumeIntegralInRange(0, 63);
  c.op = op < 63 ? kOps[op % 4] : pick<const char*>(in, {"argmax", "ReduceMin", "", "ArgMax "});
  c.opset = opset_value(in);
  c.inputs.push_back(input_tensor(in));
  const int64_t rank = static_cast<int64_t>(c.inputs[0].dims.size());

  if (c.op == "ReduceMax") {
    const int sel = in.ConsumeIntegralInRange(0, 7);
    if (sel == 3) {
      JsTensor none;
      none.present = false;
      c.inputs.push_back(none);
    } else if (sel >= 4) {
      c.inputs.push_back(axes_tensor(in, rank));
    }
  }
  switch (in.ConsumeIntegralInRange(0, 63)) {
    case 0: c.inputs.push_back(c.inputs[0]); break;  // one input too many
    case 1: c.inputs.clear(); break;
    case 2: c.inputs[0].present = false; break;
    default: break;
  }

  static const char* kNames[] = {"axis", "axes", "keepdims", "select_last_index", "noop_with_empty_axes", "bogus"};
  for (const char* name : kNames) {
    if (in.ConsumeIntegralInRange(0, 2) != 0) continue;
    const std::string n = name;
    JsAttr a;
    a.name = n;
    if (n == "axis") a.value = axis_value(in, rank);
    else if (n == "axes") a.value = axes_value(in, rank);
    else if (n == "bogus") a.name = pick<const char*>(in, {"Axis", "axis ", "keep_dims", "", "select_last"}), a.value = JsValue::number(0);
    else a.value = flag_value(in);
    c.attrs.push_back(a);
  }
  if (!c.attrs.empty() && in.ConsumeIntegralInRange(0, 31) == 0) c.attrs.push_back(c.attrs.front());  // twice
  if (!c.attrs.empty() && in.ConsumeIntegralInRange(0, 31) == 0) c.attrs.back().value = JsValue();   // undefined
  return c;
}

// ---- running the core ------------------------------------------------------------------------------

// Piece sizes for feeding and reading: the whole, a fixed size, or sizes from the input.
class Pieces {
 public:
  explicit Pieces(FuzzedDataProvider& in) : in_(in), mode_(in.ConsumeIntegralInRange(0, 3)), fixed_(small_int(in, 1, 40)) {}
  int64_t next(int64_t remaining) {
    int64_t n;
    switch (mode_) {
      case 0: n = remaining; break;
      case 1: n = fixed_; break;
      default: n = in_.remaining_bytes() > 0 ? small_int(in_, mode_ == 2 ? 0 : 1, 300) : remaining; break;
    }
    return std::min(n, remaining);
  }

 private:
  FuzzedDataProvider& in_;
  int mode_;
  int64_t fixed_;
};

// Column tiles, as js/feed.js feedTiles stages a wide column plan: for each outer slice, left to
// right, columns [c, c + w) of every reduced row packed row after row; here of any widths, and
// only some slices, the rest then fed row-major (allowed where a slice ends). A windowed
// execution takes a tile only as wide as its window; `after(count)` follows every tile.
template <class After>
void feed_tiles(ox::Execution& ex, const ox::Plan& plan, const JsTensor& x, int size, FuzzedDataProvider& in, After after) {
  const int64_t slices = small_int(in, 1, static_cast<int>(std::min<int64_t>(plan.outer, 8)));
  for (int64_t o = 0; o < slices; ++o)
    for (int64_t c = 0; c < plan.inner;) {
      int64_t w = std::min<int64_t>(plan.inner - c, small_int(in, 1, 40));
      const bool fits = w <= ex.held_states();
      if (ex.tile_is_next(o, c, w) != fits)
        fail(fits ? "tile_is_next refused the next tile" : "tile_is_next accepted a tile wider than the window", std::to_string(w));
      w = std::min(w, ex.held_states());
      if (c + w < plan.inner && ex.tile_is_next(o, c + w, 1)) fail("tile_is_next accepted a tile out of order", "");
      // Its rows in parts of any length (feedTiles splits a tile whose rows outgrow the staging
      // buffer): only the tile's next rows may come until its last, and no state is final before.
      const int64_t final_before = ex.final_states();
      for (int64_t r0 = 0; r0 < plan.reduce;) {
        const int64_t rows = std::min<int64_t>(plan.reduce - r0, small_int(in, 1, 40));
        if (!ex.tile_is_next(o, c, w, r0, rows)) fail("tile_is_next refused a tile's next rows", std::to_string(r0));
        if (r0 > 0 && (ex.feed_accepts(1) || ex.tile_is_next(o, c, w, 0, rows) || ex.tile_is_next(o, c, w, r0 + 1, 1) ||
                       ex.final_states() != final_before))
          fail("a tile's parts out of order accepted, or states final inside a tile", std::to_string(r0));
        if (small_int(in, 0, 1))  // where the rows lie in the whole input, inner apart (a wasmTensor's)
          ex.feed_tile(x.bytes.data() + ((o * plan.reduce + r0) * plan.inner + c) * size, o, c, w, r0, rows, plan.inner);
        else
          ex.feed_tile(stage::pack_tile(x.bytes.data(), plan, size, o, c, w, r0, rows).get(), o, c, w, r0, rows);
        r0 += rows;
      }
      after(plan.reduce * w);
      c += w;
    }
}

// Output elements [begin, begin + n) through a block of exactly their size, into `out` at begin.
void read_piece(const ox::Execution& ex, std::vector<uint8_t>& out, int out_size, int64_t begin, int64_t n) {
  std::unique_ptr<uint8_t[]> piece(new uint8_t[static_cast<size_t>(n * out_size) + (n == 0)]);
  ex.write_output(piece.get(), begin, n);
  std::memcpy(&out[static_cast<size_t>(begin * out_size)], piece.get(), static_cast<size_t>(n * out_size));
}

// ---- windowed state ------------------------------------------------------------------------------

// Windowed, as js/feed.js streams a large input: start with a staging size (tiny here, so small
// plans are windowed), gathered windows where the plan is gathered, else row-major chunks of at
// most the staging buffer (larger ones where feed_accepts allows them: it must be right to), some
// slices first as column tiles of random widths where the plan takes them (as wide as the window
// allows), and after every feed the outputs that became final read in random pieces, before the
// next feed drops them. Checks can_write on every piece, that it refuses outputs dropped or not yet
// final, and that each output is read once.
// `again`: the plan `ex` last started, repeated, so restarted where restart() takes it
// (bindings/embind.cc's prepare on a plan-cache hit), never when windowed.
ox::Status start_or_restart(ox::Execution& ex, const ox::Plan& plan, bool again, int64_t staging = 0,
                            int64_t above = ox::kWindowAboveBytes) {
  bool restarted = false;
  const ox::Status s = ex.start_or_restart(plan, again, staging, above, &restarted);
  if (restarted && ex.windowed()) fail("Execution::restart took a windowed plan", "");
  return s;
}

std::vector<uint8_t> execute_windowed(ox::Execution& ex, const ox::Plan& plan, const JsTensor& x, FuzzedDataProvider& in,
                                      bool again) {
  const int size = oxfuzz::code_size(x.code);
  const int out_size = oxfuzz::code_size(static_cast<int>(plan.output_dtype));
  const int64_t staging = in.ConsumeBool() ? pick<int64_t>(in, {1, 2, 4, 8, 16, 24, 64, 256, 4096}) : small_int(in, 1, 2048);
  const int64_t above = in.ConsumeIntegralInRange(0, 3) == 0 ? small_int(in, 0, 512) : 0;
  const ox::Status s = start_or_restart(ex, plan, again, staging, above);
  if (!s.is_ok()) fail("Execution::start (windowed) failed on a small plan", s.message());
  const int64_t states = plan.input_count == 0 ? 0 : plan.kind == ox::PlanKind::Hardmax ? plan.outer * plan.inner : plan.output_count;
  const int64_t staging_elements = std::max<int64_t>(1, staging / size);
  const int64_t total = plan.input_count;
  if (ex.windowed() && ex.held_states() >= states) fail("a window as large as the state", std::to_string(ex.held_states()));
  if (!ex.windowed() && ex.held_states() != states) fail("held_states() of a full state", std::to_string(ex.held_states()));
  std::vector<uint8_t> out(static_cast<size_t>(plan.output_count * out_size));
  std::vector<uint8_t> times(static_cast<size_t>(plan.output_count));
  Pieces read(in);
  int64_t drained = 0, stale = -1;
  auto read_checked = [&](int64_t begin, int64_t n) {
    if (!ex.can_write(begin, n)) fail("can_write refused outputs that should be readable", std::to_string(begin) + " +" + std::to_string(n));
    read_piece(ex, out, out_size, begin, n);
    for (int64_t e = begin; e < begin + n; ++e) times[static_cast<size_t>(e)] += 1;
  };
  auto after_feed = [&](int64_t count) {
    if (count > 0 && stale >= 0 && ex.can_write(stale, 1)) fail("can_write accepts an output the feed dropped", std::to_string(stale));
    if (!ex.windowed()) {
      if (ex.fed() < total && plan.output_count > 0 && ex.can_write(0, 1)) fail("can_write before the end (full state)", "");
      return;
    }
    const int64_t final_states = ex.final_states();
    if (final_states < drained || final_states > states) fail("final_states()", std::to_string(final_states));
    for (const std::pair<int64_t, int64_t>& run : stage::output_runs(plan, drained, final_states))
      for (int64_t k = 0; k < run.second;) {
        const int64_t n = read.next(run.second - k);
        read_checked(run.first + k, n);
        if (n > 0) stale = run.first + k;
        k += n;
      }
    drained = final_states;
    if (drained < states) {
      const int64_t next = stage::first_output_of_state(plan, drained);
      if (ex.can_write(next, 1)) fail("can_write accepts an output whose state is not final", std::to_string(next));
    }
  };

  // Gathered windows, the only feeding a gathered plan takes.
  if (ex.gathered() && ex.feed_accepts(1)) fail("feed_accepts accepted a row-major feed while gathered", "");
  while (ex.gathered() && ex.fed() < total) {
    const ox::GatherWindow w = ex.next_gather();
    if (w.states < 1 || w.states > ex.held_states() || ex.gather_blocks() * w.runs * w.length > staging_elements)
      fail("a gathered window larger than the window or the staging buffer", std::to_string(w.states));
    after_feed(stage::feed_gathered_window(ex, x.bytes.data(), size));
  }
  // Column tiles over some slices (column_tile_width itself is 0 for plans this small).
  if (ox::takes_column_tiles(plan) && in.ConsumeIntegralInRange(0, 2) == 0) feed_tiles(ex, plan, x, size, in, after_feed);
  Pieces feed(in);
  for (int64_t done = ex.fed(); done < total;) {
    const int64_t rest = total - done;
    int64_t n = feed.next(rest);
    if (!ex.feed_accepts(std::min(rest, staging_elements))) fail("feed_accepts refused a staging buffer's worth", std::to_string(done));
    if (ex.feed_accepts(rest + 1)) fail("feed_accepts accepted a feed past the end", std::to_string(done));
    if (n > staging_elements && !ex.feed_accepts(n)) n = staging_elements;  // larger where the window allows
    if (!ex.feed_accepts(n)) fail("feed_accepts refused a chunk of at most a staging buffer", std::to_string(n));
    stage::feed_piece(ex, x.bytes.data(), size, done, n);
    done += n;
    after_feed(n);
  }
  if (ex.fed() != total) fail("fed count (windowed)", std::to_string(ex.fed()));
  if (ex.windowed()) {
    if (ex.final_states() != states) fail("not every state final at the end", std::to_string(ex.final_states()));
  } else {
    for (int64_t done = 0; done < plan.output_count;) {
      const int64_t n = read.next(plan.output_count - done);
      read_checked(done, n);
      done += n;
    }
  }
  for (size_t e = 0; e < times.size(); ++e)
    if (times[e] != 1) fail("an output read other than once", std::to_string(e) + ": " + std::to_string(times[e]));
  return out;
}

std::vector<uint8_t> execute(ox::Execution& ex, const ox::Plan& plan, const JsTensor& x, FuzzedDataProvider& in, bool again) {
  const int size = oxfuzz::code_size(x.code);
  const int out_size = oxfuzz::code_size(static_cast<int>(plan.output_dtype));
  if (plan.kind == ox::PlanKind::Identity) return x.bytes;  // js/engine.js copies the input
  if (in.ConsumeIntegralInRange(0, 2) == 0) return execute_windowed(ex, plan, x, in, again);
  ox::Status s = start_or_restart(ex, plan, again);
  if (!s.is_ok()) fail("Execution::start failed on a small plan", s.message());
  const bool tiles = ox::takes_column_tiles(plan) && in.ConsumeIntegralInRange(0, 2) == 0;
  if (tiles) feed_tiles(ex, plan, x, size, in, [](int64_t) {});
  Pieces feed(in);
  for (int64_t done = ex.fed(); done < plan.input_count;) {
    const int64_t n = feed.next(plan.input_count - done);
    stage::feed_piece(ex, x.bytes.data(), size, done, n);
    done += n;
  }
  if (ex.fed() != plan.input_count) fail("fed count", std::to_string(ex.fed()));
  std::vector<uint8_t> out(static_cast<size_t>(plan.output_count * out_size));
  Pieces read(in);
  for (int64_t done = 0; done < plan.output_count;) {
    const int64_t n = read.next(plan.output_count - done);
    read_piece(ex, out, out_size, done, n);
    done += n;
  }
  return out;
}

void check_values(const Call& call, const oxfuzz::Verdict& want, const ox::Plan& plan, const std::vector<uint8_t>& out) {
  const std::vector<oxfuzz::Elem> expected = oxfuzz::compute(call, want);
  const int out_size = oxfuzz::code_size(want.out_code);
  const bool hardmax = want.kind == oxfuzz::RefKind::Hardmax;
  for (size_t k = 0; k < expected.size(); ++k) {
    const uint8_t* p = &out[k * out_size];
    const oxfuzz::Elem got = oxfuzz::decode_elem(want.out_code, p);
    bool ok = oxfuzz::same_elem(got, expected[k]);
    if (hardmax && expected[k].value == 0)  // Hardmax zeros are +0: every byte 0
      for (int b = 0; b < out_size; ++b) ok = ok && p[b] == 0;
    if (want.out_code == oxfuzz::kBool && plan.kind != ox::PlanKind::Identity) ok = ok && p[0] <= 1;
    if (!ok) {
      char text[200];
      std::snprintf(text, sizeof text, "output element %zu: got %s%.21Lg (first byte %u), want %s%.21Lg", k,
                    got.nan ? "NaN " : "", got.value, p[0], expected[k].nan ? "NaN " : "", expected[k].value);
      fail("wrong value", text);
    }
  }
}

bool starts_with_label(const std::string& message, const std::string& label) {
  if (message.compare(0, label.size(), label) != 0) return false;
  const char next = message.size() > label.size() ? message[label.size()] : '\0';
  return next == ':' || next == ' ';
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const Call call = build_call(in);
  g_call = &call;
  static const bool print = std::getenv("OXFUZZ_PRINT") != nullptr;  // replay aid: show each call
  if (print) std::fprintf(stderr, "call: %s\n", oxfuzz::describe(call).c_str());
  g_stage = "judge";
  const oxfuzz::Verdict want = oxfuzz::judge(call);

  g_stage = "decode";
  const std::vector<double> words = oxfuzz::encode_wire(call);
  ox::NodeRequest request;
  ox::Status s = ox::decode_request(words.data(), words.size(), &request);
  if (!s.is_ok()) {
    // Only a data.length no typed array has (a Proxy's lie: fractional, > 2^53 - 1) on an inlined
    // input (k >= 1) makes words the decoder refuses.
    bool impossible = false;
    for (size_t k = 1; k < call.inputs.size() && k < 4; ++k) {
      const double n = call.inputs[k].length;
      impossible = impossible || (call.inputs[k].present && !(n == std::floor(n) && n >= 0 && n <= 9007199254740991.0));
    }
    if (!impossible) fail("the wire encoding of a JS call was rejected", s.message());
    return 0;
  }

  g_stage = "resolve";
  ox::Plan plan;
  s = ox::resolve(request, &plan);
  if (s.is_ok() == want.error)
    fail(want.error ? "accepted a call the reference rejects" : "rejected a call the reference accepts",
         (want.error ? "reference: " + want.why : "core: " + s.message()));
  if (!s.is_ok()) {
    if (!starts_with_label(s.message(), want.label))
      fail("error message does not name the operator/version", "want prefix '" + want.label + "', got: " + s.message());
    return 0;
  }

  g_stage = "plan";
  const int want_out = want.out_code;
  if (static_cast<int>(plan.output_dtype) != want_out) fail("output dtype", std::to_string(static_cast<int>(plan.output_dtype)));
  bool dims_ok = plan.output_rank == static_cast<int>(want.out_dims.size());
  for (int d = 0; dims_ok && d < plan.output_rank; ++d) dims_ok = plan.output_dims[d] == want.out_dims[d];
  if (!dims_ok || static_cast<uint64_t>(plan.output_count) != want.out_count)
    fail("output dims", "count " + std::to_string(plan.output_count) + " want " + std::to_string(want.out_count));
  if (static_cast<uint64_t>(plan.input_count) != want.in_count) fail("input count", std::to_string(plan.input_count));
  if (want.in_count > kMaxElements || want.out_count > kMaxElements) return 0;

  // Twice on one Execution, with different pieces (and a trim between), as the module reuses it;
  // the second time restarted where restart() takes it.
  ox::Execution ex;
  for (int round = 0; round < 2; ++round) {
    g_stage = round == 0 ? "execute" : "execute again";
    const std::vector<uint8_t> out = execute(ex, plan, call.inputs[0], in, round == 1);
    check_values(call, want, plan, out);
    ex.trim(static_cast<size_t>(small_int(in, 0, 64)));
  }
  return 0;
}
