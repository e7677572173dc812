// The armce engine's AES-GCM (AES-256 and AES-128): the kernel of gcm_armce_kernel.h with plain two-input EOR
// (ARMv8.0 + crypto), or, where the CPU has the SHA3 instructions, the EOR3 build of the same kernel in
// gcm_armce_sha3.cc. The choice is cpu_arm64::choose_gcm_kernel's, from HWCAP.
#include "core/aes/cpu_arm64.h"
#include "core/aes/engine_registry.h"
#include "core/aes/gcm_armce_kernel.h"
#include "core/aes/gcm_shell.h"

namespace pcrypt::aes::detail {
namespace {

struct PlainXor {
  static uint8x16_t xor3(uint8x16_t a, uint8x16_t b, uint8x16_t c) { return veorq_u8(veorq_u8(a, b), c); }
};

}  // namespace

std::unique_ptr<Gcm> make_armce_eor_gcm(std::span<const std::uint8_t> key) {
  if (key.size() == kGcm128KeyBytes) return std::make_unique<GcmShell<armce::GcmKernel<PlainXor, 10>>>(key);
  return std::make_unique<GcmShell<armce::GcmKernel<PlainXor, 14>>>(key);
}

namespace {

std::unique_ptr<Gcm> make_chosen(std::span<const std::uint8_t> key) {
  if (cpu_arm64::choose_gcm_kernel(cpu_arm64::features()) == cpu_arm64::GcmKernel::crypto_eor3)
    return make_armce_eor3_gcm(key);
  return make_armce_eor_gcm(key);
}

}  // namespace

std::unique_ptr<Gcm> make_armce_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key) {
  return make_chosen(key);
}

std::unique_ptr<Gcm> make_armce_gcm128(std::span<const std::uint8_t, kGcm128KeyBytes> key) {
  return make_chosen(key);
}

}  // namespace pcrypt::aes::detail
