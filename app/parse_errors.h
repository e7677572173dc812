// CLI11's parse failures in pcrypt's words: one "pcrypt: error: ..." line naming the offending word, with a
// "did you mean" hint when a known option or command is close to it (a typo, a wrong case: -K for -k).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// CLI11 declared, not included: its header costs each file that includes it seconds of compile time, and
// only the files that build or read the command line (cli.cc, main.cc, ...) need more than these names.
namespace CLI {
class App;
class ParseError;
}  // namespace CLI

namespace pcrypt::app {

struct UsageMessage {
  std::string message;
  std::string hint;
};

// The candidate closest to `typed`: equal ignoring case, else within an edit distance of 2 (1 for names of
// up to 3 characters, so "-x" does not suggest "-q"). "" when none is close; the first one on ties.
std::string closest_name(std::string_view typed, const std::vector<std::string>& candidates);

// What to print for a parse error of `app` (the top-level CLI::App, after a failed parse of argv).
// "unknown command 'WORD'" with a suggestion or the list of commands.
UsageMessage unknown_command(const CLI::App& app, const std::string& word);

// `pcrypt help [COMMAND]` as CLI11 understands it: `pcrypt [COMMAND] --help`; `pcrypt -d ...` / `-e ...`
// (age's and zstd's flags, in the command's place) as `pcrypt decrypt ...` / `encrypt ...`; any other
// command line unchanged (the words point into argv or are static). `error` is set when COMMAND is not a
// command.
struct HelpRewrite {
  std::vector<const char*> args;
  std::optional<UsageMessage> error;
};
HelpRewrite rewrite_help_command(const CLI::App& app, int argc, const char* const* argv);

UsageMessage describe_parse_error(const CLI::App& app, const CLI::ParseError& error, int argc,
                                  const char* const* argv);

}  // namespace pcrypt::app
