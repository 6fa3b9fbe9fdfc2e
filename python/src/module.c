/*
 * python/src/module.c: the `fanout._fanout` extension module: its initialization, the
 * exception mapping from fanout status codes (fopy_raise), and the small free functions
 * (version, digests, permutations, log level, thread budget). The types live in dataset.c and
 * loader.c; the pure-Python package python/fanout/ builds the public API on top.
 */
#define FOPY_MODULE_C
#include "pyfanout.h"

#include <string.h>

PyObject *fopy_FormatError;

PyObject *fopy_raise(int rc) {
  const char *msg = fo_last_error();
  PyObject *type, *exc, *name;

  switch (rc) {
  case FO_EINVAL:
  case FO_ERANGE: type = PyExc_ValueError; break;
  case FO_EIO: type = PyExc_OSError; break;
  case FO_EFORMAT: type = fopy_FormatError; break;
  case FO_ENOMEM: type = PyExc_MemoryError; break;
  default: type = PyExc_RuntimeError; break;
  }
  if (!msg || !*msg) msg = fo_status_name(rc);
  /* The message is fanout's own text (UTF-8, but it may be cut inside a character, or carry
   * bytes of a file name or another process's message): undecodable bytes are replaced.
   * Build the instance so that it can carry `status`. */
  {
    PyObject *text = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
    if (!text) return NULL;
    exc = PyObject_CallFunctionObjArgs(type, text, NULL);
    Py_DECREF(text);
  }
  if (!exc) return NULL;
  name = PyUnicode_FromString(fo_status_name(rc));
  if (!name || PyObject_SetAttrString(exc, "status", name) < 0) {
    Py_XDECREF(name);
    Py_DECREF(exc);
    return NULL;
  }
  Py_DECREF(name);
  PyErr_SetObject(type, exc);
  Py_DECREF(exc);
  return NULL;
}

static PyObject *py_version(PyObject *self, PyObject *unused) {
  return PyUnicode_FromString(fo_version());
}

static PyObject *py_status_name(PyObject *self, PyObject *arg) {
  long rc = PyLong_AsLong(arg);
  if (rc == -1 && PyErr_Occurred()) return NULL;
  return PyUnicode_FromString(fo_status_name((int)rc));
}

/* digest_sequence(digests): XXH64 over a sequence of uint64 batch digests (an epoch digest,
 * as `fanout bench --digest` prints it). */
static PyObject *py_digest_sequence(PyObject *self, PyObject *arg) {
  PyObject *seq = PySequence_Fast(arg, "digest_sequence: expected a sequence of ints");
  Py_ssize_t n;
  uint64_t *d, h;

  if (!seq) return NULL;
  n = PySequence_Fast_GET_SIZE(seq);
  if (!(d = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *d))) {
    Py_DECREF(seq);
    return PyErr_NoMemory();
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    d[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
    if (PyErr_Occurred()) {
      PyMem_Free(d);
      Py_DECREF(seq);
      return NULL;
    }
  }
  h = fo_digest_sequence(d, (int64_t)n);
  PyMem_Free(d);
  Py_DECREF(seq);
  return PyLong_FromUnsignedLongLong(h);
}

/* random_permutation(n, seed, epoch): the int64 [n] permutation of a shuffled epoch. */
static PyObject *py_random_permutation(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"n", "seed", "epoch", NULL};
  long long n;
  unsigned long long seed = 0, epoch = 0;
  npy_intp dims[1];
  PyObject *arr;
  int rc;

  if (!PyArg_ParseTupleAndKeywords(args, kw, "L|KK:random_permutation", kwlist, &n, &seed,
                                   &epoch))
    return NULL;
  if (n < 0) {
    PyErr_Format(PyExc_ValueError, "random_permutation: n = %lld is negative", n);
    return NULL;
  }
  dims[0] = (npy_intp)n;
  if (!(arr = PyArray_SimpleNew(1, dims, NPY_INT64))) return NULL;
  Py_BEGIN_ALLOW_THREADS
  rc = fo_random_permutation((int64_t)n, (uint64_t)seed, (uint64_t)epoch,
                             (int64_t *)PyArray_DATA((PyArrayObject *)arr));
  Py_END_ALLOW_THREADS
  if (rc != FO_OK) {
    Py_DECREF(arr);
    return fopy_raise(rc);
  }
  return arr;
}

static PyObject *py_set_log_level(PyObject *self, PyObject *arg) {
  static const char *names[] = {"error", "warn", "info", "debug"};
  const char *s = PyUnicode_AsUTF8(arg);
  if (!s) return NULL;
  for (int i = 0; i < 4; i++) {
    if (!strcmp(s, names[i])) {
      fo_log_set_level((fo_log_level)i);
      Py_RETURN_NONE;
    }
  }
  PyErr_Format(PyExc_ValueError, "log level '%s' is not error, warn, info or debug", s);
  return NULL;
}

static PyObject *py_thread_budget(PyObject *self, PyObject *unused) {
  return PyLong_FromLong((long)fo_worker_thread_budget());
}

