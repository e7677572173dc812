// How `pcrypt mount` reads an encrypted file for the programs reading the mount: a sequential reader gets
// the records ahead of it decrypted by a pool of workers while it copies the ones it asked for (read-ahead),
// a random reader decrypts only the records its range touches (File::read_at in its own thread). Either way
// every byte handed out has been authenticated: a window of read-ahead that fails is dropped whole, and the
// range is read again by itself, so a read fails (Error damaged_payload) only when its own range touches
// the damaged record.
//
// Memory: the pool's windows together never exceed its budget (a window that does not fit is not read
// ahead: its readers decrypt their ranges themselves), so a mount holds at most `budget` bytes of
// plaintext ahead, whatever the number and size of the files read.
#pragma once

#include <pcrypt/pcrypt.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <utility>
#include <vector>

namespace pcrypt::app {

class ReadAheadPool {
 public:
  ReadAheadPool(unsigned workers, std::size_t budget_bytes);
  ReadAheadPool(const ReadAheadPool&) = delete;
  ReadAheadPool& operator=(const ReadAheadPool&) = delete;
  ~ReadAheadPool();  // runs the jobs still queued, then joins the workers

  void submit(std::function<void()> job);
  // A buffer of `bytes` out of the budget (nullptr when they do not fit), its memory recycled from buffers
  // given back (no fresh pages to fault in and zero for every window), and its return.
  std::unique_ptr<std::uint8_t[]> take(std::size_t bytes);
  void give_back(std::unique_ptr<std::uint8_t[]> buffer, std::size_t bytes);
  std::size_t reserved() const;  // budget taken by buffers in use

 private:
  void work();
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::size_t budget_;
  std::size_t reserved_ = 0;
  std::vector<std::pair<std::size_t, std::unique_ptr<std::uint8_t[]>>> spare_;  // given back, by size
  std::size_t spare_bytes_ = 0;                                                 // within the budget too
  std::vector<std::thread> workers_;
};

// A read's plaintext as pieces of memory, in order, valid while this object lives and is not read into
// again: whole windows read ahead (kept alive by `keep`) or bytes read directly into `direct`. Replies are
// written from them as they are (no copy); one object per thread, reused, keeps its buffer.
struct PlaintextPieces {
  std::vector<std::span<const std::uint8_t>> pieces;
  std::vector<std::shared_ptr<const void>> keep;
  std::vector<std::uint8_t> direct;  // grown, never shrunk
  std::size_t bytes() const;
};

// One open file of the mount (one per open(2) of it): sequential or random reads of its plaintext from any
// number of threads at once. `file` (unlocked) and `pool` must outlive it.
class PlaintextStream {
 public:
  PlaintextStream(const File& file, std::uint64_t plaintext_size, std::size_t record_size,
                  ReadAheadPool& pool);
  PlaintextStream(const PlaintextStream&) = delete;
  PlaintextStream& operator=(const PlaintextStream&) = delete;
  ~PlaintextStream();

  // Plaintext [offset, offset + size) clipped to the plaintext into `out` (emptied first; no piece at or past
  // the end). Throws pcrypt::Error as File::read_at does, and leaves nothing it cannot vouch for: on a throw
  // `out` may hold anything and must not be used.
  void read(std::uint64_t offset, std::size_t size, PlaintextPieces& out);
  // The same, copied into `out`; returns how many bytes.
  std::size_t read(std::uint64_t offset, std::span<std::uint8_t> out);

  // A window of read-ahead: whole records, so that no record is decrypted twice by neighbouring windows.
  std::size_t window_bytes() const { return window_; }
  std::size_t windows_ahead() const { return ahead_; }

 private:
  struct Window;
  struct Shared;
  bool sequential(std::uint64_t offset, std::uint64_t first_window) const;
  std::shared_ptr<Window> schedule(std::uint64_t index);

  const File& file_;
  std::uint64_t size_;
  std::size_t window_;
  std::size_t ahead_;
  ReadAheadPool& pool_;
  std::shared_ptr<Shared> shared_;  // mutex and wake-up, shared with the pool's jobs
  std::map<std::uint64_t, std::shared_ptr<Window>> windows_;  // by index, under shared_->mutex
  std::uint64_t next_offset_ = 0;                             // where the last read ended
};

}  // namespace pcrypt::app
