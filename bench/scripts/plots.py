#!/usr/bin/env python3
"""Draws the benchmark plots of docs/BENCHMARKS.md from the data bench/scripts/plots.sh collects.

Usage: plots.py DATA_DIR [OUT_DIR]   (OUT_DIR defaults to DATA_DIR)

Reads what is there, each file optional (a missing one is reported and its plot skipped, so a partial run
still draws the rest):
  keystream.json   `pcrypt bench keystream --format json`: the BSAFE experiment -> keystream.{png,svg}
  engines.json     `pcrypt bench engines --format json`: portable vs hardware AES -> engines.{png,svg}
  throughput.json  `pcrypt bench throughput --format json`: the MT-AES runs -> throughput.{png,svg}
  scaling.json     `pcrypt bench throughput -j 1,2,... --format json` -> scaling.{png,svg}
  peers.csv        plots.sh's alternating end-to-end runs (command,operation,run,seconds) -> peers.{png,svg}
Each plot is written as PNG (for the README and any viewer) and SVG (text kept as text, small). Needs
Debian's python3-matplotlib (scripts/install-deps.sh --test installs it). Exits 1 if nothing could be drawn.
"""

import csv
import json
import os
import statistics
import sys

plt = None  # matplotlib.pyplot, imported by use_matplotlib() once there is something to draw (it takes seconds)


def use_matplotlib():
    global plt
    if plt is not None:
        return
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on a build machine
    import matplotlib.pyplot as pyplot

    # Reproducible files: no creation date in the metadata, fixed ids in the SVG, text as text (small,
    # greppable).
    pyplot.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "pcrypt", "figure.dpi": 100,
                            "axes.grid": True, "grid.alpha": 0.3, "font.size": 9})
    plt = pyplot


METADATA = {"png": {"Software": None}, "svg": {"Date": None}}

XOR_LABELS = {
    "keystream_only": "keystream only (no XOR)",
    "keystream_xor_bytes": "+ XOR, 1 byte per step (1997)",
    "keystream_xor_words32": "+ XOR, 4-byte words (1997)",
    "keystream_xor_words64": "+ XOR, 8-byte words",
    "keystream_xor_bytes_autovec": "+ XOR, byte loop auto-vectorised",
    "keystream_xor_avx2": "+ XOR, AVX2",
    "keystream_xor_neon": "+ XOR, NEON",
    "ctr_xor_fused": "fused CTR-XOR (ctr_xor)",
}


def load_json(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("schema") != "pcrypt-bench/1":
        raise ValueError(f"{path}: schema is {doc.get('schema')!r}, not pcrypt-bench/1")
    return doc


def tables(doc, table_id):
    return [t for t in doc["tables"] if t["id"] == table_id]


def short_load(load):
    """'before: 0.52, 0.40, 0.30; after: 1.10, 0.61, 0.38' -> 'load 0.52 -> 1.10' (the 1-minute averages)."""
    try:
        before, after = (part.split(":", 1)[1].split(",")[0].strip() for part in load.split(";"))
        return f"load {before} \u2192 {after}"
    except (IndexError, ValueError):
        return f"load {load}" if load else ""


def machine_line(doc, load):
    m = doc["machine"]
    parts = [m.get("cpu", "?"), f"{m.get('logical_cores', '?')} cores", f"engine {m.get('engine', '?')}",
             f"pcrypt {m.get('pcrypt_version', '?')}", m.get("date", "")[:10], short_load(load)]
    return ", ".join(p for p in parts if p)


def save(fig, out_dir, name, written):
    fig.tight_layout()
    for ext in ("png", "svg"):
        path = os.path.join(out_dir, f"{name}.{ext}")
        fig.savefig(path, format=ext, metadata=METADATA[ext])
        written.append(path)
    plt.close(fig)


def size_label(n):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n} B"


def plot_keystream(doc, load, out_dir, written):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    engine = None
    for table_id, label in XOR_LABELS.items():
        for t in tables(doc, table_id):
            rows = sorted(t["rows"], key=lambda r: r["keystream_bytes"])
            if not rows:
                continue
            engine = engine or t["title"].split("engine ")[-1].split(",")[0]
            ax.plot([r["keystream_bytes"] for r in rows], [r["rate_mbps"] / 1000 for r in rows],
                    marker="o", markersize=3, label=label)
    if engine is None:
        raise ValueError("no keystream table")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    sizes = sorted({r["keystream_bytes"] for t in doc["tables"] if t["experiment"] == "keystream"
                    for r in t["rows"]})
    ticks = [s for s in sizes if sizes.index(s) % 2 == 0 or s == sizes[-1]]
    ax.set_xticks(ticks, [size_label(s) for s in ticks], rotation=45)
    ax.invert_xaxis()  # as the 1997 table reads: 4 MiB requests first
    ax.set_xlabel("keystream request size")
    ax.set_ylabel("GB/s (10^9 B/s), log scale")
    ax.set_title(f"BSAFE keystream experiment: AES-256-CTR ({engine}) by request size and XOR method\n"
                 + machine_line(doc, load), fontsize=9)
    ax.legend(fontsize=7, loc="lower left")
    save(fig, out_dir, "keystream", written)


