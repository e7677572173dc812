// SSH keys beyond unencrypted ed25519 (docs/FORMAT.md §10.5, §10.7, §10.8): authorized_keys options, lists
// with unsupported key types, ed25519 keys that must be refused, ssh-rsa recipients (slot kind 6, its
// known-answer slot), Blowfish and bcrypt_pbkdf known answers, and passphrase-protected OpenSSH keys
// (committed ones made by ssh-keygen, and fresh ones when ssh-keygen is installed).
#include <catch2/catch.hpp>

#include <sodium.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "core/error.h"
#include "core/keys/authorized_keys.h"
#include "core/keys/bcrypt_pbkdf.h"
#include "core/keys/openssh_key.h"
#include "core/keys/recipient.h"
#include "core/keys/ssh_rsa.h"
#include "core/keys/ssh_wire.h"
#include "core/pcrypt/recipient_slot.h"
#include "tests/source_dir.h"
#include "tests/test_bytes.h"
#include "tests/test_files.h"

using namespace pcrypt::core;
using Catch::Matchers::Contains;
using pcrypt::SecretBytes;
using pcrypt::test::Bytes;
using pcrypt::test::from_hex;

namespace {

const std::filesystem::path kDir =
    std::filesystem::path(pcrypt::test::source_dir()) / "tests/vectors/recipients";

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Bytes bytes(std::string_view s) {
  return Bytes(s.begin(), s.end());
}

std::string hex(std::span<const std::uint8_t> b) {
  std::string out(2 * b.size() + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), b.data(), b.size());
  out.pop_back();
  return out;
}

ErrorKind error_kind(const std::function<void()>& f, std::string* message = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (message != nullptr) *message = e.what();
    return e.kind();
  }
  FAIL("no error");
  return ErrorKind::io;
}

Identity first_identity(std::vector<Identity> ids) {
  REQUIRE(ids.size() == 1);
  return std::move(ids[0]);
}

SecretBytes no_prompt(const std::string&) {
  FAIL("the passphrase was asked for");
  return SecretBytes();
}

std::map<std::string, std::string> load_vector(const std::string& name) {
  std::map<std::string, std::string> v;
  std::istringstream in(read_all(kDir / name));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto colon = line.find(": ");
    if (colon != std::string::npos) v[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return v;
}

}  // namespace

TEST_CASE(
    "authorized_keys lines: options with quoted spaces, commas and escaped quotes end where sshd ends them") {
  const std::string key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB comment words";
  for (const std::string& options :
       {std::string("command=\"uptime -p\""), std::string("environment=\"A=b c\""),
        std::string("from=\"10.0.0.1,10.0.0.2\",no-pty"),
        std::string("restrict,command=\"echo \\\"a, b\\\"\""), std::string("no-agent-forwarding,no_x11")}) {
    INFO(options);
    std::string text = options;  // the views point into it
    text.append(" ").append(key);
    const auto line = split_ssh_key_line(text);
    REQUIRE(line.has_value());
    CHECK(line->options == options);
    CHECK(line->type == "ssh-ed25519");
    CHECK(line->data == "AAAAC3NzaC1lZDI1NTE5AAAAIB");
  }
  const std::string indented = "  " + key;
  const auto plain = split_ssh_key_line(indented);
  REQUIRE(plain.has_value());
  CHECK(plain->options.empty());
  for (const std::string& bad :
       {"command=\"unterminated " + key, ",no-pty " + key, "no-pty,," + key, "command=unquoted " + key,
        std::string("no-pty"), std::string("no-pty ssh-ed25519"), std::string("hello world")}) {
    INFO(bad);
    CHECK_FALSE(split_ssh_key_line(bad).has_value());
  }
}

