// libpcrypt's speed through its public API (docs/benchmarks/library.md): a whole-file decrypt into a
// sink that discards, then read_at of RANGE bytes at random offsets, by 1 and by 2 threads sharing one
// opened File. Usage: lib_bench FILE IDENTITY_OR_KEY_FILE [RANGE_BYTES] [CALLS_PER_THREAD]
#include <pcrypt/pcrypt.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// `threads` threads each read `calls` ranges of `range` bytes at random offsets; returns the seconds.
double read_ranges(const pcrypt::File& file, unsigned threads, std::size_t range, std::size_t calls,
                   std::uint64_t plaintext) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      std::mt19937_64 rng(t + 1);
      std::vector<std::uint8_t> buffer(range);
      for (std::size_t i = 0; i < calls; ++i) (void)file.read_at(rng() % (plaintext - range), buffer);
    });
  for (std::thread& w : workers) w.join();
  return seconds_since(start);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: lib_bench FILE IDENTITY_OR_KEY_FILE [RANGE_BYTES] [CALLS_PER_THREAD]\n");
    return 2;
  }
  const std::size_t range = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : std::size_t{1} << 20;
  const std::size_t calls = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 200;
  try {
    pcrypt::Credentials by;
    (std::string(argv[2]).ends_with(".key") ? by.key_files : by.identity_files).push_back(argv[2]);
    pcrypt::File file = pcrypt::File::open(pcrypt::Source::path(argv[1]));
    file.unlock(by);
    const std::uint64_t plaintext = file.plaintext_size();

    auto start = std::chrono::steady_clock::now();
    const pcrypt::Transfer whole = file.decrypt(pcrypt::Sink::callback([](std::span<const std::uint8_t>) {}));
    const double decrypt_s = seconds_since(start);
    std::printf("decrypt (whole file, all cores): %.3f s, %.0f MB/s\n", decrypt_s,
                static_cast<double>(whole.plaintext_bytes) / decrypt_s / 1e6);

    const double one = read_ranges(file, 1, range, calls, plaintext);
    const double two = read_ranges(file, 2, range, calls, plaintext);
    const double rate1 = static_cast<double>(range * calls) / one / 1e6;
    const double rate2 = static_cast<double>(2 * range * calls) / two / 1e6;
    std::printf("read_at %zu B x %zu, 1 thread: %.3f s, %.0f MB/s, %.3f ms per call\n", range, calls, one,
                rate1, one / static_cast<double>(calls) * 1e3);
    std::printf("read_at %zu B x %zu per thread, 2 threads: %.3f s, %.0f MB/s (%.2fx one thread)\n", range,
                calls, two, rate2, rate2 / rate1);
    return 0;
  } catch (const pcrypt::Error& e) {
    std::fprintf(stderr, "lib_bench: error: %s\n", e.what());
    return 1;
  }
}
