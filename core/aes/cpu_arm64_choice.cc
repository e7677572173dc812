// The pure half of cpu_arm64.h: HWCAP bits to features, features to a kernel. No ARM code, built everywhere.
#include "core/aes/cpu_arm64.h"

namespace pcrypt::aes::cpu_arm64 {

Features from_hwcap(std::uint64_t hwcap) {
  Features f;
  f.asimd = (hwcap & kHwcapAsimd) != 0;
  f.aes = (hwcap & kHwcapAes) != 0;
  f.pmull = (hwcap & kHwcapPmull) != 0;
  f.sha3 = (hwcap & kHwcapSha3) != 0;
  return f;
}

GcmKernel choose_gcm_kernel(const Features& f) {
  // AES alone is not enough: GHASH needs PMULL (some cores have AES without PMULL).
  if (!f.asimd || !f.aes || !f.pmull) return GcmKernel::none;
  return f.sha3 ? GcmKernel::crypto_eor3 : GcmKernel::crypto;
}

std::string_view kernel_name(GcmKernel k) {
  switch (k) {
    case GcmKernel::crypto:
      return "AESE/AESMC + PMULL";
    case GcmKernel::crypto_eor3:
      return "AESE/AESMC + PMULL + EOR3";
    case GcmKernel::none:
      break;
  }
  return "none";
}

}  // namespace pcrypt::aes::cpu_arm64
