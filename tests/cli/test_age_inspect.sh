#!/usr/bin/env bash
# The age-inspect personality (pcrypt run as age-inspect, or `pcrypt age-inspect`): age 1.3's age-inspect
# on age files of every kind pcrypt and Debian's age write -- binary and armored, X25519, post-quantum,
# scrypt, SSH, several chunks, empty -- from a path, '-' or a pipe: --json in age-inspect's schema (parsed
# with Python's json, the numbers checked against the format computed by tests/cli/inspect_expect.py), the
# text report, and its refusals and exit codes.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

personality age-inspect
inspect=$PWD/age-inspect
expect_py=$SOURCE_DIR/tests/cli/inspect_expect.py

"$PCRYPT" keygen --identity -o x.key 2> /dev/null
"$PCRYPT" keygen --pq -o pq.key 2> /dev/null
x=$("$PCRYPT" recipient x.key)
pq=$("$PCRYPT" recipient pq.key)
echo "correct horse" > pw
head -c 0 /dev/urandom > p0
head -c 1000 /dev/urandom > p1000
head -c 65536 /dev/urandom > p65536
head -c $((3 * 65536 + 5)) /dev/urandom > pbig

"$PCRYPT" encrypt --format age -r "$x" p1000 -o x.age
"$PCRYPT" encrypt --format age -r "$x" p0 -o empty.age
"$PCRYPT" encrypt --format age -r "$x" p65536 -o full.age
"$PCRYPT" encrypt --format age -a -r "$x" pbig -o armored.age
"$PCRYPT" encrypt --format age -r "$pq" pbig -o pq.age
# The scrypt file at work factor 2^10 (tests/cli/age_scrypt_file.py, from the spec; Debian's age opens its files:
# test_age_encrypted_identity.sh) where python3-cryptography is installed: pcrypt's at age's 2^18 cost a second
# of scrypt, and age-inspect reads only the header (test_age.sh checks the stanza pcrypt writes).
if python3 -c 'import cryptography' 2> /dev/null; then
  python3 "$SOURCE_DIR/tests/cli/age_scrypt_file.py" 'correct horse' 10 < p1000 > scrypt.age
else
  "$PCRYPT" encrypt --format age --passphrase-file pw p1000 -o scrypt.age
fi
files=(x.age empty.age full.age armored.age pq.age scrypt.age)
if command -v ssh-keygen > /dev/null; then
  ssh-keygen -q -t ed25519 -N '' -f ssh_key
  "$PCRYPT" encrypt --format age -r "$(cat ssh_key.pub)" -r "$x" p1000 -o ssh.age
  files+=(ssh.age)
fi
if command -v age > /dev/null; then
  age -r "$x" -o real.age pbig
  age -a -r "$x" -o real-armored.age p1000
  files+=(real.age real-armored.age)
fi

# compare_json FILE...: age-inspect --json's output for each FILE (in FILE.out.json) is age's schema with
# FILE's facts (computed by inspect_expect.py). One python for all the files (two a file cost 2 s of starts).
compare_json() {
  python3 - "$expect_py" "$@" <<'PY' || fail "age-inspect --json"
import contextlib, importlib.util, io, json, sys
spec = importlib.util.spec_from_file_location("inspect_expect", sys.argv[1])
inspect_expect = importlib.util.module_from_spec(spec)
spec.loader.exec_module(inspect_expect)
def expected(path):
    sys.argv = ["inspect_expect.py", path]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        inspect_expect.main()
    return json.loads(printed.getvalue())
def need(cond, what):
    if not cond:
        sys.exit(f"{name}: {what}: {json.dumps(out)}")
for name in sys.argv[2:]:
    out, want = json.load(open(name + ".out.json")), expected(name)
    need(set(out) == {"version", "postquantum", "armor", "stanza_types", "sizes"}, "top-level keys")
    need(set(out["sizes"]) == {"header", "armor", "overhead", "min_payload", "max_payload", "min_padding",
                               "max_padding"}, "size keys")
    need(out["version"] == "age-encryption.org/v1", "version")
    need(out["stanza_types"] == want["types"], "stanza_types")
    need(out["armor"] == (want["armor"] > 0), "armor")
    s = out["sizes"]
    need(s["header"] == want["header"], "header size")
    need(s["armor"] == want["armor"], "armor size")
    need(s["overhead"] == want["overhead"], "overhead")
    need(s["min_payload"] == s["max_payload"] == want["payload"], "payload")
    need(s["min_padding"] == s["max_padding"] == 0, "padding")
    need(s["header"] + s["armor"] + s["overhead"] + s["min_payload"] == want["file"], "sizes add up to the file")
    classical = {"X25519", "ssh-rsa", "ssh-ed25519", "p256tag", "piv-p256"}
    pq = {"mlkem768x25519", "scrypt", "mlkem768p256tag"}
    verdict = "no" if classical & set(want["types"]) else "yes" if pq & set(want["types"]) else "unknown"
    need(out["postquantum"] == verdict, "postquantum")
PY
}

