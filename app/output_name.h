// Default output names: `encrypt f` writes f.pcrypt, `decrypt f.pcrypt` writes f.
#pragma once

#include <string>

namespace pcrypt::app {

inline constexpr const char* kEncryptedSuffix = ".pcrypt";

std::string encrypted_name(const std::string& input);
// Throws core::Error(usage) with a hint to use -o when `input` has no .pcrypt suffix (or nothing before it).
std::string decrypted_name(const std::string& input);

}  // namespace pcrypt::app
