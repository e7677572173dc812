// C2SP chunked encryption (Cobblestone-128 and -256, core/cobblestone/) behind the door: all 70 Wycheproof
// vectors (every engine that has the AES key size, and libpcrypt's C++ API), the derivation's key and base
// nonce against the vectors', round trips at every size around the 16 KiB edges, truncation at every chunk
// boundary, damage to every chunk and to the header, wrong key and wrong context, ranges (a range that ends
// at the message's end authenticates the final chunk), and the spec's length rules.
#include <sodium.h>
#include <zlib.h>
#include <catch2/catch.hpp>

#include <pcrypt/pcrypt.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/cobblestone/chunked.h"
#include "core/door/encrypted_file.h"
#include "core/error.h"
#include "io/memory_stream.h"
#include "tests/aes_vectors.h"
#include "tests/source_dir.h"
#include "tests/test_bytes.h"

namespace {

using pcrypt::core::Code;
using pcrypt::core::Credential;
using pcrypt::core::Error;
using pcrypt::core::ErrorKind;
using pcrypt::core::Format;
using pcrypt::test::Bytes;
using pcrypt::test::from_hex;
namespace door = pcrypt::core::door;
namespace cobblestone = pcrypt::core::cobblestone;

Bytes inflate_all(const Bytes& in) {
  z_stream z{};
  REQUIRE(inflateInit(&z) == Z_OK);
  Bytes out;
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = static_cast<uInt>(in.size());
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    std::uint8_t buf[1 << 16];
    z.next_out = buf;
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    REQUIRE((rc == Z_OK || rc == Z_STREAM_END));
    out.insert(out.end(), buf, buf + (sizeof buf - z.avail_out));
  }
  inflateEnd(&z);
  return out;
}

struct Vector {
  long long id;
  std::string comment;
  Bytes key, context, ct, aead_key, base_nonce;
  bool valid;
  std::optional<std::uint64_t> msg_length;
  Bytes msg_sha512;
  std::vector<std::string> flags;
};

std::vector<Vector> read_vectors(const std::string& name, const std::string& algorithm) {
  const std::string path = std::string(pcrypt::test::source_dir()) + "/tests/vectors/cobblestone/" + name;
  std::ifstream f(path, std::ios::binary);
  REQUIRE(f);
  std::ostringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  const aes_test::Json doc = aes_test::JsonParser(text).parse_document();
  REQUIRE(doc.at("algorithm").str() == algorithm);
  std::vector<Vector> out;
  for (const aes_test::Json& group : doc.at("testGroups").items) {
    REQUIRE(group.at("sha").str() == "SHA-512");
    for (const aes_test::Json& t : group.at("tests").items) {
      Vector v{t.at("tcId").integer(),
               t.at("comment").str(),
               from_hex(t.at("key").str()),
               from_hex(t.at("ctx").str()),
               inflate_all(from_hex(t.at("ct").str())),
               {},
               {},
               t.at("result").str() == "valid",
               std::nullopt,
               {},
               {}};
      REQUIRE((t.at("result").str() == "valid" || t.at("result").str() == "invalid"));
      if (t.members.count("aeadKey")) v.aead_key = from_hex(t.at("aeadKey").str());
      if (t.members.count("baseNonce")) v.base_nonce = from_hex(t.at("baseNonce").str());
      if (t.members.count("msgLength"))
        v.msg_length = static_cast<std::uint64_t>(t.at("msgLength").integer());
      if (t.members.count("msgSha512")) v.msg_sha512 = from_hex(t.at("msgSha512").str());
      for (const aes_test::Json& flag : t.at("flags").items) v.flags.push_back(flag.str());
      out.push_back(std::move(v));
    }
  }
  REQUIRE(out.size() == static_cast<std::size_t>(doc.at("numberOfTests").integer()));
  return out;
}

Credential raw_key(const Bytes& key, const Bytes& context) {
  return Credential{Credential::Kind::raw_key, pcrypt::SecretBytes(std::span<const std::uint8_t>(key)),
                    std::nullopt, std::nullopt, context};
}

