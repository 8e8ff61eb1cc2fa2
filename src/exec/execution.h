// Runs a Plan over input that arrives in order, in chunks of any size: the caller streams the
// tensor through a small staging buffer and each chunk is reduced while it is still in cache.
// Running state (best value and index per output) carries across chunks.
//
// Windowed state: when the state of every output would be large (ArgMax over axis 0 of [2, 16M]
// needs 128 MiB) and outputs become final as the input passes (a row, an outer slice, a column
// tile), start() keeps state for a window of outputs only. The caller then reads the outputs that
// are final after each feed (final_states()), because the next feed drops them: the wasm heap
// stays small whatever the size of the output.
// A plan with prefix axes (ReduceMax over non-adjacent axes: [0, 2] of [2, N, 2]) folds several
// blocks of the input into the same outputs, so row-major input makes none final before the last
// of those blocks. Windowed, such a plan is fed gathered instead (feed_gathered): a window of the
// step's states at a time, with the input behind them from every block that folds into them.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/buffer.h"
#include "core/status.h"
#include "kernels/registry.h"
#include "plan/plan.h"

namespace ox {

// Staged input of a wide column plan (ArgMax over the channels of [1, 21, 512, 512]) is best fed
// as column tiles: this is their width in elements for a staging buffer of `staging_bytes`, or 0
// when the plan streams in row-major order (a row case, a prefix, a state that stays in cache
// anyway). Where the reduced rows of tiles that wide do not fit (rows below 8 KiB: more than 32
// float32 rows), the rows of each tile come in parts, rows of 16 KiB.
int64_t column_tile_width(const Plan& plan, int64_t staging_bytes);
// The rows of each part of a tile `width` wide (feed_tile's row range): all the reduced rows where
// they fit in `staging_bytes`, else equal parts (the last one shorter), as few as fit. The caller
// feeds its tiles so (js/feed.js); the core takes any split in order.
int64_t column_tile_part_rows(const Plan& plan, int64_t width, int64_t staging_bytes);
// Whether the plan's input can be fed as column tiles at all: one step with inner > 1 (no prefix
// axes) and some input.
bool takes_column_tiles(const Plan& plan);

// Full state above this many bytes is kept as a window (see above), where the plan allows one.
constexpr int64_t kWindowAboveBytes = 4 << 20;

// How a plan with prefix axes is gathered for a staging buffer of `staging_bytes`. Its outputs
// come in groups of outer x inner (one per index of the kept prefix axes, in output order); the
// input behind a group is `blocks` step blocks (one per index of the reduced prefix axes). A
// window is `slices` whole outer slices of a group, or else `columns` columns of one outer slice,
// as many as fit in the staging buffer from all the blocks. All 0: not gathered (no prefix, no
// input, or not even one column of every block fits).
struct GatherShape {
  int64_t blocks = 0;
  int64_t slices = 0;
  int64_t columns = 0;
  // The states a full window covers.
  int64_t window_states(const Plan& plan) const { return slices > 0 ? slices * plan.inner : columns; }
};
GatherShape gather_shape(const Plan& plan, int64_t staging_bytes);

// The next gathered feed: from each block of the group (its input offset is gather_offsets()[b]
// plus `offset`), `runs` runs of `length` elements, `stride` elements apart, packed in that order
// (block by block); they cover `states` states, from final_states() on.
struct GatherWindow {
  int64_t offset = 0;
  int64_t runs = 0;
  int64_t length = 0;
  int64_t stride = 0;
  int64_t states = 0;
};

class Execution {
 public:
  // Prepares state for `plan`. Identity plans need none: their output is their input.
  // `staging_bytes` > 0 lets state be windowed when it would exceed `window_above_bytes`: the
  // caller then feeds chunks of at most staging_bytes (feed_accepts says), column tiles of
  // column_tile_width(plan, staging_bytes) or, when gathered(), gathered windows, and reads the
  // final outputs after each. With 0, state
  // covers every output and any feeding order works.
  Status start(const Plan& plan, int64_t staging_bytes = 0, int64_t window_above_bytes = kWindowAboveBytes);
  // start() again, for a caller that knows the plan is the one the last start() was given,
  // unchanged (bindings: the same entry of the plan cache): resets the running state and keeps
  // the rest (kernels, window, buffers). False, with nothing changed, where that is not enough:
  // the last start() failed or had other staging bytes, an Identity or windowed plan, or
  // trim() freed a buffer. Then call start().
  bool restart(int64_t staging_bytes, int64_t window_above_bytes = kWindowAboveBytes);
  // restart() where `repeat` (the caller knows `plan` is the one the last start() was given) and
  // it takes the call, else start(); `*restarted`, if given, says which ran.
  Status start_or_restart(const Plan& plan, bool repeat, int64_t staging_bytes = 0,
                          int64_t window_above_bytes = kWindowAboveBytes, bool* restarted = nullptr);
  // Whether feed(count) may come next: in order, not past the end, not inside a tiled slice, not
  // gathered and, when windowed, touching no more outputs than the window holds.
  bool feed_accepts(int64_t count) const;
  // The next `count` input elements, in row-major order (count may be 0). Precondition: feed_accepts.
  void feed(const void* data, int64_t count);
  // A column tile (see column_tile_width), or part of one: columns [first_column, first_column +
  // width) of reduced rows [first_row, first_row + rows) of outer slice `outer_index`, packed row
  // after row (rows x width elements). The running state of those columns stays in cache over
  // all the rows, where a row-major chunk of a wide map touches the state of every column it
  // holds, once per row. A tile's states are final once its last rows are fed.
  // Precondition: tile_is_next(outer_index, first_column, width, first_row, rows).
  void feed_tile(const void* data, int64_t outer_index, int64_t first_column, int64_t width, int64_t first_row,
                 int64_t rows) {
    feed_tile(data, outer_index, first_column, width, first_row, rows, width);
  }
  // The same rows read where they lie, `row_stride` elements apart (>= width): the input itself,
  // already in memory, with data at its element (outer_index, first_row, first_column) and
  // row_stride = inner, so nothing is packed.
  void feed_tile(const void* data, int64_t outer_index, int64_t first_column, int64_t width, int64_t first_row,
                 int64_t rows, int64_t row_stride);
  // Whether that tile continues the input fed so far: a plan without prefix axes and with
  // inner > 1, tiles left to right within an outer slice, slices in order, and no wider than a
  // window; a tile's parts in order of rows, each starting where the last ended, and nothing
  // else until its last. Row-major feeding may resume only where a slice ends (see between_tiles).
  bool tile_is_next(int64_t outer_index, int64_t first_column, int64_t width, int64_t first_row,
                    int64_t rows) const;
  // A whole tile (all `reduce` rows) in one feed.
  void feed_tile(const void* data, int64_t outer_index, int64_t first_column, int64_t width) {
    feed_tile(data, outer_index, first_column, width, 0, plan_.reduce);
  }
  bool tile_is_next(int64_t outer_index, int64_t first_column, int64_t width) const {
    return tile_is_next(outer_index, first_column, width, 0, plan_.reduce);
  }
  // True when the last tile left its outer slice part-way: only the next tile may follow.
  bool between_tiles() const { return between_tiles_; }
  // Gathered (see above; then feed_gathered is the only way to feed): the next window, the input
  // offset of each block of the first group, and the feed itself, of the input next_gather()
  // describes, packed. Precondition of feed_gathered: gathered() and fed() < plan().input_count.
  // (A windowed plan with prefix axes is always gathered: plan_window windows it no other way.)
  bool gathered() const { return windowed_ && plan_.prefix_count > 0; }
  GatherWindow next_gather() const;
  const double* gather_offsets() const { return reinterpret_cast<const double*>(gather_offsets_.data()); }
  int64_t gather_blocks() const { return gather_.blocks; }
  void feed_gathered(const void* data);
  // Whether write_output(begin, count) may be called: once all input was fed; when windowed, as
  // soon as the states behind those outputs are final, until the next feed.
  bool can_write(int64_t begin, int64_t count) const;
  // Writes output elements [begin, begin + count) in the output dtype. Precondition: can_write.
  // (The JS wrapper builds a Hardmax one-hot with sparse winners itself, from winners(): see
  // bindings' writes_one_hot.)
  void write_output(void* destination, int64_t begin, int64_t count) const;
  // Frees state buffers larger than `bytes` so one huge call does not pin memory.
  void trim(size_t bytes);

