// The XOR loops of the keystream experiment: data[i] ^= keystream[i] for i < n, in five code shapes (and a
// sixth, hand-written SIMD for the machine: AVX2 on x86-64, NEON on AArch64).
// Each lives out of line in its own translation unit so the compiler can neither fuse it with the keystream
// call being measured nor specialise it for the request size.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pcrypt::app::bench {

using XorKernel = void (*)(std::uint8_t* data, const std::uint8_t* keystream, std::size_t n);

// Faithful to the 1990s experiment (xor_novec.cc, built with -fno-tree-vectorize -fno-tree-slp-vectorize):
// one byte, one 32-bit word or one 64-bit word per iteration. Word loops finish a ragged tail bytewise.
void xor_bytes_scalar(std::uint8_t* data, const std::uint8_t* keystream, std::size_t n);
void xor_words32_scalar(std::uint8_t* data, const std::uint8_t* keystream, std::size_t n);
void xor_words64_scalar(std::uint8_t* data, const std::uint8_t* keystream, std::size_t n);

// The same byte loop as xor_bytes_scalar, left to GCC's auto-vectoriser (baseline x86-64: 16-byte SSE2).
void xor_bytes_autovec(std::uint8_t* data, const std::uint8_t* keystream, std::size_t n);

#if defined(PCRYPT_ENGINES_X86_64)
// Hand-written AVX2 (32-byte registers). Call only if avx2_supported().
void xor_avx2(std::uint8_t* data, const std::uint8_t* keystream, std::size_t n);
bool avx2_supported();
#elif defined(PCRYPT_ENGINES_AARCH64)
// Hand-written NEON (16-byte registers, four per iteration): AArch64's baseline SIMD, always there.
void xor_neon(std::uint8_t* data, const std::uint8_t* keystream, std::size_t n);
#endif

}  // namespace pcrypt::app::bench
