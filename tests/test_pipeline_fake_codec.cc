// The pipeline on its own, with a fake codec instead of the payload format: it hands every record to the
// codec with the right index, length and last flag, writes the codec's output in record order for any number
// of workers, lets the first failure in record order win, and never uses more buffers than its pool.
#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "core/pipeline.h"
#include "core/pipeline_sizing.h"
#include "core/record_codec.h"
#include "io/memory_stream.h"
#include "tests/test_pipeline_support.h"

using namespace pcrypt;
using test::Bytes;

namespace {

constexpr std::size_t kRecordBytes = 7;
// What the fake writes for each record: index (8 bytes, little-endian), last flag, input length, then the
// input bytes, so the output shows exactly what the codec was given and in which order it was written.
constexpr std::size_t kFrameHeader = 10;

// Counts the records the writer has accepted, so the codec can see how far ahead of the writer it runs. With
// positional access, records are written at their offsets, in whatever order they come.
class CountingWriter final : public io::Writer, public io::PositionalWriter {
 public:
  explicit CountingWriter(io::MemoryAccess access = io::MemoryAccess::sequential) : access_(access) {}
  void write(const std::uint8_t* buf, std::size_t n) override {
    std::lock_guard lock(mu_);
    data_.insert(data_.end(), buf, buf + n);
    ++records_;
  }
  void commit() override {}
  std::string name() const override { return "counting"; }
  io::PositionalWriter* positional() override {
    return access_ == io::MemoryAccess::positional ? this : nullptr;
  }
  void write_at(std::uint64_t offset, const std::uint8_t* buf, std::size_t n) override {
    std::lock_guard lock(mu_);
    if (data_.size() < offset + n) data_.resize(offset + n);
    std::memcpy(data_.data() + offset, buf, n);
    ++records_;
  }
  std::uint64_t position() const override { return 0; }
  void seek(std::uint64_t) override {}
  std::uint64_t records() const {
    std::lock_guard lock(mu_);
    return records_;
  }
  Bytes data() const {
    std::lock_guard lock(mu_);
    return data_;
  }

 private:
  mutable std::mutex mu_;
  Bytes data_;
  std::uint64_t records_ = 0;
  io::MemoryAccess access_;
};

class FakeCodec final : public core::RecordCodec {
 public:
  // later_in_flight: whether a later failing record can be in flight beside the first one, so that the first
  // waits (up to 1 s) for it to be reported before reporting its own.
  FakeCodec(const CountingWriter& out, std::set<std::uint64_t> failing = {},
            std::uint64_t throwing = UINT64_MAX, bool later_in_flight = false)
      : out_(out), failing_(std::move(failing)), throwing_(throwing), later_in_flight_(later_in_flight) {}

  std::size_t input_record_bytes() const override { return kRecordBytes; }
  std::size_t output_record_bytes() const override { return kFrameHeader + kRecordBytes; }
  std::size_t buffer_bytes() const override { return kRecordBytes + kFrameHeader; }

  core::RecordOutcome process(std::uint64_t index, bool last, std::uint8_t* buf,
                              std::size_t len) const override {
    {
      std::unique_lock lock(mu_);
      // The reader only reads into a free buffer, and buffers come back only once written.
      max_ahead_ = std::max(max_ahead_, index + 1 - std::min(index + 1, out_.records()));
      in_use_.insert(buf);
      if (!in_flight_.insert(buf).second) shared_buffer_ = true;  // two workers holding one buffer
      threads_.insert(std::this_thread::get_id());
      if (std::this_thread::get_id() == caller_) {
        caller_worked_ = true;
        caller_worked_cv_.notify_all();
      } else if (caller_ != std::thread::id()) {
        caller_worked_cv_.wait_until(lock, caller_deadline_, [&] { return caller_worked_; });
      }
    }
    // Uneven work, so that with several workers records finish out of order.
    std::this_thread::sleep_for(std::chrono::microseconds((index * 7919) % 5 * 50));
    std::memmove(buf + kFrameHeader, buf, len);
    for (int i = 0; i < 8; ++i) buf[i] = static_cast<std::uint8_t>(index >> (8 * i));
    buf[8] = last ? 1 : 0;
    buf[9] = static_cast<std::uint8_t>(len);
    {
      std::lock_guard lock(mu_);
      in_flight_.erase(buf);
    }
    const bool fails = index == throwing_ || failing_.count(index) != 0;
    if (fails && index == first_failing() && later_in_flight_) {
      // Report last among the failures that are in flight, so that "first" means first in record order, not
      // first in time. Bounded: a scheduler may still run the later ones after this one.
      std::unique_lock lock(mu_);
      later_failure_.wait_for(lock, std::chrono::seconds(1), [&] { return later_failure_reported_; });
    } else if (fails) {
      std::lock_guard lock(mu_);
      later_failure_reported_ = true;
      later_failure_.notify_all();
    }
    if (index == throwing_) throw std::runtime_error("fake codec threw at record " + std::to_string(index));
    if (failing_.count(index) != 0)
      return {.error =
                  core::Error(PCRYPT_E_DAMAGED_RECORD, "fake failure at record " + std::to_string(index))};
    return {.write_bytes = kFrameHeader + len,
            .plaintext_bytes = len,
            .ciphertext_bytes = kFrameHeader + len,
            .error = std::nullopt};
  }

