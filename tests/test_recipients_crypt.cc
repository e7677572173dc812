// Recipient slots through core::encrypt_stream / decrypt_stream (FORMAT.md §10): every kind and file size,
// mixed with key files and passphrases, each credential alone opening the file; version and header rules.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "core/keys/recipient.h"
#include "core/pcrypt/format.h"
#include "tests/source_dir.h"
#include "tests/test_crypt_support.h"

using namespace pcrypt;
using test::Bytes;
using test::random_bytes;

namespace {

// The SSH ed25519 identity from tests/vectors/files (an OpenSSH private key made with ssh-keygen).
core::Identity ssh_identity() {
  static const std::string text = [] {
    const std::string path = std::string(pcrypt::test::source_dir()) + "/tests/vectors/files/ssh_ed25519.key";
    std::FILE* f = std::fopen(path.c_str(), "rb");
    REQUIRE(f != nullptr);
    std::string out(4096, '\0');
    out.resize(std::fread(out.data(), 1, out.size(), f));
    std::fclose(f);
    return out;
  }();
  std::vector<core::Identity> ids = core::parse_identity_file(text, "ssh_ed25519.key");
  REQUIRE(ids.size() == 1);
  return std::move(ids[0]);
}

std::uint8_t version_of(const Bytes& file) {
  REQUIRE(file.size() > 8);
  return file[8];
}

}  // namespace

TEST_CASE("every recipient kind x size x mixed credentials: each credential alone opens the file") {
  constexpr std::size_t cs = 4096;
  const core::Identity x25519 = core::generate_x25519_identity();
  const core::Identity ssh = ssh_identity();
  const core::Credential key = test::fresh_key();
  const core::Credential pw = test::passphrase("recipient test passphrase");

  for (const std::size_t size : {std::size_t{0}, std::size_t{1}, cs, cs + 1, 3 * cs + 7}) {
    for (const bool mixed : {false, true}) {
      INFO("size " << size << (mixed ? ", with -k and -p" : ", recipients only"));
      const Bytes plain = random_bytes(size);
      std::vector<core::Credential> credentials;
      credentials.push_back(core::Credential::of(core::recipient_of(x25519)));
      credentials.push_back(core::Credential::of(core::recipient_of(ssh)));
      if (mixed) {
        credentials.push_back(test::copy(key));
        credentials.push_back(test::copy(pw));
      }
      const Bytes file = test::encrypt(plain, credentials, cs);
      CHECK(version_of(file) == core::kFormatVersionRecipients);

      CHECK(test::decrypt(file, test::creds(core::Credential::of(core::x25519_identity_from_secret(
                                    SecretBytes(x25519.secret.span()))))) == plain);
      std::vector<core::Credential> by_ssh;
      by_ssh.push_back(core::Credential::of(ssh_identity()));
      CHECK(test::decrypt(file, by_ssh) == plain);
      if (mixed) {
        CHECK(test::decrypt(file, test::creds(key)) == plain);
        CHECK(test::decrypt(file, test::creds(pw)) == plain);
      }
    }
  }
}

TEST_CASE("a wrong identity, or one of the other kind, opens nothing and writes nothing") {
  const core::Identity x25519 = core::generate_x25519_identity();
  const Bytes file =
      test::encrypt(random_bytes(100), test::creds(core::Credential::of(core::recipient_of(x25519))));
  for (int which = 0; which < 2; ++which) {
    std::vector<core::Credential> wrong;
    wrong.push_back(core::Credential::of(which == 0 ? core::generate_x25519_identity() : ssh_identity()));
    io::MemoryWriter out;
    const std::string message =
        test::error_of(core::ErrorKind::header, [&] { test::decrypt_into(out, file, wrong); });
    CHECK_THAT(message, Catch::Contains("wrong key or passphrase"));
    CHECK(out.data().empty());
  }
}

TEST_CASE("an SSH identity is not tried on slots with another tag; the right one among 16 slots opens") {
  const core::Identity ssh = ssh_identity();
  std::vector<core::Credential> credentials;
  credentials.reserve(16);
  for (int i = 0; i < 15; ++i)
    credentials.push_back(core::Credential::of(core::recipient_of(core::generate_x25519_identity())));
  credentials.push_back(core::Credential::of(core::recipient_of(ssh)));
  const Bytes plain = random_bytes(5000);
  const Bytes file = test::encrypt(plain, credentials);
  std::vector<core::Credential> by_ssh;
  by_ssh.push_back(core::Credential::of(ssh_identity()));
  CHECK(test::decrypt(file, by_ssh) == plain);
}

TEST_CASE("files without recipients stay version 1; the header MAC covers recipient slots") {
  const core::Credential key = test::fresh_key();
  CHECK(version_of(test::encrypt(random_bytes(10), test::creds(key))) == core::kFormatVersion);

  const core::Identity x25519 = core::generate_x25519_identity();
  std::vector<core::Credential> credentials;
  credentials.push_back(test::copy(key));
  credentials.push_back(core::Credential::of(core::recipient_of(x25519)));
  Bytes file = test::encrypt(random_bytes(10), credentials);
  // Flip a bit of the X25519 slot's ephemeral key (slot 2 starts after the 15-byte fixed part and the
  // 73-byte key-file slot): the key file still opens its slot, but the MAC must catch the change.
  file[15 + core::kKeyFileSlotBytes + 5] ^= 0x01;
  test::error_of(core::ErrorKind::header, [&] { test::decrypt(file, test::creds(key)); });
}

TEST_CASE("recipient kinds in a version-1 header are refused; a kind-3 slot relabelled 5 does not parse") {
  const core::Identity x25519 = core::generate_x25519_identity();
  Bytes file = test::encrypt(random_bytes(10), test::creds(core::Credential::of(core::recipient_of(x25519))));
  Bytes v1 = file;
  v1[8] = core::kFormatVersion;
  CHECK_THAT(
      test::error_of(core::ErrorKind::header, [&] { test::decrypt(v1, test::creds(test::fresh_key())); }),
      Catch::Contains("unsupported key slot kind 3"));
  // Kind 5 is 1169 bytes (FORMAT.md §10.6): an 81-byte slot relabelled 5 runs past the header's end.
  Bytes kind5 = file;
  kind5[15] = 5;
  test::error_of(core::ErrorKind::header, [&] { test::decrypt(kind5, test::creds(test::fresh_key())); });
}

TEST_CASE("info describes recipient slots in words") {
  std::vector<core::Credential> credentials;
  credentials.push_back(core::Credential::of(core::recipient_of(core::generate_x25519_identity())));
  credentials.push_back(core::Credential::of(core::recipient_of(ssh_identity())));
  const Bytes file = test::encrypt(random_bytes(10), credentials);
  io::MemoryReader in(file);
  const std::string info = core::describe_header(in);
  CHECK_THAT(info, Catch::Contains("format: pcrypt v2"));
  CHECK_THAT(info, Catch::Contains("slot 1: X25519 recipient (anonymous)"));
  CHECK_THAT(info, Catch::Contains("slot 2: SSH ed25519 recipient, tag "));
}
