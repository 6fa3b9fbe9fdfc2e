/*
 * python/src/link.c: `LinkSampler`, the link sampler (fo_link_sampler_t, include/fanout/link.h)
 * for fanout.LinkNeighborLoader: sample(src, dst, label, epoch, batch_index) makes one link
 * batch with the GIL released and returns it as a dict of new NumPy arrays (copies: the batch
 * is reused by the next call). One call at a time per sampler (a mutex); the sampler holds a
 * pin on the dataset.
 */
#include "pyfanout.h"

typedef struct link_sampler {
  PyObject_HEAD
  fo_link_sampler_t *s;
  fo_link_batch_t *b;
  const fo_dataset_t *d;
  fopy_holder h;
} link_sampler;

static void ls_dealloc(link_sampler *self) {
  fo_link_sampler_destroy(self->s);
  fo_link_batch_destroy(self->b);
  fopy_holder_fini(&self->h);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ls_init(link_sampler *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"dataset", "fanouts", "edge_type", "neg", "neg_amount", "strict",
                           "exclude_seed_edges", "seed", "replace", "edge_dir",
                           "edge_type_fanouts", "disjoint", "temporal", "time_attr",
                           "time_strict", "time_window", "weighted", NULL};
  PyObject *dsobj, *fan, *etf = Py_None;
  const char *edge_type = NULL, *edge_dir = "in";
  int neg = 0, strict = 1, excl = 0, replace = 0, disjoint = 0, temporal = 0, time_attr = 0;
  int time_strict = 0, weighted = 0;
  long long time_window = -1;
  double amount = 1.0;
  unsigned long long seed = 0;
  fo_link_opts o;
  fo_dataset_t *d;
  int rc;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O|zidppKpsOpiipLp:LinkSampler", kwlist,
                                   &fopy_DatasetType, &dsobj, &fan, &edge_type, &neg, &amount,
                                   &strict, &excl, &seed, &replace, &edge_dir, &etf, &disjoint,
                                   &temporal, &time_attr, &time_strict, &time_window, &weighted))
    return -1;
  if (self->s) {
    PyErr_SetString(PyExc_RuntimeError, "LinkSampler is already initialised");
    return -1;
  }
  if (!(d = fopy_dataset_get((fopy_dataset *)dsobj))) return -1;
  fo_link_opts_init(&o);
  if (fopy_sampler_args(fan, etf, seed, replace, weighted, edge_dir, &o.sampler) < 0) return -1;
  o.sampler.disjoint = disjoint;
  o.sampler.temporal = (fo_temporal_strategy)temporal;
  o.sampler.time_attr = (fo_time_attr)time_attr;
  o.sampler.time_strict = time_strict;
  o.sampler.time_window = (int64_t)time_window;
  o.edge_type = edge_type;
  o.neg = (fo_neg_mode)neg;
  o.neg_amount = amount;
  o.strict = strict;
  o.exclude_seed_edges = excl;
  rc = fo_link_sampler_create(d, &o, &self->s);
  fopy_sampler_args_free(&o.sampler);
  if (rc != FO_OK) {
    fopy_raise(rc);
    return -1;
  }
  if ((rc = fo_link_batch_create(&self->b)) != FO_OK) {
    fopy_raise(rc);
    return -1;
  }
  if (fopy_holder_set(&self->h, dsobj, NULL) < 0) return -1;
  self->d = d;
  return 0;
}