// Credential is move-only: no initializer lists of them.
std::vector<Credential> one(Credential c) {
  std::vector<Credential> v;
  v.push_back(std::move(c));
  return v;
}

Bytes sha512(const Bytes& b) {
  Bytes out(crypto_hash_sha512_BYTES);
  crypto_hash_sha512(out.data(), b.data(), b.size());
  return out;
}

// Opens, unlocks and decrypts `ct` through the door; the plaintext, or the Error (and nothing committed).
struct Outcome {
  std::optional<Bytes> plaintext;
  std::optional<ErrorKind> error;
  std::string message;
  Code code = PCRYPT_E_NONE;
  std::optional<std::uint64_t> record;  // PCRYPT_FIELD_RECORD, where the error has it
};

Outcome open_and_decrypt(Format format, const Bytes& ct, const std::vector<Credential>& credentials,
                         const pcrypt::aes::Engine* engine = nullptr, unsigned threads = 2) {
  pcrypt::io::MemoryReader in(ct, pcrypt::io::MemoryAccess::positional);
  pcrypt::io::MemoryWriter out;
  try {
    door::EncryptedFile file(in, format);
    pcrypt::core::UnlockLimits limits;
    limits.engine = engine;
    file.unlock(credentials, limits);
    file.decrypt(out, door::RunOptions{threads, {}});
    REQUIRE(out.committed());
    return {out.data(), std::nullopt, {}, PCRYPT_E_NONE, std::nullopt};
  } catch (const Error& e) {
    CHECK_FALSE(out.committed());
    return {std::nullopt, e.kind(), e.what(), e.code(), e.fields().numbers[PCRYPT_FIELD_RECORD]};
  }
}

const struct {
  const char* file;
  const char* algorithm;
  Format format;
  const cobblestone::Instantiation* instantiation;
} kFiles[] = {
    {"wycheproof_c2sp_chunked_encryption_aes_128_gcm_test.json", "Cobblestone-128", Format::cobblestone_128,
     &cobblestone::kCobblestone128},
    {"wycheproof_c2sp_chunked_encryption_aes_256_gcm_test.json", "Cobblestone-256", Format::cobblestone_256,
     &cobblestone::kCobblestone256},
};

std::vector<const pcrypt::aes::Engine*> engines_for(std::size_t key_bytes) {
  std::vector<const pcrypt::aes::Engine*> out;
  for (const pcrypt::aes::Engine& e : pcrypt::aes::all_engines())
    if (e.supported() && (key_bytes == 32 || e.make_gcm128 != nullptr)) out.push_back(&e);
  return out;
}

}  // namespace