TEST_CASE(
    "recipients files skip unsupported SSH key types with a note each, and fail only when nothing is left") {
  const Identity me = generate_x25519_identity();
  const std::string age = format_x25519_recipient(me.public_key);
  const std::string text = "# keys\necdsa-sha2-nistp256 AAAAE2VjZHNh host\n" + age +
                           "\nsk-ssh-ed25519@openssh.com AAAA x\nssh-dss AAAAB3NzaC1kc3M= old\n";
  std::vector<std::string> ignored;
  const auto rs = parse_recipients_file(text, "keys.txt", &ignored);
  CHECK(rs.size() == 1);
  REQUIRE(ignored.size() == 3);
  CHECK(ignored[0] == "ignoring unsupported SSH key of type \"ecdsa-sha2-nistp256\" at line 2");
  CHECK(ignored[1] == "ignoring unsupported SSH key of type \"sk-ssh-ed25519@openssh.com\" at line 4");
  CHECK(ignored[2] == "ignoring unsupported SSH key of type \"ssh-dss\" at line 5");
  std::string message;
  CHECK(error_kind([] { parse_recipients_file("ecdsa-sha2-nistp256 AAAA h\n", "only.txt"); }, &message) ==
        ErrorKind::usage);
  CHECK_THAT(message, Contains("lists no recipient pcrypt supports (1 unsupported SSH key ignored)"));
  // A single recipient of an unsupported type stays an error; so does a damaged supported key in a list.
  CHECK(error_kind([] { parse_recipient("ecdsa-sha2-nistp256 AAAAE2VjZHNh"); }) == ErrorKind::usage);
  CHECK(error_kind([&] { parse_recipients_file(age + "\nssh-ed25519 AAAAtruncated\n", "t.txt"); },
                   &message) == ErrorKind::usage);
  CHECK_THAT(message, Contains("line 2 of recipients file 't.txt'"));
}

