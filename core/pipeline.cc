// The parallel pipeline.
//
// Design
// ------
// One reader thread, N workers and one writer (the calling thread) pass items along a ring of jobs:
//
//   reader --(job seq published)--> workers --(job seq done)--> writer --(buffer freed)--> reader
//
// With N >= 2, or an output the workers write positionally (below), the writer is also the N-th worker (N - 1
// threads are started for the others): between writes, with nothing to write yet, it claims and processes the
// next job itself. A separate writer made N + 1 busy threads on N cores, and its wake-up for every item took
// a core from a worker in the middle of one.
//
// The unit of work: the codec works on records (for the payload: chunk_size plaintext bytes when sealing,
// chunk_size + 16 ciphertext bytes when opening), but the pipeline reads, hands on and writes items of G
// consecutive records, G = max(1, PipelineConfig::item_bytes / buffer_bytes()): item `seq` holds records
// seq * G .. seq * G + G - 1, and only the input's final item may hold fewer (its final record may be short).
// Every read, write, hand-off and wake-up costs the same whatever its size, and on a VM a system call or a
// futex wake-up is dear: with 64 KiB records (age) and one record per job, those costs were paid 16 times
// per MiB. With 1 MiB items they are paid once per MiB, whatever the format's chunk size; pcrypt's default
// 1 MiB chunks make G = 1, as before. The codec still sees each record alone, under its own index, with the
// last flag only on the input's final record, so grouping changes no output byte and no error message (which
// names the record's index and offset); see process_item() for how the records of an item share its buffer.
//
// The reader cuts the input into items of G * input_record_bytes(), reading each one straight into a free
// buffer of the pool. Job number `seq` lives in ring slot `seq & mask`. Workers claim jobs in sequence order
// but finish them in any order; each has the codec process the item's records in place, in record order
// (seal or open chunks seq * G + j, see core/records.h), holding no lock meanwhile, and marks the job
// done. The writer waits for job `written` to be done, writes it, returns its buffer to the pool and moves on
// to `written + 1`, so output order is input order no matter how many workers there are: -j1 and -jN produce
// the same bytes. The pipeline knows nothing of the format: record sizes, order, the last flag and the
// codec's verdict are all it uses. Below, "record" means the pipeline's item where it is about I/O and jobs.
//
// That is the sequential path, the one for pipes and terminals, which can only be read and written in order.
// A regular file can do better, and the pipeline takes what each side offers (io::Reader::positional(),
// io::Writer::positional(), io/stream.h), independently:
//
//  - Positional input (a regular file whose size is its content): there is no reader thread. The size at the
//    start fixes every record's offset and length and which record is last, and the whole plan counts as
//    published. A worker claims the next job, takes a buffer and preads its own record into it, so the copy
//    out of the page cache (about as costly per GiB as GCM itself) runs on every core instead of one. The
//    file may change while it is read: a record that comes back short means it shrank, and after the last
//    record the worker reads one byte more, which must not exist, or it grew. Either is an Error(io) at that
//    record ("input changed size while being read"), so the output is never a silent mix of two versions of
//    the file, and pread, unlike a mapping, cannot raise SIGBUS on a truncated file. Bytes changed in place
//    without a change of size cannot be told from the original, on any path.
//  - Positional output (only the atomic temporary file, which nobody sees before commit): every record but
//    the last writes exactly the codec's output_record_bytes() (checked record by record), so item `seq`
//    goes to base + seq * G * that. The worker that processed it pwrites it there at once, in whatever order
//    items finish, and returns its buffer to the pool. The writer still takes the items in order, but only to
//    count them: the stats and the progress callback cover the prefix of items written, so progress only
//    moves forward.
//
// With both, each worker reads, processes and writes its own records and the calling thread keeps count
// (and, with N >= 2, works too); with neither, it is the design above. Both paths give the same bytes: the
// record plan is the same (the sequential reader's peek finds the last record where the size says it is) and
// so are the offsets. Afterwards both streams are left where sequential reading and writing would have left
// them.
//
// Ownership of a buffer: free pool (nobody) -> reader (or, reading positionally, the claiming worker) while
// the record is read into it -> published job, owned by whichever worker claimed it -> done job, owned by the
// writer -> back to the pool only after the writer's write() returned (writing positionally: after the
// worker's own pwrite returned). No stage ever touches a buffer it does not own, and record data is never
// copied except by the reads and writes themselves.
//
// Why memory is bounded: all buffers (pipeline_buffers(workers) = 2 * workers + 3, each G times the codec's
// buffer_bytes(), G * (chunk_size + 16) for the payload, about 1 MiB) are allocated before the first read,
// and nobody reads a record without a free buffer. A job may also start only fewer than that many jobs after
// the oldest one the writer has not taken yet (job `written`): sequentially the pool alone ensures that,
// since every buffer is held until its record is written, but workers that write for themselves return
// buffers out of order, and one slow record must not let the others run arbitrarily far ahead. So the input
// read is never more than the pool's worth of records ahead of the output, whatever the input size and
// however slow the output. The ring has a power-of-two number of slots, at least the number of buffers, so a
// job's slot is always free.
//
// The last record: the format seals the final chunk with last=true, and a final chunk that exactly fills its
// record must be flagged too. Sequentially, after a full record the reader peeks one byte of input: at end of
// input the record is the last one; otherwise the peeked byte becomes the first byte of the next record.
// Positionally, the size says it (and the check above confirms it). The codec gets the flag with the record.
//
// Errors: every stage reports a failure as a value, an Error bound to the record where the output must stop
// (read failure at the record being read, the codec's error (e.g. authentication failure) at the record that
// failed, write failure at the first record of the item being written). The failure at the lowest record
// wins, since it is the first one in stream order; later ones are dropped. A failure inside an item (a read
// or the codec failing at one of its records but the first) leaves the records before it read and accepted,
// and one record per job would have written them: the job is still done with just those, written like any
// other, and the run stops right after them. So a failed write of an item ranks before anything inside it,
// and a read failure after a bad record of the same item ranks after it. (To tie a read failure to its
// record, the sequential reader reads each record with its own read() call, and a failed pread of an item is
// retried record by record.) Once a failure is recorded, `fail_seq` is the first job with nothing to write
// (the failing one, or the next if it keeps records): the reader publishes nothing at or after it, workers
// claim nothing at or after it, and the writer stops when it reaches it. Sequentially, no record from the
// first failed one on is ever written. A record is only ever written after the codec accepted it, on either
// path: in the open direction only authenticated plaintext reaches the output, ever. Writing positionally,
// records after the first failed one that were already in flight may still be written at their offsets (and
// records before it are all completed), but that output is the temporary file, which a failed run never
// commits: the caller does not call commit() after an error, the AtomicFileWriter's destructor removes it,
// and the user never sees a byte of it. Every wait also wakes on a new failure, so no stage can block forever
// on one that has stopped. run_pipeline joins all threads before it throws. A read or write failure is thrown
// as core::StreamError, an Error of kind io that keeps the errno (core/pipeline_error.h); anything else as a
// plain Error.
//
// Only a read already in progress can delay the stop: a blocked read() on a pipe or terminal returns only
// when data or end of input arrives, and run_pipeline waits for it (it must join the reader before
// returning).
//
// The wording of payload errors, with the chunk index and the record's file offset, is the codec's
// (core/records.cc).
#include "core/pipeline.h"

