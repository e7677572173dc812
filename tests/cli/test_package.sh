#!/usr/bin/env bash
# Packaging (packaging/cpack.cmake, the install rules in CMakeLists.txt): the .deb that cpack builds from this
# build directory holds the stripped binary, the man page, the bash/zsh/fish completions and the docs, and
# `cmake --install --strip` installs the same files. cpack writes into a temporary directory here (the
# build directory is the default), so the test leaves the build tree as it was.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

build=$(dirname "$(dirname "$PCRYPT")")
if [[ ! -f $build/CPackConfig.cmake || ! -f $build/cmake_install.cmake ]]; then
  echo "SKIPPED: $build is not a CMake build directory with CPack"
  exit 0
fi

expected=(
  usr/bin/pcrypt
  usr/share/man/man1/pcrypt.1.gz
  usr/share/bash-completion/completions/pcrypt
  usr/share/zsh/vendor-completions/_pcrypt
  usr/share/fish/vendor_completions.d/pcrypt.fish
  usr/share/doc/pcrypt/README.md
  usr/share/doc/pcrypt/copyright
  usr/share/doc/pcrypt/docs/ARCHITECTURE.md
  usr/share/doc/pcrypt/docs/BENCHMARKS.md
  usr/share/doc/pcrypt/docs/BUILDING.md
  usr/share/doc/pcrypt/docs/benchmarks/method.md
  usr/share/doc/pcrypt/docs/FORMAT.md
  usr/share/doc/pcrypt/docs/LIBRARY.md
  usr/share/doc/pcrypt/docs/PYTHON.md
  usr/share/doc/pcrypt/docs/USAGE.md
)

# is_stripped FILE: no symbol table and no DWARF left.
is_stripped() {
  if command -v readelf > /dev/null; then
    # grep -q stops reading at its match: the producer's output is taken whole first, or under pipefail a
    # SIGPIPE in the producer would fail the pipeline at random.
    local sections
    sections=$(readelf -S "$1")
    if grep -qE '\.symtab|\.debug_info' <<< "$sections"; then return 1; fi
  else
    file "$1" | finds ', stripped'
  fi
}

check "cmake --install --strip installs the binary, man page, completions and docs"
cmake --install "$build" --prefix "$WORK/inst/usr" --strip > install.log || fail "cmake --install failed"
for f in "${expected[@]}"; do [[ -f inst/$f ]] || fail "cmake --install did not install $f"; done
is_stripped inst/usr/bin/pcrypt || fail "cmake --install --strip left symbols in the binary"
cmp -s inst/usr/share/bash-completion/completions/pcrypt "$SOURCE_DIR/completions/pcrypt.bash" ||
  fail "the installed bash completion is not completions/pcrypt.bash"
check "the age personalities: links age, age-keygen, age-inspect and the two plugins in lib/pcrypt/age/ to bin/pcrypt"
for n in age age-keygen age-inspect age-plugin-batchpass age-plugin-pq; do
  [[ -L inst/usr/lib/pcrypt/age/$n && $(readlink "inst/usr/lib/pcrypt/age/$n") == ../../../bin/pcrypt ]] ||
    fail "cmake --install: lib/pcrypt/age/$n is not a link to ../../../bin/pcrypt"
  [[ $(realpath "inst/usr/lib/pcrypt/age/$n") == $(realpath inst/usr/bin/pcrypt) ]] || fail "$n does not reach bin/pcrypt"
done
check "the man page is installed compressed (gzip -9n: no name, no time stamp) and is man/pcrypt.1"
gzip -dc inst/usr/share/man/man1/pcrypt.1.gz | cmp -s - "$SOURCE_DIR/man/pcrypt.1" || fail "pcrypt.1.gz is not man/pcrypt.1"
[[ $(od -An -tu1 -j4 -N4 inst/usr/share/man/man1/pcrypt.1.gz | tr -d ' ') == 0000 ]] || fail "pcrypt.1.gz has a time stamp"
check "every document the installed README links to is installed where the link points"
links=$(grep -o '](\(docs\|man\)/[^)#]*' inst/usr/share/doc/pcrypt/README.md | sed 's/^](//' | sort -u)
[[ -n $links ]] || fail "found no links in the installed README"
for link in $links; do
  if [[ $link == man/pcrypt.1 ]]; then
    [[ -f inst/usr/share/man/man1/pcrypt.1.gz ]] || fail "README links the man page, which is not installed"
  else
    [[ -f inst/usr/share/doc/pcrypt/$link ]] || fail "README links $link, which is not installed beside it"
  fi
done

if ! command -v dpkg-deb > /dev/null || ! command -v dpkg-shlibdeps > /dev/null; then
  echo "SKIPPED: .deb checks (dpkg-deb and dpkg-shlibdeps from dpkg-dev are needed)"
  exit 0
