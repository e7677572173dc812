#!/usr/bin/env bash
# pcrypt rekey: slots added and removed with the payload bytes untouched, in place through an atomic
# replacement; refusals (last slot, too many slots, tampered header, wrong key) change nothing; an interrupt
# or a failed write leaves the original whole.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# header_len FILE: the header's length from `pcrypt info` (FORMAT.md §3: 15 + 73 per key-file slot + 97 per
# passphrase slot + 32), computed here independently of the code under test.
header_len() {
  local keys pass
  keys=$("$PCRYPT" info "$1" | grep -c '^slot [0-9]*: key file')
  pass=$("$PCRYPT" info "$1" | grep -c '^slot [0-9]*: passphrase')
  echo $((15 + 73 * keys + 97 * pass + 32))
}
payload_of() { tail -c +$(($(header_len "$1") + 1)) "$1"; }

head -c 3000000 /dev/urandom > plain
"$PCRYPT" keygen -o k1
"$PCRYPT" keygen -o k2
"$PCRYPT" keygen -o k3
printf 'pass one\n' > pw
"$PCRYPT" encrypt -k k1 --chunk-size 64KiB plain -o f.pcrypt
payload_of f.pcrypt > payload.before

check "add a key: both the new and the old key decrypt; payload bytes identical"
"$PCRYPT" rekey f.pcrypt -k k1 --add-key k2
[[ $("$PCRYPT" info f.pcrypt | grep -c '^slot [0-9]*: ') == 2 ]] || fail "expected 2 slots"
"$PCRYPT" decrypt -k k2 f.pcrypt -o out2 && same out2 plain
"$PCRYPT" decrypt -k k1 f.pcrypt -o out1 && same out1 plain
payload_of f.pcrypt > payload.after
same payload.before payload.after
mode_of f.pcrypt | finds -x 600 || fail "rekeyed file is not 0600"

check "add a passphrase (opened with the new key), then open with the passphrase"
"$PCRYPT" rekey f.pcrypt -k k2 --add-passphrase-file pw "${CHEAP_KDF[@]}"
"$PCRYPT" decrypt --passphrase-file pw f.pcrypt -o outp && same outp plain
payload_of f.pcrypt > payload.after && same payload.before payload.after

check "remove slot 1 (k1): k1 now fails with exit 3, k2 and the passphrase still work"
"$PCRYPT" rekey f.pcrypt --passphrase-file pw --remove-slot 1
expect 3 "$PCRYPT" decrypt -k k1 f.pcrypt -o x
expect_one_error "wrong key"
! exists x || fail "a failed decrypt left output"
"$PCRYPT" decrypt -k k2 f.pcrypt -o out3 && same out3 plain
payload_of f.pcrypt > payload.after && same payload.before payload.after
rm out1 out2 out3 outp payload.after

check "-o writes a new file and leaves the input alone; an existing -o needs -f"
cp f.pcrypt f.orig
"$PCRYPT" rekey f.pcrypt -k k2 --add-key k3 -o g.pcrypt
same f.pcrypt f.orig
"$PCRYPT" decrypt -k k3 g.pcrypt -o outg && same outg plain
expect 1 "$PCRYPT" rekey f.pcrypt -k k2 --add-key k1 -o g.pcrypt
expect_one_error "g.pcrypt"
"$PCRYPT" rekey f.pcrypt -k k2 --add-key k1 -o g.pcrypt -f
"$PCRYPT" decrypt -k k1 g.pcrypt -o - | cmp - plain
rm outg g.pcrypt

check "refusals change nothing: last slot, unknown slot, nothing to do, duplicate key, wrong key"
"$PCRYPT" encrypt -k k1 plain -o one.pcrypt
cp one.pcrypt one.orig
expect 2 "$PCRYPT" rekey one.pcrypt -k k1 --remove-slot 1
expect_one_error "last slot"
expect 2 "$PCRYPT" rekey one.pcrypt -k k1 --remove-slot 2
expect_one_error "no slot 2"
expect 2 "$PCRYPT" rekey one.pcrypt -k k1
expect_one_error "nothing to change"
expect 2 "$PCRYPT" rekey one.pcrypt -k k1 --add-key k1
expect_one_error "already opens slot 1"
expect 3 "$PCRYPT" rekey one.pcrypt -k k2 --add-key k3
expect_one_error "one.pcrypt"
expect 2 "$PCRYPT" rekey one.pcrypt -k k1 --add-key k2 -o -
same one.pcrypt one.orig
check "removing and adding in one run replaces the only slot"
"$PCRYPT" rekey one.pcrypt -k k1 --remove-slot 1 --add-key k2
expect 3 "$PCRYPT" decrypt -k k1 one.pcrypt -o - && "$PCRYPT" decrypt -k k2 one.pcrypt -o - | cmp - plain
rm one.pcrypt one.orig

