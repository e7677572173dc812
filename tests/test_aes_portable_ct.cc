// Constant-time check of the portable engine, ctgrind style: the key and the plaintext are marked undefined
// for valgrind's memcheck, which then reports every branch and every memory address computed from them.
// Arithmetic on secrets is fine; a table lookup or an early exit is an error. The visible test re-runs this
// executable under valgrind (skipped when valgrind or its headers are absent, and in sanitizer builds).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include "core/aes/engine.h"
#include "tests/ct_support.h"

namespace {

constexpr const char* kChildTest = "portable engine: no secret-dependent branch or address (memcheck child)";

}  // namespace

TEST_CASE("portable engine: no secret-dependent branch or address (memcheck child)", "[.ct-child]") {
#ifdef PCRYPT_HAVE_MEMCHECK
  REQUIRE(RUNNING_ON_VALGRIND);
  const pcrypt::aes::Engine* e = pcrypt::aes::find_engine("portable");
  REQUIRE(e != nullptr);
  static std::uint8_t key[32], nonce[12], msg[300], aad[50], tag[16], out[300], counter[16];
  for (int i = 0; i < 300; ++i) msg[i] = static_cast<std::uint8_t>(i * 7);
  for (int i = 0; i < 32; ++i) key[i] = static_cast<std::uint8_t>(i * 13 + 1);
  VALGRIND_MAKE_MEM_UNDEFINED(key, sizeof key);
  VALGRIND_MAKE_MEM_UNDEFINED(msg, sizeof msg);

  // Each step must add no memcheck error. (Catch's own REQUIRE reads only defined values.)
  const auto errors = [] { return VALGRIND_COUNT_ERRORS; };
  const unsigned before = errors();
  {
    auto gcm = e->make_gcm(std::span<const std::uint8_t, 32>(key, 32));
    CHECK(errors() == before);
    gcm->seal(out, tag, msg, 300, aad, sizeof aad, nonce);  // AES-CTR + GHASH keyed by the secret key
    CHECK(errors() == before);
    gcm->seal(out, tag, msg, 37, aad, 3, nonce);  // partial blocks take other code paths
    CHECK(errors() == before);
  }
  for (std::size_t len : {16, 24, 32}) {
    auto aes = e->make_block_cipher(std::span<const std::uint8_t>(key, len));
    aes->encrypt_blocks(out, msg, 11);  // one eight-block and one four-block pass
    aes->decrypt_blocks(out, msg, 11);
    aes->ctr_xor(out, msg, 300, counter);
    CHECK(errors() == before);
  }
  // open() is GHASH + CTR (checked above), crypto_verify_16, and then a branch on the public accept/reject
  // result, which memcheck would rightly see as derived from the key; it is not run here.
#endif
}

TEST_CASE("portable engine is constant time under valgrind memcheck") {
  pcrypt::test::run_child_under_memcheck(kChildTest, "ct_child.log");
}
