// The record layer is format-blind (core/records.h): the same payloads, broken the same ways, give the same
// errors, word for word, over pcrypt's AES-256-GCM and age's ChaCha20-Poly1305 (every backend), both
// record by record (PayloadRecords) and through the pipeline (PayloadCodec). And ChaCha20-Poly1305
// (core/chacha/) keeps core/aead.h's contract: all its backends agree with each other and with libsodium's
// own AEAD call, in place and not, and a failed open releases nothing.
#include <sodium.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/aead.h"
#include "core/aes/engine.h"
#include "core/aes/sodium_init.h"
#include "core/chacha/chacha20poly1305.h"
#include "core/error.h"
#include "core/pipeline.h"
#include "core/records.h"
#include "io/memory_stream.h"
#include "tests/test_bytes.h"

using namespace pcrypt;
using test::Bytes;

namespace {

constexpr std::size_t kCs = 64;
constexpr std::size_t kTag = core::kChunkTagBytes;
constexpr std::size_t kRecord = kCs + kTag;
constexpr std::uint64_t kPayloadAt = 100;  // a header's worth, so that offsets in messages are the file's

struct NamedAead {
  std::string name;
  std::unique_ptr<core::Aead> aead;
};

std::vector<NamedAead> all_aeads(const Bytes& key) {
  const std::span<const std::uint8_t, 32> k(key.data(), 32);
  std::vector<NamedAead> out;
  out.push_back({"AES-256-GCM (" + std::string(aes::select_engine().name) + ")",
                 core::gcm_aead(aes::select_engine().make_gcm(k))});
  for (const auto backend : chacha::available_chacha_backends())
    out.push_back({"ChaCha20-Poly1305 (" + std::string(chacha::backend_name(backend)) + ")",
                   chacha::make_chacha20poly1305(k, backend)});
  return out;
}

// A payload of `chunks` chunks, each sealed under its index, the last flag on chunk `last_at` only (none when
// it is past the end): the good payload and most broken ones in one helper.
Bytes seal_chunks(const core::ChunkCipher& cipher, const std::vector<std::size_t>& sizes,
                  std::optional<std::uint64_t> last_at) {
  Bytes out;
  for (std::uint64_t i = 0; i < sizes.size(); ++i) {
    Bytes record = test::random_bytes(sizes[i]);
    record.resize(sizes[i] + kTag);
    cipher.seal(i, last_at && *last_at == i, record.data(), sizes[i]);
    out.insert(out.end(), record.begin(), record.end());
  }
  return out;
}

// Opens a payload record by record as a reader of a whole file does: every record full but the one that
// reaches the end. The first error's message, or "" when all open.
std::string open_records(const core::ChunkCipher& cipher, Bytes payload) {  // a copy: opened in place
  const core::PayloadRecords records(cipher, core::PayloadLayout{kCs, kPayloadAt});
  if (payload.empty()) {
    const core::OpenedRecord opened = records.open_record(0, true, payload.data(), 0);
    return opened.error ? opened.error->what() : "";
  }
  for (std::uint64_t i = 0, at = 0; at < payload.size(); ++i, at += kRecord) {
    const bool last = payload.size() - at <= kRecord;
    const std::size_t len = last ? payload.size() - at : kRecord;
    const core::OpenedRecord opened = records.open_record(i, last, payload.data() + at, len);
    if (opened.error) {
      CHECK(opened.error->kind() == core::ErrorKind::payload);
      return opened.error->what();
    }
  }
  return "";
}

// The same through the pipeline (core::PayloadCodec), on two workers.
std::string open_pipeline(const core::ChunkCipher& cipher, const Bytes& payload) {
  const core::PayloadCodec codec(core::Direction::open, cipher, core::PayloadLayout{kCs, kPayloadAt});
  io::MemoryReader in(payload);
  io::MemoryWriter out;
  core::PipelineConfig config;
  config.threads = 2;
  try {
    core::run_pipeline(codec, in, out, config);
  } catch (const core::Error& e) {
    CHECK(e.kind() == core::ErrorKind::payload);
    return e.what();
  }
  return "";
}

std::string where(std::uint64_t index) {
  return "(chunk " + std::to_string(index) + " at offset " + std::to_string(kPayloadAt + index * kRecord) +
         ")";
}

}  // namespace

