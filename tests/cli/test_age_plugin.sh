#!/usr/bin/env bash
# age plugins (core/age/plugin.h, C2SP age-plugin.md) through the test plugin tests/cli/plugins/
# age-plugin-pctest: both state machines with pcrypt as the client, and the same plugin driven by the real
# age 1.1.1 (which shows the plugin speaks the protocol, so a pcrypt failure is pcrypt's): files made by
# either open in the other; several recipients in one plugin run; msg, confirm, request-secret (on a pty),
# grease; a plugin that is missing, exits mid-protocol, sends garbage, reports an error or breaks the
# one-stanza-per-recipient rule: one clear error and no output file; a plugin that exits at once, closes its
# output or is killed is passed over with a warning for the next identity; plugin stanzas survive rekey.
# Skipped visibly without age or python3.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

require_tools age age-keygen python3
PTY="$SOURCE_DIR/tests/cli/age_pty.py"
export PATH="$SOURCE_DIR/tests/cli/plugins:$PATH"
unset PCTEST_MODE PCTEST_LOG PCTEST_PIN PCTEST_DEFAULT_IDENTITY

read -r ID1 R1 < <(age-plugin-pctest --keygen)
read -r ID2 R2 < <(age-plugin-pctest --keygen)
echo "$ID1" > id1
echo "$ID2" > id2
printf '# two plugin identities\n%s\n%s\n' "$ID1" "$ID2" > both
age-keygen -o x.key 2> /dev/null
X=$(age-keygen -y x.key)
head -c $((3 * 65536 + 7)) /dev/urandom > plain

check "age encrypts to a plugin recipient, pcrypt decrypts through the plugin"
age -r "$R1" -o by-age.age plain
"$PCRYPT" decrypt -i id1 -o out by-age.age 2> stderr || fail "pcrypt cannot open age's plugin file"
same plain out

check "pcrypt encrypts to a plugin recipient (binary and armored), age decrypts through the plugin"
"$PCRYPT" encrypt --format age -r "$R1" -o by-pcrypt.age plain
age -d -i id1 by-pcrypt.age | cmp -s - plain || fail "age cannot open pcrypt's plugin file"
"$PCRYPT" encrypt --format age -a -r "$R1" -o by-pcrypt.asc plain
age -d -i id1 by-pcrypt.asc | cmp -s - plain || fail "age cannot open pcrypt's armored plugin file"
[[ $(grep -ac '^-> pctest ' by-pcrypt.age) == 1 ]] || fail "expected one pctest stanza"

check "several recipients of one plugin: one plugin run (recipient-v1 lists them all), mixed with X25519"
PCTEST_LOG=$WORK/log "$PCRYPT" encrypt --format age -r "$R1" -r "$X" -r "$R2" -o three.age plain
[[ $(grep -c '^recipient-v1 add-recipient' log) == 2 ]] || fail "expected both plugin recipients in one run: $(cat log)"
[[ $(grep -c '^recipient-v1 wrap-file-key' log) == 1 ]] || fail "expected one run of the plugin: $(cat log)"
[[ $(grep -ac '^-> pctest ' three.age) == 2 && $(grep -ac '^-> X25519 ' three.age) == 1 ]] ||
  fail "expected 2 pctest stanzas and 1 X25519 stanza"
for k in id1 id2 x.key; do
  "$PCRYPT" decrypt -f -i $k -o out three.age 2> stderr || fail "pcrypt cannot open the file with $k"
  same plain out
  age -d -i $k three.age | cmp -s - plain || fail "age cannot open the file with $k"
done

check "identity-v1: both identities of one plugin and every stanza go to one plugin run"
rm -f log
PCTEST_LOG=$WORK/log "$PCRYPT" decrypt -f -i both -o out three.age 2> stderr || fail "cannot open with both identities"
same plain out
[[ $(grep -c '^identity-v1 add-identity' log) == 2 ]] || fail "expected 2 identities in one run: $(cat log)"
[[ $(grep -c '^identity-v1 recipient-stanza 0' log) == 3 ]] || fail "expected all 3 stanzas sent: $(cat log)"

check "the plugin's msg is shown; grease is answered 'unsupported' (the plugin checks) in both directions"
PCTEST_MODE=msg "$PCRYPT" decrypt -f -i id1 -o out by-age.age 2> stderr || fail "msg mode failed"
grep -q '^pcrypt: age-plugin-pctest: touch the pctest key$' stderr || fail "the plugin's message is not shown"
PCTEST_MODE=grease "$PCRYPT" decrypt -f -i id1 -o out by-age.age 2> stderr || fail "grease while decrypting"
PCTEST_MODE=grease "$PCRYPT" encrypt -f --format age -r "$R1" -o grease.age plain 2> stderr || fail "grease while encrypting"
age -d -i id1 grease.age | cmp -s - plain || fail "age cannot open the file made with grease"

check "request-secret: the PIN is asked on the terminal, without a terminal the plugin gets 'fail'"
rm -f out
PCTEST_MODE=pin python3 "$PTY" 1234 "$PCRYPT" decrypt -i id1 -o out by-age.age 2> stderr ||
  fail "decrypt with the PIN typed on a terminal failed"
same plain out
grep -q 'Enter passphrase (PIN) for the pctest key' stderr || fail "the plugin's prompt was not shown"
rm -f out
PCTEST_MODE=pin python3 "$PTY" 1234 "$PCRYPT" encrypt --format age -r "$R1" -o pin.age plain 2> stderr ||
  fail "encrypt with the PIN typed on a terminal failed"
age -d -i id1 pin.age | cmp -s - plain || fail "age cannot open the file made with a PIN"
PCTEST_MODE=pin expect 3 setsid "$PCRYPT" decrypt -i id1 -o out by-age.age < /dev/null
expect_one_error "age-plugin-pctest: wrong PIN"
exists out && fail "output written although nothing opened the file"

