#!/usr/bin/env bash
# Passphrases: from PCRYPT_PASSPHRASE, from --passphrase-file, mixed with key files, KDF cost options and
# ceilings, refusals (empty, no terminal), and that the passphrase never has to be on the command line.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

head -c 50000 /dev/urandom > plain
"$PCRYPT" keygen -o key

check "PCRYPT_PASSPHRASE round trip; the file records the cheap KDF settings"
PCRYPT_PASSPHRASE='correct horse' "$PCRYPT" encrypt -p "${CHEAP_KDF[@]}" plain -o env.pcrypt
PCRYPT_PASSPHRASE='correct horse' "$PCRYPT" decrypt -p env.pcrypt -o env.out
same env.out plain
"$PCRYPT" info env.pcrypt > info.txt
grep -q 'passphrase' info.txt || fail "info does not show a passphrase slot"
grep -Eq '64 KiB|65536' info.txt || fail "info does not show the 64 KiB Argon2id memory"

check "wrong passphrase -> 3, no output"
expect 3 env PCRYPT_PASSPHRASE='wrong horse' "$PCRYPT" decrypt -p env.pcrypt -o out
expect_one_error "env.pcrypt"
! exists out || fail "out exists after a wrong passphrase"

check "--passphrase-file: first line, newline (and CRLF) not part of it; implies -p"
printf 'correct horse\n' > pass.txt
"$PCRYPT" decrypt --passphrase-file pass.txt env.pcrypt -o file.out
same file.out plain
printf 'correct horse\r\nsecond line ignored\n' > pass-crlf.txt
"$PCRYPT" decrypt -p --passphrase-file pass-crlf.txt env.pcrypt -o crlf.out
same crlf.out plain
"$PCRYPT" encrypt --passphrase-file pass.txt "${CHEAP_KDF[@]}" plain -o pf.pcrypt
PCRYPT_PASSPHRASE='correct horse' "$PCRYPT" decrypt -p pf.pcrypt -o pf.out
same pf.out plain

check "--passphrase-file wins over PCRYPT_PASSPHRASE (explicit beats ambient)"
PCRYPT_PASSPHRASE='wrong horse' "$PCRYPT" decrypt --passphrase-file pass.txt env.pcrypt -o win.out
same win.out plain

check "key file and passphrase in one file: either opens it"
PCRYPT_PASSPHRASE='both' "$PCRYPT" encrypt -k key -p "${CHEAP_KDF[@]}" plain -o mixed.pcrypt
"$PCRYPT" info mixed.pcrypt | finds -F 'key slots: 2' || fail "mixed file does not have 2 slots"
"$PCRYPT" decrypt -k key mixed.pcrypt -o m1
PCRYPT_PASSPHRASE='both' "$PCRYPT" decrypt -p mixed.pcrypt -o m2
same m1 plain
same m2 plain
check "decrypt with several credentials: the one that fits opens it"
"$PCRYPT" keygen -o other
PCRYPT_PASSPHRASE='correct horse' "$PCRYPT" decrypt -k other -p env.pcrypt -o m3
same m3 plain

check "empty passphrase refused (env and file) -> 2"
expect 2 env PCRYPT_PASSPHRASE= "$PCRYPT" encrypt -p "${CHEAP_KDF[@]}" plain -o x.pcrypt
expect_one_error "empty"
: > empty.txt
expect 2 "$PCRYPT" encrypt --passphrase-file empty.txt "${CHEAP_KDF[@]}" plain -o x.pcrypt
printf '\n' > newline.txt
expect 2 "$PCRYPT" encrypt --passphrase-file newline.txt "${CHEAP_KDF[@]}" plain -o x.pcrypt
! exists x.pcrypt || fail "x.pcrypt created with an empty passphrase"

check "missing passphrase file -> 1"
expect 1 "$PCRYPT" encrypt --passphrase-file nope.txt plain -o x.pcrypt

