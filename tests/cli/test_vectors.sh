#!/usr/bin/env bash
# Every known-answer vector of tests/vectors/files/*.test decrypted by the CLI: success vectors give their
# plaintext (exit 0), header failures exit 3 and payload failures exit 4 with one error line that contains
# the vector's `error-contains` text, so the CLI's wording and the vectors cannot drift apart (issue 16).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

VECTORS=$SOURCE_DIR/tests/vectors/files

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
      ssh-key-passphrase)
        # The protected key's passphrase from a file (typing it on a terminal is test_ssh_keys.sh's subject).
        printf '%s\n' "$value" > "ssh-pass.$name"
        args+=(--ssh-key-passphrase-file "ssh-pass.$name")
        ssh_pass=$value
        ;;
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
  [[ -z $ssh_pass || $want == 0 ]] || fail "$name: ssh-key-passphrase is for success vectors"
  expect "$want" "$PCRYPT" decrypt "${args[@]}" "$VECTORS/$file" -o "out.$name"
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
