// core::rekey_header (a new header for the same file key and payload) and the run-wide Argon2id cache that
// several files per run share (docs/FORMAT.md §3.2, §3.4, §5).
#include <catch2/catch.hpp>

#include <string>

#include "core/keys/recipient.h"
#include "core/pcrypt/format.h"
#include "core/pcrypt/keys.h"
#include "core/pcrypt/rekey.h"
#include "tests/test_crypt_support.h"

using namespace pcrypt;
using test::Bytes;

namespace {

core::ParsedHeader parse(const Bytes& file) {
  io::MemoryReader in(file);
  return core::read_header(in);
}

// A whole file: the new header followed by the old file's payload bytes, as the CLI writes it.
Bytes with_header(const Bytes& header, const Bytes& file, std::size_t old_header_len) {
  Bytes out = header;
  out.insert(out.end(), file.begin() + static_cast<std::ptrdiff_t>(old_header_len), file.end());
  return out;
}

core::RekeyChanges adding(core::Credential c) {
  core::RekeyChanges changes;
  changes.kdf = test::cheap_kdf();
  changes.add.push_back(std::move(c));
  return changes;
}

}  // namespace

TEST_CASE("rekey adds a slot: the new and the old credential both decrypt the unchanged payload") {
  const Bytes plain = test::random_bytes(20000);
  const core::Credential k1 = test::fresh_key();
  const core::Credential k2 = test::fresh_key();
  const Bytes file = test::encrypt(plain, test::creds(k1));
  const core::ParsedHeader parsed = parse(file);
  const SecretBytes file_key = core::unlock_file_key(parsed, test::creds(k1), core::default_kdf_ceiling());

  const Bytes header = core::rekey_header(parsed, file_key, adding(test::copy(k2)));
  const Bytes rekeyed = with_header(header, file, parsed.total_bytes());
  const core::ParsedHeader after = parse(rekeyed);
  REQUIRE(after.header.slots.size() == 2);
  CHECK(after.header.chunk_size == parsed.header.chunk_size);
  CHECK(after.total_bytes() == header.size());
  CHECK(test::decrypt(rekeyed, test::creds(k2)) == plain);
  CHECK(test::decrypt(rekeyed, test::creds(k1)) == plain);
}

TEST_CASE("rekey removes a slot by its `pcrypt info` number; the removed credential no longer opens") {
  const Bytes plain = test::random_bytes(9000);
  const core::Credential k1 = test::fresh_key();
  const core::Credential k2 = test::fresh_key();
  std::vector<core::Credential> both;
  both.push_back(test::copy(k1));
  both.push_back(test::copy(k2));
  const Bytes file = test::encrypt(plain, both);
  const core::ParsedHeader parsed = parse(file);
  const SecretBytes file_key = core::unlock_file_key(parsed, test::creds(k2), core::default_kdf_ceiling());

  core::RekeyChanges changes;
  changes.remove_slots = {1};  // k1's, the first given
  const Bytes rekeyed =
      with_header(core::rekey_header(parsed, file_key, changes), file, parsed.total_bytes());
  CHECK(parse(rekeyed).header.slots.size() == 1);
  CHECK(test::decrypt(rekeyed, test::creds(k2)) == plain);
  test::error_of(core::ErrorKind::header, [&] { test::decrypt(rekeyed, test::creds(k1)); });
}

TEST_CASE("rekey refuses: nothing to do, unknown or repeated slot, the last slot, too many slots") {
  const core::Credential k1 = test::fresh_key();
  const Bytes file = test::encrypt(test::random_bytes(100), test::creds(k1));
  const core::ParsedHeader parsed = parse(file);
  const SecretBytes file_key = core::unlock_file_key(parsed, test::creds(k1), core::default_kdf_ceiling());
  core::RekeyChanges changes;
  CHECK_THAT(test::error_of(core::ErrorKind::usage, [&] { core::rekey_header(parsed, file_key, changes); }),
             Catch::Contains("nothing to change"));
  changes.remove_slots = {2};
  CHECK_THAT(test::error_of(core::ErrorKind::usage, [&] { core::rekey_header(parsed, file_key, changes); }),
             Catch::Contains("no slot 2"));
  changes.remove_slots = {0};
  test::error_of(core::ErrorKind::usage, [&] { core::rekey_header(parsed, file_key, changes); });
  changes.remove_slots = {1};
  CHECK_THAT(test::error_of(core::ErrorKind::usage, [&] { core::rekey_header(parsed, file_key, changes); }),
             Catch::Contains("last slot"));
  changes.remove_slots = {1, 1};
  changes.add.push_back(test::fresh_key());
  CHECK_THAT(test::error_of(core::ErrorKind::usage, [&] { core::rekey_header(parsed, file_key, changes); }),
             Catch::Contains("twice"));

  core::RekeyChanges many;
  for (std::size_t i = 0; i < core::kMaxSlots; ++i) many.add.push_back(test::fresh_key());
  CHECK_THAT(test::error_of(core::ErrorKind::usage, [&] { core::rekey_header(parsed, file_key, many); }),
             Catch::Contains("256 slots"));
  core::RekeyChanges passphrases;
  passphrases.kdf = test::cheap_kdf();
  for (std::size_t i = 0; i <= core::kMaxPassphraseSlots; ++i) {
    std::string text = "p";  // appends: GCC 12 -O3 gives a false -Wrestrict for "p" + std::string
    text += std::to_string(i);
    passphrases.add.push_back(test::passphrase(text));
  }
  CHECK_THAT(
      test::error_of(core::ErrorKind::usage, [&] { core::rekey_header(parsed, file_key, passphrases); }),
      Catch::Contains("passphrase slots"));
}

