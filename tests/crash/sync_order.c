// An LD_PRELOAD shim that logs, in order, what makes a new file durable on the file system the process
// really writes to, by inode: an unnamed temporary created (O_TMPFILE), a write to a regular file, an fsync or
// fdatasync of a file or a directory, and a name given to a file (link, rename). crashfs (FUSE) cannot make
// an O_TMPFILE, so the power-cut replays test only the named-temporary path; with this log,
// tests/crash/crash_test.py (scenario tmpfile) checks the O_TMPFILE path that ext4, xfs, btrfs and tmpfs take
// against the same rule: the file's data synced after its last write and before its first name, its
// directory synced after its final name.
//
// Log lines (PCRYPT_SYNC_ORDER_LOG, appended, one write(2) each): "T INODE" unnamed temporary, "W INODE"
// write, "S INODE" file synced, "F INODE" directory synced, "N INODE DIR-INODE PATH" a name given to INODE
// in directory DIR-INODE (link or rename; PATH as given).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static void log_line(const char* line) {
  static int log_fd = -2;
  if (log_fd == -2) {
    const char* path = getenv("PCRYPT_SYNC_ORDER_LOG");
    log_fd = path ? (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600) : -1;
  }
  if (log_fd >= 0) (void)syscall(SYS_write, log_fd, line, strlen(line));
}

static void log_fd_event(char kind, int fd) {
  struct stat st;
  char line[64];
  if (fd < 0 || fstat(fd, &st) != 0) return;
  if (kind == 'S' && S_ISDIR(st.st_mode)) kind = 'F';
  if (kind == 'W' && !S_ISREG(st.st_mode)) return;
  snprintf(line, sizeof line, "%c %llu\n", kind, (unsigned long long)st.st_ino);
  log_line(line);
}

// A name just given: the inode now at `path` (relative to `dirfd`) and its directory's.
static void log_name(int dirfd, const char* path) {
  struct stat file, dir;
  char parent[PATH_MAX], line[PATH_MAX + 64];
  const char* slash = strrchr(path, '/');
  if (fstatat(dirfd, path, &file, AT_SYMLINK_NOFOLLOW) != 0) return;
  if (slash == NULL) {
    strcpy(parent, ".");
  } else if (slash == path) {
    strcpy(parent, "/");
  } else {
    snprintf(parent, sizeof parent, "%.*s", (int)(slash - path), path);
  }
  if (fstatat(dirfd, parent, &dir, 0) != 0) return;
  snprintf(line, sizeof line, "N %llu %llu %s\n", (unsigned long long)file.st_ino, (unsigned long long)dir.st_ino,
           path);
  log_line(line);
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

static int opened(int fd, int flags) {
  if (fd >= 0 && (flags & O_TMPFILE) == O_TMPFILE) log_fd_event('T', fd);
  return fd;
}

int open(const char* path, int flags, ...) {
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list args;
    va_start(args, flags);
    mode = va_arg(args, mode_t);
    va_end(args);
  }
  return opened(REAL(open)(path, flags, mode), flags);
}

int open64(const char* path, int flags, ...) {
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list args;
    va_start(args, flags);
    mode = va_arg(args, mode_t);
    va_end(args);
  }
  return opened(REAL(open64)(path, flags, mode), flags);
}

int openat(int dirfd, const char* path, int flags, ...) {
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list args;
    va_start(args, flags);
    mode = va_arg(args, mode_t);
    va_end(args);
  }
  return opened(REAL(openat)(dirfd, path, flags, mode), flags);
}

ssize_t write(int fd, const void* buffer, size_t size) {
  const ssize_t n = REAL(write)(fd, buffer, size);
  if (n > 0) log_fd_event('W', fd);
  return n;
}

ssize_t pwrite(int fd, const void* buffer, size_t size, off_t offset) {
  const ssize_t n = REAL(pwrite)(fd, buffer, size, offset);
  if (n > 0) log_fd_event('W', fd);
  return n;
}

ssize_t pwrite64(int fd, const void* buffer, size_t size, off64_t offset) {
  const ssize_t n = REAL(pwrite64)(fd, buffer, size, offset);
  if (n > 0) log_fd_event('W', fd);
  return n;
}

ssize_t writev(int fd, const struct iovec* pieces, int count) {
  const ssize_t n = REAL(writev)(fd, pieces, count);
  if (n > 0) log_fd_event('W', fd);
  return n;
}

ssize_t pwritev(int fd, const struct iovec* pieces, int count, off_t offset) {
  const ssize_t n = REAL(pwritev)(fd, pieces, count, offset);
  if (n > 0) log_fd_event('W', fd);
  return n;
}

ssize_t copy_file_range(int in, off64_t* in_offset, int out, off64_t* out_offset, size_t size, unsigned flags) {
  const ssize_t n = REAL(copy_file_range)(in, in_offset, out, out_offset, size, flags);
  if (n > 0) log_fd_event('W', out);
  return n;
}

int fsync(int fd) {
  const int rc = REAL(fsync)(fd);
  if (rc == 0) log_fd_event('S', fd);
  return rc;
}

int fdatasync(int fd) {
  const int rc = REAL(fdatasync)(fd);
  if (rc == 0) log_fd_event('S', fd);
  return rc;
}

int linkat(int olddirfd, const char* oldpath, int newdirfd, const char* newpath, int flags) {
  const int rc = REAL(linkat)(olddirfd, oldpath, newdirfd, newpath, flags);
  if (rc == 0) log_name(newdirfd, newpath);
  return rc;
}

int link(const char* oldpath, const char* newpath) {
  const int rc = REAL(link)(oldpath, newpath);
  if (rc == 0) log_name(AT_FDCWD, newpath);
  return rc;
}

int rename(const char* oldpath, const char* newpath) {
  const int rc = REAL(rename)(oldpath, newpath);
  if (rc == 0) log_name(AT_FDCWD, newpath);
  return rc;
}

int renameat(int olddirfd, const char* oldpath, int newdirfd, const char* newpath) {
  const int rc = REAL(renameat)(olddirfd, oldpath, newdirfd, newpath);
  if (rc == 0) log_name(newdirfd, newpath);
  return rc;
}

int renameat2(int olddirfd, const char* oldpath, int newdirfd, const char* newpath, unsigned flags) {
  const int rc = REAL(renameat2)(olddirfd, oldpath, newdirfd, newpath, flags);
  if (rc == 0) log_name(newdirfd, newpath);
  return rc;
}
