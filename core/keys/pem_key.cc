// PEM keys through OpenSSL 3's decoders (PEM_read_bio_PrivateKey, which handles PKCS#1, its legacy DEK-Info
// encryption and PKCS#8); the components then go through the same constructors as an OpenSSH key's.
#include "core/keys/pem_key.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sodium.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/keys/ssh_rsa.h"

namespace pcrypt::core {
namespace {

constexpr std::string_view kRsaBegin = "-----BEGIN RSA PRIVATE KEY-----";
constexpr std::string_view kPkcs8Begin = "-----BEGIN PRIVATE KEY-----";

struct PkeyDeleter {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct BioDeleter {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct BnDeleter {
  void operator()(BIGNUM* b) const { BN_clear_free(b); }
};

// OpenSSL's passphrase callback: the one given, never a prompt of OpenSSL's own (its default reads the
// terminal, which core never does).
struct GivenPassphrase {
  std::span<const std::uint8_t> bytes;
  bool asked = false;
};

int give_passphrase(char* buf, int size, int /*rwflag*/, void* user) {
  auto* given = static_cast<GivenPassphrase*>(user);
  given->asked = true;
  if (given->bytes.empty() || given->bytes.size() > static_cast<std::size_t>(size)) return -1;
  std::memcpy(buf, given->bytes.data(), given->bytes.size());
  return static_cast<int>(given->bytes.size());
}

// An RSA component as unsigned big-endian bytes (secret ones in a wiped buffer).
SecretBytes component(const EVP_PKEY* key, const char* name, const std::string& what) {
  BIGNUM* raw = nullptr;
  if (EVP_PKEY_get_bn_param(key, name, &raw) != 1)
    throw Error(PCRYPT_E_NOT_AN_IDENTITY,
                what + ": the RSA key lacks its " + std::string(name) + " component");
  const std::unique_ptr<BIGNUM, BnDeleter> value(raw);
  SecretBytes out(static_cast<std::size_t>(BN_num_bytes(value.get())));
  BN_bn2bin(value.get(), out.data());
  return out;
}

// SSH's `string`: a 32-bit big-endian length, then the bytes (short ones only here).
void append_ssh_string(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> bytes) {
  const auto size = static_cast<std::uint32_t>(bytes.size());
  for (const int shift : {24, 16, 8, 0}) out.push_back(static_cast<std::uint8_t>(size >> shift));
  for (const std::uint8_t b : bytes) out.push_back(b);
}

}  // namespace

bool looks_like_pem_private_key(std::string_view content) {
  return content.find(kRsaBegin) != std::string_view::npos ||
         content.find(kPkcs8Begin) != std::string_view::npos;
}

bool pem_private_key_encrypted(std::string_view content) {
  return content.find(kRsaBegin) != std::string_view::npos &&
         content.find("Proc-Type: 4,ENCRYPTED") != std::string_view::npos;
}

OpenSshPrivateKey parse_pem_private_key(std::string_view content, std::string_view name,
                                        std::span<const std::uint8_t> passphrase) {
  const std::string what = "PEM private key '" + std::string(name) + "'";
  const bool encrypted = pem_private_key_encrypted(content);
  if (encrypted && passphrase.empty())
    throw Error(PCRYPT_E_PASSPHRASE_REQUIRED, what + " is protected by a passphrase and none was given");
  const std::unique_ptr<BIO, BioDeleter> bio(
      BIO_new_mem_buf(content.data(), static_cast<int>(content.size())));
  if (!bio) throw Error(PCRYPT_E_OUT_OF_MEMORY, "out of memory (OpenSSL BIO)");
  GivenPassphrase given{encrypted ? passphrase : std::span<const std::uint8_t>{}};
  ERR_clear_error();
  const std::unique_ptr<EVP_PKEY, PkeyDeleter> key(
      PEM_read_bio_PrivateKey(bio.get(), nullptr, give_passphrase, &given));
  ERR_clear_error();
  if (!key) {
    // A protected key that does not decode: the passphrase is wrong (the legacy encryption has no check
    // value; a wrong key gives bytes that are no key).
    if (encrypted) throw Error(PCRYPT_E_WRONG_KEY_PASSPHRASE, what + ": wrong passphrase");
    throw Error(PCRYPT_E_NOT_AN_IDENTITY, what + " is not a valid PKCS#1 or PKCS#8 private key",
                "pcrypt reads Ed25519 and RSA keys; OpenSSH's own format: ssh-keygen -t ed25519");
  }
  OpenSshPrivateKey out;
  if (EVP_PKEY_get_base_id(key.get()) == EVP_PKEY_ED25519) {
    SecretBytes seed(32);
    std::size_t seed_size = seed.size();
    if (EVP_PKEY_get_raw_private_key(key.get(), seed.data(), &seed_size) != 1 || seed_size != 32)
      throw Error(PCRYPT_E_NOT_AN_IDENTITY, what + ": not a valid Ed25519 private key");
    out.type = OpenSshPrivateKey::Type::ed25519;
    out.secret = SecretBytes(64);
    crypto_sign_seed_keypair(out.public_key.data(), out.secret.data(), seed.data());
    constexpr std::string_view type = "ssh-ed25519";
    append_ssh_string(out.blob, std::span(reinterpret_cast<const std::uint8_t*>(type.data()), type.size()));
    append_ssh_string(out.blob, out.public_key);
    return out;
  }
  if (EVP_PKEY_get_base_id(key.get()) == EVP_PKEY_RSA) {
    const SecretBytes n = component(key.get(), OSSL_PKEY_PARAM_RSA_N, what),
                      e = component(key.get(), OSSL_PKEY_PARAM_RSA_E, what),
                      d = component(key.get(), OSSL_PKEY_PARAM_RSA_D, what),
                      p = component(key.get(), OSSL_PKEY_PARAM_RSA_FACTOR1, what),
                      q = component(key.get(), OSSL_PKEY_PARAM_RSA_FACTOR2, what),
                      iqmp = component(key.get(), OSSL_PKEY_PARAM_RSA_COEFFICIENT1, what);
    // The public half through §10.7's rules first (size, exponent), then the key itself.
    out.blob = ssh_rsa::public_blob(e.span(), n.span());
    (void)ssh_rsa::parse_public_blob(out.blob, what);
    out.type = OpenSshPrivateKey::Type::rsa;
    out.rsa = ssh_rsa::PrivateKey::from_openssh_fields(n.span(), e.span(), d.span(), iqmp.span(), p.span(),
                                                       q.span(), what);
    return out;
  }
  const char* type = EVP_PKEY_get0_type_name(key.get());
  throw Error(PCRYPT_E_NOT_AN_IDENTITY,
              what + " holds a " + std::string(type != nullptr ? type : "non-RSA, non-Ed25519") +
                  " key, which is not supported",
              "pcrypt reads Ed25519 and RSA keys; create one with ssh-keygen -t ed25519");
}

}  // namespace pcrypt::core
