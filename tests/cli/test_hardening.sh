#!/usr/bin/env bash
# Regression tests for the safety defects of issue 11 (edges of the command line that lost data or wrote
# where they must not). One function per defect, numbered as in the issue; ONLY=N runs just defect N (to
# check a single test against an older binary).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen -o key
head -c 300000 /dev/urandom > plain

# 1. -o /dev/stdout (and /dev/stderr, /dev/fd/N, /proc/self/fd/N) writes to that descriptor; -f never renames a
# file over a link into /dev or /proc. The checks on links of our own come first: against a binary with the
# bug, the test fails there, before it could replace the real /dev/stdout.
defect_1() {
  check "1: -f refuses to replace a symlink into /proc or /dev (it used to turn it into a file)"
  ln -s /proc/self/fd/1 to-proc
  ln -s /dev/stdout to-dev
  local link
  for link in to-proc to-dev; do
    expect 1 "$PCRYPT" encrypt -f -k key plain -o "$link" > out.pcrypt
    expect_one_error "refusing to replace a symlink into /dev or /proc ($link)"
    [[ -L $link ]] || fail "$link was replaced"
    [[ ! -s out.pcrypt ]] || fail "output written although refused"
    expect 1 "$PCRYPT" keygen -f -o "$link" > out.key
    [[ -L $link ]] || fail "keygen replaced $link"
  done
  rm to-proc to-dev out.pcrypt out.key

  check "1: -o /dev/stdout, /dev/fd/1, /proc/self/fd/1 write to standard output, without -f"
  local path
  for path in /dev/stdout /dev/fd/1 /proc/self/fd/1; do
    expect 0 "$PCRYPT" encrypt -k key plain -o "$path" > out.pcrypt
    "$PCRYPT" decrypt -k key out.pcrypt -o "$path" > back
    same back plain
    rm out.pcrypt back
  done
  check "1: -o /dev/stderr and -o /dev/fd/3 write to that descriptor"
  "$PCRYPT" encrypt -k key plain -o /dev/stderr 2> err.pcrypt > /dev/null
  "$PCRYPT" decrypt -k key err.pcrypt -o back
  same back plain
  rm back
  "$PCRYPT" decrypt -k key err.pcrypt -o /dev/fd/3 3> three > /dev/null
  same three plain
  "$PCRYPT" keygen -o /proc/self/fd/3 3> key3
  "$PCRYPT" encrypt -k key3 plain -o - | "$PCRYPT" decrypt -k key3 -o back
  same back plain
  rm err.pcrypt three key3 back
  check "1: an input descriptor path is read as that descriptor, and the output defaults to standard output"
  for path in /dev/fd/0 /proc/self/fd/0 /dev/stdin; do
    expect 0 "$PCRYPT" encrypt -k key "$path" < plain > out.pcrypt
    expect 0 "$PCRYPT" decrypt -k key "$path" < out.pcrypt > back
    same back plain
    rm out.pcrypt back
  done
  "$PCRYPT" encrypt -k key plain -o plain.pcrypt
  "$PCRYPT" decrypt -k key /dev/fd/5 -o back 5< plain.pcrypt
  same back plain
  { printf 'pass word\n'; cat plain; } > combined
  "$PCRYPT" encrypt "${CHEAP_KDF[@]}" --passphrase-file - /dev/stdin < combined > shared.pcrypt
  PCRYPT_PASSPHRASE="pass word" "$PCRYPT" decrypt -p shared.pcrypt -o back2
  same back2 plain
  expect 1 "$PCRYPT" decrypt -k key /dev/fd/8 -o out
  expect_one_error "descriptor 8 is not open"
  ! exists out || fail "out created"
  rm plain.pcrypt back back2 combined shared.pcrypt
  check "1: a descriptor that is not open (or read-only) is an error, and nothing is created"
  expect 1 "$PCRYPT" encrypt -k key plain -o /dev/fd/7
  expect_one_error "descriptor 7 is not open"
  expect 1 "$PCRYPT" encrypt -k key plain -o /dev/fd/7 7< key
  expect_one_error "descriptor 7 is open for reading only"
  check "1: the input as descriptor output is still refused"
  cp plain victim
  expect 1 "$PCRYPT" encrypt -k key victim -o /dev/fd/4 4>> victim
  expect_one_error "refusing to write over the input"
  same victim plain
  rm victim
  only_these_files key plain

  check "1: -f -o /dev/stdout (encrypt, decrypt, keygen) writes to standard output; /dev/stdout stays a link"
  if [[ -L /dev/stdout ]]; then
    expect 0 "$PCRYPT" encrypt -f -k key plain -o /dev/stdout > out.pcrypt
    [[ -L /dev/stdout ]] || fail "/dev/stdout was replaced"
    expect 0 "$PCRYPT" decrypt -f -k key out.pcrypt -o /dev/stdout > back
    same back plain
    expect 0 "$PCRYPT" keygen -f -o /dev/stdout > key2
    "$PCRYPT" encrypt -k key2 plain -o - | "$PCRYPT" decrypt -k key2 -o - > back2
    same back2 plain
    [[ -L /dev/stdout ]] || fail "/dev/stdout was replaced"
    rm out.pcrypt back key2 back2
  else
    echo "SKIPPED: /dev/stdout is not a symlink here"
  fi
  only_these_files key plain
}

