// Turning -k/-p/--passphrase-file/-r/-R/-i into libpcrypt's credentials (<pcrypt/pcrypt.h>: Keys read once,
// Credentials for one unlock), and opening encrypted inputs the same way in every command.
#pragma once

#include <pcrypt/pcrypt.h>

#include <optional>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/library.h"
#include "app/passphrase.h"
#include "app/report.h"

namespace pcrypt::app {

// Throws Error(usage) when neither -k nor -p was given; called before any file is touched, so that a usage
// mistake is reported as one even when the input is missing too. Decryption on a terminal is let through:
// the file may need only a passphrase, which can then be asked for (DecryptionInput).
void require_credential(const CryptArgs& args, PassphrasePurpose purpose);

// Encryption's credentials, read once: key files in the order given (each key once), recipients (-r, -R, and
// -i's own recipients), then the passphrase if asked for. Throws Error(usage) when none was given, and
// whatever reading a file or obtaining the passphrase throws.
Keys gather_credentials(const CryptArgs& args, PassphrasePurpose purpose);

// Decryption's credentials, for one file or for all the files of a run. Built before any header is read: the
// credentials that need no prompt -- key files and identities (each key once), and the passphrase when it
// comes from --passphrase-file or $PCRYPT_PASSPHRASE -- are read at once, since a passphrase file may share
// standard input with the data (it ends at its newline). Then, per file, choose() decides from the slots
// of its header:
//  - -p on a file without a passphrase slot: refused before any prompt, Error(damaged_header) naming the
//    slots it has (exit 3, as for a wrong key); with key files given too, -p is ignored with a warning;
//  - -p on a file with a passphrase slot: the passphrase given, else asked for on the terminal;
//  - no credential given (require_credential lets that through only on a terminal or with
//    $PCRYPT_PASSPHRASE set): a file whose slots are all passphrase slots takes $PCRYPT_PASSPHRASE, else asks
//    for the passphrase on the terminal (as age does); any other file is Error(usage) naming its slots.
// A passphrase asked for is asked once, by the first file that needs it, and kept for the run's other files.
class DecryptionKeys {
 public:
  explicit DecryptionKeys(const CryptArgs& args);
  DecryptionKeys(const DecryptionKeys&) = delete;  // credentials() points into it
  DecryptionKeys& operator=(const DecryptionKeys&) = delete;

  // Whether a file so described (`file` names it in messages) is opened with the passphrase: the rules
  // above, asking for the passphrase when it is needed and not known yet.
  bool choose(const Description& described, const std::string& file);
  // The credentials for one unlock: the keys read, the passphrase when chosen, and `base`'s limits and
  // session. Valid while this object lives.
  Credentials credentials(const Credentials& base, bool with_passphrase) const;

 private:
  bool wants_passphrase_;
  Keys keys_;                    // key files, identities and plugins
  bool has_passphrase_ = false;  // given, or asked for by an earlier file
  SecretBytes passphrase_;       // it
  std::string role_;             // said in the prompt (CryptArgs::passphrase_role)
};

// An encrypted input opened the way decrypt opens it; verify, range reads and rekey open theirs with it too,
// so the same file and options get the same credentials, prompts and refusals in every command: its keys
// (DecryptionKeys), then the file (pcrypt::File: format and header read once; an error naming the input if
// it is malformed), then the credentials its header calls for.
class DecryptionInput {
 public:
  // `run_keys`: the keys of a run over several files, or nullptr for this input's own.
  DecryptionInput(const CryptArgs& args, const Input& input, DecryptionKeys* run_keys = nullptr);
  // The same for an encrypted file read from `source` (pcrypt mount's files, opened only while read), named
  // `name` in messages.
  DecryptionInput(const CryptArgs& args, Source source, const std::string& name,
                  DecryptionKeys* run_keys = nullptr);
  DecryptionInput(const DecryptionInput&) = delete;
  DecryptionInput& operator=(const DecryptionInput&) = delete;

  File& file() { return *file_; }
  // file().unlock() with the chosen credentials and `base`'s limits and session (header errors named by the
  // input); returns the opening slot in words ("" when the format does not say).
  std::string unlock(const Credentials& base);

 private:
  std::optional<DecryptionKeys> own_keys_;  // first: read before the header
  DecryptionKeys* keys_;
  std::string name_;
  std::optional<File> file_;
  bool with_passphrase_ = false;
};

// Whether the user asked for a passphrase (-p or --passphrase-file).
inline bool wants_passphrase(const CryptArgs& args) {
  return args.passphrase || !args.passphrase_file.empty();
}

}  // namespace pcrypt::app
