// What unlocks a file: the key from a key file, a passphrase, or (FORMAT.md §10) a public-key recipient to
// encrypt to and the identity that opens its slot. Key files become credentials in
// core/keys/key_file.h; what a credential does to a header (slots, unlocking) is core/pcrypt/keys.h.
#pragma once

#include <cstddef>
#include <optional>

#include "core/aes/secret_bytes.h"
#include "core/keys/recipient.h"

namespace pcrypt::core {

// The raw key a key file holds (FORMAT.md §7).
inline constexpr std::size_t kKeyFileKeyBytes = 32;

struct Credential {
  // recipient: encrypt only (makes a kind 3/4 slot); identity: decrypt only (opens one).
  enum class Kind { key_file, passphrase, recipient, identity };
  Kind kind;
  // key_file: the kKeyFileKeyBytes-byte key; passphrase: its UTF-8 bytes, no trailing newline; empty else.
  SecretBytes secret;
  std::optional<Recipient> recipient = std::nullopt;  // Kind::recipient only
  std::optional<Identity> identity = std::nullopt;    // Kind::identity only

  static Credential of(Recipient r) { return Credential{Kind::recipient, SecretBytes(), std::move(r)}; }
  static Credential of(Identity i) {
    return Credential{Kind::identity, SecretBytes(), std::nullopt, std::move(i)};
  }
};

}  // namespace pcrypt::core
