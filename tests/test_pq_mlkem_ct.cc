// Constant-time check of ML-KEM-768 (core/pq), the same way as tests/test_aes_portable_ct.cc: the secret
// inputs (d and z for KeyGen, m for Encaps, the secret part of dk for Decaps) are marked undefined for
// valgrind's memcheck, which then reports every branch and every memory address computed from them. The
// visible test re-runs this executable under valgrind (skipped when valgrind or its headers are absent, and
// in sanitizer builds).
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/pq/mlkem768.h"
#include "tests/ct_support.h"

namespace mlkem768 = pcrypt::pq::mlkem768;

namespace {

constexpr const char* kChildTest = "ML-KEM-768: no secret-dependent branch or address (memcheck child)";

}  // namespace

TEST_CASE("ML-KEM-768: no secret-dependent branch or address (memcheck child)", "[.ct-child]") {
#ifdef PCRYPT_HAVE_MEMCHECK
  REQUIRE(RUNNING_ON_VALGRIND);
  static std::array<std::uint8_t, 32> d{}, z{}, m{}, k{}, k2{};
  static std::array<std::uint8_t, mlkem768::encapsulation_key_size> ek{};
  static std::array<std::uint8_t, mlkem768::decapsulation_key_size> dk{};
  static std::array<std::uint8_t, mlkem768::ciphertext_size> ct{};
  for (int i = 0; i < 32; ++i) {
    d[i] = static_cast<std::uint8_t>(i * 7 + 1);
    z[i] = static_cast<std::uint8_t>(i * 11 + 3);
    m[i] = static_cast<std::uint8_t>(i * 13 + 5);
  }
  const auto errors = [] { return VALGRIND_COUNT_ERRORS; };
  const unsigned before = errors();

  VALGRIND_MAKE_MEM_UNDEFINED(d.data(), d.size());
  VALGRIND_MAKE_MEM_UNDEFINED(z.data(), z.size());
  mlkem768::keygen_internal(d, z, ek, dk);
  CHECK(errors() == before);
  // ek is public; of dk only the first 1152 bytes (s) and the last 32 (z) are secret.
  VALGRIND_MAKE_MEM_DEFINED(ek.data(), ek.size());
  VALGRIND_MAKE_MEM_DEFINED(dk.data() + 1152, 1184 + 32);

  VALGRIND_MAKE_MEM_UNDEFINED(m.data(), m.size());
  REQUIRE(mlkem768::encaps_internal(ek, m, ct, k));
  CHECK(errors() == before);
  VALGRIND_MAKE_MEM_DEFINED(ct.data(), ct.size());  // the ciphertext is public

  REQUIRE(mlkem768::decaps(dk, ct, k2));  // the valid ciphertext: K' is selected
  CHECK(errors() == before);
  ct[5] ^= 1;
  REQUIRE(mlkem768::decaps(dk, ct, k2));  // implicit rejection: J(z || c) is selected, by a mask
  CHECK(errors() == before);
#endif
}

TEST_CASE("ML-KEM-768 is constant time under valgrind memcheck") {
  pcrypt::test::run_child_under_memcheck(kChildTest, "pq_ct_child.log");
}
