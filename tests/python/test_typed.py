"""Typed (heterogeneous) datasets from Python: Dataset.node_types / edge_types / metadata() /
ds[type], NeighborLoader(input_nodes=(type, ...), num_neighbors={edge type: [...]}) and the
typed batch's *_dict fields, on a tiny paper/author graph whose arrays are known, checked
against a slow reference sampler written here (fanout -1: every in-edge of every frontier
node, hop by hop, per edge type)."""

import os
import subprocess

import numpy as np
import pytest

import fanout

# paper -> author ("writes") and paper -> paper ("cites"); --reverse-edges adds
# author -> paper ("rev_writes") only (no reverse for src == dst types).
PA = [(0, 1), (1, 0), (2, 1), (3, 2), (3, 0)]
PP = [(0, 1), (1, 2), (2, 3), (3, 1)]
AX = np.arange(6, dtype=np.float32).reshape(3, 2)
AY = np.array([1, 0, 2], dtype=np.int64)
PX = (np.arange(12, dtype=np.float32).reshape(4, 3) + 100)
TRAIN = np.array([2, 0], dtype=np.int64)
VAL = np.array([1], dtype=np.int64)
PW = ("paper", "writes", "author")
PC = ("paper", "cites", "paper")
AR = ("author", "rev_writes", "paper")
EDGES = {PW: PA, PC: PP, AR: [(a, p) for p, a in PA]}


@pytest.fixture(scope="session")
def typed_dir(tmp_path_factory, cli):
    base = tmp_path_factory.mktemp("typed")
    (base / "pa.txt").write_text("".join(f"{s} {d}\n" for s, d in PA))
    (base / "pp.txt").write_text("".join(f"{s} {d}\n" for s, d in PP))
    for name, arr in (("ax", AX), ("ay", AY), ("px", PX), ("train", TRAIN), ("val", VAL)):
        np.save(base / f"{name}.npy", arr)
    out = str(base / "typed.fanout")
    subprocess.run([cli, "import", "--edge-type", "paper,writes,author", str(base / "pa.txt"),
                    "--edge-type", "paper,cites,paper", str(base / "pp.txt"), "--reverse-edges",
                    "--csc", "--csr",
                    "--features", f"author={base / 'ax.npy'}", "--labels", f"author={base / 'ay.npy'}",
                    "--features", f"paper={base / 'px.npy'}",
                    "--split", f"author:train={base / 'train.npy'},val={base / 'val.npy'}",
                    "-o", out], check=True, stdout=subprocess.DEVNULL)
    return out


@pytest.fixture()
def ds(typed_dir):
    d = fanout.Dataset(typed_dir)
    yield d
    d.close()


def reference(seeds, seed_type, hops, edge_dir="in"):
    """All-neighbors sampling: per type the node ids in discovery order (edge types in dataset
    order, frontier nodes in order, each one's neighbors in input order), and per edge type
    the set of sampled (src id, dst id) pairs."""
    nodes = {"paper": [], "author": []}
    nodes[seed_type] = list(seeds)
    frontier = {"paper": [], "author": []}
    frontier[seed_type] = list(dict.fromkeys(seeds))
    got = {et: set() for et in EDGES}
    for _ in range(hops):
        new = {"paper": [], "author": []}
        for et, edges in EDGES.items():
            src, _, dst = et
            fr, nb = (dst, src) if edge_dir == "in" else (src, dst)
            for v in frontier[fr]:  # frontier order, then each node's edges in input order
                for s, d in edges:
                    f, n = (d, s) if edge_dir == "in" else (s, d)
                    if f == v:
                        got[et].add((s, d))
                        if n not in nodes[nb] and n not in new[nb]:
                            new[nb].append(n)
        for t in nodes:
            nodes[t] += new[t]
        frontier = new
    return nodes, got


