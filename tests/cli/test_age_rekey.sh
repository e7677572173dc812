#!/usr/bin/env bash
# rekey on age files (core/age/rekey.h): stanzas added and removed without touching the payload, checked with
# the real age 1.1.1 — who can open the result and who cannot — and byte for byte after the header; armor
# kept; age's rule that an scrypt stanza stands alone; the file's mode kept in place; nothing changed on
# failure. Skipped visibly without age, age-keygen or ssh-keygen.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

require_tools age age-keygen ssh-keygen python3
PTY="$SOURCE_DIR/tests/cli/age_pty.py"

for k in a b c; do age-keygen -o $k.key 2> /dev/null; done
A=$(age-keygen -y a.key)
B=$(age-keygen -y b.key)
C=$(age-keygen -y c.key)
ssh-keygen -q -t ed25519 -N '' -C test -f ed.key
ssh-keygen -q -t rsa -b 2048 -N '' -C test -f rsa.key
head -c $((3 * 65536 + 11)) /dev/urandom > plain

# after_header FILE: its bytes after the "--- MAC" line (the payload nonce and the payload).
after_header() {
  python3 -c "import sys; d = open(sys.argv[1], 'rb').read(); i = d.index(b'\n--- '); sys.stdout.buffer.write(d[d.index(b'\n', i + 1) + 1:])" "$1"
}
opens_with_age() { age -d -i "$2" "$1" 2> /dev/null | cmp -s - plain; }
opens_with_pcrypt() { "$PCRYPT" decrypt -i "$2" "$1" -o - 2> /dev/null | cmp -s - plain; }

age -r "$A" -R ed.key.pub -o f.age plain
after_header f.age > payload.before
chmod 640 f.age

check "--add-recipient: the new X25519, ssh-ed25519 and ssh-rsa recipients open it in age; the payload is unchanged"
"$PCRYPT" rekey -i a.key --add-recipient "$B" --add-recipients-file rsa.key.pub f.age
for id in a.key b.key ed.key rsa.key; do
  opens_with_age f.age $id || fail "age cannot open the rekeyed file with $id"
  opens_with_pcrypt f.age $id || fail "pcrypt cannot open the rekeyed file with $id"
done
opens_with_age f.age c.key && fail "c.key opens a file it was never added to"
after_header f.age | cmp -s - payload.before || fail "the payload changed"
[[ $(stat -c %a f.age) == 640 ]] || fail "mode not kept: $(stat -c %a f.age)"
[[ $(grep -ac '^-> ' f.age) == 4 ]] || fail "expected 4 stanzas"

check "--remove-key IDENTITY, --remove-recipient SSH-KEY and --remove-slot N each take away exactly one opener"
"$PCRYPT" rekey -i b.key --remove-key a.key f.age
opens_with_age f.age a.key && fail "a.key still opens after --remove-key"
"$PCRYPT" rekey -i b.key --remove-recipient "$(cat ed.key.pub)" f.age
opens_with_age f.age ed.key && fail "ed.key still opens after --remove-recipient"
"$PCRYPT" info f.age > info.txt
grep -q 'SSH RSA recipient, tag ' info.txt || fail "info lists no ssh-rsa stanza: $(cat info.txt)"
n=$(grep -E "^stanza [0-9]+: SSH RSA" info.txt | sed -E "s/^stanza ([0-9]+):.*/\1/")
"$PCRYPT" rekey -i b.key --remove-slot "$n" f.age
opens_with_age f.age rsa.key && fail "rsa.key still opens after --remove-slot $n"
opens_with_age f.age b.key || fail "b.key lost access"
after_header f.age | cmp -s - payload.before || fail "the payload changed"

check "an X25519 stanza is anonymous: --remove-recipient age1... works only with its own identity given"
"$PCRYPT" rekey -i b.key --add-recipient "$C" f.age
expect 2 "$PCRYPT" rekey -i b.key --remove-recipient "$C" f.age
expect_one_error "anonymous"
"$PCRYPT" rekey -i c.key --remove-recipient "$C" f.age
opens_with_age f.age c.key && fail "c.key still opens"
expect 2 "$PCRYPT" rekey -i b.key --add-recipient "$B" f.age
expect_one_error "already has stanza"

check "refused, file unchanged: the last stanza, a key file, a passphrase beside recipients, a wrong identity"
cp f.age f.before
expect 2 "$PCRYPT" rekey -i b.key --remove-key b.key f.age
expect_one_error "last stanza"
"$PCRYPT" keygen -o k.key 2> /dev/null
expect 2 "$PCRYPT" rekey -i b.key --add-key k.key f.age
expect_one_error "no key-file recipients"
printf 'pass one\n' > pw1
expect 2 "$PCRYPT" rekey -i b.key --add-passphrase-file pw1 f.age
expect_one_error "scrypt stanza must be the only stanza"
expect 3 "$PCRYPT" rekey -i c.key --add-recipient "$A" f.age
cmp -s f.age f.before || fail "a refused rekey changed the file"

