// Streams over file descriptors: files, pipes, standard input and output.
//
// Every IoError thrown by pcrypt::io carries a complete message, "<what> (<name>): <strerror>", so the CLI
// can print what() as it is, and errno for decisions (EPIPE, EEXIST).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "io/stream.h"

namespace pcrypt::io {

class FdReader final : public Reader {
 public:
  // Takes ownership of fd (closed by the destructor) only if owns_fd.
  FdReader(int fd, std::string name, bool owns_fd);
  ~FdReader() override;
  FdReader(const FdReader&) = delete;
  FdReader& operator=(const FdReader&) = delete;

  std::size_t read(std::uint8_t* buf, std::size_t n) override;  // straight into buf: no intermediate copy
  std::string name() const override { return name_; }
  int fd() const { return fd_; }
  // Size in bytes if the input is a regular file (for progress), otherwise nothing.
  std::optional<std::uint64_t> size() const;
  // pread() on a regular file, unless it is empty or lives on a pseudo file system (proc, sysfs, ...), whose
  // files report a size that is not their content; nullptr otherwise.
  PositionalReader* positional() override;

 private:
  class FileAccess final : public PositionalReader {
   public:
    explicit FileAccess(const FdReader& reader) : reader_(reader) {}
    std::uint64_t size() const override;
    std::size_t read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const override;
    std::size_t read_at_scattered(std::uint64_t offset, std::span<const ::iovec> pieces) const override;
    std::uint64_t position() const override;
    void seek(std::uint64_t offset) override;

   private:
    const FdReader& reader_;
  };

  int fd_;
  std::string name_;
  bool owns_fd_;
  FileAccess file_access_{*this};
};

class FdWriter final : public Writer {
 public:
  FdWriter(int fd, std::string name, bool owns_fd);
  ~FdWriter() override;
  FdWriter(const FdWriter&) = delete;
  FdWriter& operator=(const FdWriter&) = delete;

  void write(const std::uint8_t* buf, std::size_t n) override;
  void write_gathered(std::span<const ::iovec> pieces) override;  // one writev(2) for up to 64 pieces
  // fsyncs when the descriptor is a regular file (stdout redirected to a file); pipes and terminals need
  // nothing.
  void commit() override;
  std::string name() const override { return name_; }
  int fd() const { return fd_; }

 private:
  int fd_;
  std::string name_;
  bool owns_fd_;
};

// "-" or "": standard input (not closed). Otherwise opens path read-only (O_CLOEXEC), refusing a directory,
// and advises the kernel of sequential access. Throws IoError: "cannot open input (path): <strerror>".
std::unique_ptr<FdReader> open_input(const std::string& path);

// An existing character device, FIFO or socket (see is_stream_file), opened for writing in place: such a
// target is a stream, not a file that could be replaced by renaming a temporary over it.
std::unique_ptr<FdWriter> open_stream_output(const std::string& path);

// Standard output (not closed), named "standard output".
std::unique_ptr<FdWriter> stdout_writer();

}  // namespace pcrypt::io
