#!/usr/bin/env bash
# pcrypt as age 1.3's two helper plugins, through links named age-plugin-batchpass and age-plugin-pq on PATH,
# with two clients: pcrypt's own `age` and Debian's real age 1.1.1 (which runs plugins, -j included). Every
# behaviour of age's own batchpass.txt and hybrid.txt scripts has a check here:
#  - batchpass: AGE_PASSPHRASE / AGE_PASSPHRASE_FD (not both, not neither), AGE_PASSPHRASE_WORK_FACTOR when
#    encrypting, AGE_PASSPHRASE_MAX_WORK_FACTOR when decrypting, "incorrect passphrase", no other recipient
#    beside it; its files are plain scrypt files that age opens with the passphrase typed on a terminal, and
#    the other way round;
#  - pq: `age-plugin-pq -identity` converts AGE-SECRET-KEY-PQ-1… to AGE-PLUGIN-PQ-1…, and files made with
#    either form open with the other, in both clients; typage's files open with the converted identity;
#  - run by hand, each prints its usage and exits 1; a client that lies (a reply of the wrong kind, an
#    exchange cut short, an unknown state machine) gets an error, never a hang; nothing is written on failure.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

require_tools python3 timeout
unset AGE_PASSPHRASE AGE_PASSPHRASE_FD AGE_PASSPHRASE_WORK_FACTOR AGE_PASSPHRASE_MAX_WORK_FACTOR
mkdir bin
(cd bin && personality age && personality age-plugin-batchpass && personality age-plugin-pq &&
  personality age-keygen)
export PATH="$WORK/bin:$PATH"
AGE=$WORK/bin/age
PTY="$SOURCE_DIR/tests/cli/age_pty.py"
REAL_AGE=""
if [[ -x /usr/bin/age ]] && /usr/bin/age --version 2> /dev/null | finds -x '1\..*'; then REAL_AGE=/usr/bin/age; fi
printf 'test\n' > input
"$PCRYPT" keygen --identity -o x.key 2> /dev/null
X=$("$PCRYPT" recipient x.key)
BATCHPASS_ID='AGE-PLUGIN-BATCHPASS-1JCS0Q9'  # batchpass's one identity, no payload (age -j batchpass)

# --- batchpass, with pcrypt's age as the client ----------------------------------------------------------
check "batchpass: AGE_PASSPHRASE and AGE_PASSPHRASE_WORK_FACTOR make a plain scrypt file; -d -j opens it"
AGE_PASSPHRASE=password AGE_PASSPHRASE_WORK_FACTOR=5 "$AGE" -e -j batchpass -o test.age input 2> stderr ||
  fail "age -e -j batchpass"
[[ ! -s stderr ]] || fail "stderr not empty"
head -c 200 test.age | finds -a '^-> scrypt [A-Za-z0-9+/]\{22\} 5$' || fail "not one scrypt stanza of work factor 5"
[[ $(head -c 300 test.age | grep -ac '^-> ') == 1 ]] || fail "more than one stanza"
AGE_PASSPHRASE=password "$AGE" -d -j batchpass test.age > out 2> stderr || fail "age -d -j batchpass"
same out input
[[ ! -s stderr ]] || fail "stderr not empty on decryption"
AGE_PASSPHRASE=password AGE_PASSPHRASE_MAX_WORK_FACTOR=10 "$AGE" -d -j batchpass test.age > out ||
  fail "a limit above the file's work factor"
same out input

check "batchpass: a file asking more work than AGE_PASSPHRASE_MAX_WORK_FACTOR is refused, nothing written"
AGE_PASSPHRASE=password AGE_PASSPHRASE_MAX_WORK_FACTOR=3 expect 1 "$AGE" -d -j batchpass -o wf.out test.age
grep -q 'work factor' stderr || fail "wording: no 'work factor'"
exists wf.out && fail "output left"
for bad in 0 31 x; do
  AGE_PASSPHRASE=password AGE_PASSPHRASE_MAX_WORK_FACTOR=$bad expect 1 "$AGE" -d -j batchpass -o wf.out test.age
  grep -q 'AGE_PASSPHRASE_MAX_WORK_FACTOR' stderr || fail "wording for a max work factor of '$bad'"
  AGE_PASSPHRASE=password AGE_PASSPHRASE_WORK_FACTOR=$bad expect 1 "$AGE" -e -j batchpass -o wf.age input
  grep -q 'AGE_PASSPHRASE_WORK_FACTOR' stderr || fail "wording for a work factor of '$bad'"
