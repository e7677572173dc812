#!/usr/bin/env bash
# Every exit code (1 refusals and I/O, 2 usage, 3 header/key, 4 payload), one error line each, and that a
# failed run never leaves an output file (or a temporary) behind.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen -o key
"$PCRYPT" keygen -o other
head -c 100000 /dev/urandom > plain
# 4 KiB chunks: 25 records of 4112 bytes after a 120-byte header (one key-file slot, FORMAT.md §3).
"$PCRYPT" encrypt -k key --chunk-size 4KiB plain -o good.pcrypt
header=120
record=$((4096 + 16))
files=(key other plain good.pcrypt)

# Writes to $1 a copy of good.pcrypt with the lowest bit of the byte at offset $2 inverted.
flip() {
  cp good.pcrypt "$1"
  flip_byte "$1" "$2"
  ! cmp -s good.pcrypt "$1" || fail "test bug: flip did not change byte $2"
}

check "wrong key -> 3, no output file"
expect 3 "$PCRYPT" decrypt -k other good.pcrypt -o out
expect_one_error "good.pcrypt"
! exists out || fail "out exists after a wrong key"
only_these_files "${files[@]}"

check "wrong passphrase on a key-file-only file -> 3"
expect 3 env PCRYPT_PASSPHRASE=nope "$PCRYPT" decrypt -p good.pcrypt -o out
! exists out || fail "out exists"

check "corrupted header byte -> 3"
flip badhdr.pcrypt 20
expect 3 "$PCRYPT" decrypt -k key badhdr.pcrypt -o out
expect_one_error "badhdr.pcrypt"
! exists out || fail "out exists after a corrupted header"

check "garbage input -> 3 (not a pcrypt file), also on stdin"
head -c 5000 /dev/urandom > garbage
expect 3 "$PCRYPT" decrypt -k key garbage -o out
expect_one_error "garbage"
expect 3 "$PCRYPT" decrypt -k key -o out < garbage
expect_one_error "standard input"
! exists out || fail "out exists after garbage"
expect 3 "$PCRYPT" info garbage

check "empty input -> 3"
: > empty.pcrypt
expect 3 "$PCRYPT" decrypt -k key empty.pcrypt -o out

check "corrupted payload (chunk 3) -> 4, names the chunk, no output file"
flip badpay.pcrypt $((header + 3 * record + 100))
expect 4 "$PCRYPT" decrypt -k key badpay.pcrypt -o out
expect_one_error "chunk 3"
grep -qF "badpay.pcrypt" stderr || fail "payload error does not name the file"
! exists out || fail "out exists after a corrupted payload"

check "corrupted last tag -> 4"
size=$(stat -c %s good.pcrypt)
flip badtag.pcrypt $((size - 1))
expect 4 "$PCRYPT" decrypt -k key badtag.pcrypt -o out
! exists out || fail "out exists"

check "truncated inside a record -> 4"
head -c $((size - 7)) good.pcrypt > trunc.pcrypt
expect 4 "$PCRYPT" decrypt -k key trunc.pcrypt -o out
! exists out || fail "out exists after truncation"

check "truncated at a record boundary (last chunk dropped) -> 4"
head -c $((header + 10 * record)) good.pcrypt > cut.pcrypt
expect 4 "$PCRYPT" decrypt -k key cut.pcrypt -o out
! exists out || fail "out exists after a boundary truncation"

check "truncated inside the header -> 3"
head -c 50 good.pcrypt > hdrcut.pcrypt
expect 3 "$PCRYPT" decrypt -k key hdrcut.pcrypt -o out

check "two records swapped -> 4"
# Bytes [$1, $1 + $2) of good.pcrypt.
slice() { dd if=good.pcrypt iflag=skip_bytes,count_bytes skip="$1" count="$2" status=none; }
{
  slice 0 "$header"
  slice $((header + record)) "$record"
  slice "$header" "$record"
  slice $((header + 2 * record)) "$size"
} > swapped.pcrypt
[[ $(stat -c %s swapped.pcrypt) == "$size" ]] || fail "test bug: swapped file has the wrong size"
expect 4 "$PCRYPT" decrypt -k key swapped.pcrypt -o out

