// The wire decoder: well-formed requests round-trip to the NodeRequest the builder makes directly;
// truncated, extended, garbage and oversized input gives a Status, never a crash, and whatever
// decodes can be resolved (and, when small, executed) safely.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "harness.h"
#include "spec_table.h"
#include "random_nodes.h"
#include "wire/wire.h"

using ox::DType;
using tb::Node;
using tn::nasty;
using tn::random_node;

namespace {

bool same_double(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::string diff_value(const std::string& where, const ox::Value& a, const ox::Value& b) {
  if (a.kind != b.kind || a.other != b.other || a.count != b.count) return where + ": kind, other or count";
  for (int64_t i = 0; i < std::min<int64_t>(a.count, ox::kMaxListed); ++i)
    if (!same_double(a.values[i], b.values[i])) return where + ": value " + std::to_string(i);
  return "";
}

std::string diff_name(const std::string& where, const ox::NameText& a, const ox::NameText& b) {
  if (a.length != b.length || std::strcmp(a.chars, b.chars) != 0) return where + ": '" + a.chars + "' vs '" + b.chars + "'";
  return "";
}

// "" when two requests carry the same content (doubles compared bit for bit).
std::string diff(const ox::NodeRequest& a, const ox::NodeRequest& b) {
  std::string d = diff_name("op", a.op, b.op);
  if (d.empty()) d = diff_value("opset", a.opset, b.opset);
  if (!d.empty()) return d;
  if (a.input_count != b.input_count) return "input count";
  for (int64_t i = 0; i < std::min<int64_t>(a.input_count, ox::kMaxInputsListed); ++i) {
    const ox::TensorArg &x = a.inputs[i], &y = b.inputs[i];
    const std::string where = "input " + std::to_string(i);
    if (x.present != y.present) return where + ": present";
    if (!x.present) continue;
    if (x.dtype != y.dtype || !same_double(x.length, y.length) || x.rank != y.rank || x.value_count != y.value_count)
      return where + ": dtype, length, rank or value count";
    for (int64_t k = 0; k < std::min<int64_t>(x.rank, ox::kMaxRank); ++k)
      if (!same_double(x.dims[k], y.dims[k])) return where + ": dim " + std::to_string(k);
    for (int64_t k = 0; k < std::min<int64_t>(x.value_count, ox::kMaxListed); ++k)
      if (!same_double(x.values[k], y.values[k])) return where + ": value " + std::to_string(k);
  }
  if (a.attr_count != b.attr_count) return "attribute count";
  for (int64_t i = 0; i < std::min<int64_t>(a.attr_count, ox::kMaxAttrsListed); ++i) {
    const std::string where = "attribute " + std::to_string(i);
    if (!(d = diff_name(where, a.attrs[i].name, b.attrs[i].name)).empty()) return d;
    if (!(d = diff_value(where, a.attrs[i].value, b.attrs[i].value)).empty()) return d;
  }
  return "";
}

// Decodes from an exactly sized heap copy, so ASan reports any read past the last word.
ox::Status decode(const std::vector<double>& words, ox::NodeRequest* out) {
  std::unique_ptr<double[]> exact(new double[words.size()]);
  if (!words.empty()) std::memcpy(exact.get(), words.data(), words.size() * sizeof(double));
  return ox::decode_request(exact.get(), words.size(), out);
}

const std::string kMalformed = "onnx-extrema: malformed request (internal error)";

// Resolves whatever decoded and, when the call is small and valid, runs it on random data.
void resolve_and_maybe_run(const ox::NodeRequest& request, tv::Rng& rng) {
  ox::Plan plan;
  const ox::Status s = ox::resolve(request, &plan);
  if (!s.is_ok()) {
    CHECK_FALSE(s.message().empty());
    return;
  }
  if (plan.input_count > 100000 || plan.output_count > 100000 || plan.kind == ox::PlanKind::Identity) return;
  ox::Execution e;
  REQUIRE(e.start(plan).is_ok());
  std::vector<uint64_t> bits(static_cast<size_t>(plan.input_count));
  for (uint64_t& b : bits) b = tv::mixed_value(plan.input_dtype, rng, 10);
  const std::vector<uint8_t> bytes = tv::pack(plan.input_dtype, bits);
  e.feed(bytes.data(), plan.input_count);
  std::vector<uint8_t> out(static_cast<size_t>(plan.output_count * ref::element_size(plan.output_dtype)) + 1);
  e.write_output(out.data(), 0, plan.output_count);
}

}  // namespace

TEST_CASE("wire: well-formed requests decode to exactly what the builder makes directly") {
  std::vector<Node> nodes = {
      Node("ArgMax").at(13).in(tb::tensor(DType::Float32, {2, 3})).attr("axis", -1).attr("keepdims", tb::boolean(false)),
      Node("ReduceMax").in(tb::tensor(DType::BFloat16, {4, 0, 2})).in(tb::axes_input({0, -1})),
      Node("ReduceMax").at(18).in(tb::tensor(DType::Int64, {})).in(tb::missing_input()).attr("noop_with_empty_axes", 1),
      Node("Hardmax").at(tb::other(ox::OtherKind::String)).attr("axis", tb::list({1, 2, 3})),
      Node(std::string(100, 'Q')).at(NAN).attr(std::string(80, 'k'), tb::other(ox::OtherKind::Symbol)),
      Node("ArgMin"),
  };
  tv::Rng rng(31337);
  for (int i = 0; i < 2000; ++i) nodes.push_back(random_node(rng));
  for (size_t i = 0; i < nodes.size(); ++i) {
    const std::vector<double> words = tb::to_wire(nodes[i]);
    ox::NodeRequest decoded;
    const ox::Status s = decode(words, &decoded);
    INFO("node " << i << ": " << s.message());
    REQUIRE(s.is_ok());
    CHECK(diff(decoded, tb::to_request(nodes[i])) == "");
    CHECK(words.size() <= static_cast<size_t>(ox::kMaxWireWords));
    resolve_and_maybe_run(decoded, rng);
  }
}

TEST_CASE("wire: the largest request fits kMaxWireWords exactly") {
  Node big(std::string(64, 'A'));
  big.at(tb::list(std::vector<double>(65, 1)));
  for (int i = 0; i < 4; ++i) {
    tb::TensorSpec t = tb::tensor(DType::Float32, std::vector<int64_t>(64, 1));
    t.values.assign(65, 0);
    big.in(t);
  }
  for (int i = 0; i < 8; ++i) big.attr(std::string(64, 'b'), tb::list(std::vector<double>(65, 0)));
  const std::vector<double> words = tb::to_wire(big);
  CHECK(words.size() == static_cast<size_t>(ox::kMaxWireWords));
  ox::NodeRequest decoded;
  CHECK(decode(words, &decoded).is_ok());
}

TEST_CASE("wire: every truncation and every extension of a request is an error") {
  tv::Rng rng(99);
  std::vector<Node> nodes = {Node("ArgMax").at(13).in(tb::tensor(DType::Float32, {2, 3})).attr("axis", -1)};
  for (int i = 0; i < 100; ++i) nodes.push_back(random_node(rng));
  for (const Node& n : nodes) {
    const std::vector<double> words = tb::to_wire(n);
    ox::NodeRequest decoded;
    for (size_t cut = 0; cut < words.size(); ++cut) {
      const std::vector<double> prefix(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(cut));
      const ox::Status s = decode(prefix, &decoded);
      INFO("cut at " << cut << " of " << words.size());
      CHECK_FALSE(s.is_ok());
      CHECK(s.message() == kMalformed);
    }
    for (double extra : {0.0, 1.0, double(NAN)}) {
      std::vector<double> longer = words;
      longer.push_back(extra);
      CHECK_FALSE(decode(longer, &decoded).is_ok());
    }
  }
}

TEST_CASE("wire: header, kinds, codes and counts outside their ranges are errors") {
  const std::vector<double> good = tb::to_wire(Node("ArgMax").at(13).in(tb::tensor(DType::Float32, {2})).attr("axis", 0));
  // Word positions in `good`: 0 version; 1 name length, 2-7 name; 8-10 opset kind/other/count, 11 opset;
  // 12 input count; 13 present, 14 dtype, 15 length, 16 rank, 17 dim, 18 value count; 19 attribute count;
  // 20 name length, 21-24 name, 25-27 kind/other/count, 28 value.
  ox::NodeRequest decoded;
  REQUIRE(decode(good, &decoded).is_ok());
  REQUIRE(good.size() == 29);
  const std::vector<std::pair<size_t, std::vector<double>>> bad = {
      {0, {0, 2, 1.5, NAN, -1}},                                    // version
      {1, {-1, 0.5, NAN, INFINITY, 9007199254740992.0}},            // name length
      {2, {-1, 0.5, 1114112, NAN}},                                 // a character code
      {8, {-1, 5, 0.5, NAN}},                                       // value kind
      {9, {-1, 7, NAN}},                                            // other kind
      {10, {0, 2, -1, NAN}},                                        // a number's count must be 1
      {12, {-1, 0.5, NAN, 9007199254740992.0}},                     // input count
      {13, {2, -1, 0.5, NAN}},                                      // present
      {14, {-1, 1048577, 0.5, NAN}},                                // dtype code
      {16, {-1, 0.5, NAN, 9007199254740992.0}},                     // rank
      {18, {-1, 0.5, NAN}},                                         // value count
      {19, {-1, 0.5, NAN, INFINITY}},                               // attribute count
      {25, {-1, 5, NAN}},                                           // attribute value kind
      {27, {0, 2, 0.5}},                                            // attribute number count
  };
  for (const auto& b : bad)
    for (double v : b.second) {
      std::vector<double> words = good;
      words[b.first] = v;
      INFO("word " << b.first << " = " << v);
      const ox::Status s = decode(words, &decoded);
      CHECK_FALSE(s.is_ok());
      CHECK(s.message() == kMalformed);
    }
  // Values the decoder carries as they are (the resolver judges them): a NaN length or dim, any opset.
  for (const std::pair<size_t, double>& ok : std::vector<std::pair<size_t, double>>{{15, NAN}, {17, -1}, {11, NAN}, {28, 1e300}}) {
    std::vector<double> words = good;
    words[ok.first] = ok.second;
    INFO("word " << ok.first << " = " << ok.second);
    CHECK(decode(words, &decoded).is_ok());
    ox::Plan plan;
    CHECK_FALSE(ox::resolve(decoded, &plan).is_ok());
  }
}

TEST_CASE("wire: oversized true counts keep their length while carrying the capacity") {
  ox::NodeRequest decoded;
  ox::Plan plan;
  // An op name of a million characters: 64 carried, the length marks it as too long.
  std::vector<double> words = {ox::kWireVersion, 1e6};
  for (int i = 0; i < 64; ++i) words.push_back('Z');
  const std::vector<double> rest = {0, 0, 0, 0, 0};  // no opset, no inputs, no attributes
  words.insert(words.end(), rest.begin(), rest.end());
  REQUIRE(decode(words, &decoded).is_ok());
  CHECK(decoded.op.length == ox::kMaxNameLength + 1);
  const ox::Status s = ox::resolve(decoded, &plan);
  CHECK_THAT(s.message(), Catch::Matchers::Contains(std::string(64, 'Z') + "...'"));
  // 2^53 - 1 inputs, four carried: the resolver reports the true count.
  Node many = Node("ArgMax").at(13);
  for (int i = 0; i < 4; ++i) many.in(tb::tensor(DType::Float32, {2}));
  many.input_count = 9007199254740991;
  REQUIRE(decode(tb::to_wire(many), &decoded).is_ok());
  CHECK(decoded.input_count == 9007199254740991);
  CHECK_THAT(ox::resolve(decoded, &plan).message(), Catch::Matchers::EndsWith("takes 1 input, got 9007199254740991"));
  // A list of 10^15 axes, 65 carried.
  Node axes = Node("ReduceMax").at(13).in(tb::tensor(DType::Float32, {2, 3}));
  axes.attr("axes", tb::ValueSpec{ox::ValueKind::List, ox::OtherKind::None, std::vector<double>(65, 1), 1000000000000000});
  REQUIRE(decode(tb::to_wire(axes), &decoded).is_ok());
  CHECK(decoded.attrs[0].value.count == 1000000000000000);
  CHECK_THAT(ox::resolve(decoded, &plan).message(), Catch::Matchers::Contains("appears twice"));
  // A rank of a billion, 64 dims carried.
  tb::TensorSpec t = tb::tensor(DType::Float32, std::vector<int64_t>(64, 1));
  t.rank = 1000000000;
  REQUIRE(decode(tb::to_wire(Node("ArgMax").in(t)), &decoded).is_ok());
  CHECK_THAT(ox::resolve(decoded, &plan).message(), Catch::Matchers::Contains("has rank 1000000000"));
  // Twelve attributes, eight carried.
  Node attrs = Node("ArgMax").in(tb::tensor(DType::Float32, {2}));
  for (int i = 0; i < 8; ++i) attrs.attr("keepdims", tb::absent());
  attrs.attr_count = 12;
  REQUIRE(decode(tb::to_wire(attrs), &decoded).is_ok());
  CHECK_THAT(ox::resolve(decoded, &plan).message(), Catch::Matchers::Contains("too many attributes (12)"));
  // Characters outside printable ASCII (32-126), and the backslash, arrive as JS escapes.
  words = {ox::kWireVersion, 9, 'A', 200, 0x10FFFF, 0x1F600, 127, 31, ' ', '\\', '~', 0, 0, 0, 0, 0};
  REQUIRE(decode(words, &decoded).is_ok());
  CHECK(std::string(decoded.op.chars) == "A\\u00c8\\u{10ffff}\\u{1f600}\\u007f\\u001f \\\\~");
  CHECK(decoded.op.length == 9);
  // A name of kMaxNameLength codes that each take the longest escape fits, NUL included.
  words = {ox::kWireVersion, static_cast<double>(ox::kMaxNameLength)};
  for (int i = 0; i < ox::kMaxNameLength; ++i) words.push_back(0x10FFFF);
  for (int i = 0; i < 5; ++i) words.push_back(0);
  REQUIRE(decode(words, &decoded).is_ok());
  CHECK(std::strlen(decoded.op.chars) == static_cast<size_t>(ox::kMaxNameLength * ox::kMaxCodeText));
  // An escaped name is never a known one: 'axis' spelt with a Cyrillic a (U+0430) is named unknown.
  words = tb::to_wire(Node("ArgMax").in(tb::tensor(DType::Float32, {2})).attr("axis", 0));
  const std::vector<double> axis_name = {4, 'a', 'x', 'i', 's'};
  const auto found = std::search(words.begin(), words.end(), axis_name.begin(), axis_name.end());
  REQUIRE(found != words.end());
  found[1] = 0x430;
  REQUIRE(decode(words, &decoded).is_ok());
  CHECK_THAT(ox::resolve(decoded, &plan).message(), Catch::Matchers::Contains("unknown attribute '\\u0430xis'"));
}

TEST_CASE("wire: garbage words never crash the decoder, the resolver or an execution") {
  tv::Rng rng(4711);
  int decoded_count = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<double> words;
    if (rng.chance(50)) {  // a well-formed request with a few words changed, dropped or added
      words = tb::to_wire(random_node(rng));
      for (int m = 0, k = 1 + static_cast<int>(rng.below(3)); m < k && !words.empty(); ++m) {
        const size_t at = rng.below(words.size());
        switch (rng.below(4)) {
          case 0: words.erase(words.begin() + static_cast<std::ptrdiff_t>(at)); break;
          case 1: words.insert(words.begin() + static_cast<std::ptrdiff_t>(at), nasty(rng)); break;
          default: words[at] = nasty(rng);
        }
      }
    } else {  // anything at all, starting with the right version most of the time
      words.resize(rng.below(120));
      for (double& w : words) w = rng.chance(60) ? static_cast<double>(rng.below(8)) : nasty(rng);
      if (!words.empty() && rng.chance(80)) words[0] = ox::kWireVersion;
    }
    ox::NodeRequest request;
    const ox::Status s = decode(words, &request);
    if (!s.is_ok()) {
      CHECK(s.message() == kMalformed);
      continue;
    }
    ++decoded_count;
    resolve_and_maybe_run(request, rng);
  }
  CHECK(decoded_count > 1000);  // the mutations leave plenty that decodes and reaches the resolver
}
