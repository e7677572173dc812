// One line of an OpenSSH public key list: a `.pub` file, an `authorized_keys` file (sshd(8), AUTHORIZED_KEYS
// FILE FORMAT) or what https://github.com/USER.keys serves. Splits it into its words without judging the key
// type or decoding the key data (core/keys/recipient.h does that); docs/FORMAT.md §10.5 gives the grammar.
#pragma once

#include <optional>
#include <string_view>

namespace pcrypt::core {

struct SshKeyLine {
  std::string_view options;  // the authorized_keys options field as written ("" when there is none)
  std::string_view type;     // "ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "sk-…", …
  std::string_view data;     // the base64 key blob, not decoded
};

// True for a word that names an OpenSSH key type: it starts with "ssh-", "ecdsa-" or "sk-".
bool is_ssh_key_type(std::string_view word);

// Splits `line` (no line end; leading and trailing blanks allowed) into [options] type data [comment].
// The options field is present exactly when the first word is not a key type; it is a comma-separated list
// of `name` or `name="value"` (name: letters, digits, '-' and '_'; value: any characters but an unescaped
// '"', so spaces and commas are allowed, and `\"` stands for a quote), ending at the first space or tab
// outside quotes, as sshd reads it. Returns nullopt when the line does not have that shape (no key type
// where one must be, an unterminated quote, an empty option, no key data).
std::optional<SshKeyLine> split_ssh_key_line(std::string_view line);

}  // namespace pcrypt::core
