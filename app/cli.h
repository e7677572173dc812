// The command line: what each subcommand accepts, parsed into plain structs. Values that need interpretation
// (sizes, counts) are kept as text here and converted by the commands, so every bad value is reported the
// same way (core::Error(usage), exit 2).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "app/logging.h"

namespace pcrypt::app {

// encrypt and decrypt share most options; the kdf_* fields belong to encrypt, max_kdf_* to decrypt.
struct CryptArgs {
  std::string file;    // "" or "-": standard input
  std::string output;  // "" (none given): the default name or stdout; "-": standard output
  bool output_given = false;
  std::vector<std::string> key_files;
  bool passphrase = false;
  std::string passphrase_file;
  std::vector<std::string> recipients;       // -r (encrypt)
  std::vector<std::string> recipient_files;  // -R (encrypt), "-" = standard input
  std::vector<std::string> identity_files;   // -i (decrypt)
  std::string threads;                       // "" = one per online core
  std::string chunk_size;                    // "" = the format default
  bool force = false;
  std::string engine;  // "" = $PCRYPT_ENGINE or the fastest
  std::string kdf_memory, kdf_ops;
  std::string max_kdf_memory, max_kdf_ops;
};

struct KeygenArgs {
  std::string output;  // "" or "-": standard output
  bool force = false;
  bool identity = false;  // --identity: an X25519 identity (age encoding) instead of a key file
};

struct RecipientArgs {
  std::vector<std::string> files;  // identity files
};

struct InfoArgs {
  std::string file;  // "" or "-": standard input
  bool engines = false;
};

struct ParsedArgs {
  bool quiet = false;
  bool verbose = false;
  CryptArgs encrypt, decrypt;
  KeygenArgs keygen;
  RecipientArgs recipient;
  InfoArgs info;
  Verbosity verbosity() const {
    return quiet ? Verbosity::quiet : (verbose ? Verbosity::verbose : Verbosity::normal);
  }
};

struct Subcommands {
  CLI::App* encrypt;
  CLI::App* decrypt;
  CLI::App* keygen;
  CLI::App* info;
  CLI::App* recipient;
};

// Registers pcrypt's options and subcommands on `app`, bound to `args` (which must outlive the parse).
Subcommands define_cli(CLI::App& app, ParsedArgs& args);

// One line per AES engine and whether it is supported/selected (also when $PCRYPT_ENGINE is invalid).
std::string engine_table();

// The text `pcrypt --version` prints: version line plus the engine table.
std::string version_text();

}  // namespace pcrypt::app
