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


def test_string_ids_offsets(tmp_path):
    """String ids are stored as offsets + bytes; the original-id accessors keep working, and
    one very long id does not make the others long."""
    e = tmp_path / "e.txt"
    long_id = "z" * 50000
    e.write_text(f"a b\nb {long_id}\nc a\n")
    out = str(tmp_path / "g")
    fanout.import_dataset(str(e), out, string_ids=True)
    with fanout.Dataset(out) as ds:
        assert "node_orig_offsets" in ds.arrays and "node_orig" not in ds.arrays
        assert ds.array("node_orig_bytes").nbytes == 3 + 50000
        orig = ds.array("node_orig")  # the fixed-width form, built
        assert orig.dtype == np.dtype("S50000") and list(orig[[0, 1, 3]]) == [b"a", b"b", b"c"]
        assert ds.original_id(2) == long_id.encode() and ds.original_id(3) == b"c"
        with pytest.raises(ValueError, match=r"v: 4 is not a node id in \[0, 4\)"):
            ds.original_id(4)
