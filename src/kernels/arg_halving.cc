#include "kernels/arg_halving.h"

#include <cstddef>
#include <cstring>

#include "kernels/row_halving.h"
#include "kernels/simd.h"

namespace ox {

namespace {

using Keys = simd::Vec<uint16_t>;
using Bytes = simd::Vec<uint8_t>;

// The 8 bytes at p as the high bytes of 8 keys, xored with `keys` (the value flip above, the
// position keys below).
inline Keys keys_of(const uint8_t* p, Keys keys) {
  uint64_t b;
  std::memcpy(&b, p, 8);
  const Bytes x = simd::bits<Bytes>(simd::U64{b, 0});
  const Bytes high = __builtin_shufflevector(Bytes{}, x, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  return simd::bits<Keys>(high) ^ keys;
}

// Groups [0, groups) of 8 rows of k bytes, each row's largest key found by halving. A row loads
// Loads 8 bytes: from its start, every 8 after it, and the 8 ending it (overlapping the one
// before: an element met twice has the same key); rows of up to 8 one load, the lanes past k
// masked (`keep`). Rows of up to 16 share one loop (both shapes in it: as separate loops V8 held
// all sixteen loads of a group before their keys and spilled some to the stack, rows of 10 and
// 15 0.8-0.9x); p.at[i]: the position keys of load i's lanes, the last load's in
// p.at[Loads - 1]. (keep comes in made: built inside the loop, it cost rows of 5-8 1.16-1.3x.)
// The row loops unrolled whole keep v in registers: as loops (what -O2 left them) V8 stored each
// row's keys to the wasm stack and read them back for the halving; unrolled, kernel in cache rows
// of 5, 7 and 10 1.39-1.51x, end to end uint8 [131072,7] 1.10x, [104857,10] 1.24x, int8 ArgMin
// [209715,5] 1.19x, for 62 bytes gzipped.
// Rows of three loads or more store each row's keys to the stack and read them back: V8 keeps
// loads in program order but computes their keys where they are used, so without a store between
// rows it issued every load of a group first (up to 48) and spilled them; with it each row is
// done before the next one's loads. Kernel in cache against the same code without: rows of 17-32
// 1.26-1.48x, 33-48 1.8-2.0x, which took them from 0.73-0.77x of the short-row path to 1.8-2.0x
// (rows of 9-16 measured 0.83-0.87x with it: two loads a row fit). Rows of 49-64 would be
// 1.15-1.38x for 350 bytes gzipped (not taken); a loop over the loads at run time instead of a
// copy per count ran 0.63-0.74x.
constexpr int kPinnedFrom = 3;  // loads a row
constexpr int kMaxLoads = 6;    // rows of up to 48 bytes (ArgHalvingBytes::applies)
static_assert(ArgHalvingBytes::applies(8 * kMaxLoads) && !ArgHalvingBytes::applies(8 * kMaxLoads + 1),
              "applies() and the loads a row agree");
struct Positions {
  Keys at[kMaxLoads];
  Keys keep;
};
template <int Loads>
void halve_groups(const uint8_t* x, ptrdiff_t groups, ptrdiff_t k, Positions p, Keys position_flip, uint8_t flip,
                  uint8_t* best, int32_t* index) {
  for (ptrdiff_t g = 0; g < groups; ++g) {
    const uint8_t* row = x + g * 8 * k;
    Keys v[8];
    if (Loads == 2 && k <= 8) {
#pragma GCC unroll 8
      for (int r = 0; r < 8; ++r, row += k) v[r] = keys_of(row, p.at[0]) & p.keep;
    } else {
#pragma GCC unroll 8
      for (int r = 0; r < 8; ++r, row += k) {
        Keys m = keys_of(row, p.at[0]);
        for (int i = 1; i + 1 < Loads; ++i) m = vmax(m, keys_of(row + 8 * i, p.at[i]));
        v[r] = vmax(m, keys_of(row + k - 8, p.at[Loads - 1]));
        if constexpr (Loads >= kPinnedFrom) {
          volatile Keys* pin = &v[r];
          *pin = v[r];
          v[r] = *pin;
        }
      }
    }
    const Keys winners = RowHalving<uint16_t>::halve<8>(v);  // row r's largest key in lane r
    const Keys j = (winners & simd::splat(static_cast<uint16_t>(0xff))) ^ position_flip;
    simd::store(index + g * 8, __builtin_convertvector(__builtin_shufflevector(j, j, 0, 1, 2, 3), simd::I32));
    simd::store(index + g * 8 + 4, __builtin_convertvector(__builtin_shufflevector(j, j, 4, 5, 6, 7), simd::I32));
    const Keys values = (winners >> 8) ^ simd::splat(static_cast<uint16_t>(flip));
    const Bytes packed = simd::bits<Bytes>(values);
    const Bytes low = __builtin_shufflevector(packed, packed, 0, 2, 4, 6, 8, 10, 12, 14, 0, 2, 4, 6, 8, 10, 12, 14);
    const uint64_t out = simd::bits<simd::U64>(low)[0];
    std::memcpy(best + g * 8, &out, 8);
  }
}

}  // namespace

int64_t ArgHalvingBytes::run(const uint8_t* x, int64_t n, int64_t length, uint8_t flip, bool last, uint8_t* best,
                             int32_t* index) {
  if (!applies(length) || n < 8) return 0;
  const ptrdiff_t k = static_cast<ptrdiff_t>(length), rows = static_cast<ptrdiff_t>(n);
  // Each row loads 8 bytes from its start (and, past 8, every 8 after it and the 8 ending it):
  // the rows whose loads stay within x (rows * k >= 8 here).
  const ptrdiff_t loadable = k >= 8 ? rows : (rows * k - 8) / k + 1;
  const ptrdiff_t groups = loadable / 8;
  const int loads = k <= 16 ? 2 : static_cast<int>((k + 7) / 8);  // (rows of up to 16: one loop)
  // Per lane of each load (position 8 i + l; the last load's k - 8 + l; a row of up to 8 loads
  // once, from 0): the value flip in the high byte, the position key in the low one. Lanes past a
  // short row's end are zeroed (`keep`): key 0 is below every element's key but (value key 0,
  // position key 0), which names the same winner.
  const Keys lane = {0, 1, 2, 3, 4, 5, 6, 7}, flip_high = simd::splat(static_cast<uint16_t>(flip << 8));
  const auto position_key = [&](Keys j) { return flip_high | (last ? j : simd::splat(uint16_t{255}) - j); };
  Positions p;
  for (int i = 0; i < kMaxLoads; ++i)
    p.at[i] = position_key(lane + simd::splat(static_cast<uint16_t>(i + 1 < loads || k <= 8 ? 8 * i : k - 8)));
  p.keep = simd::bits<Keys>(lane < simd::splat(static_cast<uint16_t>(k)));
  const Keys position_flip = simd::splat(static_cast<uint16_t>(last ? 0 : 255));
  // Through a table: binaryen inlines a function with one caller, and the loops of every length
  // in one function left V8 fewer registers for each.
  using Groups = void (*)(const uint8_t*, ptrdiff_t, ptrdiff_t, Positions, Keys, uint8_t, uint8_t*, int32_t*);
  static constexpr Groups kGroups[] = {halve_groups<2>, halve_groups<3>, halve_groups<4>, halve_groups<5>, halve_groups<6>};
  static_assert(sizeof(kGroups) / sizeof(kGroups[0]) == kMaxLoads - 1, "a copy per load count from 2");
  kGroups[loads - 2](x, groups, k, p, position_flip, flip, best, index);
  return groups * 8;
}

}  // namespace ox
