#!/usr/bin/env bash
# Post-quantum recipients in the pcrypt format (kind-5 slots, FORMAT.md §10.6): keygen --pq, recipient,
# encrypt/decrypt, key files beside them, the refusal to mix them with X25519/SSH (ed25519, RSA) recipients
# (encrypt and rekey --add-recipient), and the words and hint when only an X25519 identity is given.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

check "keygen --pq writes an AGE-SECRET-KEY-PQ-1 identity and prints its age1pq1 recipient"
"$PCRYPT" keygen --pq -o me.key 2>stderr
grep -q '^AGE-SECRET-KEY-PQ-1' me.key || fail "no PQ identity in me.key"
me=$("$PCRYPT" recipient me.key)
[[ $me == age1pq1* ]] || fail "recipient is not age1pq1...: $me"
grep -qF "$me" stderr || fail "keygen did not print the recipient"
[[ $(stat -c %a me.key) == 600 ]] || fail "identity file is not mode 0600"

check "encrypt to an age1pq1 recipient, decrypt with the identity"
head -c 100000 /dev/urandom > plain
"$PCRYPT" encrypt -r "$me" plain -o pq.pcrypt
"$PCRYPT" decrypt -i me.key pq.pcrypt -o back
cmp plain back || fail "round trip differs"

check "another PQ identity cannot open it (exit 3)"
"$PCRYPT" keygen --pq -o other.key 2>/dev/null
expect 3 "$PCRYPT" decrypt -i other.key pq.pcrypt -o nope
exists nope && fail "output left behind"

check "PQ recipient beside a key file is allowed"
"$PCRYPT" keygen -o k.key
"$PCRYPT" encrypt -r "$me" -k k.key plain -o pqk.pcrypt
"$PCRYPT" decrypt -k k.key pqk.pcrypt -o back2
cmp plain back2 || fail "key-file side differs"
"$PCRYPT" decrypt -i me.key pqk.pcrypt -o back3
cmp plain back3 || fail "identity side differs"

check "PQ + X25519 recipients in one file are refused, saying why (exit 2)"
"$PCRYPT" keygen --identity -o classic.key 2>/dev/null
classic=$("$PCRYPT" recipient classic.key)
expect 2 "$PCRYPT" encrypt -r "$me" -r "$classic" plain -o mixed.pcrypt
expect_one_error "quantum"
exists mixed.pcrypt && fail "mixed output written"

check "PQ + ssh-rsa recipients are refused too: RSA is classical (exit 2)"
rsa=$(cat "$SOURCE_DIR/tests/vectors/recipients/ssh_rsa.key.pub")
expect 2 "$PCRYPT" encrypt -r "$me" -r "$rsa" plain -o mixed_rsa.pcrypt
expect_one_error "quantum"
exists mixed_rsa.pcrypt && fail "mixed output written"

check "an X25519 identity on a PQ-only file: exit 3, the hint names the post-quantum identity"
expect 3 "$PCRYPT" decrypt -i classic.key pq.pcrypt -o nope2
expect_one_error "ML-KEM-768 + X25519) recipient slot"
grep -qF -- "-i IDENTITY (a post-quantum identity)" stderr || fail "hint does not name the PQ identity"
exists nope2 && fail "output left behind"

check "rekey --add-recipient obeys the same rule"
expect 2 "$PCRYPT" rekey pqk.pcrypt -k k.key --add-recipient "$classic"
expect_one_error "quantum"
"$PCRYPT" decrypt -i me.key pqk.pcrypt -o back4
cmp plain back4 || fail "refused rekey changed the file"

check "rekey can add a second PQ recipient"
other=$("$PCRYPT" recipient other.key)
"$PCRYPT" rekey pqk.pcrypt -k k.key --add-recipient "$other"
"$PCRYPT" decrypt -i other.key pqk.pcrypt -o back5
cmp plain back5 || fail "added PQ recipient cannot decrypt"
echo "all PQ CLI checks passed"
