#!/usr/bin/env bash
# age files (FORMAT.md "age format"): pcrypt writes what the real age 1.1.1 reads and reads what it writes, for
# X25519, ssh-ed25519, ssh-rsa (passphrase-protected keys too), armor and scrypt passphrases (age reads those only from a terminal: driven through
# tests/cli/age_pty.py), at the sizes around the 64 KiB chunk boundary; after tampering both refuse, and pcrypt
# leaves nothing at the output path. Skipped visibly without age, age-keygen or ssh-keygen.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

require_tools age age-keygen ssh-keygen python3
PTY="$SOURCE_DIR/tests/cli/age_pty.py"

age-keygen -o age.key 2> /dev/null
recipient=$(age-keygen -y age.key)
ssh-keygen -q -t ed25519 -N '' -C test -f ssh.key
sizes=(0 1 65535 65536 65537 $((3 * 65536 + 7)) $((5 * 1024 * 1024)))
for n in "${sizes[@]}"; do head -c "$n" /dev/urandom > "plain.$n"; done

check "X25519: pcrypt -> age and age -> pcrypt at sizes ${sizes[*]}"
for n in "${sizes[@]}"; do
  "$PCRYPT" encrypt --format age -r "$recipient" "plain.$n" -o "p.$n.age"
  head -c 22 "p.$n.age" | finds '^age-encryption.org/v1' || fail "p.$n.age is not an age file"
  age -d -i age.key "p.$n.age" > "p.$n.out" || fail "age cannot decrypt pcrypt's file of $n bytes"
  same "p.$n.out" "plain.$n"
  age -r "$recipient" -o "a.$n.age" "plain.$n"
  "$PCRYPT" decrypt -i age.key "a.$n.age" -o "a.$n.out"
  same "a.$n.out" "plain.$n"
  "$PCRYPT" verify -i age.key "a.$n.age"
done

check "ssh-ed25519: both directions"
for n in 0 65536 $((3 * 65536 + 7)); do
  "$PCRYPT" encrypt --format age -R ssh.key.pub "plain.$n" -o "s.$n.age"
  grep -aq '^-> ssh-ed25519 ' "s.$n.age" || fail "no ssh-ed25519 stanza"
  age -d -i ssh.key "s.$n.age" > "s.$n.out" || fail "age cannot open pcrypt's ssh-ed25519 file ($n bytes)"
  same "s.$n.out" "plain.$n"
  age -R ssh.key.pub -o "as.$n.age" "plain.$n"
  "$PCRYPT" decrypt -i ssh.key "as.$n.age" -o "as.$n.out"
  same "as.$n.out" "plain.$n"
done

check "ssh-rsa (2048 and 4096 bits): both directions"
ssh-keygen -q -t rsa -b 2048 -N '' -C test -f rsa.key
# A 4096-bit key made once by ssh-keygen (tests/vectors/recipients/README.md): making one took 1-5 s.
cp "$SOURCE_DIR/tests/vectors/recipients/ssh_rsa4096.key" rsa4096.key
cp "$SOURCE_DIR/tests/vectors/recipients/ssh_rsa4096.key.pub" rsa4096.key.pub
chmod 600 rsa4096.key
for key in rsa.key rsa4096.key; do
  for n in 0 65537; do
    "$PCRYPT" encrypt --format age -R $key.pub "plain.$n" -o "r.$key.$n.age"
    grep -aq '^-> ssh-rsa [A-Za-z0-9+/]\{6\}$' "r.$key.$n.age" || fail "no ssh-rsa stanza"
    age -d -i $key "r.$key.$n.age" > "r.$key.$n.out" || fail "age cannot open pcrypt's ssh-rsa file ($key, $n bytes)"
    same "r.$key.$n.out" "plain.$n"
    age -R $key.pub -o "ar.$key.$n.age" "plain.$n"
    "$PCRYPT" decrypt -i $key "ar.$key.$n.age" -o "ar.$key.$n.out"
    same "ar.$key.$n.out" "plain.$n"
  done
done

check "one file to X25519, ssh-ed25519 and ssh-rsa recipients opens with each identity, in pcrypt and in age"
"$PCRYPT" encrypt --format age -r "$recipient" -R ssh.key.pub -R rsa.key.pub plain.65537 -o three.age
for id in age.key ssh.key rsa.key; do
  "$PCRYPT" decrypt -i $id three.age -o three.$id.out
  same three.$id.out plain.65537
  age -d -i $id three.age > three.$id.age.out || fail "age cannot open three.age with $id"
  same three.$id.age.out plain.65537
done
age -r "$recipient" -R ssh.key.pub -R rsa.key.pub -o athree.age plain.65537
for id in age.key ssh.key rsa.key; do
  "$PCRYPT" decrypt -i $id athree.age -o athree.$id.out
  same athree.$id.out plain.65537
