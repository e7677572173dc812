// The pcrypt header (versions 1 and 2) (docs/FORMAT.md §3): its layout, serialization, and a strict parser
// that needs no key. Cryptographic meaning (wrapping, MAC) lives in core/pcrypt/keys.h; this file only knows
// bytes and ranges.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "io/stream.h"

namespace pcrypt::core {

inline constexpr std::array<std::uint8_t, 8> kMagic = {0x89, 'P', 'C', 'R', 'Y', 'P', 'T', '\n'};
inline constexpr std::uint8_t kFormatVersion = 1;
// Written exactly when a file has a recipient slot (kind 3, 4, 5 or 6, FORMAT.md §10.1).
inline constexpr std::uint8_t kFormatVersionRecipients = 2;
inline constexpr std::uint8_t kSuiteAes256Gcm = 1;

inline constexpr std::size_t kMinChunkSize = std::size_t{4} << 10;
inline constexpr std::size_t kMaxChunkSize = std::size_t{64} << 20;
inline constexpr std::size_t kDefaultChunkSize = std::size_t{1} << 20;
constexpr bool chunk_size_in_range(std::uint64_t chunk_size) {
  return chunk_size >= kMinChunkSize && chunk_size <= kMaxChunkSize;
}
// The slot count is one header byte (§3.1): every value from 1 to its maximum is a valid count.
inline constexpr std::size_t kMaxSlots = 255;
inline constexpr std::size_t kMaxPassphraseSlots = 4;

inline constexpr std::size_t kFixedHeaderBytes = 15;
inline constexpr std::size_t kHeaderMacBytes = 32;
inline constexpr std::size_t kFileKeyBytes = 32;
inline constexpr std::size_t kWrapNonceBytes = 24;
inline constexpr std::size_t kWrappedKeyBytes = kFileKeyBytes + 16;
inline constexpr std::size_t kKdfSaltBytes = 16;
inline constexpr std::size_t kKeyFileSlotBytes = 1 + kWrapNonceBytes + kWrappedKeyBytes;
inline constexpr std::size_t kPassphraseSlotBytes =
    1 + 4 + 4 + kKdfSaltBytes + kWrapNonceBytes + kWrappedKeyBytes;
// Argon2id costs a passphrase slot can carry (§3.2): uint32 fields, at least one pass and 8 KiB (libsodium's
// minimum). The one definition: the header parser, make_slot and the CLI's option checks all use these.
inline constexpr std::uint32_t kMinKdfOps = 1;
inline constexpr std::uint32_t kMaxKdfOps = UINT32_MAX;
inline constexpr std::uint32_t kMinKdfMemoryKib = 8;
inline constexpr std::uint32_t kMaxKdfMemoryKib = UINT32_MAX;

constexpr bool kdf_ops_in_range(std::uint64_t ops) {
  return ops >= kMinKdfOps && ops <= kMaxKdfOps;
}
// A whole number of KiB within the bounds above.
constexpr bool kdf_memory_in_range(std::uint64_t bytes) {
  return bytes % 1024 == 0 && bytes / 1024 >= kMinKdfMemoryKib && bytes / 1024 <= kMaxKdfMemoryKib;
}

enum class SlotKind : std::uint8_t {
  key_file = 1,
  passphrase = 2,
  x25519 = 3,
  ssh_ed25519 = 4,
  mlkem768_x25519 = 5,
  ssh_rsa = 6
};
constexpr bool is_recipient_slot(SlotKind kind) {
  return kind == SlotKind::x25519 || kind == SlotKind::ssh_ed25519 || kind == SlotKind::mlkem768_x25519 ||
         kind == SlotKind::ssh_rsa;
}

struct KeySlot {
  SlotKind kind = SlotKind::key_file;
  // Passphrase slots only (zero for key-file slots).
  std::uint32_t kdf_ops = 0;
  std::uint32_t kdf_memory_kib = 0;
  std::array<std::uint8_t, kKdfSaltBytes> kdf_salt{};
  // Key-file and passphrase slots.
  std::array<std::uint8_t, kWrapNonceBytes> wrap_nonce{};
  std::array<std::uint8_t, kWrappedKeyBytes> wrapped_key{};
  // Recipient slots (kinds 3, 4, 5, 6) only: the whole slot as written, kind byte first
  // (core/pcrypt/recipient_slot.h).
  std::vector<std::uint8_t> recipient_slot;
};

// Kind 5 never shares a header with the classical recipient kinds 3, 4 and 6 (FORMAT.md §10.6, no silent
// downgrade). The indices of the first kind-5 slot and the first classical one when both are present, else
// {slots.size(), slots.size()}.
std::pair<std::size_t, std::size_t> quantum_downgrade_pair(const std::vector<KeySlot>& slots);
// Throws core::Error(usage) saying why when quantum_downgrade_pair() finds a pair. Called wherever a header
// is serialized, so encrypt and rekey obey the same rule; read_header refuses such a header as malformed.
void check_no_quantum_downgrade(const std::vector<KeySlot>& slots);

struct FileHeader {
  std::uint8_t version = kFormatVersion;
  std::uint8_t suite = kSuiteAes256Gcm;
  std::uint32_t chunk_size = kDefaultChunkSize;
  std::vector<KeySlot> slots;
  std::array<std::uint8_t, kHeaderMacBytes> mac{};
};

// Version 2 exactly when a recipient slot is present (a version-2 header without one is refused on read), so
// a header whose slots change must have its version recomputed.
inline std::uint8_t format_version_for(const std::vector<KeySlot>& slots) {
  for (const KeySlot& s : slots)
    if (is_recipient_slot(s.kind)) return kFormatVersionRecipients;
  return kFormatVersion;
}

// A header as read from a file: the fields, and the exact bytes the header MAC covers.
struct ParsedHeader {
  FileHeader header;
  std::vector<std::uint8_t> authenticated_bytes;
  std::size_t total_bytes() const { return authenticated_bytes.size() + kHeaderMacBytes; }
};

// The bytes the header MAC covers (everything before the MAC). Throws Error(usage) if the header could not be
// read back (chunk size or slot counts out of range, bad KDF costs): encrypt fails before writing anything.
std::vector<std::uint8_t> serialize_header_without_mac(const FileHeader& header);
// The whole header: serialize_header_without_mac() || mac.
std::vector<std::uint8_t> serialize_header(const FileHeader& header);

// Reads exactly the header's bytes from `in` (leaving it at the payload) and checks every field's range.
// Does not verify the MAC (that needs the key). Throws Error(header) with a hint for anything malformed.
ParsedHeader read_header(io::Reader& in);

// `pcrypt info`: every field as "name: value" lines (docs/FORMAT.md §8). An RSA slot's wrapped file key and a
// post-quantum slot's encapsulated key (hundreds of bytes) are shown as their length and SHA-256 unless
// `all_bytes`.
std::string describe_parsed_header(const ParsedHeader& parsed, bool all_bytes = false);

// Throws Error(usage) unless chunk_size_in_range(chunk_size).
void check_chunk_size(std::size_t chunk_size);

}  // namespace pcrypt::core
