# Shared by tests/cli/test_*.sh (sourced, not run by ctest). Usage in a test: source "$(dirname "$0")/lib.sh"
# after `set -euo pipefail`; $1 = pcrypt binary, $2 = source dir. Each test runs in its own temporary
# directory, removed on exit; the first failed check ends the script with a non-zero status.

PCRYPT=$(realpath "$1")
SOURCE_DIR=$(realpath "$2")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
unset PCRYPT_PASSPHRASE PCRYPT_ENGINE
# glibc's malloc asks for transparent huge pages for what it maps (where the kernel's THP is "madvise", as on
# Debian): an age passphrase's scrypt (2^18, 256 MiB from OpenSSL's malloc) then takes ~130 page faults, not
# 66,000, 0.7 s of CPU, not 1.8 s, on a VM where each fault is expensive. Speed only: nothing a test checks.
# (test_startup_memory puts back the caller's value, $CALLER_GLIBC_TUNABLES: the tunable moves the limits it
# sweeps.)
CALLER_GLIBC_TUNABLES=${GLIBC_TUNABLES-}
export GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1

# Cheap Argon2id so passphrase tests take milliseconds (the defaults take ~0.5 s per run by design).
CHEAP_KDF=(--kdf-memory 64KiB --kdf-ops 1)

# install_library: libpcrypt installed from $PCRYPT's build into ./prefix (the library and development
# components), as a user gets it; sets PREFIX, PC (the folder of pcrypt.pc) and LIBDIR (that of
# libpcrypt.so.1). Ends the test as visibly skipped (exit 0) where $PCRYPT is not in a CMake build or the
# library is static.
install_library() {
  local build
  build=$(dirname "$(dirname "$PCRYPT")")
  if [[ ! -f $build/cmake_install.cmake ]]; then
    echo "SKIPPED: $build is not a CMake build directory"
    exit 0
  fi
  PREFIX=$PWD/prefix
  cmake --install "$build" --prefix "$PREFIX" --component library > /dev/null
  cmake --install "$build" --prefix "$PREFIX" --component development > /dev/null
  if [[ -z $(find "$PREFIX" -name 'libpcrypt.so.1') ]]; then
    echo "SKIPPED: a static libpcrypt (PCRYPT_SHARED_LIBRARY=OFF); scripts/test-static-library.sh checks that"
    exit 0
  fi
  PC=$(dirname "$(find "$PREFIX" -name pcrypt.pc | head -1)")
  [[ -n $PC ]] || fail "no pcrypt.pc installed"
  LIBDIR=$(dirname "$(find "$PREFIX" -name 'libpcrypt.so.1' | head -1)")
}

# require_tools TOOL...: ends the test as visibly skipped (exit 0) unless every tool is on PATH.
require_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" > /dev/null || {
      echo "SKIPPED: $tool not installed (scripts/install-deps.sh installs it)"
      exit 0
    }
  done
}

