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
  fopy_holder h;
} ablp_sampler;

static void as_dealloc(ablp_sampler *self) {
  fo_ablp_sampler_destroy(self->s);
  fo_ablp_batch_destroy(self->b);
  fopy_holder_fini(&self->h);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int as_init(ablp_sampler *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"dataset", "fanouts", "supervision_edge_type", "negative_edge_type",
                           "hard_negatives", "num_random_negatives", "strict", "seed", "replace",
                           "edge_dir", "edge_type_fanouts", "weighted", NULL};
  PyObject *dsobj, *fan, *etf = Py_None;
  const char *sup = NULL, *neg = NULL, *edge_dir = "in";
  int hard = 1, strict = 1, replace = 0, weighted = 0;
  long long k = 0;
  unsigned long long seed = 0;
  fo_ablp_opts o;
  fo_dataset_t *d;
  int rc;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O|zzpLpKpsOp:ABLPSampler", kwlist, &fopy_DatasetType,
                                   &dsobj, &fan, &sup, &neg, &hard, &k, &strict, &seed, &replace,
                                   &edge_dir, &etf, &weighted))
    return -1;
  if (self->s) {
    PyErr_SetString(PyExc_RuntimeError, "ABLPSampler is already initialised");
    return -1;
  }
  if (!(d = fopy_dataset_get((fopy_dataset *)dsobj))) return -1;
  fo_ablp_opts_init(&o);
  if (fopy_sampler_args(fan, etf, seed, replace, weighted, edge_dir, &o.sampler) < 0) return -1;
  o.supervision_edge_type = sup;
  o.negative_edge_type = neg;
  o.no_hard_negatives = !hard;
  o.num_random_negatives = k;
  o.strict = strict;
  rc = fo_ablp_sampler_create(d, &o, &self->s);
  fopy_sampler_args_free(&o.sampler);
  if (rc != FO_OK || (rc = fo_ablp_batch_create(&self->b)) != FO_OK) {
    fopy_raise(rc);
    return -1;
  }
  if (fopy_holder_set(&self->h, dsobj, NULL) < 0) return -1;
  return 0;
}

/* An ABLP batch as a dict of new arrays (copies). */
static PyObject *ablp_dict(const fo_ablp_batch_t *b) {
  PyObject *out;
  if (!(out = PyDict_New())) return NULL;
  if (fopy_put_sample(out, b->sample, false) < 0 ||
      fopy_put(out, "anchor_index", fopy_copy_i64(b->anchor_index, 1, b->n_anchors, 0)) < 0 ||
      fopy_put(out, "y_positive", fopy_copy_i64(b->y_positive, 2, 2, b->n_pos)) < 0 ||
      fopy_put(out, "y_negative", fopy_copy_i64(b->y_negative, 2, 2, b->n_neg)) < 0 ||
      fopy_put(out, "random_negative", fopy_copy_i64(b->random_negative, 2, b->n_anchors, b->k)) < 0 ||
      fopy_put(out, "num_random_missing", PyLong_FromLongLong(b->n_random_missing)) < 0 ||
      fopy_put(out, "num_distinct", PyLong_FromLongLong(b->n_distinct)) < 0 ||
      fopy_put(out, "anchor_type", PyLong_FromLong(b->anchor_type)) < 0 ||
      fopy_put(out, "label_type", PyLong_FromLong(b->label_type)) < 0 ||
      fopy_put(out, "positive_type", PyLong_FromLong(b->positive_type)) < 0 ||
      fopy_put(out, "negative_type", PyLong_FromLong(b->negative_type)) < 0)
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
  pthread_mutex_lock(&self->h.mu);
  rc = fo_ablp_sampler_sample(self->s, PyArray_DATA(aa), PyArray_DIM(aa, 0), epoch, bi, self->b);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK) {
    pthread_mutex_unlock(&self->h.mu);
    fopy_raise(rc);
    goto done;
  }
  out = ablp_dict(b);
  pthread_mutex_unlock(&self->h.mu);
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
              "edge_dir='in', edge_type_fanouts=None, weighted=False): the C ABLP sampler (include/fanout/ablp.h).",
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
  fopy_holder h;
} dist_ablp_loader;

