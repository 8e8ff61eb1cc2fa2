// ReduceMax over slices of [reduce, inner] bytes with inner under a vector (int8, uint8, bool;
// a middle axis over 5 or 15 channels: [N, 256, 5] over axis 1). SlicesAsRows gathers such
// columns into rows one lane at a time (only rows of 2, 3, 4 and 8 split in registers), about
// 4 GB/s. Here 16 rows of a slice make one virtual row of `inner` whole vectors, in which each
// column sits at fixed bytes: the virtual rows are read straight into `inner` running maxima,
// which then fold by halving (rows 8-15 onto 0-7, 4-7 onto 0-3, ...) into the columns' maxima.
// Byte maxima are exact (no NaN, equal values have equal bits), so nothing is checked.
#pragma once
#include <cstdint>

namespace ox {

struct ByteSlicesMax {
  // Which slices, by measurement against the paths before it (kernel us per 4 MiB of uint8):
  // columns SlicesAsRows gathers lane by lane (5-7 and 9-15), from 16 rows ([N, 16, 5] 1575 ->
  // 1411, [N, 256, 5] 1074 -> 234, [N, 256, 15] 1107 -> 235); columns it splits in registers from
  // 64 rows (3 and 4; [N, 64, 3] 602 -> 466, [N, 32, 4] 554 -> 717) or 32 (8; [N, 32, 8] 871 ->
  // 577), and never pairs ([N, 512, 2] 270 -> 300). Up to 16 KiB a slice, in L1 while each group
  // of vectors walks it: longer ones stream as fast through the narrow path's virtual rows.
  // (Out of line, as run(): the module keeps one copy.)
  __attribute__((noinline)) static bool applies(int64_t reduce, int64_t inner);

  // `count` slices of [reduce, inner] at x (applies() holding), slice k's column c merged into
  // best[k * inner + c]. `flip` is xored into each byte to order it as unsigned: 0x80 for int8,
  // 0 for uint8 and bool. (Out of line: one copy for every byte type.)
  __attribute__((noinline)) static void run(const uint8_t* x, int64_t count, int64_t reduce, int64_t inner,
                                            uint8_t flip, uint8_t* best);
};

}  // namespace ox
