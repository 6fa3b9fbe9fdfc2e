"""Fixtures of the Python front-end tests (run by CTest as `python -m pytest tests/python`).

Environment (set by python/CMakeLists.txt): PYTHONPATH=<build>/python (the package),
FANOUT_CLI (the `fanout` executable, to compare digests with the C side), FANOUT_DATA (data/).
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

import fanout  # noqa: E402  (after sys.path is settled by PYTHONPATH)


def data_dir():
    return os.environ.get("FANOUT_DATA", os.path.join(ROOT, "data"))


def cli_path():
    p = os.environ.get("FANOUT_CLI", os.path.join(ROOT, "build", "fanout"))
    if not os.path.exists(p):
        pytest.skip(f"fanout CLI not found at {p} (set FANOUT_CLI)")
    return p


@pytest.fixture(scope="session")
def cli():
    return cli_path()


@pytest.fixture(scope="session")
def cora_dir(tmp_path_factory):
    """Cora imported like the README does (planetoid, undirected), with CSC and CSR."""
    d = str(tmp_path_factory.mktemp("cora") / "cora.fanout")
    cora = os.path.join(data_dir(), "cora")
    fanout.import_dataset([os.path.join(cora, "cora.content.gz"), os.path.join(cora, "cora.cites")],
                          d, format="planetoid", undirected=True, csc=True, csr=True)
    return d


@pytest.fixture()
def cora(cora_dir):
    ds = fanout.Dataset(cora_dir)
    yield ds
    ds.close()


def random_graph(rng, n, m):
    return rng.integers(0, n, m), rng.integers(0, n, m)


@pytest.fixture(scope="session")
def rand_dir(tmp_path_factory):
    """A random graph with float32 features, labels and train/val splits (both directions)."""
    base = tmp_path_factory.mktemp("rand")
    rng = np.random.default_rng(42)
    n, m, dim = 3000, 30000, 16
    src, dst = random_graph(rng, n, m)
    x = rng.standard_normal((n, dim)).astype(np.float32)
    y = rng.integers(0, 5, n).astype(np.int64)
    perm = rng.permutation(n)
    np.save(base / "x.npy", x)
    np.save(base / "y.npy", y)
    np.save(base / "train.npy", np.sort(perm[:1000]))
    np.save(base / "val.npy", np.sort(perm[1000:1500]))
    out = str(base / "rand.fanout")
    fanout.import_edges(src, dst, out, num_nodes=n, csc=True, csr=True,
                        features=base / "x.npy", labels=base / "y.npy",
                        split={"train": base / "train.npy", "val": base / "val.npy"})
    return out


@pytest.fixture(scope="session")
def big_dir(tmp_path_factory):
    """200k nodes, 2M edges, no node data: epochs long enough to interrupt."""
    rng = np.random.default_rng(7)
    n = 200_000
    src, dst = random_graph(rng, n, 2_000_000)
    out = str(tmp_path_factory.mktemp("big") / "big.fanout")
    fanout.import_edges(src, dst, out, num_nodes=n)
    return out


def cli_digest(cli, path, fanouts, batch_size, split=None, features=False, threads=1, seed=0,
               epoch=0, shuffle=True, drop_last=False, replace=False, disjoint=False,
               edge_dir="in", load="mmap"):
    """Epoch digest from `fanout bench ... --digest --json` (the C API's loader)."""
    args = [cli, "bench", path, "--fanout", ",".join(map(str, fanouts)),
            "--batch-size", str(batch_size), "--threads", str(threads), "--seed", str(seed),
            "--epoch", str(epoch), "--edge-dir", edge_dir, "--load", load, "--digest", "--json"]
    if split:
        args += ["--split", split]
    if features:
        args.append("--features")
    if not shuffle:
        args.append("--no-shuffle")
    if drop_last:
        args.append("--drop-last")
    if replace:
        args.append("--replace")
    if disjoint:
        args.append("--disjoint")
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return int(json.loads(out)["digest"], 16)


def py_digest(ds, fanouts, batch_size, split=None, features=False, threads=1, seed=0, epoch=0,
              shuffle=True, drop_last=False, replace=False, disjoint=False, edge_dir="in"):
    loader = fanout.NeighborLoader(ds, num_neighbors=fanouts, batch_size=batch_size,
                                   input_nodes=split, features=features, labels=features,
                                   num_workers=threads, seed=seed, epoch=epoch, shuffle=shuffle,
                                   drop_last=drop_last, replace=replace, disjoint=disjoint,
                                   edge_dir=edge_dir)
    return fanout.digest_sequence([b.digest() for b in loader])


def run_python(code, timeout=120, env_extra=None):
    """Run `code` in a fresh /usr/bin/python3 (for process-wide state such as the worker
    runtime); returns CompletedProcess."""
    env = dict(os.environ)
    if env_extra:
        env.update(env_extra)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout, env=env)
