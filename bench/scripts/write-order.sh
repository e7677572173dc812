#!/usr/bin/env bash
# write-order.sh PCRYPT_BINARY [ROUNDS] [SIZE] [DIR] — file-to-file encrypt and decrypt (with pcrypt's final
# fsync) in alternating order, then `cp` + `sync` of the same bytes, each step after a `sync`: shows whether a
# slow step follows the direction (ours) or the position in the round (the disk's write-back). Defaults: 5
# rounds, 256M, a directory under the current one (a disk, not a tmpfs). Prints one line per round, in ms.
set -euo pipefail
pc=$(readlink -f "${1:?usage: write-order.sh PCRYPT_BINARY [ROUNDS] [SIZE] [DIR]}")
rounds=${2:-5}
size=${3:-256M}
w=$(mktemp -d "${4:-$PWD}/pcrypt-write-order.XXXXXX")
trap 'rm -rf "$w"' EXIT
head -c "$size" /dev/urandom >"$w/data"
"$pc" keygen -o "$w/key" >/dev/null
"$pc" encrypt -q -k "$w/key" -o "$w/ct" "$w/data"
ms() {
  local s e
  s=$(date +%s%N)
  "$@"
  e=$(date +%s%N)
  echo $(((e - s) / 1000000))
}
echo "# $(df -T "$w" | awk 'NR == 2 {print $2}') at $w, $size; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 1; i <= rounds; i++)); do
  if ((i % 2)); then order=(encrypt decrypt); else order=(decrypt encrypt); fi
  line="round $i:"
  for op in "${order[@]}"; do
    sync
    if [[ $op == encrypt ]]; then
      t=$(ms "$pc" encrypt -q -k "$w/key" -o "$w/e.out" "$w/data")
    else
      t=$(ms "$pc" decrypt -q -k "$w/key" -o "$w/d.out" "$w/ct")
    fi
    line+=" $op ${t} ms"
  done
  sync
  line+=" cp+sync $(ms sh -c 'cp "$1" "$2" && sync "$2"' sh "$w/ct" "$w/c.out") ms"
  echo "$line"
  rm -f "$w/e.out" "$w/d.out" "$w/c.out"
done
