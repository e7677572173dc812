#!/usr/bin/env python3
"""Power-cut tests: a pcrypt command runs on crashfs (tests/crash/crashfs.cc), then every crash the log allows
is checked (tests/crash/crash_replay.py says what a crash keeps): after operation k, for every k of a small
case and a sample (fixed seed) of a larger one, once keeping only what was synced and once keeping a random
part of the rest as well. Invariants: an output is absent or complete and correct, never partial; inputs are
untouched; rekey's file opens with the old or the new credentials and gives the plaintext, with its owner and
mode; a crash after the command succeeded loses nothing (it never reports success for what is not durable);
a temporary left behind is named as one, and the next run removes it.

Usage: crash_test.py PCRYPT CRASHFS SCENARIO [--python-path DIR]
  SCENARIO: selftest, encrypt, decrypt, rekey, many, python (each in both formats), fsync-errors,
  no-fsync:SHIM (the same checks with SHIM preloaded, which makes fsync a no-op: they must find a violation),
  or tmpfile:ORDER-SHIM:NO-FSYNC-SHIM (the O_TMPFILE path, which crashfs cannot take, on the host's file
  system: the order of writes, syncs and names that sync_order.c logs).
Skips visibly (exit 0) where FUSE cannot mount, unless PCRYPT_CRASH_REQUIRE_FUSE=1.
"""
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crash_replay  # noqa: E402

PCRYPT, CRASHFS, SCENARIO = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
PYTHON_PATH = os.path.abspath(sys.argv[sys.argv.index("--python-path") + 1]) if "--python-path" in sys.argv else ""
WORK = tempfile.mkdtemp(prefix="pcrypt-crash-")
SMALL = 3000          # bytes: a few records, every crash point checked
LARGE = 600000        # bytes: many writes, a sample of crash points
SAMPLE = 24
# rekey keeps the owner and group of the file it replaces (another user's where root runs the tests)
OWNER = (1234, 2345) if os.geteuid() == 0 else (os.getuid(), os.getgid())
TEMP = re.compile(r"^\..*\.pcrypt-tmp-[A-Za-z0-9]{6}$")
checked = 0


def run(argv, cwd, env=None, check=True):
    result = subprocess.run(argv, cwd=cwd, capture_output=True, env=env)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(argv)} failed ({result.returncode}): {result.stderr.decode()}")
    return result


def pcrypt(*args, cwd=WORK, env=None, check=True):
    return run([PCRYPT, *args], cwd, env, check)


_verdicts = {}
_credentials = {}


def decrypts_to(path, plaintext, creds):
    """Does pcrypt decrypt the file at path to plaintext? Asked once per distinct file (most crash states
    share their files' bytes with others)."""
    with open(path, "rb") as f:
        key = (hashlib.sha256(f.read()).digest(), hashlib.sha256(plaintext).digest(), tuple(creds))
    if key not in _verdicts:
        result = pcrypt("decrypt", *creds, "-o", "-", path, check=False)
        _verdicts[key] = result.returncode == 0 and result.stdout == plaintext
    return _verdicts[key]


