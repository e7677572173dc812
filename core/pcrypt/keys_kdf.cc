// Argon2id for passphrase slots: costs, the decrypt ceiling, and the derivation itself (FORMAT.md §3.2, §5).
#include <sodium.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "core/aes/sodium_init.h"
#include "core/byte_size.h"
#include "core/error.h"
#include "core/pcrypt/keys.h"

namespace pcrypt::core {

bool slot_within_ceiling(const KeySlot& slot, const KdfLimits& ceiling) {
  if (slot.kind != SlotKind::passphrase) return true;
  return slot.kdf_ops <= ceiling.opslimit &&
         std::uint64_t{slot.kdf_memory_kib} * 1024 <= ceiling.memlimit_bytes;
}

SecretBytes passphrase_kek(std::span<const std::uint8_t> passphrase,
                           std::span<const std::uint8_t, kKdfSaltBytes> salt, std::uint32_t ops,
                           std::uint32_t memory_kib) {
  static_assert(crypto_pwhash_argon2id_SALTBYTES == kKdfSaltBytes);
  require_sodium();
  const std::uint64_t memory_bytes = std::uint64_t{memory_kib} * 1024;
  SecretBytes stretched(32);
  // libsodium frees Argon2id's work area before returning, so the memory is back before the payload starts.
  if (crypto_pwhash(stretched.data(), stretched.size(), reinterpret_cast<const char*>(passphrase.data()),
                    passphrase.size(), salt.data(), ops, static_cast<std::size_t>(memory_bytes),
                    crypto_pwhash_ALG_ARGON2ID13) != 0)
    throw Error(PCRYPT_E_OUT_OF_MEMORY,
                "Argon2id failed with " + format_bytes(memory_bytes) + " and " + std::to_string(ops) +
                    " passes (out of memory?)",
                "free some memory, or choose a smaller Argon2id memory cost when encrypting");
  return derive_subkey(stretched.span(), kLabelPassphraseKek);
}

}  // namespace pcrypt::core

namespace pcrypt::core {

PassphraseKekCache::Entry* PassphraseKekCache::find(std::span<const std::uint8_t> passphrase,
                                                    std::uint32_t ops, std::uint32_t memory_kib,
                                                    const std::uint8_t* salt) {
  for (const std::unique_ptr<Entry>& e : entries_) {
    if (e->ops != ops || e->memory_kib != memory_kib || e->passphrase.size() != passphrase.size()) continue;
    if (salt == nullptr ? !e->fresh : sodium_memcmp(e->salt.data(), salt, kKdfSaltBytes) != 0) continue;
    if (sodium_memcmp(e->passphrase.data(), passphrase.data(), passphrase.size()) != 0) continue;
    return e.get();
  }
  return nullptr;
}

const std::array<std::uint8_t, kKdfSaltBytes>& PassphraseKekCache::run_salt(
    std::span<const std::uint8_t> passphrase, std::uint32_t ops, std::uint32_t memory_kib) {
  // Only a salt drawn here is reused for new slots, never one read from a file (whose maker chose it).
  if (Entry* e = find(passphrase, ops, memory_kib, nullptr); e != nullptr) return e->salt;
  require_sodium();
  auto entry = std::make_unique<Entry>();
  entry->passphrase = SecretBytes(passphrase);
  entry->ops = ops;
  entry->memory_kib = memory_kib;
  entry->fresh = true;
  randombytes_buf(entry->salt.data(), entry->salt.size());
  entries_.push_back(std::move(entry));
  return entries_.back()->salt;
}

const SecretBytes& PassphraseKekCache::kek(std::span<const std::uint8_t> passphrase,
                                           std::span<const std::uint8_t, kKdfSaltBytes> salt,
                                           std::uint32_t ops, std::uint32_t memory_kib) {
  Entry* e = find(passphrase, ops, memory_kib, salt.data());
  if (e == nullptr) {
    auto entry = std::make_unique<Entry>();
    entry->passphrase = SecretBytes(passphrase);
    entry->ops = ops;
    entry->memory_kib = memory_kib;
    std::copy(salt.begin(), salt.end(), entry->salt.begin());
    entries_.push_back(std::move(entry));
    e = entries_.back().get();
  }
  if (e->kek.empty()) {
    e->kek = passphrase_kek(passphrase, salt, ops, memory_kib);
    ++runs_;
  }
  return e->kek;
}

}  // namespace pcrypt::core
