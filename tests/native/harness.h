// Runs a node call end to end the way bindings/embind.cc and js/engine.js do: resolve, start an
// ox::Execution, feed the input in chunks of any size (each chunk in its own exactly sized heap
// block, so ASan sees any read past it), then read the output with write_output, also in chunks,
// into guarded blocks (any write past a chunk is caught). Identity plans return the input, as the JS
// wrapper copies it.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "exec/execution.h"
#include "node_builder.h"
#include "ops/resolve.h"
#include "reference.h"
#include "values.h"

namespace th {

// How input is fed and output read: all at once, fixed-size pieces, or random pieces (0, 1, a few,
// many, or all the rest).
struct Chunks {
  enum Mode { Whole, Fixed, Random } mode = Whole;
  int64_t size = 0;
  uint64_t seed = 0;
  static Chunks whole() { return {Whole, 0, 0}; }
  static Chunks fixed(int64_t n) { return {Fixed, n, 0}; }
  static Chunks random(uint64_t seed) { return {Random, 0, seed}; }
};

class Chunker {
 public:
  explicit Chunker(const Chunks& c) : c_(c), rng_(c.seed * 7919 + 17) {}
  int64_t next(int64_t remaining) {
    switch (c_.mode) {
      case Chunks::Whole: return remaining;
      case Chunks::Fixed: return std::min(c_.size, remaining);
      case Chunks::Random: break;
    }
    const uint64_t roll = rng_.below(100);
    int64_t n;
    if (roll < 8) n = 0;
    else if (roll < 30) n = 1;
    else if (roll < 60) n = 1 + static_cast<int64_t>(rng_.below(8));
    else if (roll < 85) n = 1 + static_cast<int64_t>(rng_.below(100));
    else n = remaining;
    return std::min(n, remaining);
  }

 private:
  Chunks c_;
  tv::Rng rng_;
};

struct Result {
  ox::Status status = ox::Status::ok();
  ox::Plan plan;
  ref::Tensor output;
  bool guards_intact = true;
};

// `node` must describe `x` as its first input (see with_data).
inline Result run(const tb::Node& node, const ref::Tensor& x, Chunks feed = Chunks::whole(),
                  Chunks read = Chunks::whole(), ox::Execution* reuse = nullptr) {
  Result result;
  const ox::NodeRequest request = tb::to_request(node);
  result.status = ox::resolve(request, &result.plan);
  if (!result.status.is_ok()) return result;
  const ox::Plan& plan = result.plan;
  result.output.dtype = plan.output_dtype;
  result.output.dims.assign(plan.output_dims, plan.output_dims + plan.output_rank);
  if (plan.kind == ox::PlanKind::Identity) {
    result.output.bits = x.bits;
    return result;
  }
  ox::Execution own;
  ox::Execution& execution = reuse ? *reuse : own;
  result.status = execution.start(plan);
  if (!result.status.is_ok()) return result;

  const int in_size = ref::element_size(x.dtype);
  const std::vector<uint8_t> bytes = tv::pack(x.dtype, x.bits);
  Chunker feeder(feed);
  const int64_t total = static_cast<int64_t>(x.bits.size());
  if (total != plan.input_count) {
    result.status = ox::Status::error("test harness: the data does not match the described input");
    return result;
  }
  int64_t fed = 0;
  do {  // an empty input still sees one feed of 0 elements
    const int64_t n = feeder.next(total - fed);
    std::unique_ptr<uint8_t[]> staging(new uint8_t[static_cast<size_t>(n * in_size)]);  // exact: ASan sees over-reads
    if (n > 0) std::memcpy(staging.get(), bytes.data() + fed * in_size, static_cast<size_t>(n * in_size));
    execution.feed(staging.get(), n);
    fed += n;
  } while (fed < total);

  const int out_size = ref::element_size(plan.output_dtype);
  constexpr int kGuard = 16;
  Chunker reader(read);
  int64_t done = 0;
  do {  // an empty output still sees one read of 0 elements, as the fuzzers and bindings may do
    int64_t n = reader.next(plan.output_count - done);
    if (n == 0 && read.mode != Chunks::Random) n = std::min<int64_t>(1, plan.output_count - done);
    const size_t bytes_out = static_cast<size_t>(n * out_size);
    std::unique_ptr<uint8_t[]> block(new uint8_t[bytes_out + kGuard]);
    std::memset(block.get(), 0xA5, bytes_out + kGuard);
    execution.write_output(block.get(), done, n);
    for (int g = 0; g < kGuard; ++g) result.guards_intact &= block[bytes_out + g] == 0xA5;
    const std::vector<uint64_t> part = tv::unpack(plan.output_dtype, block.get(), n);
    result.output.bits.insert(result.output.bits.end(), part.begin(), part.end());
    done += n;
  } while (done < plan.output_count);
  return result;
}

// `node` with x described as its first input.
inline tb::Node with_data(tb::Node node, const ref::Tensor& x) {
  node.inputs.insert(node.inputs.begin(), tb::tensor(x.dtype, x.dims));
  return node;
}

inline std::string dims_text(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

inline std::string bits_text(const std::vector<uint64_t>& bits, size_t limit = 24) {
  std::string s = "[";
  for (size_t i = 0; i < bits.size() && i < limit; ++i) s += (i ? ", " : "") + tv::hex(bits[i]);
  return s + (bits.size() > limit ? ", ...]" : "]");
}

// "" when `actual` is what the reference expects (dtype, dims and every element), else what differs.
inline std::string mismatch(const ref::Expected& e, const ref::Tensor& actual) {
  if (actual.dtype != e.dtype) return "output dtype " + std::to_string(static_cast<int>(actual.dtype)) +
                                       ", expected " + std::to_string(static_cast<int>(e.dtype));
  if (actual.dims != e.dims) return "output dims " + dims_text(actual.dims) + ", expected " + dims_text(e.dims);
  if (actual.bits.size() != e.bits.size())
    return "output has " + std::to_string(actual.bits.size()) + " elements, expected " + std::to_string(e.bits.size());
  const int64_t k = ref::first_mismatch(e, actual.bits);
  if (k < 0) return "";
  return "element " + std::to_string(k) + " is " + tv::hex(actual.bits[static_cast<size_t>(k)]) + ", expected " +
         tv::hex(e.bits[static_cast<size_t>(k)]) + (e.any_nan[static_cast<size_t>(k)] ? " (any NaN)" : "") +
         "; output " + bits_text(actual.bits) + ", expected " + bits_text(e.bits);
}

inline ref::Tensor make_tensor(ox::DType dtype, std::vector<int64_t> dims, std::vector<uint64_t> bits) {
  ref::Tensor t;
  t.dtype = dtype;
  t.dims = std::move(dims);
  t.bits = std::move(bits);
  return t;
}

}  // namespace th
