#include "app/report.h"

#include <cstdio>

namespace pcrypt::app {

void print_error(std::string_view message, std::string_view hint) {
  std::fprintf(stderr, "pcrypt: error: %.*s\n", static_cast<int>(message.size()), message.data());
  if (!hint.empty()) std::fprintf(stderr, "pcrypt: hint: %.*s\n", static_cast<int>(hint.size()), hint.data());
  std::fflush(stderr);
}

std::string with_file_context(const std::string& message, const std::string& file) {
  if (file.empty() || message.find(file) != std::string::npos) return message;
  const std::size_t open = message.rfind(" (");
  if (open != std::string::npos && message.ends_with(')'))
    return message.substr(0, open + 2) + file + ", " + message.substr(open + 2);
  return message + " (" + file + ")";
}

std::string counted(std::uint64_t n, std::string_view regular_noun) {
  return std::to_string(n) + " " + std::string(regular_noun) + (n == 1 ? "" : "s");
}

}  // namespace pcrypt::app
