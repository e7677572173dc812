// What unlocks a file: the key from a key file, a passphrase, or (FORMAT.md §10) a public-key recipient to
// encrypt to and the identity that opens its slot. Key files become credentials in
// core/keys/key_file.h; what a credential does to a header (slots, unlocking) is core/pcrypt/keys.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/keys/recipient.h"

namespace pcrypt::core {

// The raw key a key file holds (FORMAT.md §7).
inline constexpr std::size_t kKeyFileKeyBytes = 32;

struct Credential {
  // recipient: encrypt only (makes a kind 3/4 slot); identity: decrypt only (opens one). raw_key: C2SP
  // chunked encryption's input key (core/cobblestone/), which opens no pcrypt slot or age stanza.
  enum class Kind { key_file, passphrase, recipient, identity, raw_key };
  Kind kind;
  // key_file: the kKeyFileKeyBytes-byte key; passphrase: its UTF-8 bytes, no trailing newline; raw_key: the
  // input key (16 or 32 bytes); empty else.
  SecretBytes secret;
  std::optional<Recipient> recipient = std::nullopt;  // Kind::recipient only
  std::optional<Identity> identity = std::nullopt;    // Kind::identity only
  std::vector<std::uint8_t> context = {};             // Kind::raw_key only: the spec's context, maybe empty

  static Credential of(Recipient r) { return Credential{Kind::recipient, SecretBytes(), std::move(r)}; }
  static Credential of(Identity i) {
    return Credential{Kind::identity, SecretBytes(), std::nullopt, std::move(i)};
  }
};

// An independent copy: its secrets in guarded memory of their own (SecretBytes is move-only), the read-only
// parts (parsed RSA and post-quantum keys, a protected key's unlock) shared. libpcrypt's File keeps such a
// copy of the keys its caller lends to unlock(), since rekey asks them again later.
inline Identity copy_of(const Identity& id) {
  Identity out;
  out.kind = id.kind;
  out.secret = SecretBytes(id.secret.span());
  out.public_key = id.public_key;
  out.blob = id.blob;
  out.rsa = id.rsa;
  out.hybrid = id.hybrid;
  out.plugin = id.plugin;
  out.unlock = id.unlock;
  return out;
}

inline Credential copy_of(const Credential& c) {
  Credential out{c.kind, SecretBytes(c.secret.span()), c.recipient, std::nullopt, c.context};
  if (c.identity) out.identity = copy_of(*c.identity);
  return out;
}

}  // namespace pcrypt::core