done
exists wf.out && fail "output left"
exists wf.age && fail "output left"

check "batchpass: AGE_PASSPHRASE with AGE_PASSPHRASE_FD is refused ('mutually exclusive'), neither 'must be set'"
AGE_PASSPHRASE=password AGE_PASSPHRASE_FD=3 expect 1 "$AGE" -e -j batchpass -a -o both.age input
grep -q 'mutually exclusive' stderr || fail "wording for both"
AGE_PASSPHRASE=password AGE_PASSPHRASE_FD=3 expect 1 "$AGE" -d -j batchpass -o both.out test.age
grep -q 'mutually exclusive' stderr || fail "wording for both, decrypting"
expect 1 "$AGE" -e -j batchpass -a -o neither.age input
grep -q 'must be set' stderr || fail "wording for neither"
AGE_PASSPHRASE='' AGE_PASSPHRASE_FD='' expect 1 "$AGE" -d -j batchpass -o neither.out test.age
grep -q 'must be set' stderr || fail "wording for neither (empty values), decrypting"
for f in both.age both.out neither.age neither.out; do exists $f && fail "output $f left"; done

check "batchpass: AGE_PASSPHRASE_FD, its trailing newlines removed, both ways"
AGE_PASSPHRASE_FD=3 AGE_PASSPHRASE_WORK_FACTOR=4 "$AGE" -e -j batchpass -o fd.age input 3< <(printf 'fd pass\r\n\n') ||
  fail "encrypting with AGE_PASSPHRASE_FD"
AGE_PASSPHRASE='fd pass' "$AGE" -d -j batchpass fd.age > out || fail "the fd's passphrase was not 'fd pass'"
same out input
AGE_PASSPHRASE_FD=3 "$AGE" -d -j batchpass test.age > out 3< <(printf 'password') || fail "decrypting with the fd"
same out input
AGE_PASSPHRASE_FD=9x expect 1 "$AGE" -d -j batchpass -o fd.out test.age
grep -q 'AGE_PASSPHRASE_FD' stderr || fail "wording for a bad descriptor"

check "batchpass: a wrong passphrase is 'incorrect passphrase', nothing written"
AGE_PASSPHRASE=wrongpassword expect 1 "$AGE" -d -j batchpass -o wrong.out test.age
grep -q 'incorrect passphrase' stderr || fail "wording"
exists wrong.out && fail "output left"

check "batchpass: refuses to share a file with another recipient, in either order ('incompatible recipients')"
for order in "-j batchpass -r $X" "-r $X -j batchpass"; do
  # (The plugin wraps the file key before its labels are compared: a low work factor spares a second of
  # scrypt each, which this check is not about.)
  # shellcheck disable=SC2086 # the words of $order are arguments
  AGE_PASSPHRASE=password AGE_PASSPHRASE_WORK_FACTOR=2 expect 1 "$AGE" -e $order -a -o mixed.age input
  grep -q 'incompatible recipients' stderr || fail "wording ($order)"
  exists mixed.age && fail "output left ($order)"
done

check "batchpass: only passphrase files ('not passphrase-encrypted' for a file to a key)"
"$AGE" -r "$X" -o tokey.age input
AGE_PASSPHRASE=password expect 1 "$AGE" -d -j batchpass -o tokey.out tokey.age
grep -q 'not passphrase-encrypted' stderr || fail "wording"
exists tokey.out && fail "output left"

check "batchpass: the file is a plain scrypt file, opened by age -d with the passphrase typed on a terminal"
python3 "$PTY" password "$AGE" -d -o native.out test.age 2> /dev/null || fail "pcrypt's age cannot open it"
same native.out input

