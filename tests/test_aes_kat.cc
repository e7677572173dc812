// Known answers for every AES engine this CPU supports: Wycheproof AES-GCM, NIST SP 800-38A CTR-AES256 and
// the FIPS-197 Appendix C single blocks.
#include <catch2/catch.hpp>

#include <cstring>

#include "tests/aes_vectors.h"

using aes_test::Bytes;
using aes_test::from_hex;
using aes_test::ptr;
using aes_test::to_hex;

TEST_CASE("Wycheproof AES-256-GCM (96-bit IV) known answers, valid and invalid") {
  const aes_test::GcmVectors vectors = aes_test::read_wycheproof_gcm("wycheproof_aes_gcm_test.json");
  REQUIRE(vectors.total == 316);
  // The subset the Gcm interface accepts; the README of tests/vectors/aes explains the count.
  REQUIRE(vectors.usable.size() == 66);
  for (const pcrypt::aes::Engine* e : aes_test::engines_under_test(false)) {
    std::size_t valid = 0, invalid = 0;
    for (const aes_test::GcmVector& v : vectors.usable) {
      INFO("engine " << e->name << ", tcId " << v.id << " (" << v.comment << ")");
      REQUIRE(v.key.size() == 32);
      REQUIRE(v.iv.size() == 12);
      REQUIRE(v.tag.size() == 16);
      auto gcm = aes_test::make_gcm(*e, v.key);
      if (v.valid) {
        ++valid;
        Bytes ct(v.msg.size()), tag(16);
        gcm->seal(ptr(ct), ptr(tag), ptr(v.msg), v.msg.size(), ptr(v.aad), v.aad.size(), ptr(v.iv));
        CHECK(to_hex(ct) == to_hex(v.ct));
        CHECK(to_hex(tag) == to_hex(v.tag));
      } else {
        ++invalid;
      }
      Bytes pt(v.ct.size(), 0xa5);
      const bool ok =
          gcm->open(ptr(pt), ptr(v.ct), v.ct.size(), ptr(v.tag), ptr(v.aad), v.aad.size(), v.iv.data());
      CHECK(ok == v.valid);
      if (ok) CHECK(to_hex(pt) == to_hex(v.msg));
      if (!ok) CHECK(pt == Bytes(v.ct.size(), 0));  // nothing released from a chunk that failed
    }
    CHECK(valid == 39);
    CHECK(invalid == 27);
  }
}

TEST_CASE("Wycheproof AES-128-GCM (96-bit IV) known answers, valid and invalid, every engine that has it") {
  const aes_test::GcmVectors vectors = aes_test::read_wycheproof_gcm("wycheproof_aes_gcm_test.json", 128);
  REQUIRE(vectors.total == 316);
  REQUIRE(vectors.usable.size() == 67);
  const auto engines = aes_test::gcm128_engines_under_test();
  REQUIRE(engines.size() >= 2);  // at least portable and one hardware engine on x86-64 and ARM64 alike
  for (const pcrypt::aes::Engine* e : engines) {
    std::size_t valid = 0, invalid = 0;
    for (const aes_test::GcmVector& v : vectors.usable) {
      INFO("engine " << e->name << ", tcId " << v.id << " (" << v.comment << ")");
      REQUIRE(v.key.size() == 16);
      REQUIRE(v.iv.size() == 12);
      auto gcm = aes_test::make_gcm(*e, v.key);
      if (v.valid) {
        ++valid;
        Bytes ct(v.msg.size()), tag(16);
        gcm->seal(ptr(ct), ptr(tag), ptr(v.msg), v.msg.size(), ptr(v.aad), v.aad.size(), ptr(v.iv));
        CHECK(to_hex(ct) == to_hex(v.ct));
        CHECK(to_hex(tag) == to_hex(v.tag));
      } else {
        ++invalid;
      }
      Bytes pt(v.ct.size(), 0xa5);
      const bool ok =
          gcm->open(ptr(pt), ptr(v.ct), v.ct.size(), ptr(v.tag), ptr(v.aad), v.aad.size(), v.iv.data());
      CHECK(ok == v.valid);
      if (ok) CHECK(to_hex(pt) == to_hex(v.msg));
      if (!ok) CHECK(pt == Bytes(v.ct.size(), 0));
    }
    CHECK(valid == 40);
    CHECK(invalid == 27);
  }
}

TEST_CASE("AES-GCM keys: 16 or 32 bytes; sodium refuses AES-128-GCM by name, saying why") {
  for (const pcrypt::aes::Engine& e : pcrypt::aes::all_engines()) {
    if (!e.supported()) continue;
    INFO("engine " << e.name);
    CHECK_THROWS_AS(pcrypt::aes::make_gcm_any(e, Bytes(24, 1)), std::invalid_argument);
    CHECK_THROWS_AS(pcrypt::aes::make_gcm_any(e, Bytes(15, 1)), std::invalid_argument);
    if (e.name == "sodium") {
      CHECK(e.make_gcm128 == nullptr);
      CHECK_THROWS_WITH(pcrypt::aes::make_gcm_any(e, Bytes(16, 1)), Catch::Contains("has no AES-128-GCM"));
    } else {
      CHECK(pcrypt::aes::make_gcm_any(e, Bytes(16, 1)) != nullptr);
    }
  }
}

