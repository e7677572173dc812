// Injected read and write failures stop every stage promptly, are reported once with the stream's name and
// errno text, and never deadlock; and the reader never runs more than the pool size ahead of the writer.
#include <catch2/catch.hpp>

#include <condition_variable>
#include <mutex>

#include "core/pipeline_error.h"
#include "core/pipeline_sizing.h"
#include "tests/test_pipeline_support.h"

using namespace pcrypt;
using test::Bytes;

namespace {

constexpr std::size_t kCs = 4096;
constexpr std::size_t kRecord = kCs + 16;

std::size_t pool_size(unsigned threads) {
  return core::pipeline_buffers(core::pipeline_workers(threads));
}

struct RunResult {
  std::optional<core::Error> error;
  Bytes written;
  std::uint64_t bytes_read = 0;
};

// One record per item unless told: most tests here count reads and writes in records.
RunResult run(core::Direction direction, io::Reader& in, test::FaultyWriter& out, unsigned threads,
              std::size_t item_bytes = 0) {
  return test::within_deadline([&] {
    RunResult r;
    try {
      core::run_pipeline(test::codec(direction, kCs), in, out, test::config(threads, item_bytes));
    } catch (const core::Error& e) {
      r.error = e;
    }
    r.written = out.data;
    return r;
  });
}

}  // namespace

TEST_CASE("a read error stops the pipeline and names the input") {
  const Bytes plain = test::random_bytes(40 * kCs);
  const Bytes sealed = test::seal(plain, kCs, 1);
  for (const std::size_t item_bytes : {std::size_t{0}, 3 * kRecord, core::kPipelineItemBytes}) {
    for (const test::Paths paths : test::kAllPaths) {
      for (const unsigned threads : {1u, 2u, 3u, 8u}) {
        for (const std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{7}}) {
          for (const auto direction : {core::Direction::seal, core::Direction::open}) {
            const bool sealing = direction == core::Direction::seal;
            INFO(threads << " threads, " << (sealing ? "sealing" : "opening") << ", failing in chunk "
                         << chunk << ", " << paths << ", items of " << item_bytes);
            // Sealing reads chunks and writes records; opening reads records and writes chunks.
            const Bytes& input = sealing ? plain : sealed;
            const Bytes& output = sealing ? sealed : plain;
            const std::size_t in_record = sealing ? kCs : kRecord;
            const std::size_t out_record = sealing ? kRecord : kCs;
            test::FaultyReader in(input, chunk * in_record + 10, EIO, paths.in);
            test::FaultyWriter out(SIZE_MAX, 0, paths.out);
            const RunResult r = run(direction, in, out, threads, item_bytes);
            REQUIRE(r.error.has_value());
            CHECK(r.error->kind() == core::ErrorKind::io);
            CHECK(std::string(r.error->what()) == "read failed (faulty-input): Input/output error");
            const std::string problem =
                test::failed_output_problem(r.written, output, out_record, chunk, paths.out);
            INFO(problem);
            REQUIRE(problem.empty());
            // Every record before the one that could not be read is written, even in its item.
            if (paths.out == io::MemoryAccess::sequential)
              REQUIRE(r.written == Bytes(output.begin(), output.begin() + chunk * out_record));
          }
        }
      }
    }
  }
}

TEST_CASE("a write error (EPIPE, ENOSPC) stops the reader promptly") {
  const Bytes plain = test::random_bytes(400 * kCs);
  const Bytes sealed = test::seal(plain, kCs, 1);
  for (const auto& [err, text] :
       {std::pair{EPIPE, "Broken pipe"}, std::pair{ENOSPC, "No space left on device"}}) {
    for (const test::Paths paths : test::kAllPaths) {
      for (const unsigned threads : {1u, 2u, 3u, 8u}) {
        for (const std::size_t chunk : {std::size_t{0}, std::size_t{3}}) {
          INFO(text << ", " << threads << " threads, failing at chunk " << chunk << ", " << paths);
          const std::string expected = std::string("write failed (faulty-output): ") + text;
          // Only the chunks already in the pool when the write failed may have been read: far less than the
          // input.
          const std::uint64_t read_bound = (chunk + pool_size(threads)) * kRecord + 1;

          // Every chunk before the failing one is written, whatever the order of writes.
          test::FaultyReader seal_in(plain, SIZE_MAX, 0, paths.in);
          test::FaultyWriter seal_out(chunk, err, paths.out, kRecord);
          const RunResult s = run(core::Direction::seal, seal_in, seal_out, threads);
          REQUIRE(s.error.has_value());
          CHECK(s.error->kind() == core::ErrorKind::io);
          CHECK(std::string(s.error->what()) == expected);
          REQUIRE(s.written == Bytes(sealed.begin(), sealed.begin() + chunk * kRecord));
          REQUIRE(seal_in.bytes_read <= read_bound);

          test::FaultyReader open_in(sealed, SIZE_MAX, 0, paths.in);
          test::FaultyWriter open_out(chunk, err, paths.out, kCs);
          const RunResult o = run(core::Direction::open, open_in, open_out, threads);
          REQUIRE(o.error.has_value());
          CHECK(std::string(o.error->what()) == expected);
          REQUIRE(o.written == Bytes(plain.begin(), plain.begin() + chunk * kCs));
          REQUIRE(open_in.bytes_read <= read_bound);
        }
      }
    }
  }
}

