"""fanout.ABLPLoader: anchor-based link prediction (GiGL's ``DistABLPLoader``) over the C
ABLP sampler (include/fanout/ablp.h), single process."""

from __future__ import annotations

import types
from typing import Any, Dict, Optional

import numpy as np

from . import _fanout


def label_edge_types(ds) -> list:
    """The labels-only (supervision) edge types of ``ds``: ``[(src, rel, dst, label,
    num_edges)]`` with label ``"positive"`` or ``"negative"``."""
    return _fanout.ABLPSampler.label_edge_types(ds)


def _label_type_name(ds, key: Any, what: str) -> Optional[str]:
    if key is None:
        return None
    if isinstance(key, tuple) and len(key) == 3 and all(isinstance(k, str) for k in key):
        return "__".join(key)
    if isinstance(key, str):
        return key
    raise TypeError(f"{what}: expected (src, rel, dst), 'src__rel__dst' or a relation name, "
                    f"got {key!r}")


class ABLPBatch(types.SimpleNamespace):
    """One batch of :class:`ABLPLoader` (``HeteroData``-like, NumPy arrays): ``n_id_dict``,
    ``edge_index_dict`` ([2, E]: row = neighbor, col = the node it was sampled for, local
    ids), ``e_id_dict``, ``num_sampled_nodes_dict``, ``num_sampled_edges_dict``, ``x_dict``;
    ``anchor_index`` ([n]: each anchor's local id in its node type), ``y_positive`` and
    ``y_negative`` ([2, P] / [2, N]: row 0 the local anchor id, row 1 the local label node id),
    ``random_negative`` ([n, k] local label node ids, -1 where none; only with
    num_random_negatives), ``num_random_missing``, ``supervision_edge_type``,
    ``negative_edge_type``, ``input_id``, ``epoch``, ``index``. ``y_positive_dict`` /
    ``y_negative_dict`` give GiGL's form: {local anchor id: local label node ids}."""

    @staticmethod
    def _as_dict(y: np.ndarray, n: int) -> Dict[int, np.ndarray]:
        out: Dict[int, np.ndarray] = {a: np.empty(0, dtype=np.int64) for a in range(n)}
        if y.shape[1]:
            cuts = np.flatnonzero(np.diff(y[0])) + 1
            for part in np.split(np.arange(y.shape[1]), cuts):
                out[int(y[0, part[0]])] = y[1, part]
        return out

    @property
    def y_positive_dict(self) -> Dict[int, np.ndarray]:
        return self._as_dict(self.y_positive, self.num_anchors)

    @property
    def y_negative_dict(self) -> Dict[int, np.ndarray]:
        return self._as_dict(self.y_negative, self.num_anchors)


