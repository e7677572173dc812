// CPU feature detection and the run-time choice of engine.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/aes/cpu.h"
#include "core/aes/engine.h"

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

const pcrypt::aes::Engine& engine(const char* name) {
  const pcrypt::aes::Engine* e = pcrypt::aes::find_engine(name);
  REQUIRE(e != nullptr);
  return *e;
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
  // The ymm engines must never be offered without OS support for the ymm state.
  if (f.avx2 || f.vaes || f.vpclmulqdq) CHECK(f.os_ymm);
}

TEST_CASE("engine support follows the features each engine needs") {
  const pcrypt::aes::cpu::Features& f = pcrypt::aes::cpu::features();
  CHECK(engine("aesni").supported() == (f.aesni && f.pclmulqdq && f.ssse3 && f.sse41));
  CHECK(engine("vaes").supported() ==
        (engine("aesni").supported() && f.avx2 && f.bmi2 && f.vaes && f.vpclmulqdq && f.os_ymm));
  CHECK(engine("portable").supported());
  for (const pcrypt::aes::Engine& e : pcrypt::aes::all_engines())
    WARN(e.name << (e.supported() ? ": supported" : ": SKIPPED, not supported on this CPU"));
}

TEST_CASE("the default engine is the first supported one, fastest first") {
  const pcrypt::aes::Engine* first = nullptr;
  for (const pcrypt::aes::Engine& e : pcrypt::aes::all_engines())
    if (first == nullptr && e.supported()) first = &e;
  REQUIRE(first != nullptr);
  CHECK(&pcrypt::aes::best_engine() == first);
  CHECK(&pcrypt::aes::select_engine() == first);
  CHECK(&pcrypt::aes::select_engine("auto") == first);
  if (engine("vaes").supported())
    CHECK(first->name == "vaes");
  else if (engine("aesni").supported())
    CHECK(first->name == "aesni");

  const std::string table = pcrypt::aes::describe_engines(first);
  CHECK(table.find("selected") == table.rfind("selected"));  // exactly one...
  CHECK(table.find(std::string(first->name) + std::string(10 - first->name.size(), ' ') + "selected") !=
        std::string::npos);
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
  CHECK(pcrypt::aes::select_engine("sodium").name == "sodium");
  const std::string unmarked = pcrypt::aes::describe_engines(nullptr);
  CHECK(unmarked.find("selected") == std::string::npos);
}
