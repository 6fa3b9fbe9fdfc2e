"""fanout.import_dataset(dir, out, format="ogb"): the CSV layout (read by the C importer), the
binary one (raw/data.npz, converted with numpy) and link prediction splits (.pt, read with
torch). The OGB directories are written here from Cora (data/cora), as OGB's download holds
them (snap-stanford/ogb ogb/io/read_graph_raw.py, ogb/io/save_dataset.py), and every array is
checked against the planetoid import of the same graph."""

import gzip
import os
import subprocess

import numpy as np
import pytest

import fanout

from conftest import cli_path, data_dir


def _csv(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with gzip.open(path, "wt") as f:
        for r in rows:
            f.write((",".join(str(v) for v in r) if isinstance(r, (tuple, list, np.ndarray)) else str(r)) + "\n")


@pytest.fixture(scope="module")
def cora(tmp_path_factory):
    """The planetoid import of Cora (directed) and its arrays."""
    tmp = tmp_path_factory.mktemp("cora")
    cdir = os.path.join(data_dir(), "cora")
    fanout.import_dataset([os.path.join(cdir, "cora.content.gz"), os.path.join(cdir, "cora.cites")],
                          tmp / "p", format="planetoid")
    ds = fanout.Dataset(tmp / "p")
    indptr, indices = np.asarray(ds.array("csc_indptr")), np.asarray(ds.array("csc_indices"))
    dst = np.repeat(np.arange(ds.num_nodes), np.diff(indptr))
    return dict(tmp=tmp, ds=ds, src=indices.astype(np.int64), dst=dst,
                x=np.asarray(ds.features), y=np.asarray(ds.labels),
                splits={s: np.asarray(ds.split(s)) for s in ("train", "val", "test")})


def _check(out, cora, splits=True, node_time=True):
    ds = fanout.Dataset(out)
    ds.verify()
    assert ds.num_nodes == 2708 and ds.num_edges == 5429
    assert np.array_equal(np.asarray(ds.array("csc_indptr")), np.asarray(cora["ds"].array("csc_indptr")))
    # node_year is the node time too, so every row is ordered (stably) by its neighbors' years
    year = 1990 + np.arange(2708) % 30
    ptr = np.asarray(cora["ds"].array("csc_indptr"))
    want, got = np.asarray(cora["ds"].array("csc_indices")), np.asarray(ds.array("csc_indices"))
    if not node_time:  # the binary layout (Python): node_year is node data only
        assert np.array_equal(got, want)
        assert "node_time" not in ds.arrays
    for v in range(2708 if node_time else 0):
        row = want[ptr[v]:ptr[v + 1]]
        assert np.array_equal(got[ptr[v]:ptr[v + 1]], row[np.argsort(year[row], kind="stable")])
    if node_time:
        assert np.array_equal(np.asarray(ds.array("node_time")), year)
    assert np.array_equal(np.asarray(ds.features), cora["x"])
    assert np.array_equal(np.asarray(ds.labels), cora["y"])
    assert np.array_equal(np.asarray(ds.array("node_year")), 1990 + np.arange(2708) % 30)
    if splits:
        for s in ("train", "val", "test"):
            assert np.array_equal(np.asarray(ds.split(s)), cora["splits"][s])
    return ds


def test_csv_layout(cora, tmp_path):
    root = tmp_path / "ogbn_cora"
    _csv(root / "raw/num-node-list.csv.gz", [2708])
    _csv(root / "raw/num-edge-list.csv.gz", [5429])
    _csv(root / "raw/edge.csv.gz", zip(cora["src"], cora["dst"]))
    _csv(root / "raw/node-feat.csv.gz", (",".join(f"{v:.9g}" for v in row) for row in cora["x"]))
    _csv(root / "raw/node-label.csv.gz", cora["y"])
    _csv(root / "raw/node_year.csv.gz", 1990 + np.arange(2708) % 30)
    for stem, name in (("train", "train"), ("valid", "val"), ("test", "test")):
        _csv(root / f"split/time/{stem}.csv.gz", cora["splits"][name])
    rep = fanout.import_dataset(root, tmp_path / "g", format="ogb")
    assert rep["num_nodes"] == 2708 and rep["num_edges"] == 5429
    _check(tmp_path / "g", cora)
    rep = fanout.import_dataset(root, tmp_path / "u", format="ogb", undirected=True)
    assert rep["num_edges"] == 10556
    with pytest.raises(fanout.FormatError, match=r"edge\.csv\.gz:3: node id 'x' is not an integer"):
        _csv(root / "raw/edge.csv.gz", [(0, 1), (1, 2), (2, "x")])
        fanout.import_dataset(root, tmp_path / "bad", format="ogb")
    assert not os.path.exists(tmp_path / "bad")


def test_binary_layout(cora, tmp_path):
    """ogbn-papers100M's layout: raw/data.npz, raw/node-label.npz (float, NaN = no label)."""
    root = tmp_path / "ogbn_cora_bin"
    os.makedirs(root / "raw")
    np.savez_compressed(root / "raw/data.npz", edge_index=np.stack([cora["src"], cora["dst"]]),
                        num_nodes_list=np.array([2708]), num_edges_list=np.array([5429]),
                        node_feat=cora["x"], node_year=(1990 + np.arange(2708) % 30)[:, None])
    y = cora["y"].astype(np.float32)
    y[:5] = np.nan
    np.savez_compressed(root / "raw/node-label.npz", node_label=y[:, None])
    for stem, name in (("train", "train"), ("valid", "val"), ("test", "test")):
        _csv(root / f"split/time/{stem}.csv.gz", cora["splits"][name])
    # the CLI refuses it, naming the Python importer
    r = subprocess.run([cli_path(), "import", "--format", "ogb", str(root), "-o", str(tmp_path / "c")],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "binary OGB dataset (raw/data.npz" in r.stderr, r.stderr
    assert "FO_ENOSYS" in r.stderr and "fanout.import_dataset" in r.stderr
    fanout.import_dataset(root, tmp_path / "g", format="ogb")
    ds = fanout.Dataset(tmp_path / "g")
    want = cora["y"].copy()
    want[:5] = -1
    assert np.array_equal(np.asarray(ds.labels), want)
    cora = dict(cora, y=want)
    _check(tmp_path / "g", cora, node_time=False)
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".fanout-ogb-")]