TEST_CASE("rekey refuses a header its file key does not authenticate") {
  const core::Credential k1 = test::fresh_key();
  Bytes file = test::encrypt(test::random_bytes(100), test::creds(k1));
  const SecretBytes file_key =
      core::unlock_file_key(parse(file), test::creds(k1), core::default_kdf_ceiling());
  file[core::kFixedHeaderBytes + 30] ^= 1;  // inside the slot: parses, but the MAC no longer matches
  const core::ParsedHeader tampered = parse(file);
  test::error_of(core::ErrorKind::header,
                 [&] { core::rekey_header(tampered, file_key, adding(test::fresh_key())); });
}

TEST_CASE("a KEK cache runs Argon2id once per (passphrase, salt, costs): encrypt shares one salt") {
  core::PassphraseKekCache cache;
  const SecretBytes key_a = core::new_file_key();
  const SecretBytes key_b = core::new_file_key();
  const core::Credential pw = test::passphrase("one run");
  const core::KeySlot a = core::make_slot(key_a, pw, test::cheap_kdf(), &cache);
  const core::KeySlot b = core::make_slot(key_b, pw, test::cheap_kdf(), &cache);
  CHECK(cache.argon2id_runs() == 1);
  CHECK(a.kdf_salt == b.kdf_salt);
  CHECK(a.wrap_nonce != b.wrap_nonce);
  // Each slot opens to its own file key, with or without the cache.
  auto opened = core::open_slot(b, pw);
  REQUIRE(opened);
  CHECK(sodium_memcmp(opened->data(), key_b.data(), key_b.size()) == 0);
  CHECK(core::open_slot(a, pw, &cache));
  CHECK(cache.argon2id_runs() == 1);
  // Another passphrase or other costs: another run, and a wrong passphrase does not open.
  CHECK_FALSE(core::open_slot(a, test::passphrase("other"), &cache));
  CHECK(cache.argon2id_runs() == 2);
  core::KdfLimits costlier = test::cheap_kdf();
  costlier.opslimit += 1;
  const core::KeySlot c = core::make_slot(key_a, pw, costlier, &cache);
  CHECK(c.kdf_salt != a.kdf_salt);
  CHECK(cache.argon2id_runs() == 3);
  // Without a cache every slot draws its own salt.
  CHECK(core::make_slot(key_a, pw, test::cheap_kdf()).kdf_salt !=
        core::make_slot(key_a, pw, test::cheap_kdf()).kdf_salt);
}

TEST_CASE("reencrypt_stream: a fresh file key, same plaintext and chunk size; damage is a payload error") {
  const Bytes plain = test::random_bytes(3 * 4096 + 7);
  const core::Credential k1 = test::fresh_key();
  const core::Credential k2 = test::fresh_key();
  const Bytes file = test::encrypt(plain, test::creds(k1));
  const core::ParsedHeader parsed = parse(file);
  const SecretBytes file_key = core::unlock_file_key(parsed, test::creds(k1), core::default_kdf_ceiling());
  core::EncryptOptions options;
  options.threads = 2;
  auto run = [&](const Bytes& input) {
    io::MemoryReader in(input);
    core::read_header(in);
    io::MemoryWriter out;
    core::reencrypt_stream(parsed, file_key, in, out, test::creds(k2), options);
    return out.data();
  };
  const Bytes fresh = run(file);
  const core::ParsedHeader after = parse(fresh);
  CHECK(after.header.chunk_size == parsed.header.chunk_size);
  CHECK(fresh.size() - after.total_bytes() == file.size() - parsed.total_bytes());
  CHECK(test::decrypt(fresh, test::creds(k2)) == plain);
  test::error_of(core::ErrorKind::header, [&] { test::decrypt(fresh, test::creds(k1)); });
  Bytes damaged = file;
  damaged[damaged.size() - 20] ^= 1;
  test::error_of(core::ErrorKind::payload, [&] { run(damaged); });
}

TEST_CASE("rekey: a recipient slot makes the header version 2, removing the last one makes it version 1") {
  const Bytes plain = test::random_bytes(5000);
  const core::Credential k1 = test::fresh_key();
  const Bytes file = test::encrypt(plain, test::creds(k1));
  const core::ParsedHeader parsed = parse(file);
  REQUIRE(parsed.header.version == core::kFormatVersion);
  const SecretBytes file_key = core::unlock_file_key(parsed, test::creds(k1), core::default_kdf_ceiling());
  core::Identity identity = core::generate_x25519_identity();

  const Bytes header =
      core::rekey_header(parsed, file_key, adding(core::Credential::of(core::recipient_of(identity))));
  const Bytes rekeyed = with_header(header, file, parsed.total_bytes());
  // A version-1 header with a recipient slot would be refused by this parse.
  const core::ParsedHeader after = parse(rekeyed);
  CHECK(after.header.version == core::kFormatVersionRecipients);
  std::vector<core::Credential> by_identity;
  by_identity.push_back(core::Credential::of(std::move(identity)));
  CHECK(test::decrypt(rekeyed, by_identity) == plain);

  core::RekeyChanges removing;
  removing.remove_slots = {2};
  const Bytes back = with_header(core::rekey_header(after, file_key, removing), rekeyed, after.total_bytes());
  CHECK(parse(back).header.version == core::kFormatVersion);  // version 2 needs a recipient slot
  CHECK(test::decrypt(back, test::creds(k1)) == plain);
}