class ABLPLoader:
    """ABLPLoader(dataset, num_neighbors, input_nodes=None, supervision_edge_type=None,
    negative_edge_type=None, hard_negatives=True, num_random_negatives=0, strict=True,
    batch_size=1, shuffle=False, drop_last=False, seed=0, replace=False, edge_dir="in",
    epoch=0, features=True)

    GiGL's ``DistABLPLoader`` arguments where they exist (``num_neighbors``, ``input_nodes``,
    ``supervision_edge_type``, ``batch_size``, ``shuffle``, ``drop_last``). Every batch takes
    ``batch_size`` anchors (``input_nodes``: ids of the anchor node type, a node split name
    of that type (``"train"``), or ``(node_type, ids or split name)``; default: every node of
    that type), reads each anchor's positive and hard-negative
    supervision edges from the dataset's labels-only edge types (``fanout import
    --supervision-edges``, ``--supervision-negatives``), and samples the anchors and their
    label nodes together; the sampler never traverses a labels-only type (and refuses one as
    a ``num_neighbors`` key). ``supervision_edge_type``: the positive labels-only type
    (default: the only one); ``negative_edge_type``: the hard negatives (default: the only
    negative type between the same node types; ``hard_negatives=False``: none);
    ``num_random_negatives``: k random label nodes per anchor, never a positive of it
    (``strict``). A batch is a pure function of (dataset, options, anchors, epoch, batch
    index); each ``iter()`` runs the next epoch. Batches are made on the caller's thread.
    ``weighted=True`` (or PyG's ``weight_attr="NAME"``): neighbors drawn by edge weight as
    :class:`fanout.NeighborLoader`'s ``weighted`` (the traversed types' weights stored at
    import; a dataset without them raises ValueError).
    """

    def __init__(self, dataset, num_neighbors: Any = (10, 10), input_nodes: Any = None,
                 supervision_edge_type: Any = None, negative_edge_type: Any = None,
                 hard_negatives: bool = True, num_random_negatives: int = 0,
                 strict: bool = True, batch_size: int = 1, shuffle: bool = False,
                 drop_last: bool = False, seed: int = 0, replace: bool = False,
                 edge_dir: str = "in", epoch: int = 0, features: bool = True,
                 weighted: bool = False, weight_attr: Any = None):
        from . import _bad, _edge_type_fanouts, _index, _weight_attr

        weighted = _weight_attr(type(self).__name__, weight_attr, weighted)

        if not isinstance(dataset, _fanout.Dataset):
            raise _bad(TypeError, f"dataset: expected a fanout.Dataset, got {type(dataset).__name__}")
        et_fanouts = None
        if isinstance(num_neighbors, dict):
            num_neighbors, et_fanouts, _ = _edge_type_fanouts(dataset, num_neighbors)
        self._fanouts = [_index(f"num_neighbors[{i}]", f) for i, f in enumerate(num_neighbors)]
        batch_size = _index("batch_size", batch_size)
        if batch_size < 1:
            raise _bad(ValueError, f"batch_size: expected >= 1, got {batch_size}")
        k = _index("num_random_negatives", num_random_negatives)
        self._s = _fanout.ABLPSampler(
            dataset, self._fanouts, _label_type_name(dataset, supervision_edge_type,
                                                      "supervision_edge_type"),
            _label_type_name(dataset, negative_edge_type, "negative_edge_type"),
            bool(hard_negatives), k, bool(strict), int(seed), bool(replace), edge_dir, et_fanouts,
            weighted=bool(weighted))
        probe = self._s.sample(np.empty(0, dtype=np.int64), 0, 0)
        nts = dataset.node_types
        self._anchor_type = nts[probe["anchor_type"]]
        self._label_type = nts[probe["label_type"]]
        lts = label_edge_types(dataset)
        self.supervision_edge_type = tuple(lts[probe["positive_type"]][:3])
        self.negative_edge_type = (tuple(lts[probe["negative_type"]][:3])
                                   if probe["negative_type"] >= 0 else None)
        if isinstance(input_nodes, tuple) and len(input_nodes) == 2 and isinstance(input_nodes[0], str):
            if input_nodes[0] != self._anchor_type:
                raise _bad(ValueError, f"input_nodes: node type {input_nodes[0]!r} is not the "
                           f"anchor type {self._anchor_type!r} of supervision edge type "
                           f"{self.supervision_edge_type!r}")
            input_nodes = input_nodes[1]
        if isinstance(input_nodes, str):
            input_nodes = _split_anchors(dataset, self._anchor_type, input_nodes)
        if input_nodes is None:
            anchors = np.arange(dataset.num_nodes_dict[self._anchor_type], dtype=np.int64)
        else:
            a = np.asarray(input_nodes)
            if a.ndim != 1 or (a.size and a.dtype.kind not in "iu"):
                raise _bad(ValueError, f"input_nodes: expected a 1-D array of {self._anchor_type} "
                           f"ids, got shape {a.shape} dtype {a.dtype}")
            anchors = np.ascontiguousarray(a, dtype=np.int64)
        n_a = dataset.num_nodes_dict[self._anchor_type]
        bad = np.flatnonzero((anchors < 0) | (anchors >= n_a))
        if bad.size:
            raise _bad(ValueError, f"input_nodes[{bad[0]}] = {anchors[bad[0]]} is not a node id of "
                       f"type {self._anchor_type!r} in [0, {n_a})", "FO_ERANGE")
        self._anchors = anchors
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.drop_last = bool(drop_last)
        self.seed = int(seed)
        self.weighted = bool(weighted)
        self.num_random_negatives = k
        self.next_epoch = int(epoch)
        self.features = bool(features)
        n = anchors.shape[0]
        self._n_batches = n // batch_size + (0 if self.drop_last or n % batch_size == 0 else 1)
        self._x = dataset.x_dict if self.features else None

    def __len__(self) -> int:
        return self._n_batches

    def set_epoch(self, epoch: int) -> None:
        self.next_epoch = int(epoch)

    def sample(self, anchors, epoch: int = 0, batch_index: int = 0) -> ABLPBatch:
        """One batch of the given anchors with the loader's options."""
        r = self._s.sample(np.asarray(anchors, dtype=np.int64), int(epoch), int(batch_index))
        return self._batch(r, None, epoch, batch_index)

    def _batch(self, r, input_id, epoch, index) -> ABLPBatch:
        nts = self.dataset.node_types
        ets = self.dataset.edge_types
        b = ABLPBatch(epoch=epoch, index=index, input_id=input_id,
                      anchor_index=r["anchor_index"], y_positive=r["y_positive"],
                      y_negative=r["y_negative"], num_random_missing=r["num_random_missing"],
                      supervision_edge_type=self.supervision_edge_type,
                      negative_edge_type=self.negative_edge_type,
                      anchor_type=self._anchor_type, label_type=self._label_type)
        b.num_anchors = int(r["num_distinct"])  # distinct anchors: local ids 0..num_anchors-1
        if self.num_random_negatives:
            b.random_negative = r["random_negative"]
        b.n_id_dict = {t: r["node"][i] for i, t in enumerate(nts)}
        b.num_sampled_nodes_dict = {t: r["num_sampled_nodes"][i] for i, t in enumerate(nts)}
        b.e_id_dict = {et: r["edge"][i] for i, et in enumerate(ets)}
        b.edge_index_dict = {et: np.stack([r["row"][i], r["col"][i]]) for i, et in enumerate(ets)}
        b.num_sampled_edges_dict = {et: r["num_sampled_edges"][i] for i, et in enumerate(ets)}
        if self._x:
            b.x_dict = {t: np.asarray(x[b.n_id_dict[t]]) for t, x in self._x.items()}
        return b

    def __iter__(self):
        from . import random_permutation

        epoch = self.next_epoch
        self.next_epoch += 1
        n = self._anchors.shape[0]
        order = (random_permutation(n, self.seed, epoch) if self.shuffle
                 else np.arange(n, dtype=np.int64))
        for b in range(self._n_batches):
            ids = order[b * self.batch_size:(b + 1) * self.batch_size]
            r = self._s.sample(self._anchors[ids], epoch, b)
            yield self._batch(r, ids, epoch, b)


