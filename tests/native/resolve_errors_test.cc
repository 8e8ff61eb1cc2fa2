// Every class of rejection the resolver makes, each message checked for the operator, the version
// (and opset when it differs) and the problem.
#include <catch2/catch.hpp>

#include <cmath>

#include "resolve_helpers.h"

using ox::DType;
using tb::Node;

namespace {

constexpr double kSafe = 9007199254740991.0;  // 2^53 - 1

Node argmax(int opset, std::vector<int64_t> dims, DType t = DType::Float32) {
  return Node("ArgMax").at(opset).in(tb::tensor(t, dims));
}
Node reducemax(int opset, std::vector<int64_t> dims, DType t = DType::Float32) {
  return Node("ReduceMax").at(opset).in(tb::tensor(t, dims));
}
Node hardmax(int opset, std::vector<int64_t> dims, DType t = DType::Float32) {
  return Node("Hardmax").at(opset).in(tb::tensor(t, dims));
}

tb::TensorSpec dims_as_doubles(std::vector<double> dims, double length) {
  tb::TensorSpec t = tb::tensor(DType::Float32, {});
  t.dims = std::move(dims);
  t.length = length;
  return t;
}

}  // namespace

TEST_CASE("errors: a type outside the version's list names the version that first accepts it") {
  th::require_error(argmax(11, {2}, DType::BFloat16), "ArgMax version 11",
                    "type bfloat16, which ArgMax accepts from version 13 on (opset >= 13)");
  th::require_error(Node("ArgMin").at(12).in(tb::tensor(DType::BFloat16, {2})), "ArgMin version 12",
                    "ArgMin accepts from version 13 on");
  th::require_error(reducemax(11, {2}, DType::Int8), "ReduceMax version 11", "ReduceMax accepts from version 12 on");
  th::require_error(reducemax(12, {2}, DType::BFloat16), "ReduceMax version 12", "ReduceMax accepts from version 13 on");
  th::require_error(reducemax(17, {2}, DType::Bool), "ReduceMax version 13 (opset 17)", "ReduceMax accepts from version 20 on");
  th::require_error(reducemax(19, {2}, DType::Bool), "ReduceMax version 18 (opset 19)",
                    "ReduceMax accepts from version 20 on");
  th::require_error(hardmax(12, {2, 2}, DType::BFloat16), "Hardmax version 11 (opset 12)",
                    "Hardmax accepts from version 13 on");
  th::require_error(reducemax(20, {2}, DType::Int16), "ReduceMax version 20", "no version of ReduceMax accepts");
  th::require_error(reducemax(20, {2}, DType::Uint16), "ReduceMax version 20", "no version of ReduceMax accepts");
  th::require_error(argmax(13, {2}, DType::Bool), "ArgMax version 13", "no version of ArgMax accepts");
  th::require_error(hardmax(13, {2}, DType::Int32), "Hardmax version 13", "no version of Hardmax accepts");
  th::require_error(hardmax(13, {2}, DType::Int32), "Hardmax version 13",
                    "this version accepts float32, float16, float64, bfloat16");
}

TEST_CASE("errors: axis out of range, for every operator and form") {
  th::require_error(argmax(13, {2, 3}).attr("axis", 2), "ArgMax version 13", "axis 2 is out of range [-2, 1]");
  th::require_error(argmax(13, {2, 3}).attr("axis", -3), "ArgMax version 13", "axis -3 is out of range [-2, 1]");
  th::require_error(Node("ArgMin").at(1).in(tb::tensor(DType::Float32, {4})).attr("axis", 1), "ArgMin version 1",
                    "axis 1 is out of range [-1, 0] for an input of rank 1");
  th::require_error(hardmax(13, {2, 3, 4}).attr("axis", 3), "Hardmax version 13", "axis 3 is out of range [-3, 2]");
  th::require_error(hardmax(11, {2, 3, 4}).attr("axis", -4), "Hardmax version 11", "axis -4 is out of range [-3, 2]");
  th::require_error(hardmax(1, {5}), "Hardmax version 1", "axis 1 is out of range [-1, 0]");  // default axis 1
  th::require_error(reducemax(13, {2, 3}).attr("axes", std::vector<double>{0, 2}), "ReduceMax version 13",
                    "axes entry 2 is out of range [-2, 1]");
  th::require_error(reducemax(18, {2, 3}).in(tb::axes_input({-3})), "ReduceMax version 18",
                    "axes entry -3 is out of range [-2, 1]");
}

