"""tests/mpi/py_dist_ablp.py: fanout.DistABLPLoader (GiGL's name) under mpiexec (run by
tests/mpi/run.sh, case "ablp"; PYTHONPATH names the build's python/ directory).

  same PARTS PLAIN PPM   every rank's batches, for several option sets (random negatives
                         strict or not, no hard negatives, shuffle, tail keep / drop / pad, two
                         epochs each), equal the single-process ABLPLoader's batch of the same
                         index over the unpartitioned PLAIN array by array (n_id_dict,
                         e_id_dict, edge_index_dict, x_dict, anchor_index, y_positive,
                         y_negative, random_negative, input_id), each rank gets exactly the
                         batch indexes its tail mode deals it, and no batch sends more than one
                         LABEL request per remote machine (prints "ok   python ablp rank R: ...")
  local PARTS PPM        seed_placement="local" (mpi4py gathers every rank's batches): tail
                         keep takes every anchor of the epoch exactly once across the ranks, each
                         batch's anchors owned by the batch's machine (index mod machines) and
                         no LABEL request; drop and pad give every rank the same count (the
                         fewest / the most); a second loader gives the same batches
  errors PARTS PPM       options that differ on one rank (random negatives, anchors) raise
                         ValueError on every rank naming the option; an unknown supervision type
                         raises on every rank; the context still works afterwards (prints
                         "ok   python ablp errors rank R: N checks")
"""
import sys

import numpy as np

import fanout


