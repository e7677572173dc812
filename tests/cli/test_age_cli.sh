#!/usr/bin/env bash
# pcrypt through a link named `age` (and as `pcrypt age ...`) is age 1.3's command line: its flags and their
# grammar (Go's flag package), its refusals and words, its exit statuses (0, 1, and 2 for a bad flag),
# nothing on standard error on success, no output file after a failure, an -o that names an input refused.
# Files it writes open with Debian's real age 1.1.1 and the other way round. Terminal matters (prompts,
# type-ahead, binary to a terminal) are test_age_cli_tty.sh's.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
require_tools ssh-keygen

mkdir bin
ln -s "$PCRYPT" bin/age
AGE=$PWD/bin/age
REAL_AGE=$(command -v age || true)
[[ $REAL_AGE == "$AGE" ]] && REAL_AGE=

# expect_quiet CMD...: exit 0 and nothing at all on standard error.
expect_quiet() {
  expect 0 "$@"
  [[ ! -s stderr ]] || fail "standard error not empty on success: $*"
}
# age's words, as its error lines: "age: error: ..." with the fixed text $1.
expect_age_error() {
  grep -q '^age: error: ' stderr || fail "no 'age: error:' line"
  grep -qF -- "$1" stderr || fail "error does not say '$1'"
}

printf 'test\n' > input
: > empty
# An X25519 identity, a second one, and their recipients.
"$PCRYPT" keygen --identity -o key.txt 2> /dev/null
"$PCRYPT" recipient key.txt > key.pub
"$PCRYPT" keygen --identity -o other.txt 2> /dev/null
"$PCRYPT" recipient other.txt > other.pub
R=$(cat key.pub)
OTHER=$(cat other.pub)
[[ $R == age1* && $OTHER == age1* ]] || fail "recipients are not age1...: $R $OTHER"

check "usage: -help and -h exit 0 with Usage: on stderr, nothing on stdout"
for help in -help -h --help; do
  "$AGE" -p "$help" > out 2> stderr || fail "$help did not exit 0"
  [[ ! -s out ]] || fail "$help printed on stdout"
  grep -q '^Usage:' stderr || fail "$help: no Usage:"
done
check "usage: an unknown flag is exit 2, Go's words, then the usage"
expect 2 "$AGE" -p -this-flag-does-not-exist
grep -qx 'flag provided but not defined: -this-flag-does-not-exist' stderr || fail "flag error wording"
grep -q '^Usage:' stderr || fail "no usage after a bad flag"
expect 2 "$AGE" -o
grep -qx 'flag needs an argument: -o' stderr || fail "missing argument wording"
expect 2 "$AGE" -d=maybe x
grep -qF 'invalid boolean value "maybe" for -d' stderr || fail "bad boolean wording"
check "usage: no argument at all prints the usage and fails"
expect 1 "$AGE"
grep -q '^Usage:' stderr || fail "no usage without arguments"
check "usage: the same through 'pcrypt age'"
"$PCRYPT" age -help 2> stderr || fail "pcrypt age -help did not exit 0"
grep -q '^Usage:' stderr || fail "pcrypt age -help: no Usage:"
expect 2 "$PCRYPT" age -bogus
grep -q 'flag provided but not defined: -bogus' stderr || fail "pcrypt age: flag error wording"