class Case:
    """A command on crashfs and what must hold after a crash at any point of it."""

    def __init__(self, name, fmt, size, files=1):
        self.name, self.fmt = name, fmt
        rng = random.Random(f"{name}{fmt}{size}")
        self.plain = {f"in{i}": rng.randbytes(size + 977 * i) for i in range(files)}
        self.keys = os.path.join(WORK, "keys")
        os.makedirs(self.keys, exist_ok=True)
        self.old, self.new = self.credentials("old"), self.credentials("new")

    def credentials(self, who):
        """(encrypt options, decrypt options, recipient) for a key of this format, made once per run."""
        if (who, self.fmt) not in _credentials:
            _credentials[(who, self.fmt)] = self.make_credentials(who)
        return _credentials[(who, self.fmt)]

    def make_credentials(self, who):
        path = os.path.join(self.keys, f"{who}.{self.fmt}")
        if self.fmt == "age":
            if not os.path.exists(path):
                pcrypt("keygen", "--identity", "-o", path)
            recipient = pcrypt("recipient", path).stdout.decode().strip()
            return ["--format", "age", "-r", recipient], ["-i", path], recipient
        if not os.path.exists(path):
            pcrypt("keygen", "-o", path)
        return ["-k", path], ["-k", path], None

    def encrypted(self, plaintext, directory, name):
        source = os.path.join(WORK, "plain.tmp")
        with open(source, "wb") as f:
            f.write(plaintext)
        pcrypt("encrypt", *self.old[0], "-o", os.path.join(directory, name), source)
        os.unlink(source)

    # --- per scenario: setup (the backing tree), the command, and the check of a surviving tree ---
    def setup(self, backing):
        for name, data in self.plain.items():
            with open(os.path.join(backing, name), "wb") as f:
                f.write(data)
        if self.name == "decrypt" or self.name == "rekey":
            for name, data in self.plain.items():
                self.encrypted(data, backing, name + ".enc")
                os.unlink(os.path.join(backing, name))
            if self.name == "rekey":
                for name in self.plain:
                    os.chown(os.path.join(backing, name + ".enc"), *OWNER)
                    os.chmod(os.path.join(backing, name + ".enc"), 0o640)
        self.inputs = {name: open(os.path.join(backing, name), "rb").read() for name in os.listdir(backing)}
        if self.name == "python":
            os.mkdir(os.path.join(backing, "keys"))  # keygen's own folder: encrypt's syncs do not cover it

    def command(self, force=False):
        f = ["-f"] if force else []
        if self.name == "encrypt":
            return [PCRYPT, "encrypt", *self.old[0], *f, "-o", "in0.enc", "in0"]
        if self.name == "many":
            return [PCRYPT, "encrypt", *self.old[0], *f, *sorted(self.plain)]
        if self.name == "decrypt":
            return [PCRYPT, "decrypt", *self.old[1], *f, "-o", "in0", "in0.enc"]
        if self.name == "rekey":
            if self.fmt == "age":
                return [PCRYPT, "rekey", *self.old[1], "--add-recipient", self.new[2], "--remove-recipient",
                        self.old[2], "in0.enc"]
            return [PCRYPT, "rekey", *self.old[1], "--add-key", self.new[1][1], "--remove-slot", "1", "in0.enc"]
        if self.name == "python":
            code = ("import os, pcrypt, sys; pcrypt.keygen('keys/secret.key', force=%r); "
                    "pcrypt.encrypt('in0', 'in0.enc', keys=[sys.argv[1]], force=%r)\n"
                    "%s"
                    "with pcrypt.open('in0.stream', 'wb', keys=[sys.argv[1]]) as f: f.write(open('in0', 'rb').read())"
                    % (force, force, "if os.path.exists('in0.stream'): os.unlink('in0.stream')\n" if force else ""))
            return [sys.executable, "-c", code, self.old[1][1]]
        raise ValueError(self.name)

    def outputs(self):
        """name -> plaintext it must decrypt to (or for decrypt, be)."""
        if self.name == "encrypt":
            return {"in0.enc": self.plain["in0"]}
        if self.name == "python":  # pcrypt.encrypt's path sink and pcrypt.open(..., "wb")'s
            return {"in0.enc": self.plain["in0"], "in0.stream": self.plain["in0"]}
        if self.name == "many":
            suffix = ".age" if self.fmt == "age" else ".pcrypt"
            return {name + suffix: data for name, data in self.plain.items()}
        if self.name == "decrypt":
            return {"in0": self.plain["in0"]}
        return {}

    def problems(self, root, completed):
        """What is wrong with the tree at root after a crash; completed: the command had succeeded."""
        found = []
        names = set(os.listdir(root))
        for name, data in self.inputs.items():
            if self.name == "rekey":
                continue
            if name not in names:
                found.append(f"input {name} is missing")
            elif open(os.path.join(root, name), "rb").read() != data:
                found.append(f"input {name} changed")
        for name, plaintext in self.outputs().items():
            path = os.path.join(root, name)
            if name not in names:
                if completed:
                    found.append(f"{name} is missing although the command had succeeded")
                continue
            if self.name == "decrypt":
                ok = open(path, "rb").read() == plaintext
            else:
                ok = decrypts_to(path, plaintext, self.old[1])
            if not ok:
                found.append(f"{name} is there but not complete and correct ({os.path.getsize(path)} bytes)")
        if self.name == "rekey":
            path = os.path.join(root, "in0.enc")
            if "in0.enc" not in names:
                found.append("the rekeyed file is missing")
            else:
                new = decrypts_to(path, self.plain["in0"], self.new[1])
                old = decrypts_to(path, self.plain["in0"], self.old[1])
                if not (old or new):
                    found.append("the rekeyed file opens with neither the old nor the new credentials")
                if completed and not new:
                    found.append("the rekeyed file does not open with the new credentials after success")
                st = os.stat(path)
                if (st.st_uid, st.st_gid) != OWNER or st.st_mode & 0o7777 != 0o640:
                    found.append(f"owner/mode {st.st_uid}:{st.st_gid} {st.st_mode & 0o7777:o}, not "
                                 f"{OWNER[0]}:{OWNER[1]} 640")
        if self.name == "python":
            names.discard("keys")
            keys = os.listdir(os.path.join(root, "keys"))
            if completed and "secret.key" not in keys:
                found.append("keys/secret.key is missing although keygen had succeeded")
            found += [f"unexpected file keys/{n} (not named as a temporary)" for n in keys
                      if n != "secret.key" and not TEMP.match(n)]
        expected = set(self.inputs) | set(self.outputs())
        for name in names - expected:
            if not TEMP.match(name):
                found.append(f"unexpected file {name} (not named as a temporary)")
        return found


