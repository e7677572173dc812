#include "io/atomic_file.h"

#include <fcntl.h>
#include <stdio.h>   // renameat2
#include <stdlib.h>  // mkostemp
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "io/cleanup.h"
#include "io/fd_io.h"
#include "io/file_info.h"

namespace pcrypt::io {
namespace {

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

[[noreturn]] void throw_errno(const char* what, const std::string& name, int err) {
  throw IoError(detail::describe(what, name, err), err);
}

// Moves temp to path only if path does not exist, atomically. renameat2(RENAME_NOREPLACE) where the file
// system supports it; otherwise link() (which also fails with EEXIST) then unlink the temporary name.
void rename_no_replace(const std::string& temp, const std::string& path) {
  if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) return;
  int err = errno;
  if (err == EEXIST) throw IoError(output_exists_message(path), EEXIST);
  if (err != EINVAL && err != ENOSYS && err != ENOTSUP) throw_errno("cannot create output", path, err);
  if (::link(temp.c_str(), path.c_str()) != 0) {
    err = errno;
    if (err == EEXIST) throw IoError(output_exists_message(path), EEXIST);
    throw_errno("cannot create output", path, err);
  }
  ::unlink(temp.c_str());
}

// Makes the rename itself durable. Some file systems cannot fsync a directory (EINVAL): nothing more to do.
void sync_directory(const std::string& dir, const std::string& path) {
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return;
  const int rc = ::fsync(dfd);
  const int err = errno;
  ::close(dfd);
  if (rc != 0 && err != EINVAL && err != EROFS) throw_errno("cannot sync the output directory", path, err);
}

}  // namespace

std::string output_exists_message(const std::string& path) {
  return "output file exists (" + path + ")";
}

AtomicFileWriter::AtomicFileWriter(std::string path, bool force) : path_(std::move(path)), force_(force) {
  if (!force_ && file_exists(path_)) throw IoError(output_exists_message(path_), EEXIST);
  const std::string dir = directory_of(path_);
  std::string pattern =
      (dir == "/" ? std::string("/") : dir + "/") + "." + base_of(path_) + ".pcrypt-tmp-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  // mkostemp creates the file 0600 whatever the umask, with O_EXCL: it never opens an existing file.
  fd_ = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd_ < 0) throw_errno("cannot create output", path_, errno);
  temp_path_ = name.data();
  cleanup_slot_ = register_temp_path(temp_path_.c_str());
}

AtomicFileWriter::~AtomicFileWriter() {
  if (!committed_) discard();
}

void AtomicFileWriter::write(const std::uint8_t* buf, std::size_t n) {
  if (fd_ < 0) throw IoError(detail::describe("write after close", path_, 0), EBADF);
  detail::write_all(fd_, buf, n, path_);
}

void AtomicFileWriter::write_at(std::uint64_t offset, const std::uint8_t* buf, std::size_t n) {
  if (fd_ < 0) throw IoError(detail::describe("write after close", path_, 0), EBADF);
  detail::pwrite_all(fd_, offset, buf, n, path_);
}

std::uint64_t AtomicFileWriter::position() const {
  if (fd_ < 0) throw IoError(detail::describe("position after close", path_, 0), EBADF);
  return detail::offset_of(fd_, path_);
}

void AtomicFileWriter::seek(std::uint64_t offset) {
  if (fd_ < 0) throw IoError(detail::describe("seek after close", path_, 0), EBADF);
  detail::seek_to(fd_, offset, path_);
}

void AtomicFileWriter::commit() {
  if (committed_) return;
  if (fd_ < 0) throw IoError(detail::describe("commit after close", path_, 0), EBADF);
  if (::fsync(fd_) != 0) throw_errno("cannot sync output", path_, errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && errno != EINTR) throw_errno("cannot close output", path_, errno);
  publish();
  committed_ = true;
  unregister_temp_path(cleanup_slot_);
  cleanup_slot_ = -1;
  sync_directory(directory_of(path_), path_);
}

void AtomicFileWriter::publish() {
  if (!force_) return rename_no_replace(temp_path_, path_);
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) throw_errno("cannot create output", path_, errno);
}

void AtomicFileWriter::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  // Unregister first: after the unlink the name is free and may belong to someone else's new temporary.
  unregister_temp_path(cleanup_slot_);
  cleanup_slot_ = -1;
  if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
}

}  // namespace pcrypt::io