check "x25519: -r, --recipient=, -o, and -d -i give the input back with a silent stderr"
expect_quiet "$AGE" -r "$R" -o test.age input
[[ $(head -c 21 test.age) == age-encryption.org/v1 ]] || fail "not an age file"
expect_quiet "$AGE" -d -i key.txt test.age > out
same out input
expect_quiet "$AGE" --encrypt --recipient="$R" --output=test2.age input
expect_quiet "$AGE" --decrypt --identity=key.txt -o out2 test2.age
same out2 input
check "x25519: -e -i encrypts to the identity's own recipient"
expect_quiet "$AGE" -e -i key.txt -o self.age input
expect_quiet "$AGE" -d -i key.txt self.age > out
same out input
check "x25519: standard input to standard output, and '-' for them"
"$AGE" -r "$R" < input > piped.age 2> stderr || fail "stdin to stdout"
[[ ! -s stderr ]] || fail "stderr not empty"
"$AGE" -d -i key.txt -o - - < piped.age > out 2> stderr || fail "- and -o -"
same out input
check "x25519: -R file of recipients, with comments and blank lines"
printf '# team\n\n%s\n%s\n' "$R" "$OTHER" > recipients.txt
expect_quiet "$AGE" -R recipients.txt -o two.age input
expect_quiet "$AGE" -d -i other.txt two.age > out
same out input
check "x25519: the wrong key is exit 1 and age's words, nothing on stdout"
expect_quiet "$AGE" -r "$OTHER" -o wrong.age input
expect 1 "$AGE" -d -i key.txt wrong.age > out
expect_age_error 'no identity matched any of the recipients'
[[ ! -s out ]] || fail "output on a failure"
check "armor: -a writes age's PEM armor, decrypted without -a; blank lines around it are fine"
expect_quiet "$AGE" -a -r "$R" -o armored.age input
head -1 armored.age | finds -x -- '-----BEGIN AGE ENCRYPTED FILE-----' || fail "not armored"
{ printf '\n   \n\n'; cat armored.age; printf '\n   \n'; } > padded.age
expect_quiet "$AGE" -d -i key.txt padded.age > out
same out input
expect 1 "$AGE" -d -a -i key.txt armored.age
expect_age_error '-a/--armor can'"'"'t be used with -d/--decrypt'

check "ssh: ed25519 and rsa keys, by -R of the .pub and -e -i of the private key"
ssh-keygen -q -t ed25519 -N '' -f id_ed25519
ssh-keygen -q -t rsa -b 2048 -N '' -f id_rsa
for kind in ed25519 rsa; do
  expect_quiet "$AGE" -R id_$kind.pub -o $kind.age input
  expect_quiet "$AGE" -d -i id_$kind $kind.age > out
  same out input
  expect_quiet "$AGE" -e -i id_$kind -o $kind-self.age input
  expect_quiet "$AGE" -d -i id_$kind $kind-self.age > out
  same out input
done
expect 1 "$AGE" -d -i id_ed25519 rsa.age
expect_age_error 'no identity matched any of the recipients'

check "refusals: age's flag checks, in age's words, before anything is read"
expect 1 "$AGE" input
expect_age_error 'missing recipients'
expect 1 "$AGE" -p -r "$R" input
expect_age_error "-p/--passphrase can't be combined with -r/--recipient"
expect 1 "$AGE" -p -R recipients.txt input
expect_age_error "-p/--passphrase can't be combined with -R/--recipients-file"
expect 1 "$AGE" -i key.txt input
expect_age_error "can't be used in encryption mode unless symmetric encryption is explicitly selected"
expect 1 "$AGE" -d -r "$R" test.age
expect_age_error "-r/--recipient can't be used with -d/--decrypt"
expect 1 "$AGE" -d -p test.age
expect_age_error "-p/--passphrase can't be used with -d/--decrypt"
expect 1 "$AGE" -d -e test.age
expect_age_error "-e/--encrypt can't be used with -d/--decrypt"
expect 1 "$AGE" -r "$R" input -o x.age
expect_age_error 'too many INPUT arguments'
grep -qF 'the input file must be specified after all flags' stderr || fail "no hint for a late flag"
check "refusals: a recipients file's bad line is named by number, never echoed (escape sequences, NULs, data)"
# `age -R /dev/stdin` given the plaintext once printed its first line, escape sequences and all, on stderr.
printf 'password=hunter2 \033[31mRED\033[0m\nsecond\n' > secrets.txt
expect 1 "$AGE" -r "$R" -R /dev/stdin -o x.age < secrets.txt
expect_age_error "line 1 of recipients file '/dev/stdin'"
grep -q hunter2 stderr && fail "the data's first line is on stderr"
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' stderr && fail "control bytes reached stderr: $(cat -v stderr)"
[[ ! -e x.age ]] || fail "an output was written"
printf 'age1\0\033]0;title\007zz\n' > hostile.txt
expect 1 "$AGE" -R hostile.txt -o x.age < input
expect_age_error "line 1 of recipients file 'hostile.txt' ('age1\\x00\\x1b]0;title\\x07zz')"
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' stderr && fail "control bytes reached stderr: $(cat -v stderr)"
expect 2 "$PCRYPT" encrypt -R secrets.txt -o x.pcrypt input
grep -q hunter2 stderr && fail "pcrypt encrypt -R: the file's line is on stderr"
grep -qF "line 1 of recipients file 'secrets.txt'" stderr || fail "pcrypt encrypt -R: no line number"
check "refusals: a passphrase file opened with -i, an identity file without"
printf 'pw\n' > pw
PCRYPT_PASSPHRASE=$(cat pw) "$PCRYPT" encrypt -p --format age -o scrypt.age input 2> /dev/null
expect 1 "$AGE" -d -i key.txt scrypt.age
expect_age_error 'file is passphrase-encrypted but identities were specified'
expect 1 "$AGE" -d test.age < /dev/null
expect_age_error 'file is not passphrase-encrypted, identities are required'
check "refusals: an empty input is called empty"
expect 1 "$AGE" -d -i key.txt empty
expect_age_error 'the input is empty'
expect 1 "$AGE" -d -i key.txt < /dev/null
expect_age_error 'the input is empty'
: | expect 1 "$AGE" -d -i key.txt
expect_age_error 'the input is empty'

