#!/usr/bin/env bash
# `pcrypt bench --quick`: every experiment in every format; structure (20 keystream sizes, columns, every
# supported engine listed, hash check OK), positivity and consistency (rate = bytes / time), usage errors, Ctrl-C.
# Never a speed threshold: the numbers depend on the machine and its load.
# usage: test_bench.sh PCRYPT_BINARY SOURCE_DIR
set -euo pipefail
pc=$(readlink -f "${1:?usage: test_bench.sh PCRYPT_BINARY SOURCE_DIR}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# The twelve runs that check the formats (3 experiments x 4 formats) measure as little as the checks allow:
# one timed sample per case, no warm-up, 1 MiB instead of 16 MiB through the pipeline. They check the tables'
# structure and consistency, which do not depend on how long a case was measured; every check below is the
# same. The summary run further down is plain --quick (its defaults, all three experiments), except under an
# emulator (scripts/test-arm64.sh runs the suite under qemu, which translates every instruction, so a --quick
# run takes minutes), where it gets the same small settings.
small=(--max-samples 1 --max-time 0.01 --warmups 0)
small_throughput=(--sizes 1MiB)
emu=()
if [[ -n ${PCRYPT_TEST_EMULATOR:-} ]]; then
  emu=("${small[@]}")
  echo "emulated ($PCRYPT_TEST_EMULATOR): the summary run too has ${emu[*]}"
fi

for exp in keystream throughput engines; do
  extra=("${small[@]}")
  [[ $exp == throughput ]] && extra+=("${small_throughput[@]}")
  for fmt in table markdown csv json; do
    "$pc" bench "$exp" --quick --format "$fmt" "${extra[@]}" >"$tmp/$exp.$fmt" 2>"$tmp/$exp.$fmt.err" ||
      fail "bench $exp --format $fmt exited $?: $(cat "$tmp/$exp.$fmt.err")"
    [[ -s $tmp/$exp.$fmt ]] || fail "bench $exp --format $fmt printed nothing"
    # Progress lines are for terminals only; stderr is a file here.
    [[ ! -s $tmp/$exp.$fmt.err ]] || fail "bench $exp --format $fmt wrote to stderr: $(cat "$tmp/$exp.$fmt.err")"
  done
done

# --- CSV: per-table checks with awk (always available) ----------------------------------------------------
# Prints one "table <id> <rows>" line per table and "error ..." lines for every violated rule.
check_csv() {
  awk -F, '
    function flush() { if (id != "") printf "table %s %d\n", id, rows }
    function col(name) { return (name in idx) ? $(idx[name]) : "" }
    function near(a, b) { d = a - b; if (d < 0) d = -d; return d <= 1e-5 * (b < 0 ? -b : b) + 1e-9 }
    /^# table: / { flush(); split($0, parts, " "); id = parts[3]; sub(/:$/, "", id); rows = 0; header = 1; next }
    /^#/ || /^$/ { next }
    header { delete idx; for (i = 1; i <= NF; i++) idx[$i] = i; header = 0; next }
    {
      rows++
      if ("keystream_bytes" in idx) {
        if (col("calls") * col("keystream_bytes") != col("data_bytes")) print "error " id ": calls x request != data: " $0
        sizes[id] = sizes[id] " " col("keystream_bytes")
      }
      if ("seconds_mean" in idx) {
        if (!(col("seconds_mean") > 0)) print "error " id ": mean time not positive: " $0
        if (!(col("seconds_min") <= col("seconds_mean") && col("seconds_mean") <= col("seconds_max")))
          print "error " id ": mean outside [min, max]: " $0
        if (!(col("samples") >= 1)) print "error " id ": no samples: " $0
        if (!(col("seconds_stddev") >= 0)) print "error " id ": negative stddev: " $0
      }
      if ("seconds_median" in idx && !(col("seconds_min") <= col("seconds_median") && col("seconds_median") <= col("seconds_max")))
        print "error " id ": median outside [min, max]: " $0
      bytes = ("data_bytes" in idx) ? col("data_bytes") : ("size_bytes" in idx) ? col("size_bytes") : col("bytes")
      if ("rate_mbps" in idx && "seconds_mean" in idx) {
        if (!(col("rate_mbps") > 0)) print "error " id ": rate not positive: " $0
        if (!near(col("rate_mbps"), bytes / col("seconds_mean") / 1e6)) print "error " id ": rate != bytes / mean time: " $0
      }
      if ("encrypt_mbps" in idx) {
        if (!(col("encrypt_seconds") > 0 && col("decrypt_seconds") > 0)) print "error " id ": run time not positive: " $0
        if (!near(col("encrypt_mbps"), bytes / col("encrypt_seconds") / 1e6)) print "error " id ": encrypt rate != size / time: " $0
        if (!near(col("decrypt_mbps"), bytes / col("decrypt_seconds") / 1e6)) print "error " id ": decrypt rate != size / time: " $0
      }
      if ("xxh3_check" in idx && col("xxh3_check") != "OK" && col("xxh3_check") != "-")
        print "error " id ": hash check " col("xxh3_check") ": " $0
      if (id ~ /throughput_summary/ && col("operation") == "decrypt" && col("xxh3_check") != "OK")
        print "error " id ": decrypt row without OK check: " $0
      if ("ns_per_block" in idx && !near(col("ns_per_block"), col("seconds_mean") * 1e9 / (col("bytes") / 16)))
        print "error " id ": ns/block != time / blocks: " $0
    }
    END {
      flush()
      expect = ""
      for (s = 4194304; s >= 8; s /= 2) expect = expect " " s
      for (t in sizes) if (sizes[t] != expect) print "error " t ": request sizes are" sizes[t]
    }' "$1"
}

for exp in keystream throughput engines; do
  check_csv "$tmp/$exp.csv" >"$tmp/$exp.check"
  if grep -q '^error' "$tmp/$exp.check"; then
    grep '^error' "$tmp/$exp.check" | head -20 >&2
    fail "bench $exp --format csv: inconsistent numbers"
  fi
done

# Keystream: the five code shapes of the original + ours, each with exactly the 20 request sizes.
for id in keystream_only keystream_xor_bytes keystream_xor_words32 keystream_xor_words64 \
  keystream_xor_bytes_autovec ctr_xor_fused; do
  grep -qx "table keystream/$id 20" "$tmp/keystream.check" || fail "keystream table $id missing or not 20 rows"
done
# The hand-written SIMD XOR of the machine the binary is for: NEON on ARM64 (always there), AVX2 on x86-64
# where the CPU has it. (An ARM64 binary run under qemu reads the x86 host's /proc/cpuinfo, so the NEON table
# decides first.)
if grep -q "^table keystream/keystream_xor_neon " "$tmp/keystream.check"; then
  grep -qx "table keystream/keystream_xor_neon 20" "$tmp/keystream.check" || fail "NEON table not 20 rows"
  ! grep -q "keystream_xor_avx2" "$tmp/keystream.check" || fail "both NEON and AVX2 tables"
elif grep -qw avx2 /proc/cpuinfo; then
  grep -qx "table keystream/keystream_xor_avx2 20" "$tmp/keystream.check" || fail "AVX2 CPU but no AVX2 table"
fi
for col in keystream_size keystream_bytes calls data_bytes seconds_mean seconds_stddev seconds_min seconds_max \
  samples rate_mbps; do
  grep '^keystream_size,' "$tmp/keystream.csv" | grep -E "(^|,)$col(,|\$)" > /dev/null || fail "keystream csv lacks column $col"
done

# Throughput: per-run rows and a summary; every decrypted run checked OK.
grep -q "^table throughput/throughput_runs 2$" "$tmp/throughput.check" || fail "throughput: expected 2 quick runs"
grep -q "^table throughput/throughput_summary 2$" "$tmp/throughput.check" || fail "throughput: no summary"
grep -q ',decrypt,.*,OK$' "$tmp/throughput.csv" || fail "throughput: no OK hash check"

# Header facts every format carries.
for fact in cpu logical_cores cpu_flags compiler pcrypt_version engine; do
  grep -q "^# $fact: ." "$tmp/engines.csv" || fail "csv header lacks $fact"
done
grep -q 'CPU: ' "$tmp/keystream.table" || fail "table header lacks the CPU"
grep -q '^keystream size ' "$tmp/keystream.table" || fail "table format lacks the keystream header row"
grep -q '^| keystream size |' "$tmp/keystream.markdown" || fail "markdown lacks the keystream table header"
grep -q '^|---|---:|' "$tmp/keystream.markdown" || fail "markdown lacks the alignment row"
grep -q 'XXH3-128 check' "$tmp/throughput.markdown" || fail "markdown throughput lacks the hash check column"

# --- JSON: parse and cross-check (python3 if present) ------------------------------------------------------
if command -v python3 >/dev/null; then
  # (One python for the three experiments' files.)
  python3 - "$tmp" keystream throughput engines <<'PY' || fail "bench --format json: see above"
import json, sys
def check(doc, exp):
    assert doc["schema"] == "pcrypt-bench/1", doc.get("schema")
    assert doc["interrupted"] is False
    assert doc["units"]["MB"] == 1000000 and doc["units"]["MiB"] == 1048576
    for key in ("cpu", "logical_cores", "cpu_flags", "compiler", "pcrypt_version", "engine", "engines"):
        assert doc["machine"].get(key), "machine fact missing: " + key
    tables = doc["tables"]
    assert tables, "no tables"
    for t in tables:
        assert t["experiment"] == exp, t["experiment"]
        keys = [c["key"] for c in t["columns"]]
        for row in t["rows"]:
            assert list(row.keys()) == keys, (t["id"], list(row.keys()))
    if exp == "engines":
        supported = [e.strip() for e in doc["machine"]["engines"].split(",") if "unsupported" not in e]
        by_id = {t["id"]: t for t in tables}
        aead = {r["engine"] for r in by_id["engines_aead"]["rows"]}
        missing = set(supported + ["chacha20poly1305-openssl", "chacha20poly1305-sodium"]) - aead
        assert not missing, "engines missing from the AEAD table: %s" % missing
        blocks = {r["engine"] for r in by_id["engines_blocks"]["rows"]}
        assert set(supported) - {"sodium"} <= blocks, "engines missing from the block table: %s" % blocks
        sizes = sorted({r["message_bytes"] for r in by_id["engines_aead"]["rows"]})
        assert sizes == [16, 64, 256, 1024, 8192, 65536, 1048576], sizes
        for r in by_id["engines_blocks"]["rows"]:
            if r["engine"] == "portable":
                assert abs(r["ratio_vs_portable"] - 1) < 1e-9, r
            elif "portable" in supported:
                assert r["ratio_vs_portable"] > 0, r
    print("json ok:", exp, len(tables), "tables")
for exp in sys.argv[2:]:
    try:
        check(json.load(open(f"{sys.argv[1]}/{exp}.json")), exp)
    except Exception:
        print(f"bench {exp} --format json:", file=sys.stderr)
        raise
PY
else
  echo "WARNING: SKIPPED JSON parsing checks: python3 not found" >&2
fi

# --- The short summary covers all three experiments ------------------------------------------------------
"$pc" bench --quick --format csv "${emu[@]}" >"$tmp/summary.csv" || fail "bench --quick exited $?"
for id in keystream/keystream_only throughput/throughput_summary engines/engines_aead_summary; do
  grep -q "^# table: $id:" "$tmp/summary.csv" || fail "summary lacks $id"
done

# --- Refused arguments: the CLI's error format, before any output ------------------------------------------
# Every argument is checked before the machine header is printed, so a refused command writes nothing to
# stdout, and stderr is one `pcrypt: error:` line, optionally followed by one `pcrypt: hint:` line.
# (The error's lines are read by the shell: four head, wc and sed processes per case were most of its time.)
expect_refusal() {
  local want=$1 rc=0 lines
  shift
  "$pc" bench "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [[ $rc -eq $want ]] || fail "bench $* exited $rc, expected $want: $(cat "$tmp/err")"
  [[ ! -s $tmp/out ]] || fail "bench $* printed before its error: $(head -c 200 "$tmp/out")"
  mapfile -t lines <"$tmp/err"
  [[ ${lines[0]-} == 'pcrypt: error: '?* ]] || fail "bench $*: first line is not an error: $(cat "$tmp/err")"
  if [[ ${#lines[@]} -gt 1 ]]; then
    [[ ${#lines[@]} -eq 2 ]] || fail "bench $*: more than an error and a hint: $(cat "$tmp/err")"
    [[ ${lines[1]} == 'pcrypt: hint: '?* ]] || fail "bench $*: second line is not a hint: $(cat "$tmp/err")"
  fi
}
expect_usage() { expect_refusal 2 "$@"; }
expect_usage --format xml engines
expect_usage keystream --quick --data-size 5MiB
expect_usage keystream --data-size 5MiB
expect_usage keystream --quick --data-size 0
expect_usage keystream --quick --data-size 4Mx
expect_usage keystream --quick --engine no-such-engine
expect_usage keystream --quick --engine sodium
expect_usage --quick --engine sodium # the summary runs the keystream experiment too
expect_usage --quick --engine no-such-engine
expect_usage engines --quick --msg-sizes 0
expect_usage engines --quick --msg-sizes ,
expect_usage throughput --quick --sizes 0
expect_usage throughput --quick --sizes 1x
expect_usage throughput --quick -j 0
expect_usage throughput --quick -j x
expect_usage throughput --quick --runs 0
expect_usage throughput --quick --runs abc
expect_usage throughput --quick --chunk-size 1
expect_usage throughput --quick --chunk-size 128MiB
expect_usage --quick --max-samples 0
expect_usage --quick --max-samples x
expect_usage --quick --max-time 0
expect_usage --quick --max-time nan
expect_usage --quick --max-time abc
expect_usage --quick --warmups -1
expect_usage --quick --warmups 1x
expect_usage --quick unexpected-argument
expect_usage --quick --no-such-option
# An engine this CPU lacks (armce on x86-64, the x86 engines on ARM64): the error and its hint, both prefixed.
unsupported=$("$pc" --version | awk '$2 == "unsupported" { print $1; exit }')
if [[ -n $unsupported ]]; then
  expect_usage --quick --engine "$unsupported"
  grep -q '^pcrypt: hint: ' "$tmp/err" || fail "bench --engine $unsupported (unsupported) gave no hint"
else
  echo "note: every engine is supported on this CPU: the unsupported-engine case is not run"
fi
PCRYPT_ENGINE=no-such-engine expect_usage --quick
# --dir is checked before the tables begin; a missing directory is an I/O refusal (exit 1).
expect_refusal 1 throughput --quick --dir "$tmp/no-such-dir"
: >"$tmp/a-file"
expect_refusal 1 throughput --quick --dir "$tmp/a-file"

# --- Ctrl-C: partial results, exit 130 ---------------------------------------------------------------------
"$pc" bench keystream --format csv --data-size 1GiB >"$tmp/int.csv" 2>/dev/null &
pid=$!
for _ in $(seq 50); do  # wait until the machine facts show the run has begun
  [[ -s $tmp/int.csv ]] && break
  sleep 0.1
done
# Then until it has spent 0.3 s of CPU (utime + stime, in 10 ms ticks) since: after its facts pcrypt does
# nothing but measure the first table (40 s of it at 1 GiB a sample), so the Ctrl-C comes in the middle of
# it however loaded the machine, not before it began (a fixed sleep was a bet on the load).
read -ra stat <"/proc/$pid/stat"
begun=$((stat[13] + stat[14]))
for _ in $(seq 300); do
  read -ra stat <"/proc/$pid/stat"
  ((stat[13] + stat[14] - begun >= 30)) && break
  sleep 0.05
done
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
[[ $rc -eq 130 ]] || fail "interrupted bench exited $rc, expected 130"
grep -q '^# interrupted: true' "$tmp/int.csv" || fail "interrupted bench did not say so"
grep -q '^# table: keystream/' "$tmp/int.csv" || fail "interrupted bench printed no partial table"

echo "bench CLI tests passed"
