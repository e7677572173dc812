// CPU feature detection (x86-64: CPUID) and the run-time choice of engine. The AArch64 side (HWCAP) is in
// test_aes_cpu_arm64.cc.
#include <pcrypt/pcrypt.h>
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "app/cli.h"
#include "core/aes/engine.h"
#if defined(PCRYPT_ENGINES_X86_64)
#include "core/aes/cpu.h"
#endif

namespace {

const pcrypt::aes::Engine& engine(const char* name) {
  const pcrypt::aes::Engine* e = pcrypt::aes::find_engine(name);
  REQUIRE(e != nullptr);
  return *e;
}

}  // namespace

#if defined(PCRYPT_ENGINES_X86_64)
namespace {

// The kernel's view: it clears AVX-family flags when it does not manage their register state, so these flags
// should match our CPUID + XGETBV decision.
std::set<std::string> proc_cpuinfo_flags() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::set<std::string> flags;
    for (std::string w; words >> w;) flags.insert(w);
    return flags;
  }
  return {};
}

// The value of the first "key<tabs>: value" line of /proc/cpuinfo, or empty.
std::string proc_cpuinfo_field(const std::string& key) {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    while (!name.empty() && (name.back() == '\t' || name.back() == ' ')) name.pop_back();
    if (name == key) return colon + 2 <= line.size() ? line.substr(colon + 2) : std::string();
  }
  return {};
}

}  // namespace

TEST_CASE("detected CPU features match the kernel's /proc/cpuinfo flags") {
  const std::set<std::string> flags = proc_cpuinfo_flags();
  if (flags.empty()) {
    WARN("SKIPPED: /proc/cpuinfo has no flags line here");
    return;
  }
  const pcrypt::aes::cpu::Features& f = pcrypt::aes::cpu::features();
  CHECK(f.aesni == (flags.count("aes") == 1));
  CHECK(f.pclmulqdq == (flags.count("pclmulqdq") == 1));
  CHECK(f.ssse3 == (flags.count("ssse3") == 1));
  CHECK(f.sse41 == (flags.count("sse4_1") == 1));
  CHECK(f.avx == (flags.count("avx") == 1));
  CHECK(f.avx2 == (flags.count("avx2") == 1));
  CHECK(f.bmi2 == (flags.count("bmi2") == 1));
  CHECK(f.vaes == (flags.count("vaes") == 1));
  CHECK(f.vpclmulqdq == (flags.count("vpclmulqdq") == 1));
  CHECK(f.avx512f == (flags.count("avx512f") == 1));
  CHECK(f.avx512bw == (flags.count("avx512bw") == 1));
  CHECK(f.avx512vl == (flags.count("avx512vl") == 1));
  CHECK(f.avx512dq == (flags.count("avx512dq") == 1));
  // The ymm engines must never be offered without OS support for the ymm state, nor zmm ones without zmm.
  if (f.avx2 || f.vaes || f.vpclmulqdq) CHECK(f.os_ymm);
  if (f.avx512f || f.avx512bw || f.avx512vl || f.avx512dq) CHECK(f.os_zmm);
}

TEST_CASE("detected vendor, family and model match /proc/cpuinfo (they pick the 512-bit policy)") {
  const std::string vendor = proc_cpuinfo_field("vendor_id");
  const std::string family = proc_cpuinfo_field("cpu family");
  const std::string model = proc_cpuinfo_field("model");
  if (vendor.empty() || family.empty() || model.empty()) {
    WARN("SKIPPED: /proc/cpuinfo has no vendor_id/cpu family/model here");
    return;
  }
  const pcrypt::aes::cpu::Features& f = pcrypt::aes::cpu::features();
  CHECK(f.intel == (vendor == "GenuineIntel"));
  CHECK(f.family == std::stoul(family));
  CHECK(f.model == std::stoul(model));
}

TEST_CASE("engine support follows the features each engine needs") {
  const pcrypt::aes::cpu::Features& f = pcrypt::aes::cpu::features();
  CHECK(engine("aesni").supported() == (f.aesni && f.pclmulqdq && f.ssse3 && f.sse41));
  CHECK(engine("vaes").supported() ==
        (engine("aesni").supported() && f.avx2 && f.bmi2 && f.vaes && f.vpclmulqdq && f.os_ymm));
  CHECK(engine("vaes512").supported() ==
        (engine("vaes").supported() && f.os_zmm && f.avx512f && f.avx512bw && f.avx512vl && f.avx512dq));
  CHECK(engine("portable").supported());
  CHECK_FALSE(engine("armce").supported());  // AArch64 only: not built here
  for (const pcrypt::aes::Engine& e : pcrypt::aes::all_engines())
    WARN(e.name << (e.supported() ? ": supported" : ": SKIPPED, not supported on this CPU"));
}

