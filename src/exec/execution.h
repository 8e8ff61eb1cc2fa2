// Runs a Plan over input that arrives in order, in chunks of any size: the caller streams the
// tensor through a small staging buffer and each chunk is reduced while it is still in cache.
// Running state (best value and index per output) carries across chunks.
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
// anyway, or tile rows too short to copy efficiently: below 8 KiB, more than 32 reduced rows).
int64_t column_tile_width(const Plan& plan, int64_t staging_bytes);
// Whether the plan's input can be fed as column tiles at all: one step with inner > 1 (no prefix
// axes) and some input.
bool takes_column_tiles(const Plan& plan);

class Execution {
 public:
  // Prepares state for `plan`. Identity plans need none: their output is their input.
  Status start(const Plan& plan);
  // The next `count` input elements, in row-major order (count may be 0; never past the end).
  void feed(const void* data, int64_t count);
  // A column tile (see column_tile_width): columns [first_column, first_column + width) of all
  // `reduce` rows of outer slice `outer_index`, packed row after row (reduce x width elements).
  // The running state of those columns stays in cache over all the rows, where a row-major chunk
  // of a wide map touches the state of every column it holds, once per row.
  // Precondition: tile_is_next(outer_index, first_column, width).
  void feed_tile(const void* data, int64_t outer_index, int64_t first_column, int64_t width);
  // Whether that tile continues the input fed so far: a plan without prefix axes and with
  // inner > 1, tiles left to right within an outer slice, slices in order. Row-major feeding may
  // resume only where a slice ends (see between_tiles).
  bool tile_is_next(int64_t outer_index, int64_t first_column, int64_t width) const;
  // True when the last tile left its outer slice part-way: only the next tile may follow.
  bool between_tiles() const { return between_tiles_; }
  // Writes output elements [begin, begin + count) in the output dtype, once all input was fed.
  void write_output(void* destination, int64_t begin, int64_t count) const;
  // Frees state buffers larger than `bytes` so one huge call does not pin memory.
  void trim(size_t bytes);

  const Plan& plan() const { return plan_; }
  int64_t fed() const { return position_; }
  // Arg kinds and Hardmax: the int32 winning index per state (outer x inner), once all input was fed.
  const int32_t* winners() const { return reinterpret_cast<const int32_t*>(index_.data()); }

 private:
  int64_t output_base(int64_t block) const;
  void write_hardmax(char* destination, int64_t begin, int64_t count) const;

  Plan plan_;
  KernelSet kernels_{};
  int32_t input_size_ = 0;
  int64_t position_ = 0;
  bool between_tiles_ = false;
  Buffer best_;   // per-output running value (the ReduceMax result itself)
  Buffer index_;  // per-output running index (arg kinds), int32
};

}  // namespace ox
