// Decrypting one byte range of a file's plaintext (FORMAT.md §4 makes every record's place known from the
// chunk size alone; age's payload is laid out the same way, in 64 KiB chunks): only the records that hold the
// range are read and authenticated, and every byte written is authenticated. Made for programs that want part
// of a large file, and for jobs that decrypt one file by ranges on many machines: unlock the header once
// (a pcrypt file's: unlock_header, core/pcrypt/range.h), hand each job the parsed header and the file key,
// and let each call decrypt_range on its own copy of the file. The range functions are format-blind: they
// take a KeyedPayload, which core/pcrypt/range.h makes for a pcrypt file (with overloads taking its parsed
// header and file key) and core::age::open_payload (core/age/file.h) for an age file.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>

#include "core/aes/engine.h"
#include "core/records.h"
#include "io/stream.h"

namespace pcrypt::core {

// Plaintext bytes [offset, offset + length), or [offset, end) without a length. A range that runs past the
// end of the plaintext stops there; an offset past the end is an error.
struct ByteRange {
  std::uint64_t offset = 0;
  std::optional<std::uint64_t> length;
};

struct RangeOptions {
  unsigned threads = 0;                 // pipeline workers; 0 = online cores
  const aes::Engine* engine = nullptr;  // a pcrypt payload's (core/pcrypt/range.h); nullptr = best
  std::function<void(std::uint64_t)> progress;
};

// An unlocked payload: where its records lie in the file and the cipher that opens them.
struct KeyedPayload {
  PayloadLayout layout;
  ChunkCipher cipher;
};

// What a range read did.
struct RangeResult {
  std::uint64_t bytes_written = 0;    // plaintext bytes written to `out`
  std::uint64_t records_opened = 0;   // records read and authenticated
  std::uint64_t plaintext_bytes = 0;  // the whole file's plaintext size, from the file size
};

// Writes plaintext bytes `range` of the file `file` (a seekable input: header at offset 0, the payload from
// payload.layout.payload_offset up to its size) to `out`, in order; does not commit `out`. Reads only the
// records that hold the range with pread, in parallel, and authenticates each one before any of its bytes is
// written; when the range reaches the end of the plaintext the final record is read too and its last flag
// checked, so a file cut short is detected (Error(payload)). Records outside the range are neither read nor
// authenticated: damage there goes unnoticed. Error(usage) naming the plaintext size if range.offset is past
// the end; Error(payload) if the file's length is one no complete payload has.
RangeResult decrypt_range(const io::PositionalReader& file, const KeyedPayload& payload,
                          const ByteRange& range, io::Writer& out, const RangeOptions& options);

// The same into memory, without the pipeline: plaintext [offset, offset + out.size()) (less at the end of
// the plaintext) into `out`, returning what decrypt_range returns. Same checks and errors, record for
// record. For callers that want plaintext in their own buffer, many times (the Python reader): there is no
// reader or writer stage, whose hand-offs between threads cost a scheduling round each on a busy machine,
// and nothing to start when options.threads is 1: the calling thread preads each record into its place in
// `out` and opens it there (records at the range's edges through a scratch record). With more threads each
// takes a contiguous run of the records; the first failing record in file order is the error reported.
RangeResult decrypt_range_into(const io::PositionalReader& file, const KeyedPayload& payload,
                               std::uint64_t offset, std::span<std::uint8_t> out,
                               const RangeOptions& options);

// A seekable file's size, authenticated before anyone is told it (as age's DecryptReaderAt does): the final
// record is read and opened with its last flag. A file cut at any length (to one whose records look complete,
// such as a header and one tag: an empty file's length) is Error(payload) here, not a shorter plaintext; so
// is a file that changed size while it was read. For callers that report a size before they read a range
// (read_at, a mount, the Python reader); decrypt_range checks the final record itself when a range reaches
// it.
struct AuthenticatedSize {
  std::uint64_t file_bytes = 0;       // the file, header included, when its final record was opened
  std::uint64_t plaintext_bytes = 0;  // the whole plaintext
};
AuthenticatedSize authenticated_size(const io::PositionalReader& file, const KeyedPayload& payload);

// The same for an input that can only be read in order (a pipe), positioned at the payload (after
// unlock_header): the records before the range are read and discarded without being authenticated, the ones
// that hold it are authenticated, and reading stops after the range's last record (plus one byte, to know
// whether it was the final one). The plaintext size is only known when the input ends inside the range, so
// an offset past the end is found by reading to the end (and, unlike the seekable case, after checking the
// final record). With length 0 the record holding the offset is still read, to find whether it exists.
// RangeResult::plaintext_bytes is 0 unless the input ended.
RangeResult decrypt_range_stream(io::Reader& in, const KeyedPayload& payload, const ByteRange& range,
                                 io::Writer& out, const RangeOptions& options);

}  // namespace pcrypt::core
