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

#include "core/keys/recipient.h"
#include "core/pcrypt/keys.h"
#include "core/pcrypt/recipient_slot.h"
#include "core/records.h"
#include "tests/source_dir.h"
#include "tests/test_crypt_support.h"

using namespace pcrypt;
using test::Bytes;
namespace fs = std::filesystem;

namespace {

const fs::path kDir = fs::path(pcrypt::test::source_dir()) / "tests" / "vectors" / "files";

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
  std::vector<std::string> identities;  // identity files (age/pcrypt text or an OpenSSH private key)
  std::string ssh_key_passphrase;       // for a passphrase-protected OpenSSH identity (FORMAT.md §10.8)
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
    else if (key == "ssh-key-passphrase")
      v.ssh_key_passphrase = value;
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
  // A protected key's passphrase comes from the descriptor; without one, asking for it fails the parse.
  core::SshPassphrasePrompt prompt;
  if (!v.ssh_key_passphrase.empty())
    prompt = [&v](const std::string&) { return SecretBytes(test::to_bytes(v.ssh_key_passphrase)); };
  for (const std::string& i : v.identities)
    for (core::Identity& id : core::parse_identity_file(read_text(kDir / i), i, prompt))
      out.push_back(core::Credential::of(std::move(id)));
  return out;
}

// The one identity of an identity file of this directory.
core::Identity only_identity(const std::string& name) {
  std::vector<core::Identity> ids = core::parse_identity_file(read_text(kDir / name), name);
  REQUIRE(ids.size() == 1);
  return std::move(ids[0]);
}

// Deterministic, recognisable plaintext (the vectors' plaintext files hold the same bytes).
Bytes counting_bytes(std::size_t n) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i % 251);
  return b;
}

struct Descriptor {
  std::string name, comment, expect, file, credentials, plaintext, error;
};

void write_descriptor(const Descriptor& d) {
  std::string text =
      "# " + d.comment + "\nexpect: " + d.expect + "\nfile: " + d.file + ".pcrypt\n" + d.credentials;
  if (!d.plaintext.empty()) text += "plaintext: " + d.plaintext + "\n";
  if (!d.error.empty()) text += "error-contains: " + d.error + "\n";
  write_text(kDir / (d.name + ".test"), text);
}

std::string hex(const std::uint8_t* p, std::size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += {digits[p[i] >> 4], digits[p[i] & 15]};
  return out;
}

// FORMAT.md §2 KDF straight from libsodium (not through pcrypt's own key code).
Bytes sodium_kdf(const std::uint8_t* key, const char* label) {
  Bytes out(32);
  REQUIRE(crypto_kdf_derive_from_key(out.data(), out.size(), 1, label, key) == 0);
  return out;
}

// The README's block of intermediate values (between these markers) for keyfile_hello.pcrypt opened with
// test.key, recomputed from those two files with raw libsodium calls.
constexpr const char* kValuesBegin =
    "<!-- intermediate values: begin (written by the generator, checked by the tests) -->\n";
constexpr const char* kValuesEnd = "<!-- intermediate values: end -->\n";

