#!/usr/bin/env bash
# The age personality with plugins (the test plugin tests/cli/plugins/age-plugin-pctest): encrypting to a
# plugin's identity (`age -e -i FILE`, `age -e -j NAME`) hands the identity to the plugin's recipient-v1
# (add-identity), as age does (age-plugin-batchpass works that way); the file opens with the identity, in
# pcrypt and in Debian's real age. Labels (age 1.3's extension-labels): recipients whose plugin labels them
# differently cannot share a file ("incompatible recipients", no output left), a post-quantum plugin
# (labelled "postquantum") may join age1pq1 recipients, a classical one may not. A passphrase file given
# to -j is offered to the plugin; when it does not open it, age's words, the plugin's message after them. A
# plugin's message is age's line ("age: NAME plugin: TEXT").
set -euo pipefail
source "$(dirname "$0")/lib.sh"

require_tools python3
export PATH="$SOURCE_DIR/tests/cli/plugins:$PATH"
unset PCTEST_MODE PCTEST_LOG PCTEST_PIN PCTEST_DEFAULT_IDENTITY PCTEST_LABELS
mkdir bin
ln -s "$PCRYPT" bin/age
AGE=$PWD/bin/age

read -r ID1 R1 < <(age-plugin-pctest --keygen)
echo "$ID1" > id1
"$PCRYPT" keygen --identity -o x.key 2> /dev/null
X=$("$PCRYPT" recipient x.key)
"$PCRYPT" keygen --pq -o pq.key 2> /dev/null
PQ=$("$PCRYPT" recipient pq.key)
printf 'test\n' > input

check "age -e -i PLUGIN-IDENTITY: the identity goes to the plugin's recipient-v1 as add-identity"
PCTEST_LOG=$WORK/log "$AGE" -e -i id1 -o self.age input 2> stderr || fail "-e -i with a plugin identity"
[[ ! -s stderr ]] || fail "stderr not empty"
grep -q '^recipient-v1 add-identity AGE-PLUGIN-PCTEST-1' log || fail "no add-identity sent: $(cat log)"
grep -q '^recipient-v1 extension-labels' log || fail "extension-labels not offered: $(cat log)"
grep -q 'add-recipient' log && fail "the identity was sent as a recipient"
"$AGE" -d -i id1 self.age > out 2> stderr || fail "the file made for the identity does not open with it"
same out input
if command -v age > /dev/null && [[ $(command -v age) != "$AGE" ]]; then
  age -d -i id1 self.age | cmp -s - input || fail "Debian's age cannot open it"
else
  echo "SKIPPED: Debian's age not installed"
fi

check "age -e -j NAME: the plugin's default identity, encrypted to through the plugin"
PCTEST_DEFAULT_IDENTITY=$ID1 "$AGE" -e -j pctest -o default.age input 2> stderr || fail "-e -j pctest"
[[ ! -s stderr ]] || fail "stderr not empty"
"$AGE" -d -i id1 default.age > out || fail "the default identity's file does not open with the identity"
same out input
PCTEST_DEFAULT_IDENTITY=$ID1 "$AGE" -d -j pctest default.age > out || fail "-d -j pctest"
same out input
check "-j without -e is refused as -i is (age's rule), and a bad plugin name before any plugin runs"
expect 1 "$AGE" -j pctest -o no.age input
grep -q 'unless symmetric encryption is explicitly selected with -e/--encrypt' stderr || fail "wording"
expect 1 "$AGE" -e -j pwn/pwn -o no.age input
grep -q 'not a plugin name' stderr || fail "wording for a bad plugin name"
exists no.age && fail "output left"

check "labels: a plugin recipient labelled apart (as a passphrase plugin is) shares a file with nothing"
PCTEST_LABELS=random PCTEST_DEFAULT_IDENTITY=$ID1 "$AGE" -e -j pctest -o alone.age input ||
  fail "alone it is fine"
for order in "-j pctest -r $X" "-r $X -j pctest"; do
  # shellcheck disable=SC2086 # the words of $order are arguments
  PCTEST_LABELS=random PCTEST_DEFAULT_IDENTITY=$ID1 expect 1 "$AGE" -e $order -o mixed.age input
  grep -q '^age: error: incompatible recipients' stderr || fail "wording ($order)"
  exists mixed.age && fail "output left ($order)"
done
check "labels: a post-quantum plugin joins age1pq1 recipients; a classical one, or none, cannot"
PCTEST_LABELS=postquantum "$AGE" -r "$R1" -r "$PQ" -o pq.age input 2> stderr || fail "postquantum plugin + age1pq1"
"$AGE" -d -i pq.key pq.age > out || fail "the age1pq1 identity does not open it"
same out input
"$AGE" -d -i id1 pq.age > out || fail "the plugin identity does not open it"
same out input
PCTEST_LABELS=postquantum expect 1 "$AGE" -r "$R1" -r "$X" -o mixed.age input
grep -q 'incompatible recipients' stderr || fail "postquantum plugin + X25519: wording"
expect 1 "$AGE" -r "$PQ" -r "$R1" -o mixed.age input
grep -q 'incompatible recipients' stderr || fail "classical plugin + age1pq1: wording"
grep -q 'post-quantum' stderr || fail "the post-quantum reason is not given"
PCTEST_LABELS="a b" expect 1 "$AGE" -r "$R1" -r "$X" -o mixed.age input
grep -q 'incompatible recipients' stderr || fail "wording for [a b] vs []"
exists mixed.age && fail "output left"

check "a passphrase file given to -j: offered to the plugin; not opened, age's words and no output"
# (A passphrase file of work factor 5, made through the batchpass plugin: age -p's, of 2^18 on a terminal,
# was a third of the test's time, and what is checked here does not depend on the factor. test_age_cli_tty
# checks age -p itself.)
ln -s "$PCRYPT" bin/age-plugin-batchpass
PATH=$PWD/bin:$PATH AGE_PASSPHRASE=password AGE_PASSPHRASE_WORK_FACTOR=5 "$AGE" -e -j batchpass -o pw.age input 2> stderr ||
  fail "age -e -j batchpass"
PCTEST_LOG=$WORK/log2 PCTEST_DEFAULT_IDENTITY=$ID1 expect 1 "$AGE" -d -j pctest -o pw.out pw.age
grep -q '^identity-v1 recipient-stanza 0 scrypt' log2 || fail "the scrypt stanza was not offered to the plugin"
grep -q 'file is passphrase-encrypted but identities were specified' stderr || fail "wording"
exists pw.out && fail "output left"
check "a plugin's message is age's line ('age: NAME plugin: TEXT'), not pcrypt's"
PCTEST_MODE=msg "$AGE" -d -i id1 self.age > out 2> stderr || fail "msg mode"
same out input
grep -qx 'age: pctest plugin: touch the pctest key' stderr || fail "wording of the message: $(cat stderr)"
grep -q 'pcrypt' stderr && fail "pcrypt's prefix in the age personality"
echo "all age plugin command-line checks passed"
