// The chunked-AEAD record layer both formats share (docs/FORMAT.md §4 for pcrypt, §11.4 for age): the STREAM
// nonce, record sizes and offsets, sealing and opening record i of a stream, and the wording of payload
// errors (chunk index and file offset). It is format-blind: a format supplies the AEAD (core/aead.h; pcrypt
// AES-256-GCM, core/pcrypt/payload.h; age ChaCha20-Poly1305, core/age/payload.h), the chunk size and where
// the payload starts. Nothing here assumes a pipeline: the pipeline drives it through PayloadCodec, and
// anything that reads records on its own (a range of a seekable file) uses PayloadRecords.
//
// Each chunk i is sealed with the AEAD under nonce 00 00 00 || i (uint64, big-endian) || last flag (01 for
// the final chunk, else 00), with no associated data, into a record: ciphertext || 16-byte tag.
//
// Record rules (identical to the "Exact rules" of docs/FORMAT.md §4, which age's payload follows too):
//  - plaintext is cut into chunks of exactly chunk_size bytes; the final chunk holds 0..chunk_size bytes and
//    is sealed with last=true. It is empty only when the whole plaintext is empty (then it is chunk 0).
//  - each sealed chunk is stored as ciphertext || 16-byte tag, back to back, nothing between or after.
//  - when opening, a record is chunk_size + 16 bytes except the final one; "final" is known by reaching end
//    of input. A missing final chunk, a short record (< 16 bytes), an empty final chunk with index > 0, a
//    record that fails authentication (including one sealed last but followed by more data) are all
//    Error(payload).
//  - the chunk index starts at 0 and increases by one per chunk; index 2^64-1 is refused (counter overflow),
//    so the nonce sequence can never wrap around.
//
// C2SP chunked encryption (https://c2sp.org/chunked-encryption, docs/FORMAT.md §12; core/cobblestone/) is
// the same record layer with two differences, chosen per payload: the nonce is a base nonce XOR the chunk
// index (ChunkCipher's XorNonce: no last flag, at most 2^38 chunks), and the final chunk is always shorter
// than chunk_size (FinalChunk::always_short): a plaintext of k full chunks ends with an empty chunk k, a
// full record at end of input is a truncation, and a payload of k whole records is cut short.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/aead.h"
#include "core/aes/engine.h"
#include "core/error.h"
#include "core/record_codec.h"

namespace pcrypt::core {

inline constexpr std::size_t kChunkTagBytes = kAeadTagBytes;

// AES-256-GCM of one of core/aes's engines (engine.make_gcm(key)) as the record layer's AEAD.
std::unique_ptr<Aead> gcm_aead(std::unique_ptr<aes::Gcm> gcm);

// C2SP chunked encryption's chunk nonces: base XOR the chunk index as a big-endian integer as wide as the
// nonce; an index of max_chunks or more is refused (Error(payload)) before any AEAD call.
struct XorNonce {
  std::array<std::uint8_t, kAeadNonceBytes> base{};
  std::uint64_t max_chunks = 0;
};

// Seals and opens one chunk: the AEAD under the STREAM nonce (chunk index + last-chunk flag), or under a
// XorNonce (the last flag then unused). It knows nothing of record sizes; PayloadRecords below applies the
// rules for those.
class ChunkCipher {
 public:
  explicit ChunkCipher(std::unique_ptr<Aead> aead) : aead_(std::move(aead)) {}
  ChunkCipher(std::unique_ptr<Aead> aead, const XorNonce& nonces) : aead_(std::move(aead)), xor_(nonces) {}

  // buf holds len plaintext bytes and has room for len + kChunkTagBytes; on return it holds ciphertext ||
  // tag. Throws Error(payload) if index is past the format's chunk-count limit (counter overflow).
  void seal(std::uint64_t index, bool last, std::uint8_t* buf, std::size_t len) const;
  // buf holds len ciphertext bytes followed by the tag; on success buf[0..len) is the plaintext. On failure
  // returns false and buf[0..len) is zeroed. Throws Error(payload) on counter overflow.
  [[nodiscard]] bool open(std::uint64_t index, bool last, std::uint8_t* buf, std::size_t len) const;

 private:
  void nonce(std::uint64_t index, bool last, std::uint8_t* out) const;

