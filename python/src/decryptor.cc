#include "python/src/decryptor.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <stdexcept>

#include "core/door/encrypted_file.h"
#include "core/error.h"
#include "core/pipeline.h"
#include "core/records.h"
#include "io/memory_stream.h"

namespace pcrypt::python {
namespace {

// The header in `prefix` unlocked through the door, and its payload's layout and cipher.
core::KeyedPayload unlock_payload(std::span<const std::uint8_t> prefix,
                                  const std::vector<core::Credential>& credentials,
                                  const core::door::UnlockLimits& limits) {
  io::MemoryReader in(prefix);
  core::door::EncryptedFile file(in);
  if (file.description().armored)
    throw core::Error(
        core::ErrorKind::usage, "an armored age file cannot be read by ranges",
        "decrypt it whole with pcrypt.decrypt, or remove the armor (age -d | age -e without -a)");
  file.unlock(credentials, limits);
  return file.take_payload();
}

}  // namespace

bool header_incomplete(std::span<const std::uint8_t> prefix) {
  return core::door::header_incomplete(prefix);
}

LocalFile::LocalFile(const std::string& path)
    : reader_(io::open_input(path)), access_(reader_->positional()) {
  if (access_ == nullptr)
    throw core::Error(core::ErrorKind::usage, path + " is not a regular file",
                      "pcrypt.open reads by ranges; decrypt a stream with pcrypt.decrypt");
}

std::size_t FileWindow::read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const {
  if (offset >= file_size_) return 0;
  n = static_cast<std::size_t>(std::min<std::uint64_t>(n, file_size_ - offset));
  if (offset < begin_ || offset - begin_ + n > window_.size())
    throw std::logic_error("FileWindow: a read outside the fetched records");
  std::memcpy(buf, window_.data() + (offset - begin_), n);
  return n;
}

Decryptor::Decryptor(std::span<const std::uint8_t> header_prefix,
                     const std::vector<core::Credential>& credentials, const core::door::UnlockLimits& limits)
    : payload_(unlock_payload(header_prefix, credentials, limits)) {}

std::uint64_t Decryptor::plaintext_size(std::uint64_t file_size) const {
  const core::PayloadLayout& layout = payload_.layout;
  const std::uint64_t payload = file_size > layout.payload_offset ? file_size - layout.payload_offset : 0;
  const std::optional<std::uint64_t> plaintext = layout.plaintext_bytes(payload);
  if (!plaintext)
    throw core::Error(
        core::ErrorKind::payload,
        "truncated payload: " + std::to_string(payload) +
            " payload bytes, a length no complete payload has (the final record is missing or cut)");
  return *plaintext;
}

std::pair<std::uint64_t, std::uint64_t> Decryptor::covering(std::uint64_t offset, std::uint64_t length,
                                                            std::uint64_t file_size) const {
  const core::PayloadLayout& layout = payload_.layout;
  const std::uint64_t plaintext = plaintext_size(file_size);
  const std::uint64_t end = std::min(plaintext, offset + std::max<std::uint64_t>(length, 1));
  const std::uint64_t first = std::min(offset, plaintext) / layout.chunk_size;
  // The record holding the range's last byte (the final record, possibly empty, for a range at the end).
  const std::uint64_t last = end == 0 ? 0 : (end - 1) / layout.chunk_size;
  return {layout.record_offset(first), std::min(file_size, layout.record_offset(last + 1))};
}

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

std::size_t Decryptor::read_into(const io::PositionalReader& file, std::uint64_t offset,
                                 std::span<std::uint8_t> out, unsigned threads) {
  const std::uint64_t chunk = chunk_size();
  const unsigned workers = core::pipeline_workers(threads);
  const std::uint64_t records = out.size() / chunk;
  std::unique_lock pool_lock(pool_mu_, std::try_to_lock);
  if (workers <= 1 || records < 2 || !pool_lock.owns_lock()) {
    const core::RangeResult result =
        core::decrypt_range_into(file, payload_, offset, out, core::RangeOptions{1, nullptr, nullptr});
    return static_cast<std::size_t>(result.bytes_written);
  }
  if (!pool_ || pool_->size() != workers) pool_ = std::make_unique<WorkerPool>(workers - 1);
  // Runs of whole records (the first run also takes the partial record before the first boundary), each
  // decrypted by one thread; the first failure in file order is the one reported.
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
        written[r] =
            static_cast<std::size_t>(core::decrypt_range_into(file, payload_, offset + cuts[r],
                                                              out.subspan(cuts[r], cuts[r + 1] - cuts[r]),
                                                              core::RangeOptions{1, nullptr, nullptr})
                                         .bytes_written);
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
