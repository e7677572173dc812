// x86-64: every engine (AES-GCM and ChaCha20-Poly1305) returns from seal and open with the upper halves of
// the vector registers clean (vzeroupper), as the ABI expects, and calls nothing (crypto_verify_16 is
// libsodium's SSE code) while they are dirty. On Intel, SSE code that runs after 256-bit code left them dirty
// pays for it on every call: `vaes` opened 256-byte messages 3x slower than it sealed them (issue 27, defect
// 11). XGETBV with ECX = 1 reads which state components are in use; bit 2 is the upper halves of YMM0-15.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/aes/engine.h"
#include "core/chacha/chacha20poly1305.h"

#if defined(PCRYPT_ENGINES_X86_64)
#include <cpuid.h>

namespace {

bool xinuse_readable() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_count(0xd, 1, &a, &b, &c, &d) == 0) return false;
  return (a & (1u << 2)) != 0;  // XGETBV with ECX = 1
}

// Whether the upper halves of YMM0-15 are dirty right now.
[[gnu::noinline]] bool upper_halves_dirty() {
  unsigned lo = 0, hi = 0;
  asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
  (void)hi;
  return (lo & (1u << 2)) != 0;
}

}  // namespace

TEST_CASE("seal and open leave the upper halves of the vector registers clean") {
  if (!xinuse_readable()) {
    WARN("SKIPPED: this CPU cannot report which register state is in use (XGETBV ECX=1)");
    return;
  }
  const std::uint8_t key[32] = {1, 2, 3};
  const std::uint8_t nonce[12] = {4, 5, 6};
  for (const pcrypt::aes::Engine& engine : pcrypt::aes::all_engines()) {
    if (!engine.supported()) continue;
    const std::unique_ptr<pcrypt::aes::Gcm> gcm = engine.make_gcm(std::span<const std::uint8_t, 32>(key));
    // Whole batches of every engine (256 B, 1 KiB), a tail, and nothing at all.
    for (const std::size_t size : {std::size_t{0}, std::size_t{256}, std::size_t{1024}, std::size_t{300}}) {
      INFO(std::string(engine.name) + ", " + std::to_string(size) + " bytes");
      std::vector<std::uint8_t> plain(size, 7), sealed(size), opened(size);
      std::uint8_t tag[16];
      gcm->seal(sealed.data(), tag, plain.data(), size, nullptr, 0, nonce);
      const bool dirty_after_seal = upper_halves_dirty();
      const bool ok = gcm->open(opened.data(), sealed.data(), size, tag, nullptr, 0, nonce);
      const bool dirty_after_open = upper_halves_dirty();
      CHECK(ok);
      CHECK_FALSE(dirty_after_seal);
      CHECK_FALSE(dirty_after_open);
    }
  }
  // age's ChaCha20-Poly1305: our own AVX-512 backend keeps the same rule. (OpenSSL 3.0's, the default on
  // CPUs without AVX-512 IFMA, returns with them dirty, which is OpenSSL's code and not checked here.)
  for (const auto backend : pcrypt::chacha::available_chacha_backends()) {
    if (backend != pcrypt::chacha::ChaChaBackend::avx512ifma) continue;
    const auto aead = pcrypt::chacha::make_chacha20poly1305(std::span<const std::uint8_t, 32>(key), backend);
    for (const std::size_t size : {std::size_t{0}, std::size_t{300}, std::size_t{1024}, std::size_t{65536}}) {
      INFO("chacha20poly1305-" + std::string(pcrypt::chacha::backend_name(backend)) + ", " +
           std::to_string(size) + " bytes");
      std::vector<std::uint8_t> plain(size, 7), sealed(size), opened(size);
      std::uint8_t tag[16];
      aead->seal(sealed.data(), tag, plain.data(), size, std::span<const std::uint8_t, 12>(nonce));
      const bool dirty_after_seal = upper_halves_dirty();
      const bool ok =
          aead->open(opened.data(), sealed.data(), size, tag, std::span<const std::uint8_t, 12>(nonce));
      const bool dirty_after_open = upper_halves_dirty();
      CHECK(ok);
      CHECK_FALSE(dirty_after_seal);
      CHECK_FALSE(dirty_after_open);
    }
  }
}
#else
TEST_CASE("seal and open leave the upper halves of the vector registers clean") {
  SUCCEED("x86-64 only: AArch64 has no such state");
}
#endif
