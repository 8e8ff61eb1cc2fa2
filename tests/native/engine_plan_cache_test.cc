// The per-call shortcuts of the wasm edge: decode_request into one reused NodeRequest (not zeroed
// between calls) and PlanCache (the same words as the last resolved call give its plan back
// without decoding or validating). Both must answer exactly as a fresh decode and resolve would:
// the same status and message, the same label, the same plan, in long sequences of calls that
// mix valid and invalid requests, large and small ones, repeats and one-word changes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "exec/execution.h"
#include "ops/resolve.h"
#include "random_nodes.h"
#include "wire/plan_cache.h"
#include "wire/wire.h"

using ox::DType;
using tb::Node;

namespace {

// A call that mostly resolves: a known operator and opset, a small tensor, attributes of the right
// names with values in or near their ranges.
Node plausible_node(tv::Rng& rng) {
  static const std::vector<std::string> ops = {"ArgMax", "ArgMin", "ReduceMax", "Hardmax"};
  static const std::vector<DType> types = {DType::Float32, DType::Float16, DType::BFloat16, DType::Float64,
                                           DType::Int64,   DType::Uint8,   DType::Int32,    DType::Bool};
  Node n(rng.pick(ops));
  if (rng.chance(70)) n.at(static_cast<double>(rng.between(1, 21)));
  std::vector<int64_t> dims(static_cast<size_t>(rng.below(rng.chance(5) ? 9 : 5)));
  for (int64_t& d : dims) d = rng.chance(5) ? 0 : rng.between(1, 6);
  const int64_t rank = static_cast<int64_t>(dims.size());
  n.in(tb::tensor(rng.pick(types), dims));
  const auto axis = [&] { return static_cast<double>(rng.between(-rank - 1, rank)); };
  if (n.op == "ReduceMax" && rng.chance(60)) {
    std::vector<double> axes(static_cast<size_t>(rng.below(3)));
    for (double& a : axes) a = axis();
    if (rng.chance(50)) n.in(tb::axes_input(axes));
    else n.attr("axes", axes);
  }
  if (rng.chance(60)) n.attr("axis", axis());
  if (rng.chance(40)) n.attr("keepdims", rng.chance(20) ? tb::boolean(rng.chance(50)) : tb::number(rng.between(0, 2)));
  if (rng.chance(30)) n.attr("select_last_index", static_cast<double>(rng.between(0, 1)));
  if (rng.chance(20)) n.attr("noop_with_empty_axes", static_cast<double>(rng.between(0, 1)));
  return n;
}

Node any_node(tv::Rng& rng) { return rng.chance(60) ? plausible_node(rng) : tn::random_node(rng); }

// "" when two plans describe the same computation (arrays compared within their counts).
std::string plan_diff(const ox::Plan& a, const ox::Plan& b) {
  if (a.kind != b.kind || a.select_last != b.select_last || a.input_dtype != b.input_dtype ||
      a.output_dtype != b.output_dtype || a.input_count != b.input_count || a.output_count != b.output_count)
    return "kind, dtypes or counts";
  if (a.output_rank != b.output_rank || !std::equal(a.output_dims, a.output_dims + a.output_rank, b.output_dims))
    return "output dims";
  if (a.outer != b.outer || a.reduce != b.reduce || a.inner != b.inner) return "step";
  if (a.prefix_count != b.prefix_count || !std::equal(a.prefix_extent, a.prefix_extent + a.prefix_count, b.prefix_extent) ||
      !std::equal(a.prefix_output_stride, a.prefix_output_stride + a.prefix_count, b.prefix_output_stride))
    return "prefix";
  return "";
}

struct Answer {
  ox::Status status = ox::Status::ok();
  ox::Plan plan;
  std::string label;  // node_label's label or message
};

// What a fresh request and a fresh plan give.
Answer fresh(const std::vector<double>& words) {
  Answer a;
  ox::NodeRequest request;
  a.status = ox::decode_request(words.data(), words.size(), &request);
  if (!a.status.is_ok()) return a;
  ox::Status labelled = ox::node_label(request, &a.label);
  if (!labelled.is_ok()) a.label = labelled.message();
  a.status = ox::resolve(request, &a.plan);
  return a;
}

void check_same(const Answer& want, const ox::Status& got, const ox::Plan* plan, const std::string* label) {
  REQUIRE(got.is_ok() == want.status.is_ok());
  CHECK(got.message() == want.status.message());
  if (plan && got.is_ok()) CHECK(plan_diff(*plan, want.plan) == "");
  if (label) CHECK(*label == want.label);
}

std::string label_of(const ox::NodeRequest& request) {
  std::string label;
  const ox::Status s = ox::node_label(request, &label);
  return s.is_ok() ? label : s.message();
}

}  // namespace