check "confirm: without a terminal the plugin gets 'fail' and reports it"
PCTEST_MODE=confirm expect 2 setsid "$PCRYPT" encrypt --format age -r "$R1" -o confirm.age plain < /dev/null
expect_one_error "not confirmed"
exists confirm.age && fail "output written although the plugin refused"

check "--plugin NAME: the plugin's default identity (age -j NAME)"
PCTEST_DEFAULT_IDENTITY=$ID1 "$PCRYPT" decrypt -f --plugin pctest -o out by-age.age 2> stderr || fail "--plugin pctest failed"
same plain out

check "a missing plugin: encrypt stops (usage), decrypt says why nothing opened (header)"
expect 2 env PATH=/usr/bin:/bin "$PCRYPT" encrypt --format age -r "$R1" -o missing.age plain
expect_one_error "age-plugin-pctest was not found on PATH"
exists missing.age && fail "output written without the plugin"
rm -f out
expect 3 env PATH=/usr/bin:/bin "$PCRYPT" decrypt -i id1 -o out by-age.age
expect_one_error "age-plugin-pctest was not found on PATH"
exists out && fail "output written without the plugin"

check "a plugin that exits mid-protocol, sends garbage, or reports an error: one error, no output"
for mode in exit garbage error extra; do
  rm -f bad.age
  want=1
  [[ $mode == error ]] && want=2
  PCTEST_MODE=$mode expect $want "$PCRYPT" encrypt --format age -r "$R1" -o bad.age plain
  case $mode in
    exit) expect_one_error "age-plugin-pctest exited in the middle of the exchange" ;;
    garbage) expect_one_error "age-plugin-pctest sent a malformed message" ;;
    error) expect_one_error "the pctest key is unplugged" ;;
    extra) expect_one_error "returned 2 stanzas for 1 recipient" ;;
  esac
  exists bad.age && fail "$mode: output written"
done
for mode in exit garbage error; do
  rm -f out
  PCTEST_MODE=$mode expect 3 "$PCRYPT" decrypt -i id1 -o out by-age.age
  case $mode in
    exit) expect_one_error "exited in the middle of the exchange" ;;
    garbage) expect_one_error "sent a malformed message" ;;
    error) expect_one_error "the pctest key is unplugged" ;;
  esac
  exists out && fail "$mode: output written"
done

check "a plugin that ignores SIGTERM after a protocol error is killed, not waited for"
start=$SECONDS
PCTEST_MODE=hang expect 1 timeout 60 "$PCRYPT" encrypt --format age -r "$R1" -o hang.age plain
expect_one_error "sent a malformed message"
((SECONDS - start < 30)) || fail "pcrypt waited $((SECONDS - start)) s for a plugin it had given up on"
exists hang.age && fail "output written"

check "a plugin failure does not stop another identity from opening the file"
cat id1 x.key > id-and-x
PCTEST_MODE=exit "$PCRYPT" decrypt -f -i id-and-x -o out three.age 2> stderr || fail "the X25519 identity did not open it"
same plain out

check "a plugin that exits at once, closes its output or is killed: a warning, then the next identity opens it"
for mode in at-once close-output killed; do
  rm -f out
  start=$SECONDS
  PCTEST_MODE=$mode "$PCRYPT" decrypt -i id1 -i x.key -o out three.age 2> stderr ||
    fail "$mode: the X25519 identity after the plugin's did not open the file"
  same plain out
  grep -q '^pcrypt: .*passed over.*age-plugin-pctest' stderr || fail "$mode: no warning naming the plugin"
  grep -q 'error' stderr && fail "$mode: an error was printed"
  ((SECONDS - start < 30)) || fail "$mode: pcrypt waited $((SECONDS - start)) s for the plugin"
  PCTEST_MODE=$mode expect 3 "$PCRYPT" decrypt -f -i id1 -o out three.age
  expect_one_error "age-plugin-pctest exited in the middle of the exchange"
  PCTEST_MODE=$mode expect 1 "$PCRYPT" encrypt -f --format age -r "$R1" -o at-once.age plain
  expect_one_error "age-plugin-pctest exited in the middle of the exchange"
  exists at-once.age && fail "$mode: output written although the plugin failed"
done

check "plugin recipients are for the age format only"
expect 2 "$PCRYPT" encrypt -r "$R1" -o p.pcrypt plain
expect_one_error "work only in the age format"
exists p.pcrypt && fail "a pcrypt file was written"

check "rekey keeps the plugin's stanza, adds another through the plugin, removes one by identity"
cp three.age re.age
"$PCRYPT" rekey -i x.key --remove-key id2 re.age 2> stderr || fail "rekey --remove-key id2 failed"
[[ $(grep -ac '^-> pctest ' re.age) == 1 ]] || fail "expected one pctest stanza left"
age -d -i id2 re.age > /dev/null 2>&1 && fail "id2 still opens the file"
age -d -i id1 re.age | cmp -s - plain || fail "id1 no longer opens the file"
"$PCRYPT" rekey -i id1 --add-recipient "$R2" re.age 2> stderr || fail "rekey --add-recipient (plugin) failed"
age -d -i id2 re.age | cmp -s - plain || fail "the added plugin recipient cannot open the file"

check "verify and info on a plugin file"
"$PCRYPT" verify -i id1 by-age.age 2> stderr || fail "verify failed"
"$PCRYPT" info by-age.age > info.txt 2> stderr || fail "info failed"
grep -q 'pctest' info.txt || fail "info does not name the pctest stanza: $(cat info.txt)"

echo "ok: age plugins"
