#include "io/fd_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>

#include "io/fd_io.h"

namespace pcrypt::io {
namespace {

// A pipe's default 64 KiB buffer means a context switch every 64 KiB between pcrypt and its neighbour in a
// shell pipeline; a 1 MiB buffer (the unprivileged maximum by default) lets a whole chunk through at once.
// Best effort: nothing changes if the kernel refuses.
void widen_if_pipe(int fd) {
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) (void)::fcntl(fd, F_SETPIPE_SZ, 1 << 20);
}

// File systems whose regular files are generated on read: their st_size is 0 or a page, not the content, so
// only reading to end of file tells how much there is (values from <linux/magic.h>).
bool size_is_content(int fd) {
  constexpr long kPseudo[] = {
      0x9fa0,      // proc
      0x62656572,  // sysfs
      0x64626720,  // debugfs
      0x74726163,  // tracefs
      0x73636673,  // securityfs
  };
  struct statfs fs;
  if (::fstatfs(fd, &fs) != 0) return false;
  for (const long magic : kPseudo)
    if (static_cast<long>(fs.f_type) == magic) return false;
  return true;
}

}  // namespace

FdReader::FdReader(int fd, std::string name, bool owns_fd)
    : fd_(fd), name_(std::move(name)), owns_fd_(owns_fd) {}

FdReader::~FdReader() {
  if (owns_fd_) ::close(fd_);
}

std::size_t FdReader::read(std::uint8_t* buf, std::size_t n) {
  return detail::read_full(fd_, buf, n, name_);
}

std::optional<std::uint64_t> FdReader::size() const {
  struct stat st;
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return static_cast<std::uint64_t>(st.st_size);
}

PositionalReader* FdReader::positional() {
  struct stat st;
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0 || !size_is_content(fd_))
    return nullptr;
  return &file_access_;
}

std::uint64_t FdReader::FileAccess::size() const {
  struct stat st;
  if (::fstat(reader_.fd_, &st) != 0) {
    const int err = errno;
    throw IoError(detail::describe("cannot stat input", reader_.name_, err), err);
  }
  return static_cast<std::uint64_t>(st.st_size);
}

std::size_t FdReader::FileAccess::read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const {
  return detail::pread_full(reader_.fd_, offset, buf, n, reader_.name_);
}

std::size_t FdReader::FileAccess::read_at_scattered(std::uint64_t offset,
                                                    std::span<const ::iovec> pieces) const {
  return detail::preadv_full(reader_.fd_, offset, pieces, reader_.name_);
}

std::uint64_t FdReader::FileAccess::position() const {
  return detail::offset_of(reader_.fd_, reader_.name_);
}

void FdReader::FileAccess::seek(std::uint64_t offset) {
  detail::seek_to(reader_.fd_, offset, reader_.name_);
}

FdWriter::FdWriter(int fd, std::string name, bool owns_fd)
    : fd_(fd), name_(std::move(name)), owns_fd_(owns_fd) {}

FdWriter::~FdWriter() {
  if (owns_fd_) ::close(fd_);
}

void FdWriter::write(const std::uint8_t* buf, std::size_t n) {
  detail::write_all(fd_, buf, n, name_);
}

void FdWriter::write_gathered(std::span<const ::iovec> pieces) {
  detail::writev_all(fd_, pieces, name_);
}

void FdWriter::commit() {
  struct stat st;
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return;
  if (::fsync(fd_) != 0 && errno != EINVAL) {
    const int err = errno;
    throw IoError(detail::describe("cannot sync output", name_, err), err);
  }
}

std::unique_ptr<FdReader> open_input(const std::string& path) {
  if (path.empty() || path == "-") {
    widen_if_pipe(STDIN_FILENO);
    return std::make_unique<FdReader>(STDIN_FILENO, "standard input", false);
  }
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int err = errno;
    throw IoError(detail::describe("cannot open input", path, err), err);
  }
  auto reader = std::make_unique<FdReader>(fd, path, true);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    throw IoError(detail::describe("cannot open input", path, err), err);
  }
  if (S_ISDIR(st.st_mode)) throw IoError(detail::describe("input is a directory", path, 0), EISDIR);
  // Only a hint: doubling the read-ahead window helps on spinning disks and costs nothing elsewhere.
  if (S_ISREG(st.st_mode)) (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return reader;
}

std::unique_ptr<FdWriter> stdout_writer() {
  widen_if_pipe(STDOUT_FILENO);
  return std::make_unique<FdWriter>(STDOUT_FILENO, "standard output", false);
}

std::unique_ptr<FdWriter> open_stream_output(const std::string& path) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int err = errno;
    throw IoError(detail::describe("cannot open output", path, err), err);
  }
  widen_if_pipe(fd);
  return std::make_unique<FdWriter>(fd, path, true);
}

}  // namespace pcrypt::io
