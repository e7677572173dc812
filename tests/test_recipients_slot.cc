// Recipient slots (docs/FORMAT.md §10.3): round trips, wrong identities, low-order points, tampering, and the
// published known-answer values in tests/vectors/recipients/ recomputed from their inputs.
#include <catch2/catch.hpp>

#include <sodium.h>

#include <cstring>
#include <fstream>
#include <map>
#include <string>

#include "core/error.h"
#include "core/keys/recipient.h"
#include "core/pcrypt/recipient_slot.h"
#include "tests/source_dir.h"
#include "tests/test_bytes.h"

using namespace pcrypt::core;
using pcrypt::SecretBytes;
using pcrypt::test::Bytes;
using pcrypt::test::from_hex;

namespace {

SecretBytes random_key() {
  const Bytes b = pcrypt::test::random_bytes(32);
  return SecretBytes(b);
}

Bytes bytes_of(const SecretBytes& s) {
  return Bytes(s.span().begin(), s.span().end());
}

// An SSH identity/recipient pair built from a random seed the way OpenSSH keys are.
std::pair<Identity, Recipient> ssh_pair() {
  std::uint8_t pk[32];
  SecretBytes sk(64);
  crypto_sign_keypair(pk, sk.data());
  Identity id;
  id.kind = Identity::Kind::ssh_ed25519;
  id.secret = SecretBytes(32);
  crypto_sign_ed25519_sk_to_curve25519(id.secret.data(), sk.data());
  REQUIRE(crypto_sign_ed25519_pk_to_curve25519(id.public_key.data(), pk) == 0);
  id.blob = {0, 0, 0, 11, 's', 's', 'h', '-', 'e', 'd', '2', '5', '5', '1', '9', 0, 0, 0, 32};
  id.blob.insert(id.blob.end(), pk, pk + 32);
  Recipient r = recipient_of(id);
  return {std::move(id), std::move(r)};
}

std::map<std::string, std::string> load_vector(const std::string& name) {
  std::ifstream in(std::string(pcrypt::test::source_dir()) + "/tests/vectors/recipients/" + name);
  REQUIRE(in);
  std::map<std::string, std::string> v;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto colon = line.find(": ");
    REQUIRE(colon != std::string::npos);
    v[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return v;
}

template <std::size_t N>
Bytes as_bytes(const std::array<std::uint8_t, N>& a) {
  return Bytes(a.begin(), a.end());
}

}  // namespace

TEST_CASE("X25519 slot: round trip, size, wrong identity, every slot distinct") {
  const Identity me = generate_x25519_identity();
  const Identity other = generate_x25519_identity();
  const SecretBytes fk = random_key();
  const auto slot = recipient_slot::wrap(fk, recipient_of(me));
  REQUIRE(slot.size() == recipient_slot::x25519_slot_size);
  CHECK(slot[0] == recipient_slot::kind_x25519);
  const auto opened = recipient_slot::unwrap(slot, me);
  REQUIRE(opened.has_value());
  CHECK(bytes_of(*opened) == bytes_of(fk));
  CHECK_FALSE(recipient_slot::unwrap(slot, other).has_value());
  CHECK(recipient_slot::wrap(fk, recipient_of(me)) != slot);  // fresh ephemeral key every time
}

TEST_CASE("SSH slot: round trip, tag, wrong key, kinds never cross") {
  auto [me, my_recipient] = ssh_pair();
  auto [other, other_recipient] = ssh_pair();
  const SecretBytes fk = random_key();
  const auto slot = recipient_slot::wrap(fk, my_recipient);
  REQUIRE(slot.size() == recipient_slot::ssh_ed25519_slot_size);
  CHECK(slot[0] == recipient_slot::kind_ssh_ed25519);
  std::uint8_t digest[32];
  crypto_hash_sha256(digest, me.blob.data(), me.blob.size());
  CHECK(std::memcmp(slot.data() + 1, digest, 4) == 0);
  const auto opened = recipient_slot::unwrap(slot, me);
  REQUIRE(opened.has_value());
  CHECK(bytes_of(*opened) == bytes_of(fk));
  CHECK_FALSE(recipient_slot::unwrap(slot, other).has_value());

  SECTION("the same curve point as an X25519 identity does not open an SSH slot, nor the reverse") {
    Identity as_x25519 = x25519_identity_from_secret(me.secret);
    REQUIRE(as_x25519.public_key == me.public_key);
    CHECK_FALSE(recipient_slot::unwrap(slot, as_x25519).has_value());
    const auto x_slot = recipient_slot::wrap(fk, recipient_of(as_x25519));
    CHECK_FALSE(recipient_slot::unwrap(x_slot, me).has_value());
    CHECK(recipient_slot::unwrap(x_slot, as_x25519).has_value());
  }
  SECTION("a matching tag with a different blob does not open (the blob is bound into the wrap key)") {
    Identity forged = x25519_identity_from_secret(me.secret);
    forged.kind = Identity::Kind::ssh_ed25519;
    forged.blob = me.blob;
    CHECK(recipient_slot::unwrap(slot, forged).has_value());  // control: same data opens
    forged.blob.back() ^= 1;
    CHECK_FALSE(recipient_slot::unwrap(slot, forged).has_value());
  }
}

TEST_CASE("every single-bit change of a slot makes it not open") {
  const Identity me = generate_x25519_identity();
  auto [ssh_me, ssh_recipient] = ssh_pair();
  const SecretBytes fk = random_key();
  for (const auto& [slot, id] :
       {std::pair{recipient_slot::wrap(fk, recipient_of(me)), &me},
        std::pair{recipient_slot::wrap(fk, ssh_recipient), static_cast<const Identity*>(&ssh_me)}}) {
    REQUIRE(recipient_slot::unwrap(slot, *id).has_value());
    for (std::size_t i = 0; i < slot.size(); ++i) {
      auto bad = slot;
      bad[i] ^= 0x01;
      INFO("byte " << i);
      CHECK_FALSE(recipient_slot::unwrap(bad, *id).has_value());
    }
    auto shorter = slot;
    shorter.pop_back();
    CHECK_FALSE(recipient_slot::unwrap(shorter, *id).has_value());
  }
}

TEST_CASE("low-order recipient points are refused; a low-order ephemeral key does not open") {
  // u = 0 and u = 1 are low-order points: X25519 with any scalar gives all zero.
  const SecretBytes fk = random_key();
  for (std::uint8_t u : {0, 1}) {
    X25519Recipient r{};
    r.public_key[0] = u;
    try {
      recipient_slot::wrap(fk, r);
      FAIL("accepted a low-order recipient");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::usage);
      CHECK_THAT(e.what(), Catch::Matchers::Contains("low-order"));
    }
  }
  const Identity me = generate_x25519_identity();
  auto slot = recipient_slot::wrap(fk, recipient_of(me));
  std::fill(slot.begin() + 1, slot.begin() + 33, 0);  // E = 0
  CHECK_FALSE(recipient_slot::unwrap(slot, me).has_value());
}

