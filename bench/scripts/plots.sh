#!/usr/bin/env bash
# plots.sh [--quick] PCRYPT_BINARY [OUTDIR] — runs the benchmarks behind docs/BENCHMARKS.md's plots on this
# machine and draws them (bench/scripts/plots.py, Debian's python3-matplotlib), in one go:
#   keystream.json   pcrypt bench keystream (the 1997 BSAFE experiment: request size x XOR method)
#   engines.json     pcrypt bench engines (portable vs hardware AES, AEAD seal by message size)
#   throughput.json  pcrypt bench throughput (MT-AES: 512 MiB, 1 GiB, 2 GiB x 10 runs)
#   scaling.json     pcrypt bench throughput -j 1,2,... (1 GiB, 5 runs, 1 to 2 x cores threads)
#   peers.csv        a page-cached file (1 GiB) encrypted and decrypted to /dev/null by pcrypt, age 1.x,
#                    openssl enc -aes-256-ctr (no authentication: for scale) and read by cat, alternating run
#                    by run (bench/scripts/lib.sh), 7 runs; a peer that is not installed is left out
#   load.txt         `uptime`'s load averages before and after, printed on every plot
# then keystream, engines, throughput, scaling and peers .png and .svg beside them. OUTDIR defaults to
# docs/benchmarks/plots (what the documents show). Takes about 10 minutes on 2 cores; run it on an otherwise
# idle machine. --quick: the experiments' --quick sizes and a 16 MiB file with 2 runs, seconds in all, for
# the test suite (tests/cli/test_plots.sh): the numbers are noise, the plots are checked to be drawn.
# Environment: KS_DATA (keystream data per sample, default 256MiB), PEER_SIZE (default 1G), PEER_RUNS (7).
set -euo pipefail
quick=()
if [[ ${1:-} == --quick ]]; then
  quick=(--quick)
  shift
fi
here=$(cd "$(dirname "$0")" && pwd)
pc=$(readlink -f "${1:?usage: plots.sh [--quick] PCRYPT_BINARY [OUTDIR]}")
out=${2:-$here/../../docs/benchmarks/plots}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# The first Python that has matplotlib: python3 on PATH, else Debian's (a virtualenv or pyenv on PATH may lack
# the Debian package).
python=
for candidate in "${PYTHON:-python3}" /usr/bin/python3; do
  if "$candidate" -c 'import matplotlib' 2> /dev/null; then
    python=$candidate
    break
  fi
done
[[ -n $python ]] || {
  echo "plots.sh: python3-matplotlib is needed (apt-get install python3-matplotlib)" >&2
  exit 1
}
load_before=$(uptime | sed 's/.*load average: //')
step() { echo "== $*" >&2; }

cores=$(nproc)
threads=1
for ((t = 2; t <= 2 * cores; t *= 2)); do threads+=",$t"; done
if [[ ${#quick[@]} -gt 0 ]]; then
  # (One timed sample per case, no warm-up: the numbers are noise anyway, the plots only need the tables.)
  quick+=(--max-samples 1 --max-time 0.01 --warmups 0)
  ks=("${quick[@]}")
  tp=("${quick[@]}")
  sc=("${quick[@]}" -j "$threads")
  peer_size=16M peer_runs=2
else
  ks=(--data-size "${KS_DATA:-256MiB}")
  tp=()
  sc=(--sizes 1GiB --runs 5 -j "$threads")
  peer_size=${PEER_SIZE:-1G} peer_runs=${PEER_RUNS:-7}
fi
step "pcrypt bench keystream ${ks[*]}"
"$pc" bench keystream "${ks[@]}" --format json > "$out/keystream.json"
step "pcrypt bench engines ${quick[*]}"
"$pc" bench engines "${quick[@]}" --format json > "$out/engines.json"
step "pcrypt bench throughput ${tp[*]}"
"$pc" bench throughput "${tp[@]}" --format json > "$out/throughput.json"
step "pcrypt bench throughput ${sc[*]}"
"$pc" bench throughput "${sc[@]}" --format json > "$out/scaling.json"

step "end to end: $peer_size page-cached file to /dev/null, $peer_runs alternating runs"
w=$(mktemp -d "${TMPDIR:-/tmp}/pcrypt-plots.XXXXXX")
trap 'rm -rf "$w"' EXIT
source "$here/lib.sh"
head -c "$peer_size" /dev/urandom > "$w/in"
"$pc" keygen -o "$w/key"
"$pc" encrypt -q -k "$w/key" -o "$w/in.pcrypt" "$w/in"
names=("encrypt,pcrypt encrypt -k" "decrypt,pcrypt decrypt -k" "read,cat")
cmds=("'$pc' encrypt -q -k '$w/key' -o - '$w/in' > /dev/null"
  "'$pc' decrypt -q -k '$w/key' -o - '$w/in.pcrypt' > /dev/null"
  "cat '$w/in' > /dev/null")
if command -v age > /dev/null && command -v age-keygen > /dev/null; then
  age-keygen -o "$w/age.key" 2> /dev/null
  recipient=$(age-keygen -y "$w/age.key")
  age -r "$recipient" -o "$w/in.age" "$w/in"
  names+=("encrypt,pcrypt encrypt --format age -r" "decrypt,pcrypt decrypt -i (age file)"
    "encrypt,age -r" "decrypt,age -d")
  cmds+=("'$pc' encrypt -q --format age -r $recipient -o - '$w/in' > /dev/null"
    "'$pc' decrypt -q -i '$w/age.key' -o - '$w/in.age' > /dev/null"
    "age -r $recipient '$w/in' > /dev/null"
    "age -d -i '$w/age.key' '$w/in.age' > /dev/null")
fi
if command -v openssl > /dev/null; then
  names+=("encrypt,openssl enc -aes-256-ctr")
  cmds+=("openssl enc -aes-256-ctr -K $(printf '%064d' 0) -iv $(printf '%032d' 0) -in '$w/in' > /dev/null")
fi
run_alternating "$peer_runs"
{
  # (The engine the experiments above used, from their machine facts: not another bench run.)
  echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $cores cores, $(sed -n 's/^ *"engine": "\([^"]*\)".*/\1/p' "$out/engines.json" | head -1)"
  echo "# size: $peer_size"
  echo "# age: $(age --version 2> /dev/null || echo 'not installed'); openssl: $(openssl version 2> /dev/null || echo 'not installed')"
  echo "command,operation,run,seconds"
  for j in "${!cmds[@]}"; do
    op=${names[$j]%%,*}
    name=${names[$j]#*,}
    awk -v c="$name" -v o="$op" '{ printf "%s,%s,%d,%.6f\n", c, o, NR, $1 / 1e6 }' "$w/t$j"
  done
} > "$out/peers.csv"

echo "before: $load_before; after: $(uptime | sed 's/.*load average: //')" > "$out/load.txt"
step "drawing (load $(cat "$out/load.txt"))"
"$python" "$here/plots.py" "$out"
