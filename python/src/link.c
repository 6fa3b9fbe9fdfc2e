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
  PyObject *pin;
  const fo_dataset_t *d;
  pthread_mutex_t mu;
  int mu_ready;
} link_sampler;

static void ls_dealloc(link_sampler *self) {
  fo_link_sampler_destroy(self->s);
  fo_link_batch_destroy(self->b);
  Py_XDECREF(self->pin);
  if (self->mu_ready) pthread_mutex_destroy(&self->mu);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* An int32 list from a Python sequence of ints. */
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

static int ls_init(link_sampler *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"dataset", "fanouts", "edge_type", "neg", "neg_amount", "strict",
                           "exclude_seed_edges", "seed", "replace", "edge_dir",
                           "edge_type_fanouts", "disjoint", "temporal", "time_attr",
                           "time_strict", "time_window", NULL};
  PyObject *dsobj, *fan, *etf = Py_None;
  const char *edge_type = NULL, *edge_dir = "in";
  int neg = 0, strict = 1, excl = 0, replace = 0, disjoint = 0, temporal = 0, time_attr = 0;
  int time_strict = 0;
  long long time_window = -1;
  double amount = 1.0;
  unsigned long long seed = 0;
  int32_t *f = NULL, *ef = NULL;
  Py_ssize_t nf = 0, nef = 0;
  fo_link_opts o;
  fo_dataset_t *d;
  int rc;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O|zidppKpsOpiipL:LinkSampler", kwlist,
                                   &fopy_DatasetType, &dsobj, &fan, &edge_type, &neg, &amount,
                                   &strict, &excl, &seed, &replace, &edge_dir, &etf, &disjoint,
                                   &temporal, &time_attr, &time_strict, &time_window))
    return -1;
  if (self->s) {
    PyErr_SetString(PyExc_RuntimeError, "LinkSampler is already initialised");
    return -1;
  }
  if (!(d = fopy_dataset_get((fopy_dataset *)dsobj))) return -1;
  if (int_list(fan, "fanouts must be a sequence of ints", &f, &nf) < 0) return -1;
  if (etf != Py_None && int_list(etf, "edge_type_fanouts must be a sequence of ints", &ef, &nef) < 0) {
    PyMem_Free(f);
    return -1;
  }
  fo_link_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = (int32_t)nf;
  o.sampler.edge_type_fanouts = ef;
  o.sampler.seed = seed;
  o.sampler.replace = replace;
  o.sampler.disjoint = disjoint;
  o.sampler.temporal = (fo_temporal_strategy)temporal;
  o.sampler.time_attr = (fo_time_attr)time_attr;
  o.sampler.time_strict = time_strict;
  o.sampler.time_window = (int64_t)time_window;
  if (!strcmp(edge_dir, "in")) o.sampler.edge_dir = FO_EDGE_DIR_IN;
  else if (!strcmp(edge_dir, "out")) o.sampler.edge_dir = FO_EDGE_DIR_OUT;
  else {
    PyMem_Free(f);
    PyMem_Free(ef);
    PyErr_Format(PyExc_ValueError, "edge_dir '%s' is not 'in' or 'out'", edge_dir);
    return -1;
  }
  o.edge_type = edge_type;
  o.neg = (fo_neg_mode)neg;
  o.neg_amount = amount;
  o.strict = strict;
  o.exclude_seed_edges = excl;
  rc = fo_link_sampler_create(d, &o, &self->s);
  PyMem_Free(f);
  PyMem_Free(ef);
  if (rc != FO_OK) {
    fopy_raise(rc);
    return -1;
  }
  if ((rc = fo_link_batch_create(&self->b)) != FO_OK) {
    fopy_raise(rc);
    return -1;
  }
  if (!(self->pin = fopy_pin_new((fopy_dataset *)dsobj))) return -1;
  self->d = d;
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

