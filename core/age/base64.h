// The two base64 forms age uses (C2SP age.md): the header's unpadded form, and the armor's padded form. Both
// are RFC 4648 §4 (standard alphabet) and both decoders refuse non-canonical input (RFC 4648 §3.5: the bits
// past the last whole byte must be zero), since a file must have exactly one encoding.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pcrypt::core::age {

// Unpadded ("raw") base64 of `bytes`.
std::string encode_base64_raw(std::span<const std::uint8_t> bytes);
// nullopt unless `text` is canonical unpadded base64: alphabet only, no '=', length % 4 != 1, zero spare
// bits.
std::optional<std::vector<std::uint8_t>> decode_base64_raw(std::string_view text);

// Padded base64 (the armor's): length a multiple of 4, '=' only as the last one or two characters.
std::string encode_base64_padded(std::span<const std::uint8_t> bytes);
std::optional<std::vector<std::uint8_t>> decode_base64_padded(std::string_view text);

// Whether c is in the standard base64 alphabet (A-Z a-z 0-9 + /).
bool is_base64_char(char c);

}  // namespace pcrypt::core::age
