#!/usr/bin/env bash
# libpcrypt's ABI, checked against its committed baseline (lib/abi/libpcrypt.so.1.abi, written by libabigail's
# abidw from Debian's abigail-tools): abidiff compares the built libpcrypt.so.N with it, and this fails when a
# change is incompatible (a function or variable removed, or changed: a signature, a type it uses, a struct's
# layout) while the SONAME is still the baseline's. An incompatible change needs a new SONAME
# (PCRYPT_SOVERSION in CMakeLists.txt, docs/LIBRARY.md "Stability") and a new baseline.
# Compatible additions pass, with a note that the baseline is behind (so that the additions are protected
# too once it is updated).
#
#   scripts/check-abi.sh [BUILD_DIR]            (default: build) check BUILD_DIR/lib/libpcrypt.so.N
#   scripts/check-abi.sh --update [BUILD_DIR]   write the baseline from BUILD_DIR's library
#
# The library's own objects carry debug information (-g in lib/CMakeLists.txt, stripped at install), which is
# where abidw finds the types of the exported functions; --headers-dir keeps the types of include/pcrypt/ as
# the public ones. Exit: 0 compatible, 1 incompatible (or the check could not run), 2 usage.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
update=false
if [[ ${1:-} == --update ]]; then
  update=true
  shift
fi
case ${1:-} in
  -h | --help)
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  -*)
    echo "usage: scripts/check-abi.sh [--update] [BUILD_DIR]" >&2
    exit 2
    ;;
esac
build=${1:-$root/build}
baseline_dir=$root/lib/abi

for tool in abidw abidiff; do
  command -v "$tool" > /dev/null || {
    echo "check-abi: $tool is missing: apt-get install abigail-tools" >&2
    exit 1
  }
done
library=$(find "$build/lib" -maxdepth 1 -name 'libpcrypt.so.[0-9]*' -type l | sort | head -1)
[[ -n $library ]] || {
  echo "check-abi: no libpcrypt.so.N in $build/lib (build the pcrypt_lib target, shared)" >&2
  exit 1
}
soname=$(readelf -d "$library" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[[ $(readelf -S "$library") == *.debug_info* ]] || {
  echo "check-abi: $library has no debug information: abidw would see symbols only" >&2
  exit 1
}
baseline=$baseline_dir/$soname.abi
current=$(mktemp)
trap 'rm -f "$current"' EXIT
abidw --no-corpus-path --no-comp-dir-path --headers-dir "$root/include/pcrypt" --drop-private-types \
  --out-file "$current" "$library"

if $update; then
  mkdir -p "$baseline_dir"
  install -m 644 "$current" "$baseline"
  echo "check-abi: wrote $baseline ($(grep -c '<elf-symbol ' "$baseline") exported symbols)"
  exit 0
fi

if [[ ! -f $baseline ]]; then
  others=$(cd "$baseline_dir" 2> /dev/null && ls ./*.abi 2> /dev/null | sed 's|^\./||' | tr '\n' ' ' || true)
  echo "check-abi: no baseline for $soname (have: ${others:-none}): a new SONAME; write its baseline with" \
    "scripts/check-abi.sh --update"
  exit 0
fi
status=0
abidiff --no-show-locs "$baseline" "$current" > "$current.report" 2>&1 || status=$?
# abidiff's exit status is a bit field: 1 error, 2 usage, 4 an ABI change, 8 an incompatible one.
if ((status & 3)); then
  cat "$current.report"
  echo "check-abi: abidiff could not compare (status $status)" >&2
  rm -f "$current.report"
  exit 1
fi
# abidiff flags as incompatible only what certainly is (a symbol removed); a changed function (a parameter's
# or return type's size, a struct's members, a signature) is a plain "change" to it, which a library that
# promises binary compatibility cannot make either. Only additions (and what abidiff itself deems harmless, an
# enumerator added) keep the SONAME.
if grep -Eq 'changes summary: [1-9][0-9]* Removed|, [1-9][0-9]* Changed' "$current.report"; then
  status=$((status | 8))
fi
if ((status & 8)); then
  cat "$current.report"
  echo "check-abi: an incompatible change to $soname's ABI: keep the old declarations, or raise PCRYPT_SOVERSION" \
    "(docs/LIBRARY.md, \"Stability\") and write the new SONAME's baseline (scripts/check-abi.sh --update)" >&2
  rm -f "$current.report"
  exit 1
fi
if ((status & 4)); then
  sed 's/^/  /' "$current.report"
  echo "check-abi: $soname: compatible changes only (above); the baseline is behind: scripts/check-abi.sh --update"
else
  echo "check-abi: $soname matches its baseline ($(grep -c '<elf-symbol ' "$baseline") exported symbols)"
fi
rm -f "$current.report"
