/*
 * python/src/dist.c: distributed sampling for Python: `Dist` (the base of fanout.DistContext),
 * a fo_dist_t over MPI_COMM_WORLD, or over the caller's communicator (an mpi4py one: the
 * package passes the address of its MPI_Comm handle, from mpi4py's MPI._addressof, so that
 * nothing here needs mpi4py's headers; fo_dist_init_mpi duplicates it).
 *
 * MPI: the front end is the MPI program here, so it starts MPI (MPI_Init_thread with
 * MPI_THREAD_MULTIPLE) when the process has not, and ends it when the interpreter exits:
 * MPI_Finalize when the last context ended cleanly, MPI_Abort (with a message on stderr, after
 * half a second for the failure notices to travel) when it failed or one is still open, so
 * that a failed job ends on every rank instead of waiting in MPI_Finalize for a rank that is
 * gone or stopped. The package's atexit hook (fanout/__init__.py, run before other atexit
 * hooks registered earlier, such as mpi4py's MPI_Finalize) ends failed jobs the same way
 * (_abort_job) whoever started MPI. A process that started MPI itself must have asked for
 * MPI_THREAD_MULTIPLE; fo_dist_init_mpi checks it on every rank. With a communicator given, MPI
 * must be running already (mpi4py started it), MPI_COMM_WORLD is not used at all: the job is
 * ended with MPI_Abort on a duplicate of the last such communicator.
 *
 * Lifetime: loaders made over a context hold a reference to it and count as its users;
 * finalize() refuses while any exists (their threads may still call other machines). The
 * dataset this process serves (the first open_dataset) is kept by the context until finalize.
 * Every call that waits on other processes (init, open_dataset, finalize) runs with the GIL
 * released.
 *
 * Built without MPI, Dist() raises RuntimeError (FO_ENOSYS).
 */
#include "pyfanout.h"

#ifdef FO_WITH_MPI
#include <mpi.h>
#endif

#include <structmember.h>

#include <stdint.h>
#include <string.h>
#include <time.h>

typedef struct fopy_dist {
  PyObject_HEAD
  fo_dist_t *dd;      /* NULL once finalized */
  fopy_dataset *served; /* the Dataset this process serves: a user of it until finalize */
  Py_ssize_t n_users; /* live loaders */
  long ranks[6];      /* rank, size, machine, machines, local rank, local size (kept after
                         finalize) */
  fo_dist_stats last; /* the counters at finalize */
} fopy_dist;

/* Contexts not yet finalized, and whether the last one to end failed (its message): the
 * exit then ends the MPI job with MPI_Abort. */
static Py_ssize_t g_open_contexts;
static int g_failed, g_mpi_owned, g_rank;
static char g_fail_msg[1100];

#ifdef FO_WITH_MPI
/* What MPI_Abort ends: a duplicate of the communicator the last context made with one was
 * given (each such context makes one, kept until exit: a duplicate made only by the first
 * would be a collective that some ranks of a later communicator skip), else MPI_COMM_WORLD. */
static MPI_Comm g_job_comm;
static int g_job_comm_set;

/* Say why on stderr, give the failure notices half a second, end the whole job. */
static void abort_job(const char *why) {
  struct timespec ts = {0, 500000000L};
  fprintf(stderr, "fanout: rank %d: ending the MPI job (MPI_Abort): %s\n", g_rank, why);
  fflush(stderr);
  nanosleep(&ts, NULL);
  MPI_Abort(g_job_comm_set ? g_job_comm : MPI_COMM_WORLD, 1);
}

static void finalize_mpi(void) {
  int finalized = 0;
  if (MPI_Finalized(&finalized) != MPI_SUCCESS || finalized) return;
  if (g_failed) abort_job(g_fail_msg);
  if (g_open_contexts > 0) abort_job("a fanout.DistContext is still open at exit");
  MPI_Finalize();
}

/* Start MPI if this process has not: 0, or -1 with an exception. */
static int ensure_mpi(void) {
  int initialized = 0, provided = 0, err;
  if (MPI_Initialized(&initialized) == MPI_SUCCESS && initialized) return 0;
  Py_BEGIN_ALLOW_THREADS
  err = MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided);
  Py_END_ALLOW_THREADS
  if (err != MPI_SUCCESS) {
    PyErr_SetString(PyExc_RuntimeError, "fanout.DistContext: MPI_Init_thread failed");
    return -1;
  }
  g_mpi_owned = 1;
  Py_AtExit(finalize_mpi);
  return 0;
}

/* A caller's communicator (the address of its MPI_Comm handle, from mpi4py built against the
 * MPI library `lib`) into *out: 0, or -1 with an exception. MPI must be running, and be the
 * library this module is linked with (a handle of another MPI would be garbage here). */
