// Identity files (core/recipient.h parse_identity_file): age/pcrypt text and OpenSSH private keys. Any input
// either throws core::Error or yields identities whose public key matches the secret.
#include <sodium.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "core/recipient.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    for (const auto& id : pcrypt::core::parse_identity_file(text, "fuzz.key")) {
      if (id.secret.size() != 32) std::abort();
      std::uint8_t pk[32];
      crypto_scalarmult_base(pk, id.secret.data());
      if (sodium_memcmp(pk, id.public_key.data(), 32) != 0) std::abort();
    }
  } catch (const pcrypt::core::Error&) {
  }
  return 0;
}
