#!/usr/bin/env bash
# run-all.sh PCRYPT_BINARY [OUTDIR] — the measurements behind docs/BENCHMARKS.md, in one go.
# Runs every `pcrypt bench` experiment at full size (markdown for the document, json for tools), then
# `openssl speed` for AES-256-GCM and AES-256-CTR in the same session, and records the exact command lines.
# Takes about 15 minutes on 2 cores; run it on an otherwise idle machine. Environment knobs:
#   ENGINES="aesni vaes"   engines for the keystream experiment (default: every supported one with raw AES)
#   KS_DATA=256MiB         keystream data per sample for hardware engines (the experiment's default is 1GiB,
#                          about 10 minutes per engine on 2 cores; 256 MiB still gives >= 40 ms per sample)
#   PORTABLE_DATA=16MiB    the same for the (slow) portable engine
#   SKIP_OPENSSL=1         leave out `openssl speed`
set -euo pipefail
pc=$(readlink -f "${1:?usage: run-all.sh PCRYPT_BINARY [OUTDIR]}")
out=${2:-bench-results-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
log="$out/commands.txt"
: >"$log"

run() {  # run NAME CMD...: stdout to $out/NAME, command line to commands.txt
  local name=$1
  shift
  echo "\$ $*" | sed "s|$pc|pcrypt|" >>"$log"
  "$@" >"$out/$name"
}

if [[ -z ${ENGINES:-} ]]; then
  # The machine facts list the engines compiled in, marking those this CPU cannot run; sodium has no raw AES.
  ENGINES=$("$pc" bench engines --quick --format csv | sed -n 's/^# engines: //p' | tr ',' '\n' |
    grep -v unsupported | tr -d ' ' | grep -v '^sodium$' | tr '\n' ' ')
fi
for e in $ENGINES; do
  extra=(--data-size "${KS_DATA:-256MiB}")
  [[ $e == portable ]] && extra=(--data-size "${PORTABLE_DATA:-16MiB}")
  run "keystream-$e.md" "$pc" bench keystream --engine "$e" "${extra[@]}" --format markdown
done
run throughput.md "$pc" bench throughput --format markdown
run throughput-sweep.md "$pc" bench throughput --sizes 1GiB --runs 5 -j 1,2 --chunk-size 64KiB,1MiB,4MiB --format markdown
run engines.md "$pc" bench engines --format markdown
run engines.json "$pc" bench engines --format json

if [[ -z ${SKIP_OPENSSL:-} ]] && command -v openssl >/dev/null; then
  run openssl-version.txt openssl version -a
  run openssl-gcm.txt openssl speed -evp aes-256-gcm
  run openssl-ctr.txt openssl speed -evp aes-256-ctr
  run openssl-gcm-mt.txt openssl speed -multi 2 -evp aes-256-gcm
fi
echo "results in $out (commands in $log)"
