// The parallel payload pipeline.
//
// Design
// ------
// One reader thread, N worker threads and one writer (the calling thread) pass chunks along a ring of jobs:
//
//   reader --(job seq published)--> workers --(job seq done)--> writer --(buffer freed)--> reader
//
// The reader cuts the input into records (chunk_size plaintext bytes when sealing, chunk_size + 16 ciphertext
// bytes when opening), reading each one straight into a free buffer of the pool. Job number `seq` lives in
// ring slot `seq & mask`. Workers claim jobs in sequence order but finish them in any order; each seals or
// opens its chunk in place, holding no lock meanwhile, and marks the job done. The writer waits for job
// `written` to be done, writes it, returns its buffer to the pool and moves on to `written + 1`, so output
// order is input order no matter how many workers there are: -j1 and -jN produce the same bytes.
//
// Ownership of a buffer: free pool (nobody) -> reader, while it reads the record into it -> published job,
// owned by whichever worker claimed it -> done job, owned by the writer -> back to the pool only after the
// writer's write() returned. No stage ever touches a buffer it does not own, and chunk data is never copied
// except by read() and write() themselves.
//
// Why memory is bounded: all buffers (pipeline_buffers(workers) = 2 * workers + 3, each chunk_size + 16
// bytes) are allocated before the first read, and the reader blocks when the pool is empty. A buffer only
// comes back once its chunk has been written, so the reader is never more than that many chunks ahead of the
// writer, whatever the input size and however slow the output. The ring has a power-of-two number of slots,
// at least the number of buffers, so a slot is always free when the reader holds a buffer for the next job.
//
// The last chunk: the format seals the final chunk with last=true, and a final chunk that exactly fills its
// record must be flagged too. After a full record the reader peeks one byte of input: at end of input the
// record is the last one; otherwise the peeked byte becomes the first byte of the next record.
//
// Errors: every stage reports a failure as a value, an Error bound to the job sequence number where it
// happened (read failure at the job being read, authentication failure at the job that failed, write failure
// at the job being written). The failure with the lowest sequence number wins, since it is the first one in
// stream order; later ones are dropped. Once a failure is recorded at `fail_seq`, the reader publishes
// nothing at or after it, workers claim nothing at or after it, and the writer stops when it reaches it, so
// no chunk from the first failed one on is ever written: in the open direction only authenticated plaintext
// reaches the output. Every wait also wakes on a new failure, so no stage can block forever on one that has
// stopped. run_pipeline joins all threads before it throws. A read or write failure is thrown as
// core::StreamError, an Error of kind io that keeps the errno (core/pipeline_error.h); anything else as a
// plain Error.
//
// Only a read already in progress can delay the stop: a blocked read() on a pipe or terminal returns only
// when data or end of input arrives, and run_pipeline waits for it (it must join the reader before
// returning).
//
// Offsets in error messages are file offsets of the chunk's record: config.payload_offset (the header length)
// + index * (chunk_size + 16).
#include "core/pipeline.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/pipeline_error.h"
#include "core/pipeline_sizing.h"

namespace pcrypt::core {

unsigned pipeline_workers(unsigned threads) {
  if (threads != 0) return threads;
  // Online cores this process may run on: under taskset or a container's cpuset, more workers than that would
  // only add buffers and context switches.
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) > 0)
    return static_cast<unsigned>(CPU_COUNT(&allowed));
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<unsigned>(online) : 1;
}

std::size_t pipeline_buffers(unsigned workers) {
  return 2 * static_cast<std::size_t>(workers) + 3;
}