fi
check "cpack builds three .debs: pcrypt (binary, man page, completions, docs), libpcrypt1, libpcrypt-dev"
# (CPACK_CMAKE_GENERATOR=Ninja: with the Makefile generator cpack first runs `make preinstall`, which builds
# `all` in the build tree: while other tests run its programs, and for nothing after the build ctest tests
# (12-15 s of CPU checking an up-to-date tree, half of cpack's). Ninja's generator has no preinstall step;
# cpack runs only the tree's install scripts, which are the same for every generator.)
cpack --config "$build/CPackConfig.cmake" -D CPACK_CMAKE_GENERATOR=Ninja -B "$WORK/pkg" > cpack.log 2>&1 ||
  { cat cpack.log; fail "cpack failed"; }
all=(pkg/*.deb)
[[ ${#all[@]} == 3 ]] || fail "cpack wrote ${#all[@]} .deb files: ${all[*]}"
debs=(pkg/pcrypt_*.deb)
[[ ${#debs[@]} == 1 && -f ${debs[0]} ]] || fail "no pcrypt_*.deb among: ${all[*]}"
lib=(pkg/libpcrypt1_*.deb)
dev=(pkg/libpcrypt-dev_*.deb)
[[ -f ${lib[0]} && -f ${dev[0]} ]] || fail "no libpcrypt1 or libpcrypt-dev package among: ${all[*]}"
# (Listings go to files first: grep -q stops reading early, and dpkg-deb's SIGPIPE would fail the pipe.)
dpkg-deb -c "${lib[0]}" > lib_contents
grep -q 'libpcrypt\.so\.0\.' lib_contents || fail "libpcrypt1 lacks libpcrypt.so.1.*"
grep -q 'include/' lib_contents && fail "libpcrypt1 holds development files"
dpkg-deb -c "${dev[0]}" > dev_contents
for f in include/pcrypt/pcrypt.h include/pcrypt/pcrypt_c.h /pkgconfig/pcrypt.pc /cmake/pcrypt/pcrypt-config.cmake \
  'libpcrypt\.so -> ' examples/read_stream.cc examples/c/decrypt_stream.c examples/c/encrypt_stream.c; do
  grep -q "$f" dev_contents || fail "libpcrypt-dev lacks $f"
done
dpkg-deb -f "${dev[0]}" Depends | finds 'libpcrypt1 (= ' || fail "libpcrypt-dev does not depend on its libpcrypt1"
dpkg-deb -f "${debs[0]}" Depends | finds 'libpcrypt1 (= ' || fail "pcrypt does not depend on its libpcrypt1"
# `pcrypt mount` links libfuse3 where it was built with it: dpkg-shlibdeps must have said so, and fuse3
# (fusermount3) is recommended.
if ldd "$PCRYPT" | finds 'libfuse3\.so'; then
  dpkg-deb -f "${debs[0]}" Depends | finds 'libfuse3-' || fail "pcrypt links libfuse3 but does not depend on it"
  dpkg-deb -f "${debs[0]}" Recommends | finds -w 'fuse3' || fail "pcrypt does not recommend fuse3"
else
  echo "(this pcrypt was built without FUSE: no libfuse3 dependency expected)"
  dpkg-deb -f "${debs[0]}" Depends | finds 'libfuse3' && fail "pcrypt depends on libfuse3 without linking it"
fi
dpkg-deb -c "${debs[0]}" | awk '{ print $NF }' | sed 's|^\./||' > contents
for f in "${expected[@]}"; do grep -qxF "$f" contents || fail "the .deb lacks $f"; done
dpkg-deb -c "${debs[0]}" > full_contents
# Debian's age package owns /usr/bin/age, age-keygen (and a later one age-inspect): pcrypt's must not ship
# them, or dpkg refuses to install one beside the other.
grep -qE ' \./usr/(local/)?bin/age' full_contents && fail "the .deb ships a file Debian's age package owns"
for n in age age-keygen age-inspect age-plugin-batchpass age-plugin-pq; do
  grep -qE "^l.* \./usr/lib/pcrypt/age/$n -> \.\./\.\./\.\./bin/pcrypt\$" full_contents ||
    fail "the .deb lacks the link usr/lib/pcrypt/age/$n -> ../../../bin/pcrypt"
done
[[ $(dpkg-deb -f "${debs[0]}" Package) == pcrypt ]] || fail "package name is not pcrypt"

check "each package names a real maintainer (no example.invalid) and has a machine-readable copyright file"
for deb in "${debs[0]}" "${lib[0]}" "${dev[0]}"; do
  name=$(dpkg-deb -f "$deb" Package)
  [[ $(dpkg-deb -f "$deb") != *example.invalid* ]] || fail "$name: a field says example.invalid"
  [[ -n $(dpkg-deb -f "$deb" Maintainer) ]] || fail "$name: no Maintainer"
  dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/share/doc/$name/copyright" > copyright 2> /dev/null ||
    fail "$name: no /usr/share/doc/$name/copyright"
  head -1 copyright | finds -x 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
    fail "$name: the copyright file is not in the machine-readable format"
  grep -qx 'License: Expat or Apache-2.0' copyright || fail "$name: the copyright file does not grant MIT OR Apache-2.0"
  for license in Expat Apache-2.0; do
    grep -qx "License: $license" copyright || fail "$name: the copyright file lacks the $license paragraph"
  done
done
check "the library's metadata names its licence: pcrypt.pc and pcrypt-config.cmake"
pc=$(find inst -name pcrypt.pc | head -1)
[[ -n $pc ]] || fail "cmake --install installed no pcrypt.pc"
grep -qx 'License: MIT OR Apache-2.0' "$pc" || fail "pcrypt.pc has no License: MIT OR Apache-2.0"
config=$(find inst -name pcrypt-config.cmake | head -1)
grep -qx 'set(pcrypt_LICENSE "MIT OR Apache-2.0")' "$config" || fail "pcrypt-config.cmake does not set pcrypt_LICENSE"

check "lintian: no errors in any of the three packages"
if command -v lintian > /dev/null; then
  lintian --fail-on error --no-tag-display-limit "${all[@]}" > lintian.log 2>&1 || {
    cat lintian.log
    fail "lintian found errors"
  }
  grep '^E: ' lintian.log && fail "lintian printed errors"
  echo "lintian: $(grep -c '^[WI]: ' lintian.log || true) warnings or notes, no error"
else
  echo "SKIPPED: lintian checks (lintian is not installed; CI's fresh Debian stage runs them)"
fi

check "the package's architecture is the binary's (a cross build packages for its target)"
if command -v readelf > /dev/null; then
  dpkg-deb -x "${debs[0]}" root
  case $(readelf -h root/usr/bin/pcrypt | sed -n 's/^ *Machine: *//p') in
    AArch64) want_arch=arm64 ;;
    *X86-64*) want_arch=amd64 ;;
    *) want_arch=$(dpkg --print-architecture) ;;
  esac
  [[ $(dpkg-deb -f "${debs[0]}" Architecture) == "$want_arch" ]] ||
    fail "the .deb says Architecture: $(dpkg-deb -f "${debs[0]}" Architecture), the binary is for $want_arch"
  rm -rf root