static void da_dealloc(dist_ablp_loader *self) {
  fo_ablp_loader_destroy(self->L); /* local memory only: no remote call */
  self->L = NULL;
  fopy_holder_fini(&self->h);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int da_init(dist_ablp_loader *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"context", "dataset", "fanouts", "input_nodes", "supervision_edge_type",
                           "negative_edge_type", "hard_negatives", "num_random_negatives",
                           "strict", "seed", "replace", "edge_dir", "edge_type_fanouts",
                           "batch_size", "shuffle", "drop_last", "epoch", "features", "tail",
                           "seed_placement", "cache_bytes", "cache_policy", "lookahead",
                           "weighted", "pipeline", NULL};
  PyObject *ctx, *dsobj, *fan, *in_o, *etf = Py_None;
  PyArrayObject *in = NULL;
  const char *sup = NULL, *neg = NULL, *edge_dir = "in", *tail = "keep", *placement = "global",
             *cache_policy = "degree";
  int hard = 1, strict = 1, replace = 0, shuffle = 0, drop_last = 0, features = 1, lookahead = 8;
  int weighted = 0, pipeline = 0;
  long long k = 0, batch_size = 1, cache_bytes = 0;
  unsigned long long seed = 0, epoch = 0;
  fo_ablp_loader_opts o;
  fo_dist_loader_opts dlo;
  fo_dataset_t *d;
  fo_dist_t *dd;
  int rc, ret = -1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO!OO|zzpLpKpsOLppKpssLsipi:DistABLPLoader", kwlist,
                                   &ctx, &fopy_DatasetType, &dsobj, &fan, &in_o, &sup, &neg, &hard,
                                   &k, &strict, &seed, &replace, &edge_dir, &etf, &batch_size,
                                   &shuffle, &drop_last, &epoch, &features, &tail, &placement,
                                   &cache_bytes, &cache_policy, &lookahead, &weighted,
                                   &pipeline))
    return -1;
  if (self->L) {
    PyErr_SetString(PyExc_RuntimeError, "DistABLPLoader is already initialised");
    return -1;
  }
  if (!(dd = fopy_dist_get(ctx)) || !(d = fopy_dataset_get((fopy_dataset *)dsobj))) return -1;
  if (fopy_dist_loader_args(tail, placement, &dlo) < 0) return -1;
  if (fopy_cache_opts(cache_bytes, cache_policy, lookahead, &dlo) < 0) return -1;
  dlo.pipeline = pipeline;
  if (!(in = (PyArrayObject *)PyArray_FROMANY(in_o, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY))) {
    PyErr_Clear();
    PyErr_SetString(PyExc_ValueError, "input_nodes: expected a 1-D array of int64");
    return -1;
  }
  fo_ablp_loader_opts_init(&o); /* before the first goto done */
  if (fopy_sampler_args(fan, etf, seed, replace, weighted, edge_dir, &o.ablp.sampler) < 0) goto done;
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
  if (fopy_holder_set(&self->h, dsobj, ctx) < 0) goto done;
  ret = 0;
done:
  fopy_sampler_args_free(&o.ablp.sampler);
  Py_XDECREF(in);
  return ret;
}

static int da_ready(dist_ablp_loader *self) {
  if (self->L) return 0;
  PyErr_SetString(PyExc_RuntimeError, "DistABLPLoader is not initialised");
  return -1;
}

static PyObject *da_next(dist_ablp_loader *self, PyObject *unused) {
  fo_ablp_loader_batch_t *b = NULL;
  fo_dist_batch_stats st;
  PyObject *out = NULL;
  long long hops, hop_bytes;
  int rc;
  if (da_ready(self) < 0) return NULL;
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->h.mu);
  rc = fo_ablp_loader_next(self->L, &b);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK || !b) {
    pthread_mutex_unlock(&self->h.mu);
    if (rc != FO_OK) return fopy_raise(rc);
    Py_RETURN_NONE;
  }
  fo_dist_ablp_loader_stats(self->L, &st);
  fopy_hop_traffic(&st, &hops, &hop_bytes);
  if ((out = ablp_dict(b->ablp)) &&
      (fopy_put(out, "input_id", fopy_copy_i64(b->input_id, 1, b->ablp->n_anchors, 0)) < 0 ||
       fopy_put(out, "epoch", PyLong_FromUnsignedLongLong(b->epoch)) < 0 ||
       fopy_put(out, "index", PyLong_FromLongLong(b->index)) < 0 || fopy_put(out, "x", fopy_batch_features(b->ablp->sample, b->x, b->n_node_types, "ABLP")) < 0 ||
       fopy_put(out, "traffic", Py_BuildValue("{s:L,s:L,s:L,s:L,s:L,s:L}", "label_requests",
                                         (long long)st.label_requests, "label_bytes",
                                         (long long)st.label_bytes, "hop_requests", hops,
                                         "hop_bytes", hop_bytes, "fetch_requests",
                                         (long long)st.fetch_requests, "fetch_bytes",
                                         (long long)st.fetch_bytes)) < 0))
    Py_CLEAR(out);
  pthread_mutex_unlock(&self->h.mu);
  return out;
}

static int start_epoch(void *L, uint64_t epoch) { return fo_ablp_loader_start_epoch(L, epoch); }
static int64_t num_batches(const void *L) { return fo_ablp_loader_num_batches(L); }

static PyObject *da_start_epoch(dist_ablp_loader *self, PyObject *args) {
  return fopy_holder_start_epoch(&self->h, args, "DistABLPLoader", start_epoch, self->L);
}

static PyObject *da_num_batches(dist_ablp_loader *self, PyObject *unused) {
  return fopy_holder_num_batches(&self->h, "DistABLPLoader", num_batches, self->L);
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
