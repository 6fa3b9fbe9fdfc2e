"""tests/mpi/py_dist.py: fanout.DistContext and fanout.DistNeighborLoader under mpiexec (run by
tests/mpi/run.sh, case "python"; PYTHONPATH names the build's python/ directory).

  epoch OUT PARTS PPM TAIL   every rank writes OUT/rank-R.json: its batches' (epoch, index,
                             digest) over two epochs, len(loader), its ranks, and whether x and
                             y are read-only views; run.sh then runs `compare`
  compare OUT PLAIN TAIL R   (no MPI) the union of the ranks' records equals a NeighborLoader
                             over the unpartitioned PLAIN: every batch, in global order (keep),
                             or the tail's per-rank counts (drop, pad)
  api PARTS PPM              the context's rules: finalize refused while a loader exists, a
                             finalized context refused, bad arguments
  corrupt PARTS PPM          PARTS has a corrupt part 1: iterating raises on every rank with
                             the serving machine's message (prints "rank R: raised ...")
  uncaught PARTS PPM         rank 1 raises an uncaught ValueError: the other ranks raise with
                             its message (sys.excepthook aborts the context), the job ends
  frozen PARTS PPM           the last rank SIGSTOPs itself; deadline 2 s: the others raise
                             naming it, and the job ends (MPI_Abort at exit, no MPI_Finalize
                             waiting for the stopped rank)
  noopen PARTS PPM           the last rank never opens its part and finalizes after 1 s
                             (deadline 60 s): the others, creating their loaders (a
                             collective), raise within seconds: it reached finalize instead
  disagree PARTS PPM         rank 2 asks for another batch size: every rank raises naming the
                             option and both values
  thread PARTS PPM           rank 1's training thread dies of an uncaught exception: the
                             others raise with it (threading.excepthook aborts the context)
  sigint PARTS PPM           the last rank stops; 1 s later rank 1 gets SIGINT while its batch
                             waits on the stopped rank (deadline 60 s): KeyboardInterrupt at
                             once, and the others raise with it
  subcomm PARTS PLAIN        (4 ranks, mpi4py) DistContext(comm=...) over the sub-communicators
                             {0, 2} and {1, 3} of MPI.COMM_WORLD.Split, one group at a time
                             while the other waits outside fanout (any use of MPI_COMM_WORLD
                             would hang), and between the two turns over comm=MPI.COMM_WORLD
                             (2 x 2; half the ranks have made a context before): ranks are
                             the communicator's, batches those of NeighborLoader over PLAIN,
                             the caller's communicator still works after finalize; bad comm
                             arguments
  placement PARTS PPM        seed_placement="local" and the remote feature cache: each rank's
                             batches with every cache policy equal those without a cache (for
                             global and local seeds), local batch indexes are j * machines +
                             machine, bad values raise ValueError naming the argument
  typed PARTS PLAIN PPM      a typed partitioned dataset: every rank's DistNeighborLoader batches
                             (author seeds of a split, features of every node type, labels;
                             edge_dir in and out) equal NeighborLoader's over PLAIN (prints
                             "ok   python typed rank R: ...")
  lowthread PARTS            mpi4py started MPI at MPI_THREAD_FUNNELED: DistContext(comm=...)
                             and DistContext() raise ValueError naming MPI_THREAD_MULTIPLE and
                             mpi4py.rc.thread_level = "multiple"
"""
import json
import os
import signal
import sys
import time

import fanout


