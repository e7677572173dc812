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

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "core/byte_size.h"
#include "core/engine_choice.h"
#include "core/error.h"
#include "core/payload.h"
#include "core/pipeline.h"

namespace pcrypt::core {
namespace {

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
// that happens in the pipeline's reader thread before it publishes the record, so a worker that asks
// continues() about the window's last record sees the answer.
class PayloadWindow final : public io::Reader {
 public:
  PayloadWindow(io::Reader& in, std::optional<std::uint64_t> limit) : in_(in), limit_(limit) {}

  std::size_t read(std::uint8_t* buf, std::size_t n) override {
    if (limit_) {
      const std::uint64_t left = *limit_ - consumed_;
      if (left == 0) {
        if (n > 0 && !peeked_) {
          std::uint8_t byte;
          continues_ = in_.read(&byte, 1) == 1;
          peeked_ = true;
        }
        return 0;
      }
      n = static_cast<std::size_t>(std::min<std::uint64_t>(n, left));
    }
    const std::size_t got = in_.read(buf, n);
    consumed_ += got;
    return got;
  }
  std::string name() const override { return in_.name(); }
  const bool& continues() const { return continues_; }

 private:
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

// A file key given from outside (another machine unlocked the header) must belong to this header.
void check_file_key(const ParsedHeader& header, const SecretBytes& file_key) {
  if (file_key.size() != kFileKeyBytes || !header_mac_matches(file_key, header))
    throw Error(ErrorKind::header, "wrong key or passphrase, or the header was modified",
                "the file key does not authenticate this header");
}

Error past_the_end(std::uint64_t offset, std::uint64_t plaintext_bytes) {
  return Error(ErrorKind::usage,
               "offset " + std::to_string(offset) + " is past the end of the plaintext (" +
                   std::to_string(plaintext_bytes) + " bytes" +
                   (plaintext_bytes >= 1024 ? ", " + format_bytes(plaintext_bytes) : std::string()) + ")",
               "the offset may be at most the plaintext size");
}

PipelineConfig pipeline_config(const RangeOptions& options) {
  return PipelineConfig{options.threads, options.progress};
}

}  // namespace

UnlockedHeader unlock_header(io::Reader& in, const std::vector<Credential>& credentials,
                             const KdfLimits& ceiling) {
  ParsedHeader parsed = read_header(in);
  SecretBytes file_key = unlock_file_key(parsed, credentials, ceiling);
  return UnlockedHeader{std::move(parsed), std::move(file_key)};
}

RangeResult decrypt_range(const io::PositionalReader& file, const ParsedHeader& header,
                          const SecretBytes& file_key, const ByteRange& range, io::Writer& out,
                          const RangeOptions& options) {
  check_file_key(header, file_key);
  const PayloadLayout layout{header.header.chunk_size, header.total_bytes()};
  const std::uint64_t chunk = layout.chunk_size;
  const std::uint64_t file_bytes = file.size();
  const std::uint64_t payload_bytes =
      file_bytes > layout.payload_offset ? file_bytes - layout.payload_offset : 0;
  const std::optional<std::uint64_t> records = layout.record_count(payload_bytes);
  if (!records)
    throw Error(ErrorKind::payload,
                "truncated payload: " + std::to_string(payload_bytes) +
                    " payload bytes, a length no complete payload has (the final record is missing or cut)",
                "the file was cut short (an interrupted copy or download?)");
  RangeResult result;
  result.plaintext_bytes = payload_bytes - *records * kChunkTagBytes;
  const std::uint64_t size = result.plaintext_bytes;
  if (range.offset > size) throw past_the_end(range.offset, size);
  const std::uint64_t end = range.offset + std::min(range.length.value_or(size), size - range.offset);
  if (end == range.offset && end < size) return result;  // empty, and not at the end: nothing to check

  // The records holding [offset, end); a range that reaches the end includes the final record, even when it
  // holds none of the range's bytes (an empty range at the end), so that its last flag is checked. When the
  // final record is among them, the slice runs to the end of the file, whose size the pipeline checks.
  const std::uint64_t last = end == size ? *records - 1 : (end - 1) / chunk;
  const std::uint64_t first = std::min(range.offset / chunk, last);
  const bool has_final = last == *records - 1;
  FileSlice slice(file, layout.record_offset(first), has_final ? file_bytes : layout.record_offset(last + 1),
                  has_final);
  const bool file_continues = !has_final;
  const ChunkCipher cipher = payload_cipher(engine_for(options.engine), file_key);
  const RangeCodec codec(cipher, layout, first, first, file_continues);
  RangeWriter writer(out, range.offset - first * chunk, end - range.offset);
  const PipelineStats stats = run_pipeline(codec, slice, writer, pipeline_config(options));
  result.records_opened = stats.chunks;
  result.bytes_written = writer.written();
  return result;
}

RangeResult decrypt_range_stream(io::Reader& in, const ParsedHeader& header, const SecretBytes& file_key,
                                 const ByteRange& range, io::Writer& out, const RangeOptions& options) {
  check_file_key(header, file_key);
  const PayloadLayout layout{header.header.chunk_size, header.total_bytes()};
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
  const ChunkCipher cipher = payload_cipher(engine_for(options.engine), file_key);
  const RangeCodec codec(cipher, layout, 0, first, window.continues());
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
