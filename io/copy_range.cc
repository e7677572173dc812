#include "io/copy_range.h"

#include <unistd.h>

#include <cerrno>
#include <vector>

#include "io/fd_io.h"
#include "io/stream.h"

namespace pcrypt::io {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{1} << 20;
// Per call: large enough to let the kernel reflink big extents, small enough that a signal is seen soon.
constexpr std::size_t kCopyStep = std::size_t{1} << 30;

// copy_file_range cannot serve this pair of files (or this kernel): copy by reading instead.
bool needs_fallback(int err) {
  return err == EXDEV || err == ENOSYS || err == EINVAL || err == EOPNOTSUPP || err == EBADF ||
         err == ETXTBSY || err == EPERM;
}

std::uint64_t copy_by_reading(int in_fd, std::uint64_t offset, int out_fd, const std::string& in_name,
                              const std::string& out_name) {
  std::vector<std::uint8_t> buf(kBufferBytes);
  std::uint64_t copied = 0;
  for (;;) {
    const ssize_t got = ::pread(in_fd, buf.data(), buf.size(), static_cast<off_t>(offset + copied));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw IoError(detail::describe("read failed", in_name, errno), errno);
    if (got == 0) return copied;
    detail::write_all(out_fd, buf.data(), static_cast<std::size_t>(got), out_name);
    copied += static_cast<std::uint64_t>(got);
  }
}

}  // namespace

std::uint64_t copy_range_by_reading(int in_fd, std::uint64_t offset, int out_fd, const std::string& in_name,
                                    const std::string& out_name) {
  return copy_by_reading(in_fd, offset, out_fd, in_name, out_name);
}

std::uint64_t copy_range(int in_fd, std::uint64_t offset, int out_fd, const std::string& in_name,
                         const std::string& out_name) {
  std::uint64_t copied = 0;
  for (;;) {
    loff_t in_offset = static_cast<loff_t>(offset + copied);
    const ssize_t n = ::copy_file_range(in_fd, &in_offset, out_fd, nullptr, kCopyStep, 0);
    if (n > 0) {
      copied += static_cast<std::uint64_t>(n);
      continue;
    }
    if (n == 0) return copied;
    const int err = errno;
    if (err == EINTR) continue;
    if (needs_fallback(err))
      return copied + copy_by_reading(in_fd, offset + copied, out_fd, in_name, out_name);
    // Which side failed is not reported; ENOSPC, EDQUOT, EFBIG are the output's, the rest mostly the input's.
    const bool output_side = err == ENOSPC || err == EDQUOT || err == EFBIG || err == EROFS;
    throw IoError(
        detail::describe(output_side ? "write failed" : "copy failed", output_side ? out_name : in_name, err),
        err);
  }
}

}  // namespace pcrypt::io
