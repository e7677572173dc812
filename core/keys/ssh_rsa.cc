// RSA through OpenSSL 3's EVP interface (keys built from their components with OSSL_PARAM), never the
// deprecated RSA_* functions.
#include "core/keys/ssh_rsa.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

#include <array>
#include <cstring>

#include "core/error.h"
#include "core/keys/ssh_wire.h"

namespace pcrypt::core::ssh_rsa {

struct PrivateKey::Impl {
  EVP_PKEY* key = nullptr;
  ~Impl() { EVP_PKEY_free(key); }
};

namespace {

struct BnDeleter {
  void operator()(BIGNUM* b) const { BN_clear_free(b); }
};
using Bn = std::unique_ptr<BIGNUM, BnDeleter>;
struct CtxDeleter {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
using PkeyCtx = std::unique_ptr<EVP_PKEY_CTX, CtxDeleter>;

constexpr std::string_view type_name = "ssh-rsa";

Bn bn(std::span<const std::uint8_t> bytes, bool secret) {
  Bn out(BN_bin2bn(bytes.data(), static_cast<int>(bytes.size()), nullptr));
  if (!out) throw Error(PCRYPT_E_OUT_OF_MEMORY, "out of memory (OpenSSL BN_bin2bn)");
  if (secret) BN_set_flags(out.get(), BN_FLG_CONSTTIME);
  return out;
}

std::size_t bit_length(std::span<const std::uint8_t> magnitude) {
  while (!magnitude.empty() && magnitude[0] == 0) magnitude = magnitude.subspan(1);
  if (magnitude.empty()) return 0;
  std::size_t bits = 8 * magnitude.size();
  for (std::uint8_t top = magnitude[0]; (top & 0x80) == 0; top = static_cast<std::uint8_t>(top << 1)) --bits;
  return bits;
}

// FORMAT.md §10.7's exponent rule: e odd, 3 <= e <= 2^24 - 1. It is what age reads (Go's SSH package refuses
// longer or even exponents and 1), and it stays inside OpenSSL's own limits (e < n; at most 64 bits above a
// 3072-bit modulus) for every accepted modulus, so an accepted key never fails later inside OpenSSL.
void check_exponent(std::span<const std::uint8_t> e, const std::string& what) {
  const std::size_t bits = bit_length(e);
  if (bits <= max_exponent_bits && bits >= 2 && (e.back() & 1) == 1) return;
  // Its value when it fits in 64 bits (the message then shows 1, 65536 or 16777217), else its length.
  std::string found = "is " + std::to_string(bits) + " bits long";
  if (bits <= 64) {
    std::uint64_t value = 0;
    for (const std::uint8_t byte : e) value = (value << 8) | byte;
    found = "is " + std::to_string(value) + (bits > max_exponent_bits ? ", " + found.substr(3) : "");
  }
  throw Error(PCRYPT_E_NOT_A_RECIPIENT,
              what + ": the RSA public exponent e " + found +
                  "; pcrypt accepts an odd e from 3 to 16777215 (2^24 - 1), as age does",
              "make a new key with ssh-keygen -t rsa -b 4096 (its e is 65537), or use ssh-keygen -t ed25519");
}

// The public-key rules shared by recipients and identities.
std::size_t check_e_n(std::span<const std::uint8_t> e, std::span<const std::uint8_t> n,
                      const std::string& what) {
  const std::size_t bits = bit_length(n);
  if (bits < min_modulus_bits || bits > max_modulus_bits)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT,
                what + ": RSA key of " + std::to_string(bits) + " bits (pcrypt accepts " +
                    std::to_string(min_modulus_bits) + " to " + std::to_string(max_modulus_bits) + ")",
                "create a new key with ssh-keygen -t rsa -b 4096, or use ssh-keygen -t ed25519");
  if ((n.back() & 1) == 0)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": the RSA modulus is even (not a key)");
  check_exponent(e, what);
  return (bits + 7) / 8;
}

Error openssl_failure(const char* what) {
  return Error(PCRYPT_E_CRYPTO_BACKEND, std::string("RSA operation failed in OpenSSL (") + what + ")");
}

// Sets OAEP with SHA-256 for both hashes and the label (OpenSSL takes ownership of a malloc'ed copy).
void set_oaep(EVP_PKEY_CTX* ctx, std::string_view label) {
  if (EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) <= 0 ||
      EVP_PKEY_CTX_set_rsa_oaep_md(ctx, EVP_sha256()) <= 0 ||
      EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) <= 0)
    throw openssl_failure("OAEP parameters");
  void* copy = OPENSSL_memdup(label.data(), label.size());
  if (copy == nullptr || EVP_PKEY_CTX_set0_rsa_oaep_label(ctx, copy, static_cast<int>(label.size())) <= 0) {
    OPENSSL_free(copy);
    throw openssl_failure("OAEP label");
  }
}

