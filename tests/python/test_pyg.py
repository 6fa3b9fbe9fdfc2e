"""PyG compatibility: a NeighborLoader batch under PyG's field names, batch.to_dict() for
torch_geometric.data.Data(**d), and PyG's NeighborLoader arguments (docs/PYTHON.md, "PyG
compatibility").

PyG cannot be installed here; the names are those PyG's NodeLoader.filter_fn sets on the Data
it returns (pyg-team/pytorch_geometric, torch_geometric/loader/node_loader.py: n_id, e_id,
batch, num_sampled_nodes, num_sampled_edges, input_id, seed_time, batch_size, plus x,
edge_index and y from filter_data) and the fields of SamplerOutput
(torch_geometric/sampler/base.py: num_sampled_nodes/num_sampled_edges are List[int]).
"""
import gc
import warnings

import numpy as np
import pytest

import fanout

torch = pytest.importorskip("torch")

# What PyG's NeighborLoader puts in a homogeneous batch (seed_time only with time_attr).
PYG_KEYS = {"x", "edge_index", "y", "n_id", "e_id", "num_sampled_nodes", "num_sampled_edges",
            "input_id", "batch_size"}


def one_batch(ds, **kw):
    kw.setdefault("num_neighbors", [10, 5])
    kw.setdefault("batch_size", 64)
    kw.setdefault("input_nodes", "train")
    kw.setdefault("num_workers", 0)
    loader = fanout.NeighborLoader(ds, **kw)
    return next(iter(loader))


