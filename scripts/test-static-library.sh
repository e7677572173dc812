#!/usr/bin/env bash
# libpcrypt's static build (PCRYPT_SHARED_LIBRARY=OFF, docs/LIBRARY.md), checked as a user gets it: configured
# into BUILD (default build-static/; with scripts/test.sh's flags, so that ccache, where installed, hands back
# the core's objects its build compiled: CI runs this in the stage after that build, .ci/run), only libpcrypt.a (and the packages' docs its install carries) built,
# installed into a scratch prefix, then
# examples/decrypt_range.cc compiled against it with `pkg-config --static` and with find_package(pcrypt),
# both without libpcrypt.so, and run on a file the library itself encrypted.
# Usage: scripts/test-static-library.sh [BUILD]   (BUILD_TYPE, default RelWithDebInfo; JOBS, default 2)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-static}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

launcher=()
if command -v ccache > /dev/null; then
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# The flags of scripts/test.sh's build/ (warnings as errors included): the same compiler command lines.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" -DPCRYPT_WERROR=ON \
  -DPCRYPT_SHARED_LIBRARY=OFF "${launcher[@]}" > "$scratch/configure.log" || { cat "$scratch/configure.log"; fail "configure"; }
cmake --build "$build" -j"${JOBS:-2}" --target pcrypt_lib pcrypt_man > "$scratch/build.log" || { tail -50 "$scratch/build.log"; fail "build"; }
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" --component development > /dev/null

echo "check: a static libpcrypt.a with the headers, pcrypt.pc and the CMake package; no shared library"
archive=$(find "$prefix" -name libpcrypt.a | head -1)
[[ -n $archive ]] || fail "no libpcrypt.a installed"
[[ -z $(find "$prefix" -name 'libpcrypt.so*') ]] || fail "a shared library was installed too"
[[ -f $prefix/include/pcrypt/pcrypt.h && -f $prefix/include/pcrypt/encryptor.h ]] || fail "headers"
pc=$(dirname "$(find "$prefix" -name pcrypt.pc | head -1)")
export PKG_CONFIG_PATH=$pc
[[ " $(pkg-config --static --libs pcrypt) " == *' -lsodium '* ]] || fail "pkg-config --static names no libsodium"
[[ " $(pkg-config --static --libs pcrypt) " == *' -lcrypto '* ]] || fail "pkg-config --static names no libcrypto"

echo "check: examples/decrypt_range.cc links with pkg-config --static"
# shellcheck disable=SC2046 # pkg-config's words are separate arguments
g++ -std=c++20 -O1 "$root/examples/decrypt_range.cc" -o "$scratch/decrypt_range" \
  $(pkg-config --static --cflags pcrypt) $(pkg-config --static --libs pcrypt) || fail "compile with pkg-config --static"
if [[ $(ldd "$scratch/decrypt_range") == *libpcrypt* ]]; then fail "the program needs libpcrypt.so"; fi

echo "check: ... and with find_package(pcrypt), which brings the static library's dependencies"
mkdir "$scratch/proj"
cp "$root/examples/decrypt_range.cc" "$scratch/proj/"
cat > "$scratch/proj/CMakeLists.txt" << 'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(uses_pcrypt CXX)
find_package(pcrypt REQUIRED)
add_executable(decrypt_range decrypt_range.cc)
target_link_libraries(decrypt_range PRIVATE pcrypt::pcrypt)
CMAKE
cmake -S "$scratch/proj" -B "$scratch/proj/build" -DCMAKE_PREFIX_PATH="$prefix" > "$scratch/proj.log" 2>&1 \
  || { cat "$scratch/proj.log"; fail "find_package(pcrypt)"; }
cmake --build "$scratch/proj/build" > "$scratch/proj.log" 2>&1 || { cat "$scratch/proj.log"; fail "build with find_package"; }

echo "check: the static program decrypts a range of an age file"
cat > "$scratch/make_file.cc" << 'CC'
#include <pcrypt/encryptor.h>  // the streaming encryptor (it includes pcrypt.h)
#include <fstream>
int main() {
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  std::ofstream("id.txt") << id.file_text;
  pcrypt::Recipients to;
  to.recipients = {id.recipient};
  pcrypt::Encryptor out(pcrypt::Sink::path("f.age", true), to, pcrypt::EncryptOptions{});
  for (int i = 0; i < 100000; ++i) {
    const std::string line = "line " + std::to_string(i) + "\n";
    out.write({reinterpret_cast<const std::uint8_t*>(line.data()), line.size()});
  }
  out.finish();
}
CC
# shellcheck disable=SC2046
g++ -std=c++20 -O1 "$scratch/make_file.cc" -o "$scratch/make_file" $(pkg-config --static --cflags --libs pcrypt) \
  || fail "compile a program using the streaming encryptor"
(cd "$scratch" && ./make_file)
printf 'line %d\n' {0..99999} > "$scratch/plain"
head -c 1070000 "$scratch/plain" | tail -c 70000 > "$scratch/want"  # bytes [1000000, 1070000): two age chunks
for program in "$scratch/decrypt_range" "$scratch/proj/build/decrypt_range"; do
  (cd "$scratch" && "$program" id.txt f.age 1000000 70000 > got) || fail "$program failed"
  cmp "$scratch/want" "$scratch/got" || fail "$program read other bytes"
done
echo "static libpcrypt: ok"
