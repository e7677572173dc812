// A process killed by SIGTERM/SIGINT/SIGHUP while writing an atomic output leaves no temporary behind, and
// still dies of that signal.
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "io/atomic_file.h"
#include "io/cleanup.h"
#include "tests/test_files.h"

using namespace pcrypt;
namespace fs = std::filesystem;

namespace {

using test::TempDir;

// In a child: install the handlers, start an output, write, then raise `sig`. Exits 0 only if the signal did
// not end it. Returns the raw wait status.
int run_child(const TempDir& dir, int sig, bool ignore_first) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (ignore_first) std::signal(sig, SIG_IGN);
    io::install_signal_cleanup();
    // Named: an unnamed (O_TMPFILE) temporary needs no handler, the kernel frees it (tested below).
    io::AtomicFileWriter w(dir / "out.bin", false, io::TempFile::named);
    const std::uint8_t data[4096] = {1, 2, 3};
    w.write(data, sizeof data);
    if (dir.entries().size() != 1) ::_exit(10);  // the temporary must exist before the signal
    ::raise(sig);
    ::_exit(0);  // skips destructors, as a kill would: only the handler may clean up
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return status;
}

}  // namespace

TEST_CASE("a fatal signal removes the temporary output and keeps the signal exit status") {
  for (const int sig : {SIGTERM, SIGINT, SIGHUP}) {
    INFO("signal " << sig);
    const TempDir dir;
    const int status = run_child(dir, sig, false);
    REQUIRE(WIFSIGNALED(status));
    REQUIRE(WTERMSIG(status) == sig);
    REQUIRE(dir.entries().empty());
  }
}

TEST_CASE("an ignored signal stays ignored") {
  const TempDir dir;
  const int status = run_child(dir, SIGHUP, true);  // as under nohup
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  REQUIRE(dir.entries().size() == 1);  // the child went on (and _exit skipped the destructor)
}

TEST_CASE("a committed output is not removed by a later signal") {
  const TempDir dir;
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    io::install_signal_cleanup();
    {
      io::AtomicFileWriter w(dir / "out.bin", false);
      const std::uint8_t data[10] = {};
      w.write(data, sizeof data);
      w.commit();
    }
    io::AtomicFileWriter pending(dir / "second.bin", false);
    ::raise(SIGTERM);
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFSIGNALED(status));
  REQUIRE(dir.entries().size() == 1);
  REQUIRE(fs::exists(dir / "out.bin"));
}

TEST_CASE("SIGKILL leaves nothing behind when the temporary is unnamed (O_TMPFILE)") {
  const TempDir dir;
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    io::AtomicFileWriter w(dir / "out.bin", false);
    const std::uint8_t data[4096] = {1, 2, 3};
    w.write(data, sizeof data);
    if (!w.temp_path().empty()) ::_exit(20);  // this file system has no O_TMPFILE
    ::raise(SIGKILL);                         // no handler can run: only an unnamed file is safe
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 20) {
    WARN("SKIPPED: no O_TMPFILE on " << dir.path().string());
  } else {
    REQUIRE(WIFSIGNALED(status));
    REQUIRE(WTERMSIG(status) == SIGKILL);
    REQUIRE(dir.entries().empty());
  }
}
