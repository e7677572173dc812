#!/usr/bin/env bash
# The age-keygen personality (pcrypt run as age-keygen, or `pcrypt age-keygen`): age 1.3's command line and
# behaviour -- new X25519 and -pq (ML-KEM-768 + X25519) identities to standard output or -o (mode 0600,
# never over an existing file, "Public key:" on stderr when the key does not go to a terminal), -y, Go's flag
# grammar, usage and exit codes, no output left by a failure -- and interop with Debian's real age 1.1.1
# both ways.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

personality age-keygen
keygen=$PWD/age-keygen
mkdir out && cd out
# Files redirected to are private unless a check says otherwise (age warns about world-readable keys).
umask 077

# age_key_lines FILE PREFIX SECRET: FILE is an age key file: created line (RFC 3339), public key, secret.
age_key_lines() {
  [[ $(wc -l < "$1") == 3 ]] || fail "$1 is not three lines: $(cat "$1")"
  sed -n 1p "$1" | finds -E '^# created: 20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9](Z|[+-][0-2][0-9]:[0-5][0-9])$' ||
    fail "$1: no RFC 3339 created line: $(sed -n 1p "$1")"
  sed -n 2p "$1" | finds -E "^# public key: $2[0-9a-z]+\$" || fail "$1: no public key line"
  sed -n 3p "$1" | finds -E "^$3[0-9A-Z]+\$" || fail "$1: no secret key line"
}

check "age-keygen to a pipe: the key on stdout, its public key on stderr as 'Public key: age1...'"
"$keygen" > key.txt 2> stderr
age_key_lines key.txt age1 AGE-SECRET-KEY-1
[[ $(cat stderr) == "Public key: $(sed -n 's/^# public key: //p' key.txt)" ]] || fail "stderr: $(cat stderr)"

check "age-keygen -pq: an age1pq1 / AGE-SECRET-KEY-PQ-1 key, the same way"
"$keygen" -pq > pq.txt 2> stderr
age_key_lines pq.txt age1pq1 AGE-SECRET-KEY-PQ-1
[[ $(cat stderr) == "Public key: $(sed -n 's/^# public key: //p' pq.txt)" ]] || fail "stderr: $(cat stderr)"

check "-o FILE: nothing on stdout, the public key on stderr, the file mode 0600 whatever the umask"
(umask 000 && "$keygen" -pq -o o.txt > stdout 2> stderr)
[[ ! -s stdout ]] || fail "stdout: $(cat stdout)"
age_key_lines o.txt age1pq1 AGE-SECRET-KEY-PQ-1
[[ $(mode_of o.txt) == 600 ]] || fail "mode $(mode_of o.txt)"
grep -qx "Public key: $(sed -n 's/^# public key: //p' o.txt)" stderr || fail "stderr: $(cat stderr)"
"$keygen" --output=o2.txt 2> /dev/null && age_key_lines o2.txt age1 AGE-SECRET-KEY-1

check "-o refuses an existing file (exit 1, age's words) and leaves it as it was"
cp o.txt before
expect 1 "$keygen" -o o.txt
grep -qF 'age-keygen: error: failed to open output file "o.txt"' stderr || fail "stderr: $(cat stderr)"
grep -qF 'file exists' stderr || fail "stderr: $(cat stderr)"
same o.txt before
ln -s nowhere dangling
expect 1 "$keygen" -o dangling
[[ -L dangling && ! -e nowhere ]] || fail "wrote through a dangling link"

check "a key on a terminal: no 'Public key:' line on stderr (age prints it only when stdout is not a terminal)"
python3 - "$keygen" > tty.out 2> tty.err <<'PY'
import os, pty, subprocess, sys
master, slave = pty.openpty()
proc = subprocess.run(sys.argv[1:], stdout=slave, stderr=subprocess.PIPE)
os.close(slave)
shown = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    shown += chunk
sys.stdout.buffer.write(shown)
sys.stderr.buffer.write(proc.stderr)
sys.exit(proc.returncode)
PY
grep -q 'AGE-SECRET-KEY-1' tty.out || fail "the key did not reach the terminal: $(cat tty.out)"
[[ ! -s tty.err ]] || fail "stderr with a terminal: $(cat tty.err)"

check "a secret key written to a world-readable file (stdout redirected, umask 022) gets age's warning"
(umask 022 && "$keygen" > wr.txt 2> stderr)
grep -qx 'age-keygen: warning: writing secret key to a world-readable file' stderr || fail "stderr: $(cat stderr)"
(umask 077 && "$keygen" > private.txt 2> stderr)
grep -q warning stderr && fail "warned for a private file: $(cat stderr)"

check "-y: the recipients of an identity file, from INPUT, '-' or standard input, one a line, no comments"
cat key.txt pq.txt > both.txt
want=$(printf '%s\n' "$(sed -n 's/^# public key: //p' key.txt)" "$(sed -n 's/^# public key: //p' pq.txt)")
[[ $("$keygen" -y both.txt) == "$want" ]] || fail "-y FILE"
[[ $("$keygen" -y < both.txt) == "$want" ]] || fail "-y < FILE"
[[ $("$keygen" -y - < both.txt) == "$want" ]] || fail "-y -"
"$keygen" -y -o rec.txt both.txt 2> stderr
[[ $(cat rec.txt) == "$want" && ! -s stderr ]] || fail "-y -o: $(cat rec.txt) / $(cat stderr)"

