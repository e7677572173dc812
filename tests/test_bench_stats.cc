// The bench's statistics, units, sampling loop, sinks and output formats, on inputs worked out by hand.
#include <xxhash.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <vector>

#include "bench/report.h"
#include "bench/sampler.h"
#include "bench/sinks.h"
#include "bench/stats.h"
#include "bench/units.h"

using namespace pcrypt::app::bench;

TEST_CASE("summarize: the textbook eight values") {
  // mean 40/8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32; sample variance 32/7; median (4+5)/2.
  const std::vector<double> xs{2, 4, 4, 4, 5, 5, 7, 9};
  const Summary s = summarize(xs);
  CHECK(s.samples == 8);
  CHECK(s.mean == Approx(5.0));
  CHECK(s.stddev == Approx(std::sqrt(32.0 / 7.0)));
  CHECK(s.median == Approx(4.5));
  CHECK(s.min == 2);
  CHECK(s.max == 9);
}

TEST_CASE("summarize: order does not matter, odd count takes the middle value") {
  const std::vector<double> xs{9, 1, 5};
  const Summary s = summarize(xs);
  CHECK(s.median == 5);
  CHECK(s.mean == Approx(5.0));
  CHECK(s.stddev == Approx(4.0));  // deviations -4, 4, 0: 32 / 2 = 16
  CHECK(s.min == 1);
  CHECK(s.max == 9);
}

TEST_CASE("summarize: the last value is not the average (the MT-AES tables' mistake)") {
  const std::vector<double> xs{1.0, 2.0, 6.0};
  const Summary s = summarize(xs);
  CHECK(s.mean == Approx(3.0));
  CHECK(s.mean != xs.back());
}

TEST_CASE("summarize: one sample has no spread, none has nothing") {
  const std::vector<double> one{0.25};
  const Summary s = summarize(one);
  CHECK(s.samples == 1);
  CHECK(s.mean == 0.25);
  CHECK(s.median == 0.25);
  CHECK(s.stddev == 0);
  CHECK(summarize(std::vector<double>{}).samples == 0);
}

TEST_CASE("summarize: close values keep their spread (no catastrophic cancellation)") {
  const std::vector<double> xs{1e9 + 1, 1e9 + 2, 1e9 + 3};
  CHECK(summarize(xs).stddev == Approx(1.0));
}

TEST_CASE("mb_per_s uses MB = 10^6 bytes") {
  CHECK(mb_per_s(2e6, 0.5) == Approx(4.0));
  CHECK(mb_per_s(1 << 20, 1.0) == Approx(1.048576));
  CHECK(mb_per_s(100, 0) == 0);
}

// Sizes (parse_size, and format_bytes for the table labels) are pcrypt's one grammar: tests/test_sizes.cc.
TEST_CASE("split_list") {
  CHECK(split_list("1,2, 4,,8") == std::vector<std::string>{"1", "2", "4", "8"});
  CHECK(split_list("").empty());
}

TEST_CASE("take_samples: warm-ups are untimed, min and max samples are honoured") {
  int calls = 0;
  // max_time 0: the budget is already spent, so sampling stops as soon as the minimum is reached.
  Method m{.warmups = 2, .max_samples = 5, .min_samples = 3, .max_time = 0};
  const auto samples = take_samples(m, [&] { ++calls; }, {});
  CHECK(samples.size() == 3);
  CHECK(calls == 5);

  m.max_time = 1e9;  // no time limit: max_samples decides
  calls = 0;
  CHECK(take_samples(m, [&] { ++calls; }, {}).size() == 5);
  CHECK(calls == 7);

  m.min_samples = 10;  // a minimum above the maximum is capped by it
  m.max_time = 0;
  CHECK(take_samples(m, [] {}, {}).size() == 5);
}

TEST_CASE("take_samples: a stop request ends sampling between samples") {
  int calls = 0;
  const Method m{.warmups = 1, .max_samples = 100, .max_time = 1e9};
  const auto samples = take_samples(
      m, [&] { ++calls; }, [&] { return calls >= 4; });
  CHECK(calls == 4);
  CHECK(samples.size() == 3);
  for (double s : samples) CHECK(s >= 0);
}

TEST_CASE("calibrate grows the count until the work is long enough") {
  // Work whose "duration" we control: calibrate sees the real clock, so make each unit visibly long.
  std::vector<std::uint64_t> counts;
  const std::uint64_t n = calibrate(
      [&](std::uint64_t c) {
        counts.push_back(c);
        volatile std::uint64_t sink = 0;
        for (std::uint64_t i = 0; i < c * 20000; ++i) sink = sink + i;
      },
      0.002, {});
  REQUIRE(!counts.empty());
  CHECK(n == counts.back());
  for (std::size_t i = 1; i < counts.size(); ++i) CHECK(counts[i] > counts[i - 1]);
}

TEST_CASE("HashingWriter hashes a stream written in pieces like the whole buffer") {
  std::vector<std::uint8_t> data(100000);
  std::iota(data.begin(), data.end(), 0);
  HashingWriter w;
  w.write(data.data(), 1);
  w.write(data.data() + 1, 4095);
  w.write(data.data() + 4096, data.size() - 4096);
  CHECK(w.bytes() == data.size());
  CHECK(same_hash(w.digest(), XXH3_128bits(data.data(), data.size())));
  data[5] ^= 1;
  CHECK_FALSE(same_hash(w.digest(), XXH3_128bits(data.data(), data.size())));
}

