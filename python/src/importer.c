/*
 * python/src/importer.c: fanout.import_dataset / fanout.import_edges over fo_import and
 * fo_import_edges.
 *
 * An import can take minutes, so it runs on a helper thread while the calling thread waits
 * with the GIL released, waking every 100 ms to run Python's signal handlers: on Ctrl-C
 * (KeyboardInterrupt) it raises the importer's cancel flag, waits for the importer to remove
 * its temporary directory (fo_import is atomic) and lets the KeyboardInterrupt propagate. The
 * helper's error message is thread-local there, so it is copied and re-set on the caller.
 */
#include "pyfanout.h"

#include <errno.h>
#include <string.h>
#include <time.h>

typedef struct job {
  /* what to import: files (inputs) or edge arrays (src, dst) */
  const char *const *inputs;
  int n_inputs;
  const int64_t *src, *dst;
  int64_t n_edges;
  const char *out;
  fo_import_opts o;
  fo_import_report rep;
  volatile int cancel; /* o.cancel points here */
  int rc;
  char msg[1024];
  int done;
  pthread_mutex_t mu;
  pthread_cond_t cv;
} job;

static void job_run(job *j) {
  int rc = j->inputs ? fo_import(j->inputs, j->n_inputs, j->out, &j->o, &j->rep)
                     : fo_import_edges(j->src, j->dst, j->n_edges, j->out, &j->o, &j->rep);
  j->rc = rc;
  if (rc != FO_OK) snprintf(j->msg, sizeof j->msg, "%s", fo_last_error());
}

static void *job_main(void *arg) {
  job *j = arg;
  job_run(j);
  pthread_mutex_lock(&j->mu);
  j->done = 1;
  pthread_cond_signal(&j->cv);
  pthread_mutex_unlock(&j->mu);
  return NULL;
}

static PyObject *report_dict(const job *j) {
  return Py_BuildValue(
      "{s:s,s:L,s:L,s:L,s:L,s:L,s:L,s:L,s:L,s:L}", "output", j->out, "num_nodes",
      (long long)j->rep.n_nodes, "num_edges", (long long)j->rep.n_edges, "input_edges",
      (long long)j->rep.n_input_edges, "self_loops_removed",
      (long long)j->rep.n_self_loops_removed, "reverse_added", (long long)j->rep.n_reverse_added,
      "duplicates_removed", (long long)j->rep.n_duplicates_removed, "unknown_nodes",
      (long long)j->rep.n_unknown_nodes, "unknown_edges_dropped",
      (long long)j->rep.n_unknown_edges_dropped, "isolated_nodes", (long long)j->rep.n_isolated);
}

/* Run the import on a helper thread, checking for signals while it works. */
/* A typed import's report also gives num_node_types and num_edge_types. */
static PyObject *typed_report(const job *j, PyObject *ret) {
  PyObject *a, *b;
  if (!ret || !j->rep.n_node_types) return ret;
  a = PyLong_FromLong(j->rep.n_node_types);
  b = PyLong_FromLong(j->rep.n_edge_types);
  if (!a || !b || PyDict_SetItemString(ret, "num_node_types", a) < 0 ||
      PyDict_SetItemString(ret, "num_edge_types", b) < 0)
    Py_CLEAR(ret);
  Py_XDECREF(a);
  Py_XDECREF(b);
  return ret;
}

static PyObject *run_job(job *j) {
  pthread_condattr_t ca;
  pthread_t t;
  int interrupted = 0, started;

  j->o.cancel = &j->cancel;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&j->cv, &ca);
  pthread_condattr_destroy(&ca);
  pthread_mutex_init(&j->mu, NULL);
  started = pthread_create(&t, NULL, job_main, j) == 0;
  if (!started) {
    /* No thread to be had: import on this thread, without Ctrl-C. */
    Py_BEGIN_ALLOW_THREADS
    job_run(j);
    Py_END_ALLOW_THREADS
  } else {
    for (;;) {
      int done;
      Py_BEGIN_ALLOW_THREADS
      struct timespec ts;
      clock_gettime(CLOCK_MONOTONIC, &ts);
      ts.tv_nsec += 100 * 1000 * 1000;
      if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
      }
      pthread_mutex_lock(&j->mu);
      while (!j->done && pthread_cond_timedwait(&j->cv, &j->mu, &ts) != ETIMEDOUT) {
      }
      done = j->done;
      pthread_mutex_unlock(&j->mu);
      Py_END_ALLOW_THREADS
      if (done) break;
      if (!interrupted && PyErr_CheckSignals() < 0) {
        interrupted = 1; /* the exception is set; let the importer clean up */
        j->cancel = 1;
      }
    }
    Py_BEGIN_ALLOW_THREADS
    pthread_join(t, NULL);
    Py_END_ALLOW_THREADS
  }
  pthread_mutex_destroy(&j->mu);
  pthread_cond_destroy(&j->cv);
  if (interrupted) return NULL;
  if (j->rc != FO_OK) {
    fo_set_error(j->rc, j->msg);
    return fopy_raise(j->rc);
  }
  return typed_report(j, report_dict(j));
}

