/*
 * python/src/dataset.c: fanout.Dataset, an open dataset directory (fo_dataset_t), and the
 * read-only NumPy views of its memory-mapped arrays (features, labels, splits, any stored
 * array), plus the view helpers that loader.c uses for batches.
 *
 * Lifetime: every view and every loader holds a pin (fopy_PinType) on the Dataset object. A
 * pin keeps the Python object alive and counts as a user of the C handle; close() marks the
 * dataset closed (new uses raise ValueError) and closes the handle at once when it has no
 * user, else when the last pin goes. So no Python object can ever see unmapped memory.
 */
#include "pyfanout.h"

#include <string.h>

/* Data pointer of empty views (fanout may hand out NULL for an empty array). */
static const int64_t empty_data[1];

fo_dataset_t *fopy_dataset_get(fopy_dataset *ds) {
  if (ds->closed || !ds->d) {
    PyErr_SetString(PyExc_ValueError, "dataset is closed");
    return NULL;
  }
  return ds->d;
}

/* Close the C handle if close() was called and nothing uses it any more. */
void fopy_dataset_use(fopy_dataset *ds, int delta) {
  ds->n_users += delta;
  if (ds->closed && ds->n_users == 0 && ds->d) {
    fo_dataset_close(ds->d);
    ds->d = NULL;
  }
}

/* ---- pins ---- */

typedef struct pin {
  PyObject_HEAD
  fopy_dataset *ds;
} pin;

PyObject *fopy_pin_new(fopy_dataset *ds) {
  pin *p;
  if (!fopy_dataset_get(ds)) return NULL;
  if (!(p = PyObject_New(pin, &fopy_PinType))) return NULL;
  Py_INCREF(ds);
  p->ds = ds;
  fopy_dataset_use(ds, +1);
  return (PyObject *)p;
}

static void pin_dealloc(pin *p) {
  fopy_dataset *ds = p->ds;
  fopy_dataset_use(ds, -1);
  Py_DECREF(ds);
  PyObject_Free(p);
}

static PyObject *pin_get_dataset(pin *p, void *closure) {
  Py_INCREF(p->ds);
  return (PyObject *)p->ds;
}

static PyGetSetDef pin_getset[] = {
    {"dataset", (getter)pin_get_dataset, NULL, "The dataset this pin keeps open.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject fopy_PinType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fanout._fanout._Pin",
    .tp_basicsize = sizeof(pin),
    .tp_dealloc = (destructor)pin_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Keeps a dataset's memory mapped while a view or loader uses it (the base of "
              "dataset arrays).",
    .tp_getset = pin_getset,
};

/* ---- views ---- */

PyObject *fopy_view(PyObject *owner, const void *data, int nd, const npy_intp *dims,
                    PyArray_Descr *descr) {
  PyObject *arr;
  if (!data) data = empty_data;
  /* No NPY_ARRAY_WRITEABLE: the memory is fanout's (often mapped read-only). */
  arr = PyArray_NewFromDescr(&PyArray_Type, descr, nd, (npy_intp *)dims, NULL, (void *)data,
                             NPY_ARRAY_C_CONTIGUOUS, NULL);
  if (!arr) return NULL;
  PyArray_UpdateFlags((PyArrayObject *)arr, NPY_ARRAY_UPDATE_ALL);
  Py_INCREF(owner);
  if (PyArray_SetBaseObject((PyArrayObject *)arr, owner) < 0) { /* steals `owner` */
    Py_DECREF(arr);
    return NULL;
  }
  return arr;
}

PyObject *fopy_view_typed(PyObject *owner, const void *data, int nd, const npy_intp *dims,
                          int typenum) {
  PyArray_Descr *descr = PyArray_DescrFromType(typenum);
  if (!descr) return NULL;
  return fopy_view(owner, data, nd, dims, descr);
}

int fopy_feature_typenum(const char *dtype) {
  if (!dtype) return -1;
  if (!strcmp(dtype, "float32")) return NPY_FLOAT32;
  if (!strcmp(dtype, "float16")) return NPY_FLOAT16;
  if (!strcmp(dtype, "bfloat16")) return NPY_INT16; /* the bits; torch views them as bfloat16 */
  if (!strcmp(dtype, "uint8")) return NPY_UINT8;
  return -1;
}

/* A view of dataset memory: its base is a new pin on `ds`. */
static PyObject *dataset_view(fopy_dataset *ds, const void *data, int nd, const npy_intp *dims,
                              PyArray_Descr *descr) {
  PyObject *p = fopy_pin_new(ds), *arr;
  if (!p) {
    Py_DECREF(descr);
    return NULL;
  }
  arr = fopy_view(p, data, nd, dims, descr);
  Py_DECREF(p);
  return arr;
}

static PyObject *dataset_view_typed(fopy_dataset *ds, const void *data, int nd,
                                    const npy_intp *dims, int typenum) {
  PyArray_Descr *descr = PyArray_DescrFromType(typenum);
  if (!descr) return NULL;
  return dataset_view(ds, data, nd, dims, descr);
}

/* ---- Dataset ---- */

static PyObject *dataset_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "load", NULL};
  PyObject *path = NULL;
  const char *load = "mmap";
  fo_dataset_opts o;
  fo_dataset_t *d = NULL;
  int rc;

  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|s:Dataset", kwlist, PyUnicode_FSConverter,
                                   &path, &load))
    return NULL;
  fo_dataset_opts_init(&o);
  if (fopy_load_mode(load, &o.load) < 0) {
    Py_DECREF(path);
    return NULL;
  }
  Py_BEGIN_ALLOW_THREADS
  rc = fo_dataset_open(PyBytes_AS_STRING(path), &o, &d);
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (rc != FO_OK) return fopy_raise(rc);
  return fopy_dataset_wrap(type, d);
}

