// Recipient strings, recipients files and identity files (age-keygen, pcrypt, OpenSSH), including keys made
// by the real age-keygen and ssh-keygen when they are installed (docs/FORMAT.md §10).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "core/error.h"
#include "core/keys/recipient.h"
#include "tests/test_files.h"

using namespace pcrypt::core;
using Catch::Matchers::Contains;
using pcrypt::test::TempDir;

namespace {

bool have_tool(const std::string& name) {
  return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string run(const std::string& cmd) {
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  REQUIRE(f != nullptr);
  char buf[512];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  REQUIRE(pclose(f) == 0);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

PublicKey32 x25519_key(const Recipient& r) {
  return std::get<X25519Recipient>(r).public_key;
}

void check_usage_error(const std::function<void()>& f, const std::string& message_part) {
  try {
    f();
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK_THAT(e.what(), Contains(message_part));
  }
}

// A valid identity/recipient pair made by pcrypt itself.
const Identity& sample() {
  static const Identity id = generate_x25519_identity();
  return id;
}

}  // namespace

TEST_CASE("pcrypt identity text round-trips and uses age's encoding") {
  const Identity& id = sample();
  const std::string secret_text = format_x25519_identity(id.secret);
  const std::string public_text = format_x25519_recipient(id.public_key);
  CHECK(secret_text.rfind("AGE-SECRET-KEY-1", 0) == 0);
  CHECK(secret_text.size() == 74);
  CHECK(public_text.rfind("age1", 0) == 0);
  CHECK(public_text.size() == 62);
  const auto ids =
      parse_identity_file("# created: now\n# public key: " + public_text + "\n" + secret_text + "\n", "k");
  REQUIRE(ids.size() == 1);
  CHECK(ids[0].public_key == id.public_key);
  CHECK(x25519_key(parse_recipient(public_text)) == id.public_key);
  CHECK(x25519_key(parse_recipient("  " + public_text + "\r")) == id.public_key);
}

TEST_CASE("identity files: comments, CRLF, several identities, lower case") {
  const Identity a = generate_x25519_identity();
  const Identity b = generate_x25519_identity();
  std::string lower_b = format_x25519_identity(b.secret);
  for (char& c : lower_b) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string text =
      "# first\r\n" + format_x25519_identity(a.secret) + "\r\n\r\n# second\r\n" + lower_b + "\r\n";
  const auto ids = parse_identity_file(text, "two.key");
  REQUIRE(ids.size() == 2);
  CHECK(ids[0].public_key == a.public_key);
  CHECK(ids[1].public_key == b.public_key);
  check_usage_error([] { parse_identity_file("# only comments\n\n", "empty.key"); }, "holds no identity");
}

TEST_CASE("a public key where a secret identity is expected gets a clear message") {
  const std::string pub = format_x25519_recipient(sample().public_key);
  check_usage_error([&] { parse_identity_file(pub + "\n", "me.pub"); },
                    "holds a public key (recipient), not a secret");
  check_usage_error([] { parse_identity_file("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA x\n", "id.pub"); },
                    "holds a public key");
  check_usage_error([&] { parse_recipient(format_x25519_identity(sample().secret)); },
                    "is a secret identity, not a recipient");
}

TEST_CASE("malformed recipients are usage errors naming the recipient") {
  const std::string good = format_x25519_recipient(sample().public_key);
  std::string typo = good;
  typo[20] = typo[20] == 'q' ? 'p' : 'q';
  check_usage_error([&] { parse_recipient(typo); }, "checksum mismatch");
  check_usage_error([&] { parse_recipient(typo); }, "recipient '" + typo + "'");
  check_usage_error([&] { parse_recipient(good.substr(0, good.size() - 3)); }, "checksum");
  // A valid bech32 string with the wrong human-readable part.
  const std::string other_hrp = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
  check_usage_error([&] { parse_recipient("age" + other_hrp.substr(2)); }, "checksum");
  check_usage_error([&] { parse_recipient("age1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"); },
                    "recipient 'age1");
  check_usage_error([&] { parse_recipient("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ user@host"); },
                    "not valid base64");
  check_usage_error([&] { parse_recipient("ecdsa-sha2-nistp256 AAAAE2VjZHNh user@host"); },
                    "SSH key type ecdsa-sha2-nistp256 is not supported");
  check_usage_error([&] { parse_recipient("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA"); }, "not valid base64");
  check_usage_error([&] { parse_recipient("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA=="); },
                    "not an ssh-ed25519 public key");
  check_usage_error([&] { parse_recipient("ssh-ed25519"); }, "without key data");
  check_usage_error([&] { parse_recipient("hello"); }, "recipient 'hello' is not a recipient");
  check_usage_error([&] { parse_recipient(good + " trailing"); }, "unexpected text");
}

TEST_CASE("a bech32 string with another prefix is refused by name") {
  // Re-encode the recipient's key under the identity prefix in lower case: valid bech32, wrong HRP.
  const std::string secret_lower = [] {
    std::string s = format_x25519_identity(sample().secret);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }();
  check_usage_error([&] { parse_recipient("x" + secret_lower); }, "is not a recipient");
  check_usage_error([&] { parse_identity_file("AGE-SECRET-KEY-1" + std::string(58, 'Q') + "\n", "bad"); },
                    "checksum");
}

TEST_CASE("recipients files: comments, blank lines, authorized_keys options, line numbers in errors") {
  const std::string pub = format_x25519_recipient(sample().public_key);
  const Identity other = generate_x25519_identity();
  const std::string text =
      "# team\n\n" + pub + "\r\n  # indented comment\n" + format_x25519_recipient(other.public_key) + "\n";
  const auto rs = parse_recipients_file(text, "team.txt");
  REQUIRE(rs.size() == 2);
  CHECK(x25519_key(rs[1]) == other.public_key);
  check_usage_error([&] { parse_recipients_file(text + "age1oops\n", "team.txt"); },
                    "line 6 of recipients file 'team.txt' ('age1oops')");
  check_usage_error([] { parse_recipients_file("# nothing\n", "none.txt"); }, "lists no recipient");
}

TEST_CASE("a recipients file's bad line is named by its number, never echoed raw or whole") {
  // `age -R /dev/stdin < secrets.txt` once printed the data's first line, escape sequences and all; a NUL
  // byte cut the message short.
  const auto message_of = [](const std::string& text) {
    try {
      (void)parse_recipients_file(text, "/dev/stdin");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::usage);
      return std::string(e.what());
    }
    FAIL("no error");
    return std::string();
  };
  const auto has_control_bytes = [](const std::string& m) {
    return std::any_of(m.begin(), m.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
  };
  const std::string data = message_of("password=hunter2 \x1b[31mRED\x1b[0m\nmore secrets\n");
  CHECK_THAT(data, Contains("line 1 of recipients file '/dev/stdin'"));
  CHECK(data.find("hunter2") == std::string::npos);
  CHECK_FALSE(has_control_bytes(data));
  const std::string secret =
      message_of("AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ\n");
  CHECK(secret.find("QQQQ") == std::string::npos);
  // What looks like a recipient is shown, as a short prefix with its control bytes escaped.
  const std::string key =
      message_of(std::string("age1\0\x1b]0;title\x07", 15) + std::string(500, 'q') + "\n");
  CHECK_THAT(key, Contains("('age1\\x00\\x1b]0;title\\x07qqqqq...')"));
  CHECK_FALSE(has_control_bytes(key));
  CHECK(key.size() < 300);
  const std::string ssh = message_of("ssh-ed25519\x1b[2J AAAA\n");
  CHECK_FALSE(has_control_bytes(ssh));
  // A recipient given as an argument is the user's own, shown escaped.
  try {
    (void)parse_recipient("bad\x1b[2Jrecipient");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Contains("bad\\x1b[2Jrecipient"));
  }
}

TEST_CASE("age-keygen identities are read, and their recipient matches age-keygen -y") {
  if (!have_tool("age-keygen")) {
    WARN("SKIPPED: age-keygen not installed (apt-get install age)");
    return;
  }
  TempDir dir;
  const auto key = dir.path() / "k.txt";
  run("age-keygen -o '" + key.string() + "' 2>/dev/null");
  const std::string recipient = run("age-keygen -y '" + key.string() + "'");
  const auto ids = parse_identity_file(read_all(key), key.string());
  REQUIRE(ids.size() == 1);
  CHECK(format_x25519_recipient(ids[0].public_key) == recipient);
  CHECK(x25519_key(parse_recipient(recipient)) == ids[0].public_key);
}

TEST_CASE("ssh-keygen ed25519 keys: private key and .pub line agree") {
  if (!have_tool("ssh-keygen")) {
    WARN("SKIPPED: ssh-keygen not installed (apt-get install openssh-client)");
    return;
  }
  TempDir dir;
  const auto key = dir.path() / "id_ed25519";
  run("ssh-keygen -q -t ed25519 -N '' -C 'test key' -f '" + key.string() + "'");
  const auto ids = parse_identity_file(read_all(key), key.string());
  REQUIRE(ids.size() == 1);
  CHECK(ids[0].kind == Identity::Kind::ssh_ed25519);
  const Recipient r = parse_recipient(read_all(key.string() + ".pub"));
  const auto& ssh = std::get<SshEd25519Recipient>(r);
  CHECK(ssh.public_key == ids[0].public_key);
  CHECK(ssh.blob == ids[0].blob);
  // authorized_keys line with options
  const auto rs =
      parse_recipients_file("from=\"10.0.0.1\",no-pty " + read_all(key.string() + ".pub"), "authorized_keys");
  CHECK(std::get<SshEd25519Recipient>(rs.at(0)).public_key == ids[0].public_key);

  SECTION("an encrypted key is refused with a hint") {
    const auto enc = dir.path() / "id_enc";
    run("ssh-keygen -q -t ed25519 -N 'secret pass' -f '" + enc.string() + "'");
    try {
      parse_identity_file(read_all(enc), enc.string());
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::usage);
      CHECK_THAT(e.what(), Contains("protected by a passphrase"));
      CHECK_THAT(e.hint(), Contains("ssh-keygen -p -N ''"));
    }
  }
  SECTION("an RSA key below 2048 bits is refused by size (ssh-rsa keys are supported, FORMAT.md §10.7)") {
    const auto rsa = dir.path() / "id_rsa";
    run("ssh-keygen -q -t rsa -b 1024 -N '' -f '" + rsa.string() + "'");
    check_usage_error([&] { parse_identity_file(read_all(rsa), rsa.string()); }, "RSA key of 1024 bits");
    check_usage_error([&] { parse_recipient(read_all(rsa.string() + ".pub")); }, "RSA key of 1024 bits");
  }
  SECTION("an ECDSA private key is refused by type") {
    const auto ecdsa = dir.path() / "id_ecdsa";
    run("ssh-keygen -q -t ecdsa -N '' -f '" + ecdsa.string() + "'");
    check_usage_error([&] { parse_identity_file(read_all(ecdsa), ecdsa.string()); },
                      "key type ecdsa-sha2-nistp256 is not supported");
  }
  SECTION("damaged keys are refused") {
    std::string text = read_all(key);
    const std::size_t body = text.find('\n') + 1;
    std::string truncated = text.substr(0, body + 40) + "\n-----END OPENSSH PRIVATE KEY-----\n";
    check_usage_error([&] { parse_identity_file(truncated, "t"); }, "OpenSSH private key 't'");
    std::string no_end = text.substr(0, body + 40);
    check_usage_error([&] { parse_identity_file(no_end, "n"); }, "missing BEGIN/END");
  }
}
