// The one step the pipeline (core/pipeline.h) leaves to its user: what becomes of each record. The pipeline
// knows record sizes and record order and nothing of what the bytes mean; the payload format implements this
// interface in core/records.h, tests implement fakes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/error.h"

namespace pcrypt::core {

// What process() made of one record.
struct RecordOutcome {
  std::size_t write_bytes = 0;  // buf[0..write_bytes) goes to the output, after the earlier records' bytes
  std::size_t plaintext_bytes = 0;   // summed into PipelineStats and passed to the progress callback
  std::size_t ciphertext_bytes = 0;  // summed into PipelineStats
  std::optional<Error> error;        // set: this record and every later one are never written; the run fails
};

class RecordCodec {
 public:
  virtual ~RecordCodec() = default;

  // Every record but the last is exactly this many input bytes (at least 1).
  virtual std::size_t input_record_bytes() const = 0;
  // What process() writes for every record but the last: exactly this many bytes. With it the pipeline knows
  // where each record's output goes before the earlier ones are done (a regular output file is written out
  // of order); a full record whose outcome says otherwise fails the run.
  virtual std::size_t output_record_bytes() const = 0;
  // Bytes each buffer holds: at least input_record_bytes() and at least anything process() writes.
  virtual std::size_t buffer_bytes() const = 0;

  // Transforms record `index` in place. buf holds the `len` bytes read for it: len == input_record_bytes()
  // unless last, and last means no input follows (then len may be anything up to input_record_bytes(), and 0
  // only for record 0, an empty input). Called by several worker threads at once, each on its own record, in
  // no particular order. (The pipeline hands on groups of consecutive records, core/pipeline.h's item_bytes,
  // so buf lies at a multiple of buffer_bytes() into a larger buffer, with no alignment promised.) A thrown
  // exception fails the run like a returned error.
  virtual RecordOutcome process(std::uint64_t index, bool last, std::uint8_t* buf, std::size_t len) const = 0;

  // What an input that changes size while it is read is: Error(io) for plaintext being sealed (another
  // program writes the file), Error(payload) for a payload being opened, whose length is then not the one
  // read (a file cut short or extended, as a read-at source that ends early: docs/LIBRARY.md "Short reads").
  virtual ErrorKind changed_input_kind() const { return ErrorKind::io; }
};

}  // namespace pcrypt::core
