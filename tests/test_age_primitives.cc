// age's HMAC-SHA-256 and HKDF-SHA-256 (core/age/primitives.h), computed with libsodium's HMAC: against the
// RFCs' own test cases (RFC 4231 §4 for HMAC, RFC 5869 appendix A for HKDF, the first 32 bytes of its OKM:
// age only ever derives 32) and against OpenSSL 3's HMAC and HKDF, which computed them before, on random
// inputs of every length that changes HMAC's path (empty, below, at and above the 64-byte block, keys that
// must be hashed first). The CCTV vectors (test_age_cctv) check the same functions inside whole age files.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <sodium.h>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/aes/sodium_init.h"
#include "core/age/primitives.h"
#include "tests/test_bytes.h"

using namespace pcrypt;
using test::Bytes;
using test::from_hex;

namespace {

Bytes text(std::string_view s) {
  return Bytes(s.begin(), s.end());
}

Bytes secret(const SecretBytes& s) {
  return Bytes(s.data(), s.data() + s.size());
}

Bytes openssl_hmac(const Bytes& key, const Bytes& message) {
  static const std::uint8_t kEmpty[1] = {0};
  Bytes out(32);
  unsigned int len = 0;
  REQUIRE(HMAC(EVP_sha256(), key.empty() ? kEmpty : key.data(), static_cast<int>(key.size()),
               message.empty() ? kEmpty : message.data(), message.size(), out.data(), &len) != nullptr);
  REQUIRE(len == 32);
  return out;
}

Bytes openssl_hkdf(const Bytes& ikm, const Bytes& salt, const std::string& info) {
  static const std::uint8_t kEmpty[1] = {0};
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nullptr);
  REQUIRE(ctx != nullptr);
  Bytes out(32);
  std::size_t len = out.size();
  const bool ok =
      EVP_PKEY_derive_init(ctx) == 1 && EVP_PKEY_CTX_set_hkdf_md(ctx, EVP_sha256()) == 1 &&
      EVP_PKEY_CTX_set1_hkdf_salt(ctx, salt.empty() ? kEmpty : salt.data(), static_cast<int>(salt.size())) ==
          1 &&
      EVP_PKEY_CTX_set1_hkdf_key(ctx, ikm.empty() ? kEmpty : ikm.data(), static_cast<int>(ikm.size())) == 1 &&
      EVP_PKEY_CTX_add1_hkdf_info(ctx, reinterpret_cast<const unsigned char*>(info.data()),
                                  static_cast<int>(info.size())) == 1 &&
      EVP_PKEY_derive(ctx, out.data(), &len) == 1;
  EVP_PKEY_CTX_free(ctx);
  REQUIRE(ok);
  REQUIRE(len == 32);
  return out;
}

// Lengths around HMAC's 64-byte block (a longer key is hashed first) and SHA-256's padding boundary (55/56).
const std::vector<std::size_t> kLengths = {0,  1,  16, 31,  32,  33,  55,  56,
                                           63, 64, 65, 100, 127, 128, 129, 1000};

}  // namespace

TEST_CASE("HMAC-SHA-256: RFC 4231's test cases") {
  require_sodium();
  // Test case 1: a 20-byte key.
  CHECK(test::to_hex(core::age::hmac_sha256(Bytes(20, 0x0b), text("Hi There"))) ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  // Test case 2: a key shorter than the output.
  CHECK(test::to_hex(core::age::hmac_sha256(text("Jefe"), text("what do ya want for nothing?"))) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // Test case 6: a 131-byte key, longer than the block, hashed first.
  CHECK(test::to_hex(core::age::hmac_sha256(
            Bytes(131, 0xaa), text("Test Using Larger Than Block-Size Key - Hash Key First"))) ==
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST_CASE("HKDF-SHA-256: RFC 5869's test cases (the first 32 bytes of OKM)") {
  require_sodium();
  const Bytes ikm(22, 0x0b);
  // A.1: salt and info given.
  CHECK(
      test::to_hex(secret(core::age::hkdf_sha256(ikm, from_hex("000102030405060708090a0b0c"),
                                                 std::string("\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9")))) ==
      "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf");
  // A.3: empty salt (HashLen zero bytes) and empty info.
  CHECK(test::to_hex(secret(core::age::hkdf_sha256(ikm, {}, ""))) ==
        "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d");
}

TEST_CASE("HMAC-SHA-256 and HKDF-SHA-256 agree with OpenSSL's on random inputs of every edge length") {
  require_sodium();
  for (const std::size_t key_len : kLengths)
    for (const std::size_t msg_len : kLengths) {
      INFO("key " << key_len << " bytes, message " << msg_len << " bytes");
      const Bytes key = test::random_bytes(key_len);
      const Bytes message = test::random_bytes(msg_len);
      REQUIRE(test::to_hex(core::age::hmac_sha256(key, message)) == test::to_hex(openssl_hmac(key, message)));

      // As HKDF: key_len bytes of input key material, msg_len bytes of salt, and an info of either length.
      const Bytes info_bytes = test::random_bytes(msg_len % 70);
      const std::string info(info_bytes.begin(), info_bytes.end());
      REQUIRE(test::to_hex(secret(core::age::hkdf_sha256(key, message, info))) ==
              test::to_hex(openssl_hkdf(key, message, info)));
    }
}
