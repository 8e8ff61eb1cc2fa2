// Fixed capacities shared by the wire format, the resolver and the plan. Requests beyond them
// are rejected with a clear message rather than truncated.
#pragma once
#include <cstdint>

namespace ox {

constexpr int kMaxRank = 64;                     // dims per tensor
constexpr int kMaxListed = kMaxRank + 1;         // list entries carried (one more than any valid list)
constexpr int kMaxInputsListed = 4;              // inputs described on the wire
constexpr int kMaxAttrsListed = 8;               // attributes described on the wire
constexpr int kMaxNameLength = 64;               // characters of an op or attribute name carried
constexpr int64_t kMaxSafeInteger = 9007199254740991;  // 2^53 - 1: JS numbers are exact below it
constexpr int64_t kMaxAxisLength = 2147483647;   // ArgMax indices are int32 inside kernels

}  // namespace ox
