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


def test_corrupt_rank_directory_unused_book_counts_checked(cli, cora_dir, tmp_path):
    """Rows come from the row map built from the book at open (the rank directories are only
    checked by verify): a corrupt rank directory leaves batches as they were, and a book whose
    per-part counts no longer match the parts is refused at open, naming part and counts."""
    out = str(tmp_path / "p2")
    _partition(cli, cora_dir, out)

    def digests(path):
        with fanout.Dataset(path) as ds:
            loader = fanout.NeighborLoader(ds, [10], batch_size=256, num_workers=1, shuffle=False)
            got = [b.digest() for b in loader]
            del loader
        return got

    ref = digests(out)
    bad = str(tmp_path / "rank")
    shutil.copytree(out, bad)
    p = os.path.join(bad, "part-1", "row_rank.npy")
    rr = np.load(p)
    rr[20] = 2_000_000_000
    np.save(p, rr)
    assert digests(bad) == ref
    book = str(tmp_path / "book")
    shutil.copytree(out, book)
    p = os.path.join(book, "book.npy")
    bk = np.load(p)
    bk[7] = 1 - bk[7]
    np.save(p, bk)
    with pytest.raises(fanout.FormatError, match=r"the book gives part \d+ \d+ nodes, the part") as e:
        fanout.Dataset(book)
    assert e.value.status == "FO_EFORMAT"


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
