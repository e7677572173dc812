// Internal: how many workers and chunk buffers run_pipeline uses. Exposed so that tests can check the memory
// bound against the same numbers the pipeline allocates, rather than a copy of the formula.
#pragma once

#include <cstddef>

namespace pcrypt::core {

// threads == 0 means one worker per online core this process may run on (its CPU affinity); never less
// than 1.
unsigned pipeline_workers(unsigned threads);

// Chunk buffers in the pool for that many workers: each worker can hold one, the writer one, and the reader
// can run a few chunks ahead so that no worker waits on a read. This is the only thing that throttles the
// reader, so the payload bytes in memory never exceed buffers * (chunk_size + 16).
std::size_t pipeline_buffers(unsigned workers);

}  // namespace pcrypt::core