TEST_CASE("errors: an axis far outside int64 is reported as out of range, not converted") {
  // A finite integer-valued double beyond int64 must not reach an integer conversion (undefined
  // behaviour, caught by UBSan's float-cast-overflow).
  const std::vector<std::pair<double, std::string>> cases = {
      {1e20, "100000000000000000000"}, {-1e20, "-100000000000000000000"}, {9.3e18, "9300000000000000000"}, {1e300, "1e+300"}};
  for (const auto& c : cases) {
    INFO("axis " << c.second);
    const std::string text = " " + c.second + " is out of range [-2, 1]";
    th::require_error(argmax(13, {2, 3}).attr("axis", c.first), "ArgMax version 13", "axis" + text);
    th::require_error(hardmax(13, {2, 3}).attr("axis", c.first), "Hardmax version 13", "axis" + text);
    th::require_error(hardmax(1, {2, 3}).attr("axis", c.first), "Hardmax version 1", "axis" + text);
    th::require_error(reducemax(13, {2, 3}).attr("axes", std::vector<double>{c.first}), "ReduceMax version 13",
                      "axes entry" + text);
    th::require_error(reducemax(18, {2, 3}).in(tb::axes_input({c.first})), "ReduceMax version 18", "axes entry" + text);
  }
}

TEST_CASE("errors: a non-integer axis") {
  for (double axis : {0.5, -0.5, 1e-300, double(NAN), double(INFINITY), double(-INFINITY)}) {
    INFO("axis " << axis);
    th::require_error(argmax(13, {2, 3}).attr("axis", axis), "ArgMax version 13", "attribute 'axis' must be an integer");
    th::require_error(hardmax(1, {2, 3}).attr("axis", axis), "Hardmax version 1", "attribute 'axis' must be an integer");
  }
  th::require_error(argmax(13, {2, 3}).attr("axis", tb::boolean(true)), "ArgMax version 13", "got true");
  th::require_error(argmax(13, {2, 3}).attr("axis", tb::list({1})), "ArgMax version 13", "got the list [1]");
  th::require_error(argmax(13, {2, 3}).attr("axis", tb::other(ox::OtherKind::String)), "ArgMax version 13", "got a string");
  th::require_error(argmax(13, {2, 3}).attr("axis", tb::other(ox::OtherKind::Null)), "ArgMax version 13", "got null");
  th::require_error(reducemax(13, {2, 3}).attr("axes", std::vector<double>{0, 0.5}), "ReduceMax version 13",
                    "attribute 'axes' must hold integers, but entry 1 is 0.5");
  th::require_error(reducemax(13, {2, 3}).attr("axes", 1), "ReduceMax version 13",
                    "attribute 'axes' must be a list of integers, got the number 1");
  th::require_error(reducemax(13, {2, 3}).attr("axes", tb::other(ox::OtherKind::ListWithNonNumber)), "ReduceMax version 13",
                    "a list holding a non-number");
}

TEST_CASE("errors: a non-integer entry of ReduceMax 18's axes input") {
  // From JS the axes tensor is a BigInt64Array, but the wire may carry anything: it must become a
  // Status, not a silently truncated axis (0.5 -> 0) or a NaN converted to an index.
  for (double axis : {0.5, -0.5, double(NAN), double(INFINITY)}) {
    INFO("axis " << axis);
    const th::Resolved r = th::resolve(reducemax(18, {2, 3}).in(tb::axes_input({axis})));
    INFO(r.status.message());
    REQUIRE_FALSE(r.status.is_ok());
    CHECK_THAT(r.status.message(), Catch::Matchers::StartsWith("ReduceMax version 18: axes entry "));
    CHECK_THAT(r.status.message(), Catch::Matchers::EndsWith(" is not an integer"));
  }
}

