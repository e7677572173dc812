// crashfs: a FUSE file system for crash tests that passes every operation through to a backing directory and
// logs, in order, everything that changes what a disk would hold: the backing tree as it was at mount (the
// durable starting point), each write (its bytes kept in a data file), truncation, mode and owner change,
// create, link, rename, unlink, mkdir, rmdir, and each fsync/fdatasync of a file and fsync of a directory.
// tests/crash/crash_replay.py turns any prefix of that log into what a power cut at that moment may leave:
// a file's data and attributes only as of its last fsync, a directory's names only as of its last fsync
// (optionally some of the later, unsynced operations too, as a real disk may). Nothing is made durable
// here (the backing tree's own fsyncs would only slow the tests): durability is what the log says.
//
// Single-threaded (-s), so the log's order is the order in which operations took effect. With
// --fail-fsync=ERRNO[@N] / --fail-fsyncdir=ERRNO[@N], the N-th (default: first) and every later fsync of a
// file / of a directory fails with that error (EIO, ENOSPC, EINVAL, EROFS) instead, and is logged as failed.
//
// Usage: crashfs [--fail-fsync=E[@N]] [--fail-fsyncdir=E[@N]] BACKING MOUNTPOINT LOG
// (runs in the foreground until unmounted; LOG and LOG.data are written).
#define FUSE_USE_VERSION 312
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <fuse.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Failure {
  int error = 0;      // 0: fsyncs succeed
  unsigned from = 1;  // the first failing call, counting from 1
  unsigned calls = 0;
  bool next() { return error != 0 && ++calls >= from; }
};

struct State {
  std::string backing;
  FILE* log = nullptr;
  FILE* data = nullptr;
  std::uint64_t data_size = 0;
  Failure fsync_failure;
  Failure fsyncdir_failure;
};

State state;

std::string backing(const char* path) {
  return state.backing + path;
}

// Paths in the log: bytes outside printable ASCII, '%' and ' ' as %XX, so a line splits on spaces.
std::string encoded(const char* path) {
  std::string out;
  for (const unsigned char* p = reinterpret_cast<const unsigned char*>(path); *p != 0; ++p) {
    if (*p <= ' ' || *p == '%' || *p >= 0x7f) {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", *p);
      out += hex;
    } else {
      out += static_cast<char>(*p);
    }
  }
  return out;
}

void log_line(const char* format, ...) __attribute__((format(printf, 1, 2)));
void log_line(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vfprintf(state.log, format, args);
  va_end(args);
  std::fputc('\n', state.log);
  std::fflush(state.log);
}

// Bytes into the data file; returns their offset there.
std::uint64_t keep_data(const void* buf, std::size_t n) {
  const std::uint64_t at = state.data_size;
  if (n > 0 && std::fwrite(buf, 1, n, state.data) != n) {
    std::perror("crashfs: data file");
    std::abort();
  }
  std::fflush(state.data);
  state.data_size += n;
  return at;
}

unsigned long long ino_of_fd(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 ? static_cast<unsigned long long>(st.st_ino) : 0;
}

unsigned long long ino_of(const char* path) {
  struct stat st {};
  return ::lstat(backing(path).c_str(), &st) == 0 ? static_cast<unsigned long long>(st.st_ino) : 0;
}

// The backing tree at mount, all of it durable: "D ino mode uid gid path" and "I ino mode uid gid size
// dataoff path" (the content is copied into the data file).
int snapshot_entry(const char* full, const struct stat* st, int type, struct FTW*) {
  const char* tail = full + state.backing.size();
  const std::string rel(*tail == '\0' ? "/" : tail);
  const unsigned mode = st->st_mode & 07777;
  if (type == FTW_D) {
    log_line("D %llu %o %u %u %s", static_cast<unsigned long long>(st->st_ino), mode, st->st_uid, st->st_gid,
             encoded(rel.c_str()).c_str());
  } else if (type == FTW_F && S_ISREG(st->st_mode)) {
    std::vector<char> content(static_cast<std::size_t>(st->st_size));
    const int fd = ::open(full, O_RDONLY);
    if (fd < 0 || ::pread(fd, content.data(), content.size(), 0) != static_cast<ssize_t>(content.size())) {
      std::fprintf(stderr, "crashfs: cannot read %s\n", full);
      std::abort();
    }
    ::close(fd);
    const std::uint64_t at = keep_data(content.data(), content.size());
    log_line("I %llu %o %u %u %zu %llu %s", static_cast<unsigned long long>(st->st_ino), mode, st->st_uid,
             st->st_gid, content.size(), static_cast<unsigned long long>(at), encoded(rel.c_str()).c_str());
  } else {
    std::fprintf(stderr, "crashfs: only files and folders are supported (%s)\n", full);
    std::abort();
  }
  return 0;
}

