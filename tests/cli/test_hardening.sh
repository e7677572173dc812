#!/usr/bin/env bash
# Regression tests for the safety defects of issue 11 (edges of the command line that lost data or wrote
# where they must not). One function per defect, numbered as in the issue; ONLY=N runs just defect N (to
# check a single test against an older binary).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen -o key
head -c 300000 /dev/urandom > plain

# 7. An empty option value is a usage error, not "the default".
defect_7() {
  check "7: empty option values are refused with exit 2"
  # "option as typed|name in the message" (CLI11 names an option by its long form).
  local pair opt
  for pair in "-j|--threads" "--threads|--threads" "--chunk-size|--chunk-size" "-o|--output" \
    "--output|--output" "--engine|--engine" "--kdf-memory|--kdf-memory" "--kdf-ops|--kdf-ops" \
    "--passphrase-file|--passphrase-file"; do
    opt=${pair%|*}
    expect 2 "$PCRYPT" encrypt -k key plain "$opt" ''
    expect_one_error "${pair#*|}: empty value"
    ! exists plain.pcrypt || fail "plain.pcrypt created by $opt ''"
  done
  "$PCRYPT" encrypt -k key plain -o plain.pcrypt
  for opt in -j --max-kdf-memory --max-kdf-ops -o; do
    expect 2 "$PCRYPT" decrypt -k key plain.pcrypt "$opt" ''
    expect_one_error "empty value"
  done
  expect 2 "$PCRYPT" keygen -o ''
  expect_one_error "empty value"
  expect 2 "$PCRYPT" encrypt -k '' plain -o out
  expect_one_error "empty value"
  expect 2 "$PCRYPT" encrypt -k key '' -o out
  expect_one_error "empty value"
  ! exists out || fail "out created"
  rm plain.pcrypt
  only_these_files key plain
}

for n in 7; do
  if [[ -z ${ONLY:-} || ${ONLY:-} == "$n" ]]; then "defect_$n"; fi
done
echo "all hardening checks passed"
