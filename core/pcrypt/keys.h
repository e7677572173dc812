// Key handling for the v1 format (docs/FORMAT.md §2, §3.2, §3.3, §5): the per-file key, its subkeys,
// key slots (wrap/unwrap), Argon2id, and the decrypt-side unlock procedure.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/keys/credential.h"
#include "core/keys/kdf_limits.h"
#include "core/pcrypt/format.h"

namespace pcrypt::core {

// The 8-byte BLAKE2b KDF contexts (FORMAT.md §2): one per use of a secret.
inline constexpr char kLabelKeyFileKek[] = "PCKEYFIL";
inline constexpr char kLabelPassphraseKek[] = "PCPASSWD";
inline constexpr char kLabelHeaderMac[] = "PCHDRMAC";
inline constexpr char kLabelPayload[] = "PCPAYLOD";

// Argon2id costs: KdfLimits, default_kdf_params() and default_kdf_ceiling() (core/keys/kdf_limits.h).

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

// Argon2id results kept for the files of one run (`pcrypt encrypt -p a b c`, `pcrypt decrypt -p *.pcrypt`,
// FORMAT.md §3.2 "One run, one salt"): a passphrase costs one Argon2id run per (salt, t, m), not per file.
// Entries are keyed by the passphrase bytes too, so a cache shared by several passphrases stays correct.
// Not thread-safe: one cache per run, used by the thread that handles the headers.
class PassphraseKekCache {
 public:
  // Encrypt: the salt every passphrase slot made with this cache and these costs shares (random, drawn on
  // first use).
  const std::array<std::uint8_t, kKdfSaltBytes>& run_salt(std::span<const std::uint8_t> passphrase,
                                                          std::uint32_t ops, std::uint32_t memory_kib);
  // passphrase_kek(), run only on the first request for these (passphrase, salt, ops, memory).
  const SecretBytes& kek(std::span<const std::uint8_t> passphrase,
                         std::span<const std::uint8_t, kKdfSaltBytes> salt, std::uint32_t ops,
                         std::uint32_t memory_kib);
  // How many times Argon2id actually ran through this cache (reported with -v; tests count it).
  std::size_t argon2id_runs() const { return runs_; }

 private:
  struct Entry {
    SecretBytes passphrase;
    std::array<std::uint8_t, kKdfSaltBytes> salt{};
    std::uint32_t ops = 0;
    std::uint32_t memory_kib = 0;
    SecretBytes kek;     // empty until derived
    bool fresh = false;  // salt drawn by run_salt() (never one read from a file)
  };
  // salt == nullptr: the entry whose salt run_salt() drew for these costs.
  Entry* find(std::span<const std::uint8_t> passphrase, std::uint32_t ops, std::uint32_t memory_kib,
              const std::uint8_t* salt);
  std::vector<std::unique_ptr<Entry>> entries_;  // unique_ptr: references handed out stay valid
  std::size_t runs_ = 0;
};

// Wraps the file key for one credential (fresh random nonce; fresh salt and `kdf` costs for a passphrase, or
// with a cache, the run's salt and its one KEK). Throws Error(usage) for an unusable credential (key not 32
// bytes, empty passphrase, costs out of range).
KeySlot make_slot(const SecretBytes& file_key, const Credential& credential, const KdfLimits& kdf,
                  PassphraseKekCache* cache = nullptr);
// The file key if `credential` opens `slot` (kinds must match), else nullopt. Runs Argon2id for passphrase
// slots (once per cache entry, with a cache) without looking at any ceiling: callers check
// slot_within_ceiling() first.
std::optional<SecretBytes> open_slot(const KeySlot& slot, const Credential& credential,
                                     PassphraseKekCache* cache = nullptr);
bool slot_within_ceiling(const KeySlot& slot, const KdfLimits& ceiling);

// FORMAT.md §5 steps 3-6: the file key, or Error(header) (wrong credentials, tampered header, or a slot
// whose Argon2id costs exceed `ceiling` — those are never run). The messages say what was given and which
// slots the file has (core/pcrypt/slot_words.h). `opened_slot`, if given, receives the index (from 0) of the
// slot that opened.
SecretBytes unlock_file_key(const ParsedHeader& parsed, const std::vector<Credential>& credentials,
                            const KdfLimits& ceiling, PassphraseKekCache* cache = nullptr,
                            std::size_t* opened_slot = nullptr);

// Every slot `credential` opens (indices from 0; usually one, more if the same key was added twice), each
// checked against the header MAC (a slot opening to a key the MAC rejects: Error(header), §6.5). For
// `pcrypt info -k/-i/-p` and rekey's removal by credential. A passphrase slot above `ceiling` is
// Error(header), as in unlock_file_key.
std::vector<std::size_t> slots_opened_by(const ParsedHeader& parsed, const Credential& credential,
                                         const KdfLimits& ceiling, PassphraseKekCache* cache = nullptr);

}  // namespace pcrypt::core
