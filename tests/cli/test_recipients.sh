#!/usr/bin/env bash
# Public-key recipients (FORMAT.md §10): keygen --identity, recipient, encrypt -r/-R, decrypt -i, refusals,
# identity-file forms, and interop with real age-keygen and ssh-keygen keys (skipped visibly when missing).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

head -c 70000 /dev/urandom > plain

check "keygen --identity -o: mode 0600, public key on stderr, recipient prints the same key"
"$PCRYPT" keygen --identity -o me.key 2> keygen.err
[[ $(mode_of me.key) == 600 ]] || fail "identity file mode is $(mode_of me.key)"
grep -q '^AGE-SECRET-KEY-1' me.key || fail "no AGE-SECRET-KEY-1 line in the identity file"
grep -Eq '^public key: age1[a-z0-9]{58}$' keygen.err || fail "no 'public key: age1...' on stderr"
me=$("$PCRYPT" recipient me.key)
[[ "public key: $me" == "$(cat keygen.err)" ]] || fail "recipient differs from keygen's public key"

check "keygen --identity without -o prints the identity to stdout"
"$PCRYPT" keygen --identity > stdout.key 2> /dev/null
grep -q '^AGE-SECRET-KEY-1' stdout.key || fail "no identity on stdout"

check "encrypt -r, decrypt -i; info shows an anonymous X25519 recipient and version 2"
"$PCRYPT" encrypt -r "$me" plain -o x.pcrypt
"$PCRYPT" decrypt -i me.key x.pcrypt -o x.out
same x.out plain
"$PCRYPT" info x.pcrypt > info.txt
grep -q 'pcrypt v2' info.txt || fail "info does not show version 2"
grep -q 'X25519 recipient (anonymous)' info.txt || fail "info does not show the X25519 slot"

check "a file without recipients stays version 1"
"$PCRYPT" keygen -o k.key
"$PCRYPT" encrypt -k k.key plain -o v1.pcrypt
"$PCRYPT" info v1.pcrypt | finds 'pcrypt v1$' || fail "key-file-only file is not version 1"

check "info counts recipient slots as recipients, not as key files"
"$PCRYPT" encrypt -k k.key -r "$me" plain -o mixed.pcrypt
"$PCRYPT" info mixed.pcrypt | finds -x 'unlocked by: a key file (1 key-file slot) or an X25519 identity (1 X25519 recipient slot)' ||
  fail "info: $("$PCRYPT" info mixed.pcrypt | grep unlocked)"

check "-R file with comments, blank lines, CRLF; mixed with -k and -p: each credential alone opens"
"$PCRYPT" keygen --identity -o you.key 2> /dev/null
you=$("$PCRYPT" recipient you.key)
printf '# team\r\n\r\n%s\r\n# end\n' "$you" > team.txt
PCRYPT_PASSPHRASE='pw' "$PCRYPT" encrypt -r "$me" -R team.txt -k k.key -p "${CHEAP_KDF[@]}" plain -o mix.pcrypt
for cred in "-i me.key" "-i you.key" "-k k.key"; do
  # shellcheck disable=SC2086
  "$PCRYPT" decrypt $cred mix.pcrypt -o mix.out
  same mix.out plain
  rm mix.out
done
PCRYPT_PASSPHRASE='pw' "$PCRYPT" decrypt -p mix.pcrypt -o mix.out
same mix.out plain
rm mix.out

check "identity file with several keys, comments and CRLF"
{ printf '# created: today\r\n'; grep AGE-SECRET stdout.key | tr -d '\n'; printf '\r\n\r\n'
  grep AGE-SECRET you.key | tr -d '\n'; printf '\r\n'; } > several.key
"$PCRYPT" decrypt -i several.key mix.pcrypt -o several.out
same several.out plain
[[ $("$PCRYPT" recipient several.key | wc -l) == 2 ]] || fail "recipient does not print one line per identity"

check "wrong identity -> 3 and nothing written"
"$PCRYPT" keygen --identity -o stranger.key 2> /dev/null
expect 3 "$PCRYPT" decrypt -i stranger.key x.pcrypt -o out
expect_one_error "wrong key"
! exists out || fail "out exists after a wrong identity"

check "malformed recipients -> 2 naming the recipient"
bad_checksum=${me%?}$([[ ${me: -1} == q ]] && echo p || echo q)
for bad in "$bad_checksum" "${me/age1/agx1}" "${me:0:30}" \
  "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 user@host"; do
  expect 2 "$PCRYPT" encrypt -r "$bad" plain -o out
  expect_one_error "$bad"
  ! exists out || fail "out exists after a malformed recipient"
