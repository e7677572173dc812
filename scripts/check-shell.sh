#!/usr/bin/env bash
# Two forms that make a shell test fail at random, refused in every tracked shell script: one line per use,
#   path:line: the line
# and exit 1.
# - `cmd | grep -q PATTERN` where pipefail is set: grep exits at the first match, and cmd, if it still has
#   output to write, dies of SIGPIPE, so the pipeline's status is 141 although the pattern was found (CI lost
#   a run to `ldd pcrypt | grep -q libfuse3` in the fresh chroot). The tests write `cmd | finds PATTERN`
#   (tests/cli/lib.sh: grep that reads all its input); a script compares strings: [[ $(cmd) == *text* ]].
# - `printf '\xNN' | dd of=FILE ... conv=notrunc`, a fixed byte written over a file to damage it: where the
#   byte was random ciphertext it is already NN once in 256 runs, nothing is damaged, and the test expecting a
#   failure fails. The tests write `flip_byte FILE OFFSET` (tests/cli/lib.sh), which changes the byte.
# Usage: scripts/check-shell.sh [--root DIR]   (DIR defaults to this repository; grep only, < 1 s)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [[ ${1:-} == --root ]]; then
  root=${2:?usage: scripts/check-shell.sh [--root DIR]}
elif [[ $# -gt 0 ]]; then
  echo "usage: scripts/check-shell.sh [--root DIR]" >&2
  exit 2
fi
cd "$root"

# The shell scripts: tracked and new files in git (find outside git), by name or by a bash shebang.
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard)
else
  mapfile -t files < <(find . -type f -not -path './.git/*' | sed 's|^\./||')
fi
# One process per check over all the scripts, not a few per file: the tests run this on a tree of ~900 files.
scripts=()
for f in "${files[@]}"; do
  [[ -f $f ]] || continue
  # (By name, or a bash or sh shebang: its first line, read without a process.)
  first=""
  [[ $f == *.sh ]] || IFS= read -r -n 64 first < "$f" 2> /dev/null || true
  if [[ $f == *.sh || $first =~ ^'#!'.*(^|[^[:alnum:]_])(ba)?sh([^[:alnum:]_]|$) ]]; then scripts+=("$f"); fi
done

# These two name the form: the checker, and its test that plants it in fake trees.
checked=()
for f in "${scripts[@]}"; do
  if [[ $f != scripts/check-shell.sh && $f != tests/cli/test_check_shell.sh ]]; then checked+=("$f"); fi
done
hits=""
if [[ ${#checked[@]} -gt 0 ]]; then
  # A pipe (not ||) into grep whose options include -q, in the scripts that set pipefail.
  mapfile -t piped < <(grep -l 'pipefail' "${checked[@]}" || true)
  if [[ ${#piped[@]} -gt 0 ]]; then
    hits=$(grep -nHE '(^|[^|])\|[[:space:]]*grep[[:space:]]+(-[[:alnum:]]*q|--quiet|--silent)' "${piped[@]}" || true)
  fi
  # A fixed byte (printf '\xNN' or '\NNN') piped into dd that overwrites in place.
  hits+=$'\n'$(grep -nHE "printf[[:space:]]+'\\\\(x[[:xdigit:]]{1,2}|[0-7]{1,3})'[[:space:]]*\\|[[:space:]]*dd[[:space:]].*conv=notrunc" "${checked[@]}" || true)
fi
# One line per use, path:line: the line, by path and line; not comments.
hits=$(grep -vE '^[^:]*:[0-9]+:([[:space:]]*#|$)|^$' <<< "$hits" | sort -t: -k1,1 -k2,2n -s || true)
bad=0
if [[ -n $hits ]]; then
  printf '%s\n' "$hits"
  bad=1
fi
if [[ $bad -ne 0 ]]; then
  echo "check-shell: the forms above fail at random (the top of scripts/check-shell.sh says why and what to write)" >&2
  exit 1
fi
echo "check-shell: ${#scripts[@]} shell scripts, no '| grep -q' under pipefail, no fixed byte written over a file"
