"""tests/mpi/py_dist_link.py: fanout.DistLinkNeighborLoader under mpiexec (run by
tests/mpi/run.sh, case "python_link"; PYTHONPATH names the build's python/ directory).

  same PARTS PLAIN PPM   every rank's batches, for several option sets (binary and triplet
                         negatives, strict or not, exclusion on and off, labels, shuffle, tail
                         keep / drop / pad, two epochs each), equal the single-process
                         LinkNeighborLoader's batch of the same index over the unpartitioned
                         PLAIN array by array (n_id, e_id, edge_index, x, edge_label_index,
                         edge_label, input_id, triplet indices, negative and exclusion counts),
                         and each rank gets exactly the batch indexes its tail mode deals it
                         (prints "ok   python link rank R: ...")
  local PARTS PLAIN PPM  seed_placement="local" (mpi4py gathers every rank's batches): tail keep
                         takes every seed edge exactly once across the ranks, each on the machine
                         of its batch index (and a destination's edges on one machine); drop and
                         pad give every rank the same count; a second loader the same batches
  errors PARTS PPM       bad arguments raise on every rank naming the argument (dtype, shape,
                         range, labels, times, negatives, tail, context, an edge split the
                         parts do not have); options that differ
                         on one rank (negative amount, batch size, seed edges) raise ValueError
                         on every rank naming the option; the context still works afterwards
                         (prints "ok   python link errors rank R: N checks")
  typed PARTS PLAIN PPM  a typed partitioned dataset, seed edges of paper__writes__author
                         (given as ((src, rel, dst), [2, B]) and as edge_type="src__rel__dst"):
                         every rank's batches equal LinkNeighborLoader's over PLAIN per node
                         and edge type (n_id_dict, e_id_dict, edge_index_dict, x_dict) and in
                         edge_label_index, edge_label, input_id, triplet indices and counts
                         (binary and triplet, exclusion of the edges and their reverses); ids
                         out of the dst type's range and an unknown edge type raise naming them
                         (prints "ok   python link typed rank R: ...")
  temporal PARTS PLAIN PPM  a graph with edge times: edge_label_time seeds, time_attr "edge",
                         temporal_strategy uniform and last, binary negatives, with and
                         without exclude_seed_edges: every rank's batches equal
                         LinkNeighborLoader's (n_id, e_id, edge_index, batch, edge_label_index,
                         edge_label, input_id, num_excluded) (prints "ok   python link
                         temporal rank R: ...")
  abort PARTS PPM        rank 1 alone gives a seed id out of range (refused before the
                         collective step) and calls ctx.abort with the message: rank 0, waiting
                         in the collective create, raises with it (prints "rank R: raised ...")
  uncaught PARTS PPM     the same error left uncaught on rank 1: the excepthook aborts the
                         context and the exit ends the job (MPI_Abort), no rank waits for the
                         deadline
"""
import functools
import os
import sys
import time

import numpy as np

import fanout