def test_dataset_types(ds):
    assert ds.is_typed
    assert ds.node_types == ["paper", "author"]
    assert ds.edge_types == [PW, PC, AR]
    assert ds.metadata() == (["paper", "author"], [PW, PC, AR])
    assert ds.num_nodes_dict == {"paper": 4, "author": 3}
    assert ds.num_edges_dict == {PW: 5, PC: 4, AR: 5}
    a = ds["author"]
    assert a.name == "author" and a.num_nodes == 3 and a.num_classes == 3
    np.testing.assert_array_equal(a.features, AX)
    assert a.x is a.features and a.feature_dtype == "float32"
    np.testing.assert_array_equal(a.labels, AY)
    assert a.splits == ["train", "val"]
    np.testing.assert_array_equal(a.split("train"), TRAIN)
    np.testing.assert_array_equal(a.split("val"), VAL)
    with pytest.raises(ValueError, match="no split 'test'.*train, val"):
        a.split("test")
    p = ds["paper"]
    np.testing.assert_array_equal(p.features, PX)
    assert p.labels is None and p.num_classes is None and p.splits == []
    assert set(ds.x_dict) == {"paper", "author"} and set(ds.y_dict) == {"author"}
    for arr in (a.features, a.labels, a.split("train"), p.features):
        assert not arr.flags.writeable and not arr.flags.owndata
    e = ds["paper", "writes", "author"]
    assert (e.src, e.rel, e.dst, e.num_edges, e.name) == ("paper", "writes", "author", 5,
                                                          "paper__writes__author")
    assert ds["paper__cites__paper"].num_edges == 4 and ds["rev_writes"].edge_type == AR
    with pytest.raises(KeyError, match="'venue' is not a node type.*paper"):
        ds["venue"]
    with pytest.raises(KeyError, match="not an edge type"):
        ds["paper", "likes", "author"]


def test_views_outlive_close(typed_dir):
    d = fanout.Dataset(typed_dir)
    x = d["author"].features
    d.close()
    np.testing.assert_array_equal(x, AX)  # the view keeps the files mapped


def test_version1_dataset(cora):
    assert not cora.is_typed
    assert cora.node_types == ["node"] and cora.edge_types == [("node", "to", "node")]
    assert cora.num_nodes_dict == {"node": 2708}
    np.testing.assert_array_equal(cora["node"].features, cora.features)
    loader = fanout.NeighborLoader(cora, [5], batch_size=4)
    b = next(iter(loader))
    assert b.node_types is None and b.input_type is None and loader.input_type is None
    with pytest.raises(AttributeError, match="node_dict"):
        b.node_dict
    assert b.node.shape[0] == b.num_nodes  # today's flat API unchanged
    # the dict form with the one edge type is the list form
    l2 = fanout.NeighborLoader(cora, {("node", "to", "node"): [5]}, batch_size=4)
    assert next(iter(l2)).digest() == b.digest()


@pytest.mark.parametrize("input_nodes,seeds", [
    (("author", "train"), TRAIN), (("author", [1, 2]), [1, 2]),
    (("author", np.array([True, False, True])), [0, 2]), ("author", [0, 1, 2]),
    (("author", None), [0, 1, 2])])
def test_batch_matches_reference(ds, input_nodes, seeds):
    loader = fanout.NeighborLoader(ds, num_neighbors=[-1, -1], batch_size=8,
                                   input_nodes=input_nodes, num_workers=0)
    assert loader.input_type == "author"
    b = next(iter(loader))
    nodes, edges = reference(list(seeds), "author", 2)
    assert b.node_types == ["paper", "author"] and b.edge_types == [PW, PC, AR]
    assert b.input_type == "author" and b.batch_size == len(seeds)
    nd = b.node_dict
    assert set(nd) == {"paper", "author"}
    for t in nd:
        assert nd[t].tolist() == nodes[t], t
        assert b.num_sampled_nodes_dict[t].sum() == len(nodes[t])
        assert b.num_sampled_nodes_dict[t].shape == (3,)
    assert b.num_sampled_nodes_dict["author"][0] == len(seeds)
    np.testing.assert_array_equal(b.n_id_dict["author"], nd["author"])
    ei = b.edge_index_dict
    assert set(ei) == {PW, PC, AR}
    for et in EDGES:
        src, _, dst = et
        row, col = b.row_dict[et], b.col_dict[et]
        np.testing.assert_array_equal(ei[et], np.stack([row, col]))
        pairs = {(int(nd[src][r]), int(nd[dst][c])) for r, c in zip(row, col)}
        assert pairs == edges[et], et
        assert len(row) == len(edges[et])  # each edge once
        e = b.edge_dict[et]
        assert len(set(e.tolist())) == len(e) and (e >= 0).all() and (e < ds.num_edges_dict[et]).all()
        np.testing.assert_array_equal(b.e_id_dict[et], e)
        assert b.num_sampled_edges_dict[et].sum() == len(row)
    x = b.x_dict
    np.testing.assert_array_equal(x["author"], AX[nd["author"]])
    np.testing.assert_array_equal(x["paper"], PX[nd["paper"]])
    assert b.x_dtype_dict == {"paper": "float32", "author": "float32"}
    np.testing.assert_array_equal(b.y, AY[np.asarray(seeds)])
    np.testing.assert_array_equal(b.y_dict["author"], b.y)
    np.testing.assert_array_equal(b.input_id, np.arange(len(seeds)))
    assert b.batch_dict is None