  const Plan& plan() const { return plan_; }
  int64_t fed() const { return position_; }
  bool windowed() const { return windowed_; }
  // States held at once: every one, or a window's worth.
  int64_t held_states() const { return capacity_; }
  // States [0, final_states()) are final: one per output, or per (outer, inner) for Hardmax.
  int64_t final_states() const;
  // The state held in slot 0 of the window (0 unless windowed).
  int64_t window_first() const { return window_first_; }
  // Arg kinds and Hardmax: the int32 winning index of state window_first() + k at winners()[k],
  // for final states.
  const int32_t* winners() const { return reinterpret_cast<const int32_t*>(index_.data()); }

 private:
  int64_t output_base(int64_t block) const;
  void plan_window(int64_t states, int64_t staging_bytes, int64_t window_above_bytes);
  void fill_gather_offsets();
  int64_t touched_end() const;
  int64_t states_final_after(int64_t position) const;
  int64_t states_touched_after(int64_t position) const;
  void slide_window();
  void reset_slots(int64_t first, int64_t end);
  bool states_start_fresh() const;
  void hardmax_states(int64_t begin, int64_t count, int64_t* first, int64_t* end) const;
  void write_indices_or_maxima(void* destination, int64_t begin, int64_t count) const;
  void write_hardmax(char* destination, int64_t begin, int64_t count) const;

  Plan plan_;
  // The last start(): whether it succeeded, and its staging and window bytes (restart()).
  bool started_ = false;
  int64_t started_staging_bytes_ = 0, started_window_above_bytes_ = 0;
  KernelSet kernels_{};
  int32_t input_size_ = 0;
  int64_t position_ = 0;
  bool between_tiles_ = false;
  // A tile fed in parts: its width, and its rows fed so far (0 between whole tiles).
  int64_t tile_width_ = 0, tile_rows_fed_ = 0;
  // A unit is `unit_inputs_` input elements in row-major order that make `unit_states_` states
  // final: a row (inner == 1) or an outer slice.
  int64_t unit_states_ = 1;
  int64_t unit_inputs_ = 1;
  bool windowed_ = false;
  GatherShape gather_{};
  int64_t gathered_states_ = 0;  // gathered: the states fed so far, all final
  Buffer gather_offsets_;        // gathered: a double per block
  int64_t capacity_ = 0;      // states held
  int64_t window_first_ = 0;  // the state in slot 0
  Buffer best_;   // per-output running value (the ReduceMax result itself)
  Buffer index_;  // per-output running index (arg kinds), int32
};

}  // namespace ox
