// The parallel pipeline: reader -> bounded pool of record buffers -> N workers -> writer, or workers that
// read and write their own records when the streams are regular files. It cuts the input into records and
// writes what a RecordCodec (core/record_codec.h) makes of each, in input order or at each record's own
// offset; what a record means (the payload format) is the codec's business, see core/records.h. (Full
// design notes live at the top of core/pipeline.cc.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/record_codec.h"
#include "io/stream.h"

namespace pcrypt::core {

// What the pipeline reads, hands on and writes at a time by default: as many consecutive records as fit in
// about this many bytes (one, if a record is larger). Big enough that a 64 KiB-chunk payload (age) costs one
// read, one write and one hand-off per MiB rather than per chunk; small enough that the pool stays a few MiB.
inline constexpr std::size_t kPipelineItemBytes = std::size_t{1} << 20;

struct PipelineConfig {
  unsigned threads = 0;  // workers; 0 = number of online cores
  // Optional: called from the calling thread after each item (a group of consecutive records) is written, in
  // record order, with the plaintext bytes the codec reported for the records written so far (never
  // decreasing).
  std::function<void(std::uint64_t plaintext_bytes)> progress;
  // The unit of work: each item holds max(1, item_bytes / codec.buffer_bytes()) records. 0 means one record
  // per item. It changes no output byte, only how many records each read, write and hand-off carries.
  std::size_t item_bytes = kPipelineItemBytes;
};

// Sums of what the codec reported for the records written.
struct PipelineStats {
  std::uint64_t plaintext_bytes = 0;
  std::uint64_t ciphertext_bytes = 0;  // payload only (no header)
  std::uint64_t chunks = 0;            // records written (not items: every record the codec processed)
};

// The workers run_pipeline starts for config.threads == threads: 0 means one per online core this process
// may run on (its CPU affinity); never less than 1.
unsigned pipeline_workers(unsigned threads);

// Runs the whole input through: reads from `in` (positioned just after the header), processes every record
// with `codec` (by groups of records, PipelineConfig::item_bytes, each record still under its own index and
// with the last flag only on the input's final record), writes to `out`. Where `in` or `out` offer random
// access (regular files), workers read and write their own records with it. Does not call out.commit().
// Throws Error after every thread has stopped; the first error in record order wins and is reported once.
// Only records the codec accepted reach `out`, so when opening, only authenticated plaintext does; a
// sequential `out` gets nothing from the first failed record on, a positional one (never committed after a
// failure) may get later records at their offsets.
PipelineStats run_pipeline(const RecordCodec& codec, io::Reader& in, io::Writer& out,
                           const PipelineConfig& config);

}  // namespace pcrypt::core
