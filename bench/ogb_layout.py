#!/usr/bin/python3
"""Write an OGB node-property-prediction directory (the layout of ogbn-arxiv: raw/edge.csv.gz,
num-node-list, num-edge-list, node-feat, node-label, node_year, split/time/*.csv.gz) from a
fanout dataset, e.g. one made by fanout-rmat, to measure `fanout import --format ogb`
(docs/IMPORT.md). Edges u -> v with u < v only (OGB stores one direction of an undirected graph);
random float32 features [n, D], labels in 0..39, years 1990..2020, a 60/20/20 split.

usage: PYTHONPATH=build/python bench/ogb_layout.py DATASET OUT_DIR [--dim 128] [--seed 1]
"""
import argparse
import gzip
import os

import numpy as np

import fanout


def write(path, arr, fmt):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with gzip.open(path, "wb", compresslevel=6) as f:
        np.savetxt(f, arr, fmt=fmt, delimiter=",")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dataset")
    ap.add_argument("out")
    ap.add_argument("--dim", type=int, default=128)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    ds = fanout.Dataset(a.dataset)
    n = ds.num_nodes
    indptr = np.asarray(ds.array("csc_indptr"))
    src = np.asarray(ds.array("csc_indices")).astype(np.int64)
    dst = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    keep = src < dst
    e = np.stack([src[keep], dst[keep]], 1)
    rng = np.random.default_rng(a.seed)
    raw = os.path.join(a.out, "raw")
    write(os.path.join(raw, "num-node-list.csv.gz"), np.array([n]), "%d")
    write(os.path.join(raw, "num-edge-list.csv.gz"), np.array([len(e)]), "%d")
    write(os.path.join(raw, "edge.csv.gz"), e, "%d")
    write(os.path.join(raw, "node-label.csv.gz"), rng.integers(0, 40, n), "%d")
    write(os.path.join(raw, "node_year.csv.gz"), rng.integers(1990, 2021, n), "%d")
    perm = rng.permutation(n)
    a6, a8 = int(n * 0.6), int(n * 0.8)
    for name, ids in (("train", perm[:a6]), ("valid", perm[a6:a8]), ("test", perm[a8:])):
        write(os.path.join(a.out, "split", "time", name + ".csv.gz"), np.sort(ids), "%d")
    if a.dim:
        x = rng.uniform(-1, 1, (n, a.dim)).astype(np.float32)
        write(os.path.join(raw, "node-feat.csv.gz"), x, "%.6f")
    print(f"{a.out}: {n} nodes, {len(e)} edges, features [{n}, {a.dim}]")


if __name__ == "__main__":
    main()