/* The option keywords shared by both importers (after their positional arguments). */
#define OPT_KWLIST                                                                           \
  "format", "undirected", "remove_self_loops", "dedup", "drop_unknown", "relabel", "csc",   \
      "csr", "index_dtype", "num_nodes", "features", "labels", "splits", "feature_dtype",    \
      "split_seed", "force", "progress", "string_ids", "src_column", "dst_column", "node_arrays", \
      "arrays", "allow_nonfinite", "edge_weight", "edge_time", "node_time", "weight_col",    \
      "time_col", "time_format", NULL
#define OPT_FORMAT_TAIL "spppppppsLzzzsKpppiizzpzzziis"
#define OPT_FORMAT "|$" OPT_FORMAT_TAIL

typedef struct raw_opts {
  const char *format, *index_dtype, *feature_dtype;
  int undirected, remove_self_loops, dedup, drop_unknown, relabel, csc, csr, force, progress;
  int string_ids, src_column, dst_column, allow_nonfinite;
  long long num_nodes;
  unsigned long long split_seed;
  const char *features, *labels, *splits, *node_arrays, *arrays;
  const char *edge_weight, *edge_time, *node_time, *time_format;
  int weight_col, time_col;
} raw_opts;

#define OPT_ARGS(r)                                                                          \
  &(r).format, &(r).undirected, &(r).remove_self_loops, &(r).dedup, &(r).drop_unknown,      \
      &(r).relabel, &(r).csc, &(r).csr, &(r).index_dtype, &(r).num_nodes, &(r).features,    \
      &(r).labels, &(r).splits, &(r).feature_dtype, &(r).split_seed, &(r).force, &(r).progress, \
      &(r).string_ids, &(r).src_column, &(r).dst_column, &(r).node_arrays, &(r).arrays,       \
      &(r).allow_nonfinite, &(r).edge_weight, &(r).edge_time, &(r).node_time, &(r).weight_col, \
      &(r).time_col, &(r).time_format

static void raw_defaults(raw_opts *r) {
  fo_import_opts o;
  fo_import_opts_init(&o);
  memset(r, 0, sizeof *r);
  r->format = "edgelist";
  r->index_dtype = "auto";
  r->feature_dtype = "auto";
  r->csc = o.csc;
  r->csr = o.csr;
  r->num_nodes = -1;
  r->split_seed = o.split_seed;
  r->src_column = o.src_column;
  r->dst_column = o.dst_column;
  r->weight_col = o.weight_column;
  r->time_col = o.time_column;
  r->time_format = "unix";
}

