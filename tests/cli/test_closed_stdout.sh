#!/usr/bin/env bash
# A command whose result is what it prints must not succeed with standard output closed (`>&-`): what it
# printed went nowhere. Each fails with exit 1 and one error line saying so (issue 16, item 11).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen -o key
"$PCRYPT" keygen --identity -o id 2> /dev/null
printf 'hello\n' > plain
"$PCRYPT" encrypt -k key plain -o f.pcrypt

closed() {
  check "$* >&-: exit 1, 'standard output is closed'"
  expect 1 "$@" >&-
  expect_one_error "standard output is closed"
}

closed "$PCRYPT" info f.pcrypt
closed "$PCRYPT" info --engines
closed "$PCRYPT" recipient id
closed "$PCRYPT" keygen
closed "$PCRYPT" keygen --identity
closed "$PCRYPT" --help
closed "$PCRYPT" --version
closed "$PCRYPT" help encrypt
closed "$PCRYPT" bench engines --quick

check "with standard output open, the same commands succeed"
"$PCRYPT" info f.pcrypt > out
[[ -s out ]] || fail "info printed nothing"
"$PCRYPT" recipient id > out
grep -q '^age1' out || fail "recipient printed no age1 line"
"$PCRYPT" --version > out
grep -q '^pcrypt ' out || fail "--version printed nothing"

# A reader that goes away (`pcrypt info f.age | head -1`, issue 27 defect 5): what it wanted is delivered, so
# every command that writes to standard output ends silently (exit 0 or 1, the README's broken-pipe promise),
# never "cannot write to standard output", never killed by SIGPIPE. Each command runs twice, and each run
# makes a write fail for certain (this used to be 50 runs of `| head -c1` per command, hoping that some write
# came after head had left: 750 runs, most of the test's 54 s):
#  - into a pipe whose reader has already exited (reader_gone below): the first write fails with EPIPE;
#  - into `| head -c1` with output larger than a pipe holds where the command can make one (several files for
#    info, 400 recipients, 3 MB of data): head takes one byte and leaves, and the writes still to come fail,
#    after earlier ones succeeded.
check "| head -c1: every command that prints ends silently when the reader goes away"
random_identities 400 > team.keys
"$PCRYPT" recipient team.keys > team.txt
[[ $(sort -u team.txt | wc -l) == 400 ]] || fail "expected 400 distinct recipients"
head -1 team.keys > team-1.key
"$PCRYPT" encrypt --format age -R team.txt -o team.age plain
head -c 3000000 /dev/urandom > big
"$PCRYPT" encrypt --format age -i team-1.key -o big.age big
"$PCRYPT" encrypt -k key -o big.pcrypt big
mapfile -t many < <(yes team.age | head -300)
# reader_gone: opens descriptor $gone on a pipe whose only reader has exited (waited for), so every write to it
# fails with EPIPE.
reader_gone() {
  exec {gone}> >(exec true)
  wait $!
}
silent_when_reader_leaves() {
  local how rc
  for how in gone head; do
    rc=0
    if [[ $how == gone ]]; then
      reader_gone
      "$@" 2> stderr >&"$gone" || rc=$?
      exec {gone}>&-
    else
      "$@" 2> stderr | head -c1 > /dev/null || rc=${PIPESTATUS[0]}
    fi
    [[ $rc == 0 || $rc == 1 ]] || fail "reader $how: exit $rc: $*"
    # (keygen --identity's is not; an empty stderr, the usual case, needs no grep)
    if [[ -s stderr ]] && grep -qv '^public key: ' stderr; then fail "reader $how: not silent: $*"; fi
  done
}
silent_when_reader_leaves "$PCRYPT" info team.age
silent_when_reader_leaves "$PCRYPT" info "${many[@]}"
silent_when_reader_leaves "$PCRYPT" info --engines
silent_when_reader_leaves "$PCRYPT" info --engines team.age
silent_when_reader_leaves "$PCRYPT" recipient team.keys
silent_when_reader_leaves "$PCRYPT" keygen -o -
silent_when_reader_leaves "$PCRYPT" keygen --identity -o -
silent_when_reader_leaves "$PCRYPT" decrypt -i team-1.key -o - big.age
silent_when_reader_leaves "$PCRYPT" decrypt -k key -o - big.pcrypt
silent_when_reader_leaves "$PCRYPT" decrypt -k key --offset 1000 --length 2000000 -o - big.pcrypt
silent_when_reader_leaves "$PCRYPT" encrypt -k key -o - big
silent_when_reader_leaves "$PCRYPT" encrypt --format age -a -i team-1.key -o - big
silent_when_reader_leaves "$PCRYPT" --help
silent_when_reader_leaves "$PCRYPT" help encrypt
silent_when_reader_leaves "$PCRYPT" --version
echo "ok: closed or vanished standard output"
