/*
 * python/src/ablp.c: `ABLPSampler`, the ABLP sampler (fo_ablp_sampler_t, include/fanout/ablp.h)
 * for fanout.ABLPLoader: sample(anchors, epoch, batch_index) makes one batch with the GIL
 * released and returns it as a dict of new NumPy arrays (copies: the batch is reused by the
 * next call). One call at a time per sampler (a mutex); the sampler holds a pin on the
 * dataset. ABLPSampler.label_edge_types(dataset) lists the labels-only edge types.
 */
#include "pyfanout.h"

typedef struct ablp_sampler {
  PyObject_HEAD
  fo_ablp_sampler_t *s;
  fo_ablp_batch_t *b;
  PyObject *pin;
  pthread_mutex_t mu;
  int mu_ready;
} ablp_sampler;

static void as_dealloc(ablp_sampler *self) {
  fo_ablp_sampler_destroy(self->s);
  fo_ablp_batch_destroy(self->b);
  Py_XDECREF(self->pin);
  if (self->mu_ready) pthread_mutex_destroy(&self->mu);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int int_list(PyObject *seq, const char *what, int32_t **out, Py_ssize_t *n) {
  PyObject *f = PySequence_Fast(seq, what);
  if (!f) return -1;
  *n = PySequence_Fast_GET_SIZE(f);
  if (!(*out = PyMem_Malloc((size_t)(*n ? *n : 1) * sizeof **out))) {
    Py_DECREF(f);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < *n; i++) {
    long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
    if (v == -1 && PyErr_Occurred()) {
      Py_DECREF(f);
      PyMem_Free(*out);
      *out = NULL;
      return -1;
    }
    (*out)[i] = (int32_t)v;
  }
  Py_DECREF(f);
  return 0;
}

static int as_init(ablp_sampler *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"dataset", "fanouts", "supervision_edge_type", "negative_edge_type",
                           "hard_negatives", "num_random_negatives", "strict", "seed", "replace",
                           "edge_dir", "edge_type_fanouts", NULL};
  PyObject *dsobj, *fan, *etf = Py_None;
  const char *sup = NULL, *neg = NULL, *edge_dir = "in";
  int hard = 1, strict = 1, replace = 0;
  long long k = 0;
  unsigned long long seed = 0;
  int32_t *f = NULL, *ef = NULL;
  Py_ssize_t nf = 0, nef = 0;
  fo_ablp_opts o;
  fo_dataset_t *d;
  int rc;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O|zzpLpKpsO:ABLPSampler", kwlist, &fopy_DatasetType,
                                   &dsobj, &fan, &sup, &neg, &hard, &k, &strict, &seed, &replace,
                                   &edge_dir, &etf))
    return -1;
  if (self->s) {
    PyErr_SetString(PyExc_RuntimeError, "ABLPSampler is already initialised");
    return -1;
  }
  if (!(d = fopy_dataset_get((fopy_dataset *)dsobj))) return -1;
  if (int_list(fan, "fanouts must be a sequence of ints", &f, &nf) < 0) return -1;
  if (etf != Py_None && int_list(etf, "edge_type_fanouts must be a sequence of ints", &ef, &nef) < 0) {
    PyMem_Free(f);
    return -1;
  }
  fo_ablp_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = (int32_t)nf;
  o.sampler.edge_type_fanouts = ef;
  o.sampler.seed = seed;
  o.sampler.replace = replace;
  if (!strcmp(edge_dir, "in")) o.sampler.edge_dir = FO_EDGE_DIR_IN;
  else if (!strcmp(edge_dir, "out")) o.sampler.edge_dir = FO_EDGE_DIR_OUT;
  else {
    PyMem_Free(f);
    PyMem_Free(ef);
    PyErr_Format(PyExc_ValueError, "edge_dir '%s' is not 'in' or 'out'", edge_dir);
    return -1;
  }
  o.supervision_edge_type = sup;
  o.negative_edge_type = neg;
  o.no_hard_negatives = !hard;
  o.num_random_negatives = k;
  o.strict = strict;
  rc = fo_ablp_sampler_create(d, &o, &self->s);
  PyMem_Free(f);
  PyMem_Free(ef);
  if (rc != FO_OK || (rc = fo_ablp_batch_create(&self->b)) != FO_OK) {
    fopy_raise(rc);
    return -1;
  }
  if (!(self->pin = fopy_pin_new((fopy_dataset *)dsobj))) return -1;
  pthread_mutex_init(&self->mu, NULL);
  self->mu_ready = 1;
  return 0;
}

