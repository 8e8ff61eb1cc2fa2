// ArgMax / ArgMin over many short rows of bytes ([N, 7] uint8 over the last axis: quantized class
// scores), rows of 5 to 48, by halving (row_halving.h) on 16-bit keys that carry each element's
// position: key = value key << 8 | position key. The value key is the byte in unsigned order (int8:
// sign bit flipped), inverted for ArgMin; the position key is 255 - j, so the first of equal
// values has the larger key, or j under select_last_index. A row's largest key is then its winner
// under the rule, found by unsigned 16-bit maxima with no compare or select per element. Integers
// only: no NaN, and equal values have equal bits. The short-row path (ShortRows) gathers these
// rows one lane at a time.
#pragma once
#include <cstdint>

namespace ox {

struct ArgHalvingBytes {
  // The lengths it takes, by measurement against the short-row path (kernel µs for 4 MiB of uint8
  // rows, before -> after): 5 1075 -> 930, 6 1045 -> 760, 7 1020 -> 685, 9 1040 -> 600, 11-15
  // 1050 -> 360-500. Rows of 16 to 48 (two to six loads a row), kernel in cache against the
  // short-row path: 16 1.44x, 17-32 1.66-1.81x, 33-48 1.93-2.02x (arg_halving.cc: kPinnedFrom).
  static constexpr bool applies(int64_t length) { return length >= 5 && length <= 48; }

  // Rows [0, done) of n rows of `length` bytes at x, each starting a fresh state (the call begins
  // at index 0 of the reduced axis): best[k], index[k] set to row k's winner. Returns done, a
  // multiple of 8 (0 where applies(length) does not hold); rows whose 8-byte load would pass the
  // end of x are left to the caller. `flip` is xored into each byte for its value key: 0x00 uint8
  // ArgMax, 0x80 int8 ArgMax, 0xff uint8 ArgMin, 0x7f int8 ArgMin. `last`: select_last_index.
  // (Out of line, one copy for every byte type, direction and tie rule.)
  __attribute__((noinline)) static int64_t run(const uint8_t* x, int64_t n, int64_t length, uint8_t flip, bool last,
                                               uint8_t* best, int32_t* index);
};

}  // namespace ox
