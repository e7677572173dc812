// Range reads (core/range.h). The pipeline (core/pipeline.h) does the work, as for a whole file; three small
// adapters aim it at part of the payload:
//  - the input is cut down to the records the range needs: a FileSlice of a seekable file (which the
//    pipeline's workers pread in parallel), or a PayloadWindow that stops reading a stream after them;
//  - RangeCodec opens each record under its index in the whole payload, with the last flag only for the
//    file's final record (the slice or window may end earlier);
//  - RangeWriter drops the plaintext before the range's offset and after its end.
// Records before the range in a stream are not opened: RangeCodec passes zeros for them, which RangeWriter
// drops with the rest of what precedes the offset.
#include "core/range.h"
#include "core/counted.h"

#include <sys/uio.h>
#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/byte_size.h"
#include "core/error.h"
#include "core/pipeline.h"
#include "core/records.h"

namespace pcrypt::core {
namespace {

// decrypt_range_into's batches: adjacent records read in one scattered read, at most this many (two pieces
// each, within IOV_MAX) and about this many bytes (one record, if a record is larger).
constexpr std::size_t kMaxBatchRecords = 480;
constexpr std::size_t kMaxBatchBytes = std::size_t{16} << 20;

// Bytes [begin, end) of a seekable file as an input of their own. When the slice reaches the end of the file,
// reads past `end` go through, so the pipeline's check that the file did not grow sees the real file.
class FileSlice final : public io::Reader, public io::PositionalReader {
 public:
  FileSlice(const io::PositionalReader& file, std::uint64_t begin, std::uint64_t end, bool to_file_end)
      : file_(file), begin_(begin), size_(end - begin), to_file_end_(to_file_end) {}

  std::size_t read(std::uint8_t* buf, std::size_t n) override {
    const std::size_t got = read_at(pos_, buf, n);
    pos_ += got;
    return got;
  }
  std::string name() const override { return "input"; }
  io::PositionalReader* positional() override { return this; }

  std::uint64_t size() const override { return size_; }
  std::size_t read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const override {
    if (!to_file_end_) {
      if (offset >= size_) return 0;
      n = static_cast<std::size_t>(std::min<std::uint64_t>(n, size_ - offset));
    }
    return file_.read_at(begin_ + offset, buf, n);
  }
  // One scattered read of the file (one preadv, one request of a callback source) when the pieces lie
  // within the slice, as the pipeline's items of several records do.
  std::size_t read_at_scattered(std::uint64_t offset, std::span<const ::iovec> pieces) const override {
    std::uint64_t total = 0;
    for (const ::iovec& piece : pieces) total += piece.iov_len;
    if (!to_file_end_ && (offset >= size_ || total > size_ - offset))
      return PositionalReader::read_at_scattered(offset, pieces);
    return file_.read_at_scattered(begin_ + offset, pieces);
  }
  std::uint64_t position() const override { return pos_; }
  void seek(std::uint64_t offset) override { pos_ = offset; }

 private:
  const io::PositionalReader& file_;
  std::uint64_t begin_;
  std::uint64_t size_;
  bool to_file_end_;
  std::uint64_t pos_ = 0;
};

// The first `limit` bytes of a stream (all of it without a limit). At the limit it reads one byte more to
// learn whether the stream goes on, so that the record ending there can be opened with the right last flag;
// that happens within the read() that reaches the limit, in the pipeline's reader thread before it publishes
// the record, so a worker that asks continues() about the window's last record sees the answer. (Not on a
// later read: the pipeline reads items of several records, and a read that stops short at the limit, in the
// middle of an item, is its end of input; it asks for nothing more.)
class PayloadWindow final : public io::Reader {
 public:
  PayloadWindow(io::Reader& in, std::optional<std::uint64_t> limit) : in_(in), limit_(limit) {}

  std::size_t read(std::uint8_t* buf, std::size_t n) override {
    if (limit_) {
      const std::uint64_t left = *limit_ - consumed_;
      if (left == 0) {
        if (n > 0) peek();  // a limit of 0; any other was peeked at by the read that reached it
        return 0;
      }
      n = static_cast<std::size_t>(std::min<std::uint64_t>(n, left));
    }
    const std::size_t got = in_.read(buf, n);
    consumed_ += got;
    if (limit_ && consumed_ == *limit_) peek();
    return got;
  }
  std::string name() const override { return in_.name(); }
  const bool& continues() const { return continues_; }

