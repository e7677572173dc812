#include "python/src/decryptor.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <stdexcept>

#include "python/src/credentials.h"

namespace pcrypt::python {

namespace {

// What the file's reads on this thread are served from while Decryptor::read_into runs with a window.
struct ActiveWindow {
  const RemoteFile* file;
  const Window* window;
};
thread_local ActiveWindow active_window{nullptr, nullptr};

}  // namespace

struct RemoteFile {
  RemoteFile(Decryptor::Fetch fetch_bytes, std::uint64_t file_size)
      : fetch(std::move(fetch_bytes)), size(file_size) {}

  Decryptor::Fetch fetch;
  std::uint64_t size;
  // The header's bytes, fetched while the file is opened and unlocked (reads in order, on one thread).
  std::mutex mu;
  std::uint64_t fetched_begin = 0;
  std::vector<std::uint8_t> fetched;
  // Once unlocked, a read without a window is fetched as asked: the library sizes its requests itself
  // (docs/LIBRARY.md, "Object stores"), and the header's growing read-ahead would fetch more than it needs.
  bool opened = false;

  std::size_t read_at(std::uint64_t offset, std::span<std::uint8_t> out) {
    if (offset >= size) return 0;
    out = out.first(static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), size - offset)));
    if (active_window.file == this) {
      const Window& w = *active_window.window;
      if (offset < w.begin || offset - w.begin + out.size() > w.bytes.size())
        throw std::logic_error("a read outside the fetched records");
      std::memcpy(out.data(), w.bytes.data() + (offset - w.begin), out.size());
      return out.size();
    }
    std::unique_lock lock(mu);
    if (opened) {
      lock.unlock();
      return fetch(offset, out);
    }
    if (offset < fetched_begin || offset + out.size() > fetched_begin + fetched.size()) {
      // At least a probe's worth, and twice the last fetch: a large header takes a few requests, not many.
      const std::uint64_t want = std::max<std::uint64_t>({out.size(), kHeaderProbeBytes, 2 * fetched.size()});
      fetched.resize(static_cast<std::size_t>(std::min(want, size - std::min(size, offset))));
      fetched.resize(fetch(offset, fetched));
      fetched_begin = offset;
    }
    const std::size_t n = std::min<std::size_t>(out.size(), fetched_begin + fetched.size() - offset);
    std::memcpy(out.data(), fetched.data() + (offset - fetched_begin), n);
    return n;
  }
};

WorkerPool::WorkerPool(unsigned helpers) {
  for (unsigned i = 0; i < helpers; ++i) threads_.emplace_back([this, i] { serve(i); });
}

WorkerPool::~WorkerPool() {
  {
    const std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::run(const std::vector<std::function<void()>>& tasks) {
  {
    const std::lock_guard lock(mu_);
    tasks_ = &tasks;
    pending_ = static_cast<unsigned>(threads_.size());
    ++round_;
  }
  wake_.notify_all();
  if (!tasks.empty()) tasks[0]();
  std::unique_lock lock(mu_);
  done_.wait(lock, [this] { return pending_ == 0; });
  tasks_ = nullptr;
}

void WorkerPool::serve(unsigned index) {
  std::uint64_t seen = 0;
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || round_ != seen; });
    if (stop_) return;
    seen = round_;
    const std::vector<std::function<void()>>* tasks = tasks_;
    lock.unlock();
    if (index + 1 < tasks->size()) (*tasks)[index + 1]();  // tasks never throw (they catch)
    lock.lock();
    if (--pending_ == 0) done_.notify_all();
  }
}

