/*
 * python/src/pyfanout.h: declarations shared by the files of the CPython extension
 * `fanout._fanout` (the .c files of python/src/), which wraps the public C API (<fanout/fanout.h>) for the
 * pure-Python package python/fanout/.
 *
 * Files: module.c (module init, exceptions, small functions), dataset.c (Dataset and the
 * read-only array views of its memory), importer.c (import_dataset/import_edges on a helper
 * thread so that Ctrl-C cancels them), loader.c (Loader, its per-epoch iterator and Batch),
 * worker.c (fo_worker_init and fo_worker_plan), dist.c (distributed contexts over MPI).
 *
 * Conventions: every function that returns a new reference returns NULL with a Python
 * exception set on failure; fanout's status codes become exceptions through fopy_raise(). The
 * GIL is released around every call that can block or take time (open, import, sampling,
 * joins); a lock of ours is never held while taking the GIL, so no thread waits for the GIL
 * while holding something another GIL holder needs.
 */
#ifndef FANOUT_PYFANOUT_H
#define FANOUT_PYFANOUT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL fopy_ARRAY_API
#ifndef FOPY_MODULE_C
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include <pthread.h>

#include <fanout/fanout.h>

/* ---- module.c ---- */

/** fanout.FormatError (a ValueError): malformed input file or corrupt dataset (FO_EFORMAT). */
extern PyObject *fopy_FormatError;

/**
 * Raise the Python exception for fanout status `rc` with this thread's fo_last_error() text
 * (or the status name when it is empty): FO_EINVAL, FO_ERANGE -> ValueError; FO_EIO ->
 * OSError; FO_EFORMAT -> FormatError; FO_ENOMEM -> MemoryError; others RuntimeError. The
 * exception gets an attribute `status` ("FO_EINVAL", ...). Returns NULL.
 */
PyObject *fopy_raise(int rc);

/** Cast a method implementation for PyMethodDef (avoids -Wcast-function-type). */
#define FOPY_METH(fn) ((PyCFunction)(void (*)(void))(fn))

/* ---- dataset.c ---- */

/**
 * The Python object of an open dataset. `closed` is set by close(); the C handle itself is
 * closed once nothing uses it any more (`n_users` == 0): loaders and array views each hold a
 * pin (fopy_pin_new) that counts as one user, so close() never invalidates memory that Python
 * objects still see.
 */
typedef struct fopy_dataset {
  PyObject_HEAD
  fo_dataset_t *d;     /* NULL once really closed */
  int closed;          /* close() was called: new uses raise ValueError */
  Py_ssize_t n_users;  /* live pins */
} fopy_dataset;

extern PyTypeObject fopy_DatasetType;
extern PyTypeObject fopy_PinType;

/** A new Dataset object of `type` (fopy_DatasetType or a subtype) that owns `d`; on failure
 *  `d` is closed and NULL returned with an exception. */
PyObject *fopy_dataset_wrap(PyTypeObject *type, fo_dataset_t *d);

/** "mmap" or "hugepage" into *out: 0, or -1 with ValueError set. */
int fopy_load_mode(const char *load, fo_load_mode *out);

/** The open handle, or NULL with ValueError("dataset is closed") set. */
fo_dataset_t *fopy_dataset_get(fopy_dataset *ds);

/** Count one more (+1) or one fewer (-1) user of `ds`; the C handle is closed when close()
 *  was called and no user is left (0 just checks that). */
void fopy_dataset_use(fopy_dataset *ds, int delta);

/** A new pin on `ds` (counts as a user until it is freed), or NULL with an exception. */
PyObject *fopy_pin_new(fopy_dataset *ds);

/**
 * A read-only NumPy view of `data` (C order) whose base is `owner` (a new reference to owner
 * is taken). `data` may be NULL when the array is empty. Returns a new reference or NULL.
 */
PyObject *fopy_view(PyObject *owner, const void *data, int nd, const npy_intp *dims,
                    PyArray_Descr *descr);

/** Same with a type number instead of a descriptor. */
PyObject *fopy_view_typed(PyObject *owner, const void *data, int nd, const npy_intp *dims,
                          int typenum);

/** NumPy type number of a feature dtype name ("float32", "float16", "bfloat16" -> int16
 *  bits, "uint8"), or -1 for an unknown name. */
int fopy_feature_typenum(const char *dtype);

/* ---- importer.c ---- */
PyObject *fopy_import(PyObject *self, PyObject *args, PyObject *kw);
PyObject *fopy_import_edges(PyObject *self, PyObject *args, PyObject *kw);
/** _import_typed(output, edge_types, node_types, reverse_edges, *, ...): a typed import. */
PyObject *fopy_import_typed(PyObject *self, PyObject *args, PyObject *kw);

/* ---- loader.c ---- */
extern PyTypeObject fopy_LoaderType;
extern PyTypeObject fopy_LoaderIterType;
extern PyTypeObject fopy_BatchType;

/* ---- dist.c ---- */
extern PyTypeObject fopy_DistType;

/* ---- linkcommon.c: shared by link.c and ablp.c ---- */

/** The sampler arguments of LinkSampler, ABLPSampler and their distributed loaders into `o`:
 *  fanouts (a sequence of ints), edge_type_fanouts (None or a sequence of ints), seed,
 *  replace, weighted and edge_dir ("in" or "out"). The two int32 lists are allocated
 *  (PyMem): free them with fopy_sampler_args_free, also when creation fails later. -1 with
 *  TypeError (not sequences of ints) or ValueError (edge_dir) set, nothing left allocated. */
