#!/usr/bin/env bash
# Each public header of libpcrypt (include/pcrypt/) stands alone: a file that includes it and nothing else
# compiles, as C++20 (every header) and as C11 (the C API's), every warning an error; and no two public headers
# include each other (a cycle would make one of them compile only through the other).
#   check_public_headers.sh CXX CC INCLUDE_DIR
set -euo pipefail
cxx=$1 cc=$2 include=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

headers=()
for h in "$include"/pcrypt/*.h; do headers+=("$(basename "$h")"); done
((${#headers[@]} >= 6)) || { echo "FAIL: only ${#headers[@]} headers in $include/pcrypt"; exit 1; }

for h in "${headers[@]}"; do
  printf '#include <pcrypt/%s>\n' "$h" > "$work/alone.cc"
  if ! "$cxx" -std=c++20 -Wall -Wextra -Werror -fsyntax-only -I "$include" "$work/alone.cc" 2> "$work/err"; then
    echo "FAIL: <pcrypt/$h> alone does not compile as C++20:"
    head -5 "$work/err"
    failed=1
  fi
done
for h in pcrypt_c.h export.h; do
  printf '#include <pcrypt/%s>\ntypedef int nonempty_translation_unit;\n' "$h" > "$work/alone.c"
  if ! "$cc" -std=c11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I "$include" "$work/alone.c" 2> "$work/err"; then
    echo "FAIL: <pcrypt/$h> alone does not compile as C11:"
    head -5 "$work/err"
    failed=1
  fi
done

# Who includes whom among the public headers: no pair both ways, directly.
for a in "${headers[@]}"; do
  for b in "${headers[@]}"; do
    [[ $a < $b ]] || continue
    if grep -q "#include <pcrypt/$b>" "$include/pcrypt/$a" && grep -q "#include <pcrypt/$a>" "$include/pcrypt/$b"; then
      echo "FAIL: <pcrypt/$a> and <pcrypt/$b> include each other"
      failed=1
    fi
  done
done

# No name of the library's hidden parts in a public class: `struct Impl` / `struct Access` inside a public
# class could be defined by anyone; they live in namespace detail, declared only.
if grep -nE '^\s*(struct|class) (Impl|Access)\b' "$include"/pcrypt/*.h; then
  echo "FAIL: a public header declares a class's Impl or Access by a public name (above)"
  failed=1
fi

((failed == 0)) || exit 1
echo "ok: ${#headers[@]} public headers compile alone, none includes another that includes it back"
