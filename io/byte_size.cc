#include "io/byte_size.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <limits>

namespace pcrypt::io {
namespace {

struct Unit {
  std::string_view name;  // lower case; matched case-insensitively
  std::uint64_t bytes;
};

constexpr std::uint64_t kKi = 1024;
constexpr std::uint64_t kKilo = 1000;
constexpr std::array<Unit, 10> kUnits{{
    {"b", 1},
    {"k", kKi},
    {"kib", kKi},
    {"m", kKi* kKi},
    {"mib", kKi* kKi},
    {"g", kKi* kKi* kKi},
    {"gib", kKi* kKi* kKi},
    {"kb", kKilo},
    {"mb", kKilo* kKilo},
    {"gb", kKilo* kKilo* kKilo},
}};

constexpr std::array<const char*, 5> kBinaryNames{"B", "KiB", "MiB", "GiB", "TiB"};

[[noreturn]] void reject(std::string_view text, std::string_view option, std::string_view why) {
  throw SizeSyntaxError(
      "invalid size '" + std::string(text) + "' for " + std::string(option) + ": " + std::string(why),
      "sizes are a whole number of bytes, optionally followed by K, M, G or KiB, MiB, GiB "
      "(powers of 1024) or kB, MB, GB (powers of 1000), e.g. 64KiB");
}

bool same_ignoring_case(std::string_view a, std::string_view lower) {
  if (a.size() != lower.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != lower[i]) return false;
  return true;
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
  const std::string_view unit(stop, static_cast<std::size_t>(end - stop));
  if (unit.empty()) return number;
  for (const Unit& u : kUnits) {
    if (!same_ignoring_case(unit, u.name)) continue;
    if (number > std::numeric_limits<std::uint64_t>::max() / u.bytes) reject(text, option, "too large");
    return number * u.bytes;
  }
  reject(text, option, "unknown unit '" + std::string(unit) + "'");
}

std::string format_bytes(std::uint64_t bytes, ByteStyle style) {
  std::size_t unit = 0;
  if (style == ByteStyle::exact) {
    while (unit + 1 < kBinaryNames.size() && bytes >= kKi && bytes % kKi == 0) {
      bytes /= kKi;
      ++unit;
    }
    return std::to_string(bytes) + " " + kBinaryNames[unit];
  }
  std::uint64_t scale = 1;
  while (unit + 1 < kBinaryNames.size() && bytes / scale >= kKi) {
    scale *= kKi;
    ++unit;
  }
  if (bytes % scale == 0) return std::to_string(bytes / scale) + " " + kBinaryNames[unit];
  std::array<char, 32> buf{};
  std::snprintf(buf.data(), buf.size(), "%.1f %s", static_cast<double>(bytes) / static_cast<double>(scale),
                kBinaryNames[unit]);
  return buf.data();
}

}  // namespace pcrypt::io
