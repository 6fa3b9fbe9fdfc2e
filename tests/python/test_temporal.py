"""Temporal sampling from Python: NeighborLoader(time_attr="edge" | "node",
temporal_strategy="uniform" | "last", input_time=...) (PyG's names) on a small timed graph
imported with --time-col and --node-time, checked edge by edge: every sampled edge of seed i's
tree is eligible at input_time[i], "last" takes exactly the most recent ones, batch.input_time
and to_dict()["seed_time"] carry the seed times, and bad arguments raise with the reason."""

import subprocess

import numpy as np
import pytest

import fanout

# a star into node 0 plus a chain, with times; node times for node mode
EDGES = [(1, 0, 10), (2, 0, 20), (3, 0, 30), (4, 0, 30), (5, 0, 50), (2, 1, 5), (3, 2, 25),
         (4, 3, 40), (5, 4, 1), (0, 5, 60)]
NODE_TIME = np.array([0, 10, 20, 30, 40, 50], dtype=np.int64)


@pytest.fixture(scope="module")
def timed(tmp_path_factory, cli):
    base = tmp_path_factory.mktemp("temporal")
    (base / "e.txt").write_text("".join(f"{s} {d} {t}\n" for s, d, t in EDGES))
    np.save(base / "nt.npy", NODE_TIME)
    out = str(base / "ds")
    subprocess.run([cli, "import", str(base / "e.txt"), "--time-col", "2", "--node-time",
                    str(base / "nt.npy"), "-o", out, "-q"], check=True)
    return fanout.Dataset(out)


def edge_time(u, v):
    return [t for s, d, t in EDGES if s == u and d == v][0]


@pytest.mark.parametrize("strategy", ["uniform", "last"])
@pytest.mark.parametrize("attr", ["edge", "node"])
def test_no_future_edges(timed, strategy, attr):
    seeds = np.array([0, 0, 1, 2, 3, 4, 5, 0], dtype=np.int64)
    times = np.array([25, 100, 7, 26, 45, 2, 61, 30], dtype=np.int64)
    loader = fanout.NeighborLoader(timed, [3, 2], batch_size=4, input_nodes=seeds,
                                   input_time=times, time_attr=attr,
                                   temporal_strategy=strategy, num_workers=2, features=False,
                                   labels=False)
    n = 0
    for b in loader:
        assert list(b.input_time) == list(times[b.input_id])
        assert list(b.to_dict()["seed_time"]) == list(times[b.input_id])
        assert b.batch is not None  # temporal sampling is disjoint
        for r, c in zip(b.row, b.col):
            tree = b.batch[c]
            t = b.input_time[tree]
            u, v = b.node[r], b.node[c]  # the edge u -> v (edge_dir in)
            got = edge_time(u, v) if attr == "edge" else NODE_TIME[u]
            assert got <= t
            assert b.batch[r] == tree
            n += 1
    assert n > 0


def test_last_is_most_recent(timed):
    # node 0's in-edges: 1 (10), 2 (20), 3 (30), 4 (30), 5 (50); at 30: the two most recent
    # eligible are 3 and 4 (both 30, in input order)
    loader = fanout.NeighborLoader(timed, [2], batch_size=1, input_nodes=[0], input_time=[30],
                                   time_attr="edge", temporal_strategy="last", num_workers=0,
                                   features=False, labels=False)
    b = next(iter(loader))
    assert sorted(b.node[b.row].tolist()) == [3, 4]


def test_default_seed_times_are_node_times(timed):
    loader = fanout.NeighborLoader(timed, [-1], batch_size=6, time_attr="edge", num_workers=0,
                                   features=False, labels=False)
    b = next(iter(loader))
    assert list(b.input_time) == list(NODE_TIME[b.node[:6]])


@pytest.mark.parametrize("kw,exc,text", [
    (dict(time_attr="time"), ValueError, "time_attr: expected 'edge'"),
    (dict(time_attr="edge", temporal_strategy="recent"), ValueError, "temporal_strategy"),
    (dict(input_time=[1]), ValueError, "input_time needs time_attr"),
    (dict(time_attr="edge", input_time=[1, 2], input_nodes=[0]), ValueError, "2 times for 1"),
    (dict(time_attr="edge", input_time=[1]), ValueError, "give input_nodes as node ids"),
    (dict(time_attr="edge", input_time=[0.5], input_nodes=[0]), TypeError, "integer times"),
    (dict(time_attr="edge", input_time=np.array([2 ** 63], dtype=np.uint64), input_nodes=[0]),
     ValueError, "input_time[0] = 9223372036854775808 does not fit in int64"),
])
def test_errors(timed, kw, exc, text):
    with pytest.raises(exc) as e:
        fanout.NeighborLoader(timed, [2], **kw)
    assert text in str(e.value)


def test_no_times_is_an_error(cli, tmp_path):
    (tmp_path / "e.txt").write_text("1 0\n")
    subprocess.run([cli, "import", str(tmp_path / "e.txt"), "-o", str(tmp_path / "ds"), "-q"],
                   check=True)
    ds = fanout.Dataset(str(tmp_path / "ds"))
    with pytest.raises(ValueError, match="stores no edge times"):
        fanout.NeighborLoader(ds, [2], time_attr="edge")


