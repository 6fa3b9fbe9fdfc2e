"""`--format ogb` on OGB's heterogeneous layout (ogbn-mag's: raw/num-node-dict.csv.gz,
raw/triplet-type-list.csv.gz, raw/relations/<h>___<r>___<t>/{edge,num-edge-list}.csv.gz,
raw/node-feat/<type>/, raw/node-label/<type>/, split/<scheme>/<type>/{train,valid,test}.csv.gz;
snap-stanford/ogb ogb/io/read_graph_raw.py read_csv_heterograph_raw, read_node_label_hetero,
read_nodesplitidx_split_hetero). The directory is written here from the real DBLP graph of
../shared/data/dblp-hetero (4 node types, 3 edge types) and every array of the import is
checked per type against the source files. Skipped when the shared data is absent."""

import gzip
import json
import os
import subprocess

import numpy as np
import pytest

import fanout

from conftest import ROOT, cli_path

DBLP = os.environ.get("FANOUT_SHARED_DATA",
                      os.path.join(ROOT, "..", "shared", "data")) + "/dblp-hetero"
COUNTS = {"author": 4057, "conference": 20, "paper": 14328, "term": 7723}
# OGB's triplets as mag writes them (head = the type that "acts"): author writes paper, ...
RELS = [("author", "writes", "paper", "dblp_paper_author.tsv.gz", True),
        ("paper", "published_in", "conference", "dblp_paper_conference.tsv.gz", False),
        ("paper", "has_term", "term", "dblp_paper_term.tsv.gz", False)]

pytestmark = pytest.mark.skipif(not os.path.isdir(DBLP), reason=f"{DBLP} not found")


def _rows(name):
    with gzip.open(os.path.join(DBLP, name), "rt") as f:
        for line in f:
            if not line.startswith("#"):
                yield line.rstrip("\n").split("\t")