def temporaries(root):
    return [name for _, _, files in os.walk(root) for name in files if TEMP.match(name)]


def env_with(extra):
    env = dict(os.environ)
    env.update(extra)
    if PYTHON_PATH:
        env["PYTHONPATH"] = PYTHON_PATH
    return env


def record(case, name, options=(), env=None):
    """Runs case's command on crashfs; returns (log, completed process)."""
    backing = os.path.join(WORK, name + ".backing")
    os.mkdir(backing)
    case.setup(backing)
    mountpoint = os.path.join(WORK, name + ".mnt")
    log_path = os.path.join(WORK, name + ".log")
    with crash_replay.Mount(CRASHFS, backing, mountpoint, log_path, options):
        result = run(case.command(), mountpoint, env=env_with(env or {}), check=False)
    return crash_replay.Log(log_path), result


def crash_points(n, every):
    if every or n <= SAMPLE:
        return list(range(n + 1))
    return sorted(set(random.Random(n).sample(range(n + 1), SAMPLE)) | {0, n})


def check_crashes(case, log, every, label, first_only=False):
    """Every crash point (or a sample), strict and with some unsynced work kept. Returns the violations."""
    global checked
    seen, violations, leftovers = set(), [], []
    points = crash_points(len(log), every)
    for k in points:
        for seed in (None, k):
            tree = log.crash(k, seed)
            completed = k == len(log)
            fp = (crash_replay.fingerprint(tree), completed)
            if fp in seen:
                continue
            seen.add(fp)
            checked += 1
            root = os.path.join(WORK, f"state{checked}")
            crash_replay.materialise(tree, root)
            found = case.problems(root, completed)
            if found:
                violations.append(f"{label}: crash after operation {k}/{len(log)}"
                                  f"{'' if seed is None else ' (some unsynced work kept)'}: {'; '.join(found)}")
                if first_only:
                    print(f"  {label}: {violations[-1]}")
                    return violations
            if temporaries(root) and not found:
                leftovers.append(root)
            else:
                shutil.rmtree(root)
    # The next run after a crash that left a temporary: it completes, and the temporary is gone.
    reruns = leftovers[:1] if every else []
    for root in reruns:
        run(case.command(force=True), root, env=env_with({}))
        left = temporaries(root)
        if left:
            violations.append(f"{label}: the next run left the crash's temporary {left[0]} in place")
        found = case.problems(root, completed=True)
        if found:
            violations.append(f"{label}: after the next run: {'; '.join(found)}")
    print(f"  {label}: {len(log)} operations ({log.count('S')} file syncs, {log.count('F')} folder syncs), "
          f"{len(points)} crash points, {len(seen)} distinct states checked, {len(leftovers)} with a temporary "
          f"left ({len(reruns)} run again), {len(violations)} violations")
    for root in leftovers:
        shutil.rmtree(root, ignore_errors=True)
    return violations


