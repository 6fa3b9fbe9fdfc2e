/*
 * python/src/loader.c: the neighbor loader (fo_loader_t) for Python: `Loader` (the base of
 * fanout.NeighborLoader), its per-epoch iterator, and `Batch`, which holds one
 * fo_loader_batch_t and exposes its arrays as read-only NumPy views (no copy; each view's
 * base is the Batch).
 *
 * Epochs: fo_loader_create starts the epoch `epoch`; the first iter() runs it, each later
 * iter() calls fo_loader_start_epoch(next_epoch) (next_epoch = the previous iteration's epoch
 * + 1, or what set_epoch() gave). An iterator of an earlier iter() is stale and raises.
 *
 * Lifetime: a Batch holds a reference to its Loader and releases its fo_loader_batch_t when
 * it dies; the Loader (and so the C loader) lives while any Batch or iterator does, and holds
 * a pin on the dataset. So a batch kept after `del loader` or after dataset.close() stays
 * valid.
 *
 * Threads and the GIL: fo_loader_next, start_epoch, release and destroy need one caller at a
 * time, so each Loader has a mutex around those calls. It is taken with the GIL released (a
 * next() can wait for sampling, and a Batch may die on another Python thread meanwhile), and
 * it is never held while taking the GIL. The iterator waits for a batch in slices of 0.1 s
 * (fo_loader_next_timed) and runs Python's signal handlers between them and after each batch,
 * so Ctrl-C stops an epoch with KeyboardInterrupt even while a batch is late (a remote
 * machine that does not answer); the loader stays usable and destroyable.
 */
#include "pyfanout.h"

#include <structmember.h>

#include <string.h>
#include <unistd.h>

typedef struct loader {
  PyObject_HEAD
  fo_loader_t *L;
  PyObject *pin;          /* pin on the dataset (dataset.c) */
  PyObject *dist;         /* the Dist context of a distributed loader (a user of it), or NULL */
  pthread_mutex_t mu;     /* serializes next/release/start_epoch/stats on L */
  int mu_ready;
  uint64_t cur_epoch;     /* the epoch L is in */
  uint64_t next_epoch;    /* the epoch the next iter() runs */
  int iterated;           /* iter() was called at least once */
  uint64_t generation;    /* bumped by every iter() */
  pid_t pid;              /* process that created it (its threads do not survive a fork) */
  /* the options, for the attributes */
  PyObject *num_neighbors; /* tuple of ints */
  PyObject *split;         /* str or None */
  int64_t batch_size;
  int32_t num_workers, prefetch;
  uint64_t seed;
  fo_edge_dir edge_dir;
  char shuffle, drop_last, replace, disjoint, features, labels; /* T_BOOL members */
  char weighted;           /* T_BOOL: draws by edge weight */
  /* typed datasets (see "typed batches" below) */
  const fo_dataset_t *d;   /* the dataset (kept open by the pin) */
  int typed;               /* fo_dataset_is_typed(d) */
  PyObject *node_type_names; /* tuple of str, dataset order */
  PyObject *edge_type_keys;  /* tuple of (src, rel, dst) tuples, dataset order */
  PyObject *input_type;      /* str (the seeds' node type) or None */
  PyObject *nn_dict;         /* num_neighbors as given per edge type ({key: tuple}), or None */
} loader;

typedef struct loader_iter {
  PyObject_HEAD
  loader *owner;
  uint64_t generation;
  int done;
} loader_iter;

typedef struct batch {
  PyObject_HEAD
  loader *owner;
  fo_loader_batch_t *b;
  PyObject *edge_index; /* cached [2, E] copy, or NULL */
  PyObject *edge_index_dict; /* typed: cached {edge type: [2, E_t] copy}, or NULL */
} batch;

/* Lock the loader's mutex; waits with the GIL released if another thread has it. */

int fopy_cache_opts(long long cache_bytes, const char *cache_policy, int lookahead,
                    fo_dist_loader_opts *dlo) {
  if (!strcmp(cache_policy, "degree")) {
    dlo->cache_policy = FO_DIST_CACHE_DEGREE;
  } else if (!strcmp(cache_policy, "frequency")) {
    dlo->cache_policy = FO_DIST_CACHE_FREQUENCY;
  } else if (!strcmp(cache_policy, "lookahead")) {
    dlo->cache_policy = FO_DIST_CACHE_LOOKAHEAD;
  } else {
    PyErr_Format(PyExc_ValueError, "cache_policy: '%s' is not 'degree', 'frequency' or "
                 "'lookahead'", cache_policy);
    return -1;
  }
  if (cache_bytes < 0) {
    PyErr_Format(PyExc_ValueError, "cache_bytes: expected >= 0, got %lld", cache_bytes);
    return -1;
  }
  if (lookahead < 1 || lookahead > 1024) {
    PyErr_Format(PyExc_ValueError, "lookahead: expected 1..1024, got %d", lookahead);
    return -1;
  }
  dlo->cache_bytes = cache_bytes;
  dlo->lookahead = lookahead;
  return 0;
}

static void lock_loader(loader *l) {
  if (pthread_mutex_trylock(&l->mu) != 0) {
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&l->mu);
    Py_END_ALLOW_THREADS
  }
}

/* Whether this is a forked child of the process that made the loader: its worker threads
 * are not here, so the C loader must not be used (it would wait for them forever). */
static int forked(const loader *l) {
  return l->pid != getpid();
}

static int check_not_forked(const loader *l) {
  if (forked(l)) {
    PyErr_SetString(PyExc_RuntimeError,
                    "this NeighborLoader was created before a fork: its sampling threads are "
                    "not in this process; create loaders after forking (or use the 'spawn' "
                    "start method)");
    return -1;
  }
  return 0;
}

static void release_batch(loader *l, fo_loader_batch_t *b) {
  if (forked(l)) return; /* the child leaves the parent's loader alone */
  lock_loader(l);
  fo_loader_release(l->L, b);
  pthread_mutex_unlock(&l->mu);
}

/* ---- Loader ---- */

/* An int argument that may be None (then *out keeps its default): 0, or -1 with an
 * exception naming `name`. */
static int optional_int32(PyObject *arg, const char *name, int32_t *out) {
  long v;
  if (arg == Py_None) return 0;
  v = PyLong_AsLong(arg);
  if (v == -1 && PyErr_Occurred()) return -1;
  if (v < INT32_MIN || v > INT32_MAX) {
    PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", name, v);
    return -1;
  }
  *out = (int32_t)v;
  return 0;
}

static int typed_loader_init(loader *self, const fo_dataset_t *d, const char *input_type,
                             PyObject *nn_dict);

