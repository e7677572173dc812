// The one error type pcrypt's core reports: a code of <pcrypt/errors.h> (the list C and C++ callers read),
// the fields a caller needs to act on it, and the library's sentence and hint for people.
#pragma once

#include <pcrypt/errors.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pcrypt::core {

using Code = pcrypt_code;

// The code's group as the core's callers inside the library tell them apart (lib/ maps them to the public
// kinds: header splits into wrong credential and damaged header by the code's hundred).
enum class ErrorKind : int {
  io = 1,       // read/write failure, resource exhaustion, anything not below
  usage = 2,    // a bad call or option value
  header = 3,   // wrong key/passphrase, or a header that is corrupt, unsupported or not a pcrypt file
  payload = 4,  // a chunk that fails authentication, truncation, reordering, trailing data
};

constexpr ErrorKind kind_of(Code code) {
  switch (static_cast<int>(code) / 100) {
    case 2:
      return ErrorKind::usage;
    case 3:
    case 4:
      return ErrorKind::header;
    case 5:
      return ErrorKind::payload;
    default:
      return ErrorKind::io;
  }
}

// What a failure carries besides its code: built by chaining, `ErrorFields().record(3).offset(196720)`.
struct ErrorFields {
  std::array<std::optional<std::uint64_t>, PCRYPT_ERROR_FIELD_COUNT + 1> numbers{};  // by pcrypt_field
  std::vector<std::string> stanza_types;
  std::string path;
  int error_number = 0;

  ErrorFields& set(pcrypt_field field, std::uint64_t value) & {
    numbers[static_cast<std::size_t>(field)] = value;
    return *this;
  }
  ErrorFields&& set(pcrypt_field field, std::uint64_t value) && { return std::move(set(field, value)); }
  ErrorFields&& record(std::uint64_t index, std::uint64_t offset) && {
    set(PCRYPT_FIELD_RECORD, index);
    return std::move(set(PCRYPT_FIELD_OFFSET, offset));
  }
  ErrorFields&& at_path(std::string p) && {
    path = std::move(p);
    return std::move(*this);
  }
  ErrorFields&& types(std::vector<std::string> t) && {
    stanza_types = std::move(t);
    return std::move(*this);
  }
  // A file given where another kind belongs: what the call took it for, and what it is.
  ErrorFields&& taken_as(pcrypt_file_kind role) && { return std::move(set(PCRYPT_FIELD_FILE_ROLE, role)); }
  ErrorFields&& found_to_be(pcrypt_file_kind kind) && { return std::move(set(PCRYPT_FIELD_FILE_KIND, kind)); }
  ErrorFields&& errno_value(int err) && {
    error_number = err;
    return std::move(*this);
  }
};

// The code of a failed system call by its errno: the output exists, out of memory, or any other I/O error.
constexpr Code code_of_io_failure(int error_number) {
  return error_number == EEXIST   ? PCRYPT_E_OUTPUT_EXISTS
         : error_number == ENOMEM ? PCRYPT_E_OUT_OF_MEMORY
                                  : PCRYPT_E_IO;
}

class Error : public std::runtime_error {
 public:
  // message: what went wrong, without "pcrypt: error:" and without a trailing period, e.g.
  //   "payload authentication failed (chunk 3 at offset 3145792)". hint: optional advice for the user.
  Error(Code code, std::string message, std::string hint = {}, ErrorFields fields = {})
      : std::runtime_error(std::move(message)),
        code_(code),
        hint_(std::move(hint)),
        fields_(std::move(fields)) {}
  Code code() const { return code_; }
  ErrorKind kind() const { return kind_of(code_); }
  const std::string& hint() const { return hint_; }
  const ErrorFields& fields() const { return fields_; }

 private:
  Code code_;
  std::string hint_;
  ErrorFields fields_;
};

}  // namespace pcrypt::core