def _split_anchors(ds, anchor_type: str, name: str) -> np.ndarray:
    """The anchors of node split ``name`` of ``anchor_type`` (``input_nodes="train"``, as
    ``bench --anchors-split``); ValueError names the splits there are."""
    from . import _bad

    try:
        return ds[anchor_type].split(name)
    except ValueError as e:
        raise _bad(ValueError, f"input_nodes: {e}") from None


def _anchor_type_of(ds, supervision_edge_type: Optional[str]) -> Optional[str]:
    """The source node type of the positive labels-only type ``supervision_edge_type`` (full
    name or relation; None: the only positive type), or None when it does not resolve (the C
    loader then raises naming it)."""
    found = {lt[0] for lt in label_edge_types(ds) if lt[3] == "positive" and (
        supervision_edge_type is None or supervision_edge_type in ("__".join(lt[:3]), lt[1]))}
    return found.pop() if len(found) == 1 else None


class DistABLPLoader(ABLPLoader):
    """DistABLPLoader(context, dataset, num_neighbors=(10, 10), input_nodes=None,
    supervision_edge_type=None, negative_edge_type=None, hard_negatives=True,
    num_random_negatives=0, strict=True, batch_size=1, shuffle=False, drop_last=False, seed=0,
    replace=False, edge_dir="in", epoch=0, features=True, tail="keep", seed_placement="global",
    cache_bytes=0, cache_policy="degree", lookahead=8, pipeline=0)

    GiGL's ``DistABLPLoader``: :class:`ABLPLoader` over a partitioned dataset under a
    :class:`DistContext` (``fo_dist_ablp_loader_create``, docs/DIST.md): this process's share
    of every epoch. ``dataset`` comes from ``context.open_dataset``; the other arguments are
    :class:`ABLPLoader`'s. Global batch b goes to rank b mod R (``tail`` "keep", "drop" or
    "pad" as for :class:`DistNeighborLoader`) and equals batch b of :class:`ABLPLoader` over
    the unpartitioned dataset: anchors, ``y_positive``, ``y_negative``, random negatives, node
    batch, ``x_dict`` and ``input_id``. The supervision rows of anchors other machines own
    come in one LABEL request per remote machine per batch. Creating the loader is collective:
    every process must give the same options and anchors (compared by value and digest);
    processes that differ all raise ValueError naming the option. Every batch is an
    :class:`ABLPBatch` plus ``traffic`` (``label_requests``, ``label_bytes``,
    ``hop_requests``, ``hop_bytes``, ``fetch_requests``, ``fetch_bytes``). ``len(loader)`` is
    this rank's batches per epoch; each ``iter()`` runs the next epoch; ``sample()`` is not
    available. Delete the loader before ``context.finalize()``.

    - ``seed_placement="local"``: each machine's ranks batch the anchors that machine owns
      (their supervision rows are then read at home, no LABEL request), in the epoch's order;
      machine batch j goes to local rank j mod ranks-per-machine with ``batch.index`` j *
      machines + machine; ``tail`` over every rank as :class:`DistNeighborLoader`'s ("drop":
      the fewest any rank has, "pad": the most, wrapping; pad fails when a machine owns no
      anchor). Batches are a pure function of (dataset, partitioning, world size, options,
      epoch, batch index), not the single-process batches.
    - ``cache_bytes``: bytes of other machines' feature rows to keep (0: none), chosen by
      ``cache_policy``: "degree" (remote nodes by their edges into this machine's part),
      "frequency" (most frequent in this rank's first 32 batches of another epoch) or
      "lookahead" (Belady's rule over this rank's next ``lookahead`` batches, sampled ahead by
      a second loader: each batch is sampled twice); batches equal those of no cache,
      ``traffic`` counts fewer fetch bytes.
    - ``pipeline`` (cache_policy "lookahead" with cache_bytes > 0): threads of this process
      that sample its next ``pipeline`` batches ahead (their hop and LABEL requests in
      flight while earlier batches are handed out; 0..64, 0: none). Batches and ``traffic``
      are the same for every value; not compared between ranks.
    """

    def __init__(self, context, dataset, num_neighbors: Any = (10, 10), input_nodes: Any = None,
                 supervision_edge_type: Any = None, negative_edge_type: Any = None,
                 hard_negatives: bool = True, num_random_negatives: int = 0,
                 strict: bool = True, batch_size: int = 1, shuffle: bool = False,
                 drop_last: bool = False, seed: int = 0, replace: bool = False,
                 edge_dir: str = "in", epoch: int = 0, features: bool = True,
                 tail: str = "keep", seed_placement: str = "global", cache_bytes: int = 0,
                 cache_policy: str = "degree", lookahead: int = 8,
                 weighted: bool = False, weight_attr: Any = None, pipeline: int = 0):
        from . import _bad, _edge_type_fanouts, _index, _weight_attr

        weighted = _weight_attr(type(self).__name__, weight_attr, weighted)

        if not isinstance(context, _fanout.Dist):
            raise _bad(TypeError, f"context: expected a fanout.DistContext, got "
                                  f"{type(context).__name__}")
        if not isinstance(dataset, _fanout.Dataset):
            raise _bad(TypeError, f"dataset: expected a fanout.Dataset, got {type(dataset).__name__}")
        for name, v in (("tail", tail), ("seed_placement", seed_placement),
                        ("cache_policy", cache_policy)):
            if not isinstance(v, str):
                raise _bad(TypeError, f"{name}: expected a string, got {type(v).__name__}")
        et_fanouts = None
        if isinstance(num_neighbors, dict):
            num_neighbors, et_fanouts, _ = _edge_type_fanouts(dataset, num_neighbors)
        self._fanouts = [_index(f"num_neighbors[{i}]", f) for i, f in enumerate(num_neighbors)]
        batch_size = _index("batch_size", batch_size)
        if batch_size < 1:
            raise _bad(ValueError, f"batch_size: expected >= 1, got {batch_size}")
        k = _index("num_random_negatives", num_random_negatives)
        sup = _label_type_name(dataset, supervision_edge_type, "supervision_edge_type")
        neg = _label_type_name(dataset, negative_edge_type, "negative_edge_type")
        anchor_type = _anchor_type_of(dataset, sup)
        if isinstance(input_nodes, tuple) and len(input_nodes) == 2 and isinstance(input_nodes[0], str):
            if anchor_type is not None and input_nodes[0] != anchor_type:
                raise _bad(ValueError, f"input_nodes: node type {input_nodes[0]!r} is not the "
                           f"anchor type {anchor_type!r} of supervision edge type {sup!r}")
            input_nodes = input_nodes[1]
        if isinstance(input_nodes, str):
            if anchor_type is None:
                raise _bad(ValueError, f"input_nodes: split {input_nodes!r}: cannot tell the "
                           f"anchor node type from supervision_edge_type {sup!r}")
            input_nodes = _split_anchors(dataset, anchor_type, input_nodes)
        if input_nodes is None:
            n_a = dataset.num_nodes_dict[anchor_type] if anchor_type is not None else 0
            anchors = np.arange(n_a, dtype=np.int64)
        else:
            a = np.asarray(input_nodes)
            if a.ndim != 1 or (a.size and a.dtype.kind not in "iu"):
                raise _bad(ValueError, f"input_nodes: expected a 1-D array of anchor ids, got "
                           f"shape {a.shape} dtype {a.dtype}")
            anchors = np.ascontiguousarray(a, dtype=np.int64)
        self._dl = _fanout.DistABLPLoader(
            context, dataset, self._fanouts, anchors, sup, neg, bool(hard_negatives), k,
            bool(strict), int(seed), bool(replace), edge_dir, et_fanouts, batch_size,
            bool(shuffle), bool(drop_last), int(epoch), bool(features), tail, seed_placement,
            _index("cache_bytes", cache_bytes), cache_policy, _index("lookahead", lookahead),
            weighted=bool(weighted), pipeline=_index("pipeline", pipeline))
        a_t, p_t, n_t = self._dl.types()
        nts = dataset.node_types
        lts = label_edge_types(dataset)
        self._anchor_type = nts[a_t]
        self._label_type = lts[p_t][2]
        self.supervision_edge_type = tuple(lts[p_t][:3])
        self.negative_edge_type = tuple(lts[n_t][:3]) if n_t >= 0 else None
        self._anchors = anchors
        self.context = context
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.drop_last = bool(drop_last)
        self.seed = int(seed)
        self.weighted = bool(weighted)
        self.num_random_negatives = k
        self.first_epoch = int(epoch)
        self.next_epoch = int(epoch)
        self.features = bool(features)
        self.tail = tail
        self.seed_placement = seed_placement
        self._x = None

    def __len__(self) -> int:
        return self._dl.num_batches()

    def __reduce__(self):
        raise TypeError("a fanout.DistABLPLoader cannot be pickled")

    def sample(self, anchors, epoch: int = 0, batch_index: int = 0) -> ABLPBatch:
        raise RuntimeError("DistABLPLoader.sample is not available: iterate the loader")

    def __iter__(self):
        epoch = self.next_epoch
        self.next_epoch += 1
        if epoch != self.first_epoch or getattr(self, "_started", False):
            self._dl.start_epoch(epoch)
        self._started = True
        nts = self.dataset.node_types
        while True:
            r = self._dl.next()
            if r is None:
                return
            b = self._batch(r, r["input_id"], r["epoch"], r["index"])
            b.x_dict = {t: x for t, x in zip(nts, r["x"]) if x is not None}
            b.traffic = r["traffic"]
            yield b
