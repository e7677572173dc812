// The OpenSSH private key format ("openssh-key-v1", PROTOCOL.key), unencrypted ed25519 keys only.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/aes/secret_bytes.h"

namespace pcrypt::core {

struct OpenSshEd25519Key {
  SecretBytes secret;  // 64 bytes: seed || public key (libsodium's ed25519 secret key)
  std::array<std::uint8_t, 32> public_key;
  std::vector<std::uint8_t> blob;  // public key blob: string "ssh-ed25519" || string key
};

// True when `content` contains the "-----BEGIN OPENSSH PRIVATE KEY-----" armour.
bool looks_like_openssh_private_key(std::string_view content);
// Parses the armoured key. Throws core::Error(usage) naming `name` for: bad armour or base64, wrong magic,
// encrypted keys (with a hint to decrypt a copy with ssh-keygen -p), more than one key, key types other than
// ssh-ed25519, check-int mismatch, inconsistent public/secret halves, truncation or trailing garbage.
OpenSshEd25519Key parse_openssh_private_key(std::string_view content, std::string_view name);

}  // namespace pcrypt::core
