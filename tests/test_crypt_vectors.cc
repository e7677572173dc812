// Known-answer files (tests/vectors/files/, described in its README.md): every vector is decrypted with every
// AES engine this CPU supports and must give exactly the expected plaintext or the expected error class.
//
// The files were made by the hidden test case below; to regenerate (new random keys, same plaintexts):
//   build/tests/test_crypt_vectors "[.generate]"
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include "core/recipient.h"
#include "tests/test_crypt_support.h"

using namespace pcrypt;
using test::Bytes;
namespace fs = std::filesystem;

namespace {

const fs::path kDir = fs::path(PCRYPT_SOURCE_DIR) / "tests" / "vectors" / "files";

Bytes read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string read_text(const fs::path& path) {
  const Bytes b = read_file(path);
  return std::string(b.begin(), b.end());
}

void write_file(const fs::path& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  REQUIRE(out.good());
}

void write_text(const fs::path& path, const std::string& text) {
  write_file(path, test::to_bytes(text));
}

// One `.test` descriptor: "name: value" lines (repeatable keys), '#' comments.
struct Vector {
  std::string name;
  std::string expect;  // "success", "header failure", "payload failure"
  std::string file;
  std::vector<std::string> key_files;
  std::vector<std::string> passphrases;
  std::vector<std::string> identities;  // identity files (age/pcrypt text or OpenSSH ed25519 private key)
  std::string plaintext;
  std::string error_contains;
};

Vector parse_descriptor(const fs::path& path) {
  Vector v;
  v.name = path.stem().string();
  std::istringstream lines(read_text(path));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t colon = line.find(": ");
    INFO(path << ": " << line);
    REQUIRE(colon != std::string::npos);
    const std::string key = line.substr(0, colon), value = line.substr(colon + 2);
    if (key == "expect")
      v.expect = value;
    else if (key == "file")
      v.file = value;
    else if (key == "key-file")
      v.key_files.push_back(value);
    else if (key == "passphrase")
      v.passphrases.push_back(value);
    else if (key == "identity")
      v.identities.push_back(value);
    else if (key == "plaintext")
      v.plaintext = value;
    else if (key == "error-contains")
      v.error_contains = value;
    else
      FAIL("unknown descriptor field " << key);
  }
  return v;
}

std::vector<core::Credential> credentials_of(const Vector& v) {
  std::vector<core::Credential> out;
  for (const std::string& k : v.key_files) out.push_back(core::parse_key_file(read_text(kDir / k), k));
  for (const std::string& p : v.passphrases) out.push_back(test::passphrase(p));
  for (const std::string& i : v.identities)
    for (core::Identity& id : core::parse_identity_file(read_text(kDir / i), i))
      out.push_back(core::Credential::of(std::move(id)));
  return out;
}

// Deterministic, recognisable plaintext (the vectors' plaintext files hold the same bytes).
Bytes counting_bytes(std::size_t n) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i % 251);
  return b;
}

}  // namespace

TEST_CASE("known-answer files decrypt as described on every supported engine") {
  std::vector<Vector> vectors;
  for (const fs::directory_entry& e : fs::directory_iterator(kDir))
    if (e.path().extension() == ".test") vectors.push_back(parse_descriptor(e.path()));
  std::map<std::string, int> by_expectation;
  for (const Vector& v : vectors) ++by_expectation[v.expect];
  // Guards against a missing or emptied directory passing silently.
  REQUIRE(by_expectation["success"] >= 6);
  REQUIRE(by_expectation["header failure"] >= 5);
  REQUIRE(by_expectation["payload failure"] >= 4);
  REQUIRE(by_expectation.size() == 3);

  for (const Vector& v : vectors) {
    const Bytes file = read_file(kDir / v.file);
    const std::vector<core::Credential> credentials = credentials_of(v);
    REQUIRE_FALSE(credentials.empty());
    for (const aes::Engine& engine : aes::all_engines()) {
      if (!engine.supported()) continue;
      for (const unsigned threads : {1u, 3u}) {
        INFO("vector " << v.name << ", engine " << engine.name << ", threads " << threads);
        io::MemoryWriter out;
        if (v.expect == "success") {
          test::decrypt_into(out, file, credentials, threads, &engine);
          CHECK(out.data() == read_file(kDir / v.plaintext));
          continue;
        }
        const core::ErrorKind kind =
            v.expect == "header failure" ? core::ErrorKind::header : core::ErrorKind::payload;
        const std::string message =
            test::error_of(kind, [&] { test::decrypt_into(out, file, credentials, threads, &engine); });
        CHECK_THAT(message, Catch::Contains(v.error_contains));
        if (kind == core::ErrorKind::header) CHECK(out.data().empty());
      }
    }
  }
}

