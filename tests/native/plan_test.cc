// Plans: how axes collapse into the (outer, reduce, inner) step and its prefix, and the output
// dims with and without keepdims. Each plan is also executed and compared with the reference.
#include <catch2/catch.hpp>

#include "harness.h"
#include "plan/plan.h"
#include "resolve_helpers.h"

using ox::DType;
using ox::PlanKind;
using tb::Node;

namespace {

struct Step {
  int64_t outer, reduce, inner;
  std::vector<int64_t> prefix_extent, prefix_stride;
};

Step step_of(const ox::Plan& p) {
  Step s{p.outer, p.reduce, p.inner, {}, {}};
  for (int i = 0; i < p.prefix_count; ++i) {
    s.prefix_extent.push_back(p.prefix_extent[i]);
    s.prefix_stride.push_back(p.prefix_output_stride[i]);
  }
  return s;
}

void check_step(const ox::Plan& p, const Step& want) {
  const Step got = step_of(p);
  CHECK(got.outer == want.outer);
  CHECK(got.reduce == want.reduce);
  CHECK(got.inner == want.inner);
  CHECK(got.prefix_extent == want.prefix_extent);
  CHECK(got.prefix_stride == want.prefix_stride);
}

ref::Tensor ramp(DType t, std::vector<int64_t> dims, uint64_t seed) {
  tv::Rng rng(seed);
  std::vector<uint64_t> bits(static_cast<size_t>(ref::element_count(dims)));
  for (uint64_t& b : bits) b = tv::mixed_value(t, rng, 10);
  return th::make_tensor(t, std::move(dims), bits);
}

// ReduceMax 13 over `axes` of a random float32 tensor: the plan, executed and checked.
ox::Plan reduce_plan(std::vector<int64_t> dims, std::vector<double> axes, bool keepdims) {
  const ref::Tensor x = ramp(DType::Float32, dims, 42);
  Node node = th::with_data(Node("ReduceMax").at(13).attr("keepdims", keepdims ? 1 : 0), x);
  std::vector<int64_t> reduce_axes;
  if (!axes.empty()) node.attr("axes", axes);
  for (double a : axes) reduce_axes.push_back(static_cast<int64_t>(a));
  const ref::Expected e = axes.empty() ? ref::reduce_max_all(x, keepdims) : ref::reduce_max(x, reduce_axes, keepdims);
  const th::Result r = th::run(node, x, th::Chunks::random(7), th::Chunks::random(8));
  INFO(r.status.message());
  REQUIRE(r.status.is_ok());
  CHECK(th::mismatch(e, r.output) == "");
  CHECK(r.plan.output_count == static_cast<int64_t>(e.bits.size()));
  CHECK(r.plan.input_count == static_cast<int64_t>(x.bits.size()));
  return r.plan;
}

}  // namespace

