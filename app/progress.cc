#include "app/progress.h"

#include <pcrypt/pcrypt.h>

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/logging.h"
#include "app/size_arg.h"

namespace pcrypt::app {
namespace {

constexpr auto kMinRedrawInterval = std::chrono::milliseconds(1000 / 6 + 1);
// Below this span the samples say more about scheduling than about throughput.
constexpr double kMinRateSpan = 0.1;
constexpr std::size_t kMinBarWidth = 8;
constexpr std::size_t kRateWidth = 13;  // "1023.99 MiB/s"

std::size_t terminal_columns() {
  winsize ws{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

std::string rate_text(std::optional<double> rate) {
  if (!rate) return "--/s";
  return format_bytes(static_cast<std::uint64_t>(std::llround(std::max(0.0, *rate)))) + "/s";
}

std::string bar(double fraction, std::size_t width) {
  const auto filled = static_cast<std::size_t>(std::clamp(fraction, 0.0, 1.0) * static_cast<double>(width));
  // Built by appends: GCC 12 at -O3 reports a false -Wrestrict for "[" + std::string(...) (as elsewhere).
  std::string out = "[";
  out.append(filled, '#');
  out.append(width - filled, '.');
  out += ']';
  return out;
}

// Right-aligned in `width` columns.
std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

}  // namespace

std::string format_duration(double seconds) {
  const auto total = static_cast<std::uint64_t>(std::max(0.0, seconds));
  char buf[32];
  if (total >= 3600)
    std::snprintf(buf, sizeof buf, "%llu:%02llu:%02llu", static_cast<unsigned long long>(total / 3600),
                  static_cast<unsigned long long>(total / 60 % 60),
                  static_cast<unsigned long long>(total % 60));
  else
    std::snprintf(buf, sizeof buf, "%llu:%02llu", static_cast<unsigned long long>(total / 60),
                  static_cast<unsigned long long>(total % 60));
  return buf;
}

std::string format_progress(const ProgressState& s) {
  const std::string elapsed = format_duration(s.elapsed_seconds);
  std::string line;
  if (s.total && *s.total > 0) {
    // A decryption's total is the ciphertext's size, which the plaintext approaches from below.
    const double fraction = std::min(1.0, static_cast<double>(s.bytes) / static_cast<double>(*s.total));
    char percent[8];
    std::snprintf(percent, sizeof percent, "%3d%%", static_cast<int>(fraction * 100.0));
    std::string eta = "-:--";
    if (s.rate && *s.rate > 0 && s.bytes <= *s.total)
      eta = format_duration(static_cast<double>(*s.total - s.bytes) / *s.rate);
    // Fields padded to their widest, so the line (and the bar) keeps its length from one update to the next.
    const std::string total = format_bytes(*s.total);
    const std::string text = std::string(percent) + " " + padded(format_bytes(s.bytes), total.size() + 1) +
                             " / " + total + " " + padded(rate_text(s.rate), kRateWidth) + " " + elapsed +
                             " ETA " + padded(eta, 4);
    const std::size_t fixed = s.verb.size() + 1 + 2 + 1 + text.size();  // "verb [bar] text"
    if (s.columns > fixed + kMinBarWidth)
      line = std::string(s.verb) + " " + bar(fraction, s.columns - 1 - fixed) + " " + text;
    else
      line = std::string(s.verb) + " " + text;
  } else {
    line = std::string(s.verb) + " " + padded(format_bytes(s.bytes), 10) + " " +
           padded(rate_text(s.rate), kRateWidth) + " " + elapsed;
  }
  if (s.columns > 1 && line.size() > s.columns - 1) line.resize(s.columns - 1);
  return line;
}

std::string format_summary(std::string_view name, std::uint64_t in_bytes, std::uint64_t out_bytes,
                           double seconds) {
  char time[32];
  std::snprintf(time, sizeof time, "%.2f s", seconds);
  const std::optional<double> rate =
      seconds > 0 ? std::optional<double>(static_cast<double>(in_bytes) / seconds) : std::nullopt;
  return std::string(name) + ": " + format_bytes(in_bytes) + " -> " + format_bytes(out_bytes) + " in " +
         time + ", " + rate_text(rate);
}

void RateWindow::add(double seconds, std::uint64_t bytes) {
  samples_.emplace_back(seconds, bytes);
  // Keep one sample at or before the window's start, so the span covers the whole window.
  while (samples_.size() > 2 && samples_[1].first <= seconds - window_) samples_.pop_front();
}

std::optional<double> RateWindow::rate() const {
  if (samples_.size() < 2) return std::nullopt;
  const double span = samples_.back().first - samples_.front().first;
  if (span < kMinRateSpan || samples_.back().second < samples_.front().second) return std::nullopt;
  return static_cast<double>(samples_.back().second - samples_.front().second) / span;
}

bool progress_wanted(bool quiet, bool asked) {
  return asked || (!quiet && isatty(STDERR_FILENO) == 1);
}

ProgressLine::ProgressLine(std::string verb, std::optional<std::uint64_t> total, bool enabled)
    : verb_(std::move(verb)), total_(total), enabled_(enabled), start_(Clock::now()), last_draw_(start_) {
  rate_.add(0.0, 0);
}

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
  rate_.add(seconds, bytes);
  const std::string line = format_progress({verb_, bytes, total_, seconds, rate_.rate(), terminal_columns()});
  // Pad with spaces over any longer previous text instead of relying on terminal escape sequences.
  const int pad = drawn_width_ > line.size() ? static_cast<int>(drawn_width_ - line.size()) : 0;
  std::fprintf(stderr, "\r%s%*s", line.c_str(), pad, "");
  std::fflush(stderr);
  drawn_width_ = std::max(drawn_width_, line.size());
  shown_ = true;
}

void report_unlocked(const std::string& opened_by, ProgressLine& progress,
                     std::chrono::steady_clock::time_point& start) {
  if (!opened_by.empty()) log::info("opened by {}", opened_by);
  progress.restart();
  start = std::chrono::steady_clock::now();
}

void ProgressLine::restart() {
  start_ = Clock::now();
  last_draw_ = start_;
  rate_ = RateWindow();
  rate_.add(0.0, 0);
}

void ProgressLine::finish() {
  if (!shown_) return;
  std::fprintf(stderr, "\r%*s\r", static_cast<int>(drawn_width_), "");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace pcrypt::app