/* The dict of one link batch (new arrays: copies), or NULL with an exception. */
static PyObject *link_dict(const fo_link_batch_t *lb) {
  PyObject *out = PyDict_New();
  if (!out) return NULL;
  if (fopy_put_sample(out, lb->sample, true) < 0 ||
      fopy_put(out, "edge_label_index", fopy_copy_i64(lb->edge_label_index, 2, 2, lb->n_label)) < 0 ||
      fopy_put(out, "edge_label", fopy_copy_i64(lb->edge_label, 1, lb->n_label, 0)) < 0 ||
      fopy_put(out, "num_neg", PyLong_FromLongLong(lb->n_neg)) < 0 ||
      fopy_put(out, "num_neg_missing", PyLong_FromLongLong(lb->n_neg_missing)) < 0 ||
      fopy_put(out, "num_excluded", PyLong_FromLongLong(lb->n_excluded)) < 0 ||
      fopy_put(out, "edge_type", PyLong_FromLong(lb->edge_type)) < 0 ||
      fopy_put(out, "src_type", PyLong_FromLong(lb->src_type)) < 0 ||
      fopy_put(out, "dst_type", PyLong_FromLong(lb->dst_type)) < 0)
    goto fail;
  if (lb->k && (fopy_put(out, "src_index", fopy_copy_i64(lb->src_index, 1, lb->n_pos, 0)) < 0 ||
                fopy_put(out, "dst_pos_index", fopy_copy_i64(lb->dst_pos_index, 1, lb->n_pos, 0)) < 0 ||
                fopy_put(out, "dst_neg_index", fopy_copy_i64(lb->dst_neg_index, 2, lb->n_pos, lb->k)) < 0))
    goto fail;
  return out;
fail:
  Py_DECREF(out);
  return NULL;
}

static PyArrayObject *as_i64(PyObject *o, const char *what) {
  PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(o, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY);
  if (!a) PyErr_Format(PyExc_ValueError, "%s must be a 1-D array of integers", what);
  return a;
}

static PyObject *ls_sample(link_sampler *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"src", "dst", "label", "epoch", "batch_index", "time", NULL};
  PyObject *so, *dobj, *lo = Py_None, *to = Py_None, *out = NULL;
  PyArrayObject *sa = NULL, *da = NULL, *la = NULL, *ta = NULL;
  unsigned long long epoch = 0, bi = 0;
  const fo_link_batch_t *lb = self->b;
  int64_t n;
  int rc;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OKKO:sample", kwlist, &so, &dobj, &lo, &epoch, &bi, &to))
    return NULL;
  if (!self->s) {
    PyErr_SetString(PyExc_RuntimeError, "LinkSampler is not initialised");
    return NULL;
  }
  if (!(sa = as_i64(so, "src")) || !(da = as_i64(dobj, "dst"))) goto done;
  if (lo != Py_None && !(la = as_i64(lo, "label"))) goto done;
  if (to != Py_None && !(ta = as_i64(to, "time"))) goto done;
  n = PyArray_DIM(sa, 0);
  if (PyArray_DIM(da, 0) != n || (la && PyArray_DIM(la, 0) != n) || (ta && PyArray_DIM(ta, 0) != n)) {
    PyErr_Format(PyExc_ValueError, "src, dst (and label) must have the same length (%lld, %lld)",
                 (long long)n, (long long)PyArray_DIM(da, 0));
    goto done;
  }
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->h.mu);
  rc = fo_link_sampler_sample_at(self->s, PyArray_DATA(sa), PyArray_DATA(da),
                                 la ? PyArray_DATA(la) : NULL, ta ? PyArray_DATA(ta) : NULL, n,
                                 epoch, bi, self->b);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK) {
    pthread_mutex_unlock(&self->h.mu);
    fopy_raise(rc);
    goto done;
  }
  out = link_dict(lb);
  pthread_mutex_unlock(&self->h.mu);
done:
  Py_XDECREF(sa);
  Py_XDECREF(da);
  Py_XDECREF(la);
  Py_XDECREF(ta);
  return out;
}

static PyMethodDef ls_methods[] = {
    {"sample", FOPY_METH(ls_sample), METH_VARARGS | METH_KEYWORDS,
     "sample(src, dst, label=None, epoch=0, batch_index=0, time=None)\n--\n\nOne link batch as a dict of "
     "new arrays (node/row/col/edge per type as lists, edge_label_index [2, L], edge_label, "
     "src_index/dst_pos_index/dst_neg_index for triplet, num_neg, num_neg_missing, "
     "num_excluded)."},
    {NULL, NULL, 0, NULL}};

