#!/usr/bin/env bash
# SSH keys as they come (FORMAT.md §10.5, §10.7, §10.8): teams of many recipients, GitHub-style key lists
# with types pcrypt skips, authorized_keys options, ssh-rsa recipients and identities, and
# passphrase-protected OpenSSH keys asked for on a terminal. Keys are made by the real ssh-keygen (the
# 3072-bit one once, committed).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

head -c 70000 /dev/urandom > plain

check "a team of 50 recipients (-R team.txt): members open the file; 255 recipients work, 256 are refused"
# From one process (lib.sh): 256 `pcrypt keygen --identity` runs were a third of this test, and what is checked
# here is how many recipients a file takes, not keygen (tests/cli/test_age_keygen.sh).
random_identities 256 > all.key
"$PCRYPT" recipient all.key > all.txt
[[ $(sort -u all.txt | wc -l) == 256 ]] || fail "expected 256 distinct recipients"
member() { sed -n "${1}p" all.key > "m$1.key"; }
head -n 50 all.txt > team50.txt
"$PCRYPT" encrypt -R team50.txt plain -o team.pcrypt
for i in 1 27 50; do
  member $i
  "$PCRYPT" decrypt -i "m$i.key" team.pcrypt -o "team$i.out"
  same "team$i.out" plain
done
"$PCRYPT" info team.pcrypt > team.info
grep -qx 'key slots: 50' team.info || fail "info does not count 50 slots"
head -n 255 all.txt > team255.txt
"$PCRYPT" encrypt -R team255.txt plain -o team255.pcrypt
member 255
"$PCRYPT" decrypt -i m255.key team255.pcrypt -o team255.out
same team255.out plain
expect 2 "$PCRYPT" encrypt -R all.txt plain -o out
expect_one_error "not 256"
! exists out || fail "out exists after too many recipients"

if ! command -v ssh-keygen > /dev/null; then
  echo "SKIPPED: the SSH key checks need ssh-keygen (apt-get install openssh-client)"
  echo "all SSH key checks that could run passed"
  exit 0
fi

# Passphrase-protected keys are made with one bcrypt round (-a 1): the default 16 cost ssh-keygen and each of
# the ~25 pcrypt runs opening such a key a tenth of a second of CPU, and the rounds are not what these checks are
# about (tests/vectors/files/protected_*.test open keys at ssh-keygen's default; test_recipients_ssh_keys
# checks the rounds' limits).
ssh-keygen -q -t ed25519 -N '' -C 'ed@host' -f id_ed25519
# A 3072-bit RSA key made once by ssh-keygen (tests/vectors/recipients/README.md): making it took 1-2 s.
cp "$SOURCE_DIR/tests/vectors/recipients/ssh_rsa3072.key" id_rsa
cp "$SOURCE_DIR/tests/vectors/recipients/ssh_rsa3072.key.pub" id_rsa.pub
chmod 600 id_rsa
ssh-keygen -q -t ecdsa -N '' -C 'ecdsa@host' -f id_ecdsa
# No security key here: an sk- line as GitHub serves it (the key data is never decoded for skipped types).
sk_line='sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29tAAAAIEX2hr2RFQJ/ZNMfkAPebI2Bz8gyM4Upu3rjZo0nKcbaAAAABHNzaDo= sk@host'

check "ssh-rsa: -R id_rsa.pub, decrypt -i id_rsa; info names the RSA slot; recipient prints the .pub key"
"$PCRYPT" encrypt -R id_rsa.pub plain -o rsa.pcrypt
"$PCRYPT" decrypt -i id_rsa rsa.pcrypt -o rsa.out
same rsa.out plain
"$PCRYPT" info rsa.pcrypt > rsa.info
grep -Eq 'slot 1: SSH RSA recipient, tag [0-9a-f]{8}, 3072-bit key$' rsa.info || fail "info: $(grep 'slot 1:' rsa.info)"
[[ $("$PCRYPT" recipient id_rsa) == "$(cut -d' ' -f1-2 id_rsa.pub)" ]] || fail "recipient of id_rsa differs from id_rsa.pub"
# One more 2048-bit RSA key (an RSA key is the costly one to make): also, with a passphrase added by
# ssh-keygen -p, locked_rsa and shared_b below.
ssh-keygen -q -t rsa -b 2048 -N '' -f other_rsa
expect 3 "$PCRYPT" decrypt -i other_rsa rsa.pcrypt -o out
expect_one_error "wrong key"
! exists out || fail "out exists after a wrong RSA key"
"$PCRYPT" encrypt -r "$(cat other_rsa.pub)" -k <("$PCRYPT" keygen) plain -o rsa2048.pcrypt
"$PCRYPT" verify -i other_rsa rsa2048.pcrypt

