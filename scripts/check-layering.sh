#!/usr/bin/env bash
# The layering of docs/ARCHITECTURE.md, checked: every .cc/.h file of the product (git's tracked and new,
# not ignored, files; `find` outside git) against the rules below. One line per violation,
#   path:line: RULE: the include or use, why it breaks the map
# and exit 1; else one summary line and exit 0. tests/ and fuzz/ are exempt (tests may test internals).
# Usage: scripts/check-layering.sh [--root DIR]   (DIR defaults to this repository; grep and awk only, < 1 s)
#
# Our headers are included from the repository root, in quotes: #include "core/age/header.h" (any spacing
# around '#'; <...> spellings of our folders count too). The rules, by name (docs/ARCHITECTURE.md cites them):
#
#   rule                   files                 may not include / use
#   callers-through-door   app/ python/ bench/   core/age/, core/pcrypt/, core/cobblestone/ (through core/door/)
#                          lib/ examples/
#   python-bench-not-app   python/ bench/ lib/   app/ (the CLI is a caller like them, not a library of theirs)
#   app-through-library    app/ (but its bench     anything of core/: the CLI is libpcrypt's first client, it
#                          glue, app/bench_glue.*)  goes through <pcrypt/pcrypt.h> (and its own io/ plumbing)
#   examples-public-only   examples/             anything but <pcrypt/...>: they build against the installed library
#   c-api-over-cpp-api     lib/c_api*            anything of ours but <pcrypt/...> and lib/c_api_internal.h: the C
#                                                API is a layer over the public C++ API, never around it
#   python-public-only     python/               anything of ours but <pcrypt/...> and python/ itself: the Python
#                                                module is a client of libpcrypt (app/ is python-bench-not-app's)
#   aes-standalone         core/aes/             anything of ours outside core/aes/
#   core-top-format-blind  core/*.{h,cc}         core/age/, core/pcrypt/, core/door/ (the top of core is
#                                                what every format builds on, so it knows none of them)
#   formats-independent    core/age/ core/pcrypt/  another format folder (what they share lives in
#                          core/cobblestone/       format-blind core/)
#   formats-below-door     the format folders    core/door/ (the door builds on the formats, not back)
#   keys-below-formats     core/keys/ core/pq/     core/age/, core/pcrypt/, core/door/ (keys, post-quantum
#                          core/chacha/            primitives and engines serve every format and know none)
#   core-below-callers     core/ (all of it)     app/, python/, bench/
#   core-public-secret-only core/ io/           <pcrypt/...> (the library's public headers, lib/'s API) but
#                                                <pcrypt/secret_bytes.h> and <pcrypt/errors.h>: the two public
#                                                types core shares, the guarded memory (core/aes/secret_bytes.h
#                                                implements it) and the error codes core throws with
#   core-no-environment    core/ (all of it)     getenv, secure_getenv, environ, isatty, ttyname, tcgetattr,
#                                                tcsetattr, /dev/tty: core reads no environment and no
#                                                terminal; callers pass in what they found (e.g. the PATH)
#   io-bottom              io/                   anything of ours outside io/ (io is below core; it includes
#                                                nothing of core today, and none is allowed)
#   app-decides-by-code    app/                  the text of an error as a condition: what() searched (find,
#                                                starts_with, ends_with, compare, strstr) or compared (==, !=);
#                                                the CLI decides by Error::code() (include/pcrypt/errors.h)
#
# Each include line is reported under its most specific rule only (aes-standalone before core-below-callers,
# for instance). core-no-environment looks at code, not comments: whole-line // and /* */ comments and the
# rest of a line after " //" are skipped.
set -euo pipefail

root=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --root)
      root=${2:?usage: scripts/check-layering.sh [--root DIR]}
      shift 2
      ;;
    -h | --help)
      sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "usage: scripts/check-layering.sh [--root DIR]" >&2
      exit 2
      ;;
  esac
done
[[ -n $root ]] || root=$(cd "$(dirname "$0")/.." && pwd)
[[ -d $root ]] || { echo "check-layering: no directory $root" >&2; exit 2; }
cd "$root"

rules=16
files=()
if [[ $(git rev-parse --show-toplevel 2>/dev/null || true) == "$(pwd -P)" ]]; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.c' '*.cc' '*.h' | sort -u)
else
  mapfile -t files < <(find . -path ./.git -prune -o -type f \( -name '*.c' -o -name '*.cc' -o -name '*.h' \) -print |
    sed 's|^\./||' | sort)
