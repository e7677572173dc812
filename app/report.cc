#include "app/report.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "app/error_words.h"

namespace pcrypt::app {

void print_error(std::string_view message, std::string_view hint) {
  std::fprintf(stderr, "pcrypt: error: %.*s\n", static_cast<int>(message.size()), message.data());
  if (!hint.empty()) std::fprintf(stderr, "pcrypt: hint: %.*s\n", static_cast<int>(hint.size()), hint.data());
  std::fflush(stderr);
}

void print_error(const Error& e) {
  print_error(e.what(), hint_for(e));
}

void print_error_without_allocating(const char* message) noexcept {
  constexpr std::string_view prefix = "pcrypt: error: ";
  char line[prefix.size() + 256 + 1];
  std::memcpy(line, prefix.data(), prefix.size());
  std::size_t length = prefix.size();
  for (const char* c = message; *c != '\0' && length < sizeof line - 1; ++c) line[length++] = *c;
  line[length++] = '\n';
  std::fflush(stderr);  // what print_error wrote before, first (stderr is unbuffered: this allocates nothing)
  for (std::size_t written = 0; written < length;) {
    const ssize_t n = ::write(STDERR_FILENO, line + written, length - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    written += static_cast<std::size_t>(n);
  }
}

std::string with_file_context(const Error& e, const std::string& file) {
  return e.path() == file ? std::string(e.what()) : with_file_context(std::string(e.what()), file);
}

std::string with_file_context(const std::string& message, const std::string& file) {
  return file.empty() ? message : file + ": " + message;
}

int exit_status(const Error& e) {
  switch (e.kind()) {
    case ErrorKind::io:
      return kExitIo;
    case ErrorKind::usage:
      return kExitUsage;
    case ErrorKind::wrong_credential:
    case ErrorKind::damaged_header:
      return kExitHeader;
    case ErrorKind::damaged_payload:
      return kExitPayload;
  }
  return kExitIo;
}

std::string counted(std::uint64_t n, std::string_view regular_noun) {
  return std::to_string(n) + " " + std::string(regular_noun) + (n == 1 ? "" : "s");
}

}  // namespace pcrypt::app