TEST_CASE("SP 800-38A F.5.5/F.5.6 CTR-AES256 known answers") {
  const auto sections = aes_test::read_sp800_38a("ctr-aes256-sp800-38a.txt");
  REQUIRE(sections.size() == 2);
  const auto& enc = sections.at("F.5.5 CTR-AES256.Encrypt");
  const auto& dec = sections.at("F.5.6 CTR-AES256.Decrypt");
  const Bytes key = enc.at("Key");
  REQUIRE(key.size() == 32);
  REQUIRE(enc.at("Plaintext").size() == 64);
  REQUIRE(enc.at("Output Block").size() == 64);
  for (const pcrypt::aes::Engine* e : aes_test::engines_under_test(true)) {
    INFO("engine " << e->name);
    auto aes = e->make_block_cipher(key);

    // Input blocks are the counters themselves: ECB of them must give the output blocks.
    Bytes out(64);
    aes->encrypt_blocks(out.data(), enc.at("Input Block").data(), 4);
    CHECK(to_hex(out) == to_hex(enc.at("Output Block")));

    Bytes counter = enc.at("Init. Counter");
    aes->ctr_xor(out.data(), enc.at("Plaintext").data(), 64, counter.data());
    CHECK(to_hex(out) == to_hex(enc.at("Ciphertext")));
    // Left pointing at the next unused block: the last input block + 1.
    CHECK(to_hex(counter) == "f0f1f2f3f4f5f6f7f8f9fafbfcfdff03");

    counter = dec.at("Init. Counter");
    Bytes inplace = dec.at("Ciphertext");
    aes->ctr_xor(inplace.data(), inplace.data(), 64, counter.data());
    CHECK(to_hex(inplace) == to_hex(dec.at("Plaintext")));

    counter = enc.at("Init. Counter");
    aes->ctr_keystream(out.data(), 64, counter.data());
    CHECK(to_hex(out) == to_hex(enc.at("Output Block")));

    // A partial final block consumes a whole counter value.
    counter = enc.at("Init. Counter");
    Bytes part(17);
    aes->ctr_xor(part.data(), enc.at("Plaintext").data(), 17, counter.data());
    CHECK(to_hex(part) == to_hex(enc.at("Ciphertext")).substr(0, 34));
    CHECK(to_hex(counter) == "f0f1f2f3f4f5f6f7f8f9fafbfcfdff01");
  }
}

TEST_CASE("FIPS-197 Appendix C single-block known answers, AES-128/192/256, both directions") {
  // FIPS-197 (2001) Appendix C.1-C.3: key 000102..., plaintext 00112233445566778899aabbccddeeff.
  struct Case {
    const char* key;
    const char* ciphertext;
  };
  const Case cases[] = {
      {"000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"},
      {"000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"},
      {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
       "8ea2b7ca516745bfeafc49904b496089"},
  };
  const Bytes plain = from_hex("00112233445566778899aabbccddeeff");
  for (const pcrypt::aes::Engine* e : aes_test::engines_under_test(true)) {
    for (const Case& c : cases) {
      const Bytes key = from_hex(c.key);
      INFO("engine " << e->name << ", AES-" << key.size() * 8);
      auto aes = e->make_block_cipher(key);
      Bytes out(16), back(16);
      aes->encrypt_blocks(out.data(), plain.data(), 1);
      CHECK(to_hex(out) == c.ciphertext);
      aes->decrypt_blocks(back.data(), out.data(), 1);
      CHECK(to_hex(back) == to_hex(plain));
      // Many copies at once take the multi-block paths; they must give the same answer per block.
      Bytes many(16 * 19), many_out(16 * 19);
      for (std::size_t i = 0; i < 19; ++i) std::memcpy(many.data() + 16 * i, plain.data(), 16);
      aes->encrypt_blocks(many_out.data(), many.data(), 19);
      for (std::size_t i = 0; i < 19; ++i) CHECK(to_hex(many_out.data() + 16 * i, 16) == c.ciphertext);
      aes->decrypt_blocks(many_out.data(), many_out.data(), 19);
      CHECK(many_out == many);
    }
  }
}

TEST_CASE("block ciphers refuse keys that are not 16, 24 or 32 bytes") {
  for (const pcrypt::aes::Engine* e : aes_test::engines_under_test(true)) {
    INFO("engine " << e->name);
    const Bytes bad(20, 1);
    CHECK_THROWS(e->make_block_cipher(bad));
  }
}
