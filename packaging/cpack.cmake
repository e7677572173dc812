# Debian package: `cmake --build BUILD --target package` (or `cpack --config BUILD/CPackConfig.cmake`, from any
# directory) writes pcrypt_<version>_<arch>.deb into BUILD. It holds everything `cmake --install` installs:
# bin/pcrypt (stripped), share/man/man1/pcrypt.1, the bash, zsh and fish completions, and README.md, FORMAT.md
# and BENCHMARKS.md in share/doc/pcrypt (tests/cli/test_package.sh checks the list). Runtime dependencies are
# computed by dpkg-shlibdeps from the binary (libsodium, spdlog/fmt), so they match the distribution it was
# built on.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "pcrypt")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "pcrypt encrypts files and streams with AES-256-GCM in independently authenticated chunks, sealed by\
 several threads at once with bounded memory. Files open with a key file or an Argon2id-stretched\
 passphrase; truncation, reordering and tampering are detected.")
set(CPACK_PACKAGE_CONTACT "pcrypt maintainers <pcrypt@example.invalid>")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://example.invalid/pcrypt")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "pcrypt")
set(CPACK_STRIP_FILES ON)
# Into the build directory, not wherever cpack happens to be run (`cpack -B DIR` still overrides it).
set(CPACK_PACKAGE_DIRECTORY "${PROJECT_BINARY_DIR}")

set(CPACK_DEBIAN_PACKAGE_SECTION "utils")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# A cross build packages for its target, in dpkg's names (cpack would otherwise ask dpkg for the build
# machine's). dpkg-shlibdeps needs no help: it reads the binary's ELF class and finds the arm64 multiarch
# libraries' shlibs (checked on Debian 12 with the packages of scripts/install-deps.sh --arm64).
if(CMAKE_CROSSCOMPILING AND PCRYPT_ENGINES_ARCH STREQUAL "aarch64")
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
endif()
# One package with everything; no development files exist to package separately.
set(CPACK_DEB_COMPONENT_INSTALL OFF)

include(CPack)