check "a passphrase file (scrypt) changes its passphrase: the new one opens it in age, the old one does not"
printf 'pass two\n' > pw2
# The file to change starts at scrypt work factor 2^10 (tests/cli/age_scrypt_file.py, which Debian's age opens:
# test_age_encrypted_identity.sh) where python3-cryptography is installed: age -p's 2^18 cost a second twice
# (making it, and rekey opening it); what is checked is the stanza rekey writes, at age's 2^18.
if python3 -c 'import cryptography' 2> /dev/null; then
  python3 "$SOURCE_DIR/tests/cli/age_scrypt_file.py" 'pass one' 10 < plain > p.age
else
  python3 "$PTY" 'pass one' age -p -o p.age plain 2> /dev/null || fail "age -p failed"
fi
"$PCRYPT" rekey --passphrase-file pw1 --add-passphrase-file pw2 --remove-slot 1 p.age
python3 "$PTY" 'pass two' age -d -o p.out p.age 2> /dev/null || fail "age cannot open with the new passphrase"
cmp -s p.out plain || fail "p.out differs"
expect 3 "$PCRYPT" decrypt --passphrase-file pw1 p.age -o p2.out
! exists p2.out || fail "the old passphrase still opens"

check "an armored file stays armored, and age opens it"
age -a -r "$A" -o arm.age plain
"$PCRYPT" rekey -i a.key --add-recipient "$B" arm.age
head -1 arm.age | finds -x -- '-----BEGIN AGE ENCRYPTED FILE-----' || fail "the armor was lost"
opens_with_age arm.age b.key || fail "age cannot open the rekeyed armored file with b.key"
opens_with_age arm.age a.key || fail "age cannot open the rekeyed armored file with a.key"

check "--new-file-key re-encrypts: the opening identity and the added recipient keep access, the others lose it"
age -r "$A" -r "$B" -R ed.key.pub -o n.age plain
after_header n.age > n.payload
"$PCRYPT" rekey -i a.key --new-file-key --add-recipients-file rsa.key.pub n.age
opens_with_age n.age a.key || fail "a.key lost access with --new-file-key"
opens_with_age n.age rsa.key || fail "the added rsa.key cannot open"
opens_with_age n.age b.key && fail "b.key still opens after --new-file-key"
opens_with_age n.age ed.key && fail "ed.key still opens after --new-file-key"
after_header n.age | cmp -s - n.payload && fail "the payload was not re-encrypted"
age -a -r "$A" -o na.age plain
"$PCRYPT" rekey -i a.key --new-file-key --add-recipient "$B" na.age
head -1 na.age | finds -x -- '-----BEGIN AGE ENCRYPTED FILE-----' || fail "the armor was lost"
opens_with_age na.age b.key || fail "b.key cannot open the re-encrypted armored file"
check "--new-file-key on a damaged payload fails (exit 4) and leaves the file as it was"
age -r "$A" -o d.age plain
flip_byte d.age $(($(stat -c %s d.age) - 50))
cp d.age d.before
expect 4 "$PCRYPT" rekey -i a.key --new-file-key d.age
cmp -s d.age d.before || fail "a failed --new-file-key changed the file"

check "post-quantum: rekey adds age1pq1... recipients to a post-quantum file, and refuses to mix them with X25519"
"$PCRYPT" keygen --pq -o pq1.key 2> /dev/null
"$PCRYPT" keygen --pq -o pq2.key 2> /dev/null
"$PCRYPT" encrypt --format age -r "$("$PCRYPT" recipient pq1.key)" plain -o pq.age
"$PCRYPT" rekey -i pq1.key --add-recipient "$("$PCRYPT" recipient pq2.key)" pq.age
opens_with_pcrypt pq.age pq2.key || fail "the added post-quantum recipient cannot open"
opens_with_pcrypt pq.age pq1.key || fail "the first post-quantum recipient lost access"
cp pq.age pq.before
expect 2 "$PCRYPT" rekey -i pq1.key --add-recipient "$A" pq.age
expect_one_error "refusing to mix post-quantum"
cmp -s pq.age pq.before || fail "a refused rekey changed the file"
# An AGE-SECRET-KEY-PQ-1 file given to --remove-key is an identity (it was once taken for a key file).
"$PCRYPT" rekey -i pq2.key --remove-key pq1.key pq.age 2> stderr || fail "--remove-key with a post-quantum identity"
opens_with_pcrypt pq.age pq1.key && fail "the removed post-quantum identity still opens the file"
opens_with_pcrypt pq.age pq2.key || fail "the kept post-quantum recipient lost access"

check "-o writes the result elsewhere and leaves the original as it was"
cp f.age g.age
"$PCRYPT" rekey -i b.key --add-recipient "$A" g.age -o h.age
cmp -s g.age f.age || fail "the original changed with -o"
opens_with_age h.age a.key || fail "h.age does not open with a.key"
echo "PASS"
