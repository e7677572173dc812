// The armce engine's two GCM builds, plain EOR and EOR3, each checked directly, with AES-256 and AES-128 keys
// (the engine runs only the one HWCAP picks, and qemu -cpu max reports SHA3): byte-identical to the portable
// engine for every length 0..1023 and around 3 MiB, in place and not, with AAD, and each opens what the other
// sealed. The engine as a whole goes through every other AES test (Wycheproof, SP 800-38A, differential) like
// any engine.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "core/aes/cpu_arm64.h"
#include "core/aes/engine.h"
#include "core/aes/engine_registry.h"
#include "tests/aes_vectors.h"

#if defined(PCRYPT_ENGINES_AARCH64)

namespace {

using aes_test::Bytes;
using aes_test::ptr;
using Key = std::span<const std::uint8_t>;

struct Build {
  const char* name;
  std::unique_ptr<pcrypt::aes::Gcm> (*make)(Key);
};

std::vector<Build> builds_here() {
  std::vector<Build> out{{"armce EOR", pcrypt::aes::detail::make_armce_eor_gcm}};
  if (pcrypt::aes::cpu_arm64::features().sha3)
    out.push_back({"armce EOR3", pcrypt::aes::detail::make_armce_eor3_gcm});
  else
    WARN("SKIPPED: the EOR3 build (this CPU has no SHA3)");
  return out;
}

}  // namespace

TEST_CASE("both armce GCM builds match the portable engine on every length class, both ways") {
  const pcrypt::aes::Engine* armce = pcrypt::aes::find_engine("armce");
  REQUIRE(armce != nullptr);
  if (!armce->supported()) {
    WARN("SKIPPED: armce not supported on this CPU");
    return;
  }
  const pcrypt::aes::Engine* portable = pcrypt::aes::find_engine("portable");
  REQUIRE(portable != nullptr);
  std::mt19937_64 rng(20261123);
  const auto bytes = [&](std::size_t n) {
    Bytes b(n);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    return b;
  };
  std::vector<std::size_t> lens;
  for (std::size_t n = 0; n < 1024; ++n) lens.push_back(n);
  for (std::size_t d : {0, 1, 16, 129}) lens.push_back((3u << 20) - 64 + d);
  for (const std::size_t key_len : {std::size_t{32}, std::size_t{16}}) {
    const Bytes key = bytes(key_len);
    const auto reference = aes_test::make_gcm(*portable, key);
    const std::vector<Build> builds = builds_here();
    std::vector<std::unique_ptr<pcrypt::aes::Gcm>> gcms;
    for (const Build& b : builds) gcms.push_back(b.make(Key(key.data(), key.size())));
    for (std::size_t len : lens) {
      const Bytes nonce = bytes(12), msg = bytes(len), aad = bytes(len % 97);
      Bytes want(len), want_tag(16);
      reference->seal(ptr(want), ptr(want_tag), ptr(msg), len, ptr(aad), aad.size(), ptr(nonce));
      for (std::size_t i = 0; i < gcms.size(); ++i) {
        INFO(builds[i].name << ", AES-" << 8 * key_len << ", len " << len);
        Bytes buf = msg, tag(16);
        gcms[i]->seal(ptr(buf), ptr(tag), ptr(buf), len, ptr(aad), aad.size(), ptr(nonce));  // in place
        REQUIRE(buf == want);
        REQUIRE(tag == want_tag);
        Bytes out(len);
        REQUIRE(gcms[i]->open(ptr(out), ptr(want), len, ptr(want_tag), ptr(aad), aad.size(), ptr(nonce)));
        REQUIRE(out == msg);
        // Each build opens what the other sealed (out of place here).
        const auto& other = gcms[(i + 1) % gcms.size()];
        Bytes ct(len), tag2(16), back(len);
        other->seal(ptr(ct), ptr(tag2), ptr(msg), len, ptr(aad), aad.size(), ptr(nonce));
        REQUIRE(gcms[i]->open(ptr(back), ptr(ct), len, ptr(tag2), ptr(aad), aad.size(), ptr(nonce)));
        REQUIRE(back == msg);
      }
    }
  }
}

#else

TEST_CASE("both armce GCM builds match the portable engine on every length class, both ways") {
  WARN("SKIPPED: the armce engine is built only for AArch64");
}

#endif