static PyObject *copy_i64(const int64_t *a, int nd, npy_intp d0, npy_intp d1) {
  npy_intp dims[2] = {d0, d1};
  PyObject *r = PyArray_SimpleNew(nd, dims, NPY_INT64);
  if (r && d0 * (nd == 2 ? d1 : 1) > 0)
    memcpy(PyArray_DATA((PyArrayObject *)r), a, (size_t)(d0 * (nd == 2 ? d1 : 1)) * 8);
  return r;
}

static int put(PyObject *dict, const char *key, PyObject *v) {
  int r;
  if (!v) return -1;
  r = PyDict_SetItemString(dict, key, v);
  Py_DECREF(v);
  return r;
}

static PyObject *per_type(const fo_batch_t *s, bool edges, int what) {
  const int32_t n = edges ? s->n_edge_types : s->n_node_types;
  PyObject *l = PyList_New(n);
  if (!l) return NULL;
  for (int32_t t = 0; t < n; t++) {
    const fo_batch_t *b = edges ? fo_batch_edge_type(s, t) : fo_batch_node_type(s, t);
    PyObject *a;
    switch (what) {
    case 0: a = copy_i64(b->node, 1, b->n_nodes, 0); break;
    case 1: a = copy_i64(b->num_sampled_nodes, 1, b->n_hops + 1, 0); break;
    case 2: a = copy_i64(b->row, 1, b->n_edges, 0); break;
    case 3: a = copy_i64(b->col, 1, b->n_edges, 0); break;
    case 4: a = copy_i64(b->edge, 1, b->n_edges, 0); break;
    default: a = copy_i64(b->num_sampled_edges, 1, b->n_hops, 0); break;
    }
    if (!a) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, t, a);
  }
  return l;
}

/* An ABLP batch as a dict of new arrays (copies). */
static PyObject *ablp_dict(const fo_ablp_batch_t *b) {
  PyObject *out;
  if (!(out = PyDict_New())) return NULL;
  if (put(out, "node", per_type(b->sample, false, 0)) < 0 ||
      put(out, "num_sampled_nodes", per_type(b->sample, false, 1)) < 0 ||
      put(out, "row", per_type(b->sample, true, 2)) < 0 || put(out, "col", per_type(b->sample, true, 3)) < 0 ||
      put(out, "edge", per_type(b->sample, true, 4)) < 0 ||
      put(out, "num_sampled_edges", per_type(b->sample, true, 5)) < 0 ||
      put(out, "anchor_index", copy_i64(b->anchor_index, 1, b->n_anchors, 0)) < 0 ||
      put(out, "y_positive", copy_i64(b->y_positive, 2, 2, b->n_pos)) < 0 ||
      put(out, "y_negative", copy_i64(b->y_negative, 2, 2, b->n_neg)) < 0 ||
      put(out, "random_negative", copy_i64(b->random_negative, 2, b->n_anchors, b->k)) < 0 ||
      put(out, "num_random_missing", PyLong_FromLongLong(b->n_random_missing)) < 0 ||
      put(out, "num_distinct", PyLong_FromLongLong(b->n_distinct)) < 0 ||
      put(out, "anchor_type", PyLong_FromLong(b->anchor_type)) < 0 ||
      put(out, "label_type", PyLong_FromLong(b->label_type)) < 0 ||
      put(out, "positive_type", PyLong_FromLong(b->positive_type)) < 0 ||
      put(out, "negative_type", PyLong_FromLong(b->negative_type)) < 0)
    Py_CLEAR(out);
  return out;
}

