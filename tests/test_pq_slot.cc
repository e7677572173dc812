// Kind-5 key slots (docs/FORMAT.md §3.2, §10.6): the known-answer file tests/vectors/mlkem/slot_kind5.txt
// recomputed from its inputs, round trips, wrong identities, tampering, and the rule that a header never
// mixes kind 5 with the classical recipient kinds 3, 4 and 6.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <variant>

#include "core/error.h"
#include "core/keys/recipient.h"
#include "core/pcrypt/format.h"
#include "core/pcrypt/recipient_slot.h"
#include "io/memory_stream.h"
#include "tests/source_dir.h"
#include "tests/test_bytes.h"

using namespace pcrypt::core;
using pcrypt::SecretBytes;
using pcrypt::test::Bytes;
using pcrypt::test::from_hex;
using pcrypt::test::to_hex;

namespace {

Bytes bytes_of(std::span<const std::uint8_t> s) {
  return Bytes(s.begin(), s.end());
}

std::map<std::string, std::string> read_kat() {
  std::ifstream in(std::string(pcrypt::test::source_dir()) + "/tests/vectors/mlkem/slot_kind5.txt");
  REQUIRE(in.good());
  std::map<std::string, std::string> kv;
  std::string line;
  // Strict: every other line is one `name: value`, each name once; which names, the known-answer test checks.
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    INFO("slot_kind5.txt: " << line);
    const auto colon = line.find(": ");
    REQUIRE(colon != std::string::npos);
    REQUIRE(kv.emplace(line.substr(0, colon), line.substr(colon + 2)).second);
  }
  return kv;
}

// The slot and its intermediate values for fixed inputs, in the known-answer file's layout.
std::string kat_text(const Bytes& seed, const Bytes& randomness, const Bytes& file_key) {
  const Identity id = hybrid_identity_from_seed(SecretBytes(seed));
  const HybridRecipient r{id.hybrid->public_key()};
  recipient_slot::HybridTrace t;
  const auto slot = recipient_slot::wrap_hybrid_derand(
      SecretBytes(file_key), r, std::span<const std::uint8_t, 64>(randomness.data(), 64), &t);
  std::string s;
  s += "identity_seed: " + to_hex(seed) + "\n";
  s += "identity: " + format_hybrid_identity(id.secret) + "\n";
  s += "recipient: " + format_hybrid_recipient(r.public_key) + "\n";
  s += "encaps_randomness: " + to_hex(randomness) + "\n";
  s += "file_key: " + to_hex(file_key) + "\n";
  s += "expect_shared_secret: " + to_hex(t.shared_secret) + "\n";
  s += "expect_hpke_key: " + to_hex(t.key) + "\n";
  s += "expect_hpke_base_nonce: " + to_hex(t.base_nonce) + "\n";
  s += "expect_slot: " + to_hex(slot) + "\n";
  return s;
}

Bytes counting(std::size_t n, std::uint8_t start) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(start + i);
  return b;
}

KeySlot slot_of_kind(SlotKind kind, std::vector<std::uint8_t> bytes = {}) {
  KeySlot s;
  s.kind = kind;
  s.recipient_slot = std::move(bytes);
  return s;
}

}  // namespace

TEST_CASE("kind 5: regenerate the known-answer file (run by hand)", "[.generate]") {
  std::printf("%s", kat_text(counting(32, 0x40), counting(64, 0x80), counting(32, 0x00)).c_str());
}

