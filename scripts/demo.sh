#!/usr/bin/env bash
# The Quick start: installs dependencies, builds pcrypt (Release, in build/), then encrypts and decrypts a
# 256 MiB random file, checks the round trip with cmp and prints the throughput of each step.
# Usage: scripts/demo.sh [SIZE_MIB]   (run from anywhere; works in a temporary directory it removes)
set -euo pipefail
cd "$(dirname "$0")/.."
size_mib=${1:-256}

scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPCRYPT_BUILD_TESTS=OFF > /dev/null
cmake --build build -j"$(nproc)" --target pcrypt
pcrypt=$(realpath build/app/pcrypt)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo
"$pcrypt" --version
echo
echo "== generating ${size_mib} MiB of random data"
head -c $((size_mib * 1024 * 1024)) /dev/urandom > "$work/data"

# Runs pcrypt and prints "<step>: <MiB> in <s> s (<MB/s>)" from the wall-clock time.
timed() {
  local step=$1
  shift
  local start end
  start=$(date +%s.%N)
  "$@"
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" -v n="$size_mib" -v step="$step" \
    'BEGIN { t = e - s; printf "%-8s %d MiB in %.3f s (%.0f MB/s)\n", step ":", n, t, n * 1048576 / t / 1e6 }'
}

echo "== keygen"
"$pcrypt" keygen -o "$work/key"
ls -l "$work/key"
echo "== encrypt / decrypt ($(nproc) cores)"
timed encrypt "$pcrypt" encrypt -k "$work/key" "$work/data"
mv "$work/data" "$work/data.orig"
timed decrypt "$pcrypt" decrypt -k "$work/key" "$work/data.pcrypt"
cmp "$work/data" "$work/data.orig"
echo "== cmp: decrypted file is identical to the original"
echo "== header of the encrypted file"
"$pcrypt" info "$work/data.pcrypt"
