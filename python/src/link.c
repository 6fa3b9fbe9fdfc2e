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
  if (!(out = PyDict_New())) goto unlock;
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
  goto unlock;
fail:
  Py_CLEAR(out);
unlock:
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
