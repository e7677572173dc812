// The numbers a caller may need before it opens a file -- option ranges, defaults -- without knowing a
// format's headers. Each equals the format's own constant (checked at compile time in limits.cc).
#pragma once

#include <cstddef>
#include <cstdint>

namespace pcrypt::core::door {

// pcrypt's chunk sizes (FORMAT.md §3.1).
inline constexpr std::size_t kMinChunkSize = std::size_t{4} << 10;
inline constexpr std::size_t kMaxChunkSize = std::size_t{64} << 20;
inline constexpr std::size_t kDefaultChunkSize = std::size_t{1} << 20;
constexpr bool chunk_size_in_range(std::uint64_t chunk_size) {
  return chunk_size >= kMinChunkSize && chunk_size <= kMaxChunkSize;
}
// Argon2id costs a pcrypt passphrase slot may have (FORMAT.md §3.2).
inline constexpr std::uint32_t kMinKdfOps = 1;
inline constexpr std::uint32_t kMaxKdfOps = UINT32_MAX;
inline constexpr std::uint32_t kMinKdfMemoryKib = 8;
inline constexpr std::uint32_t kMaxKdfMemoryKib = UINT32_MAX;
// The most slots a file may have (pcrypt's limit; age files have fewer in practice).
inline constexpr std::size_t kMaxSlots = 255;
// age's scrypt work factor: what it writes, the default ceiling, and the most it will ever run.
inline constexpr unsigned kDefaultScryptLog2 = 18;
inline constexpr unsigned kDefaultMaxScryptLog2 = 22;
inline constexpr unsigned kMaxScryptLog2 = 40;

// The most bytes before record 0 any file may have: age's header limit (1 MiB) and its payload nonce;
// pcrypt's largest header is below it.
inline constexpr std::size_t kMaxHeaderBytes = (std::size_t{1} << 20) + 16;

}  // namespace pcrypt::core::door
