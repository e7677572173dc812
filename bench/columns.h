// The timing columns every experiment's tables share, so all tables read (and parse) alike.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/report.h"
#include "bench/sampler.h"
#include "bench/stats.h"

namespace pcrypt::app::bench {

// seconds per sample: mean, stddev, min, max, then the sample count.
inline std::vector<Column> timing_columns(int decimals) {
  return {{"seconds_mean", "time (s)", decimals},
          {"seconds_stddev", "sd (s)", decimals},
          {"seconds_min", "min (s)", decimals},
          {"seconds_max", "max (s)", decimals},
          {"samples", "samples", 0}};
}

inline std::vector<Cell> timing_cells(const Summary& s) {
  return {s.mean, s.stddev, s.min, s.max, static_cast<std::int64_t>(s.samples)};
}

inline void append(std::vector<Column>& to, const std::vector<Column>& more) {
  to.insert(to.end(), more.begin(), more.end());
}
inline void append(std::vector<Cell>& to, const std::vector<Cell>& more) {
  to.insert(to.end(), more.begin(), more.end());
}

inline std::string method_note(const Method& m) {
  return "method: " + std::to_string(m.warmups) +
         " warm-up run(s), then timed samples (steady_clock) until " + std::to_string(m.max_samples) +
         " samples or " + std::to_string(m.max_time).substr(0, 4) + " s (at least " +
         std::to_string(std::min(m.min_samples, m.max_samples)) + "); sd = sample standard deviation (n-1)";
}

}  // namespace pcrypt::app::bench
