"""fanout: multi-hop neighbor sampling for GNN training, from Python.

A thin layer over the C library (the extension ``fanout._fanout``, written against the public
C API in include/fanout/). See docs/PYTHON.md for the whole story; in short::

    import fanout
    fanout.import_dataset(["cora.content.gz", "cora.cites"], "cora.fanout",
                          format="planetoid", undirected=True)
    ds = fanout.Dataset("cora.fanout")
    loader = fanout.NeighborLoader(ds, num_neighbors=[10, 10], batch_size=128,
                                   input_nodes="train", shuffle=True, seed=1)
    for epoch in range(10):
        for batch in loader:          # each iter() is the next epoch (reshuffled)
            x = fanout.as_tensor(batch.x)            # zero copy
            edge_index = fanout.as_tensor(batch.edge_index)
            y = fanout.as_tensor(batch.y)            # labels of the batch_size seeds

Batch arrays are read-only NumPy views of fanout's memory (``arr.base is batch``), valid as
long as they (or tensors made from them) live; ``edge_index`` is the one copy (see
docs/PYTHON.md).
"""

from __future__ import annotations

import dataclasses
import json
import operator
import os
import sys
import types
import warnings
import weakref
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _fanout
from ._fanout import (
    Batch,
    FormatError,
    digest_sequence,
    random_permutation,
    set_log_level,
    status_name,
    worker_thread_budget,
)

__version__ = _fanout.__version__

__all__ = [
    "ABLPBatch",
    "ABLPLoader",
    "Batch",
    "Dataset",
    "DistABLPLoader",
    "DistContext",
    "DistLinkNeighborLoader",
    "DistNeighborLoader",
    "EdgeTypeView",
    "FormatError",
    "LinkBatch",
    "LinkNeighborLoader",
    "NeighborLoader",
    "NodeTypeView",
    "WorkerInfo",
    "as_tensor",
    "digest_sequence",
    "import_dataset",
    "import_edges",
    "init_neighbor_loader_worker",
    "label_edge_types",
    "random_permutation",
    "set_log_level",
    "status_name",
    "to_torch",
    "worker_plan",
    "worker_thread_budget",
]

PathLike = Union[str, "os.PathLike[str]"]


class Dataset(_fanout.Dataset):
    """Dataset(path, load="mmap")

    An open fanout dataset directory (made by :func:`import_dataset` or ``fanout import``).

    ``load="mmap"`` maps the files read-only (O(1) to open; processes share the page cache);
    ``load="hugepage"`` copies the topology and the features into transparent huge pages.

    Attributes: ``num_nodes``, ``num_edges``, ``path``, ``features`` ([n, D] view in the
    stored dtype; ``feature_dtype``, and ``feature_scale``/``feature_offset`` for uint8),
    ``labels`` (int64 [n], -1 = none), ``num_classes``, ``splits`` (names), ``arrays``
    (names), ``edge_dirs``; methods ``split(name)``, ``array(name)``, ``verify()``,
    ``dequantize(x)``, ``close()``. All arrays are read-only zero-copy views.

    Typed (heterogeneous) datasets, PyG ``HeteroData``'s names: ``is_typed``, ``node_types``,
    ``edge_types`` (``(src, rel, dst)`` tuples), ``metadata()``, ``num_nodes_dict``,
    ``num_edges_dict``, ``x_dict``, ``y_dict``, ``ds["author"]`` (a :class:`NodeTypeView`
    with that type's features, labels and splits) and ``ds["paper", "writes", "author"]``
    (an :class:`EdgeTypeView`).

    A context manager: ``with fanout.Dataset(p) as ds: ...`` closes it at the end. Closing
    never invalidates loaders, batches or arrays made from the dataset: they keep it mapped
    and stay valid; only new uses of the closed object raise ValueError.
    """

    __slots__ = ()

    @property
    def info(self) -> Dict[str, Any]:
        """The manifest (fanout.json) as a dict."""
        return json.loads(self.manifest)

    def array(self, name: str) -> np.ndarray:
        """A stored array by its manifest name (``numpy.load(..., mmap_mode="r")`` of its file).

        ``"node_orig"`` also works for string ids stored as offsets + bytes (since 0.2): it is
        then built as the fixed-width bytes array (``|S<longest>``) older datasets stored, a
        copy; ``original_id(v)`` reads one id without building it."""
        if name == "node_orig" and "node_orig" not in self.arrays and \
                "node_orig_offsets" in self.arrays:
            off = super().array("node_orig_offsets")
            raw = super().array("node_orig_bytes")
            n = len(off) - 1
            width = max(1, int(np.max(np.diff(off)))) if n > 0 else 1
            out = np.zeros(n, dtype=f"S{width}")
            for v in range(n):
                out[v] = bytes(raw[off[v]:off[v + 1]])
            return out
        return super().array(name)

    def edge_splits(self, edge_type: Any = None) -> List[str]:
        """Names of the stored edge splits (``import --edge-split``) of ``edge_type`` (a
        ``(src, rel, dst)`` tuple, its ``"src__rel__dst"`` string or a relation name; None: the
        only edge type)."""
        return self._edge_split(_edge_type_index(self, edge_type, "edge_type"))

    def edge_split(self, name: str, edge_type: Any = None) -> np.ndarray:
        """The edge ids (of ``edge_type``, None: the only one) of stored edge split ``name``: a
        read-only int64 view. ValueError names the edge splits there are."""
        return self._edge_split(_edge_type_index(self, edge_type, "edge_type"), str(name))

    def edge_endpoints(self, edge_ids: Any, edge_type: Any = None) -> np.ndarray:
        """A new int64 [2, k] array: the src and dst ids of edges ``edge_ids`` of
        ``edge_type`` (None: the only one); ``ds.edge_endpoints(ds.edge_split("train"))`` is
        that split's ``edge_label_index``."""
        return self._edge_endpoints(_edge_type_index(self, edge_type, "edge_type"),
                                    np.asarray(edge_ids, dtype=np.int64))

    def original_id(self, v: int) -> Union[int, bytes]:
        """The input's id of node ``v``: an int (integer ids, or ``v`` itself when the ids
        were kept) or bytes (string ids)."""
        v = operator.index(v)
        if not 0 <= v < self.num_nodes:
            raise _bad(ValueError, f"v: {v} is not a node id in [0, {self.num_nodes})",
                       "FO_ERANGE")
        arrays = self.arrays
        if "node_orig_offsets" in arrays:
            off = super().array("node_orig_offsets")
            return bytes(super().array("node_orig_bytes")[off[v]:off[v + 1]])
        if "node_orig" in arrays:
            a = super().array("node_orig")
            return bytes(a[v]) if a.dtype.kind == "S" else int(a[v])
        return v

    def dequantize(self, x: np.ndarray) -> np.ndarray:
        """Features in this dataset's stored dtype (``features`` or a ``batch.x``) as float32.

        float32 comes back as it is (no copy); float16 and bfloat16 are widened; uint8 becomes
        ``q * feature_scale + feature_offset``. Always a new array except for float32.
        """
        if self.feature_dtype is None:
            raise ValueError("dataset has no features")
        try:
            dim = self.features.shape[1]
        except (AttributeError, ValueError, TypeError):  # partitioned: features are in the parts
            dim = None
        return _dequantize(x, self.feature_dtype, self.feature_scale, self.feature_offset, dim)

    def __reduce__(self):
        raise TypeError("a fanout.Dataset cannot be pickled; open the path in each process")

    # ---- typed (heterogeneous) datasets: PyG HeteroData's names; see docs/PYTHON.md ----

    @property
    def node_types(self) -> List[str]:
        """Node type names in dataset order (``["node"]`` for a version-1 dataset)."""
        return [name for name, _ in self._types()[0]]

    @property
    def edge_types(self) -> List[Tuple[str, str, str]]:
        """Edge types as PyG's canonical ``(src, rel, dst)`` tuples, in dataset order
        (``[("node", "to", "node")]`` for a version-1 dataset)."""
        return [tuple(e[:3]) for e in self._types()[1]]

    def metadata(self) -> Tuple[List[str], List[Tuple[str, str, str]]]:
        """``(node_types, edge_types)``, as PyG's ``HeteroData.metadata()`` (the argument of
        ``torch_geometric.nn.to_hetero`` and of HGT/HAN layers)."""
        nts, ets = self._types()
        return [n for n, _ in nts], [tuple(e[:3]) for e in ets]

    @property
    def num_nodes_dict(self) -> Dict[str, int]:
        """``{node type: number of nodes}`` (PyG ``HeteroData.num_nodes_dict``)."""
        return {name: n for name, n in self._types()[0]}

    @property
    def num_edges_dict(self) -> Dict[Tuple[str, str, str], int]:
        """``{(src, rel, dst): number of edges}`` (PyG ``HeteroData.num_edges_dict``)."""
        return {tuple(e[:3]): e[3] for e in self._types()[1]}

    @property
    def x_dict(self) -> Dict[str, np.ndarray]:
        """``{node type: features}`` for the node types with features (zero-copy views)."""
        out = {}
        for t in self.node_types:
            x = self[t].features
            if x is not None:
                out[t] = x
        return out

    @property
    def y_dict(self) -> Dict[str, np.ndarray]:
        """``{node type: labels}`` for the node types with labels (zero-copy views)."""
        out = {}
        for t in self.node_types:
            y = self[t].labels
            if y is not None:
                out[t] = y
        return out

    def __getitem__(self, key: Any) -> Union["NodeTypeView", "EdgeTypeView"]:
        """``ds["author"]``: the node data of a node type (:class:`NodeTypeView`);
        ``ds["paper", "writes", "author"]`` or ``ds["paper__writes__author"]`` (or a relation
        name that only one edge type has): an edge type (:class:`EdgeTypeView`). KeyError
        names the types there are."""
        if isinstance(key, str) and key in self.node_types:
            return NodeTypeView(self, key, self._node_data(key))
        if isinstance(key, str) and "__" not in key and not _is_relation(self, key):
            return NodeTypeView(self, key, self._node_data(key))  # KeyError lists the types
        i = _edge_type_index(self, key, "key")
        src, rel, dst, n = self._types()[1][i]
        return EdgeTypeView(src, rel, dst, n)


def _partitioned_error(path: str, what: str, ntype: str) -> ValueError:
    e = ValueError(f"dataset '{path}' is partitioned: its {what} of node type '{ntype}' are in "
                   f"its parts")
    e.status = "FO_EINVAL"
    return e


class NodeTypeView:
    """The node data of one node type of a :class:`Dataset` (``ds["author"]``), as PyG's
    ``HeteroData["author"]`` store: ``name``, ``num_nodes``, ``features`` (alias ``x``;
    ``feature_dtype``, ``feature_scale``/``feature_offset`` for uint8), ``labels`` (alias
    ``y``; int64, -1 = none), ``num_classes``, ``splits`` (names), ``split(name)``,
    ``dequantize(x)``. Arrays are read-only zero-copy views of the mapped files (they keep the
    dataset mapped); None where the type has no such data. Ids are local to the type."""

    __slots__ = ("dataset", "name", "num_nodes", "_features", "feature_dtype", "feature_scale",
                 "feature_offset", "_labels", "num_classes", "_splits", "_partitioned")

    def __init__(self, dataset: Dataset, name: str, data: Dict[str, Any]):
        self.dataset = dataset
        self.name = name
        self.num_nodes = data["num_nodes"]
        self._features = data.get("features")
        self.feature_dtype = data.get("feature_dtype")
        self.feature_scale = data.get("feature_scale")
        self.feature_offset = data.get("feature_offset")
        self._labels = data.get("labels")
        self.num_classes = data.get("num_classes")
        self._splits = data["splits"]
        # a typed partitioned dataset: the rows are in the parts (docs/PYTHON.md)
        self._partitioned = data.get("partitioned")

    def _in_parts(self, what: str, have: bool):
        if self._partitioned and have:
            raise _partitioned_error(self._partitioned, what, self.name)

    @property
    def features(self) -> Optional[np.ndarray]:
        """``[num_nodes, D]`` features of this type, or None; ValueError over a partitioned
        dataset (the rows are in its parts: use a loader, or open a part)."""
        self._in_parts("features", self.feature_dtype is not None)
        return self._features

    @property
    def labels(self) -> Optional[np.ndarray]:
        """``[num_nodes]`` int64 labels of this type, or None; ValueError over a partitioned
        dataset, as ``features``."""
        self._in_parts("labels", self.num_classes is not None)
        return self._labels

    x = property(lambda self: self.features, doc="Alias of features (PyG's name).")
    y = property(lambda self: self.labels, doc="Alias of labels (PyG's name).")

    @property
    def splits(self) -> List[str]:
        return list(self._splits)

    def split(self, name: str) -> np.ndarray:
        """The ids (of this type) of split ``name``; ValueError names the splits there are."""
        try:
            return self._splits[name]
        except KeyError:
            raise ValueError(f"node type '{self.name}' has no split '{name}' (it has: "
                             f"{', '.join(self._splits) or 'none'})") from None

    def dequantize(self, x: np.ndarray) -> np.ndarray:
        """As :meth:`Dataset.dequantize`, with this type's dtype, scale and offset."""
        return _dequantize(x, self.feature_dtype, self.feature_scale, self.feature_offset,
                           None if self._features is None else self._features.shape[1])

    def __repr__(self) -> str:
        d = "" if self._features is None else f", features [{self.num_nodes}, " \
            f"{self._features.shape[1]}] {self.feature_dtype}"
        if self._partitioned and self.feature_dtype is not None:
            d = f", features {self.feature_dtype} (in the parts)"
        y = "" if self.num_classes is None else f", {self.num_classes} classes"
        return f"<fanout.NodeTypeView '{self.name}': {self.num_nodes} nodes{d}{y}>"


