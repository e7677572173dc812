#include "app/ssh_key_passphrase.h"

#include <pcrypt/pcrypt.h>
#include <CLI/CLI.hpp>

#include <optional>

#include "app/environment.h"
#include "app/passphrase.h"
#include "app/tty_prompt.h"

namespace pcrypt::app {
namespace {

// The option's value: one per process, like the run it belongs to.
std::string& passphrase_file() {
  static std::string path;
  return path;
}

// Read at most once: a file that is standard input or a pipe gives its first line once.
std::optional<SecretBytes>& given_passphrase() {
  static std::optional<SecretBytes> passphrase;
  return passphrase;
}

}  // namespace

CLI::Option* add_ssh_key_passphrase_option(CLI::App& cmd) {
  return cmd
      .add_option("--ssh-key-passphrase-file", passphrase_file(),
                  "Read the passphrase of protected SSH keys given with -i from the first line of FILE "
                  "(else $PCRYPT_SSH_KEY_PASSPHRASE, else asked on the terminal)")
      ->type_name("FILE");
}

void read_given_ssh_key_passphrase() {
  std::optional<SecretBytes>& given = given_passphrase();
  if (!given && !passphrase_file().empty()) given = passphrase_from_file(passphrase_file());
}

SecretBytes obtain_ssh_key_passphrase(const std::string& key_name) {
  read_given_ssh_key_passphrase();
  std::optional<SecretBytes>& given = given_passphrase();
  if (!given) {
    if (const char* env = ssh_key_passphrase_from_environment(); env != nullptr)
      given = passphrase_from_variable(env, "PCRYPT_SSH_KEY_PASSPHRASE");
  }
  if (given) return SecretBytes(std::span<const std::uint8_t>(given->data(), given->size()));
  try {
    return prompt_hidden("Enter passphrase for SSH key " + key_name + ": ");
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::usage) throw;
    throw Error(
        PCRYPT_E_PASSPHRASE_REQUIRED,
        "SSH key " + key_name + " is protected by a passphrase and there is no terminal to ask for it",
        "give its passphrase with --ssh-key-passphrase-file FILE or $PCRYPT_SSH_KEY_PASSPHRASE, or "
        "run pcrypt from a terminal");
  }
}

}  // namespace pcrypt::app
