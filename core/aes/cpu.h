// What the CPU and the OS let the hardware AES engines use. Baseline-compiled: safe to call on any x86-64.
#pragma once

#include <string_view>

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
  bool os_zmm = false;      // the OS saves opmask and zmm state (XCR0 bits 5, 6, 7) as well as ymm
  bool avx512f = false;     // each AVX-512 flag below is set only together with os_zmm
  bool avx512bw = false;    // byte masks (tails)
  bool avx512vl = false;
  bool avx512dq = false;
  bool avx512ifma = false;  // 52-bit integer multiply-add (core/chacha/'s Poly1305)
  // Which CPU model this is, for choices the feature flags cannot express (512-bit downclocking).
  bool intel = false;
  unsigned family = 0;  // display family (base + extended)
  unsigned model = 0;   // display model (extended model folded in for families 6 and 15)
};

// Detected once (CPUID + XGETBV) and cached.
const Features& features();

// Why 512-bit vector code should not be the default on this CPU, or empty if it should. Some Intel models
// lower the core clock while zmm instructions run (license-based downclocking), which costs the rest of the
// program more than the wider registers gain; like the Linux kernel's list (X86_FEATURE_PREFER_YMM), only
// those known models are excluded. A pure function of its argument, so it is testable with made-up CPUs.
std::string_view zmm_downclock_reason(const Features& f);

}  // namespace pcrypt::aes::cpu