EVP_PKEY* key_from_params(OSSL_PARAM_BLD* bld, int selection) {
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr));
  EVP_PKEY* key = nullptr;
  const bool ok = params != nullptr && ctx && EVP_PKEY_fromdata_init(ctx.get()) > 0 &&
                  EVP_PKEY_fromdata(ctx.get(), &key, selection, params) > 0;
  OSSL_PARAM_free(params);  // holds copies of secret numbers: OSSL_PARAM_free clears them
  if (!ok) throw openssl_failure("EVP_PKEY_fromdata");
  return key;
}

struct ParamBuilder {
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  ~ParamBuilder() { OSSL_PARAM_BLD_free(bld); }
  void push(const char* name, const BIGNUM* v) {
    if (bld == nullptr || OSSL_PARAM_BLD_push_BN(bld, name, v) <= 0) throw openssl_failure("OSSL_PARAM_BLD");
  }
};

}  // namespace

std::vector<std::uint8_t> public_blob(std::span<const std::uint8_t> e, std::span<const std::uint8_t> n) {
  std::vector<std::uint8_t> out;
  // Reserved whole (4-byte lengths, a possible 0x00 pad): piecemeal growth makes GCC 12 at -O3 report a
  // false overread.
  out.reserve(3 * 4 + type_name.size() + e.size() + 1 + n.size() + 1);
  ssh_wire::put_string(out,
                       std::span(reinterpret_cast<const std::uint8_t*>(type_name.data()), type_name.size()));
  ssh_wire::put_positive_mpint(out, e);
  ssh_wire::put_positive_mpint(out, n);
  return out;
}

PublicKey parse_public_blob(std::span<const std::uint8_t> blob, const std::string& what) {
  ssh_wire::Reader r(blob);
  const auto type = r.string();
  if (!type || ssh_wire::as_text(*type) != type_name)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT,
                what + ": the key data is not an ssh-rsa public key (truncated or altered?)");
  const auto e = r.positive_mpint();
  const auto n = r.positive_mpint();
  if (!e || !n || r.left() != 0)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT,
                what + ": the key data is not an ssh-rsa public key (truncated or altered?)");
  PublicKey out;
  out.modulus_bytes = check_e_n(*e, *n, what);
  out.blob.assign(blob.begin(), blob.end());
  return out;
}

std::vector<std::uint8_t> oaep_encrypt(const PublicKey& key, std::span<const std::uint8_t> message,
                                       std::string_view label) {
  ssh_wire::Reader r(key.blob);
  r.string();
  const auto e = r.positive_mpint();
  const auto n = r.positive_mpint();
  if (!e || !n) throw Error(PCRYPT_E_NOT_A_RECIPIENT, "malformed ssh-rsa public key");
  const Bn bn_e = bn(*e, false), bn_n = bn(*n, false);
  ParamBuilder b;
  b.push(OSSL_PKEY_PARAM_RSA_N, bn_n.get());
  b.push(OSSL_PKEY_PARAM_RSA_E, bn_e.get());
  EVP_PKEY* pkey = key_from_params(b.bld, EVP_PKEY_PUBLIC_KEY);
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, pkey, nullptr));
  EVP_PKEY_free(pkey);  // the context holds its own reference
  if (!ctx || EVP_PKEY_encrypt_init(ctx.get()) <= 0) throw openssl_failure("EVP_PKEY_encrypt_init");
  set_oaep(ctx.get(), label);
  std::size_t len = 0;
  if (EVP_PKEY_encrypt(ctx.get(), nullptr, &len, message.data(), message.size()) <= 0)
    throw openssl_failure("EVP_PKEY_encrypt");
  std::vector<std::uint8_t> out(len);
  if (EVP_PKEY_encrypt(ctx.get(), out.data(), &len, message.data(), message.size()) <= 0)
    throw openssl_failure("EVP_PKEY_encrypt");
  out.resize(len);
  if (out.size() != key.modulus_bytes) throw openssl_failure("unexpected ciphertext length");
  return out;
}

PrivateKey::PrivateKey(std::unique_ptr<Impl> impl, std::size_t modulus_bytes)
    : impl_(std::move(impl)), modulus_bytes_(modulus_bytes) {}
PrivateKey::~PrivateKey() = default;

