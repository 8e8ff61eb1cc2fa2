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

class Execution {
 public:
  // Prepares state for `plan`. Identity plans need none: their output is their input.
  Status start(const Plan& plan);
  // The next `count` input elements, in row-major order (count may be 0; never past the end).
  void feed(const void* data, int64_t count);
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
  Buffer best_;   // per-output running value (the ReduceMax result itself)
  Buffer index_;  // per-output running index (arg kinds), int32
};

}  // namespace ox
