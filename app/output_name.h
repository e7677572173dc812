// Default output names: `encrypt f` writes f.pcrypt, `decrypt f.pcrypt` writes f.
#pragma once

#include <string>

namespace pcrypt::app {

inline constexpr const char* kEncryptedSuffix = ".pcrypt";
inline constexpr const char* kAgeSuffix = ".age";
inline constexpr const char* kCobblestoneSuffix = ".cobblestone";

std::string encrypted_name(const std::string& input);
// `encrypt --format age f` writes f.age.
std::string age_encrypted_name(const std::string& input);
// Throws Error(usage) with a hint to use -o when `input` has no .pcrypt or .age suffix (or nothing
// before it).
std::string decrypted_name(const std::string& input);

}  // namespace pcrypt::app
