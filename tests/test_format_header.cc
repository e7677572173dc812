// The v1 header: its byte layout, strict parsing without a key, and refusal of every malformed or modified
// header before any plaintext is written (docs/FORMAT.md §3, §5).
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/pcrypt/format.h"
#include "tests/test_crypt_support.h"

using namespace pcrypt;
using test::Bytes;

namespace {

constexpr std::size_t kKeyFileHeaderBytes = 15 + 73 + 32;
constexpr std::size_t kPassphraseHeaderBytes = 15 + 97 + 32;

core::FileHeader sample_header() {
  core::FileHeader h;
  h.chunk_size = 65536;
  core::KeySlot key_slot;
  key_slot.kind = core::SlotKind::key_file;
  randombytes_buf(key_slot.wrap_nonce.data(), key_slot.wrap_nonce.size());
  randombytes_buf(key_slot.wrapped_key.data(), key_slot.wrapped_key.size());
  core::KeySlot pass_slot;
  pass_slot.kind = core::SlotKind::passphrase;
  pass_slot.kdf_ops = 3;
  pass_slot.kdf_memory_kib = 65536;
  randombytes_buf(pass_slot.kdf_salt.data(), pass_slot.kdf_salt.size());
  randombytes_buf(pass_slot.wrap_nonce.data(), pass_slot.wrap_nonce.size());
  randombytes_buf(pass_slot.wrapped_key.data(), pass_slot.wrapped_key.size());
  h.slots = {key_slot, pass_slot};
  randombytes_buf(h.mac.data(), h.mac.size());
  return h;
}

core::ParsedHeader parse(const Bytes& bytes) {
  io::MemoryReader in(bytes);
  return core::read_header(in);
}

std::uint32_t be32(const Bytes& b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) | (std::uint32_t{b[at + 2]} << 8) |
         b[at + 3];
}

void put_be32(Bytes& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

// Header parse failure: Error(header) whose message contains `expected`.
void expect_refused(const Bytes& bytes, const std::string& expected) {
  const std::string message = test::error_of(core::ErrorKind::header, [&] { parse(bytes); });
  CHECK_THAT(message, Catch::Contains(expected));
}

}  // namespace

TEST_CASE("header round-trips through serialize and read_header and leaves the reader at the payload") {
  const core::FileHeader h = sample_header();
  Bytes file = core::serialize_header(h);
  REQUIRE(file.size() == 15 + 73 + 97 + 32);
  const Bytes payload = test::to_bytes("payload follows");
  file.insert(file.end(), payload.begin(), payload.end());

  io::MemoryReader in(file);
  const core::ParsedHeader parsed = core::read_header(in);
  CHECK(parsed.header.version == 1);
  CHECK(parsed.header.suite == 1);
  CHECK(parsed.header.chunk_size == 65536);
  REQUIRE(parsed.header.slots.size() == 2);
  CHECK(parsed.header.slots[0].kind == core::SlotKind::key_file);
  CHECK(parsed.header.slots[0].wrap_nonce == h.slots[0].wrap_nonce);
  CHECK(parsed.header.slots[0].wrapped_key == h.slots[0].wrapped_key);
  CHECK(parsed.header.slots[1].kind == core::SlotKind::passphrase);
  CHECK(parsed.header.slots[1].kdf_ops == 3);
  CHECK(parsed.header.slots[1].kdf_memory_kib == 65536);
  CHECK(parsed.header.slots[1].kdf_salt == h.slots[1].kdf_salt);
  CHECK(parsed.header.slots[1].wrap_nonce == h.slots[1].wrap_nonce);
  CHECK(parsed.header.slots[1].wrapped_key == h.slots[1].wrapped_key);
  CHECK(parsed.header.mac == h.mac);
  CHECK(parsed.authenticated_bytes == core::serialize_header_without_mac(h));
  CHECK(parsed.total_bytes() == 217);

  Bytes rest(64);
  rest.resize(in.read(rest.data(), rest.size()));
  CHECK(rest == payload);
}