// Writes of at most 16 KiB: a large write is several operations, so a crash can fall between its parts.
constexpr unsigned kMaxWrite = 16384;

void* cfs_init(struct fuse_conn_info* conn, struct fuse_config* cfg) {
  conn->max_write = kMaxWrite;
  cfg->use_ino = 1;
  cfg->nullpath_ok = 1;
  cfg->hard_remove = 1;  // an unlinked open file is gone at once, not renamed to .fuse_hidden*
  cfg->entry_timeout = 0;
  cfg->attr_timeout = 0;
  cfg->negative_timeout = 0;
  return nullptr;
}

int cfs_getattr(const char* path, struct stat* st, struct fuse_file_info* fi) {
  const int rc = fi != nullptr ? ::fstat(static_cast<int>(fi->fh), st) : ::lstat(backing(path).c_str(), st);
  return rc == 0 ? 0 : -errno;
}

int cfs_access(const char* path, int mask) {
  return ::access(backing(path).c_str(), mask) == 0 ? 0 : -errno;
}

int cfs_readlink(const char* path, char* buf, size_t size) {
  const ssize_t n = ::readlink(backing(path).c_str(), buf, size - 1);
  if (n < 0) return -errno;
  buf[n] = '\0';
  return 0;
}

// An open folder: its stream and its path (nullpath_ok gives later calls no path).
struct OpenDir {
  DIR* dir;
  std::string path;
};

OpenDir* open_dir(struct fuse_file_info* fi) {
  return reinterpret_cast<OpenDir*>(fi->fh);
}

int cfs_opendir(const char* path, struct fuse_file_info* fi) {
  DIR* dir = ::opendir(backing(path).c_str());
  if (dir == nullptr) return -errno;
  fi->fh = reinterpret_cast<std::uint64_t>(new OpenDir{dir, path});
  return 0;
}

int cfs_readdir(const char*, void* buf, fuse_fill_dir_t fill, off_t, struct fuse_file_info* fi,
                enum fuse_readdir_flags) {
  DIR* dir = open_dir(fi)->dir;
  ::rewinddir(dir);
  while (const dirent* e = ::readdir(dir)) {
    struct stat st {};
    st.st_ino = e->d_ino;
    st.st_mode = static_cast<mode_t>(DTTOIF(e->d_type));
    if (fill(buf, e->d_name, &st, 0, static_cast<fuse_fill_dir_flags>(0)) != 0) break;
  }
  return 0;
}

int cfs_releasedir(const char*, struct fuse_file_info* fi) {
  ::closedir(open_dir(fi)->dir);
  delete open_dir(fi);
  return 0;
}

int cfs_fsyncdir(const char*, int, struct fuse_file_info* fi) {
  const char* path = open_dir(fi)->path.c_str();
  const unsigned long long ino = ino_of(path);
  if (state.fsyncdir_failure.next()) {
    log_line("E F %llu %s", ino, encoded(path).c_str());
    return -state.fsyncdir_failure.error;
  }
  log_line("F %llu %s", ino, encoded(path).c_str());
  return 0;
}

int cfs_mkdir(const char* path, mode_t mode) {
  if (::mkdir(backing(path).c_str(), mode) != 0) return -errno;
  struct stat st {};
  ::lstat(backing(path).c_str(), &st);
  log_line("K %llu %o %u %u %s", static_cast<unsigned long long>(st.st_ino), st.st_mode & 07777, st.st_uid,
           st.st_gid, encoded(path).c_str());
  return 0;
}

int cfs_rmdir(const char* path) {
  if (::rmdir(backing(path).c_str()) != 0) return -errno;
  log_line("X %s", encoded(path).c_str());
  return 0;
}

int cfs_unlink(const char* path) {
  if (::unlink(backing(path).c_str()) != 0) return -errno;
  log_line("U %s", encoded(path).c_str());
  return 0;
}

