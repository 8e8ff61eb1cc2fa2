// Runs a node call end to end the way bindings/embind.cc and js/engine.js do: resolve, start an
// ox::Execution, feed the input in chunks of any size (each chunk in its own exactly sized heap
// block, so ASan sees any read past it), then read the output with write_output, also in chunks,
// into guarded blocks (any write past a chunk is caught). Identity plans return the input, as the JS
// wrapper copies it.
// With a Window (staging_bytes > 0) the call runs as a large input streams: start(plan, staging,
// window_above), gathered windows where the plan is gathered, column tiles where column_tile_width
// allows them, else row-major chunks of at most a staging buffer, and the outputs that became
// final read after every feed, before the next one drops them; every windowing promise of
// ox::Execution is checked on the way (Result::protocol).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exec/execution.h"
#include "node_builder.h"
#include "ops/resolve.h"
#include "reference.h"
#include "staging_model.h"
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
  // Windowed runs: "" when every windowing promise held, else the first one broken; and how the
  // call ran, so tests can tell they exercise what they mean to.
  std::string protocol;
  bool windowed = false;
  bool tiled = false;
  bool gathered = false;
  bool restarted = false;  // run(..., restart = true): restart() took the call, not start()
  int64_t held_states = 0;
  int64_t drains = 0;  // feeds after which some outputs were read
};

// Streaming as js/engine.js does with a staging buffer of `staging_bytes` (0: the whole input is
// there at once and state covers every output, the default), windowing state above
// `window_above_bytes` (0: whenever the plan allows a window).
struct Window {
  int64_t staging_bytes = 0;
  int64_t window_above_bytes = 0;
};

// What the windowed run expects of a plan, worked out from the plan's shape (ox::Execution's
// header): the states, the unit of input that makes states final and the window held.
struct WindowFacts {
  int64_t states = 0;        // one per output, per (outer, inner) for Hardmax; none for an empty input
  int64_t unit_states = 1;   // a row / outer slice ...
  int64_t unit_inputs = 1;   // ... made final by this many input elements in row-major order
  int64_t tile = 0;          // column tile width, 0 for row-major chunks
  bool gathered = false;     // a plan with prefix axes, windowed: fed gathered (ox::GatherShape)
  int64_t staging_elements = 1;
  bool windowed = false;
  int64_t held = 0;
};

inline WindowFacts window_facts(const ox::Plan& p, const Window& w) {
  WindowFacts f;
  const int size = ref::element_size(p.input_dtype);
  f.states = p.input_count == 0 ? 0 : p.kind == ox::PlanKind::Hardmax ? p.outer * p.inner : p.output_count;
  if (p.input_count > 0 && p.prefix_count == 0) {
    f.unit_states = p.inner, f.unit_inputs = p.reduce * p.inner;
  } else {  // prefix blocks fold into the same outputs: in row-major order nothing is final before the end
    f.unit_states = std::max<int64_t>(f.states, 1), f.unit_inputs = std::max<int64_t>(p.input_count, 1);
  }
  f.tile = ox::column_tile_width(p, w.staging_bytes);
  f.staging_elements = std::max<int64_t>(1, w.staging_bytes / size);
  f.held = f.states;
  const int64_t state_bytes = f.states * (size + (p.kind == ox::PlanKind::ReduceMax ? 0 : 4));
  if (w.staging_bytes > 0 && state_bytes > w.window_above_bytes && p.prefix_count > 0) {
    const ox::GatherShape g = ox::gather_shape(p, w.staging_bytes);
    const int64_t window = g.window_states(p);
    f.gathered = f.windowed = g.blocks > 0 && window < f.states;
    if (f.windowed) f.held = window;
  } else if (w.staging_bytes > 0 && state_bytes > w.window_above_bytes) {
    // A staging buffer's worth (L) of row-major input reaches past the part-done unit into
    // ceil(L / unit_inputs) more units, and into at most L of their states.
    const int64_t more_units = (f.staging_elements + f.unit_inputs - 1) / f.unit_inputs;
    const int64_t beyond = more_units <= f.staging_elements / f.unit_states ? more_units * f.unit_states : f.staging_elements;
    const int64_t window = f.tile > 0 ? f.tile : std::min(f.unit_states + beyond, f.states);
    f.windowed = window < f.states;
    if (f.windowed) f.held = window;
  }
  return f;
}

// Reads output elements [begin, begin + n) into a guarded block of their own, into `out` at begin.
inline void read_output(const ox::Execution& execution, int64_t begin, int64_t n, Result* result) {
  const ox::DType t = result->plan.output_dtype;
  const size_t bytes_out = static_cast<size_t>(n * ref::element_size(t));
  constexpr int kGuard = 16;
  std::unique_ptr<uint8_t[]> block(new uint8_t[bytes_out + kGuard]);
  std::memset(block.get(), 0xA5, bytes_out + kGuard);
  execution.write_output(block.get(), begin, n);
  for (int g = 0; g < kGuard; ++g) result->guards_intact &= block[bytes_out + g] == 0xA5;
  const std::vector<uint64_t> part = tv::unpack(t, block.get(), n);
  std::copy(part.begin(), part.end(), result->output.bits.begin() + begin);
}