PyTypeObject fopy_LinkSamplerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fanout._fanout.LinkSampler",
    .tp_basicsize = sizeof(link_sampler),
    .tp_dealloc = (destructor)ls_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "LinkSampler(dataset, fanouts, edge_type=None, neg=0, neg_amount=1.0, strict=True, "
              "exclude_seed_edges=False, seed=0, replace=False, edge_dir='in', "
              "edge_type_fanouts=None, ..., weighted=False): the C link sampler "
              "(include/fanout/link.h).",
    .tp_methods = ls_methods,
    .tp_init = (initproc)ls_init,
    .tp_new = PyType_GenericNew,
};

/* ---- DistLinkLoader: fo_dist_link_loader_create (dist.h) for fanout.DistLinkNeighborLoader -- */

/* A distributed link loader: this process's share of every epoch. next() makes the next batch
 * with the GIL released (remote LINK, hop and feature requests) and returns it as the dict of
 * LinkSampler.sample plus input_id, epoch, index, x (one array or None per node type, copies)
 * and traffic (the batch's remote requests); None when the epoch is over. One call at a time
 * (a mutex). It holds a pin on the dataset and is a user of the context (finalize refuses
 * while it exists). */
typedef struct dist_link_loader {
  PyObject_HEAD
  fo_link_loader_t *L;
  fopy_holder h;
} dist_link_loader;

