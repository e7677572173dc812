// The parallel pipeline.
//
// Design
// ------
// One reader thread, N worker threads and one writer (the calling thread) pass records along a ring of jobs:
//
//   reader --(job seq published)--> workers --(job seq done)--> writer --(buffer freed)--> reader
//
// The reader cuts the input into records of the codec's input_record_bytes() (for the payload: chunk_size
// plaintext bytes when sealing, chunk_size + 16 ciphertext bytes when opening), reading each one straight
// into a free buffer of the pool. Job number `seq` lives in ring slot `seq & mask`. Workers claim jobs in
// sequence order but finish them in any order; each has the codec process its record in place (seal or open
// chunk `seq`, see core/payload.h), holding no lock meanwhile, and marks the job done. The writer waits for
// job `written` to be done, writes it, returns its buffer to the pool and moves on to `written + 1`, so
// output order is input order no matter how many workers there are: -j1 and -jN produce the same bytes. The
// pipeline knows nothing of the format: record sizes, order, the last flag and the codec's verdict are all it
// uses.
//
// Ownership of a buffer: free pool (nobody) -> reader, while it reads the record into it -> published job,
// owned by whichever worker claimed it -> done job, owned by the writer -> back to the pool only after the
// writer's write() returned. No stage ever touches a buffer it does not own, and record data is never copied
// except by read() and write() themselves.
//
// Why memory is bounded: all buffers (pipeline_buffers(workers) = 2 * workers + 3, each the codec's
// buffer_bytes(), chunk_size + 16 for the payload) are allocated before the first read, and the reader blocks
// when the pool is empty. A buffer only comes back once its record has been written, so the reader is never
// more than that many records ahead of the writer, whatever the input size and however slow the output. The
// ring has a power-of-two number of slots, at least the number of buffers, so a slot is always free when the
// reader holds a buffer for the next job.
//
// The last record: the format seals the final chunk with last=true, and a final chunk that exactly fills its
// record must be flagged too. After a full record the reader peeks one byte of input: at end of input the
// record is the last one; otherwise the peeked byte becomes the first byte of the next record. The codec gets
// the flag with the record.
//
// Errors: every stage reports a failure as a value, an Error bound to the job sequence number where it
// happened (read failure at the job being read, the codec's error (e.g. authentication failure) at the job
// that failed, write failure at the job being written). The failure with the lowest sequence number wins,
// since it is the first one in stream order; later ones are dropped. Once a failure is recorded at
// `fail_seq`, the reader publishes nothing at or after it, workers claim nothing at or after it, and the
// writer stops when it reaches it, so no record from the first failed one on is ever written: in the open
// direction only authenticated plaintext reaches the output. Every wait also wakes on a new failure, so no
// stage can block forever on one that has stopped. run_pipeline joins all threads before it throws. A read or
// write failure is thrown as core::StreamError, an Error of kind io that keeps the errno
// (core/pipeline_error.h); anything else as a plain Error.
//
// Only a read already in progress can delay the stop: a blocked read() on a pipe or terminal returns only
// when data or end of input arrives, and run_pipeline waits for it (it must join the reader before
// returning).
//
// The wording of payload errors, with the chunk index and the record's file offset, is the codec's
// (core/payload.cc).
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
#include <stdexcept>
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
  std::size_t plaintext = 0;    // the codec's counts for this record, for the stats (worker)
  std::size_t ciphertext = 0;   // (worker)
  bool last = false;            // reader: no input follows this record
  bool done = false;            // set by a worker under the mutex, cleared by the writer under the mutex
};

class Pipeline {
 public:
  Pipeline(const RecordCodec& codec, io::Reader& in, io::Writer& out, const PipelineConfig& config)
      : codec_(codec),
        in_(in),
        out_(out),
        config_(config),
        record_bytes_(codec.input_record_bytes()),
        workers_(pipeline_workers(config.threads)),
        pool_(pipeline_buffers(workers_), codec.buffer_bytes()),
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
      // The job is this worker's alone until it is marked done: the codec works on the buffer without a lock.
      RecordOutcome outcome;
      try {
        outcome = codec_.process(seq, job->last, job->buf, job->len);
      } catch (...) {
        outcome.error = current_error("");
      }
      bool wake_writer;
      {
        std::lock_guard lock(mu_);
        if (outcome.error) {
          fail_locked(seq, StreamError(std::move(*outcome.error), 0));
          continue;  // fail_locked woke everyone
        }
        job->len = outcome.write_bytes;
        job->plaintext = outcome.plaintext_bytes;
        job->ciphertext = outcome.ciphertext_bytes;
        job->done = true;
        wake_writer = seq == written_;
      }
      if (wake_writer) job_done_.notify_one();
    }
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
        stats_.ciphertext_bytes += job.ciphertext;
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
  const RecordCodec& codec_;
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

PipelineStats run_pipeline(const RecordCodec& codec, io::Reader& in, io::Writer& out,
                           const PipelineConfig& config) {
  const std::size_t buffers = pipeline_buffers(pipeline_workers(config.threads));
  if (codec.input_record_bytes() == 0 || codec.buffer_bytes() < codec.input_record_bytes())
    throw std::logic_error("RecordCodec: records must be at least 1 byte and fit the buffers");
  if (codec.buffer_bytes() > (SIZE_MAX / 2 - kBufferAlign) / buffers)
    throw Error(ErrorKind::usage, "chunk size too large for " + std::to_string(buffers) + " chunk buffers");
  std::optional<Pipeline> pipeline;
  try {
    pipeline.emplace(codec, in, out, config);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::io,
                "out of memory for " + std::to_string(buffers) + " chunk buffers of " +
                    std::to_string(codec.buffer_bytes()) + " bytes",
                "use fewer threads (-j)");
  }
  return pipeline->run();
}

}  // namespace pcrypt::core
