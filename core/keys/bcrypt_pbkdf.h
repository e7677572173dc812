// bcrypt_pbkdf (OpenBSD; the KDF of OpenSSH's "openssh-key-v1" private keys, PROTOCOL.key) and the Blowfish
// it is built on (Schneier 1993, with the "expensive key schedule" of Provos and Mazières, bcrypt, 1999).
// Only for reading passphrase-protected OpenSSH keys: Blowfish's S-box lookups are table lookups indexed by
// secret data, as in every Blowfish implementation, so this is not constant time (docs/FORMAT.md §10.8).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace pcrypt::core {

// Largest `rounds` accepted (ssh-keygen writes 16 by default, -a N sets it); bounds the work a hostile key
// file can ask for to well under a minute.
inline constexpr std::uint32_t kMaxBcryptPbkdfRounds = 1u << 14;

// Fills `out` (1 to 1024 bytes) from the passphrase and salt with `rounds` >= 1 iterations, exactly as
// OpenBSD's bcrypt_pbkdf(3).
void bcrypt_pbkdf(std::span<const std::uint8_t> passphrase, std::span<const std::uint8_t> salt,
                  std::uint32_t rounds, std::span<std::uint8_t> out);

// Blowfish with the standard key schedule, one 64-bit block in big-endian halves, for the known-answer tests
// of the cipher itself.
std::array<std::uint32_t, 2> blowfish_encrypt_block(std::span<const std::uint8_t> key, std::uint32_t left,
                                                    std::uint32_t right);

}  // namespace pcrypt::core
