// pcrypt's one kind of guarded memory is the library's public pcrypt::SecretBytes (<pcrypt/secret_bytes.h>:
// libsodium secure memory, locked, guarded, wiped when freed), implemented here in core/aes/secret_bytes.cc
// and exported from libpcrypt.so. Keys, key-file text, passphrases and the engines' expanded key schedules
// all live in it; the CLI reads passphrases into the same type. This header adds what only core needs: room
// for one trivially copyable value (an expanded key) in guarded memory.
//
// It sits in the bottom library (core/aes depends on nothing of ours but this one public header, which
// docs/ARCHITECTURE.md's rule core-public-secret-only allows) so the engines can use it.
#pragma once

#include <pcrypt/secret_bytes.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

namespace pcrypt {

// Room for one value-initialised T (an expanded key, say), read back with secret_as<T>().
template <class T>
SecretBytes secret_holding() {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  static_assert(alignof(T) <= 64);
  // sodium_malloc places a block so that it ends at a page boundary: a size that is a multiple of 64 makes
  // it 64-byte aligned, enough for any vector member. Checked anyway, as the layout is libsodium's choice.
  SecretBytes b((sizeof(T) + 63) / 64 * 64);
  if (reinterpret_cast<std::uintptr_t>(b.data()) % alignof(T) != 0) throw std::bad_alloc();
  new (b.data()) T{};
  return b;
}
// Only on bytes made by secret_holding<T>().
template <class T>
T& secret_as(SecretBytes& bytes) {
  return *std::launder(reinterpret_cast<T*>(bytes.data()));
}
template <class T>
const T& secret_as(const SecretBytes& bytes) {
  return *std::launder(reinterpret_cast<const T*>(bytes.data()));
}

}  // namespace pcrypt