def crash_scenario(name, env=None, sizes=((SMALL, True), (LARGE, False)), formats=("pcrypt", "age"),
                   first_only=False):
    violations = []
    for fmt in ("pcrypt",) if name == "python" else formats:
        for size, every in sizes:
            files = 3 if name == "many" else 1
            case = Case(name, fmt, size, files)
            label = f"{name} {fmt} {size} B" + (f" x{files}" if files > 1 else "")
            log, result = record(case, label.replace(" ", "_"), env=env)
            if result.returncode != 0:
                raise AssertionError(f"{label}: the command failed: {result.stderr.decode()}")
            # Each output's data is synced once, by the library's sink: a second fsync of the same data
            # (the CLI's own, after the library's) costs a disk flush and makes nothing more durable.
            if env is None and name != "python" and log.count("S") != files:
                violations.append(f"{label}: {log.count('S')} file syncs for {files} output(s), not one each")
            violations += check_crashes(case, log, every, label, first_only)
    return violations


def selftest():
    """crashfs and the model lose what a real crash can lose, and keep what was made durable."""
    backing = os.path.join(WORK, "self.backing")
    os.mkdir(backing)
    with open(os.path.join(backing, "old"), "wb") as f:
        f.write(b"old content")
    mountpoint, log_path = os.path.join(WORK, "self.mnt"), os.path.join(WORK, "self.log")
    with crash_replay.Mount(CRASHFS, backing, mountpoint, log_path):
        m = lambda name: os.path.join(mountpoint, name)  # noqa: E731
        with open(m("unsynced"), "wb") as f:                       # 1 create, 2 write
            f.write(b"a" * 10)
        with open(m("synced-data"), "wb") as f:                    # 3 create, 4 write, 5 fsync
            f.write(b"b" * 5000)
            f.flush()
            os.fsync(f.fileno())
        dfd = os.open(mountpoint, os.O_RDONLY | os.O_DIRECTORY)
        os.fsync(dfd)                                              # 6 fsync the folder
        with open(m("synced-data"), "r+b") as f:                   # 7 write (not synced)
            f.write(b"c" * 5000)
        os.rename(m("synced-data"), m("renamed"))                  # 8 rename (not synced)
        with open(m("durable"), "wb") as f:                        # 9 create, 10 write, 11 fsync
            f.write(b"d" * 100)
            f.flush()
            os.fsync(f.fileno())
        os.fsync(dfd)                                              # 12 fsync the folder
        os.unlink(m("old"))                                        # 13 unlink (not synced)
        os.close(dfd)
    log = crash_replay.Log(log_path)
    kinds = " ".join(op.split(" ")[0] for op in log.ops)
    assert kinds == "C W C W S F W R C W S F U", f"crashfs logged {kinds}"
    old = (b"old content",)
    after5 = log.crash(5)
    assert set(after5) == {"old"}, f"a create not covered by a folder fsync survived: {sorted(after5)}"
    after6 = log.crash(6)
    assert set(after6) == {"old", "synced-data", "unsynced"}, sorted(after6)
    assert after6["unsynced"][0] == b"", "unsynced data survived the crash"
    assert after6["synced-data"][0] == b"b" * 5000, "synced data was lost"
    after8 = log.crash(8)
    assert "renamed" not in after8 and after8["synced-data"][0] == b"b" * 5000, \
        "an unsynced rename or unsynced write survived"
    after12 = log.crash(12)
    assert set(after12) == {"old", "renamed", "unsynced", "durable"}, sorted(after12)
    assert after12["durable"][0] == b"d" * 100 and after12["renamed"][0] == b"b" * 5000
    assert log.crash(13)["old"][0] == old[0], "an unsynced unlink took effect"
    # With a seed, some of the unsynced work survives: over many seeds, each kind of loss and of survival.
    seen = set()
    for seed in range(200):
        t = log.crash(13, seed)
        seen.add(("old" in t, "unsynced" in t and t["unsynced"][0] == b"a" * 10, t["renamed"][0][:1]))
    assert (False, False, b"b") in seen or (False, True, b"b") in seen, "an unsynced unlink never survived"
    assert any(s[1] for s in seen) and any(not s[1] for s in seen), "unsynced data always or never survived"
    assert any(s[2] == b"c" for s in seen) and any(s[2] == b"b" for s in seen), "no partial overwrite seen"
    # Materialised, the tree reads back as modelled.
    root = os.path.join(WORK, "self.state")
    crash_replay.materialise(after12, root)
    assert open(os.path.join(root, "renamed"), "rb").read() == b"b" * 5000
    # Injected fsync failures are failures, logged, and make nothing durable.
    backing2 = os.path.join(WORK, "self2.backing")
    os.mkdir(backing2)
    with crash_replay.Mount(CRASHFS, backing2, mountpoint, log_path, ["--fail-fsync=EIO@2"]):
        with open(os.path.join(mountpoint, "f"), "wb") as f:
            f.write(b"x")
            f.flush()
            os.fsync(f.fileno())
            try:
                os.fsync(f.fileno())
                raise AssertionError("the second fsync did not fail")
            except OSError as e:
                assert e.errno == 5, e
    kinds = " ".join(op.split(" ")[0] for op in crash_replay.Log(log_path).ops)
    assert kinds == "C W S E", kinds
    print("  crashfs self-test: unsynced data, create, rename and unlink are lost; synced ones kept; "
          "a seed keeps part of the rest; injected EIO fails the fsync")
    return []


