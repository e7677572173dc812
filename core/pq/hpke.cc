// RFC 9180 §4 (LabeledExtract / LabeledExpand), §5.1 (KeySchedule, mode_base) and §5.2 (single-shot seal and
// open with seq = 0) for the suite in hpke.h. HKDF-SHA256 is HMAC-SHA256 (RFC 5869), core/hmac_sha256.h;
// every Expand here asks for at most 32 bytes, so it is one HMAC block T(1).
#include "core/pq/hpke.h"

#include <sodium.h>

#include <cstring>
#include <initializer_list>
#include <string_view>

#include "core/hmac_sha256.h"
#include "core/pq/p256.h"
#include "core/pq/wiped.h"

namespace pcrypt::pq::hpke {
namespace {

using Bytes = std::span<const std::uint8_t>;

constexpr std::uint16_t kdf_id = 0x0001, aead_id = 0x0003;
constexpr std::size_t key_size = 32, nonce_size = 12;
// Plaintexts up to this size (file keys: 16 bytes in age, 32 in pcrypt) are opened on the stack.
constexpr std::size_t small_plaintext = 64;
// suite_id = "HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) || I2OSP(aead_id, 2)
constexpr std::uint8_t suite_id[10] = {'H',
                                       'P',
                                       'K',
                                       'E',
                                       xwing::hpke_kem_id >> 8,
                                       xwing::hpke_kem_id & 0xFF,
                                       kdf_id >> 8,
                                       kdf_id & 0xFF,
                                       aead_id >> 8,
                                       aead_id & 0xFF};
static_assert(crypto_aead_chacha20poly1305_ietf_KEYBYTES == key_size &&
              crypto_aead_chacha20poly1305_ietf_NPUBBYTES == nonce_size &&
              crypto_aead_chacha20poly1305_ietf_ABYTES == tag_size);

Bytes text(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// libsodium declares its pointers nonnull even for zero lengths; an empty span may have a null data().
const std::uint8_t* nonnull(Bytes b) {
  static const std::uint8_t none = 0;
  return b.empty() ? &none : b.data();
}

// LabeledExtract(salt, label, ikm) = HKDF-Extract(salt, "HPKE-v1" || suite_id || label || ikm). An empty salt
// is HMAC's zero-padded key, the same as RFC 5869's string of HashLen zeros.
void labeled_extract(Bytes suite, Bytes salt, std::string_view label, Bytes ikm,
                     std::span<std::uint8_t, 32> out) {
  core::hmac_sha256(salt, {text("HPKE-v1"), suite, text(label), ikm}, out);
}

// LabeledExpand(prk, label, info, L) for L <= 32: HMAC(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id || label ||
// info || 0x01)[:L].
void labeled_expand(Bytes suite, Bytes prk, std::string_view label, Bytes info, std::span<std::uint8_t> out) {
  const std::uint8_t length[2] = {0, static_cast<std::uint8_t>(out.size())};
  const std::uint8_t counter[1] = {1};
  WipedBytes<32> t;
  core::hmac_sha256(prk, {length, text("HPKE-v1"), suite, text(label), info, counter}, t.span());
  std::memcpy(out.data(), t.data(), out.size());
}

// KeySchedule(mode_base, shared_secret, info, psk = "", psk_id = ""): key and base_nonce.
void key_schedule(Bytes suite, Bytes shared_secret, Bytes info, std::span<std::uint8_t, key_size> key,
                  std::span<std::uint8_t, nonce_size> base_nonce) {
  std::uint8_t context[1 + 32 + 32] = {0x00};  // mode_base || psk_id_hash || info_hash
  labeled_extract(suite, {}, "psk_id_hash", {}, std::span<std::uint8_t, 32>(context + 1, 32));
  labeled_extract(suite, {}, "info_hash", info, std::span<std::uint8_t, 32>(context + 33, 32));
  WipedBytes<32> secret;
  labeled_extract(suite, shared_secret, "secret", {}, secret.span());
  labeled_expand(suite, secret.span(), "key", context, key);
  labeled_expand(suite, secret.span(), "base_nonce", context, base_nonce);
}

// suite_id of the HPKE key schedule for another KEM with this file's KDF and AEAD.
std::array<std::uint8_t, 10> hpke_suite(std::uint16_t kem_id) {
  return {'H',
          'P',
          'K',
          'E',
          static_cast<std::uint8_t>(kem_id >> 8),
          static_cast<std::uint8_t>(kem_id & 0xFF),
          kdf_id >> 8,
          kdf_id & 0xFF,
          aead_id >> 8,
          aead_id & 0xFF};
}

}  // namespace

std::optional<Sealed> seal_base_derand(
    std::span<const std::uint8_t, xwing::public_key_size> pk,
    std::span<const std::uint8_t, xwing::encaps_randomness_size> randomness,
    std::span<const std::uint8_t> info, std::span<const std::uint8_t> aad,
    std::span<const std::uint8_t> plaintext, Trace* trace) {
  Sealed out;
  WipedBytes<32> shared;
  WipedBytes<key_size> key;
  std::array<std::uint8_t, nonce_size> nonce{};
  if (!xwing::encapsulate_derand(pk, randomness, out.enc, shared.span())) return std::nullopt;
  key_schedule(suite_id, shared.span(), info, key.span(), nonce);
  out.ciphertext.resize(plaintext.size() + tag_size);
  crypto_aead_chacha20poly1305_ietf_encrypt(out.ciphertext.data(), nullptr, plaintext.data(),
                                            plaintext.size(), aad.data(), aad.size(), nullptr, nonce.data(),
                                            key.data());
  if (trace != nullptr) {
    std::memcpy(trace->shared_secret.data(), shared.data(), 32);
    std::memcpy(trace->key.data(), key.data(), key_size);
    trace->base_nonce = nonce;
  }
  return out;
}

std::optional<Sealed> seal_base(std::span<const std::uint8_t, xwing::public_key_size> pk,
                                std::span<const std::uint8_t> info, std::span<const std::uint8_t> aad,
                                std::span<const std::uint8_t> plaintext) {
  WipedBytes<xwing::encaps_randomness_size> randomness;
  randombytes_buf(randomness.data(), randomness.size());
  return seal_base_derand(pk, randomness.span(), info, aad, plaintext);
}

std::optional<SecretBytes> open_base(const xwing::PrivateKey& sk,
                                     std::span<const std::uint8_t, xwing::ciphertext_size> enc,
                                     std::span<const std::uint8_t> info, std::span<const std::uint8_t> aad,
                                     std::span<const std::uint8_t> ciphertext, OpenFailure* why) {
  const auto fail = [why](OpenFailure f) {
    if (why != nullptr) *why = f;
    return std::nullopt;
  };
  if (ciphertext.size() < tag_size) return fail(OpenFailure::not_authentic);
  WipedBytes<32> shared;
  WipedBytes<key_size> key;
  std::array<std::uint8_t, nonce_size> nonce{};
  if (!sk.decapsulate(enc, shared.span())) return fail(OpenFailure::kem_refused);
  key_schedule(suite_id, shared.span(), info, key.span(), nonce);
  // Authenticate first (detached tag), and only then give the plaintext secure memory: most calls are
  // another recipient's stanza or slot, which fail here and so cost no allocation.
  const std::size_t size = ciphertext.size() - tag_size;
  if (size <= small_plaintext) {
    WipedBytes<small_plaintext> plain;
    if (crypto_aead_chacha20poly1305_ietf_decrypt_detached(plain.data(), nullptr, nonnull(ciphertext), size,
                                                           ciphertext.data() + size, nonnull(aad), aad.size(),
                                                           nonce.data(), key.data()) != 0)
      return fail(OpenFailure::not_authentic);
    return SecretBytes(std::span<const std::uint8_t>(plain.data(), size));
  }
  SecretBytes plain(size);
  if (crypto_aead_chacha20poly1305_ietf_decrypt_detached(plain.data(), nullptr, ciphertext.data(), size,
                                                         ciphertext.data() + size, nonnull(aad), aad.size(),
                                                         nonce.data(), key.data()) != 0)
    return fail(OpenFailure::not_authentic);
  return plain;
}

std::vector<std::uint8_t> seal_with_shared_secret(std::uint16_t kem_id,
                                                  std::span<const std::uint8_t, 32> shared_secret,
                                                  std::span<const std::uint8_t> info,
                                                  std::span<const std::uint8_t> aad,
                                                  std::span<const std::uint8_t> plaintext) {
  WipedBytes<key_size> key;
  std::array<std::uint8_t, nonce_size> nonce{};
  key_schedule(hpke_suite(kem_id), shared_secret, info, key.span(), nonce);
  std::vector<std::uint8_t> ciphertext(plaintext.size() + tag_size);
  crypto_aead_chacha20poly1305_ietf_encrypt(ciphertext.data(), nullptr, nonnull(plaintext), plaintext.size(),
                                            nonnull(aad), aad.size(), nullptr, nonce.data(), key.data());
  return ciphertext;
}

void dhkem_p256_encap(const p256::Point& recipient, std::span<std::uint8_t, p256::uncompressed_size> enc,
                      std::span<std::uint8_t, 32> shared_secret) {
  WipedBytes<p256::secret_size> dh;
  p256::ephemeral_agree(recipient, enc, dh.span());
  // ExtractAndExpand(dh, kem_context = enc || pkRm) with suite_id = "KEM" || I2OSP(kem_id, 2).
  const std::uint8_t kem_suite[5] = {'K', 'E', 'M', kem_dhkem_p256 >> 8, kem_dhkem_p256 & 0xFF};
  std::array<std::uint8_t, 2 * p256::uncompressed_size> kem_context{};
  std::copy(enc.begin(), enc.end(), kem_context.begin());
  std::copy(recipient.begin(), recipient.end(), kem_context.begin() + p256::uncompressed_size);
  WipedBytes<32> eae_prk;
  labeled_extract(kem_suite, {}, "eae_prk", dh.span(), eae_prk.span());
  labeled_expand(kem_suite, eae_prk.span(), "shared_secret", kem_context, shared_secret);
}

}  // namespace pcrypt::pq::hpke
