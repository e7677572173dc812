#!/usr/bin/env bash
# Installs pcrypt's dependencies from Debian/Ubuntu packages (skips what is already there), for one purpose:
#   --build   what building pcrypt needs (the compiler, CMake and the libraries it links);
#   --demo    --build, plus eatmydata for scripts/demo.sh's "no fsync" measurement;
#   --test    (the default) --demo, plus what the test suite uses (scripts/test.sh): Catch2, valgrind, the real
#             age and ssh-keygen, the Python module and its fsspec/pandas/Dask tests, the .deb tools;
#   --arm64   --test, plus what the ARM64 cross build of scripts/test-arm64.sh needs.
# --list prints the packages of that purpose, one per line, and installs nothing.
# Usage: scripts/install-deps.sh [--build | --demo | --test | --arm64] [--list]
set -euo pipefail
build_pkgs=(g++ cmake make pkg-config libsodium-dev libcli11-dev libspdlog-dev libxxhash-dev
  # OpenSSL 3.0 libcrypto: RSA-OAEP (ssh-rsa recipients), AES-CTR/GCM of passphrase-protected SSH keys,
  # HKDF, HMAC, scrypt, ChaCha20-Poly1305 for age files (core/age/), and SHA-3/SHAKE for ML-KEM (core/pq/)
  libssl-dev
  # FUSE 3 for `pcrypt mount` (optional: without it the build leaves mount out, saying so)
  libfuse3-dev)
demo_pkgs=(eatmydata) # scripts/demo.sh: file-to-file speed without the final fsync, beside the default with it
test_pkgs=(catch2
  valgrind # the portable engine's constant-time test runs itself under memcheck
  zlib1g-dev # the CCTV age vectors are partly zlib-compressed (tests/test_age_cctv.cc), the C2SP ones too
  age openssh-client # interop tests parse keys made by the real age-keygen and ssh-keygen
  dpkg-dev file # cpack's .deb: dpkg-shlibdeps computes its dependencies, file(1) finds the binaries to strip
  groff-base # tests/cli/test_man.sh: groff -ww -z lints man/pcrypt.1 (man-db pulls it in, minimal images lack it)
  fuse3 sqlite3 # tests/cli/test_mount.sh: fusermount3 unmounts; sqlite3 -readonly reads a database in the mount
  python3 # CLI tests: an encrypt over one socket (test_hardening), the bench's JSON checks (test_bench)
  python3-dev pybind11-dev python3-pybind11 # the Python module (python/, docs/PYTHON.md)
  python3-pytest python3-fsspec python3-pandas python3-dask python3-distributed # its tests: fsspec, Dask
  # python/tests/test_http.py: nginx serves encrypted CSVs to Dask through fsspec's HTTP filesystem, which
  # needs aiohttp and requests (the test starts its own nginx on 127.0.0.1; the package's service is not used)
  nginx python3-aiohttp python3-requests
  python3-matplotlib # bench/scripts/plots.py draws docs/BENCHMARKS.md's plots (tests/cli/test_plots.sh)
  python3-cryptography # tests/cobblestone_ref.py: C2SP chunked encryption from the spec, the interop peer
  golang-go) # tests/cli/test_go_binding.sh: examples/go binds the C API with cgo (no modules)
# The cross compiler, qemu to run the arm64 test executables, and the arm64 builds of the libraries we link
# (multiarch: they sit beside the host's in /usr/lib/aarch64-linux-gnu; CLI11 and Catch2 are headers only):
# libsodium, OpenSSL's libcrypto, spdlog and its fmt, xxHash, and zlib for the CCTV age vectors' test.
# The Python module is not cross-built (no arm64 Python to run its tests under qemu), so no Python packages.
arm64_pkgs=(g++-aarch64-linux-gnu qemu-user-static
  libsodium-dev:arm64 libssl-dev:arm64 libspdlog-dev:arm64 libfmt-dev:arm64 libxxhash-dev:arm64
  zlib1g-dev:arm64)

purpose=test list=false
for arg in "$@"; do
  case $arg in
    --build | --demo | --test | --arm64) purpose=${arg#--} ;;
    --list) list=true ;;
    *)
      echo "install-deps.sh: unknown argument '$arg'" >&2
      echo "usage: scripts/install-deps.sh [--build | --demo | --test | --arm64] [--list]" >&2
      exit 2
      ;;
  esac
done
pkgs=("${build_pkgs[@]}")
case $purpose in
  demo) pkgs+=("${demo_pkgs[@]}") ;;
  test) pkgs+=("${demo_pkgs[@]}" "${test_pkgs[@]}") ;;
  arm64) pkgs+=("${demo_pkgs[@]}" "${test_pkgs[@]}" "${arm64_pkgs[@]}") ;;
esac
if $list; then
  printf '%s\n' "${pkgs[@]}"
  exit 0
fi

sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
if [[ $purpose == arm64 ]]; then
  [[ $'\n'$(dpkg --print-foreign-architectures)$'\n' == *$'\n'arm64$'\n'* ]] || $sudo dpkg --add-architecture arm64
fi
missing=()
for p in "${pkgs[@]}"; do [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == 'install ok installed' ]] || missing+=("$p"); done
[[ ${#missing[@]} -eq 0 ]] && exit 0
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
