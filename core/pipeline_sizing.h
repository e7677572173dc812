// Internal: how many chunk buffers run_pipeline allocates. Exposed so that tests can check the memory bound
// against the same numbers the pipeline allocates, rather than a copy of the formula. (The worker count is
// public: core/pipeline.h.)
#pragma once

#include <cstddef>

namespace pcrypt::core {

// Chunk buffers in the pool for that many workers: each worker can hold one, the writer one, and the reader
// can run a few chunks ahead so that no worker waits on a read. This is the only thing that throttles the
// reader, so the payload bytes in memory never exceed buffers * (chunk_size + 16).
std::size_t pipeline_buffers(unsigned workers);

}  // namespace pcrypt::core
