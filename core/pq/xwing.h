// MLKEM768-X25519, the hybrid KEM of draft-ietf-hpke-pq (the X-Wing construction), as age 1.3 uses it
// (reference: c2sp.org/age and filippo.io/hpke-pq). The private key is a 32-byte seed; everything else is
// derived from it:
//   (seed_PQ, seed_T) = SHAKE256(seed, 96)[0:64], [64:96]
//   (ek_PQ, dk_PQ) = ML-KEM-768.KeyGen_internal(seed_PQ),  ek_T = X25519(seed_T, 9)
//   public key = ek_PQ || ek_T (1216 bytes); ciphertext = ct_PQ || ct_T (1120 bytes)
//   shared secret = SHA3-256(ss_PQ || ss_T || ct_T || ek_T || "\.//^\")
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/aes/secret_bytes.h"

namespace pcrypt::pq::xwing {

inline constexpr std::size_t seed_size = 32;
inline constexpr std::size_t public_key_size = 1216;
inline constexpr std::size_t ciphertext_size = 1120;
inline constexpr std::size_t shared_secret_size = 32;
inline constexpr std::size_t encaps_randomness_size = 64;  // ML-KEM m || X25519 ephemeral secret
inline constexpr std::uint16_t hpke_kem_id = 0x647a;

using PublicKey = std::array<std::uint8_t, public_key_size>;
using Ciphertext = std::array<std::uint8_t, ciphertext_size>;

// The expanded private key: what decapsulation needs, derived once from the seed. Lives in secure memory.
class PrivateKey {
 public:
  explicit PrivateKey(std::span<const std::uint8_t, seed_size> seed);
  const PublicKey& public_key() const { return public_key_; }
  // Decaps. false only if the X25519 share is a low-order point (all-zero shared secret): age and
  // draft-ietf-hpke-pq then fail rather than continue. An ML-KEM ciphertext that does not match is implicit
  // rejection (a pseudorandom secret), so the caller's AEAD fails later.
  bool decapsulate(std::span<const std::uint8_t, ciphertext_size> ct,
                   std::span<std::uint8_t, shared_secret_size> shared_secret) const;

 private:
  SecretBytes expanded_;  // dk_PQ (2400) || dk_T (32)
  PublicKey public_key_{};
};

// PrivateKeyToPublicKey(seed).
PublicKey public_key_of(std::span<const std::uint8_t, seed_size> seed);

// Encaps with fresh randomness / EncapsDerand with the caller's 64 bytes (tests only). false if the public
// key fails ML-KEM's §7.2 check or its X25519 half is a low-order point.
bool encapsulate(std::span<const std::uint8_t, public_key_size> pk, Ciphertext& ct,
                 std::span<std::uint8_t, shared_secret_size> shared_secret);
bool encapsulate_derand(std::span<const std::uint8_t, public_key_size> pk,
                        std::span<const std::uint8_t, encaps_randomness_size> randomness, Ciphertext& ct,
                        std::span<std::uint8_t, shared_secret_size> shared_secret);

}  // namespace pcrypt::pq::xwing
