// The passphrase of a protected OpenSSH identity (-i ~/.ssh/id_ed25519), for runs without a terminal (CI
// jobs, cron) as for runs with one. The same ways as -p's passphrase, under their own names.
#pragma once

#include <string>

#include <pcrypt/secret_bytes.h>

// CLI11 declared, not included: its header costs each file that includes it seconds of compile time, and
// only the files that build or read the command line (cli.cc, main.cc, ...) need more than these names.
namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace pcrypt::app {

// Adds --ssh-key-passphrase-file FILE to a command that opens files with -i.
CLI::Option* add_ssh_key_passphrase_option(CLI::App& cmd);

// For the SSH key `key_name`, once a slot needs it: --ssh-key-passphrase-file FILE if given (its first line,
// read as --passphrase-file reads), else $PCRYPT_SSH_KEY_PASSPHRASE if set (both read once, then used for
// every protected key of the run), else asked on the terminal. Without any of them: Error(usage) naming
// the key, with a hint to these ways.
SecretBytes obtain_ssh_key_passphrase(const std::string& key_name);

// Reads --ssh-key-passphrase-file now, if given: called when the -i files are read, before the data, so that
// `--ssh-key-passphrase-file -` takes standard input's first line and leaves the rest for the data (as
// --passphrase-file - does).
void read_given_ssh_key_passphrase();

}  // namespace pcrypt::app