done
printf '%s\n' "$bad_checksum" > bad.txt
expect 2 "$PCRYPT" encrypt -R bad.txt plain -o out
expect_one_error "bad.txt"

check "a public key where a secret is expected: clear usage error"
printf '%s\n' "$me" > public.txt
expect 2 "$PCRYPT" decrypt -i public.txt x.pcrypt -o out
expect_one_error "public.txt"
! exists out || fail "out exists after a public key as identity"

check "-R - is refused when the data also comes from standard input, allowed otherwise"
expect 2 "$PCRYPT" encrypt -R - -o out < plain
expect_one_error "-R - reads recipients from standard input, which is the data"
printf '%s\n' "$me" | "$PCRYPT" encrypt -R - plain -o stdin-r.pcrypt
"$PCRYPT" decrypt -i me.key stdin-r.pcrypt -o stdin-r.out
same stdin-r.out plain

check "empty data and a recipient (size 0)"
: > empty
"$PCRYPT" encrypt -r "$me" empty -o empty.pcrypt
"$PCRYPT" decrypt -i me.key empty.pcrypt -o empty.out
same empty.out empty

if command -v ssh-keygen > /dev/null; then
  check "ssh-keygen -t ed25519 -N '': -R id.pub, decrypt -i private key, recipient prints the public line"
  ssh-keygen -q -t ed25519 -N '' -C 'me@host' -f id_ed25519
  "$PCRYPT" encrypt -R id_ed25519.pub plain -o ssh.pcrypt
  "$PCRYPT" decrypt -i id_ed25519 ssh.pcrypt -o ssh.out
  same ssh.out plain
  "$PCRYPT" info ssh.pcrypt | finds -E 'SSH ed25519 recipient, tag [0-9a-f]{8}$' || fail "info lacks the SSH tag"
  [[ $("$PCRYPT" recipient id_ed25519) == "$(cut -d' ' -f1-2 id_ed25519.pub)" ]] ||
    fail "recipient of the OpenSSH key differs from id_ed25519.pub"
  ssh-keygen -q -t ed25519 -N '' -f other_ed25519
  expect 3 "$PCRYPT" decrypt -i other_ed25519 ssh.pcrypt -o out
  ! exists out || fail "out exists after a wrong SSH key"
  check "an encrypted OpenSSH key with no terminal to ask on: usage error naming it (test_ssh_keys.sh asks)"
  ssh-keygen -q -t ed25519 -N 'secret' -f locked_ed25519
  "$PCRYPT" encrypt -R locked_ed25519.pub plain -o locked.pcrypt
  expect 2 setsid -w "$PCRYPT" decrypt -i locked_ed25519 locked.pcrypt -o out
  expect_one_error "locked_ed25519"
else
  echo "SKIP: ssh-keygen not installed (apt-get install openssh-client)"
fi

if command -v age-keygen > /dev/null && command -v ssh-keygen > /dev/null; then
  check "Done when: encrypt -r \$(age-keygen -y k.txt) -R id_ed25519.pub opens with -i k.txt and -i id_ed25519"
  age-keygen -o k.txt 2> /dev/null
  "$PCRYPT" encrypt -r "$(age-keygen -y k.txt)" -R id_ed25519.pub plain -o done.pcrypt
  "$PCRYPT" decrypt -i k.txt done.pcrypt -o done1.out
  same done1.out plain
  "$PCRYPT" decrypt -i id_ed25519 done.pcrypt -o done2.out
  same done2.out plain
  [[ $("$PCRYPT" recipient k.txt) == "$(age-keygen -y k.txt)" ]] || fail "recipient differs from age-keygen -y"
  check "a pcrypt identity works with age (same key encoding)"
  if command -v age > /dev/null; then
    printf 'hello\n' > small
    age -r "$me" -o small.age small
    [[ $(age -d -i me.key small.age) == hello ]] || fail "age cannot use a pcrypt identity"
  fi
else
  echo "SKIP: age-keygen or ssh-keygen not installed (apt-get install age openssh-client)"
fi
check "verify -i: an identity authenticates the file; a stranger's identity fails with exit 3"
"$PCRYPT" keygen --identity -o verify_me.key 2>/dev/null
"$PCRYPT" keygen --identity -o verify_other.key 2>/dev/null
head -c 100000 /dev/urandom > verify.plain
"$PCRYPT" encrypt -r "$("$PCRYPT" recipient verify_me.key)" verify.plain -o verify.pcrypt
"$PCRYPT" verify -i verify_me.key verify.pcrypt
expect 3 "$PCRYPT" verify -i verify_other.key verify.pcrypt
rm verify_me.key verify_other.key verify.plain verify.pcrypt

echo "all recipient checks passed"
