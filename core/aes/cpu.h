// What the CPU and the OS let the hardware AES engines use. Baseline-compiled: safe to call on any x86-64.
#pragma once

namespace pcrypt::aes::cpu {

struct Features {
  bool aesni = false;      // AES-NI
  bool pclmulqdq = false;  // carry-less multiply on 128-bit registers
  bool ssse3 = false;      // pshufb (byte swaps for GHASH and counters)
  bool sse41 = false;      // pinsr/pextr used by the 128-bit engine
  bool os_ymm = false;     // the OS saves and restores the upper halves of ymm registers (XCR0 bits 1 and 2)
  bool avx = false;
  bool avx2 = false;
  bool bmi2 = false;        // the *_vaes.cc files are compiled with -mbmi2, so the compiler may emit it
  bool vaes = false;        // AES on ymm registers
  bool vpclmulqdq = false;  // carry-less multiply on ymm registers
};

// Detected once (CPUID + XGETBV) and cached.
const Features& features();

}  // namespace pcrypt::aes::cpu
