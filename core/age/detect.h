// Which format an encrypted input is, from its first bytes: pcrypt's magic, a binary age file
// ("age-encryption.org/"), or an armored one (whitespace, then "-----BEGIN AGE ENCRYPTED FILE-----").
#pragma once

#include <cstdint>
#include <span>

namespace pcrypt::core::age {

enum class FileFormat { pcrypt, age_binary, age_armored, unknown };

// How many first bytes detect_format() wants to see (fewer only when the input is shorter).
inline constexpr std::size_t kDetectBytes = 256;

FileFormat detect_format(std::span<const std::uint8_t> first_bytes);

}  // namespace pcrypt::core::age
