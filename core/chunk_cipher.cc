#include "core/chunk_cipher.h"

#include <string>

#include "core/error.h"

namespace pcrypt::core {
namespace {

// docs/FORMAT.md "Chunk nonce": 3 zero bytes || chunk index (uint64, big-endian) || last flag (0x01 / 0x00).
// The all-ones index is reserved so that the counter can never wrap around to a nonce already used.
void make_nonce(std::uint64_t index, bool last, std::uint8_t* nonce) {
  if (index == UINT64_MAX)
    throw Error(ErrorKind::payload, "chunk counter overflow (chunk " + std::to_string(index) + ")",
                "the format allows at most 2^64-1 chunks per file");
  nonce[0] = nonce[1] = nonce[2] = 0;
  for (int i = 0; i < 8; ++i) nonce[3 + i] = static_cast<std::uint8_t>(index >> (56 - 8 * i));
  nonce[11] = last ? 1 : 0;
}

}  // namespace

ChunkCipher::ChunkCipher(const aes::Engine& engine,
                         std::span<const std::uint8_t, aes::kGcmKeyBytes> payload_key)
    : gcm_(engine.make_gcm(payload_key)) {}

void ChunkCipher::seal(std::uint64_t index, bool last, std::uint8_t* buf, std::size_t len) const {
  std::uint8_t nonce[aes::kGcmNonceBytes];
  make_nonce(index, last, nonce);
  gcm_->seal(buf, buf + len, buf, len, nullptr, 0, nonce);
}

bool ChunkCipher::open(std::uint64_t index, bool last, std::uint8_t* buf, std::size_t len) const {
  std::uint8_t nonce[aes::kGcmNonceBytes];
  make_nonce(index, last, nonce);
  return gcm_->open(buf, buf, len, buf + len, nullptr, 0, nonce);
}

}  // namespace pcrypt::core
