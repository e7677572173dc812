#!/usr/bin/env python3
"""Latency of random 4 KiB reads through `pcrypt mount` (or of any file): median and percentiles.

Usage: bench/scripts/mount_random_reads.py FILE [READS] [--fadvise-random]
Opens FILE once and times READS (default 1000) os.pread calls of 4096 bytes at random 4 KiB-aligned offsets
(a fixed seed, so runs compare), each with time.perf_counter_ns around the call alone. With
--fadvise-random, posix_fadvise(POSIX_FADV_RANDOM) first tells the kernel not to read ahead, as a database
engine may. Prints the median, the 90th and 99th percentiles and the maximum in milliseconds.
"""
import os
import random
import statistics
import sys
import time


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        sys.exit(__doc__)
    path = args[0]
    reads = int(args[1]) if len(args) > 1 else 1000
    fd = os.open(path, os.O_RDONLY)
    if "--fadvise-random" in sys.argv:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
    pages = os.fstat(fd).st_size // 4096
    rng = random.Random(35)
    times = []
    for _ in range(reads):
        offset = rng.randrange(pages) * 4096
        start = time.perf_counter_ns()
        data = os.pread(fd, 4096, offset)
        times.append((time.perf_counter_ns() - start) / 1e6)
        if len(data) != 4096:
            sys.exit(f"short read at {offset}")
    os.close(fd)
    times.sort()
    print(f"{reads} random 4 KiB preads of {path}: median {statistics.median(times):.3f} ms, "
          f"p90 {times[int(0.9 * reads)]:.3f} ms, p99 {times[int(0.99 * reads)]:.3f} ms, max {times[-1]:.3f} ms")


if __name__ == "__main__":
    main()
