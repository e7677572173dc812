#include "app/size_arg.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <limits>

#include "core/error.h"

namespace pcrypt::app {
namespace {

struct Suffix {
  std::string_view text;
  std::uint64_t multiplier;
};

constexpr std::uint64_t kKi = 1024;
constexpr std::uint64_t kKilo = 1000;
constexpr std::array<Suffix, 13> kSuffixes{{
    {"", 1},
    {"B", 1},
    {"k", kKi},
    {"K", kKi},
    {"KiB", kKi},
    {"M", kKi* kKi},
    {"MiB", kKi* kKi},
    {"G", kKi* kKi* kKi},
    {"GiB", kKi* kKi* kKi},
    {"kB", kKilo},
    {"KB", kKilo},
    {"MB", kKilo* kKilo},
    {"GB", kKilo* kKilo* kKilo},
}};

[[noreturn]] void reject(std::string_view text, std::string_view option, std::string_view why) {
  throw core::Error(
      core::ErrorKind::usage,
      "invalid size '" + std::string(text) + "' for " + std::string(option) + ": " + std::string(why),
      "sizes are a whole number of bytes, optionally followed by K, M, G or KiB, MiB, GiB "
      "(powers of 1024) or kB, MB, GB (powers of 1000), e.g. 64KiB");
}

}  // namespace

std::uint64_t parse_size(std::string_view text, std::string_view option) {
  std::uint64_t number = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  // from_chars accepts neither '+' nor whitespace, and for unsigned types no '-' either: exactly what we
  // want.
  const auto [stop, ec] = std::from_chars(begin, end, number);
  if (stop == begin) reject(text, option, "it does not start with a number");
  if (ec == std::errc::result_out_of_range) reject(text, option, "too large");
  const std::string_view suffix(stop, static_cast<std::size_t>(end - stop));
  for (const Suffix& s : kSuffixes) {
    if (s.text != suffix) continue;
    if (number > std::numeric_limits<std::uint64_t>::max() / s.multiplier) reject(text, option, "too large");
    return number * s.multiplier;
  }
  reject(text, option, "unknown unit '" + std::string(suffix) + "'");
}

std::uint64_t parse_count(std::string_view text, std::string_view option, std::uint64_t min,
                          std::uint64_t max) {
  std::uint64_t number = 0;
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, number);
  const std::string range = std::to_string(min) + ".." + std::to_string(max);
  if (text.empty() || stop != end || ec != std::errc())
    throw core::Error(core::ErrorKind::usage,
                      "invalid number '" + std::string(text) + "' for " + std::string(option),
                      "expected a whole number in " + range);
  if (number < min || number > max)
    throw core::Error(core::ErrorKind::usage,
                      std::string(option) + " " + std::string(text) + " is out of range (" + range + ")");
  return number;
}

std::string format_bytes(std::uint64_t bytes) {
  constexpr std::array<const char*, 5> kUnits{"B", "KiB", "MiB", "GiB", "TiB"};
  if (bytes < kKi) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= static_cast<double>(kKi) && unit + 1 < kUnits.size()) {
    value /= static_cast<double>(kKi);
    ++unit;
  }
  std::array<char, 32> buf{};
  std::snprintf(buf.data(), buf.size(), "%.2f %s", value, kUnits[unit]);
  return buf.data();
}

}  // namespace pcrypt::app
