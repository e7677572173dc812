// The credentials a Python call names (keyword arguments keys=, identities=, recipients=, passphrase=) as
// core credentials, read by the CLI's own readers (app/credentials.h, app/public_key_credentials.h): a key
// file, an identity file or a recipient is checked and refused in the same words as on the command line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/keys/credential.h"

namespace pcrypt::python {

struct CredentialArgs {
  std::vector<std::string> keys;             // key file paths (-k)
  std::vector<std::string> identities;       // identity files (-i): decryption only
  std::vector<std::string> recipients;       // "age1…" / "ssh-ed25519 …" (-r): encryption only
  std::vector<std::string> recipient_files;  // recipients files (-R): encryption only
  std::optional<std::string> passphrase;     // the passphrase itself (Python has no terminal to ask on)
};

// Key files, recipients and the passphrase; core::Error(usage) when none is given, or when identities are
// (they cannot encrypt).
std::vector<core::Credential> encryption_credentials(const CredentialArgs& args);
// Key files, identities and the passphrase; core::Error(usage) when none is given, or when recipients are.
std::vector<core::Credential> decryption_credentials(const CredentialArgs& args);

}  // namespace pcrypt::python
