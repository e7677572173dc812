// Streaming encryption for Python writers (pcrypt.open(path, "wb"), the fsspec filesystem's "wb"): the
// caller pushes plaintext and gets back records to write after the header, in order. The records are those
// encrypt_stream writes (core::PayloadRecords, the same cipher), sealed in parallel within each call: a
// pcrypt file's (core/pcrypt/crypt.h), or an age file's (core/age/file.h: the header then the payload nonce,
// then 64 KiB ChaCha20-Poly1305 chunks under the same record rules).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/age/file.h"
#include "core/pcrypt/crypt.h"
#include "core/records.h"

namespace pcrypt::python {

class Sealer {
 public:
  // A pcrypt file: the header from core::new_header (Error(usage) for no credential or a chunk size out of
  // range).
  Sealer(const std::vector<core::Credential>& credentials, const core::EncryptOptions& options);
  // An age file: the header (core::age::wrap_file_key's rules: Error(usage) for what age forbids) and the
  // payload nonce are header().
  Sealer(const std::vector<core::Credential>& credentials, const core::age::EncryptOptions& options);
  Sealer(const Sealer&) = delete;  // records_ refers to cipher_
  Sealer& operator=(const Sealer&) = delete;

  // Everything before record 0.
  const std::vector<std::uint8_t>& header() const { return header_; }
  std::size_t chunk_size() const { return chunk_size_; }
  // Bytes seal() writes for `len` plaintext bytes.
  std::size_t sealed_size(std::size_t len, bool last) const;
  // Seals the next chunks: `len` plaintext bytes from `in` into `out` (room for sealed_size(len, last)).
  // Without `last`, len is a positive multiple of the chunk size; with it, the final chunk (0 to chunk size
  // bytes: empty only for an empty file) ends the stream and nothing may follow. std::invalid_argument for
  // a call that breaks these rules (the Python writer keeps the last chunk back until it knows).
  void seal(const std::uint8_t* in, std::size_t len, bool last, std::uint8_t* out);
  bool finished() const { return finished_; }

 private:
  std::size_t chunks_in(std::size_t len, bool last) const;

  // The parts the two constructors make, in the order the members need them.
  struct Start {
    std::vector<std::uint8_t> header;
    core::ChunkCipher cipher;
    core::PayloadLayout layout;
  };
  static Start pcrypt_start(const std::vector<core::Credential>& credentials,
                            const core::EncryptOptions& options);
  static Start age_start(const std::vector<core::Credential>& credentials,
                         const core::age::EncryptOptions& options);
  Sealer(Start start, unsigned threads);

  std::size_t chunk_size_;
  unsigned threads_;
  std::vector<std::uint8_t> header_;
  core::ChunkCipher cipher_;
  core::PayloadRecords records_;
  std::uint64_t next_index_ = 0;
  bool finished_ = false;
};

}  // namespace pcrypt::python
