// The files that hold credentials, read into core credentials for any format: key files (-k), recipients
// (-r) and recipients files (-R), identity files (-i: age/pcrypt identities, OpenSSH keys). The same readers
// serve the CLI, the Python module and the library, so a file is checked and refused in the same words
// everywhere. What needs the user (a protected SSH key's passphrase, a warning about a skipped line) goes
// through the caller's callbacks: nothing here prompts or prints.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/keys/credential.h"
#include "core/keys/recipient.h"

namespace pcrypt::core::door {

struct CredentialReading {
  // The passphrase of a protected OpenSSH key, asked for when a key needs it; empty: such a key is
  // Error(usage) saying there is no way to ask for it.
  std::function<SecretBytes(const std::string& key_name)> ssh_key_passphrase;
  // One line about something skipped (an ignored line of a recipients file).
  std::function<void(const std::string& line)> warn;
};

// The refusal of a protected OpenSSH key when there is no way to ask for its passphrase.
[[noreturn]] void refuse_protected_ssh_key(const std::string& key_name);

// What a key file is read for: the hint for a missing one differs (encrypting, a new one can be made).
enum class KeyFileUse { encrypt, decrypt };

// A pcrypt key file (FORMAT.md §7). Error(usage) naming what the file is when it is something else (an
// encrypted file, an identity, a public key), Error(io) when it cannot be read.
Credential read_key_file(const std::string& path, KeyFileUse use);
// A raw key file for C2SP chunked encryption (cobblestone): exactly 16 or 32 bytes, nothing else (no
// newline), as Credential::Kind::raw_key with `context` (the spec's context, any bytes). Error(usage) naming
// the file's length otherwise.
Credential read_raw_key_file(const std::string& path, std::vector<std::uint8_t> context);

// The credentials in a file that is either a key file or an identity file, told apart by its contents
// (`rekey --remove-key`, `info -k`).
std::vector<Credential> read_key_or_identity_file(const std::string& path, const CredentialReading& reading);

// Recipient strings, then recipients files ("-" = standard input), then the recipient of every identity in
// `identity_files` (to oneself, as age's -e -i), each a Credential of kind recipient. Throws Error(usage)
// naming a malformed recipient, (io) for an unreadable file. Repeats of the same public key are kept once.
std::vector<Credential> gather_recipients(const std::vector<std::string>& recipients,
                                          const std::vector<std::string>& recipient_files,
                                          const std::vector<std::string>& identity_files,
                                          const CredentialReading& reading);

// Every identity in each -i file (age/pcrypt identity files, OpenSSH ed25519/RSA private keys), in order.
std::vector<Identity> read_identity_files(const std::vector<std::string>& paths,
                                          const CredentialReading& reading);
std::vector<Credential> gather_identities(const std::vector<std::string>& paths,
                                          const CredentialReading& reading);

// The recipient an identity opens, as `pcrypt recipient` prints it: "age1…", or for an SSH key the
// authorized_keys / .pub form "ssh-ed25519 AAAA…" (without a comment, which the key blob lacks).
std::string recipient_text(const Identity& identity);

// A new identity file's text ("# public key: age1…" then the secret line) and its recipient: X25519, or
// with `post_quantum` ML-KEM-768 + X25519 (age 1.3's age1pq1…). Key files: core/keys/key_file.h.
struct NewIdentity {
  std::string text;
  std::string recipient;
};
NewIdentity generate_identity(bool post_quantum);

}  // namespace pcrypt::core::door
