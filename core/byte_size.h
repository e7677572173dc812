// Byte counts as text in core's messages and for the bench's options: io/byte_size.h's one grammar and
// spelling, with a size that does not parse as core's usage error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/counted.h"
#include "io/byte_size.h"

namespace pcrypt::core {

using io::ByteStyle;
using io::format_bytes;

// io::parse_size, its refusal thrown as Error(usage) with the same message and hint.
std::uint64_t parse_size(std::string_view text, std::string_view option);

// A size in a description: "7 bytes", and from 1 KiB on the same with the size in units after it.
inline std::string bytes_in_words(std::uint64_t n) {
  const std::string exact = counted(n, "byte");
  return n < 1024 ? exact : exact + " (" + format_bytes(n) + ")";
}

}  // namespace pcrypt::core