def test_weighted_temporal(cli, tmp_path):
    # weights among the eligible edges: at time 35 edges 1 (w 1), 2 (w 0) and 3 (w 5) are
    # eligible, 4 and 5 (w 1000) are not; fanout 2 = the positive eligible edges: exactly 1, 3
    edges = [(1, 0, 10, 1), (2, 0, 20, 0), (3, 0, 30, 5), (4, 0, 40, 2), (5, 0, 50, 1000)]
    (tmp_path / "e.txt").write_text("".join(f"{s} {d} {t} {w}\n" for s, d, t, w in edges))
    subprocess.run([cli, "import", str(tmp_path / "e.txt"), "--time-col", "2", "--weight-col",
                    "3", "-o", str(tmp_path / "ds"), "-q"], check=True)
    ds = fanout.Dataset(str(tmp_path / "ds"))
    seeds = np.zeros(8, dtype=np.int64)
    for replace, k in ((False, 2), (True, 3)):
        loader = fanout.NeighborLoader(ds, [k], batch_size=4, input_nodes=seeds,
                                       input_time=np.full(8, 35, dtype=np.int64),
                                       time_attr="edge", weighted=True, replace=replace,
                                       features=False, labels=False)
        for b in loader:
            got = {}
            for r, c in zip(b.row, b.col):
                got.setdefault(int(b.batch[c]), []).append(int(b.node[r]))
            assert len(got) == 4
            for tree, nbrs in got.items():
                assert len(nbrs) == k and set(nbrs) <= {1, 3}
                if not replace:
                    assert sorted(nbrs) == [1, 3]
    with pytest.raises(Exception, match="weighted applies to temporal uniform"):
        next(iter(fanout.NeighborLoader(ds, [2], input_nodes=seeds, time_attr="edge",
                                        temporal_strategy="last", weighted=True,
                                        input_time=np.full(8, 35, dtype=np.int64))))


def test_import_time_options(tmp_path):
    """import_dataset(edge_time=, node_time=, time_col=, time_format=, edge_weight=,
    weight_col=): the CLI's options; the same dataset either way, errors name file and line."""
    text = "".join(f"{s} {d} {t}\n" for s, d, t in EDGES)
    (tmp_path / "e.txt").write_text(text)
    (tmp_path / "e2.txt").write_text("".join(f"{s} {d}\n" for s, d, _ in EDGES))
    np.save(tmp_path / "t.npy", np.array([t for _, _, t in EDGES], dtype=np.int64))
    np.save(tmp_path / "w.npy", np.array([1.0 + t for _, _, t in EDGES], dtype=np.float32))
    np.save(tmp_path / "nt.npy", NODE_TIME)
    a = fanout.import_dataset(tmp_path / "e.txt", tmp_path / "a", time_col=2,
                              node_time=tmp_path / "nt.npy", csr=True)
    b = fanout.import_dataset(tmp_path / "e2.txt", tmp_path / "b", edge_time=tmp_path / "t.npy",
                              node_time=tmp_path / "nt.npy", edge_weight=tmp_path / "w.npy", csr=True)
    assert a["num_edges"] == b["num_edges"] == len(EDGES)
    da, db = fanout.Dataset(tmp_path / "a"), fanout.Dataset(tmp_path / "b")
    assert np.array_equal(da.array("csc_time"), db.array("csc_time"))
    assert np.array_equal(da.array("node_time"), NODE_TIME)
    assert db.array("csc_weight").dtype == np.float32 and len(db.array("csc_weight")) == len(EDGES)
    (tmp_path / "iso.txt").write_text("0 1 2020-01-02\n1 2 2020-01-01T12:00\n")
    fanout.import_dataset(tmp_path / "iso.txt", tmp_path / "c", time_col=2, time_format="iso8601")
    assert list(fanout.Dataset(tmp_path / "c").array("csc_time")) == [1577923200, 1577880000]
    (tmp_path / "bad.txt").write_text("0 1 5\n1 2 soon\n")
    with pytest.raises(fanout.FormatError, match="bad.txt:2: time 'soon'"):
        fanout.import_dataset(tmp_path / "bad.txt", tmp_path / "d", time_col=2)
    assert not (tmp_path / "d").exists()
    with pytest.raises(ValueError, match="time_format: 'rfc' is not unix or iso8601"):
        fanout.import_dataset(tmp_path / "e.txt", tmp_path / "d", time_col=2, time_format="rfc")
    (tmp_path / "wbad.txt").write_text("0 1 0.5\n1 2 -1\n")
    with pytest.raises(Exception, match="wbad.txt:2"):
        fanout.import_dataset(tmp_path / "wbad.txt", tmp_path / "d", weight_col=2)
    with pytest.raises(ValueError, match="a typed import takes one file per edge type"):
        fanout.import_dataset(None, tmp_path / "d", edge_types={("a", "r", "b"): tmp_path / "e2.txt"},
                              edge_time=tmp_path / "t.npy")


