// Resolving a node in tests: through ox::NodeRequest directly and through the wire words, which must
// agree, plus the label a message must start with ("ArgMax version 13 (opset 17)").
#pragma once
#include <catch2/catch.hpp>

#include <string>

#include "node_builder.h"
#include "ops/resolve.h"
#include "wire/wire.h"

namespace th {

struct Resolved {
  ox::Status status = ox::Status::ok();
  ox::Plan plan;
};

// Resolves `node` both ways; a difference between the two paths fails the test.
inline Resolved resolve(const tb::Node& node) {
  Resolved direct;
  direct.status = ox::resolve(tb::to_request(node), &direct.plan);
  const std::vector<double> words = tb::to_wire(node);
  ox::NodeRequest decoded;
  const ox::Status wire = ox::decode_request(words.data(), words.size(), &decoded);
  INFO("wire decoding: " << wire.message());
  REQUIRE(wire.is_ok());
  ox::Plan plan;
  const ox::Status via_wire = ox::resolve(decoded, &plan);
  CHECK(via_wire.is_ok() == direct.status.is_ok());
  CHECK(via_wire.message() == direct.status.message());
  return direct;
}

// The plan of a node that must resolve.
inline ox::Plan plan_of(const tb::Node& node) {
  ox::Plan plan;
  REQUIRE(ox::resolve(tb::to_request(node), &plan).is_ok());
  return plan;
}

inline std::string label(const std::string& op, int version, double opset = 0) {
  std::string s = op + " version " + std::to_string(version);
  if (opset != 0 && opset != version) s += " (opset " + std::to_string(static_cast<long long>(opset)) + ")";
  return s;
}

// The call must fail with a message that starts with `label` and contains `fragment`.
inline void require_error(const tb::Node& node, const std::string& label_text, const std::string& fragment) {
  const Resolved r = resolve(node);
  INFO("message: " << r.status.message());
  REQUIRE_FALSE(r.status.is_ok());
  CHECK_THAT(r.status.message(), Catch::Matchers::StartsWith(label_text + ": "));
  CHECK_THAT(r.status.message(), Catch::Matchers::Contains(fragment));
}

inline ox::Plan require_plan(const tb::Node& node) {
  const Resolved r = resolve(node);
  INFO("message: " << r.status.message());
  REQUIRE(r.status.is_ok());
  return r.plan;
}

inline std::vector<int64_t> output_dims(const ox::Plan& p) {
  return std::vector<int64_t>(p.output_dims, p.output_dims + p.output_rank);
}

}  // namespace th