TEST_CASE("the over-ceiling vector opens once the ceiling is raised to its cost") {
  const Bytes file = read_file(kDir / "passphrase_ops17_hello.pcrypt");
  core::DecryptOptions options;
  options.kdf_ceiling = core::KdfLimits{17, std::uint64_t{1} << 30};
  io::MemoryReader in(file);
  io::MemoryWriter out;
  core::decrypt_stream(in, out, test::creds(test::passphrase("correct horse battery staple")), options);
  CHECK(out.data() == read_file(kDir / "hello.txt"));
}

TEST_CASE("write the known-answer files", "[.generate]") {
  fs::create_directories(kDir);
  const std::string key_text = test::key_file_string(), other_key_text = test::key_file_string();
  write_text(kDir / "test.key", key_text);
  write_text(kDir / "other.key", other_key_text);
  const core::Credential key = test::key_from_text(key_text);
  const std::string pass = "correct horse battery staple";
  const core::Credential pw = test::passphrase(pass);

  const Bytes hello = test::to_bytes("hello, pcrypt\n");
  write_file(kDir / "hello.txt", hello);
  write_file(kDir / "empty.txt", {});
  write_file(kDir / "three_chunks.bin", counting_bytes(2 * 4096 + 100));
  write_file(kDir / "two_full_chunks.bin", counting_bytes(2 * 4096));

  auto make = [](const Bytes& plain, const std::vector<core::Credential>& credentials, core::KdfLimits kdf) {
    core::EncryptOptions options;
    options.chunk_size = 4096;
    options.threads = 1;
    options.kdf = kdf;
    io::MemoryReader in(plain);
    io::MemoryWriter out;
    core::encrypt_stream(in, out, credentials, options);
    return out.data();
  };
  const core::KdfLimits cheap{1, std::uint64_t{8} << 20};
  std::vector<core::Credential> both;
  both.push_back(test::copy(key));
  both.push_back(test::copy(pw));
  const Bytes keyfile_hello = make(hello, test::creds(key), cheap);
  const Bytes three = make(counting_bytes(2 * 4096 + 100), test::creds(key), cheap);
  write_file(kDir / "keyfile_empty.pcrypt", make({}, test::creds(key), cheap));
  write_file(kDir / "keyfile_hello.pcrypt", keyfile_hello);
  write_file(kDir / "keyfile_three_chunks.pcrypt", three);
  write_file(kDir / "keyfile_two_full_chunks.pcrypt",
             make(counting_bytes(2 * 4096), test::creds(key), cheap));
  write_file(kDir / "passphrase_hello.pcrypt", make(hello, test::creds(pw), cheap));
  write_file(kDir / "two_slots_hello.pcrypt", make(hello, both, cheap));
  write_file(kDir / "passphrase_ops17_hello.pcrypt",
             make(hello, test::creds(pw), core::KdfLimits{17, 8 << 20}));

  const std::size_t header = 120, record = 4096 + 16;
  auto cut = [](const Bytes& b, std::size_t len) { return Bytes(b.begin(), b.begin() + len); };
  Bytes swapped = cut(three, header);
  swapped.insert(swapped.end(), three.begin() + header + record, three.begin() + header + 2 * record);
  swapped.insert(swapped.end(), three.begin() + header, three.begin() + header + record);
  swapped.insert(swapped.end(), three.begin() + header + 2 * record, three.end());
  Bytes appended = three;
  appended.push_back(0);
  Bytes tag_flip = three;
  tag_flip[header + record - 1] ^= 1;
  Bytes chunk_size_flip = keyfile_hello;
  chunk_size_flip[12] ^= 0x01;
  Bytes version2 = keyfile_hello;
  version2[8] = 2;
  Bytes bad_magic = keyfile_hello;
  bad_magic[1] = 'p';
  write_file(kDir / "bad_truncated_at_boundary.pcrypt", cut(three, header + 2 * record));
  write_file(kDir / "bad_truncated_mid_chunk.pcrypt", cut(three, header + record + 100));
  write_file(kDir / "bad_swapped_chunks.pcrypt", swapped);
  write_file(kDir / "bad_appended_byte.pcrypt", appended);
  write_file(kDir / "bad_tag_bit_flip.pcrypt", tag_flip);
  write_file(kDir / "bad_header_bit_flip.pcrypt", chunk_size_flip);
  write_file(kDir / "bad_version.pcrypt", version2);
  write_file(kDir / "bad_magic.pcrypt", bad_magic);
  write_file(kDir / "bad_truncated_header.pcrypt", cut(keyfile_hello, 100));

  struct Descriptor {
    std::string name, comment, expect, file, credentials, plaintext, error;
  };
  const std::string k = "key-file: test.key\n", p = "passphrase: " + pass + "\n";
  const std::vector<Descriptor> descriptors = {
      {"keyfile_empty", "empty plaintext: one empty final chunk (16-byte tag only)", "success",
       "keyfile_empty", k, "empty.txt", ""},
      {"keyfile_hello", "one short final chunk", "success", "keyfile_hello", k, "hello.txt", ""},
      {"keyfile_three_chunks", "two full chunks and a 100-byte final chunk", "success",
       "keyfile_three_chunks", k, "three_chunks.bin", ""},
      {"keyfile_two_full_chunks",
       "plaintext a multiple of the chunk size: the last full chunk is sealed last", "success",
       "keyfile_two_full_chunks", k, "two_full_chunks.bin", ""},
      {"passphrase_hello", "Argon2id ops 1, memory 8 MiB", "success", "passphrase_hello", p, "hello.txt", ""},
      {"two_slots_by_key", "key-file slot then passphrase slot, opened by the key file", "success",
       "two_slots_hello", k, "hello.txt", ""},
      {"two_slots_by_passphrase", "key-file slot then passphrase slot, opened by the passphrase", "success",
       "two_slots_hello", p, "hello.txt", ""},
      {"wrong_key", "a key file that has no slot in the file", "header failure", "keyfile_hello",
       "key-file: other.key\n", "", "wrong key or passphrase"},
      {"wrong_passphrase", "a passphrase that opens no slot", "header failure", "passphrase_hello",
       "passphrase: correct horse battery stapler\n", "", "wrong key or passphrase"},
      {"kdf_above_ceiling", "Argon2id ops 17 > default ceiling 16: refused before Argon2id runs",
       "header failure", "passphrase_ops17_hello", p, "", "above the limit"},
      {"bad_header_bit_flip", "one bit of the chunk size flipped: the header MAC fails", "header failure",
       "bad_header_bit_flip", k, "", "wrong key or passphrase, or the header was modified"},
      {"bad_version", "version byte 2", "header failure", "bad_version", k, "",
       "unsupported format version 2"},
      {"bad_magic", "second magic byte changed", "header failure", "bad_magic", k, "", "not a pcrypt file"},
      {"bad_truncated_header", "cut inside the key slot", "header failure", "bad_truncated_header", k, "",
       "truncated header"},
      {"bad_truncated_at_boundary", "final chunk removed exactly at a record boundary", "payload failure",
       "bad_truncated_at_boundary", k, "", ""},
      {"bad_truncated_mid_chunk", "cut in the middle of chunk 1", "payload failure",
       "bad_truncated_mid_chunk", k, "", ""},
      {"bad_swapped_chunks", "chunks 0 and 1 swapped", "payload failure", "bad_swapped_chunks", k, "", ""},
      {"bad_appended_byte", "one zero byte after the final chunk", "payload failure", "bad_appended_byte", k,
       "", ""},
      {"bad_tag_bit_flip", "last bit of chunk 0's tag flipped", "payload failure", "bad_tag_bit_flip", k, "",
       ""},
  };
  for (const Descriptor& d : descriptors) {
    std::string text =
        "# " + d.comment + "\nexpect: " + d.expect + "\nfile: " + d.file + ".pcrypt\n" + d.credentials;
    if (!d.plaintext.empty()) text += "plaintext: " + d.plaintext + "\n";
    if (!d.error.empty()) text += "error-contains: " + d.error + "\n";
    write_text(kDir / (d.name + ".test"), text);
  }
}

