// Key files (`pcrypt keygen`, FORMAT.md §7): the text a user stores, and the credential read back from it.
// The text is as secret as the key, so it only ever lives in SecretBytes (or a view of it).
#pragma once

#include <string>
#include <string_view>

#include "core/aes/secret_bytes.h"
#include "core/keys/credential.h"

namespace pcrypt::core {

// A fresh random key, as the key file's text (comment line + "PCRYPT-KEY-1:..." line).
SecretBytes generate_key_file();

// The key in a key file's text. Throws Error(usage) with a hint if `text` is not a pcrypt key file; `source`
// names it in messages.
Credential parse_key_file(std::string_view text, const std::string& source);

// The text of a SecretBytes holding key-file text, for parse_key_file.
inline std::string_view key_file_text(const SecretBytes& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace pcrypt::core
