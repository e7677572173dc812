// Internal: how many chunk buffers run_pipeline allocates. Exposed so that tests can check the memory bound
// against the same numbers the pipeline allocates, rather than a copy of the formula. (The worker count is
// public: core/pipeline.h.)
#pragma once

#include <cstddef>

namespace pcrypt::core {

// Chunk buffers in the pool for that many workers: each worker can hold one, the writer one, and the reader
// can run a few chunks ahead so that no worker waits on a read. This is the only thing that throttles the
// reader, so the payload bytes in memory never exceed buffers * records per item * (chunk_size + 16).
std::size_t pipeline_buffers(unsigned workers);

// Records in each of the pipeline's items (its unit of work, PipelineConfig::item_bytes) for a codec whose
// buffer_bytes() is buffer_bytes: as many as fit in item_bytes, at least one.
std::size_t pipeline_records_per_item(std::size_t buffer_bytes, std::size_t item_bytes);

}  // namespace pcrypt::core