def test_typed_time_and_weight_files(tmp_path, cli):
    """import_dataset(edge_types=..., edge_weight={type: file}, edge_time={type: file},
    node_time={type: file}): the CLI's --edge-weight/--edge-time S__R__D=F, --node-time TYPE=F;
    the same dataset as the CLI makes, and errors naming the type."""
    (tmp_path / "e2.txt").write_text("".join(f"{s} {d}\n" for s, d, _ in EDGES))
    n = max(max(s, d) for s, d, _ in EDGES) + 1
    np.save(tmp_path / "t.npy", np.array([t for _, _, t in EDGES], dtype=np.int64))
    np.save(tmp_path / "w.npy", np.array([1.0 + t for _, _, t in EDGES], dtype=np.float32))
    np.save(tmp_path / "nt.npy", np.arange(n, dtype=np.int64) * 3)
    et = {("a", "r", "a"): tmp_path / "e2.txt"}
    fanout.import_dataset(None, tmp_path / "p", edge_types=et,
                          edge_weight={("a", "r", "a"): tmp_path / "w.npy"},
                          edge_time={"a__r__a": tmp_path / "t.npy"},
                          node_time={"a": tmp_path / "nt.npy"}, csr=True)
    subprocess.run([cli, "import", "--edge-type", "a,r,a", str(tmp_path / "e2.txt"), "-o",
                    str(tmp_path / "c"), "--edge-weight", f"a__r__a={tmp_path / 'w.npy'}",
                    "--edge-time", f"a__r__a={tmp_path / 't.npy'}", "--node-time",
                    f"a={tmp_path / 'nt.npy'}", "--csc", "--csr"], check=True, capture_output=True)
    dp, dc = fanout.Dataset(tmp_path / "p"), fanout.Dataset(tmp_path / "c")
    names = [a for a in dc.arrays if a.endswith(("_time", "_weight", "weight_alias"))]
    assert any(a.endswith("csc_time") for a in names) and any(a.endswith("csc_weight") for a in names)
    assert any(a.endswith("node_time") for a in names)
    for a in names:
        assert np.array_equal(dp.array(a), dc.array(a)), a
    # sampling by weight and time over the typed dataset from Python
    for kw in (dict(time_attr="edge"), dict(time_attr="node")):
        loader = fanout.NeighborLoader(dp, [3, 2], batch_size=4, input_nodes=("a", None),
                                       weighted=True, temporal_strategy="uniform", **kw)
        assert sum(1 for _ in loader) > 0
    with pytest.raises(ValueError, match="a__x__a"):
        fanout.import_dataset(None, tmp_path / "q", edge_types=et,
                              edge_weight={"a__x__a": tmp_path / "w.npy"})
    assert not (tmp_path / "q").exists()
    with pytest.raises(ValueError, match="zz"):
        fanout.import_dataset(None, tmp_path / "q", edge_types=et, node_time={"zz": tmp_path / "nt.npy"})
    with pytest.raises(ValueError, match="one file per node type"):
        fanout.import_dataset(None, tmp_path / "q", edge_types=et, node_time=tmp_path / "nt.npy")


@pytest.mark.parametrize("attr", ["edge", "node"])
def test_partitioned_equals_plain(tmp_path, cli, attr):
    """Temporal (and weighted) NeighborLoader over a partitioned dataset: the unpartitioned
    batches (node times at the partitioned dataset's top level, edge times and weights in the
    parts)."""
    rng = np.random.default_rng(3)
    n, m = 200, 3000
    src, dst = rng.integers(0, n, m), rng.integers(0, n // 4, m)
    (tmp_path / "g.txt").write_text("".join(f"{s} {d} {t}\n" for s, d, t in
                                            zip(src, dst, rng.integers(0, 1000, m))))
    np.save(tmp_path / "nt.npy", rng.integers(0, 1000, n).astype(np.int64))
    np.save(tmp_path / "w.npy", rng.uniform(0, 5, m).astype(np.float32))
    fanout.import_dataset(tmp_path / "g.txt", tmp_path / "g", time_col=2, num_nodes=n,
                          node_time=tmp_path / "nt.npy", edge_weight=tmp_path / "w.npy")
    subprocess.run([cli, "partition", str(tmp_path / "g"), "-n", "3", "-o", str(tmp_path / "p"),
                    "-q"], check=True)
    plain, parts = fanout.Dataset(tmp_path / "g"), fanout.Dataset(tmp_path / "p")
    seeds = rng.integers(0, n, 64)
    times = rng.integers(0, 1000, 64)

    def batches(d, **kw):
        return [(list(b.node), list(b.row), list(b.col), list(b.edge)) for b in
                fanout.NeighborLoader(d, [4, 3], batch_size=16, input_nodes=seeds, features=False,
                                      labels=False, num_workers=2, **kw)]

    kw = dict(input_time=times, time_attr=attr, temporal_strategy="last" if attr == "node" else "uniform")
    assert batches(plain, **kw) == batches(parts, **kw)
    assert batches(plain, weighted=True) == batches(parts, weighted=True)
    if attr == "edge":  # weighted temporal: weights among the eligible edges, over parts too
        assert batches(plain, weighted=True, **kw) == batches(parts, weighted=True, **kw)
