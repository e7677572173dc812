#!/usr/bin/env bash
# libpcrypt as a user gets it (issue 25): installed from this build into a scratch prefix, the two examples
# built out of tree -- with pkg-config and with a CMake project's find_package(pcrypt) -- then run on files
# written by the real age and by pcrypt.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

build=$(dirname "$(dirname "$PCRYPT")")
src=$2
command -v age > /dev/null || { echo "SKIPPED: age is not installed"; exit 0; }
install_library
prefix=$PREFIX pc=$PC libdir=$LIBDIR

check "the installed library: a SONAME'd .so, the .so link, the header, pkg-config and CMake files"
[[ $(readelf -d "$libdir/libpcrypt.so.1" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p') == libpcrypt.so.1 ]] || fail "SONAME"
[[ -L $libdir/libpcrypt.so ]] || fail "no libpcrypt.so development link"
[[ -f $prefix/include/pcrypt/pcrypt.h ]] || fail "no header"
[[ -n $(find "$prefix" -name pcrypt-config.cmake) ]] || fail "no CMake package"
check "only the public API is exported (pcrypt::v1 and the C API's pcrypt_*), nothing of the core"
exported=$(nm -D --defined-only "$libdir/libpcrypt.so.1" | c++filt | awk '$2 ~ /^[TDBVW]$/' | sed 's/^[^ ]* [A-Z] //')
beyond=$(grep -v -e '^pcrypt::v1::' -e '^typeinfo .*pcrypt::v1::' -e '^vtable for pcrypt::v1::' -e '^_init$' -e '^_fini$' \
  -e '^pcrypt_[a-z0-9_]*$' <<< "$exported" || true)
[[ -z $beyond ]] || fail "exported beyond the API: $(head -5 <<< "$beyond")"
check "every function of <pcrypt/pcrypt_c.h> is exported with C linkage, and no pcrypt_* symbol beyond them"
declared=$(grep -o '^PCRYPT_API [^(]*(' "$prefix/include/pcrypt/pcrypt_c.h" | sed 's/($//; s/.*[ *]//' | sort)
[[ $(wc -l <<< "$declared") -gt 50 ]] || fail "the C header declares too few functions: $declared"
[[ $declared == "$(grep '^pcrypt_' <<< "$exported" | sort)" ]] ||
  fail "the C header and the exports differ: $(diff <(echo "$declared") <(grep '^pcrypt_' <<< "$exported" | sort) | head -5)"

check "the examples build with pkg-config"
g++ -std=c++20 -O1 "$src/examples/decrypt_range.cc" -o dr_pc $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs pcrypt)
g++ -std=c++20 -O1 "$src/examples/encrypt_to.cc" -o et_pc $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs pcrypt)
g++ -std=c++20 -O1 "$src/examples/read_stream.cc" -o rs_pc $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs pcrypt)

check "pcrypt.pc asks for C++20 as a minimum without forcing it: a C++23 program stays C++23, C++17 is told"
[[ -f $prefix/include/pcrypt/reader.h ]] || fail "no reader header"
cat > std_probe.cc << 'CXX'
#include <pcrypt/pcrypt.h>
static_assert(__cplusplus > 202002L, "compiled as C++20 although a later standard was asked for");
int main() { return pcrypt::version().empty() ? 1 : 0; }
CXX
g++ -std=c++2b -O1 std_probe.cc -o std_probe $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs pcrypt) ||
  fail "a C++23 program does not build as C++23 with pcrypt.pc's flags"
LD_LIBRARY_PATH=$libdir ./std_probe || fail "the C++23 program does not run"
if g++ -std=c++17 -fsyntax-only std_probe.cc $(PKG_CONFIG_PATH=$pc pkg-config --cflags pcrypt) 2> std17.err; then
  fail "the header compiled as C++17"
fi
grep -q "libpcrypt needs C++20 or later" std17.err || fail "C++17 is not told what the header needs: $(head -3 std17.err)"

check "the examples build with a two-line CMake project using find_package(pcrypt)"
mkdir proj
cp "$src/examples/decrypt_range.cc" "$src/examples/encrypt_to.cc" "$src/examples/read_stream.cc" proj/
cat > proj/CMakeLists.txt << 'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(uses_pcrypt CXX)
find_package(pcrypt REQUIRED)
foreach(e decrypt_range encrypt_to read_stream)
  add_executable(${e} ${e}.cc)
  target_link_libraries(${e} PRIVATE pcrypt::pcrypt)
endforeach()
CMAKE
cmake -S proj -B proj/build -DCMAKE_PREFIX_PATH="$prefix" > cmake.log 2>&1 || { cat cmake.log; fail "cmake"; }
cmake --build proj/build > build.log 2>&1 || { cat build.log; fail "build"; }
export LD_LIBRARY_PATH=$libdir

# expect_out CODE CMD...: as expect, with standard output kept in ./stdout.
expect_out() {
  local want=$1 got=0
  shift
  "$@" > stdout 2> stderr || got=$?
  [[ $got == "$want" ]] || fail "expected exit $want, got $got: $* ($(cat stderr))"
}

age-keygen -o id.txt 2> /dev/null
recipient=$(age-keygen -y id.txt)
head -c 300000 /dev/urandom > plain
age -r "$recipient" -o byage.age plain
for dr in ./dr_pc ./proj/build/decrypt_range; do
  check "$dr: a range of a file written by age"
  expect_out 0 "$dr" id.txt byage.age 100000 70000
  cmp -s stdout <(tail -c +100001 plain | head -c 70000) || fail "$dr: wrong bytes"
done