#include <sched.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <span>
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
  // Online cores this process may run on: under taskset or a container's cpuset, more workers than that
  // would only add buffers and context switches.
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
// Items of up to this many records are read straight into their records' slots (one iovec each).
constexpr std::size_t kMaxScatteredRecords = 64;

// pcrypt::io's own streams already say "<what> (<name>): <strerror>"; other Readers and Writers (tests, the
// bench) may give just the operation, so the name and errno text are added when missing.
StreamError io_error(const io::IoError& e, const std::string& stream_name) {
  std::string message = e.what();
  if (message.find("(" + stream_name + ")") == std::string::npos) {
    message += " (" + stream_name + ")";
    if (e.error_number() != 0)
      message += ": " + std::error_code(e.error_number(), std::generic_category()).message();
  }
  return StreamError(Error(code_of_io_failure(e.error_number()), std::move(message), {},
                           ErrorFields().errno_value(e.error_number())),
                     e.error_number());
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
    return StreamError(Error(PCRYPT_E_OUT_OF_MEMORY, "out of memory"), 0);
  } catch (const std::exception& e) {
    return StreamError(Error(PCRYPT_E_INTERNAL, e.what()), 0);
  } catch (...) {
    return StreamError(Error(PCRYPT_E_INTERNAL, "unknown failure in the pipeline"), 0);
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

// One item: a group of consecutive records (see "The unit of work" above).
struct Job {
  std::uint8_t* buf = nullptr;  // written by whoever fills it (reader, or worker when reading positionally)
  std::size_t len = 0;          // item bytes read; then bytes to write (worker)
  std::size_t plaintext = 0;    // the codec's counts for the item's records, for the stats (worker)
  std::size_t ciphertext = 0;   // (worker)
  std::uint64_t records = 0;    // records the codec accepted, for the stats (worker)
  bool last = false;            // no input follows this item (its final record is the input's)
  bool spread = false;          // the read put each record in its own slot already (read_item_at)
  // The records' outputs stay in their slots, out_len[j] bytes at j * stride, for one gathered write by the
  // writer (process_item); otherwise they lie back to back at the start of buf.
  bool gathered = false;
  bool done = false;  // set by a worker under the mutex, cleared by the writer under the mutex
  std::size_t out_len[kMaxScatteredRecords] = {};  // when gathered: output bytes of each accepted record
};

class Pipeline {
 public:
  Pipeline(const RecordCodec& codec, io::Reader& in, io::Writer& out, const PipelineConfig& config)
      : codec_(codec),
        in_(in),
        out_(out),
        config_(config),
        record_in_(codec.input_record_bytes()),
        record_out_(codec.output_record_bytes()),
        stride_(codec.buffer_bytes()),
        group_(pipeline_records_per_item(stride_, config.item_bytes)),
        item_in_(group_ * record_in_),
        workers_(pipeline_workers(config.threads)),
        buffers_(pipeline_buffers(workers_)),
        pool_(buffers_, group_ * stride_),
        jobs_(std::bit_ceil(buffers_)),
        mask_(jobs_.size() - 1) {}

  PipelineStats run() {
    try {
      start_positional_access();
    } catch (...) {
      std::lock_guard lock(mu_);
      fail_locked(0, current_error(in_.name()));
    }
    // A positional output is written by the workers, so a writer that works never delays a write.
    writer_works_ = workers_ >= 2 || positional_out_ != nullptr;
    std::vector<std::thread> threads;
    if (fail_seq_ == kNoFailure) {
      try {
        threads.reserve(workers_);
        if (positional_in_ == nullptr) threads.emplace_back([this] { read_loop(); });
        // With two workers or more, or with a positional output, the calling thread is the last worker
        // (write_loop): -j1 from file to file starts no worker thread.
        for (unsigned i = writer_works_ ? 1 : 0; i < workers_; ++i)
          threads.emplace_back([this] { work_loop(); });
      } catch (...) {
        std::lock_guard lock(mu_);
        const std::string why = current_error("").what();
        fail_locked(0,
                    StreamError(Error(PCRYPT_E_RESOURCES, "cannot start the pipeline threads: " + why), 0));
      }
      write_loop();
    }
    for (std::thread& t : threads) t.join();
    if (!error_) finish_positional_access();
    if (error_ && error_->error_number() != 0) throw *error_;
    if (error_) throw static_cast<const Error&>(*error_);  // deliberately sliced: no errno to carry
    return stats_;
  }

 private:
  // --- positional access (regular files) -----------------------------------------------------------------
  // Takes the input's and output's random access if they offer it. Reading positionally, every record's
  // offset and length, and which one is last, follow from the size now; there is no reader thread and the
  // whole input counts as published.
  void start_positional_access() {
    positional_out_ = out_.positional();
    if (positional_out_ != nullptr) out_base_ = positional_out_->position();
    positional_in_ = in_.positional();
    if (positional_in_ == nullptr) return;
    in_base_ = positional_in_->position();
    in_size_ = positional_in_->size();
    if (in_size_ < in_base_) {  // shorter than what was already read (the header)
      in_size_ = in_base_;
      throw changed_size_error(false);
    }
    const std::uint64_t total = in_size_ - in_base_;
    published_ = total == 0 ? 1 : (total - 1) / item_in_ + 1;
    last_len_ = static_cast<std::size_t>(total - (published_ - 1) * item_in_);
    input_ended_ = true;
  }

  // Leaves both streams positioned after what went through, as sequential reads and writes would have.
  void finish_positional_access() {
    try {
      if (positional_in_ != nullptr) positional_in_->seek(in_size_);
      if (positional_out_ != nullptr) positional_out_->seek(out_base_ + out_bytes_);
    } catch (...) {
      error_.emplace(current_error(out_.name()));
    }
  }

  // The codec says which kind: a payload that shrank or grew is a file cut short or extended (payload), as
  // it is when it is read in order; plaintext that changed is an io error.
  StreamError changed_size_error(bool grew) const {
    const std::string what = "input changed size while being read (" + in_.name() + "): it was " +
                             std::to_string(in_size_) + " bytes when reading started, and " +
                             (grew ? "grew" : "shrank");
    if (codec_.changed_input_kind() == ErrorKind::payload)
      return StreamError(Error(grew ? PCRYPT_E_DAMAGED_RECORD : PCRYPT_E_TRUNCATED,
                               (grew ? "extended payload: " : "truncated payload: ") + what,
                               "the file was cut short or changed while it was read (an interrupted copy or "
                               "download, another program writing it?)"),
                         0);
    return StreamError(
        Error(PCRYPT_E_INPUT_CHANGED, what,
              "another program is writing to the file; encrypt or decrypt a copy that nothing changes"),
        0);
  }

  // A failure that stops the run at the item's record `first + whole`: the `whole` records before it were
  // read (or accepted) and still count, as they would with one record per job.
  struct ItemFailure {
    StreamError error;
    std::size_t whole = 0;
  };

  // Reads the job's item with pread-like access (the worker's own copy, on its own core), and checks that
  // the input still has the size the record plan was made for: an item short of its length means the file
  // shrank, a byte after the last one means it grew. Either is an error at the record where it shows, never
  // a partial or silently different output. A read that throws is retried record by record, only to find
  // the record it belongs to.
  //
  // When the records grow in their buffer slots (sealing: each gains its tag), the read puts each record
  // straight into its slot (io::PositionalReader::read_at_scattered, one preadv for the item), so that
  // process_item() has nothing to spread out: without it, every byte sealed was moved once more in memory.
  std::optional<ItemFailure> read_item_at(std::uint64_t seq, Job& job) const {
    const std::uint64_t offset = in_base_ + seq * item_in_;
    const std::size_t records = records_in(job.len);
    // Where input byte `at` of the item goes in the buffer.
    const auto place = [&](std::size_t at) {
      return job.spread ? job.buf + at / record_in_ * stride_ + at % record_in_ : job.buf + at;
    };
    job.spread = stride_ != record_in_ && records > 1 && records <= kMaxScatteredRecords;
    std::size_t got = 0;
    try {
      if (job.spread) {
        ::iovec pieces[kMaxScatteredRecords];
        for (std::size_t j = 0; j < records; ++j)
          pieces[j] = {.iov_base = job.buf + j * stride_,
                       .iov_len = j + 1 == records ? job.len - j * record_in_ : record_in_};
        got = positional_in_->read_at_scattered(offset, std::span<const ::iovec>(pieces, records));
      } else {
        got = positional_in_->read_at(offset, job.buf, job.len);
      }
    } catch (...) {
      for (got = 0; got < job.len;) {
        const std::size_t want = std::min(record_in_, job.len - got);
        std::size_t n;
        try {
          n = positional_in_->read_at(offset + got, place(got), want);
        } catch (...) {
          return ItemFailure{current_error(in_.name()), got / record_in_};
        }
        got += n;
        if (n != want) break;
      }
    }
    if (got != job.len) return ItemFailure{changed_size_error(false), got / record_in_};
    try {
      std::uint8_t beyond;
      if (job.last && positional_in_->read_at(offset + job.len, &beyond, 1) != 0)
        return ItemFailure{changed_size_error(true), records_in(job.len) - 1};
    } catch (...) {
      return ItemFailure{current_error(in_.name()), records_in(job.len) - 1};
    }
    return std::nullopt;
  }

  // Records in an item of `len` input bytes: every item is whole records but the input's final one, whose
  // final record holds 1..record_in_ bytes (0 for an empty input): the record plan of one record per item.
  std::size_t records_in(std::size_t len) const { return len == 0 ? 1 : (len - 1) / record_in_ + 1; }

  // Writes a processed item (or the accepted prefix of a failed one) at its own offset, in whatever order
  // items finish. process_item() already checked that every full record came out output_record_bytes()
  // long, so item `seq` starts at seq * group_ of them.
  std::optional<StreamError> write_item_at(std::uint64_t seq, const Job& job) const {
    try {
      positional_out_->write_at(out_base_ + seq * group_ * record_out_, job.buf, job.len);
    } catch (...) {
      return current_error(out_.name());
    }
    return std::nullopt;
  }

  // A gathered job's accepted outputs as pieces to write, each record's joined to the one before it where
  // they touch (sealing: full-stride records make a single piece).
  std::span<const ::iovec> pieces_of(const Job& job, ::iovec (&pieces)[kMaxScatteredRecords]) const {
    std::size_t count = 0;
    for (std::size_t j = 0; j < job.records; ++j) {
      std::uint8_t* const start = job.buf + j * stride_;
      if (count > 0 &&
          static_cast<std::uint8_t*>(pieces[count - 1].iov_base) + pieces[count - 1].iov_len == start)
        pieces[count - 1].iov_len += job.out_len[j];
      else
        pieces[count++] = {.iov_base = start, .iov_len = job.out_len[j]};
    }
    return {pieces, count};
  }

  // --- reader thread (sequential input only) -------------------------------------------------------------
  void read_loop() {
    bool have_peeked = false;
    std::uint8_t peeked = 0;
    for (std::uint64_t seq = 0;; ++seq) {
      std::uint8_t* buf;
      {
        std::unique_lock lock(mu_);
        room_.wait(lock, [&] { return has_room_locked(seq) || seq >= fail_seq_; });
        if (seq >= fail_seq_) return;
        buf = pool_.take();
      }
      // Record by record (a pipe gives at most its capacity per read(2) anyway), so that a read that fails
      // belongs to a record: the item's records before it are still published, and the run fails at it.
      std::size_t filled = 0;
      bool last = false;
      try {
        if (have_peeked) buf[filled++] = peeked;
        for (std::size_t end = record_in_; end <= item_in_; end += record_in_) {
          filled += in_.read(buf + filled, end - filled);
          if (filled < end) break;  // end of input
        }
        have_peeked = filled == item_in_ && in_.read(&peeked, 1) == 1;
        last = !have_peeked;
      } catch (...) {
        StreamError e = current_error(in_.name());
        // A failed peek leaves the item's final record unpublished, as with one record per item.
        const std::size_t whole = std::min(filled / record_in_, group_ - 1);
        std::lock_guard lock(mu_);
        if (whole == 0) {
          pool_.give_back(buf);
        } else {
          jobs_[seq & mask_] = Job{.buf = buf, .len = whole * record_in_, .last = false};
          published_ = seq + 1;
        }
        fail_locked(seq * group_ + whole, std::move(e));
        return;
      }
      bool writer_waiting;
      {
        std::lock_guard lock(mu_);
        jobs_[seq & mask_] = Job{.buf = buf, .len = filled, .last = last};
        published_ = seq + 1;
        input_ended_ = last;
        writer_waiting = writer_works_ && writer_waiting_;
      }
      if (last) {
        job_published_.notify_all();  // idle workers can now exit
        job_done_.notify_one();
        return;
      }
      job_published_.notify_one();
      if (writer_waiting) job_done_.notify_one();  // it works too (write_loop)
    }
  }

  // --- workers (the threads started for them, and the calling thread between writes) --------------------
  void work_loop() {
    std::unique_lock lock(mu_);
    for (;;) {
      job_published_.wait(
          lock, [&] { return claimed_ >= fail_seq_ || all_claimed_locked() || claimable_locked(); });
      if (claimed_ >= fail_seq_ || all_claimed_locked()) return;
      work_on_next_locked(lock);
    }
  }

  // Is there a job the caller of work_on_next_locked() may claim now? Caller holds mu_.
  bool may_claim_locked() const {
    return claimed_ < fail_seq_ && !all_claimed_locked() && claimable_locked();
  }

  // Claims the next job (may_claim_locked() must hold), then reads (positionally), processes and
  // (positionally) writes it without the lock, and marks it done under the lock again; `lock` holds mu_ on
  // entry and on return.
  void work_on_next_locked(std::unique_lock<std::mutex>& lock) {
    const std::uint64_t seq = claimed_++;
    Job* const job = &jobs_[seq & mask_];
    if (positional_in_ != nullptr) {
      *job = Job{.buf = pool_.take(),
                 .len = seq + 1 == published_ ? last_len_ : item_in_,
                 .last = seq + 1 == published_};
      if (all_claimed_locked()) job_published_.notify_all();  // idle workers can now exit
    }
    lock.unlock();
    // The job is this worker's alone until it is marked done: reading, the codec and a positional write
    // all work on the buffer without a lock. A failure at one of the item's records (a read or the codec)
    // leaves the records before it, accepted and in job->buf[0..len): the job is still done with them,
    // written like any other, and the run stops right after them (see fail_locked).
    std::optional<ItemFailure> failure;
    if (positional_in_ != nullptr) {
      failure = read_item_at(seq, *job);
      if (failure && failure->whole > 0) {  // the records before the one that could not be read
        job->len = failure->whole * record_in_;
        job->last = false;
      }
    }
    if (!failure || failure->whole > 0) {
      // The codec's failure, if any, is at or before the read's: it is the one that counts.
      if (std::optional<StreamError> bad = process_item(seq, *job))
        failure = ItemFailure{std::move(*bad), job->records};
    }
    const bool keeps_prefix = failure && failure->whole > 0;
    // Only records the codec accepted are written: when opening, only authenticated plaintext.
    if ((!failure || keeps_prefix) && positional_out_ != nullptr) {
      if (std::optional<StreamError> bad_write = write_item_at(seq, *job))
        failure = ItemFailure{std::move(*bad_write), 0};  // before any record of the item, in stream order
    }
    lock.lock();
    if (positional_out_ != nullptr || (failure && failure->whole == 0 && positional_in_ != nullptr)) {
      pool_.give_back(job->buf);  // written already, or never to be: the buffer is free
      job->buf = nullptr;
      room_freed_locked();
    }
    if (failure) {
      if (failure->whole > 0) job->done = true;  // the writer takes the prefix, then stops
      fail_locked(seq * group_ + failure->whole, std::move(failure->error));  // wakes everyone
      return;
    }
    job->done = true;
    if (seq == written_ && writer_waiting_) job_done_.notify_one();
  }

  // Has the codec process item `seq`'s records, each in its own stride_-byte slot of the buffer (a record
  // may grow in place up to buffer_bytes(), e.g. by its tag), and leaves what they wrote ready to write:
  // job.len bytes, with the counts in job. The sequential reader left the records back to back, so they are
  // first spread out to their slots, from the last one down so that none overwrites one not yet moved (a
  // positional read put them there already: job.spread). For a sequential output (a pipe, /dev/null), the
  // outputs stay in their slots when the item has at most kMaxScatteredRecords records (job.gathered, each
  // one's length in job.out_len) and the writer gathers them (writev), so opening a payload, whose records
  // shrink by their tag, copies no plaintext in memory. Otherwise they are packed from the first record up,
  // each moving down: a positional write is the worker's own, and two workers pwriting one file queue on its
  // lock in the kernel, where a pwritev of the slots measured slower (an age decrypt to a tmpfs file, -j2:
  // 1.17x the packed pwrite's time, docs/BENCHMARKS.md) than packing outside the lock. Sealing writes
  // full-stride records, which lie back to back already. Returns the first failure; the records before it
  // stay accepted (job.records of them), nothing of it or after it is kept.
  std::optional<StreamError> process_item(std::uint64_t seq, Job& job) const {
    std::uint8_t* const buf = job.buf;
    const std::size_t len = job.len;
    const std::size_t records = records_in(len);
    const std::size_t final_len = len - (records - 1) * record_in_;
    if (stride_ != record_in_ && !job.spread)
      for (std::size_t j = records; j-- > 1;)
        std::memmove(buf + j * stride_, buf + j * record_in_, j + 1 == records ? final_len : record_in_);
    job.len = job.plaintext = job.ciphertext = 0;
    job.records = 0;
    job.gathered = positional_out_ == nullptr && records > 1 && records <= kMaxScatteredRecords;
    for (std::size_t j = 0; j < records; ++j) {
      const bool last = job.last && j + 1 == records;
      std::uint8_t* const record = buf + j * stride_;
      RecordOutcome outcome;
      try {
        outcome = codec_.process(seq * group_ + j, last, record, last ? final_len : record_in_);
      } catch (...) {
        return current_error("");
      }
      if (outcome.error) return StreamError(std::move(*outcome.error), 0);
      if (outcome.write_bytes > stride_ ||
          (positional_out_ != nullptr && !last && outcome.write_bytes != record_out_))
        // Writing positionally, the offsets of later records depend on it; sequentially a codec may vary
        // (but a record larger than its buffer already broke the contract).
        return StreamError(
            Error(PCRYPT_E_INTERNAL, "RecordCodec wrote " + std::to_string(outcome.write_bytes) +
                                         " bytes for a full record, not " + std::to_string(record_out_)),
            0);
      if (job.gathered)
        job.out_len[j] = outcome.write_bytes;
      else if (record != buf + job.len)
        std::memmove(buf + job.len, record, outcome.write_bytes);
      job.len += outcome.write_bytes;
      job.plaintext += outcome.plaintext_bytes;
      job.ciphertext += outcome.ciphertext_bytes;
      job.records += 1;
    }
    return std::nullopt;
  }

  // --- writer (the calling thread) -----------------------------------------------------------------------
  // Takes the records in order: writes each one (unless a worker already wrote it at its offset), counts it
  // in the stats and reports progress, so that both only ever move forward, over a prefix of the output.
  // With two workers or more, it is one of them between writes: with nothing to write yet, it claims and
  // processes the next job itself, and sleeps only when there is neither. So -jN runs N threads that compute
  // (N - 1 started ones and this one), not N + 1 on N cores, where the writer's wake-up for every item took a
  // core from a worker in the middle of its item. With one worker and a sequential output (a pipe), the
  // writer only writes: a worker of its own keeps computing while a slow output blocks the write. With one
  // worker and a positional output, which the worker writes itself, the writer is that worker: nothing is
  // handed over.
  void write_loop() {
    std::unique_lock lock(mu_);
    for (;;) {
      if (written_ >= fail_seq_) return;
      if (!jobs_[written_ & mask_].done) {
        if (input_ended_ && written_ == published_) return;
        if (writer_works_ && may_claim_locked()) {
          work_on_next_locked(lock);
          continue;
        }
        writer_waiting_ = true;
        job_done_.wait(lock, [&] {
          return written_ >= fail_seq_ || jobs_[written_ & mask_].done ||
                 (input_ended_ && written_ == published_) || (writer_works_ && may_claim_locked());
        });
        writer_waiting_ = false;
        continue;
      }
      Job& job = jobs_[written_ & mask_];
      lock.unlock();
      try {
        if (positional_out_ == nullptr) {
          if (job.gathered) {
            ::iovec pieces[kMaxScatteredRecords];
            out_.write_gathered(pieces_of(job, pieces));
          } else {
            out_.write(job.buf, job.len);
          }
        }
        out_bytes_ += job.len;
        stats_.plaintext_bytes += job.plaintext;
        stats_.ciphertext_bytes += job.ciphertext;
        stats_.chunks += job.records;
        if (config_.progress) config_.progress(stats_.plaintext_bytes);
      } catch (...) {
        StreamError e = current_error(out_.name());
        lock.lock();
        fail_locked(written_ * group_, std::move(e));
        return;
      }
      lock.lock();
      job.done = false;
      if (job.buf != nullptr) pool_.give_back(job.buf);
      job.buf = nullptr;
      ++written_;
      room_freed_locked();
    }
  }

  // --- shared state helpers (caller holds mu_) -----------------------------------------------------------
  // May job `seq` take a buffer? The pool must have one, and the job must be fewer than buffers_ ahead of
  // the oldest unwritten one: when workers write positionally they return buffers out of order, and this
  // keeps the jobs in flight within the ring and the input read ahead within the pool's reach all the same.
  bool has_room_locked(std::uint64_t seq) const { return !pool_.empty() && seq < written_ + buffers_; }

  bool claimable_locked() const {
    return claimed_ < published_ && (positional_in_ == nullptr || has_room_locked(claimed_));
  }
  bool all_claimed_locked() const { return input_ended_ && claimed_ == published_; }

  // A buffer or a place in the ring came free: the reader, or the workers when they read for themselves,
  // may go on.
  void room_freed_locked() {
    if (positional_in_ != nullptr) {
      job_published_.notify_all();
      if (writer_works_ && writer_waiting_) job_done_.notify_one();  // it works too (write_loop)
    } else {
      room_.notify_one();
    }
  }

  // Records a failure at record `record` (the output stops before it) unless an earlier one is already
  // recorded, and wakes every stage so that it can see it. Failures are ranked by record, not by job: one
  // at the middle of item k comes after a failed write of item k's prefix, which is at its first record,
  // and before anything at a later record of item k (a read failure after a bad record) or a later item. A
  // failure in the middle of an item leaves that job done with the records before it (whoever failed made
  // it so), so fail_seq_, the first job not to publish, claim or write, is the next one. Caller holds mu_.
  void fail_locked(std::uint64_t record, StreamError e) {
    if (record < fail_record_) {
      fail_record_ = record;
      fail_seq_ = record / group_ + (record % group_ != 0 ? 1 : 0);
      error_.emplace(std::move(e));
    }
    room_.notify_all();
    job_published_.notify_all();
    job_done_.notify_all();
  }

  // Set at construction, read-only afterwards.
  const RecordCodec& codec_;
  io::Reader& in_;   // read() by the reader thread only
  io::Writer& out_;  // write() by the writer only
  const PipelineConfig& config_;
  const std::size_t record_in_;   // the codec's input_record_bytes()
  const std::size_t record_out_;  // the codec's output_record_bytes()
  const std::size_t stride_;      // the codec's buffer_bytes(): one record's slot in an item's buffer
  const std::size_t group_;       // records per item
  const std::size_t item_in_;     // input bytes of every item but the last
  const unsigned workers_;
  bool writer_works_ = false;  // the calling thread is one of the workers (write_loop); set by run()
  const std::size_t buffers_;

  // Set by run() before any thread starts, read-only afterwards. read_at() and write_at() are called by
  // workers concurrently.
  io::PositionalReader* positional_in_ = nullptr;   // workers read their own records (no reader thread)
  io::PositionalWriter* positional_out_ = nullptr;  // workers write their own records at their offsets
  std::uint64_t in_base_ = 0;                       // input offset of record 0
  std::uint64_t in_size_ = 0;                       // input size when reading started
  std::size_t last_len_ = 0;                        // length of the last record
  std::uint64_t out_base_ = 0;                      // output offset of record 0's output

  std::mutex mu_;                          // guards everything below except where noted
  std::condition_variable room_;           // reader waits: a buffer and a ring place free, or failure
  std::condition_variable job_published_;  // workers wait: a job to claim, end of input or failure
  std::condition_variable job_done_;       // writer waits: job `written_` done, end of input or failure

  BufferPool pool_;        // reader (or claiming worker) takes; writer (or writing worker) gives back
  std::vector<Job> jobs_;  // slot seq & mask_: filled, processed, drained (see Job)
  const std::uint64_t mask_;
  std::uint64_t published_ = 0;  // written by the reader (or run(), all at once); read by workers and writer
  bool input_ended_ = false;     // written by the reader once it published the last job
  std::uint64_t claimed_ = 0;    // written and read by workers: next job to claim
  std::uint64_t written_ = 0;    // written by the writer; read by the others (room, whom to wake)
  bool writer_waiting_ = false;  // the writer sleeps on job_done_ (it is woken for a job to claim too)
  std::uint64_t fail_seq_ =
      kNoFailure;  // first job not to publish, claim or write; via fail_locked, read by all
  std::uint64_t fail_record_ = kNoFailure;  // record of the first failure (see fail_locked); via fail_locked
  std::optional<StreamError> error_;        // the failure at fail_record_
  std::uint64_t out_bytes_ = 0;             // writer only, no lock: output bytes of the records taken so far
  PipelineStats stats_;                     // writer only, no lock; read by run() after the joins
};

}  // namespace

