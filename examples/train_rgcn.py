#!/usr/bin/python3
"""R-GCN-style heterogeneous GraphSAGE on DBLP (authors, papers, terms, conferences) in plain
PyTorch, fed by fanout's typed NeighborLoader.

    PYTHONPATH=build/python /usr/bin/python3 examples/train_rgcn.py --data ../shared/data/dblp-hetero

Steps: convert the DBLP node files (TSV with sparse col:value features, see
../shared/data/README.md "dblp-hetero") to .npy: author bag of words (334, float32), labels (4
areas), term word vectors (50, float32) and the paper bag of words (4,231 words) reduced to
64 dimensions by a fixed random projection (dense 4,231-wide rows would make every batch's
first layer cost more than the rest of training); make a random stratified split of the
authors (20 % train, 10 % val, 70 % test, from --seed); import the three edge files as a typed
dataset with `fanout.import_dataset(edge_types=..., node_types=..., reverse_edges=True)`
(the CLI's `fanout import --edge-type ... --reverse-edges`); then train on mini-batches of 128 training authors
(`input_nodes=("author", "train")`) with per-edge-type fanouts, evaluate the validation and
test authors with full-neighborhood inference (num_neighbors -1: deterministic), keep the
model of the best validation epoch and print `test_acc=<value>` as the last line.

The model: per node type an input map (a linear layer, or for conferences, which have no
features, an embedding of their 20 ids); then two layers of
    h'_v = W_self[t] h_v + sum over edge types (s, r, t) of mean_{u ->r v} W_r h_u
(R-GCN's per-relation weights, Schlichtkrull et al. 2018, with GraphSAGE's mean and self map),
over each edge type's sampled edges: `row_dict[et]` (local ids into node_dict[src]) sends to
`col_dict[et]` (local ids into node_dict[dst]), zero copy from the batch.

Reproducible: torch.manual_seed(--seed), the split and the loader's seed fix every random
choice. The majority class is 1,197 of 4,057 authors (29.5 %).
"""

import argparse
import gzip
import os
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F

import fanout

EDGE_FILES = [  # (src, rel, dst, file): every line is "<paper>\t<other>"
    ("paper", "writes", "author", "dblp_paper_author.tsv.gz"),
    ("paper", "published_in", "conference", "dblp_paper_conference.tsv.gz"),
    ("paper", "has_term", "term", "dblp_paper_term.tsv.gz"),
]
NUM_NODES = {"author": 4057, "paper": 14328, "term": 7723, "conference": 20}


def rows(path):
    with gzip.open(path, "rt", encoding="ascii") as f:
        for line in f:
            if not line.startswith("#"):
                yield line.rstrip("\n").split("\t")


def sparse_rows(fields, dim):
    """[(col, value) pairs of each row] -> (row index, col, value) arrays."""
    r, c, v = [], [], []
    for i, text in enumerate(fields):
        for cv in text.split():
            col, val = cv.split(":")
            r.append(i)
            c.append(int(col))
            v.append(float(val))
    return np.array(r, np.int64), np.array(c, np.int64), np.array(v, np.float32)


def convert(data, out, seed):
    """The .npy files of the import: features, labels and the stratified author split."""
    a = list(rows(os.path.join(data, "dblp_author.tsv.gz")))
    assert [int(x[0]) for x in a] == list(range(NUM_NODES["author"]))
    r, c, v = sparse_rows([x[2] if len(x) > 2 else "" for x in a], 334)
    ax = np.zeros((len(a), 334), np.float32)
    ax[r, c] = v
    y = np.array([int(x[1]) for x in a], np.int64)
    p = list(rows(os.path.join(data, "dblp_paper.tsv.gz")))
    r, c, v = sparse_rows([x[1] for x in p], 4231)
    proj = np.random.default_rng(12345).standard_normal((4231, 64)).astype(np.float32) / 8.0
    px = np.zeros((len(p), 64), np.float32)
    np.add.at(px, r, np.log1p(v)[:, None] * proj[c])  # sum of the words' random vectors
    tx = np.array([[float(t) for t in x[1:]] for x in rows(os.path.join(data, "dblp_term.tsv.gz"))],
                  np.float32)
    files = {"author_x": ax, "author_y": y, "paper_x": px, "term_x": tx}
    rng = np.random.default_rng(seed)
    split = {"train": [], "val": [], "test": []}
    for k in range(int(y.max()) + 1):  # stratified: 20 / 10 / 70 % of every class
        ids = rng.permutation(np.flatnonzero(y == k))
        n_train, n_val = round(0.2 * len(ids)), round(0.1 * len(ids))
        split["train"].append(ids[:n_train])
        split["val"].append(ids[n_train:n_train + n_val])
        split["test"].append(ids[n_train + n_val:])
    for name, parts in split.items():
        files[name] = np.sort(np.concatenate(parts))
    for name, arr in files.items():
        np.save(os.path.join(out, name + ".npy"), arr)
    return y


def import_dblp(data, tmp, out):
    """The typed import (``fanout import --edge-type ... --reverse-edges`` in Python)."""
    f = lambda name: os.path.join(tmp, name + ".npy")  # noqa: E731
    node_types = {t: {"num_nodes": n} for t, n in NUM_NODES.items()}
    node_types["author"].update(features=f("author_x"), labels=f("author_y"),
                                split={s: f(s) for s in ("train", "val", "test")})
    node_types["paper"]["features"] = f("paper_x")
    node_types["term"]["features"] = f("term_x")
    return fanout.import_dataset(
        [], out, edge_types={(s, r, d): os.path.join(data, name) for s, r, d, name in EDGE_FILES},
        node_types=node_types, reverse_edges=True)


