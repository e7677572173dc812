// Turning -k/-p/--passphrase-file/-r/-R/-i into the credentials core::encrypt_stream / decrypt_stream take.
#pragma once

#include <string>
#include <vector>

#include "app/cli.h"
#include "app/header_peek.h"
#include "app/passphrase.h"
#include "core/credential.h"
#include "core/crypt.h"
#include "core/format.h"
#include "io/stream.h"

namespace pcrypt::app {

// Throws core::Error(usage) when neither -k nor -p was given; called before any file is touched, so that a
// usage mistake is reported as one even when the input is missing too. Decryption on a terminal is let
// through: the file may need only a passphrase, which can then be asked for (DecryptionInput).
void require_credential(const CryptArgs& args, PassphrasePurpose purpose);

// Key files in the order given (each key once), then the passphrase if asked for. Throws core::Error(usage)
// when neither was given, and whatever reading/parsing a key file or obtaining the passphrase throws.
std::vector<core::Credential> gather_credentials(const CryptArgs& args, PassphrasePurpose purpose);

// An encrypted input opened the way decrypt opens it; verify, range reads and rekey open theirs with it too,
// so the same file and options get the same credentials, prompts and refusals in every command. In order:
//  1. the credentials that need no prompt: key files and identities (each key once), and the passphrase when
//     it comes from --passphrase-file or $PCRYPT_PASSPHRASE. They are read before the header, since a
//     passphrase file may share standard input with the data (it ends at its newline);
//  2. the header, read once and replayed by reader() (a pipe cannot be read twice): core::Error(header)
//     naming the input if it is malformed;
//  3. the credentials chosen from the header's slots:
//     - -p on a file without a passphrase slot: refused before any prompt, core::Error(header) naming the
//       slots it has (exit 3, as for a wrong key); with key files given too, -p is ignored with a warning;
//     - -p on a file with a passphrase slot: the passphrase from step 1, else asked for on the terminal;
//     - no credential given (require_credential lets that through only on a terminal): a file whose slots are
//       all passphrase slots asks for the passphrase on the terminal (as age does); any other file is
//       core::Error(usage) naming its slots.
class DecryptionInput {
 public:
  // `in` is named `name` in messages. `run_credentials`: the credentials of a run over several files,
  // gathered once and used as they are (steps 1 and 3 are skipped); nullptr: this input's own.
  DecryptionInput(const CryptArgs& args, io::Reader& in, const std::string& name,
                  const std::vector<core::Credential>* run_credentials = nullptr);

  // The whole input, header included.
  PeekedInput& reader() { return peeked_; }
  const core::ParsedHeader& parsed() const { return peeked_.parsed(); }
  const std::vector<core::Credential>& credentials() const {
    return run_credentials_ != nullptr ? *run_credentials_ : chosen_;
  }

 private:
  DecryptionInput(const CryptArgs& args, std::vector<core::Credential> given, io::Reader& in,
                  const std::string& name, const std::vector<core::Credential>* run_credentials);

  PeekedInput peeked_;
  std::vector<core::Credential> chosen_;
  const std::vector<core::Credential>* run_credentials_;
};

// Whether the user asked for a passphrase (-p or --passphrase-file).
inline bool wants_passphrase(const CryptArgs& args) {
  return args.passphrase || !args.passphrase_file.empty();
}

}  // namespace pcrypt::app
