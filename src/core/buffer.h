// A growable byte buffer over malloc that reports allocation failure instead of aborting
// (the wasm build cannot throw, and a caller's huge request must become an Error).
#pragma once
#include <cstddef>
#include <cstdlib>

namespace ox {

class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { std::free(data_); }

  // Ensures room for `bytes`; contents are not preserved. False if memory is exhausted.
  bool reserve(size_t bytes) {
    if (bytes <= capacity_) return true;
    std::free(data_);
    data_ = static_cast<char*>(std::malloc(bytes));
    capacity_ = data_ ? bytes : 0;
    return data_ != nullptr;
  }
  // Gives memory back when it holds more than `keep` bytes (the wasm heap reuses it).
  void shrink_to(size_t keep) {
    if (capacity_ > keep) {
      std::free(data_);
      data_ = nullptr;
      capacity_ = 0;
    }
  }
  char* data() const { return data_; }
  size_t capacity() const { return capacity_; }

 private:
  char* data_ = nullptr;
  size_t capacity_ = 0;
};

}  // namespace ox
