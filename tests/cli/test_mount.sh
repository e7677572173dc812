#!/usr/bin/env bash
# pcrypt mount under a real FUSE mount: a folder of pcrypt and age files (written by pcrypt and, where
# installed, by the real age) read back byte for byte; 1,000 random preads from 8 threads; tar and sqlite3
# reading encrypted files in place; a damaged record giving EIO while the rest reads; the life cycle
# (background and -f, pcrypt unmount, fusermount3 -u, SIGINT, SIGTERM: no process left, no mount left);
# permissions; and the error cases, each one line. Skipped visibly where pcrypt was built without FUSE, or
# where this system cannot mount FUSE (no /dev/fuse, no permission: a container, a chroot).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

require_tools python3 fusermount3 mountpoint

# Every mount made here is undone on exit, before the work folder is removed.
cleanup() {
  local m
  for m in "$WORK"/mnt*; do
    mountpoint -q "$m" 2> /dev/null && { fusermount3 -u "$m" 2> /dev/null || umount -l "$m" 2> /dev/null || true; }
  done
  cd /
  rm -rf "$WORK"
}
trap cleanup EXIT

"$PCRYPT" keygen -o key 2> /dev/null
"$PCRYPT" keygen --identity -o id 2> /dev/null
recipient=$("$PCRYPT" recipient id)
"$PCRYPT" keygen -o other.key 2> /dev/null

