// The XOR loops of the keystream experiment: data[i] ^= keystream[i] for i < n, in five code shapes.
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

// Hand-written AVX2 (32-byte registers). Call only if avx2_supported().
void xor_avx2(std::uint8_t* data, const std::uint8_t* keystream, std::size_t n);
bool avx2_supported();

}  // namespace pcrypt::app::bench