std::shared_ptr<const PrivateKey> PrivateKey::from_openssh_fields(
    std::span<const std::uint8_t> n, std::span<const std::uint8_t> e, std::span<const std::uint8_t> d,
    std::span<const std::uint8_t> iqmp, std::span<const std::uint8_t> p, std::span<const std::uint8_t> q,
    const std::string& what) {
  const std::size_t modulus_bytes = check_e_n(e, n, what);
  const Bn bn_n = bn(n, false), bn_e = bn(e, false), bn_d = bn(d, true), bn_p = bn(p, true),
           bn_q = bn(q, true), bn_iqmp = bn(iqmp, true);
  // The CRT exponents OpenSSH does not store: d mod (p-1), d mod (q-1).
  std::unique_ptr<BN_CTX, decltype(&BN_CTX_free)> bctx(BN_CTX_secure_new(), BN_CTX_free);
  const Bn p1(BN_dup(bn_p.get())), q1(BN_dup(bn_q.get())), dmp1(BN_secure_new()), dmq1(BN_secure_new());
  if (!bctx || !p1 || !q1 || !dmp1 || !dmq1)
    throw Error(PCRYPT_E_OUT_OF_MEMORY, "out of memory (OpenSSL BN)");
  BN_set_flags(dmp1.get(), BN_FLG_CONSTTIME);
  BN_set_flags(dmq1.get(), BN_FLG_CONSTTIME);
  if (BN_is_zero(bn_p.get()) || BN_is_zero(bn_q.get()) || BN_sub_word(p1.get(), 1) != 1 ||
      BN_sub_word(q1.get(), 1) != 1 || BN_mod(dmp1.get(), bn_d.get(), p1.get(), bctx.get()) != 1 ||
      BN_mod(dmq1.get(), bn_d.get(), q1.get(), bctx.get()) != 1)
    throw Error(PCRYPT_E_NOT_AN_IDENTITY, what + ": the RSA private key fields are not valid");
  ParamBuilder b;
  b.push(OSSL_PKEY_PARAM_RSA_N, bn_n.get());
  b.push(OSSL_PKEY_PARAM_RSA_E, bn_e.get());
  b.push(OSSL_PKEY_PARAM_RSA_D, bn_d.get());
  b.push(OSSL_PKEY_PARAM_RSA_FACTOR1, bn_p.get());
  b.push(OSSL_PKEY_PARAM_RSA_FACTOR2, bn_q.get());
  b.push(OSSL_PKEY_PARAM_RSA_EXPONENT1, dmp1.get());
  b.push(OSSL_PKEY_PARAM_RSA_EXPONENT2, dmq1.get());
  b.push(OSSL_PKEY_PARAM_RSA_COEFFICIENT1, bn_iqmp.get());
  auto impl = std::make_unique<Impl>();
  impl->key = key_from_params(b.bld, EVP_PKEY_KEYPAIR);
  // The parts must form one key: n = p·q, and a round trip through it (which uses e, d and the CRT values
  // derived from d) must give back what went in. Not EVP_PKEY_pairwise_check: besides this it tests p and q
  // for primality, which takes seconds for a 4096-bit key and proves nothing a damaged key would fail.
  // Then d and iqmp, exactly (FORMAT.md §10.5): e·d ≡ 1 modulo p−1 and q−1, and q·iqmp ≡ 1 modulo p. Without
  // these, OpenSSL would quietly recompute a CRT result that a wrong iqmp spoils, so a damaged iqmp was
  // accepted by accident.
  const Bn product(BN_new());
  const auto is_inverse = [&](const BIGNUM* x, const BIGNUM* y, const BIGNUM* m) {
    return BN_mod_mul(product.get(), x, y, m, bctx.get()) == 1 && BN_is_one(product.get());
  };
  if (!product || BN_mul(product.get(), bn_p.get(), bn_q.get(), bctx.get()) != 1 ||
      BN_cmp(product.get(), bn_n.get()) != 0 || !is_inverse(bn_e.get(), bn_d.get(), p1.get()) ||
      !is_inverse(bn_e.get(), bn_d.get(), q1.get()) || !is_inverse(bn_q.get(), bn_iqmp.get(), bn_p.get()))
    throw Error(PCRYPT_E_NOT_AN_IDENTITY,
                what + ": the RSA private key's parts do not belong together (damaged key)");
  std::shared_ptr<const PrivateKey> key(new PrivateKey(std::move(impl), modulus_bytes));
  std::array<std::uint8_t, 32> probe{};
  if (RAND_bytes(probe.data(), static_cast<int>(probe.size())) != 1) throw openssl_failure("RAND_bytes");
  constexpr std::string_view check_label = "pcrypt-rsa-key-check";
  const std::vector<std::uint8_t> ct =
      oaep_encrypt(PublicKey{public_blob(e, n), modulus_bytes}, probe, check_label);
  const std::optional<SecretBytes> back = key->oaep_decrypt(ct, check_label);
  if (!back || back->size() != probe.size() || std::memcmp(back->data(), probe.data(), probe.size()) != 0)
    throw Error(PCRYPT_E_NOT_AN_IDENTITY,
                what + ": the RSA private key's parts do not belong together (damaged key)");
  return key;
}

std::optional<SecretBytes> PrivateKey::oaep_decrypt(std::span<const std::uint8_t> ciphertext,
                                                    std::string_view label) const {
  if (ciphertext.size() != modulus_bytes_) return std::nullopt;
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, impl_->key, nullptr));
  if (!ctx || EVP_PKEY_decrypt_init(ctx.get()) <= 0) throw openssl_failure("EVP_PKEY_decrypt_init");
  set_oaep(ctx.get(), label);
  SecretBytes out(modulus_bytes_);
  std::size_t len = out.size();
  if (EVP_PKEY_decrypt(ctx.get(), out.data(), &len, ciphertext.data(), ciphertext.size()) <= 0) {
    ERR_clear_error();  // a slot that does not open is not an error worth keeping on the queue
    return std::nullopt;
  }
  SecretBytes message(std::span<const std::uint8_t>(out.data(), len));
  return message;
}

}  // namespace pcrypt::core::ssh_rsa
