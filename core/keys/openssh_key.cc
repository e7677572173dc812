// OpenSSH private keys: armour, base64, the openssh-key-v1 wire structure, and for protected keys
// bcrypt_pbkdf + AES (OpenSSL EVP) over the private section.
#include "core/keys/openssh_key.h"

#include <openssl/evp.h>
#include <sodium.h>

#include <cstring>

#include "core/error.h"
#include "core/keys/bcrypt_pbkdf.h"
#include "core/keys/ssh_wire.h"

namespace pcrypt::core {
namespace {

constexpr std::string_view begin_line = "-----BEGIN OPENSSH PRIVATE KEY-----";
constexpr std::string_view end_line = "-----END OPENSSH PRIVATE KEY-----";
constexpr std::string_view magic{"openssh-key-v1\0", 15};

// The ciphers ssh-keygen can protect a key with that pcrypt reads (`ssh -Q cipher`, AES only).
struct Cipher {
  std::string_view name;
  std::size_t key_len, iv_len, block, tag_len;
  const EVP_CIPHER* (*evp)();
};
constexpr Cipher kCiphers[] = {
    {"none", 0, 0, 8, 0, nullptr},
    {"aes256-ctr", 32, 16, 16, 0, EVP_aes_256_ctr},
    {"aes192-ctr", 24, 16, 16, 0, EVP_aes_192_ctr},
    {"aes128-ctr", 16, 16, 16, 0, EVP_aes_128_ctr},
    {"aes256-gcm@openssh.com", 32, 12, 16, 16, EVP_aes_256_gcm},
    {"aes128-gcm@openssh.com", 16, 12, 16, 16, EVP_aes_128_gcm},
};

const Cipher* find_cipher(std::string_view name) {
  for (const Cipher& c : kCiphers)
    if (c.name == name) return &c;
  return nullptr;
}

class Failer {
 public:
  explicit Failer(std::string_view name) : who_("OpenSSH private key '" + std::string(name) + "': ") {}
  [[noreturn]] void operator()(const std::string& what, const std::string& hint = {}) const {
    throw Error(PCRYPT_E_NOT_AN_IDENTITY, who_ + what, hint);
  }
  const std::string& who() const { return who_; }

