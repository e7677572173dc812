// Parsing and printing of byte sizes and comma-separated option lists for `pcrypt bench`.
// Binary suffixes (KiB, MiB, GiB; also K, M, G) are powers of 1024; decimal ones (KB, MB, GB) powers of 1000.
#pragma once

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pcrypt::app::bench {

// "64KiB", "1MiB", "512M", "4096", "1 GiB" -> bytes; nullopt for anything else (including 0 and overflow).
inline std::optional<std::uint64_t> parse_size(std::string_view text) {
  std::size_t i = 0;
  std::uint64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
    const std::uint64_t digit = static_cast<std::uint64_t>(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
    ++i;
  }
  if (i == 0) return std::nullopt;
  while (i < text.size() && text[i] == ' ') ++i;
  std::string suffix;
  for (; i < text.size(); ++i) suffix += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
  std::uint64_t unit = 0;
  if (suffix.empty() || suffix == "b")
    unit = 1;
  else if (suffix == "k" || suffix == "kib")
    unit = std::uint64_t{1} << 10;
  else if (suffix == "m" || suffix == "mib")
    unit = std::uint64_t{1} << 20;
  else if (suffix == "g" || suffix == "gib")
    unit = std::uint64_t{1} << 30;
  else if (suffix == "kb")
    unit = 1000;
  else if (suffix == "mb")
    unit = 1000 * 1000;
  else if (suffix == "gb")
    unit = 1000 * 1000 * 1000;
  else
    return std::nullopt;
  if (value == 0 || value > UINT64_MAX / unit) return std::nullopt;
  return value * unit;
}

// "a,b,,c" -> {"a","b","c"}: empty items are dropped, surrounding spaces trimmed.
inline std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(start, end - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) items.emplace_back(item);
    start = end + 1;
  }
  return items;
}

// 8 -> "8 B", 65536 -> "64 KiB", 3 << 20 -> "3 MiB"; sizes that are not a whole number of the largest unit
// that fits keep the smaller unit (1536 -> "1536 B") so the label is always exact.
inline std::string format_size(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + " " + kUnits[unit];
}

}  // namespace pcrypt::app::bench
