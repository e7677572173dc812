#include "io/fd_io.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/stream.h"

namespace pcrypt::io::detail {

std::string describe(std::string_view what, std::string_view name, int err) {
  std::string s(what);
  s += " (";
  s += name;
  s += ")";
  if (err != 0) {
    s += ": ";
    s += std::strerror(err);
  }
  return s;
}

std::size_t read_full(int fd, std::uint8_t* buf, std::size_t n, std::string_view name) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t got = ::read(fd, buf + done, n - done);
    if (got > 0) {
      done += static_cast<std::size_t>(got);
    } else if (got == 0) {
      break;
    } else if (errno != EINTR) {
      const int err = errno;
      throw IoError(describe("read failed", name, err), err);
    }
  }
  return done;
}

void write_all(int fd, const std::uint8_t* buf, std::size_t n, std::string_view name) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t put = ::write(fd, buf + done, n - done);
    if (put >= 0) {
      done += static_cast<std::size_t>(put);
    } else if (errno != EINTR) {
      const int err = errno;
      throw IoError(describe("write failed", name, err), err);
    }
  }
}

}  // namespace pcrypt::io::detail
