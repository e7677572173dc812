// The age mlkem768x25519 stanza at the core/age/stanzas.h level (the CCTV hybrid_* files run in
// test_age_cctv.cc): its shape, round trips, several recipients, the refusal to mix post-quantum and
// classical recipients, and what a bad stanza gives (a header error, or "not for this identity").
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/age/base64.h"
#include "core/age/stanzas.h"
#include "core/error.h"
#include "core/keys/recipient.h"
#include "core/pq/hpke.h"

using namespace pcrypt;
using core::Credential;
using core::Error;
using core::ErrorKind;
namespace age = core::age;

namespace {

Credential to_recipient(const core::Identity& id) {
  return Credential::of(core::recipient_of(id));
}

age::Header header_of(std::vector<age::Stanza> stanzas) {
  age::Header h;
  h.stanzas = std::move(stanzas);
  return h;
}

std::vector<Credential> identities(std::initializer_list<const core::Identity*> ids) {
  std::vector<Credential> out;
  for (const core::Identity* id : ids)
    out.push_back(Credential::of(core::hybrid_identity_from_seed(id->secret)));
  return out;
}

}  // namespace

TEST_CASE("age mlkem768x25519: stanza shape and round trip", "[age][pq]") {
  const core::Identity alice = core::generate_hybrid_identity();
  const core::Identity bob = core::generate_hybrid_identity();
  const SecretBytes file_key = age::new_file_key();
  std::vector<Credential> to;
  to.push_back(to_recipient(alice));
  to.push_back(to_recipient(bob));
  const auto stanzas = age::wrap_file_key(file_key, to, age::kDefaultScryptLog2);
  REQUIRE(stanzas.size() == 2);
  for (const age::Stanza& s : stanzas) {
    REQUIRE(s.args.size() == 2);
    CHECK(s.args[0] == "mlkem768x25519");
    const auto enc = age::decode_base64_raw(s.args[1]);
    REQUIRE(enc);
    CHECK(enc->size() == 1120);
    CHECK(s.body.size() == 32);  // the 16-byte file key and its tag
  }
  CHECK(stanzas[0].args[1] != stanzas[1].args[1]);  // fresh encapsulation per stanza
  const age::Header h = header_of(stanzas);
  for (const core::Identity* id : {&alice, &bob}) {
    const SecretBytes got = age::unwrap_file_key(h, identities({id}), age::kDefaultMaxScryptLog2);
    CHECK(std::equal(got.span().begin(), got.span().end(), file_key.span().begin(), file_key.span().end()));
  }
  const core::Identity carol = core::generate_hybrid_identity();
  try {
    age::unwrap_file_key(h, identities({&carol}), age::kDefaultMaxScryptLog2);
    FAIL("a third identity opened the file");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::header);
    CHECK(std::string(e.what()).starts_with("no identity given opens"));
  }
}

TEST_CASE("age mlkem768x25519: post-quantum and classical recipients are not mixed", "[age][pq]") {
  const core::Identity pq = core::generate_hybrid_identity();
  const core::Identity x = core::generate_x25519_identity();
  const SecretBytes file_key = age::new_file_key();
  std::vector<Credential> mixed;
  mixed.push_back(to_recipient(pq));
  mixed.push_back(to_recipient(x));
  try {
    age::wrap_file_key(file_key, mixed, age::kDefaultScryptLog2);
    FAIL("mixed recipients accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK(std::string(e.what()).find("quantum") != std::string::npos);
  }
  // Reading is not refused: a file from elsewhere with both opens with the PQ identity (CCTV
  // hybrid_and_x25519), and with the X25519 one.
  std::vector<Credential> x_only;
  x_only.push_back(to_recipient(x));
  std::vector<Credential> pq_only;
  pq_only.push_back(to_recipient(pq));
  auto stanzas = age::wrap_file_key(file_key, x_only, age::kDefaultScryptLog2);
  stanzas.push_back(age::wrap_file_key(file_key, pq_only, age::kDefaultScryptLog2)[0]);
  const SecretBytes got =
      age::unwrap_file_key(header_of(stanzas), identities({&pq}), age::kDefaultMaxScryptLog2);
  CHECK(std::equal(got.span().begin(), got.span().end(), file_key.span().begin(), file_key.span().end()));
}

TEST_CASE("age mlkem768x25519: malformed stanzas are header errors, other recipients' are skipped",
          "[age][pq]") {
  const core::Identity alice = core::generate_hybrid_identity();
  std::vector<Credential> to;
  to.push_back(to_recipient(alice));
  const age::Stanza good = age::wrap_file_key(age::new_file_key(), to, age::kDefaultScryptLog2)[0];
  const auto header_error = [&](age::Stanza s) {
    try {
      age::unwrap_file_key(header_of({std::move(s)}), identities({&alice}), age::kDefaultMaxScryptLog2);
      return std::string("opened");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::header);
      return std::string(e.what());
    }
  };
  age::Stanza extra = good;
  extra.args.push_back("x");
  CHECK(header_error(extra).starts_with("malformed age mlkem768x25519 stanza"));
  age::Stanza short_enc = good;
  short_enc.args[1] = short_enc.args[1].substr(0, short_enc.args[1].size() - 4);
  CHECK(header_error(short_enc).starts_with("malformed age mlkem768x25519 stanza"));
  age::Stanza long_body = good;
  long_body.body.push_back(0);
  CHECK(header_error(long_body).starts_with("malformed age mlkem768x25519 stanza"));
  // The X25519 half of enc (its last 32 bytes) set to a low-order point: the zero point.
  age::Stanza low_order = good;
  auto enc = *age::decode_base64_raw(good.args[1]);
  std::fill(enc.end() - 32, enc.end(), std::uint8_t{0});
  low_order.args[1] = age::encode_base64_raw(enc);
  CHECK(header_error(low_order).find("low-order") != std::string::npos);
  // A wrong tag is not malformed: the stanza is someone else's.
  age::Stanza bad_tag = good;
  bad_tag.body[31] ^= 1;
  CHECK(header_error(bad_tag).starts_with("no identity given opens"));
  // A different type name (age types are case-sensitive) is not this identity's stanza.
  age::Stanza upper = good;
  upper.args[0] = "MLKEM768X25519";
  CHECK(header_error(upper).starts_with("no identity given opens"));
}

TEST_CASE("HPKE OpenBase says why it failed", "[pq]") {
  const core::Identity alice = core::generate_hybrid_identity();
  const std::uint8_t msg[16] = {1, 2, 3};
  const auto sealed =
      pq::hpke::seal_base(std::get<core::HybridRecipient>(core::recipient_of(alice)).public_key, {}, {}, msg);
  REQUIRE(sealed);
  pq::hpke::OpenFailure why{};
  auto ct = sealed->ciphertext;
  ct[0] ^= 1;
  CHECK_FALSE(pq::hpke::open_base(*alice.hybrid, sealed->enc, {}, {}, ct, &why));
  CHECK(why == pq::hpke::OpenFailure::not_authentic);
  auto enc = sealed->enc;
  std::fill(enc.end() - 32, enc.end(), std::uint8_t{0});
  CHECK_FALSE(pq::hpke::open_base(*alice.hybrid, enc, {}, {}, sealed->ciphertext, &why));
  CHECK(why == pq::hpke::OpenFailure::kem_refused);
  CHECK(pq::hpke::open_base(*alice.hybrid, sealed->enc, {}, {}, sealed->ciphertext, &why));
}
