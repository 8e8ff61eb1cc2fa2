// The wasm edge: converts, calls the core, hands back a status. Nothing here knows ONNX.
// Every function returns 0 on success or 1 with lastError() set; no C++ exception crosses.
#include <emscripten/bind.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "core/half.h"
#include "exec/execution.h"
#include "kernels/l1_geometry.h"
#include "ops/resolve.h"
#include "ops/schema.h"
#include "wire/plan_cache.h"
#include "wire/wire.h"

#if !defined(__wasm_simd128__)
#error "build the wasm module with -msimd128"
#endif

namespace {

// Response layout written by prepare(): identity flag, output dtype, output count, rank, dims;
// then, at kHardmaxWords, the step (outer, reduce, inner) and, for Hardmax plans whose one-hot
// the caller builds (else 0: see writes_one_hot), the address of the int32 winners (one per
// outer x inner) it is built from;
// then, at kTileWidthWord, the column tile width for the caller's staging buffer (0: stream the
// input in row-major order; see ox::column_tile_width) and the rows of each part of a tile
// (ox::column_tile_part_rows); at kWindowWord, 1 when the state is
// windowed (ox::Execution): the caller reads the outputs that are final after each feed, before
// the next; feed() and feed_tile() keep the two words after it current: the count of final states
// and the state in the window's slot 0 (Hardmax winners are read from there). At kGatherWord, the
// number of blocks when the plan is fed gathered (ox::Execution::feed_gathered), else 0; then the
// address of the blocks' input offsets (doubles) and the next window (ox::GatherWindow: offset,
// runs, length, stride), kept current by feed_gathered().
constexpr int kHardmaxWords = 4 + ox::kMaxRank;
constexpr int kTileWidthWord = kHardmaxWords + 4;
constexpr int kWindowWord = kTileWidthWord + 2;
constexpr int kGatherWord = kWindowWord + 3;
constexpr int kResponseWords = kGatherWord + 6;

double g_request_words[ox::kMaxWireWords];
double g_response_words[kResponseWords];
ox::PlanCache g_plans;      // a request repeating one of the last 8 skips decoding and validation
ox::NodeRequest g_request;  // node_label()'s
ox::Execution g_execution;
std::string g_last_error;
bool g_ready = false;  // a successful prepare() whose output can be read

int fail(std::string message) {
  g_last_error = std::move(message);
  return 1;
}

void report_window() {
  g_response_words[kWindowWord + 1] = static_cast<double>(g_execution.final_states());
  g_response_words[kWindowWord + 2] = static_cast<double>(g_execution.window_first());
}

void report_gather() {
  const ox::GatherWindow w = g_execution.next_gather();
  g_response_words[kGatherWord + 2] = static_cast<double>(w.offset);
  g_response_words[kGatherWord + 3] = static_cast<double>(w.runs);
  g_response_words[kGatherWord + 4] = static_cast<double>(w.length);
  g_response_words[kGatherWord + 5] = static_cast<double>(w.stride);
}

// Whether a Hardmax plan's one-hot is written here (zeroed, then a 1 per winner, and read out as
// other outputs are) rather than left to the caller, who builds it in JS from the winners in a
// zeroed new array: here each output byte is written twice (zeroed, then copied out), there each
// winner costs 1.3-2.3 ns of JS. Dense winners pay here: a row of at most 64 bytes. End to end
// (bench/ab.mjs against the JS one-hot, three processes), staged: float32 [4,1024] over axis 0
// 1.16-1.31x, [64,8,64] over axis 1 1.23-1.26x, [512,7] 1.00-1.25x, [256,16] 0.93-1.08x, float16
// [512,7] 1.09-1.19x, float64 [4,1024] over axis 0 1.11-1.13x, [512,7] level, float32 [2,8192]
// over axis 0 1.62-1.70x, bfloat16 [4,2048] 1.41-1.47x, float16 rows of 32 and float64 rows of 8
// (the bound) level; read out in parts: float32 [131072,7] 1.08-1.20x, float16 1.27-1.31x,
// [1366,3,256] over axis 1 1.43-1.50x, [16,4,16384] 1.40-1.43x, float32 [65536,16] and float64
// [65536,8] 1.06x. Wider rows lost (a vector one-hot writer: float32 rows of 64 0.94x,
// [16,64,64] over axis 1 0.70x). Not for a windowed state, whose final states are not output
// ranges, nor where an outer slice outgrows the staging buffer: each part read would visit all
// its rows' states once per reduced row (float32 [4,262144] over axis 0 ran 0.28x). +0.4 KB gzipped.
bool writes_one_hot(const ox::Plan& plan, const ox::Execution& execution, double staging_bytes) {
  const double row = static_cast<double>(plan.reduce * ox::dtype_size(plan.output_dtype));
  return plan.kind == ox::PlanKind::Hardmax && row <= 64 && row * static_cast<double>(plan.inner) <= staging_bytes &&
         !execution.windowed();
}
// Set by prepare(): a Hardmax plan whose one-hot the caller builds from the winners (not writes_one_hot).
bool g_caller_builds_one_hot = false;
// The plan cache's entry the last successful prepare() started g_execution with and wrote the
// response words for (null after a failed one).
const ox::Plan* g_started_plan = nullptr;

int prepare(int word_count, double staging_bytes) {
  g_ready = false;
  if (word_count < 0 || word_count > ox::kMaxWireWords) return fail("onnx-extrema: request too large");
  ox::Status s = g_plans.resolve(g_request_words, static_cast<size_t>(word_count));
  if (!s.is_ok()) return fail(s.message());
  const ox::Plan& plan = g_plans.plan();
  // The plan the last call started, again (a model's node, call after call), is only restarted.
  bool restarted = false;
  s = g_execution.start_or_restart(plan, g_plans.hit() && &plan == g_started_plan, static_cast<int64_t>(staging_bytes),
                                   ox::kWindowAboveBytes, &restarted);
  if (!s.is_ok()) {  // out of memory: name the node like every other error, and let go of what was got
    g_started_plan = nullptr;
    g_execution.trim(4 << 20);
    std::string label;
    return fail(ox::node_label(g_plans.request(), &label).is_ok() ? label + ": " + s.message() : s.message());
  }
  // Restarted: its response words still stand (only a windowed plan's change during a call, and
  // restart() refuses those).
  if (restarted) {
    g_ready = true;
    return 0;
  }
  g_response_words[0] = plan.kind == ox::PlanKind::Identity ? 1 : 0;
  g_response_words[1] = static_cast<double>(plan.output_dtype);
  g_response_words[2] = static_cast<double>(plan.output_count);
  g_response_words[3] = plan.output_rank;
  for (int d = 0; d < plan.output_rank; ++d) g_response_words[4 + d] = static_cast<double>(plan.output_dims[d]);
  g_response_words[kHardmaxWords] = static_cast<double>(plan.outer);
  g_response_words[kHardmaxWords + 1] = static_cast<double>(plan.reduce);
  g_response_words[kHardmaxWords + 2] = static_cast<double>(plan.inner);
  g_caller_builds_one_hot = plan.kind == ox::PlanKind::Hardmax && !writes_one_hot(plan, g_execution, staging_bytes);
  g_response_words[kHardmaxWords + 3] =
      g_caller_builds_one_hot ? static_cast<double>(reinterpret_cast<uintptr_t>(g_execution.winners())) : 0;
  const int64_t tile_width = ox::column_tile_width(plan, static_cast<int64_t>(staging_bytes));
  g_response_words[kTileWidthWord] = static_cast<double>(tile_width);
  g_response_words[kTileWidthWord + 1] =
      tile_width > 0 ? static_cast<double>(ox::column_tile_part_rows(plan, tile_width, static_cast<int64_t>(staging_bytes))) : 0;
  g_response_words[kWindowWord] = g_execution.windowed() ? 1 : 0;
  g_response_words[kWindowWord + 1] = g_response_words[kWindowWord + 2] = 0;
  g_response_words[kGatherWord] = 0;
  if (g_execution.gathered()) {
    g_response_words[kGatherWord] = static_cast<double>(g_execution.gather_blocks());
    g_response_words[kGatherWord + 1] = static_cast<double>(reinterpret_cast<uintptr_t>(g_execution.gather_offsets()));
    report_gather();
  }
  g_started_plan = &plan;
  g_ready = true;
  return 0;
}

int feed(uintptr_t data, double count) {
  if (!g_ready || !(count >= 0 && count <= 9e15) || !g_execution.feed_accepts(static_cast<int64_t>(count)))
    return fail("onnx-extrema: input fed out of order (internal error)");
  g_execution.feed(reinterpret_cast<const void*>(data), static_cast<int64_t>(count));
  if (g_execution.windowed()) report_window();
  return 0;
}

// A column tile at `data`, or part of one: columns [first_column, first_column + width) of reduced
// rows [first_row, first_row + rows) of outer slice `outer_index`, each row `row_stride` elements
// after the last: packed in the staging buffer (row_stride = width; response word kTileWidthWord
// gives the width, and the caller splits the rows where they outgrow its buffer), or read where
// they lie in an input already in wasm memory (row_stride = inner).
int feed_tile(uintptr_t data, double outer_index, double first_column, double width, double first_row, double rows,
              double row_stride) {
  if (!g_ready ||
      !(outer_index >= 0 && first_column >= 0 && width >= 0 && first_row >= 0 && rows >= 0 &&
        outer_index + first_column + width + first_row + rows <= 9e15) ||
      !(row_stride == width || row_stride == static_cast<double>(g_execution.plan().inner)) ||
      !g_execution.tile_is_next(static_cast<int64_t>(outer_index), static_cast<int64_t>(first_column),
                                static_cast<int64_t>(width), static_cast<int64_t>(first_row), static_cast<int64_t>(rows)))
    return fail("onnx-extrema: input fed out of order (internal error)");
  g_execution.feed_tile(reinterpret_cast<const void*>(data), static_cast<int64_t>(outer_index),
                        static_cast<int64_t>(first_column), static_cast<int64_t>(width), static_cast<int64_t>(first_row),
                        static_cast<int64_t>(rows), static_cast<int64_t>(row_stride));
  if (g_execution.windowed()) report_window();
  return 0;
}

// The next gathered window (response words at kGatherWord), packed at `data`.
int feed_gathered(uintptr_t data) {
  if (!g_ready || !g_execution.gathered() || g_execution.fed() >= g_execution.plan().input_count)
    return fail("onnx-extrema: input fed out of order (internal error)");
  g_execution.feed_gathered(reinterpret_cast<const void*>(data));
  report_window();
  report_gather();
  return 0;
}

// (The caller builds a sparse Hardmax's one-hot itself from the winners: see writes_one_hot.)
int write_output(uintptr_t destination, double begin, double count) {
  if (!g_ready || !(begin >= 0 && count >= 0 && begin + count <= 9e15) || g_caller_builds_one_hot ||
      !g_execution.can_write(static_cast<int64_t>(begin), static_cast<int64_t>(count)))
    return fail("onnx-extrema: output read out of order (internal error)");
  g_execution.write_output(reinterpret_cast<void*>(destination), static_cast<int64_t>(begin), static_cast<int64_t>(count));
  return 0;
}

// After a call: working memory above this stays allocated for the next call; more is freed.
void finish() {
  g_ready = false;
  g_execution.trim(4 << 20);
}

// The whole call in one crossing when the input is already in wasm memory (resident, or small
// and copied into the staging buffer): prepare, feed `input_count` elements from `input`, and
// write the output to `output` if it fits in `capacity` bytes. Returns 0 done (finished),
// 1 error (lastError), 2 prepared only (identity plan, or `input` 0: the caller streams),
// 3 prepared and fed, output left to the caller: larger than `capacity` (read in parts), or a
// Hardmax one-hot the caller builds (writes_one_hot).
// A windowed plan is only prepared: the caller feeds it in parts and reads outputs in between.
int run(int word_count, uintptr_t input, double input_count, uintptr_t output, double capacity) {
  if (prepare(word_count, capacity) != 0) return 1;
  const ox::Plan& plan = g_execution.plan();
  if (plan.kind == ox::PlanKind::Identity || input == 0 || g_execution.windowed()) return 2;
  if (feed(input, input_count) != 0) return 1;
  if (g_caller_builds_one_hot) return 3;
  const double count = static_cast<double>(plan.output_count);
  if (count * ox::dtype_size(plan.output_dtype) > capacity) return 3;
  if (write_output(output, 0, count) != 0) return 1;
  finish();
  return 0;
}

// For messages about a malformed tensor-like: decodes a request and resolves only its op and
// version. Returns the label, or the op/opset problem as an error.
int node_label(int word_count) {
  ox::Status s = word_count >= 0 && word_count <= ox::kMaxWireWords
                     ? ox::decode_request(g_request_words, static_cast<size_t>(word_count), &g_request)
                     : ox::Status::error("onnx-extrema: request too large");
  std::string label;
  if (s.is_ok()) s = ox::node_label(g_request, &label);
  g_last_error = s.is_ok() ? label : s.message();
  return s.is_ok() ? 0 : 1;
}

// 1 when ReduceMax at this opset takes axes as an input; `opset_given` 0 means the newest.
int axes_is_input(int opset_given, double opset) {
  ox::Value v;
  if (opset_given) {
    v.kind = ox::ValueKind::Number;
    v.count = 1;
    v.values[0] = opset;
  }
  return ox::reduce_axes_is_input(v) ? 1 : 0;
}

// ---- kernel-only timing for bench/kernels.mjs (no wire, no copies, no JS in the loop) ----------
// Only in the bench build of the module (OX_BENCH_HOOKS: CMake's ox_wasm_bench), never in the
// shipped one: 0.9 KB of its gzipped size.
#if defined(OX_BENCH_HOOKS)

// Runs a plan `reps` times over input already in wasm memory: start() (state reset) and feed()
// in chunks of `chunk` elements (0 = all at once), then, when `out` is not 0, write_output() of
// the whole output there. Returns 0, or 1 with lastError() set.
int bench_kernel(int kind, int dtype, int select_last, double outer, double reduce, double inner, uintptr_t in,
                 double chunk, uintptr_t out, int reps) {
  ox::Plan plan;
  plan.kind = static_cast<ox::PlanKind>(kind);
  plan.select_last = select_last != 0;
  plan.input_dtype = plan.output_dtype = static_cast<ox::DType>(dtype);
  if (plan.kind == ox::PlanKind::ArgMax || plan.kind == ox::PlanKind::ArgMin) plan.output_dtype = ox::DType::Int64;
  plan.outer = static_cast<int64_t>(outer);
  plan.reduce = static_cast<int64_t>(reduce);
  plan.inner = static_cast<int64_t>(inner);
  plan.input_count = plan.outer * plan.reduce * plan.inner;
  plan.output_count = plan.kind == ox::PlanKind::Hardmax ? plan.input_count : plan.outer * plan.inner;
  const int64_t step = chunk > 0 ? static_cast<int64_t>(chunk) : plan.input_count;
  const int size = ox::dtype_size(plan.input_dtype);
  static ox::Execution run;
  for (int r = 0; r < reps; ++r) {
    ox::Status s = run.start(plan);
    if (!s.is_ok()) return fail(s.message());
    for (int64_t at = 0; at < plan.input_count; at += step)
      run.feed(reinterpret_cast<const char*>(in) + at * size, plan.input_count - at < step ? plan.input_count - at : step);
    if (out) run.write_output(reinterpret_cast<void*>(out), 0, plan.output_count);
  }
  return 0;
}

// The yardstick loops below: `pass` over the `count` floats at `in`, `reps` times (a sum of its
// results, so that no pass is optimized away).
typedef float F32x4 __attribute__((vector_size(16)));
inline F32x4 load_f32x4(const float* p) {
  F32x4 v;
  std::memcpy(&v, p, 16);
  return v;
}
inline F32x4 pmax(F32x4 a, F32x4 b) { return a < b ? b : a; }  // f32x4.pmax
template <class Pass>
float bench_passes(uintptr_t in, double count, int reps, Pass pass) {
  float result = 0;
  for (int r = 0; r < reps; ++r) result += pass(reinterpret_cast<const float*>(in), static_cast<int64_t>(count));
  return result;
}

// The plain streaming-max loop the kernels are measured against: f32x4.pmax with four
// accumulators (no NaN handling: the bandwidth yardstick).
float bench_stream_max(uintptr_t in, double count, int reps) {
  return bench_passes(in, count, reps, [](const float* x, int64_t n) {
    F32x4 a[4];
    for (auto& v : a) v = load_f32x4(x);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
      for (int u = 0; u < 4; ++u) a[u] = pmax(a[u], load_f32x4(x + i + 4 * u));
    for (; i < n; ++i) a[0][0] = a[0][0] < x[i] ? x[i] : a[0][0];
    for (int u = 1; u < 4; ++u) a[0] = pmax(a[0], a[u]);
    return a[0][0] + a[0][1] + a[0][2] + a[0][3];
  });
}

// The same max with the cheapest NaN detector this project knows, as the float row kernels have
// it (kernels/lanes.h, FloatLanes::Summary): a running sum beside the pmax, both merged as trees
// of 8 vectors. No exact float kernel can run faster than this loop; in cache on V8 it reads
// about 0.65 of bench_stream_max's GB/s (two SIMD ops a vector where that loop has one).
float bench_guarded_max(uintptr_t in, double count, int reps) {
  return bench_passes(in, count, reps, [](const float* x, int64_t n) {
    F32x4 m = load_f32x4(x), s = m;
    int64_t i = 0;
    for (; i + 32 <= n; i += 32) {
      const auto at = [&](int u) { return load_f32x4(x + i + 4 * u); };
      const F32x4 v0 = at(0), v1 = at(1), v2 = at(2), v3 = at(3), v4 = at(4), v5 = at(5), v6 = at(6), v7 = at(7);
      m = pmax(m, pmax(pmax(pmax(v0, v1), pmax(v2, v3)), pmax(pmax(v4, v5), pmax(v6, v7))));
      s += ((v0 + v1) + (v2 + v3)) + ((v4 + v5) + (v6 + v7));
    }
    for (; i < n; ++i) m[0] = m[0] < x[i] ? x[i] : m[0], s[0] += x[i];
    return m[0] + m[1] + m[2] + m[3] + s[0];
  });
}
#endif  // OX_BENCH_HOOKS

std::string last_error() { return g_last_error; }

// The attribute names the operators know (ops/schema.cc), comma-separated: the wrapper reads these
// through the getters and prototypes of an attributes object that is not a plain one (js/engine.js).
std::string attribute_names() {
  std::string names;
  for (int i = 0; i < ox::kAttrCount; ++i) (names += i ? "," : "") += ox::attr_name(static_cast<ox::Attr>(i));
  return names;
}
uintptr_t request_address() { return reinterpret_cast<uintptr_t>(g_request_words); }
int request_capacity() { return ox::kMaxWireWords; }
uintptr_t response_address() { return reinterpret_cast<uintptr_t>(g_response_words); }

}  // namespace

