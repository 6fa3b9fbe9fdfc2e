"""fanout.ABLPLoader (include/fanout/ablp.h): labels-only supervision edge types imported with
the CLI, exact y_positive / y_negative on a tiny graph, the same batch as `fanout sample
--anchors`, strict random negatives, epochs and shuffling, and the errors."""

import json
import subprocess

import numpy as np
import pytest

import fanout


@pytest.fixture(scope="module")
def tiny(tmp_path_factory, cli_path_fixture):
    d = tmp_path_factory.mktemp("ablp")
    (d / "buys.txt").write_text("0 0\n0 1\n1 1\n2 2\n")
    (d / "likes.txt").write_text("0 2\n1 0\n")
    (d / "dislikes.txt").write_text("0 1\n2 0\n")
    out = str(d / "ds")
    subprocess.run([cli_path_fixture, "import", "-q", "--edge-type", "user,buys,item",
                    str(d / "buys.txt"), "--reverse-edges",
                    "--supervision-edges", f"user__likes__item={d / 'likes.txt'}",
                    "--supervision-negatives", f"user__dislikes__item={d / 'dislikes.txt'}",
                    "-o", out], check=True, capture_output=True)
    return out


@pytest.fixture(scope="module")
def cli_path_fixture():
    from conftest import cli_path
    return cli_path()


def test_label_types_are_not_edge_types(tiny):
    ds = fanout.Dataset(tiny)
    assert ds.edge_types == [("user", "buys", "item"), ("item", "rev_buys", "user")]
    assert fanout.label_edge_types(ds) == [("user", "likes", "item", "positive", 2),
                                           ("user", "dislikes", "item", "negative", 2)]


def test_exact(tiny):
    ds = fanout.Dataset(tiny)
    L = fanout.ABLPLoader(ds, [0], input_nodes=("user", [0, 1, 0]), batch_size=3)
    assert L.supervision_edge_type == ("user", "likes", "item")
    assert L.negative_edge_type == ("user", "dislikes", "item")
    (b,) = list(L)
    assert b.n_id_dict["user"].tolist() == [0, 1]
    assert b.n_id_dict["item"].tolist() == [2, 0, 1]
    assert b.anchor_index.tolist() == [0, 1, 0]
    assert b.y_positive.tolist() == [[0, 1], [0, 1]]
    assert b.y_negative.tolist() == [[0], [2]]
    assert {k: v.tolist() for k, v in b.y_positive_dict.items()} == {0: [0], 1: [1]}
    assert {k: v.tolist() for k, v in b.y_negative_dict.items()} == {0: [2], 1: []}
    assert set(b.edge_index_dict) == set(ds.edge_types)  # no labels-only type is ever sampled


def test_same_as_cli(tiny, cli_path_fixture):
    ds = fanout.Dataset(tiny)
    L = fanout.ABLPLoader(ds, [-1, -1], num_random_negatives=2, seed=3)
    b = L.sample([0, 2], epoch=1, batch_index=4)
    r = json.loads(subprocess.run(
        [cli_path_fixture, "sample", tiny, "--fanout", "-1,-1", "--anchors", "0,2",
         "--random-negatives", "2", "--seed", "3", "--epoch", "1", "--batch-index", "4", "--json"],
        check=True, capture_output=True, text=True).stdout)
    assert r["node"] == {t: v.tolist() for t, v in b.n_id_dict.items()}
    assert r["y_positive"] == b.y_positive.tolist()
    assert r["y_negative"] == b.y_negative.tolist()
    assert r["random_negative"] == b.random_negative.tolist()
    for et, ei in b.edge_index_dict.items():
        name = "__".join(et)
        assert r["row"][name] == ei[0].tolist() and r["col"][name] == ei[1].tolist()


def test_random_negatives_strict(tiny):
    ds = fanout.Dataset(tiny)
    L = fanout.ABLPLoader(ds, [1], input_nodes=[0, 1], batch_size=2, num_random_negatives=20,
                          hard_negatives=False)
    assert L.negative_edge_type is None
    for i in range(20):
        b = L.sample([0, 1], 0, i)
        items = b.n_id_dict["item"][b.random_negative]
        assert (items[0] != 2).all() and (items[1] != 0).all()  # never the anchor's positive