def plot_engines(doc, load, out_dir, written):
    rows = [r for t in tables(doc, "engines_aead") for r in t["rows"]
            if r["operation"] == "seal"]
    if not rows:
        raise ValueError("no engines_aead table")
    fig, ax = plt.subplots(figsize=(8, 4.5))
    by_engine = {}
    for r in rows:
        by_engine.setdefault(f"{r['engine']} ({r['algorithm']})", []).append(r)
    for name, rs in by_engine.items():
        rs.sort(key=lambda r: r["message_bytes"])
        style = "--" if "portable" in name else "-"
        ax.plot([r["message_bytes"] for r in rs], [r["rate_mbps"] / 1000 for r in rs], style, marker="o",
                markersize=3, label=name)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    sizes = sorted({r["message_bytes"] for r in rows})
    ax.set_xticks(sizes, [size_label(s) for s in sizes])
    ax.set_xlabel("message size (one seal call per message)")
    ax.set_ylabel("GB/s, log scale")
    blocks = [r for t in tables(doc, "engines_blocks") for r in t["rows"]
              if r.get("ratio_vs_portable") and r["key_bits"] == 256 and r["operation"] == "encrypt"
              and r["blocks_per_call"] > 1]
    ratio = ""
    if blocks:
        best = max(blocks, key=lambda r: r["ratio_vs_portable"])
        ratio = f"; raw AES-256 blocks: {best['engine']} {best['ratio_vs_portable']:.0f}x portable"
    ax.set_title("Portable (constant-time, bitsliced) vs hardware AES: AEAD seal by message size" + ratio
                 + "\n" + machine_line(doc, load), fontsize=9)
    ax.legend(fontsize=7)
    save(fig, out_dir, "engines", written)


def summary_rows(doc):
    rows = [r for t in tables(doc, "throughput_summary") for r in t["rows"] if r.get("source") == "memory"]
    if not rows:
        raise ValueError("no throughput_summary table")
    return rows


def plot_throughput(doc, load, out_dir, written):
    # In seconds, as the MT-AES tables report runs: mean ± sd, min and max are statistics of the times (as
    # rates, ± sd would not be symmetric); each bar is labelled with the rate of its mean.
    rows = summary_rows(doc)
    runs = [r for t in tables(doc, "throughput_runs") for r in t["rows"] if r.get("source") == "memory"]
    sizes = sorted({r["size_bytes"] for r in rows})
    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.38
    for k, op in enumerate(("encrypt", "decrypt")):
        xs, means, sds, lo, hi = [], [], [], [], []
        for i, size in enumerate(sizes):
            r = next(r for r in rows if r["size_bytes"] == size and r["operation"] == op)
            xs.append(i + (k - 0.5) * width)
            means.append(r["seconds_mean"])
            sds.append(r["seconds_stddev"])
            lo.append(r["seconds_min"])
            hi.append(r["seconds_max"])
        bars = ax.bar(xs, means, width, yerr=sds, capsize=4, label=f"{op}: mean ± sd", alpha=0.75)
        for bar, size, mean in zip(bars, sizes, means):
            ax.annotate(f"{size / 1e9 / mean:.2f} GB/s", (bar.get_x() + bar.get_width() / 2, 0),
                        textcoords="offset points", xytext=(0, 3), ha="center", fontsize=7)
        ax.scatter(xs, hi, marker="v", color="black", s=14, zorder=3, label="slowest run" if k == 0 else None)
        ax.scatter(xs, lo, marker="^", color="black", s=14, zorder=3, label="fastest run" if k == 0 else None)
        for i, size in enumerate(sizes):
            pts = [r[f"{op}_seconds"] for r in runs if r["size_bytes"] == size]
            ax.scatter([xs[i]] * len(pts), pts, s=5, color="grey", zorder=2,
                       label="each run" if k == 0 and i == 0 else None)
    n = max((r["samples"] for r in rows), default=0)
    threads = sorted({r["threads"] for r in rows})
    ax.set_xticks(range(len(sizes)), [size_label(s) for s in sizes])
    ax.set_xlabel(f"data size ({n} runs each, {'/'.join(map(str, threads))} threads, every decrypted run "
                  "checked by XXH3-128)")
    ax.set_ylabel("seconds per run (lower is better)")
    ax.set_title("MT-AES experiment: encrypt + decrypt through the pipeline, in memory\n"
                 + machine_line(doc, load), fontsize=9)
    ax.legend(fontsize=7, loc="upper left")
    save(fig, out_dir, "throughput", written)


