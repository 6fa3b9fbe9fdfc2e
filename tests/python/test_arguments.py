"""Every array argument of the Python API is checked for dtype, shape and range, and the error
names the argument (docs/RELIABILITY.md). Each test fails if the check is removed: the value
would otherwise be accepted (a mask of the wrong length selects other nodes) or fail deep
inside with a message that does not say which argument was wrong."""

import os

import numpy as np
import pytest

import fanout


def test_input_nodes_mask_length(cora):
    n = cora.num_nodes
    for bad in (n - 1, n + 1, 10):
        with pytest.raises(ValueError, match=r"input_nodes: a boolean mask must have one entry "
                                             rf"per node \({n}\), got {bad}"):
            fanout.NeighborLoader(cora, [2], input_nodes=np.ones(bad, dtype=bool))
    with pytest.raises(ValueError, match="input_nodes: a mask must be 1-D"):
        fanout.NeighborLoader(cora, [2], input_nodes=np.ones((2, n), dtype=bool))
    m = np.zeros(n, dtype=bool)
    m[[3, 5]] = True
    loader = fanout.NeighborLoader(cora, [2], input_nodes=m, batch_size=8, num_workers=0)
    assert loader.num_inputs == 2 if hasattr(loader, "num_inputs") else True


def test_input_nodes_ids(cora):
    n = cora.num_nodes
    with pytest.raises(ValueError, match=rf"input_nodes\[1\] = {n} is not a node id in \[0, {n}\)"):
        fanout.NeighborLoader(cora, [2], input_nodes=[0, n])
    with pytest.raises(ValueError, match=r"input_nodes\[2\] = -1 is not a node id"):
        fanout.NeighborLoader(cora, [2], input_nodes=np.array([0, 1, -1]))
    with pytest.raises(ValueError, match=r"input_nodes\[0\] = 18446744073709551615 does not fit"):
        fanout.NeighborLoader(cora, [2], input_nodes=np.array([2**64 - 1], dtype=np.uint64))
    with pytest.raises(TypeError, match="input_nodes: expected node ids or a boolean mask, got "
                                        "dtype float64"):
        fanout.NeighborLoader(cora, [2], input_nodes=np.array([0.0, 1.5]))
    with pytest.raises(ValueError, match=r"input_nodes: expected a 1-D array, got shape \(2, 2\)"):
        fanout.NeighborLoader(cora, [2], input_nodes=np.zeros((2, 2), dtype=np.int64))
    # an empty list is no seeds, not an error
    fanout.NeighborLoader(cora, [2], input_nodes=[], num_workers=0)


def test_num_neighbors_and_batch_size(cora):
    with pytest.raises(ValueError, match=r"num_neighbors\[1\] = -2"):
        fanout.NeighborLoader(cora, [2, -2])
    with pytest.raises(ValueError, match=r"num_neighbors\[0\] = 2147483648"):
        fanout.NeighborLoader(cora, [2**31])
    with pytest.raises(TypeError, match="num_neighbors: expected a list of ints"):
        fanout.NeighborLoader(cora, 5)
    with pytest.raises(TypeError, match="num_neighbors: expected a list of ints"):
        fanout.NeighborLoader(cora, [1.5])
    with pytest.raises(ValueError, match=r"num_neighbors: expected a 1-D list"):
        fanout.NeighborLoader(cora, np.ones((2, 2), dtype=np.int64))
    with pytest.raises(ValueError, match="batch_size: expected >= 1, got 0"):
        fanout.NeighborLoader(cora, [2], batch_size=0)
    with pytest.raises(TypeError, match="batch_size: expected an int"):
        fanout.NeighborLoader(cora, [2], batch_size=2.5)
    with pytest.raises(TypeError, match="dataset: expected a fanout.Dataset"):
        fanout.NeighborLoader("not a dataset", [2])


def test_import_edges_arrays(tmp_path):
    out = str(tmp_path / "g")
    with pytest.raises(ValueError, match=r"src: expected a 1-D array, got shape \(2, 2\)"):
        fanout.import_edges(np.zeros((2, 2), dtype=np.int64), [0, 1], out)
    with pytest.raises(TypeError, match="dst: expected integer node ids, got dtype float64"):
        fanout.import_edges([0, 1], [0.5, 1.0], out)
    with pytest.raises(ValueError, match=r"src\[1\] = 9223372036854775808 does not fit in int64"):
        fanout.import_edges(np.array([0, 2**63], dtype=np.uint64), [0, 1], out)
    with pytest.raises(ValueError, match="src and dst: expected the same number of edges, got 3 and 2"):
        fanout.import_edges([0, 1, 2], [0, 1], out)
    assert not os.path.exists(out)


def test_dequantize_argument(cora):
    x = cora.features
    with pytest.raises(TypeError, match="x: expected this dataset's feature dtype float32"):
        cora.dequantize(x.astype(np.float64))
    with pytest.raises(ValueError, match=rf"x: expected shape \[\.\.\., {x.shape[1]}\]"):
        cora.dequantize(x[:, :10])
    assert cora.dequantize(x[:3]).shape == (3, x.shape[1])


def test_import_nonfinite(tmp_path):
    x = np.arange(20, dtype=np.float32).reshape(10, 2)
    x[3, 1] = np.nan
    xf = tmp_path / "x.npy"
    np.save(xf, x)
    src = np.arange(10)
    dst = (src + 1) % 10
    with pytest.raises(ValueError, match=r"row 3, column 1 is nan .*--allow-nonfinite"):
        fanout.import_edges(src, dst, str(tmp_path / "g"), features=str(xf))
    assert not (tmp_path / "g").exists()
    fanout.import_edges(src, dst, str(tmp_path / "g"), features=str(xf), allow_nonfinite=True)
    with fanout.Dataset(str(tmp_path / "g")) as ds:
        assert np.isnan(ds.features[3, 1])


def test_integer_arguments_named(cora):
    """An integer argument of another type (float, str, None, bool) is a TypeError naming it,
    not operator.index's bare message."""
    eli = np.array([[0, 1], [1, 2]])
    with pytest.raises(TypeError, match=r"batch_size: expected an integer, got float 2\.5"):
        fanout.LinkNeighborLoader(cora, [2], edge_label_index=eli, batch_size=2.5)
    with pytest.raises(TypeError, match=r"num_neighbors\[1\]: expected an integer, got str '5'"):
        fanout.LinkNeighborLoader(cora, [2, "5"], edge_label_index=eli)
    with pytest.raises(TypeError, match=r"batch_size: expected an integer, got NoneType None"):
        fanout.LinkNeighborLoader(cora, [2], edge_label_index=eli, batch_size=None)
    with pytest.raises(TypeError, match=r"num_neighbors\[0\]: expected an integer, got float"):
        fanout.LinkNeighborLoader(cora, [2.0], edge_label_index=eli)
    for bad, shown in ((True, "bool True"), (2.5, "float 2.5"), ("2", "str '2'"), (None, "NoneType None")):
        with pytest.raises(TypeError, match=rf"pipeline: expected an integer, got {shown}"):
            fanout._index("pipeline", bad)
    assert fanout._index("pipeline", np.int32(3)) == 3
