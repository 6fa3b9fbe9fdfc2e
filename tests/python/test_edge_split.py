"""Stored edge splits from Python: Dataset.edge_splits / edge_split / edge_endpoints, and
LinkNeighborLoader over a split name (the same batches as over the split's edges given as
edge_label_index), typed with ((src, rel, dst), "train"), and the errors."""

import subprocess

import numpy as np
import pytest

import fanout


@pytest.fixture(scope="module")
def split_ds(tmp_path_factory, cli):
    d = tmp_path_factory.mktemp("esplit")
    rng = np.random.default_rng(5)
    src, dst = rng.integers(0, 50, 300), rng.integers(0, 50, 300)
    with open(d / "g.txt", "w") as f:
        for u, v in zip(src, dst):
            f.write(f"{u} {v}\n")
    train = rng.permutation(300)[:120]
    np.save(d / "train.npy", train)
    np.save(d / "test.npy", np.arange(10, dtype=np.int32))
    out = str(d / "g")
    subprocess.run([cli, "import", str(d / "g.txt"), "--csc", "--csr", "-q", "--num-nodes", "50",
                    "--edge-split", f"train={d / 'train.npy'},test={d / 'test.npy'}", "-o", out],
                   check=True, capture_output=True)
    return fanout.Dataset(out), np.stack([src, dst]), train


def test_accessors(split_ds):
    ds, eli, train = split_ds
    assert ds.edge_splits() == ["train", "test"]
    ids = ds.edge_split("train")
    assert ids.dtype == np.int64 and not ids.flags.writeable and len(ids) == 120
    np.testing.assert_array_equal(ds.edge_endpoints(ids), eli[:, train])
    np.testing.assert_array_equal(ds.edge_endpoints(ds.edge_split("test", "node__to__node")),
                                  eli[:, :10])
    with pytest.raises(ValueError, match="has no edge split 'val' \\(it has: train, test\\)") as e:
        ds.edge_split("val")
    assert e.value.status == "FO_EINVAL"
    with pytest.raises(ValueError, match="not an edge id"):
        ds.edge_endpoints([10**6])


def test_loader_over_split(split_ds):
    ds, eli, train = split_ds
    kw = dict(neg_sampling=("binary", 1), exclude_seed_edges=True, batch_size=32, shuffle=True,
              seed=4)
    A = fanout.LinkNeighborLoader(ds, [3, 2], edge_label_index="train", **kw)
    B = fanout.LinkNeighborLoader(ds, [3, 2], edge_label_index=eli[:, train], **kw)
    assert A.edge_split == "train" and len(A) == len(B) == 4
    for _ in range(2):
        for a, b in zip(A, B):
            for k in ("n_id", "e_id", "edge_index", "edge_label_index", "edge_label", "input_id"):
                np.testing.assert_array_equal(getattr(a, k), getattr(b, k))
    with pytest.raises(ValueError, match="edge_label: not with the edge split 'train'"):
        fanout.LinkNeighborLoader(ds, [2], edge_label_index="train", edge_label=np.ones(120))
    with pytest.raises(ValueError, match="has no edge split 'nope'"):
        fanout.LinkNeighborLoader(ds, [2], edge_label_index="nope")


def test_loader_over_split_of_parts(split_ds, tmp_path, cli):
    """A partitioned dataset in one process: the split's stored endpoints give the plain
    dataset's batches (and Dataset._edge_split_ends refuses a plain dataset)."""
    ds, eli, train = split_ds
    out = str(tmp_path / "g2")
    subprocess.run([cli, "partition", ds.path, "-n", "2", "-q", "-o", out], check=True,
                   capture_output=True)
    pd = fanout.Dataset(out)
    np.testing.assert_array_equal(pd._edge_split_ends(0, "train"), eli[:, train])
    with pytest.raises(ValueError, match="is not partitioned"):
        ds._edge_split_ends(0, "train")
    kw = dict(neg_sampling=("binary", 1), exclude_seed_edges=True, batch_size=32, shuffle=True,
              seed=4, features=False)
    A = fanout.LinkNeighborLoader(pd, [3, 2], edge_label_index="train", **kw)
    B = fanout.LinkNeighborLoader(ds, [3, 2], edge_label_index="train", **kw)
    assert len(A) == len(B) == 4
    for a, b in zip(A, B):
        for k in ("n_id", "e_id", "edge_index", "edge_label_index", "edge_label", "input_id"):
            np.testing.assert_array_equal(getattr(a, k), getattr(b, k))