def plot_scaling(doc, load, out_dir, written):
    rows = summary_rows(doc)
    fig, ax = plt.subplots(figsize=(6, 4))
    for op in ("encrypt", "decrypt"):
        rs = sorted((r for r in rows if r["operation"] == op), key=lambda r: r["threads"])
        threads = [r["threads"] for r in rs]
        rates = [r["rate_mbps"] / 1000 for r in rs]
        ax.plot(threads, rates, marker="o", label=op)
        for t, v in zip(threads, rates):
            ax.annotate(f"{v / rates[0]:.2f}x", (t, v), textcoords="offset points", xytext=(4, -10),
                        fontsize=7)
    threads = sorted({r["threads"] for r in rows})
    ax.set_xticks(threads)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("worker threads (-j)")
    ax.set_ylabel("GB/s")
    size = size_label(rows[0]["size_bytes"])
    ax.set_title(f"Scaling with threads: {size}, mean of {rows[0]['samples']} runs (ratio to -j"
                 f"{threads[0]})\n" + machine_line(doc, load), fontsize=8)
    ax.legend(fontsize=8)
    save(fig, out_dir, "scaling", written)


def plot_peers(path, load, out_dir, written):
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    with open(path, encoding="utf-8") as f:
        comments = dict(line[2:].rstrip("\n").split(": ", 1) for line in f if line.startswith("# ") and ": " in line)
    times = {}
    for r in csv.DictReader(lines):
        times.setdefault((r["operation"], r["command"]), []).append(float(r["seconds"]))
    if not times:
        raise ValueError(f"{path}: no runs")
    fig, ax = plt.subplots(figsize=(8, 4))
    labels, medians, spreads = [], [], []
    for (op, cmd), ts in sorted(times.items(), key=lambda kv: (kv[0][0], statistics.median(kv[1]))):
        labels.append(f"{op}: {cmd}")
        medians.append(statistics.median(ts))
        spreads.append((statistics.median(ts) - min(ts), max(ts) - statistics.median(ts)))
    colors = ["tab:blue" if lab.split(": ", 1)[1].startswith("pcrypt") else "tab:grey" for lab in labels]
    ys = range(len(labels))
    ax.barh(ys, medians, xerr=list(zip(*spreads)), color=colors, capsize=3)
    for y, m, (_, up) in zip(ys, medians, spreads):
        ax.annotate(f"{m:.3f} s", (m + up, y), textcoords="offset points", xytext=(6, -3), fontsize=7)
    ax.set_yticks(ys, labels, fontsize=7)
    ax.invert_yaxis()
    runs = len(next(iter(times.values())))
    ax.set_xlabel(f"seconds, median of {runs} alternating runs (bars: min to max); lower is better")
    machine = ", ".join(p for p in (comments.get("machine", ""), short_load(load)) if p)
    ax.set_title(f"End to end: {comments.get('size', '?')} page-cached file to /dev/null\n{machine}", fontsize=9)
    save(fig, out_dir, "peers", written)


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    data_dir = argv[1]
    out_dir = argv[2] if len(argv) == 3 else data_dir
    os.makedirs(out_dir, exist_ok=True)
    load = ""
    load_file = os.path.join(data_dir, "load.txt")
    if os.path.exists(load_file):
        with open(load_file, encoding="utf-8") as f:
            load = f.read().strip()
    written, problems = [], []
    for name, draw in (("keystream", plot_keystream), ("engines", plot_engines),
                       ("throughput", plot_throughput), ("scaling", plot_scaling)):
        path = os.path.join(data_dir, f"{name}.json")
        if not os.path.exists(path):
            problems.append(f"{path}: missing, {name} plot skipped")
            continue
        try:
            doc = load_json(path)
            use_matplotlib()
            draw(doc, load, out_dir, written)
        except (ValueError, KeyError, StopIteration, json.JSONDecodeError) as e:
            problems.append(f"{path}: {e!r}, {name} plot skipped")
    peers = os.path.join(data_dir, "peers.csv")
    if os.path.exists(peers):
        try:
            use_matplotlib()
            plot_peers(peers, load, out_dir, written)
        except (ValueError, KeyError) as e:
            problems.append(f"{peers}: {e!r}, peers plot skipped")
    else:
        problems.append(f"{peers}: missing, peers plot skipped")
    for p in problems:
        print(f"plots.py: {p}", file=sys.stderr)
    for w in written:
        print(w)
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
