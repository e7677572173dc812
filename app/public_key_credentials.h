// -r/-R recipients and -i identities (FORMAT.md §10) as core credentials. Reusable by every command that
// takes them (encrypt, decrypt, and later rekey).
#pragma once

#include <string>
#include <vector>

#include "core/keys/credential.h"
#include "core/keys/recipient.h"

namespace pcrypt::app {

// Recipients from -r strings, then -R files ("-" = standard input, refused when `data_from_stdin`), then the
// recipient of every identity in `identity_files` (encrypt -i: to oneself, as `age -e -i`), each a
// Credential of kind recipient. Throws core::Error(usage) naming a malformed recipient, (io) for an
// unreadable file. Repeats of the same public key are kept once.
std::vector<core::Credential> gather_recipients(const std::vector<std::string>& recipients,
                                                const std::vector<std::string>& recipient_files,
                                                bool data_from_stdin,
                                                const std::vector<std::string>& identity_files = {});

// Every identity in each -i file (age/pcrypt identity files, OpenSSH ed25519 private keys), in order.
std::vector<core::Identity> read_identity_files(const std::vector<std::string>& paths);
std::vector<core::Credential> gather_identities(const std::vector<std::string>& paths);

// The recipient an identity opens, as `pcrypt recipient` prints it: "age1…", or for an SSH key the
// authorized_keys / .pub form "ssh-ed25519 AAAA…" (without a comment, which the key blob lacks).
std::string recipient_text(const core::Identity& identity);

}  // namespace pcrypt::app
