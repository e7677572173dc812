# Read by cpack (CPACK_PROJECT_CONFIG_FILE) for a cross build's package: dpkg-shlibdeps, which cpack runs to
# compute the runtime dependencies, takes the architecture to resolve libraries for from DEB_HOST_ARCH.
set(ENV{DEB_HOST_ARCH} "${CPACK_DEBIAN_PACKAGE_ARCHITECTURE}")