def fsync_errors():
    """An fsync that fails (EIO, ENOSPC; EINVAL where a file system cannot sync folders): pcrypt says so,
    exits non-zero, and keeps the original file (or the absence of the output). Only the last sync, of the
    folder after the rename, comes too late for that: then an output that replaced nothing is taken back,
    and rekey's file is the new one, whole, with the error reported."""
    problems = []
    options = ("--fail-fsync=EIO", "--fail-fsync=ENOSPC", "--fail-fsyncdir=EIO", "--fail-fsyncdir=EINVAL",
               "--fail-fsyncdir=EIO@2")
    for fmt in ("pcrypt", "age"):
        for name in ("encrypt", "decrypt", "rekey"):
            # The writing code is format-blind: age files get the two kinds of failure, not every errno.
            for option in options if fmt == "pcrypt" else (options[0], options[4]):
                case = Case(name, fmt, SMALL)
                label = f"{name} {fmt} {option}"
                tag = label.replace(" ", "_").replace("=", "_").replace("@", "_")
                backing = os.path.join(WORK, tag + ".backing")
                log, result = record(case, tag, [option])
                if log.count("E") == 0:
                    problems.append(f"{label}: no fsync failed (fewer syncs than the option expects)")
                elif result.returncode == 0:
                    problems.append(f"{label}: exit 0 although an fsync failed")
                err = result.stderr.decode()
                if not err.startswith("pcrypt: error:") or "sync" not in err:
                    problems.append(f"{label}: no error naming the sync: {err!r}")
                names = set(os.listdir(backing))
                if names != set(case.inputs):
                    problems.append(f"{label}: files after the failure: {sorted(names)}, not {sorted(case.inputs)}")
                late = option.endswith("@2") and name == "rekey"
                for n, data in case.inputs.items():
                    path = os.path.join(backing, n)
                    if n not in names:
                        continue
                    if late:
                        if not decrypts_to(path, case.plain["in0"], case.new[1]):
                            problems.append(f"{label}: {n} is not the whole new file")
                    elif open(path, "rb").read() != data:
                        problems.append(f"{label}: {n} was changed")
    print(f"  fsync failures: encrypt, decrypt, rekey x {', '.join(options)} (age: the first and last): "
          f"{len(problems)} problems")
    return problems


