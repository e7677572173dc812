// SSH RSA keys and RSA-OAEP with SHA-256 (RFC 8017 §7.1, MGF1-SHA-256), through OpenSSL's libcrypto. Knows
// the SSH wire encoding of RSA keys (RFC 4253 §6.6: string "ssh-rsa" || mpint e || mpint n) and nothing of
// any file format, so pcrypt's slot kind 6 (docs/FORMAT.md §10.7) and age's ssh-rsa stanza can both use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/aes/secret_bytes.h"

namespace pcrypt::core::ssh_rsa {

// Modulus sizes accepted, in bits (age and ssh-keygen refuse below 2048; 16384 is ssh-keygen's maximum).
inline constexpr std::size_t min_modulus_bits = 2048;
inline constexpr std::size_t max_modulus_bits = 16384;
// The public exponent: odd, from 3 to 2^24 - 1 (at most 24 bits), the keys age accepts (FORMAT.md §10.7).
inline constexpr std::size_t max_exponent_bits = 24;

// The checked public key blob. `modulus_bytes` is the length of every OAEP ciphertext for this key.
struct PublicKey {
  std::vector<std::uint8_t> blob;  // string "ssh-rsa" || mpint e || mpint n, exactly as given
  std::size_t modulus_bytes = 0;
};

// Parses an SSH wire blob. Throws core::Error(usage) starting with `what` for a blob that is not exactly
// "ssh-rsa", e, n (canonical mpints, nothing after), a modulus outside [min, max] bits or even, or an
// exponent outside the rule (even, below 3, or longer than max_exponent_bits), naming the rule.
PublicKey parse_public_blob(std::span<const std::uint8_t> blob, const std::string& what);

// RSA-OAEP-SHA-256 encryption of `message` (at most modulus_bytes - 66 bytes) under `key` with OAEP label
// `label`; randomized (OpenSSL's RNG draws the seed). Returns modulus_bytes bytes.
std::vector<std::uint8_t> oaep_encrypt(const PublicKey& key, std::span<const std::uint8_t> message,
                                       std::string_view label);

// An RSA private key held by OpenSSL (the private exponent and primes never leave libcrypto's memory after
// construction).
class PrivateKey {
 public:
  // From the fields of an OpenSSH private key (PROTOCOL.key: n, e, d, iqmp, p, q as unsigned big-endian
  // bytes). Checks that they form one key (n = p·q, e·d ≡ 1 mod p−1 and mod q−1, q·iqmp ≡ 1 mod p, and one
  // OAEP round trip; p and q are not tested for primality) and that (e, n) pass parse_public_blob's rules.
  // Throws core::Error(usage) starting with `what` otherwise.
  static std::shared_ptr<const PrivateKey> from_openssh_fields(
      std::span<const std::uint8_t> n, std::span<const std::uint8_t> e, std::span<const std::uint8_t> d,
      std::span<const std::uint8_t> iqmp, std::span<const std::uint8_t> p, std::span<const std::uint8_t> q,
      const std::string& what);
  ~PrivateKey();
  PrivateKey(const PrivateKey&) = delete;
  PrivateKey& operator=(const PrivateKey&) = delete;

  std::size_t modulus_bytes() const { return modulus_bytes_; }
  // The message, or nullopt when `ciphertext` is not exactly modulus_bytes() long or does not decrypt under
  // OAEP-SHA-256 with `label` (OpenSSL's padding check runs in constant time).
  std::optional<SecretBytes> oaep_decrypt(std::span<const std::uint8_t> ciphertext,
                                          std::string_view label) const;

  struct Impl;

 private:
  explicit PrivateKey(std::unique_ptr<Impl> impl, std::size_t modulus_bytes);
  std::unique_ptr<Impl> impl_;
  std::size_t modulus_bytes_;
};

// The SSH public key blob of (e, n), mpints encoded canonically.
std::vector<std::uint8_t> public_blob(std::span<const std::uint8_t> e, std::span<const std::uint8_t> n);

}  // namespace pcrypt::core::ssh_rsa