@dataclasses.dataclass(frozen=True)
class EdgeTypeView:
    """One edge type of a :class:`Dataset` (``ds["paper", "writes", "author"]``)."""

    src: str
    rel: str
    dst: str
    num_edges: int

    @property
    def edge_type(self) -> Tuple[str, str, str]:
        return (self.src, self.rel, self.dst)

    @property
    def name(self) -> str:
        """The ``src__rel__dst`` form of files, JSON and the CLI."""
        return f"{self.src}__{self.rel}__{self.dst}"


def _dequantize(x, dt, scale, offset, dim=None):
    if dt is None:
        raise ValueError("no features")
    x = np.asarray(x)
    want = {"float32": ("float32",), "float16": ("float16",),
            "bfloat16": ("int16", "uint16"), "uint8": ("uint8",)}.get(dt, ())
    if want and x.dtype.name not in want:
        raise TypeError(f"x: expected this dataset's feature dtype {dt} "
                        f"(numpy {' or '.join(want)}), got {x.dtype}")
    if dim is None and scale is not None:
        dim = scale.shape[0]
    if x.ndim < 1 or (dim is not None and x.shape[-1] != dim):
        raise ValueError(f"x: expected shape [..., {dim}] (the feature dimension), got {x.shape}")
    if dt == "float32":
        return x
    if dt == "float16":
        return x.astype(np.float32)
    if dt == "bfloat16":  # int16 bits: the upper half of a float32
        return (x.view(np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)
    if dt == "uint8":
        return x.astype(np.float32) * scale + offset
    raise ValueError(f"unknown feature dtype {dt!r}")


def _is_relation(ds: Dataset, key: str) -> bool:
    return any(e[1] == key for e in ds._types()[1])


def _edge_type_index(ds: Dataset, key: Any, what: str) -> int:
    """Index of edge type ``key``: a ``(src, rel, dst)`` tuple, its ``"src__rel__dst"`` string,
    or a relation name that exactly one edge type has (PyG accepts all three). ValueError
    (KeyError for ``ds[key]``) names ``what`` and the edge types there are."""
    ets = [tuple(e[:3]) for e in ds._types()[1]]
    hits: List[int] = []
    if key is None:
        if len(ets) == 1:
            return 0
        raise _bad(ValueError, f"{what}: dataset '{ds.path}' has {len(ets)} edge types: name one "
                   f"(it has: {', '.join(repr(et) for et in ets)})")
    if isinstance(key, tuple) and len(key) == 3 and all(isinstance(k, str) for k in key):
        hits = [i for i, et in enumerate(ets) if et == key]
    elif isinstance(key, str) and "__" in key:
        hits = [i for i, et in enumerate(ets) if "__".join(et) == key]
    elif isinstance(key, str):
        hits = [i for i, et in enumerate(ets) if et[1] == key]
        if len(hits) > 1:
            raise ValueError(f"{what}: relation {key!r} is ambiguous: edge types "
                             f"{[ets[i] for i in hits]} have it; give (src, rel, dst)")
    if len(hits) == 1:
        return hits[0]
    err = KeyError if what == "key" else ValueError
    name = "__".join(key) if isinstance(key, tuple) else key
    if any(name in ("__".join(lt[:3]), lt[1]) for lt in _fanout.ABLPSampler.label_edge_types(ds)):
        raise err(f"{what}: {key!r} is a labels-only (supervision) edge type of '{ds.path}': "
                  f"the sampler never traverses it")
    raise err(f"{what}: {key!r} is not an edge type of '{ds.path}' (it has: "
              f"{', '.join(repr(et) for et in ets)})")


_INT64_MAX = np.iinfo(np.int64).max


def _bad(exc_type: type, msg: str, status: str = "FO_EINVAL") -> Exception:
    """An argument error carrying ``status`` like the library's own errors."""
    e = exc_type(msg)
    e.status = status
    return e


def _index(name: str, v: Any) -> int:
    """``v`` as an int (``operator.index``: ints and numpy integers), or a TypeError naming the
    argument; bools are refused (``pipeline=True`` is not a count)."""
    if isinstance(v, (bool, np.bool_)):
        raise _bad(TypeError, f"{name}: expected an integer, got bool {v!r}")
    try:
        return operator.index(v)
    except TypeError:
        raise _bad(TypeError, f"{name}: expected an integer, got {type(v).__name__} {v!r}") from None


def _int_ids(name: str, a: Any, bound: Optional[int] = None, what: str = "node id") -> np.ndarray:
    """``a`` as a 1-D int64 array of ids, checked: integer dtype (an empty list is fine), one
    dimension, every value in [0, bound) when ``bound`` is given (else >= 0 is not required),
    unsigned values that fit int64. Errors name the argument, and the position and value."""
    ids = np.asarray(a)
    if ids.size == 0 and ids.dtype.kind == "f":  # [] is float64 to numpy
        ids = ids.astype(np.int64)
    if ids.dtype.kind not in "iu":
        raise _bad(TypeError, f"{name}: expected integer {what}s, got dtype {ids.dtype}")
    if ids.ndim != 1:
        raise _bad(ValueError, f"{name}: expected a 1-D array, got shape {ids.shape}")
    if ids.dtype.kind == "u" and ids.size and ids.max() > np.uint64(_INT64_MAX):
        i = int(np.argmax(ids > np.uint64(_INT64_MAX)))  # uint64 with uint64: no float rounding
        raise _bad(ValueError, f"{name}[{i}] = {ids[i]} does not fit in int64", "FO_ERANGE")
    ids = ids.astype(np.int64, copy=False)
    if bound is not None and ids.size:
        bad = (ids < 0) | (ids >= bound)
        if bad.any():
            i = int(np.argmax(bad))
            raise _bad(ValueError, f"{name}[{i}] = {ids[i]} is not a {what} in [0, {bound})",
                       "FO_ERANGE")
    return ids


def _fspath(p: Optional[PathLike]) -> Optional[str]:
    return None if p is None else os.fsdecode(os.fspath(p))


def _import_opts(
    format: str,
    undirected: bool,
    remove_self_loops: bool,
    dedup: bool,
    drop_unknown: bool,
    relabel: bool,
    csc: bool,
    csr: bool,
    index_dtype: str,
    num_nodes: Optional[int],
    features: Optional[PathLike],
    labels: Optional[PathLike],
    split: Union[None, str, Dict[str, PathLike]],
    feature_dtype: str,
    split_seed: int,
    force: bool,
    progress: bool,
    string_ids: bool = False,
    columns: Optional[Sequence[int]] = None,
    node_arrays: Union[None, str, Dict[str, PathLike]] = None,
    arrays: Union[None, str, Dict[str, PathLike]] = None,
    allow_nonfinite: bool = False,
    edge_weight: Optional[PathLike] = None,
    edge_time: Optional[PathLike] = None,
    node_time: Optional[PathLike] = None,
    weight_col: Optional[int] = None,
    time_col: Optional[int] = None,
    time_format: str = "unix",
) -> Dict[str, Any]:
    def named(spec):
        if isinstance(spec, dict):
            return ",".join(f"{k}={_fspath(v)}" for k, v in spec.items())
        return spec

    split = named(split)
    return dict(
        node_arrays=named(node_arrays),
        arrays=named(arrays),
        format=format,
        undirected=bool(undirected),
        remove_self_loops=bool(remove_self_loops),
        dedup=bool(dedup),
        drop_unknown=bool(drop_unknown),
        relabel=bool(relabel),
        csc=bool(csc),
        csr=bool(csr),
        index_dtype=index_dtype,
        num_nodes=-1 if num_nodes is None else int(num_nodes),
        features=_fspath(features),
        labels=_fspath(labels),
        splits=split,
        feature_dtype=feature_dtype,
        split_seed=int(split_seed),
        force=bool(force),
        progress=bool(progress),
        string_ids=bool(string_ids),
        allow_nonfinite=bool(allow_nonfinite),
        edge_weight=_fspath(edge_weight),
        edge_time=_fspath(edge_time),
        node_time=_fspath(node_time),
        weight_col=-1 if weight_col is None else _index("weight_col", weight_col),
        time_col=-1 if time_col is None else _index("time_col", time_col),
        time_format=str(time_format),
        **_columns(columns),
    )


def _columns(columns: Optional[Sequence[int]]) -> Dict[str, int]:
    if columns is None:
        return {}
    try:
        src, dst = (operator.index(c) for c in columns)
    except (TypeError, ValueError):
        raise TypeError(f"columns: expected two ints (source, target), got {columns!r}")
    return dict(src_column=src, dst_column=dst)


def import_dataset(
    inputs: Union[None, PathLike, Sequence[PathLike]],
    output: PathLike,
    format: str = "edgelist",
    *,
    undirected: bool = False,
    remove_self_loops: bool = False,
    dedup: bool = False,
    drop_unknown: bool = False,
    relabel: bool = False,
    csc: bool = True,
    csr: bool = False,
    index_dtype: str = "auto",
    num_nodes: Optional[int] = None,
    features: Optional[PathLike] = None,
    labels: Optional[PathLike] = None,
    split: Union[None, str, Dict[str, PathLike]] = None,
    feature_dtype: str = "auto",
    split_seed: int = 0,
    force: bool = False,
    progress: bool = False,
    string_ids: bool = False,
    columns: Optional[Sequence[int]] = None,
    node_arrays: Union[None, str, Dict[str, PathLike]] = None,
    arrays: Union[None, str, Dict[str, PathLike]] = None,
    allow_nonfinite: bool = False,
    edge_types: Any = None,
    node_types: Optional[Dict[str, Dict[str, Any]]] = None,
    reverse_edges: bool = False,
    edge_weight: Optional[PathLike] = None,
    edge_time: Optional[PathLike] = None,
    node_time: Optional[PathLike] = None,
    weight_col: Optional[int] = None,
    time_col: Optional[int] = None,
    time_format: str = "unix",
) -> Dict[str, Any]:
    """Import a graph into a new dataset directory ``output`` (``fanout import``).

    Typed (heterogeneous) graphs, one edge list per edge type (``fanout import --edge-type
    SRC,REL,DST FILE ...``): pass ``inputs=[]`` (or None) and ``edge_types`` as a dict
    ``{(src, rel, dst) or "src__rel__dst": path}`` or a list of ``((src, rel, dst), path)``;
    ``node_types={type: {"num_nodes": n, "node_ids": path, "features": x.npy, "labels":
    y.npy, "split": {"train": a.npy, ...}}}`` (every key optional) replaces the
    ``num_nodes``/``features``/``labels``/``split`` keywords; ``reverse_edges=True`` adds
    PyG's ``rev_`` types. The report gains ``num_node_types`` and ``num_edge_types``.

    ``inputs``: one path or a list; ``format``: "edgelist" (SNAP text, .gz ok), "planetoid"
    (the .content and .cites files: features, labels and the standard split come along),
    "npy" (an edge_index [2, E] file) or "mtx". The keywords are the CLI's options
    (``--remove-self-loops`` is ``remove_self_loops``, ...) with these differences: ``csc``
    and ``csr`` are plain booleans (default: CSC only; ``csr=True`` adds the CSR, ``csc=False``
    drops the CSC); ``split`` also takes a dict ``{"train": "a.npy", ...}``; ``progress``
    draws the progress bar (off by default); ``string_ids=True`` (edge lists) numbers any
    tokens as node ids in order of first appearance; ``columns=(s, d)`` (edge lists) takes
    the ids from 0-based columns s and d. ``node_arrays`` and ``arrays`` (``{"name": "f.npy"}``
    or "name=f.npy,...") store integer arrays as node data (``--node-array``) or as they are
    (``--array``). NaN and infinite feature values are refused (ValueError naming the
    file, row and column) unless ``allow_nonfinite=True``.

    Weights and times (``--edge-weight``, ``--edge-time``, ``--node-time``, ``--weight-col``,
    ``--time-col``, ``--time-format``): ``edge_weight="w.npy"`` (float32/float64, one per input
    edge), ``edge_time="t.npy"`` (int64/int32, one per input edge; rows are then kept sorted by
    time), ``node_time="nt.npy"`` (one per node), ``weight_col=K`` / ``time_col=K`` (edge lists:
    the 0-based column holding each edge's weight / time) and ``time_format="unix"`` or
    ``"iso8601"``. A typed import takes ``weight_col``, ``time_col`` and ``time_format`` (every
    type's lines) and per-type files as the CLI's ``--edge-weight S__R__D=W.npy``,
    ``--edge-time S__R__D=T.npy`` and ``--node-time TYPE=T.npy``: ``edge_weight={"u__r__i":
    "w.npy"}`` or ``{("u", "r", "i"): "w.npy"}`` (one value per input edge of that type, in the
    order they are read), ``edge_time`` the same, ``node_time={"paper": "t.npy"}`` (one per
    node of the type); types not named store none; an unknown or reverse type, or a length
    that differs, is a ValueError naming it. Bad values raise FormatError or ValueError naming
    file, line and value.

    ``format="ogb"``: ``inputs`` is an OGB dataset directory (docs/IMPORT.md). Besides what
    ``fanout import --format ogb`` reads, Python converts the binary layout (``raw/data.npz``,
    ogbn-papers100M) with numpy, and reads link prediction splits (``split/<scheme>/*.pt``) with
    torch when it is installed, storing each integer tensor as the array ``<split>_<key>``
    (e.g. ``valid_edge_neg``) under the manifest's "extra" (a warning when torch is missing).
    The .npy files this makes live in a hidden temporary directory beside ``output``.
    A heterogeneous OGB directory (ogbn-mag's layout) becomes a typed dataset;
    ``reverse_edges=True`` then adds the reverse types (docs/IMPORT.md).

    The import is atomic and runs with the GIL released; Ctrl-C cancels it (nothing is left
    behind) and raises KeyboardInterrupt. Returns the report as a dict with the keys of
    ``fanout import --json``: output, num_nodes, num_edges, input_edges, self_loops_removed,
    reverse_added, duplicates_removed, unknown_nodes, unknown_edges_dropped, isolated_nodes.
    Raises ValueError (bad option, existing output without force), OSError (file),
    FormatError (malformed input).
    """
    if edge_types is not None:
        if inputs:
            raise ValueError("inputs: a typed import (edge_types) takes its files from "
                             "edge_types: pass inputs=[]")
        for name, v in (("num_nodes", num_nodes), ("features", features), ("labels", labels),
                        ("split", split)):
            if v is not None:
                raise ValueError(f"{name}: a typed import gives it per node type: "
                                 f"node_types={{type: {{'{name}': ...}}}}")
        per_type = [_typed_type_files(name, v, name == "node_time")
                    for name, v in (("edge_weight", edge_weight), ("edge_time", edge_time),
                                    ("node_time", node_time))]
        opts = _import_opts(format, undirected, remove_self_loops, dedup, drop_unknown,
                            relabel, csc, csr, index_dtype, None, None, None, None,
                            feature_dtype, split_seed, force, progress, string_ids, columns,
                            node_arrays, arrays, allow_nonfinite, None, None, None, weight_col,
                            time_col, time_format)
        rep = _fanout._import_typed(os.fspath(output), _typed_edge_files(edge_types),
                                    _typed_node_opts(node_types or {}), bool(reverse_edges),
                                    *per_type, **opts)
        rep["output"] = _fspath(output)
        return rep
    if node_types is not None or (reverse_edges and format != "ogb"):
        raise ValueError("node_types, reverse_edges: only for a typed import (edge_types=..., "
                         "or format=\"ogb\" on a heterogeneous OGB directory)")
    if inputs is None:
        inputs = []
    if isinstance(inputs, (str, bytes, os.PathLike)):
        inputs = [inputs]
    paths = [os.fspath(p) for p in inputs]
    kw = dict(undirected=undirected, remove_self_loops=remove_self_loops, dedup=dedup,
              drop_unknown=drop_unknown, relabel=relabel, csc=csc, csr=csr,
              index_dtype=index_dtype, num_nodes=num_nodes, features=features, labels=labels,
              split=split, feature_dtype=feature_dtype, split_seed=split_seed, force=force,
              progress=progress, string_ids=string_ids, columns=columns,
              node_arrays=node_arrays, arrays=arrays,
              allow_nonfinite=allow_nonfinite, reverse_edges=reverse_edges,
              edge_weight=edge_weight, edge_time=edge_time, node_time=node_time,
              weight_col=weight_col, time_col=time_col, time_format=time_format)
    if format == "ogb" and len(paths) == 1 and os.path.isdir(paths[0]):
        import tempfile
        from . import _ogb

        parent = os.path.dirname(os.path.abspath(os.fsdecode(output)))
        with tempfile.TemporaryDirectory(prefix=".fanout-ogb-", dir=parent) as tmp:
            fmt, paths, extra = _ogb.prepare(os.fsdecode(paths[0]), tmp)
            for key, val in extra.items():
                if kw.get(key) is None:  # the caller's options win
                    kw[key] = val
            return _import_files(paths, output, fmt, kw)
    return _import_files(paths, output, format, kw)


def _import_files(paths: List[str], output: PathLike, format: str,
                  kw: Dict[str, Any]) -> Dict[str, Any]:
    opts = _import_opts(format, kw["undirected"], kw["remove_self_loops"], kw["dedup"],
                        kw["drop_unknown"], kw["relabel"], kw["csc"], kw["csr"],
                        kw["index_dtype"], kw["num_nodes"], kw["features"], kw["labels"],
                        kw["split"], kw["feature_dtype"], kw["split_seed"], kw["force"],
                        kw["progress"], kw["string_ids"], kw["columns"], kw["node_arrays"],
                        kw["arrays"], kw["allow_nonfinite"], kw.get("edge_weight"),
                        kw.get("edge_time"), kw.get("node_time"), kw.get("weight_col"),
                        kw.get("time_col"), kw.get("time_format", "unix"))
    rep = _fanout.import_dataset(paths, os.fspath(output),
                                 reverse_edges=bool(kw.get("reverse_edges")), **opts)
    rep["output"] = _fspath(output)
    return rep


def _typed_type_files(name: str, v: Any, node: bool) -> List[Tuple[str, str]]:
    """A typed import's per-type files (``--edge-weight S__R__D=W.npy``, ``--edge-time``,
    ``--node-time TYPE=T.npy``): a dict ``{type: path}`` (edge types as "src__rel__dst" or
    (src, rel, dst)) or a list of (type, path) pairs, as [(type name, path)]."""
    if v is None:
        return []
    what = "node type" if node else "edge type"
    if isinstance(v, (str, bytes, os.PathLike)):
        raise ValueError(f"{name}: a typed import takes one file per {what}: "
                         f"{name}={{{'TYPE' if node else 'SRC__REL__DST'!r}: 'file.npy'}}")
    items = v.items() if isinstance(v, dict) else v
    out = []
    for item in items:
        try:
            key, path = item
        except (TypeError, ValueError):
            raise TypeError(f"{name}: expected ({what}, path) pairs, got {item!r}") from None
        if not node and isinstance(key, tuple):
            if not (len(key) == 3 and all(isinstance(k, str) for k in key)):
                raise ValueError(f"{name}: {key!r} is not an edge type (src, rel, dst)")
            key = "__".join(key)
        if not isinstance(key, str):
            raise TypeError(f"{name}: {key!r} is not a {what} name")
        out.append((key, _fspath(path)))
    return out


def _typed_edge_files(edge_types: Any) -> List[Tuple[str, str, str, str]]:
    items = edge_types.items() if isinstance(edge_types, dict) else edge_types
    out = []
    for item in items:
        try:
            key, path = item
        except (TypeError, ValueError):
            raise TypeError(f"edge_types: expected ((src, rel, dst), path) pairs, got "
                            f"{item!r}") from None
        if isinstance(key, str):
            parts = key.split("__") if "__" in key else key.split(",")
            key = tuple(parts)
        if not (isinstance(key, tuple) and len(key) == 3 and all(isinstance(k, str) for k in key)):
            raise ValueError(f"edge_types: {key!r} is not an edge type (src, rel, dst)")
        out.append((*key, _fspath(path)))
    return out


def _typed_node_opts(node_types: Dict[str, Dict[str, Any]]) -> List[tuple]:
    known = {"num_nodes", "node_ids", "features", "labels", "split"}
    out = []
    for name, o in node_types.items():
        if not isinstance(o, dict):
            raise TypeError(f"node_types[{name!r}]: expected a dict of options")
        extra = set(o) - known
        if extra:
            raise ValueError(f"node_types[{name!r}]: unknown option(s) {sorted(extra)} "
                             f"(known: {sorted(known)})")
        sp = o.get("split")
        if isinstance(sp, dict):
            sp = ",".join(f"{k}={_fspath(v)}" for k, v in sp.items())
        nn = o.get("num_nodes")
        out.append((name, -1 if nn is None else operator.index(nn), _fspath(o.get("node_ids")),
                    _fspath(o.get("features")), _fspath(o.get("labels")), sp))
    return out


def import_edges(
    src: Any,
    dst: Any,
    output: PathLike,
    *,
    undirected: bool = False,
    remove_self_loops: bool = False,
    dedup: bool = False,
    relabel: bool = False,
    csc: bool = True,
    csr: bool = False,
    index_dtype: str = "auto",
    num_nodes: Optional[int] = None,
    features: Optional[PathLike] = None,
    labels: Optional[PathLike] = None,
    split: Union[None, str, Dict[str, PathLike]] = None,
    feature_dtype: str = "auto",
    force: bool = False,
    progress: bool = False,
    allow_nonfinite: bool = False,
) -> Dict[str, Any]:
    """Import in-memory edges ``src[i] -> dst[i]`` (integer arrays, e.g. the two rows of a
    PyG ``edge_index``) into a new dataset directory; otherwise as :func:`import_dataset`."""
    src = _int_ids("src", src)
    dst = _int_ids("dst", dst)
    if src.shape != dst.shape:
        raise ValueError(f"src and dst: expected the same number of edges, got {src.shape[0]} and "
                         f"{dst.shape[0]}")
    opts = _import_opts("edgelist", undirected, remove_self_loops, dedup, False, relabel, csc,
                        csr, index_dtype, num_nodes, features, labels, split, feature_dtype,
                        0, force, progress, allow_nonfinite=allow_nonfinite)
    del opts["format"], opts["drop_unknown"], opts["split_seed"]
    rep = _fanout.import_edges(src.astype(np.int64, copy=False), dst.astype(np.int64, copy=False),
                               os.fspath(output), **opts)
    rep["output"] = _fspath(output)
    return rep


class NeighborLoader(_fanout.Loader):
    """NeighborLoader(dataset, num_neighbors=[10, 10], batch_size=1, input_nodes=None, ...)

    PyG-style neighbor loader over a :class:`Dataset`: iterating it yields :class:`Batch`
    objects (PyG ``SamplerOutput`` layout) sampled by fanout's worker threads ahead of you.

    Arguments (PyG's names where PyG has them):

    - ``num_neighbors``: neighbors per hop, -1 = all.
    - ``batch_size``: seeds per batch.
    - ``input_nodes``: None (all nodes), a split name ("train", "val", "test"), node ids
      (any integer array-like, including a CPU torch tensor) or a boolean mask [num_nodes].
    - ``shuffle``: reshuffle the seeds every epoch (deterministically from (seed, epoch)).
    - ``drop_last``: drop a last, smaller batch.
    - ``num_workers``: sampling threads (not processes); None = fanout's default (the thread
      budget of :func:`init_neighbor_loader_worker`, or 1); 0 samples inside ``next()``.
    - ``seed``: seed of every random choice; a batch is a pure function of (dataset, options,
      epoch, batch index), whatever the number of workers.
    - ``replace``, ``disjoint``: as in PyG; ``edge_dir``: "in" (in-neighbors, CSC) or "out"
      (out-neighbors, needs a CSR).
    - ``weighted``: draw neighbors by edge weight (the weights stored at import,
      ``--edge-weight``; typed: per edge type), with or without replacement as
      ``torch.multinomial`` and pyg-lib's ``edge_weight``. PyG's ``weight_attr="NAME"`` (any
      edge attribute name: fanout has one weight per edge) means ``weighted=True``. With
      ``time_attr`` and ``temporal_strategy="uniform"``: by weight among the eligible edges.
    - ``prefetch``: batches sampled ahead (None = 2 x num_workers).
    - ``epoch``: the epoch of the first iteration.
    - ``features``, ``labels``: gather x and y into each batch.

    Typed datasets (docs/PYTHON.md): ``input_nodes=(node type, ids | mask | split name |
    None)`` or a node type; ``num_neighbors`` a list for every edge type or
    ``{(src, rel, dst) or "src__rel__dst": [f0, f1, ...]}`` giving every edge type (PyG's
    ``NumNeighbors`` rules). Batches then have ``node_dict``, ``edge_index_dict``, ``x_dict``,
    ... keyed as HeteroData.

    PyG's other arguments (``subgraph_type``, ``directed``, ``pin_memory``,
    ``persistent_workers``, ``prefetch_factor``, ``is_sorted``, ``filter_per_worker``, ...) are
    accepted too: see docs/PYTHON.md for each. Those without meaning here are ignored (with a
    warning when fanout cannot do what the value asks, e.g. ``pin_memory=True``); those that
    would change the batches fanout cannot make (``subgraph_type="induced"``,
    ``transform``, ...) raise ValueError; unknown names raise TypeError.

    Temporal sampling (PyG's names): ``time_attr="edge"`` (the dataset's edge times, import
    ``--edge-time``/``--time-col``) or ``"node"`` (node times, ``--node-time``);
    ``temporal_strategy="uniform"`` (uniform among eligible edges) or ``"last"`` (the most
    recent ones); ``input_time``: one integer time per input node (node ids), default the seeds'
    node times. Seed i's tree only has edges with time <= input_time[i] (edge mode) or
    neighbors with node time <= it (node mode); sampling is then disjoint (as in PyG) and
    ``batch.input_time`` gives each seed's time.

    Epochs: every ``iter(loader)`` (every ``for`` loop over it) starts the next epoch: the
    first runs ``epoch``, then ``epoch + 1``, ... (a new shuffle each time, like PyG's
    DataLoader). ``set_epoch(e)`` picks the epoch of the next iteration; ``loader.epoch`` is
    the current one. Starting a new iteration makes the previous iterator stale (it raises
    RuntimeError); batches already taken stay valid. ``len(loader)`` is the number of batches
    per epoch.
    """

    __slots__ = ()

    def __new__(
        cls,
        dataset: Dataset,
        num_neighbors: Sequence[int] = (10, 10),
        batch_size: int = 1,
        input_nodes: Any = None,
        shuffle: bool = False,
        drop_last: bool = False,
        num_workers: Optional[int] = None,
        seed: int = 0,
        replace: bool = False,
        disjoint: bool = False,
        edge_dir: str = "in",
        weighted: bool = False,
        prefetch: Optional[int] = None,
        epoch: int = 0,
        features: bool = True,
        labels: bool = True,
        time_attr: Optional[str] = None,
        temporal_strategy: str = "uniform",
        input_time: Any = None,
        _dist: Optional[tuple] = None,
        **pyg_kwargs: Any,
    ):
        if "weight_attr" in pyg_kwargs:
            weighted = _weight_attr(cls.__name__, pyg_kwargs.pop("weight_attr"), weighted)
        if pyg_kwargs:
            prefetch = _pyg_loader_kwargs(cls.__name__, pyg_kwargs, num_workers, prefetch)
        if not isinstance(dataset, _fanout.Dataset):
            raise _bad(TypeError, f"dataset: expected a fanout.Dataset, got {type(dataset).__name__}")
        typed: Dict[str, Any] = {}
        input_type, input_nodes = _typed_input_nodes(dataset, input_nodes)
        if input_type is not None:
            typed["input_type"] = input_type
        if isinstance(num_neighbors, dict):
            num_neighbors, et_fanouts, nn_dict = _edge_type_fanouts(dataset, num_neighbors)
            typed["num_neighbors_dict"] = nn_dict
            if et_fanouts is not None:
                typed["edge_type_fanouts"] = et_fanouts
        if input_nodes is not None and not isinstance(input_nodes, str):
            ids = np.asarray(input_nodes)
            n = dataset.num_nodes if input_type is None else dataset.num_nodes_dict[input_type]
            if ids.dtype == np.bool_:
                if ids.ndim != 1:
                    raise _bad(ValueError, f"input_nodes: a mask must be 1-D, got shape {ids.shape}")
                if ids.shape[0] != n:
                    raise _bad(ValueError, f"input_nodes: a boolean mask must have one entry per node "
                                     f"({n}), got {ids.shape[0]}")
                ids = np.flatnonzero(ids)
            elif ids.dtype.kind not in "iuf" or (ids.dtype.kind == "f" and ids.size):
                raise _bad(TypeError, f"input_nodes: expected node ids or a boolean mask, "
                                f"got dtype {ids.dtype}")
            input_nodes = _int_ids("input_nodes", ids, n, "node id" if input_type is None
                                   else f"node id of node type '{input_type}'")
        if isinstance(num_neighbors, (str, bytes)) or not hasattr(num_neighbors, "__iter__"):
            raise _bad(TypeError, f"num_neighbors: expected a list of ints, got {num_neighbors!r}")
        if isinstance(num_neighbors, np.ndarray) and num_neighbors.ndim != 1:
            raise _bad(ValueError, f"num_neighbors: expected a 1-D list, got shape {num_neighbors.shape}")
        try:
            fanouts = [operator.index(f) for f in num_neighbors]
        except TypeError:
            raise _bad(TypeError, f"num_neighbors: expected a list of ints, got {num_neighbors!r}")
        for h, f in enumerate(fanouts):
            if f < -1 or f > np.iinfo(np.int32).max:
                raise _bad(ValueError, f"num_neighbors[{h}] = {f}: expected -1 (all neighbors) or a "
                                 f"count in 0..{np.iinfo(np.int32).max}")
        try:
            batch_size = operator.index(batch_size)
        except TypeError:
            raise _bad(TypeError, f"batch_size: expected an int, got {batch_size!r}")
        if batch_size < 1:
            raise _bad(ValueError, f"batch_size: expected >= 1, got {batch_size}")
        return super().__new__(
            cls, dataset, fanouts, batch_size=batch_size,
            input_nodes=input_nodes, shuffle=bool(shuffle), drop_last=bool(drop_last),
            num_workers=num_workers, seed=int(seed), replace=bool(replace), weighted=bool(weighted),
            disjoint=bool(disjoint), edge_dir=edge_dir, prefetch=prefetch, epoch=int(epoch),
            features=bool(features), labels=bool(labels), **typed,
            **_temporal_kwargs(time_attr, temporal_strategy, input_time, input_nodes),
            **({} if _dist is None else {"dist": _dist[0], "tail": _dist[1], **_dist[2]}))

    @property
    def num_neighbors(self):
        """Fanouts per hop (tuple), or for a dict per edge type ``{(src, rel, dst): tuple}``."""
        d = self._num_neighbors_dict
        return _fanout.Loader.num_neighbors.__get__(self) if d is None else dict(d)

    def __reduce__(self):
        raise TypeError("a fanout.NeighborLoader cannot be pickled (it owns threads)")



class LinkBatch(types.SimpleNamespace):
    """One batch of :class:`LinkNeighborLoader`, with PyG's field names (``Data`` /
    ``HeteroData`` from ``LinkNeighborLoader``): homogeneous datasets ``n_id``, ``e_id``,
    ``edge_index`` ([2, E]: row = neighbor, col = the node it was sampled for, local ids),
    ``x`` (when the dataset has features), ``num_sampled_nodes``, ``num_sampled_edges``;
    typed datasets the same with ``_dict`` keyed by node type / (src, rel, dst). Both:
    ``edge_label_index`` ([2, L] local ids into the src / dst type's nodes), ``edge_label``
    ([L]: the positives' labels or 1, then 0 for binary negatives), ``input_id`` (the seed
    edges' positions in ``edge_label_index`` as given), for triplet negatives ``src_index``,
    ``dst_pos_index``, ``dst_neg_index`` ([B, k], -1 where no negative exists; squeezed to [B]
    for k = 1 as PyG does), ``num_neg``, ``num_neg_missing``, ``num_excluded``; ``epoch``,
    ``index``. Arrays are NumPy (``fanout.as_tensor`` or ``torch.from_numpy`` shares them)."""


class LinkNeighborLoader:
    """LinkNeighborLoader(dataset, num_neighbors, edge_label_index=None, edge_label=None,
    neg_sampling=None, strict=True, exclude_seed_edges=False, batch_size=1, shuffle=False,
    drop_last=False, seed=0, replace=False, edge_dir="in", epoch=0, features=True,
    edge_type=None)

    PyG's ``LinkNeighborLoader`` over the C link sampler (include/fanout/link.h): every batch
    samples the multi-hop neighborhoods of the endpoints of ``batch_size`` seed edges (and of
    their negatives). ``edge_label_index``: [2, B] src and dst ids of the seed edges (for a
    typed dataset ``((src, rel, dst), [2, B])`` or give ``edge_type``), or the name of a stored
    edge split (``import --edge-split``; ``((src, rel, dst), "train")`` for a typed dataset;
    its edges in stored order, ``input_id`` their positions in the split); ``neg_sampling``:
    ``None``, ``("binary", r)`` (ceil(r B) random pairs labelled 0, appended) or
    ``("triplet", k)`` (k random destinations per positive), or PyG's NegativeSampling
    object. ``strict`` (default True, unlike PyG): a negative is never an edge of the edge
    type. ``exclude_seed_edges``: a batch's seed edges, and their reverses in undirected or
    --reverse-edges datasets, are never sampled in its subgraph (with time: drawn among the
    eligible edges minus those). With binary negatives,
    labels whose minimum is 0 are shifted by one (PyG). ``time_attr`` ("edge" / "node") with
    ``edge_label_time`` ([B] times; a split name defaults to its stored edge times): temporal,
    disjoint sampling, every endpoint's tree bounded by its seed edge's time (negatives: their
    positive's), ``batch`` gives each node's tree; ``disjoint=True``: one tree per endpoint
    without time. ``weighted=True`` (or PyG's ``weight_attr="NAME"``): neighbors drawn by
    edge weight as :class:`NeighborLoader`'s ``weighted`` (the weights stored at import,
    ``--edge-weight``; a dataset without them raises ValueError); not with
    ``exclude_seed_edges`` in :class:`DistLinkNeighborLoader` yet. A batch is a pure function of
    (dataset, options, seed edges, epoch, batch index); each ``iter()`` runs the next epoch.
    Batches are made on the caller's thread.
    """

    def __init__(self, dataset: Dataset, num_neighbors: Any = (10, 10),
                 edge_label_index: Any = None, edge_label: Any = None,
                 neg_sampling: Any = None, strict: bool = True,
                 exclude_seed_edges: bool = False, batch_size: int = 1,
                 shuffle: bool = False, drop_last: bool = False, seed: int = 0,
                 replace: bool = False, edge_dir: str = "in", epoch: int = 0,
                 features: bool = True, edge_type: Any = None, neg_sampling_ratio: Any = None,
                 edge_label_time: Any = None, time_attr: Optional[str] = None,
                 temporal_strategy: str = "uniform", disjoint: bool = False,
                 weighted: bool = False, weight_attr: Any = None, *, _dist: Any = None):
        weighted = _weight_attr(type(self).__name__, weight_attr, weighted)
        if not isinstance(dataset, _fanout.Dataset):
            raise _bad(TypeError, f"dataset: expected a fanout.Dataset, got {type(dataset).__name__}")
        if isinstance(edge_label_index, tuple) and len(edge_label_index) == 2 and not isinstance(
                edge_label_index[0], (int, np.integer)) and not hasattr(edge_label_index[0], "shape"):
            edge_type, edge_label_index = edge_label_index
        et_name = None
        if edge_type is not None:
            et_name = dataset.edge_types[_edge_type_index(dataset, edge_type, "edge_type")]
            et_name = "__".join(et_name)
        self.edge_split = None
        if isinstance(edge_label_index, str):
            # a stored edge split (import --edge-split): its edges' endpoints, labels all 1
            if edge_label is not None:
                raise _bad(ValueError, f"edge_label: not with the edge split {edge_label_index!r} "
                           f"(its edges are all positives)")
            self.edge_split = edge_label_index
            if _dist is None and "num_parts" in dataset.info:
                # partitioned, one process: the split's endpoints stored at the top level
                edge_label_index = np.array(dataset._edge_split_ends(
                    _edge_type_index(dataset, edge_type, "edge_type"), edge_label_index))
            elif _dist is None:  # distributed: the C loader reads the split itself
                edge_label_index = dataset.edge_endpoints(
                    dataset.edge_split(edge_label_index, edge_type), edge_type)
        if _dist is not None and self.edge_split is not None:
            self._src = self._dst = None
        elif edge_label_index is None:
            raise _bad(ValueError, "edge_label_index: give the seed edges ([2, B] src and dst ids)")
        else:
            eli = np.asarray(edge_label_index)
            if eli.ndim != 2 or eli.shape[0] != 2:
                raise _bad(ValueError, f"edge_label_index: expected shape [2, B], got {eli.shape}")
            if eli.size and eli.dtype.kind not in "iu":
                raise _bad(TypeError, f"edge_label_index: expected integer ids, got dtype {eli.dtype}")
            # uint64 ids past int64 would wrap to negative ids: refused by name; distributed:
            # ranges too (the C check comes after the collective options check)
            nsrc, ndst = _edge_type_bounds(dataset, edge_type) if _dist is not None else (None, None)
            self._src = np.ascontiguousarray(_int_ids("edge_label_index[0]", eli[0], nsrc))
            self._dst = np.ascontiguousarray(_int_ids("edge_label_index[1]", eli[1], ndst))
        neg, amount = 0, 1.0
        if neg_sampling_ratio is not None and neg_sampling is None:
            neg_sampling = ("binary", neg_sampling_ratio)
        if neg_sampling is not None:
            if hasattr(neg_sampling, "mode"):  # torch_geometric.sampler.NegativeSampling
                mode = getattr(neg_sampling.mode, "value", neg_sampling.mode)
                neg_sampling = (str(mode), float(neg_sampling.amount))
            if isinstance(neg_sampling, str):
                neg_sampling = (neg_sampling, 1.0)
            mode, amount = neg_sampling
            if mode not in ("binary", "triplet"):
                raise _bad(ValueError, f"neg_sampling: mode {mode!r} is not 'binary' or 'triplet'")
            neg = 1 if mode == "binary" else 2
            amount = float(amount)
        lab = None
        if edge_label is not None:
            lab = np.asarray(edge_label)
            if lab.size and lab.dtype.kind == "f" and not np.all(np.isfinite(lab) & (lab == np.floor(lab))):
                i = int(np.argmax(~(np.isfinite(lab) & (lab == np.floor(lab)))))
                raise _bad(ValueError, f"edge_label[{i}] = {lab.flat[i]} is not an integer class")
            if lab.size and lab.dtype.kind not in "iubf":
                raise _bad(TypeError, f"edge_label: expected integer labels, got dtype {lab.dtype}")
            if lab.size and lab.dtype.kind == "f" and np.abs(lab).max() >= 2.0 ** 62:
                raise _bad(ValueError, "edge_label: a label does not fit in int64", "FO_ERANGE")
            if lab.size and lab.dtype.kind == "u" and lab.max() > np.uint64(_INT64_MAX):
                raise _bad(ValueError, "edge_label: a label does not fit in int64", "FO_ERANGE")
            lab = np.ascontiguousarray(lab, dtype=np.int64)
            if self._src is None:
                raise _bad(ValueError, "edge_label: not with an edge split (its edges are all "
                                       "positives)")
            if lab.shape != self._src.shape:
                raise _bad(ValueError, f"edge_label: expected shape [{self._src.shape[0]}], got {lab.shape}")
            if neg == 1 and lab.size and lab.min() == 0:
                lab = lab + 1  # PyG: 0 now means "negative"
        self._label = lab
        tk = _temporal_kwargs(time_attr, temporal_strategy, None, None)
        self._time = None
        if edge_label_time is not None:
            if not tk:
                raise _bad(ValueError, "edge_label_time needs time_attr ('edge' or 'node')")
            t = np.asarray(edge_label_time)
            # distributed, a split: one time per split edge, in split order (partitions do not
            # carry the split's stored times yet)
            n = (self._src.shape[0] if self._src is not None else
                 dataset.edge_split(self.edge_split, edge_type).shape[0])
            if t.shape != (n,) or (t.size and t.dtype.kind not in "iu"):
                raise _bad(ValueError, f"edge_label_time: expected {n} integer "
                                       f"times, got dtype {t.dtype} with shape {t.shape}")
            self._time = _int_ids("edge_label_time", t, what="time")  # uint64 must fit int64
        elif tk and self.edge_split is not None and _dist is not None:
            pass  # the C loader takes the split's stored edge times
        elif tk and self.edge_split is not None:
            # a stored split: its edges' stored times (the id direction's time array)
            self._time = _split_edge_times(dataset, self.edge_split, edge_type)
        elif tk:
            raise _bad(ValueError, "time_attr: temporal link sampling needs edge_label_time (the "
                                   "seed edges' times)")
        et_fanouts = None
        if isinstance(num_neighbors, dict):
            num_neighbors, et_fanouts, _ = _edge_type_fanouts(dataset, num_neighbors)
        self._fanouts = [_index(f"num_neighbors[{i}]", f) for i, f in enumerate(num_neighbors)]
        batch_size = _index("batch_size", batch_size)
        if batch_size < 1:
            raise _bad(ValueError, f"batch_size: expected >= 1, got {batch_size}")
        temporal = {"uniform": 1, "last": 2}[tk["temporal_strategy"]] if tk else 0
        time_node = 1 if tk and tk["time_attr"] == "node" else 0
        self._dl = None
        if _dist is None:
            self._s = _fanout.LinkSampler(dataset, self._fanouts, et_name, neg, amount, bool(strict),
                                          bool(exclude_seed_edges), int(seed), bool(replace),
                                          edge_dir, et_fanouts, bool(disjoint), temporal, time_node,
                                          weighted=bool(weighted))
        else:
            ctx, extra = _dist
            if not isinstance(edge_dir, str):
                raise _bad(TypeError, f"edge_dir: expected 'in' or 'out', got {edge_dir!r}")
            self._s = None
            self._dl = _fanout.DistLinkLoader(
                ctx, dataset, self._fanouts, et_name, neg, amount, bool(strict),
                bool(exclude_seed_edges), int(seed), bool(replace), edge_dir, et_fanouts,
                bool(disjoint), temporal, time_node,
                None if self._src is None else np.stack([self._src, self._dst]),
                self._label, self._time, self.edge_split, batch_size, bool(shuffle),
                bool(drop_last), int(epoch), bool(features), weighted=bool(weighted), **extra)
            self.context = ctx
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.drop_last = bool(drop_last)
        self.seed = int(seed)
        self.weighted = bool(weighted)
        self.neg_sampling = None if neg == 0 else (("binary", "triplet")[neg - 1], amount)
        self.features = bool(features)
        self.next_epoch = int(epoch)
        self._typed = dataset.is_typed
        self._x = None
        if self._dl is not None:  # this rank's batches; features come with each batch
            self._n_batches = self._dl.num_batches()
            return
        n = self._src.shape[0]
        self._n_batches = n // batch_size + (0 if self.drop_last or n % batch_size == 0 else 1)
        if self.features:
            if self._typed:
                self._x = dataset.x_dict
            elif dataset.features is not None:
                self._x = dataset.features

    def __len__(self) -> int:
        return self._n_batches

    def set_epoch(self, epoch: int) -> None:
        self.next_epoch = int(epoch)

    def sample(self, src, dst, label=None, epoch: int = 0, batch_index: int = 0,
               time=None) -> LinkBatch:
        """One batch of the given seed edges (src, dst ids; ``time``: their times, for a
        temporal loader) with the sampler's options."""
        if self._s is None:
            raise _bad(TypeError, "DistLinkNeighborLoader.sample: not available (batches are "
                                  "dealt to the ranks: iterate over the loader)", "FO_ENOSYS")
        r = self._s.sample(np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64),
                           None if label is None else np.asarray(label, dtype=np.int64),
                           int(epoch), int(batch_index),
                           None if time is None else np.asarray(time, dtype=np.int64))
        return self._batch(r, None, epoch, batch_index)

    def _batch(self, r, input_id, epoch, index) -> LinkBatch:
        b = LinkBatch(epoch=epoch, index=index, input_id=input_id,
                      edge_label_index=r["edge_label_index"], edge_label=r["edge_label"],
                      num_neg=r["num_neg"], num_neg_missing=r["num_neg_missing"],
                      num_excluded=r["num_excluded"])
        if "src_index" in r:
            b.src_index = r["src_index"]
            b.dst_pos_index = r["dst_pos_index"]
            d = r["dst_neg_index"]
            b.dst_neg_index = d[:, 0] if d.shape[1] == 1 else d
        if not self._typed:
            b.n_id = r["node"][0]
            b.e_id = r["edge"][0]
            b.edge_index = np.stack([r["row"][0], r["col"][0]])
            b.num_sampled_nodes = r["num_sampled_nodes"][0]
            b.num_sampled_edges = r["num_sampled_edges"][0]
            if r["batch"][0] is not None:
                b.batch = r["batch"][0]
            if self._x is not None:
                b.x = np.asarray(self._x[b.n_id])
            elif r.get("x") and r["x"][0] is not None:  # distributed: gathered by the loader
                b.x = r["x"][0]
            return b
        nts = self.dataset.node_types
        ets = self.dataset.edge_types
        b.n_id_dict = {t: r["node"][i] for i, t in enumerate(nts)}
        b.num_sampled_nodes_dict = {t: r["num_sampled_nodes"][i] for i, t in enumerate(nts)}
        b.e_id_dict = {et: r["edge"][i] for i, et in enumerate(ets)}
        b.edge_index_dict = {et: np.stack([r["row"][i], r["col"][i]]) for i, et in enumerate(ets)}
        b.num_sampled_edges_dict = {et: r["num_sampled_edges"][i] for i, et in enumerate(ets)}
        b.edge_type = ets[r["edge_type"]]
        if r["batch"][0] is not None:
            b.batch_dict = {t: r["batch"][i] for i, t in enumerate(nts)}
        if self._x:
            b.x_dict = {t: np.asarray(x[b.n_id_dict[t]]) for t, x in self._x.items()}
        elif r.get("x") and any(x is not None for x in r["x"]):
            b.x_dict = {t: x for t, x in zip(nts, r["x"]) if x is not None}
        return b

    def __iter__(self):
        epoch = self.next_epoch
        self.next_epoch += 1
        if self._dl is not None:
            return self._dist_epoch(epoch)
        return self._epoch(epoch)

    def _dist_epoch(self, epoch):
        self._dl.start_epoch(epoch)
        while True:
            r = self._dl.next()
            if r is None:
                return
            b = self._batch(r, r["input_id"], r["epoch"], r["index"])
            b.traffic = r["traffic"]
            yield b

    def _epoch(self, epoch):
        n = self._src.shape[0]
        order = (random_permutation(n, self.seed, epoch) if self.shuffle
                 else np.arange(n, dtype=np.int64))
        for b in range(self._n_batches):
            ids = order[b * self.batch_size:(b + 1) * self.batch_size]
            r = self._s.sample(self._src[ids], self._dst[ids],
                               None if self._label is None else self._label[ids], epoch, b,
                               None if self._time is None else self._time[ids])
            yield self._batch(r, ids, epoch, b)

