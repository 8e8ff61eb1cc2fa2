#include "exec/execution.h"

#include <cstring>

#include "core/half.h"
#include "core/number_text.h"
#include "kernels/l1_geometry.h"
#include "kernels/simd.h"

namespace ox {
namespace {

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// The int32 winning indices as the int64 output, four per step. (Written as one scalar loop, the
// compiler kept it scalar: the char* output may alias the indices.)
void widen_indices(const int32_t* from, int64_t count, char* out) {
  int64_t k = 0;
  for (; k + 4 <= count; k += 4) {
    const simd::I32 v = simd::load(from + k);
    const simd::I64 lo = __builtin_convertvector(__builtin_shufflevector(v, v, 0, 1), simd::I64);
    const simd::I64 hi = __builtin_convertvector(__builtin_shufflevector(v, v, 2, 3), simd::I64);
    simd::store(reinterpret_cast<int64_t*>(out + k * 8), lo);
    simd::store(reinterpret_cast<int64_t*>(out + k * 8 + 16), hi);
  }
  for (; k < count; ++k) {
    const int64_t value = from[k];
    std::memcpy(out + k * 8, &value, 8);
  }
}

// Tiling pays off once a slice's state outgrows the cache a row-major chunk would reuse it from
// (above 64 KiB: ArgMax over [1, 150, 128, 128] and [1, 21, 128, 128], 128 KiB of state, float32
// 1.03-1.11x end to end, float16 1.08-1.13x, float64 [1, 21, 128, 128] 1.39x, against a bound of
// 256 KiB; a bound of 32 KiB gained nothing more), and when each of a tile's `reduce` row copies
// is long enough to stream: measured on
// [1, R, 512, 512] against row-major chunks, tiles of 12 KiB rows (R = 21) were 8-10% faster for
// float32 and 1.8x for uint8, 8 KiB rows (R = 32) even, 4 KiB rows (R = 64) slower.
// A tile whose rows would be a multiple of 4 KiB apart, more of them than an L1 set holds (R = 16
// or 32 of float32, 32 of uint8; l1_geometry.h), is one SIMD tile narrower: the column kernels
// walking 16-32 rows of one set thrashed it (ArgMax [1, 32, 512, 512] and [1, 16, 512, 512]
// float32 1.06-1.09x end to end, uint8 and float16 1.02-1.03x, with the staging buffer aligned;
// 1.09-1.20x before it was).
constexpr int64_t kTiledStateBytes = 64 * 1024;
constexpr int64_t kMinTileRowBytes = 8 * 1024;
// Where the reduced rows of a tile at least kMinTileRowBytes wide do not all fit in the staging
// buffer (more than 32 float32 rows), the tile's rows come in parts (feed_tile's row range) and
// its rows are this long: the column state of ArgMax over the 150 classes of [1, 150, 256, 256]
// stays in cache where row-major chunks swept all 65536 columns' state once per row (end to end
// float32 1.25-1.30x, float16 2.2-2.3x, uint8 1.44-1.49x, [1, 64, 256, 256] 1.20-1.25x; rows of
// 32 KiB ran float32 alike, the 8- and 16-bit types 10-15% slower, of 8 KiB float32 10% slower).
// Tiles whose rows all fit keep them in one part: 21 rows of [1, 21, 512, 512] in three parts of
// 24 KiB rows ran float32 level, float16 0.78x, uint8 0.71x.
constexpr int64_t kPartedTileRowBytes = 16 * 1024;
constexpr int64_t kTileAlignment = 16;  // elements: whole SIMD tiles of every lane width

}  // namespace

bool takes_column_tiles(const Plan& plan) {
  return plan.kind != PlanKind::Identity && plan.prefix_count == 0 && plan.inner > 1 && plan.input_count > 0;
}

int64_t column_tile_width(const Plan& plan, int64_t staging_bytes) {
  if (!takes_column_tiles(plan)) return 0;
  const int64_t size = dtype_size(plan.input_dtype);
  const int64_t state_bytes = plan.inner * (size + (plan.kind == PlanKind::ReduceMax ? 0 : 4));
  if (state_bytes <= kTiledStateBytes || staging_bytes <= 0) return 0;
  int64_t width = staging_bytes / (plan.reduce * size) / kTileAlignment * kTileAlignment;
  if (width * size < kMinTileRowBytes) width = min64(kPartedTileRowBytes, staging_bytes) / size / kTileAlignment * kTileAlignment;
  if (width < kTileAlignment || width >= plan.inner) return 0;
  if (plan.reduce > kL1Ways && width * size % kL1SetSpanBytes == 0) width -= kTileAlignment;
  return width;
}

int64_t column_tile_part_rows(const Plan& plan, int64_t width, int64_t staging_bytes) {
  const int64_t fit = staging_bytes / (width * dtype_size(plan.input_dtype));
  const int64_t parts = (plan.reduce + fit - 1) / fit;
  return (plan.reduce + parts - 1) / parts;
}

GatherShape gather_shape(const Plan& plan, int64_t staging_bytes) {
  GatherShape g;
  if (plan.kind == PlanKind::Identity || plan.prefix_count == 0 || plan.input_count == 0 || staging_bytes <= 0) return g;
  int64_t blocks = 1;
  for (int p = 0; p < plan.prefix_count; ++p)
    if (plan.prefix_output_stride[p] == 0) blocks *= plan.prefix_extent[p];
  const int64_t per_block = staging_bytes / dtype_size(plan.input_dtype) / blocks;  // elements
  if (per_block >= plan.reduce * plan.inner) {
    g.slices = min64(per_block / (plan.reduce * plan.inner), plan.outer);
  } else if (per_block >= plan.reduce) {
    const int64_t width = per_block / plan.reduce;  // < inner
    g.columns = width >= kTileAlignment ? width / kTileAlignment * kTileAlignment : width;
  } else {
    return g;
  }
  g.blocks = blocks;
  return g;
}

// The plan's fields, its arrays only within their counts: a Plan is ~1.6 KB of rank-64 arrays of
// which a call uses a few entries, and start() runs on every call.
static_assert(sizeof(Plan) == 72 + 3 * sizeof(int64_t) * kMaxRank, "Plan changed: copy its new field in copy_plan");
void copy_plan(const Plan& from, Plan* to) {
  to->kind = from.kind;
  to->select_last = from.select_last;
  to->input_dtype = from.input_dtype;
  to->output_dtype = from.output_dtype;
  to->input_count = from.input_count;
  to->output_count = from.output_count;
  to->output_rank = from.output_rank;
  std::memcpy(to->output_dims, from.output_dims, sizeof(int64_t) * static_cast<size_t>(from.output_rank));
  to->outer = from.outer;
  to->reduce = from.reduce;
  to->inner = from.inner;
  to->prefix_count = from.prefix_count;
  std::memcpy(to->prefix_extent, from.prefix_extent, sizeof(int64_t) * static_cast<size_t>(from.prefix_count));
  std::memcpy(to->prefix_output_stride, from.prefix_output_stride, sizeof(int64_t) * static_cast<size_t>(from.prefix_count));
}

Status Execution::start(const Plan& plan, int64_t staging_bytes, int64_t window_above_bytes) {
  started_ = false;
  if (&plan != &plan_) copy_plan(plan, &plan_);
  position_ = 0;
  between_tiles_ = false;
  tile_width_ = tile_rows_fed_ = 0;
  windowed_ = false;
  gathered_states_ = 0;  // (gather_ is read only when gathered(): plan_window sets it then)
  window_first_ = 0;
  if (plan.kind == PlanKind::Identity) return Status::ok();
  if (!select_kernels(plan.kind, plan.input_dtype, plan.select_last, &kernels_))
    return Status::error("internal error: no kernels for this plan");
  input_size_ = dtype_size(plan.input_dtype);
  // State covers one value (and index) per output; Hardmax keeps one per row instead. An empty
  // input needs none: ReduceMax then writes the lowest value straight into the output, and a
  // Hardmax output is empty (its outer * inner may be huge).
  const int64_t states = plan.input_count == 0         ? 0
                         : plan.kind != PlanKind::Hardmax ? plan.output_count
                                                          : plan.outer * plan.inner;
  plan_window(states, staging_bytes, window_above_bytes);
  if (gathered()) {
    if (!gather_offsets_.reserve(static_cast<size_t>(gather_.blocks) * sizeof(double)))
      return Status::error("out of memory: the call needs " + integer_text(gather_.blocks * 8) + " bytes of working memory");
    fill_gather_offsets();
  }
  const double best_bytes = static_cast<double>(capacity_) * input_size_;
  const double index_bytes = kernels_.tracks_index ? static_cast<double>(capacity_) * 4 : 0;
  if (best_bytes + index_bytes > static_cast<double>(SIZE_MAX / 2) ||
      !best_.reserve(static_cast<size_t>(best_bytes) + 1) ||
      !index_.reserve(static_cast<size_t>(index_bytes) + 1))
    return Status::error("out of memory: the call needs " + integer_text(static_cast<int64_t>(best_bytes + index_bytes)) +
                         " bytes of working memory");
  reset_slots(0, capacity_);
  started_ = true;
  started_staging_bytes_ = staging_bytes;
  started_window_above_bytes_ = window_above_bytes;
  return Status::ok();
}

// What start() would do again for the same plan and bytes: the kernels, window and gather shape
// it computes are functions of those, and its buffers, still reserved, are large enough.
bool Execution::restart(int64_t staging_bytes, int64_t window_above_bytes) {
  if (!started_ || staging_bytes != started_staging_bytes_ || window_above_bytes != started_window_above_bytes_ ||
      windowed_ || best_.data() == nullptr || (kernels_.tracks_index && index_.data() == nullptr))
    return false;
  position_ = 0;
  between_tiles_ = false;
  tile_width_ = tile_rows_fed_ = 0;
  reset_slots(0, capacity_);
  return true;
}

Status Execution::start_or_restart(const Plan& plan, bool repeat, int64_t staging_bytes, int64_t window_above_bytes,
                                   bool* restarted) {
  const bool again = repeat && restart(staging_bytes, window_above_bytes);
  if (restarted) *restarted = again;
  return again ? Status::ok() : start(plan, staging_bytes, window_above_bytes);
}

// Sets the unit that makes states final and, when the full state (`states`) is over
// `window_above_bytes` and a window would be smaller, the window held instead: gathered for a
// plan with prefix axes, else over row-major chunks or column tiles.
void Execution::plan_window(int64_t states, int64_t staging_bytes, int64_t window_above_bytes) {
  const Plan& plan = plan_;
  if (plan.input_count == 0) {
    unit_states_ = unit_inputs_ = 1;
  } else if (plan.prefix_count == 0) {
    unit_states_ = plan.inner;
    unit_inputs_ = plan.reduce * plan.inner;
  } else {  // prefix blocks fold into the same outputs: in row-major order nothing is final before the end
    unit_states_ = states;
    unit_inputs_ = plan.input_count;
  }
  capacity_ = states;  // (windowed_ is false from start())
  const int64_t state_size = input_size_ + (kernels_.tracks_index ? 4 : 0);
  if (staging_bytes <= 0 || static_cast<double>(states) * state_size <= static_cast<double>(window_above_bytes)) return;
  if (plan.prefix_count > 0) {
    gather_ = gather_shape(plan, staging_bytes);
    const int64_t window = gather_.window_states(plan);
    windowed_ = gather_.blocks > 0 && window < states;  // so gathered() (see execution.h)
    if (windowed_) capacity_ = window;
    return;
  }
  // A row-major chunk of the staging buffer (L elements) reaches past the part-done unit into
  // at most ceil(L / V) more units, and into no more than L of their states (see
  // states_touched_after).
  const int64_t tile = column_tile_width(plan, staging_bytes);
  const int64_t staging_elements = staging_bytes / input_size_ > 0 ? staging_bytes / input_size_ : 1;
  const int64_t more_units = (staging_elements + unit_inputs_ - 1) / unit_inputs_;
  const int64_t beyond = more_units <= staging_elements / unit_states_ ? more_units * unit_states_ : staging_elements;
  const int64_t window = tile > 0 ? tile : unit_states_ + beyond;
  windowed_ = window < states;
  if (windowed_) capacity_ = window;
}

// Input strides of the prefix axes, outermost first (a step block spans outer x reduce x inner).
static void prefix_input_strides(const Plan& plan, int64_t* stride) {
  int64_t s = plan.outer * plan.reduce * plan.inner;
  for (int p = plan.prefix_count - 1; p >= 0; --p) {
    stride[p] = s;
    s *= plan.prefix_extent[p];
  }
}

// The input offset of each block of the first group: the reduced prefix indices in row-major
// order (the order row-major input brings them to an output, so each output sees its values in
// the same order as when fed row-major: the same bits for ties of -0 and +0 or of NaN payloads).
void Execution::fill_gather_offsets() {
  const Plan& plan = plan_;
  int64_t stride[kMaxRank], digit[kMaxRank] = {};
  prefix_input_strides(plan, stride);
  double* offsets = reinterpret_cast<double*>(gather_offsets_.data());
  int64_t at = 0;
  for (int64_t b = 0; b < gather_.blocks; ++b) {
    offsets[b] = static_cast<double>(at);
    for (int p = plan.prefix_count - 1; p >= 0; --p) {  // the odometer of the reduced axes
      if (plan.prefix_output_stride[p] != 0) continue;
      at += stride[p];
      if (++digit[p] < plan.prefix_extent[p]) break;
      at -= digit[p] * stride[p];
      digit[p] = 0;
    }
  }
}

GatherWindow Execution::next_gather() const {
  GatherWindow w;
  const Plan& plan = plan_;
  if (!gathered() || position_ >= plan.input_count) return w;
  const int64_t group_states = plan.outer * plan.inner;
  int64_t group = gathered_states_ / group_states;
  const int64_t within = gathered_states_ % group_states;
  int64_t stride[kMaxRank];
  prefix_input_strides(plan, stride);
  for (int p = plan.prefix_count - 1; p >= 0; --p) {  // the group's kept prefix indices
    if (plan.prefix_output_stride[p] == 0) continue;
    w.offset += group % plan.prefix_extent[p] * stride[p];
    group /= plan.prefix_extent[p];
  }
  const int64_t o = within / plan.inner, c = within % plan.inner;
  w.offset += o * plan.reduce * plan.inner + c;
  if (gather_.slices > 0) {  // whole outer slices of each block
    const int64_t slices = min64(gather_.slices, plan.outer - o);
    w.runs = 1;
    w.length = slices * plan.reduce * plan.inner;
    w.states = slices * plan.inner;
  } else {  // columns [c, c + width) of every reduced row of outer slice o of each block
    w.runs = plan.reduce;
    w.length = w.states = min64(gather_.columns, plan.inner - c);
    w.stride = plan.inner;
  }
  return w;
}

void Execution::feed_gathered(const void* data) {
  slide_window();
  const GatherWindow w = next_gather();
  const int64_t reduce = plan_.reduce, inner = plan_.inner;
  char* best = best_.data() + (gathered_states_ - window_first_) * input_size_;
  int32_t* index = reinterpret_cast<int32_t*>(index_.data()) + (gathered_states_ - window_first_);
  const char* x = static_cast<const char*>(data);
  if (w.runs == 1) {  // each block in turn, in order: their whole slices fold into the same states
    const int64_t slices = w.states / inner;
    for (int64_t b = 0; b < gather_.blocks; ++b, x += w.length * input_size_) {
      if (inner == 1) kernels_.rows(x, slices, reduce, 0, best, index);
      else kernels_.slices(x, slices, reduce, inner, best, index);
    }
  } else {  // the reduced rows of every block, packed in order: one column problem
    kernels_.columns(x, gather_.blocks * reduce, w.length, w.length, 0, best, index);
  }
  // (Only ReduceMax has prefix axes, so no index restarts from 0 at the next block.)
  position_ += gather_.blocks * w.runs * w.length;
  gathered_states_ += w.states;
}

// Whether every state's first feed is from index 0 of the reduced axis: the arg kinds, whose
// states are one per (outer, inner) and never folded (only ReduceMax has prefix axes). Such
// states need no reset (registry.h): a binary head's 262,144 states were 2 MiB written for nothing.
bool Execution::states_start_fresh() const { return kernels_.tracks_index && plan_.prefix_count == 0; }

void Execution::reset_slots(int64_t first, int64_t end) {
  if (end <= first || states_start_fresh()) return;
  kernels_.fill_start(best_.data() + first * input_size_, end - first);
  if (kernels_.tracks_index)
    std::memset(index_.data() + first * 4, 0, static_cast<size_t>((end - first) * 4));
}

// Windowed: drops the final states (the caller has read them), moves the part-done ones to slot 0
// and resets the slots they and the dropped ones used.
void Execution::slide_window() {
  const int64_t final = final_states();
  const int64_t from = final - window_first_;
  if (from == 0) return;
  const int64_t touched = touched_end();
  const int64_t keep = touched - final;
  std::memmove(best_.data(), best_.data() + from * input_size_, static_cast<size_t>(keep * input_size_));
  if (kernels_.tracks_index) std::memmove(index_.data(), index_.data() + from * 4, static_cast<size_t>(keep * 4));
  reset_slots(keep, touched - window_first_);
  window_first_ = final;
}

// Gathered, every window fed so far is done; inside a tiled slice the tiles so far are (a tile
// covers every reduced row of its columns); else whole units are.
int64_t Execution::final_states() const {
  if (gathered()) return gathered_states_;
  return between_tiles_ ? position_ / plan_.reduce : states_final_after(position_);
}

// The end of the states holding partial results: none past the final ones between tiles or
// gathered windows.
int64_t Execution::touched_end() const {
  return between_tiles_ || gathered() ? final_states() : states_touched_after(position_);
}

// States final once `position` elements were fed in row-major order: those of whole units.
int64_t Execution::states_final_after(int64_t position) const { return position / unit_inputs_ * unit_states_; }

// The end of the states touched once `position` elements were fed in row-major order. Within a
// unit, its first pass (row 0 of a slice; the first reduced prefix index) visits the unit's
// states in increasing order, each with at least one element: after e elements of a unit, its
// first min(U, e) states at most were touched.
int64_t Execution::states_touched_after(int64_t position) const {
  if (position == 0) return 0;
  const int64_t unit = (position - 1) / unit_inputs_;
  const int64_t into = position - unit * unit_inputs_;
  return unit * unit_states_ + (into < unit_states_ ? into : unit_states_);
}

bool Execution::feed_accepts(int64_t count) const {
  if (count < 0 || count > plan_.input_count - position_ || between_tiles_ || tile_rows_fed_ > 0 || gathered())
    return false;
  if (!windowed_ || count == 0) return true;
  // After the slide the window starts at the final states.
  return states_touched_after(position_ + count) - final_states() <= capacity_;
}

// Output offset of the step block with this index: an odometer over the prefix axes.
int64_t Execution::output_base(int64_t block) const {
  int64_t base = 0;
  for (int p = plan_.prefix_count - 1; p >= 0; --p) {
    const int64_t extent = plan_.prefix_extent[p];
    base += (block % extent) * plan_.prefix_output_stride[p];
    block /= extent;
  }
  return base;
}

void Execution::feed(const void* data, int64_t count) {
  if (count <= 0) return;
  between_tiles_ = false;
  if (windowed_) slide_window();
  const char* x = static_cast<const char*>(data);
  const int64_t inner = plan_.inner, reduce = plan_.reduce;
  const int64_t row_span = reduce * inner;
  const int64_t block_span = plan_.outer * row_span;
  while (count > 0) {
    const int64_t block = position_ / block_span;
    const int64_t offset = position_ % block_span;
    const int64_t o = offset / row_span;
    const int64_t r = (offset % row_span) / inner;
    const int64_t i = offset % inner;
    const int64_t state = output_base(block) + o * inner - window_first_;
    char* best = best_.data() + state * input_size_;
    int32_t* index = reinterpret_cast<int32_t*>(index_.data()) + state;
    int64_t take;
    if (inner == 1) {
      if (r != 0 || count < reduce) {  // part of one run
        take = min64(count, reduce - r);
        kernels_.rows(x, 1, take, r, best, index);
      } else {  // whole runs of this block
        const int64_t runs = min64(count / reduce, plan_.outer - o);
        take = runs * reduce;
        kernels_.rows(x, runs, reduce, 0, best, index);
      }
    } else if (r == 0 && i == 0 && count >= row_span) {  // whole slices of this block
      const int64_t slices = min64(count / row_span, plan_.outer - o);
      take = slices * row_span;
      kernels_.slices(x, slices, reduce, inner, best, index);
    } else if (i != 0 || count < inner) {  // part of one row
      take = min64(count, inner - i);
      kernels_.columns(x, 1, take, inner, r, best + i * input_size_, index + i);
    } else {  // whole rows of this outer slice
      const int64_t rows = min64(count / inner, reduce - r);
      take = rows * inner;
      kernels_.columns(x, rows, inner, inner, r, best, index);
    }
    x += take * input_size_;
    position_ += take;
    count -= take;
  }
}

bool Execution::tile_is_next(int64_t outer_index, int64_t first_column, int64_t width, int64_t first_row,
                             int64_t rows) const {
  const Plan& p = plan_;
  if (!takes_column_tiles(p)) return false;
  if (outer_index < 0 || outer_index >= p.outer || first_column < 0 || width < 1 || width > p.inner - first_column)
    return false;
  // A tile's parts in order of rows, each from where the last ended, the same width (position_
  // stays at the tile's start until its last rows, so the checks below name the same tile).
  if (first_row != tile_rows_fed_ || rows < 1 || rows > p.reduce - first_row || (first_row > 0 && width != tile_width_))
    return false;
  // A tile starting a slice follows any whole slices; one inside a slice, only the tile before it.
  const int64_t first = outer_index * p.inner + first_column;
  return position_ == first * p.reduce && (first_column == 0 || between_tiles_) &&
         (!windowed_ || first + width - final_states() <= capacity_);
}

void Execution::feed_tile(const void* data, int64_t outer_index, int64_t first_column, int64_t width, int64_t first_row,
                          int64_t rows, int64_t row_stride) {
  if (windowed_ && first_row == 0) slide_window();
  const int64_t state = outer_index * plan_.inner + first_column - window_first_;
  kernels_.columns(data, rows, width, row_stride, first_row, best_.data() + state * input_size_,
                   reinterpret_cast<int32_t*>(index_.data()) + state);
  tile_width_ = width, tile_rows_fed_ = first_row + rows;
  if (tile_rows_fed_ < plan_.reduce) return;  // its states stay partial until its last rows
  tile_rows_fed_ = 0;
  position_ += plan_.reduce * width;
  between_tiles_ = first_column + width < plan_.inner;
}

bool Execution::can_write(int64_t begin, int64_t count) const {
  if (begin < 0 || count < 0 || count > plan_.output_count - begin) return false;
  if (!windowed_) return position_ == plan_.input_count;
  if (count == 0) return true;
  int64_t first = begin, end = begin + count;  // the states behind those outputs
  if (plan_.kind == PlanKind::Hardmax) hardmax_states(begin, count, &first, &end);
  return first >= window_first_ && end <= final_states();
}

// The states [*first, *end) whose winners place the 1s of Hardmax outputs [begin, begin + count),
// count > 0: a row's (inner == 1), a run of one row's columns, or else whole outer slices'.
void Execution::hardmax_states(int64_t begin, int64_t count, int64_t* first, int64_t* end) const {
  const int64_t inner = plan_.inner, span = plan_.reduce * inner, last = begin + count - 1;
  if (inner == 1) {
    *first = begin / span, *end = last / span + 1;
  } else if (begin / inner == last / inner) {
    *first = begin / span * inner + begin % inner, *end = *first + count;
  } else {
    *first = begin / span * inner, *end = (last / span + 1) * inner;
  }
}

void Execution::write_output(void* destination, int64_t begin, int64_t count) const {
  // Nothing to write; also keeps the plan arithmetic below away from an empty (zero-size) plan.
  if (count <= 0) return;
  if (plan_.kind == PlanKind::Hardmax) return write_hardmax(static_cast<char*>(destination), begin, count);
  write_indices_or_maxima(destination, begin, count);
}

void Execution::write_indices_or_maxima(void* destination, int64_t begin, int64_t count) const {
  if (count <= 0) return;  // (as in write_output)
  char* out = static_cast<char*>(destination);
  const int32_t* index = reinterpret_cast<const int32_t*>(index_.data());  // slot k: state window_first_ + k
  switch (plan_.kind) {
    case PlanKind::ArgMax:
    case PlanKind::ArgMin:
      widen_indices(index + (begin - window_first_), count, out);
      return;
    case PlanKind::ReduceMax:
      if (plan_.input_count == 0) return kernels_.fill_start(out, count);  // max of an empty set
      std::memcpy(out, best_.data() + (begin - window_first_) * input_size_, static_cast<size_t>(count * input_size_));
      if (plan_.output_dtype == DType::Bool)
        for (int64_t k = 0; k < count; ++k) out[k] = out[k] != 0;
      return;
    case PlanKind::Hardmax:  // (write_output's)
    case PlanKind::Identity:
      return;
  }
}

// One-hot rows: element (o, r, i) is 1 when r is the winning index of state (o, i), else 0: the
// range zeroed, then a 1 stored for each state whose winner lands in it.
void Execution::write_hardmax(char* out, int64_t begin, int64_t count) const {
  const int size = input_size_;
  uint64_t one = 0;  // the output type's 1.0, as bits
  switch (plan_.output_dtype) {
    case DType::Float32: { const float v = 1.0f; std::memcpy(&one, &v, 4); break; }
    case DType::Float64: { const double v = 1.0; std::memcpy(&one, &v, 8); break; }
    case DType::Float16: one = Float16Format::kOne; break;
    default: one = BFloat16Format::kOne; break;
  }
  // One loop for the three widths (a store by width: three loops took 0.2 KB more of the module).
  const auto store = [&](int64_t at) {
    if (at < 0 || at >= count) return;
    if (size == 4) reinterpret_cast<uint32_t*>(out)[at] = static_cast<uint32_t>(one);
    else if (size == 2) reinterpret_cast<uint16_t*>(out)[at] = static_cast<uint16_t>(one);
    else reinterpret_cast<uint64_t*>(out)[at] = one;
  };
  std::memset(out, 0, static_cast<size_t>(count * size));
  const int32_t* index = reinterpret_cast<const int32_t*>(index_.data());  // slot k: state window_first_ + k
  const int64_t inner = plan_.inner, span = plan_.reduce * inner;
  int64_t first, end;
  hardmax_states(begin, count, &first, &end);
  // State k is (k / inner, k % inner), its 1 at (k / inner) * span + winner * inner + k % inner:
  // stepped slice by slice, not divided (a 64-bit division per state).
  const int32_t* w = index + (first - window_first_);
  if (inner == 1) {
    for (int64_t k = first; k < end; ++k, ++w) store(k * span + *w - begin);
    return;
  }
  for (int64_t k = first; k < end;) {
    const int64_t slice = k / inner, stop = min64(end, (slice + 1) * inner), base = slice * span - begin - slice * inner;
    for (; k < stop; ++k, ++w) store(base + *w * inner + k);
  }
}

void Execution::trim(size_t bytes) {
  best_.shrink_to(bytes);
  index_.shrink_to(bytes);
  gather_offsets_.shrink_to(bytes);
}

}  // namespace ox