namespace {

std::uint64_t regular_file_size(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw pcrypt::Error(PCRYPT_E_BAD_ARGUMENT, path + " is not a regular file",
                        "pcrypt.open reads by ranges; decrypt a stream with pcrypt.decrypt");
  return static_cast<std::uint64_t>(st.st_size);  // a missing file: Source::path says so
}

unsigned workers_for(unsigned threads) {
  if (threads != 0) return threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

Decryptor::Decryptor(const std::string& path, const CredentialArgs& credentials)
    : Decryptor(regular_file_size(path), nullptr, pcrypt::Source::path(path), credentials, path) {}

Decryptor::Decryptor(std::uint64_t size, Fetch fetch, const CredentialArgs& credentials)
    : Decryptor(size, std::make_shared<RemoteFile>(std::move(fetch), size), credentials) {}

Decryptor::Decryptor(std::uint64_t size, const std::shared_ptr<RemoteFile>& remote,
                     const CredentialArgs& credentials)
    : Decryptor(size, remote,
                pcrypt::Source::callback(size,
                                         [remote](std::uint64_t offset, std::span<std::uint8_t> out) {
                                           return remote->read_at(offset, out);
                                         }),
                credentials, "the file") {}

Decryptor::Decryptor(std::uint64_t size, std::shared_ptr<RemoteFile> remote, pcrypt::Source source,
                     const CredentialArgs& credentials, const std::string& name)
    : file_size_(size), remote_(std::move(remote)), file_(open_file(std::move(source), credentials)) {
  if (file_.describe().armored)
    throw pcrypt::Error(
        PCRYPT_E_NOT_SEEKABLE, "an armored age file cannot be read by ranges",
        "decrypt it whole with pcrypt.decrypt, or remove the armor (age -d | age -e without -a)");
  unlock(file_, credentials, name);
  plaintext_size_ = file_.plaintext_size();
  if (remote_) {  // the header's bytes are no longer needed
    const std::lock_guard lock(remote_->mu);
    remote_->fetched = {};
    remote_->opened = true;
  }
}

std::pair<std::uint64_t, std::uint64_t> Decryptor::covering(std::uint64_t offset,
                                                            std::uint64_t length) const {
  const std::uint64_t chunk = chunk_size();
  const std::uint64_t record = chunk + 16;  // every record carries a 16-byte tag, in every format
  const std::uint64_t end = std::min(plaintext_size_, offset + std::max<std::uint64_t>(length, 1));
  const std::uint64_t first = std::min(offset, plaintext_size_) / chunk;
  // The record holding the range's last byte (the final record, possibly empty, for a range at the end).
  const std::uint64_t last = end == 0 ? 0 : (end - 1) / chunk;
  // A range reaching the plaintext's end takes the rest of the file: where the final chunk is always short
  // (Cobblestone), a plaintext of whole chunks ends in an empty final record after the one holding its last
  // byte, and reading to the end authenticates it.
  if (end == plaintext_size_) return {header_bytes() + first * record, file_size_};
  return {header_bytes() + first * record, std::min(file_size_, header_bytes() + (last + 1) * record)};
}

std::size_t Decryptor::read_into(std::uint64_t offset, std::span<std::uint8_t> out, unsigned threads,
                                 const Window* window) {
  if (window != nullptr && !remote_) throw std::logic_error("a window for a local file");
  // Each thread reading for this call serves its reads from the caller's window.
  auto read = [&](std::uint64_t at, std::span<std::uint8_t> into) {
    const ActiveWindow before = active_window;
    active_window = window ? ActiveWindow{remote_.get(), window} : ActiveWindow{nullptr, nullptr};
    try {
      const std::size_t n = file_.read_at(at, into);
      active_window = before;
      return n;
    } catch (...) {
      active_window = before;
      throw;
    }
  };
  const std::uint64_t chunk = chunk_size();
  const unsigned workers = workers_for(threads);
  const std::uint64_t records = out.size() / chunk;
  std::unique_lock pool_lock(pool_mu_, std::try_to_lock);
  if (workers <= 1 || records < 2 || !pool_lock.owns_lock()) return read(offset, out);
  if (!pool_ || pool_->size() != workers) pool_ = std::make_unique<WorkerPool>(workers - 1);
  // Runs of whole records (the first run also takes the partial record before the first boundary), each
  // read by one thread; the first failure in file order is the one reported.
  const unsigned runs = static_cast<unsigned>(std::min<std::uint64_t>(workers, records));
  std::vector<std::uint64_t> cuts{0};
  const std::uint64_t aligned = (offset + chunk - 1) / chunk * chunk - offset;  // first boundary, from offset
  for (unsigned r = 1; r < runs; ++r)
    cuts.push_back(
        std::min<std::uint64_t>(out.size(), aligned + (out.size() - aligned) / runs * r / chunk * chunk));
  cuts.push_back(out.size());
  std::vector<std::size_t> written(runs, 0);
  std::vector<std::exception_ptr> errors(runs);
  std::vector<std::function<void()>> tasks;
  for (unsigned r = 0; r < runs; ++r)
    tasks.emplace_back([&, r] {
      try {
        if (cuts[r + 1] <= cuts[r]) return;
        written[r] = read(offset + cuts[r], out.subspan(cuts[r], cuts[r + 1] - cuts[r]));
      } catch (...) {
        errors[r] = std::current_exception();
      }
    });
  pool_->run(tasks);
  std::size_t total = 0;
  for (unsigned r = 0; r < runs; ++r) {
    if (errors[r]) std::rethrow_exception(errors[r]);
    total += written[r];
    if (written[r] < cuts[r + 1] - cuts[r]) break;  // the plaintext ended in this run
  }
  return total;
}

}  // namespace pcrypt::python