static PyObject *loader_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"dataset", "num_neighbors", "batch_size", "input_nodes", "shuffle",
                           "drop_last", "num_workers", "seed", "replace", "disjoint",
                           "edge_dir", "prefetch", "epoch", "features", "labels", "dist",
                           "tail", "input_type", "edge_type_fanouts", "num_neighbors_dict",
                           "seed_placement", "cache_bytes", "cache_policy", "lookahead",
                           "time_attr", "temporal_strategy", "input_time", "weighted", "pipeline", NULL};
  fopy_dataset *ds;
  PyObject *nn, *input_nodes = Py_None, *num_workers = Py_None, *prefetch = Py_None;
  PyObject *dist = Py_None;
  const char *tail = "keep";
  const char *seed_placement = "global", *cache_policy = "degree";
  long long cache_bytes = 0;
  int lookahead = 8, pipeline = 0;
  fo_dist_loader_opts dlo;
  const char *input_type = NULL;
  PyObject *et_fanouts_arg = Py_None, *nn_dict = Py_None, *et_seq = NULL;
  const char *time_attr = NULL, *temporal_strategy = "uniform";
  PyObject *input_time = Py_None;
  PyArrayObject *times = NULL;
  int32_t *et_fanouts = NULL;
  fo_dist_tail dtail = FO_DIST_TAIL_KEEP;
  fo_dist_t *dd = NULL;
  PyObject *seq = NULL, *fan_tuple = NULL;
  PyArrayObject *ids = NULL;
  long long batch_size = 1;
  unsigned long long seed = 0, epoch = 0;
  int shuffle = 0, drop_last = 0, replace = 0, disjoint = 0, features = 1, labels = 1, rc;
  int weighted = 0;
  const char *edge_dir = "in";
  int32_t *fanouts = NULL, dummy = 0;
  Py_ssize_t n_hops;
  fo_loader_opts o;
  fo_dataset_t *d;
  fo_loader_t *L = NULL;
  loader *self = NULL;

  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O|LOppOKppsOKppOszOOsLsizsOpi:Loader", kwlist,
                                   &fopy_DatasetType, &ds, &nn, &batch_size, &input_nodes,
                                   &shuffle, &drop_last, &num_workers, &seed, &replace,
                                   &disjoint, &edge_dir, &prefetch, &epoch, &features, &labels,
                                   &dist, &tail, &input_type, &et_fanouts_arg, &nn_dict,
                                   &seed_placement, &cache_bytes, &cache_policy, &lookahead,
                                   &time_attr, &temporal_strategy, &input_time, &weighted,
                                   &pipeline))
    return NULL;
  fo_dist_loader_opts_init(&dlo);
  if (!strcmp(seed_placement, "global")) {
    dlo.seed_placement = FO_DIST_SEEDS_GLOBAL;
  } else if (!strcmp(seed_placement, "local")) {
    dlo.seed_placement = FO_DIST_SEEDS_LOCAL;
  } else {
    PyErr_Format(PyExc_ValueError, "seed_placement: '%s' is not 'global' or 'local'", seed_placement);
    return NULL;
  }
  if (fopy_cache_opts(cache_bytes, cache_policy, lookahead, &dlo) < 0) return NULL;
  if (pipeline < 0 || pipeline > 64) {
    PyErr_Format(PyExc_ValueError, "pipeline: expected 0..64, got %d", pipeline);
    return NULL;
  }
  dlo.pipeline = pipeline;
  if (!(d = fopy_dataset_get(ds))) return NULL;
  if (dist != Py_None && !(dd = fopy_dist_get(dist))) return NULL;
  if (!strcmp(tail, "keep")) {
    dtail = FO_DIST_TAIL_KEEP;
  } else if (!strcmp(tail, "drop")) {
    dtail = FO_DIST_TAIL_DROP;
  } else if (!strcmp(tail, "pad")) {
    dtail = FO_DIST_TAIL_PAD;
  } else {
    PyErr_Format(PyExc_ValueError, "tail: '%s' is not 'keep', 'drop' or 'pad'", tail);
    return NULL;
  }
  fo_loader_opts_init(&o);

  /* num_neighbors -> fanouts (int32; the library checks the values) */
  if (!(seq = PySequence_Fast(nn, "num_neighbors: expected a list of ints"))) goto fail;
  n_hops = PySequence_Fast_GET_SIZE(seq);
  if (n_hops > 64) {
    PyErr_Format(PyExc_ValueError, "num_neighbors: %zd hops is more than 64", n_hops);
    goto fail;
  }
  if (!(fan_tuple = PyTuple_New(n_hops))) goto fail;
  if (n_hops && !(fanouts = PyMem_Malloc((size_t)n_hops * sizeof *fanouts))) {
    PyErr_NoMemory();
    goto fail;
  }
  for (Py_ssize_t h = 0; h < n_hops; h++) {
    PyObject *item = PyNumber_Index(PySequence_Fast_GET_ITEM(seq, h)); /* ints, numpy ints */
    long v;
    if (!item) {
      PyErr_Format(PyExc_TypeError, "num_neighbors[%zd]: expected an int, got %s", h,
                   Py_TYPE(PySequence_Fast_GET_ITEM(seq, h))->tp_name);
      goto fail;
    }
    PyTuple_SET_ITEM(fan_tuple, h, item); /* steals */
    v = PyLong_AsLong(item);
    if (v == -1 && PyErr_Occurred()) goto fail;
    if (v < INT32_MIN || v > INT32_MAX) {
      PyErr_Format(PyExc_ValueError, "num_neighbors[%zd] = %ld is out of range", h, v);
      goto fail;
    }
    fanouts[h] = (int32_t)v;
  }
  o.sampler.fanouts = fanouts ? fanouts : &dummy;
  o.sampler.n_hops = (int32_t)n_hops;
  o.input_type = input_type;
  /* typed: [n_edge_types * n_hops] fanouts, edge type major (the Python side orders them) */
  if (et_fanouts_arg != Py_None) {
    Py_ssize_t want = (Py_ssize_t)fo_dataset_num_edge_types(d) * n_hops, n;
    if (!(et_seq = PySequence_Fast(et_fanouts_arg, "edge_type_fanouts: expected ints")))
      goto fail;
    if ((n = PySequence_Fast_GET_SIZE(et_seq)) != want) {
      PyErr_Format(PyExc_ValueError, "edge_type_fanouts: %zd values for %d edge types x %zd "
                   "hops", n, (int)fo_dataset_num_edge_types(d), n_hops);
      goto fail;
    }
    if (!(et_fanouts = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *et_fanouts))) {
      PyErr_NoMemory();
      goto fail;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
      long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(et_seq, i));
      if (v == -1 && PyErr_Occurred()) goto fail;
      if (v < INT32_MIN || v > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "edge_type_fanouts[%zd] = %ld is out of range", i, v);
        goto fail;
      }
      et_fanouts[i] = (int32_t)v;
    }
    o.sampler.edge_type_fanouts = et_fanouts;
  }
  o.sampler.replace = replace;
  o.sampler.weighted = weighted;
  o.sampler.disjoint = disjoint;
  o.sampler.seed = (uint64_t)seed;
  if (!strcmp(edge_dir, "in")) {
    o.sampler.edge_dir = FO_EDGE_DIR_IN;
  } else if (!strcmp(edge_dir, "out")) {
    o.sampler.edge_dir = FO_EDGE_DIR_OUT;
  } else {
    PyErr_Format(PyExc_ValueError, "edge_dir: '%s' is not 'in' or 'out'", edge_dir);
    goto fail;
  }
  /* temporal sampling (PyG time_attr / temporal_strategy / input_time) */
  if (time_attr) {
    if (!strcmp(time_attr, "edge")) {
      o.sampler.time_attr = FO_TIME_ATTR_EDGE;
    } else if (!strcmp(time_attr, "node")) {
      o.sampler.time_attr = FO_TIME_ATTR_NODE;
    } else {
      PyErr_Format(PyExc_ValueError, "time_attr: '%s' is not 'edge' (edge times) or 'node' "
                   "(node times)", time_attr);
      goto fail;
    }
    if (!strcmp(temporal_strategy, "uniform")) {
      o.sampler.temporal = FO_TEMPORAL_UNIFORM;
    } else if (!strcmp(temporal_strategy, "last")) {
      o.sampler.temporal = FO_TEMPORAL_LAST;
    } else {
      PyErr_Format(PyExc_ValueError, "temporal_strategy: '%s' is not 'uniform' or 'last'",
                   temporal_strategy);
      goto fail;
    }
  }
  if (input_time != Py_None) {
    if (!(times = (PyArrayObject *)PyArray_FROMANY(input_time, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY)))
      goto fail;
    o.input_time = (const int64_t *)PyArray_DATA(times);
  }
  o.batch_size = (int64_t)batch_size;
  o.shuffle = shuffle;
  o.drop_last = drop_last;
  o.epoch = (uint64_t)epoch;
  o.features = features;
  o.labels = labels;

  /* input_nodes: None (all nodes), a split name, or node ids */
  if (PyUnicode_Check(input_nodes)) {
    if (!(o.split = PyUnicode_AsUTF8(input_nodes))) goto fail;
  } else if (input_nodes != Py_None) {
    ids = (PyArrayObject *)PyArray_FROMANY(input_nodes, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY);
    if (!ids) goto fail;
    o.input_nodes = (const fo_nid_t *)PyArray_DATA(ids);
    o.n_input_nodes = (int64_t)PyArray_DIM(ids, 0);
  }
  if (times && (!ids || PyArray_DIM(times, 0) != PyArray_DIM(ids, 0))) {
    PyErr_Format(PyExc_ValueError, "input_time: %zd times for %s", (Py_ssize_t)PyArray_DIM(times, 0),
                 ids ? "a different number of input nodes" : "input_nodes that are not node ids");
    goto fail;
  }
  if (optional_int32(num_workers, "num_workers", &o.num_workers) < 0 ||
      optional_int32(prefetch, "prefetch", &o.prefetch) < 0)
    goto fail;

  if (!(self = (loader *)type->tp_alloc(type, 0))) goto fail;
  self->pid = getpid();
  if (pthread_mutex_init(&self->mu, NULL) != 0) {
    PyErr_SetString(PyExc_RuntimeError, "cannot create the loader's mutex");
    goto fail;
  }
  self->mu_ready = 1;
  if (!(self->pin = fopy_pin_new(ds))) goto fail;
  if (dd) { /* the context outlives the loader, and is not finalized while it exists (nor
              * while it is being made with the GIL released: another thread may call
              * finalize meanwhile) */
    Py_INCREF(dist);
    self->dist = dist;
    fopy_dist_use(dist, +1);
  }
  Py_BEGIN_ALLOW_THREADS
  dlo.tail = dtail;
  rc = dd ? fo_dist_loader_create_ex(dd, d, &o, &dlo, &L) : fo_loader_create(d, &o, &L);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK) {
    fopy_raise(rc);
    goto fail; /* the dealloc gives the use back */
  }
  self->L = L;
  self->cur_epoch = self->next_epoch = (uint64_t)epoch;
  self->num_neighbors = fan_tuple;
  fan_tuple = NULL;
  if (o.split) {
    Py_INCREF(input_nodes);
    self->split = input_nodes;
  } else {
    Py_INCREF(Py_None);
    self->split = Py_None;
  }
  self->batch_size = o.batch_size;
  self->num_workers = o.num_workers;
  self->prefetch = o.prefetch ? o.prefetch : (o.num_workers > 0 ? 2 * o.num_workers : 1);
  self->seed = o.sampler.seed;
  self->edge_dir = o.sampler.edge_dir;
  self->shuffle = (char)shuffle;
  self->drop_last = (char)drop_last;
  self->replace = (char)replace;
  self->weighted = (char)weighted;
  self->disjoint = (char)disjoint;
  self->features = (char)features;
  self->labels = (char)labels;
  if (typed_loader_init(self, d, input_type, nn_dict) < 0) goto fail;
  PyMem_Free(fanouts);
  PyMem_Free(et_fanouts);
  Py_XDECREF(et_seq);
  Py_XDECREF(ids);
  Py_XDECREF(times);
  Py_DECREF(seq);
  return (PyObject *)self;