static int foreign_comm(unsigned long long addr, const char *lib, MPI_Comm *out) {
  char mine[MPI_MAX_LIBRARY_VERSION_STRING];
  int initialized = 0, finalized = 0, len = 0;
  size_t n1, n2;
  if (MPI_Initialized(&initialized) != MPI_SUCCESS || !initialized ||
      MPI_Finalized(&finalized) != MPI_SUCCESS || finalized) {
    PyErr_SetString(PyExc_RuntimeError, "fanout.DistContext: comm given but MPI is not running "
                    "(mpi4py starts it at `from mpi4py import MPI` unless "
                    "mpi4py.rc.initialize is False)");
    return -1;
  }
  if (MPI_Get_library_version(mine, &len) != MPI_SUCCESS) len = 0;
  mine[len > 0 ? len : 0] = '\0';
  n1 = strcspn(mine, "\n");
  n2 = lib ? strcspn(lib, "\n") : 0;
  if (lib && (n1 != n2 || strncmp(mine, lib, n1) != 0)) {
    PyErr_Format(PyExc_RuntimeError, "fanout.DistContext: comm: mpi4py runs on another MPI "
                 "library than fanout (mpi4py: '%.*s'; fanout: '%.*s'): its communicators "
                 "cannot be used here", (int)n2, lib, (int)n1, mine);
    return -1;
  }
  *out = *(const MPI_Comm *)(uintptr_t)addr;
  return 0;
}
#endif

PyObject *fopy_abort_job(PyObject *module, PyObject *args) {
  const char *why;
  if (!PyArg_ParseTuple(args, "s:_abort_job", &why)) return NULL;
#ifdef FO_WITH_MPI
  {
    int initialized = 0, finalized = 0;
    if (MPI_Initialized(&initialized) == MPI_SUCCESS && initialized &&
        MPI_Finalized(&finalized) == MPI_SUCCESS && !finalized)
      abort_job(why);
  }
#endif
  Py_RETURN_NONE;
}

PyObject *fopy_job_state(PyObject *module, PyObject *unused) {
  return Py_BuildValue("{s:O,s:O,s:s}", "mpi_owned", g_mpi_owned ? Py_True : Py_False,
                       "failed", g_failed ? Py_True : Py_False, "message", g_fail_msg);
}

static PyObject *dist_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"procs_per_machine", "deadline", "_comm_address", "_comm_library",
                           NULL};
  int procs_per_machine = 0, rc;
  double deadline = 600.0;
  unsigned long long comm_address = 0; /* 0: MPI_COMM_WORLD */
  const char *comm_library = NULL;
  fo_dist_opts o;
  fo_dist_t *dd = NULL;
  fopy_dist *self;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|idKz:Dist", kwlist, &procs_per_machine,
                                   &deadline, &comm_address, &comm_library))
    return NULL;
  fo_dist_opts_init(&o);
  o.procs_per_machine = procs_per_machine;
  o.deadline_s = deadline;
#ifdef FO_WITH_MPI
  {
    MPI_Comm comm;
    if (comm_address) {
      if (foreign_comm(comm_address, comm_library, &comm) < 0) return NULL;
    } else {
      if (ensure_mpi() < 0) return NULL;
      comm = MPI_COMM_WORLD;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = fo_dist_init_mpi(&comm, &o, &dd);
    /* collective like the init, which succeeded on every rank of comm */
    if (rc == FO_OK && comm_address) {
      MPI_Comm job;
      if (MPI_Comm_dup(comm, &job) == MPI_SUCCESS) {
        g_job_comm = job;
        g_job_comm_set = 1;
      }
    }
    Py_END_ALLOW_THREADS
  }
#else
  {
    int comm = 0;
    rc = fo_dist_init_mpi(&comm, &o, &dd);
  }
#endif
  if (rc != FO_OK) return fopy_raise(rc);
  if (!(self = (fopy_dist *)type->tp_alloc(type, 0))) {
    Py_BEGIN_ALLOW_THREADS
    fo_dist_finalize(dd);
    Py_END_ALLOW_THREADS
    return NULL;
  }
  self->dd = dd;
  self->ranks[0] = fo_dist_rank(dd);
  self->ranks[1] = fo_dist_size(dd);
  self->ranks[2] = fo_dist_machine_rank(dd);
  self->ranks[3] = fo_dist_num_machines(dd);
  self->ranks[4] = fo_dist_local_rank(dd);
  self->ranks[5] = fo_dist_local_size(dd);
  g_rank = (int)self->ranks[0];
  g_open_contexts++;
  return (PyObject *)self;
}