static PyObject *as_sample(ablp_sampler *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"anchors", "epoch", "batch_index", NULL};
  PyObject *ao, *out = NULL;
  PyArrayObject *aa = NULL;
  unsigned long long epoch = 0, bi = 0;
  const fo_ablp_batch_t *b = self->b;
  int rc;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|KK:sample", kwlist, &ao, &epoch, &bi)) return NULL;
  if (!self->s) {
    PyErr_SetString(PyExc_RuntimeError, "ABLPSampler is not initialised");
    return NULL;
  }
  if (!(aa = (PyArrayObject *)PyArray_FROMANY(ao, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY))) {
    PyErr_SetString(PyExc_ValueError, "anchors must be a 1-D array of integers");
    return NULL;
  }
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->mu);
  rc = fo_ablp_sampler_sample(self->s, PyArray_DATA(aa), PyArray_DIM(aa, 0), epoch, bi, self->b);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK) {
    pthread_mutex_unlock(&self->mu);
    fopy_raise(rc);
    goto done;
  }
  out = ablp_dict(b);
  pthread_mutex_unlock(&self->mu);
done:
  Py_XDECREF(aa);
  return out;
}

/* label_edge_types(dataset): [(src, rel, dst, "positive" | "negative", num_edges)]. */
static PyObject *as_label_types(PyObject *cls, PyObject *dsobj) {
  fo_dataset_t *d;
  PyObject *l;
  (void)cls;
  if (!PyObject_TypeCheck(dsobj, &fopy_DatasetType)) {
    PyErr_SetString(PyExc_TypeError, "expected a fanout.Dataset");
    return NULL;
  }
  if (!(d = fopy_dataset_get((fopy_dataset *)dsobj))) return NULL;
  if (!(l = PyList_New(fo_dataset_num_label_edge_types(d)))) return NULL;
  for (int32_t i = 0; i < fo_dataset_num_label_edge_types(d); i++) {
    fo_edge_type ty;
    PyObject *t;
    fo_dataset_label_edge_type(d, i, &ty);
    if (!(t = Py_BuildValue("(ssssL)", ty.src, ty.rel, ty.dst,
                            ty.label == FO_LABEL_NEGATIVE ? "negative" : "positive",
                            (long long)ty.n_edges))) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, i, t);
  }
  return l;
}

static PyMethodDef as_methods[] = {
    {"sample", FOPY_METH(as_sample), METH_VARARGS | METH_KEYWORDS,
     "sample(anchors, epoch=0, batch_index=0)\n--\n\nOne ABLP batch as a dict of new arrays "
     "(node/row/col/edge per type as lists, anchor_index, y_positive [2, P], y_negative "
     "[2, N], random_negative [n, k], num_random_missing)."},
    {"label_edge_types", (PyCFunction)as_label_types, METH_O | METH_CLASS,
     "label_edge_types(dataset)\n--\n\nThe labels-only edge types: [(src, rel, dst, label, "
     "num_edges)]."},
    {NULL, NULL, 0, NULL}};

PyTypeObject fopy_ABLPSamplerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fanout._fanout.ABLPSampler",
    .tp_basicsize = sizeof(ablp_sampler),
    .tp_dealloc = (destructor)as_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "ABLPSampler(dataset, fanouts, supervision_edge_type=None, negative_edge_type=None, "
              "hard_negatives=True, num_random_negatives=0, strict=True, seed=0, replace=False, "
              "edge_dir='in', edge_type_fanouts=None): the C ABLP sampler (include/fanout/ablp.h).",
    .tp_methods = as_methods,
    .tp_init = (initproc)as_init,
    .tp_new = PyType_GenericNew,
};

/* ---- DistABLPLoader: fo_dist_ablp_loader_create (dist.h) for fanout.DistABLPLoader ---------- */

/* A distributed ABLP loader: this process's share of every epoch. next() makes the next batch
 * with the GIL released (remote LABEL, hop and feature requests) and returns it as the dict of
 * ABLPSampler.sample plus input_id, epoch, index, x (one array or None per node type, copies)
 * and traffic; None when the epoch is over. One call at a time (a mutex). It holds a pin on the
 * dataset and is a user of the context (finalize refuses while it exists). */
