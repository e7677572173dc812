#!/usr/bin/env python3
"""A Dask job on encrypted CSVs over HTTP against the same job on the plaintext over HTTP (issue 46).

Usage: /usr/bin/python3 bench/scripts/http_dask.py [--build BUILD_DIR] [--files N] [--mib M] [--rounds R]
                                                 [--blocksize MIB] [--workers W]

nginx (python/tests/nginx_server.py: started on 127.0.0.1 from a temporary directory, stopped at exit) serves
N CSVs of M MiB each, their plaintext and each encrypted in pcrypt's format (1 MiB chunks, a key file) and
age's (64 KiB chunks, an X25519 identity). Each round runs, in turn, the same job on every variant:
`dd.read_csv(URL, blocksize=...)`, then the sums of two columns (`frame[["id", "value"]].sum()`, one read of
each block; the answers must agree) computed on Dask's threaded scheduler with W workers:
  plaintext   a list of the N plaintext URLs (fsspec's HTTP files, their default 5 MiB read-ahead);
  plaintext, no read-ahead   the same with cache_type="none": each read one request of exactly its bytes;
  pcrypt/age  "pcrypt::http://127.0.0.1:PORT/data-*.csv.pcrypt" (or .age): a glob, the only way a chained
              URL names many files.
A glob of plaintext URLs is not the plaintext's row: fsspec 2022.11's HTTP glob GETs every matched file
whole (to see whether it is a directory), which would time downloads, not the job. Times are wall-clock
medians over the rounds, split into making the graph (read_csv: listing, sizes, headers, the sample) and
computing it, and the CPU time of this process (all its threads: Dask's workers, fsspec's event loop; not
nginx's), which a busy machine disturbs less than the wall clock. Requests and bytes are nginx's access log for the last round (body bytes, and all bytes sent,
headers included). Prints the command, /proc/loadavg before and after, and the CPU (lscpu).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def cpu():
    out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    model = fields.get("Model name", "?").strip()
    return f"{model}, family {fields.get('CPU family', '?').strip()} model {fields.get('Model', '?').strip()}, " \
           f"{fields.get('CPU(s)', '?').strip()} CPUs"


def write_csvs(www, files, mib):
    import numpy as np
    import pandas as pd
    rng = np.random.default_rng(46)
    rows = mib * (1 << 20) // 40  # about 40 bytes a row
    for i in range(files):
        ids = np.arange(i * rows, (i + 1) * rows)
        frame = pd.DataFrame({"id": ids, "value": rng.random(rows).round(6),
                              "name": [f"name-{n}" for n in rng.integers(0, 10 ** 9, rows)]})
        frame.to_csv(os.path.join(www, f"data-{i}.csv"), index=False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--mib", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--blocksize", type=int, default=4, help="MiB of plaintext per Dask partition")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    sys.path[:0] = [os.path.join(args.build, "python"), os.path.join(ROOT, "python", "tests")]
    import dask.dataframe as dd

    import pcrypt
    from nginx_server import Nginx

    print("command:", " ".join([os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:]))
    print("cpu:", cpu())
    print("load before:", loadavg())
    work = tempfile.mkdtemp(prefix="pcrypt-http-bench-")
    try:
        www = os.path.join(work, "www")
        os.mkdir(www)
        write_csvs(www, args.files, args.mib)
        pcrypt.keygen(os.path.join(work, "me.key"))
        recipient = pcrypt.keygen(os.path.join(work, "id.txt"), identity=True)
        for i in range(args.files):
            plain = os.path.join(www, f"data-{i}.csv")
            pcrypt.encrypt(plain, plain + ".pcrypt", keys=os.path.join(work, "me.key"))
            pcrypt.encrypt(plain, plain + ".age", recipients=[recipient], format="age")
        plaintext_bytes = sum(os.path.getsize(os.path.join(www, f"data-{i}.csv")) for i in range(args.files))
        with Nginx(os.path.join(work, "nginx"), www) as server:
            variants = {
                "plaintext": ([server.url(f"data-{i}.csv") for i in range(args.files)], {}),
                "plaintext, no read-ahead": ([server.url(f"data-{i}.csv") for i in range(args.files)],
                                             {"cache_type": "none"}),
                "pcrypt": ("pcrypt::" + server.url("data-*.csv.pcrypt"),
                           {"pcrypt": {"keys": [os.path.join(work, "me.key")]}}),
                "age": ("pcrypt::" + server.url("data-*.csv.age"),
                        {"pcrypt": {"identities": [os.path.join(work, "id.txt")]}}),
            }
            times = {name: ([], []) for name in variants}
            cpu_times = {name: [] for name in variants}
            answers, logs, partitions = {}, {}, {}
            for _ in range(args.rounds):
                for name, (url, options) in variants.items():
                    mark = server.mark()
                    cpu_start = time.process_time()
                    start = time.perf_counter()
                    frame = dd.read_csv(url, blocksize=args.blocksize << 20, storage_options=options)
                    made = time.perf_counter()
                    sums = frame[["id", "value"]].sum().compute(scheduler="threads", num_workers=args.workers)
                    done = time.perf_counter()
                    cpu_times[name].append(time.process_time() - cpu_start)
                    times[name][0].append(made - start)
                    times[name][1].append(done - made)
                    answers.setdefault(name, (int(sums["id"]), round(float(sums["value"]), 3)))
                    partitions[name] = frame.npartitions
                    logs[name] = server.requests_since(mark)
        assert len(set(answers.values())) == 1, answers
        print("load after:", loadavg())
        print(f"{args.files} files, {plaintext_bytes / 1e6:.1f} MB of CSV, "
              f"blocksize {args.blocksize} MiB, threaded scheduler with {args.workers} workers, "
              f"{args.rounds} rounds alternating; medians")
        plain_total = statistics.median(a + b for a, b in zip(*times["plaintext"]))
        print("| variant | partitions | graph (s) | compute (s) | total (s) | total min-max (s) | vs plaintext | "
              "CPU (s) | GET | HEAD | other | body MB | sent MB |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for name in variants:
            graph, compute = (statistics.median(t) for t in times[name])
            totals = [a + b for a, b in zip(*times[name])]
            total = statistics.median(totals)
            log = logs[name]
            gets = sum(r.method == "GET" and bool(r.span) for r in log)
            heads = sum(r.method == "HEAD" for r in log)
            print(f"| {name} | {partitions[name]} | {graph:.3f} | {compute:.3f} | {total:.3f} | "
                  f"{min(totals):.2f}-{max(totals):.2f} | "
                  f"{total / plain_total:.2f}x | {statistics.median(cpu_times[name]):.3f} | {gets} | {heads} | {len(log) - gets - heads} | "
                  f"{sum(r.body_bytes for r in log) / 1e6:.2f} | {sum(r.bytes_sent for r in log) / 1e6:.2f} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