fail:
  PyMem_Free(fanouts);
  PyMem_Free(et_fanouts);
  Py_XDECREF(et_seq);
  Py_XDECREF(ids);
  Py_XDECREF(times);
  Py_XDECREF(seq);
  Py_XDECREF(fan_tuple);
  Py_XDECREF(self);
  return NULL;
}

static void loader_dealloc(loader *self) {
  /* Batches and iterators hold references: none is left, so the C loader has no user. In a
   * forked child the workers to join do not exist: leave the (copied) loader alone. */
  if (self->L && !forked(self)) {
    fo_loader_t *L = self->L;
    self->L = NULL;
    Py_BEGIN_ALLOW_THREADS
    fo_loader_destroy(L); /* joins the workers */
    Py_END_ALLOW_THREADS
  }
  if (self->mu_ready && !forked(self)) pthread_mutex_destroy(&self->mu);
  if (self->dist) {
    fopy_dist_use(self->dist, -1);
    Py_CLEAR(self->dist);
  }
  Py_XDECREF(self->pin);
  Py_XDECREF(self->num_neighbors);
  Py_XDECREF(self->split);
  Py_XDECREF(self->node_type_names);
  Py_XDECREF(self->edge_type_keys);
  Py_XDECREF(self->input_type);
  Py_XDECREF(self->nn_dict);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *loader_get_iter(loader *self) {
  uint64_t e = self->next_epoch;
  loader_iter *it;
  int rc = FO_OK;

  if (check_not_forked(self) < 0) return NULL;
  /* The epoch started by create is used as it is by the first iteration. */
  if (self->iterated || e != self->cur_epoch) {
    fo_loader_t *L = self->L;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&self->mu);
    rc = fo_loader_start_epoch(L, e);
    pthread_mutex_unlock(&self->mu);
    Py_END_ALLOW_THREADS
    if (rc != FO_OK) return fopy_raise(rc);
  }
  self->iterated = 1;
  self->cur_epoch = e;
  self->next_epoch = e + 1;
  self->generation++;
  if (!(it = PyObject_New(loader_iter, &fopy_LoaderIterType))) return NULL;
  Py_INCREF(self);
  it->owner = self;
  it->generation = self->generation;
  it->done = 0;
  return (PyObject *)it;
}

static Py_ssize_t loader_len(loader *self) {
  return (Py_ssize_t)fo_loader_num_batches(self->L);
}