// The windowed run (see Window): feeds as js/engine.js would and reads final outputs after each
// feed, checking every promise of the windowed Execution; the first broken one ends the run.
inline void run_windowed(ox::Execution& execution, const ref::Tensor& x, Chunks feed, Chunks read, const Window& w,
                         Result* result) {
  const ox::Plan& plan = result->plan;
  std::string& broken = result->protocol;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok && broken.empty()) broken = what;
    return ok;
  };
  const WindowFacts f = window_facts(plan, w);
  result->windowed = execution.windowed();
  result->held_states = execution.held_states();
  result->tiled = f.tile > 0;
  result->gathered = f.gathered;
  if (!expect(execution.windowed() == f.windowed, std::string("windowed() is ") + (f.windowed ? "false" : "true")) ||
      !expect(execution.gathered() == f.gathered, std::string("gathered() is ") + (f.gathered ? "false" : "true")) ||
      !expect(execution.held_states() == f.held, "held_states() " + std::to_string(execution.held_states()) +
                                                     ", expected " + std::to_string(f.held)) ||
      !expect(!f.windowed || f.held < f.states, "a window as large as the state"))
    return;

  const int in_size = ref::element_size(x.dtype);
  const std::vector<uint8_t> bytes = tv::pack(x.dtype, x.bits);
  const int64_t total = plan.input_count;
  result->output.bits.assign(static_cast<size_t>(plan.output_count), 0);
  std::vector<uint8_t> written(static_cast<size_t>(plan.output_count), 0);
  Chunker reader(read);
  int64_t drained = 0;      // states [0, drained) were read
  int64_t stale = -1;       // an output read before the last feed: dropped by it
  auto after_feed = [&](int64_t n) {
    if (n > 0 && stale >= 0) expect(!execution.can_write(stale, 1), "can_write accepts output " + std::to_string(stale) +
                                                                        " after the feed that dropped its state");
    if (!execution.windowed()) {
      if (execution.fed() < total && plan.output_count > 0)
        expect(!execution.can_write(0, 1), "can_write before the whole input was fed (not windowed)");
      return;
    }
    const int64_t final_states = execution.final_states();
    if (!expect(final_states >= drained && final_states <= f.states,
                "final_states() " + std::to_string(final_states) + " after " + std::to_string(drained)))
      return;
    if (final_states > drained) result->drains += 1;
    for (const std::pair<int64_t, int64_t>& run : stage::output_runs(plan, drained, final_states)) {
      for (int64_t k = 0; k < run.second;) {
        int64_t n = reader.next(run.second - k);
        if (n == 0 && read.mode != Chunks::Random) n = 1;
        const int64_t begin = run.first + k;
        if (!expect(execution.can_write(begin, n), "can_write refuses final outputs [" + std::to_string(begin) + ", +" +
                                                       std::to_string(n) + ")"))
          return;
        read_output(execution, begin, n, result);
        for (int64_t e = begin; e < begin + n; ++e) written[static_cast<size_t>(e)] += 1;
        if (n > 0) stale = begin;
        k += n;
      }
    }
    drained = final_states;
    if (drained < f.states) {
      const int64_t next = stage::first_output_of_state(plan, drained);
      expect(!execution.can_write(next, 1), "can_write accepts output " + std::to_string(next) + " of a state not final");
    }
  };

  if (f.gathered) {  // js/feed.js feedGathered: a window of states at a time, from every block
    while (execution.fed() < total && broken.empty()) {
      const ox::GatherWindow gw = execution.next_gather();
      const int64_t count = execution.gather_blocks() * gw.runs * gw.length;
      if (!expect(gw.states > 0 && gw.states <= f.held, "a gathered window of " + std::to_string(gw.states) + " states") ||
          !expect(count <= f.staging_elements, "a gathered window of " + std::to_string(count) + " elements") ||
          !expect(!execution.feed_accepts(1), "a row-major feed accepted while gathered"))
        return;
      stage::feed_gathered_window(execution, bytes.data(), in_size);
      after_feed(count);
    }
  } else if (f.tile > 0) {  // js/feed.js feedTiles: per outer slice, left to right, reduce x w packed
    const int64_t part_rows = ox::column_tile_part_rows(plan, f.tile, w.staging_bytes);
    for (int64_t o = 0; o < plan.outer && broken.empty(); ++o)
      for (int64_t c = 0; c < plan.inner && broken.empty(); c += f.tile) {
        const int64_t width = std::min(f.tile, plan.inner - c);
        if (!expect(execution.tile_is_next(o, c, width, 0, std::min(part_rows, plan.reduce)), "tile_is_next refuses the next tile"))
          return;
        if (execution.windowed()) {
          // Inside a slice only the next tile may come; at a slice's start a row-major feed may,
          // if it touches no more states than the window holds.
          if (c > 0) expect(!execution.feed_accepts(1), "a row-major feed accepted between tiles");
          else expect(!execution.feed_accepts(f.held + 1), "a row-major feed reaching past the window accepted");
          if (c + width < plan.inner) expect(!execution.tile_is_next(o, c, width + 1), "a tile wider than the window accepted");
        }
        for (int64_t r0 = 0; r0 < plan.reduce && broken.empty(); r0 += part_rows) {
          const int64_t rows = std::min(part_rows, plan.reduce - r0);
          if (r0 > 0) {  // inside a tile: only its next rows
            if (!expect(execution.tile_is_next(o, c, width, r0, rows), "tile_is_next refuses a tile's next rows") ||
                !expect(!execution.feed_accepts(1), "a row-major feed accepted inside a tile") ||
                !expect(!execution.tile_is_next(o, c, width, 0, rows), "a tile restarted inside a tile") ||
                !expect(execution.final_states() == drained, "states made final inside a tile"))
              return;
          }
          execution.feed_tile(stage::pack_tile(bytes.data(), plan, in_size, o, c, width, r0, rows).get(), o, c, width, r0,
                              rows);
        }
        after_feed(plan.reduce * width);
      }
  } else {  // js/feed.js feedInput: chunks of at most a staging buffer
    Chunker feeder(feed);
    int64_t fed = 0;
    do {  // an empty input still sees one feed of 0 elements
      const int64_t rest = total - fed;
      const int64_t n = std::min(feeder.next(rest), f.staging_elements);
      if (!expect(execution.feed_accepts(n), "feed_accepts(" + std::to_string(n) + ") refused at " + std::to_string(fed)) ||
          !expect(execution.feed_accepts(std::min(rest, f.staging_elements)), "a staging buffer's worth refused") ||
          !expect(!execution.feed_accepts(rest + 1), "a feed past the end accepted"))
        return;
      if (execution.windowed()) {  // reaches into the first state of a unit past all the window could hold
        const int64_t too_many = ((f.held + f.unit_states - 1) / f.unit_states + 1) * f.unit_inputs + 1;
        if (too_many <= rest)
          expect(!execution.feed_accepts(too_many), "feed_accepts(" + std::to_string(too_many) + ") beyond the window");
      }
      stage::feed_piece(execution, bytes.data(), in_size, fed, n);
      fed += n;
      after_feed(n);
    } while (fed < total && broken.empty());
  }
  if (!broken.empty()) return;
  if (!expect(execution.fed() == total, "fed() " + std::to_string(execution.fed()) + " of " + std::to_string(total)))
    return;
  if (execution.windowed()) {
    expect(execution.final_states() == f.states, "not every state final at the end");
  } else {  // full state: the whole output once all input was fed, in pieces
    int64_t done = 0;
    do {
      int64_t n = reader.next(plan.output_count - done);
      if (n == 0 && read.mode != Chunks::Random) n = std::min<int64_t>(1, plan.output_count - done);
      if (!expect(execution.can_write(done, n), "can_write refuses output after the whole input")) return;
      read_output(execution, done, n, result);
      for (int64_t e = done; e < done + n; ++e) written[static_cast<size_t>(e)] += 1;
      done += n;
    } while (done < plan.output_count);
  }
  for (size_t e = 0; e < written.size(); ++e)
    if (!expect(written[e] == 1, "output " + std::to_string(e) + " read " + std::to_string(written[e]) + " times")) return;
}

