// Byte streams: the only way pcrypt's core touches files, pipes and terminals. Tests substitute in-memory and
// fault-injecting implementations.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

namespace pcrypt::io {

// An I/O failure: which operation, on what, and errno (0 if not from a system call).
class IoError : public std::runtime_error {
 public:
  IoError(std::string what, int err) : std::runtime_error(std::move(what)), errno_(err) {}
  int error_number() const { return errno_; }

 private:
  int errno_;
};

// Random access to a Reader's input, for inputs that have it (a regular file whose size is its content):
// the pipeline's workers read their own records with it, in parallel, and a reader of one range of a file can
// use it too. size() and read_at() may be called from any number of threads at once.
class PositionalReader {
 public:
  virtual ~PositionalReader() = default;
  // The input's size in bytes now; another program writing to the file can change it at any time.
  virtual std::uint64_t size() const = 0;
  // Reads up to n bytes from offset, retrying short reads and EINTR: fewer than n only at the end of the
  // input. Does not move the Reader's position. Throws IoError.
  virtual std::size_t read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const = 0;
  // Reads the bytes from offset on into each piece in turn, as one read_at() of their total would (fewer only
  // at the end of the input), so that consecutive records can land at strided places of a buffer without a
  // copy. This default reads piece by piece; a file gathers them into one system call (preadv).
  virtual std::size_t read_at_scattered(std::uint64_t offset, std::span<const ::iovec> pieces) const {
    std::size_t got = 0;
    for (const ::iovec& piece : pieces) {
      const std::size_t n = read_at(offset + got, static_cast<std::uint8_t*>(piece.iov_base), piece.iov_len);
      got += n;
      if (n != piece.iov_len) break;
    }
    return got;
  }
  // Where the Reader's next read() starts, and moving it there, so that reading with read_at() can leave the
  // Reader where reading the same bytes with read() would have. Not for concurrent use. Throw IoError.
  virtual std::uint64_t position() const = 0;
  virtual void seek(std::uint64_t offset) = 0;
};

// Random access to a Writer's output, offered only by a Writer whose bytes nobody can see before commit()
// (the atomic temporary file): writes may then land in any order, and whatever a failed run wrote goes away
// with the uncommitted output. write_at() may be called from any number of threads at once.
class PositionalWriter {
 public:
  virtual ~PositionalWriter() = default;
  // Writes all n bytes at offset (retrying short writes and EINTR) or throws IoError. Does not move the
  // Writer's position.
  virtual void write_at(std::uint64_t offset, const std::uint8_t* buf, std::size_t n) = 0;
  // Where the Writer's next write() goes, and moving it. Not for concurrent use. Throw IoError.
  virtual std::uint64_t position() const = 0;
  virtual void seek(std::uint64_t offset) = 0;
};

class Reader {
 public:
  virtual ~Reader() = default;
  // Reads up to n bytes, retrying short reads and EINTR: returns fewer than n only at end of input, 0 at EOF.
  // Throws IoError on failure.
  virtual std::size_t read(std::uint8_t* buf, std::size_t n) = 0;
  // For messages: a path, "standard input", "memory".
  virtual std::string name() const = 0;
  // The same input's random access, or nullptr when it has none (pipes, terminals) or its size cannot be
  // trusted to be its content (pseudo files); the Reader owns it. Asked once, before reading the payload.
  virtual PositionalReader* positional() { return nullptr; }
};

class Writer {
 public:
  virtual ~Writer() = default;
  // Writes all n bytes (retrying short writes and EINTR) or throws IoError (EPIPE, ENOSPC, ...).
  virtual void write(const std::uint8_t* buf, std::size_t n) = 0;
  // Writes the pieces one after the other, as one write() of their concatenation would, so that records
  // lying at strided places of a buffer need not be packed first. This default writes piece by piece; a
  // descriptor gathers them into one system call (writev).
  virtual void write_gathered(std::span<const ::iovec> pieces) {
    for (const ::iovec& piece : pieces)
      write(static_cast<const std::uint8_t*>(piece.iov_base), piece.iov_len);
  }
  // Called once after the last write of a successful run: flush, fsync, atomically publish (file outputs).
  // A Writer destroyed without commit() discards what it wrote where it can (temp files are removed).
  virtual void commit() = 0;
  virtual std::string name() const = 0;
  // The same output's random access (see PositionalWriter for who may offer it), or nullptr; the Writer owns
  // it.
  virtual PositionalWriter* positional() { return nullptr; }
  // The descriptor of a regular file nobody sees before commit(), written in order through its own offset,
  // so that bytes may be copied into it by the kernel (io/copy_range.h, rekey); -1 for any other output.
  virtual int file_descriptor() const { return -1; }
};

}  // namespace pcrypt::io
