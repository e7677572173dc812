// The command line's words for the library's errors, chosen by code and fields, never from the library's
// text.
//
// The library tells people what went wrong in its own sentence (kept: it says which file, which chunk, what
// was given) and gives advice in its callers' terms: the API's parameters ("a key file (key_files)"). A
// person at a shell needs the flags instead ("-k KEYFILE"). So for the codes whose advice names the API, the
// CLI has its own hint, made from the code and the failure's fields (the work factor asked, what a file given
// in the wrong place really is, the slot and stanza types a file opens with); for the others the library's
// hint is already in words a person can act on, and is printed as it is. The `age` personality has fewer
// flags: where it has no words of its own, it prints the library's hint, as age prints Go's.
#pragma once

#include <optional>
#include <string>

#include <pcrypt/pcrypt.h>

namespace pcrypt::app {

enum class CliPersonality { pcrypt, age };

// A failure the command line found itself (a flag's value, an output it refuses to overwrite): its hint is
// already in the CLI's words. The library's failures are pcrypt::Error; only these keep their hint as given.
class CliError : public Error {
 public:
  using Error::Error;
};

// The CLI's hint for a library failure, or nullopt when the library's hint (possibly none) is the one to
// print.
std::optional<std::string> cli_hint(const Error& e, CliPersonality personality = CliPersonality::pcrypt);

// The hint to print for any failure: a CliError's own, else cli_hint(), else the library's.
std::string hint_for(const Error& e, CliPersonality personality = CliPersonality::pcrypt);

}  // namespace pcrypt::app