std::string intermediate_values() {
  const core::Credential key = core::parse_key_file(read_text(kDir / "test.key"), "test.key");
  const Bytes file = read_file(kDir / "keyfile_hello.pcrypt");
  // One key-file slot (FORMAT.md §3): fixed part 0..14, slot 15..87 (kind, nonce 16..39, wrapped key
  // 40..87), MAC 88..119, then the one record of "hello, pcrypt\n" (14 + 16 bytes).
  REQUIRE(file.size() == 120 + 14 + 16);
  REQUIRE(file[14] == 1);
  REQUIRE(file[15] == 1);
  const std::uint8_t* nonce = file.data() + 16;
  const std::uint8_t* wrapped = file.data() + 40;
  const Bytes kek = sodium_kdf(key.secret.data(), "PCKEYFIL");
  Bytes fk(32);
  unsigned long long fk_len = 0;
  REQUIRE(crypto_aead_xchacha20poly1305_ietf_decrypt(fk.data(), &fk_len, nullptr, wrapped, 48, nullptr, 0,
                                                     nonce, kek.data()) == 0);
  REQUIRE(fk_len == 32);
  const Bytes hk = sodium_kdf(fk.data(), "PCHDRMAC"), pk = sodium_kdf(fk.data(), "PCPAYLOD");
  Bytes mac(32);
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, hk.data(), hk.size());
  crypto_auth_hmacsha256_update(&state, file.data(), 88);
  crypto_auth_hmacsha256_final(&state, mac.data());
  CHECK(mac == Bytes(file.begin() + 88, file.begin() + 120));            // the values really open this file
  const std::uint8_t nonce0[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};  // chunk 0, last
  if (crypto_aead_aes256gcm_is_available()) {
    Bytes plain(14);
    unsigned long long plain_len = 0;
    REQUIRE(crypto_aead_aes256gcm_decrypt(plain.data(), &plain_len, nullptr, file.data() + 120, 30, nullptr,
                                          0, nonce0, pk.data()) == 0);
    CHECK(plain == read_file(kDir / "hello.txt"));
  }
  std::string out = "```\n";
  auto line = [&out](const std::string& name, const std::uint8_t* p, std::size_t n) {
    out += name + std::string(name.size() < 34 ? 34 - name.size() : 1, ' ') + hex(p, n) + "\n";
  };
  line("K (test.key)", key.secret.data(), 32);
  line("KEK = KDF(K, \"PCKEYFIL\")", kek.data(), 32);
  line("N (file bytes 16..39)", nonce, 24);
  line("wrapped key (file bytes 40..87)", wrapped, 48);
  line("FK = XOpen(KEK, N, wrapped key)", fk.data(), 32);
  line("HK = KDF(FK, \"PCHDRMAC\")", hk.data(), 32);
  line("MAC = HMAC(HK, file bytes 0..87)", mac.data(), 32);
  line("PK = KDF(FK, \"PCPAYLOD\")", pk.data(), 32);
  line("nonce_0 (chunk 0, last)", nonce0, 12);
  line("record_0 (file bytes 120..149)", file.data() + 120, 30);
  return out + "```\n";
}

}  // namespace

TEST_CASE("known-answer files decrypt as described on every supported engine") {
  std::vector<Vector> vectors;
  for (const fs::directory_entry& e : fs::directory_iterator(kDir))
    if (e.path().extension() == ".test") vectors.push_back(parse_descriptor(e.path()));
  std::map<std::string, int> by_expectation;
  for (const Vector& v : vectors) ++by_expectation[v.expect];
  // Guards against a missing or emptied directory passing silently.
  REQUIRE(by_expectation["success"] >= 8);
  REQUIRE(by_expectation["header failure"] >= 20);
  REQUIRE(by_expectation["payload failure"] >= 7);
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
  Bytes version3 = keyfile_hello;
  version3[8] = 3;
  Bytes bad_magic = keyfile_hello;
  bad_magic[1] = 'p';
  write_file(kDir / "bad_truncated_at_boundary.pcrypt", cut(three, header + 2 * record));
  write_file(kDir / "bad_truncated_mid_chunk.pcrypt", cut(three, header + record + 100));
  write_file(kDir / "bad_swapped_chunks.pcrypt", swapped);
  write_file(kDir / "bad_appended_byte.pcrypt", appended);
  write_file(kDir / "bad_tag_bit_flip.pcrypt", tag_flip);
  write_file(kDir / "bad_header_bit_flip.pcrypt", chunk_size_flip);
  write_file(kDir / "bad_version.pcrypt", version2);
  write_file(kDir / "bad_version_3.pcrypt", version3);
  write_file(kDir / "bad_magic.pcrypt", bad_magic);
  write_file(kDir / "bad_truncated_header.pcrypt", cut(keyfile_hello, 100));

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
      {"bad_version",
       "version byte 2 without a recipient slot (FORMAT.md 10.1): refused once the slots are read (5, step "
       "2)",
       "header failure", "bad_version", k, "", "unsupported format version 2 without a recipient slot"},
      {"bad_version_3", "version byte 3, unknown (5, step 1)", "header failure", "bad_version_3", k, "",
       "unsupported format version 3"},
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
  for (const Descriptor& d : descriptors) write_descriptor(d);
}