def say(text):
    """One line in one write (mpiexec forwards each write whole)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def seed_edges(plain_path, n=300):
    """n distinct edges of the unpartitioned graph, with labels in {0, 1} (binary negatives
    shift them to {1, 2}, PyG)."""
    ds = fanout.Dataset(plain_path)
    rng = np.random.default_rng(2)
    eids = rng.choice(ds.num_edges, n, replace=False)
    eli = ds.edge_endpoints(eids)
    lab = rng.integers(0, 2, n)
    ds.close()
    return eli, lab


# (name, LinkNeighborLoader arguments, tail)
CASES = [
    ("binary strict exclude", dict(neg_sampling=("binary", 1.0), exclude_seed_edges=True,
                                   shuffle=True, label=True), "keep"),
    ("triplet 3 strict", dict(neg_sampling=("triplet", 3), shuffle=True), "keep"),
    ("triplet 2 exclude", dict(neg_sampling=("triplet", 2), exclude_seed_edges=True), "pad"),
    ("binary 2 non-strict", dict(neg_sampling=("binary", 2.0), strict=False, shuffle=True,
                                 label=True), "drop"),
    ("no negatives exclude", dict(exclude_seed_edges=True, shuffle=True, drop_last=True), "keep"),
    # the remote feature cache (DistLinkNeighborLoader only): batches as without
    ("binary lookahead cache", dict(neg_sampling=("binary", 1.0), shuffle=True,
                                    dist=dict(cache_bytes=1 << 18, cache_policy="lookahead",
                                              lookahead=3)), "keep"),
    ("binary frequency cache", dict(neg_sampling=("binary", 1.0), exclude_seed_edges=True,
                                    dist=dict(cache_bytes=1 << 18, cache_policy="frequency")),
     "keep"),
    # pipelining threads (with the lookahead cache): batches as without
    ("binary exclude pipeline 2", dict(neg_sampling=("binary", 1.0), exclude_seed_edges=True,
                                       shuffle=True, label=True,
                                       dist=dict(cache_bytes=1 << 18, cache_policy="lookahead",
                                                 lookahead=3, pipeline=2)), "keep"),
    ("triplet 2 pipeline 3", dict(neg_sampling=("triplet", 2), shuffle=True,
                                  dist=dict(cache_bytes=1 << 18, cache_policy="lookahead",
                                            lookahead=2, pipeline=3)), "pad"),
]
COMMON = dict(num_neighbors=[5, 5], batch_size=64, seed=11)


def fields(b):
    out = {k: getattr(b, k) for k in ("n_id", "e_id", "edge_index", "edge_label_index",
                                      "edge_label", "input_id", "num_sampled_nodes",
                                      "num_sampled_edges", "num_neg", "num_neg_missing",
                                      "num_excluded", "src_index", "dst_pos_index",
                                      "dst_neg_index", "x") if hasattr(b, k)}
    return out


def same(parts, plain, ppm):
    eli, lab = seed_edges(plain)
    fails, checked, link_req = [], 0, 0
    with fanout.DistContext(procs_per_machine=ppm, deadline=60) as ctx:
        R, r = ctx.world_size, ctx.rank
        ds = ctx.open_dataset(parts)
        single = fanout.Dataset(plain)
        for name, args, tail in CASES:
            args = dict(args)
            if args.pop("label", False):
                args["edge_label"] = lab
            dist_only = args.pop("dist", {})
            want_l = fanout.LinkNeighborLoader(single, edge_label_index=eli, **COMMON, **args)
            got_l = fanout.DistLinkNeighborLoader(ctx, ds, edge_label_index=eli, tail=tail,
                                                  **COMMON, **args, **dist_only)
            B = len(want_l)
            n = {"keep": B // R + (r < B % R), "drop": B // R, "pad": -(-B // R)}[tail]
            if len(got_l) != n:
                fails.append(f"{name}: len {len(got_l)}, expected {n} of {B} ({tail})")
            want_idx = [(r + i * R) % B for i in range(n)]
            for e in range(2):
                want = {b.index: fields(b) for b in want_l}
                got = list(got_l)
                if [b.index for b in got] != want_idx or any(b.epoch != e for b in got):
                    fails.append(f"{name}: epoch {e}: batches {[(b.epoch, b.index) for b in got]}, "
                                 f"expected indexes {want_idx}")
                    continue
                for b in got:
                    link_req += b.traffic["link_requests"]
                    g, w = fields(b), want[b.index]
                    if "x" not in g or g["x"].shape != (len(g["n_id"]), 1433):
                        fails.append(f"{name}: batch {b.index}: no features gathered")
                    if set(g) != set(w):
                        fails.append(f"{name}: batch {b.index}: fields {sorted(g)} vs {sorted(w)}")
                        continue
                    for k in w:
                        if not np.array_equal(np.asarray(g[k]), np.asarray(w[k])):
                            fails.append(f"{name}: epoch {e} batch {b.index}: {k} differs from "
                                         f"LinkNeighborLoader's")
                    checked += 1
            if name.startswith("binary strict exclude") and not any(
                    fields(b)["num_excluded"] for b in fanout.LinkNeighborLoader(
                        single, edge_label_index=eli, **COMMON, **args)):
                fails.append(f"{name}: no seed edge excluded (the case tests nothing)")
            del got_l, got
    if fails:
        say("\n".join(f"FAIL: rank {r}: {f}" for f in fails[:20]))
        sys.exit(1)
    say(f"ok   python link rank {r}: {checked} batches of {len(CASES)} option sets equal "
        f"LinkNeighborLoader's ({R} ranks, {link_req} LINK requests)")


TYPED_ET = ("paper", "writes", "author")
TYPED_CASES = [
    ("binary strict", dict(neg_sampling=("binary", 1.0), shuffle=True)),
    ("triplet 2 exclude", dict(neg_sampling=("triplet", 2), exclude_seed_edges=True)),
    ("binary non-strict exclude", dict(neg_sampling=("binary", 1.0), strict=False,
                                       exclude_seed_edges=True, shuffle=True)),
]


def typed(parts, plain, ppm):
    fails, checked, excluded = [], 0, 0
    single = fanout.Dataset(plain)
    eli = single.edge_endpoints(np.random.default_rng(3).choice(
        single.num_edges_dict[TYPED_ET], 100, replace=False), TYPED_ET)
    with fanout.DistContext(procs_per_machine=ppm, deadline=60) as ctx:
        R, r = ctx.world_size, ctx.rank
        ds = ctx.open_dataset(parts)
        for i, (name, args) in enumerate(TYPED_CASES):
            kw = dict(num_neighbors=[4, 3], batch_size=16, seed=4, **args)
            if i % 2:  # both ways of naming the edge type
                seeds = dict(edge_label_index=eli, edge_type="paper__writes__author")
            else:
                seeds = dict(edge_label_index=(TYPED_ET, eli))
            want = {b.index: b for b in fanout.LinkNeighborLoader(single, **seeds, **kw)}
            got = list(fanout.DistLinkNeighborLoader(ctx, ds, **seeds, **kw))
            B = len(want)
            if [b.index for b in got] != list(range(r, B, R)):
                fails.append(f"{name}: batches {[b.index for b in got]} of {B}")
            for b in got:
                w = want[b.index]
                if b.edge_type != TYPED_ET:
                    fails.append(f"{name}: batch {b.index}: edge_type {b.edge_type}")
                for k in ("n_id_dict", "e_id_dict", "edge_index_dict", "x_dict",
                          "num_sampled_nodes_dict"):
                    g, ww = getattr(b, k), getattr(w, k)
                    if set(g) != set(ww) or not all(np.array_equal(g[t], ww[t]) for t in g):
                        fails.append(f"{name}: batch {b.index}: {k} differs from "
                                     f"LinkNeighborLoader's")
                if set(b.x_dict) != {"paper", "author"}:
                    fails.append(f"{name}: batch {b.index}: x_dict has {sorted(b.x_dict)}")
                for k in ("edge_label_index", "edge_label", "input_id", "num_neg",
                          "num_neg_missing", "num_excluded", "src_index", "dst_pos_index",
                          "dst_neg_index"):
                    if hasattr(w, k) != hasattr(b, k) or (
                            hasattr(w, k) and not np.array_equal(getattr(b, k), getattr(w, k))):
                        fails.append(f"{name}: batch {b.index}: {k} differs")
                excluded += b.num_excluded
                checked += 1
            del got
        # range of the dst type (author: 150 nodes), an unknown edge type
        for exc, text, bad in (
                (ValueError, "edge_label_index[1][1] = 150 is not a node id in [0, 150)",
                 dict(edge_label_index=(TYPED_ET, np.array([[0, 1], [2, 150]])))),
                (ValueError, "edge_type", dict(edge_label_index=eli, edge_type="paper__reads__author"))):
            try:
                fanout.DistLinkNeighborLoader(ctx, ds, num_neighbors=[2], **bad)
            except exc as e:
                if text not in str(e):
                    fails.append(f"{exc.__name__} without {text!r}: {e}")
            else:
                fails.append(f"no {exc.__name__} ({text!r})")
    if not excluded:
        fails.append("no seed edge excluded (the exclusion cases test nothing)")
    if fails:
        say("\n".join(f"FAIL: rank {r}: {f}" for f in fails[:20]))
        sys.exit(1)
    say(f"ok   python link typed rank {r}: {checked} batches of {len(TYPED_CASES)} option sets "
        f"equal LinkNeighborLoader's ({R} ranks, {excluded} positions excluded)")


def temporal(parts, plain, ppm):
    fails, checked, excluded = [], 0, 0
    single = fanout.Dataset(plain)
    rng = np.random.default_rng(1)
    eli = single.edge_endpoints(rng.choice(single.num_edges, 80, replace=False))
    t = rng.integers(100, 1000, 80)
    with fanout.DistContext(procs_per_machine=ppm, deadline=60) as ctx:
        R, r = ctx.world_size, ctx.rank
        ds = ctx.open_dataset(parts)
        for strategy, excl in (("uniform", False), ("last", False), ("uniform", True),
                               ("last", True)):
            kw = dict(num_neighbors=[4, 3], batch_size=16, seed=4, shuffle=True,
                      neg_sampling=("binary", 1.0), edge_label_index=eli, edge_label_time=t,
                      time_attr="edge", temporal_strategy=strategy, exclude_seed_edges=excl)
            want = {b.index: b for b in fanout.LinkNeighborLoader(single, **kw)}
            got = list(fanout.DistLinkNeighborLoader(ctx, ds, **kw))
            if [b.index for b in got] != list(range(r, len(want), R)):
                fails.append(f"{strategy}: batches {[b.index for b in got]} of {len(want)}")
            for b in got:
                for k in ("n_id", "e_id", "edge_index", "batch", "x", "edge_label_index",
                          "edge_label", "input_id", "num_neg_missing", "num_excluded"):
                    if hasattr(b, k) != hasattr(want[b.index], k) or (hasattr(b, k) and not
                            np.array_equal(getattr(b, k), getattr(want[b.index], k))):
                        fails.append(f"{strategy}: batch {b.index}: {k} differs")
                if not hasattr(b, "batch"):
                    fails.append(f"{strategy}: batch {b.index}: no batch (temporal is disjoint)")
                checked += 1
                excluded += b.num_excluded
            del got
        # a stored edge split: the parts carry its endpoints, not its edge times yet; with the
        # split's stored times as edge_label_time the batches are LinkNeighborLoader's over it
        kw = dict(num_neighbors=[4, 3], batch_size=16, seed=4, shuffle=True,
                  neg_sampling=("binary", 1.0), edge_label_index="train", time_attr="edge",
                  exclude_seed_edges=True)
        want_l = fanout.LinkNeighborLoader(single, **kw)
        want = {b.index: b for b in want_l}
        try:
            fanout.DistLinkNeighborLoader(ctx, ds, **kw)
            fails.append("split without edge_label_time: no ValueError")
        except ValueError as e:
            if "partitions do not carry the split's edge times yet" not in str(e):
                fails.append(f"split without edge_label_time: {e}")
        got = list(fanout.DistLinkNeighborLoader(ctx, ds, edge_label_time=want_l._time, **kw))
        if [b.index for b in got] != list(range(r, len(want), R)):
            fails.append(f"split: batches {[b.index for b in got]} of {len(want)}")
        for b in got:
            for k in ("n_id", "e_id", "edge_index", "batch", "edge_label_index", "input_id",
                      "num_excluded"):
                if not np.array_equal(getattr(b, k), getattr(want[b.index], k)):
                    fails.append(f"split: batch {b.index}: {k} differs")
            checked += 1
        del got
    if not excluded:
        fails.append("no seed edge excluded (the exclusion cases test nothing)")
    if fails:
        say("\n".join(f"FAIL: rank {r}: {f}" for f in fails[:20]))
        sys.exit(1)
    say(f"ok   python link temporal rank {r}: {checked} batches (uniform and last, with and "
        f"without exclude_seed_edges, {excluded} positions excluded) equal "
        f"LinkNeighborLoader's ({R} ranks)")


def local(parts, plain, ppm):
    from mpi4py import MPI

    world = MPI.COMM_WORLD
    eli, _ = seed_edges(plain)
    n = eli.shape[1]
    fails, checked, totals, home = [], 0, {}, {}
    with fanout.DistContext(comm=world, procs_per_machine=ppm, deadline=60) as ctx:
        R, r = ctx.world_size, ctx.rank
        machines = R // ppm
        ds = ctx.open_dataset(parts)
        for tail in ("keep", "drop", "pad"):
            kw = dict(COMMON, edge_label_index=eli, neg_sampling=("binary", 1.0),
                      exclude_seed_edges=True, shuffle=True, seed_placement="local", tail=tail)
            la = fanout.DistLinkNeighborLoader(ctx, ds, **kw)
            lb = fanout.DistLinkNeighborLoader(ctx, ds, **kw)
            for e in range(2):
                got = [(b.index, b.input_id.copy(), b.n_id.copy(), b.edge_label_index.copy())
                       for b in la]
                again = [(b.index, b.input_id.copy(), b.n_id.copy(), b.edge_label_index.copy())
                         for b in lb]
                if [g[0] for g in got] != [a[0] for a in again] or not all(
                        all(np.array_equal(x, y) for x, y in zip(g[1:], a[1:]))
                        for g, a in zip(got, again)):
                    fails.append(f"tail {tail} epoch {e}: a second loader gives other batches")
                for g in got:
                    if g[0] % machines != r // ppm:
                        fails.append(f"tail {tail}: batch {g[0]} on machine {r // ppm}")
                ids = world.allgather([(g[0], g[1].tolist()) for g in got])
                n_rank = [len(x) for x in ids]
                flat = sorted(i for x in ids for _, ii in x for i in ii)
                if tail == "keep" and flat != list(range(n)):
                    fails.append(f"tail keep epoch {e}: {len(flat)} seed edges taken, "
                                 f"{len(set(flat))} distinct, of {n}")
                if tail != "keep" and len(set(n_rank)) != 1:
                    fails.append(f"tail {tail} epoch {e}: batches per rank {n_rank}")
                if tail == "pad" and sorted(set(flat)) != list(range(n)):
                    fails.append(f"tail pad epoch {e}: {len(set(flat))} of {n} seed edges")
                for x in ids:
                    for b, ii in x:
                        for i in ii:  # a seed edge lives with its destination's machine
                            home.setdefault(int(eli[1][i]), set()).add(b % machines)
                totals.setdefault(tail, []).append(sum(n_rank))
                checked += len(got)
            del la, lb
    if any(len(v) != 1 for v in home.values()):
        fails.append("a destination's seed edges batched on two machines")
    if not (totals["drop"][0] <= totals["keep"][0] <= totals["pad"][0]):
        fails.append(f"batch totals {totals}")
    if fails:
        say("\n".join(f"FAIL: rank {r}: {f}" for f in fails[:20]))
        sys.exit(1)
    say(f"ok   python link local rank {r}: {checked} batches, every seed edge once (keep), "
        f"totals drop {totals['drop'][0]} keep {totals['keep'][0]} pad {totals['pad'][0]}")


def errors(parts, ppm):
    fails, n = [], [0]
    ctx = fanout.DistContext(procs_per_machine=ppm, deadline=60)
    ds = ctx.open_dataset(parts)
    N = ds.num_nodes
    eli = np.array([[0, 1, 2, 3], [5, 6, 7, 8]])

    def expect(exc, text, fn):
        n[0] += 1
        try:
            fn()
        except exc as e:
            if text not in str(e):
                fails.append(f"{exc.__name__} without {text!r}: {e}")
        except Exception as e:  # noqa: BLE001 - reported
            fails.append(f"{type(e).__name__} instead of {exc.__name__} ({text!r}): {e}")
        else:
            fails.append(f"no {exc.__name__} ({text!r})")

    def mk(**kw):
        a = dict(num_neighbors=[3], edge_label_index=eli, batch_size=2)
        a.update(kw)
        return fanout.DistLinkNeighborLoader(ctx, ds, **a)

    # refused before the collective step, on every rank alike
    expect(TypeError, "context: expected a fanout.DistContext",
           lambda: fanout.DistLinkNeighborLoader(ds, ds, edge_label_index=eli))
    expect(TypeError, "edge_label_index: expected integer ids, got dtype float64",
           lambda: mk(edge_label_index=eli.astype(np.float64)))
    expect(ValueError, "edge_label_index: expected shape [2, B], got (3, 4)",
           lambda: mk(edge_label_index=np.zeros((3, 4), np.int64)))
    expect(ValueError, "edge_label_index: expected shape [2, B], got (8,)",
           lambda: mk(edge_label_index=np.zeros(8, np.int64)))
    expect(ValueError, f"edge_label_index[1][2] = {N} is not a node id in [0, {N})",
           lambda: mk(edge_label_index=np.array([[0, 1, 2], [3, 4, N]])))
    expect(ValueError, "edge_label_index[0][1] = -1 is not a node id",
           lambda: mk(edge_label_index=np.array([[0, -1], [3, 4]])))
    expect(ValueError, "edge_label_index[0][0] = 18446744073709551615 does not fit in int64",
           lambda: mk(edge_label_index=np.array([[2 ** 64 - 1], [3]], dtype=np.uint64)))
    expect(ValueError, "edge_label: expected shape [4], got (3,)",
           lambda: mk(edge_label=np.array([1, 0, 1])))
    expect(TypeError, "edge_label: expected integer labels",
           lambda: mk(edge_label=np.array(["a", "b", "c", "d"])))
    expect(ValueError, "edge_label[1] = 0.5 is not an integer class",
           lambda: mk(edge_label=np.array([1.0, 0.5, 1.0, 0.0])))
    expect(ValueError, "edge_label_time needs time_attr",
           lambda: mk(edge_label_time=np.arange(4)))
    expect(ValueError, "edge_label_time: expected 4 integer times",
           lambda: mk(edge_label_time=np.arange(3), time_attr="edge"))
    expect(ValueError, "neg_sampling: mode 'ternary'", lambda: mk(neg_sampling=("ternary", 1)))
    expect(ValueError, "batch_size: expected >= 1, got 0", lambda: mk(batch_size=0))
    expect(ValueError, "edge_label_index: give the seed edges", lambda: mk(edge_label_index=None))
    expect(ValueError, "tail: 'all' is not 'keep', 'drop' or 'pad'", lambda: mk(tail="all"))
    expect(ValueError, "seed_placement: 'remote' is not 'global' or 'local'",
           lambda: mk(seed_placement="remote"))
    # refused by the C loader, after the options check, on every rank alike
    expect(ValueError, "negative amount -1 is not > 0", lambda: mk(neg_sampling=("binary", -1)))
    expect(ValueError, "triplet negative amount 1.5 is not an integer",
           lambda: mk(neg_sampling=("triplet", 1.5)))
    expect(ValueError, "pipeline 1 needs cache_policy lookahead with cache_bytes > 0",
           lambda: mk(pipeline=1))
    # a stored edge split: read by the C loader (these parts have none)
    expect(ValueError, "has no edge split 'train'", lambda: mk(edge_label_index="train"))
    expect(ValueError, "edge_label: not with the edge split 'train'",
           lambda: mk(edge_label_index="train", edge_label=[1]))
    expect(ValueError, "has no edge split 'train'",
           lambda: mk(edge_label_index="train", edge_label_time=[1], time_attr="edge"))
    # options that differ on rank 1: every rank raises naming the option (not a hang)
    one = ctx.rank == 1
    expect(ValueError, "option neg_sampling differs between processes: rank 0 has binary 1, "
                       "rank 1 has binary 2",
           lambda: mk(neg_sampling=("binary", 2.0 if one else 1.0)))
    expect(ValueError, "option batch_size differs between processes: rank 0 has 2, rank 1 has 3",
           lambda: mk(batch_size=3 if one else 2))
    expect(ValueError, "option seed_placement differs between processes: rank 0 has global, "
                       "rank 1 has local", lambda: mk(seed_placement="local" if one else "global"))
    expect(ValueError, "option cache_bytes differs between processes: rank 0 has 0, rank 1 has "
                       "1048576", lambda: mk(cache_bytes=(1 << 20) if one else 0))
    expect(ValueError, "option lookahead differs between processes: rank 0 has 8, rank 1 has 4",
           lambda: mk(cache_bytes=1 << 20, cache_policy="lookahead", lookahead=4 if one else 8))
    expect(ValueError, "option edge_label_index differs between processes",
           lambda: mk(edge_label_index=eli + (1 if one else 0)))
    expect(ValueError, "option exclude_seed_edges differs between processes",
           lambda: mk(exclude_seed_edges=one))
    if ctx.failed() is not None:
        fails.append(f"the context failed: {ctx.failed()}")
    # the context still works: a loader after the refused ones
    loader = mk(neg_sampling=("binary", 1.0))
    got = sum(1 for _ in loader)
    if got != len(loader) or got != 2 // ctx.world_size + (ctx.rank < 2 % ctx.world_size):
        fails.append(f"{got} batches after the errors, len {len(loader)}")
    expect(TypeError, "sample: not available", functools.partial(loader.sample, [0], [1]))
    expect(RuntimeError, "still use", ctx.finalize)
    del loader
    ctx.finalize()
    expect(ValueError, "finalized", lambda: mk())
    if fails:
        say("\n".join(f"FAIL: rank {ctx.rank}: {f}" for f in fails))
        sys.exit(1)
    say(f"ok   python link errors rank {ctx.rank}: {n[0]} checks")


def refused(mode, parts, ppm):
    ctx = fanout.DistContext(procs_per_machine=ppm, deadline=60)
    ds = ctx.open_dataset(parts)
    eli = np.array([[0, 1, 2, 3], [5, 6, 7, 8]])
    if ctx.rank == 1:
        eli = np.array([[0, 1, 2, 3], [5, 6, 7, 10 ** 6]])
    t0 = time.monotonic()
    try:
        fanout.DistLinkNeighborLoader(ctx, ds, num_neighbors=[3], edge_label_index=eli)
    except Exception as e:  # noqa: BLE001 - the test prints whatever it is
        say(f"rank {ctx.rank}: raised {type(e).__name__} after {time.monotonic() - t0:.1f} s: {e}")
        if ctx.rank == 1 and mode == "uncaught":
            raise  # the excepthook aborts the context; the exit ends the job (MPI_Abort)
        if ctx.rank == 1:
            ctx.abort(f"{type(e).__name__}: {e}")
            time.sleep(10)  # rank 0 raises meanwhile; mpiexec ends the job when it exits
        time.sleep(1)
        os._exit(1)
    say(f"rank {ctx.rank}: FAIL: no exception")
    os._exit(2)


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "same":
        same(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif mode == "typed":
        typed(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif mode == "temporal":
        temporal(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif mode == "local":
        local(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif mode == "errors":
        errors(sys.argv[2], int(sys.argv[3]))
    elif mode in ("abort", "uncaught"):
        refused(mode, sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(f"unknown mode {mode}")
