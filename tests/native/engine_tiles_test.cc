// Column tiles (Execution::feed_tile), the staged path of wide column plans: the input of each
// outer slice arrives as tiles of columns [c, c + width) of every reduced row, packed row after
// row. Checked against the row-major feed of the same call and against the reference, for every
// dtype of ArgMax/ArgMin (both select_last values), Hardmax and single-axis ReduceMax, with tile
// widths that do and do not divide inner, NaNs at tile edges; plus the tile width the core picks
// (column_tile_width) and the order rules the bindings rely on (tile_is_next, between_tiles).
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>

#include "harness.h"
#include "staging_model.h"
#include "step_plan.h"

using ox::DType;
using ox::PlanKind;

namespace {

constexpr int64_t kStagingBytes = 256 * 1024;  // js/session.js's staging buffer

const std::vector<DType> kArgTypes = {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16,
                                      DType::Int8,    DType::Uint8,   DType::Int16,   DType::Uint16,
                                      DType::Int32,   DType::Uint32,  DType::Int64,   DType::Uint64};
const std::vector<DType> kReduceTypes = {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16,
                                         DType::Int8,    DType::Uint8,   DType::Int32,   DType::Uint32,
                                         DType::Int64,   DType::Uint64,  DType::Bool};
const std::vector<DType> kHardmaxTypes = {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16};

// A call along axis 1 of x = [outer, reduce, inner] (every op here reduces that one axis).
struct Call {
  tb::Node node{""};
  ref::Expected expected;
  std::string text;
};

Call make_call(const std::string& op, const ref::Tensor& x, bool last, bool keepdims) {
  Call c;
  c.text = op + " " + ox::dtype_name(x.dtype) + " dims " + th::dims_text(x.dims);
  if (op == "ReduceMax") {
    c.node = tb::Node(op).at(20).in(tb::tensor(x.dtype, x.dims)).in(tb::axes_input({1}));
    c.node.attr("keepdims", keepdims ? 1.0 : 0.0);
    c.expected = ref::reduce_max(x, {1}, keepdims);
    c.text += keepdims ? " keepdims=1" : " keepdims=0";
  } else if (op == "Hardmax") {
    c.node = tb::Node(op).at(13).in(tb::tensor(x.dtype, x.dims)).attr("axis", 1.0);
    c.expected = ref::hardmax_along_axis(x, 1);
  } else {
    c.node = tb::Node(op).at(13).in(tb::tensor(x.dtype, x.dims)).attr("axis", 1.0);
    c.node.attr("keepdims", keepdims ? 1.0 : 0.0).attr("select_last_index", last ? 1.0 : 0.0);
    c.expected = ref::arg_extreme(x, op == "ArgMax", 1, keepdims, last);
    c.text += last ? " select_last_index=1" : "";
  }
  return c;
}

// Values with ties, specials and, for floating types, NaNs (sometimes all NaN); then NaNs or the
// type's highest value planted in the columns on both sides of each tile edge.
std::vector<uint64_t> make_values(DType t, int64_t outer, int64_t reduce, int64_t inner, int64_t width,
                                  tv::Rng& rng) {
  std::vector<uint64_t> bits(static_cast<size_t>(outer * reduce * inner));
  const std::vector<uint64_t> nans = tv::nan_patterns(t);
  const uint64_t style = rng.below(10);
  for (uint64_t& b : bits) {
    if (style == 0 && !nans.empty()) b = rng.pick(nans);
    else if (style <= 3) b = tv::narrow_value(t, rng);
    else b = tv::mixed_value(t, rng, style <= 6 ? 3 : 20);
  }
  for (int64_t c = width; c < inner; c += width)
    for (int64_t column : {c - 1, c}) {
      const int64_t o = rng.between(0, outer - 1), r = rng.between(0, reduce - 1);
      const bool nan = !nans.empty() && rng.chance(50);
      bits[static_cast<size_t>((o * reduce + r) * inner + column)] = nan ? rng.pick(nans) : tv::highest(t);
    }
  return bits;
}

// The output of `plan` over x fed as tiles of `width` columns (a narrower last tile when width does
// not divide inner), each tile's rows in parts of `part_rows` (the last part shorter); outer slices
// listed in `flat_slices` are fed row-major instead, which the order rules allow at slice
// boundaries. Each part sits in its own exactly sized heap block.
std::vector<uint64_t> run_tiled(const ox::Plan& plan, const ref::Tensor& x, int64_t width, int64_t part_rows,
                                const std::vector<bool>& flat_slices, bool in_place, ox::Execution& run) {
  REQUIRE(run.start(plan).is_ok());
  const int size = ref::element_size(x.dtype);
  const std::vector<uint8_t> bytes = tv::pack(x.dtype, x.bits);
  const int64_t reduce = plan.reduce, inner = plan.inner;
  for (int64_t o = 0; o < plan.outer; ++o) {
    const uint8_t* slice = bytes.data() + o * reduce * inner * size;
    if (flat_slices[static_cast<size_t>(o)]) {
      REQUIRE_FALSE(run.between_tiles());
      run.feed(slice, reduce * inner);
      continue;
    }
    for (int64_t c = 0; c < inner; c += width) {
      const int64_t w = std::min(width, inner - c);
      REQUIRE(run.tile_is_next(o, c, w, 0, std::min(part_rows, reduce)));
      if (c > 0) REQUIRE_FALSE(run.tile_is_next(o, 0, w));
      for (int64_t r0 = 0; r0 < reduce; r0 += part_rows) {
        const int64_t rows = std::min(part_rows, reduce - r0);
        if (r0 > 0) {  // inside the tile: its next rows only, nothing final yet
          REQUIRE(run.tile_is_next(o, c, w, r0, rows));
          REQUIRE_FALSE(run.tile_is_next(o, c, w, 0, rows));
          REQUIRE_FALSE(run.feed_accepts(1));
          REQUIRE(run.fed() == (o * inner + c) * reduce);
        }
        if (in_place)  // the rows where they lie in the whole input, inner elements apart (a wasmTensor's)
          run.feed_tile(slice + (r0 * inner + c) * size, o, c, w, r0, rows, inner);
        else
          run.feed_tile(stage::pack_tile(bytes.data(), plan, size, o, c, w, r0, rows).get(), o, c, w, r0, rows);
      }
      REQUIRE(run.between_tiles() == (c + w < inner));
    }
  }
  REQUIRE(run.fed() == plan.input_count);
  const int out_size = ref::element_size(plan.output_dtype);
  std::vector<uint8_t> out(static_cast<size_t>(plan.output_count * out_size) + 1);
  run.write_output(out.data(), 0, plan.output_count);
  return tv::unpack(plan.output_dtype, out.data(), plan.output_count);
}

ox::Plan resolved(const tb::Node& node) {
  ox::Plan plan;
  const ox::Status s = ox::resolve(tb::to_request(node), &plan);
  INFO(s.message());
  REQUIRE(s.is_ok());
  return plan;
}

// Tiled against row-major (random chunks) against the reference, for one shape, tile width and
// rows per part.
void check_tiled(const Call& call, const ref::Tensor& x, int64_t width, int64_t part_rows, tv::Rng& rng,
                 ox::Execution& run) {
  const bool in_place = rng.chance(50);
  INFO(call.text << " tile width " << width << ", parts of " << part_rows << " rows" << (in_place ? ", in place" : ", packed"));
  const ox::Plan plan = resolved(call.node);
  REQUIRE(plan.prefix_count == 0);
  // (An axis of one element makes one row of all the columns: outer 1, inner dims[0] * dims[2].)
  REQUIRE(plan.inner == (x.dims[1] == 1 ? x.dims[0] * x.dims[2] : x.dims[2]));
  std::vector<bool> flat(static_cast<size_t>(plan.outer));
  for (size_t o = 0; o < flat.size(); ++o) flat[o] = rng.chance(20);
  const std::vector<uint64_t> tiled = run_tiled(plan, x, width, part_rows, flat, in_place, run);
  const th::Result rows = th::run(call.node, x, th::Chunks::random(rng.next()));
  REQUIRE(rows.status.is_ok());
  CHECK(th::mismatch(call.expected, rows.output) == "");
  ref::Tensor got = rows.output;
  got.bits = tiled;
  CHECK(th::mismatch(call.expected, got) == "");
  // Indices and one-hots are exact; a ReduceMax NaN may differ in payload, a zero in sign.
  if (plan.kind != PlanKind::ReduceMax) CHECK(tiled == rows.output.bits);
}

void random_tiles(const std::string& op, const std::vector<DType>& types, uint64_t seed) {
  tv::Rng rng(seed);
  ox::Execution shared;  // reused across calls, as the wasm module reuses its one Execution
  for (int i = 0; i < 400; ++i) {
    const DType t = types[static_cast<size_t>(i) % types.size()];
    // (ReduceMax drops a reduced axis of 1: its plan is the identity.)
    const int64_t outer = rng.between(1, 3), reduce = rng.between(op == "ReduceMax" ? 2 : 1, rng.chance(20) ? 70 : 9);
    const int64_t inner = rng.chance(15) ? rng.between(2, 8) : rng.between(9, 300);
    const uint64_t form = rng.below(6);  // tile widths: any, whole tiles, one column, all columns
    const int64_t width = form == 0 ? 1 : form == 1 ? inner : form == 2 ? std::max<int64_t>(1, inner / 3)
                                                                         : rng.between(1, inner);
    ref::Tensor x = th::make_tensor(t, {outer, reduce, inner}, {});
    x.bits = make_values(t, outer, reduce, inner, width, rng);
    const Call call = make_call(op, x, rng.chance(50), rng.chance(50));
    const int64_t part_rows = rng.chance(50) ? reduce : rng.between(1, reduce);  // whole, or rows in parts
    check_tiled(call, x, width, part_rows, rng, shared);
  }
}

}  // namespace