def test_edge_dir_out(ds):
    b = next(iter(fanout.NeighborLoader(ds, [-1, -1], batch_size=2, edge_dir="out",
                                        input_nodes=("paper", [0, 3]), num_workers=0)))
    nodes, edges = reference([0, 3], "paper", 2, edge_dir="out")
    for t in b.node_dict:
        assert b.node_dict[t].tolist() == nodes[t]
    for et in EDGES:
        src, _, dst = et
        # edge_dir "out": row_dict still indexes node_dict[src], col_dict node_dict[dst]
        # (the sampler's row is the neighbor, here the dst side: the module swaps them)
        pairs = {(int(b.node_dict[src][r]), int(b.node_dict[dst][c]))
                 for r, c in zip(b.row_dict[et], b.col_dict[et])}
        assert pairs == edges[et], et
        np.testing.assert_array_equal(b.edge_index_dict[et],
                                      np.stack([b.row_dict[et], b.col_dict[et]]))


def test_zero_copy_and_read_only(ds):
    torch = pytest.importorskip("torch")
    b = next(iter(fanout.NeighborLoader(ds, [-1, -1], batch_size=2,
                                        input_nodes=("author", "train"))))
    views = [*b.node_dict.values(), *b.row_dict.values(), *b.col_dict.values(),
             *b.edge_dict.values(), *b.num_sampled_nodes_dict.values(),
             *b.num_sampled_edges_dict.values(), *b.x_dict.values(), b.y, b.input_id]
    for v in views:
        assert v.base is b and not v.flags.writeable
        with pytest.raises(ValueError):
            v[...] = 0
    a = b.node_dict["author"]
    assert fanout.as_tensor(a).data_ptr() == a.ctypes.data
    assert b.node_dict["author"].ctypes.data == a.ctypes.data  # same memory on each access
    for v in b.edge_index_dict.values():  # the one copy, cached
        assert not v.flags.writeable
    assert b.edge_index_dict[PW] is b.edge_index_dict[PW]
    for name in ("node", "row", "col", "edge", "x", "edge_index", "num_sampled_nodes",
                 "num_sampled_edges", "batch"):
        with pytest.raises(AttributeError, match=f"no '{name}'.*_dict"):
            getattr(b, name)
    del b
    x = views[0]
    assert x.base.batch_size == 2  # a view keeps its batch


def test_to_dict_and_to_torch(ds):
    torch = pytest.importorskip("torch")
    b = next(iter(fanout.NeighborLoader(ds, [-1, -1], batch_size=2, disjoint=True,
                                        input_nodes=("author", "train"))))
    d = b.to_dict()
    assert set(d) == {"paper", "author", PW, PC, AR}
    assert torch.equal(d["author"]["n_id"], torch.from_numpy(np.array(b.node_dict["author"])))
    assert d["author"]["batch_size"] == 2 and "y" in d["author"] and "input_id" in d["author"]
    assert "y" not in d["paper"] and "batch" in d["paper"]
    assert d["paper"]["num_nodes"] == len(b.node_dict["paper"])
    assert d["paper"]["num_sampled_nodes"] == b.num_sampled_nodes_dict["paper"].tolist()
    assert torch.equal(d[PW]["edge_index"], torch.from_numpy(np.array(b.edge_index_dict[PW])))
    assert d[PW]["e_id"].data_ptr() == b.edge_dict[PW].ctypes.data
    assert isinstance(d[PW]["num_sampled_edges"], list)
    bd = b.batch_dict
    assert set(bd) == {"paper", "author"}
    np.testing.assert_array_equal(bd["author"][:2], [0, 1])
    t = fanout.to_torch(b)
    assert t.input_type == "author" and t.batch_size == 2 and set(t.x_dict) == {"paper", "author"}
    assert t.edge_index_dict[PW].shape[0] == 2


