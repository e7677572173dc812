// pcrypt's one kind of guarded memory: bytes in libsodium secure memory (locked so they are never swapped,
// guard pages around them, wiped when freed). Keys, key-file text, passphrases and the engines' expanded key
// schedules all live in it.
//
// It sits in the bottom library (core/aes depends on nothing of ours) so the engines can use it; core and app
// use the same type through this header. Namespace pcrypt, not pcrypt::aes: it is not an AES concept.
#pragma once

#include <sodium.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

#include "core/aes/sodium_init.h"

namespace pcrypt {

class SecretBytes {
 public:
  SecretBytes() = default;
  explicit SecretBytes(std::size_t size) : size_(size) {
    require_sodium();
    data_ = static_cast<std::uint8_t*>(sodium_malloc(size == 0 ? 1 : size));
    if (data_ == nullptr) throw std::bad_alloc();
  }
  SecretBytes(std::span<const std::uint8_t> bytes) : SecretBytes(bytes.size()) {  // NOLINT: implicit copy-in
    std::copy(bytes.begin(), bytes.end(), data_);
  }
  ~SecretBytes() {
    if (data_ != nullptr) sodium_free(data_);  // sodium_free wipes before unmapping
  }
  SecretBytes(SecretBytes&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  SecretBytes& operator=(SecretBytes&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  SecretBytes(const SecretBytes&) = delete;
  SecretBytes& operator=(const SecretBytes&) = delete;

  // Room for one value-initialised T (an expanded key, say), read back with as<T>().
  template <class T>
  static SecretBytes holding() {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
    static_assert(alignof(T) <= 64);
    // sodium_malloc places a block so that it ends at a page boundary: a size that is a multiple of 64 makes
    // it 64-byte aligned, enough for any vector member. Checked anyway, as the layout is libsodium's choice.
    SecretBytes b((sizeof(T) + 63) / 64 * 64);
    if (reinterpret_cast<std::uintptr_t>(b.data_) % alignof(T) != 0) throw std::bad_alloc();
    new (b.data_) T{};
    return b;
  }
  // Only on bytes made by holding<T>().
  template <class T>
  T& as() {
    return *std::launder(reinterpret_cast<T*>(data_));
  }
  template <class T>
  const T& as() const {
    return *std::launder(reinterpret_cast<const T*>(data_));
  }

  std::uint8_t* data() { return data_; }
  const std::uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::span<std::uint8_t> span() { return {data_, size_}; }
  std::span<const std::uint8_t> span() const { return {data_, size_}; }

 private:
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace pcrypt
