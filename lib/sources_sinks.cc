// Sources and sinks (pcrypt::Source, pcrypt::Sink): the caller's files, descriptors, memory and callbacks as
// the door's readers and writers (io/stream.h).
#define PCRYPT_BUILDING_LIBRARY
#include <sys/uio.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "io/atomic_file.h"
#include "io/fd_io.h"
#include "io/fd_stream.h"
#include "io/memory_stream.h"
#include "lib/internal.h"

namespace pcrypt {
inline namespace v1 {
namespace {

// A caller's read-at function as the door's reader: positionally for the pipeline and ranges, in order for
// the header. Each read asks for as much as it can use in one call, since a call may be a request to an
// object store: a scattered read (the pipeline's item, a range's batch of records) is one call into a
// scratch buffer, and the header is read through a read-ahead of kReadAhead bytes, so that opening a file
// takes one call (two when its header is larger). An exception the function throws is kept in `failure`
// (docs: "Callbacks") and goes on its way.
class CallbackReader final : public io::Reader, public io::PositionalReader {
 public:
  static constexpr std::size_t kReadAhead = std::size_t{64} << 10;

  CallbackReader(std::uint64_t size, Source::ReadAt read_at) : size_(size), read_at_(std::move(read_at)) {}
  detail::CallbackFailure& failure() const { return failure_; }
  std::size_t read(std::uint8_t* buf, std::size_t n) override {
    std::size_t got = 0;
    while (got < n && position_ < size_) {
      if (position_ >= ahead_at_ && position_ < ahead_at_ + ahead_.size()) {
        const std::size_t from = static_cast<std::size_t>(position_ - ahead_at_);
        const std::size_t take = std::min(n - got, ahead_.size() - from);
        std::memcpy(buf + got, ahead_.data() + from, take);
        got += take;
        position_ += take;
        continue;
      }
      if (n - got >= kReadAhead) {  // large: straight into the caller's buffer
        const std::size_t piece = read_at(position_, buf + got, n - got);
        got += piece;
        position_ += piece;
        break;
      }
      // Each refill twice the last, so that a header of any size takes few calls.
      ahead_.resize(std::max(kReadAhead, 2 * ahead_.size()));
      ahead_.resize(read_at(position_, ahead_.data(), ahead_.size()));
      ahead_at_ = position_;
      if (ahead_.empty()) break;
    }
    return got;
  }
  std::string name() const override { return "the source"; }
  io::PositionalReader* positional() override { return this; }
  std::uint64_t size() const override { return size_; }
  std::size_t read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const override {
    std::size_t got = 0;
    // The contract is "fewer only at the end": ask again after a short answer inside the source.
    while (got < n && offset + got < size_) {
      const std::size_t want =
          static_cast<std::size_t>(std::min<std::uint64_t>(n - got, size_ - offset - got));
      std::size_t piece = 0;
      try {
        piece = read_at_(offset + got, std::span<std::uint8_t>(buf + got, want));
      } catch (...) {
        failure_.keep_and_rethrow();
      }
      if (piece == 0) break;
      if (piece > want)
        throw io::IoError("the source's read_at returned " + std::to_string(piece) +
                              " bytes for a buffer of " + std::to_string(want),
                          0);
      got += piece;
    }
    return got;
  }
  std::size_t read_at_scattered(std::uint64_t offset, std::span<const ::iovec> pieces) const override {
    if (pieces.size() == 1)
      return read_at(offset, static_cast<std::uint8_t*>(pieces[0].iov_base), pieces[0].iov_len);
    std::size_t total = 0;
    for (const ::iovec& piece : pieces) total += piece.iov_len;
    thread_local std::vector<std::uint8_t> gathered;
    gathered.resize(total);
    const std::size_t got = read_at(offset, gathered.data(), total);
    std::size_t at = 0;
    for (const ::iovec& piece : pieces) {
      const std::size_t n = std::min(piece.iov_len, got - at);
      std::memcpy(piece.iov_base, gathered.data() + at, n);
      at += n;
      if (at == got) break;
    }
    return got;
  }
  std::uint64_t position() const override { return position_; }
  void seek(std::uint64_t offset) override { position_ = offset; }

 private:
  std::uint64_t size_;
  Source::ReadAt read_at_;
  mutable detail::CallbackFailure failure_;  // kept here: the reader outlives the Source that made it
  std::uint64_t position_ = 0;
  std::vector<std::uint8_t> ahead_;  // the source's bytes from ahead_at_, read ahead for read()
  std::uint64_t ahead_at_ = 0;
};

// A descriptor of a regular file that stood at `origin` when it was given: the file starts there (the
// rule Source::fd states). Its offsets, size and positions are the file's less `origin`, so the door sees a
// file that starts at 0 whatever it asks (size, positional reads, seeks for a second pass).
class FromOrigin final : public io::Reader, public io::PositionalReader {
 public:
  FromOrigin(std::unique_ptr<io::Reader> fd, io::PositionalReader& file, std::uint64_t origin)
      : fd_(std::move(fd)), file_(file), origin_(origin) {}
  std::size_t read(std::uint8_t* buf, std::size_t n) override { return fd_->read(buf, n); }
  std::string name() const override { return fd_->name(); }
  io::PositionalReader* positional() override { return this; }
  std::uint64_t size() const override {
    const std::uint64_t size = file_.size();
    return size > origin_ ? size - origin_ : 0;
  }
  std::size_t read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const override {
    return file_.read_at(origin_ + offset, buf, n);
  }
  std::size_t read_at_scattered(std::uint64_t offset, std::span<const ::iovec> pieces) const override {
    return file_.read_at_scattered(origin_ + offset, pieces);
  }
  std::uint64_t position() const override { return file_.position() - origin_; }
  void seek(std::uint64_t offset) override { file_.seek(origin_ + offset); }

 private:
  std::unique_ptr<io::Reader> fd_;
  io::PositionalReader& file_;
  std::uint64_t origin_;
};

// Appends to a caller's vector, or hands each piece to a caller's function (an exception it throws is kept
// in `failure`, as CallbackReader's).
class FunctionWriter final : public io::Writer {
 public:
  explicit FunctionWriter(std::function<void(std::span<const std::uint8_t>)> write)
      : write_(std::move(write)) {}
  detail::CallbackFailure& failure() { return failure_; }
  void write(const std::uint8_t* buf, std::size_t n) override {
    try {
      write_({buf, n});
    } catch (...) {
      failure_.keep_and_rethrow();
    }
  }
  void commit() override {}
  std::string name() const override { return "the sink"; }

 private:
  std::function<void(std::span<const std::uint8_t>)> write_;
  detail::CallbackFailure failure_;  // kept here: the writer outlives the Sink that made it (an Encryptor's)
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

detail::SourceImpl& Access::of(Source& s) {
  detail::require_not_moved_from(s.impl_.get(), "Source");
  return *s.impl_;
}

detail::CallbackFailure* Access::failure(Sink& s) {
  return s.impl_ ? s.impl_->failure : nullptr;
}

detail::CallbackFailure* Access::failure(Source& s) {
  return s.impl_ ? s.impl_->failure : nullptr;
}

detail::SinkImpl& Access::of(Sink& s) {
  detail::require_not_moved_from(s.impl_.get(), "Sink");
  return *s.impl_;
}

Source::Source(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Source::Source(Source&&) noexcept = default;
Source& Source::operator=(Source&&) noexcept = default;
Source::~Source() = default;

Source Source::path(const std::string& path) {
  return detail::guarded(detail::Phase::other, [&] {
    if (path.empty() || path == "-") throw core::Error(PCRYPT_E_BAD_ARGUMENT, "a source path is needed");
    return Source(std::make_unique<Impl>(io::open_input(path)));
  });
}

Source Source::fd(int fd, const std::string& name) {
  return detail::guarded(detail::Phase::other, [&] {
    auto reader =
        std::make_unique<io::FdReader>(fd, name.empty() ? "descriptor " + std::to_string(fd) : name, false);
    io::PositionalReader* file = reader->positional();
    const std::uint64_t origin = file != nullptr ? file->position() : 0;
    if (origin == 0) return Source(std::make_unique<Impl>(std::move(reader)));
    return Source(std::make_unique<Impl>(std::make_unique<FromOrigin>(std::move(reader), *file, origin)));
  });
}

Source Source::memory(std::span<const std::uint8_t> bytes) {
  return Source(
      std::make_unique<Impl>(std::make_unique<io::MemoryReader>(bytes, io::MemoryAccess::positional)));
}

Source Source::callback(std::uint64_t size, ReadAt read_at) {
  if (!read_at) throw Error(PCRYPT_E_NULL_ARGUMENT, "Source::callback needs a read_at function");
  auto reader = std::make_unique<CallbackReader>(size, std::move(read_at));
  detail::CallbackFailure* failure = &reader->failure();
  return Source(std::make_unique<Impl>(std::move(reader), failure));
}

Sink::Sink(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Sink::Sink(Sink&&) noexcept = default;
Sink& Sink::operator=(Sink&&) noexcept = default;
Sink::~Sink() = default;

Sink Sink::path(const std::string& path, bool overwrite) {
  return detail::guarded(detail::Phase::other, [&] {
    return Sink(std::make_unique<Impl>(std::make_unique<io::AtomicFileWriter>(
        path, overwrite, io::TempFile::unnamed_if_supported, io::Permissions::owner_only)));
  });
}

Sink Sink::fd(int fd, const std::string& name) {
  return Sink(std::make_unique<Impl>(
      std::make_unique<io::FdWriter>(fd, name.empty() ? "descriptor " + std::to_string(fd) : name, false)));
}

Sink Sink::unpublished_file(int fd, const std::string& name) {
  return Sink(std::make_unique<Impl>(
      std::make_unique<UnpublishedFileWriter>(fd, name.empty() ? "descriptor " + std::to_string(fd) : name)));
}

Sink Sink::memory(std::vector<std::uint8_t>& out) {
  return Sink(std::make_unique<Impl>(std::make_unique<FunctionWriter>(
      [&out](std::span<const std::uint8_t> piece) { out.insert(out.end(), piece.begin(), piece.end()); })));
}

Sink Sink::callback(std::function<void(std::span<const std::uint8_t>)> write) {
  if (!write) throw Error(PCRYPT_E_NULL_ARGUMENT, "Sink::callback needs a write function");
  auto writer = std::make_unique<FunctionWriter>(std::move(write));
  detail::CallbackFailure* failure = &writer->failure();
  return Sink(std::make_unique<Impl>(std::move(writer), failure));
}

namespace detail {

std::unique_ptr<io::Writer> take_writer(Sink& sink) {
  return std::move(Access::of(sink).writer);
}

}  // namespace detail
}  // namespace v1
}  // namespace pcrypt
