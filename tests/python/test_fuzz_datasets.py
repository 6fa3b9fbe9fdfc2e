"""The Python loader on mutated datasets: the Python half of the dataset fuzzer (tests/fuzz/
fuzz_dataset.c). Bounded and deterministic: it replays the inputs of tests/fuzz/corpus/dataset
and tests/fuzz/regress/dataset, plus FUZZ_PY_RANDOM (default 60) mutations drawn from a fixed
seed, on the same Cora fixtures (single, 2-part hash, 3-part range) with the same record
format, and runs fanout.Dataset (open, info, arrays, verify) and fanout.NeighborLoader (features
and labels) on each in one child process. The promise: no dataset crashes the interpreter;
bad ones raise exceptions with a message.

As in tests/fuzz/readers.c, the loader runs on every dataset that opens, verified or not
(partitioned ones too, since issue 14's class 1 was closed). The typed and weighted fixtures
of fuzz_dataset.c (inputs with a fixture byte of 3 or 4) are replayed on fixture byte mod 3.
"""

import os
import random
import struct
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT, data_dir

FUZZ = os.path.join(ROOT, "tests", "fuzz")


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory, cli):
    base = tmp_path_factory.mktemp("fuzzfix")
    cora = os.path.join(data_dir(), "cora")
    single = str(base / "fixture-cora")
    subprocess.run([cli, "import", "--format", "planetoid", os.path.join(cora, "cora.content.gz"),
                    os.path.join(cora, "cora.cites"), "--undirected", "--csc", "--csr",
                    "--feature-dtype", "uint8", "-q", "-o", single], check=True,
                   stdout=subprocess.DEVNULL)
    out = [single]
    for name, parts, method in [("fixture-cora2", 2, "hash"), ("fixture-cora3", 3, "range")]:
        p = str(base / name)
        subprocess.run([cli, "partition", single, "-n", str(parts), "--method", method, "-q",
                        "-o", p], check=True, stdout=subprocess.DEVNULL)
        out.append(p)
    return out


