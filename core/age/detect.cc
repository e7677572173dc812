#include "core/age/detect.h"

#include <cstring>
#include <string_view>

#include "core/age/armor.h"

namespace pcrypt::core::age {

FileFormat detect_format(std::span<const std::uint8_t> first_bytes) {
  const auto starts_with = [&](const void* p, std::size_t n) {
    return first_bytes.size() >= n && std::memcmp(first_bytes.data(), p, n) == 0;
  };
  constexpr std::string_view age_prefix = "age-encryption.org/";
  if (starts_with(age_prefix.data(), age_prefix.size())) return FileFormat::age_binary;
  if (looks_armored(first_bytes)) return FileFormat::age_armored;
  return FileFormat::unknown;
}

}  // namespace pcrypt::core::age