# --- batchpass with Debian's real age as the client, and files both ways -----------------------------------
if [[ -n $REAL_AGE ]]; then
  check "Debian's age opens pcrypt's batchpass file with the passphrase on a terminal, and the other way"
  python3 "$PTY" password "$REAL_AGE" -d -o real.out test.age 2> /dev/null || fail "age 1.1.1 cannot open it"
  same real.out input
  python3 "$PTY" 'typed pass' "$REAL_AGE" -p -o typed.age input 2> /dev/null || fail "age -p"
  AGE_PASSPHRASE='typed pass' "$AGE" -d -j batchpass typed.age > out || fail "batchpass cannot open age's file"
  same out input

  check "Debian's age as the plugin client: age -e -j batchpass through pcrypt's plugin (1.1.1 refuses -d -j)"
  AGE_PASSPHRASE=secret AGE_PASSPHRASE_WORK_FACTOR=6 "$REAL_AGE" -e -j batchpass -o real.age input 2> stderr ||
    fail "age 1.1.1 -e -j batchpass"
  head -c 200 real.age | finds -a '^-> scrypt [A-Za-z0-9+/]\{22\} 6$' || fail "not an scrypt stanza of work factor 6"
  AGE_PASSPHRASE=secret "$AGE" -d -j batchpass real.age > out || fail "pcrypt's age -d -j batchpass"
  same out input
  python3 "$PTY" secret "$REAL_AGE" -d -o real.out2 real.age 2> /dev/null || fail "age 1.1.1 -d, typed"
  same real.out2 input
  # age 1.1.1 refuses -d -j with a passphrase file itself, before any plugin runs (age 1.3 does not).
  AGE_PASSPHRASE=secret expect 1 "$REAL_AGE" -d -j batchpass real.age
  grep -q 'file is passphrase-encrypted but identities were specified' stderr || fail "age 1.1.1's own refusal"
  expect 1 "$REAL_AGE" -e -j batchpass -o real2.age input
  grep -q 'must be set' stderr || fail "wording through age 1.1.1 (neither)"
  AGE_PASSPHRASE=secret AGE_PASSPHRASE_FD=3 expect 1 "$REAL_AGE" -e -j batchpass -o real2.age input
  grep -q 'mutually exclusive' stderr || fail "wording through age 1.1.1 (both)"
  exists real2.age && fail "output left"
else
  echo "SKIPPED: Debian's age (apt-get install age) is not installed: no interop with the real age"
fi

# --- pq --------------------------------------------------------------------------------------------------
check "age-plugin-pq -identity converts a native post-quantum identity; -o makes a new 0600 file"
"$WORK/bin/age-keygen" -pq -o key.txt 2> /dev/null
PQ=$("$WORK/bin/age-keygen" -y key.txt)
age-plugin-pq -identity -o key-plugin.txt key.txt 2> stderr || fail "age-plugin-pq -identity"
[[ $(grep -c . key-plugin.txt) == 1 ]] || fail "not one line"
grep -q '^AGE-PLUGIN-PQ-1[A-Z0-9]*$' key-plugin.txt || fail "not an AGE-PLUGIN-PQ-1 identity"
[[ $(mode_of key-plugin.txt) == 600 ]] || fail "mode $(mode_of key-plugin.txt), not 600"
age-plugin-pq -identity < key.txt | cmp -s - key-plugin.txt || fail "standard input converts differently"
expect 1 age-plugin-pq -identity -o key-plugin.txt key.txt
grep -q 'age-plugin-pq: error: ' stderr || fail "an existing output is not refused in age's words"
expect 1 age-plugin-pq -identity -o no.txt x.key
grep -q 'not a post-quantum' stderr || fail "an X25519 identity is not refused"
exists no.txt && fail "output left"

check "files made with either form open with the other (pcrypt's age as the client), stderr empty"
"$AGE" -e -i key.txt -o native.age input
"$AGE" -d -i key-plugin.txt native.age > out 2> stderr || fail "the plugin identity cannot open a native file"
same out input
[[ ! -s stderr ]] || fail "stderr not empty"
"$AGE" -e -i key-plugin.txt -o plugin.age input 2> stderr || fail "encrypting to the plugin identity"
[[ ! -s stderr ]] || fail "stderr not empty"
"$AGE" -d -i key.txt plugin.age > out 2> stderr || fail "the native identity cannot open the plugin's file"
same out input
"$AGE" -r "$PQ" -o r.age input
"$AGE" -d -i key-plugin.txt r.age > out || fail "a file to the age1pq1 recipient"
same out input
check "a file to another key: no identity matched (plugin form too); pq and X25519 recipients do not mix"
"$AGE" -r "$X" -o other.age input
expect 1 "$AGE" -d -i key-plugin.txt -o other.out other.age
grep -q 'no identity matched any of the recipients' stderr || fail "wording"
exists other.out && fail "output left"
expect 1 "$AGE" -e -i key-plugin.txt -r "$X" -o mixed.age input
grep -q 'incompatible' stderr || fail "the plugin form mixed with X25519"
exists mixed.age && fail "output left"