check "decrypt_range on a damaged chunk: one error line (and its hint), exit 4, nothing on stdout"
cp byage.age damaged.age
size=$(stat -c %s damaged.age)
flip_byte damaged.age $((size - 200))
expect_out 4 ./dr_pc id.txt damaged.age 299000 1000
[[ ! -s stdout ]] || fail "bytes of a damaged chunk were written"
[[ $(grep -c '^decrypt_range: error: payload authentication failed' stderr) -eq 1 &&
  $(grep -vc '^decrypt_range: hint: ' stderr) -eq 1 ]] || fail "not one error line: $(cat stderr)"

for et in ./et_pc ./proj/build/encrypt_to; do
  check "$et age: age -d opens it"
  rm -f to.age to.pcrypt
  expect 0 "$et" age "$recipient" plain to.age
  age -d -i id.txt to.age | cmp -s - plain || fail "$et: age could not open it"
  check "$et pcrypt: pcrypt decrypt opens it, decrypt_range reads it"
  expect 0 "$et" pcrypt "$recipient" plain to.pcrypt
  "$PCRYPT" decrypt -i id.txt to.pcrypt -o - | cmp -s - plain || fail "$et: pcrypt could not open it"
  expect_out 0 ./dr_pc id.txt to.pcrypt 5 10
  cmp -s stdout <(tail -c +6 plain | head -c 10) || fail "$et: range of its pcrypt file"
done

check "encrypt_to refuses an existing output and a bad recipient, one line each"
expect 1 ./et_pc age "$recipient" plain to.age
expect 2 ./et_pc age age1notarecipient plain other.age
[[ ! -e other.age ]] || fail "output written after an error"

# The C examples (examples/c/, the C API of <pcrypt/pcrypt_c.h>), built as strict C11 against the installed
# library with pkg-config and with find_package, run on files the real age wrote and opened by age.
check "the C examples build as C11 (-Wall -Wextra -Werror -pedantic) with pkg-config"
c_flags=(-std=c11 -Wall -Wextra -Werror -pedantic -O1)
gcc "${c_flags[@]}" "$src/examples/c/decrypt_stream.c" -o ds_pc $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs pcrypt)
gcc "${c_flags[@]}" "$src/examples/c/encrypt_stream.c" -o es_pc $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs pcrypt)
check "the C examples build with a C-only CMake project using find_package(pcrypt)"
mkdir cproj
cp "$src/examples/c/decrypt_stream.c" "$src/examples/c/encrypt_stream.c" cproj/
cat > cproj/CMakeLists.txt << 'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(uses_pcrypt_from_c C)
find_package(pcrypt REQUIRED)
foreach(e decrypt_stream encrypt_stream)
  add_executable(${e} ${e}.c)
  target_link_libraries(${e} PRIVATE pcrypt::pcrypt)
endforeach()
CMAKE
cmake -S cproj -B cproj/build -DCMAKE_PREFIX_PATH="$prefix" > cmake.log 2>&1 || { cat cmake.log; fail "cmake (C)"; }
cmake --build cproj/build > build.log 2>&1 || { cat build.log; fail "build (C)"; }
age -a -r "$recipient" -o armored.age plain
# The C reader (examples/c/decrypt_stream.c) and its C++ twin (examples/read_stream.cc, pcrypt::Reader), each
# built with pkg-config and with CMake: the same checks for both.
check_pull_reader() {  # NAME (as it prefixes its errors) and its two builds
  local name=$1 pc_build=$2 cmake_build=$3 program
  for program in "$pc_build" "$cmake_build"; do
    check "$program: files written by age, binary and armored, through the $name reader"
    expect_out 0 "$program" id.txt byage.age
    cmp -s stdout plain || fail "$program: wrong plaintext"
    expect_out 0 "$program" id.txt armored.age
    cmp -s stdout plain || fail "$program: wrong plaintext of the armored file"
  done
  check "$name on a damaged record: the records before it, then one error line, exit 4"
  expect_out 4 "$pc_build" id.txt damaged.age
  cmp -s stdout <(head -c "$(stat -c %s stdout)" plain) || fail "bytes that are not the plaintext's were written"
  [[ $(stat -c %s stdout) -eq 262144 ]] ||
    fail "expected the four intact records before the damaged one (262144 bytes), got $(stat -c %s stdout) bytes"
  [[ $(grep -c "^$name: error: payload authentication failed" stderr) -eq 1 ]] ||
    fail "not one error line: $(cat stderr)"
}
check_pull_reader decrypt_stream ./ds_pc ./cproj/build/decrypt_stream
check_pull_reader read_stream ./rs_pc ./proj/build/read_stream
check "decrypt_stream with the wrong identity: exit 3, nothing written"
age-keygen -o other.txt 2> /dev/null
expect_out 3 ./ds_pc other.txt byage.age
[[ ! -s stdout ]] || fail "plaintext written without the key"
expect_out 3 ./rs_pc other.txt byage.age
[[ ! -s stdout ]] || fail "read_stream: plaintext written without the key"
for es in ./es_pc ./cproj/build/encrypt_stream; do
  check "$es: age -d opens its age file, pcrypt its pcrypt file"
  rm -f c.age c.pcrypt
  expect 0 "$es" age "$recipient" c.age < plain
  age -d -i id.txt c.age | cmp -s - plain || fail "$es: age could not open it"
  expect 0 "$es" pcrypt "$recipient" c.pcrypt < plain
  "$PCRYPT" decrypt -i id.txt c.pcrypt -o - | cmp -s - plain || fail "$es: pcrypt could not open it"
done
check "encrypt_stream refuses an existing output and a bad recipient (exit 1, 2), writing nothing"
expect 1 ./es_pc age "$recipient" c.age < plain
expect 2 ./es_pc age age1notarecipient other.age < plain
[[ ! -e other.age ]] || fail "output written after an error"