check "an RSA key below 2048 bits is refused by name (exit 2)"
ssh-keygen -q -t rsa -b 1024 -N '' -f small_rsa
expect 2 "$PCRYPT" encrypt -R small_rsa.pub plain -o out
expect_one_error "1024 bits"

check "a GitHub-style key list (ed25519, rsa, ecdsa, sk): the supported ones are used, one warning per other line"
{ cat id_ed25519.pub; cat id_ecdsa.pub; echo "$sk_line"; cat id_rsa.pub; } > keys.txt
cat keys.txt | "$PCRYPT" encrypt -R - plain -o list.pcrypt 2> list.err
grep -qxF 'pcrypt: standard input: ignoring unsupported SSH key of type "ecdsa-sha2-nistp256" at line 2' list.err ||
  fail "no warning for the ecdsa line: $(cat list.err)"
grep -qxF 'pcrypt: standard input: ignoring unsupported SSH key of type "sk-ssh-ed25519@openssh.com" at line 3' list.err ||
  fail "no warning for the sk line: $(cat list.err)"
[[ $(wc -l < list.err) == 2 ]] || fail "expected exactly two warnings: $(cat list.err)"
for key in id_ed25519 id_rsa; do
  "$PCRYPT" decrypt -i $key list.pcrypt -o list.out
  same list.out plain
  rm list.out
done
"$PCRYPT" info list.pcrypt > list.info
grep -qx 'key slots: 2' list.info || fail "the list gave other than 2 slots"

check "a list with only unsupported keys, and a single -r of one, are usage errors"
{ cat id_ecdsa.pub; echo "$sk_line"; } > unsupported.txt
expect 2 "$PCRYPT" encrypt -R unsupported.txt plain -o out
expect_one_error "lists no recipient pcrypt supports (2 unsupported SSH keys ignored)"
expect 2 "$PCRYPT" encrypt -r "$(cat id_ecdsa.pub)" plain -o out
expect_one_error "SSH key type ecdsa-sha2-nistp256 is not supported"
! exists out || fail "out exists after unsupported recipients"

check "authorized_keys options with quoted spaces and commas, as sshd reads them"
{ printf 'command="uptime -p",no-pty %s\n' "$(cat id_ed25519.pub)"
  printf 'environment="A=b c",from="10.0.0.1,192.168.0.0/16" %s\n' "$(cat id_rsa.pub)"
  printf 'restrict,command="echo \\"quoted, spaced\\"" %s\n' "$(cat id_ecdsa.pub)"; } > authorized_keys
"$PCRYPT" encrypt -R authorized_keys plain -o ak.pcrypt 2> ak.err
grep -qF 'at line 3' ak.err || fail "the ecdsa line with escaped quotes was not recognized as a key line"
"$PCRYPT" decrypt -i id_ed25519 ak.pcrypt -o ak1.out
same ak1.out plain
"$PCRYPT" decrypt -i id_rsa ak.pcrypt -o ak2.out
same ak2.out plain
printf 'command="unterminated %s\n' "$(cat id_ed25519.pub)" > bad_ak
expect 2 "$PCRYPT" encrypt -R bad_ak plain -o out
expect_one_error "line 1 of recipients file 'bad_ak'"