def say(text):
    """One line in one write: mpiexec forwards each process's writes whole, so lines of
    different ranks never interleave (print() writes the text and the newline apart)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


OPTS = dict(num_neighbors=[5, 5], batch_size=16, input_nodes="train", shuffle=True, seed=3,
            num_workers=2)


def epoch(out, parts, ppm, tail):
    with fanout.DistContext(procs_per_machine=ppm, deadline=60) as ctx:
        ds = ctx.open_dataset(parts)
        loader = fanout.DistNeighborLoader(ctx, ds, tail=tail, **OPTS)
        recs, views = [], True
        for _ in range(2):
            for b in loader:
                recs.append([b.epoch, b.index, b.digest()])
                views = views and not b.x.flags.writeable and not b.y.flags.writeable
                views = views and b.x.base is b and b.x.ndim == 2 and len(b.x) == len(b.node)
        rec = dict(rank=ctx.rank, world_size=ctx.world_size, machine=ctx.machine_rank,
                   machines=ctx.num_machines, local_rank=ctx.local_rank,
                   local_world_size=ctx.local_world_size, len=len(loader), batches=recs,
                   views=views, stats=ctx.stats())
        del b, loader
    with open(os.path.join(out, f"rank-{rec['rank']}.json"), "w") as f:
        json.dump(rec, f)


def compare(out, plain, tail, ranks):
    ds = fanout.Dataset(plain)
    loader = fanout.NeighborLoader(ds, **OPTS)
    want = [[e, b.index, b.digest()] for e in range(2) for b in loader]
    B = len(loader)
    recs = [json.load(open(os.path.join(out, f"rank-{r}.json"))) for r in range(ranks)]
    fails = []
    for r, rec in enumerate(recs):
        if rec["rank"] != r or rec["world_size"] != ranks:
            fails.append(f"rank {r}: ranks {rec['rank']} of {rec['world_size']}")
        if not rec["views"]:
            fails.append(f"rank {r}: x or y is not a read-only view of the batch")
        n = {"keep": B // ranks + (r < B % ranks), "drop": B // ranks,
             "pad": -(-B // ranks)}[tail]
        if rec["len"] != n or len(rec["batches"]) != 2 * n:
            fails.append(f"rank {r}: len {rec['len']}, {len(rec['batches'])} batches in 2 "
                         f"epochs, expected {n} per epoch")
        for e, i, d in rec["batches"]:
            if i % ranks != r and tail != "pad":
                fails.append(f"rank {r}: global batch {i} is not its own")
            if [e, i, d] != want[e * B + i]:
                fails.append(f"rank {r}: epoch {e} batch {i}: digest {d}, single-process "
                             f"{want[e * B + i][2]}")
    if tail == "keep":
        got = sorted(tuple(x) for rec in recs for x in rec["batches"])
        if got != [tuple(x) for x in want]:
            fails.append(f"the ranks' batches ({len(got)}) are not the epochs' ({len(want)})")
    if fails:
        print("\n".join("FAIL: " + f for f in fails[:20]))
        sys.exit(1)
    hops = [rec["stats"]["hop_requests"] for rec in recs]
    print(f"ok   python, tail {tail}: {ranks} ranks, {B} batches per epoch, same digests as "
          f"NeighborLoader; remote hop requests per rank {hops}")


def api(parts, ppm):
    fails = []

    def expect(exc, text, fn):
        try:
            fn()
        except exc as e:
            if text not in str(e):
                fails.append(f"{exc.__name__} without '{text}': {e}")
        else:
            fails.append(f"no {exc.__name__} ('{text}')")

    ctx = fanout.DistContext(procs_per_machine=ppm, deadline=60)
    ds = ctx.open_dataset(parts)
    if ctx.num_machines * ctx.local_world_size != ctx.world_size:
        fails.append(f"{ctx.num_machines} machines x {ctx.local_world_size} != {ctx.world_size}")
    expect(ValueError, "tail", lambda: fanout.DistNeighborLoader(ctx, ds, tail="all", **OPTS))
    expect(TypeError, "DistContext", lambda: fanout.DistNeighborLoader(ds, ds, **OPTS))
    expect(ValueError, "edge", lambda: fanout.DistNeighborLoader(ctx, ds, edge_dir="out",
                                                                  **OPTS))
    loader = fanout.DistNeighborLoader(ctx, ds, **OPTS)
    expect(RuntimeError, "1 loader (or calls in other threads) still uses", ctx.finalize)
    for b in loader:  # the loader works after the refused finalize
        pass
    del b, loader
    if ctx.failed() is not None:
        fails.append(f"failed() = {ctx.failed()!r}")
    # rank 0 closes its dataset and drops its loader while the others still sample from its
    # part: the context keeps serving it until finalize (the mapping stays)
    loader = fanout.DistNeighborLoader(ctx, ds, **OPTS)
    if ctx.rank == 0:
        ds.close()
        del loader
        expect(ValueError, "closed", lambda: fanout.DistNeighborLoader(ctx, ds, **OPTS))
    else:
        for _ in range(5):
            for b in loader:
                pass
        del b, loader
    ctx.finalize()
    if ctx.stats()["served"] <= 0:
        fails.append(f"stats() after finalize: {ctx.stats()}")
    expect(ValueError, "finalized", lambda: ctx.open_dataset(parts))
    expect(ValueError, "closed" if ctx.rank == 0 else "finalized",
           lambda: fanout.DistNeighborLoader(ctx, ds, **OPTS))
    ctx.finalize()  # a second time: nothing to do
    if fails:
        say("\n".join(f"FAIL: rank {ctx.rank}: {f}" for f in fails))
        sys.exit(1)
    say(f"ok   python api, rank {ctx.rank}")


def failing(mode, parts, ppm):
    """uncaught and frozen: iterate until an exception; print it with the time it took."""
    ctx = fanout.DistContext(procs_per_machine=ppm, deadline=2 if mode == "frozen" else 60)
    t0 = time.monotonic()
    if mode == "noopen" and ctx.rank == ctx.world_size - 1:
        time.sleep(1)
        say(f"rank {ctx.rank}: finalizes without opening its part")
        ctx.finalize()  # the barrier fails when the others fail
        return
    ds = ctx.open_dataset(parts)
    try:  # collective: in noopen, the last rank finalizes instead
        loader = fanout.DistNeighborLoader(ctx, ds, **dict(OPTS, input_nodes=None))
    except Exception as e:  # noqa: BLE001 - the test prints whatever it is
        say(f"rank {ctx.rank}: raised {type(e).__name__} after {time.monotonic() - t0:.1f} s: "
            f"{e}")
        raise
    if mode == "thread" and ctx.rank == 1:
        import threading

        def train():
            raise ValueError("NaN loss in a training thread")

        th = threading.Thread(target=train, name="trainer")
        th.start()
        th.join()
        time.sleep(5)  # the others stop the job meanwhile
        return
    if mode == "uncaught" and ctx.rank == 1:
        raise ValueError("a test exception on rank 1")
    if mode == "sigint" and ctx.rank == 1:
        import threading

        threading.Timer(1.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    if mode in ("frozen", "sigint") and ctx.rank == ctx.world_size - 1:
        say(f"rank {ctx.rank}: stops itself")
        os.kill(os.getpid(), signal.SIGSTOP)
        return
    try:
        for _ in range(10000):
            for b in loader:
                pass
    except Exception as e:  # noqa: BLE001 - the test prints whatever it is
        say(f"rank {ctx.rank}: raised {type(e).__name__} after {time.monotonic() - t0:.1f} s: "
            f"{e}")
        raise
    say(f"rank {ctx.rank}: FAIL: no exception")


def disagree(parts, ppm):
    """rank 2 asks for another batch size: every rank raises naming the option and both
    values (DistNeighborLoader goes through fo_dist_loader_create's check)."""
    ctx = fanout.DistContext(procs_per_machine=ppm, deadline=30)
    ds = ctx.open_dataset(parts)
    opts = dict(OPTS)
    if ctx.rank == 2:
        opts["batch_size"] = 32
    try:
        fanout.DistNeighborLoader(ctx, ds, **opts)
    except Exception as e:  # noqa: BLE001 - the test prints whatever it is
        say(f"rank {ctx.rank}: raised {type(e).__name__}: {e}")
        time.sleep(1)
        os._exit(1)
    say(f"rank {ctx.rank}: FAIL: no exception")
    os._exit(2)


def corrupt(parts, ppm):
    ctx = fanout.DistContext(procs_per_machine=ppm, deadline=30)
    ds = ctx.open_dataset(parts)
    loader = fanout.DistNeighborLoader(ctx, ds, **dict(OPTS, input_nodes=None))
    try:
        for _ in range(3):
            for b in loader:
                pass
    except Exception as e:  # noqa: BLE001 - the test prints whatever it is
        say(f"rank {ctx.rank}: raised {type(e).__name__}: {e}")
        time.sleep(1)  # let the others print theirs before mpiexec ends the job
        os._exit(1)  # the job is failed: no finalize (the others cannot reach the barrier)
    say(f"rank {ctx.rank}: FAIL: no exception")
    os._exit(2)


def subcomm(parts, plain):
    from mpi4py import MPI

    world = MPI.COMM_WORLD
    fails = []
    sub = world.Split(world.rank % 2, world.rank)
    want = {}
    loader = fanout.NeighborLoader(fanout.Dataset(plain), **OPTS)
    for b in loader:
        want[b.index] = b.digest()
    del b, loader
    def run(comm, ppm):
        with fanout.DistContext(comm=comm, procs_per_machine=ppm, deadline=60) as ctx:
            if (ctx.rank, ctx.world_size) != (comm.rank, comm.size):
                fails.append(f"context rank {ctx.rank} of {ctx.world_size}, communicator "
                             f"rank {comm.rank} of {comm.size}")
            ds = ctx.open_dataset(parts)
            loader = fanout.DistNeighborLoader(ctx, ds, **OPTS)
            got = {b.index: b.digest() for b in loader}
            del loader
            mine = {i: d for i, d in want.items() if i % comm.size == comm.rank}
            if got != mine:
                fails.append(f"{comm.size} ranks: batches {sorted(got)} differ from "
                             f"NeighborLoader's {sorted(mine)} (or their digests do)")
        # the caller's communicator is still there: the context used a duplicate
        if comm.allreduce(1) != comm.size:
            fails.append("the communicator does not work after finalize")

    for turn in range(2):
        if world.rank % 2 == turn:  # the other group waits at the world barrier below
            run(sub, 1)
        world.Barrier()
        if turn == 0:
            run(world, 2)
    sub.Free()

    def expect(exc, text, fn):
        try:
            fn()
        except exc as e:
            if text not in str(e):
                fails.append(f"{exc.__name__} without '{text}': {e}")
        else:
            fails.append(f"no {exc.__name__} ('{text}')")

    expect(TypeError, "comm: expected an mpi4py communicator", lambda: fanout.DistContext(
        comm=0))
    expect(ValueError, "COMM_NULL", lambda: fanout.DistContext(comm=MPI.COMM_NULL))
    if fails:
        say("\n".join(f"FAIL: rank {world.rank}: {f}" for f in fails))
        sys.exit(1)
    say(f"ok   python comm, rank {world.rank}: rank {world.rank // 2} of half {world.rank % 2} "
        f"({len([i for i in want if i % 2 == world.rank // 2])} batches), rank {world.rank} "
        f"of the world ({len([i for i in want if i % 4 == world.rank])} batches)")


def typed(parts, plain, ppm):
    """Typed: this rank's batches b (b mod world_size == rank) equal NeighborLoader's batch b,
    also with a lookahead cache and pipelining threads."""
    runs = [dict(num_neighbors=[3, 2], input_nodes=("author", "train"), batch_size=8,
                 shuffle=True, seed=3, num_workers=2),
            dict(num_neighbors={("paper", "cites", "paper"): [-1, 1], ("paper", "writes", "author"): [2, 2],
                                ("paper", "has", "term"): [1, 0], ("author", "rev_writes", "paper"): [2, 1],
                                ("term", "rev_has", "paper"): [1, 1]},
                 input_nodes=("paper", None), batch_size=64, edge_dir="out", disjoint=True, seed=9)]
    # the first again with a lookahead cache and 2 pipelining threads (DistNeighborLoader only)
    dist = [{}, {}, dict(cache_bytes=2000, cache_policy="lookahead", lookahead=4, pipeline=2)]
    runs.append(dict(runs[0], num_workers=1))
    with fanout.DistContext(procs_per_machine=ppm, deadline=60) as ctx:
        ds = ctx.open_dataset(parts)
        rank, n = ctx.rank, 0
        with fanout.Dataset(plain) as g:
            for kw, dkw in zip(runs, dist):
                want = [(b.digest(), sorted(b.x_dict)) for b in fanout.NeighborLoader(g, **kw)]
                loader = fanout.DistNeighborLoader(ctx, ds, **kw, **dkw)
                for b in loader:
                    if (b.digest(), sorted(b.x_dict)) != want[b.index] or b.index % ctx.world_size != rank:
                        say(f"rank {rank}: batch {b.index} differs from NeighborLoader's")
                        sys.exit(1)
                    n += 1
                b = loader = None  # a batch keeps its loader: both go before finalize
        say(f"ok   python typed rank {rank}: {n} batches equal NeighborLoader's over the plain dataset")


def temporal(parts, plain, ppm):
    """Weighted and temporal DistNeighborLoader: this rank's batches b equal NeighborLoader's
    batch b over the plain dataset (the hop requests carry the mode and the seeds' times)."""
    import numpy as np

    seeds = np.arange(0, 400, 3, dtype=np.int64)
    times = (seeds * 7919) % 1000
    runs = [dict(num_neighbors=[5, 3], batch_size=16, weighted=True, seed=2),
            dict(num_neighbors=[5, 3], batch_size=16, weighted=True, replace=True, seed=3),
            dict(num_neighbors=[4, 2], batch_size=16, input_nodes=seeds, input_time=times,
                 time_attr="edge", temporal_strategy="uniform", seed=4, num_workers=2),
            dict(num_neighbors=[4, 2], batch_size=16, input_nodes=seeds, input_time=times,
                 time_attr="node", temporal_strategy="last", seed=5),
            dict(num_neighbors=[4, 2], batch_size=16, input_nodes=seeds, time_attr="node",
                 temporal_strategy="uniform", seed=6)]
    with fanout.DistContext(procs_per_machine=ppm, deadline=60) as ctx:
        ds = ctx.open_dataset(parts)
        rank, n = ctx.rank, 0
        with fanout.Dataset(plain) as g:
            for kw in runs:
                kw = dict(kw, features=False, labels=False)
                want = [b.digest() for b in fanout.NeighborLoader(g, **kw)]
                loader = fanout.DistNeighborLoader(ctx, ds, **kw)
                for b in loader:
                    if b.digest() != want[b.index] or b.index % ctx.world_size != rank:
                        say(f"rank {rank}: batch {b.index} differs from NeighborLoader's ({kw})")
                        sys.exit(1)
                    n += 1
                b = loader = None
        say(f"ok   python temporal rank {rank}: {n} weighted and temporal batches equal NeighborLoader's")


def lowthread(parts):
    import mpi4py

    mpi4py.rc.thread_level = "funneled"
    from mpi4py import MPI

    fails = []
    if MPI.Query_thread() >= MPI.THREAD_MULTIPLE:
        fails.append(f"mpi4py gave thread level {MPI.Query_thread()}, not FUNNELED")
    for what, kw in (("comm=MPI.COMM_WORLD", dict(comm=MPI.COMM_WORLD)), ("no comm", {})):
        try:
            fanout.DistContext(procs_per_machine=1, **kw)
        except ValueError as e:
            for text in ("MPI_THREAD_MULTIPLE", "MPI_THREAD_FUNNELED",
                         'mpi4py.rc.thread_level = "multiple"'):
                if text not in str(e):
                    fails.append(f"{what}: the message lacks '{text}': {e}")
        else:
            fails.append(f"{what}: no ValueError")
    if fails:
        say("\n".join(f"FAIL: rank {MPI.COMM_WORLD.rank}: {f}" for f in fails))
        sys.exit(1)
    say(f"ok   python thread level, rank {MPI.COMM_WORLD.rank}")


def placement(parts, ppm):
    fails = []
    with fanout.DistContext(procs_per_machine=ppm, deadline=60) as ctx:
        ds = ctx.open_dataset(parts)

        def digests(**kw):
            loader = fanout.DistNeighborLoader(ctx, ds, **{**OPTS, **kw})
            out = [(b.index, b.digest()) for b in loader]
            del loader
            return out

        for sp in ("global", "local"):
            want = digests(seed_placement=sp)
            if sp == "local" and any(i % ctx.num_machines != ctx.machine_rank for i, _ in want):
                fails.append(f"local batch indexes {[i for i, _ in want]} on machine {ctx.machine_rank}")
            for pol in ("degree", "frequency", "lookahead"):
                got = digests(seed_placement=sp, cache_bytes=200_000, cache_policy=pol, lookahead=4)
                if got != want:
                    fails.append(f"{sp} seeds, cache {pol}: batches differ from no cache")
            got = digests(seed_placement=sp, cache_bytes=200_000, cache_policy="lookahead",
                          lookahead=4, pipeline=2, num_workers=1)
            if got != want:
                fails.append(f"{sp} seeds, lookahead cache with pipeline 2: batches differ from no cache")
        for kw, word in ((dict(seed_placement="nowhere"), "seed_placement"),
                         (dict(cache_policy="lru", cache_bytes=1), "cache_policy"),
                         (dict(cache_bytes=-1), "cache_bytes"), (dict(lookahead=0), "lookahead"),
                         (dict(pipeline=65), "pipeline"), (dict(pipeline=2), "pipeline")):
            try:
                fanout.DistNeighborLoader(ctx, ds, **OPTS, **kw)
                fails.append(f"{kw}: no error")
            except ValueError as e:
                if word not in str(e):
                    fails.append(f"{kw}: {e}")
        rank = ctx.rank
    if fails:
        say("\n".join(f"FAIL: rank {rank}: {f}" for f in fails))
        sys.exit(1)
    say(f"ok   python placement and cache, rank {rank}")


if __name__ == "__main__":
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "epoch":
        epoch(args[0], args[1], int(args[2]), args[3])
    elif mode == "compare":
        compare(args[0], args[1], args[2], int(args[3]))
    elif mode == "api":
        api(args[0], int(args[1]))
    elif mode == "corrupt":
        corrupt(args[0], int(args[1]))
    elif mode == "subcomm":
        subcomm(args[0], args[1])
    elif mode == "placement":
        placement(args[0], int(args[1]))
    elif mode == "typed":
        typed(args[0], args[1], int(args[2]))
    elif mode == "temporal":
        temporal(args[0], args[1], int(args[2]))
    elif mode == "lowthread":
        lowthread(args[0])
    elif mode == "disagree":
        disagree(args[0], int(args[1]))
    elif mode in ("uncaught", "frozen", "noopen", "thread", "sigint"):
        failing(mode, args[0], int(args[1]))
    else:
        sys.exit(f"py_dist.py: unknown mode {mode}")
