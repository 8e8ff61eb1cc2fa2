// Whole calls, end to end: seeded random operators, versions, types, shapes (rank 0-5, dims 0-7,
// now and then a long axis or rank 6-7), attributes and values, fed and read in random chunks through one
// reused Execution, checked against the reference - output dims, type and every element - or
// against the error the spec calls for.
#include <catch2/catch.hpp>

#include <cstring>

#include <algorithm>

#include "harness.h"
#include "random_calls.h"
#include "spec_table.h"
#include "step_plan.h"

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

using tr::Call;
using tr::check_call;
using tr::random_call;
using tr::random_values;

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
    const auto [dims, axes] = tr::random_axis_subset(rng, 3);
    const DType t = rng.pick(spec::newest("ReduceMax").types);
    ref::Tensor x = th::make_tensor(t, dims, {});
    x.bits = random_values(t, ref::element_count(dims), rng);
    const bool keepdims = rng.chance(50);
    const tb::Node node = tr::reduce_node(x, axes, keepdims);
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

// The bindings pass on any counts that are non-negative numbers below 2^53 (and check only that):
// Execution must refuse a feed past the input or a read past the output, or write_output would
// read states beyond the call's.
TEST_CASE("execution: feeds and reads outside the call are refused") {
  const ox::Plan plan = step_plan(ox::PlanKind::ArgMax, DType::Float32, false, 2, 3, 4);  // 24 in, 8 out
  const std::vector<float> x(24, 1.0f);
  ox::Execution run;
  REQUIRE(run.start(plan).is_ok());
  CHECK_FALSE(run.feed_accepts(-1));
  CHECK_FALSE(run.feed_accepts(25));
  run.feed(x.data(), 24);
  CHECK_FALSE(run.feed_accepts(1));
  CHECK(run.can_write(0, 8));
  CHECK(run.can_write(8, 0));
  CHECK_FALSE(run.can_write(1, 8));
  CHECK_FALSE(run.can_write(8, 1));
  CHECK_FALSE(run.can_write(-1, 1));
  CHECK_FALSE(run.can_write(0, -1));
}
