/*
 * runtime/runtime_internal.h: what the worker runtime's files share, and the hooks its tests
 * use: the CPU topology reduced to what the plan needs (physical cores in hwloc logical order,
 * each with its PU OS indexes and NUMA node), the pure planning function, and the reset of the
 * process-wide state.
 */
#ifndef FO_RUNTIME_INTERNAL_H
#define FO_RUNTIME_INTERNAL_H

#include "core/internal.h"

/* One physical core. */
typedef struct fo__core {
  int32_t numa;     /* OS index of the NUMA node that holds it; -1 if none */
  int32_t pu_first; /* its PUs are topo->pus[pu_first .. pu_first + n_pus) */
  int32_t n_pus;    /* >= 1 */
} fo__core;

/* A CPU topology: cores[i] is the core of hwloc logical index i. */
typedef struct fo__cpu_topo {
  int32_t n_cores;
  fo__core *cores;  /* [n_cores] */
  int32_t n_pus;
  int32_t *pus;     /* [n_pus] PU OS indexes, core by core, ascending within a core */
  int32_t n_numa;   /* distinct NUMA nodes among the cores (-1 counts as none) */
  bool this_system; /* the running machine's topology: binding to it is meaningful */
  void *hw;         /* the hwloc topology it came from (hwloc_topology_t), or NULL */
} fo__cpu_topo;

/* A block of cores: cores[first .. first + n). */
typedef struct fo__cpu_block {
  int32_t first, n;
} fo__cpu_block;

/* Load the topology: this machine when both arguments are NULL, else the XML file or the
 * synthetic description (not both). On failure *out is zeroed and FO_EINVAL (bad synthetic
 * string), FO_EIO (unreadable file), FO_EFORMAT (not hwloc XML), FO_ERANGE (an OS index
 * beyond FO_WORKER_MAX_*), FO_ENOSYS (no hwloc in this build) or FO_ENOMEM is returned.
 * Topologies without Core objects are read as one core per PU. (topology_hwloc.c) */
int fo__cpu_topo_load(const char *xml_path, const char *synthetic, fo__cpu_topo *out);
/* Free what load allocated (the arrays, and `hw` through hwloc); accepts a zeroed topo. */
void fo__cpu_topo_free(fo__cpu_topo *t);
/* Bind every thread of this process to the PUs in `cpuset` (FO_WORKER_MAX_CPUS bits) with
 * hwloc_set_cpubind(HWLOC_CPUBIND_PROCESS). FO_EINVAL unless t->this_system; FO_EIO with
 * strerror when the OS refuses. */
int fo__cpu_bind(const fo__cpu_topo *t, const uint64_t *cpuset);
/* Whether this build has hwloc (FO_WITH_HWLOC). */
bool fo__have_hwloc(void);

/* The pure plan: blocks out[0 .. n_procs) for n_procs local processes over t's cores, by the
 * rules in include/fanout/worker.h (remainder, NUMA, sharing). Reads only t->n_cores and each
 * core's numa. FO_EINVAL if n_procs < 1, t has no cores, or n_procs > n_cores without
 * allow_shared (message names both numbers); FO_ENOMEM. (worker.c) */
int fo__cpu_plan(const fo__cpu_topo *t, int32_t n_procs, bool allow_shared, fo__cpu_block *out);

/* Forget the process-wide state of fo_worker_init() (tests only; does not undo the affinity). */
void fo__worker_reset(void);

#endif
