// The constant-time tests' common part, ctgrind style: a hidden child test case marks the secret inputs
// undefined for valgrind's memcheck (VALGRIND_MAKE_MEM_UNDEFINED), which then reports every branch and every
// memory address computed from them; the visible test re-runs this very executable on that child under
// valgrind. Skipped (WARN) where valgrind or its headers are absent, in sanitizer builds and under an
// emulator.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

// GCC says which sanitizer it builds for with __SANITIZE_*__; clang (14) only through __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PCRYPT_CT_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PCRYPT_CT_SANITIZED 1
#endif
#if __has_include(<valgrind/memcheck.h>) && !defined(PCRYPT_CT_SANITIZED)
#include <valgrind/memcheck.h>
#define PCRYPT_HAVE_MEMCHECK 1
#endif

namespace pcrypt::test {

// Runs the test case named `child_test` (tagged "[.ct-child]") of this executable under memcheck, its
// output in `log` (in the test's working directory); fails on any memcheck error.
inline void run_child_under_memcheck(const std::string& child_test, const std::string& log) {
#if defined(PCRYPT_TEST_EMULATED)
  (void)child_test;
  (void)log;
  WARN("SKIPPED: this executable runs under an emulator (qemu), which valgrind cannot start it in");
#elif !defined(PCRYPT_HAVE_MEMCHECK)
  (void)child_test;
  (void)log;
  WARN("SKIPPED: valgrind headers unavailable or sanitizer build");
#else
  if (std::system("valgrind --version > /dev/null 2>&1") != 0) {
    WARN("SKIPPED: valgrind not installed");
    return;
  }
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string cmd =
      "valgrind --quiet --error-exitcode=97 '" + self + "' \"" + child_test + "\" > " + log + " 2>&1";
  const int status = std::system(cmd.c_str());
  INFO("memcheck child log: " << log << " in the test's working directory");
  REQUIRE(status == 0);
#endif
}

}  // namespace pcrypt::test
