// Built with -fno-tree-vectorize -fno-tree-slp-vectorize (bench/CMakeLists.txt); the attribute
// repeats it so that the loops stay scalar even if this file is compiled some other way.
#include <cstring>

#include "bench/xor_kernels.h"

#define PCRYPT_SCALAR_KERNEL __attribute__((noinline, optimize("no-tree-vectorize", "no-tree-slp-vectorize")))

namespace pcrypt::app::bench {

PCRYPT_SCALAR_KERNEL void xor_bytes_scalar(std::uint8_t* data, const std::uint8_t* keystream, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) data[i] ^= keystream[i];
}

// memcpy is how C++ spells an unaligned word load without aliasing trouble; it compiles to a single mov.
PCRYPT_SCALAR_KERNEL void xor_words32_scalar(std::uint8_t* data, const std::uint8_t* keystream,
                                             std::size_t n) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    std::uint32_t d, k;
    std::memcpy(&d, data + i, 4);
    std::memcpy(&k, keystream + i, 4);
    d ^= k;
    std::memcpy(data + i, &d, 4);
  }
  for (; i < n; ++i) data[i] ^= keystream[i];
}

PCRYPT_SCALAR_KERNEL void xor_words64_scalar(std::uint8_t* data, const std::uint8_t* keystream,
                                             std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t d, k;
    std::memcpy(&d, data + i, 8);
    std::memcpy(&k, keystream + i, 8);
    d ^= k;
    std::memcpy(data + i, &d, 8);
  }
  for (; i < n; ++i) data[i] ^= keystream[i];
}

}  // namespace pcrypt::app::bench