TEST_CASE("the record rules give the same errors over AES-256-GCM and ChaCha20-Poly1305") {
  require_sodium();
  const Bytes key = test::random_bytes(32);
  struct Case {
    std::string what;
    std::string expected;  // the message, the same for every AEAD; "" = opens
    Bytes (*make)(const core::ChunkCipher&);
  };
  const std::vector<Case> cases = {
      {"a good payload", "",
       [](const core::ChunkCipher& c) {
         return seal_chunks(c, {kCs, kCs, 10}, 2);
       }},
      {"a good payload whose final chunk is full", "",
       [](const core::ChunkCipher& c) {
         return seal_chunks(c, {kCs, kCs}, 1);
       }},
      {"the empty payload of an empty file", "",
       [](const core::ChunkCipher& c) { return seal_chunks(c, {0}, 0); }},
      {"no payload at all", "truncated payload: the payload is empty (even an empty file has a chunk)",
       [](const core::ChunkCipher&) { return Bytes{}; }},
      {"a final record shorter than its tag",
       "truncated payload: the final record " + where(2) + " is 10 bytes, shorter than its 16-byte tag",
       [](const core::ChunkCipher& c) {
         Bytes p = seal_chunks(c, {kCs, kCs, 10}, 2);
         p.resize(2 * kRecord + 10);
         return p;
       }},
      {"a missing final chunk (cut at a chunk boundary)",
       "truncated payload: input ends after chunk 1, at a chunk boundary; the final chunk is missing",
       [](const core::ChunkCipher& c) {
         Bytes p = seal_chunks(c, {kCs, kCs, 10}, 2);
         p.resize(2 * kRecord);  // records 0 and 1, both sealed not-last
         return p;
       }},
      {"trailing data after the final chunk", "payload authentication failed " + where(1),
       [](const core::ChunkCipher& c) {
         Bytes p = seal_chunks(c, {kCs, kCs}, 1);
         p.push_back(0x42);  // record 1, sealed last, is now followed by more: opened as not-last, it fails
         return p;
       }},
      {"an empty final chunk with index > 0",
       "truncated payload: the final record " + where(2) +
           " holds a tag but no data (only chunk 0 may be empty)",
       [](const core::ChunkCipher& c) {
         return seal_chunks(c, {kCs, kCs, 0}, 2);
       }},
      {"a modified record", "payload authentication failed " + where(1),
       [](const core::ChunkCipher& c) {
         Bytes p = seal_chunks(c, {kCs, kCs, 10}, 2);
         p[kRecord + 3] ^= 1;
         return p;
       }},
      {"two records swapped", "payload authentication failed " + where(0),
       [](const core::ChunkCipher& c) {
         Bytes p = seal_chunks(c, {kCs, kCs, 10}, 2);
         const auto record = static_cast<std::ptrdiff_t>(kRecord);
         std::swap_ranges(p.begin(), p.begin() + record, p.begin() + record);
         return p;
       }},
  };
  for (const Case& c : cases) {
    for (NamedAead& a : all_aeads(key)) {
      INFO(c.what << " over " << a.name);
      const core::ChunkCipher cipher(std::move(a.aead));
      const Bytes payload = c.make(cipher);
      CHECK(open_records(cipher, payload) == c.expected);
      CHECK(open_pipeline(cipher, payload) == c.expected);
    }
  }
}

TEST_CASE("the chunk counter overflow is refused over either AEAD") {
  const Bytes key = test::random_bytes(32);
  for (NamedAead& a : all_aeads(key)) {
    INFO(a.name);
    const core::ChunkCipher cipher(std::move(a.aead));
    Bytes buf(16 + kTag);
    try {
      cipher.seal(UINT64_MAX, true, buf.data(), 16);
      FAIL("no error");
    } catch (const core::Error& e) {
      CHECK(e.kind() == core::ErrorKind::payload);
      CHECK(std::string(e.what()) == "chunk counter overflow (chunk 18446744073709551615)");
    }
    cipher.seal(UINT64_MAX - 1, true, buf.data(), 16);
    CHECK(cipher.open(UINT64_MAX - 1, true, buf.data(), 16));
  }
}

