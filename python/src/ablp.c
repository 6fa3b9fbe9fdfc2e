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
  if (!(out = PyDict_New())) goto unlock;
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
unlock:
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