TEST_CASE("column tiles: ArgMax and ArgMin, every dtype, against row-major feeding and the reference") {
  random_tiles("ArgMax", kArgTypes, 71);
  random_tiles("ArgMin", kArgTypes, 72);
}

TEST_CASE("column tiles: Hardmax and single-axis ReduceMax, every dtype") {
  random_tiles("Hardmax", kHardmaxTypes, 73);
  random_tiles("ReduceMax", kReduceTypes, 74);
}

TEST_CASE("column tiles at the width the core picks, with a narrower last tile") {
  tv::Rng rng(75);
  ox::Execution run;
  // float32 [2, 3, 70000]: 21840-column tiles, the last of each slice 4480 wide; float16
  // [1, 7, 50000]: 18720, then 12560.
  struct Shape {
    DType dtype;
    std::vector<int64_t> dims;
    int64_t width;
  };
  for (const Shape& shape : {Shape{DType::Float32, {2, 3, 70000}, 21840}, Shape{DType::Float16, {1, 7, 50000}, 18720},
                             Shape{DType::BFloat16, {1, 7, 50000}, 18720},
                             Shape{DType::Float32, {1, 16, 40000}, 4080},  // 16 KiB rows: a tile narrower
                             // rows that do not fit: tiles of 16 KiB rows (a tile narrower), in parts of 14 rows
                             Shape{DType::Float32, {1, 40, 40000}, 4080}, Shape{DType::Float16, {1, 40, 50000}, 8176}}) {
    const DType t = shape.dtype;
    const std::vector<int64_t>& dims = shape.dims;
    const int64_t width = shape.width;
    ref::Tensor x = th::make_tensor(t, dims, {});
    x.bits = make_values(t, dims[0], dims[1], dims[2], width, rng);
    for (const std::string op : {"ArgMax", "ArgMin", "Hardmax"}) {
      const Call call = make_call(op, x, op == "ArgMin", false);
      const ox::Plan plan = resolved(call.node);
      REQUIRE(ox::column_tile_width(plan, kStagingBytes) == width);
      check_tiled(call, x, width, ox::column_tile_part_rows(plan, width, kStagingBytes), rng, run);
    }
  }
}

