#!/usr/bin/env bash
# pcrypt verify (exit status equal to decrypt's on every known-answer file) and decrypt --offset/--length
# (compared with tail -c | head -c of the plaintext, from a file and from a pipe).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

VECTORS=$SOURCE_DIR/tests/vectors/files

check "verify exits as decrypt does on every known-answer file"
# (The vector's fields and the two error outputs are read by the shell itself: four helper processes per
# vector were more than the three pcrypt runs each vector is for.)
for vector in "$VECTORS"/*.test; do
  file="" key="" pass="" has_pass=""
  while IFS= read -r line; do
    case $line in
      'file: '*) file=${line#file: } ;;
      'key-file: '*) key=${line#key-file: } ;;
      'passphrase: '*) has_pass=1 pass+=${line#passphrase: } ;;
    esac
  done < "$vector"
  creds=()
  [[ -n $key ]] && creds+=(-k "$VECTORS/$key")
  if [[ -n $has_pass ]]; then
    printf '%s' "$pass" > pass
    creds+=(--passphrase-file pass)
  fi
  want=0
  "$PCRYPT" decrypt -q "${creds[@]}" -o /dev/null "$VECTORS/$file" 2> decrypt.err || want=$?
  got=0
  "$PCRYPT" verify -q "${creds[@]}" "$VECTORS/$file" 2> verify.err || got=$?
  [[ $got == "$want" ]] || fail "$(basename "$vector"): verify exit $got, decrypt exit $want"
  decrypt_err="" verify_err=""
  IFS= read -rd '' decrypt_err < decrypt.err || true
  IFS= read -rd '' verify_err < verify.err || true
  [[ $decrypt_err == "$verify_err" ]] || fail "$(basename "$vector"): verify's error lines differ from decrypt's"
  got=0
  "$PCRYPT" verify -q "${creds[@]}" < "$VECTORS/$file" 2> /dev/null || got=$?
  [[ $got == "$want" ]] || fail "$(basename "$vector") on standard input: verify exit $got, decrypt $want"
done
expect 0 "$PCRYPT" verify -k "$VECTORS/test.key" "$VECTORS/keyfile_three_chunks.pcrypt"
[[ ! -s stderr ]] || fail "verify printed something on success"
only_these_files pass decrypt.err verify.err

"$PCRYPT" keygen -o key
cs=4096
check "ranges at chunk boundaries equal tail -c | head -c, from a file and from a pipe"
for size in 0 1 $cs $((3 * cs + 7)); do
  head -c "$size" /dev/urandom > plain
  "$PCRYPT" encrypt -q -k key --chunk-size 4KiB -o enc -f plain
  # One python3 runs pcrypt for every range, its output to a pipe, from the file and with the file on a pipe,
  # and compares it with the plaintext's slice: the shell did that with three cat processes per range, most of
  # the test's time. Each range once (the points repeat for the small sizes, size - 1 being 0 for size 1...).
  python3 - "$PCRYPT" plain enc "$size" $cs > ranges.fail << 'PY' || fail "$(cat ranges.fail)"
import subprocess, sys
pcrypt, plain, enc, size, cs = sys.argv[1], open(sys.argv[2], "rb").read(), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
encrypted = open(enc, "rb").read()
points = sorted({0, 1, cs - 1, cs, cs + 1, 3 * cs - 1, 3 * cs, 3 * cs + 1, size - 1, size})
for offset in (p for p in points if 0 <= p <= size):
    for length in ("", "0", "1", str(cs), str(cs + 2), str(size + 5)):
        want = plain[offset:][: int(length)] if length else plain[offset:]
        command = [pcrypt, "decrypt", "-q", "-k", "key", "--offset", str(offset)] + (["--length", length] if length else [])
        # Output to a pipe, from the file; then from a pipe (pcrypt may stop reading early: communicate() takes
        # the broken pipe as the end of the input).
        for how, args, given in (("", [enc], None), (" from a pipe", [], encrypted)):
            run = subprocess.run(command + args, input=given, stdout=subprocess.PIPE,
                                 stdin=None if given is not None else subprocess.DEVNULL)
            if run.returncode != 0 or run.stdout != want:
                print(f"size {size} offset {offset} length '{length}'{how}: exit {run.returncode}, wrong bytes")
                sys.exit(1)
PY
  rm ranges.fail
  check "size $size: an offset past the end is a usage error naming the plaintext size"
  expect 2 "$PCRYPT" decrypt -k key --offset $((size + 1)) enc
  bytes=bytes
  [[ $size != 1 ]] || bytes=byte # "1 byte", never "1 bytes"
  expect_one_error "past the end of the plaintext ($size $bytes"
  cat enc > pipe_copy
  expect 2 "$PCRYPT" decrypt -k key --offset $((size + 1)) < pipe_copy
done

check "units, and -o writes the range to a file; without -o it goes to standard output"
head -c $((3 * cs + 7)) /dev/urandom > plain
"$PCRYPT" encrypt -q -k key --chunk-size 4KiB -o enc -f plain
expect 0 "$PCRYPT" decrypt -k key --offset 1KiB --length 4KiB -o part enc
{ tail -c +1025 plain || true; } | head -c 4096 > want
same part want
rm -f part want
only_these_files key plain enc pipe_copy pass decrypt.err verify.err
expect 2 "$PCRYPT" decrypt -k key --offset 1.5K enc
expect_one_error "--offset"

check "a damaged chunk outside the range does not matter; inside it, exit 4"
cp enc damaged
header=$(("$(stat -c %s enc)" - (3 * (cs + 16) + 7 + 16)))
flip_byte damaged $((header + cs + 16 + 100)) # chunk 1
expect 0 "$PCRYPT" decrypt -k key -o /dev/null --offset 0 --length $cs damaged
expect 0 "$PCRYPT" decrypt -k key -o /dev/null --offset $((2 * cs)) damaged
expect 4 "$PCRYPT" decrypt -k key -o /dev/null --offset $((cs + 5)) --length 1 damaged
expect_one_error "chunk 1 at offset"
expect 4 "$PCRYPT" verify -k key damaged

check "a file cut at a chunk boundary: found when the range reaches the end, not otherwise"
head -c $((header + 2 * (cs + 16))) enc > cut
expect 0 "$PCRYPT" decrypt -k key -o /dev/null --length 10 cut
expect 4 "$PCRYPT" decrypt -k key -o /dev/null --offset $cs cut
expect_one_error "truncated payload"
expect 4 "$PCRYPT" decrypt -k key -o /dev/null --offset $cs < cut
expect 4 "$PCRYPT" verify -k key cut

check "info: plaintext size and chunks from the file size, slot kinds, other files named"
"$PCRYPT" info enc > info.txt
grep -qx "plaintext size: $((3 * cs + 7)) bytes (12.0 KiB), from the file size (not verified: that needs the key)" info.txt ||
  fail "info: plaintext size: $(grep plaintext info.txt)"
grep -q '^chunks: 4, the final one holding 7 bytes$' info.txt || fail "info: $(grep chunks info.txt)"
grep -qx 'unlocked by: a key file (1 key-file slot)' info.txt || fail "info: $(grep unlocked info.txt)"
cat enc | "$PCRYPT" info | finds -x 'plaintext size: unknown (the input is not a regular file)' ||
  fail "info on a pipe claims a size"
"$PCRYPT" info "$VECTORS/two_slots_hello.pcrypt" |
  grep -qx 'unlocked by: a key file (1 key-file slot) or a passphrase (1 passphrase slot)' || fail "two slots"
expect 3 "$PCRYPT" info key
expect_one_error "this is a pcrypt key file"
printf '# created: 2026-01-01T00:00:00Z\n# public key: age1qqq\nAGE-SECRET-KEY-1QQQ\n' > age.key
expect 3 "$PCRYPT" info age.key
expect_one_error "this is an age identity (secret key) file"
echo 'age1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq' > age.pub
expect 3 "$PCRYPT" info age.pub
expect_one_error "this is an age recipient"
printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----\n' > id_ed25519
expect 3 "$PCRYPT" info id_ed25519
expect_one_error "this is an OpenSSH private key"
echo 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI user@host' > id_ed25519.pub
expect 3 "$PCRYPT" info < id_ed25519.pub
expect_one_error "this is an OpenSSH public key"
expect 3 "$PCRYPT" info plain
expect_one_error "bad magic"