TEST_CASE("errors: unknown attributes, repeated attributes, too many attributes") {
  th::require_error(argmax(13, {2}).attr("axiss", 0), "ArgMax version 13",
                    "unknown attribute 'axiss' (this version takes axis, keepdims, select_last_index)");
  th::require_error(hardmax(13, {2}).attr("Axis", 0), "Hardmax version 13", "unknown attribute 'Axis' (this version takes axis)");
  th::require_error(argmax(13, {2}).attr("axis", 0).attr("axis", 0), "ArgMax version 13", "attribute 'axis' is given twice");
  Node many = argmax(13, {2});
  for (int i = 0; i < 9; ++i) many.attr("keepdims", tb::absent());  // absent values are skipped...
  th::require_error(many, "ArgMax version 13", "too many attributes (9)");  // ...but nine is still too many
  // An attribute whose value is absent (undefined in JS) counts as not given, even with an unknown name.
  CHECK(th::resolve(argmax(13, {2}).attr("whatever", tb::absent())).status.is_ok());
}

TEST_CASE("errors: attributes from a later version, and axes in the wrong place") {
  th::require_error(argmax(11, {2}).attr("select_last_index", 1), "ArgMax version 11",
                    "attribute 'select_last_index' arrives in ArgMax version 12; this version takes axis, keepdims");
  th::require_error(Node("ArgMin").at(1).in(tb::tensor(DType::Float32, {2})).attr("select_last_index", 0),
                    "ArgMin version 1", "arrives in ArgMin version 12");
  th::require_error(reducemax(13, {2}).attr("noop_with_empty_axes", 1), "ReduceMax version 13",
                    "attribute 'noop_with_empty_axes' arrives in ReduceMax version 18");
  th::require_error(reducemax(18, {2, 3}).attr("axes", std::vector<double>{0}), "ReduceMax version 18",
                    "takes axes as its second input, not as an attribute");
  th::require_error(reducemax(13, {2, 3}).in(tb::axes_input({0})), "ReduceMax version 13",
                    "takes 1 input, got 2; axes is an input from ReduceMax version 18 on");
  th::require_error(reducemax(12, {2, 3}).in(tb::missing_input()), "ReduceMax version 12", "takes 1 input, got 2");
}

TEST_CASE("errors: a repeated axis, however it is written") {
  th::require_error(reducemax(13, {2, 3}).attr("axes", std::vector<double>{1, 1}), "ReduceMax version 13",
                    "axis 1 appears twice in axes [1, 1]");
  th::require_error(reducemax(13, {2, 3}).attr("axes", std::vector<double>{1, -1}), "ReduceMax version 13",
                    "axis 1 appears twice in axes [1, -1]");
  th::require_error(reducemax(1, {2, 3, 4}).attr("axes", std::vector<double>{-3, 1, 0}), "ReduceMax version 1",
                    "axis 0 appears twice in axes [-3, 1, 0]");
  th::require_error(reducemax(18, {2, 3}).in(tb::axes_input({0, -2})), "ReduceMax version 18",
                    "axis 0 appears twice in axes [0, -2]");
  // A list longer than any valid one: rejected from the carried entries alone.
  std::vector<double> long_axes(100, 0);
  th::require_error(reducemax(13, {2, 3}).attr("axes", long_axes), "ReduceMax version 13", "appears twice");
  for (size_t i = 0; i < long_axes.size(); ++i) long_axes[i] = static_cast<double>(i % 3);
  th::require_error(reducemax(13, {2, 3}).attr("axes", long_axes), "ReduceMax version 13", "out of range");
  // At the largest rank only the last of rank + 1 entries repeats: every carried entry is checked.
  std::vector<double> every_axis_then_last(64);
  for (size_t i = 0; i < every_axis_then_last.size(); ++i) every_axis_then_last[i] = static_cast<double>(i);
  every_axis_then_last.push_back(-1);
  const std::vector<int64_t> ones64(64, 1);
  th::require_error(reducemax(13, ones64).attr("axes", every_axis_then_last), "ReduceMax version 13", "axis 63 appears twice");
  th::require_error(reducemax(18, ones64).in(tb::axes_input(every_axis_then_last)), "ReduceMax version 18",
                    "axis 63 appears twice");
}