TEST_CASE("column_tile_width: tiles only where a slice's state outgrows the cache and tiles are wide") {
  using ox::column_tile_width;
  // The segmentation map: 262144 / (21 * 4) = 3120.8 columns; float16 6241.5 -> 6240 (multiples of 16).
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 1, 21, 262144), kStagingBytes) == 3120);
  CHECK(column_tile_width(step_plan(PlanKind::Hardmax, DType::Float32, false, 1, 21, 262144), kStagingBytes) == 3120);
  CHECK(column_tile_width(step_plan(PlanKind::ArgMin, DType::Float16, false, 1, 21, 262144), kStagingBytes) == 6240);
  CHECK(column_tile_width(step_plan(PlanKind::ReduceMax, DType::Float32, false, 4, 21, 262144), kStagingBytes) == 3120);
  // State of exactly 64 KiB per slice (8192 x (4 + 4)) stays in cache: row-major; one more column tiles.
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 1, 21, 8192), kStagingBytes) == 0);
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 1, 21, 8193), kStagingBytes) == 3120);
  // ReduceMax keeps no index: 16384 float32 columns are 64 KiB.
  CHECK(column_tile_width(step_plan(PlanKind::ReduceMax, DType::Float32, false, 1, 21, 16384), kStagingBytes) == 0);
  CHECK(column_tile_width(step_plan(PlanKind::ReduceMax, DType::Float32, false, 1, 21, 16385), kStagingBytes) == 3120);
  // Tile rows of 8 KiB and more take every reduced row at once: 32 rows of 2048 float32 (one SIMD
  // tile narrower, below).
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 1, 32, 100000), kStagingBytes) == 2032);
  // More rows than fit at 8 KiB (33 rows of 1984, 64 of 1024, 64 rows of 4096 uint8): tiles of 16
  // KiB rows (a tile narrower, 16 KiB being a set span), fed in parts.
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 1, 33, 100000), kStagingBytes) == 4080);
  CHECK(column_tile_width(step_plan(PlanKind::ArgMin, DType::Float32, false, 2, 64, 65536), kStagingBytes) == 4080);
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Uint8, false, 1, 64, 300000), kStagingBytes) == 16368);
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 1, 150, 65536), kStagingBytes) == 4080);
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 1, 150, 4096), kStagingBytes) == 0);  // state in cache
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 1, 150, 65536), 8192) == 2032);  // a small buffer
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Uint8, false, 1, 21, 262144), kStagingBytes) == 12480);
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float64, false, 1, 21, 262144), kStagingBytes) == 1552);
  // Tile rows a multiple of 4 KiB apart would share an L1 set: one SIMD tile (16 elements) narrower
  // where there are more of them than the set has ways (8).
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 1, 8, 262144), kStagingBytes) == 8192);
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 1, 16, 262144), kStagingBytes) == 4080);
  CHECK(column_tile_width(step_plan(PlanKind::ReduceMax, DType::Float32, false, 1, 16, 262144), kStagingBytes) == 4080);
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Uint8, false, 1, 32, 262144), kStagingBytes) == 8176);
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float64, false, 1, 16, 262144), kStagingBytes) == 2032);
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float16, false, 1, 32, 262144), kStagingBytes) == 4080);
  // A tile as wide as the slice is the row-major feed.
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 3, 1, 70000), kStagingBytes) == 65536);
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 3, 1, 65536), kStagingBytes) == 0);
  // Rows, prefixes, identity and empty inputs stream row-major; so does a call without staging.
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 100000, 21, 1), kStagingBytes) == 0);
  ox::Plan prefixed = step_plan(PlanKind::ReduceMax, DType::Float32, false, 1, 21, 262144);
  prefixed.prefix_count = 1, prefixed.prefix_extent[0] = 1;
  CHECK(column_tile_width(prefixed, kStagingBytes) == 0);
  CHECK(column_tile_width(step_plan(PlanKind::Identity, DType::Float32, false, 1, 21, 262144), kStagingBytes) == 0);
  ox::Plan empty = step_plan(PlanKind::ReduceMax, DType::Float32, false, 1, 21, 262144);
  empty.input_count = 0;
  CHECK(column_tile_width(empty, kStagingBytes) == 0);
  CHECK(column_tile_width(step_plan(PlanKind::ArgMax, DType::Float32, false, 1, 21, 262144), 0) == 0);
}