# require_typage WHAT: sets TYPAGE to a folder holding typage (npm age-encryption 0.3.1), the real peer for
# age's post-quantum and tag recipients: $PCRYPT_TYPAGE_DIR if set, else an `npm install` into the build
# folder's typage-0.3.1, made once by the first test that needs it and shared by the others (under a lock:
# they run in parallel; an npm install is 2-5 s, three tests made one each), or here where $PCRYPT is not in a
# CMake build. Where neither works (no node or npm, no registry), ends the test as visibly skipped (exit 0)
# after the checks WHAT names, which ran before it.
require_typage() {
  TYPAGE=${PCRYPT_TYPAGE_DIR:-}
  if [[ -z $TYPAGE ]] && command -v npm > /dev/null && command -v node > /dev/null; then
    local build shared lock
    build=$(dirname "$(dirname "$PCRYPT")")
    shared=$PWD/typage
    [[ -f $build/CMakeCache.txt && -w $build ]] && shared=$build/typage-0.3.1
    exec {lock}> "$shared.lock"
    flock "$lock"
    if [[ -d $shared/node_modules/age-encryption ]]; then
      TYPAGE=$shared
    else
      # (Made aside and moved into place whole: a test killed mid-install leaves no half folder to share.)
      rm -rf "$shared.new" && mkdir "$shared.new"
      if (cd "$shared.new" && timeout 180 npm install --no-audit --no-fund --silent age-encryption@0.3.1 > npm.log 2>&1) &&
        rm -rf "$shared" && mv "$shared.new" "$shared"; then
        TYPAGE=$shared
      else
        echo "npm install output:" && cat "$shared.new/npm.log"
      fi
    fi
    exec {lock}>&-
  fi
  if [[ -z $TYPAGE || ! -d $TYPAGE/node_modules/age-encryption ]]; then
    echo "SKIPPED: typage interop (npm age-encryption could not be installed: no npm/node or no registry; set" \
      "PCRYPT_TYPAGE_DIR to a folder where 'npm install age-encryption' ran)"
    echo "all $1 checks passed (typage skipped)"
    exit 0
  fi
}

