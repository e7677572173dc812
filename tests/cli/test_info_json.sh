#!/usr/bin/env bash
# Output for scripts, parsed with Python's json module: `pcrypt info --json` (one object per file and line,
# the schema of man/pcrypt.1 JSON OUTPUT: format, armor, chunk size, post-quantum verdict, each slot's type,
# description and public tag, the sizes) on pcrypt and age files of every slot kind, from paths and pipes,
# agreeing with age-inspect where both speak; and the `--json` run summary of encrypt, decrypt and verify.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen -o k 2> /dev/null
"$PCRYPT" keygen --identity -o x.key 2> /dev/null
"$PCRYPT" keygen --pq -o pq.key 2> /dev/null
x=$("$PCRYPT" recipient x.key)
pq=$("$PCRYPT" recipient pq.key)
echo "correct horse" > pw
head -c $((2 * 1048576 + 3)) /dev/urandom > plain
: > empty

# jcheck FILE.json PYTHON-EXPRESSION [ARGS...]: the expression, over `j` (FILE.json parsed) and `a` (ARGS),
# is true. The checks are written down here and evaluated together by jcheck_all at the end, in one python:
# a python each was most of the test's time. (No check's file is changed after the check is written.)
jcheck() {
  printf '%s\0' "$1" "$2" $(($# - 2)) "${@:3}" >> jchecks
}
jcheck_all() {
  python3 - jchecks << 'PY' || fail "$(cat jchecks.failed)"
import json, sys
fields = open(sys.argv[1], "rb").read().decode().split("\0")[:-1]
failed = []
while fields:
    file, expr, count = fields[0], fields[1], int(fields[2])
    a = fields[3:3 + count]
    fields = fields[3 + count:]
    text = open(file).read()
    try:
        j = json.loads(text)
        ok = eval(expr)
    except Exception as e:
        ok = False
        expr += f" ({e!r})"
    if not ok:
        failed.append(f"{file}: {expr} (args {' '.join(a)}): {text}")
if failed:
    open("jchecks.failed", "w").write("\n".join(failed))
    sys.exit(1)
PY
}
keys='{"file","format","armor","chunk_size","post_quantum","slots","sizes"}'
size_keys='{"file","header","armor","overhead","plaintext","chunks"}'

check "a pcrypt file with key-file, passphrase and X25519 slots: every key, each slot, the sizes"
"$PCRYPT" encrypt -k k --passphrase-file pw "${CHEAP_KDF[@]}" -r "$x" --chunk-size 64KiB plain -o three.pcrypt
"$PCRYPT" info --json three.pcrypt > three.json
[[ $(wc -l < three.json) == 1 ]] || fail "not one line"
jcheck three.json "set(j) == $keys and set(j['sizes']) == $size_keys"
jcheck three.json "j['file'] == 'three.pcrypt' and j['format'] == 'pcrypt' and j['armor'] is False"
jcheck three.json "j['chunk_size'] == 65536"
# (pcrypt's header orders slots by kind, the passphrase's last: FORMAT.md.)
jcheck three.json "[s['type'] for s in j['slots']] == ['key-file', 'X25519', 'passphrase']"
jcheck three.json "all(s['tag'] is None and s['description'] for s in j['slots'])"
jcheck three.json "j['post_quantum'] == 'no'"
size=$(stat -c %s three.pcrypt)
jcheck three.json "j['sizes']['file'] == int(a[0]) and j['sizes']['plaintext'] == int(a[1])" "$size" "$(stat -c %s plain)"
jcheck three.json "j['sizes']['chunks'] == -(-int(a[0]) // 65536)" "$(stat -c %s plain)"
jcheck three.json "sum(j['sizes'][k] for k in ('header', 'armor', 'overhead', 'plaintext')) == j['sizes']['file']"
# The header size is the one `pcrypt info` states in words.
header=$("$PCRYPT" info three.pcrypt | sed -n 's/^header length: \([0-9]*\) bytes.*/\1/p')
[[ -n $header ]] && jcheck three.json "j['sizes']['header'] == int(a[0])" "$header"

check "post-quantum: a pcrypt file with only key-file, passphrase and ML-KEM slots is 'yes'"
"$PCRYPT" encrypt -k k -r "$pq" plain -o pq.pcrypt
"$PCRYPT" info --json pq.pcrypt > pq.json
jcheck pq.json "[s['type'] for s in j['slots']] == ['key-file', 'mlkem768x25519'] and j['post_quantum'] == 'yes'"

if command -v ssh-keygen > /dev/null; then
  check "SSH slots carry their public tag, the one the text report gives"
  ssh-keygen -q -t ed25519 -N '' -f ssh_key
  "$PCRYPT" encrypt -r "$(cat ssh_key.pub)" plain -o ssh.pcrypt
  "$PCRYPT" info --json ssh.pcrypt > ssh.json
  tag=$("$PCRYPT" info ssh.pcrypt | sed -n 's/^slot 1: SSH ed25519 recipient, tag \([0-9a-f]*\)$/\1/p')
  [[ -n $tag ]] || fail "no tag in info's text"
  jcheck ssh.json "j['slots'][0]['type'] == 'ssh-ed25519' and j['slots'][0]['tag'] == a[0]" "$tag"
  "$PCRYPT" encrypt --format age -r "$(cat ssh_key.pub)" plain -o ssh.age
  "$PCRYPT" info --json ssh.age > sshage.json
  jcheck sshage.json "j['slots'][0]['type'] == 'ssh-ed25519' and len(j['slots'][0]['tag']) > 0"
fi

check "age files: format, armor, the stanzas, the sizes the format says (tests/cli/inspect_expect.py)"
"$PCRYPT" encrypt --format age -r "$x" -r "$x" plain -o x.age 2> /dev/null
"$PCRYPT" encrypt --format age -a -r "$pq" plain -o pq-armored.age
"$PCRYPT" encrypt --format age --passphrase-file pw empty -o scrypt.age
for f in x.age pq-armored.age scrypt.age; do
  "$PCRYPT" info --json "$f" > "$f.json"
  want=$("$SOURCE_DIR/tests/cli/inspect_expect.py" "$f")
  jcheck "$f.json" "j['format'] == 'age' and j['chunk_size'] == 65536"
  jcheck "$f.json" "(lambda w: [s['type'] for s in j['slots']] == w['types'] and j['armor'] == (w['armor'] > 0)
    and j['sizes']['file'] == w['file'] and j['sizes']['header'] == w['header'] and j['sizes']['armor'] == w['armor']
    and j['sizes']['overhead'] == w['overhead'] and j['sizes']['plaintext'] == w['payload']
    and j['sizes']['chunks'] == w['chunks'])(json.loads(a[0]))" "$want"
done
jcheck pq-armored.age.json "j['post_quantum'] == 'yes' and j['armor'] is True"
jcheck scrypt.age.json "j['slots'][0]['type'] == 'scrypt' and j['sizes']['plaintext'] == 0"

check "info --json and age-inspect --json say the same of an age file"
ln -s "$PCRYPT" age-inspect
for f in x.age pq-armored.age scrypt.age; do
  ./age-inspect --json "$f" > "$f.inspect"
done
# (One python compares the three.)
python3 - x.age pq-armored.age scrypt.age <<'PY' > differ || fail "$(cat differ): info --json and age-inspect --json differ"
import json, sys
for f in sys.argv[1:]:
    try:
        i, a = json.load(open(f + ".json")), json.load(open(f + ".inspect"))
        s, t = i["sizes"], a["sizes"]
        assert [x["type"] for x in i["slots"]] == a["stanza_types"]
        assert i["armor"] == a["armor"] and i["post_quantum"] == a["postquantum"]
        assert (s["header"], s["armor"], s["overhead"], s["plaintext"]) == (t["header"], t["armor"], t["overhead"], t["min_payload"])
    except Exception:
        print(f)
        raise
PY

check "several files: one line each, in order, named; a pipe gives what the path gives"
"$PCRYPT" info --json three.pcrypt x.age pq-armored.age > many.json
[[ $(wc -l < many.json) == 3 ]] || fail "$(cat many.json)"
python3 -c 'import json,sys; n=[json.loads(l)["file"] for l in open(sys.argv[1])]; sys.exit(n != ["three.pcrypt","x.age","pq-armored.age"])' many.json ||
  fail "names: $(cat many.json)"
for f in three.pcrypt pq-armored.age; do
  cat "$f" | "$PCRYPT" info --json > "$f.pipe.json"
  "$PCRYPT" info --json "$f" > "$f.path.json"
done
# (One python compares the two.)
python3 - three.pcrypt pq-armored.age <<'PY' > differ || fail "$(cat differ): a pipe differs from the path"
import json, sys
for name in sys.argv[1:]:
    try:
        p = json.load(open(name + ".pipe.json"))
        f = json.load(open(name + ".path.json"))
        assert p["file"] == "standard input"
        del p["file"], f["file"]
        assert p == f, (p, f)
    except Exception:
        print(name)
        raise
PY

check "a cut file: plaintext and chunks are null (no complete file has its length), exit 0"
# Cut inside the first chunk's tag (a byte less would still be some complete file's length).
head -c $(($(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sizes"]["header"])' three.json) + 5)) three.pcrypt > cut.pcrypt
"$PCRYPT" info --json cut.pcrypt > cut.json
jcheck cut.json "j['sizes']['plaintext'] is None and j['sizes']['chunks'] is None"

check "--json with -k, -i, -p or --engines is a usage error (exit 2); a bad file is pcrypt's one error line"
expect 2 "$PCRYPT" info --json -k k three.pcrypt
expect 2 "$PCRYPT" info --json --engines three.pcrypt
echo "not encrypted" > text
expect 3 "$PCRYPT" info --json text > stdout
expect_one_error "not a pcrypt file"
[[ ! -s stdout ]] || fail "printed JSON for a bad file"

check "JSON strings are escaped: a file name with a quote, a backslash and a newline"
name=$'we"ird\\na\nme.age'
cp x.age "$name"
"$PCRYPT" info --json "$name" > weird.json
jcheck weird.json "j['file'] == a[0]" "$name"

summary_keys='{"command","input","output","format","bytes_in","bytes_out","plaintext_bytes","seconds","throughput_bytes_per_second","engine","threads"}'
check "encrypt --json: one JSON line on stderr with the run's bytes, time, rate, engine and threads"
"$PCRYPT" encrypt -k k -j 2 --json plain -o run.pcrypt 2> enc.json
[[ $(wc -l < enc.json) == 1 ]] || fail "$(cat enc.json)"
jcheck enc.json "set(j) == $summary_keys"
jcheck enc.json "j['command'] == 'encrypt' and j['input'] == 'plain' and j['output'] == 'run.pcrypt' and j['format'] == 'pcrypt'"
jcheck enc.json "j['bytes_in'] == int(a[0]) == j['plaintext_bytes'] and j['bytes_out'] == int(a[1])" \
  "$(stat -c %s plain)" "$(stat -c %s run.pcrypt)"
jcheck enc.json "j['threads'] == 2 and isinstance(j['engine'], str) and j['engine'] != ''"
jcheck enc.json "j['seconds'] >= 0 and (j['seconds'] == 0 or abs(j['throughput_bytes_per_second'] * j['seconds'] - j['plaintext_bytes']) <= 1e-3 * j['plaintext_bytes'] + 1)"

check "decrypt --json to standard output: the data on stdout stays pure, the summary on stderr"
"$PCRYPT" decrypt -k k --json -o - run.pcrypt > dec.out 2> dec.json
same dec.out plain
jcheck dec.json "j['command'] == 'decrypt' and j['output'] == 'standard output' and j['bytes_in'] == int(a[0]) and j['bytes_out'] == int(a[1])" \
  "$(stat -c %s run.pcrypt)" "$(stat -c %s plain)"

check "verify --json, several files: one line each; age files say format age and their cipher"
"$PCRYPT" encrypt --format age -r "$x" plain -o run.age
"$PCRYPT" verify -k k -i x.key --json run.pcrypt run.age 2> ver.json
[[ $(wc -l < ver.json) == 2 ]] || fail "$(cat ver.json)"
python3 - ver.json "$(stat -c %s plain)" <<'PY' || fail "verify --json: $(cat ver.json)"
import json, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
assert [r["command"] for r in runs] == ["verify", "verify"]
assert [r["format"] for r in runs] == ["pcrypt", "age"]
assert runs[1]["engine"] == "chacha20-poly1305"
assert all(r["output"] is None and r["bytes_out"] == 0 and r["plaintext_bytes"] == int(sys.argv[2]) for r in runs)
PY

check "without --json, no JSON: a quiet run prints nothing"
"$PCRYPT" decrypt -k k run.pcrypt -o quiet.out 2> stderr
[[ ! -s stderr ]] || fail "stderr without --json: $(cat stderr)"
check "every jcheck above holds"
jcheck_all
echo "all info --json and run summary checks passed"
