// Summary statistics of a set of timing samples. Header-only so the unit tests (which link only core/io) can
// check them on inputs worked out by hand.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <span>
#include <vector>

namespace pcrypt::app::bench {

struct Summary {
  std::size_t samples = 0;
  double mean = 0;
  double median = 0;
  double stddev = 0;  // sample standard deviation (divisor n-1); 0 when there are fewer than two samples
  double min = 0;
  double max = 0;
};

// All fields are 0 for an empty input. Two passes (mean first, then squared deviations) rather than the
// textbook sum-of-squares formula, which cancels catastrophically when samples are close to each other.
inline Summary summarize(std::span<const double> xs) {
  Summary s;
  s.samples = xs.size();
  if (xs.empty()) return s;
  s.mean = std::accumulate(xs.begin(), xs.end(), 0.0) / static_cast<double>(xs.size());
  if (xs.size() > 1) {
    double squares = 0;
    for (double x : xs) squares += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(squares / static_cast<double>(xs.size() - 1));
  }
  std::vector<double> sorted(xs.begin(), xs.end());
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.max = sorted.back();
  const std::size_t mid = sorted.size() / 2;
  s.median = sorted.size() % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return s;
}

// MB/s with MB = 10^6 bytes: the unit every rate in `pcrypt bench` uses.
inline double mb_per_s(double bytes, double seconds) {
  return seconds > 0 ? bytes / seconds / 1e6 : 0;
}

}  // namespace pcrypt::app::bench
