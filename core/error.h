// The one error type pcrypt's core reports. Its kind is the process exit code (documented in man/pcrypt.1).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace pcrypt::core {

enum class ErrorKind : int {
  io = 1,       // read/write failure, resource exhaustion, anything not below
  usage = 2,    // bad command line or option value
  header = 3,   // wrong key/passphrase, or a header that is corrupt, unsupported or not a pcrypt file
  payload = 4,  // a chunk that fails authentication, truncation, reordering, trailing data
};

class Error : public std::runtime_error {
 public:
  // message: what went wrong, without "pcrypt: error:" and without a trailing period, e.g.
  //   "payload authentication failed (chunk 3 at offset 3145792)". hint: optional advice for the user.
  Error(ErrorKind kind, std::string message, std::string hint = {})
      : std::runtime_error(std::move(message)), kind_(kind), hint_(std::move(hint)) {}
  ErrorKind kind() const { return kind_; }
  int exit_code() const { return static_cast<int>(kind_); }
  const std::string& hint() const { return hint_; }

 private:
  ErrorKind kind_;
  std::string hint_;
};

}  // namespace pcrypt::core
