// Numeric command-line arguments: byte counts (--chunk-size, --kdf-memory, --max-kdf-memory) and counts.
//
// Convention (the one dd(1) uses, documented in man/pcrypt.1): a plain number is bytes; K/k, M, G and the IEC
// spellings KiB, MiB, GiB are powers of 1024; kB/KB, MB, GB are powers of 1000; a lone trailing B means
// bytes. Anything else (fractions, signs, spaces, unknown suffixes, overflow) is a usage error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pcrypt::app {

// Throws core::Error(usage) naming `option` if `text` is not a size.
std::uint64_t parse_size(std::string_view text, std::string_view option);

// A plain decimal count in [min, max] (-j, --kdf-ops): digits only, no sign, no base prefix.
// Throws core::Error(usage) naming `option` otherwise.
std::uint64_t parse_count(std::string_view text, std::string_view option, std::uint64_t min,
                          std::uint64_t max);

// "1.00 GiB", "512 KiB", "17 B": for messages.
std::string format_bytes(std::uint64_t bytes);

}  // namespace pcrypt::app
