// The key-file parser (core/keys/key_file.h parse_key_file): any text either throws core::Error or yields a
// 32-byte key-file credential.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "core/keys/key_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const pcrypt::core::Credential key = pcrypt::core::parse_key_file(text, "fuzz.key");
    if (key.kind != pcrypt::core::Credential::Kind::key_file || key.secret.span().size() != 32) std::abort();
  } catch (const pcrypt::core::Error&) {
    // Rejected with a pcrypt error; anything else escapes and crashes.
  }
  return 0;
}