check "no terminal to prompt on -> 2 with a hint (setsid: no controlling terminal)"
if command -v setsid > /dev/null; then
  expect 2 setsid -w "$PCRYPT" encrypt -p plain -o x.pcrypt < /dev/null
  expect_one_error "terminal"
  grep -q 'hint: .*PCRYPT_PASSPHRASE' stderr || fail "no hint about PCRYPT_PASSPHRASE"
  ! exists x.pcrypt || fail "x.pcrypt created"
else
  echo "SKIPPED: needs setsid(1) from util-linux"
fi

check "terminal prompt: asked twice without echo; a mismatch -> 2"
if command -v script > /dev/null && script -qec true /dev/null > /dev/null 2>&1; then
  # Drives `pcrypt encrypt -p` on a pseudo-terminal: answers each prompt once it has appeared in the
  # typescript (pcrypt turns echo off before printing a prompt, so nothing typed can be lost or shown).
  prompt_run() {  # prompt_run OUTFILE ANSWER1 ANSWER2
    rm -f typescript answers
    mkfifo answers
    script -qefc "'$PCRYPT' encrypt -p ${CHEAP_KDF[*]} plain -o $1" typescript < answers > /dev/null 2>&1 &
    local pid=$! rc=0
    exec 4> answers
    wait_for_text() {
      wait_until grep -qF "$1" typescript 2> /dev/null || fail "prompt '$1' never appeared"
    }
    wait_for_text "Enter passphrase:"
    printf '%s\n' "$2" >&4
    wait_for_text "Confirm passphrase:"
    printf '%s\n' "$3" >&4
    wait "$pid" || rc=$?
    exec 4>&-
    rm -f answers
    return "$rc"
  }
  prompt_run tty.pcrypt 'typed secret' 'typed secret' || fail "encrypt with a prompted passphrase failed"
  ! grep -qF 'typed secret' typescript || fail "the passphrase was echoed"
  PCRYPT_PASSPHRASE='typed secret' "$PCRYPT" decrypt -p tty.pcrypt -o tty.out
  same tty.out plain
  rc=0
  prompt_run mismatch.pcrypt 'one thing' 'another' || rc=$?
  [[ $rc == 2 ]] || fail "mismatched passphrases exited $rc, expected 2"
  grep -q 'do not match' typescript || fail "no message about the mismatch"
  ! exists mismatch.pcrypt || fail "mismatch.pcrypt created"
  rm -f typescript
else
  echo "SKIPPED: terminal prompt checks need script(1) from util-linux"
fi

check "there is no option that takes the passphrase itself"
expect 2 "$PCRYPT" encrypt --passphrase 'secret' plain -o x.pcrypt

check "KDF options: bad values -> 2; above the decrypt ceiling -> 3 unless raised"
expect 2 env PCRYPT_PASSPHRASE=a "$PCRYPT" encrypt -p --kdf-memory 4KiB plain -o x.pcrypt
expect 2 env PCRYPT_PASSPHRASE=a "$PCRYPT" encrypt -p --kdf-memory lots plain -o x.pcrypt
expect 2 env PCRYPT_PASSPHRASE=a "$PCRYPT" encrypt -p --kdf-ops 0 plain -o x.pcrypt
PCRYPT_PASSPHRASE=a "$PCRYPT" encrypt -p --kdf-memory 1MiB --kdf-ops 3 plain -o costly.pcrypt
expect 3 env PCRYPT_PASSPHRASE=a "$PCRYPT" decrypt -p --max-kdf-memory 512KiB costly.pcrypt -o out
expect_one_error "costly.pcrypt"
! exists out || fail "out created above the ceiling"
expect 3 env PCRYPT_PASSPHRASE=a "$PCRYPT" decrypt -p --max-kdf-ops 2 costly.pcrypt -o out
PCRYPT_PASSPHRASE=a "$PCRYPT" decrypt -p --max-kdf-memory 1MiB --max-kdf-ops 3 costly.pcrypt -o out
same out plain

echo "all passphrase checks passed"
