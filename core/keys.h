// Key handling for the v1 format (docs/FORMAT.md §2, §3.2, §3.3, §5): the per-file key, its subkeys,
// key slots (wrap/unwrap), Argon2id, and the decrypt-side unlock procedure.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/credential.h"
#include "core/format.h"

namespace pcrypt::core {

// The 8-byte BLAKE2b KDF contexts (FORMAT.md §2): one per use of a secret.
inline constexpr char kLabelKeyFileKek[] = "PCKEYFIL";
inline constexpr char kLabelPassphraseKek[] = "PCPASSWD";
inline constexpr char kLabelHeaderMac[] = "PCHDRMAC";
inline constexpr char kLabelPayload[] = "PCPAYLOD";

// Argon2id cost (libsodium crypto_pwhash units). Defaults are chosen in core (docs/FORMAT.md says why).
struct KdfLimits {
  std::uint64_t opslimit;
  std::uint64_t memlimit_bytes;
};
KdfLimits default_kdf_params();   // what encrypt uses
KdfLimits default_kdf_ceiling();  // the most decrypt accepts unless raised by the user

// A fresh random 32-byte file key.
SecretBytes new_file_key();
// KDF(key, label): libsodium crypto_kdf_derive_from_key with subkey id 1, 32-byte output.
SecretBytes derive_subkey(std::span<const std::uint8_t> key, const char (&label)[9]);

// HMAC-SHA-256 under the header MAC key derived from the file key.
std::array<std::uint8_t, kHeaderMacBytes> compute_header_mac(
    const SecretBytes& file_key, std::span<const std::uint8_t> authenticated_bytes);
// Constant-time comparison with the header's stored MAC.
bool header_mac_matches(const SecretBytes& file_key, const ParsedHeader& parsed);

// Argon2id(passphrase, salt, ops, memory) -> KDF(..., "PCPASSWD"); the Argon2id output is wiped.
// Throws Error(io) if the memory cannot be allocated.
SecretBytes passphrase_kek(std::span<const std::uint8_t> passphrase,
                           std::span<const std::uint8_t, kKdfSaltBytes> salt, std::uint32_t ops,
                           std::uint32_t memory_kib);

// Wraps the file key for one credential (fresh random nonce; fresh salt and `kdf` costs for a passphrase).
// Throws Error(usage) for an unusable credential (key not 32 bytes, empty passphrase, costs out of range).
KeySlot make_slot(const SecretBytes& file_key, const Credential& credential, const KdfLimits& kdf);
// The file key if `credential` opens `slot` (kinds must match), else nullopt. Runs Argon2id for passphrase
// slots without looking at any ceiling: callers check slot_within_ceiling() first.
std::optional<SecretBytes> open_slot(const KeySlot& slot, const Credential& credential);
bool slot_within_ceiling(const KeySlot& slot, const KdfLimits& ceiling);

// FORMAT.md §5 steps 3-6: the file key, or Error(header) (wrong credentials, tampered header, or a slot
// whose Argon2id costs exceed `ceiling` — those are never run).
SecretBytes unlock_file_key(const ParsedHeader& parsed, const std::vector<Credential>& credentials,
                            const KdfLimits& ceiling);

}  // namespace pcrypt::core
