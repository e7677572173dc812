// File streams and atomic outputs against a real temporary directory.
#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <thread>
#include <vector>

#include "io/atomic_file.h"
#include "io/fd_stream.h"
#include "io/file_info.h"
#include "io/memory_stream.h"
#include "tests/test_files.h"

using namespace pcrypt;
namespace fs = std::filesystem;

namespace {

using test::Bytes;
using test::TempDir;

Bytes pattern_bytes(std::size_t n) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i * 131 + (i >> 12));
  return b;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

unsigned mode_of(const std::string& path) {
  struct stat st;
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// Sets a permissive umask for the scope: the 0600 guarantees must not depend on the caller's umask.
struct Umask {
  explicit Umask(mode_t m) : old(::umask(m)) {}
  ~Umask() { ::umask(old); }
  mode_t old;
};

int error_number_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const io::IoError& e) {
    return e.error_number();
  }
  return 0;
}

}  // namespace

// Every AtomicFileWriter test runs with both kinds of temporary: unnamed (O_TMPFILE, where supported) and
// the named fallback.
io::TempFile either_temp_kind() {
  return GENERATE(io::TempFile::unnamed_if_supported, io::TempFile::named);
}

TEST_CASE("commit publishes the whole file with mode 0600 and leaves no temporary") {
  const io::TempFile kind = either_temp_kind();
  TempDir dir;
  Umask permissive(0);
  const std::string target = dir / "out.bin";
  const Bytes data = pattern_bytes(300000);
  {
    io::AtomicFileWriter w(target, false, kind);
    REQUIRE(w.name() == target);
    if (kind == io::TempFile::named) REQUIRE_FALSE(w.temp_path().empty());
    if (w.temp_path().empty()) {
      REQUIRE(dir.entries().empty());  // unnamed: invisible until commit
    } else {
      REQUIRE(fs::path(w.temp_path()).parent_path() == fs::path(target).parent_path());
      REQUIRE(fs::path(w.temp_path()).filename().string().rfind(".out.bin.pcrypt-tmp-", 0) == 0);
      REQUIRE(mode_of(w.temp_path()) == 0600);
    }
    w.write(data.data(), 1000);
    w.write(data.data() + 1000, data.size() - 1000);
    REQUIRE_FALSE(io::file_exists(target));  // nothing visible before commit
    w.commit();
  }
  REQUIRE(mode_of(target) == 0600);
  const std::string back = read_file(target);
  REQUIRE(Bytes(back.begin(), back.end()) == data);
  REQUIRE(dir.entries() == std::vector<std::string>{"out.bin"});
}

