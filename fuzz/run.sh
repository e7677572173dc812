#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang and runs each for SECONDS (default 60) from its seed corpus
# (fuzz/CMakeLists.txt names the seeds). Fails, keeping the crashing input in BUILD_DIR/artifacts/, when
# any fuzzer finds a crash, leak or timeout. Runs FUZZ_JOBS (default: the number of cores) at a time.
# Usage: fuzz/run.sh [SECONDS | --total SECONDS] [BUILD_DIR]
#   --total SECONDS: the whole run's wall-clock budget, shared evenly (each fuzzer gets SECONDS x jobs /
#   fuzzers, at least 1 s): what CI uses, so that a new fuzzer costs the others time, not CI.
set -euo pipefail
cd "$(dirname "$0")/.."
total=""
if [[ ${1:-} == --total ]]; then
  total=${2:?usage: fuzz/run.sh [SECONDS | --total SECONDS] [BUILD_DIR]}
  shift 2
fi
if [[ -n $total ]]; then
  build=${1:-build-fuzz}
else
  seconds=${1:-60}
  build=${2:-build-fuzz}
fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# A build directory already configured with PCRYPT_FUZZ=ON is used as it is: CI's ASan stage configures
# build-fuzz with the tests too and runs them, so the library objects are compiled once for both.
if ! grep -qx 'PCRYPT_FUZZ:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Check -DCMAKE_UNITY_BUILD=ON -DPCRYPT_WERROR=ON \
    -DPCRYPT_FUZZ=ON -DPCRYPT_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
fi
cmake --build "$build" -j2 --target fuzzers
mkdir -p "$build/artifacts"
jobs=${FUZZ_JOBS:-$(nproc)}
if [[ -n $total ]]; then
  fuzzers=$(grep -c . "$build/fuzz/fuzzers.txt")
  seconds=$((total * jobs / fuzzers))
  ((seconds >= 1)) || seconds=1
  echo "fuzz/run.sh: $total s in all for $fuzzers fuzzers, $jobs at a time: $seconds s each"
fi

# run_one FUZZER SEEDS...: one fuzzer for the given time; its report goes to artifacts/FUZZER.report.
run_one() {
  local fuzzer=$1 corpus status=0
  shift
  # A scratch corpus per run: libFuzzer adds the inputs it finds to it, never to tests/vectors.
  corpus=$(mktemp -d)
  cp "$@" "$corpus/"
  {
    echo "== $fuzzer: ${seconds}s from $(ls "$corpus" | wc -l) seeds"
    "$build/fuzz/$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$fuzzer-" "$corpus" 2>"$build/artifacts/$fuzzer.log" || status=$?
    grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$build/artifacts/$fuzzer.log" || true
    if [ "$status" -ne 0 ]; then
      tail -n 60 "$build/artifacts/$fuzzer.log"
      echo "fuzz/run.sh: $fuzzer failed (exit $status); input saved as $build/artifacts/$fuzzer-*"
    fi
  } >"$build/artifacts/$fuzzer.report"
  rm -rf "$corpus"
  return "$status"
}

# Each libFuzzer process uses one core: run as many at once as there are cores, and report them in order.
failed=0
pids=()
names=()
while read -r fuzzer seeds; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  # shellcheck disable=SC2086  # seeds is a list of paths without spaces
  run_one "$fuzzer" $seeds &
  pids+=($!)
  names+=("$fuzzer")
done <"$build/fuzz/fuzzers.txt"
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || failed=1
  cat "$build/artifacts/${names[$i]}.report"
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz/run.sh: a fuzzer failed (see above)" >&2
  exit 1
fi
echo "fuzz/run.sh: no crash in $seconds s per fuzzer"
