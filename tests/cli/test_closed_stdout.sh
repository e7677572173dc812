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
# never "cannot write to standard output", never killed by SIGPIPE. 50 runs each, with output larger than a
# pipe holds where the command can make one (several files for info), so the write after `head` left fails.
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
head_c1() {
  local i rc
  for ((i = 1; i <= 50; i++)); do
    rc=0
    "$@" 2> stderr | head -c1 > /dev/null || rc=${PIPESTATUS[0]}
    [[ $rc == 0 || $rc == 1 ]] || fail "run $i: exit $rc: $*"
    # (keygen --identity's is not; an empty stderr, the usual case, needs no grep)
    if [[ -s stderr ]] && grep -qv '^public key: ' stderr; then fail "run $i: not silent: $*"; fi
  done
}
head_c1 "$PCRYPT" info team.age
head_c1 "$PCRYPT" info "${many[@]}"
head_c1 "$PCRYPT" info --engines
head_c1 "$PCRYPT" info --engines team.age
head_c1 "$PCRYPT" recipient team.keys
head_c1 "$PCRYPT" keygen -o -
head_c1 "$PCRYPT" keygen --identity -o -
head_c1 "$PCRYPT" decrypt -i team-1.key -o - big.age
head_c1 "$PCRYPT" decrypt -k key -o - big.pcrypt
head_c1 "$PCRYPT" decrypt -k key --offset 1000 --length 2000000 -o - big.pcrypt
head_c1 "$PCRYPT" encrypt -k key -o - big
head_c1 "$PCRYPT" encrypt --format age -a -i team-1.key -o - big
head_c1 "$PCRYPT" --help
head_c1 "$PCRYPT" help encrypt
head_c1 "$PCRYPT" --version
echo "ok: closed or vanished standard output"