done

check "passphrase-protected SSH keys open age files, asked for only when a stanza is addressed to them"
# One bcrypt round (-a 1; ssh-keygen's default 16 cost it and each pcrypt opening the key a tenth of a second
# of CPU, and the rounds are not what is checked: tests/vectors/files/protected_*.test are at the default).
# locked_rsa is rsa.key with a passphrase added by ssh-keygen -p (making an RSA key is the costly part).
ssh-keygen -q -t ed25519 -a 1 -N 'ed pass' -f locked_ed25519
cp rsa.key locked_rsa && cp rsa.key.pub locked_rsa.pub
ssh-keygen -q -p -a 1 -P '' -N 'rsa pass' -f locked_rsa > /dev/null
age -R locked_ed25519.pub -o locked_ed.age plain.65537
age -R locked_rsa.pub -o locked_rsa.age plain.65537
python3 "$PTY" 'ed pass' "$PCRYPT" decrypt -i locked_ed25519 locked_ed.age -o locked_ed.out 2> /dev/null ||
  fail "pcrypt cannot open an age file with a passphrase-protected ssh-ed25519 key"
same locked_ed.out plain.65537
python3 "$PTY" 'rsa pass' "$PCRYPT" decrypt -i locked_rsa locked_rsa.age -o locked_rsa.out 2> /dev/null ||
  fail "pcrypt cannot open an age file with a passphrase-protected ssh-rsa key"
same locked_rsa.out plain.65537
# Not addressed to the locked key (another tag): no question, just no identity opens it.
setsid -w "$PCRYPT" decrypt -i locked_ed25519 -i age.key a.1.age -o unasked.out < /dev/null ||
  fail "a locked key with no stanza of its own stopped the identity that opens the file"
same unasked.out plain.1
expect 3 setsid -w "$PCRYPT" decrypt -i locked_rsa locked_ed.age -o none.out < /dev/null
expect_one_error "no identity given opens this age file"

check "armor: both directions, default output name NAME.age, decrypt strips .age"
for n in 0 1 65536 $((3 * 65536 + 7)); do
  "$PCRYPT" encrypt --format age -a -r "$recipient" "plain.$n" -o "arm.$n.age"
  head -1 "arm.$n.age" | finds -x -- '-----BEGIN AGE ENCRYPTED FILE-----' || fail "not armored"
  age -d -i age.key "arm.$n.age" > "arm.$n.out" || fail "age cannot read pcrypt's armor ($n bytes)"
  same "arm.$n.out" "plain.$n"
  age -a -r "$recipient" -o "aarm.$n.age" "plain.$n"
  "$PCRYPT" decrypt -i age.key "aarm.$n.age" -o "aarm.$n.out"
  same "aarm.$n.out" "plain.$n"
done
cp plain.1 named
"$PCRYPT" encrypt --format age -r "$recipient" named
exists named.age || fail "encrypt --format age did not write named.age"
rm named
"$PCRYPT" decrypt -i age.key named.age
same named plain.1

check "info and decrypt detect the format from the first bytes (binary and armored)"
"$PCRYPT" info a.65537.age > info.txt
grep -q '^format: age v1' info.txt || fail "info: $(cat info.txt)"
grep -q 'plaintext size: 65537 bytes in 2 chunks' info.txt || fail "info: $(cat info.txt)"
"$PCRYPT" info aarm.1.age | finds 'ASCII armored' || fail "info does not see the armor"
"$PCRYPT" decrypt -i age.key -o - < a.65537.age > stdin.out
same stdin.out plain.65537

check "a payload of several 1 MiB items opens to the same bytes in a file, a slow pipe, redirected stdout and from a pipe"
# Sequential outputs get each item's 16 records from their buffer slots in one writev; a reader that starts
# late makes the writes block on a full pipe. 3 MiB + 5 bytes: 49 chunks, 4 items, a short last chunk.
head -c $((3 * 1048576 + 5)) /dev/urandom > plain.big
"$PCRYPT" encrypt --format age -r "$recipient" plain.big -o big.age
for j in 1 3; do
  "$PCRYPT" decrypt -j$j -i age.key big.age -o big.$j.file
  same big.$j.file plain.big
  "$PCRYPT" decrypt -j$j -i age.key -o - big.age | (sleep 0.3; cat) > big.$j.pipe
  same big.$j.pipe plain.big
  "$PCRYPT" decrypt -j$j -i age.key -o - big.age > big.$j.stdout
  same big.$j.stdout plain.big
  cat big.age | "$PCRYPT" decrypt -j$j -i age.key -o - - | cat > big.$j.both
  same big.$j.both plain.big
