// The request format between js/ and the core: a flat array of doubles that the JS wrapper writes
// into a reused scratch area of the wasm heap (no per-call allocation, no strings). Everything is
// bounds-checked here, so arbitrary words (a fuzzer's) can only produce a Status.
//
// Layout (counts are true counts; only the first N entries of long lists are carried):
//   kWireVersion
//   op name:   length, min(length, kMaxNameLength) character codes
//   opset:     kind (ValueKind), other (OtherKind), value count, min(count, kMaxListed) values
//   inputs:    count; for the first min(count, kMaxInputsListed):
//                present; if present: dtype, length, rank, min(rank, kMaxRank) dims,
//                value count, min(count, kMaxListed) values
//   attributes: count; for the first min(count, kMaxAttrsListed):
//                name (as above), kind, other, value count, min(count, kMaxListed) values
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/status.h"
#include "ops/request.h"

namespace ox {

constexpr double kWireVersion = 1;
// Upper bound of a request's size in words, so the JS side can size its scratch once.
constexpr int kMaxWireWords = 1 + (1 + kMaxNameLength) + (3 + kMaxListed) + 1 + kMaxInputsListed * (5 + kMaxRank + kMaxListed) +
                              1 + kMaxAttrsListed * (1 + kMaxNameLength + 3 + kMaxListed);

// Decodes into `request`, which may be reused from call to call: the counts, and every field the
// counts cover, are written; entries beyond them (dims past the rank, values past the value count,
// inputs and attributes past the carried ones, the fields of an absent input) keep whatever they
// held. On error the request is only partly decoded.
Status decode_request(const double* words, size_t count, NodeRequest* request);

// One character code of a name written as NameText::chars shows it (at most kMaxCodeText chars);
// returns the end of what it wrote.
char* put_name_code(uint32_t code, char* at);

}  // namespace ox