TEST_CASE("Wycheproof C2SP chunked encryption: all 70 vectors through the door, every engine") {
  std::size_t total = 0, valid = 0;
  for (const auto& file : kFiles) {
    const std::vector<Vector> vectors = read_vectors(file.file, file.algorithm);
    REQUIRE(vectors.size() == 35);
    const auto engines = engines_for(file.instantiation->key_bytes);
    REQUIRE(engines.size() >= 2);
    for (const Vector& v : vectors) {
      ++total;
      INFO(file.algorithm << " tcId " << v.id << " (" << v.comment << ")");
      // The derivation itself, where the vector gives its results.
      if (!v.aead_key.empty() && v.ct.size() >= cobblestone::kSaltBytes) {
        const cobblestone::Derived d = cobblestone::derive(
            *file.instantiation, v.key, std::span<const std::uint8_t, 24>(v.ct.data(), 24), v.context);
        CHECK(aes_test::to_hex(d.key.data(), d.key.size()) == aes_test::to_hex(v.aead_key));
        CHECK(aes_test::to_hex(d.base_nonce.data(), 12) == aes_test::to_hex(v.base_nonce));
      }
      const std::vector<Credential> credentials = one(raw_key(v.key, v.context));
      for (const pcrypt::aes::Engine* e : engines) {
        INFO("engine " << e->name);
        const Outcome o = open_and_decrypt(file.format, v.ct, credentials, e, 1 + v.id % 3);
        if (v.valid) {
          REQUIRE(o.plaintext);
          CHECK(o.plaintext->size() == *v.msg_length);
          CHECK(sha512(*o.plaintext) == v.msg_sha512);
        } else {
          REQUIRE(o.error);
          const auto has = [&](const char* flag) {
            return std::find(v.flags.begin(), v.flags.end(), flag) != v.flags.end();
          };
          // Failures while processing the header come before any chunk: wrong key or context, a bad
          // commitment, a key of the wrong size (usage), an input shorter than the header.
          INFO(o.message);
          if (has("InvalidKeySize")) {
            CHECK(o.code == PCRYPT_E_BAD_ARGUMENT);
          } else if (has("HeaderFailure") && v.ct.empty()) {
            CHECK(o.code == PCRYPT_E_EMPTY_INPUT);
          } else if (has("HeaderFailure") && v.ct.size() < cobblestone::kHeaderBytes) {
            CHECK(o.code == PCRYPT_E_TRUNCATED_HEADER);
          } else if (has("HeaderFailure")) {
            CHECK(o.code == PCRYPT_E_COMMITMENT_MISMATCH);
          } else {
            // A file whose final record is shorter than a tag (cut at a chunk boundary or inside a tag, or
            // with fewer than 16 bytes appended) is truncated; any other final record fails its
            // authentication, like any other damage.
            const bool ends_inside_a_tag =
                (v.ct.size() - cobblestone::kHeaderBytes) % cobblestone::payload_layout().record_bytes() <
                pcrypt::core::kChunkTagBytes;
            CHECK(o.code == (ends_inside_a_tag ? PCRYPT_E_TRUNCATED : PCRYPT_E_DAMAGED_RECORD));
            CHECK(o.record.has_value());
          }
        }
      }
      valid += v.valid;
    }
  }
  CHECK(total == 70);
  CHECK(valid == 20);
}

TEST_CASE("Wycheproof C2SP chunked encryption: all 70 vectors through libpcrypt's C++ API, ranges too") {
  for (const auto& file : kFiles) {
    const pcrypt::Format format = file.format == Format::cobblestone_128 ? pcrypt::Format::cobblestone_128
                                                                         : pcrypt::Format::cobblestone_256;
    for (const Vector& v : read_vectors(file.file, file.algorithm)) {
      INFO(file.algorithm << " tcId " << v.id << " (" << v.comment << ")");
      std::vector<std::uint8_t> plain;
      bool ok = true;
      try {
        pcrypt::Keys keys;
        keys.add_raw_key(pcrypt::SecretBytes(std::span<const std::uint8_t>(v.key)), v.context);
        pcrypt::File f = pcrypt::File::open(pcrypt::Source::memory(v.ct), format);
        pcrypt::Credentials c;
        c.keys = &keys;
        f.unlock(c);
        f.decrypt(pcrypt::Sink::memory(plain));
        // The spec's random access: the plaintext size from the ciphertext's, and read_at of the last byte
        // (a range that ends at the message's end authenticates the final chunk).
        CHECK(f.plaintext_size() == plain.size());
        if (!plain.empty()) {
          std::uint8_t last = 0;
          CHECK(f.read_at(plain.size() - 1, std::span(&last, 1)) == 1);
          CHECK(last == plain.back());
        }
      } catch (const pcrypt::Error&) {
        ok = false;
      }
      CHECK(ok == v.valid);
      if (v.valid) CHECK(sha512(plain) == v.msg_sha512);
    }
  }
}

