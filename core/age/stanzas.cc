#include "core/age/stanzas.h"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "core/age/base64.h"
#include "core/age/plugin.h"
#include "core/age/primitives.h"
#include "core/error.h"
#include "core/hmac_sha256.h"
#include "core/keys/ssh_rsa.h"
#include "core/pq/hpke.h"
#include "core/pq/mlkem768p256.h"
#include "core/pq/wiped.h"

namespace pcrypt::core::age {
namespace {

constexpr std::string_view kX25519Label = "age-encryption.org/v1/X25519";
constexpr std::string_view kScryptLabel = "age-encryption.org/v1/scrypt";
constexpr std::string_view kSshEd25519Label = "age-encryption.org/v1/ssh-ed25519";
constexpr std::string_view kSshRsaLabel = "age-encryption.org/v1/ssh-rsa";  // the OAEP label
constexpr std::string_view kPostQuantumType = "mlkem768x25519";
constexpr std::string_view kPostQuantumInfo = "age-encryption.org/mlkem768x25519";  // HPKE info, aad empty
// Tag recipients (c2sp.org/age): the stanza type, and the HPKE info that is also the tag's HKDF salt.
constexpr std::string_view kP256TagType = "p256tag";
constexpr std::string_view kP256TagLabel = "age-encryption.org/p256tag";
constexpr std::string_view kHybridTagType = "mlkem768p256tag";
constexpr std::string_view kHybridTagLabel = "age-encryption.org/mlkem768p256tag";

using Key32 = std::span<const std::uint8_t, 32>;

[[noreturn]] void bad_stanza(const std::string& type, const std::string& what) {
  throw Error(PCRYPT_E_MALFORMED_HEADER, "malformed age " + type + " stanza: " + what);
}

// What trying one credential on one stanza gave: not for it (skip), or its file key.
using Unwrapped = std::optional<SecretBytes>;

std::vector<std::uint8_t> decode_arg(const Stanza& s, std::size_t i, std::size_t bytes, const char* what) {
  const auto v = decode_base64_raw(s.args[i]);
  if (!v || v->size() != bytes)
    bad_stanza(s.args[0],
               std::string(what) + " is not " + std::to_string(bytes) + " bytes of canonical base64");
  return *v;
}

// scrypt's salt in age: the label, then the stanza's 16 random bytes. Sized once, then filled: GCC 12 for
// aarch64 misreads an insert() at the end of the label's copy (-Wstringop-overflow, -Warray-bounds: "writing
// 16 bytes into a region of size 0").
std::vector<std::uint8_t> labelled_scrypt_salt(std::span<const std::uint8_t> salt) {
  std::vector<std::uint8_t> full_salt(kScryptLabel.size() + salt.size());
  std::copy(kScryptLabel.begin(), kScryptLabel.end(), full_salt.begin());
  std::copy(salt.begin(), salt.end(), full_salt.begin() + static_cast<std::ptrdiff_t>(kScryptLabel.size()));
  return full_salt;
}

void check_body(const Stanza& s) {
  if (s.body.size() != kFileKeyBytes + kAeadTagBytes)
    bad_stanza(s.args[0], "the wrapped file key is " + std::to_string(s.body.size()) + " bytes, not 32");
}

// X25519(secret, point), refusing an all-zero result (a low-order point) as age requires.
std::optional<SecretBytes> agree(const std::uint8_t* secret, const std::uint8_t* point) {
  SecretBytes shared(32);
  if (crypto_scalarmult(shared.data(), secret, point) != 0 || sodium_is_zero(shared.data(), 32) == 1)
    return std::nullopt;
  return shared;
}

SecretBytes wrap_key(const SecretBytes& shared, const std::uint8_t* share, const std::uint8_t* recipient,
                     std::string_view label) {
  std::array<std::uint8_t, 64> salt{};
  std::memcpy(salt.data(), share, 32);
  std::memcpy(salt.data() + 32, recipient, 32);
  return hkdf_sha256(shared.span(), salt, label);
}

Unwrapped open_body(const SecretBytes& key, const Stanza& s) {
  SecretBytes file_key;
  if (!open_file_key(Key32(key.data(), 32), std::span<const std::uint8_t, 32>(s.body.data(), 32), file_key))
    return std::nullopt;
  return file_key;
}

Stanza seal_body(std::vector<std::string> args, const SecretBytes& key, const SecretBytes& file_key) {
  const auto body =
      seal_file_key(Key32(key.data(), 32), std::span<const std::uint8_t, 16>(file_key.data(), 16));
  return Stanza{std::move(args), std::vector<std::uint8_t>(body.begin(), body.end())};
}

// The secrets unwrapping one stanza passes through -- X25519 shared secrets, the SSH tweak, HKDF's PRK and
// output (the wrap key), the file key before its stanza is known to open -- in one guarded buffer per
// thread, wiped when the stanza is done. A guarded allocation is several system calls (mmap, mprotect,
// mlock, and as many to free it): with five of them per stanza tried, a header of 10,000 X25519 stanzas took
// 50,000 (3 CPU seconds where age takes 0.5); now only a stanza that opens allocates, its file key.
class UnwrapScratch {
 public:
  UnwrapScratch() : use_(thread_scratch()) {}
  ~UnwrapScratch() { sodium_memzero(use_.data(), use_.size()); }
  UnwrapScratch(const UnwrapScratch&) = delete;
  UnwrapScratch& operator=(const UnwrapScratch&) = delete;