typedef struct dist_ablp_loader {
  PyObject_HEAD
  fo_ablp_loader_t *L;
  PyObject *pin;
  PyObject *dist;
  pthread_mutex_t mu;
  int mu_ready;
} dist_ablp_loader;

static void da_dealloc(dist_ablp_loader *self) {
  fo_ablp_loader_destroy(self->L); /* local memory only: no remote call */
  self->L = NULL;
  Py_XDECREF(self->pin);
  if (self->dist) {
    fopy_dist_use(self->dist, -1);
    Py_CLEAR(self->dist);
  }
  if (self->mu_ready) pthread_mutex_destroy(&self->mu);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int da_init(dist_ablp_loader *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"context", "dataset", "fanouts", "input_nodes", "supervision_edge_type",
                           "negative_edge_type", "hard_negatives", "num_random_negatives",
                           "strict", "seed", "replace", "edge_dir", "edge_type_fanouts",
                           "batch_size", "shuffle", "drop_last", "epoch", "features", "tail",
                           "seed_placement", "cache_bytes", "cache_policy", "lookahead", NULL};
  PyObject *ctx, *dsobj, *fan, *in_o, *etf = Py_None;
  PyArrayObject *in = NULL;
  const char *sup = NULL, *neg = NULL, *edge_dir = "in", *tail = "keep", *placement = "global",
             *cache_policy = "degree";
  int hard = 1, strict = 1, replace = 0, shuffle = 0, drop_last = 0, features = 1, lookahead = 8;
  long long k = 0, batch_size = 1, cache_bytes = 0;
  unsigned long long seed = 0, epoch = 0;
  int32_t *f = NULL, *ef = NULL;
  Py_ssize_t nf = 0, nef = 0;
  fo_ablp_loader_opts o;
  fo_dist_loader_opts dlo;
  fo_dataset_t *d;
  fo_dist_t *dd;
  int rc, ret = -1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO!OO|zzpLpKpsOLppKpssLsi:DistABLPLoader", kwlist,
                                   &ctx, &fopy_DatasetType, &dsobj, &fan, &in_o, &sup, &neg, &hard,
                                   &k, &strict, &seed, &replace, &edge_dir, &etf, &batch_size,
                                   &shuffle, &drop_last, &epoch, &features, &tail, &placement,
                                   &cache_bytes, &cache_policy, &lookahead))
    return -1;
  if (self->L) {
    PyErr_SetString(PyExc_RuntimeError, "DistABLPLoader is already initialised");
    return -1;
  }
  if (!(dd = fopy_dist_get(ctx)) || !(d = fopy_dataset_get((fopy_dataset *)dsobj))) return -1;
  fo_dist_loader_opts_init(&dlo);
  if (!strcmp(tail, "keep")) dlo.tail = FO_DIST_TAIL_KEEP;
  else if (!strcmp(tail, "drop")) dlo.tail = FO_DIST_TAIL_DROP;
  else if (!strcmp(tail, "pad")) dlo.tail = FO_DIST_TAIL_PAD;
  else {
    PyErr_Format(PyExc_ValueError, "tail: '%s' is not 'keep', 'drop' or 'pad'", tail);
    return -1;
  }
  if (!strcmp(placement, "global")) dlo.seed_placement = FO_DIST_SEEDS_GLOBAL;
  else if (!strcmp(placement, "local")) dlo.seed_placement = FO_DIST_SEEDS_LOCAL;
  else {
    PyErr_Format(PyExc_ValueError, "seed_placement: '%s' is not 'global' or 'local'", placement);
    return -1;
  }
  if (fopy_cache_opts(cache_bytes, cache_policy, lookahead, &dlo) < 0) return -1;
  if (!(in = (PyArrayObject *)PyArray_FROMANY(in_o, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY))) {
    PyErr_Clear();
    PyErr_SetString(PyExc_ValueError, "input_nodes: expected a 1-D array of int64");
    return -1;
  }
  if (int_list(fan, "fanouts must be a sequence of ints", &f, &nf) < 0) goto done;
  if (etf != Py_None && int_list(etf, "edge_type_fanouts must be a sequence of ints", &ef, &nef) < 0)
    goto done;
  fo_ablp_loader_opts_init(&o);
  o.ablp.sampler.fanouts = f;
  o.ablp.sampler.n_hops = (int32_t)nf;
  o.ablp.sampler.edge_type_fanouts = ef;
  o.ablp.sampler.seed = seed;
  o.ablp.sampler.replace = replace;
  if (!strcmp(edge_dir, "in")) o.ablp.sampler.edge_dir = FO_EDGE_DIR_IN;
  else if (!strcmp(edge_dir, "out")) o.ablp.sampler.edge_dir = FO_EDGE_DIR_OUT;
  else {
    PyErr_Format(PyExc_ValueError, "edge_dir '%s' is not 'in' or 'out'", edge_dir);
    goto done;
  }
  o.ablp.supervision_edge_type = sup;
  o.ablp.negative_edge_type = neg;
  o.ablp.no_hard_negatives = !hard;
  o.ablp.num_random_negatives = k;
  o.ablp.strict = strict;
  o.batch_size = batch_size;
  o.input_nodes = PyArray_DATA(in);
  o.n_input_nodes = PyArray_DIM(in, 0);
  o.shuffle = shuffle;
  o.drop_last = drop_last;
  o.epoch = epoch;
  o.features = features;
  /* collective (the options' check): no finalize from another thread meanwhile */
  fopy_dist_use(ctx, +1);
  Py_BEGIN_ALLOW_THREADS
  rc = fo_dist_ablp_loader_create(dd, d, &o, &dlo, &self->L);
  Py_END_ALLOW_THREADS
  fopy_dist_use(ctx, -1);
  if (rc != FO_OK) {
    fopy_raise(rc);
    goto done;
  }
  if (!(self->pin = fopy_pin_new((fopy_dataset *)dsobj))) goto done;
  Py_INCREF(ctx);
  self->dist = ctx;
  fopy_dist_use(ctx, +1);
  pthread_mutex_init(&self->mu, NULL);
  self->mu_ready = 1;
  ret = 0;
