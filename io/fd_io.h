// Internal to pcrypt::io: whole-buffer read/write on a file descriptor and the one message format for I/O
// errors, "<what> (<name>): <strerror>", which core's pipeline also uses when it reports an IoError.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace pcrypt::io::detail {

std::string describe(std::string_view what, std::string_view name, int err);

// Reads until n bytes or end of input, retrying EINTR and short reads. Throws IoError("read failed (name)").
std::size_t read_full(int fd, std::uint8_t* buf, std::size_t n, std::string_view name);
// Writes all n bytes, retrying EINTR and short writes. Throws IoError("write failed (name)"), e.g. EPIPE.
void write_all(int fd, const std::uint8_t* buf, std::size_t n, std::string_view name);
// The same at a file offset (pread/pwrite), leaving the descriptor's own offset alone.
std::size_t pread_full(int fd, std::uint64_t offset, std::uint8_t* buf, std::size_t n, std::string_view name);
// pread_full into several buffers in turn (preadv(2), up to 64 of them per call).
std::size_t preadv_full(int fd, std::uint64_t offset, std::span<const ::iovec> pieces, std::string_view name);
void pwrite_all(int fd, std::uint64_t offset, const std::uint8_t* buf, std::size_t n, std::string_view name);
// write_all of several buffers in turn, as of their concatenation (writev(2), up to 64 of them per call,
// short writes resumed mid-piece).
void writev_all(int fd, std::span<const ::iovec> pieces, std::string_view name);
// The descriptor's offset (lseek), and moving it. Throw IoError.
std::uint64_t offset_of(int fd, std::string_view name);
void seek_to(int fd, std::uint64_t offset, std::string_view name);

}  // namespace pcrypt::io::detail