 private:
  void peek() {
    if (peeked_) return;
    std::uint8_t byte;
    continues_ = in_.read(&byte, 1) == 1;
    peeked_ = true;
  }

  io::Reader& in_;
  std::optional<std::uint64_t> limit_;
  std::uint64_t consumed_ = 0;
  bool peeked_ = false;
  bool continues_ = false;
};

// Opens record `seq` of the slice or window as record `first + seq` of the payload. Its `last` is the
// pipeline's (the end of the slice or window); the payload's last flag is that unless the file continues.
// Records below `open_from` (only in a stream) are skipped unopened, except the file's final record, whose
// size and last flag are checked all the same.
class RangeCodec final : public RecordCodec {
 public:
  RangeCodec(const ChunkCipher& cipher, PayloadLayout layout, std::uint64_t first, std::uint64_t open_from,
             const bool& file_continues)
      : records_(cipher, layout), first_(first), open_from_(open_from), file_continues_(file_continues) {}

  std::size_t input_record_bytes() const override { return records_.layout().record_bytes(); }
  std::size_t output_record_bytes() const override { return records_.layout().chunk_size; }
  std::size_t buffer_bytes() const override { return records_.layout().record_bytes(); }

  RecordOutcome process(std::uint64_t seq, bool last, std::uint8_t* buf, std::size_t len) const override {
    const std::uint64_t index = first_ + seq;
    const bool final_record = last && !file_continues_;
    const std::size_t chunk = records_.layout().chunk_size;
    if (index < open_from_ && !final_record) {
      if (len != records_.layout().record_bytes()) throw std::logic_error("RangeCodec: short skipped record");
      std::memset(buf, 0, chunk);  // never authenticated, so never passed on, not even to be dropped
      return {.write_bytes = chunk, .plaintext_bytes = chunk, .ciphertext_bytes = len, .error = std::nullopt};
    }
    return outcome_of(records_.open_record(index, final_record, buf, len), len);
  }
  ErrorKind changed_input_kind() const override { return ErrorKind::payload; }

 private:
  PayloadRecords records_;
  std::uint64_t first_;
  std::uint64_t open_from_;
  const bool& file_continues_;
};

// Passes on bytes [skip, skip + take) of what is written to it (from skip on without a take).
class RangeWriter final : public io::Writer {
 public:
  RangeWriter(io::Writer& out, std::uint64_t skip, std::optional<std::uint64_t> take)
      : out_(out), skip_(skip), take_(take) {}

  void write(const std::uint8_t* buf, std::size_t n) override {
    const std::size_t dropped = static_cast<std::size_t>(std::min<std::uint64_t>(n, skip_));
    skip_ -= dropped;
    buf += dropped;
    n -= dropped;
    if (take_) {
      n = static_cast<std::size_t>(std::min<std::uint64_t>(n, *take_));
      *take_ -= n;
    }
    if (n == 0) return;
    out_.write(buf, n);
    written_ += n;
  }
  void commit() override {}
  std::string name() const override { return out_.name(); }
  std::uint64_t written() const { return written_; }