/* Translate the parsed keywords into `o`; -1 with ValueError for a bad name. */
static int to_opts(const raw_opts *r, fo_import_opts *o) {
  int rc;
  fo_import_opts_init(o);
  if ((rc = fo_format_parse(r->format, &o->format)) != FO_OK) {
    fopy_raise(rc);
    return -1;
  }
  o->undirected = r->undirected;
  o->remove_self_loops = r->remove_self_loops;
  o->dedup = r->dedup;
  o->drop_unknown = r->drop_unknown;
  o->relabel = r->relabel;
  o->string_ids = r->string_ids;
  o->src_column = r->src_column;
  o->dst_column = r->dst_column;
  o->csc = r->csc;
  o->csr = r->csr;
  if (!strcmp(r->index_dtype, "auto")) o->index_dtype = FO_INDEX_AUTO;
  else if (!strcmp(r->index_dtype, "int32")) o->index_dtype = FO_INDEX_INT32;
  else if (!strcmp(r->index_dtype, "int64")) o->index_dtype = FO_INDEX_INT64;
  else {
    PyErr_Format(PyExc_ValueError, "index_dtype: '%s' is not auto, int32 or int64",
                 r->index_dtype);
    return -1;
  }
  if (r->num_nodes < -1) {
    PyErr_Format(PyExc_ValueError, "num_nodes: %lld is negative", r->num_nodes);
    return -1;
  }
  o->num_nodes = r->num_nodes;
  o->features = r->features;
  o->labels = r->labels;
  o->splits = r->splits;
  o->node_arrays = r->node_arrays;
  o->arrays = r->arrays;
  if (!strcmp(r->feature_dtype, "auto")) o->feature_dtype = FO_FEATURES_AUTO;
  else if (!strcmp(r->feature_dtype, "float32")) o->feature_dtype = FO_FEATURES_FLOAT32;
  else if (!strcmp(r->feature_dtype, "float16")) o->feature_dtype = FO_FEATURES_FLOAT16;
  else if (!strcmp(r->feature_dtype, "bfloat16")) o->feature_dtype = FO_FEATURES_BFLOAT16;
  else if (!strcmp(r->feature_dtype, "uint8")) o->feature_dtype = FO_FEATURES_UINT8;
  else {
    PyErr_Format(PyExc_ValueError,
                 "feature_dtype: '%s' is not auto, float32, float16, bfloat16 or uint8",
                 r->feature_dtype);
    return -1;
  }
  o->split_seed = r->split_seed;
  o->force = r->force;
  o->progress = r->progress;
  o->allow_nonfinite = r->allow_nonfinite;
  o->edge_weight = r->edge_weight;
  o->edge_time = r->edge_time;
  o->node_time = r->node_time;
  o->weight_column = r->weight_col;
  o->time_column = r->time_col;
  if (!strcmp(r->time_format, "unix")) o->time_format = FO_TIME_UNIX;
  else if (!strcmp(r->time_format, "iso8601")) o->time_format = FO_TIME_ISO8601;
  else {
    PyErr_Format(PyExc_ValueError, "time_format: '%s' is not unix or iso8601", r->time_format);
    return -1;
  }
  return 0;
}

/* import_dataset(inputs, output, *, reverse_edges=False (OGB's heterogeneous layout),
 * format=..., ...) -> report dict */
PyObject *fopy_import(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"inputs", "output", "reverse_edges", OPT_KWLIST};
  PyObject *inputs, *seq = NULL, *out = NULL, *ret = NULL, **enc = NULL;
  const char **paths = NULL;
  Py_ssize_t n = 0, n_enc = 0;
  raw_opts r;
  job *j = NULL;
  int reverse = 0;

  raw_defaults(&r);
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO&|$p" OPT_FORMAT_TAIL ":import_dataset", kwlist,
                                   &inputs, PyUnicode_FSConverter, &out, &reverse, OPT_ARGS(r)))
    return NULL;
  if (PyUnicode_Check(inputs) || PyBytes_Check(inputs)) {
    PyErr_SetString(PyExc_TypeError, "inputs: expected a list of paths, not one string");
    goto out;
  }
  if (!(seq = PySequence_Fast(inputs, "inputs: expected a list of paths"))) goto out;
  n = PySequence_Fast_GET_SIZE(seq);
  if (n > 1024) {
    PyErr_Format(PyExc_ValueError, "inputs: %zd files is too many", n);
    goto out;
  }
  if (!(enc = PyMem_Calloc((size_t)(n ? n : 1), sizeof *enc)) ||
      !(paths = PyMem_Calloc((size_t)(n ? n : 1), sizeof *paths))) {
    PyErr_NoMemory();
    goto out;
  }
  for (Py_ssize_t i = 0; i < n; i++, n_enc++) {
    if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(seq, i), &enc[i])) goto out;
    paths[i] = PyBytes_AS_STRING(enc[i]);
  }
  if (!(j = PyMem_Calloc(1, sizeof *j))) {
    PyErr_NoMemory();
    goto out;
  }
  if (to_opts(&r, &j->o) < 0) goto out;
  j->o.reverse_edges = reverse != 0;
  j->inputs = paths;
  j->n_inputs = (int)n;
  j->out = PyBytes_AS_STRING(out);
  ret = run_job(j);
out:
  for (Py_ssize_t i = 0; i < n_enc; i++) Py_XDECREF(enc[i]);
  PyMem_Free(enc);
  PyMem_Free(paths);
  PyMem_Free(j);
  Py_XDECREF(seq);
  Py_XDECREF(out);
  return ret;
}