def test_link_splits(cora, tmp_path):
    """ogbl-style: split/<scheme>/{train,valid,test}.pt, dicts of tensors (torch.save)."""
    torch = pytest.importorskip("torch")
    root = tmp_path / "ogbl_cora"
    _csv(root / "raw/num-node-list.csv.gz", [2708])
    _csv(root / "raw/num-edge-list.csv.gz", [5429])
    _csv(root / "raw/edge.csv.gz", zip(cora["src"], cora["dst"]))
    _csv(root / "raw/node-feat.csv.gz", (",".join(f"{v:.9g}" for v in row) for row in cora["x"]))
    _csv(root / "raw/node-label.csv.gz", cora["y"])
    _csv(root / "raw/node_year.csv.gz", 1990 + np.arange(2708) % 30)
    e = torch.from_numpy(np.stack([cora["src"], cora["dst"]], 1))
    os.makedirs(root / "split/throughput")
    torch.save({"edge": e[:4000]}, root / "split/throughput/train.pt")
    torch.save({"edge": e[4000:4500], "edge_neg": e[:500].flip(1),
                "weight": torch.ones(500)}, root / "split/throughput/valid.pt")
    torch.save({"edge": e[4500:]}, root / "split/throughput/test.pt")
    with pytest.warns(RuntimeWarning, match="'weight'"):
        fanout.import_dataset(root, tmp_path / "g", format="ogb")
    ds = _check(tmp_path / "g", cora, splits=False)
    assert np.array_equal(np.asarray(ds.array("train_edge")), e[:4000].numpy())
    assert np.array_equal(np.asarray(ds.array("valid_edge_neg")), e[:500].flip(1).numpy())
    assert np.asarray(ds.array("test_edge")).shape == (929, 2)
    assert "valid_weight" not in ds.arrays


def test_link_splits_without_torch(cora, tmp_path, monkeypatch):
    """Without torch the .pt splits are left out with a warning, and the graph still imports."""
    import fanout._ogb as ogb
    root = tmp_path / "ogbl_tiny"
    _csv(root / "raw/num-node-list.csv.gz", [3])
    _csv(root / "raw/num-edge-list.csv.gz", [2])
    _csv(root / "raw/edge.csv.gz", [(0, 1), (1, 2)])
    os.makedirs(root / "split/s")
    (root / "split/s/train.pt").write_bytes(b"not a pickle")
    real = ogb.importlib.util.find_spec
    monkeypatch.setattr(ogb.importlib.util, "find_spec",
                        lambda name, *a: None if name == "torch" else real(name, *a))
    with pytest.warns(RuntimeWarning, match="torch is not installed"):
        rep = fanout.import_dataset(root, tmp_path / "g", format="ogb")
    assert rep["num_edges"] == 2
    assert fanout.Dataset(tmp_path / "g").splits == []