int fopy_load_mode(const char *load, fo_load_mode *out) {
  if (!strcmp(load, "mmap")) {
    *out = FO_LOAD_MMAP;
  } else if (!strcmp(load, "hugepage")) {
    *out = FO_LOAD_HUGEPAGE;
  } else {
    PyErr_Format(PyExc_ValueError, "load: '%s' is not 'mmap' or 'hugepage'", load);
    return -1;
  }
  return 0;
}

PyObject *fopy_dataset_wrap(PyTypeObject *type, fo_dataset_t *d) {
  fopy_dataset *self;
  if (!PyType_IsSubtype(type, &fopy_DatasetType)) {
    fo_dataset_close(d);
    PyErr_Format(PyExc_TypeError, "%s is not a fanout.Dataset type", type->tp_name);
    return NULL;
  }
  if (!(self = (fopy_dataset *)type->tp_alloc(type, 0))) {
    fo_dataset_close(d);
    return NULL;
  }
  self->d = d;
  return (PyObject *)self;
}

static void dataset_dealloc(fopy_dataset *self) {
  /* Pins hold references, so no user is left here. */
  fo_dataset_close(self->d);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *dataset_close(fopy_dataset *self, PyObject *unused) {
  self->closed = 1;
  fopy_dataset_use(self, 0);
  Py_RETURN_NONE;
}

static PyObject *dataset_enter(fopy_dataset *self, PyObject *unused) {
  if (!fopy_dataset_get(self)) return NULL;
  Py_INCREF(self);
  return (PyObject *)self;
}

static PyObject *dataset_exit(fopy_dataset *self, PyObject *args) {
  self->closed = 1;
  fopy_dataset_use(self, 0);
  Py_RETURN_FALSE;
}

static PyObject *dataset_split(fopy_dataset *self, PyObject *arg) {
  fo_dataset_t *d = fopy_dataset_get(self);
  const char *name;
  const int64_t *ids;
  int64_t n;
  npy_intp dims[1];
  int rc;

  if (!d) return NULL;
  if (!(name = PyUnicode_AsUTF8(arg))) return NULL;
  if ((rc = fo_dataset_split(d, name, &ids, &n)) != FO_OK) return fopy_raise(rc);
  dims[0] = (npy_intp)n;
  return dataset_view_typed(self, ids, 1, dims, NPY_INT64);
}

/* _edge_split(et, name): the edge ids of a stored edge split (a read-only view); None for a
 * name list: _edge_split(et) gives the names. */
static PyObject *dataset_edge_split(fopy_dataset *self, PyObject *args) {
  fo_dataset_t *d = fopy_dataset_get(self);
  const char *name = NULL;
  const int64_t *ids;
  int64_t n;
  int et, rc;
  npy_intp dims[1];
  if (!d || !PyArg_ParseTuple(args, "i|z", &et, &name)) return NULL;
  if (!name) {
    PyObject *l = PyList_New(0);
    for (int64_t i = 0; l && i < fo_dataset_num_edge_splits(d, et); i++) {
      PyObject *s = PyUnicode_FromString(fo_dataset_edge_split_name(d, et, i));
      if (!s || PyList_Append(l, s) < 0) {
        Py_XDECREF(s);
        Py_DECREF(l);
        return NULL;
      }
      Py_DECREF(s);
    }
    return l;
  }
  if ((rc = fo_dataset_edge_split(d, et, name, &ids, &n)) != FO_OK) return fopy_raise(rc);
  dims[0] = (npy_intp)n;
  return dataset_view_typed(self, ids, 1, dims, NPY_INT64);
}

/* _edge_split_ends(et, name): the stored [2, k] endpoints of an edge split of a partitioned
 * dataset (a read-only view). */
static PyObject *dataset_edge_split_ends(fopy_dataset *self, PyObject *args) {
  fo_dataset_t *d = fopy_dataset_get(self);
  const char *name;
  const int64_t *ends;
  int64_t n;
  int et, rc;
  npy_intp dims[2];
  if (!d || !PyArg_ParseTuple(args, "is", &et, &name)) return NULL;
  if ((rc = fo_dataset_edge_split_ends(d, et, name, &ends, &n)) != FO_OK) return fopy_raise(rc);
  dims[0] = 2;
  dims[1] = (npy_intp)n;
  return dataset_view_typed(self, ends, 2, dims, NPY_INT64);
}

/* _edge_endpoints(et, eids): a new int64 [2, k] array of the edges' src and dst ids. */
static PyObject *dataset_edge_endpoints(fopy_dataset *self, PyObject *args) {
  fo_dataset_t *d = fopy_dataset_get(self);
  PyObject *o, *out;
  PyArrayObject *e;
  npy_intp dims[2], k;
  int et, rc;
  if (!d || !PyArg_ParseTuple(args, "iO", &et, &o)) return NULL;
  if (!(e = (PyArrayObject *)PyArray_FROMANY(o, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY))) return NULL;
  k = PyArray_DIM(e, 0);
  dims[0] = 2;
  dims[1] = k;
  if (!(out = PyArray_SimpleNew(2, dims, NPY_INT64))) {
    Py_DECREF(e);
    return NULL;
  }
  {
    const int64_t *ids = PyArray_DATA(e);
    int64_t *sd = PyArray_DATA((PyArrayObject *)out);
    Py_BEGIN_ALLOW_THREADS
    rc = fo_dataset_edge_endpoints(d, et, ids, (int64_t)k, sd, sd + k);
    Py_END_ALLOW_THREADS
  }
  Py_DECREF(e);
  if (rc != FO_OK) {
    Py_DECREF(out);
    return fopy_raise(rc);
  }
  return out;
}

static PyObject *dataset_array(fopy_dataset *self, PyObject *arg) {
  fo_dataset_t *d = fopy_dataset_get(self);
  const char *name;
  fo_array_info a;
  PyArray_Descr *descr = NULL;
  PyObject *dt;
  npy_intp dims[2];
  int rc;

  if (!d) return NULL;
  if (!(name = PyUnicode_AsUTF8(arg))) return NULL;
  if ((rc = fo_dataset_array(d, name, &a)) != FO_OK) return fopy_raise(rc);
  if (!(dt = PyUnicode_FromString(a.dtype))) return NULL;
  rc = PyArray_DescrConverter(dt, &descr);
  Py_DECREF(dt);
  if (!rc) return NULL;
  dims[0] = (npy_intp)a.shape[0];
  dims[1] = (npy_intp)a.shape[1];
  return dataset_view(self, a.data, a.ndim, dims, descr);
}

static PyObject *dataset_verify(fopy_dataset *self, PyObject *unused) {
  fo_dataset_t *d = fopy_dataset_get(self);
  int rc;
  if (!d) return NULL;
  Py_BEGIN_ALLOW_THREADS
  rc = fo_dataset_verify(d);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK) return fopy_raise(rc);
  Py_RETURN_NONE;
}

