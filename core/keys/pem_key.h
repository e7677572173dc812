// PEM private keys, the forms OpenSSL and older ssh-keygen write and age reads besides OpenSSH's own: PKCS#1
// "RSA PRIVATE KEY" (also protected with the legacy Proc-Type/DEK-Info encryption) and PKCS#8 "PRIVATE KEY"
// holding an Ed25519 or RSA key. OpenSSL's libcrypto decodes them (never a parser of ours); the result is the
// same key as an OpenSSH file gives, so the same identities and checks follow (FORMAT.md §10.9).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/keys/openssh_key.h"

namespace pcrypt::core {

// True when `content` holds a "-----BEGIN RSA PRIVATE KEY-----" or "-----BEGIN PRIVATE KEY-----" armour.
bool looks_like_pem_private_key(std::string_view content);

// True when the PEM key is protected by a passphrase (the legacy "Proc-Type: 4,ENCRYPTED" header): its public
// key can then be known only from a .pub file beside it, as age requires.
bool pem_private_key_encrypted(std::string_view content);

// The key, decrypted with `passphrase` when it is protected (an empty passphrase for a protected key is
// Error(usage)). Throws core::Error(header) "wrong passphrase" when a protected key does not decode with it,
// and core::Error(usage) naming `name` for a key that is not one PEM Ed25519 or RSA private key, or an RSA
// key outside §10.7's rules (the same checks as an OpenSSH RSA key's).
OpenSshPrivateKey parse_pem_private_key(std::string_view content, std::string_view name,
                                        std::span<const std::uint8_t> passphrase = {});

}  // namespace pcrypt::core