done:
  PyMem_Free(f);
  PyMem_Free(ef);
  Py_XDECREF(in);
  return ret;
}

static int da_ready(dist_ablp_loader *self) {
  if (self->L) return 0;
  PyErr_SetString(PyExc_RuntimeError, "DistABLPLoader is not initialised");
  return -1;
}

static PyObject *da_features(const fo_ablp_loader_batch_t *b) {
  PyObject *l = PyList_New(b->n_node_types);
  if (!l) return NULL;
  for (int32_t t = 0; t < b->n_node_types; t++) {
    const fo_loader_features *f = &b->x[t];
    const fo_batch_t *nb = fo_batch_node_type(b->ablp->sample, t);
    PyObject *a;
    if (!f->x) {
      Py_INCREF(Py_None);
      a = Py_None;
    } else {
      npy_intp dims[2] = {nb->n_nodes, f->dim};
      const int typenum = fopy_feature_typenum(f->dtype);
      if (typenum < 0) {
        Py_DECREF(l);
        PyErr_Format(PyExc_RuntimeError, "ABLP batch x: unknown dtype '%s'", f->dtype);
        return NULL;
      }
      if ((a = PyArray_SimpleNew(2, dims, typenum)) && dims[0] * dims[1] > 0)
        memcpy(PyArray_DATA((PyArrayObject *)a), f->x, (size_t)(dims[0] * f->dim * f->itemsize));
    }
    if (!a) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, t, a);
  }
  return l;
}