static PyObject *dataset_get_num_nodes(fopy_dataset *self, void *closure) {
  fo_dataset_t *d = fopy_dataset_get(self);
  return d ? PyLong_FromLongLong((long long)fo_dataset_num_nodes(d)) : NULL;
}

static PyObject *dataset_get_num_edges(fopy_dataset *self, void *closure) {
  fo_dataset_t *d = fopy_dataset_get(self);
  return d ? PyLong_FromLongLong((long long)fo_dataset_num_edges(d)) : NULL;
}

static PyObject *dataset_get_path(fopy_dataset *self, void *closure) {
  fo_dataset_t *d = fopy_dataset_get(self);
  return d ? PyUnicode_DecodeFSDefault(fo_dataset_path(d)) : NULL;
}

static PyObject *dataset_get_manifest(fopy_dataset *self, void *closure) {
  fo_dataset_t *d = fopy_dataset_get(self);
  return d ? PyUnicode_FromString(fo_dataset_manifest(d)) : NULL;
}

static PyObject *dataset_get_closed(fopy_dataset *self, void *closure) {
  return PyBool_FromLong(self->closed || !self->d);
}

/* What describes the node data and topology of `d`: `d` itself, or for a partitioned dataset
 * its first opened part (parts share dtype, classes and stored directions; the top level
 * stores none of them). */