  std::unique_ptr<Aead> aead_;
  std::optional<XorNonce> xor_;
};

// Which chunk is the final one, and how large it may be.
enum class FinalChunk {
  // pcrypt and age: sealed with the last flag; 1..chunk_size bytes, or empty when it is chunk 0.
  flagged,
  // C2SP chunked encryption: 0..chunk_size-1 bytes, always present (empty after a whole number of chunks).
  always_short,
};

// Record arithmetic for a payload that starts payload_offset bytes into its file (after the header).
struct PayloadLayout {
  std::size_t chunk_size = 1 << 20;  // plaintext bytes per chunk, as in the header
  std::uint64_t payload_offset = 0;  // file offset of record 0, so that error messages point into the file
  FinalChunk final_chunk = FinalChunk::flagged;
  std::uint64_t max_records = UINT64_MAX;  // more is a payload no valid file has (C2SP: 2^38)

  // A full sealed record: chunk_size + 16.
  std::size_t record_bytes() const { return chunk_size + kChunkTagBytes; }
  // File offset of record `index`'s first byte.
  std::uint64_t record_offset(std::uint64_t index) const;
  // Records in, and plaintext bytes carried by, a payload of `payload_bytes` bytes; nullopt when no valid
  // payload has that length (it was cut short).
  std::optional<std::uint64_t> record_count(std::uint64_t payload_bytes) const;
  std::optional<std::uint64_t> plaintext_bytes(std::uint64_t payload_bytes) const;
};

// Why a record may not be released, or how much plaintext it holds.
struct OpenedRecord {
  std::size_t plaintext_bytes = 0;
  std::optional<Error> error;  // Error(payload), worded with the chunk index and its file offset
};

// Seals and opens the records of one payload. Const and stateless: any thread, any record, any order.
class PayloadRecords {
 public:
  PayloadRecords(const ChunkCipher& cipher, PayloadLayout layout) : cipher_(cipher), layout_(layout) {}
  const PayloadLayout& layout() const { return layout_; }

  // Seals chunk `index` in place: buf holds len plaintext bytes (len == chunk_size unless last) and has room
  // for len + 16 (len + 32 under FinalChunk::always_short: a last chunk of chunk_size bytes is followed by
  // the empty final chunk index + 1). Returns the bytes written, len + 16 (or len + 32). Throws
  // Error(payload) on counter overflow.
  std::size_t seal_record(std::uint64_t index, bool last, std::uint8_t* buf, std::size_t len) const;
  // Opens record `index` in place: buf holds its len bytes (len == record_bytes() unless last; last: nothing
  // follows it in the payload). On success the plaintext is buf[0..plaintext_bytes). On error nothing in buf
  // may be released. Throws Error(payload) on counter overflow, std::logic_error for a len that breaks the
  // rule above.
  [[nodiscard]] OpenedRecord open_record(std::uint64_t index, bool last, std::uint8_t* buf,
                                         std::size_t len) const;

 private:
  std::optional<Error> check_record_size(std::uint64_t index, bool last, std::size_t len) const;
  std::optional<Error> open_full_final_record(std::uint64_t index, std::uint8_t* buf, std::size_t len) const;
  Error missing_final_chunk(std::uint64_t index) const;
  std::string where(std::uint64_t index) const;
  Error auth_failure(std::uint64_t index) const;

  const ChunkCipher& cipher_;
  PayloadLayout layout_;
};

// The pipeline's outcome for a record of `ciphertext_bytes` opened to be written out: its plaintext, or
// its error (which fails the run). Whole-payload and range decryption report records alike through it.
RecordOutcome outcome_of(OpenedRecord opened, std::size_t ciphertext_bytes);

enum class Direction { seal, open };

// The pipeline's step for a whole payload (core/record_codec.h): sealing reads chunk_size-byte chunks and
// writes records, opening reads records and writes plaintext. Throws Error(usage) for a zero or absurd chunk
// size.
class PayloadCodec final : public RecordCodec {
 public:
  PayloadCodec(Direction direction, const ChunkCipher& cipher, PayloadLayout layout);
  std::size_t input_record_bytes() const override;
  std::size_t output_record_bytes() const override;
  std::size_t buffer_bytes() const override;
  RecordOutcome process(std::uint64_t index, bool last, std::uint8_t* buf, std::size_t len) const override;
  ErrorKind changed_input_kind() const override {
    return direction_ == Direction::open ? ErrorKind::payload : ErrorKind::io;
  }

 private:
  Direction direction_;
  PayloadRecords records_;
};

}  // namespace pcrypt::core
