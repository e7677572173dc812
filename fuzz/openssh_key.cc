// The OpenSSH private key parser (core/keys/openssh_key.h) on its own, unencrypted and passphrase-protected
// keys. An input starting with 00 is the binary structure, armoured here so the fuzzer reaches it directly;
// other inputs are parsed as text. Protected binary inputs that ask for at most kFuzzedRounds bcrypt rounds
// are tried with the passphrase of the committed test keys ("pcrypt test"). Any input throws core::Error or
// yields a consistent key.
#include <sodium.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/keys/openssh_key.h"

namespace {

// The bcrypt rounds a binary input asks for (0 when it cannot be read). The key format lets a file ask for
// up to 16384 rounds, seconds of work by design (FORMAT.md §10.8); the fuzzer is given the passphrase only
// for inputs asking for a few rounds, so it explores the parsers rather than the KDF's running time.
std::uint32_t bcrypt_rounds(const std::uint8_t* data, std::size_t size) {
  std::size_t at = 1 + 15;  // the leading 00, then "openssh-key-v1\0"
  const auto u32 = [&](std::uint32_t& v) {
    if (at > size || size - at < 4) return false;
    v = (std::uint32_t{data[at]} << 24) | (std::uint32_t{data[at + 1]} << 16) |
        (std::uint32_t{data[at + 2]} << 8) | data[at + 3];
    at += 4;
    return true;
  };
  std::uint32_t len = 0;
  for (int field = 0; field < 2; ++field) {  // cipher name, KDF name
    if (!u32(len) || size - at < len) return 0;
    at += len;
  }
  std::uint32_t options = 0, salt = 0, rounds = 0;
  if (!u32(options) || !u32(salt) || size - at < salt) return 0;
  at += salt;
  return u32(rounds) ? rounds : 0;
}

constexpr std::uint32_t kFuzzedRounds = 4;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  if (size > 0 && data[0] == 0) {  // leading 00: the rest is the binary structure
    std::string b64(sodium_base64_ENCODED_LEN(size - 1, sodium_base64_VARIANT_ORIGINAL), '\0');
    sodium_bin2base64(b64.data(), b64.size(), data + 1, size - 1, sodium_base64_VARIANT_ORIGINAL);
    text = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + b64.substr(0, b64.size() - 1) +
           "\n-----END OPENSSH PRIVATE KEY-----\n";
  }
  using pcrypt::core::OpenSshPrivateKey;
  const bool binary = size > 0 && data[0] == 0;
  const std::string_view passphrase =
      binary && bcrypt_rounds(data, size) <= kFuzzedRounds ? "pcrypt test" : "";
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
