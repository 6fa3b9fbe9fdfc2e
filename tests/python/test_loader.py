"""fanout.NeighborLoader and fanout.Batch: zero copy, equality with the C API (digests),
epochs, lifetime, errors, threads, Ctrl-C."""

import gc
import math
import os
import shutil
import signal
import threading
import time

import numpy as np
import pytest

import fanout
from conftest import cli_digest, py_digest

try:
    import torch
except ImportError:  # the torch tests skip themselves
    torch = None


def first_batch(ds, **kw):
    kw.setdefault("batch_size", 64)
    loader = fanout.NeighborLoader(ds, **kw)
    return next(iter(loader))


# ---- zero copy -------------------------------------------------------------------------

VIEWS = ["node", "n_id", "row", "col", "edge", "e_id", "x", "y", "input_id",
         "num_sampled_nodes", "num_sampled_edges"]


def test_views_are_readonly_and_based_on_the_batch(cora):
    b = first_batch(cora, num_neighbors=[10, 10], input_nodes="train")
    for name in VIEWS:
        a = getattr(b, name)
        assert isinstance(a, np.ndarray), name
        assert a.base is b, name
        assert not a.flags.writeable and not a.flags.owndata, name
        assert a.flags.c_contiguous, name
        with pytest.raises(ValueError, match="read-only"):
            a[...] = 0
        with pytest.raises(ValueError):
            a.setflags(write=True)
    # Two accesses view the same memory (no copy per access).
    assert np.shares_memory(b.node, b.node) and b.node.ctypes.data == b.n_id.ctypes.data
    assert b.x.ctypes.data == b.x.ctypes.data
    assert b.batch is None  # not disjoint


def test_batch_contents(cora):
    tr = cora.split("train")
    loader = fanout.NeighborLoader(cora, [10, 10], batch_size=64, input_nodes="train")
    seen = []
    for b in loader:
        bs, n, e = b.batch_size, b.num_nodes, b.num_edges
        node = b.node
        assert node.shape == (n,) and b.row.shape == (e,) and b.col.shape == (e,)
        assert np.array_equal(node[:bs], tr[b.input_id])
        assert b.num_sampled_nodes.sum() == n and b.num_sampled_edges.sum() == e
        assert len(np.unique(node)) == n
        assert b.row.max() < n and b.col.max() < n
        assert np.array_equal(b.x, cora.features[node])
        assert np.array_equal(b.y, cora.labels[node[:bs]])
        # every sampled edge is an edge of the graph: in-neighbors in the CSC
        indptr, indices = cora.array("csc_indptr"), cora.array("csc_indices")
        for r, c, eid in list(zip(b.row, b.col, b.edge))[:200]:
            v, u = node[c], node[r]
            assert indptr[v] <= eid < indptr[v + 1] and indices[eid] == u
        seen.extend(b.input_id)
    assert sorted(seen) == list(range(140))


def test_edge_index_is_one_cached_copy(cora):
    b = first_batch(cora, num_neighbors=[5, 5])
    ei = b.edge_index
    assert ei.shape == (2, b.num_edges) and ei.dtype == np.int64
    assert np.array_equal(ei[0], b.row) and np.array_equal(ei[1], b.col)
    assert not np.shares_memory(ei, b.row)  # the documented copy
    assert b.edge_index is ei  # made once
    assert not ei.flags.writeable


@pytest.mark.skipif(torch is None, reason="torch (python3-torch) not installed")
def test_torch_from_numpy_does_not_copy(cora):
    b = first_batch(cora, num_neighbors=[10, 10], input_nodes="train")
    for name in ["node", "row", "col", "edge", "x", "y", "input_id"]:
        a = getattr(b, name)
        t = fanout.as_tensor(a)
        assert t.data_ptr() == a.ctypes.data, name
        assert t.shape == a.shape
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert torch.from_numpy(a).data_ptr() == a.ctypes.data, name
    tb = fanout.to_torch(b)
    assert tb.x.data_ptr() == b.x.ctypes.data and tb.batch_size == b.batch_size
    assert torch.equal(tb.edge_index, torch.from_numpy(np.array(b.edge_index)))
    # A tensor alone keeps the batch alive.
    x = fanout.as_tensor(b.x)
    ref = x.clone()
    del b, tb
    gc.collect()
    assert torch.equal(x, ref)


# ---- the same batches as the C API (CLI digests) ----------------------------------------

