// The record layer (core/records.h): the STREAM nonce, record arithmetic, the record rules and their error
// wording, and the pipeline's step. Format-blind: the AEAD, chunk size and payload offset come from the
// format.
#include "core/records.h"
#include "core/counted.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pcrypt::core {
namespace {

const char* const kAuthHint =
    "the file was corrupted or modified after encryption (bytes changed, chunks reordered, removed or "
    "appended)";

// docs/FORMAT.md "Chunk nonce": 3 zero bytes || chunk index (uint64, big-endian) || last flag (0x01 / 0x00).
// The all-ones index is reserved so that the counter can never wrap around to a nonce already used.
void make_nonce(std::uint64_t index, bool last, std::uint8_t* nonce) {
  if (index == UINT64_MAX)
    throw Error(PCRYPT_E_RECORD_LIMIT, "chunk counter overflow (chunk " + std::to_string(index) + ")",
                "the format allows at most 2^64-1 chunks per file");
  nonce[0] = nonce[1] = nonce[2] = 0;
  for (int i = 0; i < 8; ++i) nonce[3 + i] = static_cast<std::uint8_t>(index >> (56 - 8 * i));
  nonce[11] = last ? 1 : 0;
}

// aes::Gcm's seal and open, without associated data: the same contract as Aead's.
class GcmAead final : public Aead {
 public:
  explicit GcmAead(std::unique_ptr<aes::Gcm> gcm) : gcm_(std::move(gcm)) {}
  void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
            std::span<const std::uint8_t, kAeadNonceBytes> nonce) const override {
    gcm_->seal(out, tag, in, len, nullptr, 0, nonce.data());
  }
  bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* tag,
            std::span<const std::uint8_t, kAeadNonceBytes> nonce) const override {
    return gcm_->open(out, in, len, tag, nullptr, 0, nonce.data());
  }

 private:
  std::unique_ptr<aes::Gcm> gcm_;
};

}  // namespace

// --- one chunk --------------------------------------------------------------------------------------------

std::unique_ptr<Aead> gcm_aead(std::unique_ptr<aes::Gcm> gcm) {
  return std::make_unique<GcmAead>(std::move(gcm));
}

void ChunkCipher::nonce(std::uint64_t index, bool last, std::uint8_t* out) const {
  if (!xor_) return make_nonce(index, last, out);
  // C2SP chunked encryption: the counter must never reach max_chunks (2^38), checked before any AEAD call.
  if (index >= xor_->max_chunks)
    throw Error(PCRYPT_E_RECORD_LIMIT, "chunk counter overflow (chunk " + std::to_string(index) + ")",
                "the format allows at most " + std::to_string(xor_->max_chunks) + " chunks per message",
                ErrorFields().set(PCRYPT_FIELD_RECORD, index));
  for (std::size_t i = 0; i < kAeadNonceBytes; ++i) {
    const std::size_t shift = 8 * (kAeadNonceBytes - 1 - i);
    const auto counter_byte = shift < 64 ? static_cast<std::uint8_t>(index >> shift) : std::uint8_t{0};
    out[i] = static_cast<std::uint8_t>(xor_->base[i] ^ counter_byte);
  }
}

void ChunkCipher::seal(std::uint64_t index, bool last, std::uint8_t* buf, std::size_t len) const {
  std::uint8_t n[kAeadNonceBytes];
  nonce(index, last, n);
  aead_->seal(buf, buf + len, buf, len, n);
}

bool ChunkCipher::open(std::uint64_t index, bool last, std::uint8_t* buf, std::size_t len) const {
  std::uint8_t n[kAeadNonceBytes];
  nonce(index, last, n);
  return aead_->open(buf, buf, len, buf + len, n);
}

// --- record arithmetic ------------------------------------------------------------------------------------

std::uint64_t PayloadLayout::record_offset(std::uint64_t index) const {
  return payload_offset + index * record_bytes();
}

