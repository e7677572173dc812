// The command-line grammar of Go's `flag` package, which age's commands use, so that the age personalities
// (age-keygen, age-inspect) take exactly what age takes: `-name` or `--name`, a value after `=` or as the
// next argument (not for booleans), flags end at the first argument that is not one or after `--`, and
// -h/-help ask for the usage. The error wording is Go's ("flag provided but not defined: -x").
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pcrypt::app {

class GoFlags {
 public:
  void add_bool(const std::string& name, bool* target) { flags_.push_back({name, target, nullptr}); }
  void add_string(const std::string& name, std::string* target) { flags_.push_back({name, nullptr, target}); }

  struct Outcome {
    enum class Kind { parsed, help, error } kind = Kind::parsed;
    std::string error;                   // Kind::error: Go's message
    std::vector<std::string> arguments;  // Kind::parsed: what follows the flags
  };
  // argv[1..argc).
  Outcome parse(int argc, char** argv) const;

 private:
  struct Flag {
    std::string name;
    bool* boolean;
    std::string* text;
  };
  const Flag* find(const std::string& name) const;
  std::vector<Flag> flags_;
};

// How a Go command ends a parse that did not reach its arguments: the error line (if any) and `usage` on
// stderr, then exit 0 for -h/-help and 2 for an error. nullopt when the flags parsed.
std::optional<int> usage_exit_code(const GoFlags::Outcome& parsed, const char* usage);

// Go's strconv.ParseBool: 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False.
std::optional<bool> parse_go_bool(const std::string& text);

}  // namespace pcrypt::app
