#!/usr/bin/env bash
# The Quick start: installs what the build needs (scripts/install-deps.sh --demo: the compiler, CMake, the
# libraries pcrypt links, and eatmydata; nothing the tests use), builds pcrypt (Release, in build/), then
# encrypts and decrypts a 256 MiB random file, checks the round trip with cmp and prints the throughput of each
# step, labelled by what it measures:
#   page cache -> /dev/null   the tool itself: read from memory, seal or open on every core, write nowhere;
#   file -> file, no fsync    plus writing the output into the page cache (eatmydata turns the final fsync
#                             into a no-op), which is what age, gpg or zstd measure, as none of them fsyncs;
#   file -> file + fsync      what the CLI does by default: the output is on the disk before it is renamed
#                             into place, so this is the disk's write speed more than pcrypt's;
#   cp + sync                 the same bytes copied and synced: the disk's own speed, for comparison.
# Every file step starts after a `sync`, so no step pays for the write-back of an earlier one: on a virtual
# disk a burst of writes is absorbed fast and the next one waits for it (docs/benchmarks/demo.md).
# Usage: scripts/demo.sh [SIZE_MIB]   (run from anywhere; works in a temporary directory it removes)
set -euo pipefail
cd "$(dirname "$0")/.."
size_mib=${1:-256}

scripts/install-deps.sh --demo
# The configuration of scripts/test.sh (build/, Release, warnings as errors: none on Debian 12's GCC, which CI
# builds with every run), so that the test command after this one compiles only what this one did not (the
# tests, the library's examples, the Python module), not pcrypt's core again. Elsewhere, docs/BUILDING.md's
# plain cmake.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPCRYPT_WERROR=ON -DPCRYPT_BUILD_TESTS=OFF > /dev/null
cmake --build build -j"$(nproc)" --target pcrypt
pcrypt=$(realpath build/app/pcrypt)

# The temporary directory is in the repository (ignored by git), not /tmp, so the file steps measure the
# disk the user builds on rather than a tmpfs.
mkdir -p build/demo
work=$(mktemp -d "$PWD/build/demo/run.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo
"$pcrypt" --version
echo
echo "== generating ${size_mib} MiB of random data ($(nproc) cores, $(df -T "$work" | awk 'NR == 2 { print $2 }') file system)"
head -c $((size_mib * 1024 * 1024)) /dev/urandom > "$work/data"
"$pcrypt" keygen -o "$work/key"
sync

# timed LABEL COMMAND...: runs the command once and prints "LABEL  <MiB> in <s> s  (<MB/s>)".
timed() {
  local label=$1 start end
  shift
  start=$(date +%s.%N)
  "$@"
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" -v n="$size_mib" -v label="$label" \
    'BEGIN { t = e - s; printf "  %-44s %4d MiB in %6.3f s  %6.0f MB/s\n", label, n, t, n * 1048576 / t / 1e6 }'
}

echo "== encrypt and decrypt (MB/s = 10^6 bytes of plaintext per second)"
"$pcrypt" encrypt -q -k "$work/key" "$work/data" -o "$work/warm.pcrypt" # reads data into the page cache
timed "encrypt  page cache -> /dev/null" "$pcrypt" encrypt -k "$work/key" "$work/data" -o /dev/null
timed "decrypt  page cache -> /dev/null" "$pcrypt" decrypt -k "$work/key" "$work/warm.pcrypt" -o /dev/null
sync
timed "encrypt  file -> file, no fsync (eatmydata)" eatmydata "$pcrypt" encrypt -k "$work/key" "$work/data" -o "$work/nosync.pcrypt"
sync
timed "decrypt  file -> file, no fsync (eatmydata)" eatmydata "$pcrypt" decrypt -k "$work/key" "$work/nosync.pcrypt" -o "$work/nosync.out"
rm -f "$work/nosync.pcrypt" "$work/nosync.out" "$work/warm.pcrypt"
sync
timed "encrypt  file -> file + fsync (the default)" "$pcrypt" encrypt -k "$work/key" "$work/data"
mv "$work/data" "$work/data.orig"
sync
timed "decrypt  file -> file + fsync (the default)" "$pcrypt" decrypt -k "$work/key" "$work/data.pcrypt"
sync
timed "cp + sync  (the disk's own speed)" sh -c 'cp "$1" "$2" && sync "$2"' sh "$work/data.pcrypt" "$work/copy"
cmp "$work/data" "$work/data.orig"
echo "== cmp: the decrypted file is identical to the original"
echo "== header of the encrypted file"
"$pcrypt" info "$work/data.pcrypt"
