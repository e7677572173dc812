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
  const unsigned base_family = (eax >> 8) & 0xf;
  f.family = base_family == 0xf ? base_family + ((eax >> 20) & 0xff) : base_family;
  f.model = (eax >> 4) & 0xf;
  if (base_family == 0x6 || base_family == 0xf) f.model |= ((eax >> 16) & 0xf) << 4;
  // zmm registers need three more state components saved by the OS: opmask (5), ZMM_Hi256 (6), Hi16_ZMM (7).
  f.os_zmm = f.os_ymm && (read_xcr0() & 0xe0) == 0xe0;
  {
    unsigned vendor_ebx = 0, vendor_ecx = 0, vendor_edx = 0, ignored = 0;
    __get_cpuid(0, &ignored, &vendor_ebx, &vendor_ecx, &vendor_edx);
    // "GenuineIntel" as three little-endian registers.
    f.intel = vendor_ebx == 0x756e6547 && vendor_edx == 0x49656e69 && vendor_ecx == 0x6c65746e;
  }
  if (max_leaf >= 7 && __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) != 0) {
    f.avx2 = f.avx && (ebx & bit_AVX2) != 0;
    f.bmi2 = (ebx & bit_BMI2) != 0;
    f.vaes = f.avx && (ecx & bit_VAES) != 0;
    f.vpclmulqdq = f.avx && (ecx & bit_VPCLMULQDQ) != 0;
    f.avx512f = f.os_zmm && (ebx & bit_AVX512F) != 0;
    f.avx512bw = f.os_zmm && (ebx & bit_AVX512BW) != 0;
    f.avx512vl = f.os_zmm && (ebx & bit_AVX512VL) != 0;
    f.avx512dq = f.os_zmm && (ebx & bit_AVX512DQ) != 0;
    f.avx512ifma = f.os_zmm && (ebx & bit_AVX512IFMA) != 0;
  }
  return f;
}

}  // namespace

const Features& features() {
  static const Features cached = detect();
  return cached;
}

std::string_view zmm_downclock_reason(const Features& f) {
  // Family 6 models that run 512-bit instructions at a lower clock license (the Linux kernel's exclusion
  // list). Rocket Lake, Sapphire Rapids and later, and every AMD CPU with AVX-512 (Zen 4 and later) are fine.
  struct Model {
    unsigned model;
    std::string_view reason;
  };
  static constexpr Model kDownclocking[] = {
      {0x55, "Skylake-X/Cascade Lake server downclocks on 512-bit code"},
      {0x6a, "Ice Lake server downclocks on 512-bit code"},
      {0x6c, "Ice Lake-D downclocks on 512-bit code"},
      {0x7d, "Ice Lake client downclocks on 512-bit code"},
      {0x7e, "Ice Lake mobile downclocks on 512-bit code"},
      {0x9d, "Ice Lake NNP-I downclocks on 512-bit code"},
      {0x8c, "Tiger Lake mobile downclocks on 512-bit code"},
      {0x8d, "Tiger Lake desktop downclocks on 512-bit code"},
  };
  if (!f.intel || f.family != 6) return {};
  for (const Model& m : kDownclocking)
    if (m.model == f.model) return m.reason;
  return {};
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

// The vaes512 engine: the vaes engine's needs plus AVX-512 F/BW/VL/DQ with the OS saving zmm state.
bool vaes512_supported() {
  const cpu::Features& f = cpu::features();
  return vaes_supported() && f.os_zmm && f.avx512f && f.avx512bw && f.avx512vl && f.avx512dq;
}

std::string_view vaes512_not_preferred() {
  return cpu::zmm_downclock_reason(cpu::features());
}

}  // namespace detail
}  // namespace pcrypt::aes
