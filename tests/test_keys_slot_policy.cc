// Which credential fits which slot, what the errors say about it (core/pcrypt/slot_words.h,
// core::unlock_file_key), which slots a credential opens (core::slots_opened_by), and rekey's slot policy:
// removal by credential or recipient, refused duplicates, --new-file-key's kept and dropped slots
// (core/pcrypt/rekey.h).
#include <catch2/catch.hpp>

#include <string>

#include "core/counted.h"
#include "core/error.h"
#include "core/keys/recipient.h"
#include "core/pcrypt/format.h"
#include "core/pcrypt/keys.h"
#include "core/pcrypt/rekey.h"
#include "core/pcrypt/slot_words.h"
#include "core/rekey_policy.h"
#include "tests/test_crypt_support.h"

using namespace pcrypt;
using test::Bytes;

namespace {

core::ParsedHeader parse(const Bytes& file) {
  io::MemoryReader in(file);
  return core::read_header(in);
}

std::string unlock_error(const core::ParsedHeader& parsed, const std::vector<core::Credential>& creds) {
  try {
    (void)core::unlock_file_key(parsed, creds, core::default_kdf_ceiling());
  } catch (const core::Error& e) {
    CHECK(e.kind() == core::ErrorKind::header);
    return e.what();
  }
  FAIL("unlock_file_key did not throw");
  return {};
}

std::string rekey_error(const core::ParsedHeader& parsed, const SecretBytes& file_key,
                        const core::RekeyChanges& changes) {
  try {
    (void)core::rekey_header(parsed, file_key, changes);
  } catch (const core::Error& e) {
    CHECK(e.kind() == core::ErrorKind::usage);
    return e.what();
  }
  FAIL("rekey_header did not throw");
  return {};
}

core::Credential identity_credential(const core::Identity& id) {
  return core::Credential::of(core::x25519_identity_from_secret(SecretBytes(id.secret.span())));
}

}  // namespace

TEST_CASE("no credential of a fitting kind: the error says what was given and what the file has") {
  const core::Identity me = core::generate_x25519_identity();
  const Bytes file =
      test::encrypt(test::random_bytes(100), test::creds(core::Credential::of(core::recipient_of(me))));
  const core::ParsedHeader parsed = parse(file);
  const std::string message = unlock_error(parsed, test::creds(test::fresh_key()));
  CHECK_THAT(message, Catch::StartsWith("wrong key or passphrase: nothing given fits a slot"));
  CHECK_THAT(message, Catch::Contains("given 1 key file; it has 1 X25519 recipient slot"));
}

TEST_CASE("a fitting credential that fails: the one message of FORMAT.md 6.5, with what was given") {
  const Bytes file = test::encrypt(test::random_bytes(100), test::creds(test::fresh_key()));
  const std::string message = unlock_error(parse(file), test::creds(test::fresh_key()));
  CHECK_THAT(message, Catch::StartsWith("wrong key or passphrase, or the header was modified"));
  CHECK_THAT(message, Catch::Contains("given 1 key file; the file has 1 key-file slot"));
}

TEST_CASE("slots_opened_by and unlock_file_key name the slot a credential opens") {
  const core::Credential k1 = test::fresh_key(), k2 = test::fresh_key(), k3 = test::fresh_key();
  std::vector<core::Credential> all;
  all.push_back(test::copy(k1));
  all.push_back(test::copy(k2));
  const core::ParsedHeader parsed = parse(test::encrypt(test::random_bytes(10), all));
  CHECK(core::slots_opened_by(parsed, k2, core::default_kdf_ceiling()) == std::vector<std::size_t>{1});
  CHECK(core::slots_opened_by(parsed, k3, core::default_kdf_ceiling()).empty());
  std::size_t slot = 99;
  (void)core::unlock_file_key(parsed, test::creds(k2), core::default_kdf_ceiling(), nullptr, &slot);
  CHECK(slot == 1);
  CHECK(core::describe_slot(parsed.header, 1) == "slot 2 (key-file)");
}

TEST_CASE("rekey removes the slots a credential opens; one that opens none is refused") {
  const core::Credential k1 = test::fresh_key(), k2 = test::fresh_key();
  std::vector<core::Credential> all;
  all.push_back(test::copy(k1));
  all.push_back(test::copy(k2));
  const core::ParsedHeader parsed = parse(test::encrypt(test::random_bytes(10), all));
  const SecretBytes fk = core::unlock_file_key(parsed, test::creds(k1), core::default_kdf_ceiling());
  core::RekeyChanges changes;
  changes.remove_opened_by.push_back(test::copy(k2));
  const Bytes header = core::rekey_header(parsed, fk, changes);
  const core::ParsedHeader after = parse(header);
  REQUIRE(after.header.slots.size() == 1);
  CHECK(core::slots_opened_by(after, k1, core::default_kdf_ceiling()) == std::vector<std::size_t>{0});

  core::RekeyChanges none;
  none.remove_opened_by.push_back(test::fresh_key());
  CHECK_THAT(rekey_error(parsed, fk, none), Catch::Contains("opens no slot"));
}

