# Cross build for 64-bit ARM Linux on a Debian x86-64 machine (scripts/test-arm64.sh uses it): Debian's
# g++-aarch64-linux-gnu, the arm64 multiarch -dev packages under /usr/lib/aarch64-linux-gnu, and qemu to run
# what was built (tests, and `ctest` via CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# -cpu max: AES, PMULL and SHA3 (EOR3) visible in HWCAP, so armce and its EOR3 kernel run. -L /: the arm64
# loader and libc from the multiarch directories; with -L /usr/aarch64-linux-gnu (the cross toolchain's copy)
# the two libcs mix and every pthread_create hangs (docs: shared design notes on arm64).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static;-cpu;max;-L;/)
# pkg-config must read the arm64 .pc files, never the host's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
