// The pipeline over real files, where workers pread and pwrite their own records: the same bytes as the
// sequential path for -j1 and -jN, a clean error (never a crash or a silently different output) when the
// input changes size while being read, the first failure in chunk order reported with nothing published, and
// positional access only where a file's size is its content.
#include <fcntl.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "io/atomic_file.h"
#include "io/fd_stream.h"
#include "tests/test_files.h"
#include "tests/test_pipeline_support.h"

using namespace pcrypt;
using test::Bytes;
using test::read_file;
using test::TempDir;
using test::write_file;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kCs = 64 * 1024;
constexpr std::size_t kRecord = kCs + 16;

// Runs `codec` from the file `from` into the atomic output `to`, committing only on success; returns the
// error, if any.
std::optional<core::Error> run_files(const core::RecordCodec& codec, const std::string& from,
                                     const std::string& to, unsigned threads,
                                     std::size_t item_bytes = core::kPipelineItemBytes) {
  return test::within_deadline([&] {
    const auto in = io::open_input(from);
    io::AtomicFileWriter out(to, false);
    REQUIRE(in->positional() != nullptr);  // this suite is about the positional path
    try {
      core::run_pipeline(codec, *in, out, test::config(threads, item_bytes));
    } catch (const core::Error& e) {
      return std::optional<core::Error>(e);
    }
    out.commit();
    return std::optional<core::Error>();
  });
}

// The payload codec, plus one action on the side when record `at` is processed (at most once): the input
// file changing under the pipeline's feet. Records from `at` + the pool size (in records: buffers times
// records per item) on have not been read yet then, since no job runs more than the pool ahead of the oldest
// unwritten one.
class MutatingCodec final : public core::RecordCodec {
 public:
  MutatingCodec(core::Direction d, std::uint64_t at, std::function<void()> action)
      : inner_(test::codec(d, kCs)), at_(at), action_(std::move(action)) {}
  std::size_t input_record_bytes() const override { return inner_.input_record_bytes(); }
  std::size_t output_record_bytes() const override { return inner_.output_record_bytes(); }
  std::size_t buffer_bytes() const override { return inner_.buffer_bytes(); }
  core::RecordOutcome process(std::uint64_t index, bool last, std::uint8_t* buf,
                              std::size_t len) const override {
    if (index == at_) action_();
    return inner_.process(index, last, buf, len);
  }
  core::ErrorKind changed_input_kind() const override { return inner_.changed_input_kind(); }

 private:
  core::PayloadCodec inner_;
  std::uint64_t at_;
  std::function<void()> action_;
};

}  // namespace

TEST_CASE("file to file: -j1 and -jN give the bytes of the sequential path") {
  TempDir dir;
  const Bytes plain = test::random_bytes(37 * kCs + 1234);
  write_file(dir / "plain", plain);
  const Bytes reference = test::seal(plain, kCs, 1);  // memory, sequential on both sides
  for (const unsigned threads : {1u, 2u, 4u}) {
    INFO(threads << " threads");
    const std::string sealed = dir / ("sealed" + std::to_string(threads));
    const std::string back = dir / ("back" + std::to_string(threads));
    const std::optional<core::Error> seal_error =
        run_files(test::codec(core::Direction::seal, kCs), dir / "plain", sealed, threads);
    INFO(test::message_of(seal_error));
    REQUIRE_FALSE(seal_error);
    REQUIRE(read_file(sealed) == reference);
    const std::optional<core::Error> open_error =
        run_files(test::codec(core::Direction::open, kCs), sealed, back, threads);
    INFO(test::message_of(open_error));
    REQUIRE_FALSE(open_error);
    REQUIRE(read_file(back) == plain);
  }
}