TEST_CASE("rekey refuses to add a recipient that already has a slot, and X25519 removal by public key") {
  const core::Identity me = core::generate_x25519_identity();
  const core::ParsedHeader parsed =
      parse(test::encrypt(test::random_bytes(10), test::creds(core::Credential::of(core::recipient_of(me)))));
  const std::vector<core::Credential> opening = test::creds(identity_credential(me));
  const SecretBytes fk = core::unlock_file_key(parsed, opening, core::default_kdf_ceiling());

  core::RekeyChanges dup;
  dup.opening = &opening;
  dup.add.push_back(core::Credential::of(core::recipient_of(me)));
  CHECK_THAT(rekey_error(parsed, fk, dup), Catch::Contains("already has slot 1"));

  core::RekeyChanges by_key;
  by_key.add.push_back(test::fresh_key());
  by_key.remove_recipients.push_back(core::recipient_of(me));
  CHECK_THAT(rekey_error(parsed, fk, by_key), Catch::Contains("anonymous"));
}

TEST_CASE("new file key: kept are the slots the opening credentials open, the others dropped") {
  const core::Credential k1 = test::fresh_key(), k2 = test::fresh_key();
  std::vector<core::Credential> all;
  all.push_back(test::copy(k1));
  all.push_back(test::copy(k2));
  const core::ParsedHeader parsed = parse(test::encrypt(test::random_bytes(10), all));
  const std::vector<core::Credential> opening = test::creds(k2);
  const core::NewFileKeyPlan plan =
      core::plan_new_file_key(parsed.header.slots.size(), opening, {}, true, [&](const core::Credential& c) {
        return core::slots_opened_by(parsed, c, core::default_kdf_ceiling());
      });
  CHECK(plan.kept == std::vector<std::size_t>{1});
  CHECK(plan.dropped == std::vector<std::size_t>{0});
  REQUIRE(plan.credentials.size() == 1);
  CHECK(plan.credentials[0].kind == core::Credential::Kind::key_file);
}

TEST_CASE("post-quantum slots (kind 5): words, which identity may open them, hints, rekey duplicates") {
  const core::Identity pq = core::generate_hybrid_identity();
  const core::ParsedHeader parsed =
      parse(test::encrypt(test::random_bytes(10), test::creds(core::Credential::of(core::recipient_of(pq)))));
  CHECK(core::describe_slot(parsed.header, 0) == "slot 1 (post-quantum (ML-KEM-768 + X25519) recipient)");
  CHECK(core::options_for_slots(parsed.header) == "a post-quantum identity (identity_files)");

  // An X25519 identity is not even tried on a kind-5 slot; the hybrid identity is, and opens it.
  const core::Identity classical = core::generate_x25519_identity();
  CHECK_FALSE(core::may_open(parsed.header.slots[0], identity_credential(classical)));
  const core::Credential mine = core::Credential::of(core::hybrid_identity_from_seed(pq.secret));
  CHECK(core::may_open(parsed.header.slots[0], mine));
  const std::string message = unlock_error(parsed, test::creds(identity_credential(classical)));
  CHECK_THAT(message, Catch::Contains("given 1 X25519 identity; it has 1 post-quantum (ML-KEM-768 + X25519) "
                                      "recipient slot"));
  CHECK(core::slots_opened_by(parsed, mine, core::default_kdf_ceiling()) == std::vector<std::size_t>{0});

  // Rekey recognises the anonymous kind-5 slot through the opening identity, as for X25519.
  const std::vector<core::Credential> opening = test::creds(test::copy(mine));
  const SecretBytes fk = core::unlock_file_key(parsed, opening, core::default_kdf_ceiling());
  core::RekeyChanges dup;
  dup.opening = &opening;
  dup.add.push_back(core::Credential::of(core::recipient_of(pq)));
  CHECK_THAT(rekey_error(parsed, fk, dup), Catch::Contains("already has slot 1"));

  core::RekeyChanges by_key;
  by_key.add.push_back(test::fresh_key());
  by_key.remove_recipients.push_back(core::recipient_of(pq));
  CHECK_THAT(rekey_error(parsed, fk, by_key), Catch::Contains("post-quantum recipient slots are anonymous"));
}

TEST_CASE("counted things in messages are English: identities, key files, 1 byte (no \"identitys\")") {
  CHECK(core::counted(1, "identity") == "1 identity");
  CHECK(core::counted(2, "X25519 identity") == "2 X25519 identities");
  CHECK(core::counted(0, "key file") == "0 key files");
  CHECK(core::counted(3, "passphrase") == "3 passphrases");
  CHECK(core::counted(1, "byte") == "1 byte");
  CHECK(core::counted(2, "key") == "2 keys");  // a vowel before the y: just "s"
  CHECK(core::counted(2, "age plugin identity (age-plugin-yubikey)") ==
        "2 age plugin identities (age-plugin-yubikey)");
  CHECK(core::counted(2, "post-quantum (ML-KEM-768 + X25519) identity") ==
        "2 post-quantum (ML-KEM-768 + X25519) identities");
  // Where it showed: a file no credential fits names what was given, counted.
  const core::Identity me = core::generate_x25519_identity();
  const Bytes file = test::encrypt(test::random_bytes(100), test::creds(test::fresh_key()));
  std::vector<core::Credential> given;
  given.push_back(identity_credential(me));
  given.push_back(identity_credential(core::generate_x25519_identity()));
  given.push_back(test::fresh_key());
  given.push_back(test::fresh_key());
  const std::string message = unlock_error(parse(file), given);
  CHECK_THAT(message, Catch::Contains("given 2 X25519 identities and 2 key files;"));
  CHECK_THAT(message, !Catch::Contains("identitys"));
}
