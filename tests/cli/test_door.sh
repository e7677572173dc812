#!/usr/bin/env bash
# What the one door (core/door/) fixed, seen from the command line (issue 24): encrypt -v reports the real
# output size for every recipient kind, and rekey answers the same request the same way on a .pcrypt and a
# .age file.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

"$PCRYPT" keygen -o k.key
"$PCRYPT" keygen --identity -o x.id 2> /dev/null
"$PCRYPT" keygen --pq -o pq.id 2> /dev/null
ssh-keygen -q -t ed25519 -N '' -C a -f ssh_ed
ssh-keygen -q -t rsa -b 2048 -N '' -C b -f ssh_rsa
head -c 100 /dev/urandom > plain
x=$("$PCRYPT" recipient x.id)
pq=$("$PCRYPT" recipient pq.id)

# -v's last line: "NAME: IN -> OUT in T s, RATE"; OUT (printed as "236 B" or "1.3 KiB") must be the file's
# size, whatever the slots: within the rounding of one decimal.
summary_matches() {
  local actual=$1
  sed -n 's/.*: 100 B -> \([0-9.]*\) \([KMG]*i*B\) in .*/\1 \2/p' stderr | tail -1 |
    awk -v actual="$actual" '{ m = ($2 == "B") ? 1 : ($2 == "KiB") ? 1024 : ($2 == "MiB") ? 1048576 : 0;
      v = $1 * m; d = v - actual; if (d < 0) d = -d; exit !(m > 0 && d <= 0.06 * m) }'
}
for kind in "-k k.key" "-r $x" "-r $pq" "-R ssh_ed.pub" "-R ssh_rsa.pub" "--format age -r $x" \
  "--format age -r $pq" "--format age -R ssh_rsa.pub" "--format age -a -r $x"; do
  check "encrypt -v $kind: the summary's output size is the file's"
  rm -f out.enc
  # shellcheck disable=SC2086
  expect 0 "$PCRYPT" encrypt -v $kind plain -o out.enc
  summary_matches "$(stat -c %s out.enc)" || fail "encrypt -v $kind: $(tail -1 stderr) for a $(stat -c %s out.enc)-byte file"
done

check "encrypt -v -p (Argon2id slot): the summary's output size is the file's"
rm -f out.enc
PCRYPT_PASSPHRASE=pw expect 0 "$PCRYPT" encrypt -v -p --kdf-memory 8MiB --kdf-ops 1 plain -o out.enc
summary_matches "$(stat -c %s out.enc)" || fail "passphrase slot: $(tail -1 stderr) for $(stat -c %s out.enc) bytes"

# One rekey policy: removing a post-quantum recipient by its public key explains the same on both formats.
# (Before the door, the .age file said "has no stanza in this file".)
"$PCRYPT" keygen --pq -o pq2.id 2> /dev/null
pq2=$("$PCRYPT" recipient pq2.id)
"$PCRYPT" encrypt -r "$pq" -r "$pq2" plain -o two.pcrypt
"$PCRYPT" encrypt --format age -r "$pq" -r "$pq2" plain -o two.age
for f in two.pcrypt two.age; do
  check "rekey --remove-recipient age1pq1... on $f, opened by another identity: anonymous, give the identity"
  expect 2 "$PCRYPT" rekey "$f" -i pq2.id --remove-recipient "$pq"
  expect_one_error "post-quantum recipient"
  grep -q "are anonymous" stderr || fail "$f: $(cat stderr)"
  grep -q "hint: give the identity instead: --remove-key IDENTITY-FILE" stderr || fail "$f: no hint: $(cat stderr)"
done

check "rekey --remove-recipient age1pq1... of the opening identity works the same on both formats"
"$PCRYPT" encrypt -r "$pq" plain -o pq.pcrypt
"$PCRYPT" encrypt --format age -r "$pq" plain -o pq.age
for f in pq.pcrypt pq.age; do
  expect 0 "$PCRYPT" rekey "$f" -i pq.id --remove-recipient "$pq" --add-recipient "$pq2"
  expect 0 "$PCRYPT" decrypt -i pq2.id "$f" -o back
  cmp -s back plain || fail "$f: rekeyed file does not decrypt to the plaintext"
  rm -f back
  expect 3 "$PCRYPT" decrypt -i pq.id "$f" -o back
done

# Issue 27, defect 6: one duplicate rule on every path. `rekey --new-file-key --add-recipient R` where R is the
# opening identity's own recipient makes one slot for that person, as encrypt merges a repeated recipient;
# and many dropped slots are summarised in a line a person can read (counts; the list with -v).
others=()
for n in 1 2 3 4 5 6; do
  "$PCRYPT" keygen --identity -o "o$n.id" 2> /dev/null
  others+=(-r "$("$PCRYPT" recipient "o$n.id")")
done
for fmt in pcrypt age; do
  check "rekey --new-file-key --add-recipient of the opener's own recipient ($fmt): one slot, a short summary"
  rm -f team.enc
  "$PCRYPT" encrypt --format "$fmt" -r "$x" "${others[@]}" plain -o team.enc
  expect 0 "$PCRYPT" rekey team.enc -i x.id --new-file-key --add-recipient "$x"
  slots=$("$PCRYPT" info team.enc | grep -cE '^(slot|stanza) [0-9]+:')
  [[ $slots == 1 ]] || fail "$fmt: $slots slots for one person after --new-file-key: $("$PCRYPT" info team.enc)"
  grep -q 'dropped 6 ' stderr || fail "$fmt: no count of the dropped slots: $(cat stderr)"
  [[ $(wc -L < stderr) -lt 200 ]] || fail "$fmt: a summary line of $(wc -L < stderr) characters"
  expect 0 "$PCRYPT" rekey team.enc -i x.id --new-file-key -v
  grep -q 'kept: ' stderr || fail "$fmt: -v does not list what was kept: $(cat stderr)"
done
