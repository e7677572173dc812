"""What a power cut may leave, from a crashfs log (tests/crash/crashfs.cc): the model and the mount helper.

The model, that of POSIX and of studies of crash consistency (ALICE, OSDI 2014; CrashMonkey, OSDI 2018):
- a file's data, size and attributes survive as of its last fsync (fdatasync: data and size, not mode or
  owner); what was written after it may be lost;
- a directory's names (create, link, rename, unlink, mkdir, rmdir) survive as of its last fsync; a file
  whose every surviving name is gone is gone;
- with a seed, the crash may also keep some of the unsynced work, as a real disk may: each unsynced write
  (in 4 KiB pieces), truncation or attribute change with probability 1/2, and a prefix of the unsynced name
  operations (a journal commits them in order).
A crash "after operation k" keeps nothing logged after the k-th operation line.
"""
import hashlib
import os
import random
import subprocess
import time

PIECE = 4096


def _decode(path):
    out = bytearray()
    i = 0
    raw = path.encode()
    while i < len(raw):
        if raw[i] == ord("%"):
            out.append(int(raw[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(raw[i])
            i += 1
    return os.fsdecode(bytes(out))


def _split(path):
    parent, name = path.rsplit("/", 1)
    return (parent or "/"), name


class _File:
    def __init__(self, content, attrs):
        self.base = content          # bytes at the start (durable)
        self.base_attrs = attrs      # (mode, uid, gid)
        self.ops = []                # (seq, kind, args)
        self.data_sync = 0           # seq of the last fsync/fdatasync (data and size)
        self.meta_sync = 0           # seq of the last fsync (attributes too)


class _Dir:
    def __init__(self, attrs):
        self.base = {}               # name -> object, at the start
        self.attrs = attrs
        self.ops = []                # (seq, name, object or None)
        self.sync = 0


class Log:
    """A crashfs log: the starting tree and the operations, numbered from 1."""

    def __init__(self, path):
        with open(path + ".data", "rb") as f:
            self.data = memoryview(f.read())  # sliced without copying
        with open(path) as f:
            lines = f.read().splitlines()
        begin = lines.index("BEGIN")
        self.start = lines[:begin]
        self.ops = lines[begin + 1:]

    def __len__(self):
        return len(self.ops)

    def count(self, kind):
        return sum(1 for op in self.ops if op.split(" ", 1)[0] == kind)

    def _replay(self, k):
        inodes, paths = {}, {}
        root = None
        for line in self.start:
            f = line.split(" ")
            if f[0] == "D":
                d = _Dir((int(f[2], 8), int(f[3]), int(f[4])))
                path = _decode(f[5])
                paths[path] = d
                inodes[int(f[1])] = d
                if path == "/":
                    root = d
                else:
                    parent, name = _split(path)
                    paths[parent].base[name] = d
            elif f[0] == "I":
                size, at = int(f[5]), int(f[6])
                obj = _File(self.data[at:at + size], (int(f[2], 8), int(f[3]), int(f[4])))
                path = _decode(f[7])
                paths[path] = obj
                inodes[int(f[1])] = obj
                parent, name = _split(path)
                paths[parent].base[name] = obj
        for seq, line in enumerate(self.ops[:k], start=1):
            f = line.split(" ")
            kind = f[0]
            if kind == "C":
                obj = _File(b"", (int(f[2], 8), int(f[3]), int(f[4])))
                inodes[int(f[1])] = obj
                path = _decode(f[5])
                paths[path] = obj
                parent, name = _split(path)
                paths[parent].ops.append((seq, name, obj))
            elif kind == "K":
                obj = _Dir((int(f[2], 8), int(f[3]), int(f[4])))
                inodes[int(f[1])] = obj
                path = _decode(f[5])
                paths[path] = obj
                parent, name = _split(path)
                paths[parent].ops.append((seq, name, obj))
            elif kind == "W":
                ino, offset, n, at = (int(x) for x in f[1:5])
                inodes[ino].ops.append((seq, "W", (offset, self.data[at:at + n])))
            elif kind == "T":
                inodes[int(f[1])].ops.append((seq, "T", int(f[2])))
            elif kind == "A":
                inodes[int(f[1])].ops.append((seq, "A", (int(f[2], 8), int(f[3]), int(f[4]))))
            elif kind == "S":
                obj = inodes[int(f[1])]
                obj.data_sync = seq
                if f[2] == "0":
                    obj.meta_sync = seq
            elif kind == "F":
                paths[_decode(f[2])].sync = seq
            elif kind in ("U", "X"):
                path = _decode(f[1])
                del paths[path]
                parent, name = _split(path)
                paths[parent].ops.append((seq, name, None))
            elif kind == "L":
                source, target = _decode(f[1]), _decode(f[2])
                paths[target] = paths[source]
                parent, name = _split(target)
                paths[parent].ops.append((seq, name, paths[source]))
            elif kind == "R":
                flags, source, target = int(f[1]), _decode(f[2]), _decode(f[3])
                moved = paths[source]
                if flags & 2:  # RENAME_EXCHANGE
                    paths[source] = paths[target]
                    sp, sn = _split(source)
                    paths[sp].ops.append((seq, sn, paths[target]))
                else:
                    del paths[source]
                    sp, sn = _split(source)
                    paths[sp].ops.append((seq, sn, None))
                paths[target] = moved
                tp, tn = _split(target)
                paths[tp].ops.append((seq, tn, moved))
            elif kind == "E":
                pass  # a failed fsync: nothing became durable
            else:
                raise ValueError(f"crashfs log: unknown operation {line!r}")
        return root

    def crash(self, k, seed=None):
        """The tree a crash after operation k leaves: {relative path: (bytes, mode, uid, gid)} for files,
        {path: None} for folders. seed None: only what was synced; else some unsynced work too."""
        rng = random.Random(seed) if seed is not None else None
        root = self._replay(k)
        name_cutoff = rng.randint(0, k) if rng else 0
        tree = {}

        def file_state(obj):
            if not obj.ops:
                return (obj.base,) + obj.base_attrs
            content = bytearray(obj.base)
            attrs = obj.base_attrs
            for seq, kind, args in obj.ops:
                synced = seq <= (obj.meta_sync if kind == "A" else obj.data_sync)
                if kind == "W":
                    offset, data = args
                    if synced:
                        pieces = [(0, len(data))]
                    elif rng:
                        cuts = [0] + list(range(PIECE - offset % PIECE, len(data), PIECE)) + [len(data)]
                        pieces = [(a, b) for a, b in zip(cuts, cuts[1:]) if a < b and rng.random() < 0.5]
                    else:
                        pieces = []
                    for pos, end in pieces:
                        at = offset + pos
                        if len(content) < at:
                            content.extend(bytes(at - len(content)))
                        content[at:at + end - pos] = data[pos:end]
                elif synced or (rng and rng.random() < 0.5):
                    if kind == "T":
                        if args < len(content):
                            del content[args:]
                        else:
                            content.extend(bytes(args - len(content)))
                    else:
                        attrs = args
            return (bytes(content),) + attrs

        def walk(d, prefix):
            entries = dict(d.base)
            for seq, name, obj in d.ops:
                if seq <= max(d.sync, name_cutoff):
                    if obj is None:
                        entries.pop(name, None)
                    else:
                        entries[name] = obj
            for name in sorted(entries):
                obj = entries[name]
                path = prefix + name
                if isinstance(obj, _Dir):
                    tree[path] = None
                    walk(obj, path + "/")
                else:
                    tree[path] = file_state(obj)

        walk(root, "")
        return tree


def fingerprint(tree):
    h = hashlib.sha256()
    for path in sorted(tree):
        h.update(os.fsencode(path) + b"\0")
        state = tree[path]
        h.update(b"dir" if state is None else hashlib.sha256(state[0]).digest() + repr(state[1:]).encode())
    return h.hexdigest()


def materialise(tree, directory):
    """Writes the tree into directory (which must not exist): the machine after the reboot."""
    os.mkdir(directory)
    for path in sorted(tree):
        state = tree[path]
        full = os.path.join(directory, path)
        if state is None:
            os.mkdir(full)
            continue
        with open(full, "wb") as f:
            f.write(state[0])
        os.chown(full, state[2], state[3])
        os.chmod(full, state[1])


class Mount:
    """crashfs serving backing at mountpoint, logging to log; unmounted on exit."""

    def __init__(self, crashfs, backing, mountpoint, log, options=()):
        self.mountpoint = mountpoint
        os.makedirs(mountpoint, exist_ok=True)
        self.process = subprocess.Popen([crashfs, *options, backing, mountpoint, log], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while not os.path.ismount(mountpoint):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.process.kill()
                err = self.process.stderr.read().decode(errors="replace")
                raise OSError(f"crashfs did not mount: {err.strip()}")
            time.sleep(0.01)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for _ in range(100):
            if subprocess.run(["fusermount3", "-u", self.mountpoint], stderr=subprocess.DEVNULL).returncode == 0:
                break
            time.sleep(0.05)
        self.process.wait(timeout=20)
        return False
