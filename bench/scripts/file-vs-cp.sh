#!/usr/bin/env bash
# file-vs-cp.sh PCRYPT_BINARY [RUNS] [SIZE] [DIR] — file to file against `cp`, same run.
# Copies, encrypts and decrypts one page-cached random file (default 1G) into new files in DIR (default
# /dev/shm: tmpfs, so the final fsync of pcrypt and the page-cache writeback of cp cost no disk wait and the
# comparison is the CPU work alone), alternating the three commands run by run; outputs are removed between
# runs, outside the timing. Prints each command's median wall time and the ratios to cp.
# Default pcrypt options (engine, workers, chunk size); extra flags via PCRYPT_FLAGS.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
pc=$(readlink -f "${1:?usage: file-vs-cp.sh PCRYPT_BINARY [RUNS] [SIZE] [DIR]}")
runs=${2:-9}
size=${3:-1G}
dir=${4:-/dev/shm}
w=$(mktemp -d "$dir/pcrypt-file-vs-cp.XXXXXX")
trap 'rm -rf "$w"' EXIT
head -c "$size" /dev/urandom >"$w/in"
"$pc" keygen -o "$w/key" >/dev/null
"$pc" encrypt -q -k "$w/key" -o "$w/in.pcrypt" "$w/in"
names=("cp" "pcrypt encrypt" "pcrypt decrypt")
outs=("$w/out.cp" "$w/out.pcrypt" "$w/out.plain")
cmds=("cp '$w/in' '${outs[0]}'"
  "'$pc' encrypt -q ${PCRYPT_FLAGS:-} -k '$w/key' -o '${outs[1]}' '$w/in'"
  "'$pc' decrypt -q ${PCRYPT_FLAGS:-} -k '$w/key' -o '${outs[2]}' '$w/in.pcrypt'")
run_alternating "$runs"
cmp <("$pc" decrypt -q -k "$w/key" -o - "$w/in.pcrypt") "$w/in" # the decrypt timed above was a real one
echo "# $(df -T "$dir" | awk 'NR == 2 {print $2}') at $dir, $size, $runs runs; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for j in "${!cmds[@]}"; do
  m[j]=$(median_seconds "$w/t$j")
  printf '%-16s %8ss (median of %d)\n' "${names[$j]}" "${m[$j]}" "$runs"
done
awk -v c="${m[0]}" -v e="${m[1]}" -v d="${m[2]}" 'BEGIN {printf "ratios: encrypt/cp %.2f  decrypt/cp %.2f\n", e / c, d / c}'
