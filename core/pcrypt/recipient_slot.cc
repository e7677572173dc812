// Recipient slots: X25519 key agreement with a per-slot ephemeral key, BLAKE2b wrap key bound to both public
// keys (and for SSH to the key blob), file key sealed with XChaCha20-Poly1305 under a fixed nonce. Kind 5 is
// HPKE SealBase with the MLKEM768-X25519 KEM (core/pq/hpke.h).
#include "core/pcrypt/recipient_slot.h"

#include <sodium.h>

#include <cstring>
#include <string_view>
#include <utility>

#include "core/error.h"
#include "core/pq/hpke.h"
#include "core/pq/wiped.h"

namespace pcrypt::core::recipient_slot {
namespace {

constexpr std::string_view label_x25519 = "pcrypt-x25519-wrap";
constexpr std::string_view label_ssh = "pcrypt-ssh-ed25519-wrap";
// Zero nonce: each wrap key seals exactly one message (§3.2 Why).
constexpr std::array<std::uint8_t, crypto_aead_xchacha20poly1305_ietf_NPUBBYTES> zero_nonce{};

std::array<std::uint8_t, 32> blob_hash(const std::vector<std::uint8_t>& blob) {
  std::array<std::uint8_t, 32> h{};
  crypto_hash_sha256(h.data(), blob.data(), blob.size());
  return h;
}

// WK = BLAKE2b-256(key = S, message = label || E || R [|| SHA-256(blob)]).
void wrap_key(std::uint8_t out[32], const std::uint8_t shared[32], std::string_view label,
              const std::uint8_t e[32], const std::uint8_t r[32],
              const std::array<std::uint8_t, 32>* blob_digest) {
  crypto_generichash_state st;
  crypto_generichash_init(&st, shared, 32, 32);
  crypto_generichash_update(&st, reinterpret_cast<const std::uint8_t*>(label.data()), label.size());
  crypto_generichash_update(&st, e, 32);
  crypto_generichash_update(&st, r, 32);
  if (blob_digest != nullptr) crypto_generichash_update(&st, blob_digest->data(), 32);
  crypto_generichash_final(&st, out, 32);
  sodium_memzero(&st, sizeof st);
}

// X25519; false when the result is all zero (libsodium also returns -1 then; checked twice on purpose).
bool agree(std::uint8_t out[32], const std::uint8_t secret[32], const std::uint8_t peer[32]) {
  if (crypto_scalarmult(out, secret, peer) != 0) return false;
  return sodium_is_zero(out, 32) == 0;
}

std::span<const std::uint8_t> info_bytes() {
  return {reinterpret_cast<const std::uint8_t*>(hybrid_info.data()), hybrid_info.size()};
}

std::vector<std::uint8_t> hybrid_slot(const pq::hpke::Sealed& sealed) {
  std::vector<std::uint8_t> slot;
  slot.reserve(mlkem768_x25519_slot_size);
  slot.push_back(kind_mlkem768_x25519);
  slot.insert(slot.end(), sealed.enc.begin(), sealed.enc.end());
  slot.insert(slot.end(), sealed.ciphertext.begin(), sealed.ciphertext.end());
  return slot;
}

[[noreturn]] void refuse_hybrid_key() {
  throw Error(PCRYPT_E_NOT_A_RECIPIENT, "post-quantum recipient key is not a valid ML-KEM-768 + X25519 key",
              "the recipient is damaged or malicious; ask its owner for the age1pq1... key again");
}

// Tag recipients (age1tag1…, age1tagpq1…) and plugins' (age1NAME1…) are age format features; pcrypt files
// have no slot kind for them.
void refuse_age_only(const Recipient& recipient) {
  if (const auto* plugin = std::get_if<PluginRecipient>(&recipient))
    throw Error(PCRYPT_E_FORMAT_OPTION,
                "age plugin recipients (age1" + plugin->plugin + "1...) work only in the age format",
                "use the age format (the plugin age-plugin-" + plugin->plugin + " makes the age stanza)");
  if (is_tag_recipient(recipient))
    throw Error(
        PCRYPT_E_FORMAT_OPTION,
        "tag recipients (age1tag1..., age1tagpq1...) can only be used in age files: the pcrypt format "
        "has no slot kind for them",
        "use the age format, or encrypt to an age1... / age1pq1... recipient");
}

void check_file_key(const SecretBytes& file_key) {
  if (file_key.size() != file_key_size) throw Error(PCRYPT_E_INTERNAL, "internal: file key must be 32 bytes");
}

}  // namespace

std::size_t slot_size(std::uint8_t kind) {
  if (kind == kind_x25519) return x25519_slot_size;
  if (kind == kind_ssh_ed25519) return ssh_ed25519_slot_size;
  if (kind == kind_mlkem768_x25519) return mlkem768_x25519_slot_size;
  return 0;
}

std::size_t slot_size_of(std::span<const std::uint8_t> s) {
  if (s.empty()) return 0;
  if (s[0] != kind_ssh_rsa) return slot_size(s[0]);
  if (s.size() < ssh_rsa_prefix_size) return 0;
  const std::size_t len = std::size_t{s[5]} << 8 | s[6];
  if (len < ssh_rsa_min_ciphertext || len > ssh_rsa_max_ciphertext) return 0;
  return ssh_rsa_prefix_size + len;
}

namespace {

std::vector<std::uint8_t> wrap_rsa(const SecretBytes& file_key, const SshRsaRecipient& r) {
  const std::array<std::uint8_t, 32> digest = blob_hash(r.key.blob);
  const std::vector<std::uint8_t> ct = ssh_rsa::oaep_encrypt(r.key, file_key.span(), ssh_rsa_oaep_label);
  std::vector<std::uint8_t> slot(ssh_rsa_prefix_size + ct.size());
  slot[0] = kind_ssh_rsa;
  std::memcpy(slot.data() + 1, digest.data(), 4);
  slot[5] = static_cast<std::uint8_t>(ct.size() >> 8);
  slot[6] = static_cast<std::uint8_t>(ct.size());
  std::memcpy(slot.data() + ssh_rsa_prefix_size, ct.data(), ct.size());
  return slot;
}

std::optional<SecretBytes> unwrap_rsa(std::span<const std::uint8_t> slot, const Identity& identity) {
  const std::array<std::uint8_t, 32> digest = blob_hash(identity.blob);
  if (std::memcmp(digest.data(), slot.data() + 1, 4) != 0) return std::nullopt;
  const Identity& id = identity.unlock ? identity.unlock() : identity;
  if (!id.rsa) return std::nullopt;
  std::optional<SecretBytes> fk = id.rsa->oaep_decrypt(slot.subspan(ssh_rsa_prefix_size), ssh_rsa_oaep_label);
  if (!fk || fk->size() != file_key_size) return std::nullopt;
  return fk;
}

}  // namespace

std::vector<std::uint8_t> wrap_hybrid_derand(const SecretBytes& file_key, const HybridRecipient& recipient,
                                             std::span<const std::uint8_t, 64> randomness,
                                             HybridTrace* trace) {
  check_file_key(file_key);
  pq::hpke::Trace t;
  const auto sealed =
      pq::hpke::seal_base_derand(recipient.public_key, randomness, info_bytes(), {}, file_key.span(), &t);
  if (!sealed) refuse_hybrid_key();
  if (trace != nullptr) *trace = HybridTrace{t.shared_secret, t.key, t.base_nonce};
  return hybrid_slot(*sealed);
}

std::vector<std::uint8_t> wrap_with_ephemeral(const SecretBytes& file_key, const Recipient& recipient,
                                              std::span<const std::uint8_t, 32> ephemeral_secret,
                                              Trace* trace) {
  check_file_key(file_key);
  refuse_age_only(recipient);
  if (std::holds_alternative<HybridRecipient>(recipient))
    throw Error(PCRYPT_E_INTERNAL, "internal: a post-quantum slot has no X25519 ephemeral key");
  if (const auto* rsa = std::get_if<SshRsaRecipient>(&recipient)) return wrap_rsa(file_key, *rsa);
  const auto* ssh = std::get_if<SshEd25519Recipient>(&recipient);
  const PublicKey32& r = ssh ? ssh->public_key : std::get<X25519Recipient>(recipient).public_key;
  std::array<std::uint8_t, 32> e{};
  crypto_scalarmult_base(e.data(), ephemeral_secret.data());
  pq::WipedBytes<32> shared, wk;
  if (!agree(shared.data(), ephemeral_secret.data(), r.data()))
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, "recipient public key is a low-order point (no shared secret)",
                "the recipient is damaged or malicious; ask its owner for the public key again");
  std::vector<std::uint8_t> slot;
  // Reserved whole: growing it piecemeal makes GCC 12 at -O3 report a false out-of-bounds memset.
  slot.reserve(1 + 4 + e.size() + file_key_size + crypto_aead_xchacha20poly1305_ietf_ABYTES);
  std::array<std::uint8_t, 32> digest{};
  if (ssh) {
    digest = blob_hash(ssh->blob);
    wrap_key(wk.data(), shared.data(), label_ssh, e.data(), r.data(), &digest);
    slot.push_back(kind_ssh_ed25519);
    slot.insert(slot.end(), digest.begin(), digest.begin() + 4);
  } else {
    wrap_key(wk.data(), shared.data(), label_x25519, e.data(), r.data(), nullptr);
    slot.push_back(kind_x25519);
  }
  slot.insert(slot.end(), e.begin(), e.end());
  const std::size_t at = slot.size();
  slot.resize(at + file_key_size + crypto_aead_xchacha20poly1305_ietf_ABYTES);
  crypto_aead_xchacha20poly1305_ietf_encrypt(slot.data() + at, nullptr, file_key.data(), file_key.size(),
                                             nullptr, 0, nullptr, zero_nonce.data(), wk.data());
  if (trace != nullptr) {
    trace->ephemeral_public = e;
    std::memcpy(trace->shared_secret.data(), shared.data(), 32);
    std::memcpy(trace->wrap_key.data(), wk.data(), 32);
    std::memcpy(trace->tag.data(), digest.data(), 4);
  }
  return slot;
}

