#!/usr/bin/env bash
# peak-rss.sh PCRYPT_BINARY [DIR] — pcrypt's peak resident memory (/usr/bin/time's %M) for inputs of 256 MiB
# and 2 GiB: through pipes (the ordered reader and writer) and file to file in DIR (default /dev/shm: the
# positional paths, workers reading and writing the files themselves), at the default worker count and at
# -j8. The pipeline's promise is at most 2*workers+3 chunk buffers whatever the input size, so the figures
# must not grow with the input (goal: <= 64 MiB at the defaults).
set -euo pipefail
pc=$(readlink -f "${1:?usage: peak-rss.sh PCRYPT_BINARY [DIR]}")
dir=${2:-/dev/shm}
command -v /usr/bin/time >/dev/null || { echo "peak-rss: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
w=$(mktemp -d "$dir/pcrypt-peak-rss.XXXXXX")
trap 'rm -rf "$w"' EXIT
"$pc" keygen -o "$w/key" >/dev/null
timed() { /usr/bin/time -f %M -o "$w/rss" "$@"; }  # the command's peak RSS in KiB goes to $w/rss
mib() { awk '{printf "%.1f MiB", $1 / 1024}' "$w/rss"; }
echo "| input | workers | encrypt, pipe | decrypt, pipe | encrypt, file | decrypt, file |"
echo "|---|---|---:|---:|---:|---:|"
for size in 256M 2G; do
  head -c "$size" /dev/zero >"$w/in"
  for jobs in default 8; do
    flags=()
    [[ $jobs == default ]] || flags=(-j "$jobs")
    timed "$pc" encrypt -q "${flags[@]}" -k "$w/key" <"$w/in" >"$w/in.pcrypt" && ep=$(mib)
    timed "$pc" decrypt -q "${flags[@]}" -k "$w/key" <"$w/in.pcrypt" >/dev/null && dp=$(mib)
    timed "$pc" encrypt -q -f "${flags[@]}" -k "$w/key" -o "$w/f.pcrypt" "$w/in" && ef=$(mib)
    timed "$pc" decrypt -q -f "${flags[@]}" -k "$w/key" -o "$w/f.out" "$w/f.pcrypt" && df=$(mib)
    cmp "$w/in" "$w/f.out"
    echo "| ${size}iB | $jobs | $ep | $dp | $ef | $df |"
    rm -f "$w/in.pcrypt" "$w/f.pcrypt" "$w/f.out"
  done
done
