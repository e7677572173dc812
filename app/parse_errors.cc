#include "app/parse_errors.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstddef>

namespace pcrypt::app {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Optimal string alignment distance: Levenshtein plus the transposition of neighbours, the commonest typo
// ("encrpyt").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// Short names differ from each other by one character by construction (-k, -p, -o), so for them only a
// difference of case counts as a typo.
std::size_t allowed_distance(std::string_view typed) {
  if (typed.size() <= 2) return 0;
  return typed.size() <= 4 ? 1 : 2;
}

bool is_option_word(std::string_view word) {
  return word.size() > 1 && word.starts_with('-');
}

// "--key=x" -> "--key"; "-kfile" stays (CLI11 would have taken it as -k with a value).
std::string option_name(std::string_view word) {
  const std::size_t eq = word.find('=');
  return std::string(word.starts_with("--") && eq != std::string_view::npos ? word.substr(0, eq) : word);
}

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
    for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
  }
  return names;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

std::string all_commands(const CLI::App& app) {
  std::string list;
  for (const std::string& name : command_names(app)) list += (list.empty() ? "" : ", ") + name;
  return list;
}

std::string did_you_mean(const std::string& suggestion, const std::string& otherwise) {
  return suggestion.empty() ? otherwise : "did you mean '" + suggestion + "'?";
}

UsageMessage unknown_option(const std::string& word, const std::vector<std::string>& candidates,
                            const std::string& help) {
  const std::string name = option_name(word);
  return {"unknown option '" + name + "'",
          did_you_mean(closest_name(name, candidates), "see '" + help + "'")};
}

}  // namespace

std::string closest_name(std::string_view typed, const std::vector<std::string>& candidates) {
  const std::string typed_lower = lower(typed);
  for (const std::string& c : candidates)
    if (c != typed && lower(c) == typed_lower) return c;
  std::string best;
  std::size_t best_distance = allowed_distance(typed) + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(typed_lower, lower(c));
    if (d > 0 && d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

UsageMessage unknown_command(const CLI::App& app, const std::string& word) {
  return {"unknown command '" + word + "'",
          did_you_mean(closest_name(word, command_names(app)), "commands: " + all_commands(app))};
}

HelpRewrite rewrite_help_command(const CLI::App& app, int argc, const char* const* argv) {
  HelpRewrite result{std::vector<const char*>(argv, argv + argc), std::nullopt};
  std::vector<const char*>& args = result.args;
  for (std::size_t i = 1; i < args.size(); ++i) {
    // age's and zstd's habit: `pcrypt -d FILE`, `pcrypt -e FILE` (before any command; pcrypt has no global
    // -d/-e).
    const std::string_view word(args[i]);
    if (word == "-d" || word == "--decrypt") {
      args[i] = "decrypt";
      break;
    }
    if (word == "-e" || word == "--encrypt") {
      args[i] = "encrypt";
      break;
    }
    if (is_option_word(args[i])) continue;
    if (word != "help") break;
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
    // The command to describe, if any, stays in place; --help goes right after it.
    std::size_t at = i;
    while (at < args.size() && is_option_word(args[at])) ++at;
    if (at < args.size()) {
      const std::vector<std::string> commands = command_names(app);
      if (std::find(commands.begin(), commands.end(), args[at]) == commands.end())
        result.error = unknown_command(app, args[at]);
      ++at;
    }
    args.insert(args.begin() + static_cast<std::ptrdiff_t>(at), "--help");
    break;
  }
  return result;
}

UsageMessage describe_parse_error(const CLI::App& app, const CLI::ParseError& error, int argc,
                                  const char* const* argv) {
  const std::vector<CLI::App*> parsed = app.get_subcommands();
  if (parsed.empty()) {
    // "A subcommand is required" both for `pcrypt` and for `pcrypt encrpyt`: name the word instead.
    for (int i = 1; i < argc; ++i) {
      const std::string word = argv[i];
      if (is_option_word(word)) {
        const std::vector<std::string> known = option_names(app);
        if (std::find(known.begin(), known.end(), option_name(word)) == known.end())
          return unknown_option(word, known, "pcrypt --help");
        continue;
      }
      return unknown_command(app, word);
    }
    return {"no command given", "commands: " + all_commands(app) + "; see 'pcrypt --help'"};
  }

  const CLI::App& sub = *parsed.front();
  const std::string help = "pcrypt help " + sub.get_name();
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    const std::vector<std::string> extras = app.remaining(true);
    // Where the command's word is on the command line: an option before it (`pcrypt -k k.key encrypt f`) is
    // one of the command's own, given too early.
    int command_at = argc;
    for (int i = 1; i < argc; ++i)
      if (argv[i] == sub.get_name()) {
        command_at = i;
        break;
      }
    for (const std::string& word : extras) {
      if (!is_option_word(word)) continue;
      const std::vector<std::string> own = option_names(sub);
      const bool before_command = std::find_if(argv + 1, argv + command_at,
                                               [&](const char* a) { return word == a; }) != argv + command_at;
      if (before_command && std::find(own.begin(), own.end(), option_name(word)) != own.end())
        return {"option '" + option_name(word) + "' is given before the command '" + sub.get_name() +
                    "': options go after the command",
                "write 'pcrypt " + sub.get_name() + " " + option_name(word) + " ...'; see '" + help + "'"};
      std::vector<std::string> candidates = option_names(sub);
      const std::vector<std::string> global = option_names(app);
      candidates.insert(candidates.end(), global.begin(), global.end());
      UsageMessage m = unknown_option(word, candidates, help);
      m.message += " for '" + sub.get_name() + "'";
      return m;
    }
    if (!extras.empty()) {
      const bool takes_file = sub.get_option_no_throw("FILE") != nullptr;
      const bool has_output = sub.get_option_no_throw("--output") != nullptr;
      const std::string command = "'pcrypt " + sub.get_name() + "'";
      return {"unexpected argument '" + extras.front() + "'",
              takes_file   ? command + " takes one FILE; see '" + help + "'"
              : has_output ? command + " takes no FILE (the output is -o FILE); see '" + help + "'"
                           : "see '" + help + "'"};
    }
  }
  return {error.what(), "see '" + help + "'"};
}

}  // namespace pcrypt::app