static PyMethodDef module_methods[] = {
    {"_abort_job", fopy_abort_job, METH_VARARGS,
     "_abort_job(why)\n--\n\nPrint why on stderr and end the MPI job (MPI_Abort)."},
    {"_job_state", fopy_job_state, METH_NOARGS,
     "_job_state()\n--\n\nWhether fanout started MPI and whether the last distributed context "
     "failed."},
    {"version", py_version, METH_NOARGS, "version()\n--\n\nThe C library's version string."},
    {"status_name", py_status_name, METH_O,
     "status_name(rc)\n--\n\nName of a fanout status code, e.g. -1 -> 'FO_EINVAL'."},
    {"digest_sequence", py_digest_sequence, METH_O,
     "digest_sequence(digests)\n--\n\nDigest of a sequence of batch digests (XXH64 over them as "
     "little-endian uint64), as `fanout bench --digest` prints it (in hex)."},
    {"random_permutation", FOPY_METH(py_random_permutation), METH_VARARGS | METH_KEYWORDS,
     "random_permutation(n, seed=0, epoch=0)\n--\n\nThe permutation of 0..n-1 (int64) that a "
     "shuffled epoch uses for its input order."},
    {"set_log_level", py_set_log_level, METH_O,
     "set_log_level(level)\n--\n\nLevel of fanout's log lines on stderr: 'error', 'warn' "
     "(default), 'info' or 'debug'."},
    {"worker_thread_budget", py_thread_budget, METH_NOARGS,
     "worker_thread_budget()\n--\n\nnum_cpu_threads of the successful worker init, else 0."},
    {"import_dataset", FOPY_METH(fopy_import), METH_VARARGS | METH_KEYWORDS,
     "Low-level importer; use fanout.import_dataset."},
    {"import_edges", FOPY_METH(fopy_import_edges), METH_VARARGS | METH_KEYWORDS,
     "Low-level edge-array importer; use fanout.import_edges."},
    {"_import_typed", FOPY_METH(fopy_import_typed), METH_VARARGS | METH_KEYWORDS,
     "Low-level typed importer; use fanout.import_dataset(edge_types=...)."},
    {"worker_init", FOPY_METH(fopy_worker_init), METH_VARARGS | METH_KEYWORDS,
     "Low-level fo_worker_init; use fanout.init_neighbor_loader_worker."},
    {"worker_plan", FOPY_METH(fopy_worker_plan), METH_VARARGS | METH_KEYWORDS,
     "Low-level fo_worker_plan; use fanout.worker_plan."},
    {"worker_current", fopy_worker_current, METH_NOARGS,
     "Low-level fo_worker_current: the recorded info as a dict, or None."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "fanout._fanout",
    "C extension of fanout (multi-hop neighbor sampling); see the `fanout` package.", -1,
    module_methods, NULL, NULL, NULL, NULL};

static int add_type(PyObject *m, PyTypeObject *t, const char *name) {
  if (PyType_Ready(t) < 0) return -1;
  Py_INCREF(t);
  if (PyModule_AddObject(m, name, (PyObject *)t) < 0) {
    Py_DECREF(t);
    return -1;
  }
  return 0;
}

PyMODINIT_FUNC PyInit__fanout(void);

PyMODINIT_FUNC PyInit__fanout(void) {
  PyObject *m;

  import_array();
  if (!(m = PyModule_Create(&module_def))) return NULL;
  fopy_FormatError = PyErr_NewExceptionWithDoc(
      "fanout.FormatError",
      "A malformed input file or a corrupt dataset (fanout's FO_EFORMAT); a ValueError.",
      PyExc_ValueError, NULL);
  if (!fopy_FormatError) goto fail;
  Py_INCREF(fopy_FormatError);
  if (PyModule_AddObject(m, "FormatError", fopy_FormatError) < 0) {
    Py_DECREF(fopy_FormatError);
    goto fail;
  }
  if (add_type(m, &fopy_DatasetType, "Dataset") < 0 || add_type(m, &fopy_PinType, "_Pin") < 0 ||
      add_type(m, &fopy_LoaderType, "Loader") < 0 ||
      add_type(m, &fopy_LoaderIterType, "LoaderIterator") < 0 ||
      add_type(m, &fopy_BatchType, "Batch") < 0 || add_type(m, &fopy_DistType, "Dist") < 0 ||
      add_type(m, &fopy_LinkSamplerType, "LinkSampler") < 0 ||
      add_type(m, &fopy_DistLinkLoaderType, "DistLinkLoader") < 0 ||
      add_type(m, &fopy_ABLPSamplerType, "ABLPSampler") < 0 ||
      add_type(m, &fopy_DistABLPLoaderType, "DistABLPLoader") < 0)
    goto fail;
  if (PyModule_AddStringConstant(m, "__version__", fo_version()) < 0) goto fail;
  return m;
fail:
  Py_DECREF(m);
  return NULL;
}