  std::uint64_t first_failing() const {
    return failing_.empty() ? throwing_ : std::min(*failing_.begin(), throwing_);
  }
  std::uint64_t max_ahead() const { return max_ahead_; }
  std::size_t buffers_used() const { return in_use_.size(); }
  bool shared_buffer() const { return shared_buffer_; }
  std::set<std::thread::id> threads() const { return threads_; }
  // Holds every other thread's first record until `caller` has processed one (for at most 10 s in all), so
  // that whether the caller computes does not depend on the scheduler: under load the other workers could
  // otherwise take every record before the caller's turn came. A pipeline whose caller never computes keeps
  // them waiting the full 10 s, and the caller is then missing from threads().
  void hold_others_until_caller_works(std::thread::id caller) const {
    std::lock_guard lock(mu_);
    caller_ = caller;
    caller_deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  }

 private:
  const CountingWriter& out_;
  std::set<std::uint64_t> failing_;
  std::uint64_t throwing_;
  bool later_in_flight_;
  mutable std::mutex mu_;
  mutable std::uint64_t max_ahead_ = 0;
  mutable std::set<const std::uint8_t*> in_use_;
  mutable std::set<const std::uint8_t*> in_flight_;
  mutable bool shared_buffer_ = false;
  mutable std::set<std::thread::id> threads_;  // that ran process()
  mutable std::thread::id caller_;
  mutable std::chrono::steady_clock::time_point caller_deadline_;
  mutable bool caller_worked_ = false;
  mutable std::condition_variable caller_worked_cv_;
  mutable std::condition_variable later_failure_;
  mutable bool later_failure_reported_ = false;
};

// The output the fake must produce for the first `records` records of `input`.
Bytes expected_frames(const Bytes& input, std::uint64_t records) {
  const std::uint64_t total = input.empty() ? 1 : (input.size() + kRecordBytes - 1) / kRecordBytes;
  Bytes out;
  for (std::uint64_t i = 0; i < records && i < total; ++i) {
    const std::size_t begin = i * kRecordBytes;
    const std::size_t len = std::min(kRecordBytes, input.size() - begin);
    for (int b = 0; b < 8; ++b) out.push_back(static_cast<std::uint8_t>(i >> (8 * b)));
    out.push_back(i + 1 == total ? 1 : 0);
    out.push_back(static_cast<std::uint8_t>(len));
    out.insert(out.end(), input.begin() + static_cast<std::ptrdiff_t>(begin),
               input.begin() + static_cast<std::ptrdiff_t>(begin + len));
  }
  return out;
}

// Whether records after a failing one can be processed while it is: with one worker, or with every record in
// one item (one worker takes the whole item, in order), they are reached only after it has failed. The first
// failure then does not wait for a later one that cannot come (it waited its full second, 48 times a run).
bool later_in_flight(unsigned threads, std::size_t item_bytes) {
  return threads > 1 && item_bytes != core::kPipelineItemBytes;
}

std::size_t pool_size(unsigned threads) {
  return core::pipeline_buffers(core::pipeline_workers(threads));
}

// Units of work to run each behaviour with: one record per item, items of 3 and 4 records (so that records
// 17..20 below fall at the start, middle and end of items), and the product's default (about 1 MiB: every
// input here is a single item).
constexpr std::size_t kBuf = kRecordBytes + kFrameHeader;
constexpr std::size_t kItemSizes[] = {0, 3 * kBuf, 4 * kBuf, core::kPipelineItemBytes};

}  // namespace

