#!/usr/bin/env bash
# The README's quick start on a fresh Debian 12, every CI run: CI runs on a developer's machine, where
# whatever was once installed by hand is still there, so only a system that has never seen pcrypt can show
# that the README's two commands install everything they need. Then the .deb they leave is installed with
# apt into a second fresh system and used the way a user would.
#
#   .ci/fresh-debian.sh [REPO]                 (root; REPO defaults to this checkout; its HEAD commit is tested)
#   .ci/fresh-debian.sh --install-deb FILE.deb...  (step 3 alone, for .debs built elsewhere)
#
# 1. A Debian 12 minbase system (mmdebstrap; ca-certificates, git and sudo added, as on a new machine or
#    container) is kept as a tarball in $PCRYPT_CI_CACHE (default /var/cache/pcrypt-ci) and made again when
#    missing: the stage works with an empty cache, and is about two minutes faster with one. Downloaded .debs
#    are kept there too (the chroots' /var/cache/apt/archives); nothing else carries over between runs.
# 2. Fresh system 1: the commit is cloned to /root/pcrypt and the README's quick-start commands run exactly as
#    written (`scripts/demo.sh`, then `scripts/test.sh`), then docs/PYTHON.md's install command (its first sh
#    block) with an import from another directory, then cpack writes the .debs from demo's Release build, and
#    lintian (installed there for this step) must find no error in them.
# 3. Fresh system 2: `apt-get install` of the three .debs (pcrypt, libpcrypt1, libpcrypt-dev) must pull in
#    their dependencies, and give a pcrypt that round-trips a file, a man page that `man pcrypt` shows, the
#    bash completion where bash looks for it, and a library whose examples build with pkg-config and with
#    find_package(pcrypt) and read a file written by the real age: the C++ examples and the C ones
#    (examples/c/, strict C11, the C API's reader and encryptor).
# Each step's time is printed; any failure fails the script.
# One addition to the fresh system, for time only: ccache is installed in system 1 before the quick start, and
# CMake is pointed at it through the environment (CMAKE_CXX_COMPILER_LAUNCHER), with its cache kept in
# $PCRYPT_CI_CACHE/ccache between runs. It brings no headers and no libraries the build links, so it cannot
# hide a missing build dependency (a compile it has not seen runs the real compiler); it makes a repeated run
# take minutes instead of a quarter of an hour on 2 cores. So that the time printed for scripts/test.sh says
# what it measured, the cache's hits and misses during that step are printed beside it ("cold" when nothing
# came from the cache); PCRYPT_CI_COLD=1 makes every compile run the compiler, which is what a new user's
# machine does (README's figure for scripts/test.sh is such a run): ccache then only stores (CCACHE_RECACHE),
# never hands an object back, so that .ci/run's host stages with test.sh's flags (the GCC Release pcrypt and
# libpcrypt.so for the ABI and ARM64 stages, the static library's core) take stage 1's objects instead of
# compiling the core twice more. Storing costs each compile a preprocessor run: the cold time printed is, if
# anything, above a new machine's.
set -euo pipefail
deb_only=()
if [[ ${1:-} == --install-deb ]]; then
  shift
  deb_only=()
  for d in "${@:?usage: .ci/fresh-debian.sh --install-deb FILE.deb...}"; do deb_only+=("$(realpath "$d")"); done
  set -- "$(dirname "$0")/.."
fi
repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
cache=${PCRYPT_CI_CACHE:-/var/cache/pcrypt-ci}
base=$cache/bookworm-minbase.tar
archives=$cache/apt-archives
compiler_cache=$cache/ccache
mirror=http://deb.debian.org/debian
export DEBIAN_FRONTEND=noninteractive

[[ $(id -u) -eq 0 ]] || { echo "fresh-debian: needs root (mmdebstrap, chroot, mount)" >&2; exit 1; }
step_start=$SECONDS
step() {
  echo "== fresh Debian 12: $1 (at $((SECONDS - step_start)) s)"
}

if ! command -v mmdebstrap >/dev/null; then
  step "installing mmdebstrap on the host"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
fi

