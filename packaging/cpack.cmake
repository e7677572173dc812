# Debian package: `cmake --build BUILD --target package` (or `cpack --config BUILD/CPackConfig.cmake`) writes
# pcrypt_<version>_<arch>.deb into BUILD. It installs bin/pcrypt and share/man/man1/pcrypt.1; runtime
# dependencies are computed by dpkg-shlibdeps from the binary (libsodium, spdlog/fmt), so they match the
# distribution it was built on.
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

set(CPACK_DEBIAN_PACKAGE_SECTION "utils")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Only the pcrypt executable and its man page; no development files exist to package.
set(CPACK_DEB_COMPONENT_INSTALL OFF)

include(CPack)
