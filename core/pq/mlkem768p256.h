// MLKEM768-P256, the hybrid KEM of draft-ietf-hpke-pq / draft-irtf-cfrg-concrete-hybrid-kems that age's
// mlkem768p256tag recipients use (c2sp.org/age). Encapsulation only (the identities live in hardware):
//   public key = ek_PQ (1184, ML-KEM-768) || ek_T (65, uncompressed P-256 point) = 1249 bytes
//   ciphertext = ct_PQ (1088) || ct_T (65, the ephemeral P-256 public key) = 1153 bytes
//   ss_T = x-coordinate of the ephemeral ECDH with ek_T
//   shared secret = SHA3-256(ss_PQ || ss_T || ct_T || ek_T || "MLKEM768-P256")
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace pcrypt::pq::mlkem768p256 {

inline constexpr std::size_t public_key_size = 1249;
inline constexpr std::size_t ciphertext_size = 1153;
inline constexpr std::size_t shared_secret_size = 32;
inline constexpr std::size_t pq_key_size = 1184;  // where ek_T starts

// Whether both halves are valid: the ML-KEM key passes FIPS 203's modulus check, ek_T is a valid
// uncompressed P-256 point.
bool valid_public_key(std::span<const std::uint8_t, public_key_size> pk);

// Encaps with fresh randomness (ML-KEM's m from libsodium, the ephemeral P-256 key from OpenSSL). false (and
// nothing usable written) if the public key is not valid.
bool encapsulate(std::span<const std::uint8_t, public_key_size> pk,
                 std::span<std::uint8_t, ciphertext_size> ct,
                 std::span<std::uint8_t, shared_secret_size> shared_secret);

}  // namespace pcrypt::pq::mlkem768p256