CASES = [
    dict(fanouts=[10, 10], batch_size=128, split="train", features=True, threads=2),
    dict(fanouts=[15, 10, 5], batch_size=100, threads=1, seed=3, epoch=2),
    dict(fanouts=[5, 5], batch_size=64, threads=0, shuffle=False, drop_last=True),
    dict(fanouts=[-1], batch_size=256, split="val", features=True, threads=2, replace=False),
    dict(fanouts=[4, 4], batch_size=32, split="test", threads=2, replace=True, seed=9),
    dict(fanouts=[3, 3], batch_size=16, split="train", threads=1, disjoint=True, features=True),
    dict(fanouts=[10, 5], batch_size=200, threads=2, edge_dir="out", seed=1),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_digests_equal_cli(cli, cora_dir, cora, case):
    case = dict(case)
    fanouts, bs = case.pop("fanouts"), case.pop("batch_size")
    assert py_digest(cora, fanouts, bs, **case) == cli_digest(cli, cora_dir, fanouts, bs, **case)


def test_digests_equal_cli_random_graph(cli, rand_dir):
    with fanout.Dataset(rand_dir) as ds:
        for epoch in (0, 1):
            kw = dict(split="train", features=True, threads=2, seed=11, epoch=epoch)
            assert (py_digest(ds, [8, 4], 96, **kw) == cli_digest(cli, rand_dir, [8, 4], 96, **kw))


def test_digest_independent_of_workers(cora):
    ref = py_digest(cora, [10, 10], 50, threads=0, features=True)
    for t in (1, 2, 4):
        assert py_digest(cora, [10, 10], 50, threads=t, features=True) == ref


# ---- epochs, len -------------------------------------------------------------------------

def test_len(cora):
    assert len(fanout.NeighborLoader(cora, [5], batch_size=32, input_nodes="train")) == 5
    assert len(fanout.NeighborLoader(cora, [5], batch_size=32, input_nodes="train",
                                     drop_last=True)) == 4
    assert len(fanout.NeighborLoader(cora, [5], batch_size=1000)) == math.ceil(2708 / 1000)
    ld = fanout.NeighborLoader(cora, [5], batch_size=7, input_nodes=[1, 2, 3])
    assert len(ld) == 1 and ld.num_inputs == 3


def test_epochs_advance_and_reshuffle(cora):
    tr = cora.split("train")
    loader = fanout.NeighborLoader(cora, [5], batch_size=32, input_nodes="train", shuffle=True,
                                   seed=7, epoch=3)
    assert loader.epoch is None and loader.next_epoch == 3
    orders = []
    for expect in (3, 4, 5):
        ids = []
        for i, b in enumerate(loader):
            assert b.epoch == expect and b.index == i
            ids.append(np.array(b.input_id))
        assert loader.epoch == expect
        order = np.concatenate(ids)
        assert np.array_equal(order, fanout.random_permutation(140, seed=7, epoch=expect))
        orders.append(order)
    assert not np.array_equal(orders[0], orders[1])
    # set_epoch goes back: the same batches again.
    loader.set_epoch(3)
    again = np.concatenate([np.array(b.input_id) for b in loader])
    assert np.array_equal(again, orders[0]) and loader.epoch == 3 and loader.next_epoch == 4
    # Without shuffle every epoch has the input order.
    plain = fanout.NeighborLoader(cora, [5], batch_size=50, input_nodes="train")
    for _ in range(2):
        assert np.array_equal(np.concatenate([b.node[:b.batch_size] for b in plain]), tr)


def test_epoch_digests_follow_epoch(cli, cora_dir, cora):
    loader = fanout.NeighborLoader(cora, [10, 10], batch_size=64, input_nodes="train",
                                   shuffle=True, seed=5, num_workers=2)
    for e in range(3):
        d = fanout.digest_sequence([b.digest() for b in loader])
        # x and y are gathered by default in Python: compare with --features
        assert d == cli_digest(cli, cora_dir, [10, 10], 64, split="train", threads=2, seed=5,
                               epoch=e, features=True)


def test_stale_iterator(cora):
    loader = fanout.NeighborLoader(cora, [5], batch_size=10, input_nodes="train")
    it1 = iter(loader)
    b0 = next(it1)
    it2 = iter(loader)
    with pytest.raises(RuntimeError, match="stale"):
        next(it1)
    assert next(it2).epoch == 1 and b0.epoch == 0
    assert b0.num_nodes > 0  # batches taken before stay valid


def test_break_then_next_epoch(cora):
    loader = fanout.NeighborLoader(cora, [5, 5], batch_size=10, num_workers=2)
    for i, b in enumerate(loader):
        if i == 3:
            break
    held = b
    first = [x.digest() for x in loader]
    assert len(first) == len(loader) and held.index == 3 and held.epoch == 0


def test_input_nodes_forms(cora):
    tr = np.array(cora.split("train"))
    ref = py_digest(cora, [5], 40, split="train", shuffle=False, features=True)
    for form in (tr, tr.astype(np.int32), list(tr), tr.astype(np.uint32)):
        ld = fanout.NeighborLoader(cora, [5], batch_size=40, input_nodes=form)
        assert fanout.digest_sequence([b.digest() for b in ld]) == ref
    mask = np.zeros(cora.num_nodes, dtype=bool)
    mask[tr] = True
    ld = fanout.NeighborLoader(cora, [5], batch_size=40, input_nodes=mask)
    assert fanout.digest_sequence([b.digest() for b in ld]) == ref
    if torch is not None:
        ld = fanout.NeighborLoader(cora, [5], batch_size=40, input_nodes=torch.from_numpy(tr))
        assert fanout.digest_sequence([b.digest() for b in ld]) == ref
    with pytest.raises(TypeError):
        fanout.NeighborLoader(cora, [5], input_nodes=np.array([0.5, 1.5]))
    empty = fanout.NeighborLoader(cora, [5], input_nodes=[])  # numpy makes [] float64
    assert len(empty) == 0 and list(empty) == []


def test_disjoint_batch_vector(cora):
    b = first_batch(cora, num_neighbors=[3, 3], batch_size=8, disjoint=True)
    assert b.batch is not None and b.batch.shape == (b.num_nodes,)
    assert b.batch.base is b and not b.batch.flags.writeable
    assert np.array_equal(b.batch[:8], np.arange(8))
    assert np.all(b.batch[b.row] == b.batch[b.col])


def test_features_and_labels_off(cora):
    b = first_batch(cora, num_neighbors=[5], features=False, labels=False)
    assert b.x is None and b.y is None and b.x_dtype is None


def test_loader_attributes(cora):
    ld = fanout.NeighborLoader(cora, [10, -1], batch_size=5, input_nodes="val", shuffle=True,
                               num_workers=2, prefetch=3, seed=4, edge_dir="out")
    assert ld.num_neighbors == (10, -1) and ld.batch_size == 5 and ld.split == "val"
    assert ld.shuffle and not ld.drop_last and ld.num_workers == 2 and ld.prefetch == 3
    assert ld.seed == 4 and ld.edge_dir == "out" and ld.dataset is cora
    assert "NeighborLoader" in repr(ld)
    st = ld.stats()
    assert set(st) == {"batches", "sample_seconds", "gather_seconds", "gather_bytes",
                       "wait_seconds"}
    default = fanout.NeighborLoader(cora, [5])
    assert default.num_workers == max(1, fanout.worker_thread_budget())


# ---- lifetime ----------------------------------------------------------------------------

def test_batch_outlives_loader(cora):
    loader = fanout.NeighborLoader(cora, [10, 10], batch_size=64, num_workers=2)
    it = iter(loader)
    b = next(it)
    digest = b.digest()
    node = np.array(b.node)
    x_view = b.x
    del it, loader
    gc.collect()
    assert b.digest() == digest and np.array_equal(b.node, node)
    assert b.loader.batch_size == 64  # the loader lives on through the batch
    del b
    gc.collect()
    assert np.array_equal(x_view, cora.features[node])  # a view alone keeps it all


def test_many_held_batches(cora):
    loader = fanout.NeighborLoader(cora, [5, 5], batch_size=16, num_workers=2, prefetch=2)
    held = list(loader)  # holds every batch: the loader adds slots rather than block
    assert len(held) == len(loader)
    digests = [b.digest() for b in held]
    assert digests == [b.digest() for b in fanout.NeighborLoader(cora, [5, 5], batch_size=16,
                                                                  num_workers=0)]


def test_batches_valid_after_dataset_close(cora_dir):
    ds = fanout.Dataset(cora_dir)
    loader = fanout.NeighborLoader(ds, [10], batch_size=100)
    b = next(iter(loader))
    d = b.digest()
    ds.close()
    del loader
    gc.collect()
    assert b.digest() == d and b.x.shape[0] == b.num_nodes


# ---- errors ------------------------------------------------------------------------------

def test_argument_errors(cora):
    def check(exc, match, **kw):
        args = dict(num_neighbors=[5])
        args.update(kw)
        with pytest.raises(exc, match=match) as e:
            fanout.NeighborLoader(cora, **args)
        return e.value

    e = check(ValueError, "-2", num_neighbors=[5, -2])
    assert e.status == "FO_EINVAL"
    check(ValueError, "n_hops|hops", num_neighbors=[])
    e = check(ValueError, "99999", input_nodes=[0, 99999])
    assert e.status == "FO_ERANGE"
    check(ValueError, "no split 'nope'", input_nodes="nope")
    check(ValueError, "batch_size", batch_size=0)
    check(ValueError, "num_workers", num_workers=1000)
    check(ValueError, "prefetch", prefetch=-1)
    check(ValueError, "edge_dir", edge_dir="sideways")
    check(TypeError, "num_neighbors", num_neighbors=[1.5])
    with fanout.Dataset(cora.path) as ds:
        pass
    with pytest.raises(ValueError, match="closed"):
        fanout.NeighborLoader(ds, [5])


def test_edge_dir_out_needs_csr(tmp_path):
    fanout.import_edges([0, 1], [1, 2], tmp_path / "g")
    with fanout.Dataset(tmp_path / "g") as ds:
        with pytest.raises(ValueError, match="csr"):
            fanout.NeighborLoader(ds, [5], edge_dir="out")


def test_corrupt_dataset_raises_format_error(tmp_path, rand_dir):
    path = tmp_path / "bad"
    shutil.copytree(rand_dir, path)
    # Overwrite the middle of csc_indices with out-of-range node ids (the header stays).
    f = path / "csc_indices.npy"
    arr = np.load(f, mmap_mode="r+")
    arr[len(arr) // 2:] = 2**30
    arr.flush()
    del arr
    with fanout.Dataset(path) as ds:
        with pytest.raises(fanout.FormatError):
            ds.verify()
        loader = fanout.NeighborLoader(ds, [-1], batch_size=100, num_workers=2,
                                       features=False)
        errors, ok = [], 0
        it = iter(loader)
        for _ in range(len(loader)):
            try:
                next(it)
                ok += 1
            except fanout.FormatError as e:
                errors.append(e)
        assert errors and ok + len(errors) == len(loader)
        assert "csc_indices" in str(errors[0]) and errors[0].status == "FO_EFORMAT"
        assert isinstance(errors[0], ValueError)
        del it, loader  # destroyable after worker errors


# ---- threads and signals -----------------------------------------------------------------

def test_loaders_in_threads(cora):
    ref = py_digest(cora, [10, 10], 64, features=True, threads=1, seed=2)
    results, errors = [], []

    def work():
        try:
            for _ in range(3):
                results.append(py_digest(cora, [10, 10], 64, features=True, threads=1, seed=2))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and results == [ref] * 12


def test_one_loader_shared_by_threads(cora):
    loader = fanout.NeighborLoader(cora, [10, 10], batch_size=16, num_workers=2)
    ref = {b.index: b.digest() for b in fanout.NeighborLoader(cora, [10, 10], batch_size=16,
                                                              num_workers=0)}
    it = iter(loader)
    got, lock, errors = {}, threading.Lock(), []

    def work():
        try:
            while True:
                b = next(it, None)
                if b is None:
                    return
                with lock:
                    got[b.index] = b.digest()
                del b  # released on this thread, maybe while another waits in next()
        except Exception as e:  # pragma: no cover
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and got == ref


def test_iteration_releases_the_gil(big_dir):
    with fanout.Dataset(big_dir) as ds:
        loader = fanout.NeighborLoader(ds, [10, 10], batch_size=2048, num_workers=1,
                                       prefetch=1)
        ticks, done = [], threading.Event()

        def ticker():
            while not done.is_set():
                ticks.append(1)
                time.sleep(0.002)

        t = threading.Thread(target=ticker)
        t.start()
        t0 = time.perf_counter()
        n = sum(1 for _ in loader)
        dt = time.perf_counter() - t0
        done.set()
        t.join()
        assert n == len(loader)
        assert dt < 0.1 or len(ticks) >= 10


@pytest.mark.parametrize("workers", [0, 2])
def test_ctrl_c_stops_iteration(big_dir, workers):
    with fanout.Dataset(big_dir) as ds:
        loader = fanout.NeighborLoader(ds, [10, 10, 10], batch_size=64, num_workers=workers,
                                       features=False)
        count = 0
        timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        t0 = time.perf_counter()
        try:
            with pytest.raises(KeyboardInterrupt):
                while time.perf_counter() - t0 < 60:
                    for _ in loader:
                        count += 1
        finally:
            timer.cancel()
        assert count > 0 and time.perf_counter() - t0 < 30
        # Still usable: the next iteration starts the next epoch at batch 0.
        b = next(iter(loader))
        assert b.index == 0
        del b, loader  # and destroyable with workers mid-epoch


def test_forked_child_refuses_the_loader(cora_dir):
    """A loader's threads do not survive fork(): the child gets RuntimeError, and exits
    normally (the loader's finalizer must not wait for threads that are not there)."""
    from conftest import run_python

    p = run_python(f"""
import os, sys, fanout
ds = fanout.Dataset({cora_dir!r})
loader = fanout.NeighborLoader(ds, [5], batch_size=100, num_workers=2)
b = next(iter(loader))
pid = os.fork()
if pid == 0:
    try:
        next(iter(loader))
        code = 3
    except RuntimeError as e:
        code = 0 if "fork" in str(e) else 4
    assert b.digest() > 0  # the batch's memory is still readable in the child
    del b
    sys.exit(code)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status), sum(1 for _ in loader))
""", timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["0", str(28)]
