# Shared by bench/scripts/*.sh (sourced, after `set -euo pipefail` and with the work directory in $w): the
# alternating timing loop the same-run comparisons use, and its median.

# run_alternating RUNS: runs each command string of the array `cmds` once as a warm-up, then RUNS rounds of
# all of them in turn (so a machine's drift hits every command alike), appending each run's wall time in
# microseconds to $w/t<index>. The file named at the same index of the array `outs`, if any, is removed
# after each run, outside the timing.
run_alternating() {
  local runs=$1 i j s e
  for j in "${!cmds[@]}"; do
    bash -c "${cmds[$j]}"
    rm -f "${outs[$j]:-}"
  done
  for ((i = 0; i < runs; i++)); do
    for j in "${!cmds[@]}"; do
      s=$(date +%s%N)
      bash -c "${cmds[$j]}"
      e=$(date +%s%N)
      echo $(((e - s) / 1000)) >>"$w/t$j"
      rm -f "${outs[$j]:-}"
    done
  done
}

# median_seconds FILE: the median of FILE's microsecond times (the mean of the middle two for an even count),
# in seconds, 4 decimals.
median_seconds() {
  sort -n "$1" | awk '{a[NR] = $1} END {printf "%.4f", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) / 1e6}'
}