check() { printf 'check: %s\n' "$*"; }
fail() {
  printf 'FAIL: %s\n' "$*" >&2
  if [[ -s stderr ]]; then
    printf -- '--- stderr of the last command ---\n' >&2
    cat stderr >&2
  fi
  exit 1
}
exists() { [[ -e $1 || -L $1 ]]; }
# flip_byte FILE OFFSET: changes the byte at OFFSET (its lowest bit), in place. Writing a fixed byte instead
# (printf '\x01' | dd ... conv=notrunc) leaves random ciphertext unchanged once in 256 runs, and the test
# expecting a failure fails at random; scripts/check-shell.sh refuses that form.
# (Three processes, od, printf's subshell and dd: tests call it in loops.)
flip_byte() {
  local byte flipped
  byte=$(od -An -tu1 -j "$2" -N1 "$1" 2> /dev/null) || byte=""
  byte=${byte//[[:space:]]/}
  [[ -n $byte ]] || fail "flip_byte: $1 has no byte at offset $2"
  printf -v flipped '\\%03o' $((byte ^ 1))
  printf "$flipped" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# random_identities N: prints N fresh X25519 identities (AGE-SECRET-KEY-1..., Bech32 of 32 random bytes, one a
# line) from one process, for tests that need hundreds: a `pcrypt keygen --identity` each costs a process start
# (400 of them were a third of cli_test_closed_stdout); `pcrypt recipient` derives their public keys in one run.
random_identities() {
  python3 - "$1" << 'EOF'
import os, sys
CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
def polymod(values):
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i, g in enumerate((0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)):
            chk ^= g if (top >> i) & 1 else 0
    return chk
hrp = "age-secret-key-"
expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
for _ in range(int(sys.argv[1])):
    bits = int.from_bytes(os.urandom(32), "big") << 4  # 256 bits padded to 52 groups of 5
    data = [(bits >> (5 * (51 - i))) & 31 for i in range(52)]
    pm = polymod(expanded + data + [0] * 6) ^ 1
    data += [(pm >> (5 * (5 - i))) & 31 for i in range(6)]
    print((hrp + "1" + "".join(CHARSET[d] for d in data)).upper())
EOF
}
# personality NAME: makes ./NAME run pcrypt as age's NAME command (age-keygen, age-inspect). pcrypt picks
# its personality by the name it runs under, so a link of that name; under an emulator (cross builds) $PCRYPT
# is a wrapper script that a link would not name, so a script running `pcrypt NAME`, the subcommand spelling.
personality() {
  if [[ -n ${PCRYPT_TEST_EMULATOR:-} ]]; then
    printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$PCRYPT" "$1" > "$1" && chmod +x "$1"
  else
    ln -s "$PCRYPT" "$1"
  fi
}
# finds GREP-OPTION... PATTERN: grep -q that reads its whole input, for `cmd | finds PATTERN`. With pipefail,
# `cmd | grep -q` fails at random: grep exits at the first match and cmd, still writing, dies of SIGPIPE
# (CI lost a run to `ldd pcrypt | grep -q libfuse3`). scripts/check-shell.sh refuses the `| grep -q` form.
finds() { grep "$@" > /dev/null; }

# expect STATUS CMD...: runs CMD with stderr captured in ./stderr, fails unless it exits with STATUS.
expect() {
  local want=$1 got=0
  shift
  "$@" 2>stderr || got=$?
  [[ $got == "$want" ]] || fail "expected exit $want, got $got: $*"
}

# The failure contract: exactly one error line, and it mentions $1 (a fixed substring). (Read by the shell:
# a grep -c and a grep -q per call were two processes, and the tests call it over 200 times.)
expect_one_error() {
  local n=0 line text=""
  while IFS= read -r line || [[ -n $line ]]; do
    [[ $line == 'pcrypt: error: '* ]] && n=$((n + 1))
    text+=$line$'\n'
  done < stderr
  [[ $n == 1 ]] || fail "expected exactly one 'pcrypt: error:' line, got $n"
  [[ $text == *"$1"* ]] || fail "error message does not mention '$1'"
}

same() { cmp -s "$1" "$2" || fail "$1 and $2 differ"; }
mode_of() { stat -c %a "$1"; }
# Anything in the current directory besides the names given? (Leftover temporaries.)
only_these_files() {
  local extra
  extra=$(comm -23 <(ls -A | sort) <(printf '%s\n' "$@" stderr | sort))
  [[ -z $extra ]] || fail "unexpected files left: $extra"
}

# output_open PID NAME: has process PID opened its temporary for output NAME in the current directory? That
# is an unnamed O_TMPFILE (a descriptor on "DIR/#INODE (deleted)") or the hidden .NAME.pcrypt-tmp-XXXXXX.
output_open() {
  local fd target here
  here=$(pwd -P)
  for fd in /proc/"$1"/fd/*; do
    target=$(readlink "$fd" 2> /dev/null) || continue
    [[ $target == "$here/#"* || $target == "$here/.$2.pcrypt-tmp-"* ]] && return 0
  done
  return 1
}

# wait_until CMD...: runs CMD every 50 ms until it succeeds; fails if it still does not after 30 s. For a
# background pcrypt to reach a state (e.g. `wait_until output_open "$pid" out.pcrypt`, or a prompt to appear
# in a typescript) before it is signalled or answered.
wait_until() {
  local tries
  for ((tries = 0; tries < 600; ++tries)); do
    "$@" && return 0
    sleep 0.05
  done
  "$@"
}

# killed_mid_write SIGNAL FEED OUTPUT CMD...: runs CMD in the background with its stdin on a FIFO that gets the
# first 100 kB of FEED and then stays open, so CMD waits for more in the middle of writing OUTPUT; sends SIGNAL
# (a name: TERM, KILL...) once CMD's temporary for OUTPUT is open, and fails unless CMD dies of it. CMD's
# stderr is left in ./stderr.
killed_mid_write() {
  local signal=$1 feed=$2 output=$3 pid want rc=0
  shift 3
  mkfifo slow
  "$@" < slow 2> stderr &
  pid=$!
  exec 3> slow
  head -c 100000 "$feed" >&3
  wait_until output_open "$pid" "$output" || fail "the temporary for $output was never opened"
  kill -"$signal" "$pid"
  wait "$pid" 2> /dev/null || rc=$?  # (no "Killed" or "Terminated" job notice)
  exec 3>&-
  rm slow
  want=$((128 + $(kill -l "$signal")))
  [[ $rc == "$want" ]] || fail "expected death by SIG$signal ($want), got $rc"
}
