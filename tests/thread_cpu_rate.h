// The throughput harnesses' (tests/test_*_speed.cc) one way of timing: this thread's CPU time, as `openssl
// speed` counts it, so that other processes on a shared machine do not divide the figure.
#pragma once

#include <algorithm>
#include <cstddef>
#include <ctime>
#include <vector>

namespace pcrypt::test {

inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Runs op (which processes `bytes` bytes) for rounds of about 0.15 s of CPU each and returns the median
// round's bytes per second of CPU time.
template <class F>
double median_bytes_per_cpu_second(std::size_t bytes, F&& op, int rounds = 7) {
  std::vector<double> rates;
  for (int r = 0; r < rounds; ++r) {
    std::size_t done = 0;
    const double start = thread_cpu_seconds();
    double now = start;
    // Several operations per clock read: reading the thread CPU clock is a system call.
    const std::size_t per_read = bytes >= (std::size_t{4} << 20) ? 1 : (std::size_t{4} << 20) / bytes;
    while (now - start < 0.15) {
      for (std::size_t i = 0; i < per_read; ++i) op();
      done += bytes * per_read;
      now = thread_cpu_seconds();
    }
    rates.push_back(static_cast<double>(done) / (now - start));
  }
  std::sort(rates.begin(), rates.end());
  return rates[static_cast<std::size_t>(rounds / 2)];
}

}  // namespace pcrypt::test