/* import_edges(src, dst, output, *, ...) -> report dict */
PyObject *fopy_import_edges(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"src", "dst", "output", OPT_KWLIST};
  PyObject *src_obj, *dst_obj, *out = NULL, *ret = NULL;
  PyArrayObject *src = NULL, *dst = NULL;
  raw_opts r;
  job *j = NULL;

  raw_defaults(&r);
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO&" OPT_FORMAT ":import_edges", kwlist,
                                   &src_obj, &dst_obj, PyUnicode_FSConverter, &out,
                                   OPT_ARGS(r)))
    return NULL;
  src = (PyArrayObject *)PyArray_FROMANY(src_obj, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY);
  if (!src) goto out;
  dst = (PyArrayObject *)PyArray_FROMANY(dst_obj, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY);
  if (!dst) goto out;
  if (PyArray_DIM(src, 0) != PyArray_DIM(dst, 0)) {
    PyErr_Format(PyExc_ValueError, "src has %zd edges, dst %zd", (Py_ssize_t)PyArray_DIM(src, 0),
                 (Py_ssize_t)PyArray_DIM(dst, 0));
    goto out;
  }
  if (!(j = PyMem_Calloc(1, sizeof *j))) {
    PyErr_NoMemory();
    goto out;
  }
  if (to_opts(&r, &j->o) < 0) goto out;
  j->src = (const int64_t *)PyArray_DATA(src);
  j->dst = (const int64_t *)PyArray_DATA(dst);
  j->n_edges = (int64_t)PyArray_DIM(src, 0);
  j->out = PyBytes_AS_STRING(out);
  ret = run_job(j);
out:
  PyMem_Free(j);
  Py_XDECREF(src);
  Py_XDECREF(dst);
  Py_XDECREF(out);
  return ret;
}

/* ---- typed (heterogeneous) import: fo_import with edge_types / node_type_opts ---- */

/* A str item of a tuple as UTF-8 (kept alive by the tuple), or NULL for None; *bad set on
 * a wrong type (TypeError naming `what`). */
static const char *tuple_str(PyObject *t, Py_ssize_t i, const char *what, int *bad) {
  PyObject *v = PyTuple_GET_ITEM(t, i);
  if (v == Py_None) return NULL;
  if (!PyUnicode_Check(v)) {
    PyErr_Format(PyExc_TypeError, "%s: expected a str, got %s", what, Py_TYPE(v)->tp_name);
    *bad = 1;
    return NULL;
  }
  const char *s = PyUnicode_AsUTF8(v);
  if (!s) *bad = 1;
  return s;
}

/* _import_typed(output, edge_types, node_types, reverse_edges, *, <import options>):
 * edge_types: [(src, rel, dst, path)]; node_types: [(name, num_nodes, node_ids, features,
 * labels, splits)] (str or None; num_nodes -1 = infer). fanout.import_dataset builds them. */
