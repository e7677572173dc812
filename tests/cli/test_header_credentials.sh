#!/usr/bin/env bash
# Every command that opens an encrypted file chooses its credentials from the file's header as decrypt does
# (test_friction.sh checks decrypt itself): verify, decrypt --offset/--length, rekey, and decrypt of several
# files, each by its own header, asking for a passphrase at most once. -p on a file without
# a passphrase slot is refused before any prompt (3) naming its slots, and ignored with a warning when -k is
# given too; a passphrase-only file and no credential asks for the passphrase on a terminal, and a file with a
# key-file slot never does.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen -o key
"$PCRYPT" keygen -o key2
printf 'secret\n' > s.txt
printf 'pw\n' > pw.txt
"$PCRYPT" encrypt -k key s.txt -o keyonly.pcrypt
"$PCRYPT" encrypt --passphrase-file pw.txt "${CHEAP_KDF[@]}" s.txt -o pwonly.pcrypt
cp keyonly.pcrypt keyonly.orig

# Without a controlling terminal a passphrase prompt fails at once (exit 2) instead of waiting, so a command
# that exits 3 below did not try to ask.
no_terminal=()
command -v setsid > /dev/null && no_terminal=(setsid -w)

# command_line NAME: sets `run` to the command NAME opens a file with (the file and credentials follow) and
# `made` to the file it writes on success ("" for none).
command_line() {
  case $1 in
    verify) run=("$PCRYPT" verify) made= ;;
    range) run=("$PCRYPT" decrypt --offset 1 --length 3 -o part) made=part ;;
    rekey) run=("$PCRYPT" rekey --add-key key2 -o rekeyed.pcrypt) made=rekeyed.pcrypt ;;
  esac
}

# made_right NAME: the output of a successful NAME is what it should be.
made_right() {
  case $1 in
    range) [[ $(cat part) == ecr ]] || fail "range: wrong bytes" ;;
    rekey) "$PCRYPT" decrypt -k key2 rekeyed.pcrypt -o - | cmp -s - s.txt || fail "rekey: key2 does not open it" ;;
  esac
  rm -f part rekeyed.pcrypt
}

for name in verify range rekey; do
  command_line "$name"
  check "$name: -p on a file without a passphrase slot -> 3 naming its slots, before any prompt"
  expect 3 "${no_terminal[@]}" "${run[@]}" -p keyonly.pcrypt < /dev/null
  expect_one_error "keyonly.pcrypt has no passphrase slot, only 1 key-file slot: -p cannot open it"
  [[ -z $made ]] || ! exists "$made" || fail "$name: $made created"
  check "$name: ... also when the passphrase is at hand (environment, file, standard input)"
  expect 3 env PCRYPT_PASSPHRASE=pw "${run[@]}" -p keyonly.pcrypt
  expect_one_error "keyonly.pcrypt has no passphrase slot"
  expect 3 "${run[@]}" --passphrase-file pw.txt keyonly.pcrypt
  expect_one_error "keyonly.pcrypt has no passphrase slot"
  if [[ $name != rekey ]]; then
    expect 3 env PCRYPT_PASSPHRASE=pw "${run[@]}" -p < keyonly.pcrypt
    expect_one_error "standard input has no passphrase slot"
  fi
  same keyonly.pcrypt keyonly.orig

  check "$name: -p with -k on such a file: -p is ignored with a warning"
  expect 0 "${no_terminal[@]}" "${run[@]}" -p -k key keyonly.pcrypt < /dev/null
  grep -qF "keyonly.pcrypt has no passphrase slot; -p ignored" stderr || fail "$name: no warning"
  made_right "$name"

  check "$name: a passphrase-only file opens with --passphrase-file (sharing standard input with the data)"
  if [[ $name == rekey ]]; then
    expect 0 "${run[@]}" --passphrase-file pw.txt pwonly.pcrypt
  else
    { cat pw.txt pwonly.pcrypt; } | "${run[@]}" --passphrase-file - 2> stderr ||
      fail "$name: passphrase and data on one standard input failed"
  fi
  made_right "$name"
  check "$name: a passphrase-only file and no credential, no terminal -> 2 naming its slots"
  expect 2 "${no_terminal[@]}" "${run[@]}" pwonly.pcrypt < /dev/null
  expect_one_error "no key given"
done

check "rekey --new-file-key with -k and an ignored -p: no passphrase slot in the result"
expect 0 "$PCRYPT" rekey --new-file-key -k key --passphrase-file pw.txt keyonly.pcrypt -o renewed.pcrypt
grep -qF "no passphrase slot; -p ignored" stderr || fail "no warning"
[[ $("$PCRYPT" info renewed.pcrypt | grep -c '^slot [0-9]*: ') == 1 ]] || fail "expected 1 slot"
"$PCRYPT" decrypt -k key renewed.pcrypt -o - | cmp -s - s.txt || fail "key does not open the new file"

