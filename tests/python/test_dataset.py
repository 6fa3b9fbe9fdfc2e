"""fanout.Dataset: zero-copy read-only views, splits, arrays, feature dtypes, close()."""

import gc
import importlib.util
import os
import shutil

import numpy as np
import pytest

import fanout


def mapped(path):
    """Whether a file of the dataset directory `path` is mapped into this process."""
    with open("/proc/self/maps") as f:
        return any(os.path.realpath(path) in line for line in f)


def test_open_and_counts(cora):
    assert cora.num_nodes == 2708
    assert cora.num_edges == 10556
    assert cora.splits == ["train", "val", "test"]
    assert cora.num_classes == 7
    assert cora.edge_dirs == ["in", "out"]
    assert cora.info["num_nodes"] == 2708
    assert "2708 nodes" in repr(cora)


def test_features_are_readonly_zero_copy_views(cora):
    x = cora.features
    assert x.shape == (2708, 1433) and x.dtype == np.float32
    assert not x.flags.writeable and not x.flags.owndata
    assert isinstance(x.base, fanout._fanout._Pin) and x.base.dataset is cora
    # Same memory every time: a view of the mapped x.npy, not a copy.
    assert np.shares_memory(x, cora.features)
    with pytest.raises(ValueError):
        x[0, 0] = 1.0
    with pytest.raises(ValueError):
        x.setflags(write=True)
    # The mapped file is what numpy.load sees.
    ref = np.load(os.path.join(cora.path, "x.npy"), mmap_mode="r")
    assert np.array_equal(x[:50], ref[:50])
    assert cora.feature_dtype == "float32"
    assert cora.feature_scale is None and cora.feature_offset is None


def test_labels_splits_arrays(cora):
    y = cora.labels
    assert y.dtype == np.int64 and y.shape == (2708,) and not y.flags.writeable
    assert y.min() >= 0 and y.max() == 6
    tr = cora.split("train")
    assert len(tr) == 140 and len(cora.split("val")) == 500 and len(cora.split("test")) == 1000
    assert np.all(np.diff(tr) > 0)
    assert np.all(np.bincount(y[tr], minlength=7) == 20)  # 20 per class
    assert set(cora.arrays) >= {"csc_indptr", "csc_indices", "x", "y", "train_idx"}
    indptr = cora.array("csc_indptr")
    assert indptr.dtype == np.int64 and indptr[0] == 0 and indptr[-1] == cora.num_edges
    orig = cora.array("node_orig")
    assert orig.dtype.kind == "S" and len(orig) == 2708
    with pytest.raises(ValueError, match="no split 'nope'.*train, val, test") as e:
        cora.split("nope")
    assert e.value.status == "FO_EINVAL"
    with pytest.raises(ValueError):
        cora.array("nope")


def test_verify(cora):
    cora.verify()


def test_hugepage_load(cora_dir):
    with fanout.Dataset(cora_dir, load="hugepage") as ds, fanout.Dataset(cora_dir) as ref:
        assert np.array_equal(ds.features, ref.features)
    with pytest.raises(ValueError, match="load"):
        fanout.Dataset(cora_dir, load="bogus")


def test_open_errors(tmp_path):
    with pytest.raises(OSError, match="nonexistent") as e:
        fanout.Dataset(tmp_path / "nonexistent")
    assert e.value.status == "FO_EIO"
    with pytest.raises((ValueError, OSError)) as e:
        fanout.Dataset(tmp_path)  # a directory without fanout.json
    assert str(tmp_path) in str(e.value)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "fanout.json").write_text("{ not json")
    with pytest.raises(fanout.FormatError) as e:
        fanout.Dataset(tmp_path / "d")
    assert isinstance(e.value, ValueError) and e.value.status == "FO_EFORMAT"


def test_close_semantics(cora_dir, tmp_path):
    path = str(tmp_path / "copy")
    shutil.copytree(cora_dir, path)
    ds = fanout.Dataset(path)
    x = ds.features
    loader = fanout.NeighborLoader(ds, [5], batch_size=64, num_workers=1)
    ds.close()
    assert ds.closed
    with pytest.raises(ValueError, match="closed"):
        ds.num_nodes
    with pytest.raises(ValueError, match="closed"):
        ds.features
    with pytest.raises(ValueError, match="closed"):
        fanout.NeighborLoader(ds, [5])
    # What was made before close stays valid: the view and the loader keep it mapped.
    assert float(x[0].sum()) >= 0 and mapped(path)
    assert len([b.digest() for b in loader]) == len(loader)
    del loader, x
    gc.collect()
    assert not mapped(path)  # the last user gone: really closed
    ds.close()  # again: fine


