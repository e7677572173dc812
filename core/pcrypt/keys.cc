#include "core/pcrypt/keys.h"

#include <sodium.h>

#include <stdexcept>

#include "core/aes/sodium_init.h"
#include "core/byte_size.h"
#include "core/error.h"
#include "core/pcrypt/recipient_slot.h"

namespace pcrypt::core {
SecretBytes new_file_key() {
  require_sodium();
  SecretBytes key(kFileKeyBytes);
  randombytes_buf(key.data(), key.size());
  return key;
}

SecretBytes derive_subkey(std::span<const std::uint8_t> key, const char (&label)[9]) {
  static_assert(crypto_kdf_CONTEXTBYTES == 8 && crypto_kdf_KEYBYTES == 32);
  if (key.size() != crypto_kdf_KEYBYTES) throw std::logic_error("derive_subkey: key must be 32 bytes");
  require_sodium();
  SecretBytes out(32);
  if (crypto_kdf_derive_from_key(out.data(), out.size(), 1, label, key.data()) != 0)
    throw std::logic_error("crypto_kdf_derive_from_key failed");
  return out;
}

std::array<std::uint8_t, kHeaderMacBytes> compute_header_mac(
    const SecretBytes& file_key, std::span<const std::uint8_t> authenticated_bytes) {
  static_assert(crypto_auth_hmacsha256_BYTES == kHeaderMacBytes && crypto_auth_hmacsha256_KEYBYTES == 32);
  const SecretBytes mac_key = derive_subkey(file_key.span(), kLabelHeaderMac);
  std::array<std::uint8_t, kHeaderMacBytes> mac{};
  crypto_auth_hmacsha256(mac.data(), authenticated_bytes.data(), authenticated_bytes.size(), mac_key.data());
  return mac;
}

bool header_mac_matches(const SecretBytes& file_key, const ParsedHeader& parsed) {
  const auto expected = compute_header_mac(file_key, parsed.authenticated_bytes);
  return crypto_verify_32(expected.data(), parsed.header.mac.data()) == 0;
}

KeySlot make_slot(const SecretBytes& file_key, const Credential& credential, const KdfLimits& kdf,
                  PassphraseKekCache* cache) {
  require_sodium();
  KeySlot slot;
  SecretBytes kek;
  if (credential.kind == Credential::Kind::recipient && credential.recipient) {
    slot.recipient_slot = recipient_slot::wrap(file_key, *credential.recipient);
    slot.kind = static_cast<SlotKind>(slot.recipient_slot.front());
    return slot;
  }
  if (credential.kind == Credential::Kind::identity || credential.kind == Credential::Kind::recipient)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, "an identity cannot encrypt; give its recipient instead");
  if (credential.kind == Credential::Kind::raw_key)
    throw Error(PCRYPT_E_CREDENTIAL_MIX,
                "a raw key is for C2SP chunked encryption (cobblestone), not pcrypt's format");
  if (credential.kind == Credential::Kind::key_file) {
    if (credential.secret.size() != kKeyFileKeyBytes)
      throw Error(PCRYPT_E_NOT_A_KEY_FILE, "a key file key must be 32 bytes", "create a new key file");
    slot.kind = SlotKind::key_file;
    kek = derive_subkey(credential.secret.span(), kLabelKeyFileKek);
  } else {
    if (credential.secret.empty()) throw Error(PCRYPT_E_EMPTY_PASSPHRASE, "the passphrase is empty");
    if (!kdf_ops_in_range(kdf.opslimit))
      throw Error(PCRYPT_E_BAD_ARGUMENT, "Argon2id passes must be between 1 and 4294967295");
    if (!kdf_memory_in_range(kdf.memlimit_bytes))
      throw Error(PCRYPT_E_BAD_ARGUMENT, "Argon2id memory must be a whole number of KiB, at least " +
                                             format_bytes(std::uint64_t{kMinKdfMemoryKib} * 1024));
    slot.kind = SlotKind::passphrase;
    slot.kdf_ops = static_cast<std::uint32_t>(kdf.opslimit);
    slot.kdf_memory_kib = static_cast<std::uint32_t>(kdf.memlimit_bytes / 1024);
    if (cache != nullptr) {
      slot.kdf_salt = cache->run_salt(credential.secret.span(), slot.kdf_ops, slot.kdf_memory_kib);
      kek = cache->kek(credential.secret.span(), slot.kdf_salt, slot.kdf_ops, slot.kdf_memory_kib).span();
    } else {
      randombytes_buf(slot.kdf_salt.data(), slot.kdf_salt.size());
      kek = passphrase_kek(credential.secret.span(), slot.kdf_salt, slot.kdf_ops, slot.kdf_memory_kib);
    }
  }
  randombytes_buf(slot.wrap_nonce.data(), slot.wrap_nonce.size());
  static_assert(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES == kWrapNonceBytes);
  crypto_aead_xchacha20poly1305_ietf_encrypt(slot.wrapped_key.data(), nullptr, file_key.data(),
                                             file_key.size(), nullptr, 0, nullptr, slot.wrap_nonce.data(),
                                             kek.data());
  return slot;
}

std::optional<SecretBytes> open_slot(const KeySlot& slot, const Credential& credential,
                                     PassphraseKekCache* cache) {
  require_sodium();
  if (is_recipient_slot(slot.kind)) {
    if (credential.kind != Credential::Kind::identity || !credential.identity) return std::nullopt;
    return recipient_slot::unwrap(slot.recipient_slot, *credential.identity);
  }
  SecretBytes kek;
  if (slot.kind == SlotKind::key_file && credential.kind == Credential::Kind::key_file) {
    if (credential.secret.size() != kKeyFileKeyBytes) return std::nullopt;
    kek = derive_subkey(credential.secret.span(), kLabelKeyFileKek);
  } else if (slot.kind == SlotKind::passphrase && credential.kind == Credential::Kind::passphrase) {
    kek = cache != nullptr
              ? SecretBytes(
                    cache->kek(credential.secret.span(), slot.kdf_salt, slot.kdf_ops, slot.kdf_memory_kib)
                        .span())
              : passphrase_kek(credential.secret.span(), slot.kdf_salt, slot.kdf_ops, slot.kdf_memory_kib);
  } else {
    return std::nullopt;
  }
  SecretBytes file_key(kFileKeyBytes);
  if (crypto_aead_xchacha20poly1305_ietf_decrypt(file_key.data(), nullptr, nullptr, slot.wrapped_key.data(),
                                                 slot.wrapped_key.size(), nullptr, 0, slot.wrap_nonce.data(),
                                                 kek.data()) != 0)
    return std::nullopt;
  return file_key;
}

}  // namespace pcrypt::core
