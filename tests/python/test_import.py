"""fanout.import_dataset / import_edges: reports, options, errors, Ctrl-C."""

import gzip
import os
import signal
import threading
import time

import numpy as np
import pytest

import fanout
from conftest import data_dir


def test_planetoid_report(tmp_path):
    cora = os.path.join(data_dir(), "cora")
    rep = fanout.import_dataset([os.path.join(cora, "cora.content.gz"),
                                 os.path.join(cora, "cora.cites")],
                                tmp_path / "c", format="planetoid", undirected=True)
    assert rep == {"output": str(tmp_path / "c"), "num_nodes": 2708, "num_edges": 10556,
                   "input_edges": 5429, "self_loops_removed": 0, "reverse_added": 5429,
                   "duplicates_removed": 302, "unknown_nodes": 0, "unknown_edges_dropped": 0,
                   "isolated_nodes": 0}


def test_edgelist_options(tmp_path):
    f = tmp_path / "g.txt.gz"
    with gzip.open(f, "wt") as fh:
        fh.write("# comment\n0 1\n1 2\n1 2\n2 2\n5 0\n")
    rep = fanout.import_dataset(f, tmp_path / "a", dedup=True, remove_self_loops=True,
                                csc=False, csr=True, index_dtype="int64")
    assert rep["num_nodes"] == 6 and rep["num_edges"] == 3
    assert rep["self_loops_removed"] == 1 and rep["duplicates_removed"] == 1
    assert rep["isolated_nodes"] == 2
    with fanout.Dataset(tmp_path / "a") as ds:
        assert ds.edge_dirs == ["out"]
        assert ds.array("csr_indices").dtype == np.int64
    rep = fanout.import_dataset([f], tmp_path / "b", relabel=True)
    assert rep["num_nodes"] == 4  # ids 0, 1, 2, 5
    with fanout.Dataset(tmp_path / "b") as ds:
        assert list(ds.array("node_orig")) == [0, 1, 2, 5]


def test_string_ids_and_columns(tmp_path):
    f = tmp_path / "words.txt"
    f.write_text("w1 n02084071 n01503061\nw2 n01503061 x-7\nw3 x-7 n02084071\n")
    rep = fanout.import_dataset(f, tmp_path / "s", string_ids=True, columns=(1, 2))
    assert rep["num_nodes"] == 3 and rep["num_edges"] == 3
    with fanout.Dataset(tmp_path / "s") as ds:
        assert list(ds.array("node_orig")) == [b"n02084071", b"n01503061", b"x-7"]
    with pytest.raises(fanout.FormatError, match="columns 1 and 5, got 3 columns"):
        fanout.import_dataset(f, tmp_path / "t", string_ids=True, columns=(1, 5))
    with pytest.raises(fanout.FormatError, match="'w1' is not an integer node id"):
        fanout.import_dataset(f, tmp_path / "u")
    with pytest.raises(TypeError, match="columns: expected two ints"):
        fanout.import_dataset(f, tmp_path / "v", columns=(1,))
    assert not any(p.name in ("t", "u", "v") for p in tmp_path.iterdir())


def test_import_edges_with_node_data(tmp_path):
    src = np.array([0, 1, 2, 3], dtype=np.int32)
    dst = np.array([1, 2, 3, 0], dtype=np.int32)
    np.save(tmp_path / "y.npy", np.array([0, 1, -1, 1], dtype=np.int64))
    np.save(tmp_path / "tr.npy", np.array([0, 1], dtype=np.int64))
    rep = fanout.import_edges(src, dst, tmp_path / "g", undirected=True, labels=tmp_path / "y.npy",
                              split={"train": tmp_path / "tr.npy"})
    assert rep["num_nodes"] == 4 and rep["num_edges"] == 8
    with fanout.Dataset(tmp_path / "g") as ds:
        assert list(ds.labels) == [0, 1, -1, 1] and list(ds.split("train")) == [0, 1]
        assert ds.features is None and ds.num_classes == 2


def test_errors(tmp_path):
    with pytest.raises(OSError, match="missing.txt") as e:
        fanout.import_dataset(tmp_path / "missing.txt", tmp_path / "o")
    assert e.value.status == "FO_EIO"
    bad = tmp_path / "bad.txt"
    bad.write_text("0 1\n1 x\n")
    with pytest.raises(fanout.FormatError, match="bad.txt") as e:
        fanout.import_dataset(bad, tmp_path / "o")
    assert isinstance(e.value, ValueError) and "2" in str(e.value)  # the line number
    assert not os.path.exists(tmp_path / "o")  # atomic: nothing left behind
    good = tmp_path / "good.txt"
    good.write_text("0 1\n")
    fanout.import_dataset(good, tmp_path / "o")
    with pytest.raises(ValueError, match="exists|force"):
        fanout.import_dataset(good, tmp_path / "o")
    fanout.import_dataset(good, tmp_path / "o", force=True)
    with pytest.raises(ValueError, match="bogus"):
        fanout.import_dataset(good, tmp_path / "p", format="bogus")
    with pytest.raises(ValueError, match="index_dtype"):
        fanout.import_dataset(good, tmp_path / "p", index_dtype="int16")
    with pytest.raises(ValueError, match="feature_dtype"):
        fanout.import_dataset(good, tmp_path / "p", feature_dtype="int4")
    with pytest.raises(ValueError) as e:
        fanout.import_edges([0, -1], [1, 0], tmp_path / "p")
    assert e.value.status == "FO_ERANGE"
    with pytest.raises(ValueError, match="edges"):
        fanout.import_edges([0, 1], [1], tmp_path / "p")
    with pytest.raises(TypeError):
        fanout.import_edges([0.5], [1.0], tmp_path / "p")


def test_import_releases_the_gil(tmp_path):
    """Another Python thread runs while an import works."""
    rng = np.random.default_rng(1)
    n = 300_000
    src, dst = rng.integers(0, n, 2_000_000), rng.integers(0, n, 2_000_000)
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.005)

    t = threading.Thread(target=ticker)
    t.start()
    t0 = time.perf_counter()
    fanout.import_edges(src, dst, tmp_path / "g", num_nodes=n, undirected=True)
    t1 = time.perf_counter()
    done.set()
    t.join()
    inside = [x for x in ticks if t0 < x < t1]
    assert t1 - t0 < 0.05 or len(inside) >= 3


def test_ctrl_c_cancels_import(tmp_path):
    rng = np.random.default_rng(2)
    n = 500_000
    src, dst = rng.integers(0, n, 4_000_000), rng.integers(0, n, 4_000_000)
    out = tmp_path / "g"
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            fanout.import_edges(src, dst, out, num_nodes=n, undirected=True)
            # Finished before the signal: wait for it here (still inside the raises block).
            time.sleep(5)
    finally:
        timer.cancel()
    assert not os.path.exists(out) or os.path.exists(out / "fanout.json")
    leftovers = [p for p in os.listdir(tmp_path) if p != "g"]
    assert leftovers == []  # no temporary directory left behind
