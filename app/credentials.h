// Turning -k/-p/--passphrase-file into the credentials core::encrypt_stream / decrypt_stream take.
#pragma once

#include <vector>

#include "app/cli.h"
#include "app/passphrase.h"
#include "core/credential.h"

namespace pcrypt::app {

// Throws core::Error(usage) when neither -k nor -p was given; called before any file is touched, so that a
// usage mistake is reported as one even when the input is missing too.
void require_credential(const CryptArgs& args);

// Key files in the order given, then the passphrase if asked for. Throws core::Error(usage) when neither was
// given, and whatever reading/parsing a key file or obtaining the passphrase throws.
std::vector<core::Credential> gather_credentials(const CryptArgs& args, PassphrasePurpose purpose);

// Whether the user asked for a passphrase (-p or --passphrase-file).
inline bool wants_passphrase(const CryptArgs& args) {
  return args.passphrase || !args.passphrase_file.empty();
}

}  // namespace pcrypt::app