def _edge_type_bounds(ds: Dataset, edge_type: Any) -> Tuple[Optional[int], Optional[int]]:
    """The number of nodes of the seed edges' src and dst node types (None, None when the edge
    type is ambiguous: the C loader names the choices)."""
    if not ds.is_typed:
        return ds.num_nodes, ds.num_nodes
    ets = ds.edge_types
    if edge_type is None and len(ets) != 1:
        return None, None
    et = ets[0] if edge_type is None else ets[_edge_type_index(ds, edge_type, "edge_type")]
    nn = ds.num_nodes_dict
    return nn[et[0]], nn[et[2]]


def _split_edge_times(ds: Dataset, split: str, edge_type: Any) -> np.ndarray:
    """The stored edge times of the edges of edge split ``split`` (edge ids are positions of
    the edge-id direction, whose "time" array aligns with them)."""
    ids = ds.edge_split(split, edge_type)
    info = ds.info
    if ds.is_typed:
        ent = info["edge_types"][_edge_type_index(ds, edge_type, "edge_type")]
    else:
        ent = info
    topo = ent.get("topology", {})
    d = topo.get("csc") if ent.get("edge_ids", "csc") == "csc" and "csc" in topo else topo.get("csr")
    if not d or "time" not in d:
        raise _bad(ValueError, f"time_attr: edge split {split!r} has no stored edge times (import "
                               f"--edge-time or --time-col), give edge_label_time")
    return np.ascontiguousarray(ds.array(d["time"])[ids], dtype=np.int64)