namespace {

constexpr std::uint64_t kNoFailure = UINT64_MAX;
constexpr std::size_t kBufferAlign = 64;

const char* const kAuthHint =
    "the file was corrupted or modified after encryption (bytes changed, chunks reordered, removed or "
    "appended)";

// pcrypt::io's own streams already say "<what> (<name>): <strerror>"; other Readers and Writers (tests, the
// bench) may give just the operation, so the name and errno text are added when missing.
StreamError io_error(const io::IoError& e, const std::string& stream_name) {
  std::string message = e.what();
  if (message.find("(" + stream_name + ")") == std::string::npos) {
    message += " (" + stream_name + ")";
    if (e.error_number() != 0)
      message += ": " + std::error_code(e.error_number(), std::generic_category()).message();
  }
  return StreamError(Error(ErrorKind::io, std::move(message)), e.error_number());
}

// Converts whatever a stage threw into the error the pipeline reports. Must be called inside a catch block.
// I/O failures keep their errno (see core/pipeline_error.h); everything else has errno 0.
StreamError current_error(const std::string& stream_name) {
  try {
    throw;
  } catch (const StreamError& e) {
    return e;
  } catch (const Error& e) {
    return StreamError(e, 0);
  } catch (const io::IoError& e) {
    return io_error(e, stream_name);
  } catch (const std::bad_alloc&) {
    return StreamError(Error(ErrorKind::io, "out of memory"), 0);
  } catch (const std::exception& e) {
    return StreamError(Error(ErrorKind::io, e.what()), 0);
  } catch (...) {
    return StreamError(Error(ErrorKind::io, "unknown failure in the pipeline"), 0);
  }
}

// A fixed pool of equally sized chunk buffers in one allocation, aligned for the engines' wide loads.
class BufferPool {
 public:
  BufferPool(std::size_t count, std::size_t bytes_each)
      : stride_((bytes_each + kBufferAlign - 1) / kBufferAlign * kBufferAlign),
        // new[] without value-initialisation: pages are only touched (and counted in RSS) once used.
        storage_(new std::uint8_t[stride_ * count + kBufferAlign]) {
    auto base = reinterpret_cast<std::uintptr_t>(storage_.get());
    base = (base + kBufferAlign - 1) / kBufferAlign * kBufferAlign;
    free_.reserve(count);
    for (std::size_t i = count; i-- > 0;)
      free_.push_back(reinterpret_cast<std::uint8_t*>(base + i * stride_));
  }
  bool empty() const { return free_.empty(); }
  std::uint8_t* take() {
    std::uint8_t* b = free_.back();
    free_.pop_back();
    return b;
  }
  void give_back(std::uint8_t* b) { free_.push_back(b); }  // never reallocates: capacity is the pool size

 private:
  std::size_t stride_;
  std::unique_ptr<std::uint8_t[]> storage_;
  std::vector<std::uint8_t*> free_;
};

struct Job {
  std::uint8_t* buf = nullptr;  // written by the reader before publishing; cleared by the writer
  std::size_t len = 0;          // record bytes read (reader); then bytes to write (worker)
  std::size_t plaintext = 0;    // plaintext bytes in this chunk (worker)
  bool last = false;            // reader: no input follows this record
  bool done = false;            // set by a worker under the mutex, cleared by the writer under the mutex
};

class Pipeline {
 public:
  Pipeline(Direction direction, const ChunkCipher& cipher, io::Reader& in, io::Writer& out,
           const PipelineConfig& config)
      : direction_(direction),
        cipher_(cipher),
        in_(in),
        out_(out),
        config_(config),
        record_bytes_(direction == Direction::seal ? config.chunk_size : config.chunk_size + kChunkTagBytes),
        workers_(pipeline_workers(config.threads)),
        pool_(pipeline_buffers(workers_), config.chunk_size + kChunkTagBytes),
        jobs_(std::bit_ceil(pipeline_buffers(workers_))),
        mask_(jobs_.size() - 1) {}

  PipelineStats run() {
    std::vector<std::thread> threads;
    try {
      threads.reserve(workers_ + 1);
      threads.emplace_back([this] { read_loop(); });
      for (unsigned i = 0; i < workers_; ++i) threads.emplace_back([this] { work_loop(); });
    } catch (...) {
      std::lock_guard lock(mu_);
      const std::string why = current_error("").what();
      fail_locked(0, StreamError(Error(ErrorKind::io, "cannot start the pipeline threads: " + why), 0));
    }
    write_loop();
    for (std::thread& t : threads) t.join();
    if (error_ && error_->error_number() != 0) throw *error_;
    if (error_) throw static_cast<const Error&>(*error_);  // deliberately sliced: no errno to carry
    return stats_;
  }

