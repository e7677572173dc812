// What unlocks a file: the key from a key file, or a passphrase. Key files become credentials in
// core/key_file.h; what a credential does to a header (slots, unlocking) is core/keys.h.
#pragma once

#include <cstddef>

#include "core/aes/secret_bytes.h"

namespace pcrypt::core {

// The raw key a key file holds (FORMAT.md §7).
inline constexpr std::size_t kKeyFileKeyBytes = 32;

struct Credential {
  enum class Kind { key_file, passphrase };
  Kind kind;
  // key_file: the kKeyFileKeyBytes-byte key; passphrase: its UTF-8 bytes, no trailing newline.
  SecretBytes secret;
};

}  // namespace pcrypt::core