def _temporal_kwargs(time_attr: Any, temporal_strategy: Any, input_time: Any,
                     input_nodes: Any) -> Dict[str, Any]:
    """PyG's temporal arguments -> the C loader's: ``time_attr`` "edge" (the dataset's edge
    times, import --edge-time / --time-col) or "node" (node times, --node-time), or None (not
    temporal); ``temporal_strategy`` "uniform" or "last"; ``input_time`` one int time per
    input node (needs node ids as ``input_nodes``), None = the seeds' node times."""
    if time_attr is None:
        if input_time is not None:
            raise _bad(ValueError, "input_time needs time_attr ('edge' or 'node')")
        if temporal_strategy != "uniform":  # PyG ignores it without time_attr
            warnings.warn(f"temporal_strategy is ignored without time_attr (got "
                          f"{temporal_strategy!r}): no temporal sampling", UserWarning, stacklevel=3)
        return {}
    if time_attr not in ("edge", "node"):
        raise _bad(ValueError, f"time_attr: expected 'edge' (edge times) or 'node' (node "
                               f"times), got {time_attr!r}")
    if temporal_strategy not in ("uniform", "last"):
        raise _bad(ValueError, f"temporal_strategy: expected 'uniform' or 'last', got "
                               f"{temporal_strategy!r}")
    out: Dict[str, Any] = {"time_attr": time_attr, "temporal_strategy": temporal_strategy}
    if input_time is not None:
        t = np.asarray(input_time)
        if t.ndim != 1 or (t.dtype.kind not in "iu" and t.size):
            raise _bad(TypeError, f"input_time: expected 1-D integer times, got dtype {t.dtype} "
                                  f"with shape {t.shape}")
        if input_nodes is None or isinstance(input_nodes, str):
            raise _bad(ValueError, "input_time: give input_nodes as node ids (one time each)")
        if t.shape[0] != len(input_nodes):
            raise _bad(ValueError, f"input_time: {t.shape[0]} times for {len(input_nodes)} "
                                   f"input nodes")
        out["input_time"] = _int_ids("input_time", t, what="time")  # uint64 must fit int64
    return out


