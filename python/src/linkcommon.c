/*
 * python/src/linkcommon.c: what link.c (LinkSampler, DistLinkLoader) and ablp.c (ABLPSampler,
 * DistABLPLoader) share: the sampler arguments, the distributed loader's tail and seed
 * placement, and the batch's arrays as dict entries (copies).
 */
#include "pyfanout.h"

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

int fopy_sampler_args(PyObject *fanouts, PyObject *edge_type_fanouts, unsigned long long seed,
                      int replace, int weighted, const char *edge_dir, fo_sampler_opts *o) {
  int32_t *f = NULL, *ef = NULL;
  Py_ssize_t nf = 0, nef = 0;
  if (int_list(fanouts, "fanouts must be a sequence of ints", &f, &nf) < 0) return -1;
  if (edge_type_fanouts != Py_None &&
      int_list(edge_type_fanouts, "edge_type_fanouts must be a sequence of ints", &ef, &nef) < 0) {
    PyMem_Free(f);
    return -1;
  }
  if (strcmp(edge_dir, "in") && strcmp(edge_dir, "out")) {
    PyMem_Free(f);
    PyMem_Free(ef);
    PyErr_Format(PyExc_ValueError, "edge_dir '%s' is not 'in' or 'out'", edge_dir);
    return -1;
  }
  o->fanouts = f;
  o->n_hops = (int32_t)nf;
  o->edge_type_fanouts = ef;
  o->seed = seed;
  o->replace = replace;
  o->weighted = weighted;
  o->edge_dir = strcmp(edge_dir, "in") ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
  return 0;
}

void fopy_sampler_args_free(fo_sampler_opts *o) {
  PyMem_Free((void *)o->fanouts);
  PyMem_Free((void *)o->edge_type_fanouts);
  o->fanouts = o->edge_type_fanouts = NULL;
}

int fopy_dist_loader_args(const char *tail, const char *placement, fo_dist_loader_opts *dlo) {
  fo_dist_loader_opts_init(dlo);
  if (!strcmp(tail, "keep")) dlo->tail = FO_DIST_TAIL_KEEP;
  else if (!strcmp(tail, "drop")) dlo->tail = FO_DIST_TAIL_DROP;
  else if (!strcmp(tail, "pad")) dlo->tail = FO_DIST_TAIL_PAD;
  else {
    PyErr_Format(PyExc_ValueError, "tail: '%s' is not 'keep', 'drop' or 'pad'", tail);
    return -1;
  }
  if (!strcmp(placement, "global")) dlo->seed_placement = FO_DIST_SEEDS_GLOBAL;
  else if (!strcmp(placement, "local")) dlo->seed_placement = FO_DIST_SEEDS_LOCAL;
  else {
    PyErr_Format(PyExc_ValueError, "seed_placement: '%s' is not 'global' or 'local'", placement);
    return -1;
  }
  return 0;
}

PyObject *fopy_copy_i64(const int64_t *a, int nd, npy_intp d0, npy_intp d1) {
  npy_intp dims[2] = {d0, d1};
  PyObject *r = PyArray_SimpleNew(nd, dims, NPY_INT64);
  if (r && d0 * (nd == 2 ? d1 : 1) > 0)
    memcpy(PyArray_DATA((PyArrayObject *)r), a, (size_t)(d0 * (nd == 2 ? d1 : 1)) * 8);
  return r;
}

int fopy_put(PyObject *dict, const char *key, PyObject *v) {
  int r;
  if (!v) return -1;
  r = PyDict_SetItemString(dict, key, v);
  Py_DECREF(v);
  return r;
}

/* A list with one item per node type (or edge type) of arrays of `what`. */
static PyObject *per_type(const fo_batch_t *s, bool edges, int what) {
  const int32_t n = s->typed ? (edges ? s->n_edge_types : s->n_node_types) : 1;
  PyObject *l = PyList_New(n);
  if (!l) return NULL;
  for (int32_t t = 0; t < n; t++) {
    const fo_batch_t *b = edges ? fo_batch_edge_type(s, t) : fo_batch_node_type(s, t);
    PyObject *a;
    switch (what) {
    case 0: a = fopy_copy_i64(b->node, 1, b->n_nodes, 0); break;
    case 1: a = fopy_copy_i64(b->num_sampled_nodes, 1, b->n_hops + 1, 0); break;
    case 2: a = fopy_copy_i64(b->row, 1, b->n_edges, 0); break;
    case 3: a = fopy_copy_i64(b->col, 1, b->n_edges, 0); break;
    case 4: a = fopy_copy_i64(b->edge, 1, b->n_edges, 0); break;
    case 6: /* disjoint / temporal: each node's tree (its seed's position) */
      if (b->batch) a = fopy_copy_i64(b->batch, 1, b->n_nodes, 0);
      else {
        Py_INCREF(Py_None);
        a = Py_None;
      }
      break;
    default: a = fopy_copy_i64(b->num_sampled_edges, 1, b->n_hops, 0); break;
    }
    if (!a) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, t, a);
  }
  return l;
}