fi
checked=()
for f in "${files[@]}"; do
  case $f in
    tests/* | fuzz/*) ;;
    *) [[ -f $f ]] && checked+=("$f") ;;
  esac
done
if [[ ${#checked[@]} -eq 0 ]]; then
  echo "check-layering: no .cc/.h files under $root" >&2
  exit 2
fi

status=0
awk '
  function report(rule, what, why) {
    printf "%s:%d: %s: %s, %s\n", FILENAME, FNR, rule, what, why
    bad++
  }
  FNR == 1 {
    f = FILENAME
    top = f; sub(/\/.*/, "", top)
    caller = (top == "app" || top == "python" || top == "bench" || top == "lib" || top == "examples")
    core = (top == "core")
    aes = (f ~ /^core\/aes\//)
    age = (f ~ /^core\/age\//)
    pcrypt = (f ~ /^core\/pcrypt\//)
    cobblestone = (f ~ /^core\/cobblestone\//)
    core_top = (f ~ /^core\/[^\/]+$/)
    io = (top == "io")
    in_block = 0
  }
  /^[ \t]*#[ \t]*include[ \t]*["<]/ {
    inc = $0
    sub(/^[ \t]*#[ \t]*include[ \t]*["<]/, "", inc)
    sub(/[">].*/, "", inc)
    what = "#include \"" inc "\""
    ours = (inc ~ /^(app|bench|core|io|python|lib)\//)
    fmt = (inc ~ /^core\/(age|pcrypt|cobblestone)\//)
    door = (inc ~ /^core\/door\//)
    app = (inc ~ /^app\//)
    callers = (inc ~ /^(app|python|bench|lib)\//)
    public = (inc ~ /^pcrypt\//)
    if (caller && fmt)
      report("callers-through-door", what, "callers reach the format folders only through core/door/")
    else if (f ~ /^lib\/c_api/ && ours && inc != "lib/c_api_internal.h")
      report("c-api-over-cpp-api", what, "the C API calls only the public C++ API (<pcrypt/pcrypt.h>)")
    else if (top == "app" && f !~ /^app\/bench_glue\.(h|cc)$/ && inc ~ /^core\//)
      report("app-through-library", what, "the CLI goes through libpcrypt (<pcrypt/pcrypt.h>), not core; only its bench glue sees core")
    else if (top == "examples" && ours)
      report("examples-public-only", what, "examples/ use the installed library: <pcrypt/...> only")
    else if ((top == "python" || top == "bench" || top == "lib") && app)
      report("python-bench-not-app", what, "python/ and bench/ are clients of core, not of the CLI")
    else if (top == "python" && ours && inc !~ /^python\//)
      report("python-public-only", what, "python/ is a client of libpcrypt: <pcrypt/...> only")
    else if (aes && ours && inc !~ /^core\/aes\//)
      report("aes-standalone", what, "core/aes/ depends on nothing of ours outside core/aes/")
    else if (core_top && (fmt || door))
      report("core-top-format-blind", what, "the top level of core/ is format-blind: no format folder, no door")
    else if ((age || pcrypt || cobblestone) && fmt && inc !~ ("^" (age ? "core/age/" : pcrypt ? "core/pcrypt/" : "core/cobblestone/")))
      report("formats-independent", what, "core/age/, core/pcrypt/ and core/cobblestone/ know nothing of each other; what they share is format-blind core/")
    else if ((age || pcrypt || cobblestone) && door)
      report("formats-below-door", what, "the door builds on the format folders, not the reverse")
    else if (f ~ /^core\/(keys|pq|chacha)\// && (fmt || door))
      report("keys-below-formats", what, "core/keys/, core/pq/ and core/chacha/ serve every format and know none of them")
    else if (core && callers)
      report("core-below-callers", what, "core/ is below app/, python/ and bench/")
    else if ((core || io) && public && inc != "pcrypt/secret_bytes.h" && inc != "pcrypt/errors.h")
      report("core-public-secret-only", what, "core/ and io/ are below the library: of its public headers only <pcrypt/secret_bytes.h> and <pcrypt/errors.h>")
    else if (io && ours && inc !~ /^io\//)
      report("io-bottom", what, "io/ is the bottom layer and includes nothing of ours outside io/")
    next
  }
  top == "app" {
    line = $0
    if (line ~ /^[ \t]*\/\//) next
    if (match(line, /what\(\)\)?[ \t]*\.(find|rfind|starts_with|ends_with|compare)[ \t]*\(|what\(\)\)?[ \t]*[!=]=|strstr\([^)]*what\(\)/))
      report("app-decides-by-code", "tests " substr(line, RSTART, RLENGTH), "the CLI decides by the error code (Error::code()), never by the text of the error")
  }
  core {
    line = $0
    if (in_block) {
      if (line !~ /\*\//) next
      sub(/^.*\*\//, "", line)
      in_block = 0
    }
    if (line ~ /^[ \t]*\/\//) next
    if (line ~ /^[ \t]*\/\*/) {
      if (line !~ /\*\//) { in_block = 1; next }
      sub(/^[ \t]*\/\*.*\*\//, "", line)
    }
    sub(/[ \t]\/\/.*$/, "", line)
    if (match(line, /(^|[^A-Za-z0-9_])(getenv|secure_getenv|environ|isatty|ttyname|tcgetattr|tcsetattr)([^A-Za-z0-9_]|$)|\/dev\/tty/)) {
      use = substr(line, RSTART, RLENGTH)
      gsub(/^[^A-Za-z0-9_\/]|[^A-Za-z0-9_]$/, "", use)
      report("core-no-environment", "uses " use, "core reads no environment and no terminal: the caller passes in what it needs")
    }
  }
  END { exit bad > 0 }
' "${checked[@]}" || status=$?

if [[ $status -eq 0 ]]; then
  echo "layering: ${#checked[@]} files checked, $rules rules, no violation"
elif [[ $status -eq 1 ]]; then
  echo "layering: violations above (rules: the top of scripts/check-layering.sh; the map: docs/ARCHITECTURE.md)" >&2
  exit 1
else
  echo "check-layering: awk failed (exit $status)" >&2
  exit 2
fi