check "--json on a path, on '-' and on a pipe: age-inspect's schema, the numbers the format says"
for f in "${files[@]}"; do
  "$inspect" --json "$f" > "$f.out.json" 2> stderr
  [[ ! -s stderr ]] || fail "$f: stderr: $(cat stderr)"
  "$inspect" -json - < "$f" > stdin.json
  cmp -s "$f.out.json" stdin.json || fail "$f: '-' differs from the path"
  cat "$f" | "$inspect" --json > pipe.json
  cmp -s "$f.out.json" pipe.json || fail "$f: a pipe differs from the path"
done
compare_json "${files[@]}"

check "--json is indented by four spaces, as age's encoder writes it"
"$inspect" --json x.age > out.json
sed -n 2p out.json | finds '^    "version": "age-encryption.org/v1",$' || fail "$(cat out.json)"
grep -q '^        "header": [0-9]*,$' out.json || fail "$(cat out.json)"

check "post-quantum: yes for ML-KEM and scrypt, no for X25519 and SSH"
for f in pq.age scrypt.age x.age; do "$inspect" --json "$f" > "$f.json"; done
python3 -c 'import json,sys; v=[json.load(open(f))["postquantum"] for f in sys.argv[1:]]; sys.exit(v != ["yes","yes","no"])' \
  pq.age.json scrypt.age.json x.age.json || fail "postquantum verdicts"

check "the text report: the name (or <stdin>), armor, the types, the verdict, the sizes adding up"
"$inspect" armored.age > report.txt
grep -q '^armored.age is an age file, version "age-encryption.org/v1"\.$' report.txt || fail "$(cat report.txt)"
grep -q 'ASCII-armored' report.txt || fail "armor not said"
grep -q '^  - "X25519"$' report.txt || fail "type not listed"
grep -q 'NOT post-quantum' report.txt || fail "verdict not said"
total=$(sed -n 's/^ *Total *\([0-9]*\) bytes$/\1/p' report.txt)
[[ $total == $(stat -c %s armored.age) ]] || fail "total $total: $(cat report.txt)"
"$inspect" < pq.age > report.txt
grep -q '^<stdin> is an age file' report.txt || fail "$(cat report.txt)"
grep -q 'It is post-quantum' report.txt || fail "$(cat report.txt)"
grep -q 'ASCII-armored' report.txt && fail "a binary file called armored"

check "refusals: exit 1 with age-inspect's error line; a pcrypt file, a cut file, a missing file, not age"
"$PCRYPT" keygen -o k 2> /dev/null
"$PCRYPT" encrypt -k k p1000 -o p.pcrypt
expect 1 "$inspect" p.pcrypt
grep -q '^age-inspect: error: inspection failed: .*pcrypt file' stderr || fail "stderr: $(cat stderr)"
head -c 150 x.age > cut.age
expect 1 "$inspect" cut.age
grep -q '^age-inspect: error: inspection failed: ' stderr || fail "stderr: $(cat stderr)"
# Cut inside the last chunk's tag: no complete file has that length (one byte less would be one).
header=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["header"])' "$("$expect_py" x.age)")
head -c $((header + 16 + 10)) x.age > short.age
expect 1 "$inspect" --json short.age > stdout
grep -q '^age-inspect: error: inspection failed: .*cut short' stderr || fail "stderr: $(cat stderr)"
[[ ! -s stdout ]] || fail "printed JSON for a cut file"
expect 1 "$inspect" missing.age
grep -qF 'age-inspect: error: failed to open input file "missing.age": open missing.age: no such file or directory' stderr ||
  fail "stderr: $(cat stderr)"
echo "just text" > text.txt
expect 1 "$inspect" text.txt
grep -q '^age-inspect: error: inspection failed: ' stderr || fail "stderr: $(cat stderr)"

check "usage: two inputs exit 1, -help exits 0, a flag not defined exits 2, all with the usage on stderr"
expect 1 "$inspect" x.age x.age
grep -qF 'age-inspect [--json] [INPUT]' stderr || fail "stderr: $(cat stderr)"
for h in -help -h --help; do
  expect 0 "$inspect" "$h" > stdout
  grep -qx 'Usage:' stderr || fail "$h: $(cat stderr)"
  [[ ! -s stdout ]] || fail "$h printed to stdout"
done
expect 2 "$inspect" --yaml x.age
grep -qx 'flag provided but not defined: -yaml' stderr || fail "stderr: $(cat stderr)"
expect 0 "$inspect" --version > version.txt
[[ -s version.txt ]] || fail "--version printed nothing"

check "a terminal as standard input without INPUT: the usage and exit 1, not a wait"
status=0
timeout 20 python3 - "$inspect" > tty.out 2>&1 <<'PY' || status=$?
import os, pty, subprocess, sys
master, slave = pty.openpty()
proc = subprocess.run(sys.argv[1:], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
sys.stdout.buffer.write(proc.stderr)
sys.exit(proc.returncode)
PY
[[ $status == 1 ]] || fail "exit $status on a terminal: $(cat tty.out)"
grep -qx 'Usage:' tty.out || fail "no usage: $(cat tty.out)"

check "'pcrypt age-inspect' is the same command"
"$PCRYPT" age-inspect --json x.age > sub.json
"$inspect" --json x.age > link.json
cmp -s sub.json link.json || fail "pcrypt age-inspect differs"
echo "all age-inspect checks passed"