static PyObject *da_next(dist_ablp_loader *self, PyObject *unused) {
  fo_ablp_loader_batch_t *b = NULL;
  fo_dist_batch_stats st;
  PyObject *out = NULL;
  long long hops = 0, hop_bytes = 0;
  int rc;
  if (da_ready(self) < 0) return NULL;
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->mu);
  rc = fo_ablp_loader_next(self->L, &b);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK || !b) {
    pthread_mutex_unlock(&self->mu);
    if (rc != FO_OK) return fopy_raise(rc);
    Py_RETURN_NONE;
  }
  fo_dist_ablp_loader_stats(self->L, &st);
  for (int h = 0; h < 64; h++) {
    hops += st.hop_requests[h];
    hop_bytes += st.hop_bytes[h];
  }
  if ((out = ablp_dict(b->ablp)) &&
      (put(out, "input_id", copy_i64(b->input_id, 1, b->ablp->n_anchors, 0)) < 0 ||
       put(out, "epoch", PyLong_FromUnsignedLongLong(b->epoch)) < 0 ||
       put(out, "index", PyLong_FromLongLong(b->index)) < 0 || put(out, "x", da_features(b)) < 0 ||
       put(out, "traffic", Py_BuildValue("{s:L,s:L,s:L,s:L,s:L,s:L}", "label_requests",
                                         (long long)st.label_requests, "label_bytes",
                                         (long long)st.label_bytes, "hop_requests", hops,
                                         "hop_bytes", hop_bytes, "fetch_requests",
                                         (long long)st.fetch_requests, "fetch_bytes",
                                         (long long)st.fetch_bytes)) < 0))
    Py_CLEAR(out);
  pthread_mutex_unlock(&self->mu);
  return out;
}

static PyObject *da_start_epoch(dist_ablp_loader *self, PyObject *args) {
  unsigned long long epoch;
  int rc;
  if (!PyArg_ParseTuple(args, "K:start_epoch", &epoch) || da_ready(self) < 0) return NULL;
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->mu);
  rc = fo_ablp_loader_start_epoch(self->L, epoch);
  pthread_mutex_unlock(&self->mu);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK) return fopy_raise(rc);
  Py_RETURN_NONE;
}

static PyObject *da_num_batches(dist_ablp_loader *self, PyObject *unused) {
  int64_t n;
  if (da_ready(self) < 0) return NULL;
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->mu);
  n = fo_ablp_loader_num_batches(self->L);
  pthread_mutex_unlock(&self->mu);
  Py_END_ALLOW_THREADS
  return PyLong_FromLongLong(n);
}

/* (anchor type, label type, positive type, negative type) of the loader's sampler. */
static PyObject *da_types(dist_ablp_loader *self, PyObject *unused) {
  const fo_ablp_sampler_t *s;
  if (da_ready(self) < 0) return NULL;
  s = fo_ablp_loader_sampler(self->L);
  return Py_BuildValue("(iii)", (int)fo_ablp_sampler_anchor_type(s),
                       (int)fo_ablp_sampler_positive_type(s), (int)fo_ablp_sampler_negative_type(s));
}

static PyMethodDef da_methods[] = {
    {"next", FOPY_METH(da_next), METH_NOARGS,
     "next()\n--\n\nThis process's next batch of the epoch as a dict (ABLPSampler.sample's keys "
     "plus input_id, epoch, index, x: a list of one array or None per node type, traffic: the "
     "batch's remote requests and bytes), or None when the epoch is over."},
    {"start_epoch", FOPY_METH(da_start_epoch), METH_VARARGS,
     "start_epoch(epoch)\n--\n\nStart `epoch` (reshuffled when shuffle) at this process's first "
     "batch."},
    {"num_batches", FOPY_METH(da_num_batches), METH_NOARGS,
     "num_batches()\n--\n\nThis process's batches per epoch."},
    {"types", FOPY_METH(da_types), METH_NOARGS,
     "types()\n--\n\n(anchor node type, positive labels-only type, negative labels-only type or "
     "-1) as indices."},
    {NULL, NULL, 0, NULL}};

PyTypeObject fopy_DistABLPLoaderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fanout._fanout.DistABLPLoader",
    .tp_basicsize = sizeof(dist_ablp_loader),
    .tp_dealloc = (destructor)da_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "DistABLPLoader(context, dataset, fanouts, input_nodes, ...): the distributed ABLP "
              "loader (fo_dist_ablp_loader_create, include/fanout/dist.h); collective. Use "
              "fanout.DistABLPLoader.",
    .tp_methods = da_methods,
    .tp_init = (initproc)da_init,
    .tp_new = PyType_GenericNew,
};
