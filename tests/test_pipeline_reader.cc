// pcrypt::Reader (include/pcrypt/reader.h), the pull-style decryptor over the pipeline, through the public
// header only: both formats and armored age, every kind of source (a pipe included), buffers of every size
// down to one byte, 1 and N workers giving the same bytes, damaged and cut records surfacing at the read
// that reaches them with no byte of them returned, and a reader dropped mid-stream. Named test_pipeline_* so
// that CI's TSan stage runs it: the reader is a thread handing buffers to another.
#include <pcrypt/pcrypt.h>
#include <pcrypt/reader.h>

#include <catch2/catch.hpp>

#include "lib/public_api_support.h"

#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using pcrypt_test::random_bytes;
constexpr std::size_t kChunk = pcrypt_test::kRecordSize;

struct Case {
  pcrypt::Format format;
  bool armor;
  const char* name;
};
constexpr Case kCases[] = {
    {pcrypt::Format::age, false, "age"},
    {pcrypt::Format::age, true, "armored age"},
    {pcrypt::Format::pcrypt, false, "pcrypt"},
};

const pcrypt::NewIdentity& identity() {
  static const pcrypt::NewIdentity id = pcrypt::generate_identity();
  return id;
}

pcrypt::Credentials credentials() {
  pcrypt::Credentials by;
  by.identities = {identity().file_text};
  return by;
}

std::vector<std::uint8_t> encrypted(const Case& c, const std::vector<std::uint8_t>& plain) {
  return pcrypt_test::encrypted(c.format, plain, identity().recipient, c.armor);
}

pcrypt::Reader reader_of(pcrypt::Source source, unsigned threads) {
  pcrypt::File file = pcrypt::File::open(std::move(source));
  file.unlock(credentials());
  return pcrypt::Reader(std::move(file), pcrypt::RunOptions{threads, {}, nullptr});
}

