"""The parts of an OGB dataset directory that the C importer (src/io/ogb.c) does not read.

``fanout.import_dataset(dir, out, format="ogb")`` comes here first. The layouts follow OGB's own
loaders (snap-stanford/ogb: ogb/io/read_graph_raw.py ``read_binary_graph_raw``,
ogb/nodeproppred/dataset.py ``get_idx_split``, ogb/linkproppred/dataset.py ``get_edge_split``):

- binary node datasets (ogbn-papers100M): ``raw/data.npz`` (edge_index [2, E], num_nodes_list,
  num_edges_list, node_feat, node_year, ...) and ``raw/node-label.npz`` (node_label, float with
  NaN for unlabeled nodes). numpy decompresses them into a temporary directory of .npy files,
  imported as ``format="npy"`` with features, labels (NaN -> -1), node arrays and splits.
- link prediction splits ``split/<scheme>/{train,valid,test}.pt`` (torch pickles of dicts of
  tensors, e.g. {"edge": [k, 2], "edge_neg": [k, 2]}): read with torch when it is installed,
  each integer tensor stored as the int64 array "<split>_<key>" under the manifest's "extra"
  (float tensors such as ogbl-collab's "weight" are skipped with a warning). ``split_dict.pt``
  (OGB's DatasetSaver) is read the same way; for node datasets its arrays become the splits.

torch.load runs the pickle's code, as OGB's own loader does: import only datasets you trust.
"""

from __future__ import annotations

import gzip
import importlib.util
import os
import warnings
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

# OGB's split names and the names fanout stores them under (as the C importer does)
_SPLITS = (("train", "train"), ("valid", "val"), ("val", "val"), ("test", "test"))


def _scheme_dir(root: str) -> Optional[str]:
    sdir = os.path.join(root, "split")
    if not os.path.isdir(sdir):
        return None
    schemes = sorted(d for d in os.listdir(sdir) if os.path.isdir(os.path.join(sdir, d)))
    if len(schemes) != 1:
        return None  # none, or several: the C importer reports it
    return os.path.join(sdir, schemes[0])


def _load_torch(path: str) -> Any:
    try:
        import torch
    except ImportError:
        return None
    return torch.load(path, map_location="cpu")


def _as_numpy(v: Any) -> Optional[np.ndarray]:
    if hasattr(v, "numpy"):
        v = v.detach().cpu().numpy()
    a = np.asarray(v)
    return a if a.dtype.kind in "iub" or a.dtype.kind == "f" else None


def _link_splits(scheme: str, tmp: str) -> Tuple[Dict[str, str], Dict[str, str]]:
    """(arrays, splits): the .pt splits of `scheme` as .npy files in tmp."""
    arrays: Dict[str, str] = {}
    splits: Dict[str, str] = {}
    files = [(stem, name, os.path.join(scheme, stem + ".pt")) for stem, name in _SPLITS]
    files = [f for f in files if os.path.isfile(f[2])]
    whole = os.path.join(scheme, "split_dict.pt")
    if not files and not os.path.isfile(whole):
        return arrays, splits
    if importlib.util.find_spec("torch") is None:
        warnings.warn(f"{scheme}: the splits are torch pickles (.pt) and torch is not installed: "
                      "imported without them", RuntimeWarning, stacklevel=3)
        return arrays, splits
    parts: List[Tuple[str, str, Any]] = [(stem, name, _load_torch(p)) for stem, name, p in files]
    if not parts:
        d = _load_torch(whole)
        parts = [(stem, name, d[stem]) for stem, name in _SPLITS if stem in d]
    for stem, name, d in parts:
        if not isinstance(d, dict):  # a node split: one id array
            a = _as_numpy(d)
            if a is not None and a.ndim == 1 and a.dtype.kind in "iu":
                path = os.path.join(tmp, f"split_{name}.npy")
                np.save(path, a.astype(np.int64))
                splits[name] = path
            continue
        for key, v in d.items():
            a = _as_numpy(v)
            label = f"{stem}_{key}"
            if a is None or a.dtype.kind == "f" or a.ndim not in (1, 2) or len(label) > 31:
                warnings.warn(f"{scheme}/{stem}.pt: '{key}' ({getattr(a, 'dtype', type(v))}) is "
                              "not an integer array of 1 or 2 dimensions: not imported",
                              RuntimeWarning, stacklevel=3)
                continue
            path = os.path.join(tmp, label + ".npy")
            np.save(path, np.ascontiguousarray(a, dtype=np.int64))
            arrays[label] = path
    return arrays, splits


