#!/usr/bin/env bash
# Several files per run: each to its default name, one passphrase and one Argon2id run per run (encrypt and
# decrypt), -o refused, one failing file does not stop the others, exit code the highest failure.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

for f in a b c; do head -c $((RANDOM * 10)) /dev/urandom > "$f.log"; cp "$f.log" "$f.orig"; done
"$PCRYPT" keygen -o key

check "encrypt -k key a b c writes a.log.pcrypt b.log.pcrypt c.log.pcrypt; decrypt *.pcrypt restores them"
"$PCRYPT" encrypt -k key a.log b.log c.log
rm a.log b.log c.log
"$PCRYPT" decrypt -k key ./*.pcrypt
for f in a b c; do same "$f.log" "$f.orig"; done
rm ./*.pcrypt

check "-p: one passphrase, one Argon2id run for three files (encrypt and decrypt), shared salt"
printf 'one run\n' > pw
"$PCRYPT" -v encrypt --passphrase-file pw "${CHEAP_KDF[@]}" a.log b.log c.log 2> stderr
grep -qx 'pcrypt: Argon2id runs: 1' stderr || fail "encrypt of three files did not run Argon2id once"
salts=$(for f in a b c; do "$PCRYPT" info "$f.log.pcrypt" | grep 'argon2id salt'; done | sort -u | wc -l)
[[ $salts == 1 ]] || fail "expected one shared salt, got $salts"
nonces=$(for f in a b c; do "$PCRYPT" info "$f.log.pcrypt" | grep 'wrap nonce'; done | sort -u | wc -l)
[[ $nonces == 3 ]] || fail "expected three different wrap nonces, got $nonces"
rm a.log b.log c.log
"$PCRYPT" -v decrypt --passphrase-file pw a.log.pcrypt b.log.pcrypt c.log.pcrypt 2> stderr
grep -qx 'pcrypt: Argon2id runs: 1' stderr || fail "decrypt of three files did not run Argon2id once"
for f in a b c; do same "$f.log" "$f.orig"; done
check "files from separate runs (different salts) cost one run each"
rm c.log.pcrypt
"$PCRYPT" encrypt --passphrase-file pw "${CHEAP_KDF[@]}" c.log
rm a.log c.log
"$PCRYPT" -v decrypt --passphrase-file pw a.log.pcrypt c.log.pcrypt 2> stderr
grep -qx 'pcrypt: Argon2id runs: 2' stderr || fail "two salts should cost two Argon2id runs"
same a.log a.orig && same c.log c.orig
rm ./*.pcrypt pw

check "-o with several inputs is a usage error, before anything is written"
expect 2 "$PCRYPT" encrypt -k key a.log b.log -o out.pcrypt
expect_one_error "-o"
expect 2 "$PCRYPT" encrypt -k key a.log - b.log
! exists a.log.pcrypt && ! exists out.pcrypt || fail "a refused run wrote output"

check "one failing file does not stop the others; one error line each, naming it; highest exit code"
"$PCRYPT" encrypt -k key a.log b.log c.log
cp b.log.pcrypt b.bad.pcrypt
flip_byte b.bad.pcrypt 100   # header: exit 3
cp c.log.pcrypt c.bad.pcrypt
size=$(stat -c %s c.bad.pcrypt)
flip_byte c.bad.pcrypt $((size - 5))   # payload: exit 4
mkdir out && cp a.log.pcrypt b.bad.pcrypt c.bad.pcrypt out/ && cd out
expect 4 "$PCRYPT" decrypt -k ../key missing.pcrypt b.bad.pcrypt a.log.pcrypt c.bad.pcrypt
[[ $(grep -c '^pcrypt: error: ' stderr) == 3 ]] || fail "expected three error lines"
grep '^pcrypt: error: ' stderr | finds 'missing.pcrypt' || fail "no error line for missing.pcrypt"
grep '^pcrypt: error: ' stderr | finds 'b.bad.pcrypt' || fail "no error line for b.bad.pcrypt"
grep '^pcrypt: error: ' stderr | finds 'c.bad.pcrypt' || fail "no error line for c.bad.pcrypt"
same a.log ../a.orig
! exists b.bad && ! exists c.bad || fail "a failed file left output"
expect 3 "$PCRYPT" decrypt -k ../key b.bad.pcrypt a.log.pcrypt -f
expect_one_error "b.bad.pcrypt"
expect 1 "$PCRYPT" decrypt -k ../key missing.pcrypt a.log.pcrypt -f
expect_one_error "missing.pcrypt"
expect 2 "$PCRYPT" decrypt -k ../key a.log.pcrypt noext -f
expect_one_error "noext"
cd ..

check "an existing output is refused per file (without -f), the others still done"
rm a.log.pcrypt c.log.pcrypt
expect 1 "$PCRYPT" encrypt -k key a.log b.log c.log
expect_one_error "b.log.pcrypt"
exists a.log.pcrypt && exists c.log.pcrypt || fail "the other files were not encrypted"

echo "many-files CLI tests passed"
