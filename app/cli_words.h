// The library speaks its own words in errors and hints (the API's fields and concepts: "key files cannot be
// used in the age format", "raise the scrypt work-factor limit (log2 N) to 23"); a library caller has no
// flags. The CLI tells people its flags instead: one table of the library's phrases and what the `pcrypt`
// command line (and the `age` personality, which has fewer flags) says for each, applied to every library
// error the CLI prints. tests/test_app_cli_words.cc checks that each library phrase is really produced.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace pcrypt::app {

// One phrase of the library and the CLI's words for it. `{}` in both stands for the same text (a path, a
// number): up to the phrase's next fixed text, or to the end of the line when `{}` ends the phrase.
struct CliPhrase {
  std::string_view library;
  std::string_view pcrypt;  // the `pcrypt` command line's words
  std::string_view age;     // the age personality's; empty: it keeps the library's (age has no such flag)
};

std::span<const CliPhrase> cli_phrases();

enum class CliPersonality { pcrypt, age };

// `text` (a library message or hint) with each library phrase of the table in the personality's words.
std::string in_cli_words(std::string_view text, CliPersonality personality = CliPersonality::pcrypt);

}  // namespace pcrypt::app