TEST_CASE("kind 5: known-answer slot and intermediate values") {
  auto kv = read_kat();
  const std::string recomputed =
      kat_text(from_hex(kv["identity_seed"]), from_hex(kv["encaps_randomness"]), from_hex(kv["file_key"]));
  std::map<std::string, std::string> got;
  std::size_t at = 0;
  while (at < recomputed.size()) {
    const auto nl = recomputed.find('\n', at);
    const std::string line = recomputed.substr(at, nl - at);
    got[line.substr(0, line.find(": "))] = line.substr(line.find(": ") + 2);
    at = nl + 1;
  }
  for (const auto& [k, v] : got) {
    INFO(k);
    CHECK(kv[k] == v);
  }
  // Nothing else either: a stray line is an error in the vector, not a comment.
  for (const auto& [k, v] : kv) {
    INFO("field in slot_kind5.txt: " << k);
    CHECK(got.count(k) == 1);
  }
  // And the slot opens with the identity written in the file.
  const auto ids = parse_identity_file(kv["identity"] + "\n", "kat");
  REQUIRE(ids.size() == 1);
  const auto fk = recipient_slot::unwrap(from_hex(kv["expect_slot"]), ids[0]);
  REQUIRE(fk);
  CHECK(bytes_of(fk->span()) == from_hex(kv["file_key"]));
}

TEST_CASE("kind 5: round trip, wrong identities, tampering") {
  const Identity me = generate_hybrid_identity(), other = generate_hybrid_identity();
  const Identity classic = generate_x25519_identity();
  const SecretBytes fk(pcrypt::test::random_bytes(32));
  const auto slot = recipient_slot::wrap(fk, recipient_of(me));
  REQUIRE(slot.size() == recipient_slot::mlkem768_x25519_slot_size);
  CHECK(slot[0] == 5);
  CHECK(recipient_slot::slot_size(5) == 1169);
  const auto got = recipient_slot::unwrap(slot, me);
  REQUIRE(got);
  CHECK(bytes_of(got->span()) == bytes_of(fk.span()));
  CHECK_FALSE(recipient_slot::unwrap(slot, other));
  CHECK_FALSE(recipient_slot::unwrap(slot, classic));
  // A kind-3 slot is not opened by a hybrid identity either.
  CHECK_FALSE(recipient_slot::unwrap(recipient_slot::wrap(fk, recipient_of(classic)), me));
  for (std::size_t at : {std::size_t{1}, std::size_t{600}, std::size_t{1088}, std::size_t{1100},
                         std::size_t{1121}, std::size_t{1168}}) {
    auto bad = slot;
    bad[at] ^= 0x01;
    INFO("byte " << at);
    CHECK_FALSE(recipient_slot::unwrap(bad, me));
  }
  auto shorter = slot;
  shorter.pop_back();
  CHECK_FALSE(recipient_slot::unwrap(shorter, me));
}

TEST_CASE("kind 5: never in one header with X25519 or SSH recipients (no silent downgrade)") {
  const Identity me = generate_hybrid_identity();
  const SecretBytes fk(pcrypt::test::random_bytes(32));
  FileHeader h;
  h.version = kFormatVersionRecipients;
  h.slots.push_back(slot_of_kind(SlotKind::mlkem768_x25519, recipient_slot::wrap(fk, recipient_of(me))));
  // Alone, or with a key-file slot: fine, and it parses back.
  const auto alone = serialize_header(h);
  CHECK(alone.size() > 1169);
  h.slots.push_back(
      slot_of_kind(SlotKind::x25519, recipient_slot::wrap(fk, recipient_of(generate_x25519_identity()))));
  try {
    (void)serialize_header(h);
    FAIL("a header mixing kinds 5 and 3 was written");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK(std::string(e.what()).find("quantum") != std::string::npos);
  }
  CHECK_THROWS_AS(check_no_quantum_downgrade(h.slots), Error);
  h.slots.pop_back();
  CHECK_NOTHROW(check_no_quantum_downgrade(h.slots));
}

TEST_CASE("kind 5: never in one header with an SSH RSA recipient (kind 6 is classical too)") {
  std::ifstream in(std::string(pcrypt::test::source_dir()) + "/tests/vectors/recipients/ssh_rsa.key.pub");
  REQUIRE(in.good());
  std::string line;
  std::getline(in, line);
  const Recipient rsa = parse_recipient(line);
  REQUIRE(std::holds_alternative<SshRsaRecipient>(rsa));
  const SecretBytes fk(pcrypt::test::random_bytes(32));
  FileHeader h;
  h.version = kFormatVersionRecipients;
  h.slots.push_back(slot_of_kind(SlotKind::mlkem768_x25519,
                                 recipient_slot::wrap(fk, recipient_of(generate_hybrid_identity()))));
  h.slots.push_back(slot_of_kind(SlotKind::ssh_rsa, recipient_slot::wrap(fk, rsa)));
  try {
    (void)serialize_header(h);
    FAIL("a header mixing kinds 5 and 6 was written");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK(std::string(e.what()).find("quantum") != std::string::npos);
  }
  // Without the post-quantum slot the RSA slot alone is fine.
  h.slots.erase(h.slots.begin());
  CHECK_NOTHROW(check_no_quantum_downgrade(h.slots));
  CHECK_NOTHROW((void)serialize_header(h));
}

