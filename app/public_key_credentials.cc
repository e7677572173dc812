#include "app/public_key_credentials.h"

#include <spdlog/spdlog.h>

#include "app/tty_prompt.h"
#include "core/error.h"

namespace pcrypt::app {

const core::door::CredentialReading& terminal_reading() {
  static const core::door::CredentialReading reading{
      // The passphrase of a protected OpenSSH key, asked on the terminal when a slot needs the key (as age
      // does); without a terminal, the door's refusal.
      [](const std::string& key_name) -> SecretBytes {
        try {
          return prompt_hidden("Enter passphrase for SSH key " + key_name + ": ");
        } catch (const core::Error& e) {
          if (e.kind() != core::ErrorKind::usage) throw;
          core::door::refuse_protected_ssh_key(key_name);
        }
      },
      [](const std::string& line) { spdlog::warn("{}", line); }};
  return reading;
}

std::vector<core::Credential> gather_recipients(const std::vector<std::string>& recipients,
                                                const std::vector<std::string>& recipient_files,
                                                bool data_from_stdin,
                                                const std::vector<std::string>& identity_files) {
  return core::door::gather_recipients(recipients, recipient_files, data_from_stdin, identity_files,
                                       terminal_reading());
}

std::vector<core::Identity> read_identity_files(const std::vector<std::string>& paths) {
  return core::door::read_identity_files(paths, terminal_reading());
}

std::vector<core::Credential> gather_identities(const std::vector<std::string>& paths) {
  return core::door::gather_identities(paths, terminal_reading());
}

}  // namespace pcrypt::app