check "output: no output file after any failure (age issue 57's list)"
expect_quiet "$AGE" -r "$R" -o test.age input
for cmd in "-o test.out -d -i other.txt test.age" "-o test.out -d test.age" \
  "-o test.out -d -i notexist test.age" "-o test.out -d -i other.txt notexist" "-o test.out -r BAD" \
  "-o test.out -r $R notexist" "-o test.out -p notexist"; do
  # shellcheck disable=SC2086 # the words are the arguments
  expect 1 "$AGE" $cmd < /dev/null
  ! exists test.out || fail "test.out left after: age $cmd"
done
check "output: an empty plaintext still makes its output file, and prints nothing"
expect_quiet "$AGE" -r "$R" -o empty.age empty
exists empty.age || fail "no empty.age"
expect_quiet "$AGE" -d -i key.txt empty.age > out
[[ ! -s out ]] || fail "decrypted empty file not empty"
expect_quiet "$AGE" -d -i key.txt -o new empty.age
exists new && same new empty
check "output: an existing output is replaced (age's rule), but only on success"
printf 'keep me\n' > existing
expect 1 "$AGE" -d -i other.txt -o existing test.age
grep -qx 'keep me' existing || fail "existing output changed by a failure"
expect_quiet "$AGE" -d -i key.txt -o existing test.age
same existing input
check "output: -o naming the input, an identity or a recipients file is refused, and left alone"
cp input in2
expect 1 "$AGE" -r "$R" -o in2 in2
expect_age_error 'input and output file are the same'
same in2 input
expect 1 "$AGE" -r "$R" -o ./in2 "$PWD/in2"
expect_age_error 'input and output file are the same'
cp key.txt key2.txt
expect 1 "$AGE" -d -i key2.txt -o key2.txt test.age
expect_age_error 'input and output file are the same'
same key2.txt key.txt
expect 1 "$AGE" -R recipients.txt -o recipients.txt input
expect_age_error 'input and output file are the same'

check "duplicates: warned once each, in age's words, and the command still succeeds"
expect 0 "$AGE" -r "$R" -r "$OTHER" -r "$R" -r "$R" -o dup.age input
[[ $(grep -c "^age: warning: duplicate recipient \"$R\"\$" stderr) == 1 ]] || fail "duplicate recipient warning"
expect 0 "$AGE" -R recipients.txt -o dup2.age -R recipients.txt input
grep -qx 'age: warning: duplicate recipients file "recipients.txt"' stderr || fail "duplicate -R warning"
expect 0 "$AGE" -d -i key.txt -o dup.out -i key.txt dup.age
grep -qx 'age: warning: duplicate identity file "key.txt"' stderr || fail "duplicate -i warning"
expect_quiet "$AGE" -r "$R" -r "$OTHER" -o nodup.age input

