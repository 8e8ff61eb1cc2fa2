// Smoke test: one call through the wire decoder, resolver and execution.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "exec/execution.h"
#include "ops/resolve.h"
#include "wire/wire.h"

TEST_CASE("ArgMax over the last axis of a [2,3] float32 tensor") {
  std::vector<double> w = {ox::kWireVersion, 6, 'A', 'r', 'g', 'M', 'a', 'x', 0, 0, 0,
                           1, 1, 1, 6, 2, 2, 3, 0,  // one input: float32, 6 elements, dims [2,3]
                           1, 4, 'a', 'x', 'i', 's', 1, 0, 1, -1};  // axis = -1
  ox::NodeRequest request;
  REQUIRE(ox::decode_request(w.data(), w.size(), &request).is_ok());
  ox::Plan plan;
  ox::Status s = ox::resolve(request, &plan);
  REQUIRE(s.is_ok());
  ox::Execution run;
  REQUIRE(run.start(plan).is_ok());
  const float x[6] = {1, 5, 3, 4, 2, 6};
  run.feed(x, 6);
  int64_t out[2];
  run.write_output(out, 0, 2);
  CHECK(out[0] == 1);
  CHECK(out[1] == 2);
}
