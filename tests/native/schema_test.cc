// The operator table against the spec text (spec_table.h): every (op, version) pair's attributes,
// defaults, inputs and type list, both as the table states them and as the resolver behaves; and
// opset resolution.
#include <catch2/catch.hpp>

#include <set>

#include "ops/schema.h"
#include "resolve_helpers.h"
#include "spec_table.h"

using ox::DType;

namespace {

const ox::OpVersion* find_version(const std::string& op, int since) {
  for (int i = 0; i < ox::version_count(); ++i) {
    const ox::OpVersion& v = ox::version_at(i);
    if (ox::op_name(v.op) == op && v.since == since) return &v;
  }
  return nullptr;
}

spec::Form form_of(ox::AttrForm f) {
  switch (f) {
    case ox::AttrForm::Int: return spec::Form::Int;
    case ox::AttrForm::Ints: return spec::Form::Ints;
    case ox::AttrForm::Flag: return spec::Form::Flag;
  }
  return spec::Form::Int;
}

spec::Kind kind_of(ox::Semantics s) {
  switch (s) {
    case ox::Semantics::ArgAlongAxis: return spec::Kind::Arg;
    case ox::Semantics::ReduceAxesAttr: return spec::Kind::ReduceAxesAttribute;
    case ox::Semantics::ReduceAxesInput: return spec::Kind::ReduceAxesInput;
    case ox::Semantics::HardmaxCoerce2D: return spec::Kind::HardmaxCoerced;
    case ox::Semantics::HardmaxAlongAxis: return spec::Kind::HardmaxAlongAxis;
  }
  return spec::Kind::Arg;
}

std::string version_name(const spec::Version& v) { return v.op + " " + std::to_string(v.since); }

// An opset as the wire carries a JS number.
ox::Value opset_number(double opset) {
  ox::Value value;
  value.kind = ox::ValueKind::Number;
  value.count = 1;
  value.values[0] = opset;
  return value;
}

}  // namespace

TEST_CASE("schema: the table holds exactly the versions the spec and api.md list") {
  std::set<std::string> expected, actual;
  for (const spec::Version& v : spec::versions()) expected.insert(version_name(v));
  for (int i = 0; i < ox::version_count(); ++i) {
    const ox::OpVersion& v = ox::version_at(i);
    actual.insert(std::string(ox::op_name(v.op)) + " " + std::to_string(v.since));
  }
  CHECK(actual == expected);
  CHECK(ox::version_count() == static_cast<int>(spec::versions().size()));
}

TEST_CASE("schema: every version's types, attributes, defaults and inputs match the spec") {
  for (const spec::Version& want : spec::versions()) {
    INFO(version_name(want));
    const ox::OpVersion* have = find_version(want.op, want.since);
    REQUIRE(have != nullptr);
    CHECK(kind_of(have->semantics) == want.kind);
    for (DType t : spec::known_types()) {
      INFO("type " << ox::dtype_name(t));
      CHECK(ox::type_in(have->types, t) == spec::accepts(want, t));
    }
    REQUIRE(have->attr_count == static_cast<int>(want.attrs.size()));
    for (const spec::Attribute& a : want.attrs) {
      INFO("attribute " << a.name);
      ox::Attr attr;
      REQUIRE(ox::attr_from_name(a.name.c_str(), static_cast<int>(a.name.size()), &attr));
      const ox::AttrSpec* s = ox::find_attr(*have, attr);
      REQUIRE(s != nullptr);
      CHECK(form_of(s->form) == a.form);
      if (a.form != spec::Form::Ints) CHECK(s->default_value == a.default_value);
    }
    CHECK(have->min_inputs == want.min_inputs);
    CHECK(have->max_inputs == want.max_inputs);
    for (size_t i = 0; i < want.input_names.size(); ++i) CHECK(std::string(have->input_names[i]) == want.input_names[i]);
  }
}

TEST_CASE("schema: each version accepts exactly its types; a rejection names the first version accepting it") {
  for (const spec::Version& v : spec::versions()) {
    for (DType t : spec::known_types()) {
      INFO(version_name(v) << " with " << ox::dtype_name(t));
      const tb::Node node = tb::Node(v.op).at(v.since).in(tb::tensor(t, {2, 3}));
      const th::Resolved r = th::resolve(node);
      INFO("message: " << r.status.message());
      if (spec::accepts(v, t)) {
        CHECK(r.status.is_ok());
        continue;
      }
      REQUIRE_FALSE(r.status.is_ok());
      const std::string head = th::label(v.op, v.since) + ": input '" + v.input_names[0] + "' has type " + ox::dtype_name(t);
      CHECK_THAT(r.status.message(), Catch::Matchers::StartsWith(head));
      const int first = spec::first_accepting(v.op, t);
      if (first > v.since)
        CHECK_THAT(r.status.message(), Catch::Matchers::Contains("accepts from version " + std::to_string(first) + " on"));
      else
        CHECK_THAT(r.status.message(), Catch::Matchers::Contains("no version of " + v.op + " accepts"));
    }
  }
}

