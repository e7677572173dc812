// The OpenSSH private key parser (core/openssh_key.h) on its own, unencrypted and passphrase-protected keys.
// An input starting with 00 is the binary structure, armoured here so the fuzzer reaches it directly; other
// inputs are parsed as text. Protected keys are tried with the passphrase of the committed test keys
// ("pcrypt test"). Any input throws core::Error or yields a consistent key.
#include <sodium.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/openssh_key.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  if (size > 0 && data[0] == 0) {  // leading 00: the rest is the binary structure
    std::string b64(sodium_base64_ENCODED_LEN(size - 1, sodium_base64_VARIANT_ORIGINAL), '\0');
    sodium_bin2base64(b64.data(), b64.size(), data + 1, size - 1, sodium_base64_VARIANT_ORIGINAL);
    text = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + b64.substr(0, b64.size() - 1) +
           "\n-----END OPENSSH PRIVATE KEY-----\n";
  }
  using pcrypt::core::OpenSshPrivateKey;
  constexpr std::string_view passphrase = "pcrypt test";
  try {
    const auto part = pcrypt::core::read_openssh_public_part(text, "fuzz");
    const auto key = pcrypt::core::parse_openssh_private_key(
        text, "fuzz", std::span(reinterpret_cast<const std::uint8_t*>(passphrase.data()), passphrase.size()));
    if (key.blob != part.blob) std::abort();
    if (key.type == OpenSshPrivateKey::Type::ed25519 && (key.secret.size() != 64 || key.blob.size() != 51))
      std::abort();
    if (key.type == OpenSshPrivateKey::Type::rsa && (!key.rsa || key.rsa->modulus_bytes() < 256))
      std::abort();
  } catch (const pcrypt::core::Error&) {
  }
  return 0;
}
