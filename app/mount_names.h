// `pcrypt mount`'s names: what each entry of a folder is called inside the mount. An encrypted file
// (x.age, x.pcrypt) is shown under its plaintext name (x); where that name is taken (by a folder, by another
// file's plaintext name or by another entry's full name) or is no name at all ("", ".", ".."), every entry
// claiming it keeps its full name instead. Pure: no file system, so the rule is fuzzed and unit-tested alone.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pcrypt::app {

// The suffix that marks an encrypted file (".age" or ".pcrypt"), or nullopt for any other name.
std::optional<std::string_view> encrypted_suffix(std::string_view name);

struct NamedEntry {
  std::string name;  // in the source folder: unique among its siblings, no '/', not "" / "." / ".."
  bool encrypted = false;
};

// The name each entry gets in the mount, in the order given: unique among them, never "", "." or "..", and
// either the plaintext name (the name without its suffix) of an encrypted entry or the entry's own name.
std::vector<std::string> mount_names(const std::vector<NamedEntry>& entries);

}  // namespace pcrypt::app
