// Whole calls, end to end: seeded random operators, versions, types, shapes (rank 0-5, dims 0-7,
// now and then a long axis or rank 6-7), attributes and values, fed and read in random chunks through one
// reused Execution, checked against the reference - output dims, type and every element - or
// against the error the spec calls for.
#include <catch2/catch.hpp>

#include <cstring>

#include <algorithm>

#include "harness.h"
#include "resolve_helpers.h"
#include "spec_table.h"

using ox::DType;

// Under AddressSanitizer, let a failed huge malloc return null as it does without it, so the
// out-of-memory path can be tested.
#if defined(__SANITIZE_ADDRESS__)
#define OX_TESTS_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OX_TESTS_UNDER_ASAN 1
#endif
#endif
#ifdef OX_TESTS_UNDER_ASAN
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }
#endif

namespace {

struct Call {
  tb::Node node{""};
  ref::Tensor x;
  std::string label;
  std::string error;  // a fragment the error must contain; "" when the call must succeed
  ref::Expected expected;
  std::string text;   // what the call was, for failure messages
};

std::vector<int64_t> random_dims(tv::Rng& rng) {
  static const int kRankWeights[] = {0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5};
  std::vector<int64_t> dims;
  if (rng.chance(4)) {  // now and then rank 6 or 7 of small dims: several kept axes in a plan's prefix
    for (int64_t d = 0, rank = rng.between(6, 7); d < rank; ++d) dims.push_back(rng.between(1, 3));
    return dims;
  }
  const int rank = kRankWeights[rng.below(12)];
  int64_t count = 1;
  for (int d = 0; d < rank; ++d) {
    int64_t n;
    const uint64_t roll = rng.below(100);
    if (roll < 6) n = 0;
    else if (roll < 24) n = 1;
    else if (roll < 28 && count < 40) n = rng.between(60, 700);  // a long axis
    else n = rng.between(2, 7);
    dims.push_back(n);
    count *= std::max<int64_t>(n, 1);
  }
  return dims;
}

std::vector<uint64_t> random_values(DType t, int64_t n, tv::Rng& rng) {
  std::vector<uint64_t> bits(static_cast<size_t>(n));
  const uint64_t style = rng.below(10);
  const std::vector<uint64_t> nans = tv::nan_patterns(t);
  for (uint64_t& b : bits) {
    if (style == 0 && !nans.empty()) b = rng.pick(nans);  // all NaN
    else if (style <= 3) b = tv::narrow_value(t, rng);    // ties everywhere
    else b = tv::mixed_value(t, rng, style <= 6 ? 3 : 25);
  }
  return bits;
}

// Random axes of a rank-r tensor: a non-empty subset in random order, each maybe written negative.
std::vector<int64_t> random_axes(int64_t rank, tv::Rng& rng) {
  std::vector<int64_t> axes;
  for (int64_t a = 0; a < rank; ++a)
    if (rng.chance(50)) axes.push_back(rng.chance(40) ? a - rank : a);
  if (axes.empty() && rank > 0) axes.push_back(rng.between(-rank, rank - 1));
  for (size_t i = axes.size(); i > 1; --i) std::swap(axes[i - 1], axes[rng.below(i)]);
  return axes;
}

std::vector<double> as_doubles(const std::vector<int64_t>& v) { return std::vector<double>(v.begin(), v.end()); }

std::string list_text(const std::vector<int64_t>& v) { return th::dims_text(v); }

Call random_call(tv::Rng& rng) {
  Call call;
  const std::string op = rng.pick(spec::op_names());
  const std::vector<const spec::Version*> versions = spec::versions_of(op);
  const spec::Version& v = *versions[rng.below(versions.size())];
  const spec::Version* next = nullptr;
  for (const spec::Version* w : versions)
    if (w->since > v.since && (!next || w->since < next->since)) next = w;
  call.node = tb::Node(op);
  double opset = 0;
  if (next || rng.chance(60)) {  // an opset that selects v: its own number or one up to the next version
    opset = static_cast<double>(rng.between(v.since, next ? next->since - 1 : v.since + 6));
    call.node.at(opset);
  }
  call.label = th::label(op, v.since, opset);
  const DType t = rng.pick(v.types);
  call.x = th::make_tensor(t, random_dims(rng), {});
  call.x.bits = random_values(t, ref::element_count(call.x.dims), rng);
  call.node.in(tb::tensor(t, call.x.dims));
  const int64_t rank = static_cast<int64_t>(call.x.dims.size());
  call.text = call.label + " " + ox::dtype_name(t) + " dims " + th::dims_text(call.x.dims);

  auto maybe_flag = [&](const char* name, bool fallback) {
    if (rng.chance(50)) return fallback;
    const bool value = rng.chance(50);
    if (rng.chance(30)) call.node.attr(name, tb::boolean(value));
    else call.node.attr(name, value ? 1.0 : 0.0);
    call.text += std::string(" ") + name + "=" + (value ? "1" : "0");
    return value;
  };
  auto maybe_axis = [&](int64_t fallback) {
    if (rank == 0 || rng.chance(30)) return fallback;
    const int64_t axis = rng.between(-rank, rank - 1);
    call.node.attr("axis", static_cast<double>(axis));
    call.text += " axis=" + std::to_string(axis);
    return axis;
  };

  switch (v.kind) {
    case spec::Kind::Arg: {
      const int64_t axis = maybe_axis(0);
      const bool keepdims = maybe_flag("keepdims", true);
      const bool last = v.since >= 12 ? maybe_flag("select_last_index", false) : false;
      if (rank == 0) call.error = "is out of range: the input is a scalar";
      else if (call.x.dims[static_cast<size_t>(axis < 0 ? axis + rank : axis)] == 0) call.error = "has length 0";
      else call.expected = ref::arg_extreme(call.x, op == "ArgMax", axis, keepdims, last);
      break;
    }
    case spec::Kind::ReduceAxesAttribute:
    case spec::Kind::ReduceAxesInput: {
      std::vector<int64_t> axes;
      const bool by_input = v.kind == spec::Kind::ReduceAxesInput;
      const uint64_t form = rng.below(10);  // 0-2: left out, 3: empty, 4: input given as null, else a subset
      if (form >= 4 && rank > 0 && form != 4) axes = random_axes(rank, rng);
      if (by_input) {
        if (form == 3 || !axes.empty()) call.node.in(tb::axes_input(as_doubles(axes)));
        if (form == 4) call.node.in(tb::missing_input());
      } else if (form == 3 || !axes.empty()) {
        call.node.attr("axes", as_doubles(axes));
      }
      call.text += " axes=" + list_text(axes) + " (form " + std::to_string(form) + ")";
      const bool keepdims = maybe_flag("keepdims", true);
      const bool noop = by_input ? maybe_flag("noop_with_empty_axes", false) : false;
      if (axes.empty() && noop) {
        call.expected = ref::exact(t, call.x.dims, call.x.bits);  // the input, unchanged
      } else {
        call.expected = axes.empty() ? ref::reduce_max_all(call.x, keepdims) : ref::reduce_max(call.x, axes, keepdims);
      }
      break;
    }
    case spec::Kind::HardmaxCoerced:
    case spec::Kind::HardmaxAlongAxis: {
      const bool coerced = v.kind == spec::Kind::HardmaxCoerced;
      const int64_t fallback = coerced ? 1 : -1;
      const int64_t axis = maybe_axis(fallback);
      if (rank == 0) call.error = "is out of range: the input is a scalar";
      else if (axis < -rank || axis >= rank) call.error = "is out of range [";
      else call.expected = coerced ? ref::hardmax_coerced(call.x, axis) : ref::hardmax_along_axis(call.x, axis);
      break;
    }
  }
  return call;
}

void check_call(const Call& call, const th::Result& r) {
  INFO(call.text);
  INFO("message: " << r.status.message());
  if (!call.error.empty()) {
    REQUIRE_FALSE(r.status.is_ok());
    CHECK_THAT(r.status.message(), Catch::Matchers::StartsWith(call.label + ": "));
    CHECK_THAT(r.status.message(), Catch::Matchers::Contains(call.error));
    return;
  }
  REQUIRE(r.status.is_ok());
  CHECK(th::mismatch(call.expected, r.output) == "");
  CHECK(r.guards_intact);
  CHECK(r.plan.output_count == static_cast<int64_t>(call.expected.bits.size()));
  CHECK(r.plan.input_count == static_cast<int64_t>(call.x.bits.size()));
}

}  // namespace

