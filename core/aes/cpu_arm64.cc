// The running AArch64 CPU's features, as the kernel reports them, and the armce engine's support check.
#include <asm/hwcap.h>
#include <sys/auxv.h>

#include "core/aes/cpu_arm64.h"
#include "core/aes/engine_registry.h"

namespace pcrypt::aes {
namespace cpu_arm64 {

static_assert(kHwcapAsimd == HWCAP_ASIMD && kHwcapAes == HWCAP_AES && kHwcapPmull == HWCAP_PMULL &&
              kHwcapSha3 == HWCAP_SHA3);

const Features& features() {
  static const Features cached = from_hwcap(getauxval(AT_HWCAP));
  return cached;
}

}  // namespace cpu_arm64

namespace detail {

bool armce_supported() {
  return cpu_arm64::choose_gcm_kernel(cpu_arm64::features()) != cpu_arm64::GcmKernel::none;
}

}  // namespace detail
}  // namespace pcrypt::aes
