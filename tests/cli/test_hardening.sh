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

# 8. --kdf-memory that is not a whole number of KiB says so (it used to say "out of range").
defect_8() {
  check "8: --kdf-memory that is not a whole number of KiB is named as such"
  local value
  for value in 9000 1MB; do
    expect 2 "$PCRYPT" encrypt -p plain -o out --kdf-memory "$value"
    expect_one_error "--kdf-memory $value is not a whole number of KiB"
    ! grep -q 'out of range' stderr || fail "still says 'out of range' for $value"
    expect 2 "$PCRYPT" decrypt -p plain -o out --max-kdf-memory "$value"
    expect_one_error "--max-kdf-memory $value is not a whole number of KiB"
  done
  expect 2 "$PCRYPT" encrypt -p plain -o out --kdf-memory 4KiB
  expect_one_error "--kdf-memory 4KiB is below the minimum of 8 KiB"
  expect 2 "$PCRYPT" encrypt -p plain -o out --kdf-memory 5000GiB
  expect_one_error "--kdf-memory 5000GiB is above the maximum"
  ! exists out || fail "out created"
}

for n in 7 8; do
  if [[ -z ${ONLY:-} || ${ONLY:-} == "$n" ]]; then "defect_$n"; fi
done
echo "all hardening checks passed"
