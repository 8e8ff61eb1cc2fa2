// Execution::restart(), the wasm edge's shortcut for a call that repeats the last one (a plan-cache
// hit on the plan it last started): the repeat must answer exactly as start() would, over new
// values, and restart() must refuse wherever start() would set up anything differently.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "harness.h"
#include "random_calls.h"

using ox::DType;

TEST_CASE("execution: restart() repeats a call with new values as start() would") {
  tv::Rng rng(20261207);
  ox::Execution shared;
  int restarted = 0, refused = 0, windowed_refused = 0, reset_states = 0;
  for (int i = 0; i < 3000; ++i) {
    // The same node twice (two copies of one generator), over two draws of values.
    const tv::Rng structure = rng;
    tv::Rng first_structure = structure, second_structure = structure;
    tv::Rng first_values(rng.next()), second_values(rng.next());
    const tr::Call first = tr::random_call(first_structure, first_values);
    const tr::Call second = tr::random_call(second_structure, second_values);
    rng = first_structure;
    th::Window window;  // mostly whole state; now and then a small staging buffer that windows it
    if (rng.chance(25)) window.staging_bytes = static_cast<int64_t>(rng.pick(std::vector<uint64_t>{8, 64, 1000}));
    const th::Chunks feed = rng.chance(50) ? th::Chunks::whole() : th::Chunks::random(rng.next());
    const th::Chunks read = rng.chance(50) ? th::Chunks::whole() : th::Chunks::random(rng.next());
    INFO("call " << i << ", staging " << window.staging_bytes);
    const th::Result a = th::run(first.node, first.x, feed, read, &shared, window);
    tr::check_call(first, a);
    if (rng.chance(5)) shared.trim(static_cast<size_t>(rng.below(64)));
    const th::Result b = th::run(second.node, second.x, feed, read, &shared, window, true);
    tr::check_call(second, b);
    CHECK(b.protocol == "");
    if (!first.error.empty() || a.plan.kind == ox::PlanKind::Identity) {
      CHECK_FALSE(b.restarted);
      continue;
    }
    (b.restarted ? restarted : refused) += 1;
    windowed_refused += a.windowed;
    CHECK_FALSE((a.windowed && b.restarted));
    // ReduceMax and prefix plans reset their states on restart (arg kinds start fresh anyway).
    reset_states += b.restarted && (a.plan.kind == ox::PlanKind::ReduceMax || a.plan.prefix_count > 0);
  }
  CHECK(restarted > 1500);
  CHECK(reset_states > 300);
  CHECK(refused > 100);
  CHECK(windowed_refused > 50);
}

TEST_CASE("execution: restart() refuses what start() would set up differently") {
  const ox::Plan rows =
      th::plan_of(tb::Node("ReduceMax").at(13).in(tb::tensor(DType::Float32, {2, 3})).attr("axes", std::vector<double>{1}));
  ox::Execution e;
  CHECK_FALSE(e.restart(0));  // never started

  REQUIRE(e.start(rows, 4096).is_ok());
  CHECK_FALSE(e.restart(0));        // other staging bytes
  CHECK_FALSE(e.restart(4096, 0));  // another window threshold
  CHECK(e.restart(4096));
  CHECK(e.restart(4096));

  e.trim(0);  // its state buffers freed
  CHECK_FALSE(e.restart(4096));
  REQUIRE(e.start(rows, 4096).is_ok());
  CHECK(e.restart(4096));

  // Identity (ReduceMax 18 with no axes and noop_with_empty_axes): start() sets up no state.
  const ox::Plan identity =
      th::plan_of(tb::Node("ReduceMax").at(18).in(tb::tensor(DType::Float32, {2, 3})).attr("noop_with_empty_axes", 1.0));
  REQUIRE(identity.kind == ox::PlanKind::Identity);
  REQUIRE(e.start(identity).is_ok());
  CHECK_FALSE(e.restart(0));

  // Windowed: ArgMax over the rows of 2 of [4096, 2], 64 staging bytes, a window above 0 bytes.
  const ox::Plan pairs =
      th::plan_of(tb::Node("ArgMax").at(13).in(tb::tensor(DType::Float32, {4096, 2})).attr("axis", 1.0));
  REQUIRE(e.start(pairs, 64, 0).is_ok());
  REQUIRE(e.windowed());
  CHECK_FALSE(e.restart(64, 0));

  // A failed start(): ReduceMax over axis 0 of [2, 2^50] needs 4 PiB of state.
  const tb::Node huge =
      tb::Node("ReduceMax").at(13).in(tb::tensor(DType::Float32, {2, 1125899906842624})).attr("axes", std::vector<double>{0});
  REQUIRE(e.start(rows).is_ok());
  REQUIRE_FALSE(e.start(th::plan_of(huge)).is_ok());
  CHECK_FALSE(e.restart(0));
}
