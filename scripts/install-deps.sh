#!/usr/bin/env bash
# Installs pcrypt's build and test dependencies from Debian/Ubuntu packages (skips what is already there).
set -euo pipefail
pkgs=(g++ cmake make pkg-config libsodium-dev libcli11-dev libspdlog-dev catch2 libxxhash-dev
  libssl-dev # libcrypto: SHA-3/SHAKE for ML-KEM (core/pq)
  valgrind # the portable engine's constant-time test runs itself under memcheck
  age openssh-client # interop tests parse keys made by the real age-keygen and ssh-keygen
  dpkg-dev) # dpkg-shlibdeps: cpack's .deb computes its dependencies with it
missing=()
for p in "${pkgs[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
[[ ${#missing[@]} -eq 0 ]] && exit 0
sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