check "more slots than the format allows (255; 4 passphrases) is refused before anything is written"
"$PCRYPT" keygen -o m1
# From one process (lib.sh): 254 `pcrypt keygen --identity` runs were half of this test, and what is checked is
# the slot count, not keygen.
random_identities 254 > many.id
"$PCRYPT" recipient many.id > many.txt
"$PCRYPT" encrypt -k m1 -R many.txt plain -o full.pcrypt
cp full.pcrypt full.orig
expect 2 "$PCRYPT" rekey full.pcrypt -k m1 --add-key k1
expect_one_error "256 slots"
same full.pcrypt full.orig
"$PCRYPT" rekey full.pcrypt -k m1 --add-key k1 --remove-slot 255
"$PCRYPT" decrypt -k k1 full.pcrypt -o - | cmp - plain
rm full.pcrypt full.orig m1 many.id many.txt
printf 'a\n' > pa; printf 'b\n' > pb; printf 'c\n' > pc; printf 'd\n' > pd; printf 'e\n' > pe
"$PCRYPT" encrypt --passphrase-file pa "${CHEAP_KDF[@]}" plain -o p.pcrypt
for p in pb pc pd; do "$PCRYPT" rekey p.pcrypt --passphrase-file pa --add-passphrase-file "$p" "${CHEAP_KDF[@]}"; done
expect 2 "$PCRYPT" rekey p.pcrypt --passphrase-file pa --add-passphrase-file pe "${CHEAP_KDF[@]}"
expect_one_error "passphrase slots"
"$PCRYPT" decrypt --passphrase-file pd p.pcrypt -o - | cmp - plain
rm p.pcrypt pa pb pc pd pe

check "a tampered header is refused with exit 3 and the file is left as it was"
cp f.pcrypt t.pcrypt
flip_byte t.pcrypt 100
cp t.pcrypt t.orig
expect 3 "$PCRYPT" rekey t.pcrypt -k k2 --add-key k3
expect_one_error "t.pcrypt"
same t.pcrypt t.orig
rm t.pcrypt t.orig

check "a failed write (file size limit: EFBIG) leaves the original intact and no temporary"
cp f.pcrypt f.orig
rc=0
(trap '' XFSZ; ulimit -f 1000; "$PCRYPT" rekey f.pcrypt -k k2 --add-key k3) 2> stderr || rc=$?
[[ $rc == 1 ]] || fail "expected exit 1 on a failed write, got $rc"
expect_one_error "f.pcrypt"
same f.pcrypt f.orig
expect 3 "$PCRYPT" decrypt -k k3 f.pcrypt -o -
rm f.orig

check "Ctrl-C while rekeying leaves the original intact and no temporary"
cp f.pcrypt f.orig
# Job control, so the background job does not start with SIGINT ignored; slow Argon2id for the new slot,
# run once the temporary exists.
set -m
"$PCRYPT" rekey f.pcrypt -k k2 --add-passphrase-file pw --kdf-ops 200 --kdf-memory 64MiB 2> stderr &
pid=$!
set +m
wait_until output_open "$pid" f.pcrypt || fail "the temporary was never opened"
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
[[ $rc == 130 ]] || fail "expected exit 130 after SIGINT, got $rc"
same f.pcrypt f.orig
rm f.orig
only_these_files plain k1 k2 k3 pw f.pcrypt payload.before

check "rekey refuses standard input, a symlink in place, and a file with other hard links"
expect 2 "$PCRYPT" rekey - -k k2 --add-key k3 < f.pcrypt
ln -s f.pcrypt link.pcrypt
expect 1 "$PCRYPT" rekey link.pcrypt -k k2 --add-key k3
expect_one_error "symlink"
rm link.pcrypt
ln f.pcrypt hard.pcrypt
expect 1 "$PCRYPT" rekey f.pcrypt -k k2 --add-key k3
expect_one_error "hard links"
rm hard.pcrypt