int cfs_rename(const char* from, const char* to, unsigned int flags) {
  struct stat st {};
  if (::lstat(backing(from).c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return -EXDEV;  // not modelled
  if (::renameat2(AT_FDCWD, backing(from).c_str(), AT_FDCWD, backing(to).c_str(), flags) != 0) return -errno;
  log_line("R %u %s %s", flags, encoded(from).c_str(), encoded(to).c_str());
  return 0;
}

int cfs_link(const char* from, const char* to) {
  if (::link(backing(from).c_str(), backing(to).c_str()) != 0) return -errno;
  log_line("L %s %s", encoded(from).c_str(), encoded(to).c_str());
  return 0;
}

int cfs_symlink(const char*, const char*) {
  return -EPERM;  // not modelled
}

void log_attributes(int fd, const char* path) {
  struct stat st {};
  const int rc = fd >= 0 ? ::fstat(fd, &st) : ::lstat(backing(path).c_str(), &st);
  if (rc == 0)
    log_line("A %llu %o %u %u", static_cast<unsigned long long>(st.st_ino), st.st_mode & 07777, st.st_uid,
             st.st_gid);
}

int cfs_chmod(const char* path, mode_t mode, struct fuse_file_info* fi) {
  const int fd = fi != nullptr ? static_cast<int>(fi->fh) : -1;
  const int rc = fd >= 0 ? ::fchmod(fd, mode) : ::chmod(backing(path).c_str(), mode);
  if (rc != 0) return -errno;
  log_attributes(fd, path);
  return 0;
}

int cfs_chown(const char* path, uid_t uid, gid_t gid, struct fuse_file_info* fi) {
  const int fd = fi != nullptr ? static_cast<int>(fi->fh) : -1;
  const int rc = fd >= 0 ? ::fchown(fd, uid, gid) : ::lchown(backing(path).c_str(), uid, gid);
  if (rc != 0) return -errno;
  log_attributes(fd, path);
  return 0;
}

int cfs_truncate(const char* path, off_t size, struct fuse_file_info* fi) {
  const int fd = fi != nullptr ? static_cast<int>(fi->fh) : -1;
  const int rc = fd >= 0 ? ::ftruncate(fd, size) : ::truncate(backing(path).c_str(), size);
  if (rc != 0) return -errno;
  log_line("T %llu %lld", fd >= 0 ? ino_of_fd(fd) : ino_of(path), static_cast<long long>(size));
  return 0;
}

int cfs_utimens(const char* path, const struct timespec tv[2], struct fuse_file_info* fi) {
  const int rc = fi != nullptr ? ::futimens(static_cast<int>(fi->fh), tv)
                               : ::utimensat(AT_FDCWD, backing(path).c_str(), tv, AT_SYMLINK_NOFOLLOW);
  return rc == 0 ? 0 : -errno;
}

int open_logged(const char* path, struct fuse_file_info* fi, mode_t mode, bool create) {
  struct stat before {};
  const bool existed = ::lstat(backing(path).c_str(), &before) == 0;
  const int fd = ::open(backing(path).c_str(), (fi->flags & ~O_NOFOLLOW) | (create ? O_CREAT : 0), mode);
  if (fd < 0) return -errno;
  fi->fh = static_cast<std::uint64_t>(fd);
  struct stat st {};
  ::fstat(fd, &st);
  if (create && !existed) {
    log_line("C %llu %o %u %u %s", static_cast<unsigned long long>(st.st_ino), st.st_mode & 07777, st.st_uid,
             st.st_gid, encoded(path).c_str());
  } else if ((fi->flags & O_TRUNC) != 0 && before.st_size != 0) {
    log_line("T %llu 0", static_cast<unsigned long long>(st.st_ino));
  }
  return 0;
}

int cfs_create(const char* path, mode_t mode, struct fuse_file_info* fi) {
  return open_logged(path, fi, mode, true);
}

int cfs_open(const char* path, struct fuse_file_info* fi) {
  return open_logged(path, fi, 0, false);
}

int cfs_read(const char*, char* buf, size_t size, off_t offset, struct fuse_file_info* fi) {
  const ssize_t n = ::pread(static_cast<int>(fi->fh), buf, size, offset);
  return n < 0 ? -errno : static_cast<int>(n);
}

int cfs_write(const char*, const char* buf, size_t size, off_t offset, struct fuse_file_info* fi) {
  const int fd = static_cast<int>(fi->fh);
  const ssize_t n = ::pwrite(fd, buf, size, offset);
  if (n < 0) return -errno;
  const std::uint64_t at = keep_data(buf, static_cast<std::size_t>(n));
  log_line("W %llu %lld %zd %llu", ino_of_fd(fd), static_cast<long long>(offset), n,
           static_cast<unsigned long long>(at));
  return static_cast<int>(n);
}

int cfs_statfs(const char*, struct statvfs* st) {
  return ::statvfs(state.backing.c_str(), st) == 0 ? 0 : -errno;
}

int cfs_flush(const char*, struct fuse_file_info*) {
  return 0;
}

int cfs_release(const char*, struct fuse_file_info* fi) {
  ::close(static_cast<int>(fi->fh));
  return 0;
}

int cfs_fsync(const char*, int datasync, struct fuse_file_info* fi) {
  const unsigned long long ino = ino_of_fd(static_cast<int>(fi->fh));
  if (state.fsync_failure.next()) {
    log_line("E S %llu", ino);
    return -state.fsync_failure.error;
  }
  log_line("S %llu %d", ino, datasync != 0 ? 1 : 0);
  return 0;
}

int cfs_fallocate(const char*, int mode, off_t offset, off_t length, struct fuse_file_info* fi) {
  if (mode != 0) return -EOPNOTSUPP;
  const int fd = static_cast<int>(fi->fh);
  const int rc = ::posix_fallocate(fd, offset, length);
  if (rc != 0) return -rc;
  struct stat st {};
  ::fstat(fd, &st);
  log_line("T %llu %lld", static_cast<unsigned long long>(st.st_ino), static_cast<long long>(st.st_size));
  return 0;
}

int error_number(const char* name) {
  static const struct {
    const char* name;
    int value;
  } known[] = {{"EIO", EIO}, {"ENOSPC", ENOSPC}, {"EINVAL", EINVAL}, {"EROFS", EROFS}, {"EDQUOT", EDQUOT}};
  for (const auto& k : known)
    if (std::strcmp(name, k.name) == 0) return k.value;
  return 0;
}

bool parse_failure(const char* arg, const char* option, Failure& failure) {
  const std::size_t n = std::strlen(option);
  if (std::strncmp(arg, option, n) != 0) return false;
  std::string spec = arg + n;
  const std::size_t at = spec.find('@');
  if (at != std::string::npos) {
    failure.from = static_cast<unsigned>(std::strtoul(spec.c_str() + at + 1, nullptr, 10));
    spec.resize(at);
  }
  failure.error = error_number(spec.c_str());
  if (failure.error == 0 || failure.from == 0) {
    std::fprintf(stderr, "crashfs: bad %s%s\n", option, arg + n);
    std::exit(2);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<const char*> positional;
  for (int i = 1; i < argc; ++i) {
    if (parse_failure(argv[i], "--fail-fsync=", state.fsync_failure)) continue;
    if (parse_failure(argv[i], "--fail-fsyncdir=", state.fsyncdir_failure)) continue;
    positional.push_back(argv[i]);
  }
  if (positional.size() != 3) {
    std::fprintf(stderr,
                 "usage: crashfs [--fail-fsync=E[@N]] [--fail-fsyncdir=E[@N]] BACKING MOUNTPOINT LOG\n");
    return 2;
  }
  char real[PATH_MAX];
  if (::realpath(positional[0], real) == nullptr) {
    std::perror("crashfs: backing directory");
    return 2;
  }
  state.backing = real;
  state.log = std::fopen(positional[2], "w");
  state.data = std::fopen((std::string(positional[2]) + ".data").c_str(), "w");
  if (state.log == nullptr || state.data == nullptr) {
    std::perror("crashfs: log");
    return 2;
  }
  if (::nftw(state.backing.c_str(), snapshot_entry, 16, FTW_PHYS) != 0) return 2;
  log_line("BEGIN");  // the end of the starting point; operations follow

  fuse_operations ops{};
  ops.init = cfs_init;
  ops.getattr = cfs_getattr;
  ops.access = cfs_access;
  ops.readlink = cfs_readlink;
  ops.opendir = cfs_opendir;
  ops.readdir = cfs_readdir;
  ops.releasedir = cfs_releasedir;
  ops.fsyncdir = cfs_fsyncdir;
  ops.mkdir = cfs_mkdir;
  ops.rmdir = cfs_rmdir;
  ops.unlink = cfs_unlink;
  ops.rename = cfs_rename;
  ops.link = cfs_link;
  ops.symlink = cfs_symlink;
  ops.chmod = cfs_chmod;
  ops.chown = cfs_chown;
  ops.truncate = cfs_truncate;
  ops.utimens = cfs_utimens;
  ops.create = cfs_create;
  ops.open = cfs_open;
  ops.read = cfs_read;
  ops.write = cfs_write;
  ops.statfs = cfs_statfs;
  ops.flush = cfs_flush;
  ops.release = cfs_release;
  ops.fsync = cfs_fsync;
  ops.fallocate = cfs_fallocate;

  std::vector<char*> fuse_args = {argv[0],
                                  const_cast<char*>("-f"),
                                  const_cast<char*>("-s"),
                                  const_cast<char*>("-o"),
                                  const_cast<char*>("fsname=crashfs"),
                                  const_cast<char*>(positional[1])};
  const int rc = fuse_main(static_cast<int>(fuse_args.size()), fuse_args.data(), &ops, nullptr);
  std::fclose(state.log);
  std::fclose(state.data);
  return rc;
}
