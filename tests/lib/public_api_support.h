// Set-up shared by the tests of libpcrypt's public API (tests/lib/test_lib_api.cc,
// tests/test_pipeline_reader.cc): like them, it uses nothing of pcrypt's but <pcrypt/pcrypt.h>.
#pragma once

#include <pcrypt/pcrypt.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace pcrypt_test {

constexpr std::size_t kRecordSize = 64 * 1024;  // age's always; chosen for pcrypt's by encrypted() below

inline std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> out(n);
  for (std::uint8_t& b : out) b = static_cast<std::uint8_t>(rng());
  return out;
}

// `plain` encrypted to `recipient` in memory, in records of kRecordSize, and
// the transfer's counts checked against what was read and written.
inline std::vector<std::uint8_t> encrypted(pcrypt::Format format, const std::vector<std::uint8_t>& plain,
                                           const std::string& recipient, bool armor = false) {
  std::vector<std::uint8_t> out;
  pcrypt::Recipients to;
  to.recipients = {recipient};
  pcrypt::EncryptOptions options;
  options.format = format;
  options.armor = armor;
  options.chunk_size = kRecordSize;
  const pcrypt::Transfer t =
      pcrypt::encrypt(pcrypt::Source::memory(plain), pcrypt::Sink::memory(out), to, options);
  CHECK(t.plaintext_bytes == plain.size());
  CHECK(t.encrypted_bytes == out.size());
  return out;
}

}  // namespace pcrypt_test
