// age's command line read as age reads it: Go's flag package (`-name`, `--name`, `-name=value`, `-name
// value`; flags end at the first argument that is not one, at "-" and after "--"), with age 1.3's flags.
#pragma once

#include <string>
#include <vector>

namespace pcrypt::app {

struct AgeArgs {
  bool encrypt = false;
  bool decrypt = false;
  bool passphrase = false;
  bool armor = false;
  bool version = false;
  std::string output;                        // -o; "" or "-": standard output
  std::vector<std::string> recipients;       // -r
  std::vector<std::string> recipient_files;  // -R
  // -i FILE and -j PLUGIN in the order given (age tries them in that order).
  struct Identity {
    bool plugin = false;  // -j
    std::string value;
  };
  std::vector<Identity> identities;
  std::vector<std::string> inputs;  // what follows the flags (age takes at most one)

  std::vector<std::string> identity_files() const;
  std::vector<std::string> plugins() const;
};

struct AgeParse {
  enum class Outcome { run, help, bad_flag };
  Outcome outcome = Outcome::run;
  AgeArgs args;
  std::string error;  // bad_flag: Go's words ("flag provided but not defined: -x")
};

// `args`: the arguments after the program's name.
AgeParse parse_age_args(const std::vector<std::string>& args);

}  // namespace pcrypt::app
