#!/usr/bin/env bash
# The friction items of issue 11: pcrypt's own parse errors with suggestions, `help`, -V, credential hints,
# the exit-code table, credentials chosen from the header, progress and output permissions; and of issue 27's
# first day: the quick start's packages, teams beyond 255, revoking one member with public keys only, info's
# long slot fields. ONLY=NAME runs one group (errors, help, credentials, header, permissions, progress, start,
# teams, revoke, info).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen -o key
printf 'secret\n' > s.txt

want() { [[ -z ${ONLY:-} || $ONLY == "$1" ]]; }

# hint_is TEXT: the hint line is exactly TEXT.
hint_is() {
  grep -qxF -- "pcrypt: hint: $1" stderr || fail "hint is not '$1'"
}

if want errors; then
  check "unknown option: pcrypt's own error line and a did-you-mean, no CLI11 text"
  expect 2 "$PCRYPT" encrypt s.txt -K key
  expect_one_error "unknown option '-K' for 'encrypt'"
  hint_is "did you mean '-k'?"
  ! grep -q "were not expected" stderr || fail "CLI11's raw message leaked"
  expect 2 "$PCRYPT" decrypt --kye key s.txt.pcrypt
  expect_one_error "unknown option '--kye'"
  hint_is "did you mean '--key'?"
  expect 2 "$PCRYPT" decrypt --Force -k key s.txt.pcrypt
  hint_is "did you mean '--force'?"
  check "a command's option before the command: options go after the command (issue 27, defect 7)"
  expect 2 "$PCRYPT" -k key encrypt s.txt
  expect_one_error "option '-k' is given before the command 'encrypt': options go after the command"
  hint_is "write 'pcrypt encrypt -k ...'; see 'pcrypt help encrypt'"
  expect 2 "$PCRYPT" --output early.out decrypt -k key s.txt.pcrypt
  expect_one_error "option '--output' is given before the command 'decrypt'"
  ! exists early.out || fail "output written"
  "$PCRYPT" -v encrypt -f -k key s.txt 2> stderr || fail "a global option (-v) before the command is refused"
  check "an option nothing resembles points to the command's help"
  expect 2 "$PCRYPT" encrypt --frobnicate -k key s.txt
  expect_one_error "unknown option '--frobnicate'"
  hint_is "see 'pcrypt help encrypt'"
  check "an argument a command does not take is named"
  expect 2 "$PCRYPT" keygen -o k2 t.txt
  expect_one_error "unexpected argument 't.txt'"
  check "mistyped command: did you mean"
  expect 2 "$PCRYPT" encrpyt -k key s.txt
  expect_one_error "unknown command 'encrpyt'"
  hint_is "did you mean 'encrypt'?"
  expect 2 "$PCRYPT" Info s.txt
  hint_is "did you mean 'info'?"
fi

if want help; then
  check "pcrypt help, pcrypt help COMMAND, -V"
  "$PCRYPT" help > help.txt 2> stderr || fail "pcrypt help failed"
  grep -q '^Usage: pcrypt' help.txt || fail "pcrypt help does not print the usage"
  "$PCRYPT" help decrypt > help_decrypt.txt 2> stderr || fail "pcrypt help decrypt failed"
  grep -q '^Usage: pcrypt decrypt' help_decrypt.txt || fail "pcrypt help decrypt does not describe decrypt"
  expect 2 "$PCRYPT" help decrpyt
  expect_one_error "unknown command 'decrpyt'"
  "$PCRYPT" -V > v.txt || fail "-V failed"
  grep -q '^pcrypt [0-9]' v.txt || fail "-V does not print the version"
  check "the exit-code table is complete in --help, and only there"
  "$PCRYPT" --help > help.txt
  for code in 0 1 2 3 4 130 143; do
    grep -qE "^  ([0-9]+, )*$code[ ,]" help.txt || fail "--help does not document exit code $code"
  done
  ! grep -q '^Exit status:' help_decrypt.txt || fail "decrypt --help repeats the exit-code table"
  grep -q "see 'pcrypt --help'" help_decrypt.txt || fail "decrypt --help does not point to the table"
  check "the documented 143: SIGTERM during a run removes the output and the process dies of the signal"
  mkfifo fifo
  rc=0
  { "$PCRYPT" encrypt -k key fifo -o out.pcrypt 2> stderr & pid=$!; exec 7> fifo; sleep 0.3; kill -TERM $pid
    wait $pid || rc=$?; exec 7>&-; }
  [[ $rc == 143 ]] || fail "SIGTERM gave status $rc, not 143"
  ! exists out.pcrypt || fail "output left after SIGTERM"