TEST_CASE("schema: unknown type codes are rejected by name") {
  for (int code : {0, 8, 14, 15, 17, 99, 1 << 20}) {
    INFO("code " << code);
    tb::TensorSpec t = tb::tensor(DType::Float32, {2});
    t.dtype = code;
    th::require_error(tb::Node("ArgMax").at(13).in(t), "ArgMax version 13", "unknown type code " + std::to_string(code));
  }
}

TEST_CASE("schema: defaults as the spec gives them, observed through the plans") {
  for (const spec::Version& v : spec::versions()) {
    INFO(version_name(v));
    const DType t = v.types.front();
    const tb::Node bare = tb::Node(v.op).at(v.since).in(tb::tensor(t, {2, 3, 4}));
    const ox::Plan p = th::require_plan(bare);
    switch (v.kind) {
      case spec::Kind::Arg:  // axis 0, keepdims 1, first index
        CHECK(th::output_dims(p) == std::vector<int64_t>{1, 3, 4});
        CHECK(p.output_dtype == DType::Int64);
        CHECK(p.select_last == false);
        CHECK((p.outer == 1 && p.reduce == 2 && p.inner == 12));
        break;
      case spec::Kind::ReduceAxesAttribute:  // every axis, keepdims 1
      case spec::Kind::ReduceAxesInput:      // and noop_with_empty_axes 0
        CHECK(th::output_dims(p) == std::vector<int64_t>{1, 1, 1});
        CHECK(p.kind == ox::PlanKind::ReduceMax);
        CHECK((p.outer == 1 && p.reduce == 24 && p.inner == 1));
        break;
      case spec::Kind::HardmaxCoerced:  // axis 1: [2, 3 * 4]
        CHECK(th::output_dims(p) == std::vector<int64_t>{2, 3, 4});
        CHECK((p.outer == 2 && p.reduce == 12 && p.inner == 1));
        break;
      case spec::Kind::HardmaxAlongAxis:  // axis -1
        CHECK(th::output_dims(p) == std::vector<int64_t>{2, 3, 4});
        CHECK((p.outer == 6 && p.reduce == 4 && p.inner == 1));
        break;
    }
  }
}

TEST_CASE("schema: every attribute of a version is accepted, with its explicit value taking effect") {
  for (const spec::Version& v : spec::versions()) {
    INFO(version_name(v));
    const DType t = v.types.front();
    tb::Node node = tb::Node(v.op).at(v.since).in(tb::tensor(t, {2, 3, 4}));
    for (const spec::Attribute& a : v.attrs) {
      if (a.name == "axis") node.attr("axis", 1);
      if (a.name == "axes") node.attr("axes", std::vector<double>{1});
      if (a.name == "keepdims") node.attr("keepdims", tb::boolean(false));
      if (a.name == "select_last_index") node.attr("select_last_index", 1);
      if (a.name == "noop_with_empty_axes") node.attr("noop_with_empty_axes", 0);
    }
    if (v.kind == spec::Kind::ReduceAxesInput) node.in(tb::axes_input({1}));
    const ox::Plan p = th::require_plan(node);
    if (v.kind == spec::Kind::Arg) {
      CHECK(th::output_dims(p) == std::vector<int64_t>{2, 4});
      CHECK(p.select_last == (v.since >= 12));
    } else if (v.kind == spec::Kind::HardmaxCoerced) {
      CHECK((p.outer == 2 && p.reduce == 12));
    } else if (v.kind == spec::Kind::HardmaxAlongAxis) {
      CHECK((p.outer == 2 && p.reduce == 3 && p.inner == 4));
    } else {
      CHECK(th::output_dims(p) == std::vector<int64_t>{2, 4});
    }
  }
}

TEST_CASE("schema: an attribute of another version or operator is rejected, naming the version that has it") {
  const std::vector<std::string> all = {"axis", "axes", "keepdims", "select_last_index", "noop_with_empty_axes"};
  for (const spec::Version& v : spec::versions()) {
    for (const std::string& name : all) {
      if (spec::find_attribute(v, name)) continue;
      INFO(version_name(v) << " given " << name);
      const tb::Node node = tb::Node(v.op).at(v.since).in(tb::tensor(v.types.front(), {2, 3})).attr(name, 0);
      const th::Resolved r = th::resolve(node);
      INFO("message: " << r.status.message());
      REQUIRE_FALSE(r.status.is_ok());
      CHECK_THAT(r.status.message(), Catch::Matchers::StartsWith(th::label(v.op, v.since) + ": "));
      CHECK_THAT(r.status.message(), Catch::Matchers::Contains(name));
      int later = 0;  // the first later version of this op that takes it
      for (const spec::Version* w : spec::versions_of(v.op))
        if (w->since > v.since && spec::find_attribute(*w, name) && !later) later = w->since;
      if (v.op == "ReduceMax" && name == "axes")
        CHECK_THAT(r.status.message(), Catch::Matchers::Contains("second input"));
      else if (later)
        CHECK_THAT(r.status.message(), Catch::Matchers::Contains("arrives in " + v.op + " version " + std::to_string(later)));
      else
        CHECK_THAT(r.status.message(), Catch::Matchers::Contains("unknown attribute '" + name + "'"));
    }
  }
}

