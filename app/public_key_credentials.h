// -r/-R recipients and -i identities (FORMAT.md §10) as core credentials: the door's readers
// (core/door/credential_files.h) with the CLI's terminal behind them (a protected SSH key's passphrase asked
// on the terminal, skipped lines warned about on standard error).
#pragma once

#include <string>
#include <vector>

#include "core/door/credential_files.h"
#include "core/keys/credential.h"
#include "core/keys/recipient.h"

namespace pcrypt::app {

// The terminal as the credential readers' user.
const core::door::CredentialReading& terminal_reading();

std::vector<core::Credential> gather_recipients(const std::vector<std::string>& recipients,
                                                const std::vector<std::string>& recipient_files,
                                                bool data_from_stdin,
                                                const std::vector<std::string>& identity_files = {});
std::vector<core::Identity> read_identity_files(const std::vector<std::string>& paths);
std::vector<core::Credential> gather_identities(const std::vector<std::string>& paths);
using core::door::recipient_text;

}  // namespace pcrypt::app