TEST_CASE("an input that shrinks or grows while being read is a clean error, and nothing is published") {
  // Plaintext being sealed: an io error. A payload being opened: a payload cut short or extended, as it is
  // when read in order (and as a read-at callback that ends early is: docs/LIBRARY.md).
  TempDir dir;
  const std::size_t records = 40;
  const Bytes plain = test::random_bytes(records * kCs - 100);
  const Bytes sealed = test::seal(plain, kCs, 1);
  const std::string name = dir / "input";
  const auto shrink = [&] { REQUIRE(::truncate(name.c_str(), static_cast<off_t>(20 * kCs + 7)) == 0); };
  const auto grow = [&] { std::ofstream(name, std::ios::binary | std::ios::app) << "x"; };
  // One record per item, and items of 2 records: either way the pool (at most 11 buffers here) ends before
  // the 40 records do, so the change happens before the end is read.
  for (const std::size_t item_bytes : {std::size_t{0}, 2 * kRecord})
    for (const unsigned threads : {1u, 2u, 4u}) {
      for (const auto direction : {core::Direction::seal, core::Direction::open}) {
        for (const bool growing : {false, true}) {
          const bool sealing = direction == core::Direction::seal;
          INFO(threads << " threads, " << (sealing ? "sealing" : "opening") << ", "
                       << (growing ? "growing" : "shrinking") << ", items of " << item_bytes);
          const Bytes& original = sealing ? plain : sealed;
          write_file(name, original);
          const MutatingCodec codec(direction, 2, growing ? std::function<void()>(grow) : shrink);
          const std::optional<core::Error> error = run_files(codec, name, dir / "out", threads, item_bytes);
          REQUIRE(error.has_value());
          CHECK(error->kind() == (sealing ? core::ErrorKind::io : core::ErrorKind::payload));
          const std::string prefix = sealing ? "" : growing ? "extended payload: " : "truncated payload: ";
          REQUIRE(std::string(error->what()) == prefix + "input changed size while being read (" + name +
                                                    "): it was " + std::to_string(original.size()) +
                                                    " bytes when reading started, and " +
                                                    (growing ? "grew" : "shrank"));
          REQUIRE_FALSE(fs::exists(dir / "out"));
          REQUIRE(dir.entries() == std::vector<std::string>{"input"});  // the temporary is gone too
        }
      }
    }
}

TEST_CASE("file to file: the first bad chunk in order is reported, whatever was written after it") {
  TempDir dir;
  const Bytes plain = test::random_bytes(30 * kCs);
  Bytes sealed = test::seal(plain, kCs, 1);
  sealed[9 * kRecord + 3] ^= 1;  // in flight together with chunk 4 for 4 workers (pool of 11)
  sealed[4 * kRecord + 3] ^= 1;
  write_file(dir / "sealed", sealed);
  for (const unsigned threads : {1u, 2u, 4u}) {
    INFO(threads << " threads");
    const std::optional<core::Error> error =
        run_files(test::codec(core::Direction::open, kCs), dir / "sealed", dir / "out", threads);
    REQUIRE(error.has_value());
    CHECK(error->kind() == core::ErrorKind::payload);
    REQUIRE(std::string(error->what()) ==
            "payload authentication failed (chunk 4 at offset " + std::to_string(4 * kRecord) + ")");
    REQUIRE_FALSE(fs::exists(dir / "out"));
    REQUIRE(dir.entries() == std::vector<std::string>{"sealed"});
  }
}

TEST_CASE("positional access only where a file's size is its content") {
  TempDir dir;
  write_file(dir / "data", test::random_bytes(1000));
  write_file(dir / "empty", {});
  REQUIRE(io::open_input(dir / "data")->positional() != nullptr);
  REQUIRE(io::open_input(dir / "data")->positional()->size() == 1000);
  // An empty regular file may be a pseudo file that only reading tells the content of.
  REQUIRE(io::open_input(dir / "empty")->positional() == nullptr);
  // proc reports size 0 (or a page, in sysfs) for files with content: the pipeline must read them through.
  REQUIRE(io::open_input("/proc/self/status")->positional() == nullptr);
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  ::close(fds[1]);
  REQUIRE(io::FdReader(fds[0], "pipe", true).positional() == nullptr);

  // Reading a proc file through the pipeline gives its content, not the empty payload its size suggests.
  const auto in = io::open_input("/proc/self/cmdline");
  io::MemoryWriter out;
  core::run_pipeline(test::codec(core::Direction::seal, 4096), *in, out, test::config(2));
  REQUIRE(out.data().size() > core::kChunkTagBytes);
}

TEST_CASE("positional reading leaves a file's offset where sequential reading would") {
  TempDir dir;
  const Bytes bytes = test::random_bytes(5 * 4096 + 3);
  write_file(dir / "data", bytes);
  const int fd = ::open((dir / "data").c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  io::FdReader in(fd, "data", true);
  std::uint8_t first[10];
  REQUIRE(in.read(first, sizeof first) == sizeof first);  // as a header would be
  io::MemoryWriter out;
  core::run_pipeline(test::codec(core::Direction::seal, 4096), in, out, test::config(3));
  REQUIRE(::lseek(fd, 0, SEEK_CUR) == static_cast<off_t>(bytes.size()));
  const test::OpenResult back = test::open(out.data(), 4096, 2);
  REQUIRE(back.written == Bytes(bytes.begin() + 10, bytes.end()));
}
