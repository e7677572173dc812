#!/usr/bin/env bash
# ipsecmb_compare.sh [BUILD_DIR] [ROUNDS] — pcrypt's AES-256-GCM engines against Intel's multi-buffer library
# (Debian libipsec-mb-dev), one core, 64 KiB and 1 MiB messages, seal and open, side by side.
# Builds the ipsecmb_compare target (bench/CMakeLists.txt) in BUILD_DIR (default: build-release, configured
# as a Release build if missing) and runs it; ROUNDS alternating rounds (default 7), medians.
# Needs: apt-get install -y libipsec-mb-dev. Run on an idle machine for numbers worth quoting.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(readlink -f "${1:-$repo/build-release}")
rounds=${2:-7}
if [[ ! -f /usr/include/intel-ipsec-mb.h ]]; then
  echo "ipsecmb_compare: intel-ipsec-mb.h not found; install it with: apt-get install -y libipsec-mb-dev" >&2
  exit 1
fi
if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
# CMake builds the comparison only where it finds the library (bench/CMakeLists.txt); a build directory
# configured before libipsec-mb-dev was installed is configured again to find it.
grep -q '^PCRYPT_IPSECMB_LIBRARY:.*-NOTFOUND' "$build/CMakeCache.txt" &&
  cmake -U 'PCRYPT_IPSECMB_*' "$build" >/dev/null
cmake --build "$build" -j2 --target ipsecmb_compare >/dev/null
exe=$build/bench/ipsecmb_compare
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)"
exec "$exe" "$rounds"