/* A list with one item per node type (or edge type) of arrays of `what`. */
static PyObject *per_type(const fo_link_batch_t *lb, bool edges, int what) {
  const int32_t n = edges ? lb->sample->n_edge_types : lb->sample->n_node_types;
  const int32_t cnt = lb->sample->typed ? n : 1;
  PyObject *l = PyList_New(cnt);
  if (!l) return NULL;
  for (int32_t t = 0; t < cnt; t++) {
    const fo_batch_t *b = edges ? fo_batch_edge_type(lb->sample, t) : fo_batch_node_type(lb->sample, t);
    PyObject *a;
    switch (what) {
    case 0: a = copy_i64(b->node, 1, b->n_nodes, 0); break;
    case 1: a = copy_i64(b->num_sampled_nodes, 1, b->n_hops + 1, 0); break;
    case 2: a = copy_i64(b->row, 1, b->n_edges, 0); break;
    case 3: a = copy_i64(b->col, 1, b->n_edges, 0); break;
    case 4: a = copy_i64(b->edge, 1, b->n_edges, 0); break;
    case 6: /* disjoint / temporal: each node's tree (its endpoint's position) */
      if (b->batch) a = copy_i64(b->batch, 1, b->n_nodes, 0);
      else {
        Py_INCREF(Py_None);
        a = Py_None;
      }
      break;
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

/* The dict of one link batch (new arrays: copies), or NULL with an exception. */
static PyObject *link_dict(const fo_link_batch_t *lb) {
  PyObject *out = PyDict_New();
  if (!out) return NULL;
  if (put(out, "node", per_type(lb, false, 0)) < 0 || put(out, "num_sampled_nodes", per_type(lb, false, 1)) < 0 ||
      put(out, "row", per_type(lb, true, 2)) < 0 || put(out, "col", per_type(lb, true, 3)) < 0 ||
      put(out, "edge", per_type(lb, true, 4)) < 0 || put(out, "num_sampled_edges", per_type(lb, true, 5)) < 0 ||
      put(out, "batch", per_type(lb, false, 6)) < 0 ||
      put(out, "edge_label_index", copy_i64(lb->edge_label_index, 2, 2, lb->n_label)) < 0 ||
      put(out, "edge_label", copy_i64(lb->edge_label, 1, lb->n_label, 0)) < 0 ||
      put(out, "num_neg", PyLong_FromLongLong(lb->n_neg)) < 0 ||
      put(out, "num_neg_missing", PyLong_FromLongLong(lb->n_neg_missing)) < 0 ||
      put(out, "num_excluded", PyLong_FromLongLong(lb->n_excluded)) < 0 ||
      put(out, "edge_type", PyLong_FromLong(lb->edge_type)) < 0 ||
      put(out, "src_type", PyLong_FromLong(lb->src_type)) < 0 ||
      put(out, "dst_type", PyLong_FromLong(lb->dst_type)) < 0)
    goto fail;
  if (lb->k && (put(out, "src_index", copy_i64(lb->src_index, 1, lb->n_pos, 0)) < 0 ||
                put(out, "dst_pos_index", copy_i64(lb->dst_pos_index, 1, lb->n_pos, 0)) < 0 ||
                put(out, "dst_neg_index", copy_i64(lb->dst_neg_index, 2, lb->n_pos, lb->k)) < 0))
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
  pthread_mutex_lock(&self->mu);
  rc = fo_link_sampler_sample_at(self->s, PyArray_DATA(sa), PyArray_DATA(da),
                                 la ? PyArray_DATA(la) : NULL, ta ? PyArray_DATA(ta) : NULL, n,
                                 epoch, bi, self->b);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK) {
    pthread_mutex_unlock(&self->mu);
    fopy_raise(rc);
    goto done;
  }
  out = link_dict(lb);
  pthread_mutex_unlock(&self->mu);
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
              "edge_type_fanouts=None): the C link sampler (include/fanout/link.h).",
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
  PyObject *pin;
  PyObject *dist;
  pthread_mutex_t mu;
  int mu_ready;
} dist_link_loader;

static void dl_dealloc(dist_link_loader *self) {
  fo_link_loader_destroy(self->L); /* local memory only: no remote call */
  self->L = NULL;
  Py_XDECREF(self->pin);
  if (self->dist) {
    fopy_dist_use(self->dist, -1);
    Py_CLEAR(self->dist);
  }
  if (self->mu_ready) pthread_mutex_destroy(&self->mu);
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
                           "lookahead", NULL};
  PyObject *ctx, *dsobj, *fan, *etf = Py_None, *eli_o = Py_None, *lab_o = Py_None,
           *time_o = Py_None;
  PyArrayObject *eli = NULL, *lab = NULL, *tim = NULL;
  const char *edge_type = NULL, *edge_dir = "in", *edge_split = NULL, *tail = "keep",
             *placement = "global", *cache_policy = "degree";
  int neg = 0, strict = 1, excl = 0, replace = 0, disjoint = 0, temporal = 0, time_attr = 0;
  int shuffle = 0, drop_last = 0, features = 1, pipeline = 0, lookahead = 8;
  long long batch_size = 1, cache_bytes = 0;
  double amount = 1.0;
  unsigned long long seed = 0, epoch = 0;
  int32_t *f = NULL, *ef = NULL;
  Py_ssize_t nf = 0, nef = 0;
  fo_link_loader_opts o;
  fo_dist_loader_opts dlo;
  fo_dataset_t *d;
  fo_dist_t *dd;
  int rc = FO_OK, ret = -1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO!O|zidppKpsOpiiOOOzLppKpssLisi:DistLinkLoader",
                                   kwlist, &ctx, &fopy_DatasetType, &dsobj, &fan, &edge_type,
                                   &neg, &amount, &strict, &excl, &seed, &replace, &edge_dir, &etf,
                                   &disjoint, &temporal, &time_attr, &eli_o, &lab_o, &time_o,
                                   &edge_split, &batch_size, &shuffle, &drop_last, &epoch,
                                   &features, &tail, &placement, &cache_bytes, &pipeline,
                                   &cache_policy, &lookahead))
    return -1;
  if (self->L) {
    PyErr_SetString(PyExc_RuntimeError, "DistLinkLoader is already initialised");
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
  dlo.pipeline = pipeline;
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
  if (int_list(fan, "fanouts must be a sequence of ints", &f, &nf) < 0) goto done;
  if (etf != Py_None && int_list(etf, "edge_type_fanouts must be a sequence of ints", &ef, &nef) < 0)
    goto done;
  fo_link_loader_opts_init(&o);
  o.link.sampler.fanouts = f;
  o.link.sampler.n_hops = (int32_t)nf;
  o.link.sampler.edge_type_fanouts = ef;
  o.link.sampler.seed = seed;
  o.link.sampler.replace = replace;
  o.link.sampler.disjoint = disjoint;
  o.link.sampler.temporal = (fo_temporal_strategy)temporal;
  o.link.sampler.time_attr = (fo_time_attr)time_attr;
  if (!strcmp(edge_dir, "in")) o.link.sampler.edge_dir = FO_EDGE_DIR_IN;
  else if (!strcmp(edge_dir, "out")) o.link.sampler.edge_dir = FO_EDGE_DIR_OUT;
  else {
    PyErr_Format(PyExc_ValueError, "edge_dir '%s' is not 'in' or 'out'", edge_dir);
    goto done;
  }
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
  long long hops = 0, hop_bytes = 0;
  for (int h = 0; h < 64; h++) {
    hops += st->hop_requests[h];
    hop_bytes += st->hop_bytes[h];
  }
  return Py_BuildValue("{s:L,s:L,s:L,s:L,s:L,s:L,s:L}", "link_requests",
                       (long long)st->link_requests, "link_bytes", (long long)st->link_bytes,
                       "link_rounds", (long long)st->link_rounds, "hop_requests", hops,
                       "hop_bytes", hop_bytes, "fetch_requests", (long long)st->fetch_requests,
                       "fetch_bytes", (long long)st->fetch_bytes);
}