def _weight_attr(where: str, weight_attr: Any, weighted: bool) -> bool:
    """PyG's ``weight_attr`` (the edge attribute holding the sampling weights): a name means
    weighted sampling on the weights the dataset stores; None changes nothing."""
    if weight_attr is None:
        return weighted
    if not isinstance(weight_attr, str):
        raise TypeError(f"{where}: weight_attr: expected an edge attribute name (str) or None, "
                        f"got {type(weight_attr).__name__}")
    return True


def _typed_input_nodes(ds: Dataset, input_nodes: Any) -> Tuple[Optional[str], Any]:
    """PyG's hetero ``input_nodes``: ``(node type, ids | mask | split name | None)`` or a
    node type alone (all its nodes) -> (input type or None, the rest as for one type)."""
    if (isinstance(input_nodes, tuple) and len(input_nodes) == 2
            and isinstance(input_nodes[0], str)):
        node_types = ds.node_types
        if input_nodes[0] not in node_types:
            raise ValueError(f"input_nodes: {input_nodes[0]!r} is not a node type of "
                             f"'{ds.path}' (it has: {', '.join(node_types)})")
        return input_nodes[0], input_nodes[1]
    if not ds.is_typed:
        return None, input_nodes
    node_types = ds.node_types
    if isinstance(input_nodes, str):
        if input_nodes in node_types:  # PyG: a node type alone is all nodes of that type
            return input_nodes, None
        raise ValueError(f"input_nodes: {input_nodes!r} is not a node type of '{ds.path}' "
                         f"(it has: {', '.join(node_types)}); for a split of a node type give "
                         f"(type, split name), e.g. ({node_types[0]!r}, 'train')")
    if len(node_types) > 1:
        raise ValueError(f"input_nodes: '{ds.path}' has {len(node_types)} node types "
                         f"({', '.join(node_types)}): give the seeds' type, as PyG's "
                         f"input_nodes=(node type, ids | mask | split name | None)")
    return None, input_nodes


