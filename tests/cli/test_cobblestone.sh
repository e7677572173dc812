#!/usr/bin/env bash
# C2SP chunked encryption (--format cobblestone-128/-256) from the command line: every Wycheproof vector
# (70), interop both ways with tests/cobblestone_ref.py (an independent implementation from the spec, on
# python3-cryptography) at every size around the 16 KiB edges up to several MiB, ranges, many files, pipes,
# and the bad-input contract (one error line, exit 2/3/4, nothing written).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
require_tools python3
python3 -c 'import cryptography' 2> /dev/null || {
  echo "SKIPPED: python3-cryptography not installed (scripts/install-deps.sh --test installs it)"
  exit 0
}
REF=$SOURCE_DIR/tests/cobblestone_ref.py
VECTORS=$SOURCE_DIR/tests/vectors/cobblestone

check "keygen --raw 16|32: the key's bytes alone, mode 0600"
"$PCRYPT" keygen --raw 16 -o k16
"$PCRYPT" keygen --raw 32 -o k32
[[ $(stat -c %s k16) == 16 && $(stat -c %s k32) == 32 ]] || fail "raw key sizes"
[[ $(mode_of k16) == 600 ]] || fail "raw key mode $(mode_of k16)"
expect 2 "$PCRYPT" keygen --raw 24 -o k24
! exists k24 || fail "k24 written"