TEST_CASE("records reach the codec with index, length and last flag, and come out in order for -j1..-j8") {
  // Empty input, a short last record, an exactly full last record, and many records.
  for (const std::size_t size :
       {std::size_t{0}, std::size_t{3}, kRecordBytes, 10 * kRecordBytes + 4, 100 * kRecordBytes}) {
    const Bytes input = test::random_bytes(size);
    const std::uint64_t records = size == 0 ? 1 : (size + kRecordBytes - 1) / kRecordBytes;
    for (const std::size_t item_bytes : kItemSizes) {
      for (const test::Paths paths : test::kAllPaths) {
        for (unsigned threads = 1; threads <= 8; ++threads) {
          INFO(size << " input bytes, " << threads << " threads, " << paths << ", items of " << item_bytes);
          io::MemoryReader in(input, paths.in);
          CountingWriter out(paths.out);
          const FakeCodec codec(out);
          const core::PipelineStats stats = test::within_deadline(
              [&] { return core::run_pipeline(codec, in, out, test::config(threads, item_bytes)); });
          REQUIRE(out.data() == expected_frames(input, records));
          REQUIRE(stats.chunks == records);
          REQUIRE(stats.plaintext_bytes == size);
          REQUIRE(stats.ciphertext_bytes == size + records * kFrameHeader);
        }
      }
    }
  }
}

TEST_CASE(
    "N workers compute on N threads, the calling thread among them from two on or writing positionally") {
  // N + 1 busy threads on N cores (the writer woken for every item, a worker pushed off its core) made -j2
  // 1.35x -j1 where two processes scaled 1.6-1.75x; the writer is the N-th worker between its writes. With
  // one worker and a sequential output it only writes, so that a slow output still overlaps the computing;
  // with a positional output (which workers write) it is the one worker.
  const Bytes input = test::random_bytes(40 * kRecordBytes);
  for (const test::Paths paths : test::kAllPaths) {
    for (unsigned threads = 1; threads <= 4; ++threads) {
      INFO(threads << " threads, " << paths);
      io::MemoryReader in(input, paths.in);
      CountingWriter out(paths.out);
      const FakeCodec codec(out);
      const bool caller_works = threads >= 2 || paths.out == io::MemoryAccess::positional;
      const std::thread::id caller = test::within_deadline([&] {
        if (caller_works && threads >= 2) codec.hold_others_until_caller_works(std::this_thread::get_id());
        core::run_pipeline(codec, in, out, test::config(threads, 0));  // one record per item
        return std::this_thread::get_id();
      });
      REQUIRE(out.data() == expected_frames(input, 40));
      CHECK(codec.threads().size() <= threads);
      CHECK(codec.threads().count(caller) == (caller_works ? 1u : 0u));
    }
  }
}

TEST_CASE("the first failure in record order wins, and nothing from it on is written") {
  const Bytes input = test::random_bytes(60 * kRecordBytes);
  const Bytes all = expected_frames(input, 60);
  // In items of 3 or 4 records, 17 fails in the middle or at the end of its item: the records before it in
  // that item (15 and 16, or 16) are still written, none after it, and 20's failure, at a later item, may be
  // reported first but must not win.
  for (const std::size_t item_bytes : kItemSizes) {
    for (const test::Paths paths : test::kAllPaths) {
      for (const unsigned threads : {1u, 2u, 3u, 8u}) {
        INFO(threads << " threads, " << paths << ", items of " << item_bytes);
        io::MemoryReader in(input, paths.in);
        CountingWriter out(paths.out);
        // Returned errors at 17 and 20 and a thrown exception at 19, within one pool's reach of each other so
        // that they are in flight together; 17 reports last but comes first in record order.
        const FakeCodec codec(out, {17, 20}, 19, later_in_flight(threads, item_bytes));
        const std::string message = test::within_deadline([&] {
          try {
            core::run_pipeline(codec, in, out, test::config(threads, item_bytes));
          } catch (const core::Error& e) {
            REQUIRE(e.kind() == core::ErrorKind::payload);
            return std::string(e.what());
          }
          return std::string("no error");
        });
        REQUIRE(message == "fake failure at record 17");
        const Bytes written = out.data();
        if (paths.out == io::MemoryAccess::sequential) {
          REQUIRE(written == expected_frames(input, 17));
        } else {
          // Written at their offsets: every record before 17 (they all finish), and perhaps some good records
          // after it (18 here), but never a failed one (17, 19, 20).
          const std::size_t frame = kFrameHeader + kRecordBytes;
          REQUIRE(written.size() >= 17 * frame);
          REQUIRE(Bytes(written.begin(), written.begin() + 17 * frame) == expected_frames(input, 17));
          for (const std::size_t failed : {17u, 19u, 20u}) {
            const std::string problem = test::failed_output_problem(written, all, frame, failed, paths.out);
            INFO("record " << failed << ": " << problem);
            REQUIRE(problem.empty());
          }
        }
      }
    }
  }
}

