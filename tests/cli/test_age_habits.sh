#!/usr/bin/env bash
# What age and zstd users type (issue 16, items 5 and 9): `encrypt -i IDENTITY` encrypts to oneself,
# `-d`/`-e` stand for decrypt/encrypt, $PCRYPT_PASSPHRASE opens a passphrase-only file without -p, verify,
# info and rekey take several files, and encrypting a .pcrypt file warns. What a refused input was expected
# to be, and -p's hint on an age file (issue 27, defect 3).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen --identity -o me.key 2> /dev/null
"$PCRYPT" keygen --identity -o other.key 2> /dev/null
printf 'hello\n' > plain

check "encrypt -i IDENTITY encrypts to the identity's recipient; that identity decrypts"
"$PCRYPT" encrypt -i me.key plain -o self.pcrypt
"$PCRYPT" info self.pcrypt > info.txt
grep -q 'X25519 recipient' info.txt || fail "no X25519 slot: $(cat info.txt)"
"$PCRYPT" decrypt -i me.key self.pcrypt -o out
same plain out
expect 3 "$PCRYPT" decrypt -i other.key self.pcrypt -o out2

check "encrypt -i and -r of the same key make one slot"
"$PCRYPT" encrypt -i me.key -r "$("$PCRYPT" recipient me.key)" plain -o once.pcrypt
grep -q '^key slots: 1$' <("$PCRYPT" info once.pcrypt) || fail "expected one slot: $("$PCRYPT" info once.pcrypt)"

# ---- item 9
"$PCRYPT" keygen -o k.key
"$PCRYPT" keygen -o k2.key

check "pcrypt -e / -d (age's and zstd's flags) stand for encrypt / decrypt"
"$PCRYPT" -e -k k.key plain -o e.pcrypt
"$PCRYPT" -d -k k.key e.pcrypt -o d.out
same plain d.out
"$PCRYPT" -q --decrypt -k k.key e.pcrypt -o d2.out
same plain d2.out

check "PCRYPT_PASSPHRASE and no credential: a passphrase-only file opens with it (no terminal needed)"
PCRYPT_PASSPHRASE=secret "$PCRYPT" encrypt -p "${CHEAP_KDF[@]}" plain -o pass.pcrypt
PCRYPT_PASSPHRASE=secret "$PCRYPT" decrypt pass.pcrypt -o p.out < /dev/null
same plain p.out
PCRYPT_PASSPHRASE=secret "$PCRYPT" verify pass.pcrypt < /dev/null
check "... but not a file with other slots (the variable is for passphrases only)"
expect 2 env PCRYPT_PASSPHRASE=secret "$PCRYPT" decrypt e.pcrypt -o x.out < /dev/null
expect_one_error "no key given"

check "verify takes several files; each failure one line naming the file; exit the highest"
cp e.pcrypt e2.pcrypt
printf 'garbage' > bad.pcrypt
"$PCRYPT" verify -k k.key e.pcrypt e2.pcrypt
expect 3 "$PCRYPT" verify -k k.key e.pcrypt bad.pcrypt e2.pcrypt
expect_one_error "bad.pcrypt"

check "info takes several files, each under a 'file:' line; a failure names its file"
"$PCRYPT" info e.pcrypt e2.pcrypt > info2.txt
[[ $(grep -c '^file: ' info2.txt) == 2 ]] || fail "$(cat info2.txt)"
expect 3 "$PCRYPT" info e.pcrypt bad.pcrypt > /dev/null
expect_one_error "bad.pcrypt"

check "rekey takes several files (each in place)"
"$PCRYPT" rekey -k k.key --add-key k2.key e.pcrypt e2.pcrypt
"$PCRYPT" verify -k k2.key e.pcrypt e2.pcrypt
expect 2 "$PCRYPT" rekey -k k.key --add-key k2.key e.pcrypt e2.pcrypt -o z.pcrypt
expect_one_error "-o cannot be used with several files"

check "encrypt x.pcrypt warns that the input is already encrypted (and still does it)"
"$PCRYPT" encrypt -k k.key e.pcrypt -o twice.pcrypt 2> err
grep -q 'e.pcrypt is already a pcrypt file' err || fail "no warning: $(cat err)"
"$PCRYPT" encrypt -k k.key plain -o once2.pcrypt 2> err
[[ ! -s err ]] || fail "warning for a plain input: $(cat err)"

check "no TEXT placeholder in any --help"
for c in "" encrypt decrypt verify keygen recipient info rekey bench "bench keystream" "bench throughput" \
  "bench engines"; do
  # shellcheck disable=SC2086
  ! "$PCRYPT" $c --help | finds 'TEXT' || fail "'pcrypt $c --help' shows TEXT"