int fopy_put_sample(PyObject *dict, const fo_batch_t *s, bool batch) {
  if (fopy_put(dict, "node", per_type(s, false, 0)) < 0 ||
      fopy_put(dict, "num_sampled_nodes", per_type(s, false, 1)) < 0 ||
      fopy_put(dict, "row", per_type(s, true, 2)) < 0 || fopy_put(dict, "col", per_type(s, true, 3)) < 0 ||
      fopy_put(dict, "edge", per_type(s, true, 4)) < 0 ||
      fopy_put(dict, "num_sampled_edges", per_type(s, true, 5)) < 0 ||
      (batch && fopy_put(dict, "batch", per_type(s, false, 6)) < 0))
    return -1;
  return 0;
}

PyObject *fopy_batch_features(const fo_batch_t *s, const fo_loader_features *x, int32_t n_types,
                              const char *what) {
  PyObject *l = PyList_New(n_types);
  if (!l) return NULL;
  for (int32_t t = 0; t < n_types; t++) {
    const fo_loader_features *f = &x[t];
    const fo_batch_t *nb = fo_batch_node_type(s, t);
    PyObject *a;
    if (!f->x) {
      Py_INCREF(Py_None);
      a = Py_None;
    } else {
      npy_intp dims[2] = {nb->n_nodes, f->dim};
      const int typenum = fopy_feature_typenum(f->dtype);
      if (typenum < 0) {
        Py_DECREF(l);
        PyErr_Format(PyExc_RuntimeError, "%s batch x: unknown dtype '%s'", what, f->dtype);
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

void fopy_hop_traffic(const fo_dist_batch_stats *st, long long *requests, long long *bytes) {
  *requests = *bytes = 0;
  for (int h = 0; h < 64; h++) {
    *requests += st->hop_requests[h];
    *bytes += st->hop_bytes[h];
  }
}

int fopy_holder_set(fopy_holder *h, PyObject *dataset, PyObject *dist) {
  if (!(h->pin = fopy_pin_new((fopy_dataset *)dataset))) return -1;
  if (dist) {
    Py_INCREF(dist);
    h->dist = dist;
    fopy_dist_use(dist, +1);
  }
  pthread_mutex_init(&h->mu, NULL);
  h->mu_ready = 1;
  return 0;
}

void fopy_holder_fini(fopy_holder *h) {
  Py_CLEAR(h->pin);
  if (h->dist) {
    fopy_dist_use(h->dist, -1);
    Py_CLEAR(h->dist);
  }
  if (h->mu_ready) pthread_mutex_destroy(&h->mu);
  h->mu_ready = 0;
}

static PyObject *not_ready(const char *type) {
  PyErr_Format(PyExc_RuntimeError, "%s is not initialised", type);
  return NULL;
}

PyObject *fopy_holder_start_epoch(fopy_holder *h, PyObject *args, const char *type,
                                  int (*start)(void *L, uint64_t epoch), void *L) {
  unsigned long long epoch;
  int rc;
  if (!PyArg_ParseTuple(args, "K:start_epoch", &epoch)) return NULL;
  if (!L) return not_ready(type);
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&h->mu);
  rc = start(L, epoch);
  pthread_mutex_unlock(&h->mu);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK) return fopy_raise(rc);
  Py_RETURN_NONE;
}

PyObject *fopy_holder_num_batches(fopy_holder *h, const char *type,
                                  int64_t (*num_batches)(const void *L), const void *L) {
  int64_t n;
  if (!L) return not_ready(type);
  /* start_epoch may be dealing this epoch's batches; the GIL released while waiting (a next()
   * holding the mutex needs the GIL to finish) */
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&h->mu);
  n = num_batches(L);
  pthread_mutex_unlock(&h->mu);
  Py_END_ALLOW_THREADS
  return PyLong_FromLongLong(n);
}
