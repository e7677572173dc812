#include "app/progress.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>

#include "core/byte_size.h"

namespace pcrypt::app {
namespace {

constexpr auto kMinRedrawInterval = std::chrono::milliseconds(1000 / 6 + 1);

}  // namespace

bool progress_wanted(bool quiet) {
  return !quiet && isatty(STDERR_FILENO) == 1;
}

ProgressLine::ProgressLine(std::string verb, std::optional<std::uint64_t> total, bool enabled)
    : verb_(std::move(verb)), total_(total), enabled_(enabled), start_(Clock::now()), last_draw_(start_) {}

ProgressLine::~ProgressLine() {
  finish();
}

void ProgressLine::update(std::uint64_t bytes) {
  if (!enabled_) return;
  const auto now = Clock::now();
  // The first redraw also waits an interval, so fast runs never flash a progress line at all.
  if (now - last_draw_ < kMinRedrawInterval) return;
  last_draw_ = now;

  const double seconds = std::chrono::duration<double>(now - start_).count();
  const double rate_mb = seconds > 0 ? static_cast<double>(bytes) / seconds / 1e6 : 0.0;
  std::array<char, 160> line{};
  int width = 0;
  if (total_ && *total_ > 0) {
    const double percent = 100.0 * static_cast<double>(bytes) / static_cast<double>(*total_);
    width = std::snprintf(line.data(), line.size(), "%s: %s of %s (%.0f%%), %.0f MB/s", verb_.c_str(),
                          core::format_bytes(bytes).c_str(), core::format_bytes(*total_).c_str(), percent,
                          rate_mb);
  } else {
    width = std::snprintf(line.data(), line.size(), "%s: %s, %.0f MB/s", verb_.c_str(),
                          core::format_bytes(bytes).c_str(), rate_mb);
  }
  if (width < 0) return;
  const auto new_width = static_cast<std::size_t>(width);
  // Pad with spaces over any longer previous text instead of relying on terminal escape sequences.
  const int pad = drawn_width_ > new_width ? static_cast<int>(drawn_width_ - new_width) : 0;
  std::fprintf(stderr, "\r%s%*s", line.data(), pad, "");
  std::fflush(stderr);
  drawn_width_ = std::max(drawn_width_, new_width);
  shown_ = true;
}

void ProgressLine::finish() {
  if (!shown_) return;
  std::fprintf(stderr, "\r%*s\r", static_cast<int>(drawn_width_), "");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace pcrypt::app