// The recipient vectors (FORMAT.md §10), written separately so the version-1 files above stay byte for byte
// as they are. Needs tests/vectors/files/ssh_ed25519.key (made once with ssh-keygen -t ed25519 -N '').
TEST_CASE("write the recipient known-answer files", "[.generate]") {
  const core::Identity x25519 = core::generate_x25519_identity();
  write_text(kDir / "x25519.key", "# pcrypt known-answer identity\n# public key: " +
                                      core::format_x25519_recipient(x25519.public_key) + "\n" +
                                      core::format_x25519_identity(x25519.secret) + "\n");
  write_text(kDir / "x25519_other.key",
             core::format_x25519_identity(core::generate_x25519_identity().secret) + "\n");
  const std::vector<core::Identity> ssh =
      core::parse_identity_file(read_text(kDir / "ssh_ed25519.key"), "ssh_ed25519.key");
  REQUIRE(ssh.size() == 1);

  auto make = [](const Bytes& plain, const core::Identity& identity) {
    core::EncryptOptions options;
    options.chunk_size = 4096;
    options.threads = 1;
    io::MemoryReader in(plain);
    io::MemoryWriter out;
    core::encrypt_stream(in, out, test::creds(core::Credential::of(core::recipient_of(identity))), options);
    return out.data();
  };
  const Bytes three = counting_bytes(2 * 4096 + 100);
  const Bytes x25519_file = make(three, x25519);
  write_file(kDir / "x25519_three_chunks.pcrypt", x25519_file);
  const Bytes ssh_file = make(read_file(kDir / "hello.txt"), ssh[0]);
  write_file(kDir / "ssh_ed25519_hello.pcrypt", ssh_file);
  // Slot 1 starts at byte 15: flip a bit of the wrapped file key (kind 3: bytes 15+33 .. 15+81).
  Bytes damaged = x25519_file;
  damaged[15 + 40] ^= 0x10;
  write_file(kDir / "bad_x25519_slot.pcrypt", damaged);

  struct Descriptor {
    std::string name, comment, expect, file, identity, plaintext, error;
  };
  const std::vector<Descriptor> descriptors = {
      {"x25519_three_chunks", "format v2, one X25519 recipient slot (kind 3), two full chunks + 100 bytes",
       "success", "x25519_three_chunks", "x25519.key", "three_chunks.bin", ""},
      {"ssh_ed25519_hello", "format v2, one SSH ed25519 recipient slot (kind 4), opened by the OpenSSH key",
       "success", "ssh_ed25519_hello", "ssh_ed25519.key", "hello.txt", ""},
      {"wrong_identity", "an X25519 identity that has no slot in the file", "header failure",
       "x25519_three_chunks", "x25519_other.key", "", "wrong key or passphrase"},
      {"bad_x25519_slot", "one bit of the X25519 slot's wrapped file key flipped: no slot opens",
       "header failure", "bad_x25519_slot", "x25519.key", "", "wrong key or passphrase"},
  };
  for (const Descriptor& d : descriptors) {
    std::string text = "# " + d.comment + "\nexpect: " + d.expect + "\nfile: " + d.file +
                       ".pcrypt\nidentity: " + d.identity + "\n";
    if (!d.plaintext.empty()) text += "plaintext: " + d.plaintext + "\n";
    if (!d.error.empty()) text += "error-contains: " + d.error + "\n";
    write_text(kDir / (d.name + ".test"), text);
  }
}