TEST_CASE("errors: extra and missing inputs") {
  th::require_error(argmax(13, {2}).in(tb::tensor(DType::Float32, {2})), "ArgMax version 13", "takes 1 input, got 2");
  th::require_error(hardmax(13, {2}).in(tb::missing_input()), "Hardmax version 13", "takes 1 input, got 2");
  th::require_error(reducemax(18, {2}).in(tb::axes_input({0})).in(tb::axes_input({0})), "ReduceMax version 18",
                    "takes 2 inputs, got 3");
  Node five = argmax(13, {2});
  for (int i = 0; i < 4; ++i) five.in(tb::tensor(DType::Float32, {2}));
  th::require_error(five, "ArgMax version 13", "takes 1 input, got 5");
  th::require_error(Node("ArgMax").at(13), "ArgMax version 13", "missing required input 'data'");
  th::require_error(Node("Hardmax").at(11), "Hardmax version 11", "missing required input 'input'");
  th::require_error(Node("ReduceMax").at(18).in(tb::missing_input()).in(tb::axes_input({0})), "ReduceMax version 18",
                    "missing required input 'data'");
  // ReduceMax 18's axes may be absent (null) or left out.
  CHECK(th::resolve(reducemax(18, {2}).in(tb::missing_input())).status.is_ok());
}

TEST_CASE("errors: ReduceMax 18's axes input must be a 1-D int64 tensor with its values") {
  tb::TensorSpec int32_axes = tb::axes_input({0});
  int32_axes.dtype = static_cast<int32_t>(DType::Int32);
  th::require_error(reducemax(18, {2, 3}).in(int32_axes), "ReduceMax version 18", "input 'axes' must be an int64 tensor, got int32");
  tb::TensorSpec two_d = tb::axes_input({0, 1});
  two_d.dims = {1, 2};
  th::require_error(reducemax(18, {2, 3}).in(two_d), "ReduceMax version 18", "input 'axes' must be 1-D, got dims [1, 2]");
  tb::TensorSpec scalar = tb::axes_input({0});
  scalar.dims = {};
  th::require_error(reducemax(18, {2, 3}).in(scalar), "ReduceMax version 18", "input 'axes' must be 1-D, got dims []");
  tb::TensorSpec no_values = tb::axes_input({0, 1});
  no_values.values.clear();
  th::require_error(reducemax(18, {2, 3}).in(no_values), "ReduceMax version 18", "input 'axes' values were not passed");
  tb::TensorSpec bad_length = tb::axes_input({0, 1});
  bad_length.length = 3;
  th::require_error(reducemax(18, {2, 3}).in(bad_length), "ReduceMax version 18",
                    "input 'axes' has 3 elements of data but dims [2] need 2");
}

TEST_CASE("errors: data length against dims") {
  th::require_error(Node("ArgMax").at(13).in(dims_as_doubles({2, 3}, 5)), "ArgMax version 13",
                    "input 'data' has 5 elements of data but dims [2, 3] need 6");
  th::require_error(Node("ArgMax").at(13).in(dims_as_doubles({}, 0)), "ArgMax version 13",
                    "has 0 elements of data but dims [] need 1");
  th::require_error(Node("ReduceMax").at(13).in(dims_as_doubles({2, 0}, 1)), "ReduceMax version 13", "need 0");
  for (double length : {-1.0, 0.5, double(NAN), double(INFINITY)}) {
    INFO("length " << length);
    th::require_error(Node("ReduceMax").at(13).in(dims_as_doubles({2}, length)), "ReduceMax version 13",
                      "input 'data' has an invalid data length");
  }
}

TEST_CASE("errors: dims that are negative, non-integer, NaN or beyond 2^53") {
  for (double bad : {-1.0, -0.5, 1.5, double(NAN), double(INFINITY), double(-INFINITY)}) {
    INFO("dim " << bad);
    th::require_error(Node("Hardmax").at(13).in(dims_as_doubles({2, bad}, 2)), "Hardmax version 13",
                      "input 'input' has dims[1] = ");
    th::require_error(Node("Hardmax").at(13).in(dims_as_doubles({2, bad}, 2)), "Hardmax version 13",
                      "which is not a non-negative integer");
  }
  for (double big : {kSafe + 1, 1e300}) {  // integers, but beyond what a JS length can be
    INFO("dim " << big);
    th::require_error(Node("Hardmax").at(13).in(dims_as_doubles({2, big}, 2)), "Hardmax version 13",
                      "above the supported maximum of 2^53 - 1");
  }
  th::require_error(Node("Hardmax").at(13).in(dims_as_doubles({-1}, 0)), "Hardmax version 13", "dims[0] = -1,");
}

