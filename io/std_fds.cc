#include "io/std_fds.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace pcrypt::io {
namespace {

bool g_closed[3] = {false, false, false};

}  // namespace

bool reserve_standard_fds() noexcept {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    g_closed[fd] = true;
    // open() returns the lowest free descriptor, which is fd: every lower one is open by now. Not O_CLOEXEC:
    // a standard descriptor stays one for children too.
    const int got = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (got < 0) return false;
    if (got != fd) {  // cannot happen (see above), but never leave a stray descriptor
      ::close(got);
      return false;
    }
  }
  return true;
}

bool standard_fd_was_closed(int fd) noexcept {
  return fd >= 0 && fd <= 2 && g_closed[fd];
}

}  // namespace pcrypt::io
