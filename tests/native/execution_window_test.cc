// Windowed state (ox::Execution::start with a staging size): whole calls streamed as js/engine.js
// streams a large input - gathered windows for prefix plans, column tiles where the core picks
// them, else row-major chunks of at most a staging buffer - with the outputs that became final read
// after every feed, before the next feed drops them. Tiny staging buffers (and windowing at any
// state size) make small calls windowed, so the random calls of execution_test.cc and every kind of
// unit (a row, an outer slice, a column tile, a gathered window of whole slices or of columns) run
// against the reference; th::run checks each promise of the window on the way
// (th::Result::protocol).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "harness.h"
#include "random_calls.h"
#include "spec_table.h"

using ox::DType;
using ox::PlanKind;
using tr::reduce_node;

namespace {

// Staging sizes in bytes: below one element, odd, a few elements, up to a few KiB.
int64_t random_staging(tv::Rng& rng) {
  static const std::vector<int64_t> kSizes = {1, 3, 8, 16, 24, 40, 64, 100, 256, 1000, 4096};
  return rng.pick(kSizes);
}

// Feeds: random pieces (clamped to the staging buffer by th::run), a staging buffer every time as
// js/engine.js does, or one element at a time.
th::Chunks random_feed(tv::Rng& rng) {
  const uint64_t roll = rng.below(10);
  return roll < 5 ? th::Chunks::random(rng.next()) : roll < 9 ? th::Chunks::fixed(INT64_MAX) : th::Chunks::fixed(1);
}

void check_windowed(const std::string& text, const ref::Expected& expected, const th::Result& r) {
  INFO(text);
  INFO("message: " << r.status.message());
  REQUIRE(r.status.is_ok());
  CHECK(r.protocol == "");
  CHECK(th::mismatch(expected, r.output) == "");
  CHECK(r.guards_intact);
}

// ArgMax/ArgMin/Hardmax of x along `axis`, newest version.
tb::Node arg_node(const std::string& op, const ref::Tensor& x, int64_t axis, bool last) {
  tb::Node n = th::with_data(tb::Node(op).attr("axis", static_cast<double>(axis)), x);
  if (last) n.attr("select_last_index", 1.0);
  return n;
}

}  // namespace

TEST_CASE("windowed execution: random calls against the reference, tiny staging buffers") {
  tv::Rng rng(9060);
  ox::Execution shared;  // reused across calls, windowed or not, as the wasm module reuses its one Execution
  int succeeded = 0, windowed = 0, windowed_hardmax = 0, windowed_prefix = 0;
  for (int i = 0; i < 5000; ++i) {
    const tr::Call call = tr::random_call(rng);
    th::Window window;
    window.staging_bytes = random_staging(rng);
    // Mostly window whatever the state size; now and then only above a threshold near it.
    window.window_above_bytes = rng.chance(85) ? 0 : static_cast<int64_t>(rng.below(200));
    const th::Chunks feed = random_feed(rng);
    const th::Chunks read = rng.chance(40) ? th::Chunks::whole() : th::Chunks::random(rng.next());
    const th::Result r = th::run(call.node, call.x, feed, read, rng.chance(70) ? &shared : nullptr, window);
    INFO("call " << i << ", staging " << window.staging_bytes << " bytes, window above " << window.window_above_bytes);
    tr::check_call(call, r);
    CHECK(r.protocol == "");
    if (!call.error.empty() || !r.status.is_ok()) continue;
    succeeded += 1;
    windowed += r.windowed;
    windowed_hardmax += r.windowed && r.plan.kind == PlanKind::Hardmax;
    windowed_prefix += r.windowed && r.plan.prefix_count > 0;
    if (rng.chance(5)) shared.trim(static_cast<size_t>(rng.below(4096)));
  }
  // The calls must be windowed in earnest (about 1 in 7: many outputs are few or one), Hardmax
  // and prefix plans included (the next test windows prefixes in earnest).
  CHECK(succeeded > 3500);
  CHECK(windowed > 500);
  CHECK(windowed_hardmax > 150);
  CHECK(windowed_prefix > 5);
}

