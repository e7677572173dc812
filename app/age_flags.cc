#include "app/age_flags.h"

#include <optional>
#include <string_view>

namespace pcrypt::app {
namespace {

enum class Kind { boolean, text, list, identity, plugin };

struct Flag {
  std::string_view name;
  Kind kind;
};

constexpr Flag kFlags[] = {
    {"version", Kind::boolean},      {"d", Kind::boolean},
    {"decrypt", Kind::boolean},      {"e", Kind::boolean},
    {"encrypt", Kind::boolean},      {"p", Kind::boolean},
    {"passphrase", Kind::boolean},   {"o", Kind::text},
    {"output", Kind::text},          {"a", Kind::boolean},
    {"armor", Kind::boolean},        {"r", Kind::list},
    {"recipient", Kind::list},       {"R", Kind::list},
    {"recipients-file", Kind::list}, {"i", Kind::identity},
    {"identity", Kind::identity},    {"j", Kind::plugin},
};

const Flag* find_flag(std::string_view name) {
  for (const Flag& f : kFlags)
    if (f.name == name) return &f;
  return nullptr;
}

// Go's strconv.ParseBool.
std::optional<bool> parse_bool(std::string_view s) {
  for (std::string_view t : {"1", "t", "T", "TRUE", "true", "True"})
    if (s == t) return true;
  for (std::string_view f : {"0", "f", "F", "FALSE", "false", "False"})
    if (s == f) return false;
  return std::nullopt;
}

bool& boolean_of(AgeArgs& a, std::string_view name) {
  if (name == "version") return a.version;
  if (name == "d" || name == "decrypt") return a.decrypt;
  if (name == "e" || name == "encrypt") return a.encrypt;
  if (name == "p" || name == "passphrase") return a.passphrase;
  return a.armor;
}

void set_value(AgeArgs& a, const Flag& flag, std::string value) {
  switch (flag.kind) {
    case Kind::text:
      a.output = std::move(value);
      break;
    case Kind::list:
      (flag.name == "r" || flag.name == "recipient" ? a.recipients : a.recipient_files)
          .push_back(std::move(value));
      break;
    case Kind::identity:
      a.identities.push_back({false, std::move(value)});
      break;
    case Kind::plugin:
      a.identities.push_back({true, std::move(value)});
      break;
    case Kind::boolean:
      break;
  }
}

}  // namespace

std::vector<std::string> AgeArgs::identity_files() const {
  std::vector<std::string> files;
  for (const Identity& i : identities)
    if (!i.plugin) files.push_back(i.value);
  return files;
}

std::vector<std::string> AgeArgs::plugins() const {
  std::vector<std::string> names;
  for (const Identity& i : identities)
    if (i.plugin) names.push_back(i.value);
  return names;
}

AgeParse parse_age_args(const std::vector<std::string>& args) {
  AgeParse result;
  std::size_t i = 0;
  const auto bad = [&result](std::string error) {
    result.outcome = AgeParse::Outcome::bad_flag;
    result.error = std::move(error);
    return result;
  };
  while (i < args.size()) {
    const std::string_view s = args[i];
    if (s.size() < 2 || s[0] != '-') break;  // the first non-flag ("-" included) ends the flags
    std::size_t dashes = 1;
    if (s[1] == '-') {
      dashes = 2;
      if (s.size() == 2) {  // "--"
        ++i;
        break;
      }
    }
    std::string_view name = s.substr(dashes);
    if (name.empty() || name[0] == '-' || name[0] == '=') return bad("bad flag syntax: " + std::string(s));
    ++i;
    std::optional<std::string> value;
    if (const std::size_t eq = name.find('='); eq != std::string_view::npos) {
      value = std::string(name.substr(eq + 1));
      name = name.substr(0, eq);
    }
    const Flag* flag = find_flag(name);
    if (flag == nullptr) {
      if (name == "help" || name == "h") {
        result.outcome = AgeParse::Outcome::help;
        return result;
      }
      return bad("flag provided but not defined: -" + std::string(name));
    }
    if (flag->kind == Kind::boolean) {
      bool on = true;
      if (value) {
        const std::optional<bool> parsed = parse_bool(*value);
        if (!parsed)
          return bad("invalid boolean value \"" + *value + "\" for -" + std::string(name) + ": parse error");
        on = *parsed;
      }
      boolean_of(result.args, flag->name) = on;
      continue;
    }
    if (!value) {
      if (i == args.size()) return bad("flag needs an argument: -" + std::string(name));
      value = args[i++];
    }
    set_value(result.args, *flag, std::move(*value));
  }
  result.args.inputs.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  return result;
}

}  // namespace pcrypt::app
