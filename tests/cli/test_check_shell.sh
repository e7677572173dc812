#!/usr/bin/env bash
# scripts/check-shell.sh itself, on fake trees outside git: `| grep -q` (and -Eq, --quiet) in a script that
# sets pipefail fails naming the file and line; the same in a comment, after `||`, in a script without
# pipefail, and `| finds` pass. Then the real tree is checked (scripts/test.sh runs it first as well).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

checker=$SOURCE_DIR/scripts/check-shell.sh
tree=$WORK/tree

# put FILE LINE...: writes FILE in a fresh fake tree with the given lines.
put() {
  rm -rf "$tree"
  mkdir -p "$tree/$(dirname "$1")"
  local file=$tree/$1
  shift
  printf '%s\n' "$@" > "$file"
}

check "allowed: finds, || grep -q, comments, scripts without pipefail"
put t/ok.sh 'set -euo pipefail' 'ldd x | finds libfuse3' 'a || grep -q b c' '  # cmd | grep -q mentioned'
"$checker" --root "$tree" > out || fail "an allowed script was refused: $(cat out)"
put t/nopipefail.sh 'set -eu' 'ldd x | grep -q libfuse3'
"$checker" --root "$tree" > out || fail "a script without pipefail was refused: $(cat out)"
put run 'set -o pipefail' 'echo fine'
"$checker" --root "$tree" > out || fail "a clean extensionless script was refused: $(cat out)"

check "refused: | grep -q, | grep -Eq, | grep --quiet, in .sh files and bash scripts without the extension"
for form in 'ldd x | grep -q libfuse3' 'a|grep -Eq "x" || b' 'man p | grep --quiet y'; do
  put scripts/bad.sh 'set -euo pipefail' 'echo one' "$form"
  "$checker" --root "$tree" > out 2> err && fail "not refused: $form"
  grep -xF "scripts/bad.sh:3:$form" out > /dev/null || fail "no file:line report for $form: $(cat out err)"
done
put .ci/run '#!/usr/bin/env bash' 'set -euo pipefail' 'dpkg-query -W x | grep -q ok'
"$checker" --root "$tree" > out 2> err && fail "an extensionless bash script was not checked"
grep -xF '.ci/run:3:dpkg-query -W x | grep -q ok' out > /dev/null || fail "no file:line report: $(cat out err)"

check "the real tree"
"$checker" > out || fail "$(cat out)"
echo "all check-shell checks passed"