TEST_CASE("512-bit code is avoided exactly on the Intel models that downclock on it") {
  using pcrypt::aes::cpu::Features;
  using pcrypt::aes::cpu::zmm_downclock_reason;
  const auto cpu = [](bool intel, unsigned family, unsigned model) {
    Features f;
    f.intel = intel;
    f.family = family;
    f.model = model;
    return f;
  };
  // The excluded models, each with a reason naming it.
  CHECK(zmm_downclock_reason(cpu(true, 6, 0x55)).find("Skylake") != std::string::npos);
  CHECK(zmm_downclock_reason(cpu(true, 6, 0x6a)) == "Ice Lake server downclocks on 512-bit code");
  for (unsigned model : {0x6cu, 0x7du, 0x7eu, 0x9du})
    CHECK(zmm_downclock_reason(cpu(true, 6, model)).find("Ice Lake") != std::string::npos);
  for (unsigned model : {0x8cu, 0x8du})
    CHECK(zmm_downclock_reason(cpu(true, 6, model)).find("Tiger Lake") != std::string::npos);
  // Rocket Lake, Sapphire Rapids, Emerald Rapids, Granite Rapids: 512-bit code is fine.
  for (unsigned model : {0xa7u, 0x8fu, 0xcfu, 0xadu})
    CHECK(zmm_downclock_reason(cpu(true, 6, model)).empty());
  // The same model numbers in another family or from another vendor mean other CPUs (e.g. AMD Zen 4 is
  // family 0x19): not excluded.
  CHECK(zmm_downclock_reason(cpu(true, 0xf, 0x6a)).empty());
  CHECK(zmm_downclock_reason(cpu(false, 6, 0x6a)).empty());
  CHECK(zmm_downclock_reason(cpu(false, 0x19, 0x11)).empty());
  CHECK(zmm_downclock_reason(cpu(false, 0x1a, 0x02)).empty());
}
#else
TEST_CASE("x86-64 CPU detection") {
  WARN("SKIPPED: CPUID detection and the x86-64 engines are not built for this architecture");
  CHECK_FALSE(engine("aesni").supported());
  CHECK_FALSE(engine("vaes").supported());
  CHECK_FALSE(engine("vaes512").supported());
}
#endif

TEST_CASE("the default engine is the first supported and preferred one, fastest first") {
  const pcrypt::aes::Engine* first = nullptr;
  for (const pcrypt::aes::Engine& e : pcrypt::aes::all_engines())
    if (first == nullptr && e.supported() && (e.not_preferred == nullptr || e.not_preferred().empty()))
      first = &e;
  REQUIRE(first != nullptr);
  CHECK(&pcrypt::aes::best_engine() == first);
  CHECK(&pcrypt::aes::select_engine() == first);
  CHECK(&pcrypt::aes::select_engine("auto") == first);
#if defined(PCRYPT_ENGINES_X86_64)
  const bool zmm_ok = pcrypt::aes::cpu::zmm_downclock_reason(pcrypt::aes::cpu::features()).empty();
#else
  const bool zmm_ok = true;  // nothing 512-bit here (vaes512 is unsupported)
#endif
  if (engine("vaes512").supported() && zmm_ok)
    CHECK(first->name == "vaes512");
  else if (engine("vaes").supported())
    CHECK(first->name == "vaes");
  else if (engine("aesni").supported())
    CHECK(first->name == "aesni");
  else if (engine("armce").supported())
    CHECK(first->name == "armce");

  // The table `pcrypt --version` prints (app/cli.h), from the library's list of the same engines.
  const std::string table = pcrypt::app::describe_engines(std::string(first->name));
  CHECK(table.find("selected") == table.rfind("selected"));  // exactly one...
  CHECK(table.find(std::string(first->name) + std::string(10 - first->name.size(), ' ') + "selected") !=
        std::string::npos);
  // The table says which engine is the default and why the faster ones were passed over.
  const std::string reason = pcrypt::aes::best_engine_reason();
  CHECK(reason.rfind(std::string(first->name) + " (", 0) == 0);
  CHECK(table.find("default: " + reason) != std::string::npos);
  if (engine("vaes512").supported() && !zmm_ok)
    CHECK(reason.find("vaes512 not preferred: ") != std::string::npos);
  if (!engine("vaes512").supported()) CHECK(reason.find("vaes512 not supported") != std::string::npos);
}

TEST_CASE("an engine name chooses that engine, and unknown or unsupported names are refused") {
  // Only the name: $PCRYPT_ENGINE is read by the CLI (tests/cli/test_roundtrip.sh covers it), never here.
  for (const pcrypt::aes::Engine& e : pcrypt::aes::all_engines()) {
    INFO("engine " << e.name);
    if (e.supported())
      CHECK(&pcrypt::aes::select_engine(e.name) == &e);
    else
      CHECK_THROWS_AS(pcrypt::aes::select_engine(e.name), std::invalid_argument);
  }
  CHECK_THROWS_AS(pcrypt::aes::select_engine("rot13"), std::invalid_argument);
  if (engine("sodium").supported()) CHECK(pcrypt::aes::select_engine("sodium").name == "sodium");
  const std::string unmarked = pcrypt::app::describe_engines(std::nullopt);
  CHECK(unmarked.find("selected") == std::string::npos);
  // age's payload cipher is listed too, OpenSSL's among its backends on every CPU; an unknown name is the
  // Session's usage error.
  CHECK(unmarked.find("age payloads, ChaCha20-Poly1305:") != std::string::npos);
  CHECK(unmarked.find(" openssl") != std::string::npos);
  try {
    (void)pcrypt::app::describe_engines(std::string("no-such-engine"));
    FAIL("an unknown engine was described");
  } catch (const pcrypt::Error& e) {
    CHECK(e.code() == PCRYPT_E_UNKNOWN_ENGINE);
  }
}