// Refusal vectors (FORMAT.md §3, §4, §5 step 1), the odd-chunk-size vector and the README's intermediate
// values, derived from the files the case above writes (it runs first under "[.generate]"). Every damaged
// file breaks exactly one rule, before the header MAC is checked where the rule is about the header, so the
// error message says which rule refused it.
TEST_CASE("write the refusal vectors and intermediate values", "[.generate]") {
  const core::Credential key = test::key_from_text(read_text(kDir / "test.key"));
  const Bytes hello = read_file(kDir / "keyfile_hello.pcrypt");
  const Bytes pass_hello = read_file(kDir / "passphrase_hello.pcrypt");
  const Bytes three = read_file(kDir / "keyfile_three_chunks.pcrypt");
  const Bytes two_full = read_file(kDir / "keyfile_two_full_chunks.pcrypt");
  const std::size_t header = 120, record = 4096 + 16;
  auto with = [](Bytes b, std::size_t at, std::initializer_list<std::uint8_t> bytes) {
    for (const std::uint8_t v : bytes) b[at++] = v;
    return b;
  };
  auto cut = [](const Bytes& b, std::size_t len) { return Bytes(b.begin(), b.begin() + len); };

  write_file(kDir / "bad_empty.pcrypt", {});
  write_file(kDir / "bad_short_magic_prefix.pcrypt", cut(hello, 5));
  write_file(kDir / "bad_short_fixed_part.pcrypt", cut(hello, 14));
  write_file(kDir / "bad_short_foreign.pcrypt", test::to_bytes("hello"));
  write_file(kDir / "bad_suite.pcrypt", with(hello, 9, {2}));
  write_file(kDir / "bad_chunk_size_below.pcrypt", with(hello, 10, {0x00, 0x00, 0x0f, 0xff}));  // 4095
  write_file(kDir / "bad_chunk_size_above.pcrypt", with(hello, 10, {0x04, 0x00, 0x00, 0x01}));  // 64 MiB + 1
  write_file(kDir / "bad_slot_count_0.pcrypt", with(hello, 14, {0}));
  // 255, the largest count the byte holds, is valid: the reader goes on to a second slot, and the MAC's first
  // byte is no slot kind.
  write_file(kDir / "bad_slot_count_255.pcrypt", with(hello, 14, {255}));
  write_file(kDir / "bad_slot_kind.pcrypt", with(hello, 15, {3}));
  write_file(kDir / "bad_kdf_ops_0.pcrypt", with(pass_hello, 16, {0, 0, 0, 0}));
  write_file(kDir / "bad_kdf_memory_7.pcrypt", with(pass_hello, 20, {0, 0, 0, 7}));
  // Five copies of the passphrase slot (slot bytes 15..111), the MAC and payload of the original.
  Bytes five = with(cut(pass_hello, 15), 14, {5});
  for (int i = 0; i < 5; ++i) five.insert(five.end(), pass_hello.begin() + 15, pass_hello.begin() + 112);
  five.insert(five.end(), pass_hello.begin() + 112, pass_hello.end());
  write_file(kDir / "bad_five_passphrase_slots.pcrypt", five);
  // Payload: a final record of 10 bytes (shorter than a tag) after two full records.
  write_file(kDir / "bad_short_final_record.pcrypt", cut(three, header + 2 * record + 10));
  // Payload: chunk 0 (full, sealed not-last) followed by an authentic empty chunk 1 sealed last. Only the
  // rule "an empty final chunk must be chunk 0" refuses it; authentication alone would accept it.
  {
    io::MemoryReader in(two_full);
    const core::ParsedHeader parsed = core::read_header(in);
    const auto fk = core::unlock_file_key(parsed, test::creds(key), core::default_kdf_ceiling());
    const auto pk = core::derive_subkey(fk.span(), core::kLabelPayload);
    const core::ChunkCipher cipher(core::gcm_aead(aes::best_engine().make_gcm(
        std::span<const std::uint8_t, aes::kGcmKeyBytes>(pk.data(), aes::kGcmKeyBytes))));
    Bytes empty_last(16);
    cipher.seal(1, true, empty_last.data(), 0);
    Bytes file = cut(two_full, header + record);
    file.insert(file.end(), empty_last.begin(), empty_last.end());
    write_file(kDir / "bad_empty_final_chunk.pcrypt", file);
  }
  // Any chunk size in range is valid, also an odd one: 4097-byte chunks, the last one 98 bytes.
  {
    core::EncryptOptions options;
    options.chunk_size = 4097;
    options.threads = 1;
    const Bytes plain = read_file(kDir / "three_chunks.bin");
    io::MemoryReader in(plain);
    io::MemoryWriter out;
    core::encrypt_stream(in, out, test::creds(key), options);
    write_file(kDir / "keyfile_odd_chunk_size.pcrypt", out.data());
  }

  const std::string k = "key-file: test.key\n", p = "passphrase: correct horse battery staple\n";
  const std::vector<Descriptor> descriptors = {
      {"keyfile_odd_chunk_size", "chunk size 4097 (odd, not a power of two): any size in range is valid",
       "success", "keyfile_odd_chunk_size", k, "three_chunks.bin", ""},
      {"kdf_above_ceiling_key_only",
       "only a key file given: the passphrase slot above the ceiling is not the reason, no slot opens",
       "header failure", "passphrase_ops17_hello", k, "", "wrong key or passphrase"},
      {"bad_empty", "0 bytes", "header failure", "bad_empty", k, "", "not a pcrypt file: input is empty"},
      {"bad_short_magic_prefix", "5 bytes, a prefix of the magic", "header failure", "bad_short_magic_prefix",
       k, "", "truncated header"},
      {"bad_short_fixed_part", "14 bytes: the fixed part without its slot count", "header failure",
       "bad_short_fixed_part", k, "", "truncated header"},
      {"bad_short_foreign", "5 bytes that are not a prefix of the magic", "header failure",
       "bad_short_foreign", k, "", "not a pcrypt file: bad magic"},
      {"bad_suite", "cipher suite 2", "header failure", "bad_suite", k, "", "unsupported cipher suite 2"},
      {"bad_chunk_size_below", "chunk size 4095", "header failure", "bad_chunk_size_below", k, "",
       "invalid chunk size 4095"},
      {"bad_chunk_size_above", "chunk size 67108865", "header failure", "bad_chunk_size_above", k, "",
       "invalid chunk size 67108865"},
      {"bad_slot_count_0", "slot count 0", "header failure", "bad_slot_count_0", k, "",
       "invalid key slot count 0"},
      {"bad_slot_count_255", "slot count 255 (valid) but one slot present: the MAC is read as slot 2",
       "header failure", "bad_slot_count_255", k, "", "in key slot 2"},
      {"bad_slot_kind", "slot kind 3", "header failure", "bad_slot_kind", k, "",
       "unsupported key slot kind 3"},
      {"bad_kdf_ops_0", "passphrase slot with Argon2id t = 0", "header failure", "bad_kdf_ops_0", p, "",
       "invalid Argon2id parameters"},
      {"bad_kdf_memory_7", "passphrase slot with Argon2id m = 7 KiB", "header failure", "bad_kdf_memory_7", p,
       "", "invalid Argon2id parameters"},
      {"bad_five_passphrase_slots", "five passphrase slots (at most 4)", "header failure",
       "bad_five_passphrase_slots", p, "", "too many passphrase slots"},
      {"bad_short_final_record", "final record of 10 bytes, shorter than its tag", "payload failure",
       "bad_short_final_record", k, "", "shorter than its 16-byte tag"},
      {"bad_empty_final_chunk", "an authentic empty chunk 1 sealed last after a full chunk 0",
       "payload failure", "bad_empty_final_chunk", k, "", "only chunk 0 may be empty"},
  };
  for (const Descriptor& d : descriptors) write_descriptor(d);

  // The README's intermediate values block.
  std::string readme = read_text(kDir / "README.md");
  const std::size_t begin = readme.find(kValuesBegin), end = readme.find(kValuesEnd);
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  const std::size_t from = begin + std::string(kValuesBegin).size();
  readme.replace(from, end - from, intermediate_values());
  write_text(kDir / "README.md", readme);
}