TEST_CASE("decode_request into a reused request answers as a fresh one") {
  tv::Rng rng(2718);
  ox::NodeRequest reused;  // as the wasm module's: never zeroed between calls
  int resolved = 0;
  for (int i = 0; i < 6000; ++i) {
    const std::vector<double> words = tb::to_wire(any_node(rng));
    INFO("call " << i);
    const Answer want = fresh(words);
    ox::Status s = ox::decode_request(words.data(), words.size(), &reused);
    REQUIRE(s.is_ok());  // every builder request is well-formed
    const std::string label = label_of(reused);
    ox::Plan plan;
    s = ox::resolve(reused, &plan);
    check_same(want, s, &plan, &label);
    resolved += s.is_ok();
  }
  CHECK(resolved > 600);  // the sequence mixes valid and invalid calls (about 13% resolve)
}

TEST_CASE("PlanCache: repeated, changed and invalid requests answer as fresh ones") {
  tv::Rng rng(1618);
  std::vector<std::vector<double>> pool;
  for (int i = 0; i < 40; ++i) pool.push_back(tb::to_wire(any_node(rng)));
  ox::PlanCache cache;
  std::vector<double> words = pool[0];
  int repeats = 0;
  for (int i = 0; i < 8000; ++i) {
    const uint64_t roll = rng.below(100);
    if (roll < 40) {
      ++repeats;  // the same words again
    } else if (roll < 60 && !words.empty()) {
      words[rng.below(words.size())] = rng.chance(50) ? tn::nasty(rng) : static_cast<double>(rng.below(4));  // one word
    } else {
      words = rng.pick(pool);
    }
    INFO("call " << i);
    const Answer want = fresh(words);
    const ox::Status s = cache.resolve(words.data(), words.size());
    const std::string label = s.is_ok() ? label_of(cache.request()) : want.label;
    check_same(want, s, &cache.plan(), &label);
  }
  CHECK(repeats > 2000);
}

TEST_CASE("PlanCache: a few requests taking turns, fewer and more than it keeps") {
  tv::Rng rng(1732);
  for (const int kinds : {2, 5, ox::PlanCache::kEntries, ox::PlanCache::kEntries + 3}) {
    std::vector<std::vector<double>> calls;
    while (static_cast<int>(calls.size()) < kinds) {  // valid requests only: every turn may hit
      std::vector<double> words = tb::to_wire(plausible_node(rng));
      if (fresh(words).status.is_ok()) calls.push_back(words);
    }
    ox::PlanCache cache;
    for (int i = 0; i < 40 * kinds; ++i) {
      const std::vector<double>& words = calls[static_cast<size_t>(rng.chance(80) ? i % kinds : rng.below(calls.size()))];
      INFO(kinds << " kinds, call " << i);
      const Answer want = fresh(words);
      const ox::Status s = cache.resolve(words.data(), words.size());
      const std::string label = label_of(cache.request());
      check_same(want, s, &cache.plan(), &label);
    }
  }
}

TEST_CASE("PlanCache: requests longer than it keeps resolve every time") {
  ox::PlanCache cache;
  Node n("ReduceMax");
  n.at(13).in(tb::tensor(DType::Float32, std::vector<int64_t>(60, 1))).attr("axes", std::vector<double>(60, 0.0));
  n.attr("keepdims", 0.0).attr("bogus_attribute_name_long_enough_to_matter", std::vector<double>(64, 1.0));
  const std::vector<double> words = tb::to_wire(n);
  REQUIRE(words.size() > ox::PlanCache::kCachedWords);
  for (int i = 0; i < 3; ++i) {
    const Answer want = fresh(words);
    const ox::Status s = cache.resolve(words.data(), words.size());
    check_same(want, s, &cache.plan(), nullptr);
  }
  Node bad("ArgMax");
  bad.at(13).in(tb::tensor(DType::Float32, std::vector<int64_t>(60, 1)));
  for (const char* name : {"axis", "keepdims", "select_last_index"}) bad.attr(name, std::vector<double>(65, 1.0));  // lists: an error
  const std::vector<double> long_error = tb::to_wire(bad);
  REQUIRE(long_error.size() > ox::PlanCache::kCachedWords);
  CHECK_FALSE(cache.resolve(long_error.data(), long_error.size()).is_ok());
}

TEST_CASE("PlanCache: a request longer than any valid one is still answered") {
  ox::PlanCache cache;
  std::vector<double> words = tb::to_wire(Node("ArgMax").at(13).in(tb::tensor(DType::Float32, {2, 3})));
  REQUIRE(cache.resolve(words.data(), words.size()).is_ok());
  words.resize(static_cast<size_t>(ox::kMaxWireWords) + 5, 0.0);
  const ox::Status s = cache.resolve(words.data(), words.size());
  CHECK(s.message() == "onnx-extrema: malformed request (internal error)");
}

TEST_CASE("Execution::start keeps the whole plan it was given (fields and arrays within their counts)") {
  tv::Rng rng(1414);
  ox::Execution run;
  int started = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::vector<double> words = tb::to_wire(plausible_node(rng));
    const Answer a = fresh(words);
    if (!a.status.is_ok() || a.plan.input_count > 4096 || a.plan.output_count > 4096) continue;
    REQUIRE(run.start(a.plan).is_ok());
    CHECK(plan_diff(run.plan(), a.plan) == "");
    ++started;
  }
  CHECK(started > 200);
}
