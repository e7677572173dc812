#!/usr/bin/env bash
# end-to-end-goals.sh PCRYPT_BINARY [RUNS] [SIZE] [DIR] — issue 36's end-to-end figures, all in one run.
# One random file (default 1G) in DIR (default /var/tmp: ext4 on the machines measured, where users' files are;
# pass /dev/shm for tmpfs) in two copies of the same bytes: `head`, written 4 KiB at a time by `head -c` from
# /dev/urandom, and `dd1m`, the same bytes copied by `dd bs=1M`. Reading a file back out of the page cache costs
# about twice as much CPU when it was written in small pieces (docs/benchmarks/2026-11-28-encrypt-vs-decrypt.md),
# so the plaintext's kind is stated with every figure. For each kind, alternating command by command, RUNS
# rounds (default 9) after one warm-up round, all outputs to /dev/null:
#   cat > /dev/null; pcrypt encrypt and decrypt (pcrypt format, -j2 and -j1); pcrypt encrypt --format age and
#   `age -r`; pcrypt decrypt and `age -d` of one age-made file; the age-format pair again at -j1; and the
#   machine's own limits beside them (issue 46): two `cat`s of two copies at once (the two-core page-cache copy
#   rate), `dd bs=1M` (a read at pcrypt's item size), and two `pcrypt encrypt -j1` and two `pcrypt decrypt -j1`
#   of two copies at once (how far two processes of pcrypt's own work scale on this machine); and Cobblestone-128
#   (C2SP chunked encryption, 16 KiB chunks) encrypt and decrypt at -j2 and -j1 (issue 43).
# Prints, per command, the median wall time and the median CPU time (user + system, bash's `time`), then the
# goals' ratios from the medians: pcrypt/cat (goal <= 0.80), pcrypt age/age (encrypt <= 0.25, decrypt <= 0.20)
# and -j1/-j2 wall (goal >= 1.8, or within 10 % of the two-process scaling, 2 x (-j1) / (two -j1 at once)),
# and Cobblestone-128/pcrypt format (goal <= 1.25).
# Wall figures need a quiet machine (the load is printed); CPU figures less so.
set -euo pipefail
TIMEFORMAT='%3R %3U %3S'
pc=$(readlink -f "${1:?usage: end-to-end-goals.sh PCRYPT_BINARY [RUNS] [SIZE] [DIR]}")
runs=${2:-9}
size=${3:-1G}
dir=${4:-/var/tmp}
w=$(mktemp -d "$dir/pcrypt-goals.XXXXXX")
trap 'rm -rf "$w"' EXIT
head -c "$size" /dev/urandom >"$w/head"
dd if="$w/head" of="$w/dd1m" bs=1M status=none
dd if="$w/head" of="$w/dd1m-b" bs=1M status=none
"$pc" keygen -o "$w/key" >/dev/null
"$pc" keygen --raw 16 -o "$w/raw16"
age-keygen -o "$w/id" 2>/dev/null
r=$(age-keygen -y "$w/id")
"$pc" encrypt -q -k "$w/key" -o "$w/in.pcrypt" "$w/dd1m"
cp "$w/in.pcrypt" "$w/in-b.pcrypt"
"$pc" encrypt -q --format cobblestone-128 --raw-key "$w/raw16" -o "$w/in.cobblestone" "$w/dd1m"
age -r "$r" -o "$w/in.age" "$w/dd1m"

names=(cat "pcrypt enc -j2" "pcrypt dec -j2" "pcrypt enc -j1" "pcrypt dec -j1" "age-fmt enc -j2" "age -r"
  "age-fmt dec -j2" "age -d" "age-fmt enc -j1" "age-fmt dec -j1" "two cats" "dd bs=1M" "two enc -j1"
  "two dec -j1" "cob128 enc -j2" "cob128 dec -j2" "cob128 enc -j1" "cob128 dec -j1")
