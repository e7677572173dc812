// Byte streams: the only way pcrypt's core touches files, pipes and terminals. Tests substitute in-memory and
// fault-injecting implementations.
#pragma once

#include <cstddef>
#include <cstdint>
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

class Reader {
 public:
  virtual ~Reader() = default;
  // Reads up to n bytes, retrying short reads and EINTR: returns fewer than n only at end of input, 0 at EOF.
  // Throws IoError on failure.
  virtual std::size_t read(std::uint8_t* buf, std::size_t n) = 0;
  // For messages: a path, "standard input", "memory".
  virtual std::string name() const = 0;
};

class Writer {
 public:
  virtual ~Writer() = default;
  // Writes all n bytes (retrying short writes and EINTR) or throws IoError (EPIPE, ENOSPC, ...).
  virtual void write(const std::uint8_t* buf, std::size_t n) = 0;
  // Called once after the last write of a successful run: flush, fsync, atomically publish (file outputs).
  // A Writer destroyed without commit() discards what it wrote where it can (temp files are removed).
  virtual void commit() = 0;
  virtual std::string name() const = 0;
};

}  // namespace pcrypt::io
