"""Typed partitioned datasets from Python (docs/PYTHON.md, "Partitioned datasets"): the top
level's types, metadata, counts and splits are the whole graph's, features and labels raise
ValueError per node type (their rows are in the parts) while feature_dtype and num_classes are
the parts', a part directory opens as a typed dataset of the rows it owns, and NeighborLoader
over the partitioned dataset gives the unpartitioned batches (digests, x_dict, y) for every
method and edge direction."""

import os
import subprocess

import numpy as np
import pytest

import fanout

PA = [(0, 1), (1, 0), (2, 1), (3, 2), (3, 0), (4, 2), (5, 1)]
PP = [(0, 1), (1, 2), (2, 3), (3, 1), (4, 0), (5, 4), (5, 3)]
AX = np.arange(6, dtype=np.float32).reshape(3, 2)
AY = np.array([1, 0, 2], dtype=np.int64)
PX = (np.arange(18, dtype=np.float32).reshape(6, 3) + 100)
TRAIN = np.array([2, 0], dtype=np.int64)


@pytest.fixture(scope="module")
def typed_parts(tmp_path_factory, cli):
    base = tmp_path_factory.mktemp("typed_parts")
    (base / "pa.txt").write_text("".join(f"{s} {d}\n" for s, d in PA))
    (base / "pp.txt").write_text("".join(f"{s} {d}\n" for s, d in PP))
    for name, arr in (("ax", AX), ("ay", AY), ("px", PX), ("train", TRAIN)):
        np.save(base / f"{name}.npy", arr)
    plain = str(base / "typed.fanout")
    subprocess.run([cli, "import", "--edge-type", "paper,writes,author", str(base / "pa.txt"),
                    "--edge-type", "paper,cites,paper", str(base / "pp.txt"), "--reverse-edges",
                    "--csc", "--csr", "--features", f"author={base / 'ax.npy'}",
                    "--labels", f"author={base / 'ay.npy'}", "--features", f"paper={base / 'px.npy'}",
                    "--split", f"author:train={base / 'train.npy'}", "-o", plain], check=True,
                   stdout=subprocess.DEVNULL)
    parts = {}
    for method in ("hash", "range", "metis"):
        out = str(base / f"typed-{method}2")
        subprocess.run([cli, "partition", plain, "-n", "2", "--method", method, "-q", "-o", out],
                       check=True, stdout=subprocess.DEVNULL)
        parts[method] = out
    return plain, parts


def test_top_level(typed_parts):
    plain, parts = typed_parts
    with fanout.Dataset(plain) as g, fanout.Dataset(parts["hash"]) as ds:
        assert ds.is_typed
        assert ds.metadata() == g.metadata()
        assert ds.num_nodes_dict == g.num_nodes_dict == {"paper": 6, "author": 3}
        assert ds.num_edges_dict == g.num_edges_dict
        assert ds.edge_dirs == ["in", "out"]  # typed parts keep the CSR rows of their nodes
        author = ds["author"]
        assert author.feature_dtype == "float32" and author.num_classes == 3
        assert np.array_equal(author.split("train"), TRAIN)
        for name in ("features", "labels"):
            with pytest.raises(ValueError, match=f"is partitioned: its {name} of node type 'author' "
                               "are in its parts") as e:
                getattr(author, name)
            assert e.value.status == "FO_EINVAL"
        with pytest.raises(ValueError, match="is partitioned"):
            ds.x_dict
        assert "in the parts" in repr(ds["paper"])
    rows = {"paper": 0, "author": 0}
    for k in range(2):
        with fanout.Dataset(os.path.join(parts["hash"], f"part-{k}")) as p:
            assert p.is_typed
            for t, x in (("author", AX), ("paper", PX)):
                owned = p.array(f"n{0 if t == 'paper' else 1}.row_nodes")
                rows[t] += len(owned)
                assert np.array_equal(p[t].features, x[owned])
    assert rows == {"paper": 6, "author": 3}


@pytest.mark.parametrize("method", ["hash", "range", "metis"])
@pytest.mark.parametrize("edge_dir", ["in", "out"])
def test_loader_same_batches(typed_parts, method, edge_dir):
    plain, parts = typed_parts
    kw = dict(num_neighbors=[2, -1], batch_size=2, input_nodes=("paper", None), shuffle=True,
              seed=4, edge_dir=edge_dir)
    with fanout.Dataset(plain) as g, fanout.Dataset(parts[method]) as ds:
        want = [(b.digest(), {k: v.copy() for k, v in b.x_dict.items()}) for b in
                fanout.NeighborLoader(g, **kw)]
        got = [(b.digest(), {k: v.copy() for k, v in b.x_dict.items()}) for b in
               fanout.NeighborLoader(ds, num_workers=2, **kw)]
        assert [w[0] for w in want] == [x[0] for x in got]
        for (_, wx), (_, gx) in zip(want, got):
            assert wx.keys() == gx.keys()
            assert all(np.array_equal(wx[k], gx[k]) for k in wx)
        kw = dict(num_neighbors={("paper", "writes", "author"): [1, 1],
                                 ("paper", "cites", "paper"): [2, 0],
                                 ("author", "rev_writes", "paper"): [-1, 1]},
                  batch_size=1, input_nodes=("author", "train"), disjoint=True, seed=1)
        want = [(b.digest(), b.y.tolist()) for b in fanout.NeighborLoader(g, **kw)]
        assert [(b.digest(), b.y.tolist()) for b in fanout.NeighborLoader(ds, **kw)] == want
        assert [y for _, y in want] == [[AY[2]], [AY[0]]]