/* fo_dist_finalize with the GIL released; the served dataset is let go after it. */
static int do_finalize(fopy_dist *self) {
  fo_dist_t *dd = self->dd;
  int rc;
  if (!dd) return FO_OK;
  self->dd = NULL;
  fo_dist_get_stats(dd, &self->last);
  Py_BEGIN_ALLOW_THREADS
  rc = fo_dist_finalize(dd);
  Py_END_ALLOW_THREADS
  g_open_contexts--;
  g_failed = rc != FO_OK; /* the last context to end decides how the job ends */
  if (rc != FO_OK) snprintf(g_fail_msg, sizeof g_fail_msg, "%s", fo_last_error());
  if (self->served) { /* the server thread is gone: the dataset may close */
    fopy_dataset_use(self->served, -1);
    Py_CLEAR(self->served);
  }
  return rc;
}

static void dist_dealloc(fopy_dist *self) {
  /* loaders hold references: none is left; no exception can be raised here: say it */
  if (do_finalize(self) != FO_OK) {
    fprintf(stderr, "fanout: rank %ld: a fanout.DistContext deleted without finalize() "
            "failed: %s\n", self->ranks[0], g_fail_msg);
    fflush(stderr);
  }
  Py_TYPE(self)->tp_free((PyObject *)self);
}

fo_dist_t *fopy_dist_get(PyObject *obj) {
  fopy_dist *self = (fopy_dist *)obj;
  if (!PyObject_TypeCheck(obj, &fopy_DistType)) {
    PyErr_Format(PyExc_TypeError, "expected a fanout.DistContext, got %s", Py_TYPE(obj)->tp_name);
    return NULL;
  }
  if (!self->dd) {
    PyErr_SetString(PyExc_ValueError, "the fanout.DistContext is finalized");
    return NULL;
  }
  return self->dd;
}

void fopy_dist_use(PyObject *obj, int delta) {
  ((fopy_dist *)obj)->n_users += delta;
}

static PyObject *dist_open_dataset(fopy_dist *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "load", "cls", NULL};
  PyObject *path = NULL;
  PyTypeObject *cls = &fopy_DatasetType;
  fopy_dataset *ds;
  const char *load = "mmap";
  fo_dataset_opts o;
  fo_dataset_t *d = NULL;
  fo_dist_t *dd = fopy_dist_get((PyObject *)self);
  int rc;
  if (!dd) return NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|sO!:open_dataset", kwlist,
                                   PyUnicode_FSConverter, &path, &load, &PyType_Type, &cls))
    return NULL;
  fo_dataset_opts_init(&o);
  if (fopy_load_mode(load, &o.load) < 0) {
    Py_DECREF(path);
    return NULL;
  }
  /* the object first (cls: the package's fanout.Dataset): once open, the first dataset is
   * served by another thread and must not be closed by a failure here */
  if (!PyType_IsSubtype(cls, &fopy_DatasetType)) {
    Py_DECREF(path);
    PyErr_Format(PyExc_TypeError, "cls: %s is not a fanout.Dataset type", cls->tp_name);
    return NULL;
  }
  if (!(ds = (fopy_dataset *)cls->tp_alloc(cls, 0))) {
    Py_DECREF(path);
    return NULL;
  }
  self->n_users++; /* no finalize from another thread while the GIL is released */
  Py_BEGIN_ALLOW_THREADS
  rc = fo_dist_open_dataset(dd, PyBytes_AS_STRING(path), &o, &d);
  Py_END_ALLOW_THREADS
  self->n_users--;
  Py_DECREF(path);
  if (rc != FO_OK) {
    Py_DECREF(ds);
    return fopy_raise(rc);
  }
  ds->d = d;
  if (!self->served) { /* a user until finalize: close() cannot free it under the server */
    Py_INCREF(ds);
    self->served = ds;
    fopy_dataset_use(ds, +1);
  }
  return (PyObject *)ds;
}

static PyObject *dist_finalize(fopy_dist *self, PyObject *unused) {
  int rc;
  if (self->n_users > 0) {
    PyErr_Format(PyExc_RuntimeError, "fanout.DistContext.finalize: %zd loader%s (or calls in "
                 "other threads) still use%s this context (delete them first)", self->n_users,
                 self->n_users == 1 ? "" : "s", self->n_users == 1 ? "s" : "");
    return NULL;
  }
  if ((rc = do_finalize(self)) != FO_OK) return fopy_raise(rc);
  Py_RETURN_NONE;
}