def test_per_edge_type_fanouts(ds):
    # zero for cites and rev_writes: only writes edges (hop 1); tuple and string keys
    nn = {PW: [-1, -1], "paper__cites__paper": [0, 0], "rev_writes": [0, 0]}
    loader = fanout.NeighborLoader(ds, num_neighbors=nn, batch_size=3,
                                   input_nodes=("author", None))
    assert loader.num_neighbors == {PW: (-1, -1), PC: (0, 0), AR: (0, 0)}
    b = next(iter(loader))
    assert len(b.row_dict[PW]) == len(PA) and len(b.row_dict[PC]) == 0
    assert len(b.row_dict[AR]) == 0
    assert b.num_sampled_edges_dict[PW].tolist() == [len(PA), 0]
    # a list is every edge type's fanouts
    l2 = fanout.NeighborLoader(ds, num_neighbors=[-1, -1], batch_size=3, input_nodes="author")
    l3 = fanout.NeighborLoader(ds, num_neighbors={et: [-1, -1] for et in ds.edge_types},
                               batch_size=3, input_nodes="author")
    assert l2.num_neighbors == (-1, -1)
    assert next(iter(l2)).digest() == next(iter(l3)).digest()
    # fanout 1 per edge type: at most one in-edge per frontier node and type
    b = next(iter(fanout.NeighborLoader(ds, {et: [1, 1] for et in ds.edge_types},
                                        batch_size=3, input_nodes="author", seed=3)))
    for et in EDGES:
        col = b.col_dict[et]
        hop1 = b.num_sampled_edges_dict[et][0]
        assert len(set(col[:hop1].tolist())) == hop1


def epoch_digests(ds, workers, **kw):
    loader = fanout.NeighborLoader(ds, num_neighbors={PW: [2, 1], PC: [1, 2], AR: [1, 1]},
                                   batch_size=1, input_nodes=("author", None), shuffle=True,
                                   seed=7, num_workers=workers, **kw)
    return [[b.digest() for b in loader] for _ in range(2)]


@pytest.mark.parametrize("kw", [{}, {"replace": True}, {"disjoint": True}])
def test_determinism(ds, kw):
    ref = epoch_digests(ds, 0, **kw)
    assert ref[0] != ref[1]  # epochs differ (shuffle, streams)
    for workers in (0, 1, 3):
        assert epoch_digests(ds, workers, **kw) == ref, workers


def test_batch_contents_repeat(ds):
    def run(workers):
        loader = fanout.NeighborLoader(ds, {et: [1, 1] for et in ds.edge_types}, batch_size=2,
                                       input_nodes=("author", None), seed=1, num_workers=workers)
        return [(sorted((t, v.tolist()) for t, v in b.node_dict.items()),
                 sorted((et, v.tolist()) for et, v in b.edge_index_dict.items()))
                for b in loader]
    assert run(0) == run(2) == run(0)


