#!/usr/bin/env bash
# pcrypt on ARM64, tested from an x86-64 Debian machine: cross-builds with g++-aarch64-linux-gnu, runs the
# whole ctest suite (or the labels --labels chooses) under qemu-aarch64-static -cpu max (the armce engine, its
# EOR3 kernel and the portable one), shows that `pcrypt --version` there selects armce, and checks that files cross architectures: x86-64
# encrypts and arm64 decrypts, and the reverse, in pcrypt's format and in age's (with the real age binary too).
# Usage: scripts/test-arm64.sh [--labels REGEX] [BUILD_DIR [HOST_BUILD_DIR]]
#   --labels REGEX: only the ctest labels REGEX matches (ctest -L), and only their test executables (and pcrypt)
#   are cross-built; CI runs the engines, pipeline and formats this way (.ci/run). Default: the whole suite.
#   BUILD_DIR: the cross build (default build-arm64; kept between runs, so reruns are incremental).
#   HOST_BUILD_DIR: an x86-64 build whose pcrypt makes and opens the cross-architecture files (default
#   BUILD_DIR/host, configured here; CI can pass the build/ that scripts/test.sh already built).
# Timings under qemu mean nothing (docs/benchmarks/arm64.md).
set -euo pipefail
cd "$(dirname "$0")/.."
labels=""
if [[ ${1:-} == --labels ]]; then
  labels=${2:?usage: scripts/test-arm64.sh [--labels REGEX] [BUILD_DIR [HOST_BUILD_DIR]]}
  shift 2
fi
build=${1:-build-arm64}
host_build=${2:-$build/host}
scripts/install-deps.sh --arm64

# ccache makes a new build directory (CI's fresh clone) cheap: paths relative to the checkout, no working
# directory in the hash, so objects from earlier clones and developers' builds are reused.
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
start=$SECONDS
if [[ ! -f $build/CMakeCache.txt ]]; then
  # The configure lines that say what this build holds: the engines, and the Python module skipped (a cross
  # build has no arm64 Python to build it against or to run its tests under qemu). Build type Check (-O2 -g1,
  # the top CMakeLists.txt): this build is run under qemu for correctness, never shipped or debugged, and line
  # tables alone compile in 70 % of full debug information's time. A unity build (the libraries' files in
  # batches of 8, .ci/run says more) compiles them in about half the CPU time again.
  cmake -S . -B "$build" -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DCMAKE_BUILD_TYPE=Check \
    -DCMAKE_UNITY_BUILD=ON -DPCRYPT_WERROR=ON -DPCRYPT_BUILD_TESTS=ON "${launcher[@]}" | grep -E 'AES engines|Python module'
fi
targets=()
if [[ -n $labels ]]; then
  # The test executables of the chosen labels (tests/CMakeLists.txt: test_<area>*.cc has label <area>, the
  # CLI scripts label cli and need pcrypt alone), and pcrypt, which the cross-architecture checks below run.
  targets=(--target pcrypt)
  for src in tests/test_*.cc; do
    name=$(basename "$src" .cc)
    area=$(sed -E 's/^test_([a-z0-9]+).*/\1/' <<< "$name")
    [[ $name == *_speed || ! $area =~ $labels ]] || targets+=("$name")
  done
  echo "== labels matching '$labels': building ${targets[*]:1}"
fi
cmake --build "$build" -j2 "${targets[@]}"
echo "== cross build done in $((SECONDS - start)) s"
start=$SECONDS
# The flags of scripts/test.sh's build, so that ccache has the objects from developers' builds.
[[ -f $host_build/CMakeCache.txt ]] ||
  cmake -S . -B "$host_build" -DCMAKE_BUILD_TYPE=Release -DPCRYPT_WERROR=ON -DPCRYPT_BUILD_TESTS=OFF \
    "${launcher[@]}" > /dev/null
cmake --build "$host_build" -j2 --target pcrypt
echo "== x86-64 build of pcrypt ($host_build) done in $((SECONDS - start)) s"

# One emulator command line for everything run by hand below: the one ctest uses (cmake/aarch64-linux-gnu.cmake).
qemu=(qemu-aarch64-static -cpu max -L /)
arm=("${qemu[@]}" "$build/app/pcrypt")
x86=("$host_build/app/pcrypt")

echo "== pcrypt --version under ${qemu[*]}"
"${arm[@]}" --version | tee "$build/version.txt"
grep -q '^armce  *selected' "$build/version.txt" || { echo "FAIL: armce is not the selected engine" >&2; exit 1; }


echo "== ctest under qemu"
# Two tests at a time (the suite is mostly single-threaded). The CLI tests see PCRYPT_TEST_EMULATOR (set by
# tests/CMakeLists.txt) and measure less where they only measure (test_bench), saying so; nothing is excluded
# but what --labels leaves out.
start=$SECONDS
ctest --test-dir "$build" --output-on-failure -j2 --no-tests=error --timeout 900 ${labels:+-L "$labels"}
echo "== ctest under qemu done in $((SECONDS - start)) s"

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

echo "== age files cross architectures"
# age format (ChaCha20-Poly1305 through OpenSSL, not the AES engines): pcrypt on each side writes, pcrypt on
# the other reads; and the real age binary (x86-64) against pcrypt under qemu, both ways.
age-keygen -o "$work/age.key" 2> /dev/null
age_recipient=$(age-keygen -y "$work/age.key")
for way in x86:arm arm:x86; do
  if [[ $way == x86:arm ]]; then sealer=("${x86[@]}") opener=("${arm[@]}"); else sealer=("${arm[@]}") opener=("${x86[@]}"); fi
  f=$work/$way.age
  "${sealer[@]}" encrypt -f --format age -r "$age_recipient" -o "$f" "$work/plain"
  [[ $(head -c 22 "$f") == age-encryption.org/v1* ]] || fail "$way: $f is not an age file"
  "${opener[@]}" decrypt -f -i "$work/age.key" -o "$f.out" "$f"
  cmp -s "$work/plain" "$f.out" || fail "$way, age format: decrypted file differs"
  "${opener[@]}" decrypt -i "$work/age.key" --offset 1MiB --length 100KiB "$f" > "$f.part"
  cmp -s <(tail -c +$((1024 * 1024 + 1)) "$work/plain" | head -c $((100 * 1024))) "$f.part" ||
    fail "$way, age format: byte range differs"
  echo "ok: ${way/:/ -> }, age format (X25519 recipient, byte range)"
done
age -r "$age_recipient" -o "$work/real.age" "$work/plain"
"${arm[@]}" decrypt -f -i "$work/age.key" -o "$work/real.age.out" "$work/real.age"
cmp -s "$work/plain" "$work/real.age.out" || fail "age (x86-64) -> pcrypt (arm64): decrypted file differs"
age -d -i "$work/age.key" "$work/arm:x86.age" > "$work/arm.age.out"
cmp -s "$work/plain" "$work/arm.age.out" || fail "pcrypt (arm64) -> age (x86-64): decrypted file differs"
echo "ok: age $(age --version) (x86-64) -> pcrypt (arm64) and pcrypt (arm64) -> age"
echo "== ARM64: all passed"