TEST_CASE(
    "ValidFinalChunk vectors: authenticating the length succeeds exactly where the final chunk is valid") {
  // Of the invalid vectors, those flagged ValidFinalChunk have an authentic final chunk at the right index;
  // every other invalid one with a complete header must fail the check of the length (its final chunk).
  for (const auto& file : kFiles) {
    for (const Vector& v : read_vectors(file.file, file.algorithm)) {
      if (v.valid || v.ct.size() < cobblestone::kMinFileBytes) continue;
      const bool valid_final = std::find(v.flags.begin(), v.flags.end(), "ValidFinalChunk") != v.flags.end();
      const bool header_failure = std::find(v.flags.begin(), v.flags.end(), "HeaderFailure") != v.flags.end();
      if (header_failure) continue;
      INFO(file.algorithm << " tcId " << v.id << " (" << v.comment << ")");
      pcrypt::io::MemoryReader in(v.ct, pcrypt::io::MemoryAccess::positional);
      door::EncryptedFile f(in, file.format);
      f.unlock(one(raw_key(v.key, v.context)), {});
      const auto payload = v.ct.size() - cobblestone::kHeaderBytes;
      const auto plain = cobblestone::payload_layout().plaintext_bytes(payload);
      if (!plain) {
        CHECK_FALSE(valid_final);  // no final chunk to be valid
        continue;
      }
      // The spec's length check: only the final record is read and opened (core::authenticated_size).
      bool ok = true;
      try {
        const pcrypt::core::AuthenticatedSize size = pcrypt::core::authenticated_size(in, f.payload());
        CHECK(size.plaintext_bytes == *plain);
      } catch (const Error& e) {
        ok = false;
        CHECK(e.kind() == ErrorKind::payload);
      }
      CHECK(ok == valid_final);
    }
  }
}

namespace {

Bytes encrypt_with(Format format, const Bytes& plain, const Bytes& key, const Bytes& context,
                   unsigned threads = 2) {
  pcrypt::io::MemoryReader in(plain);
  pcrypt::io::MemoryWriter out;
  door::EncryptSettings settings;
  settings.file.format = format;
  door::encrypt(in, out, one(raw_key(key, context)), settings, door::RunOptions{threads, {}});
  REQUIRE(out.committed());
  return out.data();
}

// The spec's ciphertext length for a message of n bytes: 56 + n + 16 per chunk, floor(n / 16 KiB) + 1 chunks.
std::uint64_t expected_size(std::uint64_t n) {
  return 56 + n + 16 * (n / 16384 + 1);
}

}  // namespace

TEST_CASE("round trips at every size around the 16 KiB edges; one correct chunking per length") {
  const Bytes key128 = pcrypt::test::random_bytes(16), key256 = pcrypt::test::random_bytes(32);
  std::vector<std::size_t> sizes = {0, 1, 15, 16, 17, 4095, 4096};
  for (std::size_t k : {1, 2, 3, 7, 64})
    for (long d : {-17, -16, -1, 0, 1, 15, 16, 17}) sizes.push_back(k * 16384 + static_cast<std::size_t>(d));
  sizes.push_back((std::size_t{3} << 20) + 5);
  for (const auto& file : kFiles) {
    const Bytes& key = file.instantiation->key_bytes == 16 ? key128 : key256;
    for (const std::size_t n : sizes) {
      INFO(file.algorithm << ", " << n << " bytes");
      const Bytes plain = pcrypt::test::random_bytes(n), context = pcrypt::test::random_bytes(n % 7);
      const Bytes ct = encrypt_with(file.format, plain, key, context, 1 + n % 3);
      CHECK(ct.size() == expected_size(n));
      const Outcome o = open_and_decrypt(file.format, ct, one(raw_key(key, context)));
      REQUIRE(o.plaintext);
      CHECK(*o.plaintext == plain);
    }
  }
}

