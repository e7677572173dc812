// ML-KEM-768 (core/pq): the accumulated 10 000-test run of C2SP CCTV, the CCTV "unlucky" sampling and strcmp
// vectors, the §7.2 / §7.3 input checks, and implicit rejection. Sources of every vector:
// tests/vectors/mlkem/README.md.
#include <catch2/catch.hpp>

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <map>
#include <string>

#include "core/pq/mlkem768.h"
#include "core/pq/mlkem_poly.h"
#include "core/pq/sha3.h"
#include "tests/source_dir.h"
#include "tests/test_bytes.h"

namespace mlkem768 = pcrypt::pq::mlkem768;
using pcrypt::test::Bytes;
using pcrypt::test::from_hex;
using pcrypt::test::to_hex;

namespace {

std::string vector_path(const std::string& name) {
  return std::string(pcrypt::test::source_dir()) + "/tests/vectors/mlkem/" + name;
}

// "name = hex" lines (the CCTV text format); a line with another name overwrites nothing else.
std::map<std::string, Bytes> read_kv(const std::string& name) {
  std::ifstream in(vector_path(name));
  REQUIRE(in.good());
  std::map<std::string, Bytes> kv;
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find(" = ");
    if (eq == std::string::npos || line.empty() || line[0] == '#') continue;
    kv[line.substr(0, eq)] = from_hex(line.substr(eq + 3));
  }
  return kv;
}

struct Keys {
  std::array<std::uint8_t, mlkem768::encapsulation_key_size> ek{};
  std::array<std::uint8_t, mlkem768::decapsulation_key_size> dk{};
};

}  // namespace

TEST_CASE("ML-KEM-768: accumulated 10 000 pq-crystals tests (CCTV procedure, FIPS 203 final)") {
  // CCTV's procedure: one SHAKE-128 stream over the empty string supplies, per test, d, z, m and a random
  // (invalid) ciphertext; ek, dk, ct, K and the implicit-rejection K of the random ciphertext are written, in
  // that order, to a second SHAKE-128 whose first 32 bytes are compared. CCTV's published hash is for the
  // FIPS 203 draft's KeyGen (G(d), not G(d || k)); the final-standard value is BoringSSL's, also used by
  // LibreSSL's regress test (README).
  constexpr int tests = 10000;
  constexpr std::size_t draw = 32 + 32 + 32 + mlkem768::ciphertext_size;
  pcrypt::pq::sha3::XofStream rng(pcrypt::pq::sha3::XofStream::Kind::shake128, {}, tests * draw);
  EVP_MD_CTX* out = EVP_MD_CTX_new();
  REQUIRE(EVP_DigestInit_ex(out, EVP_shake128(), nullptr) == 1);
  std::array<std::uint8_t, 32> d{}, z{}, m{}, k{}, k2{}, k_bad{};
  std::array<std::uint8_t, mlkem768::ciphertext_size> ct{}, bad{};
  Keys keys;
  int mismatches = 0;
  for (int i = 0; i < tests; ++i) {
    rng.read(d);
    if (i == 0) CHECK(to_hex(std::span(d).first(16)) == "7f9c2ba4e88f827d616045507605853e");
    rng.read(z);
    mlkem768::keygen_internal(d, z, keys.ek, keys.dk);
    EVP_DigestUpdate(out, keys.ek.data(), keys.ek.size());
    EVP_DigestUpdate(out, keys.dk.data(), keys.dk.size());
    rng.read(m);
    REQUIRE(mlkem768::encaps_internal(keys.ek, m, ct, k));
    EVP_DigestUpdate(out, ct.data(), ct.size());
    EVP_DigestUpdate(out, k.data(), k.size());
    REQUIRE(mlkem768::decaps(keys.dk, ct, k2));
    if (k2 != k) ++mismatches;
    rng.read(bad);
    REQUIRE(mlkem768::decaps(keys.dk, bad, k_bad));
    EVP_DigestUpdate(out, k_bad.data(), k_bad.size());
  }
  std::array<std::uint8_t, 32> result{};
  EVP_DigestFinalXOF(out, result.data(), result.size());
  EVP_MD_CTX_free(out);
  CHECK(mismatches == 0);
  CHECK(to_hex(result) == "f959d18d3d1180121433bf0e05f11e7908cf9d03edc150b2b07cb90bef5bc1c1");
}