def _read_ids_csv(path: str) -> np.ndarray:
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        return np.array([int(line) for line in f if line.strip()], dtype=np.int64)


def _binary(root: str, tmp: str, scheme: Optional[str]) -> Tuple[List[str], Dict[str, Any]]:
    """raw/data.npz as .npy files for format="npy"."""
    raw = os.path.join(root, "raw")
    data = np.load(os.path.join(raw, "data.npz"))
    opts: Dict[str, Any] = {}
    if len(data["num_nodes_list"]) != 1:
        raise ValueError(f"{raw}/data.npz: {len(data['num_nodes_list'])} graphs (a graph property "
                         "prediction dataset); fanout imports node and link prediction datasets")
    edge = os.path.join(tmp, "edge_index.npy")
    np.save(edge, np.ascontiguousarray(data["edge_index"], dtype=np.int64))
    opts["num_nodes"] = int(data["num_nodes_list"][0])
    node_arrays = {}
    for key in data.files:
        if key == "node_feat":
            path = os.path.join(tmp, "x.npy")
            np.save(path, np.ascontiguousarray(data[key]))
            opts["features"] = path
        elif key.startswith("node_"):
            a = np.asarray(data[key]).reshape(opts["num_nodes"], -1)
            if a.shape[1] != 1 or a.dtype.kind not in "iu":
                warnings.warn(f"{raw}/data.npz: '{key}' {a.dtype}{list(a.shape)} is not one integer "
                              "per node: not imported", RuntimeWarning, stacklevel=3)
                continue
            path = os.path.join(tmp, key + ".npy")
            np.save(path, a[:, 0].astype(np.int64))
            node_arrays[key] = path
    del data
    labels = os.path.join(raw, "node-label.npz")
    if os.path.isfile(labels):
        y = np.load(labels)["node_label"].reshape(-1)
        if y.dtype.kind == "f":
            bad = np.isnan(y)
            y = np.where(bad, -1, y).astype(np.int64)
        path = os.path.join(tmp, "y.npy")
        np.save(path, y.astype(np.int64))
        opts["labels"] = path
    if node_arrays:
        opts["node_arrays"] = node_arrays
    if scheme:
        splits = {}
        for stem, name in _SPLITS:
            for ext in (".csv.gz", ".csv"):
                p = os.path.join(scheme, stem + ext)
                if name not in splits and os.path.isfile(p):
                    path = os.path.join(tmp, f"split_{name}.npy")
                    np.save(path, _read_ids_csv(p))
                    splits[name] = path
        if splits:
            opts["split"] = splits
    return [edge], opts


def prepare(root: str, tmp: str) -> Tuple[str, List[str], Dict[str, Any]]:
    """(format, inputs, extra options) for importing the OGB directory `root`; the .npy files
    it makes go to `tmp`."""
    scheme = _scheme_dir(root)
    if os.path.isfile(os.path.join(root, "raw", "data.npz")) and not os.path.exists(
            os.path.join(root, "raw", "edge.csv.gz")):
        sdir = os.path.join(root, "split")
        if scheme is None and os.path.isdir(sdir) and len(os.listdir(sdir)) > 1:
            raise ValueError(f"'{sdir}' holds more than one split scheme "
                             f"({', '.join(sorted(os.listdir(sdir)))}): keep the one to import, "
                             "or give the splits with split=")
        fmt, (inputs, opts) = "npy", _binary(root, tmp, scheme)
    else:
        fmt, inputs, opts = "ogb", [root], {}
    if scheme:
        arrays, splits = _link_splits(scheme, tmp)
        if arrays:
            opts["arrays"] = arrays
        if splits and "split" not in opts:
            opts["split"] = splits
    return fmt, inputs, opts
