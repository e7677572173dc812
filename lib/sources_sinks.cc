// Sources and sinks (pcrypt::Source, pcrypt::Sink): the caller's files, descriptors, memory and callbacks as
// the door's readers and writers (io/stream.h).
#define PCRYPT_BUILDING_LIBRARY
#include <unistd.h>
#include <cerrno>
#include <utility>

#include "io/atomic_file.h"
#include "io/fd_io.h"
#include "io/fd_stream.h"
#include "io/memory_stream.h"
#include "lib/internal.h"

namespace pcrypt {
inline namespace v0 {
namespace {

// A caller's read-at function as the door's reader: in order for decrypt, positionally for ranges.
class CallbackReader final : public io::Reader, public io::PositionalReader {
 public:
  CallbackReader(std::uint64_t size, Source::ReadAt read_at) : size_(size), read_at_(std::move(read_at)) {}
  std::size_t read(std::uint8_t* buf, std::size_t n) override {
    const std::size_t got = read_at(position_, buf, n);
    position_ += got;
    return got;
  }
  std::string name() const override { return "the source"; }
  io::PositionalReader* positional() override { return this; }
  std::uint64_t size() const override { return size_; }
  std::size_t read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const override {
    std::size_t got = 0;
    // The contract is "fewer only at the end": ask again after a short answer inside the source.
    while (got < n && offset + got < size_) {
      const std::size_t piece = read_at_(offset + got, std::span<std::uint8_t>(buf + got, n - got));
      if (piece == 0) break;
      got += piece;
    }
    return got;
  }
  std::uint64_t position() const override { return position_; }
  void seek(std::uint64_t offset) override { position_ = offset; }

 private:
  std::uint64_t size_;
  Source::ReadAt read_at_;
  std::uint64_t position_ = 0;
};

// Appends to a caller's vector, or hands each piece to a caller's function.
class FunctionWriter final : public io::Writer {
 public:
  explicit FunctionWriter(std::function<void(std::span<const std::uint8_t>)> write)
      : write_(std::move(write)) {}
  void write(const std::uint8_t* buf, std::size_t n) override { write_({buf, n}); }
  void commit() override {}
  std::string name() const override { return "the sink"; }

 private:
  std::function<void(std::span<const std::uint8_t>)> write_;
};

// A temporary file the caller publishes: pwrite from any worker, records in any order; written in order
// through the descriptor's own offset, as io::AtomicFileWriter writes its temporary (so rekey's
// copy_file_range continues where the header ends).
class UnpublishedFileWriter final : public io::Writer, public io::PositionalWriter {
 public:
  UnpublishedFileWriter(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  void write(const std::uint8_t* buf, std::size_t n) override { io::detail::write_all(fd_, buf, n, name_); }
  void write_at(std::uint64_t offset, const std::uint8_t* buf, std::size_t n) override {
    io::detail::pwrite_all(fd_, offset, buf, n, name_);
  }
  void commit() override {
    if (::fsync(fd_) != 0) {
      const int err = errno;
      throw io::IoError(io::detail::describe("cannot sync output", name_, err), err);
    }
  }
  std::string name() const override { return name_; }
  io::PositionalWriter* positional() override { return this; }
  int file_descriptor() const override { return fd_; }
  std::uint64_t position() const override { return io::detail::offset_of(fd_, name_); }
  void seek(std::uint64_t offset) override { io::detail::seek_to(fd_, offset, name_); }

 private:
  int fd_;
  std::string name_;
};

}  // namespace

Source::Impl& Access::of(Source& s) {
  detail::require_not_moved_from(s.impl_.get(), "Source");
  return *s.impl_;
}

Sink::Impl& Access::of(Sink& s) {
  detail::require_not_moved_from(s.impl_.get(), "Sink");
  return *s.impl_;
}

Source::Source(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Source::Source(Source&&) noexcept = default;
Source& Source::operator=(Source&&) noexcept = default;
Source::~Source() = default;

Source Source::path(const std::string& path) {
  return detail::guarded(detail::Phase::other, [&] {
    if (path.empty() || path == "-") throw core::Error(core::ErrorKind::usage, "a source path is needed");
    return Source(std::make_unique<Impl>(Impl{io::open_input(path)}));
  });
}

Source Source::fd(int fd, const std::string& name) {
  return Source(std::make_unique<Impl>(Impl{
      std::make_unique<io::FdReader>(fd, name.empty() ? "descriptor " + std::to_string(fd) : name, false)}));
}

Source Source::memory(std::span<const std::uint8_t> bytes) {
  return Source(
      std::make_unique<Impl>(Impl{std::make_unique<io::MemoryReader>(bytes, io::MemoryAccess::positional)}));
}

Source Source::callback(std::uint64_t size, ReadAt read_at) {
  if (!read_at) throw Error(ErrorKind::usage, "Source::callback needs a read_at function");
  return Source(std::make_unique<Impl>(Impl{std::make_unique<CallbackReader>(size, std::move(read_at))}));
}

Sink::Sink(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Sink::Sink(Sink&&) noexcept = default;
Sink& Sink::operator=(Sink&&) noexcept = default;
Sink::~Sink() = default;

Sink Sink::path(const std::string& path, bool overwrite) {
  return detail::guarded(detail::Phase::other, [&] {
    return Sink(std::make_unique<Impl>(Impl{std::make_unique<io::AtomicFileWriter>(
        path, overwrite, io::TempFile::unnamed_if_supported, io::Permissions::owner_only)}));
  });
}

Sink Sink::fd(int fd, const std::string& name) {
  return Sink(std::make_unique<Impl>(Impl{
      std::make_unique<io::FdWriter>(fd, name.empty() ? "descriptor " + std::to_string(fd) : name, false)}));
}

Sink Sink::unpublished_file(int fd, const std::string& name) {
  return Sink(std::make_unique<Impl>(Impl{std::make_unique<UnpublishedFileWriter>(
      fd, name.empty() ? "descriptor " + std::to_string(fd) : name)}));
}

Sink Sink::memory(std::vector<std::uint8_t>& out) {
  return Sink(std::make_unique<Impl>(Impl{std::make_unique<FunctionWriter>(
      [&out](std::span<const std::uint8_t> piece) { out.insert(out.end(), piece.begin(), piece.end()); })}));
}

Sink Sink::callback(std::function<void(std::span<const std::uint8_t>)> write) {
  if (!write) throw Error(ErrorKind::usage, "Sink::callback needs a write function");
  return Sink(std::make_unique<Impl>(Impl{std::make_unique<FunctionWriter>(std::move(write))}));
}

namespace detail {

std::unique_ptr<io::Writer> take_writer(Sink& sink) {
  return std::move(Access::of(sink).writer);
}

}  // namespace detail
}  // namespace v0
}  // namespace pcrypt