namespace {

// A header as a reader sees it, written byte by byte (serialize_header refuses the mixes tested here): the
// fixed part, each slot's bytes, and a MAC of zeros (the rule is checked before the MAC).
Bytes raw_header(const std::vector<Bytes>& slots) {
  std::size_t size = kFixedHeaderBytes + kHeaderMacBytes;
  for (const Bytes& s : slots) size += s.size();
  // Reserved whole: growing it piecemeal makes GCC 12 report a false out-of-bounds copy.
  Bytes h;
  h.reserve(size);
  for (const std::uint8_t b : kMagic) h.push_back(b);
  for (const std::uint8_t b : {kFormatVersionRecipients, kSuiteAes256Gcm, std::uint8_t{0}, std::uint8_t{0},
                               std::uint8_t{0x10}, std::uint8_t{0}})
    h.push_back(b);
  h.push_back(static_cast<std::uint8_t>(slots.size()));
  for (const Bytes& s : slots) h.insert(h.end(), s.begin(), s.end());
  h.resize(size);  // the MAC: zeros
  return h;
}

// A slot of `kind` with the right length and zero contents: the parser reads slots as opaque bytes.
Bytes opaque_slot(std::uint8_t kind) {
  if (kind == 1)
    return [] {
      Bytes s(kKeyFileSlotBytes);
      s[0] = 1;
      return s;
    }();
  if (kind == 6) {
    Bytes s(recipient_slot::ssh_rsa_prefix_size + 256);
    s[0] = 6;
    s[5] = 0x01;  // L = 256
    return s;
  }
  Bytes s(recipient_slot::slot_size(kind));
  s[0] = kind;
  return s;
}

std::string read_error(const Bytes& header) {
  pcrypt::io::MemoryReader in(header);
  try {
    (void)read_header(in);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::header);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("kind 5: a header that mixes it with kind 3, 4 or 6 is refused on read, before any key") {
  // Allowed: kind 5 alone, and with key-file slots (symmetric, not broken by a quantum computer).
  for (const auto& slots :
       {std::vector<Bytes>{opaque_slot(5)}, std::vector<Bytes>{opaque_slot(1), opaque_slot(5)},
        std::vector<Bytes>{opaque_slot(5), opaque_slot(5), opaque_slot(1)}}) {
    const Bytes header = raw_header(slots);
    pcrypt::io::MemoryReader in(header);
    CHECK(read_header(in).header.slots.size() == slots.size());
  }
  for (const std::uint8_t classical : {std::uint8_t{3}, std::uint8_t{4}, std::uint8_t{6}}) {
    INFO("kind " << int{classical});
    // Either order, and with an allowed slot in between: the message names both slots.
    CHECK(read_error(raw_header({opaque_slot(5), opaque_slot(classical)})) ==
          "key slot 1 is a post-quantum recipient (kind 5) and key slot 2 a classical one (kind " +
              std::to_string(classical) + "): a header may not mix them");
    CHECK_THAT(read_error(raw_header({opaque_slot(classical), opaque_slot(1), opaque_slot(5)})),
               Catch::Matchers::Contains("key slot 3 is a post-quantum recipient (kind 5) and key slot 1"));
    // Without the kind-5 slot the same classical slot is fine.
    const Bytes header = raw_header({opaque_slot(classical), opaque_slot(1)});
    pcrypt::io::MemoryReader alone(header);
    CHECK(read_header(alone).header.slots.size() == 2);
  }
}