 private:
  io::Writer& out_;
  std::uint64_t skip_;
  std::optional<std::uint64_t> take_;
  std::uint64_t written_ = 0;
};

Error past_the_end(std::uint64_t offset, std::uint64_t plaintext_bytes) {
  return Error(
      PCRYPT_E_PAST_THE_END,
      "offset " + std::to_string(offset) + " is past the end of the plaintext (" +
          counted(plaintext_bytes, "byte") +
          (plaintext_bytes >= 1024 ? ", " + format_bytes(plaintext_bytes) : std::string()) + ")",
      "the offset may be at most the plaintext size",
      ErrorFields().set(PCRYPT_FIELD_OFFSET, offset).set(PCRYPT_FIELD_PLAINTEXT_SIZE, plaintext_bytes));
}

PipelineConfig pipeline_config(const RangeOptions& options) {
  return PipelineConfig{options.threads, options.progress};
}

// Which records a range of a seekable file needs (decrypt_range's and decrypt_range_into's one reading of
// the rules): the payload's record count from the file size, the range clipped to the plaintext, and the
// first and last record holding it.
struct RangePlan {
  PayloadLayout layout;
  std::uint64_t file_bytes = 0;
  std::uint64_t records = 0;
  std::uint64_t end = 0;    // the range's end, clipped to the plaintext
  std::uint64_t first = 0;  // records [first, last]
  std::uint64_t last = 0;
  bool nothing_to_read = false;  // empty, and not at the end: nothing to check
  bool has_final() const { return last == records - 1; }
};

RangePlan plan_range(const io::PositionalReader& file, const PayloadLayout& layout, const ByteRange& range,
                     RangeResult& result) {
  RangePlan plan;
  plan.layout = layout;
  const std::uint64_t chunk = plan.layout.chunk_size;
  plan.file_bytes = file.size();
  const std::uint64_t payload_bytes =
      plan.file_bytes > plan.layout.payload_offset ? plan.file_bytes - plan.layout.payload_offset : 0;
  const std::optional<std::uint64_t> records = plan.layout.record_count(payload_bytes);
  if (!records)
    throw Error(PCRYPT_E_TRUNCATED,
                "truncated payload: " + std::to_string(payload_bytes) +
                    " payload bytes, a length no complete payload has (the final record is missing or cut)",
                "the file was cut short (an interrupted copy or download?)");
  plan.records = *records;
  result.plaintext_bytes = payload_bytes - *records * kChunkTagBytes;
  const std::uint64_t size = result.plaintext_bytes;
  if (range.offset > size) throw past_the_end(range.offset, size);
  plan.end = range.offset + std::min(range.length.value_or(size), size - range.offset);
  plan.nothing_to_read = plan.end == range.offset && plan.end < size;
  // The records holding [offset, end); a range that reaches the end includes the final record, even when it
  // holds none of the range's bytes (an empty range at the end), so that its last flag is checked.
  plan.last = plan.end == size ? *records - 1 : (plan.end - 1) / chunk;
  plan.first = std::min(range.offset / chunk, plan.last);
  return plan;
}

}  // namespace

RangeResult decrypt_range(const io::PositionalReader& file, const KeyedPayload& payload,
                          const ByteRange& range, io::Writer& out, const RangeOptions& options) {
  RangeResult result;
  const RangePlan plan = plan_range(file, payload.layout, range, result);
  if (plan.nothing_to_read) return result;
  // When the final record is among them, the slice runs to the end of the file, whose size the pipeline
  // checks.
  const PayloadLayout& layout = plan.layout;
  FileSlice slice(file, layout.record_offset(plan.first),
                  plan.has_final() ? plan.file_bytes : layout.record_offset(plan.last + 1), plan.has_final());
  const bool file_continues = !plan.has_final();  // RangeCodec keeps a reference to it
  const RangeCodec codec(payload.cipher, layout, plan.first, plan.first, file_continues);
  RangeWriter writer(out, range.offset - plan.first * layout.chunk_size, plan.end - range.offset);
  const PipelineStats stats = run_pipeline(codec, slice, writer, pipeline_config(options));
  result.records_opened = stats.chunks;
  result.bytes_written = writer.written();
  return result;
}

RangeResult decrypt_range_into(const io::PositionalReader& file, const KeyedPayload& payload,
                               std::uint64_t offset, std::span<std::uint8_t> out,
                               const RangeOptions& options) {
  RangeResult result;
  const RangePlan plan = plan_range(file, payload.layout, ByteRange{offset, out.size()}, result);
  if (plan.nothing_to_read) return result;
  const PayloadLayout& layout = plan.layout;
  const std::uint64_t chunk = layout.chunk_size;
  const PayloadRecords records(payload.cipher, layout);

  // Opens records [begin, end) in order and puts what the range wants of each into `out`; returns the first
  // error instead of throwing, so that the runs of several threads can be compared by record order.
  //
  // Adjacent records are read together, a batch of them in one scattered read (one preadv, one request of a
  // read-at callback source: an object store is asked once for a long range, not once per record). A record
  // wholly inside the range lands in place: its ciphertext at its plaintext's place in `out`, its tag beside,
  // and it is opened there, the tag put back after the ciphertext for the moment it takes (over the start
  // of the next record's place, whose bytes are kept aside meanwhile). The run's last record (the next place
  // may be another thread's), one at an edge of the range and the final record go through scratch records,
  // kept per thread between calls.
  auto open_run = [&](std::uint64_t begin, std::uint64_t run_end) -> std::optional<Error> {
    thread_local std::vector<std::uint8_t> scratch;
    thread_local std::vector<std::uint8_t> tags;
    thread_local std::vector<::iovec> pieces;
    struct Record {
      std::uint64_t index;
      std::size_t want;   // its bytes in the file
      std::uint8_t* buf;  // where its ciphertext lands: in `out`, or a scratch record
      bool in_place;
    };
    std::vector<Record> batch;
    const std::size_t record_bytes = layout.record_bytes();
    const std::size_t max_records =
        std::max<std::size_t>(1, std::min<std::size_t>(kMaxBatchRecords, kMaxBatchBytes / record_bytes));
    for (std::uint64_t first = begin; first < run_end;) {
      const std::uint64_t end = std::min<std::uint64_t>(run_end, first + max_records);
      batch.clear();
      std::size_t scratch_records = 0;
      for (std::uint64_t index = first; index < end; ++index) {
        const bool final_record = index == plan.records - 1;
        const std::uint64_t plain_at = index * chunk;
        const bool in_place = !final_record && index + 1 < run_end && plain_at >= offset &&
                              plain_at - offset + record_bytes <= out.size();
        const std::size_t want = final_record
                                     ? static_cast<std::size_t>(plan.file_bytes - layout.record_offset(index))
                                     : record_bytes;
        batch.push_back(Record{index, want, in_place ? out.data() + (plain_at - offset) : nullptr, in_place});
        scratch_records += in_place ? 0 : 1;
      }
      if (scratch.size() < scratch_records * (record_bytes + 1))
        scratch.resize(scratch_records * (record_bytes + 1));
      if (tags.size() < batch.size() * kChunkTagBytes) tags.resize(batch.size() * kChunkTagBytes);
      pieces.clear();
      std::size_t expected = 0, next_scratch = 0;
      for (std::size_t k = 0; k < batch.size(); ++k) {
        Record& r = batch[k];
        expected += r.want;
        if (r.in_place) {
          pieces.push_back(::iovec{r.buf, chunk});
          pieces.push_back(::iovec{tags.data() + k * kChunkTagBytes, kChunkTagBytes});
        } else {
          r.buf = scratch.data() + next_scratch++ * (record_bytes + 1);
          // The final record is read one byte further: a file that grew since its size was taken is not
          // opened as if it ended there.
          const bool final_record = r.index == plan.records - 1;
          pieces.push_back(::iovec{r.buf, r.want + (final_record ? 1 : 0)});
        }
      }
      const std::size_t got = file.read_at_scattered(layout.record_offset(first), pieces);
      if (got != expected) {
        // The record where the bytes came out wrong: the first one not wholly read, or the final one (the
        // file grew).
        std::uint64_t index = batch.back().index;
        for (std::size_t k = 0, through = 0; k < batch.size(); ++k)
          if ((through += batch[k].want) > got) {
            index = batch[k].index;
            break;
          }
        // A payload read in ranges that came out shorter is a file cut short, one that came out longer a
        // file extended, as when it is read in order (core/pipeline.cc: payload codes, not an io error).
        return Error(got < expected ? PCRYPT_E_TRUNCATED : PCRYPT_E_DAMAGED_RECORD,
                     "the file changed size while it was read (chunk " + std::to_string(index) +
                         " at offset " + std::to_string(layout.record_offset(index)) + ")",
                     {}, ErrorFields().record(index, layout.record_offset(index)));
      }
      for (std::size_t k = 0; k < batch.size(); ++k) {
        const Record& r = batch[k];
        const bool final_record = r.index == plan.records - 1;
        const std::uint64_t plain_at = r.index * chunk;
        if (r.in_place) {
          std::uint8_t* tag_place = r.buf + chunk;  // inside `out`: the next record's first bytes
          std::array<std::uint8_t, kChunkTagBytes> next_bytes;
          std::memcpy(next_bytes.data(), tag_place, kChunkTagBytes);
          std::memcpy(tag_place, tags.data() + k * kChunkTagBytes, kChunkTagBytes);
          const OpenedRecord opened = records.open_record(r.index, false, r.buf, r.want);
          std::memcpy(tag_place, next_bytes.data(), kChunkTagBytes);
          if (opened.error) return opened.error;
          continue;
        }
        const OpenedRecord opened = records.open_record(r.index, final_record, r.buf, r.want);
        if (opened.error) return opened.error;
        const std::uint64_t from = std::max(offset, plain_at);
        const std::uint64_t to = std::min(plan.end, plain_at + opened.plaintext_bytes);
        if (to > from)
          std::memcpy(out.data() + (from - offset), r.buf + (from - plain_at),
                      static_cast<std::size_t>(to - from));
      }
      first = end;
    }
    return std::nullopt;
  };

  const std::uint64_t count = plan.last - plan.first + 1;
  const std::uint64_t workers = std::min<std::uint64_t>(pipeline_workers(options.threads), count);
  std::vector<std::optional<Error>> errors(workers);
  std::vector<std::exception_ptr> failures(workers);
  auto run = [&](std::uint64_t w) {
    try {
      errors[w] = open_run(plan.first + count * w / workers, plan.first + count * (w + 1) / workers);
    } catch (...) {
      failures[w] = std::current_exception();
    }
  };
  std::vector<std::thread> helpers;
  for (std::uint64_t w = 1; w < workers; ++w) helpers.emplace_back(run, w);
  run(0);
  for (std::thread& t : helpers) t.join();
  for (std::uint64_t w = 0; w < workers; ++w) {
    if (failures[w]) std::rethrow_exception(failures[w]);
    if (errors[w]) throw *errors[w];
  }
  result.records_opened = count;
  result.bytes_written = plan.end - offset;
  return result;
}

AuthenticatedSize authenticated_size(const io::PositionalReader& file, const KeyedPayload& payload) {
  RangeResult sized;
  const RangePlan plan = plan_range(file, payload.layout, ByteRange{0, 0}, sized);
  RangeOptions one_thread;
  one_thread.threads = 1;
  // An empty range at the end: only the final record is read (one byte further, to see the file did not
  // grow) and opened.
  const RangeResult end = decrypt_range_into(file, payload, sized.plaintext_bytes, {}, one_thread);
  if (end.plaintext_bytes != sized.plaintext_bytes)
    throw Error(end.plaintext_bytes < sized.plaintext_bytes ? PCRYPT_E_TRUNCATED : PCRYPT_E_DAMAGED_RECORD,
                "the file changed size while its final chunk was read (" + counted(plan.file_bytes, "byte") +
                    " before)");
  return AuthenticatedSize{plan.file_bytes, sized.plaintext_bytes};
}

RangeResult decrypt_range_stream(io::Reader& in, const KeyedPayload& payload, const ByteRange& range,
                                 io::Writer& out, const RangeOptions& options) {
  const PayloadLayout& layout = payload.layout;
  const std::uint64_t chunk = layout.chunk_size;
  const std::uint64_t first = range.offset / chunk;
  // Read up to the record holding the range's last byte (the one holding the offset for an empty range);
  // without a length, or with one too large to count records for, to the end.
  std::optional<std::uint64_t> limit;
  if (range.length && *range.length <= UINT64_MAX - range.offset) {
    const std::uint64_t last = *range.length == 0 ? first : (range.offset + *range.length - 1) / chunk;
    if (last < UINT64_MAX / layout.record_bytes() - 1) limit = (last + 1) * layout.record_bytes();
  }
  PayloadWindow window(in, limit);
  const RangeCodec codec(payload.cipher, layout, 0, first, window.continues());
  RangeWriter writer(out, range.offset, range.length);
  const PipelineStats stats = run_pipeline(codec, window, writer, pipeline_config(options));
  RangeResult result;
  result.records_opened = stats.chunks - std::min(stats.chunks, first);
  result.bytes_written = writer.written();
  if (!window.continues()) {
    result.plaintext_bytes = stats.plaintext_bytes;
    if (range.offset > result.plaintext_bytes) throw past_the_end(range.offset, result.plaintext_bytes);
  }
  return result;
}

}  // namespace pcrypt::core