fi

if want credentials; then
  "$PCRYPT" encrypt -k key s.txt -o s.pcrypt
  check "-k FILE.pcrypt: an encrypted file, not a key file (2)"
  expect 2 "$PCRYPT" decrypt -k s.pcrypt s.pcrypt -o out
  expect_one_error "s.pcrypt is an encrypted pcrypt file, not a key file"
  check "decrypt without a credential names -k, -i and -p, not keygen (2)"
  expect 2 "$PCRYPT" decrypt s.pcrypt -o out < /dev/null
  expect_one_error "use -k KEYFILE, -i IDENTITY or -p"
  ! grep -q keygen stderr || fail "decrypt's hint points at keygen"
  check "encrypt without a credential still points at keygen"
  expect 2 "$PCRYPT" encrypt s.txt -o out.pcrypt < /dev/null
  grep -q "hint: .*pcrypt keygen" stderr || fail "encrypt's hint lost keygen"
  check "-o DIR says it is a directory, with or without -f (1)"
  mkdir dir
  expect 1 "$PCRYPT" encrypt -k key s.txt -o dir
  expect_one_error "output is a directory (dir)"
  grep -qF "hint: -o takes a file name: to write into the directory, use -o dir/NAME" stderr || fail "no hint"
  expect 1 "$PCRYPT" decrypt -f -k key s.pcrypt -o dir/
  expect_one_error "output is a directory (dir/)"
  [[ -d dir ]] || fail "dir replaced"
fi

if want header; then
  "$PCRYPT" encrypt -k key s.txt -o keyonly.pcrypt
  PCRYPT_PASSPHRASE=pw "$PCRYPT" encrypt -p "${CHEAP_KDF[@]}" s.txt -o pwonly.pcrypt
  check "-p on a file without a passphrase slot: refused before any prompt (3), naming its slots"
  # Without a terminal, a prompt would have failed with 2 ("no terminal"); PCRYPT_PASSPHRASE would be tried.
  if command -v setsid > /dev/null; then
    expect 3 setsid -w "$PCRYPT" decrypt -p keyonly.pcrypt -o out < /dev/null
  else
    expect 3 "$PCRYPT" decrypt -p keyonly.pcrypt -o out < /dev/null
  fi
  expect_one_error "keyonly.pcrypt has no passphrase slot, only 1 key-file slot"
  ! exists out || fail "out created"
  expect 3 env PCRYPT_PASSPHRASE=pw "$PCRYPT" decrypt -p keyonly.pcrypt -o out
  expect_one_error "no passphrase slot"
  check "-p with -k on such a file: -p is ignored with a warning"
  expect 0 "$PCRYPT" decrypt -p -k key keyonly.pcrypt -o out
  grep -q "no passphrase slot; -p ignored" stderr || fail "no warning"
  same out s.txt
  rm out
  check "a passphrase-only file and no credential: no terminal -> usage error naming the slots (2)"
  expect 2 "$PCRYPT" decrypt pwonly.pcrypt -o out < /dev/null
  expect_one_error "no key given"
  check "a passphrase-only file and no credential on a terminal: the passphrase is asked for"
  if command -v script > /dev/null && script -qec true /dev/null > /dev/null 2>&1; then
    mkfifo answers
    script -qefc "'$PCRYPT' decrypt pwonly.pcrypt -o asked.out" typescript < answers > /dev/null 2>&1 &
    pid=$!
    exec 4> answers
    wait_until grep -qF "Passphrase:" typescript 2> /dev/null || fail "no passphrase prompt"
    printf 'pw\n' >&4
    wait "$pid" || fail "decrypt with the asked passphrase failed"
    exec 4>&-
    same asked.out s.txt
    check "... but a file with a key-file slot is not asked for, on a terminal either"
    script -qefc "'$PCRYPT' decrypt keyonly.pcrypt -o asked2.out" typescript < /dev/null > /dev/null 2>&1 &&
      fail "decrypt without a credential succeeded"
    grep -qF "keyonly.pcrypt has 1 key-file slot" typescript || fail "the error does not name the slots"
    ! grep -qF "Passphrase:" typescript || fail "asked for a passphrase the file cannot take"
  else
    echo "SKIPPED: terminal checks need script(1) from util-linux"
  fi
