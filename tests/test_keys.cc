// Key handling: key files, slot wrapping for each credential kind, the unlock procedure with several slots,
// and the Argon2id ceiling that is enforced before any Argon2id runs (docs/FORMAT.md §3.2, §5, §7).
#include <catch2/catch.hpp>

#include <string>

#include "core/pcrypt/format.h"
#include "core/pcrypt/keys.h"
#include "tests/test_crypt_support.h"

using namespace pcrypt;
using test::Bytes;

namespace {

Bytes key_bytes(const core::Credential& c) {
  return Bytes(c.secret.span().begin(), c.secret.span().end());
}

std::string key_line_of(const std::string& text) {
  const std::size_t at = text.find("PCRYPT-KEY-1:");
  REQUIRE(at != std::string::npos);
  return text.substr(at, text.find('\n', at) - at);
}

void expect_bad_key_file(const std::string& text, const std::string& expected) {
  INFO("key file text: " << text);
  try {
    core::parse_key_file(text, "my.key");
    FAIL("accepted");
  } catch (const core::Error& e) {
    CHECK(e.kind() == core::ErrorKind::usage);
    CHECK_THAT(e.what(), Catch::Contains("my.key") && Catch::Contains(expected));
    CHECK_FALSE(e.hint().empty());
  }
}

// A header with one slot per credential around a known file key, and its MAC.
core::ParsedHeader header_for(const SecretBytes& file_key, const std::vector<core::Credential>& credentials,
                              core::KdfLimits kdf = test::cheap_kdf()) {
  core::FileHeader h;
  for (const core::Credential& c : credentials) h.slots.push_back(core::make_slot(file_key, c, kdf));
  h.mac = core::compute_header_mac(file_key, core::serialize_header_without_mac(h));
  const Bytes bytes = core::serialize_header(h);
  io::MemoryReader in(bytes);
  return core::read_header(in);
}

bool same(const SecretBytes& a, const SecretBytes& b) {
  return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

TEST_CASE("a generated key file reads back as a 32-byte key, and every key file is new") {
  const std::string text = test::key_file_string();
  CHECK(text.rfind("# ", 0) == 0);
  CHECK(key_line_of(text).size() == 13 + 48);
  const core::Credential a = core::parse_key_file(text, "a.key");
  CHECK(a.kind == core::Credential::Kind::key_file);
  CHECK(a.secret.size() == 32);
  CHECK(key_bytes(core::parse_key_file(text, "again")) == key_bytes(a));
  CHECK(key_bytes(core::parse_key_file(test::key_file_string(), "b.key")) != key_bytes(a));
}

TEST_CASE("key files tolerate comments, blank lines, CRLF and trailing blanks") {
  const std::string line = key_line_of(test::key_file_string());
  const Bytes expected = key_bytes(core::parse_key_file(line, "x"));
  for (const std::string& text :
       {line, line + "\n", "\n\n# comment\n  # indented comment\n" + line + "  \t\n\n",
        "# made on Windows\r\n" + line + "\r\n", "\t" + line})
    CHECK(key_bytes(core::parse_key_file(text, "x")) == expected);
}

TEST_CASE("key files: a leading UTF-8 BOM, a final CR without LF, and any bytes in comments (FORMAT.md §7)") {
  const std::string line = key_line_of(test::key_file_string());
  const Bytes expected = key_bytes(core::parse_key_file(line, "x"));
  const std::string bom = "\xEF\xBB\xBF";
  const std::string texts[] = {bom + line + "\n", bom + "# saved by Notepad\r\n" + line + "\r\n", line + "\r",
                               "# caf\xC3\xA9 \xFF\xFE not UTF-8 \x80\n" + line + "\n"};
  for (const std::string& text : texts) CHECK(key_bytes(core::parse_key_file(text, "x")) == expected);
  // Only one BOM, only at the start; a lone CR is not a line break (the comment swallows the key line).
  expect_bad_key_file(bom + bom + line, "no PCRYPT-KEY-1: line");
  expect_bad_key_file(line + "\n" + bom + "# comment\n", "more than one key line");
  expect_bad_key_file("# old Mac line ends\r" + line + "\r", "no key line");
  expect_bad_key_file(line + "\r\r", "malformed key");
}

TEST_CASE("anything else is not a key file") {
  const std::string line = key_line_of(test::key_file_string());
  expect_bad_key_file("", "no key line");
  expect_bad_key_file("# only a comment\n\n", "no key line");
  expect_bad_key_file("hello world\n", "no PCRYPT-KEY-1: line");
  expect_bad_key_file(line.substr(13), "no PCRYPT-KEY-1: line");
  expect_bad_key_file(line + "\n" + line + "\n", "more than one key line");
  expect_bad_key_file(line.substr(0, line.size() - 1), "malformed key");
  expect_bad_key_file(line + "A", "malformed key");
  expect_bad_key_file(line.substr(0, 20) + "+" + line.substr(21), "malformed key");  // not URL-safe base64
  expect_bad_key_file(line.substr(0, 20) + " " + line.substr(21), "malformed key");
  expect_bad_key_file("PCRYPT-KEY-2:" + line.substr(13), "unsupported version");
  expect_bad_key_file(std::string(5000, '#'), "larger than 4 KiB");
  // One changed character of the key: the checksum catches it instead of a later "wrong key".
  for (const std::size_t at : {std::size_t{13}, std::size_t{30}, std::size_t{50}}) {
    std::string typo = line;
    typo[at] = typo[at] == 'A' ? 'B' : 'A';
    expect_bad_key_file(typo, "checksum mismatch");
  }
}

TEST_CASE("a key-file slot opens with its key only") {
  const SecretBytes file_key = core::new_file_key();
  const core::Credential key = test::fresh_key();
  const core::KeySlot slot = core::make_slot(file_key, key, test::cheap_kdf());
  CHECK(slot.kind == core::SlotKind::key_file);
  const auto opened = core::open_slot(slot, key);
  REQUIRE(opened.has_value());
  CHECK(same(*opened, file_key));
  CHECK_FALSE(core::open_slot(slot, test::fresh_key()).has_value());
  CHECK_FALSE(core::open_slot(slot, test::passphrase("x")).has_value());
  // Wrapping is randomised: the same key wraps differently each time.
  CHECK(core::make_slot(file_key, key, test::cheap_kdf()).wrapped_key != slot.wrapped_key);
}

TEST_CASE("a passphrase slot stores its Argon2id costs and opens with its passphrase only") {
  const SecretBytes file_key = core::new_file_key();
  const core::Credential pw = test::passphrase("tr0ub4dor&3");
  const core::KeySlot slot = core::make_slot(file_key, pw, core::KdfLimits{2, std::uint64_t{8} << 20});
  CHECK(slot.kind == core::SlotKind::passphrase);
  CHECK(slot.kdf_ops == 2);
  CHECK(slot.kdf_memory_kib == 8192);
  const auto opened = core::open_slot(slot, pw);
  REQUIRE(opened.has_value());
  CHECK(same(*opened, file_key));
  CHECK_FALSE(core::open_slot(slot, test::passphrase("tr0ub4dor&4")).has_value());
  CHECK_FALSE(core::open_slot(slot, test::passphrase("tr0ub4dor&3\n")).has_value());
  CHECK_FALSE(core::open_slot(slot, test::fresh_key()).has_value());
  // The costs are inputs: the same salt with other costs gives another key.
  core::KeySlot cheaper = slot;
  cheaper.kdf_ops = 1;
  CHECK_FALSE(core::open_slot(cheaper, pw).has_value());
  CHECK(core::make_slot(file_key, pw, test::cheap_kdf()).kdf_salt != slot.kdf_salt);
}

TEST_CASE("unusable credentials and costs are refused when wrapping") {
  const SecretBytes file_key = core::new_file_key();
  test::error_of(core::ErrorKind::usage,
                 [&] { core::make_slot(file_key, test::passphrase(""), test::cheap_kdf()); });
  core::Credential short_key{core::Credential::Kind::key_file, SecretBytes(16)};
  test::error_of(core::ErrorKind::usage, [&] { core::make_slot(file_key, short_key, test::cheap_kdf()); });
  const core::Credential pw = test::passphrase("pw");
  test::error_of(core::ErrorKind::usage, [&] { core::make_slot(file_key, pw, core::KdfLimits{0, 8 << 20}); });
  test::error_of(core::ErrorKind::usage, [&] { core::make_slot(file_key, pw, core::KdfLimits{1, 4096}); });
  test::error_of(core::ErrorKind::usage, [&] {
    core::make_slot(file_key, pw, core::KdfLimits{1, (8 << 20) + 1});
  });
  CHECK(core::make_slot(file_key, pw, core::KdfLimits{1, 8192}).kdf_memory_kib == 8);  // libsodium's minimum
}

TEST_CASE("with several slots, any one credential unlocks the file and a wrong one does not") {
  const SecretBytes file_key = core::new_file_key();
  std::vector<core::Credential> all;
  all.push_back(test::fresh_key());
  all.push_back(test::passphrase("alice's passphrase"));
  all.push_back(test::fresh_key());
  all.push_back(test::passphrase("bob's passphrase"));
  const core::ParsedHeader parsed = header_for(file_key, all);
  const core::KdfLimits ceiling = core::default_kdf_ceiling();
  for (const core::Credential& c : all)
    CHECK(same(core::unlock_file_key(parsed, test::creds(c), ceiling), file_key));

  std::vector<core::Credential> wrong_then_right;
  wrong_then_right.push_back(test::fresh_key());
  wrong_then_right.push_back(test::passphrase("nope"));
  wrong_then_right.push_back(test::copy(all[3]));
  CHECK(same(core::unlock_file_key(parsed, wrong_then_right, ceiling), file_key));

  for (const core::Credential& wrong : {test::fresh_key(), test::passphrase("alice's passphrase ")}) {
    const std::string message = test::error_of(
        core::ErrorKind::header, [&] { core::unlock_file_key(parsed, test::creds(wrong), ceiling); });
    CHECK_THAT(message, Catch::Contains("wrong key or passphrase"));
  }
  test::error_of(core::ErrorKind::usage, [&] { core::unlock_file_key(parsed, {}, ceiling); });
}

TEST_CASE("a slot that opens but a header whose MAC fails is refused like a wrong key") {
  const SecretBytes file_key = core::new_file_key();
  const core::Credential key = test::fresh_key();
  core::ParsedHeader parsed = header_for(file_key, test::creds(key));
  parsed.header.mac[0] ^= 1;
  const std::string message = test::error_of(core::ErrorKind::header, [&] {
    core::unlock_file_key(parsed, test::creds(key), core::default_kdf_ceiling());
  });
  CHECK_THAT(message, Catch::Contains("wrong key or passphrase"));
}

TEST_CASE("Argon2id costs above the ceiling are refused without running Argon2id") {
  const SecretBytes file_key = core::new_file_key();
  const core::Credential pw = test::passphrase("pw");
  core::ParsedHeader parsed =
      header_for(file_key, test::creds(pw), core::KdfLimits{2, std::uint64_t{8} << 20});

  // Exactly at the costs: fine. One pass or one KiB less allowed: refused, and the message says how to
  // proceed.
  CHECK(same(core::unlock_file_key(parsed, test::creds(pw), core::KdfLimits{2, std::uint64_t{8} << 20}),
             file_key));
  for (const core::KdfLimits& low :
       {core::KdfLimits{1, std::uint64_t{8} << 20}, core::KdfLimits{2, (8 << 20) - 1024}}) {
    std::string hint;
    try {
      (void)core::unlock_file_key(parsed, test::creds(pw), low);
      FAIL("opened above the ceiling");
    } catch (const core::Error& e) {
      CHECK(e.kind() == core::ErrorKind::header);
      CHECK_THAT(e.what(), Catch::Contains("above the limit"));
      hint = e.hint();
    }
    CHECK_THAT(hint, Catch::Contains("raise the Argon2id memory and passes limits"));
  }

  // A hostile header asking for 4 TiB and 2^32-1 passes: had Argon2id run it would fail to allocate (an io
  // error) or never finish; the ceiling refuses it as a header error first.
  parsed.header.slots[0].kdf_memory_kib = UINT32_MAX;
  parsed.header.slots[0].kdf_ops = UINT32_MAX;
  const std::string message = test::error_of(core::ErrorKind::header, [&] {
    core::unlock_file_key(parsed, test::creds(pw), core::default_kdf_ceiling());
  });
  CHECK_THAT(message, Catch::Contains("key slot 1") && Catch::Contains("above the limit"));
}

TEST_CASE("files made with the default costs open under the default ceiling") {
  const core::KdfLimits params = core::default_kdf_params();
  const core::KdfLimits ceiling = core::default_kdf_ceiling();
  CHECK(params.opslimit >= 1);
  CHECK(params.memlimit_bytes % 1024 == 0);
  CHECK(params.opslimit <= ceiling.opslimit);
  CHECK(params.memlimit_bytes <= ceiling.memlimit_bytes);
  core::KeySlot slot;
  slot.kind = core::SlotKind::passphrase;
  slot.kdf_ops = static_cast<std::uint32_t>(params.opslimit);
  slot.kdf_memory_kib = static_cast<std::uint32_t>(params.memlimit_bytes / 1024);
  CHECK(core::slot_within_ceiling(slot, ceiling));
}
