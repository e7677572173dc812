#!/usr/bin/env bash
# Files, pipes, default names, multiple keys, thread counts, chunk sizes, engines, info, --version, modes.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

check "keygen -o writes a 0600 key file"
"$PCRYPT" keygen -o key
[[ $(mode_of key) == 600 ]] || fail "key file mode is $(mode_of key)"
grep -q '^PCRYPT-KEY-1:' key || fail "key file has no key line"

check "keygen without -o prints a different key to stdout"
"$PCRYPT" keygen > key2
grep -q '^PCRYPT-KEY-1:' key2 || fail "stdout key has no key line"
[[ $(grep PCRYPT-KEY key) != $(grep PCRYPT-KEY key2) ]] || fail "two keygen runs gave the same key"

check "keygen refuses to overwrite (exit 1, file untouched), -f overwrites"
cp key key.bak
expect 1 "$PCRYPT" keygen -o key
expect_one_error "exists"
same key key.bak
"$PCRYPT" keygen -o key -f
! cmp -s key key.bak || fail "keygen -f did not replace the key"
[[ $(mode_of key) == 600 ]] || fail "key file mode after -f is $(mode_of key)"

head -c 300000 /dev/urandom > plain
check "encrypt FILE writes FILE.pcrypt (0600), decrypt FILE.pcrypt writes FILE"
cp plain f
"$PCRYPT" encrypt -k key f
exists f.pcrypt || fail "f.pcrypt not created"
[[ $(mode_of f.pcrypt) == 600 ]] || fail "f.pcrypt mode is $(mode_of f.pcrypt)"
rm f
"$PCRYPT" decrypt -k key f.pcrypt
same f plain
[[ $(mode_of f) == $(printf %o $((0666 & ~$(umask)))) ]] || fail "decrypted f mode is $(mode_of f), not 0666 & ~umask"

check "stdin -> stdout both ways (no FILE, and '-')"
"$PCRYPT" encrypt -k key < plain > p.pcrypt
"$PCRYPT" decrypt -k key - < p.pcrypt > p.out
same p.out plain
cat plain | "$PCRYPT" encrypt -k key - -o - | "$PCRYPT" decrypt -k key > p.out2
same p.out2 plain

check "-o names the output; '-o -' is stdout even with FILE"
"$PCRYPT" encrypt -k key plain -o named.pcrypt
"$PCRYPT" decrypt -k key named.pcrypt -o - > named.out
same named.out plain

check "empty input round-trips"
: > empty
"$PCRYPT" encrypt -k key empty -o empty.pcrypt
"$PCRYPT" decrypt -k key empty.pcrypt -o empty.out
[[ -f empty.out && ! -s empty.out ]] || fail "empty round trip did not give an empty file"

check "several -k: each key alone decrypts"
"$PCRYPT" encrypt -k key -k key2 plain -o two.pcrypt
"$PCRYPT" decrypt -k key2 two.pcrypt -o two.a
"$PCRYPT" decrypt -k key two.pcrypt -o two.b
same two.a plain
same two.b plain

check "decrypt with -j1 and -j2 gives the same bytes (small chunks: many of them)"
"$PCRYPT" encrypt -k key --chunk-size 4KiB -j 2 plain -o small.pcrypt
"$PCRYPT" decrypt -k key -j 1 small.pcrypt -o j1
"$PCRYPT" decrypt -k key -j 2 small.pcrypt -o j2
same j1 plain
same j2 plain

check "every supported engine reads what another wrote"
mapfile -t engines < <("$PCRYPT" info --engines | awk '$2 == "selected" || $2 == "supported" {print $1}')
[[ ${#engines[@]} -ge 1 ]] || fail "info --engines lists no usable engine"
for e in "${engines[@]}"; do
  "$PCRYPT" encrypt -k key --engine "$e" --chunk-size 64KiB plain -o "eng.$e.pcrypt"
  PCRYPT_ENGINE="${engines[0]}" "$PCRYPT" decrypt -k key "eng.$e.pcrypt" -o "eng.$e.out"
  same "eng.$e.out" plain
done

check "PCRYPT_ENGINE chooses the engine unless --engine is given"
last="${engines[${#engines[@]}-1]}"
PCRYPT_ENGINE="$last" "$PCRYPT" info --engines | finds "^$last  *selected" || fail "PCRYPT_ENGINE=$last not selected"
PCRYPT_ENGINE=rot13 "$PCRYPT" info --engines | finds "^(PCRYPT_ENGINE: unknown engine 'rot13'" ||
  fail "a bad PCRYPT_ENGINE is not reported under the engine list"
PCRYPT_ENGINE=rot13 "$PCRYPT" encrypt -k key --engine "$last" plain -o env.pcrypt
"$PCRYPT" decrypt -k key env.pcrypt -o env.out
same env.out plain

check "info prints the header fields"
"$PCRYPT" info small.pcrypt > info.txt
for field in 'format: pcrypt v1' 'chunk size: 4096' 'key slots: 1' 'slot 1: key file' 'header length: 120'; do
  grep -qF "$field" info.txt || fail "info output lacks '$field'"
done
"$PCRYPT" info < two.pcrypt | finds -F 'key slots: 2' || fail "info on stdin does not see 2 slots"

check "--version prints the version and lists the engines"
"$PCRYPT" --version > version.txt
grep -q '^pcrypt [0-9]' version.txt || fail "no version line"
for e in vaes aesni armce sodium portable; do grep -q "^$e " version.txt || fail "--version does not list $e"; done

check "--help documents the exit codes"
"$PCRYPT" --help > help.txt
grep -q 'Exit status' help.txt || fail "--help has no exit status section"

check "-v reports engine, threads and throughput; -q prints nothing"
"$PCRYPT" -v encrypt -k key plain -o v.pcrypt 2> verbose.txt
grep -q 'engine' verbose.txt || fail "-v does not name the engine"
grep -Eq '^pcrypt: v.pcrypt: .* -> .* in .* s, .*/s$' verbose.txt || fail "-v does not report the summary line"
"$PCRYPT" decrypt -q -k key v.pcrypt -o - 2> quiet.txt > /dev/null
[[ ! -s quiet.txt ]] || fail "-q printed something"

echo "all roundtrip checks passed"