TEST_CASE("ed25519 public keys that are not canonical, of small order, or off the curve are refused") {
  const auto line_for = [](const Bytes& a) {
    Bytes blob = from_hex(
        "0000000b7373682d65643235353139"
        "00000020");
    blob.insert(blob.end(), a.begin(), a.end());
    std::string b64(sodium_base64_ENCODED_LEN(blob.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
    sodium_bin2base64(b64.data(), b64.size(), blob.data(), blob.size(), sodium_base64_VARIANT_ORIGINAL);
    b64.pop_back();
    return "ssh-ed25519 " + b64;
  };
  Bytes y1(32, 0), y0(32, 0), y_p(32, 0xff), y_minus1(32, 0xff), y_p2(32, 0xff);
  y_p2[0] = 0xef;  // y = p + 2: not canonical (would be y = 2)
  y_p2[31] = 0x7f;
  y1[0] = 1;      // the identity point
  y_p[0] = 0xed;  // y = p: a non-canonical encoding of y = 0
  y_p[31] = 0x7f;
  y_minus1[0] = 0xec;  // y = p - 1: order 2
  y_minus1[31] = 0x7f;
  for (const Bytes& a : {y1, y0, y_p, y_minus1, y_p2}) {
    INFO(hex(a));
    std::string message;
    CHECK(error_kind([&] { parse_recipient(line_for(a)); }, &message) == ErrorKind::usage);
    CHECK_THAT(message, Contains("not a valid ed25519 public key"));
  }
  // Control: a real key passes the same path.
  std::uint8_t pk[32], sk[64];
  crypto_sign_keypair(pk, sk);
  CHECK_NOTHROW(parse_recipient(line_for(Bytes(pk, pk + 32))));
}

TEST_CASE("Blowfish and bcrypt_pbkdf known answers") {
  // Blowfish (Eric Young's test vectors; the initial state is pi, computed by pcrypt).
  CHECK(blowfish_encrypt_block(Bytes(8, 0x00), 0, 0) == std::array<std::uint32_t, 2>{0x4EF99745, 0x6198DD78});
  CHECK(blowfish_encrypt_block(Bytes(8, 0xff), 0xffffffff, 0xffffffff) ==
        std::array<std::uint32_t, 2>{0x51866FD5, 0xB85ECB8A});
  // bcrypt_pbkdf (OpenBSD's regression values, as published in python-bcrypt's tests).
  struct Kat {
    std::string pass, salt;
    std::uint32_t rounds;
    std::string expect;
  };
  for (const Kat& k : {
           Kat{"password", "salt", 4, "5bbf0cc293587f1c3635555c27796598d47e579071bf427e9d8fbe842aba34d9"},
           Kat{"password", std::string(1, '\0'), 4, "c12b566235eee04c212598970a579a67"},
           Kat{std::string(1, '\0'), "salt", 4, "6051be18c2f4f82cbf0efee5471b4bb9"},
           Kat{std::string("password\0", 9), std::string("salt\0", 5), 4,
               "7410e44cf4fa07bfaac8a928b1727fac001375e7bf7384370f48efd121743050"},
       }) {
    Bytes out(k.expect.size() / 2);
    bcrypt_pbkdf(bytes(k.pass), bytes(k.salt), k.rounds, out);
    CHECK(hex(out) == k.expect);
  }
}

TEST_CASE("passphrase-protected OpenSSH keys made by ssh-keygen (aes256-ctr, aes256-gcm; ed25519, RSA)") {
  const Bytes pass = bytes("pcrypt test");
  for (const std::string name : {"protected_ed25519_aes256ctr.key", "protected_ed25519_aes256gcm.key",
                                 "protected_rsa_aes256ctr.key"}) {
    INFO(name);
    const std::string text = read_all(kDir / name);
    const OpenSshPublicPart part = read_openssh_public_part(text, name);
    CHECK(part.encrypted());
    const OpenSshPrivateKey key = parse_openssh_private_key(text, name, pass);
    CHECK(key.blob == part.blob);
    // The public key equals the .pub line's.
    const Recipient from_pub = parse_recipient(read_all(kDir / (name + ".pub")));
    const Identity id = first_identity(
        parse_identity_file(text, name, [&](const std::string&) { return SecretBytes(pass); }));
    CHECK(recipient_of(id).index() == from_pub.index());
    std::string message;
    CHECK(error_kind([&] { parse_openssh_private_key(text, name, bytes("wrong")); }, &message) ==
          ErrorKind::header);
    CHECK_THAT(message, Contains("wrong passphrase"));
    CHECK(error_kind([&] { parse_openssh_private_key(text, name); }) == ErrorKind::usage);
    CHECK(error_kind([&] { parse_identity_file(text, name); }) == ErrorKind::usage);  // no way to ask
  }
}

TEST_CASE("a protected key asks for its passphrase only when a slot carries its tag, and once") {
  const std::string name = "protected_ed25519_aes256ctr.key";
  const std::string text = read_all(kDir / name);
  int asked = 0;
  const auto prompt = [&](const std::string& key) {
    ++asked;
    CHECK(key == name);
    return SecretBytes(bytes("pcrypt test"));
  };
  const Identity locked = first_identity(parse_identity_file(text, name, prompt));
  CHECK(asked == 0);
  SecretBytes fk(32);
  randombytes_buf(fk.data(), 32);
  const Identity stranger = generate_x25519_identity();
  const auto other = recipient_slot::wrap(fk, recipient_of(stranger));
  CHECK_FALSE(recipient_slot::unwrap(other, locked).has_value());
  CHECK(asked == 0);
  const auto mine = recipient_slot::wrap(fk, recipient_of(locked));  // made from the public half only
  CHECK(asked == 0);
  for (int i = 0; i < 2; ++i) {
    const auto opened = recipient_slot::unwrap(mine, locked);
    REQUIRE(opened.has_value());
    CHECK(sodium_memcmp(opened->data(), fk.data(), 32) == 0);
  }
  CHECK(asked == 1);
}

TEST_CASE("ssh-rsa recipients: slot kind 6 round trip, tag, label, length checks") {
  const std::string text = read_all(kDir / "ssh_rsa.key");
  const Identity id = first_identity(parse_identity_file(text, "ssh_rsa.key", no_prompt));
  REQUIRE(id.kind == Identity::Kind::ssh_rsa);
  const Recipient r = parse_recipient(read_all(kDir / "ssh_rsa.key.pub"));
  REQUIRE(std::holds_alternative<SshRsaRecipient>(r));
  CHECK(std::get<SshRsaRecipient>(r).key.blob == id.blob);
  SecretBytes fk(32);
  randombytes_buf(fk.data(), 32);
  const auto slot = recipient_slot::wrap(fk, r);
  REQUIRE(slot.size() == 7 + 256);
  CHECK(slot[0] == recipient_slot::kind_ssh_rsa);
  CHECK(recipient_slot::slot_size_of(slot) == slot.size());
  Bytes digest(32);
  crypto_hash_sha256(digest.data(), id.blob.data(), id.blob.size());
  CHECK(Bytes(slot.begin() + 1, slot.begin() + 5) == Bytes(digest.begin(), digest.begin() + 4));
  CHECK(slot[5] == 1);
  CHECK(slot[6] == 0);
  const auto opened = recipient_slot::unwrap(slot, id);
  REQUIRE(opened.has_value());
  CHECK(sodium_memcmp(opened->data(), fk.data(), 32) == 0);
  CHECK(recipient_slot::wrap(fk, r) != slot);  // OAEP is randomized
  // A changed ciphertext byte, tag or a different identity: the slot does not open.
  Bytes bad = slot;
  bad[100] ^= 1;
  CHECK_FALSE(recipient_slot::unwrap(bad, id).has_value());
  bad = slot;
  bad[2] ^= 1;
  CHECK_FALSE(recipient_slot::unwrap(bad, id).has_value());
  CHECK_FALSE(recipient_slot::unwrap(slot, generate_x25519_identity()).has_value());
  // The OAEP label is pcrypt's: a ciphertext under age's label is not a pcrypt slot.
  const auto& key = std::get<SshRsaRecipient>(r).key;
  const auto age_ct = ssh_rsa::oaep_encrypt(key, fk.span(), "age-encryption.org/v1/ssh-rsa");
  Bytes foreign(slot.begin(), slot.begin() + 7);
  foreign.insert(foreign.end(), age_ct.begin(), age_ct.end());
  CHECK_FALSE(recipient_slot::unwrap(foreign, id).has_value());
  CHECK(id.rsa->oaep_decrypt(age_ct, "age-encryption.org/v1/ssh-rsa").has_value());  // control
  // Length field out of range or disagreeing with the slot.
  bad = slot;
  bad[5] = 0;
  bad[6] = 255;
  CHECK(recipient_slot::slot_size_of(bad) == 0);
  bad[5] = 8;
  bad[6] = 1;
  CHECK(recipient_slot::slot_size_of(bad) == 0);
}

TEST_CASE("known-answer SSH RSA slot (tests/vectors/recipients/ssh_rsa.txt)") {
  auto v = load_vector("ssh_rsa.txt");
  const Identity id =
      first_identity(parse_identity_file(read_all(kDir / v["identity_file"]), "ssh_rsa.key", no_prompt));
  const Recipient r = parse_recipient(v["recipient"]);
  const auto& key = std::get<SshRsaRecipient>(r).key;
  CHECK(hex(key.blob) == v["blob"]);
  Bytes digest(32);
  crypto_hash_sha256(digest.data(), key.blob.data(), key.blob.size());
  CHECK(hex(digest) == v["blob_sha256"]);
  CHECK(hex(Bytes(digest.begin(), digest.begin() + 4)) == v["expect_tag"]);
  const Bytes slot = from_hex(v["slot"]);
  CHECK(hex(Bytes(slot.begin() + 1, slot.begin() + 5)) == v["expect_tag"]);
  const auto opened = recipient_slot::unwrap(slot, id);
  REQUIRE(opened.has_value());
  CHECK(hex(opened->span()) == v["file_key"]);
  CHECK(v["oaep_label"] == std::string(recipient_slot::ssh_rsa_oaep_label));
}

TEST_CASE("write the SSH RSA known-answer slot", "[.generate]") {
  const std::string pub = read_all(kDir / "ssh_rsa.key.pub");
  const Recipient r = parse_recipient(pub);
  const auto& key = std::get<SshRsaRecipient>(r).key;
  const Bytes fk_bytes = from_hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
  const SecretBytes fk(fk_bytes);
  const auto slot = recipient_slot::wrap(fk, r);
  Bytes digest(32);
  crypto_hash_sha256(digest.data(), key.blob.data(), key.blob.size());
  std::string recipient_line = pub.substr(0, pub.find(' ', pub.find(' ') + 1));
  std::ofstream out(kDir / "ssh_rsa.txt", std::ios::binary);
  out << "# SSH RSA recipient slot (kind 6), docs/FORMAT.md §10.7. The slot was made once by pcrypt; "
         "RSA-OAEP\n"
         "# is randomized, so re-making it gives another slot: check it by decrypting, not by "
         "re-encrypting.\n"
      << "identity_file: ssh_rsa.key\n"
      << "recipient: " << recipient_line << "\n"
      << "blob: " << hex(key.blob) << "\n"
      << "blob_sha256: " << hex(digest) << "\n"
      << "expect_tag: " << hex(Bytes(digest.begin(), digest.begin() + 4)) << "\n"
      << "oaep_label: " << recipient_slot::ssh_rsa_oaep_label << "\n"
      << "oaep_label_hex: " << hex(bytes(recipient_slot::ssh_rsa_oaep_label)) << "\n"
      << "file_key: " << hex(fk.span()) << "\n"
      << "ciphertext_length: " << (slot.size() - 7) << "\n"
      << "ciphertext: " << hex(Bytes(slot.begin() + 7, slot.end())) << "\n"
      << "slot: " << hex(slot) << "\n";
}

TEST_CASE("fresh ssh-keygen keys: RSA and protected keys of every supported cipher open their slots") {
  if (std::system("command -v ssh-keygen >/dev/null 2>&1") != 0) {
    WARN("SKIPPED: ssh-keygen not installed (apt-get install openssh-client)");
    return;
  }
  pcrypt::test::TempDir dir;
  for (const std::string args :
       {"-t rsa -b 2048 -N ''", "-t rsa -b 4096 -N 'p w'", "-t ed25519 -N 'p w'",
        "-t ed25519 -N 'p w' -Z aes128-ctr", "-t rsa -b 2048 -N 'p w' -Z aes256-gcm@openssh.com",
        "-t ed25519 -N 'p w' -Z aes128-gcm@openssh.com -a 3"}) {
    INFO(args);
    const auto path = dir.path() / "key";
    std::filesystem::remove(path);
    std::filesystem::remove(path.string() + ".pub");
    REQUIRE(std::system(("ssh-keygen -q " + args + " -f '" + path.string() + "'").c_str()) == 0);
    const Identity id = first_identity(parse_identity_file(
        read_all(path), "key", [](const std::string&) { return SecretBytes(bytes("p w")); }));
    SecretBytes fk(32);
    randombytes_buf(fk.data(), 32);
    const auto slot = recipient_slot::wrap(fk, parse_recipient(read_all(path.string() + ".pub")));
    const auto opened = recipient_slot::unwrap(slot, id);
    REQUIRE(opened.has_value());
    CHECK(sodium_memcmp(opened->data(), fk.data(), 32) == 0);
  }
}

namespace {

// The decoded openssh-key-v1 structure of an armoured key, and back: for keys damaged on purpose.
Bytes openssh_binary(const std::string& text) {
  const std::string begin = "-----BEGIN OPENSSH PRIVATE KEY-----", end = "-----END OPENSSH PRIVATE KEY-----";
  const std::size_t from = text.find(begin) + begin.size(), to = text.find(end);
  REQUIRE(to != std::string::npos);
  Bytes out(to - from);
  std::size_t len = 0;
  REQUIRE(sodium_base642bin(out.data(), out.size(), text.data() + from, to - from, " \r\n", &len, nullptr,
                            sodium_base64_VARIANT_ORIGINAL) == 0);
  out.resize(len);
  return out;
}

std::string openssh_text(const Bytes& binary) {
  std::string b64(sodium_base64_ENCODED_LEN(binary.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(b64.data(), b64.size(), binary.data(), binary.size(), sodium_base64_VARIANT_ORIGINAL);
  b64.pop_back();  // the terminating NUL
  std::string text = "-----BEGIN OPENSSH PRIVATE KEY-----\n";
  for (std::size_t at = 0; at < b64.size(); at += 70) text += b64.substr(at, 70) + "\n";
  return text + "-----END OPENSSH PRIVATE KEY-----\n";
}

std::uint32_t be32(const Bytes& b, std::size_t at) {
  return std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 | std::uint32_t{b[at + 2]} << 8 |
         b[at + 3];
}

// Offset of the bcrypt rounds field: magic (15), string cipher, string kdf, then the options string
// (uint32 length, string salt, uint32 rounds).
std::size_t bcrypt_rounds_at(const Bytes& key) {
  std::size_t at = 15;
  at += 4 + be32(key, at);  // cipher
  at += 4 + be32(key, at);  // kdf
  at += 4;                  // options length
  return at + 4 + be32(key, at);
}

// n, e, d, iqmp, p, q of an unencrypted RSA key (PROTOCOL.key), without their mpint sign bytes.
std::vector<Bytes> rsa_private_fields(const Bytes& key) {
  std::span<const std::uint8_t> all(key);
  ssh_wire::Reader r(all.subspan(15));
  for (int i = 0; i < 3; ++i) REQUIRE(r.string());  // cipher, kdf, options
  REQUIRE(r.u32() == 1u);
  REQUIRE(r.string());  // public key
  const auto section = r.string();
  REQUIRE(section);
  ssh_wire::Reader s(*section);
  REQUIRE(s.u32());
  REQUIRE(s.u32());
  REQUIRE(s.string());  // "ssh-rsa"
  std::vector<Bytes> fields;
  for (int i = 0; i < 6; ++i) {
    const auto v = s.positive_mpint();
    REQUIRE(v);
    fields.emplace_back(v->begin(), v->end());
  }
  return fields;
}

}  // namespace

TEST_CASE("a protected key asking for bcrypt rounds out of range is refused when read, before any question") {
  const std::string name = "protected_ed25519_aes256ctr.key";
  const Bytes key = openssh_binary(read_all(kDir / name));
  const std::size_t at = bcrypt_rounds_at(key);
  REQUIRE(be32(key, at) == 16);  // ssh-keygen's default: the offset is right
  for (const std::uint32_t rounds : {0u, kMaxBcryptPbkdfRounds + 1, 0xffffffffu}) {
    INFO("rounds " << rounds);
    Bytes damaged = key;
    for (int i = 0; i < 4; ++i) damaged[at + i] = static_cast<std::uint8_t>(rounds >> (24 - 8 * i));
    const std::string text = openssh_text(damaged);
    std::string message;
    CHECK(error_kind([&] { parse_identity_file(text, name, no_prompt); }, &message) == ErrorKind::usage);
    CHECK_THAT(message, Contains("bcrypt rounds (pcrypt accepts 1 to 16384)"));
    CHECK(error_kind([&] { read_openssh_public_part(text, name); }) == ErrorKind::usage);
  }
  // The round trip through the helpers changes nothing by itself.
  CHECK(first_identity(parse_identity_file(openssh_text(key), name, no_prompt)).kind ==
        Identity::Kind::ssh_ed25519);
}

TEST_CASE("an RSA private key's d and iqmp are checked exactly: e·d = 1 mod p-1 and q-1, q·iqmp = 1 mod p") {
  const std::vector<Bytes> f = rsa_private_fields(openssh_binary(read_all(kDir / "ssh_rsa.key")));
  const Bytes &n = f[0], &e = f[1], &d = f[2], &iqmp = f[3], &p = f[4], &q = f[5];
  CHECK(ssh_rsa::PrivateKey::from_openssh_fields(n, e, d, iqmp, p, q, "k")->modulus_bytes() == 256);
  const auto plus = [](Bytes v, std::uint8_t k) {
    for (std::size_t i = v.size(); i-- > 0 && k != 0;) {
      const unsigned sum = v[i] + k;
      v[i] = static_cast<std::uint8_t>(sum);
      k = static_cast<std::uint8_t>(sum >> 8);
    }
    return v;
  };
  const auto refused = [&](const Bytes& d2, const Bytes& iqmp2, const Bytes& p2, const Bytes& q2) {
    std::string message;
    CHECK(error_kind([&] { ssh_rsa::PrivateKey::from_openssh_fields(n, e, d2, iqmp2, p2, q2, "k"); },
                     &message) == ErrorKind::usage);
    CHECK_THAT(message, Contains("do not belong together"));
  };
  refused(d, plus(iqmp, 1), p, q);  // OpenSSL alone would repair the CRT result: accepted before
  refused(d, iqmp, q, p);           // p and q swapped: iqmp is then the wrong inverse
  refused(plus(d, 2), iqmp, p, q);
}

TEST_CASE("RSA public exponents: odd e from 3 to 2^24 - 1 is the rule, for recipients and identities") {
  // Crafted keys of tests/vectors/rsa_exponents/ (made by its make_keys.py): every edge of FORMAT.md §10.7.
  const std::filesystem::path dir =
      std::filesystem::path(pcrypt::test::source_dir()) / "tests/vectors/rsa_exponents";
  const std::string rule = "pcrypt accepts an odd e from 3 to 16777215 (2^24 - 1), as age does";
  for (const char* name : {"rsa2048_e3", "rsa2048_e65537", "rsa2048_e16777215", "rsa4096_e16777215"}) {
    INFO(name);
    const Recipient r = parse_recipient(read_all(dir / (std::string(name) + ".pub")));
    const Identity id = first_identity(parse_identity_file(read_all(dir / name), name, no_prompt));
    REQUIRE(std::holds_alternative<SshRsaRecipient>(r));
    CHECK(std::get<SshRsaRecipient>(r).key.blob == id.blob);
    SecretBytes fk(32);
    randombytes_buf(fk.data(), 32);
    const auto opened = recipient_slot::unwrap(recipient_slot::wrap(fk, r), id);
    REQUIRE(opened.has_value());
    CHECK(sodium_memcmp(opened->data(), fk.data(), 32) == 0);
  }
  const std::map<std::string, std::string> refused = {{"rsa2048_e1", "e is 1;"},
                                                      {"rsa2048_e65536", "e is 65536;"},
                                                      {"rsa2048_e16777217", "e is 16777217, 25 bits long;"},
                                                      {"rsa4096_e65bits", "e is 65 bits long;"},
                                                      {"rsa2048_e_above_n", "e is 2048 bits long;"},
                                                      {"rsa2048_e_n_minus", "e is 2048 bits long;"}};
  for (const auto& entry : refused) {
    // Named copies, not a structured binding: clang 14 cannot capture a binding in the lambdas below.
    const std::string& name = entry.first;
    const std::string& found = entry.second;
    INFO(name);
    std::string message;
    CHECK(error_kind([&] { parse_recipient(read_all(dir / (name + ".pub"))); }, &message) ==
          ErrorKind::usage);
    CHECK_THAT(message, Contains(found) && Contains(rule));
    CHECK(error_kind([&] { parse_identity_file(read_all(dir / name), name, no_prompt); }, &message) ==
          ErrorKind::usage);
    CHECK_THAT(message, Contains(found) && Contains(rule));
  }
  // The blob parser itself, on e alone (n of ssh_rsa.key): 2 and 0 too, which no key file can carry validly.
  const std::vector<Bytes> f = rsa_private_fields(openssh_binary(read_all(kDir / "ssh_rsa.key")));
  for (const Bytes& e :
       {Bytes{}, Bytes{0x02}, Bytes{0x01, 0x00, 0x00, 0x00}, Bytes{0x01, 0x00, 0x00, 0x01}}) {
    INFO(hex(e));
    CHECK(error_kind([&] { ssh_rsa::parse_public_blob(ssh_rsa::public_blob(e, f[0]), "k"); }) ==
          ErrorKind::usage);
  }
  CHECK(ssh_rsa::parse_public_blob(ssh_rsa::public_blob(Bytes{0xff, 0xff, 0xff}, f[0]), "k").modulus_bytes ==
        256);
}