TEST_CASE("column_tile_part_rows: every reduced row where they fit, else as few equal parts as fit") {
  using ox::column_tile_part_rows;
  const auto parts = [](DType t, int64_t reduce, int64_t width) {
    return column_tile_part_rows(step_plan(PlanKind::ArgMax, t, false, 1, reduce, 300000), width, kStagingBytes);
  };
  CHECK(parts(DType::Float32, 21, 3120) == 21);  // 21 rows of 12480 bytes fit in 256 KiB
  CHECK(parts(DType::Float32, 32, 2032) == 32);
  CHECK(parts(DType::Float32, 33, 4080) == 11);  // 16 fit: 3 parts of 11
  CHECK(parts(DType::Float32, 150, 4080) == 15);  // 16 fit: 10 parts of 15
  CHECK(parts(DType::Float16, 40, 8176) == 14);  // 16 fit: 14 + 14 + 12
  CHECK(parts(DType::Uint8, 70, 16368) == 14);  // 16 fit: 5 parts of 14
  CHECK(parts(DType::Float64, 33, 2032) == 11);
  CHECK(parts(DType::Float32, 17, 4080) == 9);  // 16 fit: 9 + 8, not 16 + 1
  CHECK(column_tile_part_rows(step_plan(PlanKind::ArgMax, DType::Float32, false, 1, 150, 65536), 2032, 8192) == 1);
}

