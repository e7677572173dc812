#!/usr/bin/env bash
# README's opening figures are measured, not remembered (issue 44): its first paragraph links the one table of
# docs/BENCHMARKS.md they come from (the `readme-figures` anchor), that table is one machine's with its date
# and load, and every figure of the paragraph (rates, ratios, the date, the CPU) is in that table or in its
# machine's row. A figure edited in one place and not the other fails here.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

readme=$SOURCE_DIR/README.md
benchmarks=$SOURCE_DIR/docs/BENCHMARKS.md

# The first paragraph after the title, joined into one line.
opening=$(awk 'NR > 1 && /^$/ { if (seen) exit; next } NR > 1 { seen = 1; printf "%s ", $0 }' "$readme")
check "README's opening paragraph links BENCHMARKS.md's readme-figures table"
[[ $opening == *'(docs/BENCHMARKS.md#readme-figures)'* ]] || fail "no link to docs/BENCHMARKS.md#readme-figures: $opening"

check "the table: one machine, its date and its load in the heading under the anchor"
# The section: from the anchor to the next heading of the same level after its own.
section=$(awk '/^<a id="readme-figures"><\/a>$/ { on = 1; next } on && /^### / { if (heading) exit; heading = 1 } on' \
  "$benchmarks")
[[ -n $section ]] || fail "docs/BENCHMARKS.md has no <a id=\"readme-figures\"></a> anchor"
heading=$(head -1 <<< "$section")
[[ $heading =~ ^'### Machine '([A-Z])' ('([0-9]{4}-[0-9]{2}-[0-9]{2})[^\)]*load ]] ||
  fail "the heading under the anchor does not name a machine, a date and a load: $heading"
machine=${BASH_REMATCH[1]} date=${BASH_REMATCH[2]}
row=$(awk '/^## Machines$/ { on = 1; next } /^## / { on = 0 } on' "$benchmarks" | grep -E "^\| $machine \|") ||
  fail "machine $machine is not in the Machines table"

check "each figure of the paragraph is the table's: rates, ratios, the date, the machine and its CPU"
[[ $opening == *"machine $machine, $date"* ]] || fail "README does not name machine $machine and $date: $opening"
figures=$(grep -oE '[0-9]+(\.[0-9]+)?(-[0-9]+(\.[0-9]+)?)?(x| GB/s)' <<< "$opening") || fail "no figures in: $opening"
[[ $(wc -l <<< "$figures") -ge 4 ]] || fail "fewer figures than expected (rate and three ratios): $figures"
while read -r figure; do
  finds -wF -- "$figure" <<< "$section" || fail "README's $figure is not a figure of the machine $machine table"
done <<< "$figures"
cpu=$(grep -oE 'Zen [0-9]+' <<< "$opening") || fail "README does not name the CPU"
[[ $row == *"$cpu"* ]] || fail "README says $cpu, machine $machine's row says: $row"
echo "all front page checks passed"
