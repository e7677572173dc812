// Key slots for public-key recipients (docs/FORMAT.md §3.2, kinds 3, 4, 5 and 6): wrap the file key to a
// recipient (kinds 3 and 4 with a fresh ephemeral X25519 key, kind 5 with HPKE over the MLKEM768-X25519
// hybrid KEM, kind 6 with RSA-OAEP-SHA-256), and try an identity on such a slot.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/keys/recipient.h"

namespace pcrypt::core::recipient_slot {

inline constexpr std::uint8_t kind_x25519 = 3;
inline constexpr std::uint8_t kind_ssh_ed25519 = 4;
inline constexpr std::uint8_t kind_mlkem768_x25519 = 5;
inline constexpr std::size_t x25519_slot_size = 81;             // kind, E, wrapped FK
inline constexpr std::size_t ssh_ed25519_slot_size = 85;        // kind, tag, E, wrapped FK
inline constexpr std::size_t mlkem768_x25519_slot_size = 1169;  // kind, enc (1120), sealed FK (48)
// HPKE info of kind 5 (its own, not age's "age-encryption.org/mlkem768x25519": §3.2 Why).
inline constexpr std::string_view hybrid_info = "pcrypt-mlkem768x25519-wrap";
inline constexpr std::uint8_t kind_ssh_rsa = 6;
inline constexpr std::size_t file_key_size = 32;
// Kind 6 (§10.7): kind, tag, uint16 ciphertext length L, then L bytes (the RSA modulus length).
inline constexpr std::size_t ssh_rsa_prefix_size = 7;
inline constexpr std::size_t ssh_rsa_min_ciphertext = 256;   // 2048-bit modulus
inline constexpr std::size_t ssh_rsa_max_ciphertext = 2048;  // 16384-bit modulus
// The OAEP label of kind 6: pcrypt's own, so an age ssh-rsa stanza can never pass for a pcrypt slot.
inline constexpr std::string_view ssh_rsa_oaep_label = "pcrypt-ssh-rsa-wrap";

// Slot length for kinds 3, 4 and 5 (including the kind byte), 0 for any other kind (kind 6 has a length
// field: use slot_size_of).
std::size_t slot_size(std::uint8_t kind);
// The length the slot starting with these bytes must have (kinds 3, 4, 5 and 6), or 0 when the kind is none
// of them or (kind 6) the prefix is shorter than ssh_rsa_prefix_size or its length field is out of range.
std::size_t slot_size_of(std::span<const std::uint8_t> slot_start);

// The whole slot (kind byte first) wrapping the 32-byte file key to `recipient`. Throws core::Error(usage)
// for a recipient whose shared secret would be all zero (a low-order point, never a real key) or, for kind 5,
// whose ML-KEM key fails FIPS 203's modulus check.
std::vector<std::uint8_t> wrap(const SecretBytes& file_key, const Recipient& recipient);

// The file key if `identity` opens `slot` (kind byte first, exactly slot_size(kind) bytes); nullopt if the
// slot is of the other recipient kind, the SSH tag differs, the shared secret is all zero, or authentication
// fails.
std::optional<SecretBytes> unwrap(std::span<const std::uint8_t> slot, const Identity& identity);

// The 4-byte tag a kind-4 slot carries for the SSH key with this public key blob (§10.3): the first bytes of
// SHA-256(blob). Public: it tells which SSH key a slot is for without any secret.
std::array<std::uint8_t, 4> ssh_tag(std::span<const std::uint8_t> blob);

// The intermediate values of one wrap, for known-answer tests and other implementations (§10.5).
struct Trace {
  std::array<std::uint8_t, 32> ephemeral_public{};
  std::array<std::uint8_t, 32> shared_secret{};
  std::array<std::uint8_t, 32> wrap_key{};
  std::array<std::uint8_t, 4> tag{};  // SSH only
};
// wrap() with a caller-chosen 32-byte ephemeral secret. Only for tests: a fixed ephemeral key breaks
// security.
std::vector<std::uint8_t> wrap_with_ephemeral(const SecretBytes& file_key, const Recipient& recipient,
                                              std::span<const std::uint8_t, 32> ephemeral_secret,
                                              Trace* trace = nullptr);

// Kind 5 with the KEM's 64 bytes of encapsulation randomness fixed (ML-KEM m || X25519 ephemeral secret).
// Only for tests and known-answer files.
struct HybridTrace {
  std::array<std::uint8_t, 32> shared_secret{};  // the MLKEM768-X25519 shared secret
  std::array<std::uint8_t, 32> key{};            // HPKE key
  std::array<std::uint8_t, 12> base_nonce{};     // HPKE base_nonce
};
std::vector<std::uint8_t> wrap_hybrid_derand(const SecretBytes& file_key, const HybridRecipient& recipient,
                                             std::span<const std::uint8_t, 64> randomness,
                                             HybridTrace* trace = nullptr);

}  // namespace pcrypt::core::recipient_slot
