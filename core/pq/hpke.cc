// RFC 9180 §4 (LabeledExtract / LabeledExpand), §5.1 (KeySchedule, mode_base) and §5.2 (single-shot seal and
// open with seq = 0) for the suite in hpke.h. HKDF-SHA256 is HMAC-SHA256 (RFC 5869) from libsodium; every
// Expand here asks for at most 32 bytes, so it is one HMAC block T(1).
#include "core/pq/hpke.h"

#include <sodium.h>

#include <cstring>
#include <initializer_list>
#include <string_view>

namespace pcrypt::pq::hpke {
namespace {

using Bytes = std::span<const std::uint8_t>;

constexpr std::uint16_t kdf_id = 0x0001, aead_id = 0x0003;
constexpr std::size_t key_size = 32, nonce_size = 12;
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

void hmac(Bytes key, std::initializer_list<Bytes> parts, std::span<std::uint8_t, 32> out) {
  crypto_auth_hmacsha256_state st;
  crypto_auth_hmacsha256_init(&st, nonnull(key), key.size());
  for (Bytes p : parts) crypto_auth_hmacsha256_update(&st, nonnull(p), p.size());
  crypto_auth_hmacsha256_final(&st, out.data());
  sodium_memzero(&st, sizeof st);
}

// LabeledExtract(salt, label, ikm) = HKDF-Extract(salt, "HPKE-v1" || suite_id || label || ikm). An empty salt
// is HMAC's zero-padded key, the same as RFC 5869's string of HashLen zeros.
void labeled_extract(Bytes salt, std::string_view label, Bytes ikm, std::span<std::uint8_t, 32> out) {
  hmac(salt, {text("HPKE-v1"), suite_id, text(label), ikm}, out);
}

// LabeledExpand(prk, label, info, L) for L <= 32: HMAC(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id || label ||
// info || 0x01)[:L].
void labeled_expand(Bytes prk, std::string_view label, Bytes info, std::span<std::uint8_t> out) {
  const std::uint8_t length[2] = {0, static_cast<std::uint8_t>(out.size())};
  const std::uint8_t counter[1] = {1};
  SecretBytes t(32);
  hmac(prk, {length, text("HPKE-v1"), suite_id, text(label), info, counter},
       std::span<std::uint8_t, 32>(t.data(), 32));
  std::memcpy(out.data(), t.data(), out.size());
}

// KeySchedule(mode_base, shared_secret, info, psk = "", psk_id = ""): key and base_nonce.
void key_schedule(Bytes shared_secret, Bytes info, std::span<std::uint8_t, key_size> key,
                  std::span<std::uint8_t, nonce_size> base_nonce) {
  std::uint8_t context[1 + 32 + 32] = {0x00};  // mode_base || psk_id_hash || info_hash
  labeled_extract({}, "psk_id_hash", {}, std::span<std::uint8_t, 32>(context + 1, 32));
  labeled_extract({}, "info_hash", info, std::span<std::uint8_t, 32>(context + 33, 32));
  SecretBytes secret(32);
  labeled_extract(shared_secret, "secret", {}, std::span<std::uint8_t, 32>(secret.data(), 32));
  labeled_expand(secret.span(), "key", context, key);
  labeled_expand(secret.span(), "base_nonce", context, base_nonce);
}

}  // namespace

std::optional<Sealed> seal_base_derand(
    std::span<const std::uint8_t, xwing::public_key_size> pk,
    std::span<const std::uint8_t, xwing::encaps_randomness_size> randomness,
    std::span<const std::uint8_t> info, std::span<const std::uint8_t> aad,
    std::span<const std::uint8_t> plaintext, Trace* trace) {
  Sealed out;
  SecretBytes shared(32), key(key_size);
  std::array<std::uint8_t, nonce_size> nonce{};
  if (!xwing::encapsulate_derand(pk, randomness, out.enc, std::span<std::uint8_t, 32>(shared.data(), 32)))
    return std::nullopt;
  key_schedule(shared.span(), info, std::span<std::uint8_t, key_size>(key.data(), key_size), nonce);
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
  SecretBytes randomness(xwing::encaps_randomness_size);
  randombytes_buf(randomness.data(), randomness.size());
  return seal_base_derand(
      pk, std::span<const std::uint8_t, xwing::encaps_randomness_size>(randomness.data(), randomness.size()),
      info, aad, plaintext);
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
  SecretBytes shared(32), key(key_size);
  std::array<std::uint8_t, nonce_size> nonce{};
  if (!sk.decapsulate(enc, std::span<std::uint8_t, 32>(shared.data(), 32)))
    return fail(OpenFailure::kem_refused);
  key_schedule(shared.span(), info, std::span<std::uint8_t, key_size>(key.data(), key_size), nonce);
  SecretBytes plain(ciphertext.size() - tag_size);
  if (crypto_aead_chacha20poly1305_ietf_decrypt(plain.data(), nullptr, nullptr, ciphertext.data(),
                                                ciphertext.size(), aad.data(), aad.size(), nonce.data(),
                                                key.data()) != 0)
    return fail(OpenFailure::not_authentic);
  return plain;
}

}  // namespace pcrypt::pq::hpke