commands() { # the command strings for plaintext file $1
  cmds=("cat '$1'"
    "'$pc' encrypt -q -f -j2 -k '$w/key' -o /dev/null '$1'"
    "'$pc' decrypt -q -f -j2 -k '$w/key' -o /dev/null '$w/in.pcrypt'"
    "'$pc' encrypt -q -f -j1 -k '$w/key' -o /dev/null '$1'"
    "'$pc' decrypt -q -f -j1 -k '$w/key' -o /dev/null '$w/in.pcrypt'"
    "'$pc' encrypt -q -f -j2 --format age -r $r -o /dev/null '$1'"
    "age -r $r -o /dev/null '$1'"
    "'$pc' decrypt -q -f -j2 -i '$w/id' -o /dev/null '$w/in.age'"
    "age -d -i '$w/id' -o /dev/null '$w/in.age'"
    "'$pc' encrypt -q -f -j1 --format age -r $r -o /dev/null '$1'"
    "'$pc' decrypt -q -f -j1 -i '$w/id' -o /dev/null '$w/in.age'"
    "cat '$1' & cat '$w/dd1m-b'; wait"
    "dd if='$1' of=/dev/null bs=1M"
    "'$pc' encrypt -q -f -j1 -k '$w/key' -o /dev/null '$1' & '$pc' encrypt -q -f -j1 -k '$w/key' -o /dev/null '$w/dd1m-b'; wait"
    "'$pc' decrypt -q -f -j1 -k '$w/key' -o /dev/null '$w/in.pcrypt' & '$pc' decrypt -q -f -j1 -k '$w/key' -o /dev/null '$w/in-b.pcrypt'; wait"
    "'$pc' encrypt -q -f -j2 --format cobblestone-128 --raw-key '$w/raw16' -o /dev/null '$1'"
    "'$pc' decrypt -q -f -j2 --format cobblestone-128 --raw-key '$w/raw16' -o /dev/null '$w/in.cobblestone'"
    "'$pc' encrypt -q -f -j1 --format cobblestone-128 --raw-key '$w/raw16' -o /dev/null '$1'"
    "'$pc' decrypt -q -f -j1 --format cobblestone-128 --raw-key '$w/raw16' -o /dev/null '$w/in.cobblestone'")
}

# median FILE COLUMN: the median of a column of numbers (the mean of the middle two for an even count).
median() {
  awk -v c="$2" '{print $c}' "$1" | sort -g |
    awk '{a[NR] = $1} END {printf "%.3f", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}

for kind in head dd1m; do
  commands "$w/$kind"
  cat "$w/$kind" "$w/dd1m-b" "$w/in.pcrypt" "$w/in-b.pcrypt" "$w/in.age" "$w/in.cobblestone" >/dev/null # page-cached before the warm-up
  rm -f "$w"/t*
  for ((i = 0; i <= runs; i++)); do
    for j in "${!cmds[@]}"; do
      # bash's `time` of the command (exec'd by the inner shell): wall, user, system seconds in ms resolution;
      # round 0 is the warm-up
      line=$({ time bash -c "exec ${cmds[$j]}" >/dev/null 2>&1; } 2>&1)
      ((i == 0)) || echo "$line" | awk '{print $1, $2 + $3}' >>"$w/t$j"
    done
  done
  echo "# plaintext '$kind' ($size), $(df -T "$dir" | awk 'NR == 2 {print $2}') at $dir, $runs runs;" \
    "load: $(cut -d' ' -f1-3 /proc/loadavg)"
  declare -a wall cpu
  printf '%-18s %10s %10s\n' command "wall (s)" "cpu (s)"
  for j in "${!cmds[@]}"; do
    wall[j]=$(median "$w/t$j" 1)
    cpu[j]=$(median "$w/t$j" 2)
    printf '%-18s %10s %10s\n' "${names[$j]}" "${wall[$j]}" "${cpu[$j]}"
  done
  ratio() { echo "$1 / $2" | bc -l | xargs printf '%.2f'; }
  echo "pcrypt/cat: encrypt $(ratio "${wall[1]}" "${wall[0]}"), decrypt $(ratio "${wall[2]}" "${wall[0]}") (goal <= 0.80)"
  echo "age format/age: encrypt $(ratio "${wall[5]}" "${wall[6]}") (goal <= 0.25)," \
    "decrypt $(ratio "${wall[7]}" "${wall[8]}") (goal <= 0.20)"
  echo "-j1 -> -j2: pcrypt enc $(ratio "${wall[3]}" "${wall[1]}"), pcrypt dec $(ratio "${wall[4]}" "${wall[2]}")," \
    "age enc $(ratio "${wall[9]}" "${wall[5]}"), age dec $(ratio "${wall[10]}" "${wall[7]}") (goal >= 1.8)"
  echo "the machine: two cats at once scale $(ratio "$(echo "2 * ${wall[0]}" | bc -l)" "${wall[11]}")x," \
    "two pcrypt enc -j1 $(ratio "$(echo "2 * ${wall[3]}" | bc -l)" "${wall[13]}")x," \
    "two pcrypt dec -j1 $(ratio "$(echo "2 * ${wall[4]}" | bc -l)" "${wall[14]}")x; dd bs=1M/cat $(ratio "${wall[12]}" "${wall[0]}")"
  echo "cobblestone-128/pcrypt format: encrypt $(ratio "${wall[15]}" "${wall[1]}"), decrypt" \
    "$(ratio "${wall[16]}" "${wall[2]}") (goal <= 1.25); -j1 -> -j2: encrypt $(ratio "${wall[17]}" "${wall[15]}")," \
    "decrypt $(ratio "${wall[18]}" "${wall[16]}") (goal >= 1.8)"
done
