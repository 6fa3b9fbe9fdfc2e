"""The Python loader on datasets that are corrupt or assembled from parts that do not belong
together (docs/RELIABILITY.md): FormatError naming the array and position, never a crash."""

import json
import os
import shutil
import subprocess

import numpy as np
import pytest

import fanout


def _partition(cli, src, out, n=2):
    subprocess.run([cli, "partition", src, "-n", str(n), "-q", "-o", out], check=True,
                   stdout=subprocess.DEVNULL)


def test_corrupt_rank_directory_in_gather(cli, cora_dir, tmp_path):
    out = str(tmp_path / "p2")
    _partition(cli, cora_dir, out)
    p = os.path.join(out, "part-1", "row_rank.npy")
    rr = np.load(p)
    rr[20] = 2_000_000_000  # nodes 1280..1343 of part 1 map past its rows
    np.save(p, rr)
    with fanout.Dataset(out) as ds:
        # seeds outside the corrupt block: only the gather of the (never expanded) last hop's
        # nodes looks their rows up
        seeds = np.setdiff1d(np.arange(ds.num_nodes), np.arange(1280, 1344))
        loader = fanout.NeighborLoader(ds, [10], batch_size=256, input_nodes=seeds,
                                       num_workers=1)
        with pytest.raises(fanout.FormatError, match=r"row_rank\[20\]") as e:
            for _ in loader:
                pass
        assert e.value.status == "FO_EFORMAT"
        del loader


def test_mixed_partitionings_refused(cli, cora_dir, tmp_path):
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    _partition(cli, cora_dir, a)
    _partition(cli, cora_dir, b)
    shutil.rmtree(os.path.join(a, "part-1"))
    shutil.copytree(os.path.join(b, "part-1"), os.path.join(a, "part-1"))
    with pytest.raises(fanout.FormatError, match="part 1 .* comes from another partitioning"):
        fanout.Dataset(a)
    m = os.path.join(b, "fanout.json")
    man = json.load(open(m))
    man["parts"] = ["part-0", "part-0"]
    json.dump(man, open(m, "w"))
    with pytest.raises(fanout.FormatError, match="lists 'part-0' twice"):
        fanout.Dataset(b)