fi

if want permissions; then
  check "decrypted files honour the umask (0666 & ~umask); encrypted and key files stay 0600"
  "$PCRYPT" encrypt -k key s.txt -o perm.pcrypt
  for mask in 022 077 002 000; do
    rm -f perm.out
    (umask $mask && "$PCRYPT" decrypt -k key perm.pcrypt -o perm.out)
    want_mode=$(printf %o $((0666 & ~0$mask)))
    [[ $(mode_of perm.out) == "$want_mode" ]] || fail "umask $mask: decrypted mode $(mode_of perm.out), not $want_mode"
    rm -f perm2.pcrypt k2
    (umask $mask && "$PCRYPT" encrypt -k key s.txt -o perm2.pcrypt && "$PCRYPT" keygen -o k2)
    [[ $(mode_of perm2.pcrypt) == 600 ]] || fail "umask $mask: encrypted mode $(mode_of perm2.pcrypt)"
    [[ $(mode_of k2) == 600 ]] || fail "umask $mask: key file mode $(mode_of k2)"
  done
  check "-f: the replacement has its own mode, not the replaced file's"
  chmod 600 perm.out
  (umask 022 && "$PCRYPT" decrypt -f -k key perm.pcrypt -o perm.out)
  [[ $(mode_of perm.out) == 644 ]] || fail "decrypt -f over a 0600 file gave $(mode_of perm.out)"
fi

if want progress; then
  check "no progress when standard error is not a terminal (scripts), even without -q"
  { head -c 3000000 /dev/zero; sleep 1; head -c 3000000 /dev/zero; } |
    "$PCRYPT" encrypt -k key --chunk-size 64KiB -o p.pcrypt 2> stderr
  [[ ! -s stderr ]] || fail "something was written to a non-terminal stderr"
  check "--progress asks for it anyway: from a pipe, bytes and the current rate, erased at the end"
  { head -c 3000000 /dev/zero; sleep 1; head -c 3000000 /dev/zero; } |
    "$PCRYPT" encrypt --progress -k key --chunk-size 64KiB -o p2.pcrypt 2> stderr
  grep -qaE $'\rencrypting +[0-9.]+ (B|KiB|MiB) +([0-9.]+ (B|KiB|MiB)|--)/s 0:0[0-9]' stderr ||
    fail "no pipe-style progress line"
  [[ $(tail -c 1 stderr) == $'\r' ]] || fail "the progress line is not erased at the end"
  check "-v ends with a zstd-like summary line"
  "$PCRYPT" -v decrypt -k key p.pcrypt -o p.out 2> stderr
  grep -qE '^pcrypt: p.out: [0-9.]+ MiB -> 5.7 MiB in [0-9.]+ s, [0-9.]+ (MiB|GiB)/s$' stderr ||
    fail "no summary line"
fi

