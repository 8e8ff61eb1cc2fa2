// Decoding and validating a request costs more than running a small call (a [1, 10] ArgMax), and
// a model calls the same few nodes with the same shapes over and over. PlanCache keeps the words
// of the last few requests that resolved, with their Plans: the very same words (compared bit for
// bit) give that Plan back without decoding or validating them again. resolve() is a pure function
// of the request, so a hit answers exactly as a fresh resolution would.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ops/resolve.h"
#include "wire/wire.h"

namespace ox {

class PlanCache {
 public:
  // Requests up to this many words are remembered (a call with rank-8 dims and a few attributes
  // takes about 60); longer ones resolve every time.
  static constexpr size_t kCachedWords = 256;
  static constexpr int kEntries = 8;

  // Decodes and resolves words[0, count) (or recognises them): ok with plan() set, or the Status
  // decode_request or resolve gives.
  Status resolve(const double* words, size_t count) {
    for (int k = 0; k < kEntries; ++k) {
      Entry& e = entries_[(current_ + k) % kEntries];  // the last hit first
      if (e.count == count && count > 0 && same_words(e.words, words, count)) {
        current_ = static_cast<int>(&e - entries_);
        e.used = ++clock_;
        plan_ = &e.plan;
        request_decoded_ = false;
        hit_ = true;
        return Status::ok();
      }
    }
    hit_ = false;
    request_decoded_ = true;
    Status s = decode_request(words, count, &request_);
    if (s.is_ok()) s = ox::resolve(request_, &fresh_);
    plan_ = &fresh_;
    if (!s.is_ok() || count > kCachedWords) return s;
    Entry* victim = entries_;  // the least recently used
    for (Entry& e : entries_)
      if (e.used < victim->used) victim = &e;
    std::memcpy(victim->words, words, count * sizeof(double));
    victim->count = count;
    victim->plan = fresh_;
    victim->used = ++clock_;
    current_ = static_cast<int>(victim - entries_);
    plan_ = &victim->plan;
    return s;
  }

  // The plan of the last successful resolve().
  const Plan& plan() const { return *plan_; }
  // Whether the last resolve() recognised its words: plan() is then an entry's, the very Plan
  // object (same address, same fields) an earlier resolve() of those words gave.
  bool hit() const { return hit_; }

  // The decoded request of the last successful resolve() (decoded again if its plan came from the
  // cache), for labels in later messages.
  const NodeRequest& request() {
    if (!request_decoded_) {
      const Entry& e = entries_[current_];
      decode_request(e.words, e.count, &request_);
      request_decoded_ = true;
    }
    return request_;
  }

 private:
  struct Entry {
    double words[kCachedWords];
    size_t count = 0;  // 0: empty (no valid request is empty)
    Plan plan;
    uint64_t used = 0;
  };

  // Word by word (the wasm libc's memcmp goes byte by byte), as bits: -0 is not 0, NaNs match
  // their own pattern.
  static bool same_words(const double* a, const double* b, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      uint64_t x, y;
      std::memcpy(&x, &a[i], 8);
      std::memcpy(&y, &b[i], 8);
      if (x != y) return false;
    }
    return true;
  }

  Entry entries_[kEntries];
  int current_ = 0;
  uint64_t clock_ = 0;
  const Plan* plan_ = &fresh_;
  Plan fresh_;
  NodeRequest request_;
  bool request_decoded_ = true;
  bool hit_ = false;
};

}  // namespace ox