def test_context_manager(cora_dir):
    with fanout.Dataset(cora_dir) as ds:
        n = ds.num_nodes
    assert n == 2708 and ds.closed


def test_feature_dtypes(tmp_path):
    rng = np.random.default_rng(3)
    n, dim = 500, 8
    src, dst = rng.integers(0, n, 3000), rng.integers(0, n, 3000)
    x = (rng.standard_normal((n, dim)) * 3).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    for dt, tol, np_dt in [("float16", 1e-2, np.float16), ("bfloat16", 3e-2, np.int16),
                           ("uint8", None, np.uint8)]:
        out = tmp_path / dt
        fanout.import_edges(src, dst, out, num_nodes=n, features=tmp_path / "x.npy",
                            feature_dtype=dt)
        with fanout.Dataset(out) as ds:
            assert ds.feature_dtype == dt
            assert ds.features.dtype == np_dt and ds.features.shape == (n, dim)
            xf = ds.dequantize(ds.features)
            assert xf.dtype == np.float32
            if dt == "uint8":
                scale = ds.feature_scale
                assert scale.shape == (dim,) and ds.feature_offset.shape == (dim,)
                assert np.all(np.abs(xf - x) <= scale / 2 + 1e-5)
            else:
                assert np.allclose(xf, x, rtol=tol, atol=tol)
            loader = fanout.NeighborLoader(ds, [3], batch_size=50, labels=False)
            b = next(iter(loader))
            assert b.x_dtype == dt and b.x.dtype == np_dt
            assert np.array_equal(b.x, ds.features[b.node])
            if dt != "uint8":
                if importlib.util.find_spec("torch") is None:
                    continue
                t = fanout.to_torch(b).x
                assert t.data_ptr() == b.x.ctypes.data
                assert np.allclose(t.float().numpy(), ds.dequantize(b.x))


def test_pickle_refused(cora):
    import pickle

    with pytest.raises(TypeError):
        pickle.dumps(cora)


def test_partitioned_dataset(cli, cora_dir, cora, tmp_path):
    """The top level of a partitioned dataset (docs/PYTHON.md, "Partitioned datasets"):
    edge_dirs, num_classes and feature_dtype are its parts'; features and labels raise
    ValueError (their rows are in the parts, in part order: no [num_nodes] view exists), and a
    part directory opens as a dataset of the rows it owns; loaders give the batches of the
    unpartitioned dataset."""
    import subprocess

    out = str(tmp_path / "cora2.fanout")
    subprocess.run([cli, "partition", cora_dir, "-n", "2", "-q", "-o", out], check=True,
                   stdout=subprocess.DEVNULL)
    with fanout.Dataset(out) as ds:
        assert (ds.num_nodes, ds.num_edges) == (cora.num_nodes, cora.num_edges)
        assert ds.edge_dirs == ["in"]  # parts store in-neighbor lists (CSC) only
        assert cora.edge_dirs == ["in", "out"]
        assert ds.num_classes == cora.num_classes == 7
        assert ds.feature_dtype == "float32" and ds.feature_scale is None
        assert ds.splits == cora.splits
        assert np.array_equal(ds.split("train"), cora.split("train"))
        for name in ("features", "labels"):
            with pytest.raises(ValueError, match=f"is partitioned: its {name} are in its parts") as e:
                getattr(ds, name)
            assert e.value.status == "FO_EINVAL"
        kw = dict(num_neighbors=[5, 5], batch_size=64, input_nodes="train", shuffle=True, seed=2)
        got = [b.digest() for b in fanout.NeighborLoader(ds, **kw)]
        assert got == [b.digest() for b in fanout.NeighborLoader(cora, **kw)]
        with pytest.raises(ValueError, match="edge"):
            fanout.NeighborLoader(ds, [5], edge_dir="out")
    rows = 0
    for k in range(2):
        with fanout.Dataset(os.path.join(out, f"part-{k}")) as part:
            owned = part.array("row_nodes")
            rows += len(owned)
            assert part.edge_dirs == ["in"] and part.num_classes == 7
            assert np.array_equal(part.labels, cora.labels[owned])
            assert np.array_equal(part.features, cora.features[owned])
    assert rows == cora.num_nodes