def test_errors(ds):
    mk = lambda **kw: fanout.NeighborLoader(ds, **{"batch_size": 1, **kw})  # noqa: E731
    with pytest.raises(ValueError, match=r"num_neighbors: \('paper', 'likes', 'author'\) is not "
                                         r"an edge type.*paper', 'writes'"):
        mk(num_neighbors={PW: [1], ("paper", "likes", "author"): [1], PC: [1], AR: [1]},
           input_nodes="author")
    with pytest.raises(ValueError, match=r"num_neighbors: no fanouts for edge types "
                                         r"\('paper', 'cites', 'paper'\), \('author'"):
        mk(num_neighbors={PW: [1]}, input_nodes="author")
    with pytest.raises(ValueError, match=r"num_neighbors: every edge type needs the same number "
                                         r"of hops: \('paper', 'writes', 'author'\) has 1, "
                                         r"\('paper', 'cites', 'paper'\) has 2"):
        mk(num_neighbors={PW: [1], PC: [1, 2], AR: [1]}, input_nodes="author")
    with pytest.raises(ValueError, match="num_neighbors: edge type .* is given twice"):
        mk(num_neighbors={PW: [1], "paper__writes__author": [1], PC: [1], AR: [1]},
           input_nodes="author")
    with pytest.raises(TypeError, match=r"num_neighbors\[\('paper', 'writes', 'author'\)\]"):
        mk(num_neighbors={PW: "ab", PC: [1], AR: [1]}, input_nodes="author")
    with pytest.raises(ValueError, match="num_neighbors: 'nope' is not an edge type"):
        mk(num_neighbors={"nope": [1]}, input_nodes="author")
    with pytest.raises(ValueError) as e:
        mk(num_neighbors={PW: [1], PC: [-2], AR: [1]}, input_nodes="author")
    assert "paper__cites__paper" in str(e.value) and e.value.status == "FO_EINVAL"
    with pytest.raises(ValueError, match="input_nodes: 'venue' is not a node type.*paper, author"):
        mk(num_neighbors=[1], input_nodes=("venue", [0]))
    with pytest.raises(ValueError, match="input_nodes: 'train' is not a node type.*"
                                         r"\('paper', 'train'\)"):
        mk(num_neighbors=[1], input_nodes="train")
    with pytest.raises(ValueError, match="input_nodes: .* has 2 node types"):
        mk(num_neighbors=[1])
    with pytest.raises(ValueError, match="input_nodes: .* has 2 node types"):
        mk(num_neighbors=[1], input_nodes=[0, 1])
    with pytest.raises(ValueError, match="test") as e:
        mk(num_neighbors=[1], input_nodes=("author", "test"))
    assert e.value.status == "FO_EINVAL"
    with pytest.raises(ValueError, match="3") as e:
        mk(num_neighbors=[1], input_nodes=("author", [0, 3]))
    assert e.value.status == "FO_ERANGE" and "author" in str(e.value)


def test_import_dataset_typed(typed_dir, tmp_path):
    """fanout.import_dataset(edge_types=...) gives the CLI's dataset: same types, data and
    batches."""
    base = os.path.dirname(typed_dir)
    out = tmp_path / "py.fanout"
    rep = fanout.import_dataset(
        [], out, edge_types={PW: os.path.join(base, "pa.txt"),
                             "paper__cites__paper": os.path.join(base, "pp.txt")},
        node_types={"author": {"features": os.path.join(base, "ax.npy"),
                               "labels": os.path.join(base, "ay.npy"),
                               "split": {"train": os.path.join(base, "train.npy"),
                                         "val": os.path.join(base, "val.npy")}},
                    "paper": {"features": os.path.join(base, "px.npy")}},
        reverse_edges=True, csr=True)
    assert rep["num_node_types"] == 2 and rep["num_edge_types"] == 3
    assert rep["num_edges"] == 14 and rep["output"] == str(out)
    a, b = fanout.Dataset(typed_dir), fanout.Dataset(out)
    assert a.metadata() == b.metadata() and a.num_edges_dict == b.num_edges_dict
    np.testing.assert_array_equal(b["author"].features, AX)
    np.testing.assert_array_equal(b["author"].split("val"), VAL)

    def digests(ds):
        return [x.digest() for x in fanout.NeighborLoader(
            ds, {et: [2, 2] for et in ds.edge_types}, batch_size=1, input_nodes="author",
            seed=5)]
    assert digests(a) == digests(b)
    b.verify()


def test_import_dataset_typed_errors(typed_dir, tmp_path):
    pa = os.path.join(os.path.dirname(typed_dir), "pa.txt")
    ets = {PW: pa}
    with pytest.raises(ValueError, match="inputs: a typed import"):
        fanout.import_dataset([pa], tmp_path / "a", edge_types=ets)
    with pytest.raises(ValueError, match="features: a typed import gives it per node type"):
        fanout.import_dataset([], tmp_path / "a", edge_types=ets, features=pa)
    with pytest.raises(ValueError, match=r"node_types\['author'\]: unknown option"):
        fanout.import_dataset([], tmp_path / "a", edge_types=ets, node_types={"author": {"x": 1}})
    with pytest.raises(ValueError, match="edge_types: .* is not an edge type"):
        fanout.import_dataset([], tmp_path / "a", edge_types={("a", "b"): pa})
    with pytest.raises(ValueError, match="node_types, reverse_edges: only for a typed import"):
        fanout.import_dataset([pa], tmp_path / "a", reverse_edges=True)
    with pytest.raises(ValueError, match="venue") as e:
        fanout.import_dataset([], tmp_path / "a", edge_types=ets,
                              node_types={"venue": {"num_nodes": 3}})
    assert e.value.status == "FO_EINVAL"
    assert not os.path.exists(tmp_path / "a")  # nothing written