// Every byte `in` gives, read through a buffer of `buffer_size`; checks that each read fills its buffer
// unless the plaintext ends. Sets `error` to what the first failing read threw, and checks that it throws it
// again.
std::vector<std::uint8_t> read_all(pcrypt::Reader& in, std::size_t buffer_size,
                                   std::optional<pcrypt::Error>* error = nullptr) {
  std::vector<std::uint8_t> out;
  std::vector<std::uint8_t> buffer(buffer_size);
  try {
    while (const std::size_t n = in.read(buffer)) {
      out.insert(out.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
      if (n < buffer.size()) {
        // Short: only at the end (or just before a failure, which the next read throws).
        std::vector<std::uint8_t> more(1);
        const std::size_t extra = in.read(more);  // throws the failure, if that is why it was short
        CHECK(extra == 0);
        break;
      }
    }
  } catch (const pcrypt::Error& e) {
    if (error == nullptr) throw;
    error->emplace(e);
    std::vector<std::uint8_t> again(1);
    try {
      (void)in.read(again);
      FAIL("a read after a failure returned");
    } catch (const pcrypt::Error& e2) {
      CHECK(e2.kind() == e.kind());
      CHECK(std::string(e2.what()) == e.what());
    }
    return out;
  }
  CHECK(in.at_end());
  CHECK(in.read(buffer) == 0);  // stays at the end
  return out;
}

// A pipe fed by a thread: its read end is the source. The read end is closed at destruction, after which
// the writer, if still writing, fails with EPIPE and ends.
struct Pipe {
  int fds[2] = {-1, -1};
  std::thread writer;
  explicit Pipe(const std::vector<std::uint8_t>& bytes) {
    REQUIRE(::pipe(fds) == 0);
    writer = std::thread([this, &bytes] {
      std::size_t done = 0;
      while (done < bytes.size()) {
        const ssize_t n = ::write(fds[1], bytes.data() + done, bytes.size() - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
      }
      ::close(fds[1]);
    });
  }
  ~Pipe() {
    ::close(fds[0]);
    writer.join();
  }
  pcrypt::Source source() const { return pcrypt::Source::fd(fds[0], "a pipe"); }
};

struct Scratch {
  std::string dir;
  Scratch() {
    char name[] = "/tmp/pcrypt-reader-test-XXXXXX";
    dir = ::mkdtemp(name);
  }
  ~Scratch() { std::system(("rm -rf '" + dir + "'").c_str()); }
  std::string write(const std::string& name, const std::vector<std::uint8_t>& bytes) const {
    std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path;
  }
};

pcrypt::Source callback_source(const std::vector<std::uint8_t>& file) {
  return pcrypt::Source::callback(file.size(), [&file](std::uint64_t offset, std::span<std::uint8_t> buffer) {
    const std::size_t n =
        offset >= file.size() ? 0 : std::min<std::uint64_t>(buffer.size(), file.size() - offset);
    std::copy_n(file.begin() + static_cast<std::ptrdiff_t>(offset), n, buffer.begin());
    return n;
  });
}

}  // namespace

TEST_CASE("Reader: every source, format and buffer size gives the plaintext, 1 and N workers alike") {
  std::signal(SIGPIPE, SIG_IGN);
  Scratch scratch;
  const std::vector<std::uint8_t> plain = random_bytes(5 * kChunk + 1234, 1);
  for (const Case& c : kCases) {
    INFO(c.name);
    const std::vector<std::uint8_t> file = encrypted(c, plain);
    const std::string path = scratch.write(std::string(c.name) + ".enc", file);
    for (const unsigned threads : {1u, 4u}) {
      INFO("threads " << threads);
      for (const std::size_t buffer : {std::size_t{1}, std::size_t{7}, std::size_t{4096}, kChunk, kChunk + 16,
                                       std::size_t{1} << 20, plain.size() + 1}) {
        INFO("buffer " << buffer);
        {
          pcrypt::Reader in = reader_of(pcrypt::Source::memory(file), threads);
          CHECK(in.describe().format == c.format);
          CHECK(in.describe().armored == c.armor);
          CHECK(read_all(in, buffer) == plain);
          CHECK(in.position() == plain.size());
          const pcrypt::Transfer t = in.transfer();
          CHECK(t.plaintext_bytes == plain.size());
          CHECK(t.chunks == 6);
        }
        if (buffer < 4096) continue;  // the other sources at the sizes that cost little
        {
          pcrypt::Reader in = reader_of(pcrypt::Source::path(path), threads);
          CHECK(read_all(in, buffer) == plain);
        }
        {
          Pipe pipe(file);
          pcrypt::Reader in = reader_of(pipe.source(), threads);
          CHECK(read_all(in, buffer) == plain);
        }
        {
          pcrypt::Reader in = reader_of(callback_source(file), threads);
          CHECK(read_all(in, buffer) == plain);
        }
      }
    }
  }
}

TEST_CASE("Reader: empty plaintext, and plaintext of exactly whole chunks") {
  for (const Case& c : kCases) {
    INFO(c.name);
    for (const std::size_t size : {std::size_t{0}, std::size_t{1}, kChunk, 3 * kChunk}) {
      INFO("size " << size);
      const std::vector<std::uint8_t> plain = random_bytes(size, 2);
      const std::vector<std::uint8_t> file = encrypted(c, plain);
      pcrypt::Reader in = reader_of(pcrypt::Source::memory(file), 2);
      CHECK(read_all(in, 1000) == plain);
      CHECK(in.transfer().plaintext_bytes == size);
    }
  }
}

TEST_CASE("Reader: a damaged record fails the read that reaches it, and none of its bytes is returned") {
  const std::vector<std::uint8_t> plain = random_bytes(6 * kChunk + 999, 3);
  for (const Case& c : kCases) {
    if (c.armor) continue;  // armor's offsets are not the records'; its damage is the decoder's test
    INFO(c.name);
    const std::vector<std::uint8_t> intact = encrypted(c, plain);
    const std::uint64_t header = pcrypt::File::open(pcrypt::Source::memory(intact)).describe().header_bytes;
    for (const std::uint64_t record : {0u, 1u, 3u, 6u}) {
      for (const std::size_t where : {std::size_t{0}, std::size_t{100}, kChunk + 15}) {
        const std::uint64_t offset = header + record * (kChunk + 16) + where;
        if (offset >= intact.size()) continue;
        INFO("record " << record << ", byte " << where);
        std::vector<std::uint8_t> file = intact;
        file[offset] ^= 0x40;
        for (const unsigned threads : {1u, 3u}) {
          for (const std::size_t buffer : {std::size_t{1000}, kChunk, std::size_t{1} << 20}) {
            INFO("threads " << threads << ", buffer " << buffer);
            pcrypt::Reader in = reader_of(pcrypt::Source::memory(file), threads);
            std::optional<pcrypt::Error> error;
            const std::vector<std::uint8_t> got = read_all(in, buffer, &error);
            REQUIRE(error);
            CHECK(error->kind() == pcrypt::ErrorKind::damaged_payload);
            CHECK(std::string(error->what()).find("chunk " + std::to_string(record)) != std::string::npos);
            // Exactly the records before the damaged one.
            CHECK(got.size() == record * kChunk);
            CHECK(std::equal(got.begin(), got.end(), plain.begin()));
            CHECK_FALSE(in.at_end());
          }
        }
      }
    }
  }
}

TEST_CASE("Reader: a file cut short fails at its end, having returned only whole authenticated records") {
  const std::vector<std::uint8_t> plain = random_bytes(4 * kChunk + 500, 4);
  for (const Case& c : kCases) {
    INFO(c.name);
    const std::vector<std::uint8_t> intact = encrypted(c, plain);
    const std::uint64_t header = pcrypt::File::open(pcrypt::Source::memory(intact)).describe().header_bytes;
    // Armor's offsets are not the records': it is cut in the middle of its text.
    const std::vector<std::uint64_t> cuts =
        c.armor ? std::vector<std::uint64_t>{intact.size() / 2}
                : std::vector<std::uint64_t>{header + 10, header + kChunk + 16,
                                             header + 2 * (kChunk + 16) + 5, intact.size() - 1};
    for (const std::uint64_t cut : cuts) {
      INFO("cut at " << cut);
      const std::vector<std::uint8_t> file(intact.begin(), intact.begin() + static_cast<std::ptrdiff_t>(cut));
      for (const bool through_pipe : {false, true}) {
        INFO((through_pipe ? "pipe" : "memory"));
        std::optional<Pipe> pipe;
        if (through_pipe) pipe.emplace(file);
        pcrypt::Reader in = reader_of(through_pipe ? pipe->source() : pcrypt::Source::memory(file), 2);
        std::optional<pcrypt::Error> error;
        const std::vector<std::uint8_t> got = read_all(in, 5000, &error);
        REQUIRE(error);
        CHECK((error->kind() == pcrypt::ErrorKind::damaged_payload ||
               error->kind() == pcrypt::ErrorKind::damaged_header));
        CHECK(got.size() % kChunk == 0);
        CHECK(got.size() < plain.size());
        CHECK(std::equal(got.begin(), got.end(), plain.begin()));
      }
    }
  }
}

TEST_CASE("Reader: dropped mid-stream, before reading, or moved, it stops its threads cleanly") {
  std::signal(SIGPIPE, SIG_IGN);
  const std::vector<std::uint8_t> plain = random_bytes(16 << 20, 5);
  for (const Case& c : kCases) {
    INFO(c.name);
    const std::vector<std::uint8_t> file = encrypted(c, plain);
    { pcrypt::Reader untouched = reader_of(pcrypt::Source::memory(file), 4); }
    for (const std::size_t stop_after : {std::size_t{1}, std::size_t{3} << 20}) {
      pcrypt::Reader in = reader_of(pcrypt::Source::memory(file), 4);
      std::vector<std::uint8_t> part(stop_after);
      REQUIRE(in.read(part) == stop_after);
      CHECK(std::equal(part.begin(), part.end(), plain.begin()));
    }
    {
      Pipe pipe(file);  // destroyed after the reader: its writer then fails with EPIPE and ends
      pcrypt::Reader in = reader_of(pipe.source(), 2);
      std::vector<std::uint8_t> part(100'000);
      REQUIRE(in.read(part) == part.size());
    }
    {
      pcrypt::Reader first = reader_of(pcrypt::Source::memory(file), 2);
      std::vector<std::uint8_t> part(10);
      REQUIRE(first.read(part) == 10);
      pcrypt::Reader second = std::move(first);
      std::vector<std::uint8_t> rest(plain.size());
      CHECK(second.read(rest) == plain.size() - 10);
      CHECK(std::equal(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(plain.size() - 10),
                       plain.begin() + 10));
      // NOLINTNEXTLINE(bugprone-use-after-move): the moved-from reader's error is what is tested
      const pcrypt::Error e = [&] {
        try {
          (void)first.read(part);
        } catch (const pcrypt::Error& error) {
          return error;
        }
        return pcrypt::Error(PCRYPT_E_IO, "no error");
      }();
      CHECK(e.kind() == pcrypt::ErrorKind::usage);
      CHECK(std::string(e.what()).find("moved from") != std::string::npos);
    }
  }
}

TEST_CASE("Reader: needs an unlocked file; the transfer is known at the end") {
  const std::vector<std::uint8_t> plain = random_bytes(1000, 6);
  const std::vector<std::uint8_t> file = encrypted(kCases[0], plain);
  try {
    pcrypt::Reader in(pcrypt::File::open(pcrypt::Source::memory(file)));
    FAIL("a locked file made a reader");
  } catch (const pcrypt::Error& e) {
    CHECK(e.kind() == pcrypt::ErrorKind::usage);
    CHECK(std::string(e.what()).find("unlock") != std::string::npos);
  }
  pcrypt::Reader in = reader_of(pcrypt::Source::memory(file), 1);
  try {
    (void)in.transfer();
    FAIL("the transfer was given before the end");
  } catch (const pcrypt::Error& e) {
    CHECK(e.kind() == pcrypt::ErrorKind::usage);
  }
  std::vector<std::uint8_t> none;
  CHECK(in.read(none) == 0);  // an empty buffer reads nothing, and is not the end
  CHECK_FALSE(in.at_end());
  CHECK(read_all(in, 300) == plain);
  CHECK(in.transfer().encrypted_bytes == file.size());
}

TEST_CASE(
    "Reader: RunOptions' progress, as File::decrypt gives it; what the callback throws, read() throws") {
  const std::vector<std::uint8_t> plain = random_bytes(5 * kChunk + 123, 17);
  for (const Case& c : kCases) {
    INFO(c.name);
    const std::vector<std::uint8_t> file = encrypted(c, plain);
    std::vector<std::uint64_t> seen;  // from the read-ahead's thread, read here only after the end
    pcrypt::RunOptions options;
    options.threads = 2;
    options.progress = [&seen](std::uint64_t bytes) { seen.push_back(bytes); };
    pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
    opened.unlock(credentials());
    pcrypt::Reader in(std::move(opened), options);
    CHECK(read_all(in, 4096) == plain);
    REQUIRE_FALSE(seen.empty());
    CHECK(std::is_sorted(seen.begin(), seen.end()));
    CHECK(seen.back() == plain.size());

    struct Stop {};
    pcrypt::RunOptions stopping;
    stopping.progress = [](std::uint64_t) { throw Stop{}; };
    pcrypt::File again = pcrypt::File::open(pcrypt::Source::memory(file));
    again.unlock(credentials());
    pcrypt::Reader stopped(std::move(again), stopping);
    std::vector<std::uint8_t> buffer(plain.size() + 1);
    CHECK_THROWS_AS(
        [&] {
          while (stopped.read(buffer) != 0) {
          }
        }(),
        Stop);
  }
}
