// Turning -k/-p/--passphrase-file into the credentials core::encrypt_stream / decrypt_stream take.
#pragma once

#include <vector>

#include "app/cli.h"
#include "app/passphrase.h"
#include "core/credential.h"
#include "core/crypt.h"
#include "core/format.h"

namespace pcrypt::app {

// Throws core::Error(usage) when neither -k nor -p was given; called before any file is touched, so that a
// usage mistake is reported as one even when the input is missing too. Decryption on a terminal is let
// through: the file may need only a passphrase, which can then be asked for (credentials_for_header).
void require_credential(const CryptArgs& args, PassphrasePurpose purpose);

// Key files in the order given (each key once), then the passphrase if asked for. Throws core::Error(usage)
// when neither was given, and whatever reading/parsing a key file or obtaining the passphrase throws.
std::vector<core::Credential> gather_credentials(const CryptArgs& args, PassphrasePurpose purpose);

// Decryption's credentials that need no prompt: the key files (each key once), and the passphrase when it
// comes from --passphrase-file or $PCRYPT_PASSPHRASE. Read before the header, since a passphrase file may
// share standard input with the data (it ends at its newline). A prompt waits for credentials_for_header.
std::vector<core::Credential> gather_decrypt_credentials(const CryptArgs& args);

// Decryption's credentials, chosen from the slots of the file's header (`file` names it in messages):
//  - -p on a file without a passphrase slot: refused before any prompt, core::Error(header) naming the slots
//    it has (exit 3, as for a wrong key); with key files given too, -p is ignored with a warning;
//  - -p on a file with a passphrase slot: the passphrase from `credentials`, else asked for on the terminal;
//  - no credential given (only possible on a terminal): a file whose slots are all passphrase slots asks for
//    the passphrase on the terminal (as age does); any other file is core::Error(usage) naming its slots.
std::vector<core::Credential> credentials_for_header(const CryptArgs& args,
                                                     std::vector<core::Credential> keys,
                                                     const core::FileHeader& header, const std::string& file);

// Whether the user asked for a passphrase (-p or --passphrase-file).
inline bool wants_passphrase(const CryptArgs& args) {
  return args.passphrase || !args.passphrase_file.empty();
}

}  // namespace pcrypt::app
