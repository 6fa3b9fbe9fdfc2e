#!/usr/bin/python3
"""Draw the figures of BENCHMARKS.md as PNG files in docs/img/.

The numbers are read from BENCHMARKS.md itself, from the tables that bench/run.sh,
bench/loader.sh and bench/dist.sh results are written into, so a figure never disagrees with
its table: rerun a benchmark, update its table, then rerun this script. Each table is found by
its header row (the first cells named below), so prose and other tables may change freely.

  sampling.png      section 1: median sampled M edges/s per graph and load mode (one thread,
                    bare sampler), whiskers from the min to the max run
  threads.png       section 2: M edges/s of the bare sampler and the loader with 0, 1 and 2
                    worker threads (median bar, every run a dot)
  dist_traffic.png  section 6: remote bytes per batch by hop and for features, per graph and
                    partition (machines x processes)

usage: bench/plot.py [--benchmarks BENCHMARKS.md] [--out docs/img]
Needs matplotlib (Debian: apt-get install python3-matplotlib).
"""
import argparse
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860"]


def tables(path):
    """Every markdown table of `path` as (header cells, rows of cells)."""
    out, cur = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("|"):
                cells = [c.strip() for c in line.strip("|").split("|")]
                if cur is None:
                    cur = (cells, [])
                elif not all(re.fullmatch(r":?-+:?", c) for c in cells):
                    cur[1].append(cells)
            elif cur is not None:
                out.append(cur)
                cur = None
    if cur is not None:
        out.append(cur)
    return out


def find(tabs, *first):
    for head, rows in tabs:
        if tuple(head[: len(first)]) == first:
            return head, rows
    sys.exit(f"plot.py: no table whose header starts with {' | '.join(first)}")


def num(s):
    return float(s.replace(",", "").replace("*", "").rstrip("x%"))


def sampling(tabs, out):
    head, rows = find(tabs, "dataset", "nodes", "edges", "load")
    col = {h: i for i, h in enumerate(head)}
    graphs, loads = [], []
    data = {}
    for r in rows:
        g, load = r[col["dataset"]], r[col["load"]]
        if g not in graphs:
            graphs.append(g)
        if load not in loads:
            loads.append(load)
        data[g, load] = (num(r[col["median M edges/s"]]), num(r[col["min"]]), num(r[col["max"]]),
                         num(r[col["edges"]]))
    # largest graphs first, as the table reads
    fig, ax = plt.subplots(figsize=(8, 4.2))
    w = 0.8 / len(loads)
    for j, load in enumerate(loads):
        xs, med, lo, hi = [], [], [], []
        for i, g in enumerate(graphs):
            if (g, load) in data:
                m, a, b, _ = data[g, load]
                xs.append(i + (j - (len(loads) - 1) / 2) * w)
                med.append(m)
                lo.append(m - a)
                hi.append(b - m)
        ax.bar(xs, med, w, yerr=[lo, hi], capsize=3, label=load, color=COLORS[j])
    ax.set_xticks(range(len(graphs)))
    ax.set_xticklabels([f"{g}\n{data[g, loads[0]][3] / 1e6:.2g} M edges" for g in graphs], fontsize=8)
    ax.set_ylabel("sampled M edges/s (1 thread)")
    ax.set_title("Sampling throughput by graph and load mode\n(fanout [15,10,5], batch 1024; "
                 "median of runs, whiskers min-max)", fontsize=10)
    ax.legend(title="load", fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "sampling.png"), dpi=110)
    plt.close(fig)


def threads(tabs, out):
    head, rows = find(tabs, "measure", "median", "per-run values")
    picked = [r for r in rows if r[0].endswith("M edges/s")]
    if not picked:
        sys.exit("plot.py: the loader table has no 'M edges/s' rows")
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for i, r in enumerate(picked):
        runs = [num(v) for v in r[2].split(",")]
        ax.bar(i, num(r[1]), 0.6, color=COLORS[0] if "bare" in r[0] else COLORS[2])
        ax.plot([i] * len(runs), runs, "o", color="black", markersize=3, alpha=0.6)
    labels = [r[0].replace(", M edges/s", "").replace("loader ", "loader\n") for r in picked]
    ax.set_xticks(range(len(picked)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylabel("sampled M edges/s")
    ax.set_title("Scaling with worker threads (rmat18, 2-core host)\nbar: median; dots: runs",
                 fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "threads.png"), dpi=110)
    plt.close(fig)


def dist_traffic(tabs, out):
    head, rows = find(tabs, "graph", "parts", "machines x procs")
    col = {h: i for i, h in enumerate(head)}
    graphs = []
    for r in rows:
        if r[col["graph"]] not in graphs:
            graphs.append(r[col["graph"]])
    fig, axes = plt.subplots(1, len(graphs), figsize=(5 * len(graphs), 4.2), squeeze=False)
    for ax, g in zip(axes[0], graphs):
        sel = [r for r in rows if r[col["graph"]] == g and r[col["remote hop KiB / batch"]] != "-"]
        labels = [f"{r[col['parts']]}\n{r[col['machines x procs']]}" for r in sel]
        hops = [[num(v) for v in r[col["remote hop KiB / batch"]].split(",")] for r in sel]
        feat = [num(r[col["feature KiB / batch"]]) for r in sel]
        n_hops = max(len(h) for h in hops)
        bottom = [0.0] * len(sel)
        for h in range(n_hops):
            vals = [hs[h] / 1024 if h < len(hs) else 0.0 for hs in hops]
            ax.bar(range(len(sel)), vals, 0.6, bottom=bottom, label=f"hop {h}", color=COLORS[h])
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.bar(range(len(sel)), [f / 1024 for f in feat], 0.6, bottom=bottom,
               label="features + labels", color=COLORS[4], alpha=0.8)
        for i, r in enumerate(sel):
            ax.text(i, bottom[i] + feat[i] / 1024, f"{r[col['M edges/s']]} M/s", ha="center",
                    va="bottom", fontsize=7)
        ax.set_xticks(range(len(sel)))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("remote MiB per batch (request + answer)")
        ax.set_title(f"{g}", fontsize=10)
        ax.grid(axis="y", alpha=0.3)
        ax.margins(y=0.12)
    axes[0][0].legend(fontsize=8, loc="upper left")
    fig.suptitle("Distributed sampling: traffic per batch by hop and for features "
                 "(labels above bars: M edges/s)", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "dist_traffic.png"), dpi=110)
    plt.close(fig)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--benchmarks", default=os.path.join(here, "..", "BENCHMARKS.md"))
    ap.add_argument("--out", default=os.path.join(here, "..", "docs", "img"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    tabs = tables(a.benchmarks)
    sampling(tabs, a.out)
    threads(tabs, a.out)
    dist_traffic(tabs, a.out)
    print(f"wrote sampling.png, threads.png, dist_traffic.png in {a.out}")


if __name__ == "__main__":
    main()
