#include "bench/machine.h"

#include <sys/utsname.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "core/aes/engine.h"

#ifndef PCRYPT_VERSION
#define PCRYPT_VERSION "unknown"
#endif

namespace pcrypt::app::bench {
namespace {

std::string cpuinfo_field(const std::string& name) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, name.size(), name) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    return value;
  }
  return {};
}

// The ISA features the engines and XOR kernels care about, as the kernel reports them.
// (ARM64 kernels call the line "Features"; under qemu-user it is the x86 host's /proc/cpuinfo, so the flags
// say nothing about the emulated CPU there.)
std::string cpu_flags() {
#if defined(PCRYPT_ENGINES_AARCH64)
  std::istringstream all(cpuinfo_field("Features"));
  const auto wanted = {"asimd", "aes", "pmull", "sha3"};
#else
  std::istringstream all(cpuinfo_field("flags"));
  const auto wanted = {"aes", "pclmulqdq", "avx2", "vaes", "vpclmulqdq", "avx512f"};
#endif
  std::set<std::string> present;
  for (std::string f; all >> f;) present.insert(f);
  std::string out;
  for (const char* f : wanted)
    out += std::string(out.empty() ? "" : " ") + f + (present.count(f) != 0 ? "=yes" : "=no");
  return out;
}

std::string compiler() {
#if defined(__clang__)
  return std::string("clang ") + __VERSION__;
#elif defined(__GNUC__)
  return std::string("GCC ") + __VERSION__;
#else
  return __VERSION__;
#endif
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string engines() {
  std::string out;
  for (const aes::Engine& e : aes::all_engines())
    out +=
        std::string(out.empty() ? "" : ", ") + std::string(e.name) + (e.supported() ? "" : " (unsupported)");
  return out;
}

}  // namespace

std::vector<Fact> machine_facts(const std::string& engine) {
  utsname u{};
  uname(&u);
  std::string cpu = cpuinfo_field("model name");
  return {
      {"cpu", "CPU", cpu.empty() ? "unknown" : cpu},
      {"logical_cores", "logical cores", std::to_string(std::thread::hardware_concurrency())},
      {"cpu_flags", "CPU flags", cpu_flags()},
      {"os", "OS", std::string(u.sysname) + " " + u.release + " " + u.machine},
      {"compiler", "compiler", compiler()},
      {"pcrypt_version", "pcrypt version", PCRYPT_VERSION},
      {"engines", "engines compiled in", engines()},
      {"engine", "engine (default for this run)", engine.empty() ? "none" : engine},
      {"clock", "clock", "std::chrono::steady_clock"},
      {"date", "date", utc_now()},
  };
}

}  // namespace pcrypt::app::bench
