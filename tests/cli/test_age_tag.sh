#!/usr/bin/env bash
# Tag recipients in age files (FORMAT.md §11.3: p256tag and mlkem768p256tag, c2sp.org/age): encrypting to
# age1tag1... / age1tagpq1... recipients, the stanza shape, info, the mixing rules (p256tag is classical,
# mlkem768p256tag post-quantum), the refusal in the pcrypt format. Then typage (npm age-encryption) as the
# peer: its tag identities live in hardware plugins, so tests/cli/typage_tag.mjs gives typage's Decrypter a
# software identity built from typage's own dependencies (see that file); it must open what pcrypt writes,
# and first what typage itself writes. typage from npm into the test's folder, or $PCRYPT_TYPAGE_DIR; skipped
# visibly when neither works.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

tag=$(cat "$SOURCE_DIR/tests/vectors/recipients/seeds/age_tag_recipient.txt")
tagpq=$(cat "$SOURCE_DIR/tests/vectors/recipients/seeds/age_tagpq_recipient.txt")
"$PCRYPT" keygen --pq -o pq.key 2> /dev/null
pq=$("$PCRYPT" recipient pq.key)
"$PCRYPT" keygen --identity -o classic.key 2> /dev/null
classic=$("$PCRYPT" recipient classic.key)
head -c 1000 /dev/urandom > plain