// `node` must describe `x` as its first input (see with_data). `restart`: the call repeats the
// node `reuse` last started, as bindings' prepare() repeats a plan-cache hit: restart() where it
// takes the call, else start().
inline Result run(const tb::Node& node, const ref::Tensor& x, Chunks feed = Chunks::whole(),
                  Chunks read = Chunks::whole(), ox::Execution* reuse = nullptr, Window window = Window(),
                  bool restart = false) {
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
  const int64_t total = static_cast<int64_t>(x.bits.size());
  if (total != plan.input_count) {
    result.status = ox::Status::error("test harness: the data does not match the described input");
    return result;
  }
  ox::Execution own;
  ox::Execution& execution = reuse ? *reuse : own;
  result.status = execution.start_or_restart(plan, restart && reuse, window.staging_bytes, window.window_above_bytes,
                                            &result.restarted);
  if (!result.status.is_ok()) return result;
  if (window.staging_bytes > 0) {
    run_windowed(execution, x, feed, read, window, &result);
    return result;
  }

  const int in_size = ref::element_size(x.dtype);
  const std::vector<uint8_t> bytes = tv::pack(x.dtype, x.bits);
  Chunker feeder(feed);
  int64_t fed = 0;
  do {  // an empty input still sees one feed of 0 elements
    const int64_t n = feeder.next(total - fed);
    stage::feed_piece(execution, bytes.data(), in_size, fed, n);
    fed += n;
  } while (fed < total);

  Chunker reader(read);
  result.output.bits.assign(static_cast<size_t>(plan.output_count), 0);
  int64_t done = 0;
  do {  // an empty output still sees one read of 0 elements, as the fuzzers and bindings may do
    int64_t n = reader.next(plan.output_count - done);
    if (n == 0 && read.mode != Chunks::Random) n = std::min<int64_t>(1, plan.output_count - done);
    read_output(execution, done, n, &result);
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