# Several files in one decrypt: each file's own header decides, as for one file.
cp keyonly.pcrypt k1.txt.pcrypt
cp pwonly.pcrypt p1.txt.pcrypt
cp pwonly.pcrypt p2.txt.pcrypt
check "decrypt -p of several files: the one without a passphrase slot is refused (3) naming its slots"
expect 3 env PCRYPT_PASSPHRASE=pw "$PCRYPT" decrypt -p k1.txt.pcrypt p1.txt.pcrypt
expect_one_error "k1.txt.pcrypt has no passphrase slot, only 1 key-file slot: -p cannot open it"
! exists k1.txt || fail "k1.txt created"
same p1.txt s.txt
rm p1.txt
check "decrypt -p -k of several files: -p ignored with a warning where it cannot open, both decrypted"
expect 0 "$PCRYPT" decrypt -p -k key --passphrase-file pw.txt k1.txt.pcrypt p1.txt.pcrypt
grep -qF "k1.txt.pcrypt has no passphrase slot; -p ignored" stderr || fail "no warning"
same k1.txt s.txt
same p1.txt s.txt
rm k1.txt p1.txt

# on_terminal COMMAND: runs the shell command COMMAND on a pseudo-terminal (script(1)), typing "pw" once it
# asks for a passphrase. Its status is COMMAND's; 99 when it ended without asking. The typescript stays.
on_terminal() {
  local pid asked=1 status=0
  rm -f typescript answers
  mkfifo answers
  script -qefc "$1" typescript < answers > /dev/null 2>&1 &
  pid=$!
  exec 4> answers
  for _ in $(seq 600); do
    grep -qF "Passphrase:" typescript 2> /dev/null && break
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.05
  done
  grep -qF "Passphrase:" typescript 2> /dev/null || asked=0
  ((asked)) && printf 'pw\n' >&4
  exec 4>&-
  wait "$pid" || status=$?
  ((asked)) || return 99
  return "$status"
}

if command -v script > /dev/null && script -qec true /dev/null > /dev/null 2>&1; then
  for name in verify range rekey; do
    command_line "$name"
    check "$name: a passphrase-only file and no credential on a terminal: the passphrase is asked for"
    status=0
    on_terminal "$(printf '%q ' "${run[@]}") pwonly.pcrypt" || status=$?
    [[ $status != 99 ]] || fail "$name: no passphrase prompt"
    [[ $status == 0 ]] || fail "$name with the asked passphrase exited $status"
    made_right "$name"
    check "$name: ... but a file with a key-file slot is not asked for, on a terminal either"
    script -qefc "$(printf '%q ' "${run[@]}") keyonly.pcrypt" typescript < /dev/null > /dev/null 2>&1 &&
      fail "$name without a credential succeeded"
    grep -qF "keyonly.pcrypt has 1 key-file slot" typescript || fail "$name: the error does not name the slots"
    ! grep -qF "Passphrase:" typescript || fail "$name asked for a passphrase the file cannot take"
    check "$name: -p on that file on a terminal: refused without a prompt"
    script -qefc "$(printf '%q ' "${run[@]}") -p keyonly.pcrypt" typescript < /dev/null > /dev/null 2>&1 &&
      fail "$name -p succeeded"
    grep -qF "no passphrase slot" typescript || fail "$name -p: the error does not name the slots"
    ! grep -qF "Passphrase:" typescript || fail "$name -p asked for a passphrase the file cannot take"
  done
  check "decrypt -p of several files on a terminal: the passphrase is asked for once, when first needed"
  status=0
  on_terminal "$(printf '%q ' "$PCRYPT") decrypt -p k1.txt.pcrypt p1.txt.pcrypt p2.txt.pcrypt" || status=$?
  [[ $status != 99 ]] || fail "no passphrase prompt"
  [[ $status == 3 ]] || fail "expected 3 (k1 refused), got $status"
  [[ $(grep -o "Passphrase:" typescript | wc -l) == 1 ]] || fail "asked more than once"
  grep -qF "k1.txt.pcrypt has no passphrase slot" typescript || fail "k1: the error does not name the slots"
  ! exists k1.txt || fail "k1.txt created"
  same p1.txt s.txt
  same p2.txt s.txt
else
  echo "SKIPPED: terminal checks need script(1) from util-linux"
fi
same keyonly.pcrypt keyonly.orig
