// Turning -k/-p/--passphrase-file/-r/-R/-i into the credentials core::encrypt_stream / decrypt_stream take.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/library.h"
#include "app/passphrase.h"
#include "app/report.h"
#include "core/door/encrypted_file.h"
#include "core/keys/credential.h"
#include "io/stream.h"

namespace pcrypt::app {

// Throws core::Error(usage) when neither -k nor -p was given; called before any file is touched, so that a
// usage mistake is reported as one even when the input is missing too. Decryption on a terminal is let
// through: the file may need only a passphrase, which can then be asked for (DecryptionInput).
void require_credential(const CryptArgs& args, PassphrasePurpose purpose);

// Key files in the order given (each key once), then the passphrase if asked for. Throws core::Error(usage)
// when neither was given, and whatever reading/parsing a key file or obtaining the passphrase throws.
std::vector<core::Credential> gather_credentials(const CryptArgs& args, PassphrasePurpose purpose);

// Decryption's credentials, for one file or for all the files of a run. Built before any header is read: the
// credentials that need no prompt -- key files and identities (each key once), and the passphrase when it
// comes from --passphrase-file or $PCRYPT_PASSPHRASE -- are read at once, since a passphrase file may share
// standard input with the data (it ends at its newline). Then, per file, for_header() chooses from the slots
// of its header:
//  - -p on a file without a passphrase slot: refused before any prompt, core::Error(header) naming the slots
//    it has (exit 3, as for a wrong key); with key files given too, -p is ignored with a warning;
//  - -p on a file with a passphrase slot: the passphrase given, else asked for on the terminal;
//  - no credential given (require_credential lets that through only on a terminal or with
//    $PCRYPT_PASSPHRASE set): a file whose slots are all passphrase slots takes $PCRYPT_PASSPHRASE, else asks
//    for the passphrase on the terminal (as age does); any other file is core::Error(usage) naming its slots.
// A passphrase asked for is asked once, by the first file that needs it, and kept for the run's other files.
class DecryptionKeys {
 public:
  explicit DecryptionKeys(const CryptArgs& args);

  // The credentials for a file so described (`file` names it in messages), valid until the next call: the
  // passphrase, when given, is lent as the vector's last element and taken back by the next call. (An age
  // file's scrypt stanzas are its passphrase slots.)
  const std::vector<core::Credential>& for_file(const core::door::FileDescription& described,
                                                const std::string& file);

 private:
  // The rules above, given the header's description: its passphrase slots, all its slots, how to name them,
  // and its format (for the hint: an age file opens with -i, never -k).
  const std::vector<core::Credential>& choose(const core::door::FileDescription& described,
                                              const std::string& file);

  bool wants_passphrase_;
  std::vector<core::Credential> keys_;  // key files and identities, and while lent the passphrase
  bool has_passphrase_ = false;         // given, or asked for by an earlier file
  SecretBytes passphrase_;              // it, while not lent
  std::string role_;                    // said in the prompt (CryptArgs::passphrase_role)
};

// An encrypted input opened the way decrypt opens it; verify, range reads, rekey and info open theirs with it
// too, so the same file and options get the same credentials, prompts and refusals in every command: its
// keys (DecryptionKeys), then the file through the door (core::door::EncryptedFile: format and header read
// once; core::Error(header) naming the input if it is malformed), then the credentials its header calls for.
class DecryptionInput {
 public:
  // `in` is named `name` in messages. `run_keys`: the keys of a run over several files, or nullptr for this
  // input's own.
  DecryptionInput(const CryptArgs& args, io::Reader& in, const std::string& name,
                  DecryptionKeys* run_keys = nullptr);
  DecryptionInput(const DecryptionInput&) = delete;  // credentials() may point into own_keys_
  DecryptionInput& operator=(const DecryptionInput&) = delete;

  core::door::EncryptedFile& file() { return *file_; }
  const std::vector<core::Credential>& credentials() const { return *credentials_; }
  // file().unlock() with these credentials (header errors named by the input); returns the opening slot in
  // words ("" when the format does not say).
  std::string unlock(const core::door::UnlockLimits& limits);

 private:
  std::optional<DecryptionKeys> own_keys_;  // first: read before the header
  std::string name_;
  std::unique_ptr<core::door::EncryptedFile> file_;
  const std::vector<core::Credential>* credentials_ = nullptr;
};

// The credentials in a file that is either a key file or an identity file (age/pcrypt identities, OpenSSH
// keys), told apart by its contents: `rekey --remove-key`, `info -k`.
std::vector<core::Credential> read_key_or_identity_file(const std::string& path);

// Whether the user asked for a passphrase (-p or --passphrase-file).
inline bool wants_passphrase(const CryptArgs& args) {
  return args.passphrase || !args.passphrase_file.empty();
}

}  // namespace pcrypt::app
