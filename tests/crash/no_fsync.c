// An LD_PRELOAD shim that makes every way of syncing a file a no-op that reports success: with it, the crash
// tests (tests/crash/crash_test.py no-fsync:...) must find outputs lost or partial after a crash, or they
// prove nothing.
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>

int fsync(int fd) {
  (void)fd;
  return 0;
}

int fdatasync(int fd) {
  (void)fd;
  return 0;
}

int syncfs(int fd) {
  (void)fd;
  return 0;
}

int sync_file_range(int fd, off64_t offset, off64_t nbytes, unsigned int flags) {
  (void)fd;
  (void)offset;
  (void)nbytes;
  (void)flags;
  return 0;
}

void sync(void) {}