TEST_CASE("truncation at every chunk boundary and inside chunks; trailing bytes; damage; wrong key/context") {
  const Bytes key = pcrypt::test::random_bytes(16), context = {'a', 'p', 'p'};
  const std::size_t n = 4 * 16384 + 100;  // 5 chunks, the last of 100 bytes
  const Bytes plain = pcrypt::test::random_bytes(n);
  const Bytes ct = encrypt_with(Format::cobblestone_128, plain, key, context);
  REQUIRE(ct.size() == expected_size(n));
  const std::vector<Credential> right = one(raw_key(key, context));

  SECTION("cut at every chunk boundary (56 + k * 16400: always truncated) and around it") {
    for (std::size_t k = 0; k <= 5; ++k) {
      for (long d : {-17, -16, -1, 0, 1, 15, 16}) {
        const long cut = 56 + static_cast<long>(k) * 16400 + d;
        if (cut < 0 || static_cast<std::size_t>(cut) >= ct.size()) continue;
        INFO("cut at " << cut);
        const Outcome o =
            open_and_decrypt(Format::cobblestone_128, Bytes(ct.begin(), ct.begin() + cut), right);
        REQUIRE(o.error);
        CHECK(o.code == (cut < 56                  ? PCRYPT_E_TRUNCATED_HEADER
                         : (cut - 56) % 16400 < 16 ? PCRYPT_E_TRUNCATED
                                                   : PCRYPT_E_DAMAGED_RECORD));
        if (cut >= 56) CHECK(o.record == static_cast<std::uint64_t>(cut - 56) / 16400);
      }
    }
  }
  SECTION("trailing bytes, one to a whole record") {
    for (std::size_t extra : {std::size_t{1}, std::size_t{16}, std::size_t{17}, std::size_t{16400}}) {
      Bytes longer = ct;
      longer.resize(ct.size() + extra, 0x42);
      const Outcome o = open_and_decrypt(Format::cobblestone_128, longer, right);
      REQUIRE(o.error);
      CHECK(o.code == PCRYPT_E_DAMAGED_RECORD);
      CHECK(o.record == 4u);  // the final chunk, read as a middle one, fails its authentication
    }
  }
  SECTION("a flipped bit in every chunk (payload) and in the salt and commitment (header)") {
    for (std::size_t at : {std::size_t{0}, std::size_t{23}, std::size_t{24}, std::size_t{55}, std::size_t{56},
                           std::size_t{56 + 16399}, std::size_t{56 + 16400}, std::size_t{56 + 3 * 16400 + 7},
                           ct.size() - 17, ct.size() - 1}) {
      Bytes bad = ct;
      bad[at] ^= 0x10;
      INFO("byte " << at);
      const Outcome o = open_and_decrypt(Format::cobblestone_128, bad, right);
      REQUIRE(o.error);
      CHECK(o.code == (at < 56 ? PCRYPT_E_COMMITMENT_MISMATCH : PCRYPT_E_DAMAGED_RECORD));
      if (at >= 56) CHECK(o.record == (at - 56) / 16400);
    }
  }
  SECTION("wrong key, wrong context, the other instantiation: the commitment refuses them") {
    Bytes other_key = key;
    other_key[0] ^= 1;
    for (const Bytes& given_context : {context, Bytes{'a', 'p'}, Bytes{}}) {
      // The right context with the wrong key; the right key with a wrong context.
      const Bytes& given_key = given_context == context ? other_key : key;
      const Outcome o = open_and_decrypt(Format::cobblestone_128, ct, one(raw_key(given_key, given_context)));
      REQUIRE(o.error);
      CHECK(o.code == PCRYPT_E_COMMITMENT_MISMATCH);
      CHECK(*o.error == ErrorKind::header);
      CHECK_THAT(o.message, Catch::Contains("commitment"));
    }
    Bytes key32(32, 0);
    std::memcpy(key32.data(), key.data(), 16);
    const Outcome o = open_and_decrypt(Format::cobblestone_256, ct, one(raw_key(key32, context)));
    REQUIRE(o.error);
    CHECK(o.code == PCRYPT_E_COMMITMENT_MISMATCH);
  }
  SECTION("credentials the format has not: refused before anything is read") {
    Credential pass{Credential::Kind::passphrase, pcrypt::SecretBytes(std::span<const std::uint8_t>(key))};
    std::vector<Credential> creds;
    creds.push_back(std::move(pass));
    const Outcome o = open_and_decrypt(Format::cobblestone_128, ct, creds);
    REQUIRE(o.error);
    CHECK(o.code == PCRYPT_E_CREDENTIAL_MIX);
    CHECK_THAT(o.message, Catch::Contains("no recipients, passphrases"));
  }
  SECTION("ranges: each read authenticates its records; one reaching the end, the final chunk") {
    pcrypt::io::MemoryReader in(ct, pcrypt::io::MemoryAccess::positional);
    door::EncryptedFile f(in, Format::cobblestone_128);
    f.unlock(right, {});
    for (const auto& [offset, length] : std::vector<std::pair<std::uint64_t, std::optional<std::uint64_t>>>{
             {0, 1}, {16383, 2}, {16384, 16384}, {5, std::nullopt}, {n - 1, std::nullopt}, {n - 100, 100}}) {
      pcrypt::io::MemoryWriter out;
      f.read_range(pcrypt::core::ByteRange{offset, length}, out, {});
      const std::size_t end = length ? std::min<std::size_t>(n, offset + *length) : n;
      CHECK(out.data() ==
            Bytes(plain.begin() + static_cast<long>(offset), plain.begin() + static_cast<long>(end)));
    }
    // The final chunk damaged: a range inside chunk 0 still reads, one that reaches the end does not.
    Bytes bad = ct;
    bad[ct.size() - 1] ^= 1;
    pcrypt::io::MemoryReader bad_in(bad, pcrypt::io::MemoryAccess::positional);
    door::EncryptedFile g(bad_in, Format::cobblestone_128);
    g.unlock(right, {});
    pcrypt::io::MemoryWriter first;
    g.read_range(pcrypt::core::ByteRange{0, 10}, first, {});
    CHECK(first.data() == Bytes(plain.begin(), plain.begin() + 10));
    pcrypt::io::MemoryWriter to_end;
    CHECK_THROWS_AS(g.read_range(pcrypt::core::ByteRange{0, n}, to_end, {}), Error);
  }
}