TEST_CASE("the vectors README shows the intermediate values of keyfile_hello.pcrypt") {
  const std::string readme = read_text(kDir / "README.md");
  const std::size_t begin = readme.find(kValuesBegin), end = readme.find(kValuesEnd);
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  const std::size_t from = begin + std::string(kValuesBegin).size();
  CHECK(readme.substr(from, end - from) == intermediate_values());
}

TEST_CASE("the empty-final-chunk vector is authentic: only the format rule refuses it") {
  const Bytes file = read_file(kDir / "bad_empty_final_chunk.pcrypt");
  io::MemoryReader in(file);
  const core::ParsedHeader parsed = core::read_header(in);
  const core::Credential key = core::parse_key_file(read_text(kDir / "test.key"), "test.key");
  const auto fk = core::unlock_file_key(parsed, test::creds(key), core::default_kdf_ceiling());
  const auto pk = core::derive_subkey(fk.span(), core::kLabelPayload);
  const core::ChunkCipher cipher(core::gcm_aead(aes::best_engine().make_gcm(
      std::span<const std::uint8_t, aes::kGcmKeyBytes>(pk.data(), aes::kGcmKeyBytes))));
  REQUIRE(file.size() == 120 + 4112 + 16);
  Bytes last(file.end() - 16, file.end());
  CHECK(cipher.open(1, true, last.data(), 0));
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

// A hostile header (FORMAT.md §10.6, §5 step 2): pq_three_chunks.pcrypt's kind-5 slot, then a kind-3 slot
// wrapping the same file key to x25519.key, under a valid header MAC and the original payload. A reader
// without the no-mixing rule opens it with either identity; pcrypt refuses it before trying a key. Needs
// pq_three_chunks.pcrypt, pq.key and x25519.key (made with the CLI, README.md).
TEST_CASE("write the post-quantum mixing vector", "[.generate]") {
  const Bytes pq_file = read_file(kDir / "pq_three_chunks.pcrypt");
  io::MemoryReader in(pq_file);
  const core::ParsedHeader parsed = core::read_header(in);
  REQUIRE(parsed.header.slots.size() == 1);
  REQUIRE(parsed.header.slots[0].kind == core::SlotKind::mlkem768_x25519);
  const core::Identity x25519 = only_identity("x25519.key");
  const SecretBytes fk = core::unlock_file_key(
      parsed, test::creds(core::Credential::of(only_identity("pq.key"))), core::default_kdf_ceiling());
  Bytes header(parsed.authenticated_bytes.begin(), parsed.authenticated_bytes.end());
  header[14] = 2;  // slot count
  const std::vector<std::uint8_t> classical = core::recipient_slot::wrap(fk, core::recipient_of(x25519));
  header.insert(header.end(), classical.begin(), classical.end());
  const auto mac = core::compute_header_mac(fk, header);
  Bytes file = header;
  file.insert(file.end(), mac.begin(), mac.end());
  file.insert(file.end(), pq_file.begin() + static_cast<std::ptrdiff_t>(parsed.total_bytes()), pq_file.end());
  write_file(kDir / "bad_pq_mixed_slots.pcrypt", file);
  const std::string rule = "a header may not mix them";
  write_descriptor(
      {"bad_pq_mixed_slots",
       "kind-5 slot, then a kind-3 slot for the same file key, valid MAC: refused before any key "
       "(FORMAT.md 10.6, 5 step 2)",
       "header failure", "bad_pq_mixed_slots", "identity: x25519.key\n", "", rule});
  write_descriptor({"bad_pq_mixed_slots_by_pq", "the same file given the post-quantum identity",
                    "header failure", "bad_pq_mixed_slots", "identity: pq.key\n", "", rule});
}

TEST_CASE("the post-quantum mixing vector is authentic: only the no-mixing rule refuses it") {
  const Bytes file = read_file(kDir / "bad_pq_mixed_slots.pcrypt");
  const Bytes pq_file = read_file(kDir / "pq_three_chunks.pcrypt");
  const std::size_t pq_slot_at = 15,
                    x25519_slot_at = pq_slot_at + core::recipient_slot::mlkem768_x25519_slot_size,
                    mac_at = x25519_slot_at + core::recipient_slot::x25519_slot_size;
  REQUIRE(file.size() > mac_at + 32);
  CHECK(file[14] == 2);
  CHECK(file[pq_slot_at] == 5);
  CHECK(file[x25519_slot_at] == 3);
  const core::Identity pq = only_identity("pq.key");
  const core::Identity x25519 = only_identity("x25519.key");
  const std::span<const std::uint8_t> bytes(file);
  const auto from_pq = core::recipient_slot::unwrap(
      bytes.subspan(pq_slot_at, core::recipient_slot::mlkem768_x25519_slot_size), pq);
  const auto from_x25519 = core::recipient_slot::unwrap(
      bytes.subspan(x25519_slot_at, core::recipient_slot::x25519_slot_size), x25519);
  REQUIRE(from_pq);
  REQUIRE(from_x25519);
  CHECK(Bytes(from_pq->span().begin(), from_pq->span().end()) ==
        Bytes(from_x25519->span().begin(), from_x25519->span().end()));
  const auto mac = core::compute_header_mac(*from_pq, bytes.first(mac_at));
  CHECK(Bytes(mac.begin(), mac.end()) == Bytes(file.begin() + mac_at, file.begin() + mac_at + 32));
  // The payload is pq_three_chunks.pcrypt's, under the same file key: it decrypts to three_chunks.bin.
  const std::size_t pq_payload_at = 15 + core::recipient_slot::mlkem768_x25519_slot_size + 32;
  CHECK(Bytes(file.begin() + mac_at + 32, file.end()) ==
        Bytes(pq_file.begin() + pq_payload_at, pq_file.end()));
}
