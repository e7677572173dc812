// MLKEM768-X25519 (X-Wing) and HPKE SealBase/OpenBase as age 1.3 uses them (core/pq/xwing, core/pq/hpke):
// the key pair printed in the age specification, every mlkem768x25519 stanza of the C2SP CCTV age hybrid_*
// vectors opened at the HPKE layer, and round trips. Sources: tests/vectors/mlkem/README.md.
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/keys/recipient.h"
#include "core/pq/hpke.h"
#include "core/pq/xwing.h"
#include "tests/source_dir.h"
#include "tests/test_bytes.h"

using namespace pcrypt;
using pcrypt::test::Bytes;
using pcrypt::test::from_hex;

namespace {

constexpr std::string_view age_info = "age-encryption.org/mlkem768x25519";

std::span<const std::uint8_t> bytes(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

std::vector<std::pair<std::string, std::string>> read_pairs(const std::string& name) {
  std::ifstream in(std::string(pcrypt::test::source_dir()) + "/tests/vectors/mlkem/" + name);
  REQUIRE(in.good());
  std::vector<std::pair<std::string, std::string>> out;
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find(" = ");
    if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
    out.emplace_back(line.substr(0, eq), line.substr(eq + 3));
  }
  return out;
}

core::Identity only_identity(const std::string& text) {
  auto ids = core::parse_identity_file(text, "test");
  REQUIRE(ids.size() == 1);
  return std::move(ids[0]);
}

// One CCTV vector at the HPKE layer: does any of its mlkem768x25519 stanzas open to the file key?
struct CctvVector {
  std::string name, expect, identity;
  Bytes file_key;
  std::vector<std::pair<Bytes, Bytes>> stanzas;  // enc, body
};

std::vector<CctvVector> cctv_vectors() {
  std::vector<CctvVector> out;
  Bytes enc;
  for (const auto& [k, v] : read_pairs("cctv_age_hybrid.txt")) {
    if (k == "vector")
      out.push_back({v, "", "", {}, {}});
    else if (k == "expect")
      out.back().expect = v;
    else if (k == "identity")
      out.back().identity = v;
    else if (k == "file_key")
      out.back().file_key = from_hex(v);
    else if (k == "enc")
      enc = from_hex(v);
    else if (k == "body")
      out.back().stanzas.emplace_back(enc, from_hex(v));
  }
  return out;
}

bool opens(const core::Identity& id, const Bytes& enc, const Bytes& body, const Bytes& file_key) {
  if (enc.size() != pq::xwing::ciphertext_size) return false;
  auto pt = pq::hpke::open_base(*id.hybrid, std::span<const std::uint8_t, 1120>(enc.data(), 1120),
                                bytes(age_info), {}, body);
  return pt && Bytes(pt->span().begin(), pt->span().end()) == file_key;
}

}  // namespace

TEST_CASE("hybrid: the age specification's identity gives its recipient") {
  std::string identity, recipient;
  for (const auto& [k, v] : read_pairs("age_spec_keys.txt")) (k == "identity" ? identity : recipient) = v;
  const core::Identity id = only_identity(identity + "\n");
  CHECK(id.kind == core::Identity::Kind::mlkem768_x25519);
  const auto pk = id.hybrid->public_key();
  CHECK(core::format_hybrid_recipient(pk) == recipient);
  CHECK(core::format_hybrid_identity(id.secret) == identity);
  // And the recipient string parses back to the same key (bech32 beyond 90 characters, only for age1pq1).
  const auto parsed = core::parse_recipient(recipient);
  REQUIRE(std::holds_alternative<core::HybridRecipient>(parsed));
  CHECK(std::get<core::HybridRecipient>(parsed).public_key == pk);
  CHECK(core::is_post_quantum(parsed));
}