 private:
  // --- reader thread -------------------------------------------------------------------------------------
  void read_loop() {
    bool have_peeked = false;
    std::uint8_t peeked = 0;
    for (std::uint64_t seq = 0;; ++seq) {
      std::uint8_t* buf;
      {
        std::unique_lock lock(mu_);
        buffer_freed_.wait(lock, [&] { return !pool_.empty() || seq >= fail_seq_; });
        if (seq >= fail_seq_) return;
        buf = pool_.take();
      }
      std::size_t filled = 0;
      bool last = false;
      try {
        if (have_peeked) buf[filled++] = peeked;
        filled += in_.read(buf + filled, record_bytes_ - filled);
        have_peeked = filled == record_bytes_ && in_.read(&peeked, 1) == 1;
        last = !have_peeked;
      } catch (...) {
        std::lock_guard lock(mu_);
        pool_.give_back(buf);
        fail_locked(seq, current_error(in_.name()));
        return;
      }
      {
        std::lock_guard lock(mu_);
        jobs_[seq & mask_] = Job{.buf = buf, .len = filled, .last = last};
        published_ = seq + 1;
        input_ended_ = last;
      }
      if (last) {
        job_published_.notify_all();  // idle workers can now exit
        job_done_.notify_one();
        return;
      }
      job_published_.notify_one();
    }
  }

  // --- worker threads ------------------------------------------------------------------------------------
  void work_loop() {
    for (;;) {
      std::uint64_t seq;
      Job* job;
      {
        std::unique_lock lock(mu_);
        job_published_.wait(lock,
                            [&] { return claimed_ < published_ || input_ended_ || claimed_ >= fail_seq_; });
        if (claimed_ >= fail_seq_ || claimed_ == published_) return;
        seq = claimed_++;
        job = &jobs_[seq & mask_];
      }
      std::optional<Error> failure;
      try {
        failure = process(seq, *job);
      } catch (...) {
        failure = current_error("");
      }
      bool wake_writer;
      {
        std::lock_guard lock(mu_);
        if (failure) {
          fail_locked(seq, StreamError(std::move(*failure), 0));
          continue;  // fail_locked woke everyone
        }
        job->done = true;
        wake_writer = seq == written_;
      }
      if (wake_writer) job_done_.notify_one();
    }
  }

  // Seals or opens one chunk in place; returns the reason if the chunk must not be written.
  std::optional<Error> process(std::uint64_t seq, Job& job) const {
    if (direction_ == Direction::seal) {
      cipher_.seal(seq, job.last, job.buf, job.len);
      job.plaintext = job.len;
      job.len += kChunkTagBytes;
      return std::nullopt;
    }
    if (auto bad = check_record_size(seq, job)) return bad;
    const std::size_t plaintext = job.len - kChunkTagBytes;
    if (job.last && job.len == record_bytes_) {
      if (auto bad = open_full_final_record(seq, job)) return bad;
    } else if (!cipher_.open(seq, job.last, job.buf, plaintext)) {
      return auth_failure(seq);
    }
    job.plaintext = plaintext;
    job.len = plaintext;
    return std::nullopt;
  }

  std::optional<Error> check_record_size(std::uint64_t seq, const Job& job) const {
    if (!job.last) return std::nullopt;  // the reader only publishes full records before the last one
    if (job.len == 0)  // only possible for chunk 0: later records start with the peeked byte
      return Error(ErrorKind::payload,
                   "truncated payload: the payload is empty (even an empty file has a chunk)");
    if (job.len < kChunkTagBytes)
      return Error(ErrorKind::payload, "truncated payload: the final record " + where(seq) + " is " +
                                           std::to_string(job.len) + " bytes, shorter than its 16-byte tag");
    if (job.len == kChunkTagBytes && seq > 0)
      return Error(ErrorKind::payload, "truncated payload: the final record " + where(seq) +
                                           " holds a tag but no data (only chunk 0 may be empty)");
    return std::nullopt;
  }

  // A full-size record at end of input is either the final chunk, exactly filled, or proof that the input was
  // cut at a chunk boundary. Telling the two apart needs a second try, and a failed open zeroes the buffer,
  // so keep a copy. This happens at most once per run, so the copy costs nothing measurable.
  std::optional<Error> open_full_final_record(std::uint64_t seq, Job& job) const {
    const std::size_t plaintext = job.len - kChunkTagBytes;
    std::vector<std::uint8_t> copy(job.buf, job.buf + job.len);
    if (cipher_.open(seq, true, job.buf, plaintext)) return std::nullopt;
    if (cipher_.open(seq, false, copy.data(), plaintext)) {
      std::fill(copy.begin(), copy.end(),
                0);  // authentic plaintext, but never released: the file is incomplete
      return Error(ErrorKind::payload,
                   "truncated payload: input ends after chunk " + std::to_string(seq) +
                       ", at a chunk boundary; " + "the final chunk is missing",
                   "the file was cut short (an interrupted copy or download?)");
    }
    return auth_failure(seq);
  }

