// The L1 data cache the column walks are shaped for: addresses a multiple of kL1SetSpanBytes apart
// fall in one set, which holds kL1Ways lines (64 sets of 64-byte lines: 8 ways on the AMD Zen 3
// host, 12 on the Intel one). A walk down more such rows than a set holds thrashes it.
#pragma once
#include <cstdint>

namespace ox {

constexpr int64_t kL1SetSpanBytes = 4096;
constexpr int64_t kL1LineBytes = 64;
constexpr int64_t kL1Ways = 8;

}  // namespace ox
