#!/usr/bin/env bash
# PEM private keys as identities (core/keys/pem_key.h, FORMAT.md §10.9), as age reads them: PKCS#8 Ed25519
# ("BEGIN PRIVATE KEY", what `openssl genpkey -algorithm ed25519` writes), PKCS#1 RSA ("BEGIN RSA PRIVATE
# KEY") plain or protected with the legacy DEK-Info encryption, PKCS#8 RSA. A protected PEM key has no public
# part of its own: its .pub file gives it (encrypting to it needs no passphrase), a missing .pub is an error
# naming it, and a key that is not its .pub's is "mismatched private and public SSH key". §10.7's exponent
# rule holds for PEM keys too. Files open in Debian's real age 1.1.1 and the other way round. Through the
# link named age and pcrypt's own command line.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
require_tools openssl ssh-keygen python3

TTY="$SOURCE_DIR/tests/cli/tty_typeahead.py"
mkdir bin
ln -s "$PCRYPT" bin/age
AGE=$PWD/bin/age
REAL_AGE=""
if command -v age > /dev/null && [[ $(command -v age) != "$AGE" ]]; then REAL_AGE=$(command -v age); fi
printf 'test\n' > input
printf 'password\n' > terminal

check "PKCS#8 Ed25519: age -e -i and -d -i; pcrypt's own decrypt; Debian's age opens it"
openssl genpkey -algorithm ed25519 -out ed.pem 2> /dev/null
grep -q 'BEGIN PRIVATE KEY' ed.pem || fail "openssl did not write PKCS#8"
"$AGE" -e -i ed.pem -o ed.age input 2> stderr || fail "age -e -i with a PKCS#8 Ed25519 key"
[[ ! -s stderr ]] || fail "stderr not empty"
grep -qa '^-> ssh-ed25519 ' ed.age || fail "no ssh-ed25519 stanza"
"$AGE" -d -i ed.pem ed.age > out 2> stderr || fail "age -d -i with a PKCS#8 Ed25519 key"
same out input
[[ ! -s stderr ]] || fail "stderr not empty"
"$PCRYPT" decrypt -i ed.pem -o out2 ed.age 2> stderr || fail "pcrypt decrypt -i with a PKCS#8 key"
same out2 input
if [[ -n $REAL_AGE ]]; then
  "$REAL_AGE" -d -i ed.pem ed.age | cmp -s - input || fail "Debian's age cannot open it"
  "$REAL_AGE" -e -i ed.pem -o real-ed.age input
  "$AGE" -d -i ed.pem real-ed.age > out || fail "cannot open Debian age's file"
  same out input
fi

check "PKCS#1 and PKCS#8 RSA, unprotected"
openssl genrsa -traditional -out rsa.pem 2048 2> /dev/null
grep -q 'BEGIN RSA PRIVATE KEY' rsa.pem || fail "openssl did not write PKCS#1"
openssl pkey -in rsa.pem -out rsa8.pem
ssh-keygen -y -f rsa.pem > rsa.pub
"$AGE" -R rsa.pub -o rsa.age input
for key in rsa.pem rsa8.pem; do
  "$AGE" -d -i $key rsa.age > out 2> stderr || fail "age -d -i $key"
  same out input
  "$AGE" -e -i $key -o rsa-self.age input || fail "age -e -i $key"
  "$AGE" -d -i rsa.pem rsa-self.age > out || fail "cannot open the file made with -e -i $key"
  same out input
done
if [[ -n $REAL_AGE ]]; then
  "$REAL_AGE" -d -i rsa.pem rsa-self.age | cmp -s - input || fail "Debian's age cannot open it"
fi

check "§10.7 holds for PEM keys: an exponent over 24 bits is refused"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -pkeyopt rsa_keygen_pubexp:16777217 \
  -out big-e.pem 2> /dev/null
expect 1 "$AGE" -e -i big-e.pem -o big.age input
grep -q 'exponent' stderr || fail "the exponent rule is not named: $(cat stderr)"
exists big.age && fail "output left"

check "a protected PKCS#1 key: encrypting to it reads its .pub (no passphrase), decrypting asks on the terminal"
openssl genrsa -traditional -aes128 -passout pass:password -out key_rsa 2048 2> /dev/null
grep -q 'Proc-Type: 4,ENCRYPTED' key_rsa || fail "openssl did not write a legacy encrypted key"
ssh-keygen -y -P password -f key_rsa > key_rsa.pub
setsid "$AGE" -e -i key_rsa -o prot.age input < /dev/null 2> stderr || fail "-e -i with a protected PEM key"
[[ ! -s stderr ]] || fail "stderr not empty"
python3 "$TTY" terminal ttyout "$AGE" -d -i key_rsa prot.age > out 2> stderr || fail "-d -i with the passphrase"
same out input
grep -q 'Enter passphrase' ttyout || fail "no passphrase prompt on the terminal"
[[ ! -s stderr ]] || fail "stderr not empty"
if [[ -n $REAL_AGE ]]; then
  python3 "$TTY" terminal ttyout "$REAL_AGE" -d -i key_rsa prot.age > out 2> stderr ||
    fail "Debian's age cannot open it"
  same out input
fi
check "a file for another key does not ask for the protected key's passphrase"
openssl genrsa -traditional -out other.pem 2048 2> /dev/null
ssh-keygen -y -f other.pem > other.pub
"$AGE" -R other.pub -o other.age input
python3 "$TTY" - ttyout "$AGE" -d -i key_rsa other.age > out 2> stderr && fail "opened a file for another key"
grep -q 'no identity matched any of the recipients' stderr || fail "wording"
grep -q 'Enter passphrase' ttyout && fail "the passphrase was asked for a file the key cannot open"

check "a protected PEM key without its .pub: an error naming the .pub"
cp key_rsa lonely
expect 1 "$AGE" -d -i lonely prot.age
grep -q 'lonely.pub' stderr || fail "the missing .pub is not named: $(cat stderr)"
expect 1 "$AGE" -e -i lonely -o lonely.age input
grep -q 'lonely.pub' stderr || fail "the missing .pub is not named when encrypting"
exists lonely.age && fail "output left"

check "a protected PEM key whose .pub is another key's: mismatched private and public SSH key"
cp key_rsa mismatched
cp other.pub mismatched.pub
python3 "$TTY" terminal ttyout "$AGE" -d -i mismatched -o mm.out other.age 2> stderr && fail "opened with a mismatched key"
grep -q 'mismatched private and public SSH key' stderr || fail "wording: $(cat stderr)"
exists mm.out && fail "output left"

check "a wrong passphrase for a protected PEM key fails, no output"
printf 'wrong\n' > wrong
python3 "$TTY" wrong ttyout "$AGE" -d -i key_rsa -o wrong.out prot.age 2> stderr && fail "opened with a wrong passphrase"
exists wrong.out && fail "output left"
echo "all PEM key checks passed"
