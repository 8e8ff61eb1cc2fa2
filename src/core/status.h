// Errors are values: nothing in src/ throws. A Status carries the message that JS turns
// into an Error (it already names the operator and version when one is known).
#pragma once
#include <string>
#include <utility>

namespace ox {

class Status {
 public:
  static Status ok() { return Status(); }
  static Status error(std::string message) { return Status(std::move(message)); }

  bool is_ok() const { return !failed_; }
  const std::string& message() const { return message_; }

 private:
  Status() = default;
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}
  bool failed_ = false;
  std::string message_;
};

}  // namespace ox