std::size_t pipeline_records_per_item(std::size_t buffer_bytes, std::size_t item_bytes) {
  return std::max<std::size_t>(1, buffer_bytes == 0 ? 1 : item_bytes / buffer_bytes);
}

PipelineStats run_pipeline(const RecordCodec& codec, io::Reader& in, io::Writer& out,
                           const PipelineConfig& config) {
  const std::size_t buffers = pipeline_buffers(pipeline_workers(config.threads));
  if (codec.input_record_bytes() == 0 || codec.buffer_bytes() < codec.input_record_bytes())
    throw std::logic_error("RecordCodec: records must be at least 1 byte and fit the buffers");
  // A group of several records is at most item_bytes; a single record may be anything.
  if (codec.buffer_bytes() > (SIZE_MAX / 2 - kBufferAlign) / buffers)
    throw Error(PCRYPT_E_BAD_ARGUMENT,
                "chunk size too large for " + std::to_string(buffers) + " chunk buffers");
  std::optional<Pipeline> pipeline;
  try {
    pipeline.emplace(codec, in, out, config);
  } catch (const std::bad_alloc&) {
    throw Error(PCRYPT_E_OUT_OF_MEMORY,
                "out of memory for " + std::to_string(buffers) + " chunk buffers of " +
                    std::to_string(codec.buffer_bytes() *
                                   pipeline_records_per_item(codec.buffer_bytes(), config.item_bytes)) +
                    " bytes",
                "use fewer threads");
  }
  return pipeline->run();
}

}  // namespace pcrypt::core
