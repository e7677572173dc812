#!/usr/bin/env bash
# Which credential failed against which slots, and which slot is whose (issue 16, items 6 and 7).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen -o k.key
"$PCRYPT" keygen -o other.key
"$PCRYPT" keygen --identity -o me.key 2> /dev/null
ssh-keygen -q -t ed25519 -N '' -C a -f ssh_a
ssh-keygen -q -t ed25519 -N '' -C b -f ssh_b
printf 'hello\n' > plain
"$PCRYPT" encrypt -R ssh_a.pub plain -o ssh_only.pcrypt
"$PCRYPT" encrypt -k k.key plain -o key_only.pcrypt
tag=$("$PCRYPT" info ssh_only.pcrypt | sed -n 's/.*SSH ed25519 recipient, tag \([0-9a-f]*\).*/\1/p')
[[ -n $tag ]] || fail "test bug: no tag in info"

# ---- item 6: say what was tried against what
check "-k on an SSH-only file: names the key file and the SSH slot with its tag"
expect 3 "$PCRYPT" decrypt -k k.key ssh_only.pcrypt -o out
expect_one_error "given 1 key file; it has 1 SSH ed25519 recipient slot with tag $tag"
grep -q "hint: .*-i SSH-KEY" stderr || fail "hint does not say -i"

check "-i SSH key on a key-file-only file: names the SSH identity and the key-file slot"
expect 3 "$PCRYPT" decrypt -i ssh_a key_only.pcrypt -o out
expect_one_error "it has 1 key-file slot"
grep -q "given 1 SSH ed25519 identity with tag $tag" stderr || fail "the identity and its tag are not named"
grep -q "hint: .*-k KEYFILE" stderr || fail "hint does not say -k"

check "an SSH key whose tag matches no slot: both tags named"
expect 3 "$PCRYPT" decrypt -i ssh_b ssh_only.pcrypt -o out
expect_one_error "with tag $tag"
grep -q "given 1 SSH ed25519 identity with tag [0-9a-f]\{8\}" stderr || fail "the identity's tag is not named"

check "a wrong key of the right kind: still the one message of FORMAT.md 6.5, with what was given"
expect 3 "$PCRYPT" decrypt -k other.key key_only.pcrypt -o out
expect_one_error "wrong key or passphrase, or the header was modified"
grep -q "given 1 key file; the file has 1 key-file slot" stderr || fail "no detail of what was tried"

# ---- item 7: which slot is whose
"$PCRYPT" keygen -o k2.key
"$PCRYPT" encrypt -k k.key -k k2.key -R ssh_a.pub plain -o three.pcrypt

check "info -k/-i says which slot a credential opens"
"$PCRYPT" info three.pcrypt -k k2.key -i ssh_a -k other.key > info.txt
grep -q '^k2.key opens: slot 2 (key-file)$' info.txt || fail "info -k: $(cat info.txt)"
grep -q "^ssh_a opens: slot 3 (SSH ed25519 recipient, tag $tag)$" info.txt || fail "info -i: $(cat info.txt)"
grep -q '^other.key opens: no slot$' info.txt || fail "info -k other: $(cat info.txt)"

check "decrypt -v and verify -v name the slot that opened the file"
"$PCRYPT" -v decrypt -k k2.key three.pcrypt -o three.out 2> err
grep -q 'opened by slot 2 (key-file)' err || fail "decrypt -v: $(cat err)"
"$PCRYPT" verify -v -i ssh_a three.pcrypt 2> err
grep -q "opened by slot 3 (SSH ed25519 recipient, tag $tag)" err || fail "verify -v: $(cat err)"

check "rekey --remove-key KEYFILE removes the slot that key opens, whatever its number"
cp three.pcrypt r.pcrypt
"$PCRYPT" rekey -k k.key --remove-key k2.key r.pcrypt
grep -q '^key slots: 2$' <("$PCRYPT" info r.pcrypt) || fail "expected 2 slots"
expect 3 "$PCRYPT" decrypt -k k2.key r.pcrypt -o out
"$PCRYPT" decrypt -k k.key r.pcrypt -o - | cmp -s - plain || fail "k.key lost access"

check "rekey --remove-recipient removes the SSH slot by its tag"
"$PCRYPT" rekey -k k.key --remove-recipient "$(cat ssh_a.pub)" r.pcrypt
grep -q '^key slots: 1$' <("$PCRYPT" info r.pcrypt) || fail "expected 1 slot"
expect 3 "$PCRYPT" decrypt -i ssh_a r.pcrypt -o out

check "rekey --remove-key with a key that opens no slot is refused"
expect 2 "$PCRYPT" rekey -k k.key --remove-key other.key r.pcrypt
expect_one_error "opens no slot"

check "rekey --remove-recipient age1...: anonymous slots, refused with a hint to give the identity"
"$PCRYPT" encrypt -k k.key -i me.key plain -o x.pcrypt
expect 2 "$PCRYPT" rekey -k k.key --remove-recipient "$("$PCRYPT" recipient me.key)" x.pcrypt
expect_one_error "anonymous"
check "... and --remove-key IDENTITY removes it"
"$PCRYPT" rekey -k k.key --remove-key me.key x.pcrypt
grep -q '^key slots: 1$' <("$PCRYPT" info x.pcrypt) || fail "expected 1 slot"

check "a duplicate --add-recipient is refused like a duplicate --add-key"
cp three.pcrypt d.pcrypt
expect 2 "$PCRYPT" rekey -k k.key --add-recipient "$(cat ssh_a.pub)" d.pcrypt
expect_one_error "already has slot 3"
expect 2 "$PCRYPT" rekey -k k.key --add-key k2.key d.pcrypt
expect_one_error "already opens slot 2"
"$PCRYPT" encrypt -i me.key plain -o y.pcrypt
expect 2 "$PCRYPT" rekey -i me.key --add-recipient "$("$PCRYPT" recipient me.key)" y.pcrypt
expect_one_error "already has slot 1"
same three.pcrypt d.pcrypt

check "rekey --new-file-key lists the slots it kept and dropped"
cp three.pcrypt n.pcrypt
"$PCRYPT" rekey -k k.key --new-file-key n.pcrypt 2> err
grep -q 'kept slot 1 (key-file)' err || fail "kept not listed: $(cat err)"
grep -q "dropped slot 2 (key-file), slot 3 (SSH ed25519 recipient, tag $tag)" err ||
  fail "dropped not listed: $(cat err)"
