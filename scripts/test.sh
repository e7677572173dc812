#!/usr/bin/env bash
# Checks the layering (scripts/check-layering.sh: includes that break docs/ARCHITECTURE.md's map fail before
# anything is built), then sets up, builds (warnings are errors) and runs the whole test suite.
# Usage: scripts/test.sh [BUILD_DIR]
# The default build directory is build-test, so build/ stays the Release build of scripts/demo.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-test}
scripts/check-layering.sh
scripts/install-deps.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPCRYPT_WERROR=ON -DPCRYPT_BUILD_TESTS=ON >/dev/null
cmake --build "$build" -j2
ctest --test-dir "$build" --output-on-failure -j2 --no-tests=error
