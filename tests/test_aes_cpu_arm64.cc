// The AArch64 engine choice: HWCAP bits to features to a kernel (pure functions, tested on every
// architecture with made-up HWCAP words), and on AArch64 the live reading and the engine it picks.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "core/aes/cpu_arm64.h"
#include "core/aes/engine.h"

namespace cpu = pcrypt::aes::cpu_arm64;

TEST_CASE("HWCAP bits map to the features armce needs, each bit to its own feature") {
  const cpu::Features none = cpu::from_hwcap(0);
  CHECK_FALSE((none.asimd || none.aes || none.pmull || none.sha3));
  const cpu::Features all = cpu::from_hwcap(~std::uint64_t{0});
  CHECK((all.asimd && all.aes && all.pmull && all.sha3));
  // The Linux arm64 uapi values: HWCAP_ASIMD (1 << 1), HWCAP_AES (1 << 3), HWCAP_PMULL (1 << 4),
  // HWCAP_SHA3 (1 << 17). Neighbouring bits (FP, SHA1, SHA2, CRC32, ATOMICS, SHA512...) mean nothing here.
  CHECK(cpu::from_hwcap(1u << 1).asimd);
  CHECK(cpu::from_hwcap(1u << 3).aes);
  CHECK(cpu::from_hwcap(1u << 4).pmull);
  CHECK(cpu::from_hwcap(1u << 17).sha3);
  const cpu::Features others = cpu::from_hwcap((1u << 0) | (1u << 2) | (1u << 5) | (1u << 6) | (1u << 7) |
                                               (1u << 8) | (1u << 16) | (1u << 21));
  CHECK_FALSE((others.asimd || others.aes || others.pmull || others.sha3));
}

TEST_CASE("the armce kernel needs NEON, AES and PMULL, and uses EOR3 exactly when SHA3 is there") {
  using cpu::GcmKernel;
  const auto choose = [](bool asimd, bool aes, bool pmull, bool sha3) {
    cpu::Features f;
    f.asimd = asimd;
    f.aes = aes;
    f.pmull = pmull;
    f.sha3 = sha3;
    return cpu::choose_gcm_kernel(f);
  };
  CHECK(choose(true, true, true, false) == GcmKernel::crypto);      // e.g. Cortex-A72, Graviton 2
  CHECK(choose(true, true, true, true) == GcmKernel::crypto_eor3);  // e.g. Graviton 3, Apple M1
  // Missing any of the three: no armce at all (SHA3 alone does not help).
  for (int missing = 0; missing < 3; ++missing)
    for (bool sha3 : {false, true}) {
      INFO("missing " << missing << ", sha3 " << sha3);
      CHECK(choose(missing != 0, missing != 1, missing != 2, sha3) == GcmKernel::none);
    }
  CHECK(cpu::kernel_name(GcmKernel::crypto_eor3).find("EOR3") != std::string_view::npos);
  CHECK(cpu::kernel_name(GcmKernel::crypto).find("EOR3") == std::string_view::npos);
}

TEST_CASE("on AArch64, armce is supported exactly when HWCAP allows it, and then is the default") {
  const pcrypt::aes::Engine* armce = pcrypt::aes::find_engine("armce");
  REQUIRE(armce != nullptr);
#if defined(PCRYPT_ENGINES_AARCH64)
  const bool allowed = cpu::choose_gcm_kernel(cpu::features()) != cpu::GcmKernel::none;
  CHECK(armce->supported() == allowed);
  if (allowed) CHECK(&pcrypt::aes::best_engine() == armce);
  WARN("armce kernel here: " << cpu::kernel_name(cpu::choose_gcm_kernel(cpu::features())));
  // The x86-64 engines are listed but never supported on this architecture.
  for (const char* name : {"vaes512", "vaes", "aesni"})
    CHECK_FALSE(pcrypt::aes::find_engine(name)->supported());
#else
  CHECK_FALSE(armce->supported());
  WARN("SKIPPED: HWCAP reading and the armce engine are built only for AArch64");
#endif
}
