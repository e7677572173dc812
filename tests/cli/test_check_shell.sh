#!/usr/bin/env bash
# scripts/check-shell.sh itself, on fake trees outside git: `| grep -q` (and -Eq, --quiet) in a script that
# sets pipefail, and a fixed byte piped into `dd ... conv=notrunc` in any script, fail naming the file and
# line; the same in a comment, `| grep -q` after `||` or without pipefail, flip_byte and `| finds` pass. Then
# the real tree is checked (scripts/test.sh runs it first as well). And flip_byte changes every byte value.
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

check "refused: a fixed byte written over a file (hex or octal escape), with or without pipefail"
for form in "printf '\\x01' | dd of=f bs=1 seek=100 conv=notrunc status=none" \
  "printf '\\0' |dd of=f bs=1 seek=\$((size - 5)) conv=notrunc 2> /dev/null"; do
  put tests/bad.sh 'set -eu' "$form"
  "$checker" --root "$tree" > out 2> err && fail "not refused: $form"
  grep -xF "tests/bad.sh:2:$form" out > /dev/null || fail "no file:line report for $form: $(cat out err)"
done
put tests/ok.sh 'set -euo pipefail' 'flip_byte f 100' "printf 'x' > f" '# printf '"'"'\x01'"'"' | dd of=f conv=notrunc'
"$checker" --root "$tree" > out || fail "flip_byte or a comment was refused: $(cat out)"

check "flip_byte changes the byte at the offset, and only it, whatever its value (0-255)"
for ((v = 0; v < 256; v++)); do printf -v octal '\\%03o' $v && printf "$octal"; done > all
[[ $(od -An -v -tu1 all | tr -s ' \n' ' ') == " $(seq -s ' ' 0 255) " ]] || fail "test bug: all is not bytes 0-255"
cp all flipped
# Byte v sits at offset v; flip_byte is three processes, and all 256 of them were 60 % of this test. What could
# make a value go wrong is the way it travels (od's decimal, an octal escape that printf interprets, dd), so
# the values flipped are every edge of that: NUL both ways (0, 1), the whitespace od's output is stripped of
# and $() would eat (9-13, 32), characters printf or the shell give a meaning to (% $ ' " \ and their
# neighbours), octal's digit-count edges (7/8, 63/64), the sign bit (126-129) and the top (254, 255). The
# bytes between them must stay as they were, which checks "only it" at every other offset.
flip_values=(0 1 2 7 8 9 10 11 12 13 14 31 32 33 34 35 36 37 38 39 40 63 64 91 92 93 126 127 128 129 254 255)
for v in "${flip_values[@]}"; do flip_byte flipped $v; done
declare -A flipped_at=()
for v in "${flip_values[@]}"; do flipped_at[$v]=1; done
want=$(for ((v = 0; v < 256; v++)); do printf ' %d' $((${flipped_at[$v]:-0} ? v ^ 1 : v)); done)
[[ $(od -An -v -tu1 flipped | tr -s ' \n' ' ') == "$want " ]] || fail "flip_byte: $(od -An -v -tu1 flipped | head -3)"
(flip_byte all 256) 2> stderr && fail "flip_byte past the end did not fail"
finds 'no byte at offset 256' stderr || fail "flip_byte past the end: $(cat stderr)"

check "the real tree"
"$checker" > out || fail "$(cat out)"
echo "all check-shell checks passed"