static const fo_dataset_t *described_by(const fo_dataset_t *d) {
  int n = fo_dataset_num_parts(d);
  for (int k = 0; k < n; k++)
    if (fo_dataset_part(d, k)) return fo_dataset_part(d, k);
  return d;
}

static PyObject *dataset_get_features(fopy_dataset *self, void *closure) {
  fo_dataset_t *d = fopy_dataset_get(self);
  fo_features f;
  npy_intp dims[2];
  int typenum;

  if (!d) return NULL;
  if (!fo_dataset_has_features(d)) Py_RETURN_NONE;
  if (fo_dataset_features(d, &f) != FO_OK) return fopy_raise(FO_EINVAL);
  if ((typenum = fopy_feature_typenum(f.dtype)) < 0) {
    PyErr_Format(PyExc_RuntimeError, "features: unknown dtype '%s'", f.dtype);
    return NULL;
  }
  dims[0] = (npy_intp)f.n_rows;
  dims[1] = (npy_intp)f.dim;
  return dataset_view_typed(self, f.data, 2, dims, typenum);
}

static PyObject *dataset_get_feature_dtype(fopy_dataset *self, void *closure) {
  const fo_dataset_t *d = fopy_dataset_get(self);
  fo_features f;
  if (!d) return NULL;
  d = described_by(d);
  if (!fo_dataset_has_features(d) || fo_dataset_features(d, &f) != FO_OK) Py_RETURN_NONE;
  return PyUnicode_FromString(f.dtype);
}

/* scale (closure NULL) or offset (closure non-NULL) of uint8 features, else None. */
static PyObject *dataset_get_quant(fopy_dataset *self, void *closure) {
  const fo_dataset_t *d = fopy_dataset_get(self);
  fo_features f;
  npy_intp dims[1];
  const float *v;

  if (!d) return NULL;
  d = described_by(d);
  if (!fo_dataset_has_features(d) || fo_dataset_features(d, &f) != FO_OK) Py_RETURN_NONE;
  v = closure ? f.offset : f.scale;
  if (!v) Py_RETURN_NONE;
  dims[0] = (npy_intp)f.dim;
  return dataset_view_typed(self, v, 1, dims, NPY_FLOAT32);
}

static PyObject *dataset_get_labels(fopy_dataset *self, void *closure) {
  fo_dataset_t *d = fopy_dataset_get(self);
  const int64_t *y;
  int64_t n, k;
  npy_intp dims[1];
  int rc;

  if (!d) return NULL;
  if (!fo_dataset_has_labels(d)) Py_RETURN_NONE;
  if ((rc = fo_dataset_labels(d, &y, &n, &k)) != FO_OK) return fopy_raise(rc);
  dims[0] = (npy_intp)n;
  return dataset_view_typed(self, y, 1, dims, NPY_INT64);
}

