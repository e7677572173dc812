#!/usr/bin/env bash
# pcrypt on ARM64, tested from an x86-64 Debian machine: cross-builds with g++-aarch64-linux-gnu, runs the
# whole ctest suite under qemu-aarch64-static -cpu max (the armce engine, its EOR3 kernel and the portable
# one), shows that `pcrypt --version` there selects armce, and checks that files cross architectures: x86-64
# encrypts and arm64 decrypts, and the reverse.
# Usage: scripts/test-arm64.sh [BUILD_DIR [HOST_BUILD_DIR]]
#   BUILD_DIR: the cross build (default build-arm64; kept between runs, so reruns are incremental).
#   HOST_BUILD_DIR: an x86-64 build whose pcrypt makes and opens the cross-architecture files (default
#   BUILD_DIR/host, configured here; CI can pass the build-test/ that scripts/test.sh already built).
# Timings under qemu mean nothing (docs/BENCHMARKS.md, "ARM64").
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-arm64}
host_build=${2:-$build/host}
scripts/install-deps.sh --arm64

launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
[[ -f $build/CMakeCache.txt ]] ||
  cmake -S . -B "$build" -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPCRYPT_WERROR=ON -DPCRYPT_BUILD_TESTS=ON "${launcher[@]}" > /dev/null
cmake --build "$build" -j2
[[ -f $host_build/CMakeCache.txt ]] ||
  cmake -S . -B "$host_build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPCRYPT_BUILD_TESTS=OFF "${launcher[@]}" > /dev/null
cmake --build "$host_build" -j2 --target pcrypt

# One emulator command line for everything run by hand below: the one ctest uses (cmake/aarch64-linux-gnu.cmake).
qemu=(qemu-aarch64-static -cpu max -L /)
arm=("${qemu[@]}" "$build/app/pcrypt")
x86=("$host_build/app/pcrypt")

echo "== pcrypt --version under ${qemu[*]}"
"${arm[@]}" --version | tee "$build/version.txt"
grep -q '^armce  *selected' "$build/version.txt" || { echo "FAIL: armce is not the selected engine" >&2; exit 1; }

echo "== ctest under qemu"
ctest --test-dir "$build" --output-on-failure -j2 --no-tests=error --timeout 1800

echo "== files cross architectures"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -c $((3 * 1024 * 1024 + 12345)) /dev/urandom > "$work/plain"
"${x86[@]}" keygen -o "$work/key" 2> /dev/null
"${x86[@]}" keygen --identity -o "$work/identity" 2> /dev/null
recipient=$("${arm[@]}" recipient "$work/identity")
export PCRYPT_PASSPHRASE=cross-architecture
cheap=(--kdf-memory 64KiB --kdf-ops 1)
fail() { echo "FAIL: $*" >&2; exit 1; }
for way in x86:arm arm:x86; do
  if [[ $way == x86:arm ]]; then sealer=("${x86[@]}") opener=("${arm[@]}"); else sealer=("${arm[@]}") opener=("${x86[@]}"); fi
  for engine in auto portable; do
    f=$work/$way-$engine
    "${sealer[@]}" encrypt -f --engine "$engine" -k "$work/key" -p "${cheap[@]}" -r "$recipient" \
      --chunk-size 64KiB -o "$f.pcrypt" "$work/plain"
    for cred in "-k $work/key" "-p" "-i $work/identity"; do
      # shellcheck disable=SC2086 # cred is two words on purpose
      "${opener[@]}" decrypt -f --engine "$engine" $cred -o "$f.out" "$f.pcrypt"
      cmp -s "$work/plain" "$f.out" || fail "$way, engine $engine, $cred: decrypted file differs"
    done
    "${opener[@]}" decrypt --engine "$engine" -k "$work/key" --offset 1MiB --length 100KiB "$f.pcrypt" > "$f.part"
    cmp -s <(tail -c +$((1024 * 1024 + 1)) "$work/plain" | head -c $((100 * 1024))) "$f.part" ||
      fail "$way, engine $engine: byte range differs"
    echo "ok: ${way/:/ -> }, engine $engine (key file, passphrase, X25519 recipient, byte range)"
  done
done
echo "== ARM64: all passed"