TEST_CASE("execution: random calls against the reference, input and output in random chunks") {
  tv::Rng rng(20240601);
  ox::Execution shared;  // reused across calls, as the wasm module reuses its one Execution
  int succeeded = 0, failed = 0;
  for (int i = 0; i < 3000; ++i) {
    const Call call = random_call(rng);
    const th::Chunks feed = rng.chance(25) ? th::Chunks::whole() : rng.chance(20) ? th::Chunks::fixed(1)
                                                                                   : th::Chunks::random(rng.next());
    const th::Chunks read = rng.chance(40) ? th::Chunks::whole() : th::Chunks::random(rng.next());
    const th::Result r = th::run(call.node, call.x, feed, read, rng.chance(70) ? &shared : nullptr);
    INFO("call " << i);
    check_call(call, r);
    (call.error.empty() ? succeeded : failed) += 1;
    if (rng.chance(5)) shared.trim(static_cast<size_t>(rng.below(4096)));
  }
  // The generator must exercise both paths in earnest.
  CHECK(succeeded > 2000);
  CHECK(failed > 50);
}

TEST_CASE("execution: ReduceMax over random axis subsets of rank 4-7 tensors (long prefixes)") {
  tv::Rng rng(4242);
  for (int i = 0; i < 400; ++i) {
    // Mostly alternating reduced and kept axes, so merged plans keep several axes in their prefix.
    std::vector<int64_t> dims, axes;
    bool reduced = rng.chance(50);
    for (int64_t d = 0, rank = rng.between(4, 7); d < rank; ++d) {
      dims.push_back(rng.chance(10) ? 1 : rng.between(2, 3));
      if (reduced) axes.push_back(rng.chance(30) ? d - rank : d);
      if (rng.chance(80)) reduced = !reduced;
    }
    if (axes.empty()) axes.push_back(0);
    for (size_t k = axes.size(); k > 1; --k) std::swap(axes[k - 1], axes[rng.below(k)]);
    const DType t = rng.pick(spec::newest("ReduceMax").types);
    ref::Tensor x = th::make_tensor(t, dims, {});
    x.bits = random_values(t, ref::element_count(dims), rng);
    const bool keepdims = rng.chance(50);
    const tb::Node node = th::with_data(tb::Node("ReduceMax").in(tb::axes_input(as_doubles(axes))).attr("keepdims", keepdims ? 1 : 0), x);
    const th::Chunks feed = th::Chunks::random(rng.next());  // one statement each: argument order is unspecified
    const th::Chunks read = th::Chunks::random(rng.next());
    const th::Result r = th::run(node, x, feed, read);
    INFO(ox::dtype_name(t) << " dims " << th::dims_text(dims) << " axes " << th::dims_text(axes));
    REQUIRE(r.status.is_ok());
    CHECK(th::mismatch(ref::reduce_max(x, axes, keepdims), r.output) == "");
  }
}