def digests(ds, **kw):
    kw.setdefault("num_workers", 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loader = fanout.NeighborLoader(ds, num_neighbors=[5, 5], batch_size=50,
                                       input_nodes="train", shuffle=True, seed=4, **kw)
    return [b.digest() for b in loader]


def test_pyg_field_names_on_the_batch(cora):
    b = one_batch(cora)
    assert b.n_id is not None and np.array_equal(b.n_id, b.node)
    assert np.array_equal(b.e_id, b.edge)
    assert np.array_equal(b.edge_index, np.stack([b.row, b.col]))
    assert b.batch_size == 64 and len(b.input_id) == 64
    assert np.array_equal(b.n_id[:b.batch_size], cora.split("train")[b.input_id])
    assert int(b.num_sampled_nodes.sum()) == b.num_nodes
    assert int(b.num_sampled_edges.sum()) == b.num_edges
    assert b.num_sampled_nodes[0] == b.batch_size and len(b.num_sampled_edges) == 2
    assert b.batch is None  # PyG: data.batch = out.batch, None unless disjoint


def test_to_dict_keys_types_and_zero_copy(cora):
    b = one_batch(cora)
    d = b.to_dict()
    assert type(d) is dict
    assert set(d) == PYG_KEYS | {"num_nodes"}
    for k in ("x", "edge_index", "y", "n_id", "e_id", "input_id"):
        assert isinstance(d[k], torch.Tensor), k
    for name, key in (("node", "n_id"), ("edge", "e_id"), ("x", "x"), ("y", "y"),
                      ("input_id", "input_id")):
        assert d[key].data_ptr() == getattr(b, name).ctypes.data, key  # no copy
    assert d["edge_index"].data_ptr() == b.edge_index.ctypes.data  # the batch's one copy
    assert d["edge_index"].shape == (2, b.num_edges) and d["edge_index"].dtype == torch.int64
    assert d["x"].shape == (b.num_nodes, 1433) and d["x"].dtype == torch.float32
    assert d["y"].shape == (b.batch_size,)  # the seeds' labels (docs/PYTHON.md)
    assert d["batch_size"] == b.batch_size and type(d["batch_size"]) is int
    assert d["num_nodes"] == b.num_nodes
    for k in ("num_sampled_nodes", "num_sampled_edges"):
        assert type(d[k]) is list and all(type(v) is int for v in d[k]), k
        assert d[k] == getattr(b, k).tolist()
    # Data(**d) takes any keyword: the keys must be identifiers
    assert all(k.isidentifier() for k in d)


def test_to_dict_outlives_batch_and_loader(cora):
    loader = fanout.NeighborLoader(cora, num_neighbors=[5], batch_size=32, num_workers=1)
    b = next(iter(loader))
    d = b.to_dict()
    ref = {k: v.clone() for k, v in d.items() if isinstance(v, torch.Tensor)}
    del b, loader
    gc.collect()
    for k, v in ref.items():
        assert torch.equal(d[k], v), k


def test_to_dict_optional_fields(cora):
    d = one_batch(cora, disjoint=True).to_dict()
    assert "batch" in d and d["batch"].shape == d["n_id"].shape
    d = one_batch(cora, features=False, labels=False).to_dict()
    assert "x" not in d and "y" not in d and d["num_nodes"] == len(d["n_id"])


def test_to_torch_is_to_dict(cora):
    b = one_batch(cora)
    ns = fanout.to_torch(b)
    d = b.to_dict()
    for k, v in d.items():
        got = getattr(ns, k)
        assert (got.data_ptr() == v.data_ptr()) if isinstance(v, torch.Tensor) else got == v, k
    assert ns.batch is None and ns.epoch == b.epoch and ns.index == b.index


def test_pyg_call_with_pyg_arguments(cora):
    """A PyG-style call (bool mask as input_nodes, DataLoader keywords) works, warns nothing
    and gives the same batches as fanout's own arguments."""
    mask = torch.zeros(cora.num_nodes, dtype=torch.bool)
    mask[torch.from_numpy(np.array(cora.split("train")))] = True
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loader = fanout.NeighborLoader(
            cora, num_neighbors=[5, 5], input_nodes=mask, replace=False,
            subgraph_type="directional", disjoint=False, directed=True, batch_size=50,
            shuffle=True, seed=4, num_workers=1, persistent_workers=True, pin_memory=False,
            drop_last=False, is_sorted=True, filter_per_worker=False, timeout=0,
            multiprocessing_context="spawn", temporal_strategy="uniform", time_attr=None,
            transform=None, worker_init_fn=None, generator=None)
        got = [b.digest() for b in loader]
    assert got == digests(cora)


class FakeSubgraphType:  # PyG's torch_geometric.sampler.base.SubgraphType enum member
    value = "directional"


def test_subgraph_type_enum_accepted(cora):
    assert digests(cora, subgraph_type=FakeSubgraphType()) == digests(cora)


@pytest.mark.parametrize("kw,text", [
    (dict(subgraph_type="induced"), "subgraph_type='induced': fanout returns the sampled"),
    (dict(subgraph_type="bidirectional"), "subgraph_type='bidirectional'"),
    (dict(directed=False), "directed=False"),
    (dict(transform=lambda d: d), "transform"),
    (dict(neighbor_sampler=object()), "neighbor_sampler"),
    (dict(sampler=[0, 1]), "custom sampler"),
    (dict(batch_sampler=[[0, 1]]), "custom batch sampler"),
])
def test_pyg_arguments_fanout_cannot_honour_raise(cora, kw, text):
    with pytest.raises(ValueError, match="NeighborLoader: ") as e:
        fanout.NeighborLoader(cora, num_neighbors=[5], **kw)
    assert text in str(e.value)


def test_unknown_argument_is_a_type_error(cora):
    with pytest.raises(TypeError, match="unexpected keyword argument 'num_neighbours'"):
        fanout.NeighborLoader(cora, num_neighbours=[5])


@pytest.mark.parametrize("kw,text", [
    (dict(pin_memory=True), "pin_memory=True is ignored"),
    (dict(pin_memory_device="cuda"), "pin_memory_device is ignored"),
    (dict(timeout=5), "timeout is ignored"),
    (dict(worker_init_fn=print), "worker_init_fn is ignored"),
    (dict(generator=torch.Generator()), "generator is ignored"),
    (dict(temporal_strategy="last"), "temporal_strategy is ignored"),
])
def test_ignored_arguments_warn_when_not_honoured(cora, kw, text):
    with pytest.warns(UserWarning, match=text) as rec:
        loader = fanout.NeighborLoader(cora, num_neighbors=[5], num_workers=1, **kw)
    assert rec[0].filename == __file__  # points at the caller
    assert [b.digest() for b in loader] == [b.digest() for b in fanout.NeighborLoader(
        cora, num_neighbors=[5], num_workers=1)]


def test_ignored_arguments_without_meaning_are_silent(cora):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for kw in (dict(persistent_workers=False), dict(persistent_workers=True),
                   dict(is_sorted=False), dict(filter_per_worker=True), dict(collate_fn=None),
                   dict(multiprocessing_context="fork"), dict(pin_memory=False),
                   dict(prefetch_factor=None)):
            fanout.NeighborLoader(cora, num_neighbors=[5], **kw)


def test_prefetch_factor(cora):
    loader = fanout.NeighborLoader(cora, num_neighbors=[5], num_workers=2, prefetch_factor=3)
    assert loader.prefetch == 6  # torch's meaning: batches per worker
    loader = fanout.NeighborLoader(cora, num_neighbors=[5], num_workers=0, prefetch_factor=3)
    assert loader.prefetch == 3
    with pytest.warns(UserWarning, match="prefetch_factor is ignored: prefetch=4"):
        loader = fanout.NeighborLoader(cora, num_neighbors=[5], num_workers=2, prefetch=4,
                                       prefetch_factor=3)
    assert loader.prefetch == 4
