#include "python/src/sealer.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <thread>

#include "core/age/payload.h"
#include "core/engine_choice.h"
#include "core/pcrypt/payload.h"
#include "core/pipeline.h"

namespace pcrypt::python {

Sealer::Start Sealer::pcrypt_start(const std::vector<core::Credential>& credentials,
                                   const core::EncryptOptions& options) {
  core::NewHeader header = core::new_header(credentials, options);
  core::ChunkCipher cipher = core::payload_cipher(core::engine_for(options.engine), header.file_key);
  const std::uint64_t header_bytes = header.bytes.size();
  return Start{std::move(header.bytes), std::move(cipher),
               core::PayloadLayout{options.chunk_size, header_bytes}};
}

Sealer::Start Sealer::age_start(const std::vector<core::Credential>& credentials,
                                const core::age::EncryptOptions& options) {
  const SecretBytes file_key = core::age::new_file_key();
  const std::string text = core::age::serialize_header(
      core::age::wrap_file_key(file_key, credentials, options.scrypt_log2), file_key);
  const core::age::PayloadNonce nonce = core::age::new_payload_nonce();
  std::vector<std::uint8_t> header(text.begin(), text.end());
  header.insert(header.end(), nonce.begin(), nonce.end());
  return Start{std::move(header), core::age::payload_cipher(file_key, nonce, options.backend),
               core::age::payload_layout(text.size())};
}

Sealer::Sealer(Start start, unsigned threads)
    : chunk_size_(start.layout.chunk_size),
      threads_(core::pipeline_workers(threads)),
      header_(std::move(start.header)),
      cipher_(std::move(start.cipher)),
      records_(cipher_, start.layout) {}

Sealer::Sealer(const std::vector<core::Credential>& credentials, const core::EncryptOptions& options)
    : Sealer(pcrypt_start(credentials, options), options.threads) {}

Sealer::Sealer(const std::vector<core::Credential>& credentials, const core::age::EncryptOptions& options)
    : Sealer(age_start(credentials, options), options.threads) {}

std::size_t Sealer::chunks_in(std::size_t len, bool last) const {
  if (finished_) throw std::invalid_argument("the stream is already finished");
  if (!last) {
    if (len == 0 || len % chunk_size_ != 0)
      throw std::invalid_argument("only whole chunks may be sealed before the last one");
    return len / chunk_size_;
  }
  if (len == 0 && next_index_ > 0)
    throw std::invalid_argument("the final chunk of a non-empty file is empty");
  return std::max<std::size_t>(1, (len + chunk_size_ - 1) / chunk_size_);
}

std::size_t Sealer::sealed_size(std::size_t len, bool last) const {
  return len + chunks_in(len, last) * core::kChunkTagBytes;
}

void Sealer::seal(const std::uint8_t* in, std::size_t len, bool last, std::uint8_t* out) {
  const std::size_t chunks = chunks_in(len, last);
  const std::uint64_t first = next_index_;
  // Chunk i: plaintext in[i*chunk ..], record out[i*(chunk+16) ..]; copied in place, then sealed there.
  auto seal_chunks = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::size_t from = i * chunk_size_;
      const std::size_t n = std::min(chunk_size_, len - from);
      std::uint8_t* record = out + i * records_.layout().record_bytes();
      std::memcpy(record, in + from, n);
      records_.seal_record(first + i, last && i + 1 == chunks, record, n);
    }
  };
  const std::size_t workers = std::min<std::size_t>(threads_, chunks);
  if (workers <= 1) {
    seal_chunks(0, chunks);
  } else {
    std::vector<std::exception_ptr> errors(workers);
    std::vector<std::thread> pool;
    for (std::size_t w = 0; w < workers; ++w)
      pool.emplace_back([&, w] {
        try {
          seal_chunks(chunks * w / workers, chunks * (w + 1) / workers);
        } catch (...) {
          errors[w] = std::current_exception();
        }
      });
    for (std::thread& t : pool) t.join();
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
  }
  next_index_ += chunks;
  finished_ = last;
}

}  // namespace pcrypt::python
