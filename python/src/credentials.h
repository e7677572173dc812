// The credentials a Python call names (keyword arguments keys=, identities=, recipients=,
// recipient_files=, passphrase=) as libpcrypt's (include/pcrypt/pcrypt.h), with the checks worded in those
// argument names; what a key file, identity or recipient holds is checked by the library, in the CLI's words.
#pragma once

#include <pcrypt/pcrypt.h>

#include <optional>
#include <string>
#include <vector>

namespace pcrypt::python {

struct CredentialArgs {
  std::vector<std::string> keys;             // key file paths: either direction
  std::vector<std::string> identities;       // identity files: decryption only
  std::vector<std::string> recipients;       // "age1…" / "ssh-ed25519 …": encryption only
  std::vector<std::string> recipient_files;  // files of recipients: encryption only
  std::optional<std::string> passphrase;     // the passphrase itself (Python has no terminal to ask on)
};

// What encrypts: pcrypt::Error(usage) when nothing is given, or identities are (they cannot encrypt).
pcrypt::Recipients encryption_recipients(const CredentialArgs& args);
// What decrypts: pcrypt::Error(usage) when nothing is given, or recipients are (they cannot decrypt).
pcrypt::Credentials decryption_credentials(const CredentialArgs& args);
// Unlocks `file` (named `name`) with what `args` gives. A passphrase alone for a file without a passphrase
// slot is a wrong credential, as on the command line (the library would not even ask for it).
void unlock(pcrypt::File& file, const CredentialArgs& args, const std::string& name);

}  // namespace pcrypt::python