def test_typed(tmp_path, cli):
    (tmp_path / "pa.txt").write_text("0 1\n1 0\n2 1\n3 2\n")
    (tmp_path / "pp.txt").write_text("1 0\n2 0\n")
    np.save(tmp_path / "w.npy", np.array([3, 0]))
    out = str(tmp_path / "t")
    subprocess.run([cli, "import", "-q", "--edge-type", "paper,writes,author", str(tmp_path / "pa.txt"),
                    "--edge-type", "paper,cites,paper", str(tmp_path / "pp.txt"), "--reverse-edges",
                    "--csc", "--csr", "--edge-split",
                    f"paper__writes__author:train={tmp_path / 'w.npy'}", "-o", out],
                   check=True, capture_output=True)
    ds = fanout.Dataset(out)
    et = ("paper", "writes", "author")
    assert ds.edge_splits(et) == ["train"] and ds.edge_splits("cites") == []
    np.testing.assert_array_equal(ds.edge_endpoints(ds.edge_split("train", et), et),
                                  [[3, 0], [2, 1]])
    L = fanout.LinkNeighborLoader(ds, {e: [-1] for e in ds.edge_types},
                                  edge_label_index=(et, "train"), batch_size=2)
    b = next(iter(L))
    np.testing.assert_array_equal(b.n_id_dict["paper"][b.edge_label_index[0]], [3, 0])
    np.testing.assert_array_equal(b.n_id_dict["author"][b.edge_label_index[1]], [2, 1])
    with pytest.raises(ValueError, match="has 3 edge types: name one"):
        ds.edge_split("train")


def test_temporal(tmp_path, cli):
    """edge_label_time: no sampled edge later than its tree's seed edge (negatives: their
    positive's time), the split's stored times by default, disjoint trees, and the errors."""
    rng = np.random.default_rng(2)
    m = 2000
    src, dst, t = rng.integers(0, 80, m), rng.integers(0, 80, m), rng.integers(0, 1000, m)
    with open(tmp_path / "g.txt", "w") as f:
        for u, v, w in zip(src, dst, t):
            f.write(f"{u} {v} {w}\n")
    np.save(tmp_path / "s.npy", np.arange(0, m, 7))
    out = str(tmp_path / "g")
    subprocess.run([cli, "import", str(tmp_path / "g.txt"), "--time-col", "2", "--csc", "--csr",
                    "-q", "--num-nodes", "80", "--edge-split", f"train={tmp_path / 's.npy'}",
                    "-o", out], check=True, capture_output=True)
    ds = fanout.Dataset(out)
    csc_t = ds.array("csc_time")
    ids = ds.edge_split("train")
    eli, times = ds.edge_endpoints(ids), csc_t[ids]
    for kw in (dict(edge_label_index="train"), dict(edge_label_index=eli, edge_label_time=times)):
        for strategy in ("uniform", "last"):
            L = fanout.LinkNeighborLoader(ds, [4, 3], time_attr="edge", temporal_strategy=strategy,
                                          neg_sampling=("binary", 2), batch_size=50, shuffle=True,
                                          **kw)
            n_edges = 0
            for b in L:
                B, C = len(b.input_id), b.edge_label_index.shape[1]
                col_t = times[b.input_id][np.arange(C) % B]  # negative j: positive j mod B
                tree_t = np.full(len(b.batch), -1, dtype=np.int64)
                assert b.batch.max() < 2 * C
                tree_t[b.edge_label_index[0]] = col_t
                tree_t[b.edge_label_index[1]] = col_t
                seed_t = tree_t[b.batch[b.edge_index[1]]]
                assert (seed_t >= 0).all() and (csc_t[b.e_id] <= seed_t).all()
                n_edges += len(b.e_id)
            assert n_edges > 1000
    with pytest.raises(ValueError, match="needs edge_label_time"):
        fanout.LinkNeighborLoader(ds, [2], edge_label_index=eli, time_attr="edge")
    with pytest.raises(ValueError, match="edge_label_time needs time_attr"):
        fanout.LinkNeighborLoader(ds, [2], edge_label_index=eli, edge_label_time=times)
    # exclusion with time: no pair of a batch's seed edges (any copy) among its sampled edges,
    # and nothing later than its tree's seed time
    for strategy in ("uniform", "last"):
        L = fanout.LinkNeighborLoader(ds, [4, 3], edge_label_index="train", time_attr="edge",
                                      temporal_strategy=strategy, exclude_seed_edges=True,
                                      batch_size=20)
        n_edges = 0
        for b in L:
            pos = {(int(u), int(v)) for u, v in eli[:, b.input_id].T}
            u, v = b.n_id[b.edge_index[0]], b.n_id[b.edge_index[1]]
            assert not any((int(a), int(c)) in pos for a, c in zip(u, v))
            tree_t = np.full(len(b.batch), -1, dtype=np.int64)
            C = b.edge_label_index.shape[1]
            tree_t[b.edge_label_index[0]] = times[b.input_id][np.arange(C) % len(b.input_id)]
            tree_t[b.edge_label_index[1]] = times[b.input_id][np.arange(C) % len(b.input_id)]
            assert (csc_t[b.e_id] <= tree_t[b.batch[b.edge_index[1]]]).all()
            n_edges += len(b.e_id)
        assert n_edges > 1000
    # disjoint without time: a tree per endpoint occurrence
    b = next(iter(fanout.LinkNeighborLoader(ds, [2], edge_label_index=eli[:, :5], disjoint=True,
                                            batch_size=5)))
    np.testing.assert_array_equal(b.edge_label_index, [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]])
    np.testing.assert_array_equal(b.n_id[:10], np.concatenate([eli[0, :5], eli[1, :5]]))