def files_of(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for f in files:
            if not f.startswith("."):
                out.append(os.path.relpath(os.path.join(d, f), root))
    return sorted(out)


def replace_int(b, which, v):
    """fuzz_dataset.c's replace_int: the which-th integer outside quoted strings."""
    spans, i, in_str = [], 0, False
    while i < len(b):
        c = b[i]
        if c == 0x22:
            in_str = not in_str
        if not in_str and (0x30 <= c <= 0x39 or c == 0x2D):
            j = i
            while j < len(b) and (0x30 <= b[j] <= 0x39 or b[j] == 0x2D):
                j += 1
            spans.append((i, j))
            i = j
            continue
        i += 1
    if not spans:
        return b
    s, e = spans[which % len(spans)]
    return b[:s] + str(v).encode() + b[e:]


def mutate(data, fixtures, dest):
    """Apply one fuzz_dataset.c input to a copy of its fixture at dest; returns the fixture."""
    k = data[0] % 3 if data else 0
    root = fixtures[k]
    names = files_of(root)
    pos, bufs = 3, {}
    while len(data) - pos >= 7:
        f = data[pos] % len(names)
        op = data[pos + 1] % 5
        off = struct.unpack("<I", data[pos + 2:pos + 6])[0]
        ln = min(data[pos + 6], len(data) - pos - 7)
        by = data[pos + 7:pos + 7 + ln]
        pos += 7 + ln
        if f not in bufs:
            with open(os.path.join(root, names[f]), "rb") as fh:
                bufs[f] = bytearray(fh.read())
        b = bufs[f]
        if op == 0:
            for i in range(ln):
                if b:
                    b[(off + i) % len(b)] ^= by[i]
        elif op == 1:
            if b:
                at = off % len(b)
                for i in range(ln):
                    if at + i < len(b):
                        b[at + i] = by[i]
        elif op == 2:
            del b[off % (len(b) + 1):]
        elif op == 3:
            b.extend(by)
        else:
            v = int.from_bytes((bytes(by[:8]) + b"\0" * 8)[:8] if ln >= 8 else bytes(by), "little",
                               signed=True) if ln else 0
            bufs[f] = bytearray(replace_int(bytes(b), off, v))
    for name in names:
        os.makedirs(os.path.dirname(os.path.join(dest, name)), exist_ok=True)
    for i, name in enumerate(names):
        dst = os.path.join(dest, name)
        if i in bufs:
            with open(dst, "wb") as fh:
                fh.write(bufs[i])
        else:
            os.link(os.path.join(root, name), dst)
    return k


def random_input(rng):
    """A small mutation, biased to what reaches readers: manifest integers, array bytes."""
    out = bytearray([rng.randrange(3), rng.randrange(256), 0])
    for _ in range(rng.randrange(1, 4)):
        op = rng.choice([0, 0, 1, 2, 4, 4, 4])
        by = struct.pack("<q", rng.choice([-1, 0, 1, 2, 63, 64, 2707, 2708, 2709, 10556, 1 << 31,
                                           1 << 40, -(1 << 62)])) if op == 4 else \
            bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
        out += bytes([rng.randrange(64), op]) + struct.pack("<I", rng.randrange(1 << 32)) + \
            bytes([len(by)]) + by
    return bytes(out)


CHILD = textwrap.dedent("""
    import os, sys
    import numpy as np
    import fanout
    for line in sys.stdin:
        path, parted, load = line.split()
        print("BEGIN", path, flush=True)
        try:
            ds = fanout.Dataset(path, load=load)
        except Exception as e:
            print("open:", type(e).__name__, str(e)[:200], flush=True)
            continue
        ok = True
        try:
            ds.info; ds.arrays; ds.splits
            for a in ds.arrays:
                x = ds.array(a)
                if x.size: x.reshape(-1)[-1]
            ds.verify()
        except Exception as e:
            ok = False
            print("check:", type(e).__name__, str(e)[:200], flush=True)
        if True:  # every dataset that opens, verified (ok) or not
            for split in ("train", None):
                try:
                    L = fanout.NeighborLoader(ds, [4, 2], batch_size=64, input_nodes=split,
                                              num_workers=1, shuffle=True, seed=3)
                    for i, b in enumerate(L):
                        for f in ("node", "row", "col", "edge", "x", "y"):
                            v = getattr(b, f, None)
                            if v is not None and np.asarray(v).size: np.asarray(v).reshape(-1)[-1]
                        if i == 2: break
                except Exception as e:
                    print("loader:", type(e).__name__, str(e)[:200], flush=True)
        ds.close()
        print("END", path, flush=True)
""")


def test_python_readers_on_mutated_datasets(fixtures, tmp_path):
    inputs = []
    for sub in ("corpus", "regress"):
        d = os.path.join(FUZZ, sub, "dataset")
        if os.path.isdir(d):
            for f in sorted(os.listdir(d)):
                if not f.startswith("."):
                    with open(os.path.join(d, f), "rb") as fh:
                        inputs.append((f"{sub}/{f}", fh.read()))
    rng = random.Random(14)
    for i in range(int(os.environ.get("FUZZ_PY_RANDOM", "60"))):
        inputs.append((f"random/{i}", random_input(rng)))
    lines, what = [], {}
    for i, (name, data) in enumerate(inputs):
        dest = str(tmp_path / f"ds{i:03d}")
        k = mutate(data, fixtures, dest)
        lines.append(f"{dest} {int(k > 0)} {'hugepage' if data[1:2] and data[1] & 1 else 'mmap'}\n")
        what[dest] = (name, data)
    p = subprocess.run([sys.executable, "-c", CHILD], input="".join(lines), text=True,
                       capture_output=True, timeout=600, env=os.environ)
    began = [l.split()[1] for l in p.stdout.splitlines() if l.startswith("BEGIN ")]
    ended = [l.split()[1] for l in p.stdout.splitlines() if l.startswith("END ")]
    if p.returncode != 0:
        last = began[-1] if began else None
        name, data = what.get(last, ("?", b""))
        pytest.fail(f"the Python readers died (exit {p.returncode}) on {name} "
                    f"(input {data.hex()}):\n{p.stderr[-3000:]}")
    assert len(began) == len(inputs)
    # every dataset is either read to the end or refused with a message
    for l in p.stdout.splitlines():
        if l.split(":")[0] in ("open", "check", "loader"):
            assert len(l.split(" ", 2)) == 3 and l.split(" ", 2)[2].strip(), l
    assert len(ended) + sum(l.startswith("open:") for l in p.stdout.splitlines()) == len(inputs)
