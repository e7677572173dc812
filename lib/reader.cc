// pcrypt::Reader (include/pcrypt/reader.h): File::decrypt's pipeline, run on a thread of the reader's own,
// writing into a hand-off instead of a sink. The pipeline's writer stage offers each item of authenticated
// plaintext (its records' plaintext pieces, in order) and waits until read() has copied all of it into the
// caller's buffers; meanwhile its workers keep reading and opening the next records into the rest of the
// pool. So there is no second pipeline and no second copy: the plaintext is copied once, from the pipeline's
// buffer into the caller's, and memory is the pipeline's pool whatever the caller's pace. The pipeline hands
// nothing of a record that failed (nor after it) to its writer, so read() never returns a byte of it.
#define PCRYPT_BUILDING_LIBRARY
#include "pcrypt/reader.h"

#include <sys/uio.h>
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#include "lib/internal.h"

namespace pcrypt {
inline namespace v1 {
namespace {

// What the pipeline's writer throws once the Reader is gone: the pipeline stops, its threads end.
struct ReaderClosed final : std::exception {
  const char* what() const noexcept override { return "the reader was closed"; }
};

// Between the pipeline's writer stage (write: the producer) and Reader::read (take: the consumer).
class HandOff final : public io::Writer {
 public:
  void write(const std::uint8_t* buf, std::size_t n) override {
    const ::iovec piece{const_cast<std::uint8_t*>(buf), n};
    write_gathered(std::span<const ::iovec>(&piece, 1));
  }
  // Offers every piece at once and returns when the consumer has taken them all.
  void write_gathered(std::span<const ::iovec> pieces) override {
    std::unique_lock lock(mutex_);
    if (closed_) throw ReaderClosed();
    pieces_ = pieces;
    piece_ = 0;
    piece_offset_ = 0;
    skip_empty_pieces();
    if (piece_ == pieces_.size()) return;
    offered_ = true;
    consumer_wakes_.notify_one();
    producer_wakes_.wait(lock, [&] { return !offered_ || closed_; });
    if (offered_) throw ReaderClosed();
  }
  void commit() override {}
  std::string name() const override { return "the reader"; }

  // Copies up to `out.size()` offered bytes into `out`, waiting for them; returns how many, fewer only when
  // the producer has ended (then also `ended` is true).
  std::size_t take(std::span<std::uint8_t> out) {
    std::size_t got = 0;
    std::unique_lock lock(mutex_);
    while (got < out.size()) {
      consumer_wakes_.wait(lock, [&] { return offered_ || ended_; });
      if (!offered_) break;
      // Copied under the lock: the only thread that waits for it is the producer, which waits for this.
      while (got < out.size() && piece_ < pieces_.size()) {
        const ::iovec& piece = pieces_[piece_];
        const std::size_t n = std::min(out.size() - got, piece.iov_len - piece_offset_);
        std::memcpy(out.data() + got, static_cast<const std::uint8_t*>(piece.iov_base) + piece_offset_, n);
        got += n;
        piece_offset_ += n;
        if (piece_offset_ == piece.iov_len) {
          ++piece_;
          piece_offset_ = 0;
          skip_empty_pieces();
        }
      }
      if (piece_ == pieces_.size()) {
        offered_ = false;
        producer_wakes_.notify_one();
      }
    }
    return got;
  }

  // The producer's end, with its outcome.
  void end(std::exception_ptr error, Transfer transfer) {
    const std::lock_guard lock(mutex_);
    error_ = error;
    transfer_ = transfer;
    ended_ = true;
    consumer_wakes_.notify_all();
  }
  // After take() returned short: the producer's outcome.
  std::exception_ptr error() {
    const std::lock_guard lock(mutex_);
    return error_;
  }
  Transfer transfer() {
    const std::lock_guard lock(mutex_);
    return transfer_;
  }
  void close() {
    const std::lock_guard lock(mutex_);
    closed_ = true;
    producer_wakes_.notify_all();
  }

 private:
  void skip_empty_pieces() {
    while (piece_ < pieces_.size() && pieces_[piece_].iov_len == 0) ++piece_;
  }

  std::mutex mutex_;
  std::condition_variable consumer_wakes_, producer_wakes_;
  std::span<const ::iovec> pieces_;
  std::size_t piece_ = 0, piece_offset_ = 0;
  bool offered_ = false;  // pieces_ holds bytes not taken yet
  bool ended_ = false;
  bool closed_ = false;
  std::exception_ptr error_;  // a pcrypt::Error, or what a callback of the caller's threw
  Transfer transfer_;
};

// The reader's state and its thread, in this file's anonymous namespace: nothing of it (nor the thread's
// lambda) is exported, as detail::ReaderImpl's own members would be.
struct PullStream {
  PullStream(File f, const RunOptions& options)
      : file(std::move(f)),
        description(file.describe()),
        callers_progress(options.progress),
        progress(detail::kept_progress(callers_progress, progress_failure)) {
    detail::FileImpl& opened = Access::of(file);
    opened.unlocked();
    producer = std::thread([this, &opened, threads = detail::checked_threads(options.threads)] {
      try {
        const core::door::Transfer t =
            opened.file->decrypt(hand_off, core::door::RunOptions{threads, progress});
        hand_off.end(nullptr, detail::transfer_of(t));
      } catch (...) {
        hand_off.end(error_in_flight(), Transfer{});
      }
    });
  }
  PullStream(const PullStream&) = delete;
  PullStream& operator=(const PullStream&) = delete;
  ~PullStream() {
    hand_off.close();
    producer.join();
  }

  // Inside a catch block: what read() is to throw for the exception in flight.
  std::exception_ptr error_in_flight() {
    if (detail::CallbackFailure* source = Access::failure(file))
      if (std::exception_ptr first = source->first()) return first;
    if (std::exception_ptr first = progress_failure.first()) return first;
    try {
      detail::rethrow_as_public();
    } catch (...) {
      return std::current_exception();
    }
  }

  File file;
  Description description;
  detail::CallbackFailure progress_failure;             // what the caller's progress callback threw
  std::function<void(std::uint64_t)> callers_progress;  // a copy: the RunOptions given may not outlive us
  std::function<void(std::uint64_t)> progress;          // callers_progress, its exceptions kept
  HandOff hand_off;
  std::uint64_t position = 0;
  bool at_end = false;
  std::thread producer;  // last: started once everything it uses exists
};

}  // namespace

struct PCRYPT_HIDDEN detail::ReaderImpl final : PullStream {
  using PullStream::PullStream;
};

namespace {

// The one moved-from rule (lib/errors.cc), as a pcrypt::Error.
detail::ReaderImpl& checked(const std::unique_ptr<detail::ReaderImpl>& impl) {
  detail::guarded(detail::Phase::other, [&] {
    detail::require_not_moved_from(impl.get(), "Reader");
    return 0;
  });
  return *impl;
}

}  // namespace

Reader::Reader(File file, const RunOptions& options)
    : impl_(detail::guarded(detail::Phase::other,
                            [&] { return std::make_unique<Impl>(std::move(file), options); })) {}
Reader::Reader(Reader&&) noexcept = default;
Reader& Reader::operator=(Reader&&) noexcept = default;
Reader::~Reader() = default;

std::size_t Reader::read(std::span<std::uint8_t> buffer) {
  Impl& impl = checked(impl_);
  if (buffer.empty()) return 0;
  const std::size_t got = impl.hand_off.take(buffer);
  impl.position += got;
  if (got > 0) return got;
  if (const std::exception_ptr error = impl.hand_off.error()) std::rethrow_exception(error);
  impl.at_end = true;
  return 0;
}

std::uint64_t Reader::position() const {
  return checked(impl_).position;
}

bool Reader::at_end() const {
  return checked(impl_).at_end;
}

Transfer Reader::transfer() const {
  Impl& impl = checked(impl_);
  if (!impl.at_end)
    throw Error(PCRYPT_E_WRONG_ORDER, "the transfer is known only at the end",
                "read until read() returns 0 first");
  return impl.hand_off.transfer();
}

const Description& Reader::describe() const {
  return checked(impl_).description;
}

}  // namespace v1
}  // namespace pcrypt