mkdir -p "$cache" "$archives/partial" "$compiler_cache"
if [[ ! -s $base ]]; then
  step "no cached base system: mmdebstrap --variant=minbase bookworm"
  mmdebstrap --quiet --variant=minbase --include=ca-certificates,git,sudo --format=tar bookworm "$base.tmp" \
    "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main"
  mv "$base.tmp" "$base"
else
  step "base system from the cache ($base, made $(date -r "$base" +%F))"
fi

roots=()
cleanup() {
  local r
  for r in "${roots[@]}"; do
    # Lazy, recursive unmount first: rm -rf must never reach the host's /dev or /proc through a mount.
    for m in var/cache/ccache var/cache/apt/archives sys dev/shm dev/pts dev proc; do
      mountpoint -q "$r/$m" && umount -l "$r/$m"
    done
    rm -rf --one-file-system "$r"
  done
}
trap cleanup EXIT

# new_system VAR: unpacks the base system into a new directory, mounts what programs expect, and names it.
new_system() {
  local r
  r=$(mktemp -d /var/tmp/pcrypt-fresh.XXXXXX)
  roots+=("$r")
  tar -xf "$base" -C "$r"
  mount -t proc proc "$r/proc"
  mount -t sysfs sysfs "$r/sys"
  mount --bind /dev "$r/dev"
  mount --bind /dev/pts "$r/dev/pts"
  mount --bind /dev/shm "$r/dev/shm" # POSIX semaphores and shared memory (Python multiprocessing, Dask)
  mount --bind "$archives" "$r/var/cache/apt/archives"
  cp /etc/resolv.conf "$r/etc/resolv.conf"
  printf -v "$1" '%s' "$r"
}

# in_system ROOT COMMAND: runs a bash command as root in ROOT with a clean environment, as a login would (plus
# the compiler cache's variables, in a system that has it).
in_system() {
  local extra=()
  if mountpoint -q "$1/var/cache/ccache"; then
    extra=(CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_DIR=/var/cache/ccache
      CCACHE_BASEDIR=/root/pcrypt CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=4G)
    [[ -z ${PCRYPT_CI_COLD:-} ]] || extra+=(CCACHE_RECACHE=1)
  fi
  chroot "$1" /usr/bin/env -i HOME=/root USER=root LOGNAME=root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${extra[@]}" bash -c "$2"
}

