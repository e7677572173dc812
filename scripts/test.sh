#!/usr/bin/env bash
# Checks the layering (scripts/check-layering.sh: includes that break docs/ARCHITECTURE.md's map fail before
# anything is built) and the shell scripts (scripts/check-shell.sh: two forms that make tests fail at random), then
# installs what the tests use (scripts/install-deps.sh --test), builds (warnings are errors) and runs the
# whole test suite.
# Usage: scripts/test.sh [BUILD_DIR]
# The default build directory is scripts/demo.sh's build/, configured the same way (Release, warnings as
# errors) with the tests added, so that after the quick start's first command this one compiles only the
# tests, the library's examples and the Python module: pcrypt's core, library, CLI and bench are demo's
# objects (the same command lines).
# The build is Release (-O3, where GCC finds the most warnings, and the code users run): CI's GCC Release
# -Werror build is this one, in its fresh Debian stage, not a second compilation of the same thing (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
scripts/check-layering.sh
scripts/check-shell.sh
scripts/install-deps.sh --test
installed=$SECONDS
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DPCRYPT_WERROR=ON -DPCRYPT_BUILD_TESTS=ON >/dev/null
cmake --build "$build" -j2
built=$SECONDS
ctest --test-dir "$build" --output-on-failure -j2 --no-tests=error
# The static libpcrypt.a (scripts/test-static-library.sh) is not built here: it would compile the whole core a
# second time (a static build is another configuration), which on a fresh machine without a compiler cache
# was the largest part of this script's time. CI runs it in its own stage, where the compiler cache stage 1
# filled hands the core's objects back (.ci/run).
echo "scripts/test.sh: passed in $((SECONDS / 60)) min $((SECONDS % 60)) s (checks and packages $installed s," \
  "build $((built - installed)) s, tests $((SECONDS - built)) s)"
