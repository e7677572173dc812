// The byte loop of xor_novec.cc, this time handed to the auto-vectoriser. At -O2 GCC 12 only vectorises loops
// whose trip count needs no scalar epilogue ("very-cheap" cost model), which this one does, so the function
// asks for the -O3 behaviour explicitly; the result is what `gcc -O3` makes of the 1990s loop.
#include "bench/xor_kernels.h"

#if defined(__clang__)
// clang vectorises this loop at -O2 already, and has no per-function optimize attribute.
#define PCRYPT_AUTOVEC_KERNEL __attribute__((noinline))
#else
#define PCRYPT_AUTOVEC_KERNEL __attribute__((noinline, optimize("tree-vectorize", "vect-cost-model=dynamic")))
#endif

namespace pcrypt::app::bench {

PCRYPT_AUTOVEC_KERNEL void xor_bytes_autovec(std::uint8_t* data, const std::uint8_t* keystream,
                                             std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) data[i] ^= keystream[i];
}

#if defined(PCRYPT_ENGINES_X86_64)
bool avx2_supported() {
  return __builtin_cpu_supports("avx2") != 0;
}
#endif

}  // namespace pcrypt::app::bench
