// `pcrypt mount`'s pure pieces (app/mount_names.h, app/mount_table.h): the input's lines are a folder's
// entries (a leading '/' marks a folder), whose mount names must be distinct, never "", "." or "..", and each
// the entry's name or its plaintext name; the same bytes as mountinfo text must parse without a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "app/mount_names.h"
#include "app/mount_table.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<pcrypt::app::NamedEntry> entries;
  std::set<std::string> source_names;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    const bool folder = line.starts_with('/');
    if (folder) line.remove_prefix(1);
    // Only what a folder can hold: a name without '/' or NUL, not "", "." or "..", unique.
    if (line.empty() || line == "." || line == ".." || line.find('/') != std::string_view::npos ||
        line.find('\0') != std::string_view::npos || !source_names.insert(std::string(line)).second)
      continue;
    entries.push_back({std::string(line), !folder});
  }
  const std::vector<std::string> names = pcrypt::app::mount_names(entries);
  if (names.size() != entries.size()) std::abort();
  std::set<std::string> seen;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    if (name.empty() || name == "." || name == ".." || !seen.insert(name).second) std::abort();
    const std::optional<std::string_view> suffix =
        entries[i].encrypted ? pcrypt::app::encrypted_suffix(entries[i].name) : std::nullopt;
    if (name != entries[i].name && !(suffix && name + std::string(*suffix) == entries[i].name)) std::abort();
  }
  for (const pcrypt::app::MountTableEntry& e : pcrypt::app::parse_mountinfo(text))
    if (e.device.empty() || e.type.empty()) std::abort();
  return 0;
}
