// Small files that hold secrets (key files, passphrase files), read straight into the caller's buffer so no
// stray copy of the secret is left behind in memory that nobody wipes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <pcrypt/errors.h>

namespace pcrypt::core::door {

// Reads at most `capacity` bytes of the file at `path` into buf and returns how many were read. Throws
// core::Error(io): "cannot open <what> <path>: <reason>" (with `missing_hint` as the hint when the file does
// not exist) or "cannot read <what> <path>: <reason>". `role`, where given, is what the caller takes the file
// for (PCRYPT_FIELD_FILE_ROLE: a key file, an identity).
std::size_t read_secret_file(const std::string& path, const std::string& what, std::uint8_t* buf,
                             std::size_t capacity, const std::string& missing_hint = {},
                             std::optional<pcrypt_file_kind> role = std::nullopt);

}  // namespace pcrypt::core::door