static PyObject *loader_set_epoch(loader *self, PyObject *arg) {
  unsigned long long e = PyLong_AsUnsignedLongLong(arg);
  if (e == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
  self->next_epoch = (uint64_t)e;
  Py_RETURN_NONE;
}

static PyObject *loader_stats(loader *self, PyObject *unused) {
  fo_loader_stats st;
  if (check_not_forked(self) < 0) return NULL;
  lock_loader(self);
  fo_loader_get_stats(self->L, &st);
  pthread_mutex_unlock(&self->mu);
  return Py_BuildValue("{s:L,s:d,s:d,s:L,s:d}", "batches", (long long)st.batches,
                       "sample_seconds", (double)st.sample_ns / 1e9, "gather_seconds",
                       (double)st.gather_ns / 1e9, "gather_bytes", (long long)st.gather_bytes,
                       "wait_seconds", (double)st.wait_ns / 1e9);
}

static PyObject *loader_get_dataset(loader *self, void *closure) {
  return PyObject_GetAttrString(self->pin, "dataset");
}

static PyObject *loader_get_epoch(loader *self, void *closure) {
  if (!self->iterated) Py_RETURN_NONE;
  return PyLong_FromUnsignedLongLong(self->cur_epoch);
}

static PyObject *loader_get_next_epoch(loader *self, void *closure) {
  return PyLong_FromUnsignedLongLong(self->next_epoch);
}

static PyObject *loader_get_num_inputs(loader *self, void *closure) {
  return PyLong_FromLongLong((long long)fo_loader_num_inputs(self->L));
}

static PyObject *loader_get_edge_dir(loader *self, void *closure) {
  return PyUnicode_FromString(self->edge_dir == FO_EDGE_DIR_IN ? "in" : "out");
}

static PyObject *loader_get_seed(loader *self, void *closure) {
  return PyLong_FromUnsignedLongLong(self->seed);
}

static PyObject *loader_repr(loader *self) {
  return PyUnicode_FromFormat("<fanout.NeighborLoader: %zd batches of %lld, num_neighbors=%R, "
                              "num_workers=%d>",
                              loader_len(self), (long long)self->batch_size,
                              self->num_neighbors, (int)self->num_workers);
}

static PyMethodDef loader_methods[] = {
    {"set_epoch", (PyCFunction)loader_set_epoch, METH_O,
     "set_epoch(epoch)\n--\n\nMake the next iter() run `epoch` (then epoch + 1, ...)."},
    {"stats", (PyCFunction)loader_stats, METH_NOARGS,
     "stats()\n--\n\nTime accounting since creation, all threads together: batches, "
     "sample_seconds, gather_seconds, gather_bytes, wait_seconds (time next() waited)."},
    {NULL, NULL, 0, NULL}};

#define LOADER_MEMBER(name, type, field, doc) \
  {name, type, offsetof(loader, field), READONLY, doc}

static PyMemberDef loader_members[] = {
    LOADER_MEMBER("num_neighbors", T_OBJECT, num_neighbors, "Fanout per hop (tuple)."),
    LOADER_MEMBER("split", T_OBJECT, split, "The split the seeds come from, or None."),
    LOADER_MEMBER("batch_size", T_LONGLONG, batch_size, "Seeds per batch."),
    LOADER_MEMBER("num_workers", T_INT, num_workers, "Sampling threads (0: in next())."),
    LOADER_MEMBER("prefetch", T_INT, prefetch, "Batches sampled ahead."),
    LOADER_MEMBER("shuffle", T_BOOL, shuffle, "Reshuffle the seeds every epoch."),
    LOADER_MEMBER("drop_last", T_BOOL, drop_last, "Drop a last, smaller batch."),
    LOADER_MEMBER("replace", T_BOOL, replace, "Sample with replacement."),
    LOADER_MEMBER("weighted", T_BOOL, weighted, "Draw neighbors by edge weight."),
    LOADER_MEMBER("disjoint", T_BOOL, disjoint, "One tree per seed (fills batch.batch)."),
    LOADER_MEMBER("features", T_BOOL, features, "Gather x."),
    LOADER_MEMBER("labels", T_BOOL, labels, "Gather y."),
    LOADER_MEMBER("input_type", T_OBJECT, input_type,
                  "Node type of the seeds (typed datasets), or None."),
    LOADER_MEMBER("_num_neighbors_dict", T_OBJECT, nn_dict,
                  "num_neighbors per edge type as given, or None (a list was given)."),
    {NULL, 0, 0, 0, NULL}};

static PyGetSetDef loader_getset[] = {
    {"dataset", (getter)loader_get_dataset, NULL, "The dataset.", NULL},
    {"epoch", (getter)loader_get_epoch, NULL,
     "Epoch of the current (or last) iteration; None before the first iter().", NULL},
    {"next_epoch", (getter)loader_get_next_epoch, NULL, "Epoch the next iter() runs.", NULL},
    {"num_inputs", (getter)loader_get_num_inputs, NULL, "Number of input nodes (seeds).", NULL},
    {"edge_dir", (getter)loader_get_edge_dir, NULL, "'in' or 'out'.", NULL},
    {"seed", (getter)loader_get_seed, NULL, "Random seed (sampling and shuffle).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PySequenceMethods loader_as_sequence = {
    .sq_length = (lenfunc)loader_len,
};

PyTypeObject fopy_LoaderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fanout._fanout.Loader",
    .tp_basicsize = sizeof(loader),
    .tp_dealloc = (destructor)loader_dealloc,
    .tp_repr = (reprfunc)loader_repr,
    .tp_as_sequence = &loader_as_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The C neighbor loader; use fanout.NeighborLoader.",
    .tp_iter = (getiterfunc)loader_get_iter,
    .tp_methods = loader_methods,
    .tp_members = loader_members,
    .tp_getset = loader_getset,
    .tp_new = loader_new,
};

/* ---- the iterator ---- */

static PyObject *batch_new(loader *l, fo_loader_batch_t *b);

/* How long next() waits for a batch before it looks at signals (Ctrl-C), in seconds. */
#define NEXT_SLICE_S 0.1

static int check_fresh(loader_iter *it) {
  if (it->generation != it->owner->generation) {
    PyErr_SetString(PyExc_RuntimeError,
                    "stale loader iterator: iter() was called again on its loader (each "
                    "iter() starts a new epoch)");
    return -1;
  }
  return 0;
}

static PyObject *iter_next(loader_iter *it) {
  loader *l = it->owner;
  fo_loader_batch_t *b = NULL;
  fo_loader_t *L = l->L;
  int rc;

  if (it->done) return NULL;
  if (check_fresh(it) < 0 || check_not_forked(l) < 0) return NULL;
  for (;;) { /* wait in slices, so that Ctrl-C is seen while a batch is late */
    bool waited = false;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&l->mu);
    rc = fo_loader_next_timed(L, &b, NEXT_SLICE_S, &waited);
    pthread_mutex_unlock(&l->mu);
    Py_END_ALLOW_THREADS
    if (!waited) break;
    if (PyErr_CheckSignals() < 0) return NULL; /* the batch stays for the next call */
  }
  if (rc != FO_OK) return fopy_raise(rc); /* that batch is skipped; next() goes on */
  if (!b) {
    it->done = 1;
    return NULL; /* StopIteration */
  }
  if (PyErr_CheckSignals() < 0 || check_fresh(it) < 0) {
    release_batch(l, b);
    return NULL;
  }
  return batch_new(l, b);
}

