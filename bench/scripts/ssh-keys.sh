#!/usr/bin/env bash
# ssh-keys.sh PCRYPT_BINARY [RUNS] — the costs of SSH identities (FORMAT.md §3.1, §10.4, §10.7), medians of
# RUNS (default 5) wall-clock runs each, as Markdown rows:
#  - rejecting a hostile header with the most slots (255) and no slot that opens: 255 X25519 slots tried
#    with an X25519 identity, and 255 RSA slots all carrying the tag of the RSA identity given (the worst
#    case: one RSA-OAEP decryption per slot), for 2048- and 4096-bit keys; each must exit 3;
#  - decrypting a 1 MiB file with an ssh-ed25519 and with RSA identities (unencrypted keys), and age doing
#    the same with the same keys when it is installed;
#  - bcrypt_pbkdf at ssh-keygen's default 16 rounds (opening a passphrase-protected key, typed on a pty).
set -euo pipefail
pc=$(readlink -f "${1:?usage: ssh-keys.sh PCRYPT_BINARY [RUNS]}")
runs=${2:-5}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w"
seconds() {  # seconds CMD...: median wall time of RUNS runs of CMD (its output and exit status ignored)
  local i
  for ((i = 0; i < runs; i++)); do
    local s e
    s=$(date +%s.%N)
    "$@" > /dev/null 2>&1 || true
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN {print e - s}'
  done | sort -n | awk '{a[NR] = $1} END {printf "%.3f", a[int((NR + 1) / 2)]}'
}
head -c 1M /dev/urandom > plain
ssh-keygen -q -t ed25519 -N '' -f ed
ssh-keygen -q -t rsa -b 2048 -N '' -f rsa2048
ssh-keygen -q -t rsa -b 4096 -N '' -f rsa4096
"$pc" keygen --identity -o x.key 2> /dev/null
"$pc" keygen --identity -o other.key 2> /dev/null

# hostile FILE SLOTS_FROM: a header of 255 copies of the one recipient slot of SLOTS_FROM, each with one
# ciphertext byte changed (so none opens), then the original MAC and payload.
hostile() {
  python3 - "$1" "$2" << 'PY'
import sys
src = open(sys.argv[2], "rb").read()
kind = src[15]
if kind == 6:
    size = 7 + (src[15 + 5] << 8 | src[15 + 6])
elif kind == 3:
    size = 81
else:
    raise SystemExit("unexpected slot kind %d" % kind)
slot = bytearray(src[15:15 + size])
slot[-1] ^= 1
out = bytearray(src[:14]) + bytes([255]) + bytes(slot) * 255 + src[15 + size:]
open(sys.argv[1], "wb").write(out)
PY
}
"$pc" encrypt -r "$("$pc" recipient other.key)" plain -o x1.pcrypt
hostile x255.pcrypt x1.pcrypt
for bits in 2048 4096; do
  "$pc" encrypt -R rsa$bits.pub plain -o r$bits.pcrypt
  hostile h$bits.pcrypt r$bits.pcrypt
done
for f in x255.pcrypt h2048.pcrypt h4096.pcrypt; do
  rc=0
  "$pc" decrypt -i "$( [[ $f == x* ]] && echo x.key || echo rsa${f:1:4})" "$f" -o /dev/null 2> /dev/null || rc=$?
  [[ $rc == 3 ]] || { echo "ssh-keys: $f exited $rc, expected 3" >&2; exit 1; }
done
echo "| what | command | median s |"
echo "|---|---|---:|"
echo "| reject 255 X25519 slots, X25519 identity | \`pcrypt decrypt -i x.key x255.pcrypt\` (exit 3) | $(seconds "$pc" decrypt -i x.key x255.pcrypt -o /dev/null) |"
echo "| reject 255 RSA slots with the key's tag, RSA-2048 identity | \`pcrypt decrypt -i rsa2048 h2048.pcrypt\` (exit 3) | $(seconds "$pc" decrypt -i rsa2048 h2048.pcrypt -o /dev/null) |"
echo "| reject 255 RSA slots with the key's tag, RSA-4096 identity | \`pcrypt decrypt -i rsa4096 h4096.pcrypt\` (exit 3) | $(seconds "$pc" decrypt -i rsa4096 h4096.pcrypt -o /dev/null) |"
"$pc" encrypt -R ed.pub plain -o ed.pcrypt
echo "| decrypt 1 MiB, ssh-ed25519 identity | \`pcrypt decrypt -i ed ed.pcrypt\` | $(seconds "$pc" decrypt -i ed ed.pcrypt -o /dev/null) |"
for bits in 2048 4096; do
  echo "| decrypt 1 MiB, RSA-$bits identity | \`pcrypt decrypt -i rsa$bits r$bits.pcrypt\` | $(seconds "$pc" decrypt -i rsa$bits r$bits.pcrypt -o /dev/null) |"
done
if command -v age > /dev/null; then
  age -R ed.pub -o ed.age plain
  echo "| age: decrypt 1 MiB, ssh-ed25519 identity | \`age -d -i ed ed.age\` | $(seconds age -d -i ed -o /dev/null ed.age) |"
  for bits in 2048 4096; do
    age -R rsa$bits.pub -o r$bits.age plain
    echo "| age: decrypt 1 MiB, RSA-$bits identity | \`age -d -i rsa$bits r$bits.age\` | $(seconds age -d -i rsa$bits -o /dev/null r$bits.age) |"
  done
fi