def say(text):
    """One line in one write (mpiexec forwards each write whole)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


# (name, ABLPLoader arguments, tail)
CASES = [
    ("random 2 strict", dict(num_random_negatives=2, shuffle=True), "keep"),
    ("random 3 non-strict", dict(num_random_negatives=3, strict=False), "drop"),
    ("no hard negatives", dict(hard_negatives=False, shuffle=True, drop_last=True), "pad"),
    ("all anchors", dict(input_nodes=None, supervision_edge_type="likes"), "keep"),
    # pipelining threads (DistABLPLoader only, with the lookahead cache): batches as without
    ("random 2 pipeline 2", dict(num_random_negatives=2, shuffle=True,
                                 dist=dict(cache_bytes=4096, cache_policy="lookahead", lookahead=3,
                                           pipeline=2)), "keep"),
    ("random 3 pipeline 3", dict(num_random_negatives=3, shuffle=True,
                                 dist=dict(cache_bytes=4096, cache_policy="lookahead", lookahead=2,
                                           pipeline=3)), "pad"),
]
KEYS = ("anchor_index", "y_positive", "y_negative", "input_id", "num_random_missing")
DICTS = ("n_id_dict", "e_id_dict", "edge_index_dict", "x_dict", "num_sampled_nodes_dict")


def expected(B, R, r, tail):
    if tail == "keep":
        return list(range(r, B, R))
    if tail == "drop":
        return [r + i * R for i in range(B // R)]
    return [(r + i * R) % B for i in range(-(-B // R))]


def same(parts, plain, ppm):
    fails, checked, labels = [], 0, 0
    single = fanout.Dataset(plain)
    anchors = np.random.default_rng(7).integers(0, 300, 250)
    with fanout.DistContext(procs_per_machine=ppm, deadline=60) as ctx:
        R, r = ctx.world_size, ctx.rank
        machines = R // ppm
        ds = ctx.open_dataset(parts)
        for name, args, tail in CASES:
            kw = dict(num_neighbors=[4, 3], batch_size=24, seed=5, input_nodes=anchors)
            kw.update(args)
            dist_only = kw.pop("dist", {})
            want_l = fanout.ABLPLoader(single, **kw)
            got_l = fanout.DistABLPLoader(ctx, ds, tail=tail, **kw, **dist_only)
            if got_l.supervision_edge_type != want_l.supervision_edge_type or \
                    got_l.negative_edge_type != (want_l.negative_edge_type):
                fails.append(f"{name}: types {got_l.supervision_edge_type} "
                             f"{got_l.negative_edge_type}")
            for e in range(2):
                want = {b.index: b for b in want_l}
                got = list(got_l)
                B = len(want)
                if [b.index for b in got] != expected(B, R, r, tail):
                    fails.append(f"{name} epoch {e}: batches {[b.index for b in got]} of {B}")
                for b in got:
                    w = want[b.index]
                    for k in DICTS:
                        g, ww = getattr(b, k), getattr(w, k)
                        if set(g) != set(ww) or not all(np.array_equal(g[t], ww[t]) for t in g):
                            fails.append(f"{name}: batch {b.index}: {k} differs from ABLPLoader's")
                    for k in KEYS + ("random_negative",):
                        if hasattr(w, k) != hasattr(b, k) or (
                                hasattr(w, k) and not np.array_equal(getattr(b, k), getattr(w, k))):
                            fails.append(f"{name}: batch {b.index}: {k} differs")
                    if b.traffic["label_requests"] > machines - 1:
                        fails.append(f"{name}: batch {b.index}: {b.traffic['label_requests']} "
                                     f"LABEL requests for {machines} machines")
                    labels += b.traffic["label_requests"]
                    checked += 1
            del got_l
    if machines > 1 and not labels:
        fails.append("no LABEL request (no anchor of another machine: the test checks nothing)")
    if fails:
        say("\n".join(f"FAIL: rank {r}: {f}" for f in fails[:20]))
        sys.exit(1)
    say(f"ok   python ablp rank {r}: {checked} batches of {len(CASES)} option sets equal "
        f"ABLPLoader's ({R} ranks, {labels} LABEL requests)")


def local(parts, ppm):
    from mpi4py import MPI

    world = MPI.COMM_WORLD
    fails, checked = [], 0
    anchors = np.random.default_rng(7).integers(0, 300, 250)
    book = None
    with fanout.DistContext(comm=world, procs_per_machine=ppm, deadline=60) as ctx:
        R, r = ctx.world_size, ctx.rank
        machines = R // ppm
        ds = ctx.open_dataset(parts)
        kw = dict(num_neighbors=[4, 3], batch_size=24, seed=5, input_nodes=anchors, shuffle=True,
                  num_random_negatives=1, seed_placement="local")
        counts = {}
        for tail in ("keep", "drop", "pad"):
            la = fanout.DistABLPLoader(ctx, ds, tail=tail, **kw)
            lb = fanout.DistABLPLoader(ctx, ds, tail=tail, **kw)
            for e in range(2):
                got = [(b.index, b.input_id.copy(), b.n_id_dict, b.y_positive.copy(),
                        b.traffic["label_requests"]) for b in la]
                again = [(b.index, b.input_id.copy(), b.n_id_dict) for b in lb]
                if [g[0] for g in got] != [a[0] for a in again] or not all(
                        np.array_equal(g[1], a[1]) and all(np.array_equal(g[2][t], a[2][t])
                                                           for t in g[2]) for g, a in zip(got, again)):
                    fails.append(f"tail {tail} epoch {e}: a second loader gives other batches")
                for g in got:
                    if g[0] % machines != r // ppm:
                        fails.append(f"tail {tail}: batch {g[0]} on machine {r // ppm}")
                    if g[4]:
                        fails.append(f"tail {tail}: batch {g[0]}: {g[4]} LABEL requests")
                ids = world.allgather([(g[0], g[1].tolist()) for g in got])
                n_rank = [len(x) for x in ids]
                flat = sorted(i for x in ids for _, ii in x for i in ii)
                if tail == "keep" and flat != list(range(len(anchors))):
                    fails.append(f"tail keep epoch {e}: {len(flat)} anchors taken, "
                                 f"{len(set(flat))} distinct, of {len(anchors)}")
                if tail != "keep" and len(set(n_rank)) != 1:
                    fails.append(f"tail {tail} epoch {e}: batches per rank {n_rank}")
                if tail == "pad" and sorted(set(flat)) != list(range(len(anchors))):
                    fails.append(f"tail pad epoch {e}: {len(set(flat))} of {len(anchors)} anchors")
                if tail == "keep":
                    # the batches' machines own their anchors: one book, the keep epoch's
                    m_of = {i: b for x in ids for b, ii in x for i in ii}
                    book = book or {}
                    for i, b in m_of.items():
                        book.setdefault(int(anchors[i]), set()).add(b % machines)
                counts.setdefault(tail, []).append(sum(n_rank))
                checked += len(got)
            del la, lb
        if book and any(len(v) != 1 for v in book.values()):
            fails.append("an anchor id batched on two machines")
        c = counts
        if not (c["drop"][0] <= c["keep"][0] <= c["pad"][0]):
            fails.append(f"batch totals drop {c['drop']} keep {c['keep']} pad {c['pad']}")
    if fails:
        say("\n".join(f"FAIL: rank {r}: {f}" for f in fails[:20]))
        sys.exit(1)
    say(f"ok   python ablp local rank {r}: {checked} batches, every anchor once (keep), totals "
        f"drop {counts['drop'][0]} keep {counts['keep'][0]} pad {counts['pad'][0]}")


def errors(parts, ppm):
    fails, checks = [], 0
    with fanout.DistContext(procs_per_machine=ppm, deadline=60) as ctx:
        r = ctx.rank
        ds = ctx.open_dataset(parts)
        for opt, kw in (("num_random_negatives", dict(num_random_negatives=1 + r)),
                        ("input_nodes", dict(input_nodes=[1, 2, 3 + r])),
                        ("seed_placement", dict(seed_placement="local" if r else "global")),
                        ("tail", dict(seed_placement="local", tail="pad" if r else "drop")),
                        ("cache_bytes", dict(cache_bytes=r << 20))):
            try:
                fanout.DistABLPLoader(ctx, ds, num_neighbors=[2], **kw)
            except ValueError as e:
                if f"option {opt} differs" not in str(e):
                    fails.append(f"{opt}: {e}")
            else:
                fails.append(f"{opt} differing on rank 1: no ValueError")
            checks += 1
        try:
            fanout.DistABLPLoader(ctx, ds, num_neighbors=[2], input_nodes=[0],
                                  supervision_edge_type="nope")
        except ValueError as e:
            if "'nope' is not a labels-only edge type" not in str(e):
                fails.append(f"unknown supervision type: {e}")
        else:
            fails.append("unknown supervision type: no ValueError")
        checks += 1
        # the remote feature cache (every policy) gives the batches of no cache
        kw = dict(num_neighbors=[3, 2], input_nodes=np.arange(0, 300, 3), batch_size=16, seed=3)
        plain = [(b.index, b.x_dict) for b in fanout.DistABLPLoader(ctx, ds, **kw)]
        for pol in ("degree", "frequency", "lookahead"):
            cached = [(b.index, b.x_dict, b.traffic) for b in
                      fanout.DistABLPLoader(ctx, ds, cache_bytes=4096, cache_policy=pol,
                                            lookahead=3, **kw)]
            if [p[0] for p in plain] != [c[0] for c in cached] or not all(
                    set(p[1]) == set(c[1]) and all(np.array_equal(p[1][t], c[1][t]) for t in p[1])
                    for p, c in zip(plain, cached)):
                fails.append(f"cache_bytes 4096, {pol}: x_dict differs from no cache")
            checks += 1
        try:
            fanout.DistABLPLoader(ctx, ds, num_neighbors=[2], input_nodes=[0], pipeline=2)
        except ValueError as e:
            if "pipeline 2 needs cache_policy lookahead with cache_bytes > 0" not in str(e):
                fails.append(f"pipeline 2 without a lookahead cache: {e}")
        else:
            fails.append("pipeline 2 without a lookahead cache: no ValueError")
        checks += 1
        try:
            fanout.DistABLPLoader(ctx, ds, num_neighbors=[2], input_nodes=[0], cache_policy="lru")
        except ValueError as e:
            if "cache_policy: 'lru' is not 'degree', 'frequency' or 'lookahead'" not in str(e):
                fails.append(f"cache_policy lru: {e}")
        else:
            fails.append("cache_policy lru: no ValueError")
        checks += 1
        try:
            fanout.DistABLPLoader(ctx, ds, num_neighbors=[2], input_nodes=[0], seed_placement="x")
        except ValueError as e:
            if "seed_placement: 'x' is not 'global' or 'local'" not in str(e):
                fails.append(f"seed_placement x: {e}")
        else:
            fails.append("seed_placement x: no ValueError")
        checks += 1
        # the context still works
        n = sum(1 for _ in fanout.DistABLPLoader(ctx, ds, num_neighbors=[2], input_nodes=[0, 1, 2]))
        if n != (2 if r == 0 else 1):  # 3 batches of 1 anchor over 2 ranks
            fails.append(f"after the errors: {n} batches")
        checks += 1
    if fails:
        say("\n".join(f"FAIL: rank {r}: {f}" for f in fails))
        sys.exit(1)
    say(f"ok   python ablp errors rank {r}: {checks} checks")


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "same":
        same(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif mode == "local":
        local(sys.argv[2], int(sys.argv[3]))
    elif mode == "errors":
        errors(sys.argv[2], int(sys.argv[3]))
    else:
        raise SystemExit(f"unknown mode {mode}")
