#include "app/public_key_credentials.h"

#include <spdlog/spdlog.h>

#include "app/ssh_key_passphrase.h"

namespace pcrypt::app {

const core::door::CredentialReading& terminal_reading() {
  static const core::door::CredentialReading reading{
      // The passphrase of a protected OpenSSH key when a slot needs the key: from the option or the
      // environment, else asked on the terminal (as age does).
      [](const std::string& key_name) -> SecretBytes { return obtain_ssh_key_passphrase(key_name); },
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
  if (!paths.empty()) read_given_ssh_key_passphrase();
  return core::door::read_identity_files(paths, terminal_reading());
}

std::vector<core::Credential> gather_identities(const std::vector<std::string>& paths) {
  if (!paths.empty()) read_given_ssh_key_passphrase();
  return core::door::gather_identities(paths, terminal_reading());
}

}  // namespace pcrypt::app