TEST_CASE("plan: non-adjacent reduced axes become a step and a reduced prefix") {
  ox::Plan p = reduce_plan({2, 3, 4, 5}, {0, 2}, true);  // [2R, 3K, 4R, 5K]
  CHECK(p.kind == PlanKind::ReduceMax);
  check_step(p, {3, 4, 5, {2}, {0}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{1, 3, 1, 5});
  p = reduce_plan({2, 3, 4, 5}, {0, 2}, false);
  check_step(p, {3, 4, 5, {2}, {0}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{3, 5});
  p = reduce_plan({2, 3, 4, 5}, {1, 3}, false);  // [2K, 3R, 4K, 5R]: the kept prefix axis strides the output
  check_step(p, {4, 5, 1, {2, 3}, {4, 0}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{2, 4});
  p = reduce_plan({2, 3, 4, 5, 6}, {0, 2, 4}, false);  // [2R, 3K, 4R, 5K, 6R]
  check_step(p, {5, 6, 1, {2, 3, 4}, {0, 5, 0}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{3, 5});
  p = reduce_plan({2, 3, 2, 3, 2, 3, 2}, {1, 3, 5}, false);  // two kept prefix axes: strides multiply
  check_step(p, {2, 3, 2, {2, 3, 2, 3}, {8, 0, 4, 0}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{2, 2, 2, 2});
  p = reduce_plan({3, 2, 3, 2, 3}, {1, 3}, true);  // [3K, 2R, 3K, 2R, 3K]
  check_step(p, {3, 2, 3, {3, 2}, {9, 0}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{3, 1, 3, 1, 3});
}

TEST_CASE("plan: adjacent axes of one kind merge; negative axes count from the back") {
  check_step(reduce_plan({2, 3, 4}, {1, 2}, true), {2, 12, 1, {}, {}});
  check_step(reduce_plan({2, 3, 4}, {0, 1}, true), {1, 6, 4, {}, {}});
  check_step(reduce_plan({2, 3, 4}, {-1, -2}, false), {2, 12, 1, {}, {}});
  check_step(reduce_plan({2, 3, 4, 5}, {1}, false), {2, 3, 20, {}, {}});
  CHECK(th::output_dims(reduce_plan({2, 3, 4}, {-2}, true)) == std::vector<int64_t>{2, 1, 4});
}

TEST_CASE("plan: size-1 axes are dropped, letting their neighbours merge") {
  ox::Plan p = reduce_plan({2, 1, 3, 1}, {1, 2}, true);  // [2K, 3R]
  check_step(p, {2, 3, 1, {}, {}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{2, 1, 1, 1});
  p = reduce_plan({2, 1, 3}, {0, 2}, false);  // the kept 1 between two reduced axes vanishes: one run of 6
  check_step(p, {1, 6, 1, {}, {}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{1});
  p = reduce_plan({1, 4, 1, 5}, {0, 2}, false);  // only size-1 axes reduced: nothing to do
  CHECK(p.kind == PlanKind::Identity);
  CHECK(th::output_dims(p) == std::vector<int64_t>{4, 5});
}

TEST_CASE("plan: everything reduced, and nothing to reduce") {
  ox::Plan p = reduce_plan({2, 3, 4}, {}, true);
  check_step(p, {1, 24, 1, {}, {}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{1, 1, 1});
  p = reduce_plan({2, 3, 4}, {0, 1, 2}, false);
  check_step(p, {1, 24, 1, {}, {}});
  CHECK(p.output_rank == 0);
  CHECK(p.output_count == 1);
  p = reduce_plan({1, 1, 5}, {0, 1}, true);
  CHECK(p.kind == PlanKind::Identity);
  CHECK(th::output_dims(p) == std::vector<int64_t>{1, 1, 5});
  p = reduce_plan({1, 1, 1}, {}, false);
  CHECK(p.kind == PlanKind::Identity);
  CHECK(p.output_rank == 0);
  p = reduce_plan({}, {}, true);  // a scalar: returned as it is
  CHECK(p.kind == PlanKind::Identity);
  CHECK(p.output_rank == 0);
  CHECK(p.output_count == 1);
}

TEST_CASE("plan: an empty reduced set keeps one lowest value per output") {
  ox::Plan p = reduce_plan({2, 0, 3}, {1}, true);
  CHECK(p.kind == PlanKind::ReduceMax);
  CHECK(th::output_dims(p) == std::vector<int64_t>{2, 1, 3});
  CHECK((p.outer == 6 && p.reduce == 0 && p.inner == 1 && p.prefix_count == 0));
  p = reduce_plan({2, 0, 3}, {0}, false);  // a kept zero: empty output
  CHECK(th::output_dims(p) == std::vector<int64_t>{0, 3});
  CHECK(p.output_count == 0);
}

TEST_CASE("plan: ReduceMax 18's axes input and noop_with_empty_axes") {
  const ref::Tensor x = ramp(DType::Float32, {2, 3, 4}, 3);
  const Node base = th::with_data(Node("ReduceMax").at(18), x);
  ox::Plan p = th::require_plan(Node(base).attr("noop_with_empty_axes", 1));  // axes left out
  CHECK(p.kind == PlanKind::Identity);
  CHECK(th::output_dims(p) == std::vector<int64_t>{2, 3, 4});
  p = th::require_plan(Node(base).in(tb::axes_input({})).attr("noop_with_empty_axes", 1));
  CHECK(p.kind == PlanKind::Identity);
  CHECK(th::output_dims(p) == std::vector<int64_t>{2, 3, 4});
  p = th::require_plan(Node(base).in(tb::missing_input()).attr("noop_with_empty_axes", tb::boolean(true)));
  CHECK(p.kind == PlanKind::Identity);
  p = th::require_plan(Node(base).in(tb::axes_input({})));  // empty axes, noop 0: every axis
  check_step(p, {1, 24, 1, {}, {}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{1, 1, 1});
  p = th::require_plan(Node(base).in(tb::axes_input({-1})).attr("noop_with_empty_axes", 1).attr("keepdims", 0));
  check_step(p, {6, 4, 1, {}, {}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{2, 3});
  p = th::require_plan(Node(base).in(tb::axes_input({2, 0})));
  check_step(p, {3, 4, 1, {2}, {0}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{1, 3, 1});
  // The noop output is the input itself.
  const th::Result r = th::run(Node(base).attr("noop_with_empty_axes", 1), x);
  REQUIRE(r.status.is_ok());
  CHECK(r.output.bits == x.bits);
  CHECK(r.output.dims == x.dims);
}

TEST_CASE("plan: ArgMax, ArgMin and Hardmax steps around their axis") {
  const Node arg = Node("ArgMax").at(13).in(tb::tensor(DType::Float32, {2, 3, 4}));
  ox::Plan p = th::require_plan(Node(arg).attr("axis", 1));
  CHECK(p.kind == PlanKind::ArgMax);
  check_step(p, {2, 3, 4, {}, {}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{2, 1, 4});
  CHECK(p.output_dtype == DType::Int64);
  CHECK(p.input_dtype == DType::Float32);
  p = th::require_plan(Node(arg).attr("axis", -1).attr("keepdims", 0).attr("select_last_index", 1));
  check_step(p, {6, 4, 1, {}, {}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{2, 3});
  CHECK(p.select_last);
  p = th::require_plan(Node("ArgMin").at(11).in(tb::tensor(DType::Uint64, {2, 3, 4})).attr("keepdims", 0));
  CHECK(p.kind == PlanKind::ArgMin);
  check_step(p, {1, 2, 12, {}, {}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{3, 4});
  p = th::require_plan(Node("Hardmax").at(13).in(tb::tensor(DType::Float16, {2, 3, 4})).attr("axis", 0));
  CHECK(p.kind == PlanKind::Hardmax);
  check_step(p, {1, 2, 12, {}, {}});
  CHECK(th::output_dims(p) == std::vector<int64_t>{2, 3, 4});
  CHECK(p.output_dtype == DType::Float16);
  p = th::require_plan(Node("Hardmax").at(11).in(tb::tensor(DType::Float64, {2, 3, 4})).attr("axis", 0));
  check_step(p, {1, 24, 1, {}, {}});
  p = th::require_plan(Node("Hardmax").at(1).in(tb::tensor(DType::Float32, {2, 3, 4})).attr("axis", -1));
  check_step(p, {6, 4, 1, {}, {}});
  p = th::require_plan(Node("Hardmax").at(1).in(tb::tensor(DType::Float32, {2, 3, 4})).attr("axis", 2));
  check_step(p, {6, 4, 1, {}, {}});
}

TEST_CASE("plan: build_reduce_steps directly") {
  ox::Plan p;
  const int64_t dims[] = {4, 1, 1, 5};
  const bool kept_only[] = {false, true, true, false};
  ox::build_reduce_steps(dims, kept_only, 4, &p);
  CHECK(p.kind == PlanKind::Identity);
  p = ox::Plan();
  p.kind = PlanKind::ReduceMax;
  const int64_t dims2[] = {7, 2, 3, 2, 5};
  const bool reduced2[] = {true, false, true, false, true};
  ox::build_reduce_steps(dims2, reduced2, 5, &p);
  CHECK(p.kind == PlanKind::ReduceMax);
  check_step(p, {2, 5, 1, {7, 2, 3}, {0, 2, 0}});
  p = ox::Plan();
  p.kind = PlanKind::ReduceMax;
  const int64_t dims3[] = {6};
  const bool reduced3[] = {true};
  ox::build_reduce_steps(dims3, reduced3, 1, &p);
  check_step(p, {1, 6, 1, {}, {}});
}