fi

check "the packaged binary is stripped and runs (with the packaged library beside it: its RPATH)"
dpkg-deb -x "${debs[0]}" root
dpkg-deb -x "${lib[0]}" root
is_stripped root/usr/bin/pcrypt || fail "the packaged binary is not stripped"
# A sanitizer build's binary needs its runtime; the plain build's must run as installed (a cross build's
# under the emulator its tests run in: PCRYPT_TEST_EMULATOR, set by tests/CMakeLists.txt).
# shellcheck disable=SC2086 # the emulator is a command with its options
${PCRYPT_TEST_EMULATOR:-} root/usr/bin/pcrypt --version > version || fail "the packaged binary does not run"
grep -q '^pcrypt ' version || fail "the packaged binary printed no version"
check "the packaged links run pcrypt as age-keygen and age-inspect (the way in of man/pcrypt.1: PATH first)"
if [[ -z ${PCRYPT_TEST_EMULATOR:-} ]]; then
  PATH=$PWD/root/usr/lib/pcrypt/age:$PATH age-keygen -o pk.txt 2> pk.err || fail "the packaged age-keygen failed"
  grep -q '^Public key: age1' pk.err || fail "the packaged age-keygen: $(cat pk.err)"
  [[ $(PATH=$PWD/root/usr/lib/pcrypt/age:$PATH age-keygen -y pk.txt) == $(sed -n 's/^# public key: //p' pk.txt) ]] ||
    fail "the packaged age-keygen -y"
  "$PCRYPT" encrypt --format age -R <(root/usr/lib/pcrypt/age/age-keygen -y pk.txt) version -o v.age
  PATH=$PWD/root/usr/lib/pcrypt/age:$PATH age-inspect --json v.age > v.json
  python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["stanza_types"] != ["X25519"])' v.json ||
    fail "the packaged age-inspect: $(cat v.json)"
  PATH=$PWD/root/usr/lib/pcrypt/age:$PATH age-plugin-pq -identity < /dev/null 2> pq.err && fail "no identity, no error"
  grep -q '^age-plugin-pq: error: ' pq.err || fail "the packaged age-plugin-pq: $(cat pq.err)"
  PATH=$PWD/root/usr/lib/pcrypt/age:$PATH AGE_PASSPHRASE=pw AGE_PASSPHRASE_WORK_FACTOR=2 \
    root/usr/lib/pcrypt/age/age -e -j batchpass -o bp.age version || fail "the packaged age-plugin-batchpass"
else
  echo "SKIPPED: running the links (a cross build's binary runs only under its emulator)"
fi
echo "package OK: ${debs[0]##*/}"
