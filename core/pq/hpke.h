// HPKE (RFC 9180) base mode, single-shot, for the one suite age 1.3's mlkem768x25519 recipients use:
// KEM MLKEM768-X25519 (0x647a, core/pq/xwing.h), KDF HKDF-SHA256 (0x0001), AEAD ChaCha20Poly1305 (0x0003).
// SealBase encrypts one message with sequence number 0; the exporter is not needed and not provided.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/pq/p256.h"
#include "core/pq/xwing.h"

namespace pcrypt::pq::hpke {

inline constexpr std::size_t tag_size = 16;

// The key-schedule values of one seal, for known-answer files (docs/FORMAT.md).
struct Trace {
  std::array<std::uint8_t, 32> shared_secret{};
  std::array<std::uint8_t, 32> key{};
  std::array<std::uint8_t, 12> base_nonce{};
};

struct Sealed {
  xwing::Ciphertext enc{};
  std::vector<std::uint8_t> ciphertext;  // plaintext size + 16
};

// SealBase(pkR, info, aad, pt). nullopt if pkR is not a valid MLKEM768-X25519 public key.
std::optional<Sealed> seal_base(std::span<const std::uint8_t, xwing::public_key_size> pk,
                                std::span<const std::uint8_t> info, std::span<const std::uint8_t> aad,
                                std::span<const std::uint8_t> plaintext);
// The same with the KEM's 64 bytes of encapsulation randomness fixed (tests and known-answer files only).
std::optional<Sealed> seal_base_derand(
    std::span<const std::uint8_t, xwing::public_key_size> pk,
    std::span<const std::uint8_t, xwing::encaps_randomness_size> randomness,
    std::span<const std::uint8_t> info, std::span<const std::uint8_t> aad,
    std::span<const std::uint8_t> plaintext, Trace* trace = nullptr);

// Why OpenBase gave nothing: the KEM refused enc (its X25519 share is a low-order point, an all-zero shared
// secret: age calls the stanza malformed), or the AEAD did not authenticate (another recipient's enc, a wrong
// key, tampering; ML-KEM's implicit rejection ends here too).
enum class OpenFailure { kem_refused, not_authentic };

// OpenBase(enc, skR, info, aad, ct): the plaintext, or nullopt if authentication fails (wrong key, tampering)
// or the KEM refuses enc; `why`, when given, says which.
std::optional<SecretBytes> open_base(const xwing::PrivateKey& sk,
                                     std::span<const std::uint8_t, xwing::ciphertext_size> enc,
                                     std::span<const std::uint8_t> info, std::span<const std::uint8_t> aad,
                                     std::span<const std::uint8_t> ciphertext, OpenFailure* why = nullptr);

// The age tag recipients (c2sp.org/age) use two more KEMs with the same KDF and AEAD.
inline constexpr std::uint16_t kem_dhkem_p256 = 0x0010;     // DHKEM(P-256, HKDF-SHA256), RFC 9180
inline constexpr std::uint16_t kem_mlkem768_p256 = 0x0050;  // MLKEM768-P256, draft-ietf-hpke-pq

// SealBase's key schedule and ChaCha20-Poly1305 (sequence number 0) for a KEM whose Encap the caller ran:
// returns the ciphertext (plaintext size + 16).
std::vector<std::uint8_t> seal_with_shared_secret(std::uint16_t kem_id,
                                                  std::span<const std::uint8_t, 32> shared_secret,
                                                  std::span<const std::uint8_t> info,
                                                  std::span<const std::uint8_t> aad,
                                                  std::span<const std::uint8_t> plaintext);

// DHKEM(P-256, HKDF-SHA256).Encap(pkR) (RFC 9180 §4.1) with a fresh ephemeral key: enc is the ephemeral
// public key (uncompressed, 65 bytes), shared_secret = ExtractAndExpand(DH x-coordinate, enc || pkR).
void dhkem_p256_encap(const p256::Point& recipient, std::span<std::uint8_t, p256::uncompressed_size> enc,
                      std::span<std::uint8_t, 32> shared_secret);

}  // namespace pcrypt::pq::hpke
