// docs/FORMAT.md is enough to decrypt a file: an independent decryptor written from the spec with raw
// libsodium calls (no pcrypt code on the decrypt path) opens what encrypt_stream wrote, and the KDF is what
// §2 says.
#include <catch2/catch.hpp>

#include <cstring>

#include "core/pcrypt/keys.h"
#include "core/records.h"
#include "tests/test_crypt_support.h"

using namespace pcrypt;
using test::Bytes;

namespace {

std::uint32_t be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

// FORMAT.md §2 KDF, spelled out as BLAKE2b with salt and personalization.
Bytes spec_kdf(const std::uint8_t* key, const char* label) {
  std::uint8_t salt[16] = {1};  // subkey id 1, little-endian, zero-padded
  std::uint8_t personal[16] = {};
  std::memcpy(personal, label, 8);
  Bytes out(32);
  REQUIRE(crypto_generichash_blake2b_salt_personal(out.data(), 32, nullptr, 0, key, 32, salt, personal) == 0);
  return out;
}

Bytes unwrap(const std::uint8_t* slot_nonce, const Bytes& kek) {
  Bytes file_key(32);
  REQUIRE(crypto_aead_xchacha20poly1305_ietf_decrypt(file_key.data(), nullptr, nullptr, slot_nonce + 24, 48,
                                                     nullptr, 0, slot_nonce, kek.data()) == 0);
  return file_key;
}

// Decrypts a whole single-slot file following FORMAT.md §3-§5 only.
Bytes spec_decrypt(const Bytes& file, const Bytes& key_file_key, const std::string& passphrase) {
  REQUIRE(file.size() >= 15);
  REQUIRE(Bytes(file.begin(), file.begin() + 8) == Bytes{0x89, 0x50, 0x43, 0x52, 0x59, 0x50, 0x54, 0x0a});
  REQUIRE(file[8] == 1);
  REQUIRE(file[9] == 1);
  const std::size_t chunk_size = be32(&file[10]);
  REQUIRE(file[14] == 1);
  std::size_t pos = 15;
  Bytes file_key;
  if (file[pos] == 1) {
    file_key = unwrap(&file[pos + 1], spec_kdf(key_file_key.data(), "PCKEYFIL"));
    pos += 73;
  } else {
    REQUIRE(file[pos] == 2);
    const std::uint32_t ops = be32(&file[pos + 1]);
    const std::uint32_t kib = be32(&file[pos + 5]);
    Bytes stretched(32);
    REQUIRE(crypto_pwhash(stretched.data(), 32, passphrase.data(), passphrase.size(), &file[pos + 9], ops,
                          std::size_t{kib} * 1024, crypto_pwhash_ALG_ARGON2ID13) == 0);
    file_key = unwrap(&file[pos + 25], spec_kdf(stretched.data(), "PCPASSWD"));
    pos += 97;
  }
  const Bytes mac_key = spec_kdf(file_key.data(), "PCHDRMAC");
  std::uint8_t mac[32];
  crypto_auth_hmacsha256(mac, file.data(), pos, mac_key.data());
  REQUIRE(std::memcmp(mac, &file[pos], 32) == 0);
  pos += 32;

  const Bytes payload_key = spec_kdf(file_key.data(), "PCPAYLOD");
  Bytes plain;
  for (std::uint64_t index = 0; pos < file.size(); ++index) {
    const std::size_t record = std::min(chunk_size + 16, file.size() - pos);
    const bool last = pos + record == file.size();
    std::uint8_t nonce[12] = {};
    for (int i = 0; i < 8; ++i) nonce[3 + i] = static_cast<std::uint8_t>(index >> (56 - 8 * i));
    nonce[11] = last ? 1 : 0;
    Bytes chunk(record - 16);
    unsigned long long len = 0;
    REQUIRE(crypto_aead_aes256gcm_decrypt(chunk.data(), &len, nullptr, &file[pos], record, nullptr, 0, nonce,
                                          payload_key.data()) == 0);
    plain.insert(plain.end(), chunk.begin(), chunk.end());
    pos += record;
  }
  return plain;
}

}  // namespace

TEST_CASE("the KDF is libsodium's crypto_kdf exactly as FORMAT.md spells it out") {
  const Bytes key = test::random_bytes(32);
  for (const char* label :
       {core::kLabelKeyFileKek, core::kLabelPassphraseKek, core::kLabelHeaderMac, core::kLabelPayload}) {
    const SecretBytes derived = core::derive_subkey(key, *reinterpret_cast<const char(*)[9]>(label));
    CHECK(Bytes(derived.span().begin(), derived.span().end()) == spec_kdf(key.data(), label));
  }
  CHECK(spec_kdf(key.data(), "PCHDRMAC") != spec_kdf(key.data(), "PCPAYLOD"));
}

TEST_CASE("a decryptor written from FORMAT.md alone opens pcrypt files") {
  if (crypto_aead_aes256gcm_is_available() == 0) {
    WARN("SKIPPED: libsodium AES-256-GCM needs AES-NI, which this CPU lacks");
    return;
  }
  const std::string key_text = test::key_file_string();
  const core::Credential key = test::key_from_text(key_text);
  const Bytes key_file_key(key.secret.span().begin(), key.secret.span().end());
  for (const std::size_t size :
       {std::size_t{0}, std::size_t{1}, std::size_t{4096}, std::size_t{3 * 4096 + 5}}) {
    INFO("size " << size);
    const Bytes plain = test::random_bytes(size);
    CHECK(spec_decrypt(test::encrypt(plain, test::creds(key), 4096, 2), key_file_key, "") == plain);
  }
  const Bytes plain = test::random_bytes(10000);
  CHECK(spec_decrypt(test::encrypt(plain, test::creds(test::passphrase("pässwörd")), 8192, 1), {},
                     "pässwörd") == plain);
}

TEST_CASE("the chunk counter cannot overflow: index 2^64-1 is refused") {
  const Bytes key = test::random_bytes(32);
  const core::ChunkCipher cipher(
      core::gcm_aead(aes::select_engine().make_gcm(std::span<const std::uint8_t, 32>(key.data(), 32))));
  Bytes buf(64 + 16);
  test::error_of(core::ErrorKind::payload, [&] { cipher.seal(UINT64_MAX, true, buf.data(), 64); });
  test::error_of(core::ErrorKind::payload, [&] { (void)cipher.open(UINT64_MAX, false, buf.data(), 64); });
  cipher.seal(UINT64_MAX - 1, true, buf.data(), 64);  // the last usable index still works
  CHECK(cipher.open(UINT64_MAX - 1, true, buf.data(), 64));
}