static PyObject *dataset_get_num_classes(fopy_dataset *self, void *closure) {
  const fo_dataset_t *d = fopy_dataset_get(self);
  const int64_t *y;
  int64_t n, k;
  if (!d) return NULL;
  d = described_by(d);
  if (!fo_dataset_has_labels(d) || fo_dataset_labels(d, &y, &n, &k) != FO_OK) Py_RETURN_NONE;
  return PyLong_FromLongLong((long long)k);
}

static PyObject *dataset_get_splits(fopy_dataset *self, void *closure) {
  fo_dataset_t *d = fopy_dataset_get(self);
  PyObject *list;
  int64_t n;

  if (!d) return NULL;
  n = fo_dataset_num_splits(d);
  if (!(list = PyList_New((Py_ssize_t)n))) return NULL;
  for (int64_t i = 0; i < n; i++) {
    PyObject *s = PyUnicode_FromString(fo_dataset_split_name(d, i));
    if (!s) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, s);
  }
  return list;
}

static PyObject *dataset_get_arrays(fopy_dataset *self, void *closure) {
  fo_dataset_t *d = fopy_dataset_get(self);
  PyObject *list;
  int64_t n;

  if (!d) return NULL;
  n = fo_dataset_num_arrays(d);
  if (!(list = PyList_New((Py_ssize_t)n))) return NULL;
  for (int64_t i = 0; i < n; i++) {
    fo_array_info a;
    PyObject *s;
    int rc = fo_dataset_array_at(d, i, &a);
    if (rc != FO_OK || !(s = PyUnicode_FromString(a.name))) {
      Py_DECREF(list);
      return rc != FO_OK ? fopy_raise(rc) : NULL;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, s);
  }
  return list;
}

/* Append a new str to `list`; -1 on failure. */
static int append_str(PyObject *list, const char *s) {
  PyObject *o = PyUnicode_FromString(s);
  int rc = o ? PyList_Append(list, o) : -1;
  Py_XDECREF(o);
  return rc;
}

static PyObject *dataset_get_edge_dirs(fopy_dataset *self, void *closure) {
  const fo_dataset_t *d = fopy_dataset_get(self);
  PyObject *list;
  if (!d) return NULL;
  d = described_by(d); /* partitioned: the directions its parts store, which loaders use */
  if (!(list = PyList_New(0))) return NULL;
  if ((fo_dataset_has_topology(d, FO_EDGE_DIR_IN) && append_str(list, "in") < 0) ||
      (fo_dataset_has_topology(d, FO_EDGE_DIR_OUT) && append_str(list, "out") < 0)) {
    Py_DECREF(list);
    return NULL;
  }
  return list;
}

static PyObject *dataset_repr(fopy_dataset *self) {
  if (self->closed || !self->d) return PyUnicode_FromFormat("<fanout.Dataset (closed)>");
  return PyUnicode_FromFormat("<fanout.Dataset '%s': %lld nodes, %lld edges>",
                              fo_dataset_path(self->d),
                              (long long)fo_dataset_num_nodes(self->d),
                              (long long)fo_dataset_num_edges(self->d));
}

/* ---- typed (heterogeneous) datasets: the raw facts; python/fanout/__init__.py builds
 * node_types, edge_types, metadata(), ds[type] and the *_dict forms on them ---- */

static PyObject *dataset_get_is_typed(fopy_dataset *self, void *closure) {
  fo_dataset_t *d = fopy_dataset_get(self);
  return d ? PyBool_FromLong(fo_dataset_is_typed(d)) : NULL;
}

/* _types(): ([(node type, num_nodes)], [(src, rel, dst, num_edges)]) in dataset order (a
 * version-1 dataset answers one node type "node" and one edge type node__to__node). */