TEST_CASE("hybrid: HPKE OpenBase on every CCTV age hybrid_* stanza") {
  int opened = 0, refused = 0;
  for (const CctvVector& v : cctv_vectors()) {
    INFO(v.name);
    if (v.name == "hybrid_uppercase" || v.name == "hybrid_identity") continue;  // identity-encoding cases
    const core::Identity id = only_identity(v.identity + "\n");
    bool any = false;
    for (const auto& [enc, body] : v.stanzas) any = any || opens(id, enc, body, v.file_key);
    // Cryptographic outcomes only: the age-level rules (argument count, canonical base64, body length) are
    // checked by the age stanza parser, so those vectors are not asserted here.
    if (v.expect == "success") {
      CHECK(any);
      ++opened;
    } else if (v.name == "hybrid_bad_tag" || v.name == "hybrid_currupted_enc_mlkem" ||
               v.name == "hybrid_currupted_enc_x25519" || v.name == "hybrid_low_order" ||
               v.name == "hybrid_no_match") {
      CHECK_FALSE(any);
      ++refused;
    }
  }
  CHECK(opened == 4);
  CHECK(refused == 5);
}

TEST_CASE("hybrid: seal and open round trip; wrong identity, tampering, bad keys") {
  const core::Identity alice = core::generate_hybrid_identity();
  const core::Identity bob = core::generate_hybrid_identity();
  const Bytes msg = test::random_bytes(32);
  const auto sealed = pq::hpke::seal_base(alice.hybrid->public_key(), bytes(age_info), {}, msg);
  REQUIRE(sealed);
  CHECK(sealed->ciphertext.size() == 48);
  auto pt = pq::hpke::open_base(*alice.hybrid, sealed->enc, bytes(age_info), {}, sealed->ciphertext);
  REQUIRE(pt);
  CHECK(Bytes(pt->span().begin(), pt->span().end()) == msg);
  CHECK_FALSE(pq::hpke::open_base(*bob.hybrid, sealed->enc, bytes(age_info), {}, sealed->ciphertext));
  CHECK_FALSE(pq::hpke::open_base(*alice.hybrid, sealed->enc, bytes("other info"), {}, sealed->ciphertext));
  for (std::size_t at : {std::size_t{0}, std::size_t{1087}, std::size_t{1088}, std::size_t{1119}}) {
    auto enc = sealed->enc;
    enc[at] ^= 1;
    CHECK_FALSE(pq::hpke::open_base(*alice.hybrid, enc, bytes(age_info), {}, sealed->ciphertext));
  }
  // A public key whose ML-KEM half fails the modulus check is refused when sealing and when parsing.
  auto bad = alice.hybrid->public_key();
  bad[0] = 0xFF;
  bad[1] |= 0x0F;
  CHECK_FALSE(pq::hpke::seal_base(bad, bytes(age_info), {}, msg));
  CHECK_THROWS_AS(core::parse_recipient(core::format_hybrid_recipient(bad)), core::Error);
  // An X25519 half that is a low-order point (zero) gives no shared secret.
  auto low = alice.hybrid->public_key();
  std::memset(low.data() + 1184, 0, 32);
  CHECK_FALSE(pq::hpke::seal_base(low, bytes(age_info), {}, msg));
}

TEST_CASE("hybrid: identity and recipient text forms") {
  const core::Identity id = core::generate_hybrid_identity();
  const std::string text = core::format_hybrid_identity(id.secret);
  CHECK(text.rfind("AGE-SECRET-KEY-PQ-1", 0) == 0);
  const core::Identity back = only_identity("# comment\r\n" + text + "\r\n");
  CHECK(back.hybrid->public_key() == id.hybrid->public_key());
  const std::string r = core::format_hybrid_recipient(id.hybrid->public_key());
  CHECK(r.size() == 1959);
  // A recipient is not an identity, an identity is not a recipient.
  CHECK_THROWS_AS(core::parse_identity_file(r + "\n", "f"), core::Error);
  CHECK_THROWS_AS(core::parse_recipient(text), core::Error);
  // One changed character breaks the checksum; truncation is refused; the long limit is only for age1pq1.
  std::string typo = r;
  typo[100] = typo[100] == 'q' ? 'p' : 'q';
  CHECK_THROWS_AS(core::parse_recipient(typo), core::Error);
  CHECK_THROWS_AS(core::parse_recipient(r.substr(0, 1900)), core::Error);
  const auto rs = core::parse_recipients_file("# team\n" + r + "\n", "list");
  CHECK(rs.size() == 1);
}