if want start; then
  deps=$SOURCE_DIR/scripts/install-deps.sh
  check "install-deps.sh: the build's packages, the demo's and the tests' (issue 27, getting started)"
  bash "$deps" --build --list > build.pkgs || fail "install-deps.sh --build --list failed"
  bash "$deps" --demo --list > demo.pkgs || fail "install-deps.sh --demo --list failed"
  bash "$deps" --test --list > test.pkgs || fail "install-deps.sh --test --list failed"
  bash "$deps" --list | cmp -s - test.pkgs || fail "install-deps.sh without a purpose is not --test"
  grep -qx libsodium-dev build.pkgs && grep -qx g++ build.pkgs || fail "--build lacks the compiler or libsodium"
  [[ -z $(comm -23 <(sort build.pkgs) <(sort demo.pkgs)) ]] || fail "--demo lacks some of --build"
  [[ -z $(comm -23 <(sort demo.pkgs) <(sort test.pkgs)) ]] || fail "--test lacks some of --demo"
  for tool in catch2 valgrind age python3-pandas python3-dask python3-pytest pybind11-dev; do
    ! grep -qx "$tool" demo.pkgs || fail "the demo installs $tool, which only the tests use"
    grep -qx "$tool" test.pkgs || fail "--test does not install $tool"
  done
  [[ $(wc -l < demo.pkgs) -le 12 ]] || fail "the demo installs $(wc -l < demo.pkgs) packages: $(tr '\n' ' ' < demo.pkgs)"
  expect 2 bash "$deps" --everything
  check "the quick start: demo.sh installs the demo's packages, test.sh the tests'"
  grep -qx 'scripts/install-deps.sh --demo' "$SOURCE_DIR/scripts/demo.sh" || fail "demo.sh does not use --demo"
  grep -qx 'scripts/install-deps.sh --test' "$SOURCE_DIR/scripts/test.sh" || fail "test.sh does not use --test"
  check "README: how to get a checkout, then exactly the two quick-start commands"
  awk '/^## Quick start/ { on = 1; next } /^## / { on = 0 } on' "$SOURCE_DIR/README.md" > quick.md
  grep -q 'apt-get install -y git' quick.md && grep -q 'git clone ' quick.md || fail "no git install + clone"
  awk '/^```sh$/ { inside = 1; next } /^```$/ { inside = 0 } inside' quick.md > quick.sh
  [[ $(sed 's/ *#.*//' quick.sh | grep -c .) -eq 2 ]] || fail "the quick start is not two commands: $(cat quick.sh)"
  grep -q '^scripts/demo.sh ' quick.sh && grep -q '^scripts/test.sh ' quick.sh || fail "not demo.sh and test.sh"
fi

if want teams; then
  check "256 recipients in pcrypt's format: refused, with a hint to the age format (issue 27, teams beyond 255)"
  # (One recipient run for all 256 identities, not one each: a process costs more than the key. The identities
  # come from lib.sh's random_identities, one process: 256 `pcrypt keygen` runs were half of this test, and the
  # count is what is checked here, not keygen.)
  random_identities 256 > members.key
  "$PCRYPT" recipient members.key > team256.txt
  tail -1 members.key > member.key
  expect 2 "$PCRYPT" encrypt -R team256.txt s.txt -o team.pcrypt
  expect_one_error "a file needs 1 to 255 keys, recipients or passphrases, not 256"
  hint_is "the age format has no such limit: encrypt with --format age (recipients only; key files have no age form)"
  ! exists team.pcrypt || fail "output written"
  check "... and the age format takes them"
  "$PCRYPT" encrypt --format age -R team256.txt s.txt -o team.age 2> stderr || fail "--format age refused 256"
  "$PCRYPT" decrypt -i member.key team.age -o team.out && same team.out s.txt
  check "rekey past 255 slots: the hint names the age format too"
  tail -255 team256.txt > team255.txt # member.key is the last one
  "$PCRYPT" encrypt -R team255.txt s.txt -o team255.pcrypt
  expect 2 "$PCRYPT" rekey team255.pcrypt -i member.key --add-key key
  expect_one_error "the result would have 256 slots; the format allows 255"
  grep -q '^pcrypt: hint: .*--format age, which has no such limit' stderr || fail "rekey's hint lacks --format age"
fi

