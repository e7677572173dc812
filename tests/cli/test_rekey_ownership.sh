#!/usr/bin/env bash
# rekey in place keeps the file's owner, group and mode, as `sed -i` does (issue 16, item 10); where it
# cannot (not permitted), it refuses before writing and says why. Needs root (to chown); skips otherwise.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

if [[ $(id -u) != 0 ]]; then
  echo "SKIPPED: needs root to give files to other users"
  exit 0
fi

"$PCRYPT" keygen -o k.key
"$PCRYPT" keygen -o new.key
printf 'hello\n' > plain
"$PCRYPT" encrypt -k k.key plain -o base.pcrypt

owner_mode() { stat -c '%U:%G %a' "$1"; }

check "nobody:nogroup 0600, rekeyed by root in place: still nobody:nogroup 0600"
cp base.pcrypt a.pcrypt
chown nobody:nogroup a.pcrypt
chmod 0600 a.pcrypt
"$PCRYPT" rekey -k k.key --add-key new.key a.pcrypt
[[ $(owner_mode a.pcrypt) == "nobody:nogroup 600" ]] || fail "got $(owner_mode a.pcrypt)"
"$PCRYPT" decrypt -k new.key a.pcrypt -o - | cmp -s - plain || fail "rekeyed file does not decrypt"

check "root:daemon 0640 stays root:daemon 0640 (also with --new-file-key)"
cp base.pcrypt b.pcrypt
chown root:daemon b.pcrypt
chmod 0640 b.pcrypt
"$PCRYPT" rekey -k k.key --add-key new.key b.pcrypt
[[ $(owner_mode b.pcrypt) == "root:daemon 640" ]] || fail "got $(owner_mode b.pcrypt)"
"$PCRYPT" rekey -k k.key --new-file-key b.pcrypt
[[ $(owner_mode b.pcrypt) == "root:daemon 640" ]] || fail "--new-file-key: got $(owner_mode b.pcrypt)"

check "-o still makes a new private file (0600, the caller's)"
"$PCRYPT" rekey -k k.key --add-key new.key b.pcrypt -o c.pcrypt
[[ $(owner_mode c.pcrypt) == "root:root 600" ]] || fail "got $(owner_mode c.pcrypt)"

check "a user who may not give the file its owner back: refused before writing, file untouched"
chmod 0711 "$WORK"
mkdir shared
chmod 0777 shared
cp base.pcrypt shared/d.pcrypt
chown daemon:daemon shared/d.pcrypt
chmod 0666 shared/d.pcrypt
chmod 0644 k.key new.key
cp shared/d.pcrypt before.pcrypt
# nobody runs a copy of pcrypt and of the libpcrypt.so.1 it links, here: the build tree may be where nobody
# cannot read (/root/pcrypt in CI's fresh Debian). setpriv still reaches the binary there, as root, but
# the dynamic loader then looks for the library as nobody.
mkdir bin
cp "$PCRYPT" bin/pcrypt
library=$(ldd "$PCRYPT" | awk '$1 ~ /^libpcrypt\.so/ { print $3 }')
[[ -z $library ]] || cp "$library" "bin/$(basename "$library")"
chmod 0755 bin bin/*
expect 1 setpriv --reuid=nobody --regid=nogroup --clear-groups env LD_LIBRARY_PATH="$WORK/bin" \
  bin/pcrypt rekey -k k.key --add-key new.key shared/d.pcrypt
expect_one_error "cannot keep the owner and group"
same shared/d.pcrypt before.pcrypt
[[ $(owner_mode shared/d.pcrypt) == "daemon:daemon 666" ]] || fail "got $(owner_mode shared/d.pcrypt)"
leftovers=$(
  shopt -s nullglob dotglob
  cd shared && echo *
)
[[ $leftovers == d.pcrypt ]] || fail "left behind in shared/: $leftovers"
