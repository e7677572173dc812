#!/usr/bin/env bash
# Every kind of key pcrypt reads is recognised where it is given by mistake, and the hint names the option
# that takes it; no hint contradicts the product (issue 16, item 8).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen -o k.key
"$PCRYPT" keygen --identity -o me.key 2> /dev/null
"$PCRYPT" recipient me.key > me.pub
ssh-keygen -q -t ed25519 -N '' -C test -f ssh_key
printf 'age-encryption.org/v1\n-> X25519 abc\n' > age.age
printf 'hello\n' > plain
"$PCRYPT" encrypt -k k.key plain -o f.pcrypt

no_contradiction() {
  ! grep -qi "does not read age\|does not use SSH" stderr || fail "a hint says pcrypt does not read this"
}

check "info on an X25519 identity: recognised, hint -i"
expect 3 "$PCRYPT" info me.key
expect_one_error "age identity (secret key) file"
grep -q 'hint: .*-i' stderr || fail "no -i hint"
no_contradiction

check "info on an OpenSSH private key: recognised, hint -i"
expect 3 "$PCRYPT" info ssh_key
expect_one_error "OpenSSH private key"
grep -q 'hint: .*-i' stderr || fail "no -i hint"
no_contradiction

check "info on an OpenSSH public key and an age recipient: hint -r/-R"
expect 3 "$PCRYPT" info ssh_key.pub
expect_one_error "OpenSSH public key"
grep -q 'hint: .*-R' stderr || fail "no -R hint"
no_contradiction
expect 3 "$PCRYPT" info me.pub
expect_one_error "age recipient"
grep -q 'hint: .*-r' stderr || fail "no -r hint"
no_contradiction

check "info on an age file: not decrypted by this version, without claiming pcrypt never reads age"
expect 3 "$PCRYPT" info age.age
expect_one_error "age-encrypted file"
grep -q 'hint: .*not decrypt age files yet' stderr || fail "no 'not yet' hint"
no_contradiction

check "-k with an identity or an SSH key: named, and the hint says -i (not keygen)"
for key in me.key ssh_key; do
  expect 2 "$PCRYPT" decrypt -k "$key" f.pcrypt -o out
  expect_one_error "$key is "
  grep -q 'hint: .*-i' stderr || fail "-k $key: no -i hint"
  ! grep -q keygen stderr || fail "-k $key: hint suggests keygen"
done

check "-i with a pcrypt key file: named, hint -k"
expect 2 "$PCRYPT" decrypt -i k.key f.pcrypt -o out
expect_one_error "k.key is a pcrypt key file, not an identity"
grep -q 'hint: .*-k' stderr || fail "no -k hint"

check "decrypt -k missing.key does not suggest creating a key (it could open nothing)"
expect 1 "$PCRYPT" decrypt -k missing.key f.pcrypt -o out
expect_one_error "missing.key"
! grep -q keygen stderr || fail "decrypt hint suggests keygen"
check "encrypt -k missing.key still suggests keygen"
expect 1 "$PCRYPT" encrypt -k missing.key plain -o g.pcrypt
grep -q 'hint: .*keygen -o missing.key' stderr || fail "encrypt hint lost keygen"
