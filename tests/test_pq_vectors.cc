// Known-answer vectors kept as data under tests/vectors/acvp/ (source and licence in its README.md): NIST
// ACVP ML-KEM-768 keyGen and encapDecap. Every record of every file is run; a file that yields another number
// of records than it should fails the test, so a truncated or misparsed file cannot pass silently.
#include <catch2/catch.hpp>

#include <array>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/pq/mlkem768.h"
#include "tests/source_dir.h"
#include "tests/test_bytes.h"

namespace mlkem768 = pcrypt::pq::mlkem768;
using pcrypt::test::Bytes;
using pcrypt::test::from_hex;
using pcrypt::test::to_hex;

namespace {

using Record = std::map<std::string, std::string>;

// "name = value" lines; a blank line ends a record; '#' lines are comments.
std::vector<Record> read_records(const std::string& relative) {
  std::ifstream in(std::string(pcrypt::test::source_dir()) + "/tests/vectors/" + relative);
  REQUIRE(in.good());
  std::vector<Record> records;
  Record current;
  std::string line;
  const auto flush = [&] {
    if (!current.empty()) records.push_back(std::move(current));
    current.clear();
  };
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '#') continue;
    if (line.empty()) {
      flush();
      continue;
    }
    const auto eq = line.find(" = ");
    REQUIRE(eq != std::string::npos);
    current[line.substr(0, eq)] = line.substr(eq + 3);
  }
  flush();
  return records;
}

Bytes field(const Record& r, const std::string& name) {
  const auto it = r.find(name);
  REQUIRE(it != r.end());
  return from_hex(it->second);
}

// FIPS 203 dk layout: dk_PKE (384 k) || ek || H(ek) || z.
constexpr std::size_t ek_offset = 384 * 3;
constexpr std::size_t hash_offset = ek_offset + mlkem768::encapsulation_key_size;

Bytes ek_of(const Bytes& dk) {
  REQUIRE(dk.size() == mlkem768::decapsulation_key_size);
  return Bytes(dk.begin() + ek_offset, dk.begin() + hash_offset);
}

template <std::size_t N>
std::span<const std::uint8_t, N> fixed(const Bytes& b) {
  REQUIRE(b.size() == N);
  return std::span<const std::uint8_t, N>(b.data(), N);
}

}  // namespace

TEST_CASE("ACVP ML-KEM-768 keyGen: KeyGen_internal(d, z) gives NIST's ek and dk byte for byte") {
  // tgId 2 of ML-KEM-keyGen-FIPS203 (prompt.json + expectedResults.json of one commit, FIPS 203 final:
  // (rho, sigma) = G(d || k); README.md), all 25 tests.
  const auto records = read_records("acvp/ML-KEM-768-keyGen.txt");
  REQUIRE(records.size() == 25);
  std::set<int> tc_ids;
  for (const Record& r : records) {
    INFO("keyGen tcId " << r.at("tcId"));
    tc_ids.insert(std::stoi(r.at("tcId")));
    const Bytes d = field(r, "d"), z = field(r, "z"), dk = field(r, "dk");
    std::array<std::uint8_t, mlkem768::encapsulation_key_size> our_ek{};
    std::array<std::uint8_t, mlkem768::decapsulation_key_size> our_dk{};
    mlkem768::keygen_internal(fixed<32>(d), fixed<32>(z), our_ek, our_dk);
    CHECK(to_hex(our_ek) == to_hex(ek_of(dk)));
    CHECK(to_hex(our_dk) == to_hex(dk));
  }
  CHECK(tc_ids.size() == 25);
  CHECK(*tc_ids.begin() == 26);
  CHECK(*tc_ids.rbegin() == 50);
}

