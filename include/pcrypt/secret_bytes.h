// pcrypt::SecretBytes: bytes that must not linger (a passphrase, a PIN, key material) in guarded memory --
// libsodium's secure allocation: locked so it is never swapped out, guard pages around it, wiped when freed.
// The library keeps every secret it holds in it, and takes passphrases in it (Keys::add_passphrase), so a
// caller that reads a passphrase into a SecretBytes hands it over without an unwiped copy in ordinary memory.
//
//   pcrypt::SecretBytes passphrase(64);               // room for 64 bytes, zeroed
//   std::size_t n = read_passphrase_into(passphrase.data(), passphrase.size());
//   keys.add_passphrase(pcrypt::SecretBytes(passphrase.span().first(n)));
//
// Move-only; the allocating and freeing members are libpcrypt's (exported), so this header needs no
// <sodium.h>. Allocation failure (guarded pages are a scarce resource) throws std::bad_alloc; a libsodium
// that cannot initialise, std::runtime_error.
//
// ABI: part of libpcrypt.so.1 (docs/LIBRARY.md, "Stability"): its layout (a pointer and a size) is fixed.
#pragma once

// The one check of the language version, for every C++ header of the library (they all include this one).
#if __cplusplus < 202002L
#error "libpcrypt needs C++20 or later: compile with -std=c++20 (or a later standard)"
#endif

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include <pcrypt/export.h>

namespace pcrypt {
inline namespace v1 {

class PCRYPT_API SecretBytes {
 public:
  SecretBytes() noexcept = default;
  // `size` zero bytes.
  explicit SecretBytes(std::size_t size);
  // A copy of `bytes` (implicit: a span of secret bytes converts to the guarded copy of it).
  SecretBytes(std::span<const std::uint8_t> bytes);  // NOLINT(google-explicit-constructor)
  // A copy of `text` (a passphrase held elsewhere; wiping the original is the caller's).
  static SecretBytes copy_of(std::string_view text);
  ~SecretBytes();
  SecretBytes(SecretBytes&& other) noexcept;
  SecretBytes& operator=(SecretBytes&& other) noexcept;
  SecretBytes(const SecretBytes&) = delete;
  SecretBytes& operator=(const SecretBytes&) = delete;

  std::uint8_t* data() noexcept { return data_; }
  const std::uint8_t* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  std::span<std::uint8_t> span() noexcept { return {data_, size_}; }
  std::span<const std::uint8_t> span() const noexcept { return {data_, size_}; }
  // The bytes as text, without a copy (valid while this object lives, unchanged).
  std::string_view text() const noexcept { return {reinterpret_cast<const char*>(data_), size_}; }

 private:
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace v1
}  // namespace pcrypt