TEST_CASE("a read error after a bad chunk reports the bad chunk, once") {
  const Bytes plain = test::random_bytes(20 * kCs);
  Bytes sealed = test::seal(plain, kCs, 1);
  sealed[2 * kRecord + 1] ^= 1;
  // One record per item; items of 10 and of all 20 records, where the bad chunk and the unreadable one (9)
  // share an item: the bad chunk still comes first.
  for (const std::size_t item_bytes : {std::size_t{0}, 10 * kRecord, core::kPipelineItemBytes}) {
    for (const test::Paths paths : test::kAllPaths) {
      for (const unsigned threads : {1u, 2u, 8u}) {
        INFO(threads << " threads, " << paths << ", items of " << item_bytes);
        test::FaultyReader in(sealed, 9 * kRecord, EIO, paths.in);
        test::FaultyWriter out(SIZE_MAX, 0, paths.out);
        const RunResult r = run(core::Direction::open, in, out, threads, item_bytes);
        REQUIRE(r.error.has_value());
        CHECK(r.error->kind() == core::ErrorKind::payload);
        CHECK(std::string(r.error->what()) ==
              "payload authentication failed (chunk 2 at offset " + std::to_string(2 * kRecord) + ")");
        const std::string problem = test::failed_output_problem(r.written, plain, kCs, 2, paths.out);
        INFO(problem);
        REQUIRE(problem.empty());
        if (paths.out == io::MemoryAccess::sequential)
          REQUIRE(r.written == Bytes(plain.begin(), plain.begin() + 2 * kCs));
      }
    }
  }
}

TEST_CASE("a throwing progress callback stops the run") {
  const Bytes plain = test::random_bytes(50 * kCs);
  const Bytes sealed = test::seal(plain, kCs, 1);
  for (const test::Paths paths : test::kAllPaths) {
    for (const unsigned threads : {1u, 3u}) {
      INFO(threads << " threads, " << paths);
      io::MemoryReader in(plain, paths.in);
      io::MemoryWriter out(paths.out);
      core::PipelineConfig cfg = test::config(threads, 0);  // progress after each record
      cfg.progress = [](std::uint64_t bytes) {
        if (bytes >= 2 * kCs) throw core::Error(PCRYPT_E_IO, "interrupted by the user");
      };
      const std::string message = test::within_deadline([&] {
        try {
          core::run_pipeline(test::codec(core::Direction::seal, kCs), in, out, cfg);
        } catch (const core::Error& e) {
          return std::string(e.what());
        }
        return std::string("no error");
      });
      REQUIRE(message == "interrupted by the user");
      // Progress follows writing: sequentially, the record it reports on was written and no later one.
      if (paths.out == io::MemoryAccess::sequential) {
        REQUIRE(out.data() == Bytes(sealed.begin(), sealed.begin() + 2 * kRecord));
      } else {
        const std::string problem =
            test::failed_output_problem(out.data(), sealed, kRecord, SIZE_MAX, paths.out);
        INFO(problem);
        REQUIRE(problem.empty());
      }
    }
  }
}

namespace {

// Counts bytes through the pipeline and measures how far the reader gets ahead of the writer, in input bytes.
// The first write blocks until the reader has filled the pool (or a generous time passed), so the bound is
// reached rather than merely not exceeded.
struct Gauge {
  std::mutex mu;
  std::condition_variable cv;
  std::uint64_t read = 0;
  std::uint64_t written_input = 0;  // input bytes whose chunk has been written
  std::uint64_t max_ahead = 0;
};

class GaugedReader final : public io::Reader, public io::PositionalReader {
 public:
  GaugedReader(std::span<const std::uint8_t> data, Gauge& g, io::MemoryAccess access)
      : inner_(data, access), g_(g), access_(access) {}
  std::size_t read(std::uint8_t* buf, std::size_t n) override { return count(inner_.read(buf, n)); }
  std::string name() const override { return "gauged"; }
  io::PositionalReader* positional() override {
    return access_ == io::MemoryAccess::positional ? this : nullptr;
  }
  std::uint64_t size() const override { return inner_.size(); }
  std::size_t read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const override {
    return count(inner_.read_at(offset, buf, n));
  }
  std::uint64_t position() const override { return inner_.position(); }
  void seek(std::uint64_t offset) override { inner_.seek(offset); }

