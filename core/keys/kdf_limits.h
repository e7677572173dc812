// Argon2id costs (libsodium crypto_pwhash units), for passphrases in pcrypt's format (FORMAT.md §3.2, §5.3):
// what a new passphrase slot costs, and the most a reader will run for a slot it is given. Here, not in
// core/pcrypt/, because callers set them (--kdf-memory, --max-kdf-memory) without knowing the format.
#pragma once

#include <cstdint>

namespace pcrypt::core {

struct KdfLimits {
  std::uint64_t opslimit;
  std::uint64_t memlimit_bytes;
};

// What encrypt uses: 4 passes over 256 MiB, ~0.6 s on the development machine (FORMAT.md §5.1 has the
// measurements).
constexpr KdfLimits default_kdf_params() {
  return KdfLimits{4, std::uint64_t{256} << 20};
}

// The most decrypt accepts unless raised by the user: 4x the default memory and 4x its passes (FORMAT.md
// §5.3).
constexpr KdfLimits default_kdf_ceiling() {
  return KdfLimits{16, std::uint64_t{1} << 30};
}

}  // namespace pcrypt::core
