// The measurement method shared by every experiment: warm-up, then timed samples on the monotonic clock until
// --max-samples or --max-time, stopping early (between samples only) when asked to. Header-only
// (unit-tested).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace pcrypt::app::bench {

struct Method {
  std::size_t warmups = 1;      // untimed runs first: page faults, caches, clock ramp-up
  std::size_t max_samples = 5;  // timed runs per case at most
  std::size_t min_samples = 2;  // ... and at least this many (capped by max_samples) so a stddev exists
  double max_time = 3.0;        // seconds of timed runs per case, after which no new sample starts
};

// Keeps the compiler from proving that a buffer's contents are never used (and so deleting the work).
inline void escape(const void* p) {
  asm volatile("" : : "r"(p) : "memory");
}

template <class Work>
double time_seconds(Work&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  const auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(end - start).count();
}

// Returns the seconds each timed run took. `stop` is polled before every run (warm-up included); once it
// returns true no further run starts and the samples taken so far are returned (possibly none).
template <class Work>
std::vector<double> take_samples(const Method& m, Work&& work, const std::function<bool()>& stop) {
  std::vector<double> samples;
  for (std::size_t i = 0; i < m.warmups; ++i) {
    if (stop && stop()) return samples;
    work();
  }
  const std::size_t floor = std::min(m.min_samples, m.max_samples);
  double spent = 0;
  while (samples.size() < m.max_samples && (samples.size() < floor || spent < m.max_time)) {
    if (stop && stop()) break;
    samples.push_back(time_seconds(work));
    spent += samples.back();
  }
  return samples;
}

// For work whose size is ours to choose (engines experiment): the smallest repetition count, found by
// multiplying, for which work(count) takes at least `target` seconds. Doubles as the warm-up.
template <class Work>
std::uint64_t calibrate(Work&& work, double target, const std::function<bool()>& stop) {
  std::uint64_t count = 1;
  for (;;) {
    if (stop && stop()) return count;
    const double t = time_seconds([&] { work(count); });
    if (t >= target || count >= (std::uint64_t{1} << 40)) return count;
    // Aim a little past the target, growing at most 16x per step so one slow outlier cannot overshoot wildly.
    const double factor = t > 0 ? std::clamp(target / t * 1.25, 2.0, 16.0) : 16.0;
    count = static_cast<std::uint64_t>(static_cast<double>(count) * factor) + 1;
  }
}

}  // namespace pcrypt::app::bench