TEST_CASE("execution: one call gives the same output whatever the chunking") {
  tv::Rng rng(77);
  for (int i = 0; i < 200; ++i) {
    const Call call = random_call(rng);
    if (!call.error.empty()) continue;
    const th::Result whole = th::run(call.node, call.x);
    INFO(call.text);
    REQUIRE(whole.status.is_ok());
    for (const th::Chunks& c : {th::Chunks::fixed(1), th::Chunks::fixed(2), th::Chunks::fixed(3), th::Chunks::fixed(7),
                                th::Chunks::fixed(64), th::Chunks::random(static_cast<uint64_t>(i))}) {
      const th::Result split = th::run(call.node, call.x, c, c);
      REQUIRE(split.status.is_ok());
      CHECK(split.output.bits == whole.output.bits);
      CHECK(split.output.dims == whole.output.dims);
    }
  }
}

TEST_CASE("execution: ReduceMax of an empty set gives the lowest value; a kept zero gives an empty output") {
  for (DType t : spec::newest("ReduceMax").types) {
    INFO(ox::dtype_name(t));
    const ref::Tensor x = th::make_tensor(t, {3, 0, 2}, {});
    th::Result r = th::run(th::with_data(tb::Node("ReduceMax").at(13).attr("axes", std::vector<double>{1}), x), x);
    if (t == DType::Bool) r = th::run(th::with_data(tb::Node("ReduceMax").in(tb::axes_input({1})), x), x);
    REQUIRE(r.status.is_ok());
    CHECK(r.output.dims == std::vector<int64_t>{3, 1, 2});
    CHECK(r.output.bits == std::vector<uint64_t>(6, ref::lowest_bits(t)));
    const th::Result all = th::run(th::with_data(tb::Node("ReduceMax").attr("keepdims", 0), x), x);
    REQUIRE(all.status.is_ok());
    CHECK(all.output.dims.empty());
    CHECK(all.output.bits == std::vector<uint64_t>{ref::lowest_bits(t)});
    const th::Result kept = th::run(th::with_data(tb::Node("ReduceMax").in(tb::axes_input({2})), x), x);
    REQUIRE(kept.status.is_ok());
    CHECK(kept.output.dims == std::vector<int64_t>{3, 0, 1});
    CHECK(kept.output.bits.empty());
  }
  // Huge dims beside a zero: the one output is the lowest value.
  const int64_t big = 9007199254740991;
  const ref::Tensor huge = th::make_tensor(DType::Int32, {0, big, big}, {});
  const th::Result r = th::run(th::with_data(tb::Node("ReduceMax").at(13), huge), huge);
  REQUIRE(r.status.is_ok());
  CHECK(r.output.dims == std::vector<int64_t>{1, 1, 1});
  CHECK(r.output.bits == std::vector<uint64_t>{0x80000000u});
  const th::Result a = th::run(th::with_data(tb::Node("ArgMax").attr("axis", 2), huge), huge);
  REQUIRE(a.status.is_ok());
  CHECK(a.output.dims == std::vector<int64_t>{0, big, 1});
  CHECK(a.output.bits.empty());
}