TEST_CASE("tile order: left to right, slices in order, row-major feeding only at slice boundaries") {
  ox::Execution run;
  const ox::Plan plan = step_plan(PlanKind::ArgMax, DType::Float32, false, 2, 3, 10);
  const std::vector<float> x(60, 1.0f);
  REQUIRE(run.start(plan).is_ok());
  CHECK(run.tile_is_next(0, 0, 4));
  CHECK(run.tile_is_next(0, 0, 10));
  CHECK_FALSE(run.tile_is_next(0, 0, 0));   // empty
  CHECK_FALSE(run.tile_is_next(0, 0, 11));  // past the slice
  CHECK_FALSE(run.tile_is_next(0, 4, 4));   // not where the input fed so far ends
  CHECK_FALSE(run.tile_is_next(1, 0, 4));
  CHECK_FALSE(run.tile_is_next(2, 0, 4));   // no such slice
  CHECK_FALSE(run.tile_is_next(-1, 0, 4));
  run.feed_tile(x.data(), 0, 0, 4);
  CHECK(run.between_tiles());
  CHECK(run.fed() == 12);
  CHECK(run.tile_is_next(0, 4, 6));
  CHECK_FALSE(run.tile_is_next(0, 4, 7));
  CHECK_FALSE(run.tile_is_next(0, 0, 4));
  run.feed_tile(x.data(), 0, 4, 6);
  CHECK_FALSE(run.between_tiles());
  CHECK(run.tile_is_next(1, 0, 3));
  run.feed(x.data(), 30);  // slice 1 row-major
  CHECK(run.fed() == 60);
  CHECK_FALSE(run.tile_is_next(1, 0, 3));

  // Row-major feeding that stops inside a slice: no tile may follow, even where the count matches
  // a tile boundary (6 elements = columns [0, 2) of three rows).
  REQUIRE(run.start(plan).is_ok());
  CHECK_FALSE(run.between_tiles());
  run.feed(x.data(), 6);
  CHECK_FALSE(run.tile_is_next(0, 2, 3));
  run.feed(x.data(), 24);
  CHECK(run.tile_is_next(1, 0, 10));  // a whole slice was fed: tiles may take over

  // A tile's rows in parts: each from where the last ended, nothing else in between, and its
  // states final (fed() counting them) only after its last rows.
  REQUIRE(run.start(plan).is_ok());
  CHECK(run.tile_is_next(0, 0, 4, 0, 2));
  CHECK_FALSE(run.tile_is_next(0, 0, 4, 1, 2));  // not from row 0
  CHECK_FALSE(run.tile_is_next(0, 0, 4, 0, 4));  // past the rows
  CHECK_FALSE(run.tile_is_next(0, 0, 4, 0, 0));
  run.feed_tile(x.data(), 0, 0, 4, 0, 2);
  CHECK(run.fed() == 0);
  CHECK_FALSE(run.between_tiles());
  CHECK_FALSE(run.feed_accepts(1));
  CHECK_FALSE(run.tile_is_next(0, 0, 4, 0, 1));  // the tile again from row 0
  CHECK_FALSE(run.tile_is_next(0, 4, 6, 0, 3));  // the next tile
  CHECK_FALSE(run.tile_is_next(0, 0, 5, 2, 1));  // another width
  CHECK_FALSE(run.tile_is_next(1, 0, 4, 2, 1));  // another slice
  CHECK_FALSE(run.tile_is_next(0, 0, 4, 1, 1));
  CHECK_FALSE(run.tile_is_next(0, 0, 4, 2, 2));
  CHECK(run.tile_is_next(0, 0, 4, 2, 1));
  run.feed_tile(x.data(), 0, 0, 4, 2, 1);
  CHECK(run.fed() == 12);
  CHECK(run.between_tiles());
  CHECK(run.tile_is_next(0, 4, 6, 0, 1));
  CHECK_FALSE(run.tile_is_next(0, 4, 6, 1, 1));

  // A call that stopped inside a tile (1 of its 3 rows fed) or between tiles: the module reuses one
  // Execution, so the next start() must forget where that call was.
  for (int64_t rows : {1, 3}) {
    INFO("abandoned after " << rows << " rows of the first tile");
    REQUIRE(run.start(plan).is_ok());
    run.feed_tile(x.data(), 0, 0, 4, 0, rows);
    REQUIRE(run.start(plan).is_ok());
    CHECK_FALSE(run.between_tiles());
    CHECK(run.feed_accepts(1));
    CHECK(run.tile_is_next(0, 0, 4, 0, 3));
  }

  // Plans without columns to tile.
  REQUIRE(run.start(step_plan(PlanKind::ArgMax, DType::Float32, false, 6, 10, 1)).is_ok());
  CHECK_FALSE(run.tile_is_next(0, 0, 1));
  ox::Plan prefixed = step_plan(PlanKind::ReduceMax, DType::Float32, false, 1, 3, 10);
  prefixed.prefix_count = 1, prefixed.prefix_extent[0] = 2, prefixed.input_count = 60;
  REQUIRE(run.start(prefixed).is_ok());
  CHECK_FALSE(run.tile_is_next(0, 0, 4));
  REQUIRE(run.start(step_plan(PlanKind::Identity, DType::Float32, false, 2, 3, 10)).is_ok());
  CHECK_FALSE(run.tile_is_next(0, 0, 4));
}
