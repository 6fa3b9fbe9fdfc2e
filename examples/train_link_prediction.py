#!/usr/bin/python3
"""GraphSAGE link prediction on SNAP email-Enron in plain PyTorch, fed by fanout's
LinkNeighborLoader with strict negatives and seed-edge exclusion.

    PYTHONPATH=build/python /usr/bin/python3 examples/train_link_prediction.py \\
        --data ../shared/data/email-enron

Steps: read the 183,831 undirected email-Enron pairs; hold out 10 % of them as test edges and
5 % as validation edges (a random split from --seed); import only the remaining 85 % as an
undirected dataset (fanout.import_edges(..., undirected=True, csr=True)), so neither the
message-passing graph nor the negatives' membership checks see a held-out edge as an edge;
train for --epochs x --batches mini-batches of 512 training edges (shuffled) with binary negatives 1:1 (strict: no negative is
a training edge), `exclude_seed_edges=True` (the batch's own edges, both directions, are never
sampled into its subgraph, so the model cannot read its target off the graph), fanouts [5, 5];
evaluate on the test pairs plus as many strict random negatives (no exclusion: test edges are
not in the graph) and print `test_auc=<ROC-AUC>` as the last line.

The model: email-Enron has no node features, so the input is a learned --dim (32) embedding of each
node id, then two GraphSAGE layers h'_v = W_self h_v + W_nbr mean_{u -> v} h_u (ReLU between),
over the batch's sampled edges (edge_index row = neighbor, col = target, local ids), and a dot
product decoder on edge_label_index. Reproducible: torch.manual_seed(--seed), the split and the
loader's seed fix every random choice.
"""

import argparse
import gzip
import os
import shutil
import sys
import tempfile
import time

import numpy as np
import torch

import fanout


def roc_auc(y, s):
    """ROC-AUC by ranks (ties get their average rank)."""
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(len(s))
    ss = s[order]
    i = 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and ss[j + 1] == ss[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    pos = y == 1
    n1, n0 = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)


class SAGE(torch.nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.emb = torch.nn.Embedding(n, dim)
        self.l1s, self.l1n = torch.nn.Linear(dim, dim), torch.nn.Linear(dim, dim, bias=False)
        self.l2s, self.l2n = torch.nn.Linear(dim, dim), torch.nn.Linear(dim, dim, bias=False)

    @staticmethod
    def mean(h, row, col, n):
        out = torch.zeros(n, h.shape[1]).index_add_(0, col, h.index_select(0, row))
        deg = torch.zeros(n).index_add_(0, col, torch.ones(len(col))).clamp_(min=1)
        return out / deg[:, None]

    def forward(self, n_id, edge_index):
        row, col = edge_index
        n = len(n_id)
        h = self.emb(n_id)
        h = torch.relu(self.l1s(h) + self.l1n(self.mean(h, row, col, n)))
        return self.l2s(h) + self.l2n(self.mean(h, row, col, n))


def run(loader, model, opt=None, max_batches=None):
    scores, labels = [], []
    for i, b in enumerate(loader):
        if max_batches is not None and i == max_batches:
            break
        n_id = torch.from_numpy(b.n_id)
        ei = torch.from_numpy(b.edge_index)
        eli = torch.from_numpy(b.edge_label_index)
        y = torch.from_numpy(b.edge_label).float()
        with torch.set_grad_enabled(opt is not None):
            h = model(n_id, ei)
            logit = (h.index_select(0, eli[0]) * h.index_select(0, eli[1])).sum(-1)
            if opt is not None:
                loss = torch.nn.functional.binary_cross_entropy_with_logits(logit, y)
                opt.zero_grad()
                loss.backward()
                opt.step()
        scores.append(logit.detach().numpy())
        labels.append(b.edge_label)
    return roc_auc(np.concatenate(labels), np.concatenate(scores))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                   "shared", "data", "email-enron"))
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batches", type=int, default=40, help="training batches per epoch")
    ap.add_argument("--dim", type=int, default=32)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    path = os.path.join(args.data, "email-Enron.undirected.tsv.gz")
    if not os.path.exists(path):
        print(f"SKIPPED: {path} is absent")
        return
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    t0 = time.time()
    with gzip.open(path, "rt") as f:
        e = np.loadtxt((l for l in f if not l.startswith("#")), dtype=np.int64)
    n = int(e.max()) + 1
    perm = np.random.default_rng(args.seed).permutation(len(e))
    n_test, n_val = len(e) // 10, len(e) // 20
    test, val, train = e[perm[:n_test]], e[perm[n_test:n_test + n_val]], e[perm[n_test + n_val:]]
    tmp = tempfile.mkdtemp(prefix="fanout-link-")
    try:
        out = os.path.join(tmp, "enron-train")
        fanout.import_edges(train[:, 0], train[:, 1], out, undirected=True, csr=True, num_nodes=n)
        ds = fanout.Dataset(out)
        model = SAGE(n, args.dim)
        opt = torch.optim.Adam(model.parameters(), lr=0.03)
        tr = fanout.LinkNeighborLoader(ds, [5, 5], edge_label_index=train.T,
                                       neg_sampling=("binary", 1.0), strict=True,
                                       exclude_seed_edges=True, batch_size=512, shuffle=True,
                                       seed=args.seed)
        for ep in range(args.epochs):
            auc = run(tr, model, opt, args.batches)
            print(f"epoch {ep}: train_auc={auc:.4f} ({time.time() - t0:.1f} s)", flush=True)
        model.eval()
        va = fanout.LinkNeighborLoader(ds, [5, 5], edge_label_index=val.T,
                                       neg_sampling=("binary", 1.0), batch_size=2048,
                                       seed=args.seed + 1)
        print(f"val_auc={run(va, model):.4f} ({time.time() - t0:.1f} s)", flush=True)
        model.eval()
        te = fanout.LinkNeighborLoader(ds, [5, 5], edge_label_index=test.T,
                                       neg_sampling=("binary", 1.0), batch_size=2048,
                                       seed=args.seed + 2)
        auc = run(te, model)
        ds.close()
    finally:
        shutil.rmtree(tmp)
    print(f"{len(train)} train / {len(val)} val / {len(test)} test edges, {time.time() - t0:.1f} s")
    print(f"test_auc={auc:.4f}")


if __name__ == "__main__":
    sys.exit(main())