# check_deb FILE.deb...: installs them with apt into a new fresh system and uses them as a user would: the
# CLI (pcrypt_*.deb), and when given, libpcrypt1 and libpcrypt-dev with a C++ toolchain: the library's
# examples built against the installed library with pkg-config and with find_package, run on a file written
# by the real age.
check_deb() {
  local second
  step "apt-get install $(printf './%s ' "${@##*/}")in a second fresh system"
  new_system second
  cp "$@" "$second/root/"
  in_system "$second" 'set -euo pipefail
  cd /root
  apt-get update -qq
  # man-db: a fresh minbase system has no man; a user who types "man pcrypt" has it.
  apt-get install -y -qq --no-install-recommends ./*.deb man-db >/dev/null
  cd "$(mktemp -d)"
  pcrypt --version
  pcrypt keygen -o key
  head -c 3000000 /dev/urandom > data
  pcrypt encrypt -k key data && mv data data.orig
  pcrypt decrypt -k key data.pcrypt && cmp data data.orig
  echo "installed pcrypt: round trip ok"
  [[ $(man -P cat pcrypt 2>/dev/null) == *"pcrypt encrypt"* ]] || { echo "man pcrypt shows no page" >&2; exit 1; }
  echo "man pcrypt: ok"
  test -f /usr/share/bash-completion/completions/pcrypt
  bash -c "source /usr/share/bash-completion/completions/pcrypt && complete -p pcrypt"
  echo "bash completion: ok"
  # The documented way in (man pcrypt, AGE-KEYGEN AND AGE-INSPECT): /usr/lib/pcrypt/age first on PATH.
  PATH=/usr/lib/pcrypt/age:$PATH age-keygen -o agekey.txt 2>/dev/null
  [[ $(PATH=/usr/lib/pcrypt/age:$PATH age-keygen -y agekey.txt) == age1* ]]
  echo "pcrypt as age-keygen through /usr/lib/pcrypt/age: ok"'
  [[ -n $(find "$second/root" -maxdepth 1 -name 'libpcrypt-dev_*.deb') ]] || return 0
  in_system "$second" 'set -euo pipefail
  apt-get install -y -qq --no-install-recommends g++ make cmake pkg-config age >/dev/null
  cd "$(mktemp -d)"
  examples=/usr/share/pcrypt/examples
  g++ -std=c++20 -O1 "$examples/decrypt_range.cc" -o decrypt_range $(pkg-config --cflags --libs pcrypt)
  g++ -std=c++20 -O1 "$examples/encrypt_to.cc" -o encrypt_to $(pkg-config --cflags --libs pcrypt)
  g++ -std=c++20 -O1 "$examples/read_stream.cc" -o read_stream $(pkg-config --cflags --libs pcrypt)
  echo "libpcrypt examples built with pkg-config: ok"
  mkdir proj && cp "$examples"/*.cc proj/
  printf "%s\n" "cmake_minimum_required(VERSION 3.25)" "project(uses_pcrypt CXX)" "find_package(pcrypt REQUIRED)" \
    "add_executable(decrypt_range decrypt_range.cc)" "target_link_libraries(decrypt_range PRIVATE pcrypt::pcrypt)" \
    "add_executable(read_stream read_stream.cc)" "target_link_libraries(read_stream PRIVATE pcrypt::pcrypt)" \
    > proj/CMakeLists.txt
  cmake -S proj -B proj/build >/dev/null && cmake --build proj/build >/dev/null
  echo "libpcrypt example built with find_package(pcrypt): ok"
  age-keygen -o id.txt 2>/dev/null
  head -c 200000 /dev/urandom > plain
  age -r "$(age-keygen -y id.txt)" -o f.age plain
  for d in ./decrypt_range ./proj/build/decrypt_range; do
    "$d" id.txt f.age 70000 1000 > part && cmp part <(tail -c +70001 plain | head -c 1000)
  done
  ./encrypt_to age "$(age-keygen -y id.txt)" plain g.age && age -d -i id.txt g.age | cmp - plain
  for d in ./read_stream ./proj/build/read_stream; do "$d" id.txt f.age | cmp - plain; done
  echo "libpcrypt C++ reader example (pcrypt::Reader) on a file of the real age: ok"
  echo "libpcrypt examples on files of the real age: ok"
  for e in decrypt_stream encrypt_stream; do
    gcc -std=c11 -Wall -Wextra -Werror -pedantic -O1 "$examples/c/$e.c" -o "$e" $(pkg-config --cflags --libs pcrypt)
  done
  echo "libpcrypt C examples built with pkg-config (gcc -std=c11 -Werror -pedantic): ok"
  mkdir cproj && cp "$examples"/c/*.c cproj/
  printf "%s\n" "cmake_minimum_required(VERSION 3.25)" "project(uses_pcrypt_from_c C)" "find_package(pcrypt REQUIRED)" \
    "add_executable(decrypt_stream decrypt_stream.c)" "target_link_libraries(decrypt_stream PRIVATE pcrypt::pcrypt)" \
    > cproj/CMakeLists.txt
  cmake -S cproj -B cproj/build >/dev/null && cmake --build cproj/build >/dev/null
  echo "libpcrypt C example built with find_package(pcrypt) in a C-only project: ok"
  for d in ./decrypt_stream ./cproj/build/decrypt_stream; do "$d" id.txt f.age | cmp - plain; done
  ./encrypt_stream age "$(age-keygen -y id.txt)" h.age < plain && age -d -i id.txt h.age | cmp - plain
  echo "libpcrypt C examples on files of the real age (the C reader, the C encryptor): ok"
  # Debian'"'"'s age package installed beside pcrypt: its commands stay its own on the plain PATH, and the
  # personalities answer where /usr/lib/pcrypt/age comes first; their keys work with the real age.
  [[ $(command -v age-keygen) == /usr/bin/age-keygen && $(age-keygen -version) != v$(pcrypt --version | sed -n "1s/^pcrypt //p") ]]
  [[ $(PATH=/usr/lib/pcrypt/age:$PATH age-keygen -version) == v$(pcrypt --version | sed -n "1s/^pcrypt //p") ]]
  PATH=/usr/lib/pcrypt/age:$PATH age-keygen -o ours.txt 2>/dev/null
  age -r "$(age-keygen -y ours.txt)" -o ours.age plain && age -d -i ours.txt ours.age | cmp - plain
  PATH=/usr/lib/pcrypt/age:$PATH age-inspect ours.age | grep -x "  - \"X25519\"" >/dev/null
  echo "Debian'"'"'s age beside pcrypt'"'"'s personalities: ok"'
}

if [[ ${#deb_only[@]} -gt 0 ]]; then
  check_deb "${deb_only[@]}"
  echo "== fresh Debian 12: ${deb_only[*]##*/} install and work ($((SECONDS - step_start)) s)"
  exit 0
fi

commit=$(git -C "$repo" rev-parse HEAD)
new_system first
git clone -q "$repo" "$first/root/pcrypt"
git -C "$first/root/pcrypt" checkout -q "$commit"
if [[ -n ${PCRYPT_CI_COLD:-} ]]; then
  step "cold (PCRYPT_CI_COLD): every build compiles everything, as on a new machine; ccache only stores, for the host stages"
else
  step "ccache for the builds (time only: see the top of this script)"
fi
in_system "$first" 'apt-get update -qq && apt-get install -y -qq --no-install-recommends ccache >/dev/null'
mkdir -p "$first/var/cache/ccache"
mount --bind "$compiler_cache" "$first/var/cache/ccache"
# cache_use: what the compiler cache gave during the last step ("no compiler cache" without one).
cache_use() {
  mountpoint -q "$first/var/cache/ccache" || { echo "no compiler cache"; return; }
  in_system "$first" 'ccache --print-stats' | awk -F'\t' '
    $1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { hits += $2 }
    $1 == "cache_miss" || $1 == "recache" { misses += $2 }
    END { printf "compiler cache: %d hits, %d compiled%s", hits, misses, hits == 0 ? " (cold)" : "" }'
}

t=$SECONDS
step "scripts/demo.sh (commit ${commit:0:10})"
in_system "$first" 'cd /root/pcrypt && scripts/demo.sh'
demo_time=$((SECONDS - t))

t=$SECONDS
step "scripts/test.sh"
mountpoint -q "$first/var/cache/ccache" && in_system "$first" 'ccache -z >/dev/null'
in_system "$first" 'cd /root/pcrypt && scripts/test.sh'
test_time=$((SECONDS - t))
test_cache=$(cache_use)
echo "== fresh Debian 12: scripts/test.sh took $((test_time / 60)) min $((test_time % 60)) s on $(nproc) cores, $test_cache, load average now $(cut -d' ' -f1-3 /proc/loadavg)"

t=$SECONDS
step "docs/PYTHON.md: its install command (the first sh block), then import pcrypt from elsewhere"
python_install=$(awk '/^```sh$/ { inside = 1; next } inside && /^```$/ { exit } inside' "$repo/docs/PYTHON.md")
[[ -n $python_install ]] || { echo "fresh-debian: docs/PYTHON.md has no sh block" >&2; exit 1; }
in_system "$first" "cd /root/pcrypt && $python_install"
in_system "$first" "cd / && /usr/bin/python3 -c \"import pcrypt, fsspec; print(fsspec.get_filesystem_class('pcrypt'))\""
python_time=$((SECONDS - t))

t=$SECONDS
step "cpack: the .debs of demo's Release build (pcrypt, libpcrypt1, libpcrypt-dev)"
in_system "$first" 'cd /root/pcrypt && cpack --config build/CPackConfig.cmake -B build/package >/dev/null &&
  ls build/package/*.deb'
debs=("$first"/root/pcrypt/build/package/{pcrypt,libpcrypt1,libpcrypt-dev}_*.deb)
for d in "${debs[@]}"; do [[ -f $d ]] || { echo "fresh-debian: missing $d" >&2; exit 1; }; done
step "lintian on the three .debs (no error allowed)"
in_system "$first" 'apt-get install -y -qq --no-install-recommends lintian >/dev/null &&
  cd /root/pcrypt && lintian --fail-on error --no-tag-display-limit build/package/*.deb'

check_deb "${debs[@]}"
package_time=$((SECONDS - t))

echo "== fresh Debian 12: passed; demo.sh ${demo_time} s, test.sh ${test_time} s ($test_cache), Python install ${python_time} s, .deb built and installed ${package_time} s, total $((SECONDS - step_start)) s"