int fopy_sampler_args(PyObject *fanouts, PyObject *edge_type_fanouts, unsigned long long seed,
                      int replace, int weighted, const char *edge_dir, fo_sampler_opts *o);
void fopy_sampler_args_free(fo_sampler_opts *o);
/** fo_dist_loader_opts_init(dlo), then tail ("keep", "drop", "pad") and seed placement
 *  ("global", "local"); -1 with ValueError naming the bad value. */
int fopy_dist_loader_args(const char *tail, const char *placement, fo_dist_loader_opts *dlo);
/** A new int64 array of shape [d0] (nd 1) or [d0, d1] (nd 2), a copy of a. */
PyObject *fopy_copy_i64(const int64_t *a, int nd, npy_intp d0, npy_intp d1);
/** dict[key] = v, stealing v (NULL v: -1, the exception already set). */
int fopy_put(PyObject *dict, const char *key, PyObject *v);
/** The sampled subgraph s as dict entries "node", "num_sampled_nodes", "row", "col", "edge",
 *  "num_sampled_edges" (and "batch", one array or None per node type, when `batch`): lists
 *  with one array (a copy) per node or edge type (one item for an untyped dataset). */
int fopy_put_sample(PyObject *dict, const fo_batch_t *s, bool batch);
/** A list of one array (a copy, [n_nodes of the type, dim] in the stored dtype) or None per
 *  node type of a loader batch's features x[0..n_types); `what` names the batch in the
 *  error for an unknown dtype. */
PyObject *fopy_batch_features(const fo_batch_t *s, const fo_loader_features *x, int32_t n_types,
                              const char *what);
/** Sums of a batch's per-hop requests and bytes. */
void fopy_hop_traffic(const fo_dist_batch_stats *st, long long *requests, long long *bytes);

/** What a Python object over a C sampler or loader of link.c / ablp.c holds besides it: a
 *  pin on its dataset, the DistContext it is a user of (NULL for a sampler), and the mutex
 *  that makes its calls one at a time. Zero-initialized by tp_alloc. */
typedef struct fopy_holder {
  PyObject *pin;
  PyObject *dist;
  pthread_mutex_t mu;
  int mu_ready;
} fopy_holder;
/** Pin `dataset` (a fanout.Dataset), take a reference to `dist` (NULL: none) and count the
 *  object as its user, make the mutex. -1 with an exception (the pin failed). */
int fopy_holder_set(fopy_holder *h, PyObject *dataset, PyObject *dist);
/** Undo fopy_holder_set (whatever of it was done). */
void fopy_holder_fini(fopy_holder *h);
/** start_epoch(epoch) and num_batches() of a loader L (NULL: RuntimeError "<type> is not
 *  initialised"), under the mutex with the GIL released. */
PyObject *fopy_holder_start_epoch(fopy_holder *h, PyObject *args, const char *type,
                                  int (*start)(void *L, uint64_t epoch), void *L);
PyObject *fopy_holder_num_batches(fopy_holder *h, const char *type,
                                  int64_t (*num_batches)(const void *L), const void *L);

/* ---- link.c ---- */
extern PyTypeObject fopy_LinkSamplerType; /* LinkSampler: fo_link_sampler_t */
/* DistLinkLoader: fo_dist_link_loader_create (dist.h) */
extern PyTypeObject fopy_DistLinkLoaderType;
/* ---- ablp.c ---- */
extern PyTypeObject fopy_ABLPSamplerType; /* ABLPSampler: fo_ablp_sampler_t */
extern PyTypeObject fopy_DistABLPLoaderType; /* DistABLPLoader: fo_dist_ablp_loader_create */

/** The context of a Dist object, or NULL with TypeError (not a Dist) or ValueError
 *  (finalized) set. */
fo_dist_t *fopy_dist_get(PyObject *dist);

/** The remote feature cache's Python arguments into dlo (cache_bytes >= 0, cache_policy
 *  "degree" | "frequency" | "lookahead", lookahead 1..1024): 0, or -1 with ValueError naming
 *  the argument. Shared by DistNeighborLoader, DistLinkNeighborLoader and DistABLPLoader. */
int fopy_cache_opts(long long cache_bytes, const char *cache_policy, int lookahead,
                    fo_dist_loader_opts *dlo);

/** Count a loader over `dist` as a user (+1) or no longer (-1): finalize() refuses while
 *  any is left. Called with the GIL held. */
void fopy_dist_use(PyObject *dist, int delta);

/** _fanout._abort_job(why): print why, wait half a second, MPI_Abort (if MPI is running). */
PyObject *fopy_abort_job(PyObject *module, PyObject *args);

/** _fanout._job_state(): {"mpi_owned": fanout started MPI, "failed": the last context to end
 *  failed, "message": its message}. */
PyObject *fopy_job_state(PyObject *module, PyObject *unused);

/* ---- worker.c ---- */
PyObject *fopy_worker_init(PyObject *self, PyObject *args, PyObject *kw);
PyObject *fopy_worker_plan(PyObject *self, PyObject *args, PyObject *kw);
PyObject *fopy_worker_current(PyObject *self, PyObject *unused);

#endif
