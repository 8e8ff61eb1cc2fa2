// ReduceMax over slices of [reduce, inner] float16 or bfloat16 with a few columns, 3 to 15 but
// not a whole vector's 8 (a middle axis over 5 channels: [N, 256, 5] over axis 1): 8 rows of a
// slice read as one virtual row of `inner` vectors (virtual_rows.h), each vector merged into
// HalfLanes' three lane-wise extremes of the raw bits (int16 max P, uint16 min L and max H),
// folded by halving into each column's P, L and H. A column's maximum is then P when positive,
// else L (all its values negative), exact unless a NaN was met (P above +inf, H above -inf) or
// the maximum is a zero, whose bits must be the first zero's (+0 and -0 tie): such a slice goes
// another way. Both formats share the code: they differ only in the bits of infinity, passed in.
#pragma once
#include <cstdint>

namespace ox {

struct HalfSlicesMax {
  // Which slices (by measurement against the paths before it: see the .cc). (Out of line, as run().)
  __attribute__((noinline)) static bool applies(int64_t reduce, int64_t inner);

  // Slices [0, done) of `count` slices of [reduce, inner] at x (applies() holding), slice k's
  // column c merged into best[k * inner + c] by ReduceMax's rule (a NaN state stays). Returns
  // done: every slice, or up to the first one it cannot vouch for (a NaN, a zero maximum), which
  // the caller takes another way. `inf`: the format's +infinity bits (larger magnitudes are NaN).
  __attribute__((noinline)) static int64_t run(const uint16_t* x, int64_t count, int64_t reduce, int64_t inner,
                                               uint16_t inf, uint16_t* best);
};

}  // namespace ox