  std::span<std::uint8_t, 32> shared() { return part<32>(0); }
  std::span<std::uint8_t, 32> tweak() { return part<32>(32); }
  std::span<std::uint8_t, 32> tweaked() { return part<32>(64); }
  std::span<std::uint8_t, 32> prk() { return part<32>(96); }
  std::span<std::uint8_t, 32> wrap_key() { return part<32>(128); }
  std::span<std::uint8_t, 16> file_key() { return part<16>(160); }

 private:
  static constexpr std::size_t kBytes = 176;
  static SecretBytes& thread_scratch() {
    thread_local SecretBytes bytes(kBytes);
    return bytes;
  }
  template <std::size_t N>
  std::span<std::uint8_t, N> part(std::size_t offset) {
    return std::span<std::uint8_t, N>(use_.data() + offset, N);
  }
  SecretBytes& use_;
};

// agree() into `out`: false for an all-zero result.
bool agree_into(const std::uint8_t* secret, const std::uint8_t* point, std::span<std::uint8_t, 32> out) {
  return crypto_scalarmult(out.data(), secret, point) == 0 && sodium_is_zero(out.data(), 32) != 1;
}

// open_body(wrap_key(shared, ...), s) through the scratch: the file key, or not this stanza's.
Unwrapped open_wrapped(UnwrapScratch& scratch, std::span<const std::uint8_t, 32> shared,
                       const std::uint8_t* share, const std::uint8_t* recipient, std::string_view label,
                       const Stanza& s) {
  std::array<std::uint8_t, 64> salt{};
  std::memcpy(salt.data(), share, 32);
  std::memcpy(salt.data() + 32, recipient, 32);
  hkdf_sha256_into(shared, salt, label, scratch.prk(), scratch.wrap_key());
  if (!open_file_key_into(scratch.wrap_key(), std::span<const std::uint8_t, 32>(s.body.data(), 32),
                          scratch.file_key()))
    return std::nullopt;
  return SecretBytes(scratch.file_key());
}

// The SSH tweak: HKDF(ikm = "", salt = SSH public key blob, info = label), used as an X25519 scalar.
SecretBytes ssh_tweak(const std::vector<std::uint8_t>& blob) {
  return hkdf_sha256({}, blob, kSshEd25519Label);
}

std::string ssh_tag(const std::vector<std::uint8_t>& blob) {
  std::array<std::uint8_t, 32> h{};
  crypto_hash_sha256(h.data(), blob.data(), blob.size());
  return encode_base64_raw(std::span<const std::uint8_t>(h.data(), 4));
}

// --- unwrapping
// ---------------------------------------------------------------------------------------------

Unwrapped unwrap_x25519(const Stanza& s, const Identity& id) {
  if (s.args[0] != "X25519" || id.kind != Identity::Kind::x25519) return std::nullopt;
  if (s.args.size() != 2) bad_stanza("X25519", "it must have exactly one argument after its type");
  const auto share = decode_arg(s, 1, 32, "the ephemeral share");
  check_body(s);
  UnwrapScratch scratch;
  if (!agree_into(id.secret.data(), share.data(), scratch.shared()))
    bad_stanza("X25519", "the shared secret is all zero (a low-order share)");
  return open_wrapped(scratch, scratch.shared(), share.data(), id.public_key.data(), kX25519Label, s);
}

Unwrapped unwrap_ssh_ed25519(const Stanza& s, const Identity& id) {
  if (s.args[0] != "ssh-ed25519" || id.kind != Identity::Kind::ssh_ed25519) return std::nullopt;
  if (s.args.size() != 3) bad_stanza("ssh-ed25519", "it must have exactly two arguments after its type");
  const auto share = decode_arg(s, 2, 32, "the ephemeral share");
  if (s.args[1] != ssh_tag(id.blob)) return std::nullopt;  // addressed to another key
  check_body(s);
  // A passphrase-protected key is unlocked here, once a stanza is addressed to it, and not before.
  const Identity& key = id.unlock ? id.unlock() : id;
  UnwrapScratch scratch;
  if (!agree_into(key.secret.data(), share.data(), scratch.shared()))
    bad_stanza("ssh-ed25519", "the shared secret is all zero (a low-order share)");
  hkdf_sha256_into({}, id.blob, kSshEd25519Label, scratch.prk(), scratch.tweak());
  if (!agree_into(scratch.tweak().data(), scratch.shared().data(), scratch.tweaked()))
    bad_stanza("ssh-ed25519", "the shared secret is all zero (a low-order share)");
  return open_wrapped(scratch, scratch.tweaked(), share.data(), id.public_key.data(), kSshEd25519Label, s);
}

// ssh-rsa TAG, body = RSA-OAEP-SHA-256(file key, label "age-encryption.org/v1/ssh-rsa"), one modulus long.
Unwrapped unwrap_ssh_rsa(const Stanza& s, const Identity& id) {
  if (s.args[0] != "ssh-rsa" || id.kind != Identity::Kind::ssh_rsa) return std::nullopt;
  if (s.args.size() != 2) bad_stanza("ssh-rsa", "it must have exactly one argument after its type");
  decode_arg(s, 1, 4, "the tag");
  if (s.args[1] != ssh_tag(id.blob)) return std::nullopt;  // addressed to another key
  const Identity& key = id.unlock ? id.unlock() : id;
  if (!key.rsa) return std::nullopt;
  if (s.body.size() != key.rsa->modulus_bytes())
    bad_stanza("ssh-rsa", "the wrapped file key is " + std::to_string(s.body.size()) + " bytes, not " +
                              std::to_string(key.rsa->modulus_bytes()) + " (the key's modulus)");
  std::optional<SecretBytes> file_key = key.rsa->oaep_decrypt(s.body, kSshRsaLabel);
  // A tag is 4 bytes: another key may share it, so a body that does not open is not this key's.
  if (!file_key || file_key->size() != kFileKeyBytes) return std::nullopt;
  return file_key;
}

// HPKE OpenBase with the identity's MLKEM768-X25519 key. A low-order X25519 half of enc (all-zero shared
// secret) is a malformed stanza, as for X25519 stanzas; a body that does not authenticate is another
// recipient's stanza (ML-KEM's implicit rejection lands here too), so the next stanza is tried.
Unwrapped unwrap_mlkem768x25519(const Stanza& s, const Identity& id) {
  if (s.args[0] != kPostQuantumType || id.kind != Identity::Kind::mlkem768_x25519 || !id.hybrid)
    return std::nullopt;
  if (s.args.size() != 2) bad_stanza(s.args[0], "it must have exactly one argument after its type");
  const auto enc = decode_arg(s, 1, pq::xwing::ciphertext_size, "the encapsulated key");
  check_body(s);  // before any decryption (age: mitigates partitioning oracles)
  pq::hpke::OpenFailure why{};
  auto file_key = pq::hpke::open_base(
      *id.hybrid, std::span<const std::uint8_t, pq::xwing::ciphertext_size>(enc.data(), enc.size()),
      std::span(reinterpret_cast<const std::uint8_t*>(kPostQuantumInfo.data()), kPostQuantumInfo.size()), {},
      s.body, &why);
  if (!file_key && why == pq::hpke::OpenFailure::kem_refused)
    bad_stanza(s.args[0], "the X25519 share in the encapsulated key is a low-order point (all-zero secret)");
  return file_key;
}

// "^[1-9][0-9]*$", at most kMaxScryptLog2.
std::optional<unsigned> parse_log2(const std::string& text) {
  if (text.empty() || text.size() > 2 || text[0] < '1' || text[0] > '9') return std::nullopt;
  unsigned v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  return v;
}

Unwrapped unwrap_scrypt(const Stanza& s, const SecretBytes& passphrase, unsigned max_log2) {
  if (s.args[0] != "scrypt") return std::nullopt;
  if (s.args.size() != 3) bad_stanza("scrypt", "it must have exactly two arguments after its type");
  const auto salt = decode_arg(s, 1, 16, "the salt");
  const auto log2 = parse_log2(s.args[2]);
  if (!log2) bad_stanza("scrypt", "the work factor '" + s.args[2] + "' is not a decimal number from 1 to 99");
  check_body(s);
  if (*log2 > max_log2)
    throw Error(
        PCRYPT_E_EXCESSIVE_SCRYPT_WORK,
        "the passphrase's scrypt work factor 2^" + std::to_string(*log2) + " exceeds the limit 2^" +
            std::to_string(max_log2),
        "if you trust this file, raise the scrypt work-factor limit (log2 N) to " + std::to_string(*log2),
        ErrorFields()
            .set(PCRYPT_FIELD_SCRYPT_LOG2_ASKED, *log2)
            .set(PCRYPT_FIELD_SCRYPT_LOG2_ALLOWED, max_log2));
  return open_body(scrypt(passphrase.span(), labelled_scrypt_salt(salt), *log2), s);
}

std::string_view text_of(const SecretBytes& secret) {
  return {reinterpret_cast<const char*>(secret.data()), secret.size()};
}

// One stanza given alone to a plugin identity's plugin (rekey's questions about single stanzas; decryption
// gives a plugin every stanza at once, in unwrap_file_key).
Unwrapped unwrap_plugin(const Stanza& s, const Identity& id) {
  std::vector<std::string> failures;
  return unwrap_with_plugin(id.plugin, {text_of(id.secret)}, {s}, failures);
}

// The header's stanza types, each once, in order: the field of the errors that say none opened.
std::vector<std::string> stanza_types(const Header& header) {
  std::vector<std::string> types;
  for (const Stanza& s : header.stanzas)
    if (!s.args.empty() && std::find(types.begin(), types.end(), s.args[0]) == types.end())
      types.push_back(s.args[0]);
  return types;
}

// Whether `c` is of a kind that can open a stanza of `type` at all (a plugin identity: whatever its plugin
// says, so any type).
bool handles(const Credential& c, std::string_view type) {
  if (c.kind == Credential::Kind::passphrase) return type == "scrypt";
  if (c.kind != Credential::Kind::identity || !c.identity) return false;
  switch (c.identity->kind) {
    case Identity::Kind::x25519:
      return type == "X25519";
    case Identity::Kind::ssh_ed25519:
      return type == "ssh-ed25519";
    case Identity::Kind::ssh_rsa:
      return type == "ssh-rsa";
    case Identity::Kind::mlkem768_x25519:
      return type == kPostQuantumType;
    case Identity::Kind::plugin:
      return true;
  }
  return false;
}

Unwrapped try_stanza(const Stanza& s, const Credential& c, unsigned max_log2) {
  if (c.kind == Credential::Kind::passphrase) return unwrap_scrypt(s, c.secret, max_log2);
  if (c.kind != Credential::Kind::identity || !c.identity) return std::nullopt;
  if (c.identity->kind == Identity::Kind::plugin) return unwrap_plugin(s, *c.identity);
  if (auto k = unwrap_x25519(s, *c.identity)) return k;
  if (auto k = unwrap_ssh_rsa(s, *c.identity)) return k;
  if (auto k = unwrap_mlkem768x25519(s, *c.identity)) return k;
  return unwrap_ssh_ed25519(s, *c.identity);
}

// --- wrapping
// -----------------------------------------------------------------------------------------------

Stanza wrap_x25519_like(const SecretBytes& file_key, const PublicKey32& recipient,
                        const std::vector<std::uint8_t>* ssh_blob) {
  SecretBytes ephemeral(32);
  randombytes_buf(ephemeral.data(), ephemeral.size());
  std::array<std::uint8_t, 32> share{};
  crypto_scalarmult_base(share.data(), ephemeral.data());
  auto shared = agree(ephemeral.data(), recipient.data());
  if (shared && ssh_blob != nullptr) shared = agree(ssh_tweak(*ssh_blob).data(), shared->data());
  if (!shared)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, "recipient public key is a low-order point (no shared secret)",
                "the recipient is damaged or malicious; ask its owner for the public key again");
  if (ssh_blob != nullptr)
    return seal_body({"ssh-ed25519", ssh_tag(*ssh_blob), encode_base64_raw(share)},
                     wrap_key(*shared, share.data(), recipient.data(), kSshEd25519Label), file_key);
  return seal_body({"X25519", encode_base64_raw(share)},
                   wrap_key(*shared, share.data(), recipient.data(), kX25519Label), file_key);
}

Stanza wrap_ssh_rsa(const SecretBytes& file_key, const ssh_rsa::PublicKey& key) {
  return Stanza{{"ssh-rsa", ssh_tag(key.blob)}, ssh_rsa::oaep_encrypt(key, file_key.span(), kSshRsaLabel)};
}

// HPKE SealBase(pkR = recipient, info = "age-encryption.org/mlkem768x25519", aad = "", pt = file key):
// "-> mlkem768x25519 base64(enc)" and the 32-byte sealed file key as body.
Stanza wrap_mlkem768x25519(const SecretBytes& file_key, const HybridRecipient& recipient) {
  const auto sealed = pq::hpke::seal_base(
      recipient.public_key,
      std::span(reinterpret_cast<const std::uint8_t*>(kPostQuantumInfo.data()), kPostQuantumInfo.size()), {},
      file_key.span());
  if (!sealed)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, "post-quantum recipient key is not a valid ML-KEM-768 + X25519 key",
                "the recipient is damaged or malicious; ask its owner for the age1pq1... key again");
  return Stanza{{std::string(kPostQuantumType), encode_base64_raw(sealed->enc)}, sealed->ciphertext};
}