TEST_CASE("opset resolution: the highest since_version <= opset, for every op and opset 1..40") {
  for (const std::string& op : spec::op_names()) {
    for (int opset = 1; opset <= 40; ++opset) {
      const spec::Version* v = spec::version_for(op, opset);
      REQUIRE(v != nullptr);
      tb::Node node = tb::Node(op).at(opset).in(tb::tensor(v->types.front(), {2}));
      if (op == "Hardmax" && v->since < 13) node.attr("axis", 0);
      std::string got;
      const ox::Status s = ox::node_label(tb::to_request(node), &got);
      INFO(op << " opset " << opset << ": " << s.message());
      REQUIRE(s.is_ok());
      CHECK(got == th::label(op, v->since, opset));
      CHECK(th::resolve(node).status.is_ok());
      if (op == "ReduceMax") CHECK(ox::reduce_axes_is_input(opset_number(opset)) == (opset >= 18));
    }
  }
}

TEST_CASE("opset resolution: the cases the issue names") {
  std::string got;
  CHECK(ox::node_label(tb::to_request(tb::Node("ArgMax").at(17)), &got).is_ok());
  CHECK(got == "ArgMax version 13 (opset 17)");
  CHECK(ox::node_label(tb::to_request(tb::Node("ReduceMax").at(12)), &got).is_ok());
  CHECK(got == "ReduceMax version 12");
  CHECK(ox::node_label(tb::to_request(tb::Node("ReduceMax").at(19)), &got).is_ok());
  CHECK(got == "ReduceMax version 18 (opset 19)");
  CHECK(ox::node_label(tb::to_request(tb::Node("Hardmax").at(12)), &got).is_ok());
  CHECK(got == "Hardmax version 11 (opset 12)");
  for (double huge : {1e6, 9007199254740991.0, 1e15, 1e19, 1e300}) {  // 1e19: beyond int64, still an opset
    INFO("opset " << huge);
    for (const std::string& op : spec::op_names()) {
      CHECK(ox::node_label(tb::to_request(tb::Node(op).at(huge)), &got).is_ok());
      CHECK_THAT(got, Catch::Matchers::StartsWith(op + " version " + std::to_string(spec::newest(op).since) + " (opset "));
    }
    CHECK(ox::reduce_axes_is_input(opset_number(huge)));
  }
  for (const std::string& op : spec::op_names()) {  // no opset: the newest, no "(opset ...)"
    CHECK(ox::node_label(tb::to_request(tb::Node(op)), &got).is_ok());
    CHECK(got == op + " version " + std::to_string(spec::newest(op).since));
  }
  ox::Value absent;
  CHECK(ox::reduce_axes_is_input(absent));
  CHECK_FALSE(ox::reduce_axes_is_input(opset_number(17)));
}

TEST_CASE("opset resolution: an opset that is not a positive integer is an error naming the operator") {
  const std::vector<tb::ValueSpec> bad = {
      tb::number(0),   tb::number(-1),      tb::number(1.5),         tb::number(NAN),
      tb::number(INFINITY), tb::number(-INFINITY), tb::boolean(true), tb::list({13}),
      tb::other(ox::OtherKind::String), tb::other(ox::OtherKind::Null), tb::other(ox::OtherKind::Object)};
  for (const std::string& op : spec::op_names()) {
    for (const tb::ValueSpec& opset : bad) {
      const tb::Node node = tb::Node(op).at(opset).in(tb::tensor(DType::Float32, {2}));
      const th::Resolved r = th::resolve(node);
      INFO(op << ": " << r.status.message());
      REQUIRE_FALSE(r.status.is_ok());
      CHECK_THAT(r.status.message(), Catch::Matchers::StartsWith(op + ": opset must be a positive integer, got "));
      std::string got;
      CHECK_FALSE(ox::node_label(tb::to_request(node), &got).is_ok());
    }
  }
}

TEST_CASE("schema: operator names are exact and case-sensitive") {
  for (const char* name : {"Argmax", "argmax", "ArgMax ", "", "Max", "ReduceMin", "HardMax", "ArgMaxArgMax"}) {
    const th::Resolved r = th::resolve(tb::Node(name).at(13).in(tb::tensor(DType::Float32, {2})));
    INFO(r.status.message());
    REQUIRE_FALSE(r.status.is_ok());
    CHECK_THAT(r.status.message(), Catch::Matchers::StartsWith(std::string("onnx-extrema: unknown operator '") + name + "'"));
  }
  const std::string long_name(100, 'A');
  const th::Resolved r = th::resolve(tb::Node(long_name).at(13).in(tb::tensor(DType::Float32, {2})));
  CHECK_THAT(r.status.message(), Catch::Matchers::Contains(std::string(64, 'A') + "...'"));
}
