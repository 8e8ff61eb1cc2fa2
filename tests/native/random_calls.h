// Seeded random whole calls for the end-to-end tests: operators, versions, types, shapes (rank 0-5,
// dims 0-7, now and then a long axis or rank 6-7), attributes and values, each with what the reference
// expects of it (or the error the spec calls for). Shared by execution_test.cc (full state) and
// execution_window_test.cc (windowed state).
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "harness.h"
#include "resolve_helpers.h"
#include "spec_table.h"

namespace tr {

using ox::DType;

struct Call {
  tb::Node node{""};
  ref::Tensor x;
  std::string label;
  std::string error;  // a fragment the error must contain; "" when the call must succeed
  ref::Expected expected;
  std::string text;   // what the call was, for failure messages
};

inline std::vector<int64_t> random_dims(tv::Rng& rng) {
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

inline std::vector<uint64_t> random_values(DType t, int64_t n, tv::Rng& rng) {
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
inline std::vector<int64_t> random_axes(int64_t rank, tv::Rng& rng) {
  std::vector<int64_t> axes;
  for (int64_t a = 0; a < rank; ++a)
    if (rng.chance(50)) axes.push_back(rng.chance(40) ? a - rank : a);
  if (axes.empty() && rank > 0) axes.push_back(rng.between(-rank, rank - 1));
  for (size_t i = axes.size(); i > 1; --i) std::swap(axes[i - 1], axes[rng.below(i)]);
  return axes;
}

inline std::vector<double> as_doubles(const std::vector<int64_t>& v) { return std::vector<double>(v.begin(), v.end()); }

// ReduceMax of x over `axes`, newest version, axes as the input.
inline tb::Node reduce_node(const ref::Tensor& x, const std::vector<int64_t>& axes, bool keepdims) {
  return th::with_data(tb::Node("ReduceMax").in(tb::axes_input(as_doubles(axes))).attr("keepdims", keepdims ? 1 : 0), x);
}

// A rank 4-7 tensor's dims (extents 2..max_extent, now and then 1) and a subset of its axes that
// mostly alternates reduced and kept, so merged plans keep several axes in their prefix; axes in
// random order, some written negative.
struct AxisSubset {
  std::vector<int64_t> dims, axes;
};
inline AxisSubset random_axis_subset(tv::Rng& rng, int64_t max_extent) {
  AxisSubset a;
  bool reduced = rng.chance(50);
  for (int64_t d = 0, rank = rng.between(4, 7); d < rank; ++d) {
    a.dims.push_back(rng.chance(10) ? 1 : rng.between(2, max_extent));
    if (reduced) a.axes.push_back(rng.chance(30) ? d - rank : d);
    if (rng.chance(80)) reduced = !reduced;
  }
  if (a.axes.empty()) a.axes.push_back(0);
  for (size_t k = a.axes.size(); k > 1; --k) std::swap(a.axes[k - 1], a.axes[rng.below(k)]);
  return a;
}

inline std::string list_text(const std::vector<int64_t>& v) { return th::dims_text(v); }

// A call drawn from `rng`, its input's values from `values`: two copies of one `rng` with different
// `values` give the same node twice (the same plan) over different data.
inline Call random_call(tv::Rng& rng, tv::Rng& values) {
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
  call.x.bits = random_values(t, ref::element_count(call.x.dims), values);
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

inline Call random_call(tv::Rng& rng) { return random_call(rng, rng); }

inline void check_call(const Call& call, const th::Result& r) {
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

}  // namespace tr