std::span<const std::uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// tag = HKDF-Extract-SHA-256(ikm = enc || SHA-256(key_bytes)[:4], salt = label)[:4]. HKDF-Extract is
// HMAC-SHA-256 keyed with the salt.
std::array<std::uint8_t, 4> recipient_tag(std::span<const std::uint8_t> enc,
                                          std::span<const std::uint8_t> key_bytes, std::string_view label) {
  std::array<std::uint8_t, crypto_hash_sha256_BYTES> key_hash{};
  crypto_hash_sha256(key_hash.data(), key_bytes.data(), key_bytes.size());
  std::array<std::uint8_t, 32> prk{};
  core::hmac_sha256(bytes_of(label), {enc, std::span(key_hash).first<4>()}, prk);
  std::array<std::uint8_t, 4> tag{};
  std::copy(prk.begin(), prk.begin() + 4, tag.begin());
  return tag;
}

// p256tag: HPKE SealBase with DHKEM(P-256, HKDF-SHA256), pkR = the uncompressed recipient, info =
// "age-encryption.org/p256tag", aad empty. "-> p256tag base64(tag) base64(enc)", body = the sealed file key.
// The tag hashes the recipient as encoded (compressed), for age-plugin-yubikey's identities.
Stanza wrap_p256tag(const SecretBytes& file_key, const TagRecipient& recipient) {
  std::array<std::uint8_t, pq::p256::uncompressed_size> enc{};
  pq::WipedBytes<32> shared;
  pq::hpke::dhkem_p256_encap(recipient.point, enc, shared.span());
  const auto body = pq::hpke::seal_with_shared_secret(pq::hpke::kem_dhkem_p256, std::as_const(shared).span(),
                                                      bytes_of(kP256TagLabel), {}, file_key.span());
  return Stanza{
      {std::string(kP256TagType), encode_base64_raw(recipient_tag(enc, recipient.compressed, kP256TagLabel)),
       encode_base64_raw(enc)},
      body};
}

