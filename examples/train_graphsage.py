#!/usr/bin/python3
"""GraphSAGE (mean aggregation) on Cora in plain PyTorch, fed by fanout's NeighborLoader.

    PYTHONPATH=build/python /usr/bin/python3 examples/train_graphsage.py --data data/cora

Steps: import data/cora (LINQS Planetoid files) with the planetoid format and --undirected into
a temporary directory (the standard Planetoid split comes with it: 20 labeled nodes per class
for training, 500 for validation, 1000 for test); train a 2-layer GraphSAGE on mini-batches of
128 training seeds with fanouts [10, 10], reshuffled every epoch; evaluate on the validation
and test nodes with full-neighborhood inference (a second loader with num_neighbors [-1, -1]:
each seed's exact 2-hop neighborhood, so evaluation is deterministic); keep the model of the
epoch with the best validation accuracy. Prints per-epoch loss, accuracies and loader
throughput, and as its last line `test_acc=<value>`.

Reproducible: torch.manual_seed(--seed) and the loader's seed fix every random choice.
"""

import argparse
import os
import sys
import tempfile
import time

import torch
import torch.nn.functional as F

import fanout


class SAGEConv(torch.nn.Module):
    """GraphSAGE layer with mean aggregation (PyG SAGEConv, aggr="mean"):
    h'_v = W_neigh mean_{u -> v} h_u + W_self h_v + b.

    The linear maps are applied before the mean (they commute), so a sparse input (Cora's
    bag-of-words rows are 1.3% non-zero) costs nnz x d_out instead of n x d_in x d_out.
    Only the first `n_dst` nodes are computed: the ones the next layer reads."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.d_out = d_out
        self.weight = torch.nn.Parameter(torch.empty(d_in, 2 * d_out))  # [W_neigh | W_self]
        self.bias = torch.nn.Parameter(torch.zeros(d_out))
        torch.nn.init.xavier_uniform_(self.weight)

    def forward(self, h, row, col, n_dst):
        # Messages flow row (neighbor) -> col (the node it was sampled for), local ids.
        p = torch.sparse.mm(h, self.weight) if h.is_sparse else h @ self.weight
        p_neigh, p_self = p[:, : self.d_out], p[:n_dst, self.d_out :]
        deg = torch.bincount(col, minlength=n_dst).clamp(min=1).to(p.dtype).unsqueeze(1)
        agg = torch.zeros(n_dst, self.d_out, dtype=p.dtype).index_add(0, col, p_neigh[row])
        return agg / deg + p_self + self.bias


class GraphSAGE(torch.nn.Module):
    """Two SAGEConv layers. Layer 1 runs on the seeds and the hop-1 nodes over all sampled
    edges; layer 2 on the seeds over the hop-1 edges (edges come hop by hop; PyG calls this
    trimming), which gives the seeds the same outputs as running both layers everywhere."""

    def __init__(self, d_in, d_hidden, n_classes, dropout):
        super().__init__()
        self.conv1 = SAGEConv(d_in, d_hidden)
        self.conv2 = SAGEConv(d_hidden, n_classes)
        self.dropout = dropout

    def forward(self, x, row, col, num_sampled_nodes, num_sampled_edges):
        n_seeds, n_hop1 = num_sampled_nodes[0], num_sampled_nodes[0] + num_sampled_nodes[1]
        if x.is_sparse:  # dropout on the stored entries
            x = torch.sparse_coo_tensor(x.indices(), F.dropout(x.values(), self.dropout,
                                                               self.training), x.shape)
        else:
            x = F.dropout(x, self.dropout, self.training)
        h = F.relu(self.conv1(x, row, col, n_hop1))
        h = F.dropout(h, self.dropout, self.training)
        e1 = num_sampled_edges[0]
        return self.conv2(h, row[:e1], col[:e1], n_seeds)


def inputs(batch):
    """Model inputs of a batch. row, col and y are zero-copy tensors over fanout's memory;
    x is row-normalized (as PyG's NormalizeFeatures does for Planetoid) into a sparse copy."""
    x = fanout.as_tensor(batch.x)
    x = (x / x.sum(dim=1, keepdim=True).clamp(min=1.0)).to_sparse()
    row = fanout.as_tensor(batch.row)
    col = fanout.as_tensor(batch.col)
    y = fanout.as_tensor(batch.y)
    return (x, row, col, batch.num_sampled_nodes.tolist(), batch.num_sampled_edges.tolist()), y


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = total = 0
    for batch in loader:
        args, y = inputs(batch)
        pred = model(*args).argmax(dim=1)
        correct += int((pred == y).sum())
        total += batch.batch_size
    return correct / max(total, 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "data", "cora"),
                    help="directory with cora.content.gz and cora.cites (default: data/cora)")
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--fanout", default="10,10")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--dropout", type=float, default=0.6)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--weight-decay", type=float, default=5e-4)
    ap.add_argument("--num-workers", type=int, default=2, help="fanout sampling threads")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(min(2, os.cpu_count() or 1))
    fanouts = [int(f) for f in args.fanout.split(",")]
    if len(fanouts) != 2:
        ap.error("--fanout: the model has two layers, give two fanouts")

    with tempfile.TemporaryDirectory(prefix="fanout-cora-") as tmp:
        path = os.path.join(tmp, "cora")
        t0 = time.perf_counter()
        rep = fanout.import_dataset(
            [os.path.join(args.data, "cora.content.gz"), os.path.join(args.data, "cora.cites")],
            path, format="planetoid", undirected=True)
        print(f"imported Cora: {rep['num_nodes']} nodes, {rep['num_edges']} edges "
              f"in {time.perf_counter() - t0:.2f} s")
        with fanout.Dataset(path) as ds:
            print("splits: " + ", ".join(f"{s} {len(ds.split(s))}" for s in ds.splits) +
                  f"; {ds.features.shape[1]} features, {ds.num_classes} classes")
            train = fanout.NeighborLoader(ds, num_neighbors=fanouts, batch_size=args.batch_size,
                                          input_nodes="train", shuffle=True, seed=args.seed,
                                          num_workers=args.num_workers)
            full = dict(num_neighbors=[-1] * len(fanouts), batch_size=1000,
                        num_workers=args.num_workers)
            val = fanout.NeighborLoader(ds, input_nodes="val", **full)
            test = fanout.NeighborLoader(ds, input_nodes="test", **full)

            model = GraphSAGE(ds.features.shape[1], args.hidden, ds.num_classes, args.dropout)
            opt = torch.optim.Adam(model.parameters(), lr=args.lr,
                                   weight_decay=args.weight_decay)
            best_val, best_state, best_epoch = -1.0, None, -1
            t_start = time.perf_counter()
            for epoch in range(args.epochs):
                model.train()
                loss_sum = correct = seen = edges = nodes = 0
                t_wait = 0.0
                st0 = train.stats()
                t_epoch = time.perf_counter()
                it = iter(train)  # each iter() is the next, reshuffled epoch
                while True:
                    t = time.perf_counter()
                    batch = next(it, None)
                    t_wait += time.perf_counter() - t
                    if batch is None:
                        break
                    args_, y = inputs(batch)
                    bs = batch.batch_size
                    opt.zero_grad()
                    out = model(*args_)
                    loss = F.cross_entropy(out, y)
                    loss.backward()
                    opt.step()
                    loss_sum += float(loss) * bs
                    correct += int((out.argmax(dim=1) == y).sum())
                    seen += bs
                    edges += batch.num_edges
                    nodes += batch.num_nodes
                t_epoch = time.perf_counter() - t_epoch
                st1 = train.stats()
                t_sample = st1["sample_seconds"] - st0["sample_seconds"]
                t_gather = st1["gather_seconds"] - st0["gather_seconds"]
                x_bytes = st1["gather_bytes"] - st0["gather_bytes"]
                val_acc = evaluate(model, val)
                if val_acc > best_val:
                    best_val, best_epoch = val_acc, epoch
                    best_state = {k: v.clone() for k, v in model.state_dict().items()}
                # Loader throughput: its own work (sampling + feature gather, summed over its
                # threads) and how long the training loop waited for batches.
                print(f"epoch {epoch:3d}  loss {loss_sum / seen:.4f}  train_acc "
                      f"{correct / seen:.3f}  val_acc {val_acc:.3f}  |  loader: {len(train)} "
                      f"batches, {nodes} nodes, {edges} edges; sampled in {t_sample * 1e3:.1f} ms "
                      f"({edges / max(t_sample, 1e-9) / 1e6:.1f} M edges/s), gathered "
                      f"{x_bytes / 2**20:.1f} MiB in {t_gather * 1e3:.1f} ms "
                      f"({x_bytes / max(t_gather, 1e-9) / 2**30:.1f} GiB/s); waited "
                      f"{t_wait * 1e3:.1f} ms of {t_epoch * 1e3:.0f} ms", flush=True)
            st = train.stats()
            print(f"training: {time.perf_counter() - t_start:.1f} s; loader since start: "
                  f"{st['batches']} batches, sampling {st['sample_seconds'] * 1e3:.1f} ms, "
                  f"gather {st['gather_seconds'] * 1e3:.1f} ms "
                  f"({st['gather_bytes'] / max(st['gather_seconds'], 1e-9) / 2**20:.0f} MiB/s)")
            model.load_state_dict(best_state)
            test_acc = evaluate(model, test)
            print(f"best val_acc {best_val:.3f} at epoch {best_epoch}")
            # Drop the loaders before the dataset directory is removed.
            del train, val, test
    print(f"test_acc={test_acc:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
