// pcrypt::SecretBytes's allocating and freeing members (<pcrypt/secret_bytes.h>), the one implementation:
// compiled into core's engines library and, for its export, into libpcrypt.so itself (lib/CMakeLists.txt).
#include "core/aes/secret_bytes.h"

#include <sodium.h>

#include <algorithm>
#include <new>
#include <utility>

#include "core/aes/sodium_init.h"

namespace pcrypt {
inline namespace v1 {

SecretBytes::SecretBytes(std::size_t size) : size_(size) {
  require_sodium();
  // sodium_malloc's memory is filled with a canary pattern, not zeroes.
  data_ = static_cast<std::uint8_t*>(sodium_malloc(size == 0 ? 1 : size));
  if (data_ == nullptr) throw std::bad_alloc();
  sodium_memzero(data_, size == 0 ? 1 : size);
}

SecretBytes::SecretBytes(std::span<const std::uint8_t> bytes) : SecretBytes(bytes.size()) {
  std::copy(bytes.begin(), bytes.end(), data_);
}

SecretBytes SecretBytes::copy_of(std::string_view text) {
  return SecretBytes(
      std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

SecretBytes::~SecretBytes() {
  if (data_ != nullptr) sodium_free(data_);  // sodium_free wipes before unmapping
}

SecretBytes::SecretBytes(SecretBytes&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

SecretBytes& SecretBytes::operator=(SecretBytes&& other) noexcept {
  std::swap(data_, other.data_);
  std::swap(size_, other.size_);
  return *this;
}

}  // namespace v1
}  // namespace pcrypt