# 2. A passphrase from a pipe or standard input is read up to its newline only: the data after it is the
# data (as with gpg --passphrase-fd 0), not silently swallowed.
defect_2() {
  local source
  for source in /dev/stdin -; do
    check "2: { echo pw; cat data; } | encrypt --passphrase-file $source: the data is all there"
    { echo "pass word"; cat plain; } | "$PCRYPT" encrypt "${CHEAP_KDF[@]}" --passphrase-file "$source" \
      -o shared.pcrypt
    PCRYPT_PASSPHRASE="pass word" "$PCRYPT" decrypt -p shared.pcrypt -o back
    same back plain
    rm back
    check "2: { echo pw; cat data.pcrypt; } | decrypt --passphrase-file $source"
    { echo "pass word"; cat shared.pcrypt; } | "$PCRYPT" decrypt --passphrase-file "$source" -o back
    same back plain
    rm back shared.pcrypt
  done
  check "2: standard input redirected from one regular file holding passphrase and data"
  { printf 'pass word\r\n'; cat plain; } > combined
  "$PCRYPT" encrypt "${CHEAP_KDF[@]}" --passphrase-file /dev/stdin -o shared.pcrypt < combined
  PCRYPT_PASSPHRASE="pass word" "$PCRYPT" decrypt -p shared.pcrypt -o back
  same back plain
  rm back combined
  check "2: a passphrase from a pipe by name (process substitution) leaves nothing behind"
  "$PCRYPT" decrypt --passphrase-file <(printf 'pass word\nnot part of it\n') shared.pcrypt -o back
  same back plain
  check "2: passphrase from a closed standard input"
  expect 1 "$PCRYPT" decrypt --passphrase-file - shared.pcrypt -o out <&-
  expect_one_error "standard input is closed"
  ! exists out || fail "out created"
  rm back shared.pcrypt
  only_these_files key plain
}

# 3. A closed standard input/output is reported, never replaced by the first file pcrypt opens.
defect_3() {
  check "3: encrypt/decrypt/info with stdin closed: 'standard input is closed', exit 1, no output"
  expect 1 "$PCRYPT" encrypt -k key -o o.pcrypt <&-
  expect_one_error "standard input is closed"
  ! exists o.pcrypt || fail "o.pcrypt created from a closed stdin"
  "$PCRYPT" encrypt -k key plain -o plain.pcrypt
  expect 1 "$PCRYPT" decrypt -k key -o out <&-
  expect_one_error "standard input is closed"
  ! exists out || fail "out created from a closed stdin"
  expect 1 "$PCRYPT" info <&-
  expect_one_error "standard input is closed"
  check "3: a closed stdin does not matter when the data comes from a file"
  expect 0 "$PCRYPT" decrypt -k key plain.pcrypt -o out <&-
  same out plain
  rm out
  check "3: output to a closed stdout: 'standard output is closed', exit 1"
  expect 1 "$PCRYPT" encrypt -k key plain -o - >&-
  expect_one_error "standard output is closed"
  expect 1 "$PCRYPT" decrypt -k key plain.pcrypt -o - >&-
  expect_one_error "standard output is closed"
  expect 1 "$PCRYPT" keygen >&-
  expect_one_error "standard output is closed"
  check "3: with stderr closed, nothing lands in the output"
  "$PCRYPT" -v encrypt -k key -o quiet.pcrypt < plain 2>&-
  "$PCRYPT" decrypt -k key quiet.pcrypt -o out
  same out plain
  [[ $(stat -c %s quiet.pcrypt) == $(stat -c %s plain.pcrypt) ]] || fail "quiet.pcrypt has a stray size"
  rm out quiet.pcrypt plain.pcrypt
  only_these_files key plain
}

