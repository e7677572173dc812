// The OpenSSH private key format ("openssh-key-v1", OpenSSH's PROTOCOL.key): ssh-ed25519 and ssh-rsa keys,
// unencrypted or protected by a passphrase (bcrypt_pbkdf with aes256-ctr, ssh-keygen's default, or another
// AES-CTR/GCM cipher). The armour, the public part (readable without the passphrase) and the private part;
// docs/FORMAT.md §10.5 and §10.8 list every rule. Independent of pcrypt's slots, so other formats' SSH
// recipients can reuse it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/keys/ssh_rsa.h"

namespace pcrypt::core {

struct OpenSshPrivateKey {
  enum class Type { ed25519, rsa };
  Type type = Type::ed25519;
  std::vector<std::uint8_t> blob;  // the public key's SSH wire blob, as in the .pub line
  // ed25519 only: libsodium's 64-byte secret key (seed || public key) and the public key.
  SecretBytes secret;
  std::array<std::uint8_t, 32> public_key{};
  // rsa only.
  std::shared_ptr<const ssh_rsa::PrivateKey> rsa;
};

// What can be read without the passphrase.
struct OpenSshPublicPart {
  std::vector<std::uint8_t> blob;  // public key blob (its type is the key's type)
  std::string cipher;              // "none" when the key is not encrypted
  bool encrypted() const { return cipher != "none"; }
};

// True when `content` contains the "-----BEGIN OPENSSH PRIVATE KEY-----" armour.
bool looks_like_openssh_private_key(std::string_view content);

// Reads the armour and the unencrypted outer structure. Throws core::Error(usage) naming `name` for bad
// armour or base64, a wrong magic, more than one key, an unknown cipher or KDF, or a malformed public key.
OpenSshPublicPart read_openssh_public_part(std::string_view content, std::string_view name);

// The whole key; `passphrase` is used only when the key is encrypted (then it must be non-empty). Throws
// core::Error(header) "wrong passphrase" when the decrypted check values differ (or the GCM tag fails), and
// core::Error(usage) naming `name` for everything else (key types other than ssh-ed25519 and ssh-rsa,
// inconsistent halves, bad padding, truncation, trailing data).
OpenSshPrivateKey parse_openssh_private_key(std::string_view content, std::string_view name,
                                            std::span<const std::uint8_t> passphrase = {});

}  // namespace pcrypt::core
