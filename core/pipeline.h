// The parallel payload pipeline: reader -> bounded pool of chunk buffers -> N workers -> writer.
// (Full design notes live at the top of core/pipeline.cc.)
//
// Payload rules it enforces (docs/FORMAT.md, "Payload"):
//  - plaintext is cut into chunks of exactly chunk_size bytes; the final chunk holds 0..chunk_size bytes and
//  is
//    sealed with last=true. It is empty only when the whole plaintext is empty (then it is chunk 0).
//  - each sealed chunk is stored as ciphertext || 16-byte tag, back to back, nothing between or after.
//  - when opening, a record is chunk_size + 16 bytes except the final one; "final" is known by reaching end
//  of
//    input. A missing final chunk, a short record (< 16 bytes), an empty final chunk with index > 0, a record
//    that fails authentication (including one sealed last but followed by more data) are all Error(payload).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/chunk_cipher.h"
#include "io/stream.h"

namespace pcrypt::core {

enum class Direction { seal, open };

struct PipelineConfig {
  std::size_t chunk_size = 1 << 20;  // plaintext bytes per chunk
  unsigned threads = 0;              // workers; 0 = number of online cores
  // Optional: called from the writer thread after each chunk is written, with total plaintext bytes so far.
  std::function<void(std::uint64_t plaintext_bytes)> progress;
  // Where the payload starts in the file (the header length): added to the offsets that error messages give,
  // so that "chunk N at offset X" points at the record's first byte in the file the user has.
  std::uint64_t payload_offset = 0;
};

struct PipelineStats {
  std::uint64_t plaintext_bytes = 0;
  std::uint64_t ciphertext_bytes = 0;  // payload only (no header)
  std::uint64_t chunks = 0;
};

// The workers run_pipeline starts for config.threads == threads: 0 means one per online core this process
// may run on (its CPU affinity); never less than 1.
unsigned pipeline_workers(unsigned threads);

// Runs the whole payload through: reads from `in` (positioned just after the header), writes to `out`.
// Does not call out.commit(). Throws Error (payload/io kinds) after every thread has stopped; the first error
// wins and is reported once. With Direction::open, only authenticated plaintext ever reaches `out`.
PipelineStats run_pipeline(Direction direction, const ChunkCipher& cipher, io::Reader& in, io::Writer& out,
                           const PipelineConfig& config);

}  // namespace pcrypt::core
