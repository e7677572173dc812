#!/usr/bin/env bash
# bench/scripts/plots.sh --quick (the one command that regenerates docs/BENCHMARKS.md's plots) runs the
# experiments and the end-to-end comparison and draws all five plots, PNG and SVG; plots.py reads what
# `pcrypt bench --format json` writes, says which plot it skips when its data is missing or of another
# schema, and fails when it can draw nothing. Skipped visibly without python3-matplotlib, and under an
# emulator (the script runs the binary directly).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

python=
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import matplotlib' 2> /dev/null; then
    python=$candidate
    break
  fi
done
if [[ -z $python ]]; then
  echo "SKIPPED: python3-matplotlib not installed (scripts/install-deps.sh installs it)"
  exit 0
fi
if [[ -n ${PCRYPT_TEST_EMULATOR:-} ]]; then
  echo "SKIPPED: bench/scripts/plots.sh runs pcrypt directly, not under $PCRYPT_TEST_EMULATOR"
  exit 0
fi
plots=(keystream engines throughput scaling peers)

check "plots.sh --quick: every experiment's data and all five plots, PNG and SVG"
bash "$SOURCE_DIR/bench/scripts/plots.sh" --quick "$PCRYPT" out > drawn 2> log || {
  cat log
  fail "plots.sh --quick failed"
}
for name in "${plots[@]}"; do
  for ext in png svg; do
    grep -qx "$WORK/out/$name.$ext" drawn || fail "plots.py did not report $name.$ext: $(cat drawn)"
  done
  [[ $(head -c 8 "out/$name.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "$name.png is not a PNG"
  grep -q '<svg' "out/$name.svg" || fail "$name.svg is not an SVG"
done
# (One python for the four: each start costs more than its check.)
"$python" - out/keystream.json out/engines.json out/throughput.json out/scaling.json << 'PY' || fail "$(cat not-json)"
import json, sys
for path in sys.argv[1:]:
    try:
        d = json.load(open(path))
        good = d["schema"] == "pcrypt-bench/1" and d["tables"]
    except (ValueError, KeyError, TypeError):
        good = False
    if not good:
        open("not-json", "w").write(f"{path} is not pcrypt bench's JSON")
        sys.exit(1)
PY
check "the plots say what they show: the experiment, the machine and the load"
grep -q 'BSAFE keystream experiment' out/keystream.svg || fail "keystream.svg has no title"
grep -q 'fused CTR-XOR' out/keystream.svg || fail "keystream.svg lacks the fused CTR-XOR line"
grep -q 'portable' out/engines.svg || fail "engines.svg does not show the portable engine"
grep -q 'mean ± sd' out/throughput.svg || fail "throughput.svg has no mean ± sd"
grep -q 'worker threads' out/scaling.svg || fail "scaling.svg has no thread axis"
{ grep -q 'pcrypt encrypt -k' out/peers.svg && grep -q 'cat' out/peers.svg; } || fail "peers.svg lacks pcrypt or cat"
grep -q 'load ' out/keystream.svg || fail "the plots do not state the load"
grep -q '^before: .*; after: ' out/load.txt || fail "load.txt: $(cat out/load.txt)"
check "peers.csv: a line per run of every command, pcrypt's and cat's at least"
"$python" - out/peers.csv << 'PY' || fail "peers.csv is not as plots.py reads it"
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
commands = {r["command"] for r in rows}
assert {"pcrypt encrypt -k", "pcrypt decrypt -k", "cat"} <= commands, commands
assert all(float(r["seconds"]) > 0 for r in rows)
assert len(rows) == 2 * len(commands), (len(rows), commands)
PY

check "plots.py: a missing or foreign file skips its plot with a message; nothing to draw is exit 1"
mkdir partial
cp out/throughput.json partial/
sed 's/pcrypt-bench\/1/other\/9/' out/engines.json > partial/engines.json
"$python" "$SOURCE_DIR/bench/scripts/plots.py" partial > drawn 2> stderr || fail "plots.py failed with one usable file"
grep -q 'partial/throughput.png$' drawn || fail "plots.py did not draw throughput from partial data"
grep -q 'keystream.json: missing, keystream plot skipped' stderr || fail "no message for the missing keystream data"
grep -q "engines.json: .*schema is 'other/9'" stderr || fail "no message for a foreign schema: $(cat stderr)"
mkdir empty
expect 1 "$python" "$SOURCE_DIR/bench/scripts/plots.py" empty
echo "ok: plots"