check "--new-file-key: re-encrypted (payload differs), slots only for the credentials given, old keys locked out"
"$PCRYPT" encrypt -k k1 -k k2 --chunk-size 64KiB plain -o n.pcrypt
cp n.pcrypt n.orig
"$PCRYPT" rekey n.pcrypt -k k1 --add-key k3 --new-file-key -j 2
[[ $("$PCRYPT" info n.pcrypt | grep -c '^slot [0-9]*: ') == 2 ]] || fail "expected 2 slots (k1, k3)"
"$PCRYPT" info n.pcrypt | finds '^chunk size: 65536' || fail "chunk size not kept"
"$PCRYPT" decrypt -k k1 n.pcrypt -o - | cmp - plain
"$PCRYPT" decrypt -k k3 n.pcrypt -o - | cmp - plain
expect 3 "$PCRYPT" decrypt -k k2 n.pcrypt -o -
payload_of n.pcrypt > new.payload
payload_of n.orig > old.payload
! cmp -s new.payload old.payload || fail "payload not re-encrypted"
[[ $(stat -c %s new.payload) == $(stat -c %s old.payload) ]] || fail "payload length changed"
rm new.payload old.payload
expect 2 "$PCRYPT" rekey n.pcrypt -k k1 --new-file-key --remove-slot 1
expect_one_error "--remove-slot"
check "--new-file-key on a damaged payload: exit 4, original intact"
cp n.orig d.pcrypt
size=$(stat -c %s d.pcrypt)
flip_byte d.pcrypt $((size - 100))
cp d.pcrypt d.orig
expect 4 "$PCRYPT" rekey d.pcrypt -k k1 --new-file-key
expect_one_error "d.pcrypt"
same d.pcrypt d.orig
rm n.pcrypt n.orig d.pcrypt d.orig

check "--add-recipient on a key-file file: version 2 with a recipient slot, -i decrypts, payload unchanged"
"$PCRYPT" keygen --identity -o id 2>/dev/null
"$PCRYPT" encrypt -k k1 --chunk-size 64KiB plain -o r.pcrypt
payload_len=$(($(stat -c %s r.pcrypt) - $(header_len r.pcrypt)))
tail -c "$payload_len" r.pcrypt > r.payload.before
"$PCRYPT" rekey r.pcrypt -k k1 --add-recipient "$("$PCRYPT" recipient id)"
"$PCRYPT" info r.pcrypt | finds '^format: pcrypt v2' || fail "not version 2"
"$PCRYPT" info r.pcrypt | finds '^slot 2: X25519 recipient' || fail "no recipient slot"
"$PCRYPT" decrypt -i id r.pcrypt -o - | cmp - plain
"$PCRYPT" decrypt -k k1 r.pcrypt -o - | cmp - plain
tail -c "$payload_len" r.pcrypt > r.payload.after && same r.payload.before r.payload.after

check "open with -i, add a key with --add-key; --add-recipients-file adds every recipient in the file"
"$PCRYPT" rekey r.pcrypt -i id --add-key k2
"$PCRYPT" decrypt -k k2 r.pcrypt -o - | cmp - plain
"$PCRYPT" keygen --identity -o id2 2>/dev/null
"$PCRYPT" recipient id2 > id2.pub
"$PCRYPT" rekey r.pcrypt -k k2 --add-recipients-file id2.pub
"$PCRYPT" decrypt -i id2 r.pcrypt -o - | cmp - plain
tail -c "$payload_len" r.pcrypt > r.payload.after && same r.payload.before r.payload.after

check "removing the recipient slots goes back to version 1; -i no longer opens (exit 3)"
"$PCRYPT" rekey r.pcrypt -k k1 --remove-slot 2 --remove-slot 4
"$PCRYPT" info r.pcrypt | finds '^format: pcrypt v1' || fail "not version 1"
expect 3 "$PCRYPT" decrypt -i id r.pcrypt -o -
"$PCRYPT" decrypt -k k2 r.pcrypt -o - | cmp - plain

check "--new-file-key opened with -i keeps the identity's access as a recipient slot"
"$PCRYPT" rekey r.pcrypt -k k1 --add-recipient "$("$PCRYPT" recipient id)"
"$PCRYPT" rekey r.pcrypt -i id --add-key k3 --new-file-key
[[ $("$PCRYPT" info r.pcrypt | grep -c '^slot [0-9]*: ') == 2 ]] || fail "expected 2 slots (id, k3)"
"$PCRYPT" decrypt -i id r.pcrypt -o - | cmp - plain
"$PCRYPT" decrypt -k k3 r.pcrypt -o - | cmp - plain
expect 3 "$PCRYPT" decrypt -k k1 r.pcrypt -o -
rm r.pcrypt r.payload.before r.payload.after id id2 id2.pub

echo "rekey CLI tests passed"