TEST_CASE("header bytes sit where FORMAT.md says") {
  const core::FileHeader h = sample_header();
  const Bytes b = core::serialize_header(h);
  CHECK(Bytes(b.begin(), b.begin() + 8) == Bytes{0x89, 'P', 'C', 'R', 'Y', 'P', 'T', '\n'});
  CHECK(b[8] == 1);
  CHECK(b[9] == 1);
  CHECK(be32(b, 10) == 65536);
  CHECK(b[14] == 2);
  CHECK(b[15] == 1);  // key-file slot: kind, nonce, wrapped key
  CHECK(std::equal(h.slots[0].wrap_nonce.begin(), h.slots[0].wrap_nonce.end(), b.begin() + 16));
  CHECK(std::equal(h.slots[0].wrapped_key.begin(), h.slots[0].wrapped_key.end(), b.begin() + 40));
  const std::size_t p = 15 + 73;  // passphrase slot: kind, ops, memory KiB, salt, nonce, wrapped key
  CHECK(b[p] == 2);
  CHECK(be32(b, p + 1) == 3);
  CHECK(be32(b, p + 5) == 65536);
  CHECK(std::equal(h.slots[1].kdf_salt.begin(), h.slots[1].kdf_salt.end(), b.begin() + p + 9));
  CHECK(std::equal(h.slots[1].wrap_nonce.begin(), h.slots[1].wrap_nonce.end(), b.begin() + p + 25));
  CHECK(std::equal(h.slots[1].wrapped_key.begin(), h.slots[1].wrapped_key.end(), b.begin() + p + 49));
  CHECK(std::equal(h.mac.begin(), h.mac.end(), b.begin() + p + 97));
}

TEST_CASE("an encrypted file is header, then one record per chunk") {
  const core::Credential key = test::fresh_key();
  const Bytes empty_file = test::encrypt({}, test::creds(key));
  CHECK(empty_file.size() == kKeyFileHeaderBytes + 16);
  CHECK(be32(empty_file, 10) == 4096);
  const Bytes pass_file = test::encrypt(Bytes(5000, 7), test::creds(test::passphrase("pw")));
  CHECK(pass_file.size() == kPassphraseHeaderBytes + 5000 + 2 * 16);
}

TEST_CASE("empty input, garbage and a foreign magic are not pcrypt files") {
  CHECK_THAT(test::error_of(core::ErrorKind::header, [] { parse({}); }),
             Catch::Contains("not a pcrypt file"));
  expect_refused(test::to_bytes("hello, world, this is plain text and not encrypted"), "bad magic");
  expect_refused(test::to_bytes("P"), "bad magic");
  expect_refused(Bytes{0x00, 0x01, 0x02}, "bad magic");
  Bytes almost = core::serialize_header(sample_header());
  almost[6] = 'X';
  expect_refused(almost, "bad magic");
  // A text-mode transfer that turns '\n' into "\r\n" breaks the magic, not just the MAC.
  Bytes crlf(almost.begin(), almost.begin() + 7);
  crlf.push_back('\r');
  crlf.push_back('\n');
  expect_refused(crlf, "bad magic");
}

TEST_CASE("a header cut short anywhere is refused as truncated") {
  const Bytes full = core::serialize_header(sample_header());
  for (std::size_t len = 1; len < full.size(); ++len) {
    INFO("length " << len);
    expect_refused(Bytes(full.begin(), full.begin() + len), "truncated header");
  }
}