TEST_CASE("a temporary a crash left is removed by the next writer of its target, one still written is kept") {
  const io::TempFile kind = either_temp_kind();
  TempDir dir;
  const std::string target = dir / "out.bin";
  write_file(dir / ".out.bin.pcrypt-tmp-Abc123", "left by a power cut");
  write_file(dir / ".out.bin.pcrypt-tmp-Live99", "another run is writing this one");
  write_file(dir / ".other.bin.pcrypt-tmp-Xyz789", "another target's");
  write_file(dir / ".out.bin.pcrypt-tmp-long1234", "not a temporary's name (8 random characters)");
  // A live writer holds an flock on its temporary (another open file description: as another process would).
  const int live = ::open((dir / ".out.bin.pcrypt-tmp-Live99").c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(live >= 0);
  REQUIRE(::flock(live, LOCK_EX) == 0);
  {
    io::AtomicFileWriter w(target, false, kind);
    REQUIRE_FALSE(io::file_exists(dir / ".out.bin.pcrypt-tmp-Abc123"));
    w.write(reinterpret_cast<const std::uint8_t*>("new"), 3);
    w.commit();
  }
  ::close(live);
  std::vector<std::string> names = dir.entries();
  std::sort(names.begin(), names.end());
  REQUIRE(names == std::vector<std::string>{".other.bin.pcrypt-tmp-Xyz789", ".out.bin.pcrypt-tmp-Live99",
                                            ".out.bin.pcrypt-tmp-long1234", "out.bin"});
  REQUIRE(read_file(target) == "new");
}

TEST_CASE("the output is 0600 even under a umask that takes the owner's bits") {
  const io::TempFile kind = either_temp_kind();
  TempDir dir;
  Umask strict(0777);
  {
    io::AtomicFileWriter w(dir / "out.bin", false, kind);
    w.write(reinterpret_cast<const std::uint8_t*>("x"), 1);
    w.commit();
  }
  REQUIRE(mode_of(dir / "out.bin") == 0600);
}

TEST_CASE("Permissions::umask gives 0666 & ~umask (decrypted files), from the first byte on") {
  const io::TempFile kind = either_temp_kind();
  const mode_t mask = GENERATE(mode_t{022}, mode_t{077}, mode_t{002}, mode_t{0});
  TempDir dir;
  Umask set(mask);
  REQUIRE(io::current_umask() == mask);
  {
    io::AtomicFileWriter w(dir / "plain.txt", false, kind, io::Permissions::umask);
    if (!w.temp_path().empty()) REQUIRE(mode_of(w.temp_path()) == (0666 & ~mask));
    w.write(reinterpret_cast<const std::uint8_t*>("x"), 1);
    w.commit();
  }
  REQUIRE(mode_of(dir / "plain.txt") == (0666 & ~mask));
}

TEST_CASE("output names up to NAME_MAX bytes work: the temporary's name stays within it") {
  const io::TempFile kind = either_temp_kind();
  const bool force = GENERATE(false, true);
  TempDir dir;
  // 255 bytes; and 255 bytes with a 2-byte UTF-8 character where the temporary's name is cut (bytes 235-236),
  // which must not be split.
  for (const std::string& name :
       {std::string(255, 'n'), std::string(235, 'u') + "\xc3\xa9" + std::string(18, 'v')}) {
    const std::string target = dir / name;
    if (force) write_file(target, "old");
    {
      io::AtomicFileWriter w(target, force, kind);
      if (!w.temp_path().empty()) {
        const std::string temp_name = fs::path(w.temp_path()).filename().string();
        REQUIRE(temp_name.size() <= 255);
        std::string prefix = ".";  // appends: GCC 12 -O3 gives a false -Wrestrict for "." + std::string
        prefix += name.substr(0, 235);
        REQUIRE(temp_name.rfind(prefix, 0) == 0);
        REQUIRE(
            (temp_name.find('\xc3') == std::string::npos || temp_name.find("\xc3\xa9") != std::string::npos));
      }
      w.write(reinterpret_cast<const std::uint8_t*>("new"), 3);
      w.commit();
    }
    REQUIRE(read_file(target) == "new");
    REQUIRE(dir.entries() == std::vector<std::string>{name});
    fs::remove(target);
  }
}

TEST_CASE("destroying a writer without commit leaves neither file nor temporary") {
  const io::TempFile kind = either_temp_kind();
  TempDir dir;
  {
    io::AtomicFileWriter w(dir / "out.bin", false, kind);
    const Bytes data = pattern_bytes(5000);
    w.write(data.data(), data.size());
    REQUIRE(dir.entries().size() == (w.temp_path().empty() ? 0u : 1u));
  }
  REQUIRE(dir.entries().empty());
}

TEST_CASE("an existing output is never overwritten without force") {
  const io::TempFile kind = either_temp_kind();
  TempDir dir;
  const std::string target = dir / "out.bin";
  write_file(target, "precious");

  SECTION("refused when opening") {
    try {
      io::AtomicFileWriter w(target, false, kind);
      FAIL("opened over an existing file");
    } catch (const io::IoError& e) {
      REQUIRE(e.error_number() == EEXIST);
      REQUIRE(std::string(e.what()) == "output file exists (" + target + ")");
    }
    REQUIRE(read_file(target) == "precious");
    REQUIRE(dir.entries() == std::vector<std::string>{"out.bin"});
  }
  SECTION("refused at commit when the file appeared meanwhile") {
    const std::string late = dir / "late.bin";
    {
      io::AtomicFileWriter w(late, false, kind);
      w.write(reinterpret_cast<const std::uint8_t*>("new"), 3);
      write_file(late, "someone else's");
      REQUIRE(error_number_of([&] { w.commit(); }) == EEXIST);
    }
    REQUIRE(read_file(late) == "someone else's");
    REQUIRE(dir.entries().size() == 2);  // out.bin and late.bin, no temporary
  }
  SECTION("a dangling symlink counts as existing") {
    const std::string link = dir / "link.bin";
    REQUIRE(::symlink((dir / "nowhere").c_str(), link.c_str()) == 0);
    REQUIRE(error_number_of([&] { io::AtomicFileWriter w(link, false, kind); }) == EEXIST);
  }
  SECTION("replaced with force, and made 0600") {
    REQUIRE(::chmod(target.c_str(), 0644) == 0);
    {
      io::AtomicFileWriter w(target, true, kind);
      w.write(reinterpret_cast<const std::uint8_t*>("fresh"), 5);
      w.commit();
    }
    REQUIRE(read_file(target) == "fresh");
    REQUIRE(mode_of(target) == 0600);
    REQUIRE(dir.entries() == std::vector<std::string>{"out.bin"});
  }
  SECTION("force without commit keeps the old file") {
    {
      io::AtomicFileWriter w(target, true, kind);
      w.write(reinterpret_cast<const std::uint8_t*>("partial"), 7);
    }
    REQUIRE(read_file(target) == "precious");
    REQUIRE(dir.entries() == std::vector<std::string>{"out.bin"});
  }
}

TEST_CASE("an output in a missing directory fails with the path and errno") {
  TempDir dir;
  const std::string target = dir / "no/such/dir/out.bin";
  try {
    io::AtomicFileWriter w(target, false);
    FAIL("created a file in a missing directory");
  } catch (const io::IoError& e) {
    REQUIRE(e.error_number() == ENOENT);
    REQUIRE(std::string(e.what()) == "cannot create output (" + target + "): No such file or directory");
  }
}

TEST_CASE("FdReader reads a file fully in one call") {
  TempDir dir;
  const Bytes data = pattern_bytes(3 * 1024 * 1024 + 77);
  const std::string path = dir / "in.bin";
  write_file(path, std::string(data.begin(), data.end()));
  const auto in = io::open_input(path);
  REQUIRE(in->name() == path);
  REQUIRE(in->size() == data.size());
  Bytes got(data.size() + 100);
  REQUIRE(in->read(got.data(), got.size()) == data.size());
  got.resize(data.size());
  REQUIRE(got == data);
  REQUIRE(in->read(got.data(), 10) == 0);
}

TEST_CASE("a file's read_at_scattered fills its pieces in turn, like read_at, and stops at the end") {
  TempDir dir;
  const Bytes data = pattern_bytes(69 * 1000 + 5);
  const std::string path = dir / "in.bin";
  write_file(path, std::string(data.begin(), data.end()));
  const auto in = io::open_input(path);
  io::PositionalReader* file = in->positional();
  REQUIRE(file != nullptr);
  // 70 pieces of 1000 bytes with 16-byte gaps (more than one preadv takes at once), from offset 3; the
  // file ends 2 bytes into the last piece.
  const std::size_t pieces = 70, each = 1000, gap = 16, offset = 3;
  Bytes buf(pieces * (each + gap), 0xEE);
  std::vector<::iovec> iov(pieces);
  for (std::size_t i = 0; i < pieces; ++i)
    iov[i] = {.iov_base = buf.data() + i * (each + gap), .iov_len = each};
  REQUIRE(file->read_at_scattered(offset, iov) == data.size() - offset);
  for (std::size_t i = 0; i < pieces; ++i) {
    const std::size_t from = offset + i * each;
    const std::size_t n = std::min(each, data.size() - from);
    REQUIRE(std::equal(data.begin() + static_cast<std::ptrdiff_t>(from),
                       data.begin() + static_cast<std::ptrdiff_t>(from + n),
                       buf.begin() + static_cast<std::ptrdiff_t>(i * (each + gap))));
    REQUIRE(buf[i * (each + gap) + each] == 0xEE);  // the gaps are untouched
  }
  // The same through the default (piece by piece), as any other PositionalReader does it.
  struct PieceByPiece final : io::PositionalReader {
    explicit PieceByPiece(const io::PositionalReader& f) : f_(f) {}
    std::uint64_t size() const override { return f_.size(); }
    std::size_t read_at(std::uint64_t at, std::uint8_t* b, std::size_t n) const override {
      return f_.read_at(at, b, n);
    }
    std::uint64_t position() const override { return 0; }
    void seek(std::uint64_t) override {}
    const io::PositionalReader& f_;
  };
  Bytes again(buf.size(), 0xEE);
  for (std::size_t i = 0; i < pieces; ++i) iov[i].iov_base = again.data() + i * (each + gap);
  REQUIRE(PieceByPiece(*file).read_at_scattered(offset, iov) == data.size() - offset);
  REQUIRE(again == buf);
  REQUIRE(file->read_at_scattered(data.size(), iov) == 0);
}

TEST_CASE("FdReader gathers a pipe's short reads into one full buffer") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const Bytes data = pattern_bytes(200000);
  std::atomic<bool> producer_ok{true};  // Catch assertions are not thread-safe
  std::thread producer([&] {
    // Small pieces with pauses: each read() on the pipe returns only what has arrived.
    for (std::size_t off = 0; off < data.size(); off += 999) {
      const std::size_t n = std::min<std::size_t>(999, data.size() - off);
      if (::write(fds[1], data.data() + off, n) != static_cast<ssize_t>(n)) producer_ok = false;
      if (off % (50 * 999) == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ::close(fds[1]);
  });
  io::FdReader in(fds[0], "pipe", true);
  Bytes first(150000);
  const std::size_t got_first = in.read(first.data(), first.size());
  Bytes rest(100000);
  const std::size_t got_rest = in.read(rest.data(), rest.size());
  producer.join();
  REQUIRE(producer_ok);
  REQUIRE(got_first == 150000);  // full: short reads are retried, not returned
  REQUIRE(got_rest == 50000);    // fewer only at end of input
  REQUIRE(std::equal(first.begin(), first.end(), data.begin()));
  REQUIRE(std::equal(rest.begin(), rest.begin() + 50000, data.begin() + 150000));
}

TEST_CASE("open_input refuses directories and names missing files") {
  TempDir dir;
  try {
    io::open_input(dir / "");
    FAIL("opened a directory");
  } catch (const io::IoError& e) {
    REQUIRE(e.error_number() == EISDIR);
  }
  const std::string missing = dir / "missing.bin";
  try {
    io::open_input(missing);
    FAIL("opened a missing file");
  } catch (const io::IoError& e) {
    REQUIRE(e.error_number() == ENOENT);
    REQUIRE(std::string(e.what()) == "cannot open input (" + missing + "): No such file or directory");
  }
  REQUIRE(io::open_input("-")->name() == "standard input");
  REQUIRE(io::open_input("")->fd() == STDIN_FILENO);
}

TEST_CASE("writing to a closed pipe is IoError(EPIPE)") {
  struct sigaction ignore {
  }, old{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  REQUIRE(sigaction(SIGPIPE, &ignore, &old) == 0);
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  ::close(fds[0]);
  io::FdWriter out(fds[1], "pipe", true);
  const Bytes data = pattern_bytes(100);
  try {
    out.write(data.data(), data.size());
    FAIL("wrote to a closed pipe");
  } catch (const io::IoError& e) {
    REQUIRE(e.error_number() == EPIPE);
    REQUIRE(std::string(e.what()) == "write failed (pipe): Broken pipe");
  }
  sigaction(SIGPIPE, &old, nullptr);
}

namespace {

// `count` pieces of `each` bytes of `data` with `gap` untouched bytes between them in `spaced`, as the
// pipeline leaves an item's records in their slots.
std::vector<::iovec> spaced_pieces(const Bytes& data, Bytes& spaced, std::size_t each, std::size_t gap) {
  const std::size_t count = (data.size() + each - 1) / each;
  spaced.assign(count * (each + gap), 0xEE);
  std::vector<::iovec> pieces(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t n = std::min(each, data.size() - i * each);
    std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(i * each), n,
                spaced.begin() + static_cast<std::ptrdiff_t>(i * (each + gap)));
    pieces[i] = {.iov_base = spaced.data() + i * (each + gap), .iov_len = n};
  }
  return pieces;
}

std::atomic<int> alarms{0};
void count_alarm(int) {
  alarms.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

TEST_CASE(
    "FdWriter::write_gathered writes its pieces in turn through a pipe, resuming short writes and EINTR") {
  // A 4 KiB pipe drained slowly, and SIGALRM every 200 us without SA_RESTART: writev(2) keeps coming back
  // short (some bytes written) or with EINTR (none), in the middle of a piece, and the output must still be
  // the pieces' bytes in order, each once.
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  (void)::fcntl(fds[1], F_SETPIPE_SZ, 4096);
  const Bytes data = pattern_bytes(70 * 3001 + 123);  // 71 pieces: more than one writev(2) takes
  Bytes spaced;
  const std::vector<::iovec> pieces = spaced_pieces(data, spaced, 3001, 16);
  Bytes received;
  std::thread drain([&] {
    sigset_t alarm;
    sigemptyset(&alarm);
    sigaddset(&alarm, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &alarm, nullptr);  // only the writer is interrupted
    std::uint8_t buf[1000];
    for (int reads = 0;; ++reads) {
      const ssize_t n = ::read(fds[0], buf, sizeof buf);
      if (n <= 0) break;
      received.insert(received.end(), buf, buf + n);
      if (reads % 8 == 0) std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
    ::close(fds[0]);
  });
  struct sigaction on_alarm {
  }, old{};
  on_alarm.sa_handler = count_alarm;
  sigemptyset(&on_alarm.sa_mask);
  on_alarm.sa_flags = 0;  // no SA_RESTART: a blocked writev returns early
  REQUIRE(sigaction(SIGALRM, &on_alarm, &old) == 0);
  alarms = 0;
  ::itimerval every{.it_interval = {.tv_sec = 0, .tv_usec = 200}, .it_value = {.tv_sec = 0, .tv_usec = 200}};
  REQUIRE(::setitimer(ITIMER_REAL, &every, nullptr) == 0);
  bool threw = false;
  {
    io::FdWriter out(fds[1], "pipe", true);
    try {
      out.write_gathered(pieces);
    } catch (const io::IoError&) {
      threw = true;
    }
  }  // closes the pipe: the drain sees the end
  ::itimerval off{};
  ::setitimer(ITIMER_REAL, &off, nullptr);
  drain.join();
  sigaction(SIGALRM, &old, nullptr);
  REQUIRE_FALSE(threw);
  REQUIRE(alarms > 0);  // the writes were interrupted
  REQUIRE(received == data);
}

TEST_CASE("write_gathered by default writes the pieces one after the other") {
  const Bytes data = pattern_bytes(100 * 1000 + 7);
  Bytes spaced;
  const std::vector<::iovec> pieces = spaced_pieces(data, spaced, 1000, 16);
  io::MemoryWriter out;
  out.write(data.data(), 5);
  out.write_gathered(pieces);
  Bytes expected(5 + data.size());
  std::copy(data.begin(), data.end(), std::copy_n(data.begin(), 5, expected.begin()));
  REQUIRE(out.data() == expected);
}

TEST_CASE("file_info answers about real files") {
  TempDir dir;
  const std::string a = dir / "a", hard = dir / "hard", soft = dir / "soft", other = dir / "other";
  write_file(a, "x");
  write_file(other, "x");
  REQUIRE(::link(a.c_str(), hard.c_str()) == 0);
  REQUIRE(::symlink(a.c_str(), soft.c_str()) == 0);
  REQUIRE(io::same_file(a, a));
  REQUIRE(io::same_file(a, hard));
  REQUIRE(io::same_file(soft, a));
  REQUIRE_FALSE(io::same_file(a, other));  // same content, different file
  REQUIRE_FALSE(io::same_file(a, dir / "missing"));
  REQUIRE_FALSE(io::same_file(dir / "missing", dir / "missing"));
  REQUIRE_FALSE(io::same_file("/dev/null", "/dev/null"));  // not a regular file: nothing to lose
  REQUIRE(io::file_exists(a));
  REQUIRE_FALSE(io::file_exists(dir / "missing"));
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  REQUIRE_FALSE(io::is_terminal(fds[0]));
  ::close(fds[0]);
  ::close(fds[1]);
  const int tty = ::open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
  if (tty >= 0) {  // only when the tests run from a terminal
    REQUIRE(io::is_terminal(tty));
    ::close(tty);
  }
}

TEST_CASE("descriptor paths are recognised exactly") {
  REQUIRE(io::descriptor_path("/dev/stdin") == 0);
  REQUIRE(io::descriptor_path("/dev/stdout") == 1);
  REQUIRE(io::descriptor_path("/dev/stderr") == 2);
  REQUIRE(io::descriptor_path("/dev/fd/7") == 7);
  REQUIRE(io::descriptor_path("/proc/self/fd/12") == 12);
  REQUIRE(io::descriptor_path("/proc/thread-self/fd/3") == 3);
  REQUIRE(io::descriptor_path("/proc/" + std::to_string(::getpid()) + "/fd/4") == 4);
  for (const char* other : {"/dev/fd/", "/dev/fd/1x", "/dev/fd/-1", "/dev/fd/+1", "/dev/null", "stdout",
                            "/proc/1/fd/1", "dev/stdout", "/dev/stdout/"})
    REQUIRE_FALSE(io::descriptor_path(other).has_value());
}

TEST_CASE("links through /dev or /proc are recognised, and force never replaces them") {
  TempDir dir;
  const std::string file = dir / "file", to_file = dir / "to-file", to_proc = dir / "to-proc",
                    to_dev = dir / "to-dev", chain = dir / "chain", relative = dir / "relative";
  write_file(file, "x");
  REQUIRE(::symlink(file.c_str(), to_file.c_str()) == 0);
  REQUIRE(::symlink("/proc/self/fd/1", to_proc.c_str()) == 0);
  REQUIRE(::symlink("/dev/null", to_dev.c_str()) == 0);
  REQUIRE(::symlink(to_dev.c_str(), chain.c_str()) == 0);
  // "../../../../../../../../proc/self/fd/1" climbs to / from any temporary directory.
  std::string up;
  for (int i = 0; i < 32; ++i) up += "../";
  REQUIRE(::symlink((up + "proc/self/fd/1").c_str(), relative.c_str()) == 0);
  REQUIRE_FALSE(io::is_link_into_dev_or_proc(file));
  REQUIRE_FALSE(io::is_link_into_dev_or_proc(to_file));
  REQUIRE_FALSE(io::is_link_into_dev_or_proc(dir / "missing"));
  for (const std::string& link : {to_proc, to_dev, chain, relative}) {
    INFO(link);
    REQUIRE(io::is_link_into_dev_or_proc(link));
    REQUIRE(error_number_of([&] { io::AtomicFileWriter w(link, true); }) == EEXIST);
  }
  {
    io::AtomicFileWriter w(to_file, true);  // a link to a regular file elsewhere is still replaceable
    w.write(reinterpret_cast<const std::uint8_t*>("new"), 3);
    w.commit();
  }
  REQUIRE_FALSE(fs::is_symlink(to_file));
  REQUIRE(read_file(to_file) == "new");
  REQUIRE(read_file(file) == "x");
}
