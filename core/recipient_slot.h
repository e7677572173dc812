// Key slots for public-key recipients (docs/FORMAT.md §3.2, kinds 3 and 4): wrap the file key to a recipient
// with a fresh ephemeral X25519 key, and try an identity on such a slot.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/recipient.h"

namespace pcrypt::core::recipient_slot {

inline constexpr std::uint8_t kind_x25519 = 3;
inline constexpr std::uint8_t kind_ssh_ed25519 = 4;
inline constexpr std::uint8_t kind_mlkem768_x25519 = 5;   // reserved (§3.2), not implemented
inline constexpr std::size_t x25519_slot_size = 81;       // kind, E, wrapped FK
inline constexpr std::size_t ssh_ed25519_slot_size = 85;  // kind, tag, E, wrapped FK
inline constexpr std::size_t file_key_size = 32;

// Slot length for kinds 3 and 4 (including the kind byte), 0 for any other kind.
std::size_t slot_size(std::uint8_t kind);

// The whole slot (kind byte first) wrapping the 32-byte file key to `recipient`. Throws core::Error(usage)
// for a recipient whose shared secret would be all zero (a low-order point, never a real key).
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

}  // namespace pcrypt::core::recipient_slot
