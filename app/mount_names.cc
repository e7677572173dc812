#include "app/mount_names.h"

#include <map>

namespace pcrypt::app {

std::optional<std::string_view> encrypted_suffix(std::string_view name) {
  for (const std::string_view suffix : {std::string_view(".age"), std::string_view(".pcrypt")})
    if (name.size() > suffix.size() && name.ends_with(suffix)) return suffix;
  return std::nullopt;
}

std::vector<std::string> mount_names(const std::vector<NamedEntry>& entries) {
  // Start with every encrypted entry under its plaintext name, then give the full name back to every entry
  // in a clash, until none is left: each round turns at least one more entry to its full name, and full
  // names are unique (they are the source folder's), so this ends with all names distinct.
  std::vector<std::string> names;
  std::vector<bool> stripped;
  names.reserve(entries.size());
  for (const NamedEntry& e : entries) {
    const std::optional<std::string_view> suffix = e.encrypted ? encrypted_suffix(e.name) : std::nullopt;
    std::string name = suffix ? e.name.substr(0, e.name.size() - suffix->size()) : e.name;
    const bool usable = name != "." && name != ".." && !name.empty();
    stripped.push_back(suffix.has_value() && usable);
    names.push_back(stripped.back() ? std::move(name) : e.name);
  }
  for (bool clash = true; clash;) {
    clash = false;
    std::map<std::string, std::size_t> claims;  // copies: names change below
    for (const std::string& name : names) ++claims[name];
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (!stripped[i] || claims[names[i]] < 2) continue;
      names[i] = entries[i].name;
      stripped[i] = false;
      clash = true;
    }
  }
  return names;
}

}  // namespace pcrypt::app