check "-y failures: exit 1 with age's words, and no output file left behind"
: > empty.txt
expect 1 "$keygen" -y -o r1.txt empty.txt
grep -qx 'age-keygen: error: no identities found in the input' stderr || fail "stderr: $(cat stderr)"
exists r1.txt && fail "an output was left after a failure"
echo 'AGE-SECRET-KEY-1NOTAKEY' > bad.txt
expect 1 "$keygen" -y -o r2.txt bad.txt
grep -q '^age-keygen: error: failed to parse input: ' stderr || fail "stderr: $(cat stderr)"
exists r2.txt && fail "an output was left after a failure"
expect 1 "$keygen" -y missing.txt
grep -qF 'age-keygen: error: failed to open input file "missing.txt": open missing.txt: no such file or directory' stderr ||
  fail "stderr: $(cat stderr)"

check "argument errors (exit 1): -pq with -y, arguments without -y, two inputs"
expect 1 "$keygen" -pq -y key.txt
grep -qx 'age-keygen: error: -pq cannot be used with -y' stderr || fail "stderr: $(cat stderr)"
expect 1 "$keygen" key.txt
grep -qx 'age-keygen: error: too many arguments' stderr || fail "stderr: $(cat stderr)"
expect 1 "$keygen" -y key.txt pq.txt
grep -qx 'age-keygen: error: too many arguments' stderr || fail "stderr: $(cat stderr)"

check "-help, -h and --help: the usage on stderr, exit 0; a flag not defined or missing its value: exit 2"
for h in -help -h --help; do
  expect 0 "$keygen" "$h" > stdout
  [[ ! -s stdout ]] || fail "$h printed to stdout"
  grep -qx 'Usage:' stderr || fail "$h: no Usage: $(cat stderr)"
  grep -qF 'age-keygen [-pq] [-o OUTPUT]' stderr || fail "$h: no synopsis"
  grep -qF 'age-keygen -y [-o OUTPUT] [INPUT]' stderr || fail "$h: no -y synopsis"
done
expect 2 "$keygen" -x
grep -qx 'flag provided but not defined: -x' stderr || fail "stderr: $(cat stderr)"
grep -qx 'Usage:' stderr || fail "no usage after a bad flag"
expect 2 "$keygen" -o
grep -qx 'flag needs an argument: -o' stderr || fail "stderr: $(cat stderr)"
expect 2 "$keygen" -pq=maybe
grep -qx 'invalid boolean value "maybe" for -pq: parse error' stderr || fail "stderr: $(cat stderr)"
"$keygen" -pq=false > classic.txt 2> /dev/null
age_key_lines classic.txt age1 AGE-SECRET-KEY-1
expect 0 "$keygen" -version > version.txt
[[ -s version.txt && ! -s stderr ]] || fail "-version printed nothing"

check "flags end at the first argument that is not one, or at --"
expect 1 "$keygen" -y key.txt -o late.txt
grep -qx 'age-keygen: error: too many arguments' stderr || fail "stderr: $(cat stderr)"
exists late.txt && fail "-o after INPUT was taken as a flag"
[[ $("$keygen" -y -- key.txt) == $(sed -n 's/^# public key: //p' key.txt) ]] || fail "-y -- FILE"

check "'pcrypt age-keygen' is the same command"
"$PCRYPT" age-keygen -y both.txt > sub.txt
[[ $(cat sub.txt) == "$want" ]] || fail "pcrypt age-keygen -y"
expect 0 "$PCRYPT" age-keygen -help
grep -qx 'Usage:' stderr || fail "pcrypt age-keygen -help"

check "the keys work: pcrypt encrypts to the -y recipients and decrypts with the key files"
head -c 100000 /dev/urandom > plain
# (One file each: age files never mix post-quantum and classical recipients.)
for k in key.txt pq.txt; do
  "$PCRYPT" encrypt --format age -R <("$keygen" -y "$k") plain -o "$k.age"
  "$PCRYPT" decrypt -i "$k" "$k.age" -o "dec.$k" && same "dec.$k" plain
done

require_tools age age-keygen
check "interop: Debian's age encrypts to our keys and decrypts with them; our -y agrees with its -y"
age -r "$(sed -n 's/^# public key: //p' key.txt)" -o real.age plain
age -d -i key.txt real.age > real.out && same real.out plain
[[ $(age-keygen -y key.txt) == $("$keygen" -y key.txt) ]] || fail "age-keygen -y differs on our key"
check "interop: keys made by Debian's age-keygen work with the personality's -y and with pcrypt"
age-keygen -o theirs.txt 2> theirs.err
[[ $("$keygen" -y theirs.txt) == $(age-keygen -y theirs.txt) ]] || fail "-y differs on age-keygen's key"
grep -qx "Public key: $("$keygen" -y theirs.txt)" theirs.err || fail "age-keygen's own Public key line differs"
"$PCRYPT" encrypt --format age -r "$("$keygen" -y theirs.txt)" plain -o to-theirs.age
age -d -i theirs.txt to-theirs.age > theirs.out && same theirs.out plain
echo "all age-keygen checks passed"
