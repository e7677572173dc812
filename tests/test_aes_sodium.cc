// The reference engine seals and opens its own output, and refuses a flipped bit.
#include <sodium.h>
#include <catch2/catch.hpp>

#include <vector>

#include "core/aes/engine.h"
#include "tests/aes_vectors.h"

TEST_CASE("sodium engine round-trips and rejects tampering") {
  const pcrypt::aes::Engine* e = aes_test::sodium_reference();
  if (e == nullptr) return;
  std::uint8_t key[32], nonce[12], tag[16];
  randombytes_buf(key, sizeof key);
  randombytes_buf(nonce, sizeof nonce);
  auto gcm = e->make_gcm(std::span<const std::uint8_t, 32>(key, 32));
  std::vector<std::uint8_t> msg(1000), ct(1000), back(1000);
  randombytes_buf(msg.data(), msg.size());
  gcm->seal(ct.data(), tag, msg.data(), msg.size(), nullptr, 0, nonce);
  REQUIRE(ct != msg);
  REQUIRE(gcm->open(back.data(), ct.data(), ct.size(), tag, nullptr, 0, nonce));
  REQUIRE(back == msg);
  ct[500] ^= 1;
  REQUIRE_FALSE(gcm->open(back.data(), ct.data(), ct.size(), tag, nullptr, 0, nonce));
  REQUIRE(back == std::vector<std::uint8_t>(1000, 0));
}