TEST_CASE("the spec's length rules: valid ciphertext lengths, the 2^38 chunk limit") {
  const pcrypt::core::PayloadLayout layout = cobblestone::payload_layout();
  CHECK(layout.record_count(16) == 1);  // the empty message: one empty chunk
  CHECK(layout.plaintext_bytes(16) == 0);
  CHECK_FALSE(layout.record_count(0));          // no chunk at all
  CHECK_FALSE(layout.record_count(15));         // shorter than a tag
  CHECK_FALSE(layout.record_count(16400));      // 56 + 1 * (16 KiB + 16): truncated
  CHECK_FALSE(layout.record_count(2 * 16400));  // and every multiple
  CHECK_FALSE(layout.record_count(16400 + 15));
  CHECK(layout.record_count(16400 + 16) == 2);  // 16 KiB then an empty final chunk
  CHECK(layout.plaintext_bytes(16400 + 16) == 16384);
  // At most 2^38 chunks: 2^38 - 1 full ones and a short final one is the longest message.
  const std::uint64_t full = (std::uint64_t{1} << 38) - 1;
  CHECK(layout.record_count(full * 16400 + 16) == std::uint64_t{1} << 38);
  CHECK_FALSE(layout.record_count((full + 1) * 16400 + 16));
  // The nonce counter refuses chunk 2^38 before any AEAD call.
  const Bytes key(16, 7);
  const cobblestone::NewMessage m =
      cobblestone::new_message(cobblestone::kCobblestone128, key, {}, pcrypt::aes::best_engine());
  std::uint8_t buf[32] = {};
  CHECK_THROWS_AS(m.payload.cipher.seal(std::uint64_t{1} << 38, true, buf, 0), Error);
  CHECK_NOTHROW(m.payload.cipher.seal((std::uint64_t{1} << 38) - 1, true, buf, 0));
}
