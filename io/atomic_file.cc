#include "io/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>    // NAME_MAX
#include <stdio.h>     // renameat2
#include <stdlib.h>    // mkostemp
#include <sys/file.h>  // flock
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <string_view>
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

constexpr std::string_view kTempTag = ".pcrypt-tmp-";
constexpr std::size_t kRandomChars = 6;  // the XXXXXX of mkostemp

std::size_t name_max(const std::string& dir) {
  const long n = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  return n > 0 ? static_cast<std::size_t>(n) : NAME_MAX;
}

// "<dir>/.<base>.pcrypt-tmp-", with <base> cut (at a UTF-8 character boundary) so that the name with its
// random characters fits the directory's NAME_MAX: a legal output name of 237-255 bytes must not fail only
// because its temporary's name is longer.
std::string temp_prefix(const std::string& dir, const std::string& base) {
  const std::size_t fixed = 1 + kTempTag.size() + kRandomChars;
  const std::size_t limit = name_max(dir);
  std::size_t keep = std::min(base.size(), limit > fixed ? limit - fixed : 0);
  while (keep > 0 && keep < base.size() && (static_cast<unsigned char>(base[keep]) & 0xC0) == 0x80) --keep;
  return (dir == "/" ? std::string("/") : dir + "/") + "." + base.substr(0, keep) + std::string(kTempTag);
}

// An unnamed temporary (O_TMPFILE) in dir, or -1 with errno. It can be published only through
// /proc/self/fd (linkat with AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH), so without /proc: -1, EOPNOTSUPP.
int open_unnamed(const std::string& dir) {
  if (::access("/proc/self/fd", X_OK) != 0) {
    errno = EOPNOTSUPP;
    return -1;
  }
  int fd;
  do {
    fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

// The file system (or kernel) has no O_TMPFILE: use a named temporary. Old kernels fail with EISDIR (they
// see only O_DIRECTORY), file systems without support with EOPNOTSUPP.
bool unnamed_unsupported(int err) {
  return err == EOPNOTSUPP || err == EISDIR || err == EINVAL || err == ENOSYS;
}

std::string fd_link(int fd) {
  return "/proc/self/fd/" + std::to_string(fd);
}

// Gives the unnamed temporary fd the name path; fails with EEXIST if path exists (atomically).
int link_unnamed(int fd, const std::string& path) {
  return ::linkat(AT_FDCWD, fd_link(fd).c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW);
}

// Links the unnamed temporary fd under a fresh hidden name next to the target; returns that name.
std::string link_unnamed_hidden(int fd, const std::string& dir, const std::string& path) {
  static constexpr std::string_view kChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device random;
  std::uniform_int_distribution<std::size_t> pick(0, kChars.size() - 1);
  const std::string prefix = temp_prefix(dir, base_of(path));
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = prefix;
    for (std::size_t i = 0; i < kRandomChars; ++i) name += kChars[pick(random)];
    if (link_unnamed(fd, name) == 0) return name;
    if (errno != EEXIST) throw_errno("cannot create output", path, errno);
  }
  throw_errno("cannot create output", path, EEXIST);
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

// The output's directory, opened before anything is published: a directory that cannot be opened or synced
// (EACCES, EIO, or EINVAL where the file system cannot sync directories) is refused while the target is still
// untouched, since the new name could not be made durable. The sync also makes a named temporary's name
// durable; after a synced file's fsync it has little left to write.
int open_synced_directory(const std::string& dir, const std::string& path) {
  int dfd;
  do {
    dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  } while (dfd < 0 && errno == EINTR);
  if (dfd < 0) throw_errno("cannot open the output directory to sync it", path, errno);
  if (::fsync(dfd) != 0) {
    const int err = errno;
    ::close(dfd);
    throw_errno("cannot sync the output directory", path, err);
  }
  return dfd;
}

// Makes the new name itself durable; until then a power cut may undo the link or rename. Returns 0 or errno.
int sync_directory(int dfd) {
  const int rc = ::fsync(dfd);
  const int err = errno;
  ::close(dfd);
  return rc == 0 ? 0 : err;
}

// Is name (in the listing of a directory) one of AtomicFileWriter's named temporaries?
bool is_temp_name(std::string_view name) {
  if (name.size() < 1 + kTempTag.size() + kRandomChars || name[0] != '.') return false;
  const std::string_view tag = name.substr(name.size() - kRandomChars - kTempTag.size(), kTempTag.size());
  return tag == kTempTag;
}

// The temporaries that ended runs left in each output directory (a power cut, SIGKILL), listed once per
// directory and process: one listing, however many files a run writes there.
class LeftTemporaries {
 public:
  // Removes the temporaries of the target whose temp_prefix is prefix that no process is writing: a live
  // writer holds an flock on its temporary (AtomicFileWriter's constructor takes it), which a crash or a
  // killed process has released.
  void remove_abandoned(const std::string& dir, const std::string& prefix) {
    const std::lock_guard<std::mutex> lock(mutex_);
    auto [it, fresh] = by_dir_.try_emplace(dir);
    if (fresh) it->second = list(dir);
    auto& names = it->second;
    for (auto name = names.begin(); name != names.end();) {
      if (name->size() == prefix.size() + kRandomChars && name->starts_with(prefix)) {
        remove_if_abandoned(*name);
        name = names.erase(name);
      } else {
        ++name;
      }
    }
  }

 private:
  static std::vector<std::string> list(const std::string& dir) {
    std::vector<std::string> found;
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return found;
    while (const dirent* e = ::readdir(d))
      if (is_temp_name(e->d_name)) found.push_back((dir == "/" ? std::string("/") : dir + "/") + e->d_name);
    ::closedir(d);
    return found;
  }

  static void remove_if_abandoned(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0)
      ::unlink(path.c_str());
    ::close(fd);
  }

  std::mutex mutex_;
  std::map<std::string, std::vector<std::string>> by_dir_;
};

LeftTemporaries& left_temporaries() {
  static LeftTemporaries instance;
  return instance;
}

// With force, only a regular file (or a symlink to one that does not pass through /dev or /proc) may be
// replaced: renaming over /dev/stdout would replace the link, not write where it leads. Checked when the
// writer is created and again just before the rename.
void refuse_unreplaceable(const std::string& path) {
  if (!file_exists(path)) return;
  if (is_link_into_dev_or_proc(path))
    throw IoError("refusing to replace a symlink into /dev or /proc (" + path + ")", EEXIST);
  if (!is_regular_file(path)) throw IoError("output exists and is not a regular file (" + path + ")", EEXIST);
}

}  // namespace