static void iter_dealloc(loader_iter *it) {
  Py_DECREF(it->owner);
  PyObject_Free(it);
}

static PyObject *iter_self(PyObject *it) {
  Py_INCREF(it);
  return it;
}

static PyObject *iter_length_hint(loader_iter *it, PyObject *unused) {
  return PyLong_FromSsize_t(it->done ? 0 : loader_len(it->owner));
}

static PyMethodDef iter_methods[] = {
    {"__length_hint__", (PyCFunction)iter_length_hint, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

PyTypeObject fopy_LoaderIterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fanout._fanout.LoaderIterator",
    .tp_basicsize = sizeof(loader_iter),
    .tp_dealloc = (destructor)iter_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One epoch of a NeighborLoader (made by iter(loader)).",
    .tp_iter = iter_self,
    .tp_iternext = (iternextfunc)iter_next,
    .tp_methods = iter_methods,
};

/* ---- Batch ---- */

static PyObject *batch_new(loader *l, fo_loader_batch_t *b) {
  batch *self = PyObject_New(batch, &fopy_BatchType);
  if (!self) {
    release_batch(l, b);
    return NULL;
  }
  Py_INCREF(l);
  self->owner = l;
  self->b = b;
  self->edge_index = NULL;
  self->edge_index_dict = NULL;
  return (PyObject *)self;
}

static void batch_dealloc(batch *self) {
  loader *l = self->owner;
  Py_XDECREF(self->edge_index);
  Py_XDECREF(self->edge_index_dict);
  release_batch(l, self->b);
  PyObject_Free(self);
  Py_DECREF(l); /* may destroy the loader */
}

static int flat_only(batch *self, const char *name, const char *typed_name);

static PyObject *view1(batch *self, const int64_t *data, int64_t n) {
  npy_intp dims[1] = {(npy_intp)n};
  return fopy_view_typed((PyObject *)self, data, 1, dims, NPY_INT64);
}

static PyObject *batch_get_node(batch *self, void *closure) {
  if (flat_only(self, "node", "node_dict") < 0) return NULL;
  return view1(self, self->b->sample->node, self->b->sample->n_nodes);
}

static PyObject *batch_get_row(batch *self, void *closure) {
  if (flat_only(self, "row", "row_dict") < 0) return NULL;
  return view1(self, self->b->sample->row, self->b->sample->n_edges);
}

static PyObject *batch_get_col(batch *self, void *closure) {
  if (flat_only(self, "col", "col_dict") < 0) return NULL;
  return view1(self, self->b->sample->col, self->b->sample->n_edges);
}

static PyObject *batch_get_edge(batch *self, void *closure) {
  if (flat_only(self, "edge", "edge_dict") < 0) return NULL;
  return view1(self, self->b->sample->edge, self->b->sample->n_edges);
}

static PyObject *batch_get_batch(batch *self, void *closure) {
  if (flat_only(self, "batch", "batch_dict") < 0) return NULL;
  if (!self->b->sample->batch) Py_RETURN_NONE;
  return view1(self, self->b->sample->batch, self->b->sample->n_nodes);
}

static PyObject *batch_get_input_id(batch *self, void *closure) {
  return view1(self, self->b->input_id, self->b->batch_size);
}

static PyObject *batch_get_input_time(batch *self, void *closure) {
  if (!self->b->input_time) Py_RETURN_NONE;
  return view1(self, self->b->input_time, self->b->batch_size);
}

static PyObject *batch_get_y(batch *self, void *closure) {
  if (!self->b->y) Py_RETURN_NONE;
  return view1(self, self->b->y, self->b->batch_size);
}

static PyObject *batch_get_num_sampled_nodes(batch *self, void *closure) {
  if (flat_only(self, "num_sampled_nodes", "num_sampled_nodes_dict") < 0) return NULL;
  return view1(self, self->b->sample->num_sampled_nodes, self->b->sample->n_hops + 1);
}

static PyObject *batch_get_num_sampled_edges(batch *self, void *closure) {
  if (flat_only(self, "num_sampled_edges", "num_sampled_edges_dict") < 0) return NULL;
  return view1(self, self->b->sample->num_sampled_edges, self->b->sample->n_hops);
}

static PyObject *batch_get_x(batch *self, void *closure) {
  const fo_loader_batch_t *b = self->b;
  npy_intp dims[2];
  int typenum;

  if (flat_only(self, "x", "x_dict") < 0) return NULL;
  if (!b->x) Py_RETURN_NONE;
  if ((typenum = fopy_feature_typenum(b->x_dtype)) < 0) {
    PyErr_Format(PyExc_RuntimeError, "batch x: unknown dtype '%s'", b->x_dtype);
    return NULL;
  }
  dims[0] = (npy_intp)b->sample->n_nodes;
  dims[1] = (npy_intp)b->x_dim;
  return fopy_view_typed((PyObject *)self, b->x, 2, dims, typenum);
}

static PyObject *batch_get_x_dtype(batch *self, void *closure) {
  if (!self->b->x || !self->b->x_dtype) Py_RETURN_NONE;
  return PyUnicode_FromString(self->b->x_dtype);
}

/* edge_index [2, E] = (row, col): the one copy (row and col are separate arrays in C). */
static PyObject *batch_get_edge_index(batch *self, void *closure) {
  const fo_batch_t *s = self->b->sample;
  npy_intp dims[2] = {2, (npy_intp)s->n_edges};
  PyObject *arr;
  int64_t *p;

  if (flat_only(self, "edge_index", "edge_index_dict") < 0) return NULL;
  if (!self->edge_index) {
    if (!(arr = PyArray_SimpleNew(2, dims, NPY_INT64))) return NULL;
    p = (int64_t *)PyArray_DATA((PyArrayObject *)arr);
    if (s->n_edges > 0) {
      memcpy(p, s->row, (size_t)s->n_edges * sizeof *p);
      memcpy(p + s->n_edges, s->col, (size_t)s->n_edges * sizeof *p);
    }
    PyArray_CLEARFLAGS((PyArrayObject *)arr, NPY_ARRAY_WRITEABLE);
    self->edge_index = arr;
  }
  Py_INCREF(self->edge_index);
  return self->edge_index;
}

static PyObject *batch_get_batch_size(batch *self, void *closure) {
  return PyLong_FromLongLong((long long)self->b->batch_size);
}

static PyObject *batch_get_num_nodes(batch *self, void *closure) {
  return PyLong_FromLongLong((long long)self->b->sample->n_nodes);
}

static PyObject *batch_get_num_edges(batch *self, void *closure) {
  return PyLong_FromLongLong((long long)self->b->sample->n_edges);
}

static PyObject *batch_get_epoch(batch *self, void *closure) {
  return PyLong_FromUnsignedLongLong(self->b->epoch);
}

static PyObject *batch_get_index(batch *self, void *closure) {
  return PyLong_FromLongLong((long long)self->b->index);
}

static PyObject *batch_get_loader(batch *self, void *closure) {
  Py_INCREF(self->owner);
  return (PyObject *)self->owner;
}

/* ---- typed batches (typed datasets, PyG HeteroSamplerOutput / HeteroData keys) ----
 * A batch of a typed dataset has no flat node/row/col/... (fo_batch_t.typed: the flat arrays
 * are not filled); its parts come per node type (fo_batch_node_type) and per edge type
 * (fo_batch_edge_type), as dicts keyed by node type name and (src, rel, dst) tuple, each value
 * a read-only view whose base is the batch (edge_index_dict: one cached copy per edge type). */

/* The loader's names of node and edge types (tuples, dataset order), its input type and the
 * per-edge-type num_neighbors; 0, or -1 with an exception. */
static int typed_loader_init(loader *self, const fo_dataset_t *d, const char *input_type,
                             PyObject *nn_dict) {
  int32_t nt = fo_dataset_num_node_types(d), ne = fo_dataset_num_edge_types(d);
  self->d = d;
  self->typed = fo_dataset_is_typed(d);
  if (!(self->node_type_names = PyTuple_New(nt)) || !(self->edge_type_keys = PyTuple_New(ne)))
    return -1;
  for (int32_t t = 0; t < nt; t++) {
    PyObject *s = PyUnicode_FromString(fo_dataset_node_type_name(d, t));
    if (!s) return -1;
    PyTuple_SET_ITEM(self->node_type_names, t, s);
  }
  for (int32_t e = 0; e < ne; e++) {
    fo_edge_type et;
    PyObject *k;
    int rc = fo_dataset_edge_type(d, e, &et);
    if (rc != FO_OK) {
      fopy_raise(rc);
      return -1;
    }
    if (!(k = Py_BuildValue("(sss)", et.src, et.rel, et.dst))) return -1;
    PyTuple_SET_ITEM(self->edge_type_keys, e, k);
  }
  if (input_type) {
    if (!(self->input_type = PyUnicode_FromString(input_type))) return -1;
  } else if (self->typed) { /* the only node type (the C loader checked there is one) */
    self->input_type = PyTuple_GET_ITEM(self->node_type_names, 0);
    Py_INCREF(self->input_type);
  } else {
    Py_INCREF(Py_None);
    self->input_type = Py_None;
  }
  Py_INCREF(nn_dict);
  self->nn_dict = nn_dict;
  return 0;
}

/* AttributeError unless the batch is typed (so getattr(batch, "node_dict", None) is None for
 * a version-1 batch); -1 then. */
static int typed_only(batch *self, const char *name) {
  if (self->b->sample->typed) return 0;
  PyErr_Format(PyExc_AttributeError, "'fanout.Batch' of a version-1 (untyped) dataset has no "
               "'%s' (only batches of typed datasets do)", name);
  return -1;
}

/* AttributeError for a flat field of a typed batch: -1, naming the per-type form. */
static int flat_only(batch *self, const char *name, const char *typed_name) {
  if (!self->b->sample->typed) return 0;
  PyErr_Format(PyExc_AttributeError, "'fanout.Batch' of a typed dataset has no '%s': use "
               "'%s' (keyed by node type or (src, rel, dst) edge type, as PyG's HeteroData)",
               name, typed_name);
  return -1;
}

/* Node-type dicts, by closure: 0 node, 1 num_sampled_nodes, 2 batch (None unless disjoint). */
static PyObject *batch_get_node_dict(batch *self, void *closure) {
  static const char *names[] = {"node_dict", "num_sampled_nodes_dict", "batch_dict"};
  intptr_t what = (intptr_t)closure;
  const fo_batch_t *s = self->b->sample;
  loader *l = self->owner;
  PyObject *out;

  if (typed_only(self, names[what]) < 0) return NULL;
  if (what == 2 && !s->disjoint) Py_RETURN_NONE;
  if (!(out = PyDict_New())) return NULL;
  for (int32_t t = 0; t < s->n_node_types && t < PyTuple_GET_SIZE(l->node_type_names); t++) {
    const fo_batch_t *sub = fo_batch_node_type(s, t);
    PyObject *v;
    int rc;
    if (!sub) continue;
    v = what == 0   ? view1(self, sub->node, sub->n_nodes)
        : what == 1 ? view1(self, sub->num_sampled_nodes, s->n_hops + 1)
                    : view1(self, sub->batch, sub->batch ? sub->n_nodes : 0);
    rc = v ? PyDict_SetItem(out, PyTuple_GET_ITEM(l->node_type_names, t), v) : -1;
    Py_XDECREF(v);
    if (rc < 0) {
      Py_DECREF(out);
      return NULL;
    }
  }
  return out;
}

/* Edge-type dicts, by closure: 0 row, 1 col, 2 edge, 3 num_sampled_edges. Rows index
 * node_dict[src] and cols node_dict[dst] for both edge directions, as HeteroData's
 * edge_index_dict[(src, rel, dst)]: the sampler's row is the neighbor side, which is the dst
 * side for edge_dir "out", so that direction swaps the two (no copy either way). */
static PyObject *batch_get_edge_dict(batch *self, void *closure) {
  static const char *names[] = {"row_dict", "col_dict", "edge_dict", "num_sampled_edges_dict"};
  intptr_t what = (intptr_t)closure;
  const fo_batch_t *s = self->b->sample;
  loader *l = self->owner;
  PyObject *out;

  if (typed_only(self, names[what]) < 0) return NULL;
  if (l->edge_dir == FO_EDGE_DIR_OUT && what < 2) what = 1 - what;
  if (!(out = PyDict_New())) return NULL;
  for (int32_t e = 0; e < s->n_edge_types && e < PyTuple_GET_SIZE(l->edge_type_keys); e++) {
    const fo_batch_t *sub = fo_batch_edge_type(s, e);
    PyObject *v;
    int rc;
    if (!sub) continue;
    v = what == 0   ? view1(self, sub->row, sub->n_edges)
        : what == 1 ? view1(self, sub->col, sub->n_edges)
        : what == 2 ? view1(self, sub->edge, sub->n_edges)
                    : view1(self, sub->num_sampled_edges, s->n_hops);
    rc = v ? PyDict_SetItem(out, PyTuple_GET_ITEM(l->edge_type_keys, e), v) : -1;
    Py_XDECREF(v);
    if (rc < 0) {
      Py_DECREF(out);
      return NULL;
    }
  }
  return out;
}

/* {edge type: [2, E_t] (src side, dst side)}: one copy per edge type, made on first access,
 * cached (edge_dir "out" swaps the sampler's row and col, as row_dict/col_dict do). */
static PyObject *batch_get_edge_index_dict(batch *self, void *closure) {
  const fo_batch_t *s = self->b->sample;
  loader *l = self->owner;
  PyObject *out;

  if (typed_only(self, "edge_index_dict") < 0) return NULL;
  if (!self->edge_index_dict) {
    if (!(out = PyDict_New())) return NULL;
    for (int32_t e = 0; e < s->n_edge_types && e < PyTuple_GET_SIZE(l->edge_type_keys); e++) {
      const fo_batch_t *sub = fo_batch_edge_type(s, e);
      npy_intp dims[2] = {2, sub ? (npy_intp)sub->n_edges : 0};
      PyObject *arr = PyArray_SimpleNew(2, dims, NPY_INT64);
      int rc;
      if (arr && dims[1] > 0) {
        int64_t *p = (int64_t *)PyArray_DATA((PyArrayObject *)arr);
        int swap = l->edge_dir == FO_EDGE_DIR_OUT;
        memcpy(p, swap ? sub->col : sub->row, (size_t)dims[1] * sizeof *p);
        memcpy(p + dims[1], swap ? sub->row : sub->col, (size_t)dims[1] * sizeof *p);
      }
      if (arr) PyArray_CLEARFLAGS((PyArrayObject *)arr, NPY_ARRAY_WRITEABLE);
      rc = arr ? PyDict_SetItem(out, PyTuple_GET_ITEM(l->edge_type_keys, e), arr) : -1;
      Py_XDECREF(arr);
      if (rc < 0) {
        Py_DECREF(out);
        return NULL;
      }
    }
    self->edge_index_dict = out;
  }
  /* a new dict each time (the arrays are the cached ones), so callers may change theirs */
  return PyDict_Copy(self->edge_index_dict);
}

/* {node type: x [n_t, D_t]} for the node types with gathered features. */
static PyObject *batch_get_x_dict(batch *self, void *closure) {
  const fo_loader_batch_t *b = self->b;
  const fo_batch_t *s = b->sample;
  loader *l = self->owner;
  PyObject *out;

  if (typed_only(self, "x_dict") < 0) return NULL;
  if (!(out = PyDict_New())) return NULL;
  for (int32_t t = 0; b->x_types && t < b->n_node_types &&
                      t < PyTuple_GET_SIZE(l->node_type_names); t++) {
    const fo_loader_features *f = &b->x_types[t];
    const fo_batch_t *sub = fo_batch_node_type(s, t);
    npy_intp dims[2];
    PyObject *v;
    int typenum, rc;
    if (!f->x || !sub) continue;
    if ((typenum = fopy_feature_typenum(f->dtype)) < 0) {
      PyErr_Format(PyExc_RuntimeError, "batch x_dict: unknown dtype '%s'", f->dtype);
      Py_DECREF(out);
      return NULL;
    }
    dims[0] = (npy_intp)sub->n_nodes;
    dims[1] = (npy_intp)f->dim;
    v = fopy_view_typed((PyObject *)self, f->x, 2, dims, typenum);
    rc = v ? PyDict_SetItem(out, PyTuple_GET_ITEM(l->node_type_names, t), v) : -1;
    Py_XDECREF(v);
    if (rc < 0) {
      Py_DECREF(out);
      return NULL;
    }
  }
  return out;
}

/* {node type: feature dtype name} for the types in x_dict. */
static PyObject *batch_get_x_dtype_dict(batch *self, void *closure) {
  const fo_loader_batch_t *b = self->b;
  loader *l = self->owner;
  PyObject *out;

  if (typed_only(self, "x_dtype_dict") < 0) return NULL;
  if (!(out = PyDict_New())) return NULL;
  for (int32_t t = 0; b->x_types && t < b->n_node_types &&
                      t < PyTuple_GET_SIZE(l->node_type_names); t++) {
    PyObject *v;
    int rc;
    if (!b->x_types[t].x || !b->x_types[t].dtype) continue;
    v = PyUnicode_FromString(b->x_types[t].dtype);
    rc = v ? PyDict_SetItem(out, PyTuple_GET_ITEM(l->node_type_names, t), v) : -1;
    Py_XDECREF(v);
    if (rc < 0) {
      Py_DECREF(out);
      return NULL;
    }
  }
  return out;
}

/* {input type: y [batch_size]} (the seeds' labels), or {} when y is not gathered. */
static PyObject *batch_get_y_dict(batch *self, void *closure) {
  loader *l = self->owner;
  PyObject *out, *v, *key;
  int rc;

  if (typed_only(self, "y_dict") < 0) return NULL;
  if (!(out = PyDict_New()) || !self->b->y) return out;
  if (self->b->input_type < 0 || self->b->input_type >= PyTuple_GET_SIZE(l->node_type_names))
    return out;
  key = PyTuple_GET_ITEM(l->node_type_names, self->b->input_type);
  v = view1(self, self->b->y, self->b->batch_size);
  rc = v ? PyDict_SetItem(out, key, v) : -1;
  Py_XDECREF(v);
  if (rc < 0) Py_CLEAR(out);
  return out;
}

/* node_types / edge_types of the batch (lists, dataset order), or None for version 1. */
static PyObject *batch_get_types(batch *self, void *closure) {
  loader *l = self->owner;
  if (!self->b->sample->typed) Py_RETURN_NONE;
  return PySequence_List(closure ? l->edge_type_keys : l->node_type_names);
}

static PyObject *batch_get_input_type(batch *self, void *closure) {
  loader *l = self->owner;
  if (!self->b->sample->typed) Py_RETURN_NONE;
  if (self->b->input_type < 0 || self->b->input_type >= PyTuple_GET_SIZE(l->node_type_names))
    Py_RETURN_NONE;
  return Py_NewRef(PyTuple_GET_ITEM(l->node_type_names, self->b->input_type));
}

static PyObject *batch_digest(batch *self, PyObject *unused) {
  const fo_loader_batch_t *b = self->b;
  uint64_t h;
  Py_BEGIN_ALLOW_THREADS
  h = fo_loader_batch_digest(b);
  Py_END_ALLOW_THREADS
  return PyLong_FromUnsignedLongLong(h);
}

/* The PyG dict is built in Python (fanout._batch_to_dict), over the getters above. */
static PyObject *batch_to_dict(batch *self, PyObject *unused) {
  PyObject *mod = PyImport_ImportModule("fanout"), *out;
  if (!mod) return NULL;
  out = PyObject_CallMethod(mod, "_batch_to_dict", "O", (PyObject *)self);
  Py_DECREF(mod);
  return out;
}

static PyObject *batch_repr(batch *self) {
  const fo_loader_batch_t *b = self->b;
  return PyUnicode_FromFormat("<fanout.Batch epoch=%llu index=%lld batch_size=%lld "
                              "num_nodes=%lld num_edges=%lld>",
                              (unsigned long long)b->epoch, (long long)b->index,
                              (long long)b->batch_size, (long long)b->sample->n_nodes,
                              (long long)b->sample->n_edges);
}

static PyMethodDef batch_methods[] = {
    {"digest", (PyCFunction)batch_digest, METH_NOARGS,
     "digest()\n--\n\nXXH64 of node, row, col, edge, x, y (fo_loader_batch_digest); "
     "fanout.digest_sequence() of an epoch's digests is what `fanout bench --digest` prints."},
    {"to_dict", (PyCFunction)batch_to_dict, METH_NOARGS,
     "to_dict()\n--\n\nThe batch under PyG's names (x, edge_index, y, n_id, e_id, batch, "
     "num_sampled_nodes, num_sampled_edges, input_id, batch_size, num_nodes) as a plain dict "
     "of torch tensors sharing the batch's memory (edge_index: the one cached copy), ints and "
     "lists: torch_geometric.data.Data(**batch.to_dict()) accepts it. A typed batch gives "
     "{node type: {x, n_id, num_sampled_nodes, num_nodes, batch, and for the input type y, "
     "input_id, batch_size}, (src, rel, dst): {edge_index, e_id, num_sampled_edges}}, what "
     "torch_geometric.data.HeteroData(d) accepts. Needs torch."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef batch_getset[] = {
    {"node", (getter)batch_get_node, NULL,
     "int64 [N] global node ids, the seeds first (PyG n_id). Read-only view.", NULL},
    {"n_id", (getter)batch_get_node, NULL, "Alias of node (PyG's name).", NULL},
    {"row", (getter)batch_get_row, NULL,
     "int64 [E] local index of each edge's neighbor (message source). Read-only view.", NULL},
    {"col", (getter)batch_get_col, NULL,
     "int64 [E] local index of the node it was sampled for (message target). Read-only view.",
     NULL},
    {"edge_index", (getter)batch_get_edge_index, NULL,
     "int64 [2, E] = (row, col), PyG layout: a read-only COPY made on first access (row and "
     "col are separate arrays in fanout), then cached.",
     NULL},
    {"edge", (getter)batch_get_edge, NULL, "int64 [E] global edge ids. Read-only view.", NULL},
    {"e_id", (getter)batch_get_edge, NULL, "Alias of edge (PyG's name).", NULL},
    {"batch", (getter)batch_get_batch, NULL,
     "disjoint=True: int64 [N] index of each node's seed; else None.", NULL},
    {"x", (getter)batch_get_x, NULL,
     "Features of `node` [N, D] in the dataset's dtype (see x_dtype); None when not gathered. "
     "Read-only view.",
     NULL},
    {"x_dtype", (getter)batch_get_x_dtype, NULL,
     "'float32', 'float16', 'bfloat16' (x holds the bits as int16) or 'uint8'; None without x.", NULL},
    {"y", (getter)batch_get_y, NULL,
     "int64 [batch_size] labels of the seeds (-1: none); None when not gathered.", NULL},
    {"input_id", (getter)batch_get_input_id, NULL,
     "int64 [batch_size] position of each seed in the loader's input nodes.", NULL},
    {"input_time", (getter)batch_get_input_time, NULL,
     "Temporal loaders: int64 [batch_size] the time of each seed (input_time, or its node "
     "time), which bounds its tree; else None.", NULL},
    {"num_sampled_nodes", (getter)batch_get_num_sampled_nodes, NULL,
     "int64 [hops + 1]: seeds, then new nodes per hop.", NULL},
    {"num_sampled_edges", (getter)batch_get_num_sampled_edges, NULL,
     "int64 [hops]: edges sampled per hop.", NULL},
    {"batch_size", (getter)batch_get_batch_size, NULL, "Number of seeds.", NULL},
    {"num_nodes", (getter)batch_get_num_nodes, NULL, "N.", NULL},
    {"num_edges", (getter)batch_get_num_edges, NULL, "E.", NULL},
    {"epoch", (getter)batch_get_epoch, NULL, "Epoch of this batch.", NULL},
    {"index", (getter)batch_get_index, NULL, "Index of this batch in its epoch.", NULL},
    {"loader", (getter)batch_get_loader, NULL, "The loader this batch came from.", NULL},
    /* typed datasets (PyG HeteroSamplerOutput fields, HeteroData keys) */
    {"node_types", (getter)batch_get_types, NULL,
     "Typed: the dataset's node types (list of str); None for a version-1 dataset.", NULL},
    {"edge_types", (getter)batch_get_types, NULL,
     "Typed: the dataset's edge types (list of (src, rel, dst)); None for version 1.",
     (void *)1},
    {"input_type", (getter)batch_get_input_type, NULL,
     "Typed: the node type of the seeds; None for version 1.", NULL},
    {"node_dict", (getter)batch_get_node_dict, NULL,
     "Typed: {node type: int64 [N_t] node ids of that type (the seeds first for the input "
     "type)} (PyG n_id per type). Read-only views.", (void *)0},
    {"n_id_dict", (getter)batch_get_node_dict, NULL, "Alias of node_dict (PyG's name).",
     (void *)0},
    {"num_sampled_nodes_dict", (getter)batch_get_node_dict, NULL,
     "Typed: {node type: int64 [hops + 1]}: seeds, then new nodes per hop.", (void *)1},
    {"batch_dict", (getter)batch_get_node_dict, NULL,
     "Typed, disjoint=True: {node type: int64 [N_t] index of each node's seed}; else None.",
     (void *)2},
    {"row_dict", (getter)batch_get_edge_dict, NULL,
     "Typed: {(src, rel, dst): int64 [E_t]} local index into node_dict[src] (for either "
     "edge_dir, as HeteroData). Read-only views.", (void *)0},
    {"col_dict", (getter)batch_get_edge_dict, NULL,
     "Typed: {(src, rel, dst): int64 [E_t]} local index into node_dict[dst] (for either "
     "edge_dir). Read-only views.", (void *)1},
    {"edge_dict", (getter)batch_get_edge_dict, NULL,
     "Typed: {(src, rel, dst): int64 [E_t]} edge ids of that edge type (PyG e_id per type).",
     (void *)2},
    {"e_id_dict", (getter)batch_get_edge_dict, NULL, "Alias of edge_dict (PyG's name).",
     (void *)2},
    {"num_sampled_edges_dict", (getter)batch_get_edge_dict, NULL,
     "Typed: {(src, rel, dst): int64 [hops]}: edges of that type per hop.", (void *)3},
    {"edge_index_dict", (getter)batch_get_edge_index_dict, NULL,
     "Typed: {(src, rel, dst): int64 [2, E_t] = (row_dict, col_dict): source side, "
     "destination side}: read-only COPIES made on first "
     "access, then cached (a new dict each time).", NULL},
    {"x_dict", (getter)batch_get_x_dict, NULL,
     "Typed: {node type: [N_t, D_t] features of node_dict[t]} for the types with features, in "
     "their stored dtype (x_dtype_dict). Read-only views.", NULL},
    {"y_dict", (getter)batch_get_y_dict, NULL,
     "Typed: {input type: y} (the seeds' labels, as y), or {} when y is not gathered.", NULL},
    {"x_dtype_dict", (getter)batch_get_x_dtype_dict, NULL,
     "Typed: {node type: 'float32' | 'float16' | 'bfloat16' | 'uint8'} for x_dict.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject fopy_BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fanout.Batch",
    .tp_basicsize = sizeof(batch),
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_repr = (reprfunc)batch_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One mini-batch (PyG SamplerOutput layout). Its arrays are read-only NumPy views "
              "of fanout's memory whose base is the batch, valid as long as they live.",
    .tp_methods = batch_methods,
    .tp_getset = batch_getset,
};
