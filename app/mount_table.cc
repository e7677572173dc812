#include "app/mount_table.h"

#include <fstream>
#include <sstream>

namespace pcrypt::app {
namespace {

bool is_octal(char c) {
  return c >= '0' && c <= '7';
}

std::vector<std::string_view> words_of(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t at = 0;
  while (at < line.size()) {
    const std::size_t space = line.find(' ', at);
    const std::size_t end = space == std::string_view::npos ? line.size() : space;
    if (end > at) words.push_back(line.substr(at, end - at));
    at = end + 1;
  }
  return words;
}

}  // namespace

std::string unescape_mount_field(std::string_view field) {
  std::string out;
  out.reserve(field.size());
  for (std::size_t i = 0; i < field.size(); ++i) {
    // The kernel escapes a byte as a backslash and three octal digits (at most \377).
    if (field[i] == '\\' && field.size() - i >= 4 && field[i + 1] >= '0' && field[i + 1] <= '3' &&
        is_octal(field[i + 2]) && is_octal(field[i + 3])) {
      out.push_back(
          static_cast<char>((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 + (field[i + 3] - '0')));
      i += 3;
    } else {
      out.push_back(field[i]);
    }
  }
  return out;
}

std::vector<MountTableEntry> parse_mountinfo(std::string_view text) {
  // A line: ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER-OPTIONS
  std::vector<MountTableEntry> entries;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t newline = text.find('\n', at);
    const std::size_t end = newline == std::string_view::npos ? text.size() : newline;
    const std::vector<std::string_view> words = words_of(text.substr(at, end - at));
    at = end + 1;
    if (words.size() < 7) continue;
    std::size_t dash = 6;
    while (dash < words.size() && words[dash] != "-") ++dash;
    if (dash + 1 >= words.size()) continue;
    entries.push_back(MountTableEntry{std::string(words[2]), unescape_mount_field(words[4]),
                                      unescape_mount_field(words[dash + 1])});
  }
  return entries;
}

std::optional<MountTableEntry> find_mount(const std::string& mount_point) {
  std::ifstream in("/proc/self/mountinfo");
  std::ostringstream text;
  text << in.rdbuf();
  std::optional<MountTableEntry> found;
  for (MountTableEntry& e : parse_mountinfo(text.str()))
    if (e.mount_point == mount_point) found = std::move(e);
  return found;
}

}  // namespace pcrypt::app
