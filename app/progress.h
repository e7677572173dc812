// A one-line progress display on stderr (zstd style): only when stderr is a terminal and not --quiet, at most
// six updates a second, rewritten in place with \r and erased when done, so the terminal is left clean and
// any error message that follows starts on a fresh line.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace pcrypt::app {

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

 private:
  using Clock = std::chrono::steady_clock;
  std::string verb_;
  std::optional<std::uint64_t> total_;
  bool enabled_;
  bool shown_ = false;
  Clock::time_point start_;
  Clock::time_point last_draw_;
  std::size_t drawn_width_ = 0;
};

// Whether progress should be drawn: stderr is a terminal and the user did not ask for quiet.
bool progress_wanted(bool quiet);

}  // namespace pcrypt::app