TEST_CASE("errors: rank above the maximum; rank 64 is fine") {
  const std::vector<int64_t> ones64(64, 1);
  const ox::Plan p = th::require_plan(argmax(13, ones64).attr("axis", -1));
  CHECK(p.output_rank == 64);
  const std::vector<int64_t> ones65(65, 1);
  th::require_error(argmax(13, ones65), "ArgMax version 13", "input 'data' has rank 65, above the supported maximum of 64");
  tb::TensorSpec huge_rank = tb::tensor(DType::Float32, ones64);
  huge_rank.rank = 1000000;
  th::require_error(Node("ReduceMax").at(18).in(huge_rank), "ReduceMax version 18", "has rank 1000000");
}

TEST_CASE("errors: flags other than 0 and 1") {
  for (double bad : {2.0, -1.0, 0.5, double(NAN)}) {
    INFO("keepdims " << bad);
    th::require_error(argmax(13, {2}).attr("keepdims", bad), "ArgMax version 13",
                      "attribute 'keepdims' must be 0 or 1 (or false/true), got the number ");
    th::require_error(reducemax(18, {2}).attr("noop_with_empty_axes", bad), "ReduceMax version 18",
                      "attribute 'noop_with_empty_axes' must be 0 or 1");
    th::require_error(argmax(12, {2}).attr("select_last_index", bad), "ArgMax version 12",
                      "attribute 'select_last_index' must be 0 or 1");
  }
  th::require_error(argmax(13, {2}).attr("keepdims", tb::other(ox::OtherKind::String)), "ArgMax version 13", "got a string");
  th::require_error(argmax(13, {2}).attr("keepdims", tb::list({1})), "ArgMax version 13", "got the list [1]");
  CHECK(th::resolve(argmax(13, {2}).attr("keepdims", tb::boolean(true))).status.is_ok());
  CHECK(th::resolve(argmax(13, {2}).attr("keepdims", -0.0)).status.is_ok());
}

TEST_CASE("errors: ArgMax and ArgMin over an empty axis; rank-0 ArgMax, ArgMin and Hardmax") {
  th::require_error(argmax(13, {3, 0}).attr("axis", 1), "ArgMax version 13", "axis 1 has length 0");
  th::require_error(Node("ArgMin").at(11).in(tb::tensor(DType::Int32, {0})), "ArgMin version 11", "axis 0 has length 0");
  th::require_error(argmax(13, {0, 0}).attr("axis", -1), "ArgMax version 13", "axis 1 has length 0");
  // A zero elsewhere is an empty output, not an error.
  const ox::Plan p = th::require_plan(argmax(13, {3, 0}).attr("axis", 0));
  CHECK(th::output_dims(p) == std::vector<int64_t>{1, 0});
  CHECK(p.output_count == 0);
  th::require_error(argmax(13, {}), "ArgMax version 13", "axis 0 is out of range: the input is a scalar (rank 0)");
  th::require_error(Node("ArgMin").at(12).in(tb::tensor(DType::Int8, {})).attr("axis", -1), "ArgMin version 12",
                    "axis -1 is out of range: the input is a scalar (rank 0)");
  th::require_error(hardmax(13, {}), "Hardmax version 13", "axis -1 is out of range: the input is a scalar");
  th::require_error(hardmax(1, {}).attr("axis", 0), "Hardmax version 1", "axis 0 is out of range: the input is a scalar");
  // ReduceMax of a scalar returns it; an explicit axis of a scalar is out of range.
  CHECK(th::require_plan(reducemax(13, {})).kind == ox::PlanKind::Identity);
  th::require_error(reducemax(13, {}).attr("axes", std::vector<double>{0}), "ReduceMax version 13", "the input is a scalar");
}

