// Counts and sizes on the command line (-j, --kdf-ops; --chunk-size, --kdf-memory, ...), and sizes in the
// command line's output: io/byte_size.h's one grammar and spelling, shared with the bench and with the
// library's messages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "io/byte_size.h"

namespace pcrypt::app {

// A size in pcrypt's grammar (the units of dd(1): "64KiB", "1MB", "3g"; pcrypt(1) "Sizes"). Throws
// Error(usage) naming `option` otherwise, with a hint that teaches the grammar.
std::uint64_t parse_size(std::string_view text, std::string_view option);

// "17 B", "1 MiB", "5.9 KiB".
using io::format_bytes;

// A plain decimal count in [min, max] (-j, --kdf-ops): digits only, no sign, no base prefix.
// Throws Error(usage) naming `option` otherwise.
std::uint64_t parse_count(std::string_view text, std::string_view option, std::uint64_t min,
                          std::uint64_t max);

}  // namespace pcrypt::app