done

check "scrypt passphrase: pcrypt -> age and age -> pcrypt (age on a pseudo-terminal)"
printf 'correct horse\n' > pw
"$PCRYPT" encrypt --format age --passphrase-file pw plain.65537 -o pw.age
grep -aq '^-> scrypt [A-Za-z0-9+/]\{22\} 18$' pw.age || fail "no scrypt stanza with work factor 18"
python3 "$PTY" 'correct horse' age -d -o pw.out pw.age 2> /dev/null || fail "age cannot open pcrypt's scrypt file"
same pw.out plain.65537
python3 "$PTY" 'correct horse' age -p -o apw.age plain.65537 2> /dev/null || fail "age -p failed"
"$PCRYPT" decrypt --passphrase-file pw apw.age -o apw.out
same apw.out plain.65537
check "scrypt: a wrong passphrase is exit 3; a work factor above --max-work-factor is refused before scrypt runs"
printf 'wrong\n' > bad
# At age's work factor (apw.age) the wrong passphrase costs a second of scrypt, the fifth here; a file at 2^10
# made from the spec (tests/cli/age_scrypt_file.py, which Debian's age opens: test_age_encrypted_identity.sh)
# asks the same question where python3-cryptography is installed (scripts/install-deps.sh installs it).
wrong_passphrase_file=apw.age
if python3 -c 'import cryptography' 2> /dev/null; then
  python3 "$SOURCE_DIR/tests/cli/age_scrypt_file.py" 'correct horse' 10 < plain.65537 > cheap_pw.age
  "$PCRYPT" decrypt --passphrase-file pw cheap_pw.age -o - | cmp -s - plain.65537 || fail "cheap_pw.age does not open"
  wrong_passphrase_file=cheap_pw.age
fi
expect 3 "$PCRYPT" decrypt --passphrase-file bad $wrong_passphrase_file -o nothing.out
expect_one_error "wrong passphrase"
! exists nothing.out || fail "output written with a wrong passphrase"
expect 3 "$PCRYPT" decrypt --passphrase-file pw --max-work-factor 17 apw.age -o nothing.out
expect_one_error "exceeds the limit 2^17"
grep -q -- '--max-work-factor 18' stderr || fail "the hint does not name --max-work-factor 18"

check "age's rule: a passphrase cannot be mixed with recipients; -k has no age form; -a needs --format age"
expect 2 "$PCRYPT" encrypt --format age --passphrase-file pw -r "$recipient" plain.1 -o mix.age
expect_one_error "scrypt stanza must be the only stanza"
! exists mix.age || fail "mix.age written"
"$PCRYPT" keygen -o k.key 2> /dev/null
expect 2 "$PCRYPT" encrypt --format age -k k.key plain.1 -o k.age
expect_one_error "no key-file recipients"
expect 2 "$PCRYPT" encrypt -a -r "$recipient" plain.1 -o x.pcrypt
expect_one_error "-a/--armor is for age files"

check "tampering: a flipped payload byte or header byte is refused by pcrypt and by age; nothing is written"
cp a.$((3 * 65536 + 7)).age t.age
size=$(stat -c %s t.age)
flip_byte t.age $((size - 100))
expect 4 "$PCRYPT" decrypt -i age.key t.age -o t.out
expect_one_error "payload authentication failed"
! exists t.out || fail "t.out written after a payload failure"
! age -d -i age.key t.age > t2.out 2> /dev/null || fail "age accepted the tampered payload"
cp a.1.age h.age
sed -i '2s/X25519/X25519 extra/' h.age
expect 3 "$PCRYPT" decrypt -i age.key h.age -o h.out
! exists h.out || fail "h.out written after a header failure"
! age -d -i age.key h.age > h2.out 2> /dev/null || fail "age accepted the tampered header"
cp a.1.age m.age
# The last header line is "--- MAC": change the MAC's first character (still canonical base64).
python3 -c "
d = open('m.age', 'rb').read(); i = d.index(b'\\n--- ') + 5
open('m.age', 'wb').write(d[:i] + (b'B' if d[i:i + 1] == b'A' else b'A') + d[i + 1:])"
expect 3 "$PCRYPT" decrypt -i age.key m.age -o m.out
! exists m.out || fail "m.out written after a header failure"
! age -d -i age.key m.age > m2.out 2> /dev/null || fail "age accepted the modified MAC"
head -c $(($(stat -c %s a.65537.age) - 1)) a.65537.age > cut.age
expect 4 "$PCRYPT" decrypt -i age.key cut.age -o cut.out
! exists cut.out || fail "cut.out written for a truncated file"
! age -d -i age.key cut.age > cut2.out 2> /dev/null || fail "age accepted the truncated file"