static PyObject *dataset_types(fopy_dataset *self, PyObject *unused) {
  fo_dataset_t *d = fopy_dataset_get(self);
  PyObject *nts = NULL, *ets = NULL, *out;
  int32_t nt, ne;

  if (!d) return NULL;
  nt = fo_dataset_num_node_types(d);
  ne = fo_dataset_num_edge_types(d);
  if (!(nts = PyList_New(nt)) || !(ets = PyList_New(ne))) goto fail;
  for (int32_t t = 0; t < nt; t++) {
    const fo_dataset_t *td = fo_dataset_node_data(d, t);
    PyObject *item = Py_BuildValue("(sL)", fo_dataset_node_type_name(d, t),
                                   (long long)(td ? fo_dataset_num_nodes(td) : 0));
    if (!item) goto fail;
    PyList_SET_ITEM(nts, t, item);
  }
  for (int32_t e = 0; e < ne; e++) {
    fo_edge_type et;
    PyObject *item;
    int rc = fo_dataset_edge_type(d, e, &et);
    if (rc != FO_OK) {
      fopy_raise(rc);
      goto fail;
    }
    if (!(item = Py_BuildValue("(sssL)", et.src, et.rel, et.dst, (long long)et.n_edges)))
      goto fail;
    PyList_SET_ITEM(ets, e, item);
  }
  out = PyTuple_Pack(2, nts, ets);
  Py_DECREF(nts);
  Py_DECREF(ets);
  return out;
fail:
  Py_XDECREF(nts);
  Py_XDECREF(ets);
  return NULL;
}

/* Set d[key] = v (stealing v); -1 on failure (v NULL: failure already set). */
static int dict_steal(PyObject *d, const char *key, PyObject *v) {
  int rc;
  if (!v) return -1;
  rc = PyDict_SetItemString(d, key, v);
  Py_DECREF(v);
  return rc;
}

static PyObject *none_ref(void) {
  Py_INCREF(Py_None);
  return Py_None;
}

/* _node_data(type): the node data of one node type as a dict of read-only views of the
 * mapped arrays (base: a pin on the dataset): num_nodes, features, feature_dtype,
 * feature_scale, feature_offset, labels, num_classes, splits {name: ids}. ValueError names
 * the node types there are. */
