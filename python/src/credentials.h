// The credentials a Python call names (keyword arguments keys=, identities=, recipients=,
// recipient_files=, passphrase=, and for the Cobblestone formats raw_key= and context=) as libpcrypt's
// (include/pcrypt/pcrypt.h), with the checks worded in those argument names; what a key file, identity or
// recipient holds is checked by the library, in the CLI's words.
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
  // The Cobblestone formats' one raw key: the file holding exactly its 16 or 32 bytes, or the bytes
  // themselves; and the application's context (any bytes; none when not given).
  std::optional<std::string> raw_key_file;
  std::optional<std::string> raw_key;
  std::optional<std::string> context;
  // The format named by format=: decrypting, only a Cobblestone format (no magic) is opened as named, and
  // pcrypt and age files are told by their first bytes.
  std::optional<std::string> format;
};

// A format's Python name ("pcrypt", "age", "cobblestone-128", "cobblestone-256"); pcrypt::Error(usage) for
// any other.
pcrypt::Format format_named(const std::string& name);
// What encrypts to `format`, with `keys` (which must outlive the encryption) holding a raw key:
// pcrypt::Error(usage) when nothing is given, identities are (they cannot encrypt), or the credentials do
// not fit the format (a raw key for the Cobblestone formats alone, and nothing else with it).
pcrypt::Recipients encryption_recipients(const CredentialArgs& args, pcrypt::Format format,
                                         pcrypt::Keys& keys);
// What decrypts, with `keys` (which must outlive unlocking) holding a raw key: pcrypt::Error(usage) when
// nothing is given, or recipients are (they cannot decrypt).
pcrypt::Credentials decryption_credentials(const CredentialArgs& args, pcrypt::Keys& keys);
// The file at `source`, opened as args.format says (a Cobblestone format) or as its first bytes say.
pcrypt::File open_file(pcrypt::Source source, const CredentialArgs& args);
// Unlocks `file` (named `name`) with what `args` gives. A passphrase alone for a file without a passphrase
// slot is a wrong credential, as on the command line (the library would not even ask for it).
void unlock(pcrypt::File& file, const CredentialArgs& args, const std::string& name);

}  // namespace pcrypt::python