// mlkem768p256tag: HPKE SealBase with MLKEM768-P256, pkR = the recipient, info =
// "age-encryption.org/mlkem768p256tag", aad empty; the tag hashes only the P-256 half (recipient[1184:]).
Stanza wrap_mlkem768p256tag(const SecretBytes& file_key, const HybridTagRecipient& recipient) {
  std::array<std::uint8_t, pq::mlkem768p256::ciphertext_size> enc{};
  pq::WipedBytes<32> shared;
  if (!pq::mlkem768p256::encapsulate(recipient.public_key, enc, shared.span()))
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, "hybrid tag recipient key is not a valid ML-KEM-768 + P-256 key",
                "the recipient is damaged or malicious; ask its owner for the age1tagpq1... key again");
  const auto body =
      pq::hpke::seal_with_shared_secret(pq::hpke::kem_mlkem768_p256, std::as_const(shared).span(),
                                        bytes_of(kHybridTagLabel), {}, file_key.span());
  const auto p256_half = std::span(recipient.public_key).subspan(pq::mlkem768p256::pq_key_size);
  return Stanza{{std::string(kHybridTagType),
                 encode_base64_raw(recipient_tag(enc, p256_half, kHybridTagLabel)), encode_base64_raw(enc)},
                body};
}

Stanza wrap_scrypt(const SecretBytes& file_key, const SecretBytes& passphrase, unsigned log2) {
  std::array<std::uint8_t, 16> salt{};
  randombytes_buf(salt.data(), salt.size());
  return seal_body({"scrypt", encode_base64_raw(salt), std::to_string(log2)},
                   scrypt(passphrase.span(), labelled_scrypt_salt(salt), log2), file_key);
}

}  // namespace