TEST_CASE("ML-KEM-768: CCTV unlucky vector needs a long SHAKE-128 read in SampleNTT") {
  auto v = read_kv("unlucky_ML-KEM-768.txt");
  // Encaps and Decaps are unchanged from the draft the file was made for (README): they must match exactly.
  std::array<std::uint8_t, mlkem768::ciphertext_size> ct{};
  std::array<std::uint8_t, 32> k{};
  REQUIRE(mlkem768::encaps_internal(v["ek"], std::span<const std::uint8_t, 32>(v["m"].data(), 32), ct, k));
  CHECK(Bytes(ct.begin(), ct.end()) == v["c"]);
  CHECK(Bytes(k.begin(), k.end()) == v["K"]);
  std::array<std::uint8_t, 32> k2{};
  REQUIRE(mlkem768::decaps(v["dk"], v["c"], k2));
  CHECK(k2 == k);
  // The point of the vector: some entry of Â needs more than the 504 bytes squeezed up front (CCTV: > 575).
  const std::span<const std::uint8_t, 32> rho(v["ek"].data() + 1152, 32);
  std::size_t longest = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      pcrypt::pq::mlkem::Poly p{};
      std::size_t squeezed = 0;
      pcrypt::pq::mlkem::sample_ntt(p, rho, static_cast<std::uint8_t>(j), static_cast<std::uint8_t>(i),
                                    &squeezed);
      longest = std::max(longest, squeezed);
    }
  CHECK(longest > 504);
}

TEST_CASE("ML-KEM-768: encapsulation-key modulus check (FIPS 203 §7.2)") {
  Keys keys;
  std::array<std::uint8_t, 32> d{1}, z{2}, m{3}, k{};
  std::array<std::uint8_t, mlkem768::ciphertext_size> ct{};
  mlkem768::keygen_internal(d, z, keys.ek, keys.dk);
  CHECK(mlkem768::encapsulation_key_valid(keys.ek));
  // Each 12-bit coefficient value from q to 4095, at the first, a middle and the last position.
  for (std::size_t coeff : {std::size_t{0}, std::size_t{300}, std::size_t{767}}) {
    for (std::uint32_t value : {3329U, 3330U, 4095U}) {
      Bytes bad(keys.ek.begin(), keys.ek.end());
      const std::size_t at = coeff / 2 * 3;
      if (coeff % 2 == 0) {
        bad[at] = static_cast<std::uint8_t>(value);
        bad[at + 1] = static_cast<std::uint8_t>((bad[at + 1] & 0xF0) | (value >> 8));
      } else {
        bad[at + 1] = static_cast<std::uint8_t>((bad[at + 1] & 0x0F) | ((value & 0x0F) << 4));
        bad[at + 2] = static_cast<std::uint8_t>(value >> 4);
      }
      INFO("coefficient " << coeff << " = " << value);
      CHECK_FALSE(mlkem768::encapsulation_key_valid(bad));
      CHECK_FALSE(mlkem768::encaps_internal(bad, m, ct, k));
    }
  }
  // Wrong lengths.
  CHECK_FALSE(mlkem768::encapsulation_key_valid(std::span(keys.ek).first(1183)));
  Bytes longer(keys.ek.begin(), keys.ek.end());
  longer.push_back(0);
  CHECK_FALSE(mlkem768::encapsulation_key_valid(longer));
}

TEST_CASE("ML-KEM-768: decapsulation-key hash check, lengths, implicit rejection") {
  Keys keys;
  std::array<std::uint8_t, 32> d{7}, z{8}, m{9}, k{}, k2{};
  std::array<std::uint8_t, mlkem768::ciphertext_size> ct{};
  mlkem768::keygen_internal(d, z, keys.ek, keys.dk);
  REQUIRE(mlkem768::encaps_internal(keys.ek, m, ct, k));
  REQUIRE(mlkem768::decaps(keys.dk, ct, k2));
  CHECK(k2 == k);

  // §7.3: dk's embedded H(ek) must match its ek; a flipped bit in either is refused.
  for (std::size_t at : {std::size_t{1152 + 5}, std::size_t{1152 + 1184 + 3}}) {
    auto bad = keys.dk;
    bad[at] ^= 1;
    CHECK_FALSE(mlkem768::decaps(bad, ct, k2));
  }
  CHECK_FALSE(mlkem768::decaps(std::span(keys.dk).first(2399), ct, k2));
  CHECK_FALSE(mlkem768::decaps(keys.dk, std::span(ct).first(1087), k2));

  // A changed ciphertext decapsulates to J(z || c), not to K, and not as an error.
  auto tampered = ct;
  tampered[1000] ^= 0x10;
  REQUIRE(mlkem768::decaps(keys.dk, tampered, k2));
  CHECK(k2 != k);
  std::array<std::uint8_t, 32> expected{};
  pcrypt::pq::sha3::shake256({z, tampered}, expected);
  CHECK(k2 == expected);
}

TEST_CASE("ML-KEM-768: CCTV strcmp vectors (rejection must compare every byte)") {
  std::ifstream in(vector_path("strcmp_ML-KEM-768.txt"));
  REQUIRE(in.good());
  std::map<std::string, Bytes> v;
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    const auto eq = line.find(" = ");
    if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
    v[line.substr(0, eq)] = from_hex(line.substr(eq + 3));
    if (line.substr(0, eq) != "K") continue;
    std::array<std::uint8_t, 32> k{};
    REQUIRE(mlkem768::decaps(v["dk"], v["c"], k));
    CHECK(Bytes(k.begin(), k.end()) == v["K"]);
    ++checked;
  }
  CHECK(checked > 0);
}