 private:
  std::string who_;
};

// The decoded outer structure; views point into `raw`.
struct Outer {
  SecretBytes raw;
  std::string cipher, kdf;
  std::span<const std::uint8_t> kdf_options, public_blob, private_section, tag;
  // bcrypt only: its options, checked with the rest of the outer structure.
  std::span<const std::uint8_t> bcrypt_salt;
  std::uint32_t bcrypt_rounds = 0;
};

Outer read_outer(std::string_view content, const Failer& fail) {
  // Text before BEGIN and after END is ignored (RFC 7468 §2); between them only base64 and white space.
  const std::size_t b = content.find(begin_line);
  const std::size_t e = content.find(end_line, b == std::string_view::npos ? 0 : b);
  if (b == std::string_view::npos || e == std::string_view::npos)
    fail("missing BEGIN/END OPENSSH PRIVATE KEY lines");
  const std::string_view body = content.substr(b + begin_line.size(), e - b - begin_line.size());
  Outer o;
  o.raw = SecretBytes(body.size());
  std::size_t len = 0;
  if (sodium_base642bin(o.raw.data(), o.raw.size(), body.data(), body.size(), " \t\r\n", &len, nullptr,
                        sodium_base64_VARIANT_ORIGINAL) != 0)
    fail("the base64 body does not decode");
  const std::span<const std::uint8_t> all(o.raw.data(), len);
  if (len < magic.size() || ssh_wire::as_text(all.first(magic.size())) != magic)
    fail("not an openssh-key-v1 key");
  ssh_wire::Reader r(all.subspan(magic.size()));
  const auto cipher = r.string();
  const auto kdf = r.string();
  const auto kdf_options = r.string();
  const auto count = r.u32();
  if (!cipher || !kdf || !kdf_options || !count) fail("truncated key data");
  o.cipher = std::string(ssh_wire::as_text(*cipher));
  o.kdf = std::string(ssh_wire::as_text(*kdf));
  o.kdf_options = *kdf_options;
  if (*count != 1) fail("holds " + std::to_string(*count) + " keys (pcrypt reads exactly one)");
  const auto pub = r.string();
  const auto priv = r.string();
  if (!pub || !priv) fail("truncated key data");
  o.public_blob = *pub;
  o.private_section = *priv;
  const Cipher* c = find_cipher(o.cipher);
  if (c == nullptr)
    fail("the key is protected with cipher " + o.cipher + ", which pcrypt does not read",
         "re-protect it with ssh-keygen's default: ssh-keygen -p -Z aes256-ctr -f KEY");
  if (r.left() != c->tag_len) fail("trailing data after the private section");
  o.tag = r.rest();
  if ((c->name == "none") != (o.kdf == "none") || (o.kdf != "none" && o.kdf != "bcrypt"))
    fail("unsupported key derivation '" + o.kdf + "' for cipher " + o.cipher);
  // Checked here, with the cipher, so a key pcrypt cannot open is refused when it is read, before anyone is
  // asked for its passphrase (FORMAT.md §10.8).
  if (o.kdf == "bcrypt") {
    ssh_wire::Reader opts(o.kdf_options);
    const auto salt = opts.string();
    const auto rounds = opts.u32();
    if (!salt || !rounds || opts.left() != 0 || salt->empty()) fail("malformed bcrypt options");
    if (*rounds < 1 || *rounds > kMaxBcryptPbkdfRounds)
      fail("asks for " + std::to_string(*rounds) + " bcrypt rounds (pcrypt accepts 1 to " +
           std::to_string(kMaxBcryptPbkdfRounds) + ")");
    o.bcrypt_salt = *salt;
    o.bcrypt_rounds = *rounds;
  }
  if (o.private_section.size() % c->block != 0)
    fail("the private section is not a whole number of cipher blocks");
  return o;
}

// Decrypts the private section of a protected key into `out` (same length).
void decrypt_private(const Outer& o, const Cipher& c, std::span<const std::uint8_t> passphrase,
                     SecretBytes& out, const Failer& fail) {
  if (passphrase.empty())
    throw Error(PCRYPT_E_PASSPHRASE_REQUIRED,
                fail.who() + "the key is protected by a passphrase and none was given");
  SecretBytes key_iv(c.key_len + c.iv_len);
  bcrypt_pbkdf(passphrase, o.bcrypt_salt, o.bcrypt_rounds, key_iv.span());
  std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(),
                                                                      EVP_CIPHER_CTX_free);
  int n = 0, fin = 0;
  const int in_len = static_cast<int>(o.private_section.size());
  bool ok = ctx && EVP_DecryptInit_ex(ctx.get(), c.evp(), nullptr, nullptr, nullptr) == 1;
  if (ok && c.tag_len != 0)
    ok = EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(c.iv_len), nullptr) == 1;
  ok = ok && EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, key_iv.data(), key_iv.data() + c.key_len) == 1 &&
       EVP_DecryptUpdate(ctx.get(), out.data(), &n, o.private_section.data(), in_len) == 1;
  if (!ok) throw Error(PCRYPT_E_CRYPTO_BACKEND, "OpenSSL AES failed while decrypting an OpenSSH key");
  if (c.tag_len != 0) {
    std::array<std::uint8_t, 16> tag{};
    std::memcpy(tag.data(), o.tag.data(), c.tag_len);
    if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(c.tag_len), tag.data()) != 1 ||
        EVP_DecryptFinal_ex(ctx.get(), out.data() + n, &fin) != 1)
      throw Error(PCRYPT_E_WRONG_KEY_PASSPHRASE,
                  fail.who() + "wrong passphrase (the key's authentication tag does not match)",
                  "type the passphrase of this SSH key (the one ssh asks for)");
  }
}