if [[ -n $REAL_AGE ]]; then
  check "Debian's age 1.1.1, which has no post-quantum keys, gets them through pcrypt's age-plugin-pq"
  "$REAL_AGE" -r "$PQ" -o real-pq.age input 2> stderr || fail "age 1.1.1 -r age1pq1..."
  head -c 100 real-pq.age | finds -a '^-> mlkem768x25519 ' || fail "not an mlkem768x25519 stanza"
  "$AGE" -d -i key.txt real-pq.age > out || fail "the native identity cannot open age 1.1.1's file"
  same out input
  "$REAL_AGE" -d -i key-plugin.txt native.age > out 2> stderr || fail "age 1.1.1 cannot open a native file"
  same out input
  "$REAL_AGE" -e -i key-plugin.txt -o real-id.age input 2> stderr || fail "age 1.1.1 -e -i plugin identity"
  "$AGE" -d -i key.txt real-id.age > out || fail "a file to the plugin identity, made by age 1.1.1"
  same out input
fi

# --- run by hand, lying clients --------------------------------------------------------------------------
check "run by hand without the protocol: the usage on stderr, exit 1, nothing on stdout"
for plugin in age-plugin-batchpass age-plugin-pq; do
  expect 1 "$plugin" > stdout < /dev/null
  grep -q 'Usage' stderr || fail "$plugin: no usage"
  grep -q -- '--age-plugin' stderr || fail "$plugin: the usage does not say how clients run it"
  [[ ! -s stdout ]] || fail "$plugin: stdout not empty"
done
expect 4 age-plugin-batchpass --age-plugin=recipient-v2 < /dev/null
grep -q 'unknown state machine' stderr || fail "wording for an unknown state machine"

# serve PLUGIN STATE-MACHINE TEXT: the plugin given TEXT as the whole of its client's side.
serve() {
  local status=0
  printf '%b' "$3" | AGE_PASSPHRASE=password AGE_PASSPHRASE_WORK_FACTOR=2 timeout 20 "$1" "--age-plugin=$2" \
    > reply 2> stderr || status=$?
  [[ $status != 124 ]] || fail "$1 $2 hung"
  echo "$status"
}
KEY='-> wrap-file-key\nAAAAAAAAAAAAAAAAAAAAAA\n'
ADD="-> add-identity $BATCHPASS_ID\n\n"
check "a client that follows the protocol gets labels and an scrypt stanza (the protocol by hand)"
[[ $(serve age-plugin-batchpass recipient-v1 "$ADD-> grease-x\n\n$KEY-> extension-labels\n\n-> done\n\n-> ok\n\n-> ok\n\n") == 0 ]] ||
  fail "a good exchange failed"
grep -q '^-> labels [A-Za-z0-9+/]*$' reply || fail "no labels"
grep -q '^-> recipient-stanza 0 scrypt [A-Za-z0-9+/]\{22\} 2$' reply || fail "no scrypt stanza"
tail -2 reply | head -1 | finds -x -- '-> done' || fail "the reply does not end with done"
check "a client that lies: a reply of the wrong kind, an exchange cut short, stanzas out of order"
[[ $(serve age-plugin-batchpass recipient-v1 "$ADD$KEY-> extension-labels\n\n-> done\n\n-> bogus\n\n") == 1 ]] ||
  fail "a wrong reply did not end the exchange with 1"
grep -q "'bogus' where 'ok' was due" stderr || fail "wording for a wrong reply"
grep -q 'recipient-stanza' reply && fail "a stanza was sent after the labels were not acknowledged"
[[ $(serve age-plugin-batchpass recipient-v1 "$ADD$KEY") == 1 ]] || fail "a cut exchange"
grep -q 'ended the exchange' stderr || fail "wording for a cut exchange"
[[ ! -s reply ]] || fail "something was sent before the client's done"
[[ $(serve age-plugin-batchpass recipient-v1 "${ADD}-> wrap-file-key\nAAAA\n-> done\n\n") == 1 ]] ||
  fail "a 3-byte file key"