TEST_CASE("to_hex prints the canonical big-endian form, high half first") {
  XXH128_hash_t h;
  h.high64 = 0x0123456789abcdefULL;
  h.low64 = 0xfedcba9876543210ULL;
  CHECK(to_hex(h) == "0123456789abcdeffedcba9876543210");
}

TEST_CASE("ReusableBufferWriter keeps its memory across runs") {
  ReusableBufferWriter w(1000);
  const std::uint8_t bytes[3] = {1, 2, 3};
  w.write(bytes, 3);
  const auto* first = w.data().data();
  w.clear();
  w.write(bytes, 2);
  CHECK(w.data().size() == 2);
  CHECK(w.data().data() == first);
}

TEST_CASE("ReusableBufferWriter takes positional writes in any order and refuses to overflow") {
  ReusableBufferWriter w(8);
  REQUIRE(w.positional() != nullptr);
  const std::uint8_t a[3] = {1, 2, 3}, b[2] = {7, 8};
  w.positional()->write_at(5, a, 3);  // the end first, as a late worker may
  CHECK(w.data().size() == 8);
  w.positional()->write_at(0, b, 2);
  CHECK(w.data().size() == 8);
  CHECK(std::vector<std::uint8_t>(w.data().begin(), w.data().end()) ==
        std::vector<std::uint8_t>{7, 8, 0, 0, 0, 1, 2, 3});
  CHECK(w.positional()->position() == 0);  // positional writes leave the sequential position alone
  CHECK_THROWS_AS(w.positional()->write_at(6, a, 3), pcrypt::io::IoError);
  CHECK_THROWS_AS(w.positional()->write_at(9, a, 0), pcrypt::io::IoError);
  w.clear();
  CHECK(w.data().empty());
}

namespace {
Table sample_table() {
  Table t;
  t.experiment = "keystream";
  t.id = "demo";
  t.title = "demo, \"quoted\"";
  t.columns = {{"name", "name", 0}, {"bytes", "bytes", 0}, {"seconds", "time (s)", 3}, {"empty", "empty", 0}};
  t.rows = {{std::string("a,b"), std::int64_t{8}, 0.1234567891, Cell{}},
            {std::string("c"), std::int64_t{16}, 2.5, Cell{}}};
  t.notes = {"a note"};
  return t;
}
}  // namespace

TEST_CASE("csv: header of keys, quoted text, full-precision numbers, empty missing values") {
  const std::string csv = render_table(Format::csv, sample_table(), 0);
  CHECK(csv.find("# table: keystream/demo: ") == 0);
  CHECK(csv.find("\nname,bytes,seconds,empty\n") != std::string::npos);
  CHECK(csv.find("\n\"a,b\",8,0.123456789,\n") != std::string::npos);
  CHECK(csv.find("\nc,16,2.5,\n") != std::string::npos);
  CHECK(csv.find("# note: a note\n") != std::string::npos);
}

TEST_CASE("table and markdown: fixed decimals for people") {
  const std::string text = render_table(Format::table, sample_table(), 0);
  CHECK(text.find("0.123") != std::string::npos);
  CHECK(text.find("0.1234") == std::string::npos);
  CHECK(text.find("2.500") != std::string::npos);
  const std::string md = render_table(Format::markdown, sample_table(), 0);
  CHECK(md.find("| name | bytes | time (s) | empty |\n|---|---:|---:|---|\n") != std::string::npos);
  CHECK(md.find("| a,b | 8 | 0.123 |  |") != std::string::npos);
}

TEST_CASE("json: a complete document with escaped strings, nulls and separators") {
  const std::vector<Fact> facts{{"cpu", "CPU", "Test \"CPU\"\n"}};
  const std::string json = render_begin(Format::json, facts) + render_table(Format::json, sample_table(), 0) +
                           render_table(Format::json, sample_table(), 1) + render_end(Format::json, true);
  CHECK(json.find("\"schema\": \"pcrypt-bench/1\"") != std::string::npos);
  CHECK(json.find("\"cpu\": \"Test \\\"CPU\\\"\\n\"") != std::string::npos);
  CHECK(json.find("\"title\": \"demo, \\\"quoted\\\"\"") != std::string::npos);
  CHECK(json.find("{\"name\": \"a,b\", \"bytes\": 8, \"seconds\": 0.123456789, \"empty\": null}") !=
        std::string::npos);
  CHECK(json.find("]},\n    {\"experiment\"") != std::string::npos);  // comma between the two tables
  CHECK(json.find("\"interrupted\": true") != std::string::npos);
  // Balanced brackets and braces outside strings: cheap structural check without a JSON library.
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    REQUIRE(depth >= 0);
  }
  CHECK(depth == 0);
  CHECK_FALSE(in_string);
}

TEST_CASE("parse_format") {
  CHECK(parse_format("table") == Format::table);
  CHECK(parse_format("markdown") == Format::markdown);
  CHECK(parse_format("csv") == Format::csv);
  CHECK(parse_format("json") == Format::json);
  CHECK_FALSE(parse_format("xml"));
}
