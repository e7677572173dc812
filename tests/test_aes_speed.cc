// Throughput harness for the engine authors, hidden from the normal run (tag [.bench]; never asserts on
// time):
//   build/tests/test_aes_speed "[.bench]"            all supported engines
//   PCRYPT_BENCH_ENGINE=vaes build/tests/test_aes_speed "[.bench]"
// Prints, per engine and size, the median of several timed rounds in GB/s (1e9 bytes per second) of this
// thread's CPU time, like `openssl speed` (which counts user CPU time unless given -elapsed): on a shared,
// loaded machine wall time would mostly measure the other processes.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/aes_vectors.h"
#include "tests/thread_cpu_rate.h"

namespace {

template <class F>
double median_gbps(std::size_t bytes, F&& op) {
  return pcrypt::test::median_bytes_per_cpu_second(bytes, op) / 1e9;
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
