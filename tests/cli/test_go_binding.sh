#!/usr/bin/env bash
# Another language binds libpcrypt through its C API (issue 41): examples/go/age_range.go, built with Debian's
# Go (cgo and the standard library, no modules) against the library installed from this build into a scratch
# prefix, reads byte ranges of age files -- pcrypt's and the real age's -- through an io.ReaderAt, and tells
# failures apart by their codes alone: a wrong identity, a file cut short, a modified record, a file that is
# not encrypted, an offset past the end each give their own exit status and code name.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

require_tools go pkg-config
install_library

check "the Go program builds with cgo against the installed library (pkg-config), offline"
export GOCACHE=$PWD/gocache GOPATH=$PWD/gopath GOPROXY=off GO111MODULE=auto GOENV=off GOTELEMETRY=off
cp "$SOURCE_DIR/examples/go/age_range.go" .
[[ -z $(gofmt -l age_range.go) ]] || fail "age_range.go is not gofmt-formatted: $(gofmt -d age_range.go | head -20)"
PKG_CONFIG_PATH=$PC CGO_LDFLAGS="-Wl,-rpath,$LIBDIR" go build -o age_range age_range.go ||
  fail "go build failed"

head -c 300000 /dev/urandom > plain
"$PCRYPT" keygen --identity -o me.txt 2> /dev/null
"$PCRYPT" keygen --identity -o other.txt 2> /dev/null
"$PCRYPT" encrypt --format age -r "$("$PCRYPT" recipient me.txt)" plain -o p.age

check "ranges read through io.ReaderAt: inside a record, across records, to the end, empty"
for range in "0 10" "65530 20" "131000 100000" "299990 100" "300000 5" "12345 0"; do
  read -r offset length <<< "$range"
  ./age_range me.txt p.age "$offset" "$length" > part || fail "range $range failed: $(cat part)"
  head -c $((offset + length)) plain | tail -c +$((offset + 1)) > want
  same part want
done

if command -v age > /dev/null && command -v age-keygen > /dev/null; then
  check "a file made by the real age reads the same"
  age-keygen -o age-me.txt 2> /dev/null
  age -r "$(age-keygen -y age-me.txt)" -o real.age plain
  ./age_range age-me.txt real.age 70000 5000 > part
  head -c 75000 plain | tail -c +70001 > want
  same part want
else
  echo "SKIPPED (one check): the real age is not installed"
fi

# expect_code STATUS NAME ARGS...: age_range exits STATUS and its error names the code NAME.
expect_code() {
  local status=$1 name=$2
  shift 2
  local got=0
  ./age_range "$@" > /dev/null 2> err || got=$?
  [[ $got == "$status" ]] || fail "age_range $*: exit $got, expected $status: $(cat err)"
  grep -q "($name)\$" err || fail "age_range $*: not $name: $(cat err)"
}

check "failures told apart by code: wrong identity, cut short, modified, not encrypted, past the end"
expect_code 3 PCRYPT_E_NO_IDENTITY_MATCHED other.txt p.age 0 10
head -c $(($(stat -c %s p.age) - (300000 % 65536 + 16))) p.age > cut.age # at a record boundary: the final record is gone
expect_code 4 PCRYPT_E_TRUNCATED me.txt cut.age 0 10
cp p.age flipped.age
flip_byte flipped.age 1000
expect_code 5 PCRYPT_E_DAMAGED_RECORD me.txt flipped.age 0 10
expect_code 6 PCRYPT_E_NOT_ENCRYPTED me.txt plain 0 10
expect_code 7 PCRYPT_E_PAST_THE_END me.txt p.age 300001 1
echo "all Go binding checks passed"
