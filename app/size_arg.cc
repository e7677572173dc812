#include "app/size_arg.h"
#include "app/error_words.h"

#include <pcrypt/pcrypt.h>

#include <charconv>

namespace pcrypt::app {

std::uint64_t parse_size(std::string_view text, std::string_view option) {
  try {
    return io::parse_size(text, option);
  } catch (const io::SizeSyntaxError& e) {
    throw Error(PCRYPT_E_BAD_ARGUMENT, e.what(), e.hint());
  }
}

std::uint64_t parse_count(std::string_view text, std::string_view option, std::uint64_t min,
                          std::uint64_t max) {
  std::uint64_t number = 0;
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, number);
  const std::string range = std::to_string(min) + ".." + std::to_string(max);
  if (text.empty() || stop != end || ec != std::errc())
    throw CliError(PCRYPT_E_BAD_ARGUMENT,
                   "invalid number '" + std::string(text) + "' for " + std::string(option),
                   "expected a whole number in " + range);
  if (number < min || number > max)
    throw CliError(PCRYPT_E_BAD_ARGUMENT,
                   std::string(option) + " " + std::string(text) + " is out of range (" + range + ")");
  return number;
}

}  // namespace pcrypt::app
