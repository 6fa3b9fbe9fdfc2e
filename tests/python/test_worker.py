"""fanout.init_neighbor_loader_worker (GiGL's contract over fo_worker_init) and worker_plan.

fo_worker_init records process-wide state (and binds the process), so each case runs in a
fresh interpreter."""

import json
import textwrap

import pytest

import fanout
from conftest import run_python


def _has_hwloc():
    try:
        fanout.worker_plan(1, topology_synthetic="pack:1 core:1 pu:1")
        return True
    except RuntimeError as e:  # FO_ENOSYS: a build without hwloc
        return getattr(e, "status", None) != "FO_ENOSYS"


needs_hwloc = pytest.mark.skipif(not _has_hwloc(), reason="built without hwloc (CPU mode)")


def run(code):
    p = run_python("import json, fanout\n" + textwrap.dedent(code))
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1])


@needs_hwloc
def test_cpu_mode_on_synthetic_topology():
    out = run("""
        w = fanout.init_neighbor_loader_worker(
            "127.0.0.1", 1, 2, 0, 1, 29500, "cpu", should_use_cpu_workers=True,
            num_cpu_threads=3, topology_synthetic="pack:1 core:4 pu:2", configure_torch=False)
        again = fanout.init_neighbor_loader_worker(
            "127.0.0.1", 1, 2, 0, 1, 29500, "cpu", should_use_cpu_workers=True,
            num_cpu_threads=3, topology_synthetic="pack:1 core:4 pu:2", configure_torch=False)
        print(json.dumps(dict(device=w.device, cpus=w.cpus, n_cores=w.n_cores, bound=w.bound,
                              threads=w.num_threads, group=w.group_name, same=(w == again),
                              budget=fanout.worker_thread_budget(), port=w.master_worker_port,
                              ip=w.master_ip_address, local_rank=w.local_rank)))
    """)
    assert out["device"] == "cpu" and out["n_cores"] == 2 and len(out["cpus"]) == 4
    assert not out["bound"]  # an injected topology is planned, never bound
    assert out["threads"] == 3 and out["budget"] == 3 and out["same"]
    assert out["group"] == "distributed-process-1" and out["local_rank"] == 1
    assert out["port"] == 29500 and out["ip"] == "127.0.0.1"


@needs_hwloc
def test_this_machine_binds_and_sets_loader_default():
    out = run("""
        import os
        w = fanout.init_neighbor_loader_worker("localhost", 0, 1, 0, 1, 29500, "cpu",
                                               should_use_cpu_workers=True, num_cpu_threads=2,
                                               configure_torch=False)
        print(json.dumps(dict(cpus=w.cpus, bound=w.bound, affinity=sorted(os.sched_getaffinity(0)),
                              budget=fanout.worker_thread_budget())))
    """)
    assert out["bound"] and out["cpus"] == out["affinity"] and out["budget"] == 2


@needs_hwloc
def test_configure_torch_sets_threads():
    pytest.importorskip("torch")
    out = run("""
        import torch
        w = fanout.init_neighbor_loader_worker("localhost", 0, 1, 0, 1, 1, torch.device("cpu"),
                                               True, 2, topology_synthetic="pack:1 core:2 pu:1")
        print(json.dumps(dict(threads=torch.get_num_threads(), device=str(w.torch_device))))
    """)
    assert out == {"threads": 2, "device": "cpu"}


def test_accelerator_assignment():
    out = run("""
        a = fanout.init_neighbor_loader_worker("h", 3, 4, 1, 2, 29500, "cuda",
                                               _n_devices_override=2, configure_torch=False)
        print(json.dumps(dict(device=a.device, index=a.device_index, n=a.n_devices,
                              cpu_mode=a.cpu_mode, rank=a.rank, world=a.world_size)))
    """)
    assert out == {"device": "cuda:1", "index": 1, "n": 2, "cpu_mode": False, "rank": 1,
                   "world": 2}
    out = run("""
        a = fanout.init_neighbor_loader_worker("h", 3, 4, 0, 1, 29500, "cuda:0",
                                               _n_devices_override=2, configure_torch=False)
        print(json.dumps(a.device))
    """)
    assert out == "cuda:0"


