// BIP 173 bech32: the checksummed text encoding of age recipients (age1…) and identities (AGE-SECRET-KEY-1…).
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pcrypt::core::bech32 {

// What is wrong with a bech32 string, in words a user can act on (e.g. "checksum mismatch (a typo?)").
class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Decoded {
  std::string hrp;                  // human-readable part, always lower case
  std::vector<std::uint8_t> words;  // 5-bit data values, checksum removed
};

// BIP 173 limit; age keys fit (an identity is 74 characters).
inline constexpr std::size_t max_length = 90;
// age drops the limit; pcrypt lifts it only for the post-quantum recipient age1pq1… (1959 characters), whose
// caller passes this bound instead.
inline constexpr std::size_t long_max_length = 2048;

// Checks characters (33..126), one case only, separator, HRP length 1..83, data charset, checksum and length
// (at most `limit` characters).
Decoded decode(std::string_view text, std::size_t limit = max_length);
// hrp must be lower case ASCII 33..126; `upper` writes the whole string in upper case (as age identities
// are).
std::string encode(std::string_view hrp, std::span<const std::uint8_t> words, bool upper = false);

// 8-bit bytes <-> 5-bit words (BIP 173 convertbits); from_words refuses non-zero or over-long padding.
std::vector<std::uint8_t> to_words(std::span<const std::uint8_t> bytes);
std::vector<std::uint8_t> from_words(std::span<const std::uint8_t> words);

}  // namespace pcrypt::core::bech32
