// Human-friendly byte counts on the command line (--chunk-size, --kdf-memory, --max-kdf-memory).
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

// "1.00 GiB", "512 KiB", "17 B": for messages.
std::string format_bytes(std::uint64_t bytes);

}  // namespace pcrypt::app