# mount_pid MOUNTPOINT: the process serving it (a `pcrypt mount` whose last argument it is: give the mount
# point as an absolute path, so that no other mount's process is taken for it).
# (Read by the shell itself: a few processes per /proc entry made this most of the test's time.)
mount_pid() {
  local p args
  for p in /proc/[0-9]*; do
    # (A process may end between the listing and the read.)
    mapfile -d '' args < "$p/cmdline" 2> /dev/null || continue
    ((${#args[@]} > 1)) && [[ ${args[-1]} == "$1" ]] || continue
    [[ " ${args[*]:1} " == *" mount "* ]] && { echo "${p#/proc/}"; return 0; }
  done
  return 1
}
# gone PID: the process has ended: it is no longer there, or it is a zombie not yet reaped (the mount's process
# is a daemon, reaped by init, which here takes a second or more to do so; waiting for that was 5 s of the test).
gone() {
  local key value
  kill -0 "$1" 2> /dev/null || return 0
  while read -r key value _; do
    [[ $key == State: ]] && { [[ $value == Z ]]; return; }
  done 2> /dev/null < "/proc/$1/status"
  ! kill -0 "$1" 2> /dev/null
}
not_mounted() { ! mountpoint -q "$1"; }

mkdir -p src/sub src/deeper/still mnt
head -c 3000000 /dev/urandom > plain.big
head -c 70000 /dev/urandom > plain.small
: > plain.empty

check "pcrypt mount exists in this build, and this system can mount FUSE"
expect 0 "$PCRYPT" encrypt -k key -o probe.pcrypt plain.small
rc=0
timeout 60 "$PCRYPT" mount -k key probe.pcrypt mnt 2> stderr || rc=$?
if grep -q "built without FUSE" stderr; then
  echo "SKIPPED: this pcrypt was built without FUSE (libfuse3-dev not found at build time)"
  exit 0
fi
if [[ $rc != 0 ]]; then
  cat stderr
  echo "SKIPPED: FUSE cannot mount here (no /dev/fuse or no permission to mount; a container or chroot needs" \
    "--device /dev/fuse and the capability to mount)"
  exit 0
fi
cmp -s mnt/probe plain.small || fail "the probe mount does not show the plaintext"
expect 0 "$PCRYPT" unmount mnt
wait_until not_mounted mnt

check "a folder of pcrypt and age files is shown as plaintext, byte for byte"
"$PCRYPT" encrypt -k key -o src/big.bin.pcrypt plain.big
"$PCRYPT" encrypt -k key --chunk-size 4KiB -o src/sub/small.pcrypt plain.small
"$PCRYPT" encrypt --format age -r "$recipient" -o src/sub/small.age.bin.age plain.small
"$PCRYPT" encrypt --format age -r "$recipient" -o src/deeper/still/big.age plain.big
"$PCRYPT" encrypt -k key -o src/empty.pcrypt plain.empty
"$PCRYPT" encrypt --format age -r "$recipient" -o src/void.age plain.empty
if command -v age > /dev/null; then
  age -r "$recipient" -o src/by-age.age plain.big
else
  echo "(age not installed: the file made by the real age is left out)"
  "$PCRYPT" encrypt --format age -r "$recipient" -o src/by-age.age plain.big
fi
echo "not encrypted" > src/README.txt
ln -s big.bin.pcrypt src/link.pcrypt
"$PCRYPT" encrypt -k other.key -o src/others.pcrypt plain.small
"$PCRYPT" encrypt --format age -a -r "$recipient" -o src/armored.age plain.small
"$PCRYPT" encrypt -k key -o src/same.pcrypt plain.small
"$PCRYPT" encrypt --format age -r "$recipient" -o src/same.age plain.big
expect 0 timeout 60 "$PCRYPT" mount -k key -i id src "$WORK/mnt"
[[ $(grep -c "shown unreadable" stderr) == 2 ]] || fail "the two unreadable files are not listed once each"
grep -q "others.pcrypt" stderr || fail "the file for another key is not named"
grep -q "armored.age" stderr || fail "the armored file is not named"
mountpoint -q mnt || fail "not mounted"
same mnt/big.bin plain.big
same mnt/sub/small plain.small
same mnt/sub/small.age.bin plain.small
same mnt/deeper/still/big plain.big
same mnt/by-age plain.big
same mnt/empty plain.empty
same mnt/void plain.empty
# Two files with one plaintext name keep their full names.
same mnt/same.pcrypt plain.small
same mnt/same.age plain.big
[[ $(stat -c %s mnt/big.bin) == 3000000 ]] || fail "the size shown is not the plaintext's"
[[ $(stat -c %Y mnt/big.bin) == $(stat -c %Y src/big.bin.pcrypt) ]] || fail "the time is not the encrypted file's"
[[ $(stat -c %a mnt/big.bin) == 444 || $(stat -c %a mnt/big.bin) == 400 || $(stat -c %a mnt/big.bin) == 440 ]] ||
  fail "mode $(stat -c %a mnt/big.bin) is not read-only"
listing=$(cd mnt && find . | sort | tr '\n' ' ')
want=". ./armored ./big.bin ./by-age ./deeper ./deeper/still ./deeper/still/big ./empty ./others ./same.age ./same.pcrypt ./sub ./sub/small ./sub/small.age.bin ./void "
[[ $listing == "$want" ]] || fail "the mount shows: $listing"

check "files the credentials cannot open: EACCES; armored age: EOPNOTSUPP; writes: read-only"
cat mnt/others > /dev/null 2> stderr && fail "a file for another key was read"
grep -q "Permission denied" stderr || fail "not EACCES: $(cat stderr)"
cat mnt/armored > /dev/null 2> stderr && fail "an armored file was read"
grep -q "Operation not supported" stderr || fail "not EOPNOTSUPP: $(cat stderr)"
(echo x > mnt/big.bin) 2> stderr && fail "a file of the mount was written"
grep -q "Read-only file system" stderr || fail "not EROFS: $(cat stderr)"
touch mnt/new 2> /dev/null && fail "a file was created in the mount"

check "1,000 random preads from 8 threads match the plaintext"
python3 - mnt/big.bin plain.big mnt/deeper/still/big << 'PY'
import os, random, sys, threading
mounted, plain, age_file = sys.argv[1], open(sys.argv[2], "rb").read(), sys.argv[3]
errors = []
def reader(seed):
    rng = random.Random(seed)
    fds = [os.open(mounted, os.O_RDONLY), os.open(age_file, os.O_RDONLY)]
    for _ in range(125):
        fd = rng.choice(fds)
        offset = rng.randrange(len(plain) + 10)
        length = rng.choice([1, 4096, 65536, rng.randrange(1, 300000)])
        got = os.pread(fd, length, offset)
        if got != plain[offset:offset + length]:
            errors.append((offset, length))
    for fd in fds:
        os.close(fd)
threads = [threading.Thread(target=reader, args=(s,)) for s in range(8)]
for t in threads: t.start()
for t in threads: t.join()
if errors:
    sys.exit(f"{len(errors)} of 1000 preads differ, first at {errors[0]}")
PY

check "tar lists and extracts an encrypted tar in place"
mkdir -p tree/a/b && head -c 200000 /dev/urandom > tree/a/b/f1 && echo hello > tree/a/f2
tar cf t.tar tree
"$PCRYPT" encrypt --format age -r "$recipient" -o src2.tar.age t.tar
mkdir -p mnt2 src2 && mv src2.tar.age src2/
expect 0 timeout 60 "$PCRYPT" mount -i id src2 mnt2
[[ $(tar tf mnt2/src2.tar) == "$(tar tf t.tar)" ]] || fail "tar tf differs"
mkdir out && tar xf mnt2/src2.tar -C out && same out/tree/a/b/f1 tree/a/b/f1
expect 0 "$PCRYPT" unmount mnt2

check "sqlite3 -readonly queries an encrypted database in place"
if command -v sqlite3 > /dev/null; then
  sqlite3 db.sqlite "create table t(id integer primary key, v text);
    with recursive n(i) as (select 1 union all select i + 1 from n where i < 20000)
    insert into t(v) select hex(randomblob(40)) from n;
    create index tv on t(v);"
  mkdir -p src3 mnt3
  "$PCRYPT" encrypt -k key --chunk-size 64KiB -o src3/db.sqlite.pcrypt db.sqlite
  expect 0 timeout 60 "$PCRYPT" mount -k key src3 mnt3
  query="select count(*), sum(length(v)), (select v from t where id = 12345) from t;"
  [[ $(sqlite3 -readonly mnt3/db.sqlite "$query") == $(sqlite3 -readonly db.sqlite "$query") ]] ||
    fail "sqlite3's answer through the mount differs"
  [[ $(sqlite3 -readonly mnt3/db.sqlite "pragma integrity_check;") == ok ]] || fail "integrity_check"
  expect 0 "$PCRYPT" unmount mnt3
else
  echo "SKIPPED: sqlite3 not installed (scripts/install-deps.sh --test installs it)"
fi

check "a damaged record: EIO to dd, nothing of it returned, and the rest of the file still reads"
head -c $((8 * 65536)) /dev/urandom > plain.eight
mkdir -p src4 mnt4
"$PCRYPT" encrypt -k key --chunk-size 64KiB -o src4/eight.pcrypt plain.eight
header=$(( $(stat -c %s src4/eight.pcrypt) - 8 * (65536 + 16) ))
# A byte in record 3's ciphertext.
flip_byte src4/eight.pcrypt $((header + 3 * (65536 + 16) + 100))
expect 0 timeout 60 "$PCRYPT" mount -k key src4 mnt4
dd if=mnt4/eight of=got.3 bs=64K skip=3 count=1 status=none 2> stderr && fail "the damaged record was read"
grep -q "Input/output error" stderr || fail "not EIO: $(cat stderr)"
[[ ! -s got.3 ]] || fail "dd got $(stat -c %s got.3) bytes of the damaged record"
cat mnt4/eight > /dev/null 2> stderr && fail "cat read the whole damaged file"
for r in 0 1 2 4 5 6 7; do
  dd if=mnt4/eight of=got bs=64K skip=$r count=1 status=none
  dd if=plain.eight of=want bs=64K skip=$r count=1 status=none
  same got want
done
dd if=mnt4/eight of=got bs=64K count=3 status=none
head -c $((3 * 65536)) plain.eight > want && same got want
dd if=mnt4/eight of=got bs=64K skip=4 status=none
tail -c $((4 * 65536)) plain.eight > want && same got want
expect 0 "$PCRYPT" unmount mnt4

check "a cut file is never shown as a shorter valid one (an empty one at an empty file's length): EIO, both formats"
mkdir -p src5 mnt5
head -c $((2 * 65536 + 100)) /dev/urandom > plain.three
"$PCRYPT" encrypt -k key --chunk-size 64KiB -o whole.pcrypt plain.three
"$PCRYPT" encrypt --format age -r "$recipient" -o whole.age plain.three
for format in pcrypt age; do
  header=$(($(stat -c %s whole.$format) - 3 * 16 - 2 * 65536 - 100)) # age's: its payload nonce included
  # Its header and one tag (an empty file's length), two full records (neither sealed last), inside a record.
  for length in $((header + 16)) $((header + 2 * (65536 + 16))) $((header + 65536 + 16 + 500)); do
    head -c $length whole.$format > src5/cut$length.$format
  done
done
cp whole.age src5/whole.age
expect 0 timeout 60 "$PCRYPT" mount -k key -i id src5 "$WORK/mnt5"
[[ $(grep -c "shown unreadable" stderr) == 6 ]] || fail "not every cut file is shown unreadable: $(cat stderr)"
same mnt5/whole plain.three
for shown in mnt5/cut*; do
  cat "$shown" > got 2> stderr && fail "$shown (a cut file) was read: $(stat -c %s got) bytes, exit 0"
  grep -q "Input/output error" stderr || fail "$shown: not EIO: $(cat stderr)"
done
expect 0 "$PCRYPT" unmount mnt5

check "a descriptor limit below the number of files: all shown and read, each open only while open through the mount, EMFILE past the limit"
mkdir -p src6 mnt6
head -c 5000 /dev/urandom > plain.few
"$PCRYPT" encrypt -k key -o one.pcrypt plain.few
"$PCRYPT" encrypt --format age -r "$recipient" -o one.age plain.few
for i in $(seq 1 30); do cp one.pcrypt "src6/p$i.pcrypt" && cp one.age "src6/a$i.age"; done
# 60 files under a limit of 40 (soft and hard: pcrypt raises the soft limit to the hard one), in the foreground.
bash -c 'ulimit -n 40 && exec "$@"' sh "$PCRYPT" mount -f -k key -i id src6 "$WORK/mnt6" 2> stderr6 &
pid=$!
# (Ended, it is a zombie until waited for.)
up_or_ended() { mountpoint -q mnt6 || gone "$pid" || grep -q '^State:[[:space:]]*Z' "/proc/$pid/status"; }
wait_until up_or_ended
mountpoint -q mnt6 || fail "no mount under a limit of 40 descriptors: $(cat stderr6)"
grep -q "unreadable" stderr6 && fail "files were shown unreadable: $(cat stderr6)"
grep -q "encrypted files can be open at once" stderr6 || fail "the limit on open files is not said: $(cat stderr6)"
descriptors() { find "/proc/$pid/fd" -mindepth 1 | wc -l; }
idle=$(descriptors)
[[ $idle -lt 20 ]] || fail "the mount holds $idle descriptors with no file open"
for f in mnt6/*; do same "$f" plain.few; done
# (The kernel tells FUSE of a close after close(2) has returned.)
idle_again() { [[ $(descriptors) == "$idle" ]]; }
wait_until idle_again || fail "files read and closed are still open in the mount: $(descriptors) descriptors, $idle before"
python3 - mnt6 "/proc/$pid/fd" "$idle" plain.few << 'PY'
import errno, os, sys, time
mounted, fd_dir, idle, plain = sys.argv[1], sys.argv[2], int(sys.argv[3]), open(sys.argv[4], "rb").read()
held = lambda: len(os.listdir(fd_dir))
def settled(want):
    """The mount's count once the kernel has passed on the closes (after close(2) returns)."""
    for _ in range(100):
        if held() == want:
            break
        time.sleep(0.05)
    return held()
# One file opened 20 times: one descriptor in the mount.
same = [os.open(f"{mounted}/p1", os.O_RDONLY) for _ in range(20)]
if held() != idle + 1:
    sys.exit(f"20 opens of one file hold {held() - idle} descriptors in the mount, not 1")
for fd in same:
    os.close(fd)
if settled(idle) != idle:
    sys.exit(f"closed, one file still holds {held() - idle} descriptors in the mount")
# Every file at once: some open, the rest EMFILE, and the mount still answers and keeps descriptors for itself.
opened, refused = [], 0
for name in sorted(os.listdir(mounted)):
    try:
        opened.append(os.open(f"{mounted}/{name}", os.O_RDONLY))
    except OSError as e:
        if e.errno != errno.EMFILE:
            sys.exit(f"{name}: {e} (not EMFILE)")
        refused += 1
if not opened or not refused:
    sys.exit(f"{len(opened)} opened, {refused} refused: the limit of 40 is not applied")
if held() > 40 - 8:
    sys.exit(f"the mount holds {held()} of its 40 descriptors: none kept in reserve")
for fd in opened:
    if os.pread(fd, 10, 0) != plain[:10]:
        sys.exit("a file open among many reads wrong")
    os.close(fd)
if settled(idle) != idle:
    sys.exit(f"all closed, the mount still holds {held() - idle} descriptors of files")
# Closed, they open again.
for name in sorted(os.listdir(mounted)):
    with open(f"{mounted}/{name}", "rb") as f:
        if f.read() != plain:
            sys.exit(f"{name} reads wrong after the others were closed")
PY
grep -q "Too many open files\|descriptor limit allows" stderr6 || fail "EMFILE is not said on standard error: $(cat stderr6)"
# SOURCE changing under the mount: a file replaced or removed since is refused (ESTALE), never read as another.
cp one.age src6/p2.pcrypt.new && mv src6/p2.pcrypt.new src6/p2.pcrypt && rm src6/p3.pcrypt
for gone_file in mnt6/p2 mnt6/p3; do
  cat "$gone_file" > /dev/null 2> stderr && fail "$gone_file, replaced or removed since mounting, was read"
  grep -q "Stale file handle" stderr || fail "$gone_file: not ESTALE: $(cat stderr)"
done
same mnt6/p4 plain.few
expect 0 "$PCRYPT" unmount mnt6
wait "$pid" || fail "the mount under a limit of 40 descriptors ended with $?"

check "the kernel keeps what was read for the next open (keep_cache), and a source changed since is still refused, never served from it"
mkdir -p src7 mnt7
head -c 3000000 /dev/urandom > plain.kept
"$PCRYPT" encrypt -k key --chunk-size 64KiB -o src7/kept.pcrypt plain.kept
"$PCRYPT" encrypt -k key --chunk-size 64KiB -o src7/tail.pcrypt plain.kept
"$PCRYPT" encrypt -k key --chunk-size 64KiB -o src7/swapped.pcrypt plain.kept
expect 0 timeout 60 "$PCRYPT" mount -k key src7 "$WORK/mnt7"
same mnt7/kept plain.kept
same mnt7/kept plain.kept
# (Cached pages of the mount are counted by fincore where util-linux has it: the second read came from them.)
if command -v fincore > /dev/null; then
  [[ $(fincore -nb -o RES mnt7/kept) -gt 0 ]] || fail "the kernel kept nothing of a file read twice"
fi
# Changed in place (same size, new modification time) while another open holds its descriptor: the next open
# is refused, although every page of the old file is in the page cache.
exec 3< mnt7/kept
flip_byte src7/kept.pcrypt 2000000
cat mnt7/kept > got 2> stderr && fail "a file changed in place while held was read again ($(stat -c %s got) bytes)"
grep -q "Stale file handle" stderr || fail "a file changed in place while held: not ESTALE: $(cat stderr)"
exec 3<&-
cat mnt7/kept > got 2> stderr && fail "a file changed in place was read after its last close"
grep -q "Stale file handle" stderr || fail "a file changed in place: not ESTALE: $(cat stderr)"
# Replaced (a new inode at its path) while held: refused too.
exec 3< mnt7/swapped
same mnt7/swapped plain.kept
cp src7/swapped.pcrypt swap.new && mv swap.new src7/swapped.pcrypt
cat mnt7/swapped > got 2> stderr && fail "a file replaced while held was read again"
grep -q "Stale file handle" stderr || fail "a file replaced while held: not ESTALE: $(cat stderr)"
exec 3<&-
# Its last record damaged behind a forged modification time (the check by size and time passes): what was
# read before is kept, the rest fails with EIO, and no byte handed out differs from the plaintext.
head -c 100000 mnt7/tail > /dev/null
touch -r src7/tail.pcrypt stamp
size=$(stat -c %s src7/tail.pcrypt)
flip_byte src7/tail.pcrypt $((size - 100))
touch -r stamp src7/tail.pcrypt
cat mnt7/tail > got 2> stderr && fail "a file whose last record was damaged (same size and time) read whole"
grep -q "Input/output error" stderr || fail "a damaged last record: not EIO: $(cat stderr)"
[[ $(stat -c %s got) -lt 3000000 ]] || fail "a damaged last record: all of the file was handed out"
cmp -s got <(head -c "$(stat -c %s got)" plain.kept) || fail "a damaged file handed out bytes not its plaintext"
expect 0 "$PCRYPT" unmount mnt7

check "unmount ends the process: pcrypt unmount, fusermount3 -u, SIGTERM, SIGINT, and -f in the foreground"
pid=$(mount_pid "$WORK/mnt") || fail "no process serves the mount"
expect 0 "$PCRYPT" unmount mnt
wait_until gone "$pid" || fail "the mount's process is still there after pcrypt unmount"
not_mounted mnt || fail "still mounted"
for how in fusermount TERM INT; do
  expect 0 timeout 60 "$PCRYPT" mount -k key -i id src "$WORK/mnt"
  pid=$(mount_pid "$WORK/mnt") || fail "no process serves the mount"
  case $how in
    fusermount) fusermount3 -u mnt ;;
    *) kill -s "$how" "$pid" ;;
  esac
  wait_until gone "$pid" || fail "the mount's process is still there after $how"
  wait_until not_mounted mnt || fail "still mounted after $how"
done
"$PCRYPT" mount -f -k key src mnt 2> stderr &
fg_pid=$!
wait_until mountpoint -q mnt
same mnt/big.bin plain.big
kill -TERM "$fg_pid"
rc=0 && wait "$fg_pid" || rc=$?
[[ $rc == 0 ]] || fail "-f ended with $rc after SIGTERM"
not_mounted mnt || fail "still mounted after -f's SIGTERM"
[[ -z $(ls -A mnt) ]] || fail "the mount point is not left empty"

check "default FUSE permissions: only the mounting user; --allow-other when asked"
expect 0 timeout 60 "$PCRYPT" mount -k key src mnt
grep " $WORK/mnt " /proc/mounts | finds "default_permissions" || fail "no default_permissions"
grep " $WORK/mnt " /proc/mounts | finds "allow_other" && fail "allow_other without --allow-other"
grep " $WORK/mnt " /proc/mounts | finds " fuse.pcrypt ro," || fail "not a read-only fuse.pcrypt mount"
if command -v setpriv > /dev/null && [[ $(id -u) == 0 ]]; then
  chmod 755 "$WORK"
  setpriv --reuid=65534 --regid=65534 --clear-groups ls "$WORK/mnt" > /dev/null 2>&1 &&
    fail "another user lists the mount"
  expect 0 "$PCRYPT" unmount mnt
  expect 0 timeout 60 "$PCRYPT" mount --allow-other -k key src mnt
  grep " $WORK/mnt " /proc/mounts | finds "allow_other" || fail "no allow_other with --allow-other"
fi
expect 0 "$PCRYPT" unmount mnt

check "errors: one line each, never a hang"
mkdir -p full && touch full/x
expect 1 timeout 60 "$PCRYPT" mount -k key src full
expect_one_error "not empty"
expect 1 timeout 60 "$PCRYPT" mount -k key src missing.dir
expect_one_error "missing.dir"
expect 1 timeout 60 "$PCRYPT" mount -k key src plain.small
expect_one_error "not a folder"
expect 3 timeout 60 "$PCRYPT" mount -k other.key probe.pcrypt mnt
expect_one_error "probe.pcrypt"
expect 2 timeout 60 "$PCRYPT" mount -i id src/armored.age mnt
expect_one_error "armored"
expect 1 timeout 60 "$PCRYPT" mount -k key no-such-source mnt
expect_one_error "no-such-source"
expect 2 "$PCRYPT" mount -k key src
expect_one_error "MOUNTPOINT"
expect 2 "$PCRYPT" unmount "$WORK"
expect_one_error "not a pcrypt mount"
[[ -z $(ls -A mnt) ]] || fail "a failed mount left something in the mount point"
if [[ $(id -u) == 0 ]] && unshare --mount true 2> /dev/null; then
  expect 1 timeout 60 unshare --mount sh -c 'mount -t tmpfs none /dev && exec "$@"' sh \
    "$PCRYPT" mount -k key src mnt
  expect_one_error "/dev/fuse"
else
  echo "(not root, or no unshare: the missing-/dev/fuse case is not checked)"
fi
not_mounted mnt || fail "an error case left a mount"

echo "all mount checks passed"
