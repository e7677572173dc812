#!/usr/bin/env bash
# Installs pcrypt's build and test dependencies from Debian/Ubuntu packages (skips what is already there).
# With --arm64 also what the ARM64 cross build of scripts/test-arm64.sh needs.
set -euo pipefail
pkgs=(g++ cmake make pkg-config libsodium-dev libcli11-dev libspdlog-dev catch2 libxxhash-dev
  valgrind # the portable engine's constant-time test runs itself under memcheck
  age openssh-client # interop tests parse keys made by the real age-keygen and ssh-keygen
  dpkg-dev) # dpkg-shlibdeps: cpack's .deb computes its dependencies with it
arm64=false
[[ ${1:-} == --arm64 ]] && arm64=true
sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
if $arm64; then
  # The cross compiler, qemu to run the arm64 test executables, and the arm64 builds of the libraries we link
  # (multiarch: they sit beside the host's in /usr/lib/aarch64-linux-gnu; CLI11 and Catch2 are headers only).
  pkgs+=(g++-aarch64-linux-gnu qemu-user-static
    libsodium-dev:arm64 libspdlog-dev:arm64 libfmt-dev:arm64 libxxhash-dev:arm64)
  dpkg --print-foreign-architectures | grep -qx arm64 || $sudo dpkg --add-architecture arm64
fi
missing=()
for p in "${pkgs[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
[[ ${#missing[@]} -eq 0 ]] && exit 0
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