TEST_CASE("a codec that throws fails the run at its record") {
  const Bytes input = test::random_bytes(20 * kRecordBytes);
  for (const std::size_t item_bytes : kItemSizes) {
    for (const test::Paths paths : test::kAllPaths) {
      for (const unsigned threads : {1u, 4u}) {
        INFO(threads << " threads, " << paths << ", items of " << item_bytes);
        io::MemoryReader in(input, paths.in);
        CountingWriter out(paths.out);
        const FakeCodec codec(out, {12}, 5, later_in_flight(threads, item_bytes));
        std::string message = "no error";
        try {
          test::within_deadline(
              [&] { return core::run_pipeline(codec, in, out, test::config(threads, item_bytes)); });
        } catch (const core::Error& e) {
          message = e.what();
        }
        REQUIRE(message == "fake codec threw at record 5");
        const Bytes written = out.data();
        REQUIRE(Bytes(written.begin(),
                      written.begin() + std::min(written.size(), 5 * (kFrameHeader + kRecordBytes))) ==
                expected_frames(input, 5));
        if (paths.out == io::MemoryAccess::sequential) {
          REQUIRE(written == expected_frames(input, 5));
        } else {
          const std::string problem = test::failed_output_problem(written, expected_frames(input, 20),
                                                                  kFrameHeader + kRecordBytes, 5, paths.out);
          INFO(problem);
          REQUIRE(problem.empty());
        }
      }
    }
  }
}

TEST_CASE("the pipeline never holds more records than its pool of buffers") {
  const Bytes input = test::random_bytes(500 * kRecordBytes);
  for (const test::Paths paths : test::kAllPaths) {
    for (const unsigned threads : {1u, 2u, 5u, 8u}) {
      INFO(threads << " threads, pool " << pool_size(threads) << ", " << paths);
      io::MemoryReader in(input, paths.in);
      CountingWriter out(paths.out);
      const FakeCodec codec(out);
      // One record per item: the fake counts buffers by the address it is given, and writes as records.
      test::within_deadline([&] { return core::run_pipeline(codec, in, out, test::config(threads, 0)); });
      REQUIRE(out.records() == 500);
      REQUIRE_FALSE(codec.shared_buffer());
      REQUIRE(codec.buffers_used() <= pool_size(threads));
      REQUIRE(codec.max_ahead() <= pool_size(threads));
    }
  }
}

namespace {

// A codec whose full records come out a different size than it promised: the positional writer cannot place
// them, so the run fails instead of writing them at wrong offsets.
class WrongSizeCodec final : public core::RecordCodec {
 public:
  std::size_t input_record_bytes() const override { return kRecordBytes; }
  std::size_t output_record_bytes() const override { return kRecordBytes; }
  std::size_t buffer_bytes() const override { return kRecordBytes + 1; }
  core::RecordOutcome process(std::uint64_t, bool, std::uint8_t*, std::size_t len) const override {
    return {
        .write_bytes = len + 1, .plaintext_bytes = len, .ciphertext_bytes = len + 1, .error = std::nullopt};
  }
};

}  // namespace

TEST_CASE("full records that break the codec's promised output size fail a positional write") {
  const Bytes input = test::random_bytes(10 * kRecordBytes);
  io::MemoryReader in(input);
  CountingWriter out(io::MemoryAccess::positional);
  std::string message = "no error";
  try {
    test::within_deadline([&] { return core::run_pipeline(WrongSizeCodec(), in, out, test::config(2)); });
  } catch (const core::Error& e) {
    message = e.what();
  }
  REQUIRE(message == "RecordCodec wrote 8 bytes for a full record, not 7");
  REQUIRE(out.records() == 0);
}
