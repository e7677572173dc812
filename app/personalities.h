// pcrypt answering to other programs' names: run through a link named `age` (or as `pcrypt age ARGS...`), it
// is age's command line, not pcrypt's. Each personality is its own command line, with its own words, exit
// statuses and rules; they share pcrypt's library and the CLI's plumbing (endpoints, prompts, plugins).
#pragma once

#include <optional>

namespace pcrypt::app {

// age 1.3's `age` (app/age_command.cc).
int run_age(int argc, char** argv);
// age 1.3's `age-keygen` and `age-inspect` (app/age_keygen.cc, app/age_inspect.cc).
int run_age_keygen(int argc, char** argv);
int run_age_inspect(int argc, char** argv);
// age 1.3's helper plugins, age-plugin-batchpass and age-plugin-pq (app/age_plugins.cc).
int run_age_plugin_batchpass(int argc, char** argv);
int run_age_plugin_pq(int argc, char** argv);

// The personality named by argv[0]'s file name, or else by the first argument (`pcrypt age -d ...`), run
// with the arguments after that name; its exit status. nullopt: neither names one, pcrypt's own command line
// applies.
std::optional<int> run_personality(int argc, char** argv);

}  // namespace pcrypt::app