TEST_CASE("windowed execution: ReduceMax over random axis subsets of rank 4-7 tensors (kept and reduced leading prefixes)") {
  tv::Rng rng(9061);
  int windowed = 0, kept_leading = 0, reduced_leading = 0, gathered_columns = 0;  // gathered, by kind
  for (int i = 0; i < 500; ++i) {
    const auto [dims, axes] = tr::random_axis_subset(rng, 4);
    const DType t = rng.pick(spec::newest("ReduceMax").types);
    ref::Tensor x = th::make_tensor(t, dims, {});
    x.bits = tr::random_values(t, ref::element_count(dims), rng);
    const bool keepdims = rng.chance(50);
    th::Window window;
    window.staging_bytes = random_staging(rng);
    const th::Chunks feed = random_feed(rng);
    const th::Chunks read = th::Chunks::random(rng.next());
    const th::Result r = th::run(reduce_node(x, axes, keepdims), x, feed, read, nullptr, window);
    check_windowed(ox::dtype_name(t) + std::string(" dims ") + th::dims_text(dims) + " axes " + th::dims_text(axes) +
                       " staging " + std::to_string(window.staging_bytes),
                   ref::reduce_max(x, axes, keepdims), r);
    windowed += r.windowed;
    CHECK(r.gathered == (r.windowed && r.plan.prefix_count > 0));  // prefix plans window only gathered
    if (r.plan.prefix_count > 0) {
      const bool kept = r.plan.prefix_output_stride[0] != 0;
      (kept ? kept_leading : reduced_leading) += r.gathered;
      gathered_columns += r.gathered && ox::gather_shape(r.plan, window.staging_bytes).columns > 0;
    }
  }
  CHECK(windowed > 100);
  CHECK(kept_leading > 50);
  CHECK(reduced_leading > 50);
  CHECK(gathered_columns > 20);
}

TEST_CASE("windowed execution: column tiles, every kind and dtype, the window one tile wide") {
  tv::Rng rng(9062);
  struct Kind {
    std::string op;
    std::vector<DType> types;
  };
  const std::vector<Kind> kinds = {{"ArgMax", spec::newest("ArgMax").types},
                                   {"ArgMin", spec::newest("ArgMin").types},
                                   {"Hardmax", spec::newest("Hardmax").types},
                                   {"ReduceMax", spec::newest("ReduceMax").types}};
  ox::Execution shared;
  for (int round = 0; round < 2; ++round) {  // two shapes and staging sizes of each
    for (const Kind& kind : kinds)
      for (DType t : kind.types) {
        const int size = ref::element_size(t);
        const bool reduce_max = kind.op == "ReduceMax";
        // The smallest slice whose state outgrows 256 KiB (so tiles pay), and a bit more.
        const int64_t min_inner = 262144 / (size + (reduce_max ? 0 : 4)) + 1;
        const int64_t inner = min_inner + rng.between(0, min_inner / 4);
        const int64_t outer = rng.between(1, 2), reduce = rng.between(reduce_max ? 2 : 1, 3);
        // Tile rows of at least 8 KiB: staging of reduce x 8-24 KiB (plus an odd remainder).
        const int64_t staging = reduce * 8192 * rng.between(1, 3) + rng.between(0, 100);
        ref::Tensor x = th::make_tensor(t, {outer, reduce, inner}, {});
        x.bits = tr::random_values(t, outer * reduce * inner, rng);
        const bool flag = rng.chance(50);  // ReduceMax: keepdims; ArgMax/ArgMin: select_last_index
        const tb::Node node = reduce_max ? reduce_node(x, {1}, flag) : arg_node(kind.op, x, 1, flag && kind.op != "Hardmax");
        const ox::Plan plan = th::plan_of(node);
        const int64_t width = ox::column_tile_width(plan, staging);
        const std::string text = kind.op + " " + ox::dtype_name(t) + " dims " + th::dims_text(x.dims) + " staging " +
                           std::to_string(staging) + " width " + std::to_string(width);
        INFO(text);
        REQUIRE(width > 0);
        // NaNs and the highest value on both sides of every tile edge, in rows and slices at random.
        const std::vector<uint64_t> nans = tv::nan_patterns(t);
        for (int64_t c = width; c < inner; c += width)
          for (int64_t column : {c - 1, c}) {
            const int64_t o = rng.between(0, outer - 1), r = rng.between(0, reduce - 1);
            x.bits[static_cast<size_t>((o * reduce + r) * inner + column)] =
                !nans.empty() && rng.chance(50) ? rng.pick(nans) : tv::highest(t);
          }
        th::Window window;
        window.staging_bytes = staging;
        const th::Chunks read = rng.chance(50) ? th::Chunks::whole() : th::Chunks::random(rng.next());
        const th::Result r = th::run(node, x, th::Chunks::whole(), read, rng.chance(50) ? &shared : nullptr, window);
        const ref::Expected expected =
            reduce_max ? ref::reduce_max(x, {1}, flag)
                       : kind.op == "Hardmax" ? ref::hardmax_along_axis(x, 1)
                                              : ref::arg_extreme(x, kind.op == "ArgMax", 1, true, flag);
        check_windowed(text, expected, r);
        CHECK(r.tiled);
        CHECK(r.windowed);
        CHECK(r.held_states == width);
        CHECK(r.drains == plan.outer * ((plan.inner + width - 1) / width));  // (reduce 1: one row, resolve.cc)
      }
  }
}

