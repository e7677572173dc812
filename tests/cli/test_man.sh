#!/usr/bin/env bash
# The man page's markup (issue 27, defect 4): groff's own checks with every warning on (-ww) must print
# nothing, and no control character may hide in the source (a "\f" once written through a tool that took it
# for a form feed rendered "--plugin INAMER"). Skipped visibly without groff (Debian: groff-base).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

require_tools groff
MAN="$SOURCE_DIR/man/pcrypt.1"

check "groff -ww -z -man: no warning or error"
groff -ww -z -man "$MAN" > out 2> stderr || fail "groff failed on man/pcrypt.1"
[[ ! -s stderr ]] || fail "groff warns about man/pcrypt.1: $(head -5 stderr)"

check "no control characters in the source"
if grep -nP '[\x00-\x08\x0b-\x1f\x7f]' "$MAN" > ctl; then
  fail "control characters in man/pcrypt.1: $(cat -A ctl | head -5)"
fi

check "the plugin lines render as written (NAME in italics, not stray font letters)"
groff -man -Tutf8 -P -cbou "$MAN" > rendered 2> stderr || fail "groff cannot render man/pcrypt.1"
grep -q 'AGE-PLUGIN-NAME-1' rendered || fail "AGE-PLUGIN-NAME-1... does not render"
grep -q -- '--plugin NAME' rendered || fail "--plugin NAME does not render"
if grep -qE 'INAME|NAMER|NAMEB' rendered; then fail "stray font letters: $(grep -E 'INAME|NAMER|NAMEB' rendered)"; fi

echo "ok: man page lint"
