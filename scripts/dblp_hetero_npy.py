#!/usr/bin/python3
"""Turn ../shared/data/dblp-hetero's node files (TSV, sparse col:value features) into the .npy
files `fanout import --features TYPE=... --labels TYPE=...` takes.

usage: dblp_hetero_npy.py DBLP_DIR OUT_DIR
writes OUT_DIR/author_x.npy (uint8 [4057, 334]), author_y.npy (int64 [4057]),
       OUT_DIR/paper_x.npy (uint8 [14328, 4231]), term_x.npy (float32 [7723, 50])."""
import gzip, os, sys
import numpy as np


def rows(path):
    with gzip.open(path, 'rt', encoding='ascii') as f:
        for line in f:
            if not line.startswith('#'):
                yield line.rstrip('\n').split('\t')


def sparse(fields, n, dim, x):
    for i, col_vals in enumerate(fields):
        for cv in col_vals.split():
            c, v = cv.split(':')
            x[i, int(c)] = int(v)


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    a = list(rows(os.path.join(src, 'dblp_author.tsv.gz')))
    ax = np.zeros((len(a), 334), np.uint8)
    sparse([r[2] if len(r) > 2 else '' for r in a], len(a), 334, ax)
    assert [int(r[0]) for r in a] == list(range(len(a)))
    np.save(os.path.join(out, 'author_x.npy'), ax)
    np.save(os.path.join(out, 'author_y.npy'), np.array([int(r[1]) for r in a], np.int64))
    p = list(rows(os.path.join(src, 'dblp_paper.tsv.gz')))
    px = np.zeros((len(p), 4231), np.uint8)
    sparse([r[1] for r in p], len(p), 4231, px)
    np.save(os.path.join(out, 'paper_x.npy'), px)
    t = list(rows(os.path.join(src, 'dblp_term.tsv.gz')))
    np.save(os.path.join(out, 'term_x.npy'), np.array([[float(v) for v in r[1:]] for r in t], np.float32))


main()
