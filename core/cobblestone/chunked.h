// C2SP chunked encryption (https://c2sp.org/chunked-encryption; docs/FORMAT.md §12), instantiated as
// Cobblestone-128 (HKDF-Expand SHA-512, AES-128-GCM) and Cobblestone-256 (SHA-512, AES-256-GCM):
//
//   key || base nonce || commitment = HKDF-Expand(prk = input key,
//       info = "c2sp.org/chunked-encryption@v1+" || aead || 0x00 || salt || context)
//   file = salt (24 bytes) || commitment (32 bytes) || chunks
//
// where aead is the IANA name ("AEAD_AES_128_GCM"), the input key is as long as the AEAD key, and each 16 KiB
// chunk (the final one always shorter, present even when empty) is sealed with empty AAD under base nonce
// XOR the chunk number; at most 2^38 chunks. The record rules are core/records.h's (XorNonce,
// FinalChunk::always_short); this file holds the derivation, the 56-byte header and the commitment check,
// which comes before any chunk is opened. The files carry no magic: the format is named by the caller.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/aes/engine.h"
#include "core/aes/secret_bytes.h"
#include "core/range.h"
#include "core/records.h"

namespace pcrypt::core::cobblestone {

inline constexpr std::size_t kSaltBytes = 24;
inline constexpr std::size_t kCommitmentBytes = 32;
inline constexpr std::size_t kHeaderBytes = kSaltBytes + kCommitmentBytes;  // 56
inline constexpr std::size_t kChunkBytes = 16384;
inline constexpr std::uint64_t kMaxChunks = std::uint64_t{1} << 38;
// The shortest valid file: the header and one empty chunk's tag.
inline constexpr std::size_t kMinFileBytes = kHeaderBytes + kChunkTagBytes;

// One instantiation: its name on the command line and the AEAD it uses.
struct Instantiation {
  std::string_view name;       // "cobblestone-128"
  std::string_view aead_name;  // the IANA AEAD name in the derivation's info: "AEAD_AES_128_GCM"
  std::size_t key_bytes;       // input key = AES key: 16 or 32
};
inline constexpr Instantiation kCobblestone128{"cobblestone-128", "AEAD_AES_128_GCM", 16};
inline constexpr Instantiation kCobblestone256{"cobblestone-256", "AEAD_AES_256_GCM", 32};

// The derived values of one message.
struct Derived {
  SecretBytes key;  // AEAD key, instantiation.key_bytes
  std::array<std::uint8_t, kAeadNonceBytes> base_nonce{};
  std::array<std::uint8_t, kCommitmentBytes> commitment{};
};

// HKDF-Expand(SHA-512) as above. Error(usage) when input_key is not instantiation.key_bytes long.
Derived derive(const Instantiation& instantiation, std::span<const std::uint8_t> input_key,
               std::span<const std::uint8_t, kSaltBytes> salt, std::span<const std::uint8_t> context);

// The keyed payload of a message whose header is `header` (salt || commitment): the commitment is checked
// first (constant time; Error(header) "wrong key or context, or the header was modified" on mismatch), then
// the AEAD is made from `engine` (Error(usage) for an engine without this AES key size: sodium and
// AES-128). The payload starts at kHeaderBytes.
KeyedPayload open_payload(const Instantiation& instantiation, std::span<const std::uint8_t> input_key,
                          std::span<const std::uint8_t> context,
                          std::span<const std::uint8_t, kHeaderBytes> header, const aes::Engine& engine);

// A new message's header (a fresh random salt, and the commitment) and keyed payload.
struct NewMessage {
  std::array<std::uint8_t, kHeaderBytes> header{};
  KeyedPayload payload;
};
NewMessage new_message(const Instantiation& instantiation, std::span<const std::uint8_t> input_key,
                       std::span<const std::uint8_t> context, const aes::Engine& engine);

// The record layout of every Cobblestone payload.
PayloadLayout payload_layout();

}  // namespace pcrypt::core::cobblestone
