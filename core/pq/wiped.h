// A short-lived secret on the stack, wiped with sodium_memzero when it goes out of scope (every return and
// every exception). The post-quantum code uses it for its per-call temporaries: a SecretBytes is a
// sodium_malloc (mmap, mprotect, guard pages, munmap), which cost more than the arithmetic around it when a
// slot is unwrapped (docs/BENCHMARKS.md). Long-lived secrets (identities, file keys handed to callers) stay
// in SecretBytes.
#pragma once

#include <sodium.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace pcrypt::pq {

template <class T>
struct Wiped {
  T value{};
  Wiped() = default;
  Wiped(const Wiped&) = delete;
  Wiped& operator=(const Wiped&) = delete;
  ~Wiped() { sodium_memzero(&value, sizeof value); }
};

// N secret bytes: Wiped<std::array> with the span accessors the callers want.
template <std::size_t N>
struct WipedBytes : Wiped<std::array<std::uint8_t, N>> {
  std::uint8_t* data() { return this->value.data(); }
  const std::uint8_t* data() const { return this->value.data(); }
  constexpr std::size_t size() const { return N; }
  std::span<std::uint8_t, N> span() { return this->value; }
  std::span<const std::uint8_t, N> span() const { return this->value; }
};

}  // namespace pcrypt::pq