def _edge_type_fanouts(ds: Dataset, num_neighbors: Dict[Any, Any]):
    """``num_neighbors={edge type: [f0, f1, ...]}`` -> (fanouts of hop h for the C
    ``fanouts`` field, the flat [n_edge_types * n_hops] list for ``edge_type_fanouts`` (None
    for a one-edge-type dataset), and the dict as given with tuple keys). Follows PyG's
    ``NumNeighbors`` (torch_geometric/sampler/base.py): keys are (src, rel, dst) tuples or
    "src__rel__dst" strings (or a relation name only one type has); every edge type must be
    given, an unknown one is an error, all lists have the same length."""
    ets = ds.edge_types
    per: List[Optional[List[int]]] = [None] * len(ets)
    for key, value in num_neighbors.items():
        i = _edge_type_index(ds, key, "num_neighbors")
        if per[i] is not None:
            raise ValueError(f"num_neighbors: edge type {ets[i]!r} is given twice (as "
                             f"{key!r} and another key)")
        if isinstance(value, (str, bytes)):
            raise TypeError(f"num_neighbors[{key!r}]: expected a list of ints, got {value!r}")
        try:
            per[i] = [operator.index(f) for f in value]
        except TypeError:
            raise TypeError(f"num_neighbors[{key!r}]: expected a list of ints, got "
                            f"{value!r}") from None
    missing = [et for et, f in zip(ets, per) if f is None]
    if missing:
        raise ValueError(f"num_neighbors: no fanouts for edge type{'s' if len(missing) > 1 else ''} "
                         f"{', '.join(repr(et) for et in missing)}: a dict must give every edge "
                         f"type (as PyG's NumNeighbors without a default), e.g. [0, 0] to skip one")
    hops = {len(f) for f in per}
    if len(hops) > 1:
        first = ets[0]
        other = next(et for et, f in zip(ets, per) if len(f) != len(per[0]))
        raise ValueError(f"num_neighbors: every edge type needs the same number of hops: "
                         f"{first!r} has {len(per[0])}, {other!r} has "
                         f"{len(per[ets.index(other)])}")
    given = {et: tuple(f) for et, f in zip(ets, per)}
    if len(ets) == 1 and not ds.is_typed:
        return per[0], None, given
    return per[0], [f for fs in per for f in fs], given


# PyG's NeighborLoader arguments that fanout's signature lacks (torch_geometric/loader/
# neighbor_loader.py, node_loader.py, and torch.utils.data.DataLoader's, which PyG passes on),
# by what fanout does with them. docs/PYTHON.md has the table.
_PYG_SAME = {  # the value that fanout's batches already satisfy; any other raises ValueError
    "subgraph_type": ("directional", "fanout returns the sampled (directional) edges only: "
                      "'bidirectional' and 'induced' subgraphs are not built"),
    "directed": (True, "directed=False (PyG's old name for an induced subgraph) is not "
                 "supported: fanout returns the sampled edges only"),
    "transform": (None, "transforms are not applied by the loader: apply it to each batch "
                  "(e.g. to batch.to_dict())"),
    "transform_sampler_output": (None, "sampler-output transforms are not supported"),
    "neighbor_sampler": (None, "a custom sampler cannot be used: fanout samples in C"),
    "input_id": (None, "input_id is always the position in input_nodes"),
    "sampler": (None, "a custom sampler cannot be used: the order is input_nodes, shuffled "
                "from (seed, epoch) with shuffle=True"),
    "batch_sampler": (None, "a custom batch sampler cannot be used: use batch_size, shuffle "
                      "and drop_last"),
    "custom_cls": (None, "custom_cls is for remote feature stores"),
}
_PYG_IGNORED = {  # no meaning here: value -> why it is ignored, or a warning when not honoured
    "is_sorted": None, "filter_per_worker": None, "persistent_workers": None,
    "multiprocessing_context": None, "collate_fn": None, "dataset": None,
    "share_memory": None,
    "pin_memory": (False, "pin_memory=True is ignored: batch memory is fanout's own "
                   "(pin a copy, or move tensors with .to(device, non_blocking=True))"),
    "pin_memory_device": ("", "pin_memory_device is ignored (no pinned memory)"),
    "timeout": (0, "timeout is ignored: a batch is waited for until it comes (distributed "
                "loaders have the context's deadline)"),
    "worker_init_fn": (None, "worker_init_fn is ignored: fanout's workers are C threads"),
    "generator": (None, "generator is ignored: the shuffle comes from (seed, epoch); pass "
                  "seed="),
    "temporal_strategy": ("uniform", "temporal_strategy is ignored without time_attr"),
}


def _pyg_loader_kwargs(where: str, kwargs: Dict[str, Any], num_workers: Optional[int],
                       prefetch: Optional[int]) -> Optional[int]:
    """Check PyG's extra NeighborLoader arguments; return the prefetch depth to use
    (``prefetch_factor`` batches per worker, torch's meaning, when prefetch is not given)."""
    for name, value in kwargs.items():
        if name == "prefetch_factor":
            if value is not None:
                if prefetch is None:
                    workers = worker_thread_budget() if num_workers is None else num_workers
                    prefetch = operator.index(value) * max(1, operator.index(workers))
                else:
                    warnings.warn(f"{where}: prefetch_factor is ignored: prefetch={prefetch} "
                                  f"is given", stacklevel=3)
        elif name in _PYG_SAME:
            ok, why = _PYG_SAME[name]
            if name == "subgraph_type":
                value = getattr(value, "value", value)  # PyG's SubgraphType enum
            if not (value is ok or (ok is not None and value == ok)):
                raise ValueError(f"{where}: {name}={value!r}: {why}")
        elif name in _PYG_IGNORED:
            spec = _PYG_IGNORED[name]
            if spec is not None and value is not None and value != spec[0]:
                warnings.warn(f"{where}: {spec[1]}", stacklevel=3)
        else:
            raise TypeError(f"{where}() got an unexpected keyword argument '{name}'")
    return prefetch


class DistContext(_fanout.Dist):
    """DistContext(procs_per_machine=0, deadline=600.0, comm=None)

    A distributed sampling context over MPI (``fo_dist_init_mpi`` on MPI_COMM_WORLD), for a
    script run under ``mpirun -np R /usr/bin/python3 script.py``. It starts MPI (with
    MPI_THREAD_MULTIPLE) if the process has not, and ends it when the interpreter exits.

    ``comm``: an mpi4py intracommunicator (``MPI.COMM_WORLD``, one from ``comm.Split``, ...):
    the context runs over a duplicate of it (``MPI_Comm_dup``, as the C API does) and never
    touches MPI_COMM_WORLD; ranks, machines and the job are those of ``comm``. MPI is then
    mpi4py's (started at ``from mpi4py import MPI``, finalized by mpi4py at exit), and must run
    at MPI_THREAD_MULTIPLE (mpi4py's default ``mpi4py.rc.thread_level = "multiple"``).

    Machines are the hosts of the job, or with ``procs_per_machine=P`` ranks [mP, (m+1)P)
    (one host acting as several machines). Machine m serves part m of a partitioned dataset
    (``fanout partition -n MACHINES``): open it with :meth:`open_dataset`, then make
    :class:`DistNeighborLoader` objects over it. ``deadline`` (seconds) bounds every remote
    call and the final barrier: a peer that does not answer in time, or any process's failure,
    becomes an exception on every process instead of a hang.

    Attributes: ``rank``, ``world_size``, ``machine_rank``, ``num_machines``, ``local_rank``,
    ``local_world_size``, ``finalized``; ``failed()`` (the first failure's message or None),
    ``stats()`` (remote requests and bytes). ``finalize()`` (or the end of a ``with`` block) is
    a barrier with every process; delete the loaders first. ``abort(reason)`` fails the
    context on purpose: every other rank's remote calls raise with the reason. Leaving the
    ``with`` block by an exception, or an uncaught exception anywhere, aborts the context, and
    when a context failed the interpreter's exit ends the MPI job (MPI_Abort) instead of
    waiting for the other ranks. See docs/DIST.md.
    """

    __slots__ = ("__weakref__",)

    def __new__(cls, procs_per_machine: int = 0, deadline: float = 600.0, comm: Any = None):
        extra = {} if comm is None else _mpi4py_comm(comm)
        try:
            ctx = super().__new__(cls, procs_per_machine, deadline, **extra)
        except ValueError as e:
            if "MPI_THREAD_MULTIPLE" not in str(e) or "mpi4py" not in sys.modules:
                raise
            raise type(e)(f"{e}; mpi4py started MPI below it: set mpi4py.rc.thread_level = "
                          f"\"multiple\" (its default) before `from mpi4py import MPI`") from e
        _live_contexts.add(ctx)
        _install_excepthook()
        return ctx

    def open_dataset(self, path: PathLike, load: str = "mmap") -> Dataset:
        """The partitioned dataset ``path`` as this process needs it: the top level and this
        machine's part. The first one opened is the part this process serves to the others."""
        return super().open_dataset(os.fspath(path), load=load, cls=Dataset)

    def __enter__(self) -> "DistContext":
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        # After an exception this rank cannot go on: tell every other rank (their calls raise
        # with this message) instead of a barrier they would wait at for the deadline.
        if not self.finalized:
            if exc_type is None:
                self.finalize()
            else:
                self.abort(_describe(exc_type, exc))
        return False

    def __reduce__(self):
        raise TypeError("a fanout.DistContext cannot be pickled")


