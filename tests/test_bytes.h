// Byte-vector helpers shared by every test suite: random inputs, hex literals and hex output.
#pragma once

#include <sodium.h>

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/aes/sodium_init.h"

namespace pcrypt::test {

using Bytes = std::vector<std::uint8_t>;

inline Bytes random_bytes(std::size_t n) {
  require_sodium();
  Bytes b(n);
  if (n != 0) randombytes_buf(b.data(), b.size());  // data() may be null when empty
  return b;
}

// Strict: an odd length or a non-hex digit is an error in the test, not a silently shorter vector.
inline Bytes from_hex(const std::string& hex) {
  if (hex.size() % 2 != 0) throw std::runtime_error("odd-length hex: " + hex);
  auto nibble = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::runtime_error("bad hex digit in: " + hex);
  };
  Bytes out(hex.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
  return out;
}

// Lowercase hex, for comparing with vectors and writing them.
inline std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (const std::uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

}  // namespace pcrypt::test