check "passphrase-protected keys: the public half is read without asking (recipient, no matching slot)"
ssh-keygen -q -t ed25519 -a 1 -N 'ed pass' -f locked_ed25519
# locked_rsa: other_rsa with a passphrase (ssh-keygen -p writes the same OpenSSH format as -N at generation).
# (protect KEY PASSPHRASE NEW: NEW is a copy of unprotected KEY, protected by PASSPHRASE.)
protect() {
  cp "$1" "$3" && cp "$1.pub" "$3.pub"
  ssh-keygen -q -p -a 1 -P '' -N "$2" -f "$3" > /dev/null
}
protect other_rsa 'rsa pass' locked_rsa
ssh-keygen -q -t ed25519 -a 1 -N 'gcm pass' -Z aes256-gcm@openssh.com -f locked_gcm
for key in locked_ed25519 locked_rsa locked_gcm; do
  [[ $("$PCRYPT" recipient $key) == "$(cut -d' ' -f1-2 $key.pub)" ]] || fail "recipient of $key differs from $key.pub"
done
# Not on a terminal and no slot with its tag: no question asked, just "wrong key".
expect 3 "$PCRYPT" decrypt -i locked_ed25519 rsa.pcrypt -o out < /dev/null
expect_one_error "wrong key"
"$PCRYPT" encrypt -R locked_ed25519.pub -R locked_rsa.pub -R locked_gcm.pub plain -o locked.pcrypt
# A slot with its tag but no terminal to ask on: a usage error naming the key.
setsid -w "$PCRYPT" decrypt -i locked_ed25519 locked.pcrypt -o out < /dev/null 2> stderr && fail "decrypted without a passphrase"
expect_one_error "locked_ed25519 is protected by a passphrase"
grep -qxF "pcrypt: hint: give its passphrase with --ssh-key-passphrase-file FILE or \$PCRYPT_SSH_KEY_PASSPHRASE, or run pcrypt from a terminal" stderr ||
  fail "the refusal does not name the non-interactive ways"
! exists out || fail "out exists without a passphrase"