static PyObject *dl_features(const fo_link_loader_batch_t *b) {
  PyObject *l = PyList_New(b->n_node_types);
  if (!l) return NULL;
  for (int32_t t = 0; t < b->n_node_types; t++) {
    const fo_loader_features *f = &b->x[t];
    const fo_batch_t *nb = fo_batch_node_type(b->link->sample, t);
    PyObject *a;
    if (!f->x) {
      Py_INCREF(Py_None);
      a = Py_None;
    } else {
      npy_intp dims[2] = {nb->n_nodes, f->dim};
      const int typenum = fopy_feature_typenum(f->dtype);
      if (typenum < 0) {
        Py_DECREF(l);
        PyErr_Format(PyExc_RuntimeError, "link batch x: unknown dtype '%s'", f->dtype);
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

static PyObject *dl_next(dist_link_loader *self, PyObject *unused) {
  fo_link_loader_batch_t *b = NULL;
  fo_dist_batch_stats st;
  PyObject *out = NULL;
  int rc;
  if (dl_ready(self) < 0) return NULL;
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->mu);
  rc = fo_link_loader_next(self->L, &b);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK || !b) {
    pthread_mutex_unlock(&self->mu);
    if (rc != FO_OK) return fopy_raise(rc);
    Py_RETURN_NONE;
  }
  fo_dist_link_loader_stats(self->L, &st);
  if ((out = link_dict(b->link)) &&
      (put(out, "input_id", copy_i64(b->input_id, 1, b->link->n_pos, 0)) < 0 ||
       put(out, "epoch", PyLong_FromUnsignedLongLong(b->epoch)) < 0 ||
       put(out, "index", PyLong_FromLongLong(b->index)) < 0 ||
       put(out, "x", dl_features(b)) < 0 || put(out, "traffic", dl_traffic(&st)) < 0))
    Py_CLEAR(out);
  pthread_mutex_unlock(&self->mu);
  return out;
}

static PyObject *dl_start_epoch(dist_link_loader *self, PyObject *args) {
  unsigned long long epoch;
  int rc;
  if (!PyArg_ParseTuple(args, "K:start_epoch", &epoch) || dl_ready(self) < 0) return NULL;
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->mu);
  rc = fo_link_loader_start_epoch(self->L, epoch);
  pthread_mutex_unlock(&self->mu);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK) return fopy_raise(rc);
  Py_RETURN_NONE;
}

static PyObject *dl_num_batches(dist_link_loader *self, PyObject *unused) {
  int64_t n;
  if (dl_ready(self) < 0) return NULL;
  /* start_epoch may be dealing this epoch's batches; the GIL released while waiting (a next()
   * holding the mutex needs the GIL to finish) */
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&self->mu);
  n = fo_link_loader_num_batches(self->L);
  pthread_mutex_unlock(&self->mu);
  Py_END_ALLOW_THREADS
  return PyLong_FromLongLong(n);
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