std::vector<std::uint8_t> wrap(const SecretBytes& file_key, const Recipient& recipient) {
  refuse_age_only(recipient);
  if (const auto* hybrid = std::get_if<HybridRecipient>(&recipient)) {
    check_file_key(file_key);
    const auto sealed = pq::hpke::seal_base(hybrid->public_key, info_bytes(), {}, file_key.span());
    if (!sealed) refuse_hybrid_key();
    return hybrid_slot(*sealed);
  }
  pq::WipedBytes<32> eph;
  randombytes_buf(eph.data(), eph.size());
  return wrap_with_ephemeral(file_key, recipient, std::as_const(eph).span());
}

std::optional<SecretBytes> unwrap(std::span<const std::uint8_t> slot, const Identity& identity) {
  if (slot.empty() || slot.size() != slot_size_of(slot)) return std::nullopt;
  if (slot[0] == kind_ssh_rsa)
    return identity.kind == Identity::Kind::ssh_rsa ? unwrap_rsa(slot, identity) : std::nullopt;
  if ((slot[0] == kind_mlkem768_x25519) != (identity.kind == Identity::Kind::mlkem768_x25519))
    return std::nullopt;
  if (slot[0] == kind_mlkem768_x25519) {
    if (!identity.hybrid) return std::nullopt;
    const auto enc = slot.subspan<1, pq::xwing::ciphertext_size>();
    auto fk = pq::hpke::open_base(*identity.hybrid, enc, info_bytes(), {}, slot.subspan(1 + enc.size()));
    if (!fk || fk->size() != file_key_size) return std::nullopt;
    return fk;
  }
  if (identity.kind == Identity::Kind::ssh_rsa) return std::nullopt;  // kinds 3 and 4 need an X25519 secret
  const bool ssh = slot[0] == kind_ssh_ed25519;
  if (ssh != (identity.kind == Identity::Kind::ssh_ed25519)) return std::nullopt;
  std::array<std::uint8_t, 32> digest{};
  std::size_t at = 1;
  if (ssh) {
    digest = blob_hash(identity.blob);
    if (std::memcmp(digest.data(), slot.data() + 1, 4) != 0) return std::nullopt;
    at += 4;
  }
  // A protected SSH key is opened (its passphrase asked) only now that a slot carries its tag.
  const Identity& id = identity.unlock ? identity.unlock() : identity;
  const std::uint8_t* e = slot.data() + at;
  pq::WipedBytes<32> shared, wk;
  if (!agree(shared.data(), id.secret.data(), e)) return std::nullopt;
  wrap_key(wk.data(), shared.data(), ssh ? label_ssh : label_x25519, e, identity.public_key.data(),
           ssh ? &digest : nullptr);
  // Opened on the stack; secure memory only for the file key that authenticates.
  pq::WipedBytes<file_key_size> fk;
  if (crypto_aead_xchacha20poly1305_ietf_decrypt(fk.data(), nullptr, nullptr, slot.data() + at + 32,
                                                 file_key_size + crypto_aead_xchacha20poly1305_ietf_ABYTES,
                                                 nullptr, 0, zero_nonce.data(), wk.data()) != 0)
    return std::nullopt;
  return SecretBytes(std::as_const(fk).span());
}

std::array<std::uint8_t, 4> ssh_tag(std::span<const std::uint8_t> blob) {
  const std::array<std::uint8_t, 32> digest = blob_hash(std::vector<std::uint8_t>(blob.begin(), blob.end()));
  std::array<std::uint8_t, 4> tag{};
  std::memcpy(tag.data(), digest.data(), tag.size());
  return tag;
}

}  // namespace pcrypt::core::recipient_slot
