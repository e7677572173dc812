// Turning -k/-p/--passphrase-file/-r/-R/-i into the credentials core::encrypt_stream / decrypt_stream take.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/header_peek.h"
#include "app/passphrase.h"
#include "core/age/buffered_input.h"
#include "core/age/file.h"
#include "core/keys/credential.h"
#include "core/pcrypt/crypt.h"
#include "core/pcrypt/format.h"
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

  // The credentials for a file with this header (`file` names it in messages), valid until the next call:
  // the passphrase, when given, is lent as the vector's last element and taken back by the next call.
  const std::vector<core::Credential>& for_header(const core::FileHeader& header, const std::string& file);
  // The same choice for an age file, whose scrypt stanzas are its passphrase slots.
  const std::vector<core::Credential>& for_age_header(const core::age::Header& header,
                                                      const std::string& file);

 private:
  // The rules above, given the header's passphrase slots, all its slots, and how to name them.
  const std::vector<core::Credential>& choose(std::size_t passphrase_slots, std::size_t slots,
                                              const std::string& described, const std::string& file);

  bool wants_passphrase_;
  std::vector<core::Credential> keys_;  // key files and identities, and while lent the passphrase
  bool has_passphrase_ = false;         // given, or asked for by an earlier file
  SecretBytes passphrase_;              // it, while not lent
  std::string role_;                    // said in the prompt (CryptArgs::passphrase_role)
};

// An encrypted input opened the way decrypt opens it; verify, range reads and rekey open theirs with it too,
// so the same file and options get the same credentials, prompts and refusals in every command: its keys
// (DecryptionKeys), then its format, detected from its first bytes (pcrypt, binary age or armored age), then
// its header, read once (pcrypt's replayed by reader(), since a pipe cannot be read twice;
// core::Error(header) naming the input if it is malformed), then the credentials its header calls for.
class DecryptionInput {
 public:
  // `in` is named `name` in messages. `run_keys`: the keys of a run over several files, or nullptr for this
  // input's own.
  DecryptionInput(const CryptArgs& args, io::Reader& in, const std::string& name,
                  DecryptionKeys* run_keys = nullptr);
  DecryptionInput(const DecryptionInput&) = delete;  // credentials() may point into own_keys_
  DecryptionInput& operator=(const DecryptionInput&) = delete;

  // An age file (binary or armored): then age() is its header and payload, and reader()/parsed() may not be
  // used.
  bool is_age() const { return age_ != nullptr; }
  core::age::AgeInput& age() { return *age_; }
  // Commands that do not handle age files yet call this first: core::Error(usage) naming `what`.
  void require_pcrypt(const std::string& what) const;
  // A pcrypt file: the whole input, header included.
  PeekedInput& reader() { return *peeked_; }
  const core::ParsedHeader& parsed() const { return peeked_->parsed(); }
  const std::vector<core::Credential>& credentials() const { return *credentials_; }

 private:
  std::optional<DecryptionKeys> own_keys_;  // first: read before the header
  core::age::BufferedInput detected_;       // the input, its first bytes peeked at to tell the format
  std::optional<PeekedInput> peeked_;       // a pcrypt file's header
  std::unique_ptr<core::age::AgeInput> age_;
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