namespace {

// A set of labels as a message shows it: ["postquantum"], [] for none.
std::string label_list(const std::vector<std::string>& labels) {
  std::string out = "[";
  for (const std::string& l : labels) out += (out.size() > 1 ? ", \"" : "\"") + l + "\"";
  return out + "]";
}

}  // namespace

SecretBytes new_file_key() {
  SecretBytes k(kFileKeyBytes);
  randombytes_buf(k.data(), k.size());
  return k;
}

void check_no_quantum_mix(const std::vector<Credential>& credentials) {
  // Plugins' recipients are left to their labels, known once they have wrapped (wrap_file_key).
  std::size_t hybrid = 0, classical = 0;
  for (const Credential& c : credentials)
    if (c.kind == Credential::Kind::recipient && c.recipient &&
        !std::holds_alternative<PluginRecipient>(*c.recipient))
      ++(is_post_quantum(*c.recipient) ? hybrid : classical);
  check_no_quantum_mix(hybrid, classical);
}

void check_no_quantum_mix(std::size_t post_quantum, std::size_t classical) {
  if (post_quantum > 0 && classical > 0)
    throw Error(
        PCRYPT_E_INCOMPATIBLE_RECIPIENTS,
        "refusing to mix post-quantum (age1pq1..., age1tagpq1...) and X25519/SSH/age1tag1... recipients in "
        "one age file: a future quantum computer could open it through the classical recipient",
        "encrypt to post-quantum recipients only, or make separate files");
}