def _csv(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with gzip.open(path, "wt") as f:
        for r in rows:
            f.write((",".join(str(v) for v in r) if isinstance(r, (tuple, list, np.ndarray))
                     else str(r)) + "\n")


@pytest.fixture(scope="module")
def mag(tmp_path_factory):
    """An ogbn-mag-style directory of DBLP and the source arrays."""
    root = tmp_path_factory.mktemp("ogbmag") / "ogbn_dblp"
    raw = root / "raw"
    _csv(raw / "num-node-dict.csv.gz", [list(COUNTS), list(COUNTS.values())])
    edges = {}
    for h, r, t, name, swap in RELS:
        e = np.array([[int(a), int(b)] for a, b in _rows(name)], np.int64)
        if swap:
            e = e[:, ::-1]
        edges[(h, r, t)] = e
        d = raw / "relations" / f"{h}___{r}___{t}"
        _csv(d / "edge.csv.gz", e)
        _csv(d / "num-edge-list.csv.gz", [len(e)])
    # triplet-type-list in another order than OGB's sorted one: the importer sorts
    _csv(raw / "triplet-type-list.csv.gz", [(h, r, t) for h, r, t, _, _ in reversed(RELS)])
    a = list(_rows("dblp_author.tsv.gz"))
    ax = np.zeros((len(a), 334), np.float32)
    for i, x in enumerate(a):
        for cv in (x[2].split() if len(x) > 2 else []):
            c, v = cv.split(":")
            ax[i, int(c)] = float(v)
    ay = np.array([int(x[1]) for x in a], np.int64)
    tx = np.array([[float(v) for v in x[1:]] for x in _rows("dblp_term.tsv.gz")], np.float64)
    _csv(raw / "node-feat/author/node-feat.csv.gz", (",".join(f"{v:g}" for v in row) for row in ax))
    _csv(raw / "node-feat/term/node-feat.csv.gz", (",".join(repr(v) for v in row) for row in tx))
    _csv(raw / "node-feat/paper/node_year.csv.gz", 2000 + np.arange(COUNTS["paper"]) % 20)
    _csv(raw / "node-label/author/node-label.csv.gz", ay)
    _csv(raw / "nodetype-has-label.csv.gz", [list(COUNTS), [t == "author" for t in COUNTS]])
    rng = np.random.default_rng(7)
    perm = rng.permutation(COUNTS["author"])
    splits = {"train": np.sort(perm[:2000]), "val": np.sort(perm[2000:3000]),
              "test": np.sort(perm[3000:])}
    for stem, name in (("train", "train"), ("valid", "val"), ("test", "test")):
        _csv(root / f"split/random/author/{stem}.csv.gz", splits[name])
    _csv(root / "split/random/nodetype-has-split.csv.gz",
         [list(COUNTS), [t == "author" for t in COUNTS]])
    return dict(root=root, edges=edges, ax=ax, ay=ay, tx=tx.astype(np.float32), splits=splits)


def _csc(src, dst, n_dst):
    """The CSC the importer builds: columns by dst, each in input order."""
    order = np.argsort(dst, kind="stable")
    return np.concatenate([[0], np.cumsum(np.bincount(dst, minlength=n_dst))]), src[order]


def _check(out, mag, reverse=False):
    ds = fanout.Dataset(out)
    ds.verify()
    man = json.loads(open(os.path.join(out, "fanout.json")).read())
    assert man["format_version"] == 2
    assert ds.node_types == sorted(COUNTS)
    assert ds.num_nodes_dict == COUNTS
    want = sorted(mag["edges"])
    if reverse:
        want += [(t, "rev_" + r, h) for h, r, t in want]
    assert ds.edge_types == want
    ets = {(e["src"], e["rel"], e["dst"]): e for e in man["edge_types"]}
    for (h, r, t), e in mag["edges"].items():
        pairs = [((h, r, t), e[:, 0], e[:, 1])]
        if reverse:
            pairs.append(((t, "rev_" + r, h), e[:, 1], e[:, 0]))
        for key, s, d in pairs:
            entry = ets[key]
            assert entry["num_edges"] == len(e)
            indptr, indices = _csc(s, d, COUNTS[key[2]])
            p = entry["prefix"]
            assert np.array_equal(np.asarray(ds.array(f"{p}.csc_indptr")), indptr)
            assert np.array_equal(np.asarray(ds.array(f"{p}.csc_indices")), indices)
    nts = {n["name"]: n for n in man["node_types"]}
    assert np.array_equal(np.asarray(ds.array(nts["author"]["prefix"] + ".x")), mag["ax"])
    assert np.array_equal(np.asarray(ds.array(nts["term"]["prefix"] + ".x")), mag["tx"])
    assert np.array_equal(np.asarray(ds.array(nts["author"]["prefix"] + ".y")), mag["ay"])
    assert nts["author"]["labels"]["num_classes"] == 4
    for s in ("train", "val", "test"):
        assert np.array_equal(np.asarray(ds.array(nts["author"]["splits"][s])), mag["splits"][s])
    for t in ("paper", "conference"):
        assert "features" not in nts[t] and "labels" not in nts[t] and "splits" not in nts[t]
    return ds


def test_mag_layout(mag, tmp_path):
    rep = fanout.import_dataset(mag["root"], tmp_path / "g", format="ogb")
    assert rep["num_nodes"] == sum(COUNTS.values()) and rep["num_edges"] == 119783
    assert rep["num_node_types"] == 4 and rep["num_edge_types"] == 3
    _check(tmp_path / "g", mag)


def test_mag_layout_cli_reverse_edges(mag, tmp_path):
    out = tmp_path / "r"
    p = subprocess.run([cli_path(), "import", "--format", "ogb", str(mag["root"]), "--reverse-edges",
                        "-o", str(out), "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "node_year.csv.gz not imported" in p.stderr  # additional node files: said, not lost
    assert json.loads(p.stdout)["num_edges"] == 2 * 119783
    _check(out, mag, reverse=True)
    # the relations directories alone (no triplet-type-list) give the same edge types
    os.rename(mag["root"] / "raw/triplet-type-list.csv.gz", tmp_path / "tt.csv.gz")
    try:
        fanout.import_dataset(mag["root"], tmp_path / "nt", format="ogb", reverse_edges=True)
        _check(tmp_path / "nt", mag, reverse=True)
    finally:
        os.rename(tmp_path / "tt.csv.gz", mag["root"] / "raw/triplet-type-list.csv.gz")


def _tiny(root, **over):
    """A small typed OGB directory; `over` replaces files (relative path -> rows, None
    removes)."""
    files = {
        "raw/num-node-dict.csv.gz": [("author", "paper"), (3, 4)],
        "raw/triplet-type-list.csv.gz": [("author", "writes", "paper"), ("paper", "cites", "paper")],
        "raw/relations/author___writes___paper/edge.csv.gz": [(0, 1), (2, 3), (1, 0)],
        "raw/relations/author___writes___paper/num-edge-list.csv.gz": [3],
        "raw/relations/paper___cites___paper/edge.csv.gz": [(0, 1), (1, 2), (3, 1)],
        "raw/relations/paper___cites___paper/num-edge-list.csv.gz": [3],
        "raw/node-feat/paper/node-feat.csv.gz": [(0.5, 1), (1, 2), (2, 3), (3, 4)],
        "raw/node-label/paper/node-label.csv.gz": [1, 0, "nan", 2],
        "split/time/paper/train.csv.gz": [0, 1],
        "split/time/paper/valid.csv.gz": [3],
        "split/time/paper/test.csv.gz": [2],
    }
    files.update(over)
    for rel, rows in files.items():
        if rows is not None:
            _csv(root / rel, rows)
    return root


def test_tiny_undirected_and_flat_split(tmp_path):
    root = _tiny(tmp_path / "t", **{f"split/time/paper/{s}.csv.gz": None
                                   for s in ("train", "valid", "test")},
                 **{"split/time/train.csv.gz": [0, 1], "split/time/valid.csv.gz": [3]})
    rep = fanout.import_dataset(root, tmp_path / "g", format="ogb", undirected=True)
    # cites (paper -> paper) is made undirected, writes (author -> paper) is not
    assert rep["num_edges"] == 3 + 6
    ds = fanout.Dataset(tmp_path / "g")
    ds.verify()
    assert ds.num_edges_dict == {("author", "writes", "paper"): 3, ("paper", "cites", "paper"): 6}
    assert np.array_equal(np.asarray(ds["paper"].labels), [1, 0, -1, 2])
    assert np.array_equal(np.asarray(ds["paper"].features), [[0.5, 1], [1, 2], [2, 3], [3, 4]])
    assert np.array_equal(np.asarray(ds["paper"].split("train")), [0, 1])
    assert np.array_equal(np.asarray(ds["paper"].split("val")), [3])


@pytest.mark.parametrize("over,exc,msg", [
    ({"raw/relations/author___writes___paper/edge.csv.gz": [(0, 1), (3, 0), (1, 0)]},
     ValueError, r"author___writes___paper/edge\.csv\.gz:2: node id 3 is not in \[0, 3\) "
     r"\('author' in num-node-dict\.csv\.gz\)"),
    ({"raw/relations/paper___cites___paper/edge.csv.gz": [(0, 1), (1, "x"), (3, 1)]},
     fanout.FormatError, r"paper___cites___paper/edge\.csv\.gz:2: node id 'x' is not an integer"),
    ({"raw/relations/paper___cites___paper/num-edge-list.csv.gz": [4]},
     fanout.FormatError, r"edge\.csv\.gz: 3 edges, but num-edge-list\.csv\.gz says 4"),
    ({"raw/num-node-dict.csv.gz": [("author", "paper"), (3,)]},
     fanout.FormatError, r"num-node-dict\.csv\.gz:2: 1 counts, but the header names 2 node types"),
    ({"raw/num-node-dict.csv.gz": [("author", "pa per"), (3, 4)]},
     fanout.FormatError, r"num-node-dict\.csv\.gz:1: node type 'pa per' is not a valid name"),
    ({"raw/num-node-dict.csv.gz": [("author", "paper"), (3, 4), (1, 1)]},
     ValueError, r"num-node-dict\.csv\.gz:3: more than one graph"),
    ({"raw/triplet-type-list.csv.gz": [("author", "writes", "paper"), ("paper", "cites", "venue")]},
     fanout.FormatError, r"triplet-type-list\.csv\.gz:2: node type 'venue' is not in num-node-dict"),
    ({"raw/triplet-type-list.csv.gz": [("author", "writes"), ("paper", "cites", "paper")]},
     fanout.FormatError, r"triplet-type-list\.csv\.gz:1: expected 'head,relation,tail'"),
    ({"raw/node-feat/paper/node-feat.csv.gz": [(0, 1), (1, 2), (2,), (3, 4)]},
     fanout.FormatError, r"paper/node-feat\.csv\.gz:3: 1 values, but line 1 has 2"),
    ({"raw/node-label/paper/node-label.csv.gz": [1, 0, 2]},
     fanout.FormatError, r"node-label\.csv\.gz: 3 lines, but the graph has 4 nodes "
     r"\('paper' in num-node-dict\.csv\.gz\)"),
    ({"split/time/paper/test.csv.gz": [2, 9]},
     ValueError, r"paper/test\.csv\.gz:2: node id 9 is not in \[0, 4\)"),
    ({"raw/node-label/venue/node-label.csv.gz": [1]},
     fanout.FormatError, r"node-label/venue: node type 'venue' is not in num-node-dict\.csv\.gz"),
    ({"split/time/train.csv.gz": [0], "raw/node-label/author/node-label.csv.gz": [0, 1, 0]},
     ValueError, r"2 node types have labels"),
])
def test_malformed(tmp_path, over, exc, msg):
    root = _tiny(tmp_path / "t", **over)
    with pytest.raises(exc, match=msg) as e:
        fanout.import_dataset(root, tmp_path / "bad", format="ogb")
    assert e.value.status in ("FO_EFORMAT", "FO_ERANGE", "FO_EINVAL") or isinstance(e.value.status, int)
    assert not os.path.exists(tmp_path / "bad")
    assert [p for p in os.listdir(tmp_path) if p.startswith(".")] == []  # no temporary left


def test_options_refused(tmp_path):
    root = _tiny(tmp_path / "t")
    with pytest.raises(ValueError, match=r"heterogeneous OGB dataset.*no --num-nodes"):
        fanout.import_dataset(root, tmp_path / "bad", format="ogb", num_nodes=5)
    hom = tmp_path / "h"
    _csv(hom / "raw/num-node-list.csv.gz", [2])
    _csv(hom / "raw/num-edge-list.csv.gz", [1])
    _csv(hom / "raw/edge.csv.gz", [(0, 1)])
    with pytest.raises(ValueError, match=r"--reverse-edges: .* is a homogeneous OGB dataset"):
        fanout.import_dataset(hom, tmp_path / "bad", format="ogb", reverse_edges=True)