@pytest.mark.parametrize("call, exc, match", [
    # CPU workers need a thread count (GiGL asserts the same).
    ("fanout.init_neighbor_loader_worker('h', 0, 1, 0, 1, 1, 'cpu', True, None, "
     "topology_synthetic='pack:1 core:2 pu:1', configure_torch=False)", "ValueError",
     "num_cpu_threads"),
    # device cpu without CPU workers is meaningless.
    ("fanout.init_neighbor_loader_worker('h', 0, 1, 0, 1, 1, 'cpu', False, "
     "configure_torch=False)", "ValueError", "use_cpu_workers"),
    ("fanout.init_neighbor_loader_worker('h', 0, 1, 0, 1, 1, 'tpu:0', configure_torch=False)",
     "ValueError", "device"),
    ("fanout.init_neighbor_loader_worker('h', 0, 1, 0, 1, 1, 'cuda:5', "
     "_n_devices_override=2, configure_torch=False)", "ValueError", "cuda:5"),
    ("fanout.init_neighbor_loader_worker('h', 0, 1, 0, 1, 1, 'cuda', "
     "_n_devices_override=0, configure_torch=False)", "RuntimeError", "accelerator"),
    ("fanout.init_neighbor_loader_worker('h', 5, 2, 0, 1, 1, 'cpu', True, 1, "
     "topology_synthetic='pack:1 core:2 pu:1', configure_torch=False)", "ValueError",
     "local_rank"),
])
def test_errors(call, exc, match):
    if "True" in call and not _has_hwloc():
        pytest.skip("CPU mode needs hwloc")
    out = run(f"""
        try:
            {call}
            print(json.dumps(None))
        except Exception as e:
            print(json.dumps([type(e).__name__, str(e), getattr(e, "status", None)]))
    """)
    assert out is not None, "no error raised"
    assert out[0] == exc and match in out[1], out


@needs_hwloc
def test_second_call_with_other_options_is_an_error():
    out = run("""
        kw = dict(topology_synthetic="pack:1 core:4 pu:1", configure_torch=False)
        fanout.init_neighbor_loader_worker("h", 0, 2, 0, 1, 1, "cpu", True, 2, **kw)
        try:
            fanout.init_neighbor_loader_worker("h", 0, 2, 0, 1, 1, "cpu", True, 3, **kw)
            print(json.dumps(None))
        except ValueError as e:
            print(json.dumps(str(e)))
    """)
    assert out and "num_cpu_threads" in out


@needs_hwloc
def test_worker_plan():
    plan = fanout.worker_plan(3, topology_synthetic="pack:2 core:4 pu:2")
    assert [p["n_cores"] for p in plan] == [3, 3, 2]
    assert [p["first_core"] for p in plan] == [0, 3, 6]
    assert all(not p["bound"] for p in plan)
    allc = [c for p in plan for c in p["cpus"]]
    assert len(allc) == len(set(allc)) == 16
    with pytest.raises(ValueError, match="9"):
        fanout.worker_plan(9, topology_synthetic="pack:1 core:8 pu:1")
    assert len(fanout.worker_plan(9, topology_synthetic="pack:1 core:8 pu:1",
                                  allow_shared_cores=True)) == 9


def test_dist_loader_needs_a_context():
    # the MPI side runs under mpiexec in tests/mpi (py_dist.py); here: no context, no loader
    assert issubclass(fanout.DistNeighborLoader, fanout.NeighborLoader)
    with pytest.raises(TypeError, match="DistContext"):
        fanout.DistNeighborLoader(None, None, num_neighbors=[2])
