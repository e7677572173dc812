#!/usr/bin/env bash
# decrypt --offset/--length on age files (the range API over age's 64 KiB chunks): files written by the real
# age 1.1.1, binary and armored, from a regular file (pread) and from a pipe (read in order); every range
# compared with the same bytes cut from the plaintext. A damaged chunk inside the range fails with nothing at
# the output path; one outside it is never read. Skipped visibly without age or age-keygen.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

require_tools age age-keygen

age-keygen -o age.key 2> /dev/null
recipient=$(age-keygen -y age.key)
chunk=65536
size=$((5 * chunk + 123))
head -c "$size" /dev/urandom > plain
age -r "$recipient" -o bin.age plain
age -a -r "$recipient" -o arm.age plain

# slice OFFSET [LENGTH]: the plaintext's bytes, as the range should give them.
slice() {
  dd if=plain iflag=skip_bytes,count_bytes bs=64K skip="$1" ${2:+count="$2"} status=none
}

ranges=("0 0" "0 1" "1 $chunk" "$((chunk - 1)) 2" "$chunk $chunk" "$((2 * chunk + 5)) $((2 * chunk))"
  "$((5 * chunk)) 123" "$((5 * chunk + 100)) 1000" "$size 0" "$((3 * chunk + 7))")
check "ranges of age's binary and armored files, from a file and from a pipe, match the plaintext"
for file in bin.age arm.age; do
  for r in "${ranges[@]}"; do
    read -r offset length <<< "$r"
    args=(--offset "$offset")
    [[ -n ${length:-} ]] && args+=(--length "$length")
    slice $offset ${length:+"$length"} > want
    "$PCRYPT" decrypt -f -i age.key "${args[@]}" "$file" -o got.file
    cmp -s got.file want || fail "$file range $r from the file differs from the plaintext"
    cat "$file" | "$PCRYPT" decrypt -i age.key "${args[@]}" > got.pipe
    cmp -s got.pipe want || fail "$file range $r from a pipe differs from the plaintext"
  done
done

check "a binary age file's range is read in place (pread), an armored one in order"
"$PCRYPT" decrypt -v -i age.key --offset $chunk --length 10 bin.age -o /dev/null 2> stderr
grep -q 'in place (pread)' stderr || fail "binary age range not read with pread"
"$PCRYPT" decrypt -v -i age.key --offset $chunk --length 10 arm.age -o /dev/null 2> stderr
grep -q 'in order' stderr || fail "armored age range not read in order"

# Chunk k's record starts at header + 16 (nonce) + k * (64 KiB + 16); the header ends after the "--- MAC"
# line.
header_bytes=$(grep -abo -m1 $'^--- ' bin.age | cut -d: -f1)
header_bytes=$((header_bytes + $(grep -a -m1 '^--- ' bin.age | wc -c)))
record3=$((header_bytes + 16 + 3 * (chunk + 16)))
cp bin.age damaged.age
flip_byte damaged.age $((record3 + 100))

check "a range over a damaged chunk fails (exit 4) and leaves nothing at the output path"
expect 4 "$PCRYPT" decrypt -i age.key --offset $((3 * chunk)) --length 10 damaged.age -o out
expect_one_error "authentication failed"
exists out && fail "plaintext left at the output path after a failed range"

check "a range that does not touch the damaged chunk reads only its own chunks and succeeds"
"$PCRYPT" decrypt -i age.key --offset $chunk --length $chunk damaged.age -o ok
slice $chunk $chunk > want
cmp -s ok want || fail "range before the damage differs"

check "an offset past the end is a usage error naming the plaintext size"
expect 2 "$PCRYPT" decrypt -i age.key --offset $((size + 1)) bin.age -o out
expect_one_error "past the end of the plaintext ($size bytes"

check "the wrong identity opens no range"
age-keygen -o other.key 2> /dev/null
expect 3 "$PCRYPT" decrypt -i other.key --offset 0 --length 1 bin.age -o out
exists out && fail "output left by a failed unlock"
echo "PASS"
