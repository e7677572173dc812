// The command line: what each subcommand accepts, parsed into plain structs. Values that need interpretation
// (sizes, counts) are kept as text here and converted by the commands, so every bad value is reported the
// same way (Error(usage), exit 2).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/logging.h"

// CLI11 declared, not included: its header costs each file that includes it seconds of compile time, and
// only the files that build or read the command line (cli.cc, main.cc, ...) need more than these names.
namespace CLI {
class App;
}  // namespace CLI

namespace pcrypt::app {

// encrypt and decrypt share most options; the kdf_* fields belong to encrypt, max_kdf_* to decrypt.
struct CryptArgs {
  std::string file;  // "" or "-": standard input; with several inputs, the first
  std::vector<std::string>
      files;           // every FILE given (encrypt/decrypt take several, each to its default name)
  std::string output;  // "" (none given): the default name or stdout; "-": standard output
  bool output_given = false;
  std::vector<std::string> key_files;
  bool passphrase = false;
  std::string passphrase_file;
  std::vector<std::string> recipients;       // -r (encrypt)
  std::vector<std::string> recipient_files;  // -R (encrypt), "-" = standard input
  std::vector<std::string> identity_files;   // -i (decrypt: opens slots; encrypt: its recipient)
  std::vector<std::string> plugin_names;     // --plugin NAME (decrypt): age-plugin-NAME's default identity
  std::string threads;                       // "" = one per online core
  std::string chunk_size;                    // "" = the format default
  bool force = false;
  std::string engine;  // "" = $PCRYPT_ENGINE or the fastest
  std::string kdf_memory, kdf_ops;
  std::string max_kdf_memory, max_kdf_ops;
  bool progress = false;        // --progress: draw it even when stderr is not a terminal
  std::string offset, length;   // decrypt: a plaintext byte range ("" = from the start / to the end)
  std::string passphrase_role;  // set by rekey: "current" or "new", said in the prompts (not an option)
  std::string
      format;  // encrypt: "" or "pcrypt" (the default), "age", "cobblestone-128" or "cobblestone-256";
               // decrypt/verify: "" (told by the file's first bytes) or a cobblestone format
  std::string raw_key;  // --raw-key FILE: the cobblestone formats' input key (16 or 32 bytes)
  std::string context;  // --context TEXT: their context, UTF-8 as given
  bool context_given = false;
  std::string context_file;     // --context-file FILE: the context as the file's bytes (any bytes)
  bool armor = false;           // encrypt -a/--armor: age's ASCII armor (with --format age)
  std::string max_work_factor;  // decrypt/verify: the largest age scrypt log2 work factor to run ("" = 22)
  bool json = false;            // --json: one JSON summary line per file on standard error
};

// rekey: the credential that opens the file (-k/-i/-p, as decrypt's), and the changes.
struct RekeyArgs {
  std::string file;
  std::vector<std::string> files;  // every FILE given (each rekeyed in place)
  std::string output;              // "": in place
  bool force = false;
  std::vector<std::string> key_files;
  bool passphrase = false;
  std::string passphrase_file;
  std::vector<std::string> identity_files;  // -i: identities that open FILE
  std::vector<std::string> add_keys;
  std::vector<std::string> add_recipients;       // --add-recipient
  std::vector<std::string> add_recipient_files;  // --add-recipients-file
  // -r/-R (with --new-file-key): every recipient of the new file; the opening credentials only open it.
  std::vector<std::string> recipients, recipient_files;
  bool add_passphrase = false;
  std::string add_passphrase_file;
  std::vector<std::string> remove_slots;       // numbers as `pcrypt info` shows them, checked by the command
  std::vector<std::string> remove_keys;        // --remove-key: key or identity files whose slots go
  std::vector<std::string> remove_recipients;  // --remove-recipient: public keys whose slots go
  bool new_file_key = false;  // re-encrypt under a fresh file key (slots: the credentials given)
  std::string threads;        // --new-file-key's pipeline; "" = one per online core
  std::string kdf_memory, kdf_ops;
  std::string max_kdf_memory, max_kdf_ops;
  std::string max_work_factor;  // an age file's scrypt stanza: the largest log2 work factor to run
};

struct KeygenArgs {
  std::string output;  // "" or "-": standard output
  bool force = false;
  bool identity = false;  // --identity: an X25519 identity (age encoding) instead of a key file
  bool pq = false;        // --pq: an ML-KEM-768 + X25519 identity (AGE-SECRET-KEY-PQ-1…, age 1.3)
  std::string raw;        // --raw 16|32: a raw key for the cobblestone formats ("" = a pcrypt key file)
};

struct RecipientArgs {
  std::vector<std::string> files;  // identity files
};

struct InfoArgs {
  std::string file;                // "" or "-": standard input
  std::vector<std::string> files;  // every FILE given
  bool engines = false;
  // -k/-i/-p: say which slot(s) each of these opens (checked against the header MAC)
  std::vector<std::string> key_files, identity_files;
  bool passphrase = false;
  std::string passphrase_file;
  bool json = false;  // --json: one JSON object per file (man/pcrypt.1, JSON OUTPUT)
};

struct ParsedArgs {
  bool quiet = false;
  bool verbose = false;
  CryptArgs encrypt, decrypt;
  CryptArgs verify;  // input, credentials, performance and KDF ceiling only
  RekeyArgs rekey;
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
  CLI::App* verify;
  CLI::App* rekey;
  CLI::App* recipient;
};

// Registers pcrypt's options and subcommands on `app`, bound to `args` (which must outlive the parse).
Subcommands define_cli(CLI::App& app, ParsedArgs& args);

// No "TEXT" placeholder in any help (CLI11's default for string values): a positional shows just its name,
// -o/--output "FILE", any other option its long name in capitals (--format FORMAT). Call once every command
// (bench's too) is defined.
void name_untyped_values(CLI::App& app);

// The engines table of `pcrypt --version` and `info --engines`: one line per AES engine saying which this
// machine runs and marking the one `chosen` names ("": the fastest; nullopt: none marked), the default and
// why, a note when the chosen one is not it, then the ChaCha20-Poly1305 backends age payloads can use here.
// Error(usage) for a chosen name that is unknown or that this machine cannot run.
std::string describe_engines(const std::optional<std::string>& chosen);

// describe_engines for the engine --engine or PCRYPT_ENGINE asks for (also when $PCRYPT_ENGINE is invalid).
std::string engine_table();

// The text `pcrypt --version` prints: version line plus the engine table.
std::string version_text();

}  // namespace pcrypt::app
