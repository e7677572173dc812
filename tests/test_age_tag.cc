// age tag recipients (docs/FORMAT.md §11.3, c2sp.org/age p256tag / mlkem768p256tag): parsing and printing
// age1tag1… / age1tagpq1…, the refusal of damaged keys, the stanza shape and its tag recomputed here from
// the specification. That typage opens the stanzas is tests/cli/test_age_tag.sh.
#include <catch2/catch.hpp>

#include <sodium.h>

#include <fstream>
#include <string>

#include "core/age/base64.h"
#include "core/age/stanzas.h"
#include "core/error.h"
#include "core/keys/bech32.h"
#include "core/keys/recipient.h"
#include "tests/source_dir.h"

using namespace pcrypt;
namespace age = core::age;

namespace {

std::string seed(const std::string& name) {
  std::ifstream in(std::string(pcrypt::test::source_dir()) + "/tests/vectors/recipients/seeds/" + name);
  std::string line;
  std::getline(in, line);
  REQUIRE_FALSE(line.empty());
  return line;
}

std::vector<std::uint8_t> key_of(const std::string& text) {
  return core::bech32::from_words(core::bech32::decode(text, core::bech32::long_max_length).words);
}

std::string with_key(const std::string& hrp, const std::vector<std::uint8_t>& key) {
  return core::bech32::encode(hrp, core::bech32::to_words(key));
}

// HKDF-Extract-SHA-256(ikm = enc || SHA-256(k)[:4], salt = label)[:4], computed independently of stanzas.cc.
std::vector<std::uint8_t> expected_tag(const std::vector<std::uint8_t>& enc, std::span<const std::uint8_t> k,
                                       const std::string& label) {
  std::uint8_t h[32], prk[32];
  crypto_hash_sha256(h, k.data(), k.size());
  std::vector<std::uint8_t> ikm = enc;
  ikm.insert(ikm.end(), h, h + 4);
  crypto_auth_hmacsha256_state st;
  crypto_auth_hmacsha256_init(&st, reinterpret_cast<const std::uint8_t*>(label.data()), label.size());
  crypto_auth_hmacsha256_update(&st, ikm.data(), ikm.size());
  crypto_auth_hmacsha256_final(&st, prk);
  return {prk, prk + 4};
}

age::Stanza wrap_one(const core::Recipient& r) {
  std::vector<core::Credential> to;
  to.push_back(core::Credential::of(r));
  const auto stanzas = age::wrap_file_key(age::new_file_key(), to, age::kDefaultScryptLog2);
  REQUIRE(stanzas.size() == 1);
  return stanzas[0];
}

}  // namespace

TEST_CASE("age1tag1: parses to the point, prints back, makes a p256tag stanza with the spec's tag") {
  const std::string text = seed("age_tag_recipient.txt");
  const core::Recipient r = core::parse_recipient(text);
  const auto* tag = std::get_if<core::TagRecipient>(&r);
  REQUIRE(tag != nullptr);
  CHECK(core::format_tag_recipient(*tag) == text);
  CHECK(tag->point[0] == 0x04);
  CHECK_FALSE(core::is_post_quantum(r));
  CHECK(core::is_tag_recipient(r));

  const age::Stanza s = wrap_one(r);
  REQUIRE(s.args.size() == 3);
  CHECK(s.args[0] == "p256tag");
  const auto t = age::decode_base64_raw(s.args[1]);
  const auto enc = age::decode_base64_raw(s.args[2]);
  REQUIRE(t);
  REQUIRE(enc);
  CHECK(t->size() == 4);
  REQUIRE(enc->size() == 65);
  CHECK((*enc)[0] == 0x04);
  CHECK(s.body.size() == 32);
  CHECK(*t == expected_tag(*enc, tag->compressed, "age-encryption.org/p256tag"));
  // The tag is of this recipient: another key's hash gives another tag.
  auto other = tag->compressed;
  other[5] ^= 1;
  CHECK(*t != expected_tag(*enc, other, "age-encryption.org/p256tag"));
}

TEST_CASE("age1tagpq1: parses, prints back, makes an mlkem768p256tag stanza tagged by its P-256 half") {
  const std::string text = seed("age_tagpq_recipient.txt");
  const core::Recipient r = core::parse_recipient(text);
  const auto* tag = std::get_if<core::HybridTagRecipient>(&r);
  REQUIRE(tag != nullptr);
  CHECK(core::format_tag_recipient(*tag) == text);
  CHECK(core::is_post_quantum(r));

  const age::Stanza s = wrap_one(r);
  REQUIRE(s.args.size() == 3);
  CHECK(s.args[0] == "mlkem768p256tag");
  const auto t = age::decode_base64_raw(s.args[1]);
  const auto enc = age::decode_base64_raw(s.args[2]);
  REQUIRE(t);
  REQUIRE(enc);
  REQUIRE(enc->size() == 1153);
  CHECK((*enc)[1088] == 0x04);  // ct_T, the ephemeral P-256 key, uncompressed
  CHECK(s.body.size() == 32);
  CHECK(*t ==
        expected_tag(*enc, std::span(tag->public_key).subspan(1184), "age-encryption.org/mlkem768p256tag"));
}

TEST_CASE("damaged tag recipients are refused") {
  const auto key = key_of(seed("age_tag_recipient.txt"));
  REQUIRE(key.size() == 33);
  // x = 1 has no y on P-256. Built whole: GCC 12 at -O3 misreports a write to the copied key's last byte.
  std::vector<std::uint8_t> off_curve(33, 0);
  off_curve[0] = key[0];
  off_curve[32] = 1;
  auto bad_prefix = key;
  bad_prefix[0] = 0x05;
  const std::vector<std::uint8_t> short_key(key.begin(), key.end() - 1);
  for (const auto& k : {off_curve, bad_prefix, short_key})
    CHECK_THROWS_AS(core::parse_recipient(with_key("age1tag", k)), core::Error);

  const auto pq = key_of(seed("age_tagpq_recipient.txt"));
  REQUIRE(pq.size() == 1249);
  auto big_coefficient = pq;  // first coefficient := 4095 >= q (FIPS 203 modulus check)
  big_coefficient[0] = 0xFF;
  big_coefficient[1] |= 0x0F;
  auto bad_point = pq;  // the P-256 half off the curve
  bad_point[1249 - 1] ^= 1;
  auto compressed_half = pq;  // the half must be uncompressed (0x04)
  compressed_half[1184] = 0x02;
  for (const auto& k : {big_coefficient, bad_point, compressed_half})
    CHECK_THROWS_AS(core::parse_recipient(with_key("age1tagpq", k)), core::Error);
}
