// Throughput harness for age's payload cipher, hidden from the normal run (tag [.bench]; never asserts on
// time):
//   build/tests/test_chacha_speed "[.bench]"
// Every ChaCha20-Poly1305 backend this CPU runs (ours, OpenSSL, libsodium), seal in place and open, at 1 KiB,
// 16 KiB, 64 KiB (an age chunk) and 1 MiB, the backends alternating size by size. Each figure is the median
// of 7 rounds of this thread's CPU time (as `openssl speed`), so other processes on a shared machine do not
// divide it; cycles per byte use the clock measured first, by a chain of dependent adds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "core/chacha/chacha20poly1305.h"
#include "tests/thread_cpu_rate.h"

namespace {

#if defined(__x86_64__)
// Cycles per second of this thread: one add per cycle, each depending on the last.
double measured_hz() {
  std::vector<double> rates;
  for (int r = 0; r < 5; ++r) {
    std::uint64_t x = 0;
    const std::uint64_t n = 400'000'000;
    const double start = pcrypt::test::thread_cpu_seconds();
    for (std::uint64_t i = 0; i < n; ++i) asm volatile("add $1, %0" : "+r"(x));
    rates.push_back(static_cast<double>(n) / (pcrypt::test::thread_cpu_seconds() - start));
  }
  std::sort(rates.begin(), rates.end());
  return rates[2];
}
#endif

template <class F>
double median_ns_per_byte(std::size_t bytes, F&& op) {
  return 1e9 / pcrypt::test::median_bytes_per_cpu_second(bytes, op);
}

}  // namespace

TEST_CASE("ChaCha20-Poly1305 throughput per backend", "[.bench]") {
#if defined(__x86_64__)
  const double hz = measured_hz();
  std::printf("clock (dependent adds): %.2f GHz\n", hz / 1e9);
#else
  const double hz = 0;
#endif
  const std::vector<std::uint8_t> key(32, 0x42), nonce_bytes(12, 1);
  const std::span<const std::uint8_t, 12> nonce(nonce_bytes.data(), 12);
  std::printf("(openssl below %zu bytes is libsodium's code: the backend hands shorter messages to it)\n",
              pcrypt::chacha::kOpenSslFromBytes);
  std::printf("%-11s %-5s %9s %9s %7s\n", "backend", "op", "bytes", "ns/B", "c/B");
  for (const std::size_t size :
       {std::size_t{1024}, std::size_t{16384}, std::size_t{65536}, std::size_t{1} << 20})
    for (const auto backend : pcrypt::chacha::available_chacha_backends()) {
      const auto aead =
          pcrypt::chacha::make_chacha20poly1305(std::span<const std::uint8_t, 32>(key.data(), 32), backend);
      std::vector<std::uint8_t> buf(size, 3), tag(16);
      const double seal =
          median_ns_per_byte(size, [&] { aead->seal(buf.data(), tag.data(), buf.data(), size, nonce); });
      std::vector<std::uint8_t> sealed(size);
      aead->seal(sealed.data(), tag.data(), buf.data(), size, nonce);
      const double open = median_ns_per_byte(size, [&] {
        if (!aead->open(buf.data(), sealed.data(), size, tag.data(), nonce)) FAIL("open failed");
      });
      const std::string name(pcrypt::chacha::backend_name(backend));
      std::printf("%-11s %-5s %9zu %9.3f %7.2f\n", name.c_str(), "seal", size, seal, seal * hz / 1e9);
      std::printf("%-11s %-5s %9zu %9.3f %7.2f\n", name.c_str(), "open", size, open, open * hz / 1e9);
    }
}
