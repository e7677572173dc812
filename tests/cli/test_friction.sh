#!/usr/bin/env bash
# The friction items of issue 11: pcrypt's own parse errors with suggestions, `help`, -V, credential hints,
# the exit-code table, credentials chosen from the header, progress and output permissions. ONLY=NAME runs one
# group (errors, help, credentials, header, permissions, progress).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen -o key
printf 'secret\n' > s.txt

want() { [[ -z ${ONLY:-} || $ONLY == "$1" ]]; }

# hint_is TEXT: the hint line is exactly TEXT.
hint_is() {
  grep -qxF -- "pcrypt: hint: $1" stderr || fail "hint is not '$1'"
}

if want errors; then
  check "unknown option: pcrypt's own error line and a did-you-mean, no CLI11 text"
  expect 2 "$PCRYPT" encrypt s.txt -K key
  expect_one_error "unknown option '-K' for 'encrypt'"
  hint_is "did you mean '-k'?"
  ! grep -q "were not expected" stderr || fail "CLI11's raw message leaked"
  expect 2 "$PCRYPT" decrypt --kye key s.txt.pcrypt
  expect_one_error "unknown option '--kye'"
  hint_is "did you mean '--key'?"
  expect 2 "$PCRYPT" decrypt --Force -k key s.txt.pcrypt
  hint_is "did you mean '--force'?"
  check "an option nothing resembles points to the command's help"
  expect 2 "$PCRYPT" encrypt --frobnicate -k key s.txt
  expect_one_error "unknown option '--frobnicate'"
  hint_is "see 'pcrypt help encrypt'"
  check "a second FILE is named"
  expect 2 "$PCRYPT" encrypt -k key s.txt t.txt
  expect_one_error "unexpected argument 't.txt'"
  check "mistyped command: did you mean"
  expect 2 "$PCRYPT" encrpyt -k key s.txt
  expect_one_error "unknown command 'encrpyt'"
  hint_is "did you mean 'encrypt'?"
  expect 2 "$PCRYPT" Info s.txt
  hint_is "did you mean 'info'?"
fi

if want help; then
  check "pcrypt help, pcrypt help COMMAND, -V"
  "$PCRYPT" help > help.txt 2> stderr || fail "pcrypt help failed"
  grep -q '^Usage: pcrypt' help.txt || fail "pcrypt help does not print the usage"
  "$PCRYPT" help decrypt > help_decrypt.txt 2> stderr || fail "pcrypt help decrypt failed"
  grep -q '^Usage: pcrypt decrypt' help_decrypt.txt || fail "pcrypt help decrypt does not describe decrypt"
  expect 2 "$PCRYPT" help decrpyt
  expect_one_error "unknown command 'decrpyt'"
  "$PCRYPT" -V > v.txt || fail "-V failed"
  grep -q '^pcrypt [0-9]' v.txt || fail "-V does not print the version"
  check "the exit-code table is complete in --help, and only there"
  "$PCRYPT" --help > help.txt
  for code in 0 1 2 3 4 130 143; do
    grep -qE "^  ([0-9]+, )*$code[ ,]" help.txt || fail "--help does not document exit code $code"
  done
  ! grep -q '^Exit status:' help_decrypt.txt || fail "decrypt --help repeats the exit-code table"
  grep -q "see 'pcrypt --help'" help_decrypt.txt || fail "decrypt --help does not point to the table"
  check "the documented 143: SIGTERM during a run removes the output and the process dies of the signal"
  mkfifo fifo
  rc=0
  { "$PCRYPT" encrypt -k key fifo -o out.pcrypt 2> stderr & pid=$!; exec 7> fifo; sleep 0.3; kill -TERM $pid
    wait $pid || rc=$?; exec 7>&-; }
  [[ $rc == 143 ]] || fail "SIGTERM gave status $rc, not 143"
  ! exists out.pcrypt || fail "output left after SIGTERM"
fi