# 4. Terminal checks apply to paths too: -o /dev/tty gets no ciphertext without -f, and decrypt/info do not
# read a terminal given as the input path. script(1) gives the command a pseudo-terminal as its controlling
# terminal (/dev/tty) and as stdin/stdout/stderr; -e returns the command's exit status.
on_tty() { # on_tty LOG CMD: runs the shell command CMD on a pseudo-terminal, its output in LOG
  local log=$1
  shift
  timeout 20 script -qec "$1" /dev/null > "$log" 2>&1 < /dev/null
}
defect_4() {
  if ! command -v script > /dev/null || ! script -qec true /dev/null > /dev/null 2>&1 < /dev/null; then
    echo "SKIPPED: defect 4 (terminal paths) needs script(1) from util-linux and a pseudo-terminal"
    return 0
  fi
  "$PCRYPT" encrypt -k key plain -o plain.pcrypt
  local path rc
  for path in /dev/tty /dev/stdout /dev/stderr /dev/fd/1; do
    check "4: encrypt -o $path on a terminal: refused (exit 1) without -f"
    rc=0
    on_tty tty.log "'$PCRYPT' encrypt -k key plain -o $path" || rc=$?
    [[ $rc == 1 ]] || { head -c 400 tty.log | cat -v; fail "encrypt -o $path to a terminal exited $rc, expected 1"; }
    grep -qF "refusing to write encrypted data to a terminal ($path)" tty.log ||
      { head -c 400 tty.log | cat -v; fail "no message about the terminal"; }
    [[ $(wc -c < tty.log) -lt 1000 ]] || fail "ciphertext reached the terminal"
  done
  check "4: -f insists; -o - stays the explicit way to the terminal"
  on_tty tty.log "'$PCRYPT' encrypt -f -k key plain -o /dev/tty" || fail "encrypt -f -o /dev/tty failed"
  on_tty tty.log "'$PCRYPT' encrypt -k key plain -o -" || fail "encrypt -o - to a terminal failed"
  check "4: decrypted (plain) output to -o /dev/tty is allowed, as to standard output"
  echo "hello terminal" > text
  "$PCRYPT" encrypt -k key text -o text.pcrypt
  on_tty tty.log "'$PCRYPT' decrypt -k key text.pcrypt -o /dev/tty" || fail "decrypt -o /dev/tty failed"
  grep -q "hello terminal" tty.log || fail "the plaintext did not reach the terminal"
  check "4: decrypt and info refuse a terminal given as the input path"
  for path in /dev/tty /dev/stdin; do
    rc=0
    on_tty tty.log "'$PCRYPT' decrypt -k key $path -o out" || rc=$?
    [[ $rc == 1 ]] || { head -c 400 tty.log | cat -v; fail "decrypt $path (a terminal) exited $rc, expected 1"; }
    grep -qF "refusing to read encrypted data from a terminal ($path)" tty.log ||
      { head -c 400 tty.log | cat -v; fail "no message about the terminal"; }
    ! exists out || fail "out created"
    rc=0
    on_tty tty.log "'$PCRYPT' info $path" || rc=$?
    [[ $rc == 1 ]] || { head -c 400 tty.log | cat -v; fail "info $path (a terminal) exited $rc, expected 1"; }
  done
  rm -f tty.log text text.pcrypt plain.pcrypt
  only_these_files key plain
}

