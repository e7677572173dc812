// Throughput harness for the engine authors, hidden from the normal run (tag [.bench]; never asserts on
// time):
//   build/tests/test_aes_speed "[.bench]"            all supported engines
//   PCRYPT_BENCH_ENGINE=vaes build/tests/test_aes_speed "[.bench]"
// Prints, per engine and size, the median of several timed rounds in GB/s (1e9 bytes per second) of this
// thread's CPU time, like `openssl speed` (which counts user CPU time unless given -elapsed): on a shared,
// loaded machine wall time would mostly measure the other processes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "tests/aes_vectors.h"

namespace {

template <class F>
double median_gbps(std::size_t bytes, F&& op) {
  auto cpu_seconds = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  const int rounds = 7;
  std::vector<double> rates;
  for (int r = 0; r < rounds; ++r) {
    std::size_t done = 0;
    const double start = cpu_seconds();
    double now = start;
    // Several operations per clock read: reading the thread CPU clock is a system call.
    const std::size_t per_read = bytes >= (std::size_t{4} << 20) ? 1 : (std::size_t{4} << 20) / bytes;
    while (now - start < 0.15) {
      for (std::size_t i = 0; i < per_read; ++i) op();
      done += bytes * per_read;
      now = cpu_seconds();
    }
    rates.push_back(static_cast<double>(done) / (now - start) / 1e9);
  }
  std::sort(rates.begin(), rates.end());
  return rates[rounds / 2];
}

}  // namespace

TEST_CASE("engine throughput", "[.bench]") {
  const char* only = std::getenv("PCRYPT_BENCH_ENGINE");
  for (const pcrypt::aes::Engine* e : aes_test::engines_under_test(false)) {
    if (only != nullptr && e->name != only) continue;
    const aes_test::Bytes key(32, 0x42), nonce(12, 1), aad(32, 2);
    auto gcm = aes_test::make_gcm(*e, key);
    for (std::size_t size : {std::size_t{65536}, std::size_t{1} << 20}) {
      aes_test::Bytes buf(size, 3), tag(16);
      const double seal = median_gbps(size, [&] {
        gcm->seal(buf.data(), tag.data(), buf.data(), size, aad.data(), aad.size(), nonce.data());
      });
      gcm->seal(buf.data(), tag.data(), buf.data(), size, aad.data(), aad.size(), nonce.data());
      aes_test::Bytes work(size);
      const double open = median_gbps(size, [&] {
        if (!gcm->open(work.data(), buf.data(), size, tag.data(), aad.data(), aad.size(), nonce.data()))
          std::abort();
      });
      std::printf("%-9s gcm  %7zu B  seal %6.2f GB/s  open %6.2f GB/s\n", std::string(e->name).c_str(), size,
                  seal, open);
      if (e->make_block_cipher != nullptr) {
        auto aes = e->make_block_cipher(key);
        aes_test::Bytes counter(16, 0);
        const double ctr =
            median_gbps(size, [&] { aes->ctr_xor(buf.data(), buf.data(), size, counter.data()); });
        std::printf("%-9s ctr  %7zu B  xor  %6.2f GB/s\n", std::string(e->name).c_str(), size, ctr);
      }
      std::fflush(stdout);
    }
  }
}
