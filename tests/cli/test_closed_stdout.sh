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