TEST_CASE("ACVP ML-KEM-768 encapDecap: encapsulation with m, decapsulation incl. modified ciphertexts") {
  // tgId 2 (encapsulation, 25 tests) and tgId 5 (decapsulation, 10 tests) of ML-KEM-encapDecap-FIPS203.
  const auto records = read_records("acvp/ML-KEM-768-encapDecap.txt");
  REQUIRE(records.size() == 35);
  std::map<std::string, Bytes> group_dk;  // a decapsulation group's tests share its dk
  std::set<int> encaps_ids, decaps_ids;
  int rejections = 0;
  for (const Record& r : records) {
    INFO("encapDecap " << r.at("function") << " tgId " << r.at("tgId") << " tcId " << r.at("tcId"));
    const Bytes c = field(r, "c"), k = field(r, "k");
    std::array<std::uint8_t, 32> got{};
    if (r.at("function") == "encapsulation") {
      const Bytes ek = field(r, "ek"), m = field(r, "m");
      CHECK(mlkem768::encapsulation_key_valid(ek));
      std::array<std::uint8_t, mlkem768::ciphertext_size> ct{};
      REQUIRE(mlkem768::encaps_internal(ek, fixed<32>(m), ct, got));
      CHECK(to_hex(ct) == to_hex(c));
      CHECK(to_hex(got) == to_hex(k));
      encaps_ids.insert(std::stoi(r.at("tcId")));
    } else {
      REQUIRE(r.at("function") == "decapsulation");
      if (r.count("dk") != 0) group_dk[r.at("tgId")] = field(r, "dk");
      REQUIRE(group_dk.count(r.at("tgId")) == 1);
      const Bytes& dk = group_dk[r.at("tgId")];
      if (r.at("reason") != "no modification") ++rejections;
      // An intact ciphertext decapsulates to the encapsulated K, a modified one to the implicit-rejection
      // secret J(z || c); either way the record's k.
      REQUIRE(mlkem768::decaps(dk, c, got));
      CHECK(to_hex(got) == to_hex(k));
      decaps_ids.insert(std::stoi(r.at("tcId")));
    }
  }
  CHECK(encaps_ids.size() == 25);
  CHECK(*encaps_ids.begin() == 26);
  CHECK(*encaps_ids.rbegin() == 50);
  CHECK(decaps_ids.size() == 10);
  CHECK(*decaps_ids.begin() == 86);
  CHECK(*decaps_ids.rbegin() == 95);
  CHECK(rejections == 5);
}

TEST_CASE("ACVP ML-KEM-768 keys fail the FIPS 203 input checks when damaged (modulus, hash)") {
  // The stored encapDecap files have no keyCheck groups (README.md); these are the same two checks on the
  // ACVP keys: a coefficient of ek set to q (§7.2 modulus check) and a changed byte of dk's H(ek) (§7.3).
  const auto records = read_records("acvp/ML-KEM-768-keyGen.txt");
  REQUIRE_FALSE(records.empty());
  for (const Record& r : records) {
    INFO("tcId " << r.at("tcId"));
    const Bytes dk = field(r, "dk");
    Bytes ek = ek_of(dk);
    REQUIRE(mlkem768::encapsulation_key_valid(ek));
    std::array<std::uint8_t, 32> m{}, k{};
    std::array<std::uint8_t, mlkem768::ciphertext_size> ct{};
    REQUIRE(mlkem768::encaps_internal(ek, m, ct, k));
    REQUIRE(mlkem768::decaps(dk, ct, k));

    Bytes bad_ek = ek;  // coefficient 1 of polynomial 2 := 3329 = q (bytes 769..770, high nibble + byte)
    const std::size_t at = 384 * 2;
    bad_ek[at + 1] = static_cast<std::uint8_t>((bad_ek[at + 1] & 0x0F) | ((3329 & 0x0F) << 4));
    bad_ek[at + 2] = static_cast<std::uint8_t>(3329 >> 4);
    CHECK_FALSE(mlkem768::encapsulation_key_valid(bad_ek));
    CHECK_FALSE(mlkem768::encaps_internal(bad_ek, m, ct, k));

    Bytes bad_dk = dk;
    bad_dk[hash_offset + 31] ^= 0x80;
    CHECK_FALSE(mlkem768::decaps(bad_dk, ct, k));
    Bytes bad_dk_ek = dk;  // ek inside dk changed: its hash no longer matches
    bad_dk_ek[ek_offset] ^= 0x01;
    CHECK_FALSE(mlkem768::decaps(bad_dk_ek, ct, k));
  }
}
