#!/usr/bin/env python3
"""Single-thread AES engine throughput vs `openssl speed`, alternated in one session (the machine is shared).

Usage: bench/scripts/aes_engines_vs_openssl.py BUILD_DIR [ROUNDS] [ENGINE...]
Each round runs `openssl speed -evp aes-256-gcm|aes-256-ctr -bytes 65536` and then the hidden harness
`BUILD_DIR/tests/test_aes_speed "[.bench]"` (per engine); prints the median of each figure over the rounds.
Both sides count CPU time (openssl's default, the harness's CLOCK_THREAD_CPUTIME_ID). GB/s = 1e9 bytes/s.
"""
import os
import re
import statistics
import subprocess
import sys


def openssl(cipher):
    out = subprocess.run(["openssl", "speed", "-seconds", "2", "-evp", cipher, "-bytes", "65536"],
                         capture_output=True, text=True, check=True).stdout
    return float(out.strip().splitlines()[-1].split()[-1].rstrip("k")) * 1000 / 1e9


def harness(build, engine):
    env = dict(os.environ, PCRYPT_BENCH_ENGINE=engine)
    out = subprocess.run([os.path.join(build, "tests", "test_aes_speed"), "[.bench]"], env=env,
                         capture_output=True, text=True).stdout
    figures = {}
    for line in out.splitlines():
        m = re.match(r"(\S+)\s+gcm\s+(\d+) B\s+seal\s+([\d.]+) GB/s\s+open\s+([\d.]+)", line)
        if m:
            figures[f"{m[1]} gcm seal {m[2]}"] = float(m[3])
            figures[f"{m[1]} gcm open {m[2]}"] = float(m[4])
        m = re.match(r"(\S+)\s+ctr\s+(\d+) B\s+xor\s+([\d.]+)", line)
        if m:
            figures[f"{m[1]} ctr xor  {m[2]}"] = float(m[3])
    return figures


def main():
    build = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    engines = sys.argv[3:] or ["vaes", "aesni"]
    samples = {}
    for _ in range(rounds):
        samples.setdefault("openssl gcm 65536", []).append(openssl("aes-256-gcm"))
        for e in engines:
            for k, v in harness(build, e).items():
                samples.setdefault(k, []).append(v)
        samples.setdefault("openssl ctr 65536", []).append(openssl("aes-256-ctr"))
    gcm = statistics.median(samples["openssl gcm 65536"])
    ctr = statistics.median(samples["openssl ctr 65536"])
    for k, v in sorted(samples.items()):
        med = statistics.median(v)
        base = ctr if " ctr " in k else gcm
        print(f"{k:28s} median {med:6.2f} GB/s  ({med / base:4.2f}x openssl)  samples {' '.join(f'{x:.2f}' for x in v)}")


if __name__ == "__main__":
    main()