TEST_CASE("slot_size knows kinds 3, 4 and 5 only") {
  CHECK(recipient_slot::slot_size(3) == 81);
  CHECK(recipient_slot::slot_size(4) == 85);
  CHECK(recipient_slot::slot_size(recipient_slot::kind_mlkem768_x25519) == 1169);
  CHECK(recipient_slot::slot_size(1) == 0);
  CHECK(recipient_slot::slot_size(6) == 0);
}

TEST_CASE("known-answer X25519 slot (tests/vectors/recipients/x25519.txt)") {
  auto v = load_vector("x25519.txt");
  const auto ids = parse_identity_file(v["identity"] + "\n", "x25519.txt");
  REQUIRE(ids.size() == 1);
  CHECK(bytes_of(ids[0].secret) == from_hex(v["identity_secret"]));
  CHECK(as_bytes(ids[0].public_key) == from_hex(v["recipient_public"]));
  CHECK(format_x25519_recipient(ids[0].public_key) == v["recipient"]);
  const SecretBytes fk(from_hex(v["file_key"]));
  const Bytes e = from_hex(v["ephemeral_secret"]);
  recipient_slot::Trace t;
  const auto slot = recipient_slot::wrap_with_ephemeral(fk, parse_recipient(v["recipient"]),
                                                        std::span<const std::uint8_t, 32>(e.data(), 32), &t);
  CHECK(as_bytes(t.ephemeral_public) == from_hex(v["expect_ephemeral_public"]));
  CHECK(as_bytes(t.shared_secret) == from_hex(v["expect_shared_secret"]));
  CHECK(as_bytes(t.wrap_key) == from_hex(v["expect_wrap_key"]));
  CHECK(slot == from_hex(v["expect_slot"]));
  const auto opened = recipient_slot::unwrap(from_hex(v["expect_slot"]), ids[0]);
  REQUIRE(opened.has_value());
  CHECK(bytes_of(*opened) == from_hex(v["file_key"]));
}

TEST_CASE("known-answer SSH ed25519 slot (tests/vectors/recipients/ssh_ed25519.txt)") {
  auto v = load_vector("ssh_ed25519.txt");
  const Recipient r = parse_recipient(v["recipient"]);
  const auto& ssh = std::get<SshEd25519Recipient>(r);
  CHECK(as_bytes(ssh.public_key) == from_hex(v["recipient_public"]));
  // The identity from the seed, as an OpenSSH key file would give it.
  std::uint8_t pk[32];
  SecretBytes sk(64);
  const Bytes seed = from_hex(v["ed25519_seed"]);
  crypto_sign_seed_keypair(pk, sk.data(), seed.data());
  CHECK(Bytes(pk, pk + 32) == from_hex(v["ed25519_public"]));
  Identity id;
  id.kind = Identity::Kind::ssh_ed25519;
  id.secret = SecretBytes(32);
  crypto_sign_ed25519_sk_to_curve25519(id.secret.data(), sk.data());
  CHECK(bytes_of(id.secret) == from_hex(v["identity_x25519_secret"]));
  id.public_key = ssh.public_key;
  id.blob = ssh.blob;
  const SecretBytes fk(from_hex(v["file_key"]));
  const Bytes e = from_hex(v["ephemeral_secret"]);
  recipient_slot::Trace t;
  const auto slot =
      recipient_slot::wrap_with_ephemeral(fk, r, std::span<const std::uint8_t, 32>(e.data(), 32), &t);
  CHECK(as_bytes(t.ephemeral_public) == from_hex(v["expect_ephemeral_public"]));
  CHECK(as_bytes(t.shared_secret) == from_hex(v["expect_shared_secret"]));
  CHECK(as_bytes(t.tag) == from_hex(v["expect_tag"]));
  CHECK(as_bytes(t.wrap_key) == from_hex(v["expect_wrap_key"]));
  CHECK(slot == from_hex(v["expect_slot"]));
  const auto opened = recipient_slot::unwrap(from_hex(v["expect_slot"]), id);
  REQUIRE(opened.has_value());
  CHECK(bytes_of(*opened) == from_hex(v["file_key"]));
}