check "all 70 Wycheproof vectors through decrypt and verify"
# The reference's work in one process (python3 and its cryptography take a good part of a second to start);
# each vector's decrypt and verify start at once in the background, a file's 35 vectors together, and their
# exits, sizes, digests and messages are read afterwards with few processes (the 70 vectors took minutes
# one process after another on a loaded machine).
mkdir v128 v256
python3 "$REF" batch << EOF
vectors $VECTORS/wycheproof_c2sp_chunked_encryption_aes_128_gcm_test.json v128 v128.list
vectors $VECTORS/wycheproof_c2sp_chunked_encryption_aes_256_gcm_test.json v256 v256.list
EOF
# one_error_in FILE TEXT: expect_one_error on FILE's lines, with the shell's builtins.
one_error_in() {
  local line lines=0 all=""
  while IFS= read -r line; do
    [[ $line == "pcrypt: error: "* ]] && lines=$((lines + 1))
    all+=$line$'\n'
  done < "$1"
  [[ $lines == 1 && $all == *"$2"* ]] || {
    cp "$1" stderr
    fail "$1: expected one 'pcrypt: error:' line mentioning '$2', got $lines"
  }
}
total=0
for bits in 128 256; do
  pids=()
  while read -r id _; do
    base=v$bits/tc$id
    given=(--format "cobblestone-$bits" --raw-key "$base.key" --context-file "$base.ctx" "$base.ct")
    "$PCRYPT" decrypt "${given[@]}" -o "$base.out" 2> "$base.err" &
    pids+=($!)
    "$PCRYPT" verify "${given[@]}" 2> /dev/null &
    pids+=($!)
  done < "v$bits.list"
  declare -A exits=() vexits=() sizes=() digests=()
  k=0
  while read -r id _; do
    exits[$id]=0
    wait "${pids[k]}" || exits[$id]=$?
    vexits[$id]=0
    wait "${pids[k + 1]}" || vexits[$id]=$?
    k=$((k + 2))
  done < "v$bits.list"
  outs=("v$bits"/*.out)
  if [[ -e ${outs[0]} ]]; then
    while read -r name size; do sizes[$name]=$size; done < <(stat -c '%n %s' "${outs[@]}")
    while read -r digest name; do digests[$name]=$digest; done < <(sha512sum "${outs[@]}")
  fi
  while read -r id result length sha flags; do
    total=$((total + 1))
    base=v$bits/tc$id
    got=${exits[$id]}
    [[ $got == "${vexits[$id]}" ]] || fail "tc$id ($bits): decrypt exit $got but verify exit ${vexits[$id]}"
    if [[ $result == valid ]]; then
      [[ $got == 0 ]] || fail "tc$id ($bits, valid) exit $got"
      [[ ${sizes[$base.out]:-} == "$length" ]] || fail "tc$id length"
      [[ ${digests[$base.out]:-} == "$sha" ]] || fail "tc$id sha512"
    else
      [[ $got == 2 || $got == 3 || $got == 4 ]] || fail "tc$id ($bits, invalid: $flags) exit $got"
      [[ $flags != *InvalidKeySize* || $got == 2 ]] || fail "tc$id: a key of the wrong size is exit 2, got $got"
      [[ $flags != *WrongKey* && $flags != *WrongContext* || $got == 3 ]] || fail "tc$id: wrong key/context exit $got"
      one_error_in "$base.err" "tc$id."
      ! exists "$base.out" || fail "tc$id: output written for an invalid vector"
    fi
  done < "v$bits.list"
  unset exits vexits sizes digests
done
[[ $total == 70 ]] || fail "ran $total vectors, not 70"

check "interop both ways with the independent implementation, every size around the 16 KiB edges"
# pcrypt encrypts every size in one run (many files) and decrypts the reference's in another (-j 2); the
# reference decrypts ours and encrypts its own in one process; one stat and one sha256sum read the results.
printf 'app v1' > ctx
sizes=(0 1 15 16 17 16367 16368 16383 16384 16385 16400 32767 32768 32769 49152 65536 70000)
sizes+=($((3 * 1048576)) $((4 * 1048576 + 1)))
for bits in 128 256; do
  mkdir "i$bits"
  for n in "${sizes[@]}"; do head -c "$n" /dev/urandom > "i$bits/p$n"; done
  "$PCRYPT" encrypt -q --format "cobblestone-$bits" --raw-key "k$((bits / 8))" --context-file ctx "i$bits"/p*
  for n in "${sizes[@]}"; do
    echo "decrypt $bits k$((bits / 8)) ctx i$bits/p$n.cobblestone i$bits/back$n"
    echo "encrypt $bits k$((bits / 8)) ctx i$bits/p$n i$bits/t$n.cobblestone"
  done
done > batch
python3 "$REF" batch < batch || fail "the reference refused one of ours, or could not encrypt"
for bits in 128 256; do
  "$PCRYPT" decrypt -q --format "cobblestone-$bits" --raw-key "k$((bits / 8))" --context-file ctx -j 2 \
    "i$bits"/t*.cobblestone
done
declare -A size_of=() digest_of=()
while read -r name size; do size_of[$name]=$size; done < <(stat -c '%n %s' i128/*.cobblestone i256/*.cobblestone)
while read -r digest name; do digest_of[$name]=$digest; done < <(sha256sum i128/* i256/*)
for bits in 128 256; do
  for n in "${sizes[@]}"; do
    [[ ${size_of[i$bits/p$n.cobblestone]} == $((56 + n + 16 * (n / 16384 + 1))) ]] ||
      fail "size of $n-byte message ($bits)"
    [[ ${digest_of[i$bits/back$n]:-} == "${digest_of[i$bits/p$n]}" ]] ||
      fail "the reference decrypted our $n-byte message ($bits) wrongly"
    [[ ${digest_of[i$bits/t$n]:-} == "${digest_of[i$bits/p$n]}" ]] ||
      fail "pcrypt decrypted the reference's $n-byte message ($bits) wrongly"
  done
done
rm -r i128 i256

check "--context WORDS is the UTF-8 bytes as given; the same as --context-file"
head -c 50000 /dev/urandom > p
"$PCRYPT" encrypt -q --format cobblestone-128 --raw-key k16 --context "héllo" p -o c1
printf 'héllo' > ctx2
python3 "$REF" decrypt 128 k16 ctx2 c1 back && same p back
# --help names the value as USAGE.md and pcrypt(1) do
[[ $("$PCRYPT" encrypt --help) == *"--context WORDS "* ]] || fail "encrypt --help: not '--context WORDS'"
for doc in docs/USAGE.md man/pcrypt.1; do
  finds -E 'context.{1,4}WORDS' < "$SOURCE_DIR/$doc" || fail "$doc: --context's value is not named WORDS"
done

check "ranges, pipes, default names, several files"
head -c 200000 /dev/urandom > big
"$PCRYPT" encrypt -q --format cobblestone-256 --raw-key k32 big
[[ -f big.cobblestone ]] || fail "default output name"
"$PCRYPT" decrypt --format cobblestone-256 --raw-key k32 --offset 16380 --length 10 big.cobblestone -o r
cmp -s r <(tail -c +16381 big | head -c 10) || fail "range"
"$PCRYPT" decrypt --format cobblestone-256 --raw-key k32 --offset 199990 big.cobblestone -o r2
cmp -s r2 <(tail -c 10 big) || fail "range to the end"
"$PCRYPT" decrypt --format cobblestone-256 --raw-key k32 < big.cobblestone > piped
same big piped
"$PCRYPT" encrypt -q --format cobblestone-256 --raw-key k32 < big > piped.c
python3 "$REF" decrypt 256 k32 /dev/null piped.c back && same big back
cp big big2
"$PCRYPT" encrypt -q --format cobblestone-128 --raw-key k16 big big2 -f
rm big2
"$PCRYPT" decrypt -q --format cobblestone-128 --raw-key k16 big.cobblestone big2.cobblestone -f
same big big2

check "truncated at a chunk boundary and damaged: exit 4, nothing written"
head -c $((56 + 16400)) big.cobblestone > cut.cobblestone
expect 4 "$PCRYPT" decrypt --format cobblestone-128 --raw-key k16 cut.cobblestone -o out
expect_one_error "cut.cobblestone"
! exists out || fail "out written"
cp big.cobblestone bad.cobblestone
flip_byte bad.cobblestone 100000
expect 4 "$PCRYPT" verify --format cobblestone-128 --raw-key k16 bad.cobblestone
expect_one_error "bad.cobblestone"

check "bad input: one line, exit 2 or 3"
expect 3 "$PCRYPT" decrypt --format cobblestone-128 --raw-key k16 --context other big.cobblestone -o out
expect_one_error "commitment"
expect 2 "$PCRYPT" decrypt --format cobblestone-128 --raw-key k32 big.cobblestone -o out
expect_one_error "16 bytes"
head -c 20 /dev/urandom > k20
expect 2 "$PCRYPT" encrypt --format cobblestone-128 --raw-key k20 big -o out
expect_one_error "k20"
expect 2 "$PCRYPT" encrypt --format cobblestone-128 --raw-key k16 -r age1qyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqsqsmlkw big -o out
expect_one_error "no recipients, passphrases"
expect 2 "$PCRYPT" encrypt --format cobblestone-256 --raw-key k32 -p big -o out
expect_one_error "no recipients, passphrases"
expect 2 "$PCRYPT" encrypt --format cobblestone-256 big -o out
expect_one_error "--raw-key"
expect 2 "$PCRYPT" encrypt --raw-key k32 big -o out
expect_one_error "--format cobblestone"
expect 2 "$PCRYPT" encrypt --format cobblestone-128 --raw-key k16 --context $'\xff\xfe' big -o out
expect_one_error "UTF-8"
head -c 71 big.cobblestone > short
expect 4 "$PCRYPT" decrypt --format cobblestone-128 --raw-key k16 short -o out # a header, no final chunk
expect_one_error "72 bytes"
! exists out || fail "out written"
head -c 40 big.cobblestone > shorter
expect 3 "$PCRYPT" decrypt --format cobblestone-128 --raw-key k16 shorter -o out # cut inside the header
expect_one_error "72 bytes"
! exists out || fail "out written"

echo "all cobblestone checks passed"
