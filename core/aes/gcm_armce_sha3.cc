// The armce kernel (gcm_armce_kernel.h) built with EOR3 from the SHA3 extension (compiled with +sha3): one
// instruction for each three-way XOR of the GHASH sums and of the last round. Reached only through
// make_armce_gcm, after HWCAP said SHA3 is present.
#include "core/aes/engine_registry.h"
#include "core/aes/gcm_armce_kernel.h"
#include "core/aes/gcm_shell.h"

namespace pcrypt::aes::detail {
namespace {

struct Eor3 {
  static uint8x16_t xor3(uint8x16_t a, uint8x16_t b, uint8x16_t c) { return veor3q_u8(a, b, c); }
};

}  // namespace

std::unique_ptr<Gcm> make_armce_eor3_gcm(std::span<const std::uint8_t> key) {
  if (key.size() == kGcm128KeyBytes) return std::make_unique<GcmShell<armce::GcmKernel<Eor3, 10>>>(key);
  return std::make_unique<GcmShell<armce::GcmKernel<Eor3, 14>>>(key);
}

}  // namespace pcrypt::aes::detail