TEST_CASE("windowed execution: hand-picked units, window sizes, NaNs and ties at window edges") {
  ox::Execution run;
  th::Window staging64;
  staging64.staging_bytes = 64;

  SECTION("ArgMax axis 0 of float32 [2, 40000]: 2048-column tiles, the window one tile") {
    const int64_t n = 40000;
    ref::Tensor x = th::make_tensor(DType::Float32, {2, n}, std::vector<uint64_t>(2 * n, tv::f32(1)));
    for (int64_t c = 0; c < n; c += 97) x.bits[static_cast<size_t>(n + c)] = tv::f32(2);  // row 1 wins here
    x.bits[2047] = tv::f32(NAN);                           // the last column of the first tile: NaN in row 0
    x.bits[static_cast<size_t>(n + 2048)] = tv::f32(NAN);  // the first of the second: NaN in row 1
    x.bits[4095] = x.bits[static_cast<size_t>(n + 4095)] = tv::f32(5);  // a tie ending the second tile
    x.bits[4096] = tv::f32(-0.0f), x.bits[static_cast<size_t>(n + 4096)] = tv::f32(0.0f);  // -0 == +0 starting the third
    th::Window w;
    w.staging_bytes = 16384;  // 16384 / (2 x 4) = 2048 columns
    for (bool last : {false, true}) {
      const tb::Node node = arg_node("ArgMax", x, 0, last);
      REQUIRE(ox::column_tile_width(th::plan_of(node), w.staging_bytes) == 2048);
      const th::Result r = th::run(node, x, th::Chunks::whole(), th::Chunks::random(3), &run, w);
      check_windowed(last ? "select_last" : "first", ref::arg_extreme(x, true, 0, true, last), r);
      CHECK(r.held_states == 2048);
      CHECK(r.drains == 20);  // 19 tiles of 2048, one of 1088
      CHECK(r.output.bits[2047] == 0);
      CHECK(r.output.bits[2048] == 1);
      CHECK(r.output.bits[4095] == (last ? 1u : 0u));
      CHECK(r.output.bits[4096] == (last ? 1u : 0u));
    }
  }

  SECTION("ArgMax/ArgMin axis -1 of [1000, 2]: row units, chunks that split rows") {
    ref::Tensor x = th::make_tensor(DType::Float32, {1000, 2}, {});
    tv::Rng rng(5);
    for (int64_t k = 0; k < 2000; ++k) x.bits.push_back(tv::narrow_value(DType::Float32, rng));
    // 15-element chunks split rows (k - 1, k) for k = 15, 45, 75, ...: a tie, a NaN second, or two NaNs.
    for (int64_t k = 15, j = 0; k < 2000; k += 30, ++j) {
      const size_t at = static_cast<size_t>(k);
      if (j % 3 == 0) x.bits[at - 1] = x.bits[at] = tv::f32(7);
      if (j % 3 >= 1) x.bits[at] = tv::f32(NAN);
      if (j % 3 == 2) x.bits[at - 1] = tv::f32(NAN);
    }
    th::Window w;
    w.staging_bytes = 60;  // 15 float32: a chunk reaches into 9 rows, the first part-done
    for (const char* op : {"ArgMax", "ArgMin"})
      for (bool last : {false, true}) {
        const tb::Node node = arg_node(op, x, -1, last);
        const th::Result r = th::run(node, x, th::Chunks::fixed(INT64_MAX), th::Chunks::random(4), &run, w);
        check_windowed(std::string(op) + (last ? " select_last" : ""),
                       ref::arg_extreme(x, std::string(op) == "ArgMax", -1, true, last), r);
        CHECK(r.windowed);
        CHECK(r.held_states == 9);
        CHECK_FALSE(r.tiled);
      }
  }

  SECTION("ReduceMax axes [1] of [5, 4, 6]: outer-slice units of 6 states") {
    ref::Tensor x = th::make_tensor(DType::Int32, {5, 4, 6}, {});
    tv::Rng rng(6);
    for (int k = 0; k < 120; ++k) x.bits.push_back(tv::mixed_value(DType::Int32, rng, 10));
    const tb::Node node = reduce_node(x, {1}, true);
    const ox::Plan plan = th::plan_of(node);
    CHECK(plan.prefix_count == 0);
    CHECK(plan.inner == 6);
    // 64 bytes = 16 int32: ceil(16 / 24) + 1 = 2 slices of 6.
    const th::Result r = th::run(node, x, th::Chunks::random(7), th::Chunks::random(8), &run, staging64);
    check_windowed("ReduceMax [1] of [5, 4, 6]", ref::reduce_max(x, {1}, true), r);
    CHECK(r.windowed);
    CHECK(r.held_states == 12);
  }

  SECTION("ReduceMax axes [1, 3] of [6, 3, 4, 5]: a kept leading prefix axis, gathered by whole slices") {
    ref::Tensor x = th::make_tensor(DType::Float16, {6, 3, 4, 5}, {});
    tv::Rng rng(9);
    for (int k = 0; k < 360; ++k) x.bits.push_back(tv::mixed_value(DType::Float16, rng, 20));
    x.bits[59] = 0x7E00, x.bits[60] = 0xFC00;  // a NaN ending the first unit (60 inputs), -inf starting the next
    for (bool keepdims : {false, true}) {
      const tb::Node node = reduce_node(x, {1, 3}, keepdims);
      const ox::Plan plan = th::plan_of(node);
      REQUIRE(plan.prefix_count >= 1);
      CHECK(plan.prefix_output_stride[0] == 4);  // one index of axis 0: 4 outputs
      // Step [4, 5, 1] in 3 blocks (axis 1); 64 bytes = 32 float16, 10 per block: 2 outer slices
      // of 5 from each block, 2 outputs of 24.
      const th::Result r = th::run(node, x, th::Chunks::random(keepdims ? 10 : 11), th::Chunks::random(12), &run, staging64);
      check_windowed(keepdims ? "keepdims" : "no keepdims", ref::reduce_max(x, {1, 3}, keepdims), r);
      CHECK(r.gathered);
      CHECK(r.held_states == 2);
      CHECK(r.drains == 12);
      CHECK(ref::is_nan_bits(DType::Float16, r.output.bits[3]));  // (0, 3): the NaN at the end of the first unit
    }
  }

  SECTION("ReduceMax axes [0, 2] of [6, 3, 4, 5]: a reduced leading prefix axis, gathered by columns") {
    ref::Tensor x = th::make_tensor(DType::Uint8, {6, 3, 4, 5}, {});
    tv::Rng rng(13);
    for (int k = 0; k < 360; ++k) x.bits.push_back(tv::mixed_value(DType::Uint8, rng, 20));
    const tb::Node node = reduce_node(x, {0, 2}, true);
    const ox::Plan plan = th::plan_of(node);
    REQUIRE(plan.prefix_count >= 1);
    CHECK(plan.prefix_output_stride[0] == 0);
    const th::Result r = th::run(node, x, th::Chunks::random(14), th::Chunks::random(15), &run, staging64);
    check_windowed("ReduceMax [0, 2]", ref::reduce_max(x, {0, 2}, true), r);
    // Step [3, 4, 5] in 6 blocks (axis 0); 64 uint8, 10 per block: under a slice of 20, so 2
    // columns of the 4 reduced rows of each block, the last window of each slice 1 column.
    CHECK(r.gathered);
    CHECK(r.held_states == 2);
    CHECK(r.drains == 9);
  }

  SECTION("Hardmax along axis 0 (one slice: state stays whole), 1 (slice units) and -1 (rows), versions 1, 11, 13") {
    for (DType t : spec::newest("Hardmax").types) {
      ref::Tensor x = th::make_tensor(t, {7, 3, 9}, {});
      tv::Rng rng(static_cast<uint64_t>(t) + 100);
      x.bits = tr::random_values(t, 189, rng);
      for (int64_t axis : {0, 1, -1}) {
        const th::Result r = th::run(arg_node("Hardmax", x, axis, false), x, th::Chunks::random(16),
                                     th::Chunks::random(17), &run, staging64);
        check_windowed(ox::dtype_name(t) + std::string(" Hardmax-13 axis ") + std::to_string(axis),
                       ref::hardmax_along_axis(x, axis), r);
        // axis 0: one unit holds all 27 states, nothing to window; axis 1: slices of 9 states;
        // axis -1: rows of 9 inputs.
        CHECK(r.windowed == (axis != 0));
      }
      if (t == DType::BFloat16) continue;  // versions 1 and 11 predate bfloat16
      for (int version : {1, 11}) {
        // Coerced to 2-D around axis 1: [7, 27], rows of 27.
        const tb::Node node = th::with_data(tb::Node("Hardmax").at(version).attr("axis", 1.0), x);
        const th::Result r = th::run(node, x, th::Chunks::random(18), th::Chunks::random(19), &run, staging64);
        check_windowed(ox::dtype_name(t) + std::string(" Hardmax-") + std::to_string(version),
                       ref::hardmax_coerced(x, 1), r);
        CHECK(r.windowed);
      }
    }
  }

  SECTION("Hardmax axis 1 of [2, 5, 40000]: tiles, each read back as its runs in every row") {
    ref::Tensor x = th::make_tensor(DType::Float32, {2, 5, 40000}, {});
    tv::Rng rng(20);
    x.bits = tr::random_values(DType::Float32, 400000, rng);
    th::Window w;
    w.staging_bytes = 5 * 8192;  // 2048 columns of 5 rows
    const tb::Node node = arg_node("Hardmax", x, 1, false);
    const th::Result r = th::run(node, x, th::Chunks::whole(), th::Chunks::random(21), &run, w);
    check_windowed("Hardmax tiles", ref::hardmax_along_axis(x, 1), r);
    CHECK(r.tiled);
    CHECK(r.held_states == 2048);
  }

  SECTION("empty inputs: nothing to window, the right (lowest or empty) output") {
    for (DType t : spec::newest("ReduceMax").types) {
      const ref::Tensor x = th::make_tensor(t, {3, 0, 2}, {});
      const th::Result r = th::run(reduce_node(x, {1}, true), x, th::Chunks::random(22), th::Chunks::random(23), &run, staging64);
      check_windowed(ox::dtype_name(t), ref::reduce_max(x, {1}, true), r);
      CHECK_FALSE(r.windowed);
      const th::Result kept = th::run(reduce_node(x, {2}, true), x, th::Chunks::whole(), th::Chunks::whole(), &run, staging64);
      check_windowed(ox::dtype_name(t) + std::string(" kept zero"), ref::reduce_max(x, {2}, true), kept);
    }
    const ref::Tensor x = th::make_tensor(DType::Float32, {0, 5}, {});
    const th::Result a = th::run(arg_node("ArgMax", x, 1, false), x, th::Chunks::whole(), th::Chunks::whole(), &run, staging64);
    check_windowed("ArgMax of [0, 5]", ref::arg_extreme(x, true, 1, true, false), a);
    const th::Result h = th::run(arg_node("Hardmax", x, 0, false), x, th::Chunks::whole(), th::Chunks::whole(), &run, staging64);
    check_windowed("Hardmax of [0, 5]", ref::hardmax_along_axis(x, 0), h);
  }

  SECTION("the threshold: state of exactly window_above_bytes stays whole, one byte more is windowed") {
    ref::Tensor x = th::make_tensor(DType::Float32, {1000, 7}, {});
    tv::Rng rng(24);
    x.bits = tr::random_values(DType::Float32, 7000, rng);
    const tb::Node node = arg_node("ArgMax", x, 1, false);  // 1000 states of 4 + 4 bytes
    for (int64_t above : {8000, 7999}) {
      th::Window w;
      w.staging_bytes = 64, w.window_above_bytes = above;
      const th::Result r = th::run(node, x, th::Chunks::fixed(INT64_MAX), th::Chunks::whole(), &run, w);
      check_windowed("window above " + std::to_string(above), ref::arg_extreme(x, true, 1, true, false), r);
      CHECK(r.windowed == (above == 7999));
      CHECK(r.held_states == (above == 7999 ? 4 : 1000));  // ceil(16 / 7) + 1 = 4 rows
    }
    // Without a staging size, state is whole whatever its size.
    REQUIRE(run.start(th::plan_of(node)).is_ok());
    CHECK_FALSE(run.windowed());
    CHECK(run.held_states() == 1000);
  }
}
