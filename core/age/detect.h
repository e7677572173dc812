// Whether an input is an age file, from its first bytes: binary ("age-encryption.org/"), armored
// (whitespace, then "-----BEGIN AGE ENCRYPTED FILE-----"), or neither. Which of all formats an input is, is
// the door's to say (core/door/encrypted_file.cc), which asks this for age.
#pragma once

#include <cstdint>
#include <span>

namespace pcrypt::core::age {

enum class FileFormat { age_binary, age_armored, unknown };

// How many first bytes detect_format() wants to see (fewer only when the input is shorter).
inline constexpr std::size_t kDetectBytes = 256;

FileFormat detect_format(std::span<const std::uint8_t> first_bytes);

}  // namespace pcrypt::core::age
