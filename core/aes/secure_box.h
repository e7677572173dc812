// One object of trivially copyable type T in libsodium guarded memory (not swapped, guard pages, wiped on
// free): where the engines keep expanded keys and powers of H.
#pragma once

#include <sodium.h>

#include <cstddef>
#include <new>
#include <type_traits>

namespace pcrypt::aes::detail {

template <class T>
class SecureBox {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  // sodium_malloc places the object so that it ends at a page boundary; a size that is a multiple of 64 keeps
  // it 64-byte aligned, enough for any vector member.
  static constexpr std::size_t kSize = (sizeof(T) + 63) / 64 * 64;
  static_assert(alignof(T) <= 64);

 public:
  SecureBox() {
    if (sodium_init() < 0) throw std::bad_alloc();
    void* p = sodium_malloc(kSize);
    if (p == nullptr) throw std::bad_alloc();
    value_ = new (p) T{};
  }
  ~SecureBox() { sodium_free(value_); }  // sodium_free wipes before unmapping
  SecureBox(const SecureBox&) = delete;
  SecureBox& operator=(const SecureBox&) = delete;

  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_; }
  const T* operator->() const { return value_; }

 private:
  T* value_;
};

}  // namespace pcrypt::aes::detail
