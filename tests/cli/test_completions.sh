#!/usr/bin/env bash
# Shell completions (completions/): each file parses in its shell, and for every command path the options and
# subcommands it completes are exactly those `pcrypt [COMMAND] --help` lists (plus the global -q/-v that
# subcommands accept too), so the completions cannot silently go stale when an option is added or renamed.
# bash is always checked by running the completion function; zsh and fish are checked when installed.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

dir=$SOURCE_DIR/completions
globals=$'-q\n--quiet\n-v\n--verbose'

# What --help says, one name per line, sorted: options of the "Options:" section, names of "Subcommands:".
help_section() {
  # shellcheck disable=SC2086  # $2 is a command path, split on purpose
  "$PCRYPT" $2 --help | awk -v want="$1:" '$0 == want { on = 1; next } /^[^ ]/ { on = 0 }
    on && NF { print $1 }' | tr ',' '\n' | sort -u
}
help_options() { help_section Options "$1" | grep '^-' || true; }
help_subcommands() { help_section Subcommands "$1"; }

# Every command path: "" (top level), each subcommand, each subcommand's subcommand.
paths=("")
while read -r c; do
  paths+=("$c")
  while read -r s; do paths+=("$c $s"); done < <(help_subcommands "$c")
done < <(help_subcommands "")
(( ${#paths[@]} >= 6 )) || fail "found only ${#paths[@]} command paths in --help"

# compare SHELL PATH WHAT EXPECTED ACTUAL [ALLOWED_EXTRA]: ACTUAL must hold EXPECTED and nothing else but
# ALLOWED_EXTRA.
compare() {
  local missing extra
  missing=$(comm -23 <(sort -u <<< "$4") <(sort -u <<< "$5"))
  extra=$(comm -13 <(sort -u <<< "$4"$'\n'"${6:-}") <(sort -u <<< "$5") | grep -v '^$' || true)
  [[ -z $missing ]] || fail "$1 completion of 'pcrypt $2' lacks $3: ${missing//$'\n'/ }"
  [[ -z $extra ]] || fail "$1 completion of 'pcrypt $2' offers $3 that --help does not list: ${extra//$'\n'/ }"
}

check_path() {  # check_path SHELL PATH COMPLETE_FUNCTION
  local path=$2 complete=$3 want_opts want_subs
  want_opts=$(help_options "$path")
  [[ -n $want_opts ]] || fail "no options parsed from 'pcrypt $path --help'"
  compare "$1" "$path" options "$want_opts" "$($complete "$path" -)" "$globals"
  want_subs=$(help_subcommands "$path")
  # `help` is a command word (pcrypt help COMMAND) that --help does not list among the subcommands.
  [[ -z $want_subs ]] || compare "$1" "$path" subcommands "$want_subs" "$($complete "$path" '')" \
    "$([[ -z $path ]] && echo help)"
}

check "bash: completions/pcrypt.bash parses and completes what --help lists"
bash -n "$dir/pcrypt.bash" || fail "bash -n completions/pcrypt.bash"
# bash_complete PATH CURRENT_WORD: the candidates _pcrypt offers for `pcrypt PATH CURRENT_WORD`.
bash_complete() {
  # shellcheck disable=SC2016,SC2086
  bash -c 'source "$1"; source "$2"; shift 2; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}; _pcrypt; printf "%s\n" "${COMPREPLY[@]}"' _ "$bash_completion" "$dir/pcrypt.bash" \
    pcrypt $1 "$2"
}
mkdir -p sub.d && touch keyfile.k
# Without bash-completion's helpers (the completion has its own fallback), then with them if installed.
bash_completion=/dev/null
libraries=(/dev/null)
[[ -f /usr/share/bash-completion/bash_completion ]] && libraries+=(/usr/share/bash-completion/bash_completion)
for bash_completion in "${libraries[@]}"; do
  for p in "${paths[@]}"; do check_path bash "$p" bash_complete; done
  check "bash (helpers: $bash_completion): values for --engine, files for -k and FILE, directories for --dir"
  [[ $(bash_complete "encrypt --engine" "" | sort | tr '\n' ' ') == "aesni armce portable sodium vaes vaes512 " ]] ||
    fail "bash: --engine does not complete the engine names"
  [[ $(bash_complete "decrypt -k" "keyf") == keyfile.k ]] || fail "bash: -k does not complete file names"
  [[ $(bash_complete "encrypt" "keyf") == keyfile.k ]] || fail "bash: FILE does not complete file names"
  [[ $(bash_complete "" "hel") == help ]] || fail "bash: 'help' is not completed as a command"
  [[ $(bash_complete "bench throughput --dir" "") == sub.d ]] || fail "bash: --dir does not complete directories"
done
(( ${#libraries[@]} == 2 )) || echo "SKIPPED: bash with bash-completion's helpers (bash-completion is not installed)"

if command -v zsh > /dev/null; then
  check "zsh: completions/_pcrypt parses and its _arguments specs name what --help lists"
  zsh -n "$dir/_pcrypt" || fail "zsh -n completions/_pcrypt"
  # _pcrypt_specs_<path> holds the _arguments specs of each command path; an option's name is what follows
  # an optional "(exclusions)" and "*". Subcommands come from the spec for argument 1: a "(list)" or
  # _pcrypt_commands, run here with _describe stubbed to print the names it is given.
  zsh_run() {
    # shellcheck disable=SC2016
    zsh -fc '_describe() { local -a list=("${(@P)4}"); printf "%s\n" "${list[@]%%:*}"; }
      compdef() { :; }
      source "$1"; shift; eval "$1"' _ "$dir/_pcrypt" "$1"
  }
  zsh_complete() {  # zsh_complete PATH -|'' : the options (-) or subcommands ('') of PATH
    local specs=_pcrypt_specs_${1:-top} all
    specs=${specs// /_}
    all=$(zsh_run "print -rl -- \"\${${specs}[@]}\"")
    [[ -n $all ]] || fail "zsh: no array $specs in completions/_pcrypt"
    if [[ $2 == - ]]; then
      sed -E 's/^\([^)]*\)//; s/^\*//' <<< "$all" | grep -oE '^--?[A-Za-z][-A-Za-z]*' || true
    else
      sed -nE 's/^1:[^:]*:\((.*)\)$/\1/p' <<< "$all" | tr ' ' '\n'
      if grep -q '^1:[^:]*:_pcrypt_commands$' <<< "$all"; then zsh_run _pcrypt_commands; fi
    fi
  }
  for p in "${paths[@]}"; do check_path zsh "$p" zsh_complete; done
else
  echo "SKIPPED: zsh checks (zsh is not installed)"
fi

if command -v fish > /dev/null; then
  check "fish: completions/pcrypt.fish parses and completes what --help lists"
  fish -n "$dir/pcrypt.fish" || fail "fish -n completions/pcrypt.fish"
  fish_complete() {
    # shellcheck disable=SC2016
    fish -c 'source $argv[1]; complete -C"pcrypt $argv[2]"' "$dir/pcrypt.fish" "${1:+$1 }$2" | cut -f1
  }
  for p in "${paths[@]}"; do check_path fish "$p" fish_complete; done
  [[ $(fish_complete "encrypt --engine" "" | sort | tr '\n' ' ') == "aesni armce portable sodium vaes vaes512 " ]] ||
    fail "fish: --engine does not complete the engine names"
else
  echo "SKIPPED: fish checks (fish is not installed)"
fi
echo "completions OK (${#paths[@]} command paths)"
