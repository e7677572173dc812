#!/usr/bin/env bash
# scripts/check-layering.sh itself: a minimal fake tree (one file per layer, each including what the map
# allows) passes; then each rule's violation is planted by hand, one at a time, and the checker must fail
# naming the file, the line and the rule. Also: `#  include` spacing, comments that only mention getenv,
# tests/ and fuzz/ exempt. The real tree is not checked here (scripts/test.sh runs the checker on it first).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

checker=$SOURCE_DIR/scripts/check-layering.sh
tree=$WORK/tree

# put FILE LINE...: writes FILE in the fake tree with the given lines.
put() {
  local file=$tree/$1
  shift
  [[ -d ${file%/*} ]] || mkdir -p "${file%/*}"
  printf '%s\n' "$@" > "$file"
}

# The clean tree is written once (about 20 files) and copied for each check that starts from it.
write_clean_tree() {
  put io/stream.h '#pragma once' '#include <cstddef>' '#include "io/fd.h"'
  put io/fd.h '#pragma once'
  put core/aes/engine.h '#pragma once' '#include <sodium.h>' '#include "core/aes/cpu.h"'
  put core/aes/cpu.h '#pragma once'
  put core/aes/secret_bytes.h '#pragma once' '#include <pcrypt/secret_bytes.h>'
  put core/error.h '#pragma once' '#include <pcrypt/errors.h>'
  put core/pipeline.h '#pragma once' '#include "core/record_codec.h"' '#include "io/stream.h"'
  put core/record_codec.h '#pragma once' '#include "core/aes/engine.h"'
  put core/range.cc '#include "core/pipeline.h"' '// getenv("X") would be a caller'"'"'s job' \
    '/* isatty, environ:' '   none of that here */' 'int f(); // ttyname is not called'
  put core/keys/key_file.h '#pragma once' '#include "core/aes/engine.h"'
  put core/pcrypt/format.h '#pragma once' '#include "core/pipeline.h"' '#include "core/keys/key_file.h"'
  put core/age/header.h '#pragma once' '#include "core/pipeline.h"' '#include "core/keys/key_file.h"'
  put core/door/door.h '#pragma once' '#include "core/age/header.h"' '#include "core/pcrypt/format.h"'
  put app/cmd_crypt.cc '#include <pcrypt/pcrypt.h>' '#include "app/cli.h"' '#include "io/stream.h"' \
    '#include <cstdlib>' 'const char* home = std::getenv("HOME");' \
    'if (e.code() == PCRYPT_E_EMPTY_INPUT) print_error(e.what());'
  put app/cli.h '#pragma once'
  # The bench's glue is the CLI's one file that sees core (the bench measures the engines themselves).
  put app/bench_glue.cc '#include "app/cli.h"' '#include "core/aes/engine.h"'
  put python/src/module.cc '#include <pcrypt/pcrypt.h>' '#include "python/src/decryptor.h"'
  put bench/bench.cc '#include "core/door/door.h"' '#include "core/aes/engine.h"'
  # Exempt: tests and fuzzers may test internals.
  put tests/test_age.cc '#include "core/age/header.h"' '#include "app/cli.h"'
  put fuzz/fuzz_header.cc '#include "core/pcrypt/format.h"'
}
tree=$WORK/clean
write_clean_tree
tree=$WORK/tree
clean_tree() {
  rm -rf "$tree"
  cp -R "$WORK/clean" "$tree"
}

# passes: the checker accepts the tree and prints its summary.
passes() {
  expect 0 bash "$checker" --root "$tree" > out
  grep -q '^layering: [0-9]* files checked, [0-9]* rules, no violation$' out || fail "no summary line: $(cat out)"
}

# planted RULE FILE LINE TEXT: plants TEXT as line LINE of FILE (in a clean tree; the file's other lines are
# blank); the checker must then fail with exactly one line naming FILE:LINE and RULE. The plants are collected
# and checked by check_planted below, several to a tree: one checker run per plant was half of this test.
plants=()
planted() {
  check "$1: $2:$3: $4"
  plants+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"$4")
}

# check_planted: the plants in rounds, no two of a round in the same file, one clean tree and one checker run a
# round. The checker reads each line of each file on its own (grep and awk), so plants in different files
# cannot hide or add to one another: the run must exit 1 and print exactly one line per plant, the one naming
# its FILE:LINE and RULE (so none is reported twice or under another rule, and nothing else is reported).
check_planted() {
  local -a round=() rest=() reported=()
  local -A files=()
  local plant rule file line text i found r
  rest=("${plants[@]}")
  while [[ ${#rest[@]} -gt 0 ]]; do
    round=() files=()
    local -a later=()
    for plant in "${rest[@]}"; do
      IFS=$'\t' read -r rule file line text <<< "$plant"
      if [[ -n ${files[$file]:-} ]]; then later+=("$plant"); else files[$file]=1 round+=("$plant"); fi
    done
    rest=("${later[@]}")
    unset later
    clean_tree
    for plant in "${round[@]}"; do
      IFS=$'\t' read -r rule file line text <<< "$plant"
      local -a lines=()
      for ((i = 1; i < line; i++)); do lines+=(""); done
      lines+=("$text")
      put "$file" "${lines[@]}"
    done
    expect 1 bash "$checker" --root "$tree" > out
    mapfile -t reported < out
    for plant in "${round[@]}"; do
      IFS=$'\t' read -r rule file line text <<< "$plant"
      found=0
      for r in "${reported[@]}"; do [[ $r == "$file:$line: $rule: "* ]] && found=1; done
      [[ $found == 1 ]] || fail "$rule: $file:$line: $text: expected '$file:$line: $rule: ...', got: $(cat out)"
    done
    [[ ${#reported[@]} -eq ${#round[@]} ]] ||
      fail "expected one violation for each of the ${#round[@]} plants, got: $(cat out)"
  done
}

check "a clean tree passes"
clean_tree
passes

planted callers-through-door app/cmd_crypt.cc 3 '#include "core/age/header.h"'
planted callers-through-door app/cmd_crypt.cc 1 '#  include "core/pcrypt/format.h"'
planted callers-through-door python/src/module.cc 2 '# include "core/pcrypt/format.h"'
planted callers-through-door bench/bench.cc 4 '	#	include "core/age/header.h"'
planted app-through-library app/cmd_crypt.cc 2 '#include "core/door/door.h"'
planted app-through-library app/main.cc 3 '#include "core/error.h"'
planted app-through-library app/bench_glue_extra.h 1 '#include <core/aes/engine.h>'
planted python-bench-not-app python/src/module.cc 5 '#include "app/cli.h"'
planted python-bench-not-app bench/bench.cc 1 '#include "app/environment.h"'
planted python-public-only python/src/module.cc 3 '#include "core/door/encrypted_file.h"'
planted python-public-only python/src/decryptor.h 1 '#include <io/stream.h>'
planted aes-standalone core/aes/cpu.h 2 '#include "core/pipeline.h"'
planted aes-standalone core/aes/engine.h 3 '#include "io/stream.h"'
planted aes-standalone core/aes/engine.h 3 '#include <core/keys/key_file.h>'
planted core-top-format-blind core/range.cc 7 '#include "core/pcrypt/payload.h"'
planted core-top-format-blind core/pipeline.h 2 '#include "core/age/header.h"'
planted core-top-format-blind core/range.h 1 '#include "core/door/door.h"'
planted formats-independent core/age/payload.h 2 '#include "core/pcrypt/payload.h"'
planted formats-independent core/pcrypt/format.h 4 '#include "core/age/header.h"'
planted formats-independent core/cobblestone/chunked.h 2 '#include "core/pcrypt/payload.h"'
planted formats-independent core/age/payload.h 3 '#include "core/cobblestone/chunked.h"'
planted formats-below-door core/cobblestone/chunked.cc 2 '#include "core/door/door.h"'
planted callers-through-door lib/file.cc 2 '#include "core/cobblestone/chunked.h"'
planted formats-below-door core/age/header.h 3 '#include "core/door/door.h"'
planted formats-below-door core/pcrypt/rekey.cc 1 '#include "core/door/door.h"'
planted callers-through-door lib/file.cc 1 '#include "core/pcrypt/format.h"'
planted python-bench-not-app lib/keys.cc 1 '#include "app/cli.h"'
planted examples-public-only examples/decrypt_range.cc 1 '#include "core/door/encrypted_file.h"'
planted examples-public-only examples/c/decrypt_stream.c 3 '#include "core/error.h"'
planted c-api-over-cpp-api lib/c_api_file.cc 2 '#include "core/door/encrypted_file.h"'
planted c-api-over-cpp-api lib/c_api_internal.h 1 '#include "io/stream.h"'
planted keys-below-formats core/keys/recipient.cc 2 '#include "core/age/plugin.h"'
planted keys-below-formats core/pq/hpke.cc 1 '#include "core/pcrypt/keys.h"'
planted core-below-callers core/keys/key_file.h 2 '#include "app/cli.h"'
planted core-below-callers core/door/door.h 4 '#include "python/src/module.h"'
planted core-below-callers core/pipeline.h 3 '#include "bench/stats.h"'
planted core-public-secret-only core/door/door.h 3 '#include <pcrypt/pcrypt.h>'
planted core-public-secret-only core/aes/engine.h 2 '#include "pcrypt/reader.h"'
planted core-public-secret-only io/stream.h 4 '#include <pcrypt/pcrypt_c.h>'
planted core-no-environment core/age/plugin_channel.cc 31 '  const char* path = std::getenv("PATH");'
planted core-no-environment core/age/plugin_channel.cc 18 'extern char** environ;'
planted core-no-environment core/keys/key_file.cc 2 'auto p = secure_getenv("X");'
planted core-no-environment core/door/door.cc 5 '  if (::isatty(0) == 1) return;'
planted core-no-environment core/range.cc 3 '  int fd = ::open("/dev/tty", O_RDWR);'
planted io-bottom io/stream.h 2 '#include "core/error.h"'
planted io-bottom io/fd.h 1 '#include "app/cli.h"'
planted app-decides-by-code app/age_command.cc 4 '  if (std::string_view(e.what()).starts_with("refusing to mix"))'
planted app-decides-by-code app/age_command.cc 2 '  const bool empty = std::string(e.what()).find("input is empty") != npos;'
planted app-decides-by-code app/main.cc 7 '  if (e.what() == std::string("x")) return 1;'
check_planted

check "every violation is reported, one line each, and the exit status is 1"
clean_tree
put app/cmd_info.cc '#include "core/age/describe.h"' '#include "core/pcrypt/format.h"'
put core/range.h '#pragma once' '#include "core/pcrypt/keys.h"'
expect 1 bash "$checker" --root "$tree" > out
[[ $(wc -l < out) -eq 3 ]] || fail "expected 3 violations, got: $(cat out)"

check "a file that is not .c/.cc/.h is not checked; an #include in a comment is not an include"
clean_tree
put app/notes.txt '#include "core/age/header.h"'
put app/cmd_rekey.cc '// #include "core/age/rekey.h" is what this used to do' '#include <pcrypt/pcrypt.h>'
passes

check "a bad option is refused"
expect 2 bash "$checker" --frobnicate

echo "all layering checks passed"