OpenSshPrivateKey read_private(std::span<const std::uint8_t> section, const Outer& o, const Cipher& c,
                               const Failer& fail) {
  ssh_wire::Reader s(section);
  const auto check1 = s.u32();
  const auto check2 = s.u32();
  if (!check1 || !check2) fail("truncated key data");
  if (*check1 != *check2) {
    if (o.cipher != "none")
      throw Error(PCRYPT_E_WRONG_KEY_PASSPHRASE,
                  fail.who() + "wrong passphrase (the decrypted check values differ)",
                  "type the passphrase of this SSH key (the one ssh asks for)");
    fail("check values differ (damaged key)");
  }
  const auto type = s.string();
  if (!type) fail("truncated key data");
  ssh_wire::Reader pub(o.public_blob);
  const auto pub_type = pub.string();
  if (!pub_type || ssh_wire::as_text(*type) != ssh_wire::as_text(*pub_type))
    fail("private key type differs from the public key type");
  OpenSshPrivateKey out;
  out.blob.assign(o.public_blob.begin(), o.public_blob.end());
  if (ssh_wire::as_text(*type) == "ssh-ed25519") {
    const auto pub_key = pub.string();
    const auto pk = s.string();
    const auto sk = s.string();
    if (!pub_key || pub_key->size() != 32 || pub.left() != 0) fail("malformed ssh-ed25519 public key");
    if (!pk || !sk) fail("truncated key data");
    if (pk->size() != 32 || sk->size() != 64 || std::memcmp(pk->data(), pub_key->data(), 32) != 0 ||
        std::memcmp(sk->data() + 32, pub_key->data(), 32) != 0)
      fail("public and private halves do not match");
    out.type = OpenSshPrivateKey::Type::ed25519;
    out.secret = SecretBytes(*sk);
    std::array<std::uint8_t, 32> derived{};
    SecretBytes scratch(64);
    crypto_sign_seed_keypair(derived.data(), scratch.data(), out.secret.data());
    if (sodium_memcmp(derived.data(), pub_key->data(), 32) != 0)
      fail("the public key is not the one of the secret seed");
    std::memcpy(out.public_key.data(), pub_key->data(), 32);
  } else if (ssh_wire::as_text(*type) == "ssh-rsa") {
    const auto n = s.positive_mpint(), e = s.positive_mpint(), d = s.positive_mpint(),
               iqmp = s.positive_mpint(), p = s.positive_mpint(), q = s.positive_mpint();
    if (!n || !e || !d || !iqmp || !p || !q) fail("malformed ssh-rsa private key");
    const std::string what = fail.who().substr(0, fail.who().size() - 2);
    const ssh_rsa::PublicKey public_key = ssh_rsa::parse_public_blob(o.public_blob, what);
    if (ssh_rsa::public_blob(*e, *n) != public_key.blob) fail("public and private halves do not match");
    out.type = OpenSshPrivateKey::Type::rsa;
    out.rsa = ssh_rsa::PrivateKey::from_openssh_fields(*n, *e, *d, *iqmp, *p, *q, what);
  } else {
    fail("key type " + std::string(ssh_wire::as_text(*type)) + " is not supported",
         "pcrypt reads ssh-ed25519 and ssh-rsa keys; create one with ssh-keygen -t ed25519");
  }
  if (!s.string()) fail("truncated key data");  // comment
  // Padding: bytes 1, 2, 3, … up to (not including) the cipher's block size (8 for "none").
  const std::span<const std::uint8_t> pad = s.rest();
  if (pad.size() >= c.block) fail("too much padding after the key");
  for (std::size_t i = 0; i < pad.size(); ++i)
    if (pad[i] != i + 1) fail("invalid padding");
  return out;
}

}  // namespace

bool looks_like_openssh_private_key(std::string_view content) {
  return content.find(begin_line) != std::string_view::npos;
}

OpenSshPublicPart read_openssh_public_part(std::string_view content, std::string_view name) {
  const Failer fail(name);
  const Outer o = read_outer(content, fail);
  ssh_wire::Reader pub(o.public_blob);
  const auto type = pub.string();
  if (!type) fail("malformed public key");
  return OpenSshPublicPart{std::vector<std::uint8_t>(o.public_blob.begin(), o.public_blob.end()), o.cipher};
}

OpenSshPrivateKey parse_openssh_private_key(std::string_view content, std::string_view name,
                                            std::span<const std::uint8_t> passphrase) {
  const Failer fail(name);
  const Outer o = read_outer(content, fail);
  const Cipher& c = *find_cipher(o.cipher);
  if (o.cipher == "none") return read_private(o.private_section, o, c, fail);
  SecretBytes plain(o.private_section.size());
  decrypt_private(o, c, passphrase, plain, fail);
  return read_private(plain.span(), o, c, fail);
}

}  // namespace pcrypt::core
