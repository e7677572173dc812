#!/usr/bin/python3
"""The Python package against the CLI, same machine, same run (docs/benchmarks/python.md).

Usage: PYTHONPATH=BUILD/python bench/scripts/python_bench.py BUILD [RUNS] [DIR]
  1. readinto: reading a page-cached 1 GiB file through pcrypt.open(...).readinto into one reused 16 MiB
     buffer, against `pcrypt decrypt -o /dev/null` of the same file; alternated run by run, medians.
  2. 4 KiB random reads through the pcrypt:: fsspec filesystem over file://: bytes asked of the target per
     read (counted in cat_file), and for the header.
  3. dd.read_csv(...)["x"].sum() on a ~200 MB CSV, encrypted (pcrypt::file://) and plain (file://), on one
     distributed.LocalCluster (2 worker processes, 1 thread each), 64 MiB blocks; alternated, medians.
PCRYPT_BENCH_CSV=0 skips part 3. Times are wall and, for part 1, CPU (user + system, the CLI's included):
on a shared machine the CPU time is the steadier figure. Runs with Debian's /usr/bin/python3 (python3-dask etc.). DIR defaults to /dev/shm (tmpfs: no disk waits).
"""
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import pcrypt


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def cpu_seconds():
    """CPU time (user + system) of this process and its finished children."""
    import resource
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed_cpu(fn):
    c, t = cpu_seconds(), time.perf_counter()
    fn()
    return time.perf_counter() - t, cpu_seconds() - c


def readinto_vs_cli(cli, d, key, runs):
    src = os.path.join(d, "big")
    with open(src, "wb") as f:
        for _ in range(64):
            f.write(os.urandom(16 << 20))
    pcrypt.encrypt(src, src + ".pcrypt", keys=key)
    os.unlink(src)
    size = 1 << 30
    buf = bytearray(16 << 20)

    def python_read():
        with pcrypt.open(src + ".pcrypt", keys=key) as f:
            while f.readinto(buf):
                pass

    def cli_read():
        subprocess.run([cli, "decrypt", "-q", "-k", key, "-o", "/dev/null", src + ".pcrypt"], check=True)

    python_read(), cli_read()  # warm the page cache
    py, c = [], []
    for _ in range(runs):
        py.append(timed_cpu(python_read))
        c.append(timed_cpu(cli_read))
    for what, i in (("wall", 0), ("CPU", 1)):
        py_t, cli_t = statistics.median(r[i] for r in py), statistics.median(r[i] for r in c)
        print(f"readinto 1 GiB, 16 MiB buffer, {what} time: python {py_t:.3f} s = {size / py_t / 2**30:.2f} GiB/s, "
              f"CLI decrypt -o /dev/null {cli_t:.3f} s = {size / cli_t / 2**30:.2f} GiB/s, "
              f"rate ratio {cli_t / py_t:.2f} (medians of {runs})")
    return src + ".pcrypt"


def random_reads(path, key):
    import fsspec
    from fsspec.implementations.local import LocalFileSystem

    class Counting(LocalFileSystem):
        asked = []

        def cat_file(self, p, start=None, end=None, **kw):
            self.asked.append(end - start)
            return super().cat_file(p, start=start, end=end, **kw)

    fs = fsspec.filesystem("pcrypt", fs=Counting(), keys=[key], skip_instance_cache=True)
    rng = random.Random(1)
    with fs.open(path, "rb") as f:
        header = sum(Counting.asked)
        Counting.asked.clear()
        for _ in range(100):
            f.seek(rng.randrange(f.size - 4096))
            f.read(4096)
    per_read = statistics.median(Counting.asked)
    print(f"4 KiB random reads (100), 1 MiB records: {per_read:.0f} bytes asked of the target per read "
          f"(max {max(Counting.asked)}, {len(Counting.asked)} requests); header {header} bytes once")


def read_csv(d, key, runs):
    import dask.dataframe as dd
    from distributed import Client, LocalCluster
    csv = os.path.join(d, "t.csv")
    rng = random.Random(2)
    with open(csv, "w") as f:
        f.write("x,y,z\n")
        while f.tell() < 200_000_000:
            f.write("".join(f"{rng.randrange(10**6)},{rng.random():.6f},name{rng.randrange(1000)}\n"
                            for _ in range(10000)))
    pcrypt.encrypt(csv, csv + ".pcrypt", keys=key)
    opts = {"pcrypt": {"keys": [key]}}
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster, Client(cluster):
        def plain():
            return dd.read_csv("file://" + csv, blocksize="64MiB")["x"].sum().compute()

        def encrypted():
            return dd.read_csv("pcrypt::file://" + csv + ".pcrypt", blocksize="64MiB",
                               storage_options=opts)["x"].sum().compute()
        assert plain() == encrypted()
        p, e = [], []
        for _ in range(runs):
            p.append(timed(plain))
            e.append(timed(encrypted))
    mp, me = statistics.median(p), statistics.median(e)
    print(f"dd.read_csv sum, {os.path.getsize(csv) / 1e6:.0f} MB CSV, 64 MiB blocks, 2 workers: plain "
          f"{mp:.2f} s, encrypted {me:.2f} s, ratio {me / mp:.2f} (medians of {runs})")


def main():
    build = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    base = sys.argv[3] if len(sys.argv) > 3 else "/dev/shm"
    cli = os.path.join(build, "app", "pcrypt")
    with tempfile.TemporaryDirectory(dir=base) as d:
        key = os.path.join(d, "k.key")
        pcrypt.keygen(key)
        big = readinto_vs_cli(cli, d, key, runs)
        random_reads(big, key)
        os.unlink(big)
        if os.environ.get("PCRYPT_BENCH_CSV", "1") != "0":
            read_csv(d, key, runs)


if __name__ == "__main__":
    main()
