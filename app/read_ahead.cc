#include "app/read_ahead.h"
#include "app/error_words.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <utility>

namespace pcrypt::app {
namespace {

// A window is 2 MiB of whole records (one record where records are bigger), and a sequential reader has up to
// 8 MiB (at most 4 windows) decrypted ahead of it: enough for the pool's workers to stay ahead of a reader
// that copies, without holding much more than the kernel's own read-ahead asks for.
constexpr std::size_t kWindowTarget = std::size_t{2} << 20;
constexpr std::size_t kAheadTarget = std::size_t{8} << 20;
constexpr std::size_t kMaxWindowsAhead = 4;
// A read that lands this close to where the previous one ended is the same sequential reader: the kernel's
// read-ahead requests of one reader arrive on several threads, in any order.
constexpr std::uint64_t kSequentialSlack = std::uint64_t{1} << 20;

}  // namespace

ReadAheadPool::ReadAheadPool(unsigned workers, std::size_t budget_bytes) : budget_(budget_bytes) {
  workers_.reserve(std::max(1u, workers));
  for (unsigned i = 0; i < std::max(1u, workers); ++i) workers_.emplace_back([this] { work(); });
}

ReadAheadPool::~ReadAheadPool() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ReadAheadPool::submit(std::function<void()> job) {
  {
    const std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

std::unique_ptr<std::uint8_t[]> ReadAheadPool::take(std::size_t bytes) {
  const std::lock_guard lock(mutex_);
  // A spare buffer of this size first; else room for a new one, made by dropping spares of other sizes.
  for (auto it = spare_.begin(); it != spare_.end(); ++it)
    if (it->first == bytes) {
      std::unique_ptr<std::uint8_t[]> buffer = std::move(it->second);
      spare_.erase(it);
      spare_bytes_ -= bytes;
      reserved_ += bytes;
      return buffer;
    }
  while (bytes > budget_ - reserved_ - spare_bytes_ && !spare_.empty()) {
    spare_bytes_ -= spare_.back().first;
    spare_.pop_back();
  }
  if (bytes > budget_ - reserved_ - spare_bytes_) return nullptr;
  reserved_ += bytes;
  return std::unique_ptr<std::uint8_t[]>(new std::uint8_t[bytes]);  // not zeroed: decrypted into whole
}

void ReadAheadPool::give_back(std::unique_ptr<std::uint8_t[]> buffer, std::size_t bytes) {
  const std::lock_guard lock(mutex_);
  reserved_ -= bytes;
  if (buffer) {
    spare_.emplace_back(bytes, std::move(buffer));
    spare_bytes_ += bytes;
  }
}

std::size_t ReadAheadPool::reserved() const {
  const std::lock_guard lock(mutex_);
  return reserved_;
}

void ReadAheadPool::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, and nothing left that a reader may be waiting for
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

struct PlaintextStream::Shared {
  std::mutex mutex;
  std::condition_variable done;
};

struct PlaintextStream::Window {
  enum class State { pending, ready, failed };
  Window(ReadAheadPool& p, std::uint64_t s, std::size_t n, std::unique_ptr<std::uint8_t[]> buffer)
      : pool(p), start(s), bytes(n), data(std::move(buffer)) {}
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
  ~Window() { pool.give_back(std::move(data), bytes); }
  ReadAheadPool& pool;
  const std::uint64_t start;
  const std::size_t bytes;
  // Written by the job alone while pending, read by readers once ready (never when the window failed: what
  // it holds then is not handed out).
  std::unique_ptr<std::uint8_t[]> data;
  State state = State::pending;  // under Shared::mutex
};

std::size_t PlaintextPieces::bytes() const {
  std::size_t n = 0;
  for (const auto& piece : pieces) n += piece.size();
  return n;
}

PlaintextStream::PlaintextStream(const File& file, std::uint64_t plaintext_size, std::size_t record_size,
                                 ReadAheadPool& pool)
    : file_(file),
      size_(plaintext_size),
      window_(std::max<std::size_t>(1, kWindowTarget / std::max<std::size_t>(1, record_size)) *
              std::max<std::size_t>(1, record_size)),
      ahead_(std::clamp<std::size_t>(kAheadTarget / window_, 1, kMaxWindowsAhead)),
      pool_(pool),
      shared_(std::make_shared<Shared>()) {}

PlaintextStream::~PlaintextStream() {
  // The pool's jobs keep what they write to (their Window, Shared) alive; the windows' budget comes back as
  // the last holder lets go of each.
  const std::lock_guard lock(shared_->mutex);
  windows_.clear();
}

bool PlaintextStream::sequential(std::uint64_t offset, std::uint64_t first_window) const {
  if (windows_.contains(first_window)) return true;
  // Offset 0 alone says nothing: a database reads its header there, then jumps about.
  return offset > 0 && offset + kSequentialSlack >= next_offset_ && offset <= next_offset_ + kSequentialSlack;
}

std::shared_ptr<PlaintextStream::Window> PlaintextStream::schedule(std::uint64_t index) {
  if (const auto it = windows_.find(index); it != windows_.end()) return it->second;
  const std::uint64_t start = index * window_;
  const std::size_t bytes = static_cast<std::size_t>(std::min<std::uint64_t>(window_, size_ - start));
  std::unique_ptr<std::uint8_t[]> buffer = pool_.take(bytes);
  if (!buffer) return nullptr;
  auto window = std::make_shared<Window>(pool_, start, bytes, std::move(buffer));
  windows_.emplace(index, window);
  pool_.submit([window, shared = shared_, &file = file_] {
    bool whole = false;
    try {
      whole = file.read_at(window->start, std::span(window->data.get(), window->bytes)) == window->bytes;
    } catch (...) {
      // A damaged record (or an I/O error) somewhere in the window: its readers read their own ranges
      // again, and only those that touch the record fail.
    }
    const std::lock_guard lock(shared->mutex);
    window->state = whole ? Window::State::ready : Window::State::failed;
    shared->done.notify_all();
  });
  return window;
}

void PlaintextStream::read(std::uint64_t offset, std::size_t size, PlaintextPieces& out) {
  out.pieces.clear();
  out.keep.clear();
  if (offset >= size_ || size == 0) return;
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(size, size_ - offset));
  const std::uint64_t end = offset + n;
  const std::uint64_t first = offset / window_;
  const std::uint64_t last = (end - 1) / window_;
  const std::uint64_t windows = (size_ + window_ - 1) / window_;

  std::vector<std::shared_ptr<Window>> held;  // those of [first, last]; nullptr: read directly
  {
    std::unique_lock lock(shared_->mutex);
    const bool ahead = sequential(offset, first);
    next_offset_ = end;
    if (ahead) {
      for (std::uint64_t i = first; i <= last; ++i) held.push_back(schedule(i));
      for (std::uint64_t i = last + 1; i < std::min(windows, last + 1 + ahead_); ++i)
        if (!schedule(i)) break;
      // Behind the reader: one window is kept for requests that arrive out of order; beyond its read-ahead
      // (it went back): none.
      while (!windows_.empty() && windows_.begin()->first + 1 < first) windows_.erase(windows_.begin());
      while (!windows_.empty() && std::prev(windows_.end())->first > last + ahead_)
        windows_.erase(std::prev(windows_.end()));
      shared_->done.wait(lock, [&] {
        return std::ranges::all_of(held,
                                   [](const auto& w) { return !w || w->state != Window::State::pending; });
      });
    }
  }
  const auto read_directly = [&](std::uint64_t from, std::size_t bytes) {
    // At the piece's place in the request's span of `direct`, sized once below, so earlier pieces stay put.
    const std::span<std::uint8_t> place(out.direct.data() + (from - offset), bytes);
    if (file_.read_at(from, place) != bytes)
      throw CliError(PCRYPT_E_INPUT_CHANGED, "the encrypted file changed size while it was read");
    out.pieces.emplace_back(place);
  };
  const bool any_direct = held.empty() || std::ranges::any_of(held, [](const auto& w) {
                            return !w || w->state != Window::State::ready;
                          });
  if (any_direct && out.direct.size() < n) out.direct.resize(n);
  if (held.empty()) return read_directly(offset, n);
  for (std::uint64_t i = first; i <= last; ++i) {
    const std::uint64_t from = std::max(offset, i * window_);
    const std::uint64_t to = std::min(end, (i + 1) * window_);
    const std::shared_ptr<Window>& w = held[i - first];
    if (w && w->state == Window::State::ready) {
      out.pieces.emplace_back(w->data.get() + (from - w->start), static_cast<std::size_t>(to - from));
      out.keep.push_back(w);
    } else {
      read_directly(from, static_cast<std::size_t>(to - from));
    }
  }
}

std::size_t PlaintextStream::read(std::uint64_t offset, std::span<std::uint8_t> out) {
  PlaintextPieces pieces;
  read(offset, out.size(), pieces);
  std::size_t at = 0;
  for (const auto& piece : pieces.pieces) {
    std::memcpy(out.data() + at, piece.data(), piece.size());
    at += piece.size();
  }
  return at;
}

}  // namespace pcrypt::app