[[ $(serve age-plugin-batchpass recipient-v1 "-> done\n\n") == 1 ]] || fail "no recipient"
[[ $(serve age-plugin-batchpass identity-v1 "$ADD-> recipient-stanza 1 scrypt AAAA 2\nAAAA\n-> done\n\n") == 1 ]] ||
  fail "a stanza of file 1 before file 0"
grep -q 'out of order' stderr || fail "wording for a file out of order"
[[ $(serve age-plugin-batchpass recipient-v1 "-> add-recipient age1test10qdmzv9q\n\n$KEY-> done\n\n-> ok\n\n") == 3 ]] ||
  fail "a recipient of another plugin is not refused with 3"
grep -q '^-> error recipient 0$' reply || fail "no error stanza for the refused recipient"
[[ $(serve age-plugin-pq identity-v1 "-> add-identity $BATCHPASS_ID\n\n-> recipient-stanza 0 X25519 AAAA\nAAAA\n-> done\n\n-> ok\n\n") == 3 ]] ||
  fail "age-plugin-pq took batchpass's identity"
grep -q '^-> error identity 0$' reply || fail "no error stanza for the refused identity"

# --- no plugin for a recipient or identity: age's list of plugins is named, in both personalities ---------
check "a plugin that is not installed: the hint links age's plugin list (/awesome#plugins), age and pcrypt"
echo AGE-PLUGIN-TEST-10Q32NLXM > test-key.txt
expect 1 "$AGE" -r age1test10qdmzv9q -o none.age input
grep -q '^age: hint: .*https://age-encryption.org/awesome#plugins' stderr || fail "age -r: no link"
expect 1 "$AGE" -d -i test-key.txt -o none.out tokey.age
grep -q 'https://age-encryption.org/awesome#plugins' stderr || fail "age -d -i: no link"
expect 2 "$PCRYPT" encrypt --format age -r age1test10qdmzv9q -o none.enc input
grep -q '^pcrypt: hint: .*https://age-encryption.org/awesome#plugins' stderr || fail "pcrypt encrypt: no link"
expect 3 "$PCRYPT" decrypt -i test-key.txt -o none.out tokey.age
grep -q 'https://age-encryption.org/awesome#plugins' stderr || fail "pcrypt decrypt: no link"
for f in none.age none.out none.enc; do exists $f && fail "output $f left"; done

check "age's plugin.txt: a very long plugin recipient (-R) and identity (-i), about 1600 characters each"
read -r LONG_ID LONG_R < <(PATH="$SOURCE_DIR/tests/cli/plugins:$PATH" age-plugin-pctest --keygen 1000)
echo "$LONG_ID" > long-key.txt
echo "$LONG_R" > long-recipient.txt
PATH="$SOURCE_DIR/tests/cli/plugins:$PATH" "$AGE" -R long-recipient.txt -o long.age input 2> stderr ||
  fail "encrypting to the long recipient"
[[ ! -s stderr ]] || fail "stderr not empty"
PATH="$SOURCE_DIR/tests/cli/plugins:$PATH" "$AGE" -d -i long-key.txt long.age > out 2> stderr ||
  fail "decrypting with the long identity"
same out input
[[ ! -s stderr ]] || fail "stderr not empty"

# --- typage ----------------------------------------------------------------------------------------------
require_typage "age helper plugin"
check "a pq plugin identity made by pcrypt opens typage's file to the matching recipient"
export TYPAGE_DIR=$TYPAGE
node "$SOURCE_DIR/tests/cli/typage_pq.mjs" keygen > ty.key
TY_R=$(node "$SOURCE_DIR/tests/cli/typage_pq.mjs" recipient ty.key)
node "$SOURCE_DIR/tests/cli/typage_pq.mjs" encrypt "$TY_R" input ty.age
age-plugin-pq -identity -o ty-plugin.txt ty.key
"$AGE" -d -i ty-plugin.txt ty.age > out 2> stderr || fail "pcrypt's age with the plugin identity"
same out input
if [[ -n $REAL_AGE ]]; then
  "$REAL_AGE" -d -i ty-plugin.txt ty.age > out 2> stderr || fail "age 1.1.1 with pcrypt's plugin"
  same out input
fi
echo "all age helper plugin checks passed"
