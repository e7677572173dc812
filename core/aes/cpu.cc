#include "core/aes/cpu.h"

#include <cpuid.h>

#include <cstdint>

#include "core/aes/engine_registry.h"

namespace pcrypt::aes {
namespace cpu {
namespace {

// XGETBV is an OSXSAVE-gated instruction; inline asm keeps this file baseline (no -mxsave needed).
std::uint64_t read_xcr0() {
  std::uint32_t eax = 0, edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<std::uint64_t>(edx) << 32) | eax;
}

Features detect() {
  Features f;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const unsigned max_leaf = __get_cpuid_max(0, nullptr);
  if (max_leaf < 1 || __get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return f;
  f.aesni = (ecx & bit_AES) != 0;
  f.pclmulqdq = (ecx & bit_PCLMUL) != 0;
  f.ssse3 = (ecx & bit_SSSE3) != 0;
  f.sse41 = (ecx & bit_SSE4_1) != 0;
  const bool osxsave = (ecx & bit_OSXSAVE) != 0;
  const bool cpu_avx = (ecx & bit_AVX) != 0;
  // The CPU may support AVX while the OS does not save ymm state; using ymm registers then corrupts other
  // processes' registers or faults, so both XMM (bit 1) and YMM (bit 2) state must be enabled in XCR0.
  f.os_ymm = osxsave && (read_xcr0() & 0x6) == 0x6;
  f.avx = cpu_avx && f.os_ymm;
  if (max_leaf >= 7 && __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) != 0) {
    f.avx2 = f.avx && (ebx & bit_AVX2) != 0;
    f.bmi2 = (ebx & bit_BMI2) != 0;
    f.vaes = f.avx && (ecx & bit_VAES) != 0;
    f.vpclmulqdq = f.avx && (ecx & bit_VPCLMULQDQ) != 0;
  }
  return f;
}

}  // namespace

const Features& features() {
  static const Features cached = detect();
  return cached;
}

}  // namespace cpu

namespace detail {

bool aesni_supported() {
  const cpu::Features& f = cpu::features();
  return f.aesni && f.pclmulqdq && f.ssse3 && f.sse41;
}

// The vaes engine also runs the AES-NI key schedule, and its files are built with -mbmi2.
bool vaes_supported() {
  const cpu::Features& f = cpu::features();
  return aesni_supported() && f.avx2 && f.bmi2 && f.vaes && f.vpclmulqdq;
}

}  // namespace detail
}  // namespace pcrypt::aes