check "appended bytes -> 4"
{ cat good.pcrypt; printf 'x'; } > appended.pcrypt
expect 4 "$PCRYPT" decrypt -k key appended.pcrypt -o out

check "decrypt to stdout: exit 4, only authenticated chunks (chunks 0-2) written"
expect 4 "$PCRYPT" decrypt -k key badpay.pcrypt -o - > partial
[[ $(stat -c %s partial) -le $((3 * 4096)) ]] || fail "more than the 3 good chunks reached stdout"
cmp -s partial <(head -c "$(stat -c %s partial)" plain) || fail "stdout holds bytes that are not the plaintext"

check "usage errors -> 2, with a hint"
expect 2 "$PCRYPT"
expect_one_error "no command"
expect 2 "$PCRYPT" frobnicate
expect_one_error "frobnicate"
grep -q "^pcrypt: hint: commands: encrypt, decrypt" stderr || fail "unknown command: no list of commands"
expect 2 "$PCRYPT" encrypt --no-such-option -k key plain
expect 2 "$PCRYPT" encrypt plain -o x.pcrypt
expect_one_error "-k"
expect 2 "$PCRYPT" encrypt -k key --chunk-size 12parsecs plain -o x.pcrypt
expect_one_error "--chunk-size"
expect 2 "$PCRYPT" encrypt -k key --chunk-size 1.5MiB plain -o x.pcrypt
expect 2 "$PCRYPT" encrypt -k key --chunk-size 100 plain -o x.pcrypt
expect 2 "$PCRYPT" encrypt -k key --chunk-size 128MiB plain -o x.pcrypt
expect 2 "$PCRYPT" encrypt -k key -j -1 plain -o x.pcrypt
expect 2 "$PCRYPT" encrypt -k key -j two plain -o x.pcrypt
expect 2 "$PCRYPT" encrypt -k key --engine rot13 plain -o x.pcrypt
expect_one_error "rot13"
expect 2 env PCRYPT_ENGINE=rot13 "$PCRYPT" encrypt -k key plain -o x.pcrypt
! exists x.pcrypt || fail "a usage error created an output file"

check "decrypt of a name without .pcrypt and no -o -> 2, suggests -o"
cp good.pcrypt noext
expect 2 "$PCRYPT" decrypt -k key noext
grep -q 'hint: .*-o' stderr || fail "no hint about -o"
! exists noext.out || fail "unexpected output"

check "sizes: K/KiB/M/MiB are powers of 1024, kB is 1000, B and plain numbers are bytes"
for s in 64KiB 65536 64K 1MiB 1M 64kB 64kb 4096B; do
  "$PCRYPT" encrypt -k key --chunk-size "$s" plain -o "size.$s.pcrypt"
done
"$PCRYPT" info size.64kB.pcrypt | finds -F 'chunk size: 64000 ' || fail "64kB is not 64000 bytes"
"$PCRYPT" info size.64K.pcrypt | finds -F 'chunk size: 65536 ' || fail "64K is not 65536 bytes"
"$PCRYPT" info size.64kb.pcrypt | finds -F 'chunk size: 64000 ' || fail "64kb (units ignore case) is not 64000 bytes"

check "unreadable key file / missing input -> 1"
expect 1 "$PCRYPT" encrypt -k missing-key plain -o x.pcrypt
expect 1 "$PCRYPT" encrypt -k key missing-input -o x.pcrypt
expect_one_error "missing-input"
! exists x.pcrypt || fail "x.pcrypt created"

check "a malformed key file -> 2"
echo "not a key" > badkey
expect 2 "$PCRYPT" encrypt -k badkey plain -o x.pcrypt

echo "all exit code checks passed"
