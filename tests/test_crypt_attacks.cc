// Attacks on whole files: every way of cutting, reordering, duplicating, splicing or flipping payload bytes
// is an Error(payload) and only authenticated plaintext (a prefix) is ever written; header failures write
// nothing.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/test_crypt_support.h"

using namespace pcrypt;
using test::Bytes;

namespace {

constexpr std::size_t kHeader = 120;  // one key-file slot
constexpr std::size_t kCs = 4096;
constexpr std::size_t kRecord = kCs + 16;

const core::Credential& key() {
  static const core::Credential k = test::fresh_key();
  return k;
}
// Four chunks: three full ones and one of 1000 bytes.
const Bytes& plain() {
  static const Bytes p = test::random_bytes(3 * kCs + 1000);
  return p;
}
const Bytes& file() {
  static const Bytes f = test::encrypt(plain(), test::creds(key()), kCs);
  return f;
}

Bytes header() {
  return Bytes(file().begin(), file().begin() + kHeader);
}
Bytes record(std::size_t i) {
  const std::size_t start = kHeader + i * kRecord;
  return Bytes(file().begin() + start, file().begin() + std::min(file().size(), start + kRecord));
}
Bytes join(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

void expect_payload_error(const Bytes& tampered) {
  for (const unsigned threads : {1u, 4u}) {
    INFO(threads << " threads");
    io::MemoryWriter out;
    test::error_of(core::ErrorKind::payload,
                   [&] { test::decrypt_into(out, tampered, test::creds(key()), threads); });
    const Bytes& got = out.data();
    REQUIRE(got.size() <= plain().size());
    CHECK(got.size() % kCs == 0);  // whole chunks only
    CHECK(std::equal(got.begin(), got.end(), plain().begin()));
  }
}

}  // namespace

TEST_CASE("the untouched file opens") {
  REQUIRE(file().size() == kHeader + plain().size() + 4 * 16);
  CHECK(test::decrypt(file(), test::creds(key())) == plain());
}

TEST_CASE("truncation at every chunk boundary is refused") {
  for (std::size_t chunks = 0; chunks < 4; ++chunks) {
    INFO("kept " << chunks << " chunks");
    expect_payload_error(Bytes(file().begin(), file().begin() + kHeader + chunks * kRecord));
  }
}

TEST_CASE("truncation inside a chunk is refused") {
  for (std::size_t chunk = 0; chunk < 4; ++chunk) {
    const std::size_t start = kHeader + chunk * kRecord;
    const std::size_t len = record(chunk).size();
    for (const std::size_t cut :
         {std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17}, len - 16, len - 1}) {
      INFO("chunk " << chunk << ", cut after " << cut << " bytes");
      expect_payload_error(Bytes(file().begin(), file().begin() + start + cut));
    }
  }
}

TEST_CASE("reordered, duplicated and removed chunks are refused") {
  expect_payload_error(join({header(), record(1), record(0), record(2), record(3)}));
  expect_payload_error(join({header(), record(0), record(2), record(1), record(3)}));
  expect_payload_error(join({header(), record(0), record(1), record(1), record(2), record(3)}));
  expect_payload_error(join({header(), record(0), record(0), record(1), record(2), record(3)}));
  expect_payload_error(join({header(), record(0), record(2), record(3)}));
  expect_payload_error(join({header(), record(1), record(2), record(3)}));
  expect_payload_error(join({header(), record(0), record(1), record(3)}));
  expect_payload_error(join({header(), record(3)}));
  expect_payload_error(join({header(), record(0), record(1), record(2), record(3), record(3)}));
}

TEST_CASE("appended data is refused") {
  for (const Bytes& tail : {Bytes{0}, Bytes(15, 0), Bytes(16, 0), test::random_bytes(kRecord), record(0)})
    expect_payload_error(join({file(), tail}));
}

TEST_CASE("a bit flip anywhere in a ciphertext or tag is refused") {
  for (std::size_t chunk = 0; chunk < 4; ++chunk) {
    const std::size_t start = kHeader + chunk * kRecord;
    const std::size_t len = record(chunk).size();
    for (const std::size_t at : {std::size_t{0}, len / 2, len - 17, len - 16, len - 8, len - 1}) {
      Bytes bad = file();
      bad[start + at] ^= 0x80;
      INFO("chunk " << chunk << ", byte " << at);
      expect_payload_error(bad);
    }
  }
}

TEST_CASE("chunks from another file under the same key file are refused") {
  const Bytes other = test::encrypt(plain(), test::creds(key()), kCs);
  const Bytes other_chunk0(other.begin() + kHeader, other.begin() + kHeader + kRecord);
  expect_payload_error(join({header(), other_chunk0, record(1), record(2), record(3)}));
  // Another file's header with this file's payload: its file key is different.
  expect_payload_error(
      join({Bytes(other.begin(), other.begin() + kHeader), record(0), record(1), record(2), record(3)}));
}

TEST_CASE("a payload-less file and an empty-plaintext file with extra records are refused") {
  expect_payload_error(header());
  const Bytes empty = test::encrypt({}, test::creds(key()), kCs);
  CHECK(test::decrypt(empty, test::creds(key())).empty());
  expect_payload_error(join({empty, Bytes(empty.end() - 16, empty.end())}));
}

TEST_CASE("header failures write nothing at all") {
  auto expect_nothing_written = [](const Bytes& input, const std::vector<core::Credential>& credentials) {
    io::MemoryWriter out;
    test::error_of(core::ErrorKind::header, [&] { test::decrypt_into(out, input, credentials); });
    CHECK(out.data().empty());
    CHECK_FALSE(out.committed());
  };
  expect_nothing_written(file(), test::creds(test::fresh_key()));
  expect_nothing_written(file(), test::creds(test::passphrase("guess")));
  expect_nothing_written({}, test::creds(key()));
  expect_nothing_written(test::random_bytes(5000), test::creds(key()));
  expect_nothing_written(Bytes(file().begin(), file().begin() + kHeader - 1), test::creds(key()));
  Bytes flipped = file();
  flipped[12] ^= 1;  // chunk size
  expect_nothing_written(flipped, test::creds(key()));
}

TEST_CASE("a payload error names the failed record's offset in the file, header included") {
  Bytes bad = file();
  bad[kHeader + 2 * kRecord + 7] ^= 0x01;
  io::MemoryWriter out;
  const std::string message =
      test::error_of(core::ErrorKind::payload, [&] { test::decrypt_into(out, bad, test::creds(key()), 2); });
  CHECK(message ==
        "payload authentication failed (chunk 2 at offset " + std::to_string(kHeader + 2 * kRecord) + ")");
}