TEST_CASE("each fixed field out of range is refused with its own message") {
  const Bytes good = core::serialize_header(sample_header());
  auto with = [&](auto edit) {
    Bytes b = good;
    edit(b);
    return b;
  };
  expect_refused(with([](Bytes& b) { b[8] = 2; }), "unsupported format version 2");
  expect_refused(with([](Bytes& b) { b[8] = 0; }), "unsupported format version 0");
  expect_refused(with([](Bytes& b) { b[9] = 2; }), "unsupported cipher suite 2");
  expect_refused(with([](Bytes& b) { b[9] = 0; }), "unsupported cipher suite 0");
  expect_refused(with([](Bytes& b) { put_be32(b, 10, 4095); }), "invalid chunk size 4095");
  expect_refused(with([](Bytes& b) { put_be32(b, 10, (64u << 20) + 1); }), "invalid chunk size 67108865");
  expect_refused(with([](Bytes& b) { put_be32(b, 10, 0); }), "invalid chunk size 0");
  expect_refused(with([](Bytes& b) { b[14] = 0; }), "invalid key slot count 0");
  expect_refused(with([](Bytes& b) { b[15] = 0; }), "unsupported key slot kind 0 in key slot 1");
  expect_refused(with([](Bytes& b) { b[15] = 3; }), "unsupported key slot kind 3 in key slot 1");
  expect_refused(with([](Bytes& b) { b[15 + 73] = 9; }), "unsupported key slot kind 9 in key slot 2");
  expect_refused(with([](Bytes& b) { put_be32(b, 15 + 73 + 1, 0); }),
                 "invalid Argon2id parameters in key slot 2");
  expect_refused(with([](Bytes& b) { put_be32(b, 15 + 73 + 5, 7); }),
                 "invalid Argon2id parameters in key slot 2");
  // A slot count larger than the slots present reads into the MAC and then runs out of input.
  expect_refused(with([](Bytes& b) { b[14] = 3; }), "");
  // Boundaries that are valid.
  CHECK(parse(with([](Bytes& b) { put_be32(b, 10, 4096); })).header.chunk_size == 4096);
  CHECK(parse(with([](Bytes& b) { put_be32(b, 10, 64u << 20); })).header.chunk_size == (64u << 20));
}

TEST_CASE("more than four passphrase slots are refused, four are fine") {
  core::FileHeader h = sample_header();
  h.slots.assign(4, h.slots[1]);
  CHECK(parse(core::serialize_header(h)).header.slots.size() == 4);
  Bytes five = core::serialize_header(h);
  // Append a fifth passphrase slot by hand: the writer refuses to make one.
  five.insert(five.end() - 32, five.begin() + 15, five.begin() + 15 + 97);
  five[14] = 5;
  expect_refused(five, "too many passphrase slots");
  h.slots.push_back(h.slots[0]);
  test::error_of(core::ErrorKind::usage, [&] { core::serialize_header(h); });
}

TEST_CASE("the header writer refuses what the reader would refuse") {
  core::FileHeader h = sample_header();
  h.chunk_size = 1000;
  test::error_of(core::ErrorKind::usage, [&] { core::serialize_header(h); });
  h = sample_header();
  h.slots.clear();
  test::error_of(core::ErrorKind::usage, [&] { core::serialize_header(h); });
  h = sample_header();
  h.slots.assign(core::kMaxSlots + 1, h.slots[0]);
  CHECK_THAT(test::error_of(core::ErrorKind::usage, [&] { core::serialize_header(h); }),
             Catch::Contains("not 256"));
  h.slots.resize(core::kMaxSlots);
  CHECK(parse(core::serialize_header(h)).header.slots.size() == 255);
  h.slots.resize(50);  // a team: well above the old limit of 16
  CHECK(parse(core::serialize_header(h)).header.slots.size() == 50);
}

