"""fanout.LinkNeighborLoader: PyG's field names, local ids that point at the seed edges,
strict negatives, seed-edge exclusion (the seed edges and their reverses never among the batch's
edges), triplet shapes, PyG's label shift, determinism across epochs and errors."""

import numpy as np
import pytest

import fanout


@pytest.fixture(scope="module")
def und(tmp_path_factory):
    rng = np.random.default_rng(1)
    src, dst = rng.integers(0, 60, 400), rng.integers(0, 60, 400)
    keep = src != dst
    out = str(tmp_path_factory.mktemp("link") / "g")
    fanout.import_edges(src[keep], dst[keep], out, undirected=True, csr=True, num_nodes=60)
    ds = fanout.Dataset(out)
    ptr, idx = ds.array("csc_indptr"), ds.array("csc_indices")
    dst_all = np.repeat(np.arange(60), np.diff(ptr))
    edges = set(zip(idx.tolist(), dst_all.tolist()))
    return ds, np.stack([idx.astype(np.int64), dst_all]), edges


def test_binary_exclusion(und):
    ds, eli, edges = und
    L = fanout.LinkNeighborLoader(ds, [-1, 2], edge_label_index=eli, neg_sampling=("binary", 2),
                                  exclude_seed_edges=True, batch_size=32, shuffle=True, seed=3)
    assert len(L) == -(-eli.shape[1] // 32)
    seen = 0
    for b in L:
        B = len(b.input_id)
        src, dst = b.n_id[b.edge_label_index[0]], b.n_id[b.edge_label_index[1]]
        np.testing.assert_array_equal(src[:B], eli[0, b.input_id])
        np.testing.assert_array_equal(dst[:B], eli[1, b.input_id])
        assert (b.edge_label[:B] == 1).all() and (b.edge_label[B:] == 0).all()
        assert b.edge_label.shape[0] == B + b.num_neg and b.num_neg_missing == 0
        for u, v in zip(src[B:], dst[B:]):
            assert (u, v) not in edges  # strict
        seeds = set(zip(src[:B].tolist(), dst[:B].tolist()))
        for r, c in b.edge_index.T:
            u, v = int(b.n_id[r]), int(b.n_id[c])
            assert (u, v) not in seeds and (v, u) not in seeds
        seen += B
    assert seen == eli.shape[1]


def test_triplet_and_determinism(und):
    ds, eli, edges = und
    L = fanout.LinkNeighborLoader(ds, [3], edge_label_index=eli, neg_sampling=("triplet", 4),
                                  batch_size=50)
    a = [b.dst_neg_index.copy() for b in L]
    L.set_epoch(0)
    b0 = next(iter(L))
    np.testing.assert_array_equal(a[0], b0.dst_neg_index)
    assert b0.dst_neg_index.shape == (50, 4)
    assert b0.src_index.shape == (50,) and b0.dst_pos_index.shape == (50,)
    for i in range(50):
        for v in b0.n_id[b0.dst_neg_index[i]]:
            assert (int(eli[0, i]), int(v)) not in edges
    L1 = fanout.LinkNeighborLoader(ds, [3], edge_label_index=eli, neg_sampling=("triplet", 1),
                                   batch_size=50)
    assert next(iter(L1)).dst_neg_index.shape == (50,)


def test_label_shift_and_errors(und):
    ds, eli, _ = und
    lab = np.arange(eli.shape[1]) % 2
    b = next(iter(fanout.LinkNeighborLoader(ds, [1], edge_label_index=eli, edge_label=lab,
                                            neg_sampling=("binary", 1), batch_size=8)))
    np.testing.assert_array_equal(b.edge_label[:8], lab[:8] + 1)
    with pytest.raises(ValueError, match="negative amount 0 is not > 0"):
        fanout.LinkNeighborLoader(ds, [1], edge_label_index=eli, neg_sampling=("binary", 0))
    with pytest.raises(ValueError, match="'unary' is not 'binary' or 'triplet'"):
        fanout.LinkNeighborLoader(ds, [1], edge_label_index=eli, neg_sampling=("unary", 1))
    with pytest.raises(ValueError, match="expected shape \\[2, B\\]"):
        fanout.LinkNeighborLoader(ds, [1], edge_label_index=eli[0])
    # class 11: every array argument checked by name (dtype, shape, range)
    with pytest.raises(ValueError, match="edge_label\\[1\\] = 0.5 is not an integer class"):
        fanout.LinkNeighborLoader(ds, [1], edge_label_index=eli,
                                  edge_label=np.r_[1.0, 0.5, np.zeros(eli.shape[1] - 2)])
    with pytest.raises(TypeError, match="edge_label: expected integer labels, got dtype <U1"):
        fanout.LinkNeighborLoader(ds, [1], edge_label_index=eli, edge_label=["a"] * eli.shape[1])
    big = eli.astype(np.uint64)
    big[0, 3] = 2 ** 63
    with pytest.raises(ValueError, match="edge_label_index\\[0\\]\\[3\\] = 9223372036854775808 does not fit") as e:
        fanout.LinkNeighborLoader(ds, [1], edge_label_index=big)
    assert e.value.status == "FO_ERANGE"
    bad = eli.copy()
    bad[1, 0] = 60
    with pytest.raises(ValueError, match="destination 60 is not a node id") as e:
        next(iter(fanout.LinkNeighborLoader(ds, [1], edge_label_index=bad)))
    assert e.value.status == "FO_ERANGE"


def test_dist_link_loader_needs_a_context(und):
    # the MPI side runs under mpiexec in tests/mpi (py_dist_link.py, CTest mpi_python_link);
    # here: no context, no loader, and the C type refuses a non-context too
    ds, eli, _ = und
    assert issubclass(fanout.DistLinkNeighborLoader, fanout.LinkNeighborLoader)
    with pytest.raises(TypeError, match="context: expected a fanout.DistContext, got Dataset"):
        fanout.DistLinkNeighborLoader(ds, ds, num_neighbors=[2], edge_label_index=eli)
    with pytest.raises(TypeError, match="expected a fanout.DistContext, got"):
        fanout._fanout.DistLinkLoader(None, ds, [2], edge_label_index=eli)