def test_epochs_and_determinism(tiny):
    ds = fanout.Dataset(tiny)
    mk = lambda: fanout.ABLPLoader(ds, [2, 2], batch_size=2, shuffle=True, seed=9,
                                   num_random_negatives=1)
    a, b = mk(), mk()
    assert len(a) == 2
    for _ in range(3):
        ea, eb = list(a), list(b)
        assert sorted(np.concatenate([x.input_id for x in ea]).tolist()) == [0, 1, 2]
        for x, y in zip(ea, eb):
            assert x.input_id.tolist() == y.input_id.tolist()
            assert x.y_positive.tolist() == y.y_positive.tolist()
            assert x.random_negative.tolist() == y.random_negative.tolist()
            for t in x.n_id_dict:
                assert x.n_id_dict[t].tolist() == y.n_id_dict[t].tolist()


def test_errors(tiny):
    ds = fanout.Dataset(tiny)
    with pytest.raises(ValueError, match="'likes' is a labels-only .supervision. edge type"):
        fanout.ABLPLoader(ds, {"likes": [1], "buys": [1], "rev_buys": [1]})
    with pytest.raises(ValueError, match="is an edge type the sampler traverses"):
        fanout.ABLPLoader(ds, [1], supervision_edge_type=("user", "buys", "item"))
    with pytest.raises(ValueError, match="'nope' is not a labels-only edge type"):
        fanout.ABLPLoader(ds, [1], supervision_edge_type="nope")
    with pytest.raises(ValueError, match="holds positive labels, not negative"):
        fanout.ABLPLoader(ds, [1], negative_edge_type="likes")
    with pytest.raises(ValueError, match=r"input_nodes\[1\] = 3 is not a node id of type 'user'"):
        fanout.ABLPLoader(ds, [1], input_nodes=[0, 3])
    with pytest.raises(ValueError, match="node type 'item' is not the anchor type 'user'"):
        fanout.ABLPLoader(ds, [1], input_nodes=("item", [0]))
    with pytest.raises(ValueError, match="num_random_negatives -1"):
        fanout.ABLPLoader(ds, [1], num_random_negatives=-1)
    L = fanout.ABLPLoader(ds, [1])
    with pytest.raises(ValueError, match="anchor 5 .index 0. is not a node id of type 'user'"):
        L.sample([5])


def test_split_anchors(tmp_path, cli_path_fixture):
    # input_nodes="train" (and ("user", "train")): the anchors of the anchor type's node split,
    # the batches of the same ids given as an array; a missing split names the splits there are
    d = tmp_path
    (d / "buys.txt").write_text("0 0\n0 1\n1 1\n2 2\n")
    (d / "likes.txt").write_text("0 2\n1 0\n")
    np.save(d / "train.npy", np.array([2, 0], dtype=np.int64))
    out = str(d / "ds")
    subprocess.run([cli_path_fixture, "import", "-q", "--edge-type", "user,buys,item",
                    str(d / "buys.txt"), "--reverse-edges",
                    "--supervision-edges", f"user__likes__item={d / 'likes.txt'}",
                    "--split", f"user:train={d / 'train.npy'}", "-o", out],
                   check=True, capture_output=True)
    ds = fanout.Dataset(out)
    want = [b.y_positive.tolist() for b in fanout.ABLPLoader(ds, [1], input_nodes=[2, 0])]
    assert want == [[[], []], [[0], [0]]]  # user 2 likes nothing; user 0 likes item 2 (local 0)
    for nodes in ("train", ("user", "train")):
        got = [b.y_positive.tolist() for b in fanout.ABLPLoader(ds, [1], input_nodes=nodes)]
        assert got == want
    with pytest.raises(ValueError, match="input_nodes: node type 'user' has no split 'val' "
                                         r"\(it has: train\)"):
        fanout.ABLPLoader(ds, [1], input_nodes="val")
    with pytest.raises(ValueError, match="node type 'item' is not the anchor type 'user'"):
        fanout.ABLPLoader(ds, [1], input_nodes=("item", "train"))
