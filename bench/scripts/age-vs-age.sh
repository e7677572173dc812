#!/usr/bin/env bash
# age-vs-age.sh PCRYPT_BINARY [RUNS] [SIZE] [DIR] — pcrypt's age format against the real age, same run.
# One page-cached random file (default 1G, in DIR, default /dev/shm) encrypted to one X25519 recipient with
# `pcrypt encrypt --format age` and with `age -r`, and an age-made file decrypted by `pcrypt decrypt` and by
# `age -d`, all to /dev/null, alternating the four commands run by run. Prints each command's median wall time
# and pcrypt's time as a fraction of age's (goal: at most 0.25), then peak RSS of each pcrypt command
# (/usr/bin/time -f %M). Extra pcrypt flags via PCRYPT_FLAGS (e.g. "-j1" for the one-core point).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
pc=$(readlink -f "${1:?usage: age-vs-age.sh PCRYPT_BINARY [RUNS] [SIZE] [DIR]}")
runs=${2:-7}
size=${3:-1G}
dir=${4:-/dev/shm}
w=$(mktemp -d "$dir/pcrypt-age-vs-age.XXXXXX")
trap 'rm -rf "$w"' EXIT
head -c "$size" /dev/urandom >"$w/in"
age-keygen -o "$w/key" 2>/dev/null
r=$(age-keygen -y "$w/key")
age -r "$r" -o "$w/in.age" "$w/in"
names=("pcrypt encrypt --format age" "age -r" "pcrypt decrypt" "age -d")
cmds=("'$pc' encrypt -q -f ${PCRYPT_FLAGS:-} --format age -r $r -o /dev/null '$w/in'"
  "age -r $r -o /dev/null '$w/in'"
  "'$pc' decrypt -q -f ${PCRYPT_FLAGS:-} -i '$w/key' -o /dev/null '$w/in.age'"
  "age -d -i '$w/key' -o /dev/null '$w/in.age'")
run_alternating "$runs"
declare -a med
for j in "${!cmds[@]}"; do med[$j]=$(median_seconds "$w/t$j"); done
printf '%-30s %12s\n' command "median (s)"
for j in "${!cmds[@]}"; do printf '%-30s %12.3f\n' "${names[$j]}" "${med[$j]}"; done
printf 'encrypt: pcrypt/age = %.3f\n' "$(echo "${med[0]} / ${med[1]}" | bc -l)"
printf 'decrypt: pcrypt/age = %.3f\n' "$(echo "${med[2]} / ${med[3]}" | bc -l)"
for j in 0 2; do
  rss=$(bash -c "/usr/bin/time -f %M ${cmds[$j]}" 2>&1 >/dev/null | tail -1)
  printf 'peak RSS %-26s %s KiB\n' "${names[$j]}" "$rss"
done
