#!/usr/bin/env bash
# The promises about outputs: no overwrite without -f, never the input as output, no ciphertext on a
# terminal, atomic files (nothing left after SIGTERM), clean exit on a closed pipe.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen -o key
head -c 200000 /dev/urandom > plain

check "existing output: refused with exit 1 and left untouched; -f replaces it"
echo "precious" > plain.pcrypt
expect 1 "$PCRYPT" encrypt -k key plain
expect_one_error "plain.pcrypt"
grep -q '^pcrypt: hint: .*-f' stderr || fail "no hint about -f"
[[ $(cat plain.pcrypt) == precious ]] || fail "existing output was modified"
"$PCRYPT" encrypt -k key plain -f
"$PCRYPT" decrypt -k key plain.pcrypt -o back
same back plain
check "existing decrypt output refused too"
expect 1 "$PCRYPT" decrypt -k key plain.pcrypt -o back
only_these_files key plain plain.pcrypt back

check "input == output refused, even with -f (and through a symlink)"
cp plain victim
expect 1 "$PCRYPT" encrypt -k key victim -o victim -f
expect_one_error "input"
same victim plain
ln -s victim link
expect 1 "$PCRYPT" encrypt -k key link -o victim -f
same victim plain
"$PCRYPT" encrypt -k key plain -o victim.pcrypt
expect 1 "$PCRYPT" decrypt -k key victim.pcrypt -o victim.pcrypt -f
check "stdout appended to the input file refused"
cp plain grow
expect 1 "$PCRYPT" encrypt -k key grow -o - >> grow
same grow plain
rm -f victim victim.pcrypt link grow

check "ciphertext to a terminal refused unless -o - or -f"
if command -v script > /dev/null && script -qec true /dev/null > /dev/null 2>&1; then
  # script(1) gives the command a pseudo-terminal as stdin/stdout/stderr; -e returns its exit status.
  rc=0
  script -qec "'$PCRYPT' encrypt -k key < plain" /dev/null > tty.log 2>&1 < /dev/null || rc=$?
  [[ $rc == 1 ]] || { cat tty.log; fail "encrypt to a terminal exited $rc, expected 1"; }
  grep -q 'terminal' tty.log || fail "no message about the terminal"
  script -qec "'$PCRYPT' encrypt -k key -o - < plain" /dev/null > tty2.log 2>&1 < /dev/null ||
    fail "encrypt -o - to a terminal failed"
  script -qec "'$PCRYPT' encrypt -k key -f < plain" /dev/null > tty3.log 2>&1 < /dev/null ||
    fail "encrypt -f to a terminal failed"
  check "decrypt refuses a terminal as its input"
  rc=0
  script -qec "'$PCRYPT' decrypt -k key -o out" /dev/null > tty4.log 2>&1 < /dev/null || rc=$?
  [[ $rc == 1 ]] || { cat tty4.log; fail "decrypt from a terminal exited $rc, expected 1"; }
  ! exists out || fail "out created"
  rm -f tty*.log
else
  echo "SKIPPED: terminal checks need script(1) from util-linux"
fi

check "SIGTERM during a slow encrypt: no output, no temporary left"
killed_mid_write TERM /dev/urandom slow.pcrypt "$PCRYPT" encrypt -k key -o slow.pcrypt
! exists slow.pcrypt || fail "slow.pcrypt exists after SIGTERM"
only_these_files key plain plain.pcrypt back

# (Not SIGINT: a non-interactive shell starts background jobs with SIGINT ignored, and pcrypt rightly keeps
# an inherited "ignore".)
check "SIGHUP during a slow decrypt: same"
killed_mid_write HUP plain.pcrypt slow.out "$PCRYPT" decrypt -k key -o slow.out
only_these_files key plain plain.pcrypt back

check "closed pipe (| head -c 10): exits 1 quickly, no error line, no hang"
head -c 4000000 /dev/urandom > big
"$PCRYPT" encrypt -k key big -o big.pcrypt
set +o pipefail
timeout 20 "$PCRYPT" decrypt -k key big.pcrypt -o - 2> stderr | head -c 10 > ten
rc=${PIPESTATUS[0]}
set -o pipefail
[[ $rc == 1 ]] || fail "decrypt into a closed pipe exited $rc, expected 1 (124 = hung)"
[[ ! -s stderr ]] || fail "closed pipe printed: $(cat stderr)"
cmp -s ten <(head -c 10 big) || fail "the 10 bytes are not the plaintext's first 10"
set +o pipefail
timeout 20 "$PCRYPT" encrypt -k key big -o - 2> stderr | head -c 10 > /dev/null
rc=${PIPESTATUS[0]}
set -o pipefail
[[ $rc == 1 ]] || fail "encrypt into a closed pipe exited $rc, expected 1"
[[ ! -s stderr ]] || fail "closed pipe printed: $(cat stderr)"

check "-o /dev/null and -o FIFO are written in place, without -f, and never replaced"
expect 0 "$PCRYPT" encrypt -k key big -o /dev/null
expect 0 "$PCRYPT" decrypt -k key big.pcrypt -o /dev/null -f
[[ -c /dev/null ]] || fail "/dev/null is no longer a character device"
mkfifo fifo
cat fifo > from-fifo &
reader=$!
expect 0 "$PCRYPT" decrypt -k key big.pcrypt -o fifo
wait "$reader"
same from-fifo big
[[ -p fifo ]] || fail "the FIFO was replaced"
rm fifo from-fifo

check "-f never replaces a directory or a dangling symlink with a file"
mkdir adir
ln -s nowhere dangling
expect 1 "$PCRYPT" encrypt -k key big -f -o adir
expect_one_error "output is a directory (adir)"
expect 1 "$PCRYPT" encrypt -k key big -f -o dangling
[[ -d adir && -L dangling ]] || fail "a non-regular output was replaced"
rm -r adir dangling

echo "all safety checks passed"