TEST_CASE("ChaCha20-Poly1305's two libraries agree with libsodium's AEAD, in place and not") {
  require_sodium();
  const Bytes key = test::random_bytes(32);
  const Bytes nonce = test::random_bytes(core::kAeadNonceBytes);
  const std::span<const std::uint8_t, core::kAeadNonceBytes> n(nonce.data(), core::kAeadNonceBytes);
  for (const std::size_t len : {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{64},
                                std::size_t{1000}, std::size_t{64 * 1024}}) {
    const Bytes plain = test::random_bytes(len);
    // The reference: libsodium's combined call, ciphertext || tag, no associated data.
    Bytes reference(len + kTag);
    unsigned long long reference_len = 0;
    crypto_aead_chacha20poly1305_ietf_encrypt(reference.data(), &reference_len, plain.data(), len, nullptr, 0,
                                              nullptr, nonce.data(), key.data());
    REQUIRE(reference_len == len + kTag);
    for (const auto backend : chacha::available_chacha_backends()) {
      INFO(chacha::backend_name(backend) << ", " << len << " bytes");
      const auto aead =
          chacha::make_chacha20poly1305(std::span<const std::uint8_t, 32>(key.data(), 32), backend);
      Bytes sealed(len + kTag);
      aead->seal(sealed.data(), sealed.data() + len, plain.data(), len, n);
      CHECK(sealed == reference);
      Bytes in_place = plain;
      in_place.resize(len + kTag);
      aead->seal(in_place.data(), in_place.data() + len, in_place.data(), len, n);
      CHECK(in_place == reference);
      Bytes opened(len);
      REQUIRE(aead->open(opened.data(), sealed.data(), len, sealed.data() + len, n));
      CHECK(opened == plain);
      REQUIRE(aead->open(in_place.data(), in_place.data(), len, in_place.data() + len, n));
      CHECK(Bytes(in_place.begin(), in_place.begin() + static_cast<std::ptrdiff_t>(len)) == plain);
      // A wrong tag: false, and the output zeroed, in place too.
      sealed[len] ^= 0x80;
      Bytes garbage(len, 0xAA);
      CHECK_FALSE(aead->open(garbage.data(), sealed.data(), len, sealed.data() + len, n));
      CHECK(garbage == Bytes(len, 0));
      CHECK_FALSE(aead->open(sealed.data(), sealed.data(), len, sealed.data() + len, n));
      CHECK(Bytes(sealed.begin(), sealed.begin() + static_cast<std::ptrdiff_t>(len)) == Bytes(len, 0));
    }
  }
}

TEST_CASE("ChaCha20-Poly1305 matches RFC 8439 section 2.8.2, sealed without associated data") {
  // RFC 8439 §2.8.2's key, nonce and plaintext. Its AAD is not part of core/aead.h's contract: the ciphertext
  // is §2.8.2's (ChaCha20 does not depend on the AAD); the tag without AAD is pyca/cryptography's.
  const Bytes key = test::from_hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f");
  const Bytes nonce = test::from_hex("070000004041424344454647");
  const std::string text =
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen "
      "would be it.";
  const Bytes expected_ct = test::from_hex(
      "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de"
      "0a"
      "9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a"
      "9d"
      "e576d26586cec64b6116");
  const Bytes expected_tag = test::from_hex("6a23a4681fd59456aea1d29f82477216");
  for (const auto backend : chacha::available_chacha_backends()) {
    INFO(chacha::backend_name(backend));
    const auto aead =
        chacha::make_chacha20poly1305(std::span<const std::uint8_t, 32>(key.data(), 32), backend);
    Bytes buf(text.begin(), text.end());
    buf.resize(text.size() + kTag);
    aead->seal(buf.data(), buf.data() + text.size(), buf.data(), text.size(),
               std::span<const std::uint8_t, 12>(nonce.data(), 12));
    CHECK(Bytes(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(text.size())) == expected_ct);
    CHECK(Bytes(buf.begin() + static_cast<std::ptrdiff_t>(text.size()), buf.end()) == expected_tag);
  }
}
