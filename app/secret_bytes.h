// What the user types that must not linger (passphrases, PINs): bytes in libsodium's guarded memory, wiped
// when freed. The CLI's own, as it reads them from the terminal, a file or the environment before handing
// them to libpcrypt (which keeps its copies in the same kind of memory).
#pragma once

#include <sodium.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <string>
#include <utility>

namespace pcrypt::app {

class SecretBytes {
 public:
  SecretBytes() = default;
  explicit SecretBytes(std::size_t size) : size_(size) {
    if (sodium_init() < 0) throw std::bad_alloc();
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

  std::uint8_t* data() { return data_; }
  const std::uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::span<const std::uint8_t> span() const { return {data_, size_}; }
  // As text for libpcrypt's string parameters.
  std::string text() const { return std::string(reinterpret_cast<const char*>(data_), size_); }

 private:
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace pcrypt::app