class HeteroSAGE(torch.nn.Module):
    """Two relational mean-aggregation layers over every edge type (see the module text)."""

    def __init__(self, metadata, dims, num_nodes_no_x, hidden, n_classes, dropout):
        super().__init__()
        node_types, edge_types = metadata
        self.node_types, self.edge_types = node_types, edge_types
        self.dropout = dropout
        self.inp = torch.nn.ModuleDict()
        for t in node_types:
            self.inp[t] = (torch.nn.Linear(dims[t], hidden) if t in dims
                           else torch.nn.Embedding(num_nodes_no_x[t], hidden))
        self.layers = torch.nn.ModuleList()
        for d_out in (hidden, n_classes):
            layer = torch.nn.ModuleDict()
            for t in node_types:
                layer["self_" + t] = torch.nn.Linear(hidden, d_out)
            for et in edge_types:
                layer["rel_" + "__".join(et)] = torch.nn.Linear(hidden, d_out, bias=False)
            self.layers.append(layer)

    def forward(self, batch):
        nodes = {t: fanout.as_tensor(v) for t, v in batch.node_dict.items()}
        x = {t: fanout.as_tensor(v) for t, v in batch.x_dict.items()}
        h = {}
        for t in self.node_types:
            h[t] = self.inp[t](x[t]) if t in x else self.inp[t](nodes[t])
        rows = {et: fanout.as_tensor(v) for et, v in batch.row_dict.items()}
        cols = {et: fanout.as_tensor(v) for et, v in batch.col_dict.items()}
        for i, layer in enumerate(self.layers):
            h = {t: F.dropout(F.relu(v), self.dropout, self.training) for t, v in h.items()}
            out = {t: layer["self_" + t](h[t]) for t in self.node_types}
            for et in self.edge_types:
                src, _, dst = et
                row, col = rows[et], cols[et]
                if row.numel() == 0:
                    continue
                msg = layer["rel_" + "__".join(et)](h[src])[row]
                n_dst = out[dst].shape[0]
                agg = torch.zeros(n_dst, msg.shape[1]).index_add_(0, col, msg)
                deg = torch.bincount(col, minlength=n_dst).clamp(min=1).unsqueeze(1)
                out[dst] = out[dst] + agg / deg
            h = out
        return h["author"][: batch.batch_size]


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for batch in loader:
            pred = model(batch).argmax(1)
            correct += int((pred == fanout.as_tensor(batch.y)).sum())
            total += batch.batch_size
    return correct / max(total, 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                   "shared", "data", "dblp-hetero"))
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    with tempfile.TemporaryDirectory(prefix="fanout-dblp-") as tmp:
        t0 = time.perf_counter()
        y = convert(args.data, tmp, args.seed)
        t1 = time.perf_counter()
        path = os.path.join(tmp, "dblp.fanout")
        import_dblp(args.data, tmp, path)
        t2 = time.perf_counter()
        ds = fanout.Dataset(path)
        print(f"converted in {t1 - t0:.2f} s, imported in {t2 - t1:.2f} s: {ds.num_nodes_dict}, "
              f"{len(ds.edge_types)} edge types, majority class "
              f"{np.bincount(y).max() / len(y):.3f}", flush=True)
        # Fanouts per edge type (PyG's dict form; every edge type must be given): hop 1
        # expands the seed authors' papers, hop 2 those papers' authors, terms and venue.
        fan = {et: [10, 10] for et in ds.edge_types}
        fan[("term", "rev_has_term", "paper")] = [5, 5]
        fan[("conference", "rev_published_in", "paper")] = [-1, -1]  # one per paper
        common = dict(seed=args.seed, num_workers=args.workers)
        train = fanout.NeighborLoader(ds, num_neighbors=fan, batch_size=128, shuffle=True,
                                      input_nodes=("author", "train"), **common)
        full = {et: [-1, -1] for et in ds.edge_types}
        val = fanout.NeighborLoader(ds, num_neighbors=full, batch_size=512,
                                    input_nodes=("author", "val"), **common)
        test = fanout.NeighborLoader(ds, num_neighbors=full, batch_size=512,
                                     input_nodes=("author", "test"), **common)
        dims = {t: ds[t].features.shape[1] for t in ds.node_types if ds[t].features is not None}
        no_x = {t: ds[t].num_nodes for t in ds.node_types if t not in dims}
        model = HeteroSAGE(ds.metadata(), dims, no_x, 64, ds["author"].num_classes, 0.5)
        opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
        best_val, best_state, best_epoch = -1.0, None, -1
        for epoch in range(args.epochs):
            model.train()
            t = time.perf_counter()
            loss_sum = n_edges = 0
            for batch in train:
                opt.zero_grad()
                loss = F.cross_entropy(model(batch), fanout.as_tensor(batch.y))
                loss.backward()
                opt.step()
                loss_sum += float(loss) * batch.batch_size
                n_edges += batch.num_edges
            acc = evaluate(model, val)
            if acc > best_val:
                best_val, best_epoch = acc, epoch
                best_state = {k: v.clone() for k, v in model.state_dict().items()}
            print(f"epoch {epoch:2d} loss {loss_sum / train.num_inputs:.4f} val {acc:.4f} "
                  f"({n_edges} sampled edges, {time.perf_counter() - t:.2f} s)", flush=True)
        model.load_state_dict(best_state)
        test_acc = evaluate(model, test)
        print(f"best val {best_val:.4f} at epoch {best_epoch}; "
              f"{time.perf_counter() - t0:.1f} s in all")
        del train, val, test, batch
        ds.close()
    print(f"test_acc={test_acc:.4f}")


if __name__ == "__main__":
    main()
