// Decoding and validating a request costs more than running a small call (a [1, 10] ArgMax), and
// a model calls the same node with the same shapes over and over. PlanCache keeps the words of the
// last request that resolved, with its decoded request and Plan: the very same words (compared bit
// for bit) give that Plan back without decoding or validating them again. resolve() is a pure
// function of the request, so a hit answers exactly as a fresh resolution would.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ops/resolve.h"
#include "wire/wire.h"

namespace ox {

class PlanCache {
 public:
  // Decodes and resolves words[0, count) (or recognises them): ok with plan() and request() set, or
  // the Status decode_request or resolve gives.
  Status resolve(const double* words, size_t count) {
    if (valid_ && count == count_ && same_words(words, count)) return Status::ok();
    valid_ = false;
    Status s = decode_request(words, count, &request_);
    if (s.is_ok()) s = ox::resolve(request_, &plan_);
    if (s.is_ok() && count <= static_cast<size_t>(kMaxWireWords)) {
      std::memcpy(words_, words, count * sizeof(double));
      count_ = count;
      valid_ = true;
    }
    return s;
  }
  // The plan and decoded request of the last successful resolve().
  const Plan& plan() const { return plan_; }
  const NodeRequest& request() const { return request_; }

 private:
  // Word by word (the wasm libc's memcmp goes byte by byte), as bits: -0 is not 0, NaNs match
  // their own pattern.
  bool same_words(const double* words, size_t count) const {
    for (size_t i = 0; i < count; ++i) {
      uint64_t a, b;
      std::memcpy(&a, &words[i], 8);
      std::memcpy(&b, &words_[i], 8);
      if (a != b) return false;
    }
    return true;
  }

  double words_[kMaxWireWords];
  size_t count_ = 0;
  bool valid_ = false;
  NodeRequest request_;
  Plan plan_;
};

}  // namespace ox
