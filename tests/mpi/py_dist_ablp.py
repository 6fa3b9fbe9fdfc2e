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
            want_l = fanout.ABLPLoader(single, **kw)
            got_l = fanout.DistABLPLoader(ctx, ds, tail=tail, **kw)
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


def errors(parts, ppm):
    fails, checks = [], 0
    with fanout.DistContext(procs_per_machine=ppm, deadline=60) as ctx:
        r = ctx.rank
        ds = ctx.open_dataset(parts)
        for opt, kw in (("num_random_negatives", dict(num_random_negatives=1 + r)),
                        ("input_nodes", dict(input_nodes=[1, 2, 3 + r]))):
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
    elif mode == "errors":
        errors(sys.argv[2], int(sys.argv[3]))
    else:
        raise SystemExit(f"unknown mode {mode}")
