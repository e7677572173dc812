#!/usr/bin/env bash
# Post-quantum recipients in age files (FORMAT.md §11.3, the mlkem768x25519 stanza): keygen --pq identities
# through encrypt --format age (binary and armored, several recipients, -i giving its recipient) and decrypt,
# verify, info; the refusal to mix them with X25519/SSH recipients; the hint when no PQ identity is given;
# tampering. Then typage (npm age-encryption, which implements age 1.3's hybrid recipients) as the real peer,
# both directions and keys made by either: installed with npm into the test's folder, or taken from
# $PCRYPT_TYPAGE_DIR (a folder where `npm install age-encryption` ran); skipped visibly when neither works.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen --pq -o me.key 2> /dev/null
me=$("$PCRYPT" recipient me.key)
"$PCRYPT" keygen --pq -o other.key 2> /dev/null
"$PCRYPT" keygen --identity -o classic.key 2> /dev/null
classic=$("$PCRYPT" recipient classic.key)
sizes=(0 1 65536 $((3 * 65536 + 7)))
for n in "${sizes[@]}"; do head -c "$n" /dev/urandom > "plain.$n"; done

check "encrypt --format age -r age1pq1...: one mlkem768x25519 stanza; decrypt and verify with the identity"
for n in "${sizes[@]}"; do
  "$PCRYPT" encrypt --format age -r "$me" "plain.$n" -o "p.$n.age"
  [[ $(grep -ac '^-> mlkem768x25519 ' "p.$n.age") == 1 ]] || fail "not one mlkem768x25519 stanza ($n bytes)"
  "$PCRYPT" decrypt -i me.key "p.$n.age" -o "p.$n.out"
  same "p.$n.out" "plain.$n"
  "$PCRYPT" verify -i me.key "p.$n.age"
done

check "armored, two PQ recipients, -i gives its recipient: each identity opens it"
"$PCRYPT" encrypt --format age -a -r "$me" -i other.key plain.65536 -o two.age
head -1 two.age | finds -x -- '-----BEGIN AGE ENCRYPTED FILE-----' || fail "not armored"
"$PCRYPT" decrypt -i me.key two.age -o two.me
same two.me plain.65536
"$PCRYPT" decrypt -i other.key two.age -o two.other
same two.other plain.65536

check "info names the post-quantum stanza"
"$PCRYPT" info p.1.age > info.txt
grep -qF "stanza 1: post-quantum recipient (ML-KEM-768 + X25519, anonymous)" info.txt || fail "info: $(cat info.txt)"

check "PQ + X25519 or SSH recipients are refused in age files too, saying why (exit 2)"
expect 2 "$PCRYPT" encrypt --format age -r "$me" -r "$classic" plain.1 -o mixed.age
expect_one_error "quantum"
exists mixed.age && fail "mixed output written"
expect 2 "$PCRYPT" encrypt --format age -R "$SOURCE_DIR/tests/vectors/recipients/seeds/ssh_recipient.txt" \
  -r "$me" plain.1 -o mixed_ssh.age
expect_one_error "quantum"
exists mixed_ssh.age && fail "mixed output written"

check "a PQ recipient with -p is refused (an scrypt stanza must be alone, exit 2)"
expect 2 env PCRYPT_PASSPHRASE=x "$PCRYPT" encrypt --format age -r "$me" -p plain.1 -o pass.age
expect_one_error "scrypt"
exists pass.age && fail "output written"

check "an X25519 identity or another PQ identity on a PQ file: exit 3, nothing written, the hint"
expect 3 "$PCRYPT" decrypt -i classic.key p.1.age -o nope
expect_one_error "no identity given opens this age file"
grep -qF "AGE-SECRET-KEY-PQ-1" stderr || fail "the hint does not ask for a post-quantum identity"
expect 3 "$PCRYPT" decrypt -i other.key p.1.age -o nope
expect_one_error "no identity given opens this age file"
exists nope && fail "output left behind"

check "a flipped byte in the encapsulated key or the sealed file key: exit 3"
# The stanza's argument line starts at byte 23; its body (the sealed file key) is the next line.
flip() { # flip FILE OFFSET OUT: changes one base64 character (A<->B) at OFFSET
  python3 - "$1" "$2" "$3" << 'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
i = int(sys.argv[2])
data[i] = ord("B") if data[i] != ord("B") else ord("C")
open(sys.argv[3], "wb").write(data)
PY
}
arg_at=$((23 + 18 + 100))
body_at=$(($(head -2 p.65536.age | wc -c) + 3))
flip p.65536.age "$arg_at" bad_enc.age
flip p.65536.age "$body_at" bad_body.age
for f in bad_enc.age bad_body.age; do
  expect 3 "$PCRYPT" decrypt -i me.key "$f" -o nope
  exists nope && fail "output left behind for $f"
done

# --- typage, the real peer ---
require_typage "age PQ CLI"
T() { TYPAGE_DIR=$TYPAGE node "$SOURCE_DIR/tests/cli/typage_pq.mjs" "$@"; }

# (Each size's decrypt, then each size's encrypt, in one node process: a start loading typage is most of a
# node run's cost, and a failed command is named with its file, whose name has the size.)
check "typage decrypts what pcrypt encrypted to a pcrypt key, at sizes ${sizes[*]}"
for n in "${sizes[@]}"; do echo "decrypt me.key p.$n.age p.$n.typage"; done > typage_decrypts
T batch < typage_decrypts 2> stderr || fail "typage cannot open one of pcrypt's files: $(cat stderr)"
for n in "${sizes[@]}"; do same "p.$n.typage" "plain.$n"; done

check "pcrypt decrypts what typage encrypted to a pcrypt key"
for n in "${sizes[@]}"; do echo "encrypt $me plain.$n t.$n.age"; done > typage_encrypts
T batch < typage_encrypts 2> stderr || fail "typage could not encrypt: $(cat stderr)"
for n in "${sizes[@]}"; do
  "$PCRYPT" decrypt -i me.key "t.$n.age" -o "t.$n.out"
  same "t.$n.out" "plain.$n"
done

check "keys made by typage work in pcrypt and the reverse; both compute the same recipient"
T keygen > typage.key
[[ $(T recipient typage.key) == $("$PCRYPT" recipient typage.key) ]] || fail "recipients of typage's key differ"
[[ $(T recipient me.key) == "$me" ]] || fail "recipients of pcrypt's key differ"
tr=$("$PCRYPT" recipient typage.key)
"$PCRYPT" encrypt --format age -r "$tr" plain.65536 -o to_typage.age
T decrypt typage.key to_typage.age to_typage.out
same to_typage.out plain.65536
T encrypt "$tr" plain.65536 from_typage.age
"$PCRYPT" decrypt -i typage.key from_typage.age -o from_typage.out
same from_typage.out plain.65536

check "typage refuses pcrypt's tampered file too"
T decrypt me.key bad_body.age nope 2> /dev/null && fail "typage opened a tampered file"
echo "all age PQ CLI checks passed (typage interop included)"