std::optional<std::uint64_t> PayloadLayout::record_count(std::uint64_t payload_bytes) const {
  if (payload_bytes < kChunkTagBytes) return std::nullopt;
  const std::uint64_t record = record_bytes();
  if (final_chunk == FinalChunk::always_short) {
    // k whole records and a final one of 16..record-1 bytes; a whole number of records was cut short.
    const std::uint64_t final_record = payload_bytes % record;
    const std::uint64_t records = payload_bytes / record + 1;
    if (final_record < kChunkTagBytes || records > max_records) return std::nullopt;
    return records;
  }
  const std::uint64_t records = payload_bytes / record + (payload_bytes % record != 0 ? 1 : 0);
  const std::uint64_t final_record = payload_bytes - (records - 1) * record;
  if (final_record < kChunkTagBytes) return std::nullopt;
  if (final_record == kChunkTagBytes && records > 1) return std::nullopt;  // only chunk 0 may be empty
  return records;
}

std::optional<std::uint64_t> PayloadLayout::plaintext_bytes(std::uint64_t payload_bytes) const {
  const std::optional<std::uint64_t> records = record_count(payload_bytes);
  if (!records) return std::nullopt;
  return payload_bytes - *records * kChunkTagBytes;
}

// --- records of a stream ----------------------------------------------------------------------------------

std::size_t PayloadRecords::seal_record(std::uint64_t index, bool last, std::uint8_t* buf,
                                        std::size_t len) const {
  if (layout_.final_chunk == FinalChunk::always_short && last && len == layout_.chunk_size) {
    // The final chunk is always shorter: a full last chunk is followed by an empty one.
    cipher_.seal(index, false, buf, len);
    cipher_.seal(index + 1, true, buf + len + kChunkTagBytes, 0);
    return len + 2 * kChunkTagBytes;
  }
  cipher_.seal(index, last, buf, len);
  return len + kChunkTagBytes;
}

OpenedRecord PayloadRecords::open_record(std::uint64_t index, bool last, std::uint8_t* buf,
                                         std::size_t len) const {
  if (len > layout_.record_bytes() || (!last && len != layout_.record_bytes()))
    throw std::logic_error("open_record: only the last record may be short, and none is longer than full");
  if (auto bad = check_record_size(index, last, len)) return {.error = std::move(bad)};
  const std::size_t plaintext = len - kChunkTagBytes;
  if (last && len == layout_.record_bytes() && layout_.final_chunk == FinalChunk::always_short)
    return {.error = missing_final_chunk(index)};
  if (last && len == layout_.record_bytes()) {
    if (auto bad = open_full_final_record(index, buf, len)) return {.error = std::move(bad)};
  } else if (!cipher_.open(index, last, buf, plaintext)) {
    return {.error = auth_failure(index)};
  }
  return {.plaintext_bytes = plaintext, .error = std::nullopt};
}

std::optional<Error> PayloadRecords::check_record_size(std::uint64_t index, bool last,
                                                       std::size_t len) const {
  if (!last) return std::nullopt;  // a full record (open_record checked)
  if (len == 0 && index == 0)
    return Error(PCRYPT_E_TRUNCATED,
                 "truncated payload: the payload is empty (even an empty file has a chunk)");
  if (len < kChunkTagBytes)
    return Error(PCRYPT_E_TRUNCATED,
                 "truncated payload: the final record " + where(index) + " is " + counted(len, "byte") +
                     ", shorter than its 16-byte tag",
                 {}, ErrorFields().record(index, layout_.record_offset(index)));
  if (len == kChunkTagBytes && index > 0 && layout_.final_chunk == FinalChunk::flagged)
    return Error(PCRYPT_E_TRUNCATED,
                 "truncated payload: the final record " + where(index) +
                     " holds a tag but no data (only chunk 0 may be empty)",
                 {}, ErrorFields().record(index, layout_.record_offset(index)));
  return std::nullopt;
}

