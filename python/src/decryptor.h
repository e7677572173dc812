// A pcrypt or binary age file opened for reading by ranges from Python (pcrypt.open, the fsspec filesystem):
// its header unlocked once, then any number of range reads, each one core::decrypt_range_into (core/range.h):
// only the records holding a range are read and authenticated, straight into the caller's buffer.

#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "core/door/encrypted_file.h"
#include "core/door/limits.h"
#include "core/keys/credential.h"
#include "core/range.h"
#include "io/fd_stream.h"
#include "io/stream.h"

namespace pcrypt::python {

// A local file read with pread (the Python object keeps it open).
class LocalFile {
 public:
  explicit LocalFile(const std::string& path);
  const io::PositionalReader& access() const { return *access_; }
  std::uint64_t size() const { return access_->size(); }

 private:
  std::unique_ptr<io::FdReader> reader_;
  io::PositionalReader* access_;
};

// Bytes [begin, begin + window.size()) of a file of file_size bytes, fetched from elsewhere (an fsspec
// target: pcrypt::s3://…): a range read sees a file of that size of which it only ever asks for these bytes.
class FileWindow final : public io::PositionalReader {
 public:
  FileWindow(std::span<const std::uint8_t> window, std::uint64_t begin, std::uint64_t file_size)
      : window_(window), begin_(begin), file_size_(file_size) {}
  std::uint64_t size() const override { return file_size_; }
  std::size_t read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const override;
  std::uint64_t position() const override { return 0; }
  void seek(std::uint64_t /*offset*/) override {}

 private:
  std::span<const std::uint8_t> window_;
  std::uint64_t begin_;
  std::uint64_t file_size_;
};

// Threads that run the tasks given to run() (the caller runs the first) and wait for the next call.
class WorkerPool {
 public:
  explicit WorkerPool(unsigned helpers);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  unsigned size() const { return static_cast<unsigned>(threads_.size()) + 1; }
  // Runs tasks[0] on the calling thread and tasks[i] on helper i-1; returns when all have finished.
  void run(const std::vector<std::function<void()>>& tasks);

 private:
  void serve(unsigned index);

  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable wake_, done_;
  const std::vector<std::function<void()>>* tasks_ = nullptr;
  std::uint64_t round_ = 0;
  unsigned pending_ = 0;
  bool stop_ = false;
};

class Decryptor {
 public:
  // `header_prefix`: the file's first bytes, at least its whole header (kHeaderProbeBytes or the whole file
  // is enough), of a pcrypt file or a binary age file (an armored one hides where its records lie:
  // core::Error(usage)). Throws core::Error(header) as decrypt does for a malformed header or wrong
  // credentials.
  Decryptor(std::span<const std::uint8_t> header_prefix, const std::vector<core::Credential>& credentials,
            const core::door::UnlockLimits& limits);

  // Where record 0 starts: after the header (and an age file's 16-byte payload nonce).
  std::size_t header_bytes() const { return payload_.layout.payload_offset; }
  std::size_t chunk_size() const { return payload_.layout.chunk_size; }
  // The plaintext size of the file whose size is file_size; core::Error(payload) for a length no complete
  // payload has (a file cut short).
  std::uint64_t plaintext_size(std::uint64_t file_size) const;
  // The file bytes [begin, end) that hold plaintext [offset, offset + length): the records decrypt_range
  // reads.
  std::pair<std::uint64_t, std::uint64_t> covering(std::uint64_t offset, std::uint64_t length,
                                                   std::uint64_t file_size) const;
  // Decrypts plaintext [offset, offset + out.size()) of `file` into `out` (less at the end of the file) and
  // returns how many bytes it wrote. Every byte is authenticated first (core::Error(payload) otherwise).
  // Large reads are cut into one run of whole records per worker; the runs go to threads that live as long
  // as the Decryptor (a thread started per read waits behind every busy process for its first time slice,
  // which on a shared machine costs more than the read).
  std::size_t read_into(const io::PositionalReader& file, std::uint64_t offset, std::span<std::uint8_t> out,
                        unsigned threads);

 private:
  core::KeyedPayload payload_;  // either format's: the range functions are format-blind
  // Started by the first read that wants more than one thread; one read uses it at a time (reads from other
  // Python threads meanwhile run on their own thread).
  std::mutex pool_mu_;
  std::unique_ptr<WorkerPool> pool_;
};

// How much of a file's start is read first: enough for any header of a few dozen recipients. Larger headers
// (up to 255 slots, or many post-quantum or RSA recipients) are read in growing prefixes while
// header_incomplete says so, up to kHeaderMaxBytes (age's bound; pcrypt's largest header is below it).
inline constexpr std::size_t kHeaderProbeBytes = 16 << 10;
inline constexpr std::size_t kHeaderMaxBytes = core::door::kMaxHeaderBytes;

// Whether `prefix` ends inside the header it starts (or, for age, before its payload nonce). False when the
// header is complete, and when it is malformed before the prefix ends (the Decryptor then says how).
bool header_incomplete(std::span<const std::uint8_t> prefix);

}  // namespace pcrypt::python
