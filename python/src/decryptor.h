// A pcrypt, binary age or Cobblestone file opened for reading by ranges from Python (pcrypt.open, the fsspec
// filesystem): a pcrypt::File (libpcrypt) unlocked once, then any number of range reads through
// File::read_at, which reads and authenticates only the records holding a range, straight into the caller's
// buffer. Large reads are cut into runs of whole records, read at once by a pool of threads.

#pragma once

#include <pcrypt/pcrypt.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace pcrypt::python {

struct CredentialArgs;

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

// Bytes [begin, begin + bytes.size()) of a remote file, fetched by the caller for one read: the records the
// read needs (Decryptor::covering).
struct Window {
  std::uint64_t begin;
  std::span<const std::uint8_t> bytes;
};

struct RemoteFile;  // a remote file's fetch function, and the windows its reads are served from

class Decryptor {
 public:
  // The file's bytes: at most `n` from `offset` into `out`, returning how many (a remote file's fetch).
  using Fetch = std::function<std::size_t(std::uint64_t offset, std::span<std::uint8_t> out)>;

  // A local file, read with pread.
  Decryptor(const std::string& path, const CredentialArgs& credentials);
  // A file of `size` bytes elsewhere: its header is read through `fetch` (in pieces of at least
  // kHeaderProbeBytes), its records from the windows the caller fetches for each read, or without a window
  // through `fetch`, each request as libpcrypt sizes it.
  Decryptor(std::uint64_t size, Fetch fetch, const CredentialArgs& credentials);

  std::uint64_t header_bytes() const { return file_.describe().header_bytes; }
  std::size_t chunk_size() const { return file_.describe().chunk_size; }
  std::uint64_t plaintext_size() const { return plaintext_size_; }
  // The encrypted bytes [begin, end) holding plaintext [offset, offset + length): what to fetch for a read.
  std::pair<std::uint64_t, std::uint64_t> covering(std::uint64_t offset, std::uint64_t length) const;
  // Decrypts plaintext [offset, offset + out.size()) into `out` (less at the end of the file) and returns how
  // many bytes it wrote, every byte authenticated first. `window`: the covering records of a remote file.
  std::size_t read_into(std::uint64_t offset, std::span<std::uint8_t> out, unsigned threads,
                        const Window* window = nullptr);

 private:
  Decryptor(std::uint64_t size, const std::shared_ptr<RemoteFile>& remote, const CredentialArgs& credentials);
  Decryptor(std::uint64_t size, std::shared_ptr<RemoteFile> remote, pcrypt::Source source,
            const CredentialArgs& credentials, const std::string& name);

  std::uint64_t file_size_;
  std::shared_ptr<RemoteFile> remote_;  // null for a local file
  pcrypt::File file_;
  std::uint64_t plaintext_size_ = 0;
  // Started by the first read that wants more than one thread; one read uses it at a time (reads from other
  // Python threads meanwhile run on their own thread).
  std::mutex pool_mu_;
  std::unique_ptr<WorkerPool> pool_;
};

// How much of a remote file's start is fetched at once while its header is read: enough for any header of a
// few dozen recipients in one request (larger headers take a few more).
inline constexpr std::size_t kHeaderProbeBytes = 16 << 10;

}  // namespace pcrypt::python
