// Counts on the command line (-j, --kdf-ops). Sizes (--chunk-size, --kdf-memory, ...) are libpcrypt's
// parse_size (core/byte_size.h behind it), shared with the bench.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pcrypt::app {

// A plain decimal count in [min, max] (-j, --kdf-ops): digits only, no sign, no base prefix.
// Throws Error(usage) naming `option` otherwise.
std::uint64_t parse_count(std::string_view text, std::string_view option, std::uint64_t min,
                          std::uint64_t max);

}  // namespace pcrypt::app
