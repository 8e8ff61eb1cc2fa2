// Fuzz target (a): arbitrary bytes -> doubles -> decode_request -> resolve (and node_label,
// reduce_axes_is_input), as the wasm module's _prepare/_nodeLabel/_axesIsInput see a request
// written into its scratch. Nothing may crash; every accepted request must give a self-consistent
// plan, and small plans are executed on one long-lived Execution (the module keeps one too).
//
// Input: first byte even -> the rest is raw little-endian doubles. Odd -> a token stream, so the
// fuzzer reaches valid requests quickly:
//   0x00-0xBF  the integer b - 32 (-32..159: counts, kinds, dtype codes, letters)
//   0xC0-0xDF  a special value (NaN, infinities, -0, fractions, 2^31, 2^53 +- 1, 1e300, ...)
//   0xE0-0xEF  the next two bytes as an integer 0..65535
//   0xF0-0xFF  the next eight bytes as a raw double
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "exec/execution.h"
#include "ops/resolve.h"
#include "wire/plan_cache.h"
#include "wire/wire.h"

// Allocation failure must be a Status: huge requests get nullptr from ASan instead of a report.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1:max_allocation_size_mb=512"; }

namespace {

constexpr double kSpecial[32] = {
    NAN, INFINITY, -INFINITY, -0.0, 0.5, 1.5, -1.5, 9007199254740992.0, 9007199254740991.0, 9007199254740994.0,
    1e300, -1e300, 2147483648.0, 2147483647.0, 4294967296.0, 65536, 1048576, 1e15, 9223372036854775808.0,
    -9223372036854775808.0, 18446744073709551616.0, 4096, 1e16, 0x10FFFF, 0x110000, 64, 65, 66, 5e-324, 1e-300,
    127, 128};
constexpr int64_t kExecuteLimit = 1 << 16;

std::vector<double> words_from(const uint8_t* data, size_t size) {
  std::vector<double> words;
  if (size == 0) return words;
  if ((data[0] & 1) == 0) {
    for (size_t at = 1; at + 8 <= size; at += 8) {
      double v;
      std::memcpy(&v, data + at, 8);
      words.push_back(v);
    }
    return words;
  }
  for (size_t at = 1; at < size;) {
    const uint8_t b = data[at++];
    if (b < 0xC0) {
      words.push_back(static_cast<double>(b) - 32);
    } else if (b < 0xE0) {
      words.push_back(kSpecial[b - 0xC0]);
    } else if (b < 0xF0) {
      uint16_t v = 0;
      if (at + 2 <= size) std::memcpy(&v, data + at, 2);
      at += 2;
      words.push_back(v);
    } else {
      double v = 0;
      if (at + 8 <= size) std::memcpy(&v, data + at, 8);
      at += 8;
      words.push_back(v);
    }
  }
  return words;
}

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "\n*** wire_fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

// Exact product of dims (saturating far above 2^53).
int64_t product(const int64_t* dims, int from, int to) {
  long double p = 1;
  for (int d = from; d < to; ++d) p *= static_cast<long double>(dims[d]);
  return p > 1e18L ? INT64_MAX : static_cast<int64_t>(p);
}

void check_plan(const ox::NodeRequest& request, const ox::Plan& plan) {
  const ox::TensorArg& x = request.inputs[0];
  int64_t in_dims[ox::kMaxRank];
  for (int d = 0; d < x.rank; ++d) in_dims[d] = static_cast<int64_t>(x.dims[d]);
  const int64_t in_count = product(in_dims, 0, static_cast<int>(x.rank));
  if (plan.input_count != in_count || static_cast<double>(in_count) != x.length)
    fail("input count", std::to_string(plan.input_count) + " vs dims product " + std::to_string(in_count));
  if (plan.output_rank < 0 || plan.output_rank > ox::kMaxRank) fail("output rank", std::to_string(plan.output_rank));
  for (int d = 0; d < plan.output_rank; ++d)
    if (plan.output_dims[d] < 0) fail("negative output dim", std::to_string(plan.output_dims[d]));
  const int64_t out_count = product(plan.output_dims, 0, plan.output_rank);
  if (plan.output_count != out_count || out_count > 9007199254740991)
    fail("output count", std::to_string(plan.output_count) + " vs " + std::to_string(out_count));
  const bool arg = plan.kind == ox::PlanKind::ArgMax || plan.kind == ox::PlanKind::ArgMin;
  if (plan.input_dtype != static_cast<ox::DType>(x.dtype)) fail("input dtype", std::to_string(x.dtype));
  if (plan.output_dtype != (arg ? ox::DType::Int64 : plan.input_dtype)) fail("output dtype", "");
  if (plan.kind == ox::PlanKind::Identity) {
    if (out_count != in_count) fail("identity plan changes the element count", std::to_string(out_count));
    return;
  }
  if (plan.kind == ox::PlanKind::Hardmax && out_count != in_count) fail("hardmax output count", "");
  if (in_count == 0) {
    if (plan.kind == ox::PlanKind::ReduceMax && (plan.reduce != 0 || plan.outer != out_count))
      fail("empty ReduceMax plan", std::to_string(plan.outer));
    return;
  }
  int64_t covered = plan.outer * plan.reduce * plan.inner;
  int64_t reach = plan.outer * plan.inner;  // outputs one step block writes
  if (plan.prefix_count < 0 || plan.prefix_count > ox::kMaxRank) fail("prefix count", "");
  for (int p = 0; p < plan.prefix_count; ++p) {
    if (plan.prefix_extent[p] < 1) fail("prefix extent", "");
    covered *= plan.prefix_extent[p];
    reach += (plan.prefix_extent[p] - 1) * plan.prefix_output_stride[p];
  }
  if (plan.outer < 1 || plan.reduce < 1 || plan.inner < 1 || covered != in_count)
    fail("step does not cover the input",
         std::to_string(plan.outer) + "x" + std::to_string(plan.reduce) + "x" + std::to_string(plan.inner));
  if (reach > out_count && plan.kind == ox::PlanKind::ReduceMax) fail("step writes past the output", std::to_string(reach));
  if (arg && plan.outer * plan.inner != out_count) fail("arg output count", "");
  if (plan.kind != ox::PlanKind::ReduceMax && plan.reduce > 2147483647) fail("axis beyond int32 indices", "");
}

// A plan from the cache must be the fresh plan: fields, and arrays within their counts.
void check_same_plan(const ox::Plan& a, const ox::Plan& b) {
  bool same = a.kind == b.kind && a.select_last == b.select_last && a.input_dtype == b.input_dtype &&
              a.output_dtype == b.output_dtype && a.input_count == b.input_count && a.output_count == b.output_count &&
              a.output_rank == b.output_rank && a.outer == b.outer && a.reduce == b.reduce && a.inner == b.inner &&
              a.prefix_count == b.prefix_count;
  for (int k = 0; same && k < a.output_rank; ++k) same = a.output_dims[k] == b.output_dims[k];
  for (int k = 0; same && k < a.prefix_count; ++k)
    same = a.prefix_extent[k] == b.prefix_extent[k] && a.prefix_output_stride[k] == b.prefix_output_stride[k];
  if (!same) fail("PlanCache gave a plan other than a fresh resolve's", "");
}

// Runs `plan` on `ex`; true when it was started (or restarted) and not refused. `repeat`: the
// request hit the cache entry `ex` was last started from, which bindings/embind.cc's prepare()
// restarts instead of starting: here too, after checking that the execution holds that very plan.
bool execute(ox::Execution& ex, const ox::Plan& plan, const uint8_t* data, size_t size, bool repeat) {
  const int in_size = ox::dtype_size(plan.input_dtype);
  const int out_size = ox::dtype_size(plan.output_dtype);
  if (plan.kind == ox::PlanKind::Identity) return false;  // js/engine.js copies the input; nothing is fed
  const double state_bytes = static_cast<double>(plan.output_count) * (in_size + 4);
  if (plan.input_count > kExecuteLimit || plan.output_count > kExecuteLimit) {
    if (plan.input_count == 0) {
      // ReduceMax over an empty set: no working state whatever the output size; its first
      // outputs can be read at once.
      ox::Status s = ex.start(plan);
      if (!s.is_ok()) fail("an empty input with a huge output failed to start", s.message());
      ex.feed(data, 0);
      std::vector<uint8_t> out(16 * static_cast<size_t>(out_size));
      ex.write_output(out.data(), 0, 16);
      return true;
    }
    if (state_bytes > 1e12) {
      // A working state larger than any memory: a clean out-of-memory Status, never an abort.
      ox::Status s = ex.start(plan);
      if (s.is_ok() || s.message().find("memory") == std::string::npos)
        fail("huge state did not fail with out of memory", s.message());
    }
    return false;
  }
  if (repeat) check_same_plan(ex.plan(), plan);
  const ox::Status s = ex.start_or_restart(plan, repeat);
  if (!s.is_ok()) fail("start failed on a small plan", s.message());
  std::vector<uint8_t> x(static_cast<size_t>(plan.input_count * in_size) + 1);
  for (size_t i = 0; i < x.size(); ++i) x[i] = size ? data[i % size] : 0;
  for (int64_t done = 0, k = 0; done < plan.input_count; ++k) {
    const int64_t n = std::min<int64_t>(plan.input_count - done, 1 + (size ? data[k % size] : 7));
    std::vector<uint8_t> chunk(x.begin() + done * in_size, x.begin() + (done + n) * in_size);
    ex.feed(chunk.data(), n);
    done += n;
  }
  std::vector<uint8_t> out(static_cast<size_t>(plan.output_count * out_size) + 1);  // never null, as staging
  ex.write_output(out.data(), 0, plan.output_count);
  if (plan.output_dtype == ox::DType::Bool)
    for (int64_t k = 0; k < plan.output_count; ++k)
      if (out[static_cast<size_t>(k)] > 1) fail("bool output not 0/1", std::to_string(out[static_cast<size_t>(k)]));
  return true;
}

ox::Execution g_execution;  // long-lived, as in bindings/embind.cc
ox::PlanCache g_plans;      // likewise: its reused request and cached plans must not leak between calls
const ox::Plan* g_started = nullptr;  // the entry g_execution was last started from (embind.cc's g_started_plan)

// One call of the module with the request `words` (input values drawn from data).
void call(const std::vector<double>& words, const uint8_t* data, size_t size) {
  ox::NodeRequest request;
  ox::Status s = ox::decode_request(words.data(), words.size(), &request);
  ox::Plan fresh;
  const ox::Status fresh_status = s.is_ok() ? ox::resolve(request, &fresh) : s;
  const ox::Status cached = g_plans.resolve(words.data(), words.size());
  if (cached.is_ok() != fresh_status.is_ok() || cached.message() != fresh_status.message())
    fail("PlanCache answered otherwise than a fresh resolve", cached.message() + " vs " + fresh_status.message());
  if (cached.is_ok()) check_same_plan(g_plans.plan(), fresh);
  const bool repeat = cached.is_ok() && g_plans.hit() && &g_plans.plan() == g_started;
  if (!s.is_ok()) return;

  std::string label;
  ox::Status labelled = ox::node_label(request, &label);
  if (labelled.is_ok() && label.empty()) fail("empty label", "");
  ox::reduce_axes_is_input(request.opset);

  ox::Plan plan;
  s = ox::resolve(request, &plan);
  if (!s.is_ok()) {
    if (s.message().empty()) fail("empty error message", "");
    // Once op and opset resolve, every error starts with the same label node_label gives.
    if (labelled.is_ok() && s.message().compare(0, label.size() + 2, label + ": ") != 0)
      fail("error not prefixed by the node label", "'" + label + "' vs " + s.message());
    return;
  }
  if (!labelled.is_ok()) fail("resolved a request whose label fails", labelled.message());
  check_plan(request, plan);
  const bool ran = execute(g_execution, plan, data, size, repeat);
  g_started = ran && cached.is_ok() ? &g_plans.plan() : nullptr;
  g_execution.trim(4 << 20);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<double> words = words_from(data, size);
  call(words, data, size);
  // Half the inputs are called twice in a row, as a model calls a node: the second call hits the
  // cache entry the first one started, and the module restarts its execution.
  if (size % 2 == 1) call(words, data, size);
  return 0;
}