def _mpi4py_comm(comm: Any) -> Dict[str, Any]:
    """The C side's arguments for an mpi4py communicator: the address of its MPI_Comm handle
    (mpi4py's ``MPI._addressof``, so the extension needs no mpi4py headers) and mpi4py's MPI
    library (the extension checks it is its own)."""
    MPI = sys.modules.get("mpi4py.MPI")
    if MPI is None or not isinstance(comm, MPI.Comm):
        raise TypeError(f"comm: expected an mpi4py communicator (mpi4py.MPI.Intracomm), got "
                        f"{type(comm).__module__}.{type(comm).__qualname__}")
    if comm == MPI.COMM_NULL:
        raise ValueError("comm: MPI.COMM_NULL is not a communicator")
    if not isinstance(comm, MPI.Intracomm) or comm.Is_inter():
        raise ValueError("comm: an intercommunicator cannot be used: pass an intracommunicator "
                         "(comm.Merge() makes one)")
    library = MPI.Get_library_version().split("\0")[0]  # mpi4py keeps the C string's NUL
    return dict(_comm_address=MPI._addressof(comm), _comm_library=library)


_live_contexts: "weakref.WeakSet[DistContext]" = weakref.WeakSet()
_hook_installed = False


def _describe(exc_type, exc) -> str:
    text = str(exc)
    return f"{exc_type.__name__}: {text}" if text else exc_type.__name__


def _abort_live_contexts(reason: str) -> None:
    for ctx in list(_live_contexts):
        if not ctx.finalized:
            try:
                ctx.abort(reason)
            except Exception:  # noqa: BLE001 - the original exception matters more
                pass


def _at_exit() -> None:
    """End the job on every rank when this one is failing (run by atexit, before hooks
    registered earlier such as mpi4py's MPI_Finalize, which would wait for ranks that are
    gone or stopped): a failed context, or one still in use while MPI belongs to someone
    else (its threads would outlive MPI), ends the job with MPI_Abort. Healthy contexts
    without users are finalized here; with users (loaders still referenced) they end at
    interpreter teardown when fanout started MPI."""
    import gc

    gc.collect()
    why = None
    owned = _fanout._job_state()["mpi_owned"]
    for ctx in list(_live_contexts):
        if ctx.finalized:
            continue
        msg = ctx.failed()
        if msg is None and ctx._users == 0:
            try:
                ctx.finalize()
                continue
            except Exception as e:  # noqa: BLE001 - any failure ends the job
                msg = str(e)
        elif msg is None and owned:
            continue
        elif msg is None:
            msg = ("a fanout.DistContext is still in use at exit and MPI was started outside "
                   "fanout: delete its loaders and call finalize() before the interpreter exits")
        why = why or msg
    state = _fanout._job_state()
    if why is None and state["failed"]:
        why = state["message"]
    if why is not None:
        _fanout._abort_job(why)


def _install_excepthook() -> None:
    """An uncaught exception on one rank stops the job on every rank: sys.excepthook and
    threading.excepthook abort the live contexts (the others' remote calls raise with its
    message) before printing; atexit ends a failing job (_at_exit)."""
    global _hook_installed
    if _hook_installed:
        return
    import atexit
    import threading

    previous, previous_thread = sys.excepthook, threading.excepthook

    def hook(exc_type, exc, tb):
        _abort_live_contexts(f"uncaught {_describe(exc_type, exc)}")
        previous(exc_type, exc, tb)

    def thread_hook(args):
        if args.exc_type is not SystemExit:
            where = f" in thread {args.thread.name}" if args.thread is not None else ""
            _abort_live_contexts(f"uncaught {_describe(args.exc_type, args.exc_value)}{where}")
        previous_thread(args)

    sys.excepthook = hook
    threading.excepthook = thread_hook
    atexit.register(_at_exit)
    _hook_installed = True


class DistNeighborLoader(NeighborLoader):
    """DistNeighborLoader(context, dataset, num_neighbors=[10, 10], batch_size=1, ..., tail="keep",
    seed_placement="global", cache_bytes=0, cache_policy="degree", lookahead=8, pipeline=0)

    This process's share of a distributed epoch: global batch b (the seeds a single-process
    :class:`NeighborLoader` with the same arguments puts in batch b) is sampled by rank
    b mod ``context.world_size``, with hops and features reaching the other machines' parts.
    Every batch equals batch b of ``NeighborLoader`` over the unpartitioned dataset
    (``batch.index`` is b). ``dataset`` comes from ``context.open_dataset``. The other
    arguments are :class:`NeighborLoader`'s (``edge_dir`` must be "in" for one-type datasets;
    typed datasets, whose parts keep both directions, allow "out" too), plus:

    - ``tail``: "keep" (every batch once; ranks may differ by one batch), "drop" (every rank
      floor(B / R) batches) or "pad" (every rank ceil(B / R), wrapping to the epoch's first
      batches), for synchronous training.
    - ``seed_placement``: "global" (the above: batch b is the single-process batch b) or "local"
      (each machine's ranks batch the input nodes their machine owns, GraphLearn-for-PyTorch's
      placement; ``batch.index`` is j * machines + machine for the machine's batch j; batches
      are a pure function of dataset, partition, world size, arguments, epoch and index, but
      not the single-process ones; ``tail`` then evens the counts over every machine's ranks).
    - ``cache_bytes``: bytes of other machines' feature and label rows to keep (0: none), chosen
      by ``cache_policy``: "degree" (most edges into this machine's part), "frequency" (most
      frequent in a pre-sampling pass of another epoch) or "lookahead" (Belady's rule over the
      ``lookahead`` batches sampled ahead, each then used, not sampled again). Batches are the
      same with or without a cache.
    - ``pipeline`` (cache_policy "lookahead" with cache_bytes > 0): threads of this process
      that sample the next ``lookahead`` batches ahead of the loader's threads, so that several
      batches' hop requests are in flight even with ``num_workers=1`` (0..64; 0: none).
      Batches are the same for every value.

    ``len(loader)`` is this rank's number of batches per epoch.
    """

    __slots__ = ()

    def __new__(cls, context: DistContext, dataset: Dataset, *args: Any, tail: str = "keep",
                seed_placement: str = "global", cache_bytes: int = 0,
                cache_policy: str = "degree", lookahead: int = 8, pipeline: int = 0,
                **kwargs: Any):
        if not isinstance(context, _fanout.Dist):
            raise TypeError(f"context: expected a fanout.DistContext, got "
                            f"{type(context).__name__}")
        extra = {"seed_placement": str(seed_placement), "cache_bytes": _index("cache_bytes", cache_bytes),
                 "cache_policy": str(cache_policy), "lookahead": _index("lookahead", lookahead),
                 "pipeline": _index("pipeline", pipeline)}
        return super().__new__(cls, dataset, *args, _dist=(context, tail, extra), **kwargs)

    def __reduce__(self):
        raise TypeError("a fanout.DistNeighborLoader cannot be pickled (it owns threads)")


class DistLinkNeighborLoader(LinkNeighborLoader):
    """DistLinkNeighborLoader(context, dataset, num_neighbors=(10, 10), edge_label_index=None,
    edge_label=None, neg_sampling=None, strict=True, exclude_seed_edges=False, batch_size=1,
    shuffle=False, drop_last=False, seed=0, ..., tail="keep", seed_placement="global",
    cache_bytes=0, cache_policy="degree", lookahead=8, pipeline=0)

    :class:`LinkNeighborLoader` over a partitioned dataset under a :class:`DistContext`
    (``fo_dist_link_loader_create``, docs/DIST.md): this process's share of every epoch.
    ``dataset`` comes from ``context.open_dataset``; the other arguments are
    :class:`LinkNeighborLoader`'s, checked the same way (``edge_label_index`` [2, B] integer ids
    in range of the edge type's src and dst node types, ``edge_label`` [B] integer labels,
    ``edge_label_time`` [B] integer times with ``time_attr``, or an edge split's name: the C
    loader then reads its edges; with ``time_attr`` give their times as ``edge_label_time``,
    one per split edge: partitions do not carry a split's stored times yet). Creating the
    loader is collective: every process must give the same options and seed edges (compared
    by value and digest); processes that differ all raise ValueError naming the option and
    two ranks' values. An argument refused here, before the collective step, raises on this
    rank only (left uncaught, the excepthook stops the job on every rank).

    - ``tail``: "keep" (global batch b goes to rank b mod R; ranks may differ by one batch),
      "drop" (every rank floor(B / R)) or "pad" (every rank ceil(B / R), wrapping), as for
      :class:`DistNeighborLoader`. With ``seed_placement="global"`` (the default) batch b
      equals batch b of :class:`LinkNeighborLoader` over the unpartitioned dataset: seed
      edges, negatives, node batch, features and ``input_id``.
    - ``seed_placement="local"``: a seed edge belongs to the machine owning its destination;
      each machine's ranks batch its own seed edges (``batch.index`` is j * machines +
      machine); ``tail`` over every rank as :class:`DistNeighborLoader`'s. Not the
      single-process batches.
    - Strict negatives and ``exclude_seed_edges`` ask the machines owning the rows in one
      LINK request per machine per round (exclusion in every mode: ``edge_dir`` "in" and
      "out", weighted, temporal).
    - ``cache_bytes``: the remote feature cache, chosen by ``cache_policy``: "degree" (most
      edges into this machine's part), "frequency" (most frequent in this rank's first 32
      batches of another epoch) or "lookahead" (Belady's rule over this rank's next
      ``lookahead`` batches, sampled ahead by a second loader: each batch is sampled twice).
      Batches equal those of no cache, fewer fetch bytes.
    - ``pipeline`` (cache_policy "lookahead" with cache_bytes > 0): threads of this process
      that sample its next ``pipeline`` batches ahead (their hop and LINK requests in flight
      while earlier batches are handed out; 0..64, 0: none). Batches and ``traffic`` are the
      same for every value; not compared between ranks.

    Every batch is a :class:`LinkBatch` with ``x`` (``x_dict``) gathered from the owning
    machines, plus ``traffic``: the batch's remote requests (``link_requests``,
    ``link_bytes``, ``link_rounds``, ``hop_requests``, ``hop_bytes``, ``fetch_requests``,
    ``fetch_bytes``). ``len(loader)`` is this rank's batches per epoch; each ``iter()`` runs
    the next epoch (``set_epoch`` sets it); ``sample()`` is not available. Delete the loader
    before ``context.finalize()``.
    """

    def __init__(self, context: DistContext, dataset: Dataset, *args: Any, tail: str = "keep",
                 seed_placement: str = "global", cache_bytes: int = 0, pipeline: int = 0,
                 cache_policy: str = "degree", lookahead: int = 8, **kwargs: Any):
        if not isinstance(context, _fanout.Dist):
            raise _bad(TypeError, f"context: expected a fanout.DistContext, got "
                                  f"{type(context).__name__}")
        for name, v in (("tail", tail), ("seed_placement", seed_placement),
                        ("cache_policy", cache_policy)):
            if not isinstance(v, str):
                raise _bad(TypeError, f"{name}: expected a string, got {type(v).__name__}")
        extra = {"tail": tail, "seed_placement": seed_placement,
                 "cache_bytes": _index("cache_bytes", cache_bytes), "pipeline": _index("pipeline", pipeline),
                 "cache_policy": cache_policy, "lookahead": _index("lookahead", lookahead)}
        super().__init__(dataset, *args, _dist=(context, extra), **kwargs)

    def __reduce__(self):
        raise TypeError("a fanout.DistLinkNeighborLoader cannot be pickled")


def as_tensor(array: Optional[np.ndarray]):
    """``torch.from_numpy(array)`` (no copy) without torch's warning about read-only arrays.

    The tensor shares fanout's memory: do not write to it (batch memory is reused only after
    the batch is gone, but dataset arrays are mapped read-only: writing there crashes). None
    gives None.
    """
    if array is None:
        return None
    import torch

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The given NumPy array is not writable")
        return torch.from_numpy(array)


