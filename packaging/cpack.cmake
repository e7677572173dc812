# Debian packages, as Debian splits a library and its tool: `cmake --build BUILD --target package` (or
# `cpack --config BUILD/CPackConfig.cmake`, from any directory) writes three .debs into BUILD:
#  - pcrypt_<version>_<arch>.deb: the CLI, component cli: bin/pcrypt (stripped), share/man/man1/pcrypt.1.gz,
#    the bash, zsh and fish completions, and in share/doc/pcrypt README.md with every document it links to
#    (docs/*.md, so its links work there) and the copyright file;
#  - libpcrypt1_<version>_<arch>.deb: the shared library libpcrypt.so.1 (component library) and its copyright;
#  - libpcrypt-dev_<version>_<arch>.deb: <pcrypt/pcrypt.h>, the libpcrypt.so link, pcrypt.pc, the CMake
#    package, LIBRARY.md, the examples and its copyright (component development); it depends on libpcrypt1 of
#    its version.
# Each package's copyright file is packaging/copyright (Debian's machine-readable format). The three pass
# lintian without errors (tests/cli/test_package.sh where lintian is installed, and CI's fresh Debian stage).
# (tests/cli/test_package.sh checks the lists.) Runtime dependencies are computed by dpkg-shlibdeps from the
# binaries (libsodium, libcrypto, spdlog/fmt), so they match the distribution they were built on. The CLI
# is the library's first client: it links libpcrypt.so.1, so pcrypt depends on libpcrypt1 of its version
# (dpkg-shlibdeps finds the library in the build tree, which no package installed yet holds).
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "pcrypt")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
# Each package's Description is its own synopsis line and extended lines of at most 80 characters (lintian).
# CPack would put CPACK_PACKAGE_DESCRIPTION_SUMMARY above every component's description, unless it is CPack's
# own default: so it is that default, and each component's first line is its synopsis.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_PACKAGE_DESCRIPTION "${PROJECT_DESCRIPTION}")
# The maintainers as the repository's commits name them. No Homepage field: the project has no public page yet,
# and a made-up one would send users nowhere.
set(CPACK_PACKAGE_CONTACT "Seed 38a69114 maintainers <maintainers@users.noreply.a-seed-38a69114.example>")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "pcrypt")
set(CPACK_STRIP_FILES ON)
# Into the build directory, not wherever cpack happens to be run (`cpack -B DIR` still overrides it).
set(CPACK_PACKAGE_DIRECTORY "${PROJECT_BINARY_DIR}")

set(CPACK_DEBIAN_PACKAGE_SECTION "utils")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libpcrypt1's shlibs file (programs built against it depend on libpcrypt1 of at least this version) and its
# ldconfig trigger.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_LIBRARY_PACKAGE_CONTROL_EXTRA "${PROJECT_SOURCE_DIR}/packaging/triggers")
set(CPACK_DEBIAN_LIBRARY_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# A cross build packages for its target, in dpkg's names (cpack would otherwise ask dpkg for the build
# machine's). dpkg-shlibdeps needs no help: it reads the binary's ELF class and finds the arm64 multiarch
# libraries' shlibs (checked on Debian 12 with the packages of scripts/install-deps.sh --arm64).
if(CMAKE_CROSSCOMPILING AND PCRYPT_ENGINES_ARCH STREQUAL "aarch64")
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
endif()
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL cli library development)
set(CPACK_DEBIAN_CLI_PACKAGE_NAME "pcrypt")
set(CPACK_DEBIAN_LIBRARY_PACKAGE_NAME "libpcrypt1")
set(CPACK_DEBIAN_LIBRARY_PACKAGE_SECTION "libs")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME "libpcrypt-dev")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION "libdevel")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS "libpcrypt1 (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_CLI_PACKAGE_DEPENDS "libpcrypt1 (= ${PROJECT_VERSION})")
# `pcrypt mount` links libfuse3 (dpkg-shlibdeps adds libfuse3-3); fusermount3, which unmounts and lets
# users other than root mount, is fuse3's.
if(fuse3_FOUND)
  set(CPACK_DEBIAN_CLI_PACKAGE_RECOMMENDS "fuse3")
endif()
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${PROJECT_BINARY_DIR}/lib")
# (CPack indents the extended lines itself: a line given with a leading space would become verbatim text.)
set(CPACK_DEBIAN_CLI_DESCRIPTION "${PROJECT_DESCRIPTION}
pcrypt encrypts files and streams with AES-256-GCM in independently
authenticated chunks, sealed by several threads at once with bounded memory.
Files open with a key file, an Argon2id-stretched passphrase or a public-key
identity; truncation, reordering and tampering are detected. It also reads and
writes age files, and mounts encrypted files read-only (FUSE).")
set(CPACK_DEBIAN_LIBRARY_DESCRIPTION "age and pcrypt encrypted files from C++ (shared library)
libpcrypt opens, decrypts in parallel, verifies, reads byte ranges of, rekeys
and writes age files and pcrypt files.")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION "age and pcrypt encrypted files from C++ (development files)
The header pcrypt/pcrypt.h, the pkg-config and CMake files, the guide and the
examples of libpcrypt.")
# Each component's own package name in its file name (pcrypt_…, libpcrypt1_…, libpcrypt-dev_…).
set(CPACK_DEBIAN_CLI_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_LIBRARY_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_DEVELOPMENT_FILE_NAME DEB-DEFAULT)

include(CPack)
