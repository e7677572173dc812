#!/usr/bin/env bash
# Our shell scripts run with `set -o pipefail`, where `cmd | grep -q PATTERN` fails at random: grep exits at
# the first match, and cmd, if it still has output to write, dies of SIGPIPE, so the pipeline's status is
# 141 although the pattern was found. (CI lost a run to `ldd pcrypt | grep -q libfuse3` in the fresh chroot.)
# This refuses the form in every tracked shell script that sets pipefail: one line per use,
#   path:line: the line
# and exit 1. The tests write `cmd | finds PATTERN` (tests/cli/lib.sh: grep that reads all its input); a
# script compares strings instead: [[ $(cmd) == *text* ]].
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
scripts=()
for f in "${files[@]}"; do
  [[ -f $f ]] || continue
  if [[ $f == *.sh ]] || head -c 64 "$f" | grep -E '^#!.*\b(ba)?sh\b' > /dev/null; then scripts+=("$f"); fi
done

bad=0
for f in "${scripts[@]}"; do
  # These two name the form: the checker, and its test that plants it in fake trees.
  [[ $f != scripts/check-shell.sh && $f != tests/cli/test_check_shell.sh ]] || continue
  grep -q 'pipefail' "$f" || continue
  # A pipe (not ||) into grep whose options include -q, on a line that is not a comment.
  hits=$(grep -nE '(^|[^|])\|[[:space:]]*grep[[:space:]]+(-[[:alnum:]]*q|--quiet|--silent)' "$f" |
    grep -vE '^[0-9]+:[[:space:]]*#' || true)
  [[ -z $hits ]] || { sed "s|^|$f:|" <<< "$hits"; bad=1; }
done
if [[ $bad -ne 0 ]]; then
  echo "check-shell: '| grep -q' under pipefail above: use finds (tests/cli/lib.sh) or [[ \$(cmd) == *text* ]]" >&2
  exit 1
fi
echo "check-shell: ${#scripts[@]} shell scripts, no '| grep -q' under pipefail"
