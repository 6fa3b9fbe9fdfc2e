"""fanout.NeighborLoader(weighted=True): weighted sampling from Python (weights imported with
`fanout import --edge-weight`, typed: `--edge-weight SRC__REL__DST=W.npy`), PyG's weight_attr,
the same batches as the C API (CLI digests), the law of the draws on a star, errors."""

import json
import os
import subprocess

import numpy as np
import pytest

import fanout


def _import(cli, args):
    subprocess.run([cli, "import", "-q"] + args, check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def star_dir(cli, tmp_path_factory):
    """Star: leaves 1..7 -> 0 with weights spanning 1000x and one zero; plus a random graph
    (nodes 8..207) with random weights so that multi-hop batches have work."""
    base = tmp_path_factory.mktemp("wstar")
    rng = np.random.default_rng(5)
    w_star = np.array([1, 10, 0, 100, 1000, 3, 0.5], dtype=np.float32)
    src = list(range(1, 8))
    dst = [0] * 7
    rs, rd = rng.integers(8, 208, 3000), rng.integers(8, 208, 3000)
    src += rs.tolist()
    dst += rd.tolist()
    w = np.concatenate([w_star, rng.random(3000, dtype=np.float32)])
    np.save(base / "ei.npy", np.array([src, dst], dtype=np.int64))
    np.save(base / "w.npy", w)
    out = str(base / "star")
    _import(cli, ["--format", "npy", str(base / "ei.npy"), "--edge-weight", str(base / "w.npy"),
                  "--csc", "--csr", "-o", out])
    return out, w_star


def test_weighted_draws_follow_the_weights(star_dir):
    path, w = star_dir
    ds = fanout.Dataset(path)
    count = np.zeros(8)
    n = 4000
    for replace in (True, False):
        loader = fanout.NeighborLoader(ds, num_neighbors=[3], batch_size=1, input_nodes=[0] * n,
                                       weighted=True, replace=replace, num_workers=0,
                                       features=False, labels=False)
        assert loader.weighted
        count[:] = 0
        for b in loader:
            leaves = b.node[b.row]
            assert len(leaves) == 3
            assert 3 not in leaves  # leaf 3 has weight 0: never drawn
            if not replace:
                assert len(set(leaves.tolist())) == 3
            np.add.at(count, leaves, 1)
        if replace:
            expect = 3 * n * np.concatenate([[0], w]) / w.sum()
            keep = expect >= 5
            chi2 = ((count[keep] - expect[keep]) ** 2 / expect[keep]).sum()
            assert chi2 < 40, (chi2, count, expect)  # df 4: p ~ 1e-7
            # a uniform kernel would be far off: the test can fail
            uni = np.full(8, 3 * n / 6)
            assert (((count[keep] - uni[keep]) ** 2) / uni[keep]).sum() > 1000
        else:
            # without replacement the heaviest leaf (5) is in nearly every 3-subset
            assert count[5] > 0.99 * n
    ds.close()


@pytest.mark.parametrize("replace", [False, True])
def test_weighted_digests_equal_cli(cli, star_dir, replace):
    path, _ = star_dir
    ds = fanout.Dataset(path)
    loader = fanout.NeighborLoader(ds, num_neighbors=[5, 3], batch_size=16, shuffle=True,
                                   weighted=True, replace=replace, num_workers=2, seed=3,
                                   features=False, labels=False)
    got = fanout.digest_sequence([b.digest() for b in loader])
    args = [cli, "bench", path, "--fanout", "5,3", "--batch-size", "16", "--seed", "3",
            "--threads", "1", "--weighted", "--digest", "--json"] + (["--replace"] if replace else [])
    want = int(json.loads(subprocess.run(args, check=True, capture_output=True,
                                         text=True).stdout)["digest"], 16)
    assert got == want
    # uniform sampling gives other batches
    uni = fanout.NeighborLoader(ds, num_neighbors=[5, 3], batch_size=16, shuffle=True,
                                replace=replace, num_workers=2, seed=3, features=False, labels=False)
    assert fanout.digest_sequence([b.digest() for b in uni]) != got
    ds.close()


def test_pyg_weight_attr_means_weighted(star_dir):
    path, _ = star_dir
    ds = fanout.Dataset(path)

    def digests(**kw):
        loader = fanout.NeighborLoader(ds, num_neighbors=[4, 2], batch_size=32, num_workers=0,
                                       features=False, labels=False, **kw)
        return fanout.digest_sequence([b.digest() for b in loader])

    assert digests(weight_attr="edge_weight") == digests(weighted=True)
    assert digests(weight_attr=None) == digests()
    with pytest.raises(TypeError, match="weight_attr: expected an edge attribute name"):
        fanout.NeighborLoader(ds, num_neighbors=[2], weight_attr=1)
    ds.close()


def test_weighted_without_weights_is_an_error(cora):
    with pytest.raises(ValueError, match="stores no edge weights for its CSC"):
        fanout.NeighborLoader(cora, num_neighbors=[2], weighted=True)


def test_typed_weighted(cli, tmp_path):
    """Typed: weights per edge type; the zero-weight edge of each type is never drawn, and
    an edge type without weights is named."""
    (tmp_path / "pa.txt").write_text("0 0\n1 0\n2 0\n3 0\n")
    (tmp_path / "aa.txt").write_text("0 1\n1 0\n")
    np.save(tmp_path / "wpa.npy", np.array([1, 0, 3, 2], dtype=np.float32))
    np.save(tmp_path / "waa.npy", np.array([1, 5], dtype=np.float64))
    out = str(tmp_path / "g")
    _import(cli, ["--edge-type", "paper,writes,author", str(tmp_path / "pa.txt"),
                  "--edge-type", "paper,cites,paper", str(tmp_path / "aa.txt"),
                  "--edge-weight", f"paper__writes__author={tmp_path / 'wpa.npy'}",
                  "--edge-weight", f"paper__cites__paper={tmp_path / 'waa.npy'}",
                  "--reverse-edges", "-o", out])
    ds = fanout.Dataset(out)
    et = ("paper", "writes", "author")
    loader = fanout.NeighborLoader(ds, num_neighbors={et: [2], ("paper", "cites", "paper"): [2],
                                                      ("author", "rev_writes", "paper"): [2]},
                                   input_nodes=("author", [0] * 300), batch_size=1,
                                   weighted=True, num_workers=0)
    seen = set()
    for b in loader:
        papers = b.node_dict["paper"][b.row_dict[et]]
        assert len(papers) == 2 and 1 not in papers.tolist()
        seen.update(papers.tolist())
    assert seen == {0, 2, 3}
    ds.close()
    out2 = str(tmp_path / "g2")
    _import(cli, ["--edge-type", "paper,writes,author", str(tmp_path / "pa.txt"),
                  "--edge-type", "paper,cites,paper", str(tmp_path / "aa.txt"),
                  "--edge-weight", f"paper__writes__author={tmp_path / 'wpa.npy'}", "-o", out2])
    ds = fanout.Dataset(out2)
    with pytest.raises(ValueError, match="edge type 'paper__cites__paper'"):
        fanout.NeighborLoader(ds, num_neighbors=[2], input_nodes=("author", [0]), weighted=True)
    ds.close()


def _chi2_against(count, expect):
    keep = expect >= 5
    return ((count[keep] - expect[keep]) ** 2 / expect[keep]).sum()


def test_link_loader_weighted(cli, star_dir):
    """LinkNeighborLoader(weighted=True): seed edge (1, 0), the in-neighbors of 0 drawn by
    weight (chi-square against the weights, far from uniform), leaf 3 (weight 0) never; the
    same batch as `fanout sample --edge-seeds --weighted`; weight_attr; the errors."""
    path, w = star_dir
    ds = fanout.Dataset(path)
    n = 1500
    eli = np.array([[1] * n, [0] * n])
    loader = fanout.LinkNeighborLoader(ds, [3], edge_label_index=eli, batch_size=1,
                                       replace=True, weighted=True, features=False)
    assert loader.weighted
    count = np.zeros(8)
    for b in loader:
        nodes, (row, col) = b.n_id, b.edge_index
        leaves = nodes[row[nodes[col] == 0]]
        assert len(leaves) == 3 and 3 not in leaves
        np.add.at(count, leaves, 1)
    expect = 3 * n * np.concatenate([[0], w]) / w.sum()
    assert _chi2_against(count, expect) < 40, (count, expect)  # df 4: p ~ 1e-7
    assert _chi2_against(count, np.full(8, 3 * n / 7.0)) > 1000  # uniform would be far off
    # the CLI's batch: the same C sampler
    want = json.loads(subprocess.run(
        [cli, "sample", path, "--fanout", "4,2", "--edge-seeds", "1-0,9-20,30-40", "--weighted",
         "--seed", "6", "--neg", "binary:1", "--json"],
        check=True, capture_output=True, text=True).stdout)
    (b,) = list(fanout.LinkNeighborLoader(ds, [4, 2], edge_label_index=[[1, 9, 30], [0, 20, 40]],
                                          batch_size=3, seed=6, weighted=True,
                                          neg_sampling=("binary", 1), features=False))
    assert b.n_id.tolist() == want["node"]
    assert b.edge_index.tolist() == [want["row"], want["col"]]
    assert b.edge_label_index.tolist() == want["edge_label_index"]
    uni = list(fanout.LinkNeighborLoader(ds, [4, 2], edge_label_index=[[1, 9, 30], [0, 20, 40]],
                                         batch_size=3, seed=6, features=False,
                                         neg_sampling=("binary", 1)))[0]
    assert uni.e_id.tolist() != b.e_id.tolist()  # uniform draws other edges
    # PyG's weight_attr="NAME" means weighted=True
    (p,) = list(fanout.LinkNeighborLoader(ds, [4, 2], edge_label_index=[[1, 9, 30], [0, 20, 40]],
                                          batch_size=3, seed=6, weight_attr="edge_weight",
                                          neg_sampling=("binary", 1), features=False))
    assert p.e_id.tolist() == b.e_id.tolist()
    with pytest.raises(TypeError, match="LinkNeighborLoader: weight_attr: expected an edge "
                                        "attribute name"):
        fanout.LinkNeighborLoader(ds, [2], edge_label_index=[[1], [0]], weight_attr=2)
    ds.close()


def test_link_loader_weighted_without_weights(cora):
    with pytest.raises(ValueError, match="stores no edge weights for its CSC"):
        fanout.LinkNeighborLoader(cora, [2], edge_label_index=[[0], [1]], weighted=True)


def test_ablp_loader_weighted(cli, tmp_path):
    """ABLPLoader(weighted=True): the zero-weight buys edge is never drawn, the others are;
    the batch equals `fanout sample --anchors --weighted`'s; without weights: an error."""
    (tmp_path / "buys.txt").write_text("0 0\n1 0\n2 0\n3 0\n0 1\n")
    (tmp_path / "likes.txt").write_text("0 0\n1 1\n")  # item 0: a label node of anchor 0
    np.save(tmp_path / "w.npy", np.array([1, 0, 3, 2, 1], dtype=np.float32))
    out = str(tmp_path / "ds")
    _import(cli, ["--edge-type", "user,buys,item", str(tmp_path / "buys.txt"),
                  "--edge-weight", f"user__buys__item={tmp_path / 'w.npy'}",
                  "--supervision-edges", f"user__likes__item={tmp_path / 'likes.txt'}", "-o", out])
    ds = fanout.Dataset(out)
    et = ("user", "buys", "item")
    L = fanout.ABLPLoader(ds, [2], input_nodes=("user", [0] * 200), weighted=True)
    assert L.weighted
    seen = set()
    for b in L:
        (row, col) = b.edge_index_dict[et]
        users = b.n_id_dict["user"][row[b.n_id_dict["item"][col] == 0]]
        assert len(users) == 2 and 1 not in users.tolist()  # user 1's edge has weight 0
        seen.update(users.tolist())
    assert seen == {0, 2, 3}
    # the CLI's batch (`fanout sample --anchors --weighted`): the same C sampler
    b = fanout.ABLPLoader(ds, [2, 2], seed=4, weighted=True).sample([0, 2], epoch=1, batch_index=3)
    r = json.loads(subprocess.run(
        [cli, "sample", out, "--fanout", "2,2", "--anchors", "0,2", "--weighted", "--seed", "4",
         "--epoch", "1", "--batch-index", "3", "--json"],
        check=True, capture_output=True, text=True).stdout)
    assert r["node"] == {t: v.tolist() for t, v in b.n_id_dict.items()}
    assert r["row"]["user__buys__item"] == b.edge_index_dict[et][0].tolist()
    ds.close()
    out2 = str(tmp_path / "now")
    _import(cli, ["--edge-type", "user,buys,item", str(tmp_path / "buys.txt"),
                  "--supervision-edges", f"user__likes__item={tmp_path / 'likes.txt'}", "-o", out2])
    ds = fanout.Dataset(out2)
    with pytest.raises(ValueError, match="no edge weights"):
        fanout.ABLPLoader(ds, [2], weighted=True)
    with pytest.raises(TypeError, match="ABLPLoader: weight_attr"):
        fanout.ABLPLoader(ds, [2], weight_attr=1)
    ds.close()