EMSCRIPTEN_BINDINGS(onnx_extrema) {
  emscripten::function("_prepare", &prepare);
  emscripten::function("_feed", &feed);
  emscripten::function("_feedTile", &feed_tile);
  emscripten::function("_feedGathered", &feed_gathered);
  emscripten::function("_writeOutput", &write_output);
  emscripten::function("_finish", &finish);
  emscripten::function("_run", &run);
  emscripten::function("_lastError", &last_error);
  emscripten::function("_attributeNames", &attribute_names);
  emscripten::function("_nodeLabel", &node_label);
  emscripten::function("_axesIsInput", &axes_is_input);
#if defined(OX_BENCH_HOOKS)
  emscripten::function("_benchKernel", &bench_kernel);
  emscripten::function("_benchStreamMax", &bench_stream_max);
  emscripten::function("_benchGuardedMax", &bench_guarded_max);
#endif
  emscripten::constant("WIRE_VERSION", ox::kWireVersion);
  emscripten::constant("MAX_RANK", ox::kMaxRank);
  emscripten::constant("MAX_LISTED", ox::kMaxListed);
  emscripten::constant("MAX_INPUTS_LISTED", ox::kMaxInputsListed);
  emscripten::constant("MAX_ATTRS_LISTED", ox::kMaxAttrsListed);
  emscripten::constant("MAX_NAME_LENGTH", ox::kMaxNameLength);
  emscripten::constant("HARDMAX_WORDS", kHardmaxWords);
  emscripten::constant("TILE_WIDTH_WORD", kTileWidthWord);
  emscripten::constant("WINDOW_WORD", kWindowWord);
  emscripten::constant("GATHER_WORD", kGatherWord);
  emscripten::constant("FLOAT16_ONE", ox::Float16Format::kOne);
  emscripten::constant("BFLOAT16_ONE", ox::BFloat16Format::kOne);
  emscripten::constant("CACHE_LINE_BYTES", static_cast<int>(ox::kL1LineBytes));
  emscripten::function("_requestAddress", &request_address);
  emscripten::function("_requestCapacity", &request_capacity);
  emscripten::function("_responseAddress", &response_address);
}