TEST_CASE("execution: Hardmax writes exactly one 1.0 per slice in the output type") {
  for (DType t : spec::newest("Hardmax").types) {
    tv::Rng rng(static_cast<uint64_t>(t));
    const ref::Tensor x = th::make_tensor(t, {3, 4, 5}, random_values(t, 60, rng));
    for (int64_t axis : {0, 1, 2}) {
      const th::Result r = th::run(th::with_data(tb::Node("Hardmax").attr("axis", static_cast<double>(axis)), x), x,
                                   th::Chunks::random(1), th::Chunks::random(2));
      REQUIRE(r.status.is_ok());
      int ones = 0;
      for (uint64_t b : r.output.bits) {
        CHECK((b == 0 || b == ref::one_bits(t)));
        ones += b != 0;
      }
      CHECK(ones == 60 / static_cast<int>(x.dims[static_cast<size_t>(axis)]));
      CHECK(th::mismatch(ref::hardmax_along_axis(x, axis), r.output) == "");
    }
  }
}

TEST_CASE("execution: bool ReduceMax outputs 0 or 1") {
  const ref::Tensor x = th::make_tensor(DType::Bool, {2, 3}, {0, 1, 0, 0, 0, 0});
  const th::Result r = th::run(th::with_data(tb::Node("ReduceMax").at(20).in(tb::axes_input({1})), x), x);
  REQUIRE(r.status.is_ok());
  CHECK(r.output.bits == std::vector<uint64_t>{1, 0});
  CHECK(r.output.dims == std::vector<int64_t>{2, 1});
}

TEST_CASE("execution: a working set larger than memory is a Status, and the Execution stays usable") {
  // ReduceMax over axis 0 of [2, 2^50] float32: 2^50 running maxima (4 PiB) cannot be allocated.
  // start() allocates before any input arrives, so no data buffer is needed here.
  ox::NodeRequest request;
  std::strcpy(request.op.chars, "ReduceMax");
  request.op.length = 9;
  request.opset.kind = ox::ValueKind::Number;  // version 13: axes is an attribute
  request.opset.count = 1;
  request.opset.values[0] = 13;
  request.input_count = 1;
  ox::TensorArg& data = request.inputs[0];
  data.present = true;
  data.dtype = static_cast<int32_t>(DType::Float32);
  data.rank = 2;
  data.dims[0] = 2;
  data.dims[1] = 1125899906842624.0;  // 2^50
  data.length = 2 * data.dims[1];
  request.attr_count = 1;
  std::strcpy(request.attrs[0].name.chars, "axes");
  request.attrs[0].name.length = 4;
  request.attrs[0].value.kind = ox::ValueKind::List;
  request.attrs[0].value.count = 1;
  request.attrs[0].value.values[0] = 0;
  ox::Plan plan;
  REQUIRE(ox::resolve(request, &plan).is_ok());
  ox::Execution e;
  const ox::Status s = e.start(plan);
  INFO(s.message());
  REQUIRE_FALSE(s.is_ok());
  CHECK_THAT(s.message(), Catch::Matchers::StartsWith("out of memory: the call needs "));
  const ref::Tensor x = th::make_tensor(DType::Float32, {3}, {tv::f32(1), tv::f32(3), tv::f32(2)});
  const th::Result after = th::run(th::with_data(tb::Node("ArgMax"), x), x, th::Chunks::whole(), th::Chunks::whole(), &e);
  REQUIRE(after.status.is_ok());
  CHECK(after.output.bits == std::vector<uint64_t>{1});
}

TEST_CASE("execution: ReduceMax over an empty set needs no working state, whatever the output size") {
  // [0, 2^20] reduced over axis 0: 2^20 outputs of -inf, written straight into the destination.
  const ref::Tensor empty = th::make_tensor(DType::Float32, {0, 1048576}, {});
  const th::Result r = th::run(th::with_data(tb::Node("ReduceMax").at(13).attr("axes", std::vector<double>{0}), empty), empty);
  REQUIRE(r.status.is_ok());
  REQUIRE(r.output.bits.size() == 1048576);
  size_t not_lowest = 0;
  for (uint64_t b : r.output.bits) not_lowest += b != 0xFF800000u;  // -inf
  CHECK(not_lowest == 0);
}