void check_credential_mix(std::size_t key_files, std::size_t recipients, bool passphrase) {
  if (key_files > 0)
    throw Error(PCRYPT_E_CREDENTIAL_MIX,
                "age files have no key-file recipients: key files cannot be used in the age format",
                "encrypt to a recipient (age1..., an identity's recipient) or with a passphrase",
                ErrorFields().taken_as(PCRYPT_FILE_KEY_FILE));
  if (passphrase && recipients > 0)
    throw Error(
        PCRYPT_E_CREDENTIAL_MIX,
        "an age file encrypted with a passphrase can have no other recipient (age: \"an scrypt stanza "
        "must be the only stanza in the header\")",
        "use a passphrase alone, or recipients alone, in the age format",
        ErrorFields().found_to_be(PCRYPT_FILE_AGE_ENCRYPTED));
  if (!passphrase && recipients == 0) throw Error(PCRYPT_E_NO_CREDENTIAL, "no recipient or passphrase given");
}

std::vector<Stanza> wrap_file_key(const SecretBytes& file_key, const std::vector<Credential>& credentials,
                                  unsigned scrypt_log2) {
  const auto count = [&](Credential::Kind kind) {
    return static_cast<std::size_t>(std::count_if(credentials.begin(), credentials.end(),
                                                  [kind](const Credential& c) { return c.kind == kind; }));
  };
  const std::size_t passphrases = count(Credential::Kind::passphrase);
  if (passphrases > 1)
    throw Error(PCRYPT_E_CREDENTIAL_MIX, "an age file can have only one passphrase", {},
                ErrorFields().found_to_be(PCRYPT_FILE_AGE_ENCRYPTED));
  check_credential_mix(count(Credential::Kind::key_file),
                       credentials.size() - passphrases - count(Credential::Kind::key_file),
                       passphrases == 1);
  check_no_quantum_mix(credentials);
  if (scrypt_log2 < 1 || scrypt_log2 > kMaxScryptLog2)
    throw Error(PCRYPT_E_BAD_ARGUMENT,
                "scrypt work factor must be from 2^1 to 2^" + std::to_string(kMaxScryptLog2));
  std::vector<Stanza> stanzas;
  std::set<std::string> plugins_run;
  // age 1.3's rule for every recipient of a file: the same set of labels (FORMAT.md §11.6). Native ones
  // carry "postquantum" or nothing; a plugin's are what it answered.
  std::optional<std::pair<std::vector<std::string>, std::string>> first_labels;
  const auto same_labels = [&first_labels](std::vector<std::string> labels, const std::string& whose) {
    if (!first_labels) {
      first_labels.emplace(std::move(labels), whose);
      return;
    }
    if (labels == first_labels->first) return;
    const auto pq = [](const std::vector<std::string>& l) {
      return std::find(l.begin(), l.end(), "postquantum") != l.end();
    };
    if (pq(labels) != pq(first_labels->first)) check_no_quantum_mix(1, 1);
    throw Error(PCRYPT_E_INCOMPATIBLE_RECIPIENTS,
                "refusing to mix recipients that cannot share an age file: " + first_labels->second +
                    " is labelled " + label_list(first_labels->first) + ", " + whose + " " +
                    label_list(labels),
                "a passphrase (or a plugin that stands for one) must be a file's only recipient; make "
                "separate files");
  };
  for (const Credential& c : credentials) {
    if (c.kind == Credential::Kind::recipient && c.recipient &&
        !std::holds_alternative<PluginRecipient>(*c.recipient))
      same_labels(is_post_quantum(*c.recipient) ? std::vector<std::string>{"postquantum"}
                                                : std::vector<std::string>{},
                  "recipient " + std::to_string(&c - credentials.data() + 1));
    switch (c.kind) {
      case Credential::Kind::passphrase:
        if (c.secret.size() == 0) throw Error(PCRYPT_E_EMPTY_PASSPHRASE, "empty passphrase");
        stanzas.push_back(wrap_scrypt(file_key, c.secret, scrypt_log2));
        break;
      case Credential::Kind::recipient:
        if (const auto* x = std::get_if<X25519Recipient>(&*c.recipient))
          stanzas.push_back(wrap_x25519_like(file_key, x->public_key, nullptr));
        else if (const auto* ssh = std::get_if<SshEd25519Recipient>(&*c.recipient))
          stanzas.push_back(wrap_x25519_like(file_key, ssh->public_key, &ssh->blob));
        else if (const auto* pq = std::get_if<HybridRecipient>(&*c.recipient))
          stanzas.push_back(wrap_mlkem768x25519(file_key, *pq));
        else if (const auto* tag = std::get_if<TagRecipient>(&*c.recipient))
          stanzas.push_back(wrap_p256tag(file_key, *tag));
        else if (const auto* pq_tag = std::get_if<HybridTagRecipient>(&*c.recipient))
          stanzas.push_back(wrap_mlkem768p256tag(file_key, *pq_tag));
        else if (const auto* plugin = std::get_if<PluginRecipient>(&*c.recipient)) {
          // One run of the plugin for all of its recipients, at the place of the first.
          if (!plugins_run.insert(plugin->plugin).second) break;
          std::vector<std::string> encodings;
          for (const Credential& other : credentials)
            if (const auto* p = other.recipient ? std::get_if<PluginRecipient>(&*other.recipient) : nullptr;
                p != nullptr && p->plugin == plugin->plugin)
              encodings.push_back(p->encoding);
          PluginWrap wrapped = wrap_with_plugin(plugin->plugin, encodings, file_key);
          same_labels(std::move(wrapped.labels), "age-plugin-" + plugin->plugin + "'s recipient");
          for (Stanza& s : wrapped.stanzas) stanzas.push_back(std::move(s));
        } else
          stanzas.push_back(wrap_ssh_rsa(file_key, std::get<SshRsaRecipient>(*c.recipient).key));
        break;
      case Credential::Kind::key_file:  // refused by check_credential_mix
      case Credential::Kind::identity:
        throw Error(PCRYPT_E_NOT_A_RECIPIENT, "an identity cannot encrypt; give its recipient instead");
      case Credential::Kind::raw_key:
        throw Error(PCRYPT_E_CREDENTIAL_MIX,
                    "a raw key is for C2SP chunked encryption (cobblestone), not age");
    }
  }
  return stanzas;
}

