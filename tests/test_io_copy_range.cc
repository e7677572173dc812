// io::copy_range: the bytes after an offset, appended unchanged after what the output already holds, by
// copy_file_range and by the read/write fallback; failures are IoErrors naming the side that failed.
#include <fcntl.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "io/copy_range.h"
#include "io/stream.h"
#include "tests/test_files.h"

using namespace pcrypt;

namespace {

using test::Bytes;
using test::read_file;
using test::TempDir;
using test::write_file;

Bytes pattern_bytes(std::size_t n) {
  std::mt19937 gen(42);
  Bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(gen());
  return b;
}

}  // namespace

TEST_CASE(
    "copy_range appends the input's bytes from an offset, by either path, leaving the input's position") {
  TempDir dir;
  const Bytes data = pattern_bytes((3 << 20) + 123);
  write_file(dir / "in", data);
  const std::uint64_t offset = GENERATE(0, 1, 4096, (1 << 20) + 7, (3 << 20) + 123);
  const bool fallback = GENERATE(false, true);
  INFO("offset " << offset << (fallback ? ", read/write" : ", copy_file_range"));

  const int in = ::open((dir / "in").c_str(), O_RDONLY | O_CLOEXEC);
  const int out = ::open((dir / "out").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  REQUIRE(in >= 0);
  REQUIRE(out >= 0);
  const Bytes prefix = {'h', 'e', 'a', 'd'};
  REQUIRE(::write(out, prefix.data(), prefix.size()) == 4);
  const std::uint64_t copied = fallback ? io::copy_range_by_reading(in, offset, out, "in", "out")
                                        : io::copy_range(in, offset, out, "in", "out");
  CHECK(::lseek(in, 0, SEEK_CUR) == 0);
  ::close(in);
  ::close(out);
  CHECK(copied == data.size() - offset);
  Bytes expected(prefix.size() + data.size() - offset);
  std::copy(prefix.begin(), prefix.end(), expected.begin());
  std::copy(data.begin() + static_cast<std::ptrdiff_t>(offset), data.end(),
            expected.begin() + static_cast<std::ptrdiff_t>(prefix.size()));
  CHECK(read_file(dir / "out") == expected);
}

TEST_CASE("copy_range onto a read-only descriptor fails with an IoError naming the output") {
  TempDir dir;
  write_file(dir / "in", pattern_bytes(10000));
  write_file(dir / "out", {});
  const int in = ::open((dir / "in").c_str(), O_RDONLY | O_CLOEXEC);
  const int out = ::open((dir / "out").c_str(), O_RDONLY | O_CLOEXEC);
  try {
    io::copy_range(in, 0, out, "in", "the-output");
    FAIL("no error");
  } catch (const io::IoError& e) {
    CHECK_THAT(e.what(), Catch::Contains("the-output"));
  }
  ::close(in);
  ::close(out);
}