PyObject *fopy_import_typed(PyObject *self, PyObject *args, PyObject *kw) {
  static const char *const no_inputs[1] = {NULL};
  static char *kwlist[] = {"output",     "edge_types", "node_types", "reverse_edges",
                           "edge_weights", "edge_times", "node_times", OPT_KWLIST};
  PyObject *out = NULL, *ets_obj, *nts_obj, *ets = NULL, *nts = NULL, *ret = NULL;
  PyObject *pair_obj[3], *pairs[3] = {NULL, NULL, NULL};
  fo_import_edge_type *et = NULL;
  fo_import_node_type *nt = NULL;
  fo_import_edge_weight *ew[2] = {NULL, NULL};
  fo_import_node_time *ntm = NULL;
  Py_ssize_t n_et, n_nt, n_pair[3];
  int reverse = 0, bad = 0;
  raw_opts r;
  job *j = NULL;

  raw_defaults(&r);
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&OOpOOO" OPT_FORMAT ":_import_typed", kwlist,
                                   PyUnicode_FSConverter, &out, &ets_obj, &nts_obj, &reverse,
                                   &pair_obj[0], &pair_obj[1], &pair_obj[2], OPT_ARGS(r)))
    return NULL;
  if (!(ets = PySequence_Tuple(ets_obj)) || !(nts = PySequence_Tuple(nts_obj))) goto out;
  /* per-type files: [(edge type "S__R__D" or node type, path)] for weights, times, node times */
  for (int q = 0; q < 3; q++) {
    static const char *const what[3] = {"edge_weight", "edge_time", "node_time"};
    if (!(pairs[q] = PySequence_Tuple(pair_obj[q]))) goto out;
    n_pair[q] = PyTuple_GET_SIZE(pairs[q]);
    if (n_pair[q] > 65536) {
      PyErr_Format(PyExc_ValueError, "%s: too many types", what[q]);
      goto out;
    }
    for (Py_ssize_t i = 0; i < n_pair[q]; i++) {
      PyObject *t = PyTuple_GET_ITEM(pairs[q], i);
      if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2) {
        PyErr_Format(PyExc_TypeError, "%s: expected (type, path) pairs", what[q]);
        goto out;
      }
    }
  }
  if (!(ew[0] = PyMem_Calloc((size_t)(n_pair[0] ? n_pair[0] : 1), sizeof *ew[0])) ||
      !(ew[1] = PyMem_Calloc((size_t)(n_pair[1] ? n_pair[1] : 1), sizeof *ew[1])) ||
      !(ntm = PyMem_Calloc((size_t)(n_pair[2] ? n_pair[2] : 1), sizeof *ntm))) {
    PyErr_NoMemory();
    goto out;
  }
  for (int q = 0; q < 3; q++)
    for (Py_ssize_t i = 0; i < n_pair[q]; i++) {
      PyObject *t = PyTuple_GET_ITEM(pairs[q], i);
      const char *ty = tuple_str(t, 0, q == 2 ? "node_time: node type" : "edge type", &bad);
      const char *path = tuple_str(t, 1, "path", &bad);
      if (bad) goto out;
      if (!ty || !path) {
        PyErr_SetString(PyExc_TypeError, "per-type file: type and path must be str");
        goto out;
      }
      if (q < 2) {
        ew[q][i].edge_type = ty;
        ew[q][i].path = path;
      } else {
        ntm[i].node_type = ty;
        ntm[i].path = path;
      }
    }
  n_et = PyTuple_GET_SIZE(ets);
  n_nt = PyTuple_GET_SIZE(nts);
  if (n_et > 65536 || n_nt > 65536) {
    PyErr_SetString(PyExc_ValueError, "edge_types: too many types");
    goto out;
  }
  if (!(et = PyMem_Calloc((size_t)(n_et ? n_et : 1), sizeof *et)) ||
      !(nt = PyMem_Calloc((size_t)(n_nt ? n_nt : 1), sizeof *nt)) ||
      !(j = PyMem_Calloc(1, sizeof *j))) {
    PyErr_NoMemory();
    goto out;
  }
  for (Py_ssize_t i = 0; i < n_et; i++) {
    PyObject *t = PyTuple_GET_ITEM(ets, i);
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 4) {
      PyErr_SetString(PyExc_TypeError, "edge_types: expected (src, rel, dst, path) tuples");
      goto out;
    }
    et[i].src = tuple_str(t, 0, "edge_types: src", &bad);
    et[i].rel = tuple_str(t, 1, "edge_types: rel", &bad);
    et[i].dst = tuple_str(t, 2, "edge_types: dst", &bad);
    et[i].path = tuple_str(t, 3, "edge_types: path", &bad);
    if (bad) goto out;
  }
  for (Py_ssize_t i = 0; i < n_nt; i++) {
    PyObject *t = PyTuple_GET_ITEM(nts, i);
    long long nn;
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 6) {
      PyErr_SetString(PyExc_TypeError, "node_types: expected (name, num_nodes, node_ids, "
                                       "features, labels, splits) tuples");
      goto out;
    }
    nt[i].name = tuple_str(t, 0, "node_types: name", &bad);
    nn = PyLong_AsLongLong(PyTuple_GET_ITEM(t, 1));
    if (nn == -1 && PyErr_Occurred()) goto out;
    nt[i].num_nodes = (int64_t)nn;
    nt[i].node_ids = tuple_str(t, 2, "node_types: node_ids", &bad);
    nt[i].features = tuple_str(t, 3, "node_types: features", &bad);
    nt[i].labels = tuple_str(t, 4, "node_types: labels", &bad);
    nt[i].splits = tuple_str(t, 5, "node_types: split", &bad);
    if (bad) goto out;
  }
  if (to_opts(&r, &j->o) < 0) goto out;
  j->o.edge_types = et;
  j->o.n_edge_types = (int32_t)n_et;
  j->o.node_type_opts = nt;
  j->o.n_node_type_opts = (int32_t)n_nt;
  j->o.reverse_edges = reverse;
  j->o.edge_weights = ew[0];
  j->o.n_edge_weights = (int32_t)n_pair[0];
  j->o.edge_times = ew[1];
  j->o.n_edge_times = (int32_t)n_pair[1];
  j->o.node_times = ntm;
  j->o.n_node_times = (int32_t)n_pair[2];
  j->inputs = no_inputs; /* fo_import (not fo_import_edges), with no input files */
  j->n_inputs = 0;
  j->out = PyBytes_AS_STRING(out);
  ret = run_job(j);
out:
  PyMem_Free(et);
  PyMem_Free(nt);
  PyMem_Free(ew[0]);
  PyMem_Free(ew[1]);
  PyMem_Free(ntm);
  PyMem_Free(j);
  for (int q = 0; q < 3; q++) Py_XDECREF(pairs[q]);
  Py_XDECREF(ets);
  Py_XDECREF(nts);
  Py_XDECREF(out);
  return ret;
}