static void dl_dealloc(dist_link_loader *self) {
  fo_link_loader_destroy(self->L); /* local memory only: no remote call */
  self->L = NULL;
  fopy_holder_fini(&self->h);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* `o` as a C-contiguous int64 array of `nd` dims (None: NULL, no error); -1 with an exception. */
static int dl_array(PyObject *o, int nd, const char *what, PyArrayObject **out) {
  *out = NULL;
  if (o == Py_None) return 0;
  if (!(*out = (PyArrayObject *)PyArray_FROMANY(o, NPY_INT64, nd, nd, NPY_ARRAY_IN_ARRAY))) {
    PyErr_Clear();
    PyErr_Format(PyExc_ValueError, "%s: expected a %d-D array of int64", what, nd);
    return -1;
  }
  return 0;
}

static int dl_init(dist_link_loader *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"context", "dataset", "fanouts", "edge_type", "neg", "neg_amount",
                           "strict", "exclude_seed_edges", "seed", "replace", "edge_dir",
                           "edge_type_fanouts", "disjoint", "temporal", "time_attr",
                           "edge_label_index", "edge_label", "edge_label_time", "edge_split",
                           "batch_size", "shuffle", "drop_last", "epoch", "features", "tail",
                           "seed_placement", "cache_bytes", "pipeline", "cache_policy",
                           "lookahead", "weighted", NULL};
  PyObject *ctx, *dsobj, *fan, *etf = Py_None, *eli_o = Py_None, *lab_o = Py_None,
           *time_o = Py_None;
  PyArrayObject *eli = NULL, *lab = NULL, *tim = NULL;
  const char *edge_type = NULL, *edge_dir = "in", *edge_split = NULL, *tail = "keep",
             *placement = "global", *cache_policy = "degree";
  int neg = 0, strict = 1, excl = 0, replace = 0, disjoint = 0, temporal = 0, time_attr = 0;
  int shuffle = 0, drop_last = 0, features = 1, pipeline = 0, lookahead = 8, weighted = 0;
  long long batch_size = 1, cache_bytes = 0;
  double amount = 1.0;
  unsigned long long seed = 0, epoch = 0;
  fo_link_loader_opts o;
  fo_dist_loader_opts dlo;
  fo_dataset_t *d;
  fo_dist_t *dd;
  int rc = FO_OK, ret = -1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO!O|zidppKpsOpiiOOOzLppKpssLisip:DistLinkLoader",
                                   kwlist, &ctx, &fopy_DatasetType, &dsobj, &fan, &edge_type,
                                   &neg, &amount, &strict, &excl, &seed, &replace, &edge_dir, &etf,
                                   &disjoint, &temporal, &time_attr, &eli_o, &lab_o, &time_o,
                                   &edge_split, &batch_size, &shuffle, &drop_last, &epoch,
                                   &features, &tail, &placement, &cache_bytes, &pipeline,
                                   &cache_policy, &lookahead, &weighted))
    return -1;
  if (self->L) {
    PyErr_SetString(PyExc_RuntimeError, "DistLinkLoader is already initialised");
    return -1;
  }
  if (!(dd = fopy_dist_get(ctx)) || !(d = fopy_dataset_get((fopy_dataset *)dsobj))) return -1;
  if (fopy_dist_loader_args(tail, placement, &dlo) < 0) return -1;
  if (fopy_cache_opts(cache_bytes, cache_policy, lookahead, &dlo) < 0) return -1;
  dlo.pipeline = pipeline;
  fo_link_loader_opts_init(&o); /* before the first goto done */
  if (dl_array(eli_o, 2, "edge_label_index", &eli) < 0 || dl_array(lab_o, 1, "edge_label", &lab) < 0 ||
      dl_array(time_o, 1, "edge_label_time", &tim) < 0)
    goto done;
  if (eli && PyArray_DIM(eli, 0) != 2) {
    PyErr_Format(PyExc_ValueError, "edge_label_index: expected shape [2, B], got [%lld, %lld]",
                 (long long)PyArray_DIM(eli, 0), (long long)PyArray_DIM(eli, 1));
    goto done;
  }
  if ((lab && (!eli || PyArray_DIM(lab, 0) != PyArray_DIM(eli, 1))) ||
      (tim && eli && PyArray_DIM(tim, 0) != PyArray_DIM(eli, 1))) {
    PyErr_Format(PyExc_ValueError, "%s: expected one value per seed edge (%lld)",
                 lab && (!eli || PyArray_DIM(lab, 0) != PyArray_DIM(eli, 1)) ? "edge_label"
                                                                              : "edge_label_time",
                 eli ? (long long)PyArray_DIM(eli, 1) : 0LL);
    goto done;
  }
  if (fopy_sampler_args(fan, etf, seed, replace, weighted, edge_dir, &o.link.sampler) < 0) goto done;
  o.link.sampler.disjoint = disjoint;
  o.link.sampler.temporal = (fo_temporal_strategy)temporal;
  o.link.sampler.time_attr = (fo_time_attr)time_attr;
  o.link.edge_type = edge_type;
  o.link.neg = (fo_neg_mode)neg;
  o.link.neg_amount = amount;
  o.link.strict = strict;
  o.link.exclude_seed_edges = excl;
  o.batch_size = batch_size;
  o.edge_label_index = eli ? PyArray_DATA(eli) : NULL;
  o.n_edges = eli ? PyArray_DIM(eli, 1) : 0;
  o.edge_label = lab ? PyArray_DATA(lab) : NULL;
  o.edge_label_time = tim ? PyArray_DATA(tim) : NULL;
  o.edge_split = edge_split;
  o.shuffle = shuffle;
  o.drop_last = drop_last;
  o.epoch = epoch;
  o.features = features;
  /* collective (the options' check): no finalize from another thread meanwhile */
  fopy_dist_use(ctx, +1);
  Py_BEGIN_ALLOW_THREADS
  rc = fo_dist_link_loader_create(dd, d, &o, &dlo, &self->L);
  Py_END_ALLOW_THREADS
  fopy_dist_use(ctx, -1);
  if (rc != FO_OK) {
    fopy_raise(rc);
    goto done;
  }
  if (fopy_holder_set(&self->h, dsobj, ctx) < 0) goto done;
  ret = 0;
done:
  fopy_sampler_args_free(&o.link.sampler);
  Py_XDECREF(eli);
  Py_XDECREF(lab);
  Py_XDECREF(tim);
  return ret;
}

static int dl_ready(dist_link_loader *self) {
  if (self->L) return 0;
  PyErr_SetString(PyExc_RuntimeError, "DistLinkLoader is not initialised");
  return -1;
}