static PyObject *dataset_node_data(fopy_dataset *self, PyObject *arg) {
  fo_dataset_t *d = fopy_dataset_get(self);
  const fo_dataset_t *td;
  const char *name;
  PyObject *out = NULL, *splits = NULL;
  fo_features f;
  int32_t t;
  npy_intp dims[2];

  if (!d) return NULL;
  if (!(name = PyUnicode_AsUTF8(arg))) return NULL;
  if ((t = fo_dataset_node_type_find(d, name)) < 0 || !(td = fo_dataset_node_data(d, t))) {
    PyObject *have = PyList_New(0);
    for (int32_t i = 0; have && i < fo_dataset_num_node_types(d); i++)
      if (append_str(have, fo_dataset_node_type_name(d, i)) < 0) Py_CLEAR(have);
    if (have)
      PyErr_Format(PyExc_KeyError, "'%s' is not a node type of '%s' (it has: %R)", name,
                   fo_dataset_path(d), have);
    Py_XDECREF(have);
    return NULL;
  }
  if (!(out = PyDict_New())) return NULL;
  if (dict_steal(out, "num_nodes", PyLong_FromLongLong((long long)fo_dataset_num_nodes(td))) < 0)
    goto fail;
  if (fo_dataset_num_parts(td)) {
    /* a typed partitioned dataset: the rows are in the parts (no [num_nodes] view exists);
     * dtype and classes are part 0's (the views raise ValueError, as the one-type top level) */
    const fo_dataset_t *p = described_by(td);
    if (dict_steal(out, "partitioned", PyUnicode_FromString(fo_dataset_path(d))) < 0) goto fail;
    if (p != td && fo_dataset_features(p, &f) == FO_OK) {
      dims[0] = (npy_intp)f.dim;
      if (dict_steal(out, "feature_dtype", PyUnicode_FromString(f.dtype)) < 0 ||
          dict_steal(out, "feature_scale",
                     f.scale ? dataset_view_typed(self, f.scale, 1, dims, NPY_FLOAT32)
                             : none_ref()) < 0 ||
          dict_steal(out, "feature_offset",
                     f.offset ? dataset_view_typed(self, f.offset, 1, dims, NPY_FLOAT32)
                              : none_ref()) < 0)
        goto fail;
    }
    if (p != td && fo_dataset_has_labels(p)) {
      const int64_t *y;
      int64_t n, k;
      if (fo_dataset_labels(p, &y, &n, &k) == FO_OK &&
          dict_steal(out, "num_classes", PyLong_FromLongLong((long long)k)) < 0)
        goto fail;
    }
    fo_clear_error();
  } else if (fo_dataset_has_features(td) && fo_dataset_features(td, &f) == FO_OK) {
    int typenum = fopy_feature_typenum(f.dtype);
    if (typenum < 0) {
      PyErr_Format(PyExc_RuntimeError, "features of '%s': unknown dtype '%s'", name, f.dtype);
      goto fail;
    }
    dims[0] = (npy_intp)f.dim;
    if (dict_steal(out, "feature_dtype", PyUnicode_FromString(f.dtype)) < 0 ||
        dict_steal(out, "feature_scale",
                   f.scale ? dataset_view_typed(self, f.scale, 1, dims, NPY_FLOAT32)
                           : none_ref()) < 0 ||
        dict_steal(out, "feature_offset",
                   f.offset ? dataset_view_typed(self, f.offset, 1, dims, NPY_FLOAT32)
                            : none_ref()) < 0)
      goto fail;
    dims[0] = (npy_intp)f.n_rows;
    dims[1] = (npy_intp)f.dim;
    if (dict_steal(out, "features", dataset_view_typed(self, f.data, 2, dims, typenum)) < 0)
      goto fail;
  }
  if (!fo_dataset_num_parts(td) && fo_dataset_has_labels(td)) {
    const int64_t *y;
    int64_t n, k;
    int rc = fo_dataset_labels(td, &y, &n, &k);
    if (rc != FO_OK) {
      fopy_raise(rc);
      goto fail;
    }
    dims[0] = (npy_intp)n;
    if (dict_steal(out, "labels", dataset_view_typed(self, y, 1, dims, NPY_INT64)) < 0 ||
        dict_steal(out, "num_classes", PyLong_FromLongLong((long long)k)) < 0)
      goto fail;
  }
  if (!(splits = PyDict_New())) goto fail;
  for (int64_t i = 0; i < fo_dataset_num_splits(td); i++) {
    const char *sname = fo_dataset_split_name(td, i);
    const int64_t *ids;
    int64_t n;
    int rc = fo_dataset_split(td, sname, &ids, &n);
    if (rc != FO_OK) {
      fopy_raise(rc);
      goto fail;
    }
    dims[0] = (npy_intp)n;
    if (dict_steal(splits, sname, dataset_view_typed(self, ids, 1, dims, NPY_INT64)) < 0)
      goto fail;
  }
  if (PyDict_SetItemString(out, "splits", splits) < 0) goto fail;
  Py_DECREF(splits);
  return out;
fail:
  Py_XDECREF(splits);
  Py_XDECREF(out);
  return NULL;
}