TEST_CASE("every single-bit change to a key-file header is refused before any output") {
  const core::Credential key = test::fresh_key();
  const Bytes plain = test::random_bytes(100);
  const Bytes file = test::encrypt(plain, test::creds(key));
  REQUIRE(test::decrypt(file, test::creds(key), 1) == plain);
  for (std::size_t bit = 0; bit < kKeyFileHeaderBytes * 8; ++bit) {
    Bytes bad = file;
    bad[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    io::MemoryWriter out;
    INFO("bit " << bit);
    test::error_of(core::ErrorKind::header, [&] { test::decrypt_into(out, bad, test::creds(key), 1); });
    REQUIRE(out.data().empty());
  }
}

TEST_CASE("a bit change in every byte of a passphrase header is refused before any output") {
  const core::Credential pw = test::passphrase("correct horse battery staple");
  const Bytes plain = test::random_bytes(100);
  // Argon2id at 64 KiB, not test::cheap_kdf()'s 8 MiB: every flip that leaves the cost under the ceiling runs
  // it, and at 8 MiB the 288 flips took 12 s (page faults of 8 MiB each time); what is checked is that the
  // header's bytes are authenticated, whatever the cost.
  core::EncryptOptions options;
  options.chunk_size = 4096;
  options.kdf = core::KdfLimits{1, std::uint64_t{64} << 10};
  io::MemoryReader in(plain);
  io::MemoryWriter sealed;
  core::encrypt_stream(in, sealed, test::creds(pw), options);
  const Bytes& file = sealed.data();
  // A ceiling just above the file's cost: flips that raise it are refused without running Argon2id.
  const core::KdfLimits ceiling{4, std::uint64_t{128} << 10};
  for (std::size_t byte = 0; byte < kPassphraseHeaderBytes; ++byte) {
    for (const unsigned bit : {byte % 8, 7 - byte % 8}) {
      Bytes bad = file;
      bad[byte] ^= static_cast<std::uint8_t>(1u << bit);
      io::MemoryWriter out;
      INFO("byte " << byte << " bit " << bit);
      test::error_of(core::ErrorKind::header,
                     [&] { test::decrypt_into(out, bad, test::creds(pw), 1, nullptr, ceiling); });
      REQUIRE(out.data().empty());
    }
  }
}

TEST_CASE("describe_header names every field without a key") {
  std::vector<core::Credential> both;
  both.push_back(test::fresh_key());
  both.push_back(test::passphrase("pw"));
  core::EncryptOptions options;
  options.chunk_size = 65536;
  options.kdf = core::KdfLimits{2, std::uint64_t{8} << 20};
  io::MemoryReader empty({});
  io::MemoryWriter out;
  core::encrypt_stream(empty, out, both, options);
  const Bytes& file = out.data();
  auto hex = [&](std::size_t at, std::size_t n) {
    std::string s(2 * n + 1, '\0');
    sodium_bin2hex(s.data(), s.size(), file.data() + at, n);
    s.pop_back();
    return s;
  };

  io::MemoryReader in(file);
  const std::string text = core::describe_header(in);
  INFO(text);
  const std::size_t p = 15 + 73;
  for (const std::string& line :
       {std::string("format: pcrypt v1\n"), std::string("cipher suite: 1 (AES-256-GCM"),
        std::string("chunk size: 65536 bytes (64 KiB)\n"), std::string("key slots: 2\n"),
        std::string("slot 1: key file"), "slot 1 wrap nonce: " + hex(16, 24) + "\n",
        "slot 1 wrapped file key: " + hex(40, 48) + "\n", std::string("slot 2: passphrase (Argon2id"),
        std::string("slot 2 argon2id passes: 2\n"),
        std::string("slot 2 argon2id memory: 8388608 bytes (8 MiB)\n"),
        "slot 2 argon2id salt: " + hex(p + 9, 16) + "\n", "slot 2 wrap nonce: " + hex(p + 25, 24) + "\n",
        "slot 2 wrapped file key: " + hex(p + 49, 48) + "\n", std::string("header length: 217 bytes"),
        "header MAC: HMAC-SHA-256 " + hex(p + 97, 32)})
    CHECK_THAT(text, Catch::Contains(line));
}

TEST_CASE("describe_header refuses what is not a pcrypt header") {
  const Bytes text = test::to_bytes("not encrypted at all");
  io::MemoryReader in(text);
  test::error_of(core::ErrorKind::header, [&] { core::describe_header(in); });
}

TEST_CASE("random bytes after a valid magic are parsed or refused as header errors, never anything else") {
  const Bytes good = core::serialize_header(sample_header());
  for (int round = 0; round < 3000; ++round) {
    // Half the rounds keep a valid fixed part so the slot parser sees random slot bytes too.
    const std::size_t keep = round % 2 == 0 ? 8 : 15;
    Bytes input(good.begin(), good.begin() + keep);
    const Bytes noise = test::random_bytes(static_cast<std::size_t>(round % 300));
    input.insert(input.end(), noise.begin(), noise.end());
    io::MemoryReader in(input);
    try {
      const core::ParsedHeader parsed = core::read_header(in);
      CHECK(parsed.total_bytes() <= input.size());
      CHECK(!parsed.header.slots.empty());
    } catch (const core::Error& e) {
      INFO(e.what());
      REQUIRE(e.kind() == core::ErrorKind::header);
    }
  }
}
