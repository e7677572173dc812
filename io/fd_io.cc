#include "io/fd_io.h"

#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>

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

namespace {

// The loops behind read_full/pread_full and write_all/pwrite_all: `step(done)` makes one read(2)/pread(2)
// or write(2)/pwrite(2) call for the bytes from `done` on; EINTR is retried, other errors thrown.
template <class Step>
std::size_t read_loop(std::size_t n, std::string_view name, Step step) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t got = step(done);
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

template <class Step>
void write_loop(std::size_t n, std::string_view name, Step step) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t put = step(done);
    if (put >= 0) {
      done += static_cast<std::size_t>(put);
    } else if (errno != EINTR) {
      const int err = errno;
      throw IoError(describe("write failed", name, err), err);
    }
  }
}

}  // namespace

std::size_t read_full(int fd, std::uint8_t* buf, std::size_t n, std::string_view name) {
  return read_loop(n, name, [&](std::size_t done) { return ::read(fd, buf + done, n - done); });
}

void write_all(int fd, const std::uint8_t* buf, std::size_t n, std::string_view name) {
  write_loop(n, name, [&](std::size_t done) { return ::write(fd, buf + done, n - done); });
}

std::size_t pread_full(int fd, std::uint64_t offset, std::uint8_t* buf, std::size_t n,
                       std::string_view name) {
  return read_loop(n, name, [&](std::size_t done) {
    return ::pread(fd, buf + done, n - done, static_cast<off_t>(offset + done));
  });
}

namespace {

// Up to this many iovecs per preadv/writev call (IOV_MAX is at least 1024; the pipeline's items hold
// at most 64 records).
constexpr std::size_t kMaxPieces = 64;

std::size_t total_of(std::span<const ::iovec> pieces) {
  std::size_t n = 0;
  for (const ::iovec& piece : pieces) n += piece.iov_len;
  return n;
}

// The pieces from byte `done` of their concatenation on, at most kMaxPieces of them, the first one cut to
// what is left of it (after a short read or write, which is rare). Returns how many it put in `rest`.
int pieces_from(std::span<const ::iovec> pieces, std::size_t done, ::iovec (&rest)[kMaxPieces]) {
  std::size_t first = 0;
  std::size_t skip = done;
  while (skip >= pieces[first].iov_len) skip -= pieces[first++].iov_len;
  const std::size_t count = std::min(kMaxPieces, pieces.size() - first);
  for (std::size_t i = 0; i < count; ++i) rest[i] = pieces[first + i];
  rest[0].iov_base = static_cast<char*>(rest[0].iov_base) + skip;
  rest[0].iov_len -= skip;
  return static_cast<int>(count);
}

}  // namespace

std::size_t preadv_full(int fd, std::uint64_t offset, std::span<const ::iovec> pieces,
                        std::string_view name) {
  return read_loop(total_of(pieces), name, [&](std::size_t done) {
    ::iovec rest[kMaxPieces];
    const int count = pieces_from(pieces, done, rest);
    return ::preadv(fd, rest, count, static_cast<off_t>(offset + done));
  });
}

void writev_all(int fd, std::span<const ::iovec> pieces, std::string_view name) {
  write_loop(total_of(pieces), name, [&](std::size_t done) {
    ::iovec rest[kMaxPieces];
    const int count = pieces_from(pieces, done, rest);
    return ::writev(fd, rest, count);
  });
}

void pwrite_all(int fd, std::uint64_t offset, const std::uint8_t* buf, std::size_t n, std::string_view name) {
  write_loop(n, name, [&](std::size_t done) {
    return ::pwrite(fd, buf + done, n - done, static_cast<off_t>(offset + done));
  });
}

std::uint64_t offset_of(int fd, std::string_view name) {
  const off_t at = ::lseek(fd, 0, SEEK_CUR);
  if (at < 0) {
    const int err = errno;
    throw IoError(describe("cannot tell the file position", name, err), err);
  }
  return static_cast<std::uint64_t>(at);
}

void seek_to(int fd, std::uint64_t offset, std::string_view name) {
  if (::lseek(fd, static_cast<off_t>(offset), SEEK_SET) < 0) {
    const int err = errno;
    throw IoError(describe("cannot move the file position", name, err), err);
  }
}

}  // namespace pcrypt::io::detail