static PyMethodDef dataset_methods[] = {
    {"close", (PyCFunction)dataset_close, METH_NOARGS,
     "close()\n--\n\nClose the dataset: later use of this object raises ValueError. The files "
     "stay mapped while loaders, batches or arrays made from it are alive (they stay valid); "
     "the memory is released when the last of them goes."},
    {"__enter__", (PyCFunction)dataset_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)dataset_exit, METH_VARARGS, NULL},
    {"split", (PyCFunction)dataset_split, METH_O,
     "split(name)\n--\n\nThe node ids of a stored split ('train', 'val', 'test', ...): a "
     "read-only int64 view. ValueError names the splits there are."},
    {"_edge_split", (PyCFunction)dataset_edge_split, METH_VARARGS,
     "_edge_split(et, name=None)\n--\n\nEdge ids of stored edge split `name` of edge type "
     "index et (a read-only int64 view), or the names when name is None."},
    {"_edge_split_ends", (PyCFunction)dataset_edge_split_ends, METH_VARARGS,
     "_edge_split_ends(et, name)\n--\n\nThe stored int64 [2, k] endpoints of edge split `name` "
     "of edge type index et of a partitioned dataset (a read-only view)."},
    {"_edge_endpoints", (PyCFunction)dataset_edge_endpoints, METH_VARARGS,
     "_edge_endpoints(et, eids)\n--\n\nA new int64 [2, k] array: src and dst ids of edges "
     "eids of edge type index et."},
    {"array", (PyCFunction)dataset_array, METH_O,
     "array(name)\n--\n\nA read-only view of any stored array by manifest name (see `arrays`), "
     "e.g. 'csc_indptr', as numpy.load(..., mmap_mode='r') would give it."},
    {"_types", (PyCFunction)dataset_types, METH_NOARGS,
     "_types()\n--\n\n([(node type, num_nodes)], [(src, rel, dst, num_edges)]) in dataset "
     "order; fanout.Dataset builds node_types, edge_types, metadata() on it."},
    {"_node_data", (PyCFunction)dataset_node_data, METH_O,
     "_node_data(type)\n--\n\nThe node data of one node type as a dict of read-only views "
     "(fanout.Dataset's ds[type] is built on it); KeyError names the node types."},
    {"verify", (PyCFunction)dataset_verify, METH_NOARGS,
     "verify()\n--\n\nThe full O(n + m) check (checksums, ranges, permutations); raises "
     "FormatError naming the first problem."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef dataset_getset[] = {
    {"num_nodes", (getter)dataset_get_num_nodes, NULL, "Number of nodes.", NULL},
    {"num_edges", (getter)dataset_get_num_edges, NULL, "Number of (directed) edges.", NULL},
    {"path", (getter)dataset_get_path, NULL, "The dataset directory.", NULL},
    {"manifest", (getter)dataset_get_manifest, NULL, "The text of fanout.json.", NULL},
    {"closed", (getter)dataset_get_closed, NULL, "Whether close() was called.", NULL},
    {"features", (getter)dataset_get_features, NULL,
     "Node features [num_nodes, D] as stored (float32, float16, int16 holding bfloat16 bits, "
     "or uint8 with feature_scale/feature_offset): a read-only zero-copy view; None if absent. "
     "A partitioned dataset raises ValueError: its rows are in its parts (part-k/ is a "
     "dataset).",
     NULL},
    {"feature_dtype", (getter)dataset_get_feature_dtype, NULL,
     "'float32', 'float16', 'bfloat16' or 'uint8'; None without features.", NULL},
    {"feature_scale", (getter)dataset_get_quant, NULL,
     "uint8 features: float32 [D] scale (value = q * scale + offset); else None.", NULL},
    {"feature_offset", (getter)dataset_get_quant, NULL,
     "uint8 features: float32 [D] offset; else None.", (void *)1},
    {"labels", (getter)dataset_get_labels, NULL,
     "Node labels int64 [num_nodes] (-1 = none): a read-only view; None if absent. A "
     "partitioned dataset raises ValueError: its labels are in its parts.", NULL},
    {"num_classes", (getter)dataset_get_num_classes, NULL,
     "Number of classes (max label + 1); None without labels (partitioned: its parts').", NULL},
    {"splits", (getter)dataset_get_splits, NULL, "Names of the stored splits.", NULL},
    {"arrays", (getter)dataset_get_arrays, NULL, "Names of all stored arrays.", NULL},
    {"is_typed", (getter)dataset_get_is_typed, NULL,
     "Whether the dataset is typed (format version 2: node and edge types, PyG HeteroData).",
     NULL},
    {"edge_dirs", (getter)dataset_get_edge_dirs, NULL,
     "Sampling directions the stored topology allows: 'in' (CSC), 'out' (CSR); for a "
     "partitioned dataset those of its parts (['in']).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject fopy_DatasetType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fanout.Dataset",
    .tp_basicsize = sizeof(fopy_dataset),
    .tp_dealloc = (destructor)dataset_dealloc,
    .tp_repr = (reprfunc)dataset_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Dataset(path, load='mmap')\n--\n\nAn open fanout dataset directory (read-only; "
              "'mmap' maps the files, 'hugepage' copies topology and features into transparent "
              "huge pages).",
    .tp_methods = dataset_methods,
    .tp_getset = dataset_getset,
    .tp_new = dataset_new,
};