check "protected keys without a terminal (CI, cron): --ssh-key-passphrase-file FILE and \$PCRYPT_SSH_KEY_PASSPHRASE"
printf 'ed pass\n' > ed.pw
printf 'rsa pass\r\n' > rsa.pw # a CRLF line end, as --passphrase-file takes it
printf 'gcm pass' > gcm.pw     # no newline at all
for pair in locked_ed25519:ed.pw locked_rsa:rsa.pw locked_gcm:gcm.pw; do
  key=${pair%%:*} pw=${pair#*:}
  rm -f out
  setsid -w "$PCRYPT" decrypt -i "$key" --ssh-key-passphrase-file "$pw" locked.pcrypt -o out < /dev/null 2> stderr ||
    fail "$key with --ssh-key-passphrase-file did not open the file"
  same out plain
done
rm -f out
PCRYPT_SSH_KEY_PASSPHRASE='rsa pass' setsid -w "$PCRYPT" decrypt -i locked_rsa locked.pcrypt -o out < /dev/null 2> stderr ||
  fail "PCRYPT_SSH_KEY_PASSPHRASE did not open the RSA key"
same out plain
rm -f out
check "... the file comes before the environment; a wrong one is exit 3; PCRYPT_PASSPHRASE is not an SSH key's"
PCRYPT_SSH_KEY_PASSPHRASE='not it' setsid -w "$PCRYPT" decrypt -i locked_ed25519 --ssh-key-passphrase-file ed.pw \
  locked.pcrypt -o out < /dev/null 2> stderr || fail "the file did not win over the environment"
rm -f out
expect 3 env PCRYPT_SSH_KEY_PASSPHRASE='not it' setsid -w "$PCRYPT" decrypt -i locked_ed25519 locked.pcrypt -o out < /dev/null
grep -qF 'wrong passphrase' stderr || fail "no 'wrong passphrase' message"
! exists out || fail "out written after a wrong passphrase"
expect 2 env PCRYPT_PASSPHRASE='ed pass' setsid -w "$PCRYPT" decrypt -i locked_ed25519 locked.pcrypt -o out < /dev/null
expect_one_error "locked_ed25519 is protected by a passphrase"
expect 2 env PCRYPT_SSH_KEY_PASSPHRASE= setsid -w "$PCRYPT" decrypt -i locked_ed25519 locked.pcrypt -o out < /dev/null
expect_one_error "empty passphrase refused (PCRYPT_SSH_KEY_PASSPHRASE)"
check "... '-' reads standard input's first line and leaves the rest for the data"
{ echo 'ed pass'; cat locked.pcrypt; } | setsid -w "$PCRYPT" decrypt -i locked_ed25519 --ssh-key-passphrase-file - > out 2> stderr ||
  fail "--ssh-key-passphrase-file - with the data on standard input failed"
same out plain
check "... verify, info and rekey take it too"
setsid -w "$PCRYPT" verify -i locked_gcm --ssh-key-passphrase-file gcm.pw locked.pcrypt < /dev/null 2> stderr || fail "verify"
setsid -w "$PCRYPT" info -i locked_ed25519 --ssh-key-passphrase-file ed.pw locked.pcrypt < /dev/null > info.txt 2> stderr ||
  fail "info"
grep -q '^locked_ed25519 opens: slot 1 ' info.txt || fail "info does not say which slot the key opens"
"$PCRYPT" keygen -o extra.key
setsid -w "$PCRYPT" rekey -i locked_rsa --ssh-key-passphrase-file rsa.pw --add-key extra.key locked.pcrypt -o re.pcrypt \
  < /dev/null 2> stderr || fail "rekey"
"$PCRYPT" decrypt -k extra.key re.pcrypt -o - | cmp -s - plain || fail "the rekeyed file does not open with the added key"

if command -v python3 > /dev/null; then
  # on_tty KEY=ANSWER... -- CMD...: CMD on a pseudo-terminal (tests/cli/answer_pty.py), its terminal in tty.log.
  on_tty() { python3 "$SOURCE_DIR/tests/cli/answer_pty.py" "$@" 2> tty.log; }
  prompts_for() { grep -o "Enter passphrase for SSH key $1:" tty.log | wc -l; }
  "$PCRYPT" encrypt -R locked_ed25519.pub plain -o only_ed.pcrypt
  "$PCRYPT" encrypt -R locked_ed25519.pub plain -o only_ed2.pcrypt
  "$PCRYPT" encrypt -R locked_rsa.pub plain -o only_rsa.pcrypt
  check "the terminal asks once per protected key a run needs (FORMAT.md §10.8), each key its own passphrase"
  rm -f only_ed only_ed2 only_rsa
  on_tty locked_ed25519='ed pass' locked_rsa='rsa pass' -- \
    "$PCRYPT" decrypt -i locked_ed25519 -i locked_rsa only_ed.pcrypt only_rsa.pcrypt only_ed2.pcrypt ||
    fail "three files, two protected keys on a terminal: $(cat tty.log)"
  for f in only_ed only_rsa only_ed2; do same $f plain; done
  [[ $(prompts_for locked_ed25519) == 1 ]] || fail "locked_ed25519 asked $(prompts_for locked_ed25519) times"
  [[ $(prompts_for locked_rsa) == 1 ]] || fail "locked_rsa asked $(prompts_for locked_rsa) times"
  check "... a file or the variable gives one passphrase for every key of the run, and the terminal is not asked"
  rm -f only_ed only_ed2 only_rsa
  rc=0
  on_tty locked_ed25519='ed pass' locked_rsa='rsa pass' -- "$PCRYPT" decrypt -i locked_ed25519 -i locked_rsa \
    --ssh-key-passphrase-file ed.pw only_ed.pcrypt only_rsa.pcrypt only_ed2.pcrypt || rc=$?
  [[ $rc == 3 ]] || fail "a key whose passphrase is not the file's: exit $rc, expected 3"
  grep -qF "wrong passphrase" tty.log || fail "no 'wrong passphrase' for locked_rsa: $(cat tty.log)"
  [[ $(grep -c "Enter passphrase" tty.log) == 0 ]] || fail "the terminal was asked despite the file"
  same only_ed plain
  ! exists only_rsa || fail "only_rsa written after a wrong passphrase"
  ssh-keygen -q -t ed25519 -a 1 -N 'shared pass' -f shared_a
  protect other_rsa 'shared pass' shared_b
  "$PCRYPT" encrypt -R shared_a.pub plain -o for_a.pcrypt
  "$PCRYPT" encrypt -R shared_b.pub plain -o for_b.pcrypt
  on_tty -- env PCRYPT_SSH_KEY_PASSPHRASE='shared pass' "$PCRYPT" decrypt -i shared_a -i shared_b \
    for_a.pcrypt for_b.pcrypt || fail "one variable for two keys sharing it: $(cat tty.log)"
  same for_a plain
  same for_b plain
  [[ $(grep -c "Enter passphrase" tty.log) == 0 ]] || fail "the terminal was asked despite the variable"
  check "... an empty PCRYPT_SSH_KEY_PASSPHRASE is exit 2 even on a terminal (no fallback to asking)"
  rm -f only_ed
  rc=0
  on_tty locked_ed25519='ed pass' -- env PCRYPT_SSH_KEY_PASSPHRASE= "$PCRYPT" decrypt -i locked_ed25519 \
    only_ed.pcrypt || rc=$?
  [[ $rc == 2 ]] || fail "empty PCRYPT_SSH_KEY_PASSPHRASE on a terminal: exit $rc, expected 2"
  grep -qF "empty passphrase refused (PCRYPT_SSH_KEY_PASSPHRASE)" tty.log || fail "no refusal: $(cat tty.log)"
  [[ $(grep -c "Enter passphrase" tty.log) == 0 ]] || fail "an empty variable fell back to the terminal"
  ! exists only_ed || fail "only_ed written"
  # It is read only when a key needs a passphrase: an unprotected key does not look at it.
  PCRYPT_SSH_KEY_PASSPHRASE= "$PCRYPT" decrypt -i id_rsa rsa.pcrypt -o - < /dev/null | cmp -s - plain ||
    fail "an empty variable broke a run that needs no SSH key passphrase"
else
  echo "SKIPPED: the one-passphrase-per-source checks need python3 (its pty module)"
fi

if command -v script > /dev/null && script -qec true /dev/null > /dev/null 2>&1; then
  # ask_run KEY ANSWER OUT: decrypt locked.pcrypt with -i KEY on a pseudo-terminal, typing ANSWER at the prompt.
  ask_run() {
    rm -f typescript answers
    mkfifo answers
    script -qefc "'$PCRYPT' decrypt -i $1 locked.pcrypt -o $3" typescript < answers > /dev/null 2>&1 &
    local pid=$! rc=0
    exec 4> answers
    wait_until grep -qF "Enter passphrase for SSH key $1:" typescript 2> /dev/null || fail "no prompt for $1"
    printf '%s\n' "$2" >&4
    wait "$pid" || rc=$?
    exec 4>&-
    rm -f answers
    return "$rc"
  }
  check "passphrase-protected ed25519 (aes256-ctr), RSA and aes256-gcm keys: asked on the terminal, then open"
  ask_run locked_ed25519 'ed pass' l1.out || fail "locked ed25519 key did not open the file"
  same l1.out plain
  ! grep -qF 'ed pass' typescript || fail "the passphrase was echoed"
  ask_run locked_rsa 'rsa pass' l2.out || fail "locked RSA key did not open the file"
  same l2.out plain
  ask_run locked_gcm 'gcm pass' l3.out || fail "locked aes256-gcm key did not open the file"
  same l3.out plain
  check "a wrong SSH key passphrase: exit 3, says so, nothing written"
  for pair in "locked_ed25519:ctr" "locked_gcm:gcm" "locked_rsa:rsa"; do
    rc=0
    ask_run "${pair%%:*}" 'not it' bad.out || rc=$?
    [[ $rc == 3 ]] || fail "wrong passphrase for ${pair%%:*} exited $rc, expected 3"
    grep -qF 'wrong passphrase' typescript || fail "no 'wrong passphrase' message for ${pair%%:*}"
    ! exists bad.out || fail "bad.out exists after a wrong passphrase"
  done
  rm -f typescript
else
  echo "SKIPPED: terminal prompt checks need script(1) from util-linux"
fi

echo "all SSH key checks passed"