if want revoke; then
  check "revoking one member with public keys only: rekey --new-file-key -R LIST is the whole new list, quietly"
  for who in admin alice bob carol; do
    "$PCRYPT" keygen --identity -o "$who.key" 2>/dev/null
    "$PCRYPT" recipient "$who.key" > "$who.pub"
  done
  cat alice.pub bob.pub carol.pub > crew.txt
  grep -vxF "$(cat bob.pub)" crew.txt > crew-minus-bob.txt
  opens() { "$PCRYPT" decrypt -i "$1.key" "$2" -o - 2>/dev/null | cmp -s - s.txt; }
  for f in crew.pcrypt crew.age; do
    format=pcrypt
    [[ $f == *.age ]] && format=age
    "$PCRYPT" encrypt --format "$format" -R crew.txt -i admin.key s.txt -o "$f"
    "$PCRYPT" rekey "$f" -i admin.key --new-file-key -R crew-minus-bob.txt 2> stderr ||
      fail "$f: rekey --new-file-key -R failed"
    [[ ! -s stderr ]] || fail "$f: rekey --new-file-key -R is not quiet: $(cat stderr)"
    opens alice "$f" && opens carol "$f" || fail "$f: a remaining member cannot open it"
    ! opens bob "$f" || fail "$f: bob still opens it"
    ! opens admin "$f" || fail "$f: the opening identity kept a slot although it is not on the list"
    "$PCRYPT" info "$f" > info.txt
    grep -Eq '^(key slots|recipient stanzas|stanzas): 2$' info.txt || fail "$f: not exactly 2 slots: $(head -5 info.txt)"
  done
  check "... an opener on the list keeps exactly its one slot; -v says what was replaced"
  "$PCRYPT" -v rekey crew.pcrypt -i alice.key --new-file-key -R crew-minus-bob.txt 2> stderr
  grep -q '^pcrypt: new file key: 2 old slots replaced by 2 ' stderr || fail "-v does not say what was replaced"
  grep -q '^key slots: 2$' <("$PCRYPT" info crew.pcrypt) || fail "the opener got a second slot"
  check "... -r/-R without --new-file-key is a usage error, the file unchanged"
  cp crew.pcrypt before.pcrypt
  expect 2 "$PCRYPT" rekey crew.pcrypt -i alice.key -R crew.txt
  expect_one_error "-r/-R name everyone who can open the new file: they go with --new-file-key"
  hint_is "to add recipients beside the existing slots, use --add-recipient or --add-recipients-file"
  same crew.pcrypt before.pcrypt
  check "... without -r/-R the opener keeps its slot and the summary is a warning, as before"
  "$PCRYPT" rekey crew.pcrypt -i alice.key --new-file-key 2> stderr
  grep -q '^pcrypt: new file key: kept slot 1' stderr || fail "no kept/dropped warning: $(cat stderr)"
  opens alice crew.pcrypt && ! opens carol crew.pcrypt || fail "plain --new-file-key changed meaning"
fi

if want info; then
  check "info: an RSA slot's wrapped key and a post-quantum slot's encapsulated key as length + SHA-256; -v: all bytes"
  "$PCRYPT" keygen --pq -o pq.key 2> pq.pub
  "$PCRYPT" encrypt -r "$(sed 's/^public key: //' pq.pub)" s.txt -o pq.pcrypt
  files=(pq.pcrypt)
  # (An RSA key made once by ssh-keygen: making one here took 1-2 s.)
  "$PCRYPT" encrypt -R "$SOURCE_DIR/tests/vectors/recipients/ssh_rsa3072.key.pub" s.txt -o rsa.pcrypt
  files+=(rsa.pcrypt)
  for f in "${files[@]}"; do
    "$PCRYPT" info "$f" > short.txt
    "$PCRYPT" -v info "$f" > long.txt
    field=$(grep -Eo '^slot 1 (wrapped file key|encapsulated key)' short.txt) || fail "$f: no long field in info"
    short=$(grep "^$field: " short.txt | sed "s/^$field: //")
    full=$(grep "^$field: " long.txt | sed "s/^$field: //")
    [[ $short =~ ^([0-9]+)\ bytes,\ SHA-256\ ([0-9a-f]{64})$ ]] || fail "$f: $field is not length + SHA-256: $short"
    [[ ${BASH_REMATCH[1]} -eq $((${#full} / 2)) ]] || fail "$f: the length is not that of the bytes -v shows"
    digest=$(printf '%s' "$full" | python3 -c 'import sys, hashlib; print(hashlib.sha256(bytes.fromhex(sys.stdin.read())).hexdigest())')
    [[ ${BASH_REMATCH[2]} == "$digest" ]] || fail "$f: the SHA-256 is not that of the bytes -v shows"
    [[ $(awk '{ if (length($0) > m) m = length($0) } END { print m }' short.txt) -le 200 ]] ||
      fail "$f: info still prints a line longer than 200 characters"
  done
fi