// A full-size record at end of input is either the final chunk, exactly filled, or proof that the input was
// cut at a chunk boundary. Telling the two apart needs a second try, and a failed open zeroes the buffer, so
// keep a copy. This happens at most once per payload, so the copy costs nothing measurable.
std::optional<Error> PayloadRecords::open_full_final_record(std::uint64_t index, std::uint8_t* buf,
                                                            std::size_t len) const {
  const std::size_t plaintext = len - kChunkTagBytes;
  std::vector<std::uint8_t> copy(buf, buf + len);
  if (cipher_.open(index, true, buf, plaintext)) return std::nullopt;
  if (cipher_.open(index, false, copy.data(), plaintext)) {
    std::fill(copy.begin(), copy.end(),
              0);  // authentic plaintext, but never released: the file is incomplete
    return missing_final_chunk(index);
  }
  return auth_failure(index);
}

Error PayloadRecords::missing_final_chunk(std::uint64_t index) const {
  return Error(PCRYPT_E_TRUNCATED,
               "truncated payload: input ends after chunk " + std::to_string(index) +
                   ", at a chunk boundary; the final chunk is missing",
               "the file was cut short (an interrupted copy or download?)",
               ErrorFields().record(index + 1, layout_.record_offset(index + 1)));
}

std::string PayloadRecords::where(std::uint64_t index) const {
  return "(chunk " + std::to_string(index) + " at offset " + std::to_string(layout_.record_offset(index)) +
         ")";
}

Error PayloadRecords::auth_failure(std::uint64_t index) const {
  return Error(PCRYPT_E_DAMAGED_RECORD, "payload authentication failed " + where(index), kAuthHint,
               ErrorFields().record(index, layout_.record_offset(index)));
}

// --- the pipeline's step ----------------------------------------------------------------------------------

PayloadCodec::PayloadCodec(Direction direction, const ChunkCipher& cipher, PayloadLayout layout)
    : direction_(direction), records_(cipher, layout) {
  if (layout.chunk_size == 0) throw Error(PCRYPT_E_BAD_ARGUMENT, "chunk size must be at least 1 byte");
  if (layout.chunk_size > SIZE_MAX / 2) throw Error(PCRYPT_E_BAD_ARGUMENT, "chunk size too large");
}

std::size_t PayloadCodec::input_record_bytes() const {
  return direction_ == Direction::seal ? records_.layout().chunk_size : records_.layout().record_bytes();
}

std::size_t PayloadCodec::output_record_bytes() const {
  return direction_ == Direction::seal ? records_.layout().record_bytes() : records_.layout().chunk_size;
}

std::size_t PayloadCodec::buffer_bytes() const {
  // Sealing under FinalChunk::always_short: room for the empty final record after a full last one.
  const bool room_for_empty_final =
      direction_ == Direction::seal && records_.layout().final_chunk == FinalChunk::always_short;
  return records_.layout().record_bytes() + (room_for_empty_final ? kChunkTagBytes : 0);
}

RecordOutcome PayloadCodec::process(std::uint64_t index, bool last, std::uint8_t* buf,
                                    std::size_t len) const {
  if (direction_ == Direction::seal) {
    const std::size_t sealed = records_.seal_record(index, last, buf, len);
    return {.write_bytes = sealed, .plaintext_bytes = len, .ciphertext_bytes = sealed, .error = std::nullopt};
  }
  return outcome_of(records_.open_record(index, last, buf, len), len);
}

RecordOutcome outcome_of(OpenedRecord opened, std::size_t ciphertext_bytes) {
  if (opened.error) return {.error = std::move(opened.error)};
  return {.write_bytes = opened.plaintext_bytes,
          .plaintext_bytes = opened.plaintext_bytes,
          .ciphertext_bytes = ciphertext_bytes,
          .error = std::nullopt};
}

}  // namespace pcrypt::core
