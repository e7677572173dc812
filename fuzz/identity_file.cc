// Identity files (core/keys/recipient.h parse_identity_file): age/pcrypt text (X25519 and post-quantum) and
// OpenSSH private keys. Any input either throws core::Error or yields identities whose public key matches
// the secret: X25519(secret) for X25519 and SSH ed25519 ones, the seed's expansion for post-quantum ones.
#include <sodium.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "core/keys/recipient.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    for (const auto& id : pcrypt::core::parse_identity_file(text, "fuzz.key")) {
      if (id.secret.size() != 32) std::abort();
      if (id.kind == pcrypt::core::Identity::Kind::mlkem768_x25519) {
        const auto again = pcrypt::core::hybrid_identity_from_seed(id.secret);
        if (!pcrypt::core::same_recipient(pcrypt::core::recipient_of(again), pcrypt::core::recipient_of(id)))
          std::abort();
        continue;
      }
      std::uint8_t pk[32];
      crypto_scalarmult_base(pk, id.secret.data());
      if (sodium_memcmp(pk, id.public_key.data(), 32) != 0) std::abort();
    }
  } catch (const pcrypt::core::Error&) {
  }
  return 0;
}