mode_t current_umask() {
  if (std::FILE* status = std::fopen("/proc/self/status", "re")) {
    char line[256];
    unsigned mask = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, status) != nullptr)
      found = std::sscanf(line, "Umask: %o", &mask) == 1;
    std::fclose(status);
    if (found) return static_cast<mode_t>(mask);
  }
  const mode_t mask = ::umask(077);
  ::umask(mask);
  return mask;
}

std::string output_exists_message(const std::string& path) {
  return "output file exists (" + path + ")";
}

AtomicFileWriter::AtomicFileWriter(std::string path, bool force, TempFile temp, Permissions permissions)
    : path_(std::move(path)), force_(force) {
  if (!force_ && file_exists(path_)) throw IoError(output_exists_message(path_), EEXIST);
  if (force_) refuse_unreplaceable(path_);
  const std::string dir = directory_of(path_);
  left_temporaries().remove_abandoned(dir, temp_prefix(dir, base_of(path_)));
  if (temp == TempFile::unnamed_if_supported) {
    fd_ = open_unnamed(dir);
    if (fd_ < 0 && !unnamed_unsupported(errno)) throw_errno("cannot create output", path_, errno);
  }
  if (fd_ < 0) {
    const std::string pattern = temp_prefix(dir, base_of(path_)) + std::string(kRandomChars, 'X');
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    // mkostemp opens with O_EXCL: it never opens an existing file.
    fd_ = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd_ < 0) throw_errno("cannot create output", path_, errno);
    temp_path_ = name.data();
    cleanup_slot_ = register_temp_path(temp_path_.c_str());
  }
  // Held until the descriptor closes (or the process ends, however it ends): while it is, the next run's
  // LeftTemporaries leaves this temporary alone. An unnamed one gets a name too when it replaces a file.
  ::flock(fd_, LOCK_EX | LOCK_NB);
  // The final mode now, before any data: owner_only is 0600 exactly, whatever the umask (which could also
  // have taken the owner's own bits away).
  mode_t mode = permissions == Permissions::umask ? 0666 & ~current_umask() : 0600;
  struct stat target {};
  if (permissions == Permissions::same_as_target && ::stat(path_.c_str(), &target) == 0) {
    // Owner and group first: changing them clears set-user-ID and set-group-ID bits, which fchmod restores.
    if (::fchown(fd_, target.st_uid, target.st_gid) != 0) {
      const int err = errno;
      discard();
      throw IoError(detail::describe("cannot keep the owner and group",
                                     path_ + ", uid " + std::to_string(target.st_uid) + ", gid " +
                                         std::to_string(target.st_gid),
                                     err) +
                        "; nothing was changed (run as the file's owner or root, or write elsewhere with -o)",
                    err);
    }
    mode = target.st_mode & 07777;
  }
  if (::fchmod(fd_, mode) != 0) {
    const int err = errno;
    discard();
    throw_errno("cannot create output", path_, err);
  }
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
  commit(true);
}