# 5. Output names of 237-255 bytes are legal and must work (the temporary's name used to add 19 bytes), and
# where the file system has O_TMPFILE a SIGKILL leaves no hidden plaintext/ciphertext prefix behind.
defect_5() {
  local long248 long255
  long255=$(printf 'n%.0s' {1..255})
  long248=$(printf 'i%.0s' {1..248})
  check "5: encrypt/decrypt/keygen to a 255-byte output name"
  expect 0 "$PCRYPT" encrypt -k key plain -o "$long255"
  "$PCRYPT" decrypt -k key "$long255" -o back
  same back plain
  [[ $(mode_of "$long255") == 600 ]] || fail "the output is not 0600"
  check "5: -f over an existing 255-byte name; no -f refuses it"
  expect 1 "$PCRYPT" encrypt -k key plain -o "$long255"
  expect_one_error "output file exists"
  expect 0 "$PCRYPT" encrypt -f -k key plain -o "$long255"
  "$PCRYPT" decrypt -k key "$long255" -o - > back
  same back plain
  rm "$long255" back
  expect 0 "$PCRYPT" keygen -o "$long255"
  "$PCRYPT" encrypt -k "$long255" plain -o - | "$PCRYPT" decrypt -k "$long255" -o back
  same back plain
  rm "$long255" back
  check "5: the default output name of a 248-byte input is 255 bytes"
  cp plain "$long248"
  expect 0 "$PCRYPT" encrypt -k key "$long248"
  rm "$long248"
  expect 0 "$PCRYPT" decrypt -k key "$long248.pcrypt"
  same "$long248" plain
  rm "$long248" "$long248.pcrypt"
  only_these_files key plain

  check "5: SIGKILL in the middle of an encrypt leaves no temporary (where O_TMPFILE is supported)"
  if ! python3 -c 'import os; os.close(os.open(".", os.O_TMPFILE | os.O_WRONLY, 0o600))' 2> /dev/null; then
    echo "SKIPPED: this file system has no O_TMPFILE (the named temporary is removed on SIGINT/TERM/HUP only)"
    return 0
  fi
  killed_mid_write KILL /dev/urandom slow.pcrypt "$PCRYPT" encrypt -k key -o slow.pcrypt
  only_these_files key plain
}

# 6. "Same file as the input" is about regular files: /dev/null or one socket on both sides is not a clash.
defect_6() {
  check "6: </dev/null >/dev/null and /dev/null -o /dev/null are not 'write over the input'"
  expect 0 "$PCRYPT" encrypt -k key < /dev/null > /dev/null
  [[ ! -s stderr ]] || fail "encrypt </dev/null >/dev/null printed: $(cat stderr)"
  expect 0 "$PCRYPT" encrypt -k key /dev/null -o /dev/null
  expect 0 "$PCRYPT" encrypt -k key - -o - < /dev/null > /dev/null
  # Decrypting nothing is a header error (exit 3), not a refusal (exit 1).
  expect 3 "$PCRYPT" decrypt -k key < /dev/null > /dev/null
  check "6: one socket as both standard input and standard output"
  python3 - "$PCRYPT" <<'PY' || fail "encrypt over one socket failed"
import socket, subprocess, sys
pcrypt = sys.argv[1]
ours, theirs = socket.socketpair()
proc = subprocess.Popen([pcrypt, "encrypt", "-k", "key"], stdin=theirs, stdout=theirs, stderr=open("stderr", "w"))
theirs.close()
ours.sendall(open("plain", "rb").read())
ours.shutdown(socket.SHUT_WR)
data = b""
while chunk := ours.recv(1 << 16):
    data += chunk
sys.exit(proc.wait() or (0 if open("sock.pcrypt", "wb").write(data) else 1))
PY
  "$PCRYPT" decrypt -k key sock.pcrypt -o back
  same back plain
  rm sock.pcrypt back
  check "6: a regular file as both is still refused"
  cp plain victim
  expect 1 "$PCRYPT" encrypt -k key < victim >> victim
  expect_one_error "refusing to write over the input"
  same victim plain
  rm victim
  only_these_files key plain
}