TEST_CASE("errors: huge dims beside a zero are an empty tensor, never an overflow") {
  const int64_t big = static_cast<int64_t>(kSafe);
  // ArgMax along a huge axis of an empty tensor: empty output.
  ox::Plan p = th::require_plan(argmax(13, {0, big, big}).attr("axis", 1));
  CHECK(th::output_dims(p) == std::vector<int64_t>{0, 1, big});
  CHECK(p.output_count == 0);
  th::require_error(argmax(13, {0, big, big}), "ArgMax version 13", "axis 0 has length 0");
  p = th::require_plan(hardmax(13, {0, big, big}));
  CHECK(p.output_count == 0);
  CHECK(p.input_count == 0);
  p = th::require_plan(hardmax(1, {big, 0, big}));
  CHECK(p.output_count == 0);
  p = th::require_plan(reducemax(13, {0, big, big}));
  CHECK(th::output_dims(p) == std::vector<int64_t>{1, 1, 1});
  CHECK(p.output_count == 1);
  p = th::require_plan(reducemax(13, {big, big, 0}).attr("axes", std::vector<double>{0, 1}).attr("keepdims", 0));
  CHECK(th::output_dims(p) == std::vector<int64_t>{0});
  // Keeping huge dims of an empty input: 2^53 - 1 outputs are the most a plan may have...
  p = th::require_plan(reducemax(13, {0, big}).attr("axes", std::vector<double>{0}));
  CHECK(p.output_count == big);
  // ...beyond that the output itself would be too large.
  th::require_error(reducemax(13, {0, big, big}).attr("axes", std::vector<double>{0}), "ReduceMax version 13",
                    "hold more than 2^53 elements");
}

TEST_CASE("errors: many huge dims with a zero do not overflow the element count") {
  // Twenty dims of 2^53 - 1 overflow a double product to infinity, and infinity * 0 is NaN.
  std::vector<int64_t> dims(20, static_cast<int64_t>(kSafe));
  dims.push_back(0);
  const ox::Plan p = th::require_plan(Node("ReduceMax").at(13).in(tb::tensor(DType::Float32, dims))
                                          .attr("axes", std::vector<double>{0}).attr("keepdims", 0));
  CHECK(p.input_count == 0);
  CHECK(p.output_count == 0);
  CHECK(p.output_rank == 20);
  CHECK(p.output_dims[19] == 0);
  std::vector<int64_t> zero_first = dims;
  std::swap(zero_first.front(), zero_first.back());
  CHECK(th::resolve(Node("Hardmax").at(13).in(tb::tensor(DType::Float32, zero_first))).status.is_ok());
}

TEST_CASE("errors: a data length beyond 2^53 that matches its dims is rejected, not converted") {
  // (2^53 - 1)^2 is representable as a double and matches the dims exactly; no real tensor has it.
  th::require_error(Node("ReduceMax").at(13).in(dims_as_doubles({kSafe, kSafe}, kSafe * kSafe)), "ReduceMax version 13",
                    "input 'data'");
  th::require_error(Node("ArgMax").at(13).in(dims_as_doubles({kSafe, 2}, kSafe * 2)), "ArgMax version 13", "input 'data'");
}

TEST_CASE("errors: an axis longer than int32 indices can hold") {
  const ox::Plan p = th::require_plan(argmax(13, {2147483647}));
  CHECK(p.reduce == 2147483647);
  th::require_error(argmax(13, {2147483648}), "ArgMax version 13",
                    "the reduced axis has 2147483648 elements; at most 2147483647 are supported");
  th::require_error(hardmax(11, {2, 65536, 32768}), "Hardmax version 11", "the reduced axis has 2147483648 elements");
  th::require_error(hardmax(13, {3, 2147483648}), "Hardmax version 13", "at most 2147483647");
  // ReduceMax tracks no index: its axis may be longer.
  CHECK(th::resolve(reducemax(13, {2147483648})).status.is_ok());
  // An empty input has no index to find: its reduced axis may be as long as any.
  CHECK(th::resolve(argmax(13, {2147483648, 0})).status.is_ok());
  CHECK(th::resolve(hardmax(13, {0, 2147483648})).status.is_ok());
}
