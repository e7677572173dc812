#!/usr/bin/env bash
# Every known-answer vector of tests/vectors/files/*.test decrypted by the CLI: success vectors give their
# plaintext (exit 0), header failures exit 3 and payload failures exit 4 with one error line that contains
# the vector's `error-contains` text, so the CLI's wording and the vectors cannot drift apart (issue 16).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

VECTORS=$SOURCE_DIR/tests/vectors/files

# on_terminal PASSPHRASE CMD...: runs CMD on a pseudo-terminal (script(1)) and types PASSPHRASE at its prompt
# for a protected SSH key's passphrase (FORMAT.md §10.8: pcrypt asks only on a terminal); CMD's exit status.
on_terminal() {
  local answer=$1 pid rc=0
  shift
  rm -f typescript answers
  mkfifo answers
  script -qefc "$(printf '%q ' "$@")" typescript < answers > /dev/null 2>&1 &
  pid=$!
  exec 4> answers
  wait_until grep -qF "Enter passphrase for SSH key" typescript 2> /dev/null || fail "no SSH key prompt"
  printf '%s\n' "$answer" >&4
  wait "$pid" || rc=$?
  exec 4>&-
  rm -f answers
  return "$rc"
}
terminal=no
command -v script > /dev/null && script -qec true /dev/null > /dev/null 2>&1 && terminal=yes

count=0
for test in "$VECTORS"/*.test; do
  name=$(basename "$test" .test)
  expect_what='' file='' plaintext='' error='' ssh_pass=''
  args=()
  n=0
  while IFS= read -r line; do
    [[ $line == '#'* || -z $line ]] && continue
    field=${line%%: *}
    value=${line#*: }
    case $field in
      expect) expect_what=$value ;;
      file) file=$value ;;
      key-file) args+=(-k "$VECTORS/$value") ;;
      identity) args+=(-i "$VECTORS/$value") ;;
      passphrase)
        n=$((n + 1))
        printf '%s\n' "$value" > "pass.$name.$n"
        args+=(--passphrase-file "pass.$name.$n")
        ;;
      ssh-key-passphrase) ssh_pass=$value ;;
      plaintext) plaintext=$value ;;
      error-contains) error=$value ;;
      *) fail "$name: unknown field '$field'" ;;
    esac
  done < "$test"
  check "$name: $expect_what"
  case $expect_what in
    success) want=0 ;;
    'header failure') want=3 ;;
    'payload failure') want=4 ;;
    *) fail "$name: unknown expect '$expect_what'" ;;
  esac
  if [[ -n $ssh_pass ]]; then
    [[ $want == 0 ]] || fail "$name: ssh-key-passphrase is for success vectors"
    if [[ $terminal == no ]]; then
      echo "SKIPPED $name: typing an SSH key's passphrase needs script(1) from util-linux"
      continue
    fi
    on_terminal "$ssh_pass" "$PCRYPT" decrypt "${args[@]}" "$VECTORS/$file" -o "out.$name" ||
      fail "$name: exit $? (on a terminal)"
  else
    expect "$want" "$PCRYPT" decrypt "${args[@]}" "$VECTORS/$file" -o "out.$name"
  fi
  if [[ $want == 0 ]]; then
    same "out.$name" "$VECTORS/$plaintext"
  else
    ! exists "out.$name" || fail "$name: output left behind"
    n=$(grep -c '^pcrypt: error: ' stderr || true)
    [[ $n == 1 ]] || fail "$name: expected one error line, got $n"
    [[ -z $error ]] || grep -qF -- "$error" <(grep '^pcrypt: error: ' stderr) ||
      fail "$name: the error does not contain '$error': $(cat stderr)"
  fi
  count=$((count + 1))
done
((count >= 40)) || fail "only $count vectors found in $VECTORS"
echo "$count vectors checked"