check "post-quantum: age1pq1 recipients alone work, mixed with X25519 they are incompatible"
"$PCRYPT" keygen --pq -o pq.txt 2> /dev/null
PQ=$("$PCRYPT" recipient pq.txt)
[[ $PQ == age1pq1* ]] || fail "not a post-quantum recipient: ${PQ:0:20}"
expect_quiet "$AGE" -r "$PQ" -o pq.age input
expect_quiet "$AGE" -d -i pq.txt pq.age > out
same out input
expect_quiet "$AGE" -e -i pq.txt -o pq-self.age input
expect 1 "$AGE" -r "$PQ" -r "$R" -o mixed.age input
expect_age_error 'incompatible'
! exists mixed.age || fail "mixed.age left"
expect 1 "$AGE" -r "$R" -r "$PQ" -o mixed.age input
expect_age_error 'incompatible'

check "threads: PCRYPT_THREADS is the thread count; -j is never one"
head -c 3000000 /dev/urandom > big
PCRYPT_THREADS=1 "$AGE" -r "$R" -o big1.age big 2> stderr || fail "PCRYPT_THREADS=1"
PCRYPT_THREADS=3 "$AGE" -d -i key.txt -o big.out big1.age 2> stderr || fail "PCRYPT_THREADS=3"
same big.out big
expect 1 env PCRYPT_THREADS=many "$AGE" -r "$R" -o bad.age input
expect_age_error 'PCRYPT_THREADS'
expect 1 "$AGE" -d -j 4 -o j.out test.age
! exists j.out || fail "j.out left"

check "plugins: a plugin recipient by -r, its identity by -i, its default identity by -j (age's grammar)"
PLUGINS="$SOURCE_DIR/tests/cli/plugins"
read -r PID PREC < <(python3 "$PLUGINS/age-plugin-pctest" --keygen)
printf '%s\n' "$PID" > plugin-id.txt
PATH="$PLUGINS:$PATH" "$AGE" -r "$PREC" -o plugin.age input 2> stderr || fail "encrypt to a plugin recipient"
[[ ! -s stderr ]] || fail "stderr not empty"
PATH="$PLUGINS:$PATH" "$AGE" -d -i plugin-id.txt plugin.age > out 2> stderr || fail "decrypt with -i"
same out input
[[ ! -s stderr ]] || fail "stderr not empty"
PATH="$PLUGINS:$PATH" PCTEST_DEFAULT_IDENTITY=$PID "$AGE" -d -j pctest -o out-j plugin.age 2> stderr ||
  fail "decrypt with -j pctest"
same out-j input
PATH="$PLUGINS:$PATH" expect 1 "$AGE" -d -j pctest -i key.txt -o out-j2 plugin.age
check "plugins: a plugin that fails where another identity opens the file is a warning on stderr, not data"
PATH="$PLUGINS:$PATH" "$AGE" -r "$PREC" -r "$R" -o both.age input 2> /dev/null
PATH="$PLUGINS:$PATH" PCTEST_MODE=error "$AGE" -d -i plugin-id.txt -i key.txt both.age > out 2> stderr ||
  fail "another identity should open the file"
same out input
grep -q '^age: warning: .*pctest' stderr || fail "no warning about the failed plugin on stderr"
! exists out-j2 || fail "out-j2 left after a failure"

if [[ -n $REAL_AGE ]]; then
  check "interop: Debian's age decrypts what pcrypt-as-age wrote (plain and armored, big), and vice versa"
  "$AGE" -r "$R" -o big.age big 2> /dev/null
  "$REAL_AGE" -d -i key.txt -o big.real big.age || fail "real age could not decrypt"
  same big.real big
  "$REAL_AGE" -d -i key.txt armored.age > out && same out input
  "$REAL_AGE" -d -i id_ed25519 ed25519.age > out && same out input
  "$REAL_AGE" -r "$R" -o from-real.age big
  "$REAL_AGE" -a -R id_rsa.pub -o from-real-rsa.age input
  expect_quiet "$AGE" -d -i key.txt -o from-real.out from-real.age
  same from-real.out big
  expect_quiet "$AGE" -d -i id_rsa from-real-rsa.age > out
  same out input
else
  echo "SKIPPED: interop with Debian's age (not installed)"
fi
echo "all age command-line checks passed"