def sync_order_problems(log_path, outputs):
    """The O_TMPFILE path's order, from tests/crash/sync_order.c's log: each output (a file name) was an
    unnamed temporary, synced after its last write and before its first name, and its folder synced after
    the final name."""
    if not os.path.exists(log_path):
        return ["no sync-order log was written (was tests/crash/sync_order.c's shim built and preloaded?)"]
    with open(log_path) as f:
        events = [line.split(" ", 3) for line in f.read().splitlines()]
    problems = []
    for output in outputs:
        named = [i for i, e in enumerate(events) if e[0] == "N" and os.path.basename(e[3]) == output]
        if not named:
            problems.append(f"{output}: never given its name")
            continue
        final = named[-1]
        ino, folder = events[final][1], events[final][2]
        at = lambda kind, i=ino: [j for j, e in enumerate(events) if e[0] == kind and e[1] == i]  # noqa: E731
        first_name = min(j for j, e in enumerate(events) if e[0] == "N" and e[1] == ino)
        writes, syncs = at("W"), at("S")
        if not at("T"):
            problems.append(f"{output}: not written as an unnamed temporary (O_TMPFILE)")
        if any(w > first_name for w in writes):
            problems.append(f"{output}: written after it got a name")
        last_write = max(writes, default=-1)
        if not any(last_write < j < first_name for j in syncs):
            problems.append(f"{output}: its data was not synced between its last write and its first name")
        if not any(j > final for j in at("F", folder)):
            problems.append(f"{output}: its folder was not synced after it got its name")
    return problems


def tmpfile_scenario(shim, no_fsync):
    """The unnamed-temporary path (O_TMPFILE, then linkat; with -f and rekey in place, a hidden name and a
    rename), which crashfs cannot take, on the file system the tests run on, checked for the order a power
    cut needs (sync_order_problems). Then with fsync a no-op, the check must fail."""
    for built in (shim, no_fsync):
        if not os.path.isfile(built):
            sys.exit(f"FAILED: {built} is missing: build its target (pcrypt_sync_order, pcrypt_no_fsync) first")
    folder = os.path.join(WORK, "tmpfile")
    os.mkdir(folder)
    log_path = os.path.join(WORK, "sync-order.log")
    try:
        os.close(os.open(folder, os.O_TMPFILE | os.O_WRONLY, 0o600))
    except OSError as e:
        print(f"SKIPPED: the file system of {WORK} has no O_TMPFILE ({e}): pcrypt takes its named path here")
        return []
    problems = []
    runs = []
    for fmt in ("pcrypt", "age"):
        case = Case("rekey", fmt, SMALL, files=3)
        for name, data in case.plain.items():
            with open(os.path.join(folder, f"{fmt}.{name}"), "wb") as f:
                f.write(data)
        enc, dec = case.old[0], case.old[1]
        suffix = ".age" if fmt == "age" else ".pcrypt"
        if fmt == "age":
            rekey_args = ["--add-recipient", case.new[2], "--remove-recipient", case.old[2]]
        else:
            rekey_args = ["--add-key", case.new[1][1], "--remove-slot", "1"]
        runs += [
            (f"encrypt {fmt}", ["encrypt", *enc, "-o", f"{fmt}.out", f"{fmt}.in0"], [f"{fmt}.out"]),
            (f"encrypt -f {fmt} (replacing)", ["encrypt", *enc, "-f", "-o", f"{fmt}.out", f"{fmt}.in1"],
             [f"{fmt}.out"]),
            (f"decrypt {fmt}", ["decrypt", *dec, "-o", f"{fmt}.back", f"{fmt}.out"], [f"{fmt}.back"]),
            (f"rekey {fmt} in place", ["rekey", *dec, *rekey_args, f"{fmt}.out"], [f"{fmt}.out"]),
            (f"many {fmt}", ["encrypt", *enc, f"{fmt}.in0", f"{fmt}.in1", f"{fmt}.in2"],
             [f"{fmt}.in{i}{suffix}" for i in range(3)]),
        ]
    for label, args, outputs in runs:
        if os.path.exists(log_path):
            os.unlink(log_path)
        pcrypt(*args, cwd=folder, env=env_with({"LD_PRELOAD": shim, "PCRYPT_SYNC_ORDER_LOG": log_path}))
        found = sync_order_problems(log_path, outputs)
        problems += [f"{label}: {p}" for p in found]
        print(f"  {label}: {len(found)} problems")
    # The check has teeth: with fsync a no-op (the shim above it sees no sync), it fails.
    os.unlink(log_path)
    pcrypt("encrypt", "-k", os.path.join(WORK, "keys", "old.pcrypt"), "-o", "teeth.out", "pcrypt.in0", cwd=folder,
           env=env_with({"LD_PRELOAD": f"{no_fsync}:{shim}", "PCRYPT_SYNC_ORDER_LOG": log_path}))
    if not sync_order_problems(log_path, ["teeth.out"]):
        problems.append("with fsync a no-op, the order check found nothing")
    else:
        print("  with fsync a no-op: the order check fails, as it must")
    return problems


