// Every environment variable pcrypt reads, read here and nowhere else (the --help footer and pcrypt(1) list
// them). Core never looks at the environment: it is handed what the CLI decided.
#pragma once

#include <string>
#include <vector>

namespace pcrypt::app {

// $PCRYPT_PASSPHRASE (the passphrase for -p when there is no --passphrase-file), or nullptr when unset.
const char* passphrase_from_environment();

// $PCRYPT_SSH_KEY_PASSPHRASE (the passphrase of protected SSH identities when there is no
// --ssh-key-passphrase-file), or nullptr when unset.
const char* ssh_key_passphrase_from_environment();

// The engine name to use: `option` (--engine) if given, else $PCRYPT_ENGINE, else "" (the fastest).
std::string requested_engine(const std::string& option);

// $PCRYPT_THREADS (worker threads for the age personality, whose -j is a plugin, never a thread count), or
// nullptr when unset.
const char* threads_from_environment();

// age-plugin-batchpass's settings (age 1.3's names): $AGE_PASSPHRASE, $AGE_PASSPHRASE_FD,
// $AGE_PASSPHRASE_WORK_FACTOR and $AGE_PASSPHRASE_MAX_WORK_FACTOR; "" when unset (age treats empty as unset).
std::string batchpass_variable(const char* name);

// Where age plugins are looked for: $PATH, else the usual /usr/local/bin:/usr/bin:/bin.
std::string plugin_search_path();
// The whole environment, "NAME=value" each: what an age plugin program is started with.
std::vector<std::string> environment_for_plugins();

}  // namespace pcrypt::app