SecretBytes unwrap_file_key(const Header& header, std::span<const Credential> credentials,
                            unsigned max_scrypt_log2) {
  const std::size_t scrypt_stanzas = count_stanzas(header, "scrypt");
  if (scrypt_stanzas > 0 && header.stanzas.size() > 1)
    throw Error(
        PCRYPT_E_MALFORMED_HEADER,
        "malformed age header: an scrypt stanza must be the only stanza in the header (this one has " +
            describe_stanzas(header) + ")");
  std::set<std::string> plugins_run;
  std::vector<std::string> plugin_failures;
  // A plugin that failed (exited, closed its output, was killed, reported an error) was passed over for the
  // identities after it (FORMAT.md §11.6); once one of them opens the file, each failure is a warning.
  const auto opened = [&](SecretBytes key) {
    const std::shared_ptr<PluginUi> ui = plugin_host().ui;
    for (const std::string& failure : plugin_failures) ui->warning("plugin identity passed over: " + failure);
    return key;
  };
  for (const Credential& c : credentials) {
    if (c.identity && c.identity->kind == Identity::Kind::plugin) {
      // A plugin gets all of its identities and every stanza in one run (identity-v1), at the place of
      // the first of its identities.
      const std::string& plugin = c.identity->plugin;
      if (!plugins_run.insert(plugin).second) continue;
      std::vector<std::string_view> identities;
      for (const Credential& other : credentials)
        if (other.identity && other.identity->kind == Identity::Kind::plugin &&
            other.identity->plugin == plugin)
          identities.push_back(text_of(other.identity->secret));
      if (auto key = unwrap_with_plugin(plugin, identities, header.stanzas, plugin_failures))
        return opened(std::move(*key));
      continue;
    }
    for (const Stanza& s : header.stanzas)
      if (auto key = try_stanza(s, c, max_scrypt_log2)) return opened(std::move(*key));
  }
  const bool passphrase = std::any_of(credentials.begin(), credentials.end(), [](const Credential& c) {
    return c.kind == Credential::Kind::passphrase;
  });
  if (passphrase && scrypt_stanzas > 0)
    throw Error(PCRYPT_E_WRONG_PASSPHRASE, "wrong passphrase (no age stanza opens with it)", {},
                ErrorFields().types(stanza_types(header)));
  const bool post_quantum = std::any_of(credentials.begin(), credentials.end(), [](const Credential& c) {
    return c.identity && c.identity->kind == Identity::Kind::mlkem768_x25519;
  });
  if (!plugin_failures.empty())
    throw Error(PCRYPT_E_PLUGIN_UNWRAP_FAILED,
                "no identity given opens this age file (it has " + describe_stanzas(header) +
                    "): " + plugin_failures.front() +
                    (plugin_failures.size() > 1
                         ? " (and " + std::to_string(plugin_failures.size() - 1) + " more plugin errors)"
                         : ""),
                "the plugin's own messages, if any, are above", ErrorFields().types(stanza_types(header)));
  std::vector<std::string> types = stanza_types(header);
  const bool any_handled = std::any_of(types.begin(), types.end(), [&](const std::string& type) {
    return std::any_of(credentials.begin(), credentials.end(),
                       [&](const Credential& c) { return handles(c, type); });
  });
  throw Error(any_handled ? PCRYPT_E_NO_IDENTITY_MATCHED : PCRYPT_E_UNHANDLED_STANZA,
              "no identity given opens this age file (it has " + describe_stanzas(header) + ")",
              count_stanzas(header, kPostQuantumType) > 0 && !post_quantum
                  ? "its mlkem768x25519 stanzas are for post-quantum recipients: give the matching "
                    "AGE-SECRET-KEY-PQ-1... identity"
                  : "check the identity files, or give a passphrase for a passphrase-encrypted file",
              ErrorFields().types(std::move(types)).found_to_be(PCRYPT_FILE_AGE_ENCRYPTED));
}