  std::string where(std::uint64_t seq) const {
    return "(chunk " + std::to_string(seq) + " at offset " +
           std::to_string(config_.payload_offset + seq * (config_.chunk_size + kChunkTagBytes)) + ")";
  }

  Error auth_failure(std::uint64_t seq) const {
    return Error(ErrorKind::payload, "payload authentication failed " + where(seq), kAuthHint);
  }

  // --- writer (the calling thread) -----------------------------------------------------------------------
  void write_loop() {
    std::unique_lock lock(mu_);
    for (;;) {
      job_done_.wait(lock, [&] {
        return written_ >= fail_seq_ || jobs_[written_ & mask_].done ||
               (input_ended_ && written_ == published_);
      });
      if (written_ >= fail_seq_ || !jobs_[written_ & mask_].done) return;
      Job& job = jobs_[written_ & mask_];
      lock.unlock();
      try {
        out_.write(job.buf, job.len);
        stats_.plaintext_bytes += job.plaintext;
        stats_.ciphertext_bytes += direction_ == Direction::seal ? job.len : job.len + kChunkTagBytes;
        stats_.chunks += 1;
        if (config_.progress) config_.progress(stats_.plaintext_bytes);
      } catch (...) {
        StreamError e = current_error(out_.name());
        lock.lock();
        fail_locked(written_, std::move(e));
        return;
      }
      lock.lock();
      job.done = false;
      pool_.give_back(job.buf);
      job.buf = nullptr;
      ++written_;
      buffer_freed_.notify_one();
    }
  }

  // Records a failure at job `seq` unless an earlier one is already recorded, and wakes every stage so that
  // it can see it. Caller holds mu_.
  void fail_locked(std::uint64_t seq, StreamError e) {
    if (seq < fail_seq_) {
      fail_seq_ = seq;
      error_.emplace(std::move(e));
    }
    buffer_freed_.notify_all();
    job_published_.notify_all();
    job_done_.notify_all();
  }

  // Set at construction, read-only afterwards.
  const Direction direction_;
  const ChunkCipher& cipher_;
  io::Reader& in_;   // used by the reader thread only
  io::Writer& out_;  // used by the writer only
  const PipelineConfig& config_;
  const std::size_t record_bytes_;
  const unsigned workers_;

  std::mutex mu_;                          // guards everything below except where noted
  std::condition_variable buffer_freed_;   // reader waits: pool non-empty or failure
  std::condition_variable job_published_;  // workers wait: a job to claim, end of input or failure
  std::condition_variable job_done_;       // writer waits: job `written_` done, end of input or failure

  BufferPool pool_;        // reader takes, writer gives back
  std::vector<Job> jobs_;  // slot seq & mask_: reader fills, a worker processes, writer drains (see Job)
  const std::uint64_t mask_;
  std::uint64_t published_ = 0;  // written by the reader; read by workers and writer
  bool input_ended_ = false;     // written by the reader once it published the last job
  std::uint64_t claimed_ = 0;    // written and read by workers: next job to claim
  std::uint64_t written_ = 0;    // written by the writer; read by workers (to decide whom to wake)
  std::uint64_t fail_seq_ =
      kNoFailure;                     // lowest failed job; written by any stage via fail_locked, read by all
  std::optional<StreamError> error_;  // the failure at fail_seq_
  PipelineStats stats_;               // writer only, no lock; read by run() after the joins
};

}  // namespace

PipelineStats run_pipeline(Direction direction, const ChunkCipher& cipher, io::Reader& in, io::Writer& out,
                           const PipelineConfig& config) {
  if (config.chunk_size == 0) throw Error(ErrorKind::usage, "chunk size must be at least 1 byte");
  const std::size_t buffers = pipeline_buffers(pipeline_workers(config.threads));
  if (config.chunk_size > (SIZE_MAX / 2 - kBufferAlign) / buffers - kChunkTagBytes)
    throw Error(ErrorKind::usage, "chunk size too large for " + std::to_string(buffers) + " chunk buffers");
  std::optional<Pipeline> pipeline;
  try {
    pipeline.emplace(direction, cipher, in, out, config);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::io,
                "out of memory for " + std::to_string(buffers) + " chunk buffers of " +
                    std::to_string(config.chunk_size + kChunkTagBytes) + " bytes",
                "use fewer threads (-j)");
  }
  return pipeline->run();
}

}  // namespace pcrypt::core
