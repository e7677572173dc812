// What an AArch64 CPU and the OS let the armce engine use, from Linux's HWCAP auxiliary vector, and the
// engine's run-time choice of kernel. The pure functions (from_hwcap, choose_gcm_kernel) are built on every
// architecture, so their unit tests run on x86-64 too; features() reads the running CPU and exists only in
// AArch64 builds.
#pragma once

#include <cstdint>
#include <string_view>

namespace pcrypt::aes::cpu_arm64 {

// Bits of AT_HWCAP on Linux/arm64 (the kernel's uapi asm/hwcap.h; cpu_arm64.cc checks them against it).
inline constexpr std::uint64_t kHwcapAsimd = std::uint64_t{1} << 1;
inline constexpr std::uint64_t kHwcapAes = std::uint64_t{1} << 3;
inline constexpr std::uint64_t kHwcapPmull = std::uint64_t{1} << 4;
inline constexpr std::uint64_t kHwcapSha3 = std::uint64_t{1} << 17;

struct Features {
  bool asimd = false;  // NEON (Advanced SIMD); always there on Linux/arm64, checked anyway
  bool aes = false;    // AESE/AESD/AESMC/AESIMC
  bool pmull = false;  // PMULL/PMULL2 on 64-bit lanes (carry-less multiply for GHASH)
  bool sha3 = false;   // EOR3 (three-way XOR) among the SHA-3 instructions
};

Features from_hwcap(std::uint64_t hwcap);

// Which AES-GCM kernel the armce engine runs: none (engine unsupported), the ARMv8.0 Crypto Extensions one,
// or the same with EOR3 folding two XORs of GHASH accumulation into one instruction.
enum class GcmKernel { none, crypto, crypto_eor3 };
GcmKernel choose_gcm_kernel(const Features& f);
std::string_view kernel_name(GcmKernel k);

// getauxval(AT_HWCAP), read once. Defined only in AArch64 builds (cpu_arm64.cc).
const Features& features();

}  // namespace pcrypt::aes::cpu_arm64
