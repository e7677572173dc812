// Copying a file's bytes unchanged (`pcrypt rekey` copies the payload after a new header).
#pragma once

#include <cstdint>
#include <string>

namespace pcrypt::io {

// Copies in_fd's bytes from `offset` to its end onto out_fd at out_fd's current position (which advances),
// without touching in_fd's own position. Uses copy_file_range(2), which shares extents (a reflink) where the
// file system can and copies in the kernel otherwise; falls back to pread/write where the kernel or the pair
// of file systems cannot (EXDEV, ENOSYS, EINVAL, EOPNOTSUPP, ...). Returns the bytes copied. Throws IoError
// naming in_name or out_name (ENOSPC, EIO, ...).
std::uint64_t copy_range(int in_fd, std::uint64_t offset, int out_fd, const std::string& in_name,
                         const std::string& out_name);

// The fallback alone (tests): pread from in_fd, write to out_fd.
std::uint64_t copy_range_by_reading(int in_fd, std::uint64_t offset, int out_fd, const std::string& in_name,
                                    const std::string& out_name);

}  // namespace pcrypt::io
