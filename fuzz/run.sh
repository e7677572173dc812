#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang and runs each for SECONDS (default 60) from its seed corpus
# (fuzz/CMakeLists.txt names the seeds). Fails, keeping the crashing input in BUILD_DIR/artifacts/, as soon as
# one fuzzer finds a crash, leak or timeout. Usage: fuzz/run.sh [SECONDS] [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${2:-build-fuzz}
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPCRYPT_WERROR=ON \
  -DPCRYPT_FUZZ=ON -DPCRYPT_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j2 --target fuzzers
mkdir -p "$build/artifacts"
while read -r fuzzer seeds; do
  # A scratch corpus per run: libFuzzer adds the inputs it finds to it, never to tests/vectors.
  corpus=$(mktemp -d)
  # shellcheck disable=SC2086  # seeds is a list of paths without spaces
  cp $seeds "$corpus/"
  echo "== $fuzzer: ${seconds}s from $(ls "$corpus" | wc -l) seeds"
  status=0
  "$build/fuzz/$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$fuzzer-" "$corpus" 2>"$build/artifacts/$fuzzer.log" || status=$?
  grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$build/artifacts/$fuzzer.log" || true
  rm -rf "$corpus"
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$build/artifacts/$fuzzer.log"
    echo "fuzz/run.sh: $fuzzer failed (exit $status); input saved as $build/artifacts/$fuzzer-*" >&2
    exit 1
  fi
done <"$build/fuzz/fuzzers.txt"
echo "fuzz/run.sh: no crash in $seconds s per fuzzer"
