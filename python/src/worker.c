/*
 * python/src/worker.c: the worker runtime (fo_worker_init, fo_worker_plan,
 * fo_worker_current) as functions returning plain dicts; fanout.init_neighbor_loader_worker
 * (python/fanout/__init__.py) gives them GiGL's signature and meaning.
 */
#include "pyfanout.h"

#include <stdlib.h>

static PyObject *id_list(const fo_worker_info *info, int numa) {
  int32_t n = numa ? fo_worker_info_numa(info, NULL, 0) : fo_worker_info_cpus(info, NULL, 0);
  int32_t *ids = PyMem_Malloc((size_t)(n > 0 ? n : 1) * sizeof *ids);
  PyObject *list;

  if (!ids) return PyErr_NoMemory();
  n = numa ? fo_worker_info_numa(info, ids, n) : fo_worker_info_cpus(info, ids, n);
  if (!(list = PyList_New(n))) {
    PyMem_Free(ids);
    return NULL;
  }
  for (int32_t i = 0; i < n; i++) {
    PyObject *v = PyLong_FromLong((long)ids[i]);
    if (!v) {
      Py_DECREF(list);
      PyMem_Free(ids);
      return NULL;
    }
    PyList_SET_ITEM(list, i, v);
  }
  PyMem_Free(ids);
  return list;
}

static PyObject *info_dict(const fo_worker_info *w) {
  PyObject *cpus = id_list(w, 0), *numa = cpus ? id_list(w, 1) : NULL, *d = NULL;
  if (cpus && numa)
    d = Py_BuildValue(
        "{s:s,s:i,s:i,s:i,s:i,s:O,s:i,s:i,s:i,s:O,s:O,s:O,s:i,s:i,s:i,s:O,s:i,s:i,s:d}",
        "group_name", w->group_name, "machine_rank", (int)w->machine_rank, "world_size",
        (int)w->world_size, "local_rank", (int)w->local_rank, "local_world_size",
        (int)w->local_world_size, "cpu_mode", w->cpu_mode ? Py_True : Py_False, "num_threads",
        (int)w->num_threads, "first_core", (int)w->first_core, "n_cores", (int)w->n_cores,
        "shared_cores", w->shared_cores ? Py_True : Py_False, "cpus", cpus, "numa", numa,
        "n_cores_total", (int)w->n_cores_total, "n_cpus_total", (int)w->n_cpus_total,
        "n_numa_total", (int)w->n_numa_total, "bound", w->bound ? Py_True : Py_False,
        "device_index", (int)w->device_index, "n_devices", (int)w->n_devices, "start_delay_s",
        w->start_delay_s);
  Py_XDECREF(cpus);
  Py_XDECREF(numa);
  return d;
}

/* Parse the keywords shared by worker_init and worker_plan into `o`; 0 or -1. */
static int parse_opts(PyObject *args, PyObject *kw, const char *fmt, fo_worker_opts *o) {
  static char *kwlist[] = {"local_rank", "local_world_size", "machine_rank", "world_size",
                           "accel", "use_cpu_workers", "num_cpu_threads", "start_gap_s",
                           "allow_shared_cores", "topology_xml", "topology_synthetic",
                           "n_devices_override", NULL};
  int accel = 0, use_cpu = 1, shared = 0;
  fo_worker_opts_init(o);
  use_cpu = o->use_cpu_workers;
  if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &o->local_rank, &o->local_world_size,
                                   &o->machine_rank, &o->world_size, &accel, &use_cpu,
                                   &o->num_cpu_threads, &o->start_gap_s, &shared,
                                   &o->topology_xml, &o->topology_synthetic,
                                   &o->n_devices_override))
    return -1;
  o->device = accel ? FO_WORKER_ACCEL : FO_WORKER_CPU;
  o->use_cpu_workers = use_cpu;
  o->allow_shared_cores = shared;
  return 0;
}

/* The "i" conversions write int; the option fields are int32_t, the same type here. */
_Static_assert(sizeof(int32_t) == sizeof(int), "int32_t is int");

PyObject *fopy_worker_init(PyObject *self, PyObject *args, PyObject *kw) {
  fo_worker_opts o;
  fo_worker_info *info;
  PyObject *d;
  int rc;

  if (parse_opts(args, kw, "|$iiiippidpzzi:worker_init", &o) < 0) return NULL;
  if (!(info = PyMem_Malloc(sizeof *info))) return PyErr_NoMemory();
  Py_BEGIN_ALLOW_THREADS
  rc = fo_worker_init(&o, info); /* may sleep start_gap_s * local_rank */
  Py_END_ALLOW_THREADS
  d = rc == FO_OK ? info_dict(info) : fopy_raise(rc);
  PyMem_Free(info);
  return d;
}

PyObject *fopy_worker_plan(PyObject *self, PyObject *args, PyObject *kw) {
  fo_worker_opts o;
  fo_worker_info *infos;
  PyObject *list;
  int rc;

  if (parse_opts(args, kw, "|$iiiippidpzzi:worker_plan", &o) < 0) return NULL;
  if (o.local_world_size < 1 || o.local_world_size > 65536) {
    PyErr_Format(PyExc_ValueError, "local_world_size: %d is not in 1..65536",
                 (int)o.local_world_size);
    return NULL;
  }
  if (!(infos = PyMem_Calloc((size_t)o.local_world_size, sizeof *infos)))
    return PyErr_NoMemory();
  Py_BEGIN_ALLOW_THREADS
  rc = fo_worker_plan(&o, infos);
  Py_END_ALLOW_THREADS
  if (rc != FO_OK) {
    PyMem_Free(infos);
    return fopy_raise(rc);
  }
  if ((list = PyList_New(o.local_world_size))) {
    for (int32_t r = 0; r < o.local_world_size; r++) {
      PyObject *d = info_dict(&infos[r]);
      if (!d) {
        Py_CLEAR(list);
        break;
      }
      PyList_SET_ITEM(list, r, d);
    }
  }
  PyMem_Free(infos);
  return list;
}

PyObject *fopy_worker_current(PyObject *self, PyObject *unused) {
  fo_worker_info *info = PyMem_Malloc(sizeof *info);
  PyObject *d;
  if (!info) return PyErr_NoMemory();
  d = fo_worker_current(info) == FO_OK ? info_dict(info) : (Py_INCREF(Py_None), Py_None);
  PyMem_Free(info);
  return d;
}