void AtomicFileWriter::commit_synced() {
  commit(false);
}

void AtomicFileWriter::commit(bool sync_data) {
  if (committed_) return;
  if (fd_ < 0) throw IoError(detail::describe("commit after close", path_, 0), EBADF);
  // The order a power cut needs: the data durable before it gets the target's name (else the name could
  // survive with the data lost), the directory synced after (else the rename could be undone).
  if (sync_data && ::fsync(fd_) != 0) throw_errno("cannot sync output", path_, errno);
  const int dfd = open_synced_directory(directory_of(path_), path_);
  // An unnamed temporary is linked in through its descriptor, so before the close; a named one is renamed.
  const bool unnamed = temp_path_.empty();
  try {
    if (unnamed) publish_unnamed();
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0 && errno != EINTR) throw_errno("cannot close output", path_, errno);
    if (!unnamed) publish();
  } catch (...) {
    ::close(dfd);
    throw;
  }
  committed_ = true;
  unregister_temp_path(cleanup_slot_);
  cleanup_slot_ = -1;
  if (const int err = sync_directory(dfd); err != 0) {
    // Without force nothing was at the target: take the name back rather than leave an output whose
    // failure was reported. With force the old file is gone already: the new one is whole, but its name may
    // not survive a power cut.
    if (!force_) ::unlink(path_.c_str());
    throw IoError(detail::describe("cannot sync the output directory", path_, err) +
                      (force_ ? "; the new file is in place but may not survive a power cut"
                              : "; the new file was removed again"),
                  err);
  }
}

void AtomicFileWriter::publish() {
  if (!force_) return rename_no_replace(temp_path_, path_);
  refuse_unreplaceable(path_);
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) throw_errno("cannot create output", path_, errno);
}

// The data is complete and synced; fd_ is still open (linking needs it).
void AtomicFileWriter::publish_unnamed() {
  if (!force_) {
    if (link_unnamed(fd_, path_) == 0) return;
    if (errno == EEXIST) throw IoError(output_exists_message(path_), EEXIST);
    throw_errno("cannot create output", path_, errno);
  }
  // rename() is the only atomic replace, and it needs a name: a hidden one, for the moment between the two
  // calls (registered, so a signal then still removes it).
  temp_path_ = link_unnamed_hidden(fd_, directory_of(path_), path_);
  cleanup_slot_ = register_temp_path(temp_path_.c_str());
  publish();
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