check "encrypt --format age -r age1tag1...: one p256tag stanza (4-byte tag, 65-byte enc, 32-byte body)"
"$PCRYPT" encrypt --format age -r "$tag" plain -o t.age
line=$(grep -a '^-> ' t.age)
read -r arrow type t enc <<< "$line"
[[ $type == p256tag ]] || fail "stanza type: $line"
[[ ${#t} == 6 && ${#enc} == 87 ]] || fail "tag/enc lengths: ${#t} ${#enc} ($line)"
[[ ${enc:0:1} == B ]] || fail "enc does not start with 0x04 (an uncompressed point): $enc"
body=$(sed -n '3p' t.age)
[[ ${#body} == 43 ]] || fail "body is not 32 bytes: $body"

check "encrypt --format age -r age1tagpq1...: one mlkem768p256tag stanza (1153-byte enc)"
"$PCRYPT" encrypt --format age -r "$tagpq" plain -o tpq.age
line=$(grep -a '^-> ' tpq.age)
read -r arrow type t enc <<< "$line"
[[ $type == mlkem768p256tag && ${#t} == 6 && ${#enc} == 1538 ]] || fail "stanza: ${line:0:80}... (${#enc})"

check "two encryptions to the same tag recipient differ (fresh ephemeral keys), tags differ too"
"$PCRYPT" encrypt --format age -r "$tag" plain -o t2.age
[[ $(grep -a '^-> ' t.age) != $(grep -a '^-> ' t2.age) ]] || fail "same stanza twice"

check "info names the tag stanzas"
"$PCRYPT" info t.age > info.txt
grep -qF "stanza 1: tag recipient (P-256, a hardware token's), tag " info.txt || fail "info: $(cat info.txt)"
"$PCRYPT" info tpq.age > info.txt
grep -qF "stanza 1: post-quantum tag recipient (ML-KEM-768 + P-256" info.txt || fail "info: $(cat info.txt)"

check "mixing: age1tagpq1 with age1pq1 is fine; with X25519 or age1tag1 is refused (exit 2); age1tag1 with X25519 is fine"
"$PCRYPT" encrypt --format age -r "$tagpq" -r "$pq" plain -o both_pq.age
[[ $(grep -ac '^-> ' both_pq.age) == 2 ]] || fail "not two stanzas"
"$PCRYPT" decrypt -i pq.key both_pq.age -o both_pq.out
same both_pq.out plain
expect 2 "$PCRYPT" encrypt --format age -r "$tagpq" -r "$classic" plain -o mixed.age
expect_one_error "quantum"
expect 2 "$PCRYPT" encrypt --format age -r "$tagpq" -r "$tag" plain -o mixed2.age
expect_one_error "quantum"
exists mixed.age && fail "mixed output written"
"$PCRYPT" encrypt --format age -r "$tag" -r "$classic" plain -o classic_both.age
"$PCRYPT" decrypt -i classic.key classic_both.age -o classic_both.out
same classic_both.out plain

check "rekey --remove-recipient age1tag1... / age1tagpq1... finds its stanza by the tag and removes only it"
"$PCRYPT" encrypt --format age -r "$tag" -r "$classic" plain -o rk.age
"$PCRYPT" rekey -i classic.key --remove-recipient "$tag" rk.age
[[ $(grep -ac '^-> p256tag ' rk.age) == 0 && $(grep -ac '^-> X25519 ' rk.age) == 1 ]] || fail "rekey: $(grep -a '^-> ' rk.age | cut -c1-40)"
"$PCRYPT" decrypt -i classic.key rk.age -o rk.out
same rk.out plain
"$PCRYPT" encrypt --format age -r "$tagpq" -r "$pq" plain -o rkpq.age
"$PCRYPT" rekey -i pq.key --remove-recipient "$tagpq" rkpq.age
[[ $(grep -ac '^-> mlkem768p256tag ' rkpq.age) == 0 && $(grep -ac '^-> mlkem768x25519 ' rkpq.age) == 1 ]] || fail "rekey pq"
expect 2 "$PCRYPT" rekey -i pq.key --remove-recipient "$tagpq" rkpq.age
expect_one_error "has no stanza"

check "the pcrypt format refuses tag recipients, saying why (exit 2, nothing written)"
expect 2 "$PCRYPT" encrypt -r "$tag" plain -o t.pcrypt
expect_one_error "only be used in age files"
exists t.pcrypt && fail "output written"
expect 2 "$PCRYPT" encrypt -r "$tagpq" plain -o t.pcrypt
expect_one_error "only be used in age files"

check "a damaged tag recipient is refused (exit 2): bad checksum, a point off the curve"
bad=${tag:0:20}$([[ ${tag:20:1} == q ]] && echo p || echo q)${tag:21}
expect 2 "$PCRYPT" encrypt --format age -r "$bad" plain -o bad.age
off=$(python3 - "$tag" << 'PY'
import sys
# bech32 re-encoding of a compressed point whose x has no y on P-256 (x = 1: x^3 - 3x + b is not a square mod p)
CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
def polymod(v):
    g = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]; c = 1
    for x in v:
        b = c >> 25; c = (c & 0x1ffffff) << 5 ^ x
        for i in range(5): c ^= g[i] if (b >> i) & 1 else 0
    return c
def words(data):
    acc = bits = 0; out = []
    for b in data:
        acc = acc << 8 | b; bits += 8
        while bits >= 5: bits -= 5; out.append(acc >> bits & 31)
    if bits: out.append(acc << (5 - bits) & 31)
    return out
hrp = "age1tag"; d = words(bytes([2]) + (1).to_bytes(32, "big"))
e = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
chk = polymod(e + d + [0] * 6) ^ 1
print(hrp + "1" + "".join(CHARSET[x] for x in d + [chk >> 5 * (5 - i) & 31 for i in range(6)]))
PY
)
expect 2 "$PCRYPT" encrypt --format age -r "$off" plain -o bad.age
expect_one_error "P-256"
exists bad.age && fail "output written"

# --- typage, the real peer ---
require_typage "age tag CLI"
T() { TYPAGE_DIR=$TYPAGE node "$SOURCE_DIR/tests/cli/typage_tag.mjs" "$@"; }

for kind in p256 mlkem768p256; do
  # typage's encrypt and its three decrypts in one node process (a start loading typage is most of a node
  # run's cost); a failed command is named, with its file.
  check "$kind: the test identity opens what typage encrypts to its recipient (the harness is right)"
  r=$(T keygen "$kind" "$kind.sec")
  T keygen "$kind" "other_$kind.sec" > /dev/null
  check "$kind: typage opens what pcrypt encrypts to the recipient, alone, among others, armored"
  "$PCRYPT" encrypt --format age -r "$r" plain -o "p_$kind.age"
  if [[ $kind == p256 ]]; then others=(-r "$classic" -r "$tag"); else others=(-r "$pq" -r "$tagpq"); fi
  "$PCRYPT" encrypt --format age -a "${others[@]}" -r "$r" plain -o "p3_$kind.age"
  T batch > /dev/null 2> stderr << COMMANDS || fail "typage: $(cat stderr)"
encrypt $r plain typage_$kind.age
decrypt $kind $kind.sec typage_$kind.age typage_$kind.out
decrypt $kind $kind.sec p_$kind.age p_$kind.out
decrypt $kind $kind.sec p3_$kind.age p3_$kind.out
COMMANDS
  same "typage_$kind.out" plain
  same "p_$kind.out" plain
  same "p3_$kind.out" plain

  check "$kind: another key's identity cannot open it (its tag does not match)"
  T decrypt "$kind" "other_$kind.sec" "p_$kind.age" nope 2> /dev/null && fail "another identity opened it"
  true
done
echo "all age tag CLI checks passed (typage interop included)"