def _batch_to_dict(batch: Batch) -> Dict[str, Any]:
    """``batch.to_dict()``: the batch under PyG's names, as ``NodeLoader.filter_fn`` sets them
    on its ``Data`` (torch_geometric/loader/node_loader.py): torch tensors that share the
    batch's memory (``edge_index`` is the batch's one cached copy), ints and lists of ints.
    ``torch_geometric.data.Data(**batch.to_dict())`` accepts it. Keys: x (when gathered; a
    torch.bfloat16 view for bfloat16 features), edge_index, y (when gathered: the SEEDS'
    labels, [batch_size]), n_id, e_id, batch (disjoint only), num_sampled_nodes and
    num_sampled_edges (lists), input_id, batch_size, num_nodes. docs/PYTHON.md maps them."""
    if getattr(batch, "node_types", None) is not None:
        return _typed_batch_to_dict(batch)
    d: Dict[str, Any] = {}
    x = as_tensor(batch.x)
    if x is not None:
        if batch.x_dtype == "bfloat16":
            import torch

            x = x.view(torch.bfloat16)
        d["x"] = x
    d["edge_index"] = as_tensor(batch.edge_index)
    if batch.y is not None:
        d["y"] = as_tensor(batch.y)
    d["n_id"] = as_tensor(batch.node)
    d["e_id"] = as_tensor(batch.edge)
    if getattr(batch, "input_time", None) is not None:  # PyG: data.seed_time (temporal)
        d["seed_time"] = as_tensor(batch.input_time)
    if batch.batch is not None:  # PyG: data.batch = out.batch, None unless disjoint
        d["batch"] = as_tensor(batch.batch)
    d["num_sampled_nodes"] = batch.num_sampled_nodes.tolist()
    d["num_sampled_edges"] = batch.num_sampled_edges.tolist()
    d["input_id"] = as_tensor(batch.input_id)
    d["batch_size"] = batch.batch_size
    d["num_nodes"] = batch.num_nodes
    return d


def _x_tensor(x, dtype):
    t = as_tensor(x)
    if t is not None and dtype == "bfloat16":
        import torch

        t = t.view(torch.bfloat16)
    return t


def _typed_batch_to_dict(batch: Batch) -> Dict[Any, Any]:
    """``to_dict()`` of a typed batch: what ``torch_geometric.data.HeteroData(d)`` accepts, as
    PyG's ``NodeLoader.filter_fn`` fills a HeteroData (torch_geometric/loader/node_loader.py):
    ``{node_type: {"x" (types with features), "n_id", "num_sampled_nodes" (list), "num_nodes",
    "batch" (disjoint), and for the input type "y", "input_id", "batch_size"},
    (src, rel, dst): {"edge_index", "e_id", "num_sampled_edges" (list)}}``. Tensors share the
    batch's memory (``edge_index``: the batch's cached copies)."""
    d: Dict[Any, Any] = {}
    x, xdt = batch.x_dict, batch.x_dtype_dict
    bd = batch.batch_dict
    nsn = batch.num_sampled_nodes_dict
    for t, n_id in batch.node_dict.items():
        s: Dict[str, Any] = {}
        if t in x:
            s["x"] = _x_tensor(x[t], xdt[t])
        s["n_id"] = as_tensor(n_id)
        s["num_sampled_nodes"] = nsn[t].tolist()
        s["num_nodes"] = int(n_id.shape[0])
        if bd is not None:
            s["batch"] = as_tensor(bd[t])
        d[t] = s
    it = d.setdefault(batch.input_type, {})
    if batch.y is not None:
        it["y"] = as_tensor(batch.y)
    it["input_id"] = as_tensor(batch.input_id)
    it["batch_size"] = batch.batch_size
    ei, eid, nse = batch.edge_index_dict, batch.edge_dict, batch.num_sampled_edges_dict
    for et in batch.edge_types:
        d[et] = {"edge_index": as_tensor(ei[et]), "e_id": as_tensor(eid[et]),
                 "num_sampled_edges": nse[et].tolist()}
    return d


def _typed_to_torch(batch: Batch) -> types.SimpleNamespace:
    x, xdt = batch.x_dict, batch.x_dtype_dict
    bd = batch.batch_dict
    tens = lambda dd: {k: as_tensor(v) for k, v in dd.items()}  # noqa: E731
    return types.SimpleNamespace(
        n_id_dict=tens(batch.node_dict), edge_index_dict=tens(batch.edge_index_dict),
        e_id_dict=tens(batch.edge_dict), x_dict={t: _x_tensor(v, xdt[t]) for t, v in x.items()},
        y=as_tensor(batch.y), input_id=as_tensor(batch.input_id), batch_size=batch.batch_size,
        input_type=batch.input_type, batch_dict=None if bd is None else tens(bd),
        num_sampled_nodes_dict={k: v.tolist() for k, v in batch.num_sampled_nodes_dict.items()},
        num_sampled_edges_dict={k: v.tolist() for k, v in batch.num_sampled_edges_dict.items()},
        node_types=batch.node_types, edge_types=batch.edge_types, epoch=batch.epoch,
        index=batch.index)


def to_torch(batch: Batch) -> types.SimpleNamespace:
    """The batch's arrays as torch tensors (no copy except ``edge_index``), in a namespace
    with PyG's names: ``batch.to_dict()`` (n_id, edge_index, e_id, x, y, input_id, batch
    (None unless disjoint), batch_size, num_sampled_nodes, num_sampled_edges, num_nodes) plus
    epoch and index. bfloat16 features come as a torch.bfloat16 view of the same memory;
    uint8 ones stay uint8 (see Dataset.dequantize / feature_scale). A typed batch gives the
    ``*_dict`` forms instead (n_id_dict, edge_index_dict, e_id_dict, x_dict, batch_dict,
    num_sampled_nodes_dict, num_sampled_edges_dict) plus y, input_id, batch_size,
    input_type, node_types, edge_types, epoch and index."""
    if batch.node_types is not None:
        return _typed_to_torch(batch)
    d = dict(x=None, y=None, batch=None)
    d.update(_batch_to_dict(batch))
    return types.SimpleNamespace(**d, epoch=batch.epoch, index=batch.index)


@dataclasses.dataclass(frozen=True)
class WorkerInfo:
    """What :func:`init_neighbor_loader_worker` gave this process.

    ``device``: "cpu" or "cuda:<i>" (``torch_device`` makes a torch.device of it);
    ``cpus``: the CPU (PU) OS indexes the process is bound to, in CPU mode (else empty);
    ``num_threads``: the loaders' default thread count; the rest mirrors fo_worker_info
    (docs/WORKER.md) plus the master address and port recorded for the distributed runtime.
    """

    device: str
    device_index: int
    cpus: tuple
    numa: tuple
    num_threads: int
    cpu_mode: bool
    bound: bool
    group_name: str
    rank: int
    world_size: int
    local_rank: int
    local_world_size: int
    first_core: int
    n_cores: int
    shared_cores: bool
    n_cores_total: int
    n_cpus_total: int
    n_numa_total: int
    n_devices: int
    start_delay_s: float
    master_ip_address: str
    master_worker_port: int

    @property
    def torch_device(self):
        import torch

        return torch.device(self.device)


def _parse_device(device: Any):
    """("cpu", None) | ("cuda", None or index) from "cpu", "cuda", "cuda:1", torch.device."""
    text = str(device).strip().lower()
    kind, _, idx = text.partition(":")
    if kind == "cpu" and not idx:
        return "cpu", None
    if kind in ("cuda", "gpu"):
        if not idx:
            return "cuda", None
        if idx.isdigit():
            return "cuda", int(idx)
    raise ValueError(f"device: {device!r} is not 'cpu', 'cuda' or 'cuda:<index>'")


def _worker_kwargs(local_rank, local_world_size, rank, world_size, accel, use_cpu_workers,
                   num_cpu_threads, start_gap_s, allow_shared_cores, topology_xml,
                   topology_synthetic, n_devices_override) -> Dict[str, Any]:
    return dict(
        local_rank=int(local_rank),
        local_world_size=int(local_world_size),
        machine_rank=int(rank),
        world_size=int(world_size),
        accel=bool(accel),
        use_cpu_workers=bool(use_cpu_workers),
        num_cpu_threads=0 if num_cpu_threads is None else int(num_cpu_threads),
        start_gap_s=float(start_gap_s),
        allow_shared_cores=bool(allow_shared_cores),
        topology_xml=_fspath(topology_xml),
        topology_synthetic=topology_synthetic,
        n_devices_override=-1 if n_devices_override is None else int(n_devices_override),
    )


def init_neighbor_loader_worker(
    master_ip_address: str,
    local_process_rank: int,
    local_process_world_size: int,
    rank: int,
    world_size: int,
    master_worker_port: int,
    device: Any,
    should_use_cpu_workers: bool = False,
    num_cpu_threads: Optional[int] = None,
    process_start_gap_seconds: float = 0,
    *,
    allow_shared_cores: bool = False,
    topology_xml: Optional[PathLike] = None,
    topology_synthetic: Optional[str] = None,
    configure_torch: bool = True,
    _n_devices_override: Optional[int] = None,
) -> WorkerInfo:
    """GiGL's ``init_neighbor_loader_worker`` over ``fo_worker_init`` (docs/WORKER.md).

    Call it once per training process, before creating loaders. Parameters have GiGL's names
    and meaning: ``local_process_rank``/``local_process_world_size``: this process among the
    processes of this machine; ``rank``/``world_size``: this machine among the machines;
    ``device``: where the model runs: "cpu", "cuda" (fanout picks device
    local_process_rank mod n), "cuda:<i>" or a torch.device; ``should_use_cpu_workers``: own a
    block of physical cores (whole cores, NUMA-aware, from hwloc) and bind the process to it;
    ``num_cpu_threads``: thread budget (required with CPU workers): the default
    ``num_workers`` of loaders and, with ``configure_torch``, ``torch.set_num_threads``;
    ``process_start_gap_seconds``: sleep that many seconds times the local rank (default 0:
    see docs/WORKER.md). ``master_ip_address`` and ``master_worker_port`` are recorded in the
    result for the distributed runtime (not used yet).

    fanout extensions: ``allow_shared_cores`` (more processes than cores), ``topology_xml`` /
    ``topology_synthetic`` (plan on an injected hwloc topology, without binding),
    ``configure_torch`` (also set torch's thread count, or its CUDA device, when torch is
    installed; default True, like GiGL).

    A second call with the same arguments returns the same result; with different ones it
    raises ValueError naming the field. Returns a :class:`WorkerInfo` (``.device`` is the
    chosen device, ``.cpus`` the CPU set). Errors: ValueError (bad or inconsistent
    arguments), RuntimeError (no hwloc in this build, no accelerator), OSError (affinity).
    """
    kind, index = _parse_device(device)
    raw = _fanout.worker_init(**_worker_kwargs(
        local_process_rank, local_process_world_size, rank, world_size, kind == "cuda",
        should_use_cpu_workers, num_cpu_threads, process_start_gap_seconds, allow_shared_cores,
        topology_xml, topology_synthetic, _n_devices_override))
    if kind == "cuda":
        if index is None:
            index = raw["device_index"]
        elif not 0 <= index < raw["n_devices"]:
            raise ValueError(f"device: cuda:{index} is not one of the {raw['n_devices']} "
                             f"accelerators")
        chosen = f"cuda:{index}"
    else:
        index = -1
        chosen = "cpu"
    if configure_torch:
        try:
            import torch
        except ImportError:
            torch = None
        if torch is not None:
            if raw["cpu_mode"] and raw["num_threads"] > 0:
                torch.set_num_threads(raw["num_threads"])
            if kind == "cuda" and _n_devices_override is None:
                torch.cuda.set_device(index)
    return WorkerInfo(
        device=chosen,
        device_index=index,
        cpus=tuple(raw["cpus"]),
        numa=tuple(raw["numa"]),
        num_threads=raw["num_threads"],
        cpu_mode=raw["cpu_mode"],
        bound=raw["bound"],
        group_name=raw["group_name"],
        rank=raw["machine_rank"],
        world_size=raw["world_size"],
        local_rank=raw["local_rank"],
        local_world_size=raw["local_world_size"],
        first_core=raw["first_core"],
        n_cores=raw["n_cores"],
        shared_cores=raw["shared_cores"],
        n_cores_total=raw["n_cores_total"],
        n_cpus_total=raw["n_cpus_total"],
        n_numa_total=raw["n_numa_total"],
        n_devices=raw["n_devices"],
        start_delay_s=raw["start_delay_s"],
        master_ip_address=str(master_ip_address),
        master_worker_port=int(master_worker_port),
    )


def worker_plan(
    local_world_size: int,
    *,
    num_cpu_threads: int = 1,
    allow_shared_cores: bool = False,
    topology_xml: Optional[PathLike] = None,
    topology_synthetic: Optional[str] = None,
) -> List[Dict[str, Any]]:
    """The CPU plan of every local rank (what ``fanout topo`` prints), without side effects:
    a list of dicts with cpus, numa, first_core, n_cores, ... per rank."""
    return _fanout.worker_plan(**_worker_kwargs(
        0, local_world_size, 0, 1, False, True, num_cpu_threads, 0, allow_shared_cores,
        topology_xml, topology_synthetic, None))


from ._ablp import ABLPBatch, ABLPLoader, DistABLPLoader, label_edge_types  # noqa: E402  (uses the names above)