# 7. An empty option value is a usage error, not "the default".
defect_7() {
  check "7: empty option values are refused with exit 2"
  # "option as typed|name in the message" (CLI11 names an option by its long form).
  local pair opt
  for pair in "-j|--threads" "--threads|--threads" "--chunk-size|--chunk-size" "-o|--output" \
    "--output|--output" "--engine|--engine" "--kdf-memory|--kdf-memory" "--kdf-ops|--kdf-ops" \
    "--passphrase-file|--passphrase-file"; do
    opt=${pair%|*}
    expect 2 "$PCRYPT" encrypt -k key plain "$opt" ''
    expect_one_error "${pair#*|}: empty value"
    ! exists plain.pcrypt || fail "plain.pcrypt created by $opt ''"
  done
  "$PCRYPT" encrypt -k key plain -o plain.pcrypt
  for opt in -j --max-kdf-memory --max-kdf-ops -o; do
    expect 2 "$PCRYPT" decrypt -k key plain.pcrypt "$opt" ''
    expect_one_error "empty value"
  done
  expect 2 "$PCRYPT" keygen -o ''
  expect_one_error "empty value"
  expect 2 "$PCRYPT" encrypt -k '' plain -o out
  expect_one_error "empty value"
  expect 2 "$PCRYPT" encrypt -k key '' -o out
  expect_one_error "empty value"
  ! exists out || fail "out created"
  rm plain.pcrypt
  only_these_files key plain
}

# 8. --kdf-memory that is not a whole number of KiB says so (it used to say "out of range").
defect_8() {
  check "8: --kdf-memory that is not a whole number of KiB is named as such"
  local value
  for value in 9000 1MB; do
    expect 2 "$PCRYPT" encrypt -p plain -o out --kdf-memory "$value"
    expect_one_error "--kdf-memory $value is not a whole number of KiB"
    ! grep -q 'out of range' stderr || fail "still says 'out of range' for $value"
    expect 2 "$PCRYPT" decrypt -p plain -o out --max-kdf-memory "$value"
    expect_one_error "--max-kdf-memory $value is not a whole number of KiB"
  done
  expect 2 "$PCRYPT" encrypt -p plain -o out --kdf-memory 1
  expect_one_error "--kdf-memory 1 is not a whole number of KiB (1 byte)" # counted in English, not "1 bytes"
  expect 2 "$PCRYPT" encrypt -p plain -o out --kdf-memory 4KiB
  expect_one_error "--kdf-memory 4KiB is below the minimum of 8 KiB"
  expect 2 "$PCRYPT" encrypt -p plain -o out --kdf-memory 5000GiB
  expect_one_error "--kdf-memory 5000GiB is above the maximum"
  ! exists out || fail "out created"
}

# 9. The same key given twice (also through a symlink, a hard link or a copy) is one slot, with one warning.
defect_9() {
  check "9: -k k -k k writes one slot and warns once"
  ln -s key key-symlink
  ln key key-hardlink
  cp key key-copy
  "$PCRYPT" keygen -o other
  local variant
  for variant in key key-symlink key-hardlink key-copy; do
    expect 0 "$PCRYPT" encrypt -k key -k "$variant" plain -o out.pcrypt
    [[ $(wc -l < stderr) == 1 ]] || fail "expected one warning for -k key -k $variant"
    grep -q '^pcrypt: .*key.*; using it once$' stderr || fail "not the warning about a repeated key"
    "$PCRYPT" info out.pcrypt > info.txt
    grep -qx 'key slots: 1' info.txt || fail "-k key -k $variant wrote $(grep 'key slots' info.txt)"
    "$PCRYPT" decrypt -k "$variant" out.pcrypt -o back
    same back plain
    rm out.pcrypt back
  done
  check "9: three times the same key: still one warning; different keys: no warning"
  expect 0 "$PCRYPT" encrypt -k key -k key-copy -k other -k key plain -o out.pcrypt
  [[ $(wc -l < stderr) == 1 ]] || fail "expected one warning for three copies of one key"
  grep -qx 'pcrypt: key files key and key-copy hold the same key; using it once' stderr ||
    fail "the warning does not name both files"
  "$PCRYPT" info out.pcrypt | finds -x 'key slots: 2' || fail "expected two slots (key, other)"
  expect 0 "$PCRYPT" decrypt -k key -k key-symlink out.pcrypt -o back
  same back plain
  rm out.pcrypt back
  expect 0 "$PCRYPT" encrypt -k key -k other plain -o out.pcrypt
  [[ ! -s stderr ]] || fail "different keys warned: $(cat stderr)"
  rm out.pcrypt info.txt key-symlink key-hardlink key-copy other
  only_these_files key plain
}

for n in 1 2 3 4 5 6 7 8 9; do
  if [[ -z ${ONLY:-} || ${ONLY:-} == "$n" ]]; then "defect_$n"; fi
done
echo "all hardening checks passed"