static PyObject *dist_failed(fopy_dist *self, PyObject *unused) {
  const char *msg = NULL;
  if (!self->dd) Py_RETURN_NONE;
  if (!fo_dist_failed(self->dd, &msg)) Py_RETURN_NONE;
  return PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
}

static PyObject *dist_abort(fopy_dist *self, PyObject *args) {
  const char *reason;
  fo_dist_t *dd = fopy_dist_get((PyObject *)self);
  if (!dd || !PyArg_ParseTuple(args, "s:abort", &reason)) return NULL;
  (void)fo_dist_abort(dd, reason);
  Py_RETURN_NONE;
}

static PyObject *dist_stats(fopy_dist *self, PyObject *unused) {
  fo_dist_stats st;
  PyObject *req = NULL, *by = NULL, *out;
  int n = 0;
  if (self->dd) fo_dist_get_stats(self->dd, &st);
  else st = self->last;
  for (int h = 0; h < 64; h++)
    if (st.hop_requests[h]) n = h + 1;
  if (!(req = PyList_New(n)) || !(by = PyList_New(n))) goto fail;
  for (int h = 0; h < n; h++) {
    PyObject *a = PyLong_FromLongLong(st.hop_requests[h]), *b;
    if (!a) goto fail;
    PyList_SET_ITEM(req, h, a);
    if (!(b = PyLong_FromLongLong(st.hop_bytes[h]))) goto fail;
    PyList_SET_ITEM(by, h, b);
  }
  out = Py_BuildValue("{s:N,s:N,s:L,s:L,s:L}", "hop_requests", req, "hop_bytes", by,
                      "fetch_requests", (long long)st.fetch_requests, "fetch_bytes",
                      (long long)st.fetch_bytes, "served", (long long)st.served);
  return out;
fail:
  Py_XDECREF(req);
  Py_XDECREF(by);
  return NULL;
}

static PyObject *dist_get_rank_field(fopy_dist *self, void *closure) {
  return PyLong_FromLong(self->ranks[(intptr_t)closure]);
}

static PyObject *dist_get_finalized(fopy_dist *self, void *closure) {
  return PyBool_FromLong(self->dd == NULL);
}

static PyObject *dist_get_users(fopy_dist *self, void *closure) {
  return PyLong_FromSsize_t(self->n_users);
}

static PyMethodDef dist_methods[] = {
    {"open_dataset", FOPY_METH(dist_open_dataset), METH_VARARGS | METH_KEYWORDS,
     "open_dataset(path, load='mmap', cls=Dataset): the partitioned dataset's top level and "
     "this machine's part (fo_dist_open_dataset); the first one opened is the part this "
     "process serves."},
    {"finalize", FOPY_METH(dist_finalize), METH_NOARGS,
     "Barrier with every process (with the deadline), stop the server, end the context "
     "(fo_dist_finalize). Raises if loaders over it still exist."},
    {"abort", FOPY_METH(dist_abort), METH_VARARGS,
     "abort(reason): fail the context on purpose and tell every other process (fo_dist_abort): "
     "their remote calls raise with 'rank R (machine M, local rank L) stopped the job: "
     "reason'."},
    {"failed", FOPY_METH(dist_failed), METH_NOARGS,
     "The message of the context's first failure (a deadline, a peer's failure), or None."},
    {"stats", FOPY_METH(dist_stats), METH_NOARGS,
     "This process's remote request and byte counters (fo_dist_get_stats) as a dict (their "
     "final values after finalize)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef dist_getset[] = {
    {"rank", (getter)dist_get_rank_field, NULL, "This process's rank in the job.", (void *)0},
    {"world_size", (getter)dist_get_rank_field, NULL, "Number of processes in the job.", (void *)1},
    {"machine_rank", (getter)dist_get_rank_field, NULL, "This process's machine.", (void *)2},
    {"num_machines", (getter)dist_get_rank_field, NULL, "Number of machines (= parts).", (void *)3},
    {"local_rank", (getter)dist_get_rank_field, NULL,
     "This process's rank on its machine (its worker group).", (void *)4},
    {"local_world_size", (getter)dist_get_rank_field, NULL, "Processes per machine.", (void *)5},
    {"finalized", (getter)dist_get_finalized, NULL, "Whether finalize() has run.", NULL},
    {"_users", (getter)dist_get_users, NULL, "Loaders (and calls in progress) using it.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject fopy_DistType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fanout._fanout.Dist",
    .tp_basicsize = sizeof(fopy_dist),
    .tp_dealloc = (destructor)dist_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A distributed context over MPI (fo_dist_t); use fanout.DistContext.",
    .tp_methods = dist_methods,
    .tp_getset = dist_getset,
    .tp_new = dist_new,
};