std::optional<SecretBytes> unwrap_stanza(const Stanza& stanza, const Credential& credential,
                                         unsigned max_scrypt_log2) {
  return try_stanza(stanza, credential, max_scrypt_log2);
}

bool opens(const Stanza& stanza, const Credential& credential, const SecretBytes& file_key,
           unsigned max_scrypt_log2) {
  const Unwrapped key = try_stanza(stanza, credential, max_scrypt_log2);
  return key && key->size() == file_key.size() &&
         sodium_memcmp(key->data(), file_key.data(), file_key.size()) == 0;
}

bool carries_tag_of(const Stanza& stanza, const Recipient& recipient) {
  if (stanza.args.size() < 2) return false;
  if (const auto* ed = std::get_if<SshEd25519Recipient>(&recipient))
    return stanza.args[0] == "ssh-ed25519" && stanza.args[1] == ssh_tag(ed->blob);
  if (const auto* rsa = std::get_if<SshRsaRecipient>(&recipient))
    return stanza.args[0] == "ssh-rsa" && stanza.args[1] == ssh_tag(rsa->key.blob);
  // Tag stanzas: the tag mixes in the stanza's enc, so it is recomputed for each stanza.
  const auto tag_matches = [&stanza](std::string_view type, std::size_t enc_size,
                                     std::span<const std::uint8_t> key, std::string_view label) {
    if (stanza.args[0] != type || stanza.args.size() != 3) return false;
    const auto enc = decode_base64_raw(stanza.args[2]);
    return enc && enc->size() == enc_size &&
           stanza.args[1] == encode_base64_raw(recipient_tag(*enc, key, label));
  };
  if (const auto* t = std::get_if<TagRecipient>(&recipient))
    return tag_matches(kP256TagType, pq::p256::uncompressed_size, t->compressed, kP256TagLabel);
  if (const auto* t = std::get_if<HybridTagRecipient>(&recipient))
    return tag_matches(kHybridTagType, pq::mlkem768p256::ciphertext_size,
                       std::span(t->public_key).subspan(pq::mlkem768p256::pq_key_size), kHybridTagLabel);
  return false;
}

std::size_t count_stanzas(const Header& header, std::string_view type) {
  return static_cast<std::size_t>(std::count_if(header.stanzas.begin(), header.stanzas.end(),
                                                [type](const Stanza& s) { return s.args[0] == type; }));
}

std::string describe_stanzas(const Header& header) {
  std::map<std::string, std::size_t> counts;
  // Types come from the file: a hostile one could be long, so messages show at most 32 characters of each.
  for (const Stanza& s : header.stanzas)
    ++counts[s.args[0].size() > 32 ? s.args[0].substr(0, 32) + "..." : s.args[0]];
  std::string out;
  std::size_t i = 0;
  for (const auto& [type, n] : counts) {
    if (i > 0) out += i + 1 == counts.size() ? " and " : ", ";
    out += std::to_string(n) + " " + type + (n == 1 ? " stanza" : " stanzas");
    ++i;
  }
  return out;
}

}  // namespace pcrypt::core::age
