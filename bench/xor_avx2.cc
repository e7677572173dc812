// Built with -mavx2 (app/CMakeLists.txt, "*_avx2.cc"); reached only after avx2_supported() said yes.
#include <immintrin.h>

#include "bench/xor_kernels.h"

namespace pcrypt::app::bench {

__attribute__((noinline)) void xor_avx2(std::uint8_t* data, const std::uint8_t* keystream, std::size_t n) {
  std::size_t i = 0;
  // Two independent 32-byte lanes per iteration keep both load ports busy.
  for (; i + 64 <= n; i += 64) {
    auto* d = reinterpret_cast<__m256i*>(data + i);
    const auto* k = reinterpret_cast<const __m256i*>(keystream + i);
    const __m256i a = _mm256_xor_si256(_mm256_loadu_si256(d), _mm256_loadu_si256(k));
    const __m256i b = _mm256_xor_si256(_mm256_loadu_si256(d + 1), _mm256_loadu_si256(k + 1));
    _mm256_storeu_si256(d, a);
    _mm256_storeu_si256(d + 1, b);
  }
  for (; i + 32 <= n; i += 32) {
    auto* d = reinterpret_cast<__m256i*>(data + i);
    _mm256_storeu_si256(
        d, _mm256_xor_si256(_mm256_loadu_si256(d),
                            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(keystream + i))));
  }
  for (; i < n; ++i) data[i] ^= keystream[i];
}

}  // namespace pcrypt::app::bench
