// Comma-separated option lists for `pcrypt bench`. Sizes are read and printed by core/byte_size.h, the same
// grammar and spelling as every other pcrypt option.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pcrypt::app::bench {

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

}  // namespace pcrypt::app::bench
