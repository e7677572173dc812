#include "app/go_flags.h"

#include <cstdio>

namespace pcrypt::app {

std::optional<bool> parse_go_bool(const std::string& text) {
  if (text == "1" || text == "t" || text == "T" || text == "TRUE" || text == "true" || text == "True")
    return true;
  if (text == "0" || text == "f" || text == "F" || text == "FALSE" || text == "false" || text == "False")
    return false;
  return std::nullopt;
}

const GoFlags::Flag* GoFlags::find(const std::string& name) const {
  for (const Flag& f : flags_)
    if (f.name == name) return &f;
  return nullptr;
}

GoFlags::Outcome GoFlags::parse(int argc, char** argv) const {
  Outcome outcome;
  const auto fail = [&outcome](std::string message) {
    outcome.kind = Outcome::Kind::error;
    outcome.error = std::move(message);
    return outcome;
  };
  int i = 1;
  for (; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-') break;
    const std::size_t dashes = arg[1] == '-' ? 2 : 1;
    if (arg == "--") {
      ++i;
      break;
    }
    std::string name = arg.substr(dashes);
    if (name.empty() || name[0] == '-' || name[0] == '=') return fail("bad flag syntax: " + arg);
    std::optional<std::string> value;
    if (const std::size_t eq = name.find('=', 1); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    const Flag* flag = find(name);
    if (flag == nullptr) {
      if (name == "help" || name == "h") {
        outcome.kind = Outcome::Kind::help;
        return outcome;
      }
      return fail("flag provided but not defined: -" + name);
    }
    if (flag->boolean != nullptr) {
      if (!value) {
        *flag->boolean = true;
        continue;
      }
      const std::optional<bool> b = parse_go_bool(*value);
      if (!b) return fail("invalid boolean value \"" + *value + "\" for -" + name + ": parse error");
      *flag->boolean = *b;
      continue;
    }
    if (!value) {
      if (i + 1 >= argc) return fail("flag needs an argument: -" + name);
      value = argv[++i];
    }
    *flag->text = *value;
  }
  for (; i < argc; ++i) outcome.arguments.emplace_back(argv[i]);
  return outcome;
}

std::optional<int> usage_exit_code(const GoFlags::Outcome& parsed, const char* usage) {
  if (parsed.kind == GoFlags::Outcome::Kind::parsed) return std::nullopt;
  if (parsed.kind == GoFlags::Outcome::Kind::error) std::fprintf(stderr, "%s\n", parsed.error.c_str());
  std::fprintf(stderr, "%s\n", usage);
  return parsed.kind == GoFlags::Outcome::Kind::help ? 0 : 2;
}

}  // namespace pcrypt::app
