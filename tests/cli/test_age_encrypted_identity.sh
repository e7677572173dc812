#!/usr/bin/env bash
# Passphrase-encrypted identity files (age's: an identity file that is itself an age file with a passphrase,
# `age-keygen | age -p -o key.age`), binary or armored: -d -i asks for its passphrase on the terminal and
# decrypts with the identities inside; -e -i encrypts to their recipients (after the passphrase); a wrong
# passphrase fails with no output; an age file encrypted to recipients is not an identity file. The files are
# made by tests/cli/age_scrypt_file.py at a cheap scrypt work factor (Debian's age opens one, which shows it
# follows the spec).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
require_tools python3
python3 -c 'import cryptography' 2> /dev/null || {
  echo "SKIPPED: python3-cryptography not installed"
  exit 0
}

TTY="$SOURCE_DIR/tests/cli/tty_typeahead.py"
MAKE="$SOURCE_DIR/tests/cli/age_scrypt_file.py"
mkdir bin
ln -s "$PCRYPT" bin/age
AGE=$PWD/bin/age
printf 'test\n' > input
"$PCRYPT" keygen --identity -o key.txt 2> /dev/null
R=$("$PCRYPT" recipient key.txt)
python3 "$MAKE" password 10 < key.txt > key.age
printf 'password\n' > terminal
printf 'wrong\n' > wrong
if command -v age > /dev/null && [[ $(command -v age) != "$AGE" ]]; then
  python3 "$TTY" terminal ttyout age -d key.age > check.txt 2> stderr || fail "Debian's age cannot open key.age"
  same check.txt key.txt
fi
"$AGE" -r "$R" -o to-key.age input

check "age -d -i KEY.age: the passphrase asked on the terminal, the identities inside decrypt"
python3 "$TTY" terminal ttyout "$AGE" -d -i key.age to-key.age > out 2> stderr || fail "-d -i key.age"
same out input
[[ ! -s stderr ]] || fail "stderr not empty"
grep -q 'Enter passphrase' ttyout || fail "no passphrase prompt on the terminal"
check "armored too"
python3 -c '
import base64, sys
t = base64.b64encode(open("key.age", "rb").read()).decode()
lines = "".join(t[i:i + 64] + "\n" for i in range(0, len(t), 64))
sys.stdout.write("-----BEGIN AGE ENCRYPTED FILE-----\n" + lines + "-----END AGE ENCRYPTED FILE-----\n")
' > key.asc
python3 "$TTY" terminal ttyout "$AGE" -d -i key.asc to-key.age > out 2> stderr || fail "-d -i with an armored one"
same out input

check "age -e -i KEY.age: encrypts to the identities inside; pcrypt's own decrypt -i takes it too"
python3 "$TTY" terminal ttyout "$AGE" -e -i key.age -o self.age input 2> stderr || fail "-e -i key.age"
"$AGE" -d -i key.txt self.age > out || fail "the file made with -e -i key.age does not open with key.txt"
same out input
python3 "$TTY" terminal ttyout "$PCRYPT" decrypt -i key.age -o out2 to-key.age 2> stderr || fail "pcrypt decrypt"
same out2 input

check "a wrong passphrase: failure, no output"
python3 "$TTY" wrong ttyout "$AGE" -d -i key.age -o bad.out to-key.age 2> stderr && fail "opened with a wrong passphrase"
exists bad.out && fail "output left"

check "an age file encrypted to recipients is not an identity file"
expect 1 "$AGE" -d -i to-key.age -o bad.out to-key.age
grep -q 'not an identity' stderr || fail "wording: $(cat stderr)"
exists bad.out && fail "output left"
echo "all encrypted identity file checks passed"
