// The progress line and the -v summary (app/progress.h): what is shown with and without a known total, the
// current rate over a window (not the average since the start), the ETA, consistent units and the width.
#include <catch2/catch.hpp>

#include <string>

#include "app/progress.h"

using namespace pcrypt::app;

namespace {
constexpr std::uint64_t kMiB = 1 << 20;
}

TEST_CASE("format_duration: m:ss, then h:mm:ss") {
  CHECK(format_duration(0) == "0:00");
  CHECK(format_duration(5.9) == "0:05");
  CHECK(format_duration(65) == "1:05");
  CHECK(format_duration(3600 * 12 + 3) == "12:00:03");
  CHECK(format_duration(-1) == "0:00");
}

TEST_CASE("format_progress with a total: bar, percentage, done/total, rate, elapsed and ETA") {
  const ProgressState s{"decrypting", 512 * kMiB, 1024 * kMiB, 2.0, 256.0 * kMiB, 100};
  const std::string line = format_progress(s);
  CHECK(line.starts_with("decrypting ["));
  CHECK(line.find("]  50%") != std::string::npos);
  CHECK(line.find(" 512 MiB / 1 GiB ") != std::string::npos);
  CHECK(line.ends_with(" 256 MiB/s 0:02 ETA 0:02"));
  CHECK(line.size() == 99);                     // the bar fills the width but never the last column
  CHECK(line.find("MB") == std::string::npos);  // binary units only: MiB with MiB/s
  const std::size_t open = line.find('['), close = line.find(']');
  const std::string bar = line.substr(open + 1, close - open - 1);
  CHECK(bar.find_first_not_of('#') == bar.size() / 2);
}

TEST_CASE("format_progress: no rate yet shows --/s and -:-- for the ETA; done is 100%") {
  std::string line = format_progress({"encrypting", 0, 10 * kMiB, 0.1, std::nullopt, 100});
  CHECK(line.find("   0% ") != std::string::npos);
  CHECK(line.find(" 0 B / 10 MiB ") != std::string::npos);
  CHECK(line.ends_with(" --/s 0:00 ETA -:--"));
  // A decryption's total is the ciphertext, a little more than the plaintext: never above 100%.
  line = format_progress({"decrypting", 11 * kMiB, 10 * kMiB, 1.0, 11.0 * kMiB, 100});
  CHECK(line.find("100%") != std::string::npos);
}

TEST_CASE("format_progress from a pipe: bytes, rate and elapsed, no bar") {
  const std::string line = format_progress({"encrypting", 3 * kMiB, std::nullopt, 65.0, 1.5 * kMiB, 80});
  CHECK(line == "encrypting      3 MiB     1.5 MiB/s 1:05");
}

TEST_CASE("format_progress: the line keeps its length as the numbers change (the bar does not jump)") {
  const std::string a = format_progress({"encrypting", 4 * kMiB, 48 * kMiB, 0.2, std::nullopt, 80});
  const std::string b = format_progress({"encrypting", 20 * kMiB, 48 * kMiB, 0.9, 27.5 * kMiB, 80});
  const std::string c = format_progress({"encrypting", 48 * kMiB, 48 * kMiB, 2.0, 1000.0 * kMiB, 80});
  CHECK(a.size() == 79);
  CHECK(b.size() == a.size());
  CHECK(c.size() == a.size());
  CHECK(a.find('[') == b.find('['));
}

TEST_CASE("format_progress never reaches the last column, however narrow the terminal") {
  for (std::size_t columns : {20u, 40u, 60u, 200u}) {
    const std::string line = format_progress({"encrypting", 5 * kMiB, 9 * kMiB, 3.0, 2.0 * kMiB, columns});
    CHECK(line.size() <= columns - 1);
  }
}

TEST_CASE("format_summary: zstd-like, consistent units") {
  CHECK(format_summary("big.pcrypt", 1024 * kMiB, 1024 * kMiB + 4181, 0.5) ==
        "big.pcrypt: 1 GiB -> 1.0 GiB in 0.50 s, 2 GiB/s");
  CHECK(format_summary("-", 0, 100, 0) == "-: 0 B -> 100 B in 0.00 s, --/s");
}

TEST_CASE("RateWindow: the current rate over the last window, not the average since the start") {
  RateWindow w(2.0);
  CHECK_FALSE(w.rate());
  w.add(0.0, 0);
  CHECK_FALSE(w.rate());
  w.add(0.05, 1000);  // too short a span to mean anything
  CHECK_FALSE(w.rate());
  // 10 s at 100 MiB/s, then a stall: the average since the start would still say ~83 MiB/s.
  for (int i = 1; i <= 10; ++i) w.add(i, static_cast<std::uint64_t>(i) * 100 * kMiB);
  REQUIRE(w.rate());
  CHECK(*w.rate() == Approx(100.0 * kMiB));
  for (int i = 11; i <= 12; ++i) w.add(i, 1000 * kMiB);
  REQUIRE(w.rate());
  CHECK(*w.rate() == Approx(0.0));
  w.add(12.5, 1050 * kMiB);  // picking up again: the window's 2.5 s span holds 50 MiB
  CHECK(*w.rate() == Approx(50.0 * kMiB / 2.5));
}