/* The batch's remote traffic (fo_dist_link_loader_stats) as a dict. */
static PyObject *dl_traffic(const fo_dist_batch_stats *st) {
  long long hops, hop_bytes;
  fopy_hop_traffic(st, &hops, &hop_bytes);
  return Py_BuildValue("{s:L,s:L,s:L,s:L,s:L,s:L,s:L}", "link_requests",
                       (long long)st->link_requests, "link_bytes", (long long)st->link_bytes,
                       "link_rounds", (long long)st->link_rounds, "hop_requests", hops,
                       "hop_bytes", hop_bytes, "fetch_requests", (long long)st->fetch_requests,
                       "fetch_bytes", (long long)st->fetch_bytes);
}

static PyObject *dl_next(dist_link_loader *self, PyObject *unused) {
  fo_link_loader_batch_t *b = NULL;
  fo_dist_batch_stats st;
  PyObject *out = NULL;
  int rc;
  if (dl_ready(self) < 0) return NULL;
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->h.mu);
  rc = fo_link_loader_next(self->L, &b);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK || !b) {
    pthread_mutex_unlock(&self->h.mu);
    if (rc != FO_OK) return fopy_raise(rc);
    Py_RETURN_NONE;
  }
  fo_dist_link_loader_stats(self->L, &st);
  if ((out = link_dict(b->link)) &&
      (fopy_put(out, "input_id", fopy_copy_i64(b->input_id, 1, b->link->n_pos, 0)) < 0 ||
       fopy_put(out, "epoch", PyLong_FromUnsignedLongLong(b->epoch)) < 0 ||
       fopy_put(out, "index", PyLong_FromLongLong(b->index)) < 0 ||
       fopy_put(out, "x", fopy_batch_features(b->link->sample, b->x, b->n_node_types, "link")) < 0 || fopy_put(out, "traffic", dl_traffic(&st)) < 0))
    Py_CLEAR(out);
  pthread_mutex_unlock(&self->h.mu);
  return out;
}

static int start_epoch(void *L, uint64_t epoch) { return fo_link_loader_start_epoch(L, epoch); }
static int64_t num_batches(const void *L) { return fo_link_loader_num_batches(L); }

static PyObject *dl_start_epoch(dist_link_loader *self, PyObject *args) {
  return fopy_holder_start_epoch(&self->h, args, "DistLinkLoader", start_epoch, self->L);
}

static PyObject *dl_num_batches(dist_link_loader *self, PyObject *unused) {
  return fopy_holder_num_batches(&self->h, "DistLinkLoader", num_batches, self->L);
}

static PyMethodDef dl_methods[] = {
    {"next", FOPY_METH(dl_next), METH_NOARGS,
     "next()\n--\n\nThis process's next batch of the epoch as a dict (LinkSampler.sample's keys "
     "plus input_id, epoch, index, x: a list of one array or None per node type, traffic: the "
     "batch's remote requests and bytes), or None when the epoch is over."},
    {"start_epoch", FOPY_METH(dl_start_epoch), METH_VARARGS,
     "start_epoch(epoch)\n--\n\nStart `epoch` (reshuffled when shuffle) at this process's first "
     "batch."},
    {"num_batches", FOPY_METH(dl_num_batches), METH_NOARGS,
     "num_batches()\n--\n\nThis process's batches per epoch."},
    {NULL, NULL, 0, NULL}};

PyTypeObject fopy_DistLinkLoaderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fanout._fanout.DistLinkLoader",
    .tp_basicsize = sizeof(dist_link_loader),
    .tp_dealloc = (destructor)dl_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "DistLinkLoader(context, dataset, fanouts, ...): the distributed link loader "
              "(fo_dist_link_loader_create, include/fanout/dist.h); collective. Use "
              "fanout.DistLinkNeighborLoader.",
    .tp_methods = dl_methods,
    .tp_init = (initproc)dl_init,
    .tp_new = PyType_GenericNew,
};