def main():
    if SCENARIO.startswith("tmpfile:"):  # no FUSE: the host's own file system
        start = time.monotonic()
        violations = tmpfile_scenario(*SCENARIO.split(":")[1:3])
        print(f"checked in {time.monotonic() - start:.1f} s")
        for v in violations:
            print("FAIL:", v)
        return 1 if violations else 0
    require = os.environ.get("PCRYPT_CRASH_REQUIRE_FUSE") == "1"
    if not os.path.exists(CRASHFS) or not shutil.which("fusermount3"):
        print("SKIPPED: no crashfs (pcrypt built without libfuse3-dev) or no fusermount3")
        return 1 if require else 0
    try:
        os.mkdir(os.path.join(WORK, "probe.backing"))
        with crash_replay.Mount(CRASHFS, os.path.join(WORK, "probe.backing"), WORK + ".probe",
                                os.path.join(WORK, "probe.log")):
            pass
    except OSError as e:
        print(f"SKIPPED: FUSE cannot mount here ({e}; a container or chroot needs --device /dev/fuse and the "
              "capability to mount)")
        return 1 if require else 0
    finally:
        shutil.rmtree(WORK + ".probe", ignore_errors=True)
    python_module = subprocess.run([sys.executable, "-c", "import pcrypt"], env=env_with({}),
                                   capture_output=True).returncode == 0
    if SCENARIO == "python" and not python_module:
        print(f"SKIPPED: the Python module is not built (no import pcrypt from {PYTHON_PATH or 'sys.path'})")
        return 0
    start = time.monotonic()
    if SCENARIO == "selftest":
        violations = selftest()
    elif SCENARIO == "fsync-errors":
        violations = fsync_errors()
    elif SCENARIO.startswith("no-fsync:"):
        # The demonstration that the checks have teeth: fsync made a no-op, violations must be found.
        env = {"LD_PRELOAD": SCENARIO.split(":", 1)[1]}
        found = {name: crash_scenario(name, env, ((SMALL, True),), ("pcrypt",), first_only=True)
                 for name in ("encrypt", "decrypt", "rekey", "many") + (("python",) if python_module else ())}
        for name, v in found.items():
            print(f"  with fsync a no-op, {name}: {len(v)} violations, e.g. {v[0] if v else 'none'}")
        missed = [name for name, v in found.items() if not v]
        print(f"checked {checked} crash states in {time.monotonic() - start:.1f} s")
        if missed:
            print(f"FAIL: with fsync a no-op the crash checks found nothing for {', '.join(missed)}")
            return 1
        print("the crash checks fail when fsync is a no-op, as they must")
        return 0
    else:
        violations = crash_scenario(SCENARIO)
    print(f"checked {checked} crash states in {time.monotonic() - start:.1f} s")
    for v in violations:
        print("FAIL:", v)
    return 1 if violations else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        for entry in os.listdir(WORK):
            path = os.path.join(WORK, entry)
            if entry.endswith(".mnt") and os.path.ismount(path):
                subprocess.run(["fusermount3", "-u", path], stderr=subprocess.DEVNULL)
        shutil.rmtree(WORK, ignore_errors=True)