done

if command -v script > /dev/null && script -qec true /dev/null > /dev/null 2>&1; then
  check "rekey -p --add-passphrase: the prompts say which passphrase is the current one and which the new"
  PCRYPT_PASSPHRASE=old "$PCRYPT" encrypt -p "${CHEAP_KDF[@]}" plain -o r.pcrypt
  rm -f typescript answers
  mkfifo answers
  script -qefc "'$PCRYPT' rekey -p --add-passphrase ${CHEAP_KDF[*]} r.pcrypt" typescript < answers \
    > /dev/null 2>&1 &
  pid=$!
  exec 4> answers
  for answer in 'Current passphrase:/old' 'Enter new passphrase:/new' 'Confirm new passphrase:/new'; do
    wait_until grep -qF "${answer%/*}" typescript 2> /dev/null || fail "prompt '${answer%/*}' never appeared"
    printf '%s\n' "${answer#*/}" >&4
  done
  wait "$pid" || fail "rekey with prompted passphrases failed: $(cat typescript)"
  exec 4>&-
  rm -f answers
  PCRYPT_PASSPHRASE=new "$PCRYPT" decrypt -p r.pcrypt -o r.out
  same plain r.out
else
  echo "SKIPPED: terminal prompt checks need script(1) from util-linux"
fi

check "armor after other text: the error says what was expected (armor beginning at the first line)"
"$PCRYPT" encrypt -f --format age -a -i me.key plain -o armored.asc
{
  echo "Subject: the file you asked for"
  cat armored.asc
} > mail.asc
expect 3 "$PCRYPT" decrypt -i me.key mail.asc -o mail.out
expect_one_error "age armor beginning at the first line, and this has text before -----BEGIN AGE ENCRYPTED FILE-----"
grep -q 'a binary age file' stderr || fail "the error does not name the binary age format"
head -c 300 /dev/urandom > noise
expect 3 "$PCRYPT" info noise
expect_one_error "expected a pcrypt file, a binary age file, or age armor beginning at the first line"
grep -q 'only files written by `pcrypt encrypt`' stderr && fail "the hint still says pcrypt reads only its own files"

check "-p on an age file without an scrypt stanza hints -i, not -k (age files have no key-file slots)"
PCRYPT_PASSPHRASE=pw expect 3 "$PCRYPT" decrypt -p armored.asc -o p27.out
expect_one_error "has no passphrase slot"
grep -q '^pcrypt: hint: .*-i IDENTITY' stderr || fail "the hint does not point to -i"
grep -q -- '-k KEYFILE' stderr && fail "the hint suggests -k KEYFILE for an age file"
"$PCRYPT" keygen -o pkey
"$PCRYPT" encrypt -k pkey plain -o keyed.pcrypt
PCRYPT_PASSPHRASE=pw expect 3 "$PCRYPT" decrypt -p keyed.pcrypt -o p27.out
grep -q -- '-k KEYFILE' stderr || fail "a pcrypt file's hint lost -k KEYFILE"

check "-o NAME.age selects the age format without --format; --format pcrypt -o NAME.age is a usage error"
R=$("$PCRYPT" recipient me.key)
"$PCRYPT" encrypt -r "$R" plain -o named.age
[[ $(head -c 21 named.age) == "age-encryption.org/v1" ]] || fail "-o named.age wrote pcrypt's format"
"$PCRYPT" decrypt -i me.key named.age -o named.out
same plain named.out
if command -v age > /dev/null; then
  age -d -i me.key named.age | cmp -s - plain || fail "age cannot open named.age"
fi
"$PCRYPT" encrypt -a -r "$R" plain -o armored-named.age
grep -q '^-----BEGIN AGE ENCRYPTED FILE-----$' armored-named.age || fail "-a -o NAME.age is not armored age"
expect 2 "$PCRYPT" encrypt --format pcrypt -r "$R" plain -o forced.age
expect_one_error "--format pcrypt cannot write to a file named *.age"
exists forced.age && fail "forced.age written"
expect 2 "$PCRYPT" encrypt -k pkey plain -o keyed.age
expect_one_error "is named *.age"
exists keyed.age && fail "keyed.age written"
"$PCRYPT" encrypt -r "$R" plain -o named.pcrypt
[[ $(head -c 7 named.pcrypt | tail -c 6) == "PCRYPT" ]] || fail "-o named.pcrypt is not pcrypt's format"
echo "ok: age habits"