 private:
  std::size_t count(std::size_t got) const {
    std::lock_guard lock(g_.mu);
    g_.read += got;
    g_.max_ahead = std::max(g_.max_ahead, g_.read - g_.written_input);
    g_.cv.notify_all();
    return got;
  }
  io::MemoryReader inner_;
  Gauge& g_;
  io::MemoryAccess access_;
};

// Sequentially, the first write blocks until `wait_for_read` bytes were read; positionally nothing blocks (a
// blocked worker could be the only one, and then nothing else would read).
class GaugedWriter final : public io::Writer, public io::PositionalWriter {
 public:
  GaugedWriter(Gauge& g, core::Direction d, std::uint64_t wait_for_read, io::MemoryAccess access)
      : g_(g), d_(d), wait_for_(wait_for_read), access_(access) {}
  void write(const std::uint8_t*, std::size_t n) override {
    std::unique_lock lock(g_.mu);
    if (first_) {
      first_ = false;
      g_.cv.wait_for(lock, std::chrono::seconds(20), [&] { return g_.read >= wait_for_; });
    }
    count_locked(n);
  }
  void commit() override {}
  std::string name() const override { return "gauged"; }
  io::PositionalWriter* positional() override {
    return access_ == io::MemoryAccess::positional ? this : nullptr;
  }
  void write_at(std::uint64_t, const std::uint8_t*, std::size_t n) override {
    std::lock_guard lock(g_.mu);
    count_locked(n);
  }
  std::uint64_t position() const override { return 0; }
  void seek(std::uint64_t) override {}

 private:
  void count_locked(std::size_t n) { g_.written_input += d_ == core::Direction::seal ? n - 16 : n + 16; }
  Gauge& g_;
  core::Direction d_;
  std::uint64_t wait_for_;
  io::MemoryAccess access_;
  bool first_ = true;
};

}  // namespace

TEST_CASE("the reader never gets more than the pool size ahead of the writer") {
  for (const test::Paths paths : test::kAllPaths) {
    for (const unsigned threads : {1u, 2u, 8u}) {
      const std::size_t pool = pool_size(threads);
      const Bytes plain = test::random_bytes(3 * pool * kCs + 100);
      const Bytes sealed = test::seal(plain, kCs, threads);
      for (const auto direction : {core::Direction::seal, core::Direction::open}) {
        const bool sealing = direction == core::Direction::seal;
        const std::size_t record = sealing ? kCs : kRecord;
        // All buffers full (one of them held by the blocked writer), plus, reading sequentially, the peeked
        // first byte of the next record.
        const std::uint64_t bound = pool * record + (paths.in == io::MemoryAccess::sequential ? 1 : 0);
        INFO(threads << " threads, " << (sealing ? "sealing" : "opening") << ", pool " << pool << ", "
                     << paths);
        Gauge gauge;
        GaugedReader in(sealing ? plain : sealed, gauge, paths.in);
        GaugedWriter out(gauge, direction, bound, paths.out);
        test::within_deadline([&] {
          core::run_pipeline(test::codec(direction, kCs), in, out, test::config(threads, 0));  // in records
          return 0;
        });
        REQUIRE(gauge.read == (sealing ? plain : sealed).size());
        REQUIRE(gauge.max_ahead <= bound);
        if (paths.out == io::MemoryAccess::sequential)
          CHECK(gauge.max_ahead == bound);  // the pool really is used to run ahead
      }
    }
  }
}

TEST_CASE("I/O failures keep their errno; other failures carry none") {
  const Bytes plain = test::random_bytes(10 * kCs);
  const auto thrown_errno = [&](io::Reader& in, io::Writer& out, core::Direction d) {
    try {
      core::run_pipeline(test::codec(d, kCs), in, out, test::config(2, 0));  // a write per record
    } catch (const core::StreamError& e) {
      CHECK(e.kind() == core::ErrorKind::io);
      return e.error_number();
    } catch (const core::Error&) {
      return -1;  // a plain Error: no errno to give
    }
    return 0;
  };
  {
    io::MemoryReader in(plain);
    test::FaultyWriter out(2, EPIPE);
    REQUIRE(thrown_errno(in, out, core::Direction::seal) == EPIPE);
  }
  {
    test::FaultyReader in(plain, 5 * kCs, EIO);
    io::MemoryWriter out;
    REQUIRE(thrown_errno(in, out, core::Direction::seal) == EIO);
  }
  {
    Bytes sealed = test::seal(plain, kCs, 1);
    sealed[3] ^= 1;
    io::MemoryReader in(sealed);
    io::MemoryWriter out;
    REQUIRE(thrown_errno(in, out, core::Direction::open) == -1);
  }
}
