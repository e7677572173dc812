// Progress on stderr (pv/zstd style): only when stderr is a terminal and not --quiet, at most six updates a
// second, one line rewritten in place with \r and erased when done, so the terminal is left clean and any
// error message that follows starts on a fresh line. With a known total:
//   decrypting [####......]  45%   1.20 GiB / 2.66 GiB  850.00 MiB/s 0:02 ETA 0:02
// (fields padded so the line keeps its length; the bar takes the width the text leaves), from a pipe:
//   encrypting   1.20 GiB  850.00 MiB/s 0:02
// The rate is the current one (over the last ~2 s), not the average since the start, so a stall shows. Sizes
// and rates share format_bytes' binary units (MiB with MiB/s). The formatting is pure (format_progress,
// format_summary), for tests; ProgressLine does the timing and the drawing.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace pcrypt::app {

struct ProgressState {
  std::string_view verb;               // "encrypting"
  std::uint64_t bytes = 0;             // done so far
  std::optional<std::uint64_t> total;  // when known (regular input file)
  double elapsed_seconds = 0;
  std::optional<double> rate;  // current bytes per second; none until two samples ~0.1 s apart exist
  std::size_t columns = 80;    // terminal width: the bar takes what the text leaves
};

// One progress line, at most `columns - 1` characters (never wraps, which would break the \r rewrite).
std::string format_progress(const ProgressState& state);

// "1:05", "12:00:03".
std::string format_duration(double seconds);

// The -v summary of a finished run, like zstd's:
//   "big.pcrypt: 1.00 GiB -> 1.00 GiB in 0.52 s, 1.92 GiB/s" (rate of the input side).
std::string format_summary(std::string_view name, std::uint64_t in_bytes, std::uint64_t out_bytes,
                           double seconds);

// The current rate: bytes over the samples of the last `window` seconds.
class RateWindow {
 public:
  explicit RateWindow(double window_seconds = 2.0) : window_(window_seconds) {}
  void add(double seconds, std::uint64_t bytes);
  std::optional<double> rate() const;

 private:
  double window_;
  std::deque<std::pair<double, std::uint64_t>> samples_;
};

class ProgressLine {
 public:
  // verb: "encrypting"/"decrypting"; total: plaintext size when known (regular input file).
  ProgressLine(std::string verb, std::optional<std::uint64_t> total, bool enabled);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Called from the pipeline's writer thread (one thread at a time) with plaintext bytes done so far.
  void update(std::uint64_t bytes);
  // Erases the line. Idempotent; the destructor calls it too.
  void finish();
  // The payload starts now: time spent before (a passphrase prompt, Argon2id) is not part of the rate.
  void restart();

 private:
  using Clock = std::chrono::steady_clock;
  std::string verb_;
  std::optional<std::uint64_t> total_;
  bool enabled_;
  bool shown_ = false;
  Clock::time_point start_;
  Clock::time_point last_draw_;
  RateWindow rate_;
  std::size_t drawn_width_ = 0;
};

// Once a file is unlocked (decrypt, verify, ranges): -v names the slot that opened it (`opened_by`, "" when
// the format does not say), and the payload's clock (the progress rate, and `start` for -v's summary)
// starts then, after any prompt and Argon2id.
void report_unlocked(const std::string& opened_by, ProgressLine& progress,
                     std::chrono::steady_clock::time_point& start);

// Whether progress should be drawn: asked for (--progress), or stderr is a terminal and not --quiet. Scripts
// (stderr a file or a pipe) get nothing unless they ask.
bool progress_wanted(bool quiet, bool asked);

}  // namespace pcrypt::app
