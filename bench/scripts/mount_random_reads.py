#!/usr/bin/env python3
"""Latency of random 4 KiB reads through `pcrypt mount` (or of any file): median and percentiles.

Usage: bench/scripts/mount_random_reads.py FILE [READS] [--fadvise-random] [--threads N]
Opens FILE once and times READS (default 1000) os.pread calls of 4096 bytes at random 4 KiB-aligned offsets
(a fixed seed, so runs compare), each with time.perf_counter_ns around the call alone. With
--fadvise-random, posix_fadvise(POSIX_FADV_RANDOM) first tells the kernel not to read ahead, as a database
engine may. With --threads N, N threads share the READS (each its own seed, all on the one descriptor, as a
threaded reader would), and the rate of all of them together is printed too. Prints the median, the 90th
and 99th percentiles and the maximum in milliseconds.
"""
import os
import random
import statistics
import sys
import threading
import time


def option(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def main():
    args = []
    skip = False
    for a in sys.argv[1:]:
        if skip:
            skip = False
        elif a == "--threads":
            skip = True
        elif not a.startswith("--"):
            args.append(a)
    if not args:
        sys.exit(__doc__)
    path = args[0]
    reads = int(args[1]) if len(args) > 1 else 1000
    threads = int(option("--threads", "1"))
    fd = os.open(path, os.O_RDONLY)
    if "--fadvise-random" in sys.argv:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
    pages = os.fstat(fd).st_size // 4096
    times = [[] for _ in range(threads)]
    failures = []

    def reader(t):
        # Thread 0 keeps the single-threaded seed, so that a run with one thread is the same as before.
        rng = random.Random(35 + t)
        for _ in range(reads // threads + (1 if t < reads % threads else 0)):
            offset = rng.randrange(pages) * 4096
            start = time.perf_counter_ns()
            data = os.pread(fd, 4096, offset)
            times[t].append((time.perf_counter_ns() - start) / 1e6)
            if len(data) != 4096:
                failures.append(f"short read at {offset}")
                return

    begin = time.perf_counter()
    workers = [threading.Thread(target=reader, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - begin
    os.close(fd)
    if failures:
        sys.exit(failures[0])
    every = sorted(x for per_thread in times for x in per_thread)
    n = len(every)
    line = (f"{n} random 4 KiB preads of {path}: median {statistics.median(every):.3f} ms, "
            f"p90 {every[int(0.9 * n)]:.3f} ms, p99 {every[int(0.99 * n)]:.3f} ms, max {every[-1]:.3f} ms")
    if threads > 1:
        line += f"; {threads} threads, {n / elapsed:.0f} reads/s together"
    print(line)


if __name__ == "__main__":
    main()
