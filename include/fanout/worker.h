/*
 * fanout/worker.h: the worker runtime, the contract of GiGL's `init_neighbor_loader_worker`
 * (see docs/WORKER.md): each training process on a machine calls fo_worker_init() once, before
 * it creates loaders, to learn which CPU cores and which accelerator it owns, how many threads
 * it may run and which worker group it joins.
 *
 * CPU mode (`use_cpu_workers`): the machine's physical cores, in hwloc's logical order, are cut
 * into `local_world_size` disjoint contiguous blocks; local rank r owns block r with every
 * hardware thread (PU) of its cores, whatever the OS numbering of the siblings. Rules:
 *  - sizes: with C cores and P local processes each block has floor(C/P) or ceil(C/P) cores,
 *    and the first C mod P ranks get the larger blocks (the remainder rule);
 *  - NUMA: when the cores can be split with those sizes so that no block straddles a NUMA node,
 *    such a split is used: of those, the one whose larger blocks come first (so the plain
 *    split whenever it straddles nothing); otherwise the plain split applies;
 *  - P > C is an error unless `allow_shared_cores`: then rank r gets the single core r mod C.
 * fo_worker_init() sets the affinity of every thread of the process to the block (threads
 * created later inherit it) and records `num_cpu_threads` as the thread budget that loaders use.
 *
 * Accelerator mode (`device` = FO_WORKER_ACCEL): local rank r gets accelerator r mod n, with n
 * counted through the CUDA runtime (or driver) loaded at run time with dlopen, so the library
 * needs no CUDA to build or run; no runtime or no device is an error, never an abort.
 *
 * The topology comes from hwloc (the running machine, or an injected hwloc XML file or
 * synthetic description for tests and `fanout topo`). A build without hwloc (FO_WITH_HWLOC=OFF)
 * returns FO_ENOSYS for CPU mode; accelerator-only mode still works.
 */
#ifndef FANOUT_WORKER_H
#define FANOUT_WORKER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest PU OS index + 1 that a cpuset holds (a machine with more is FO_ERANGE). */
#define FO_WORKER_MAX_CPUS 4096
/** Largest NUMA node OS index + 1 that a nodeset holds. */
#define FO_WORKER_MAX_NUMA 1024

/** Where the process's model runs. */
typedef enum fo_worker_device {
  FO_WORKER_CPU = 0,  /**< on the CPU: needs `use_cpu_workers` */
  FO_WORKER_ACCEL = 1 /**< on an accelerator (CUDA device): local rank r gets device r mod n */
} fo_worker_device;

typedef struct fo_worker_opts {
  int32_t machine_rank;     /**< rank of this machine in [0, world_size); default 0 */
  int32_t world_size;       /**< number of machines, >= 1; default 1 */
  int32_t local_rank;       /**< rank of this process on its machine in [0, local_world_size);
                                 default 0 */
  int32_t local_world_size; /**< processes on this machine, >= 1; default 1 */
  fo_worker_device device;  /**< default FO_WORKER_CPU */
  bool use_cpu_workers;     /**< CPU mode: own a block of physical cores and a thread budget
                                 (GiGL's should_use_cpu_workers); default true */
  int32_t num_cpu_threads;  /**< thread budget of the process's loaders; required (>= 1) in
                                 CPU mode; default 0 = not set */
  double start_gap_s;       /**< the first fo_worker_init() sleeps start_gap_s * local_rank
                                 seconds before it returns (GiGL's staggered start); >= 0,
                                 default 0 (docs/WORKER.md says why) */
  bool allow_shared_cores;  /**< with more local processes than physical cores, give rank r
                                 the core r mod C instead of failing; default false */
  const char *topology_xml; /**< hwloc XML file to plan on instead of this machine; default
                                 NULL. Copied where kept. An injected topology is never bound. */
  const char *topology_synthetic; /**< hwloc synthetic description, e.g. "pack:2 core:4 pu:2",
                                 instead of this machine; default NULL; exclusive with xml */
  int32_t n_devices_override; /**< accelerator count to use instead of asking CUDA (tests);
                                 default -1 = ask CUDA; 0 = behave as if none is present */
} fo_worker_opts;

/**
 * What a local rank owns. Filled completely (unused fields zero, padding included), so two
 * infos compare equal with memcmp when they describe the same plan.
 */
typedef struct fo_worker_info {
  char group_name[48];        /**< "distributed-process-<local_rank>": worker group i is local
                                   rank i of every machine */
  int32_t machine_rank, world_size, local_rank, local_world_size; /**< as in the options */
  bool cpu_mode;              /**< use_cpu_workers: the CPU fields below are set */
  int32_t num_threads;        /**< thread budget (num_cpu_threads; 0 when unset outside CPU
                                   mode: the loader then picks its default) */
  int32_t first_core;         /**< hwloc logical index of the block's first physical core;
                                   -1 outside CPU mode */
  int32_t n_cores;            /**< physical cores in the block: logical indexes first_core ..
                                   first_core + n_cores - 1 */
  bool shared_cores;          /**< other local ranks own the same core (allow_shared_cores) */
  int32_t n_cpus;             /**< PUs (hardware threads) in the block: bits set in cpuset */
  uint64_t cpuset[FO_WORKER_MAX_CPUS / 64]; /**< PU OS indexes: bit c is word c / 64, bit
                                   c % 64; see fo_worker_info_cpus() */
  int32_t n_numa;             /**< NUMA nodes the block's cores lie in: bits set in numaset */
  uint64_t numaset[FO_WORKER_MAX_NUMA / 64]; /**< NUMA node OS indexes, same layout */
  int32_t n_cores_total;      /**< physical cores in the whole topology (C) */
  int32_t n_cpus_total;       /**< PUs in the whole topology */
  int32_t n_numa_total;       /**< NUMA nodes holding those cores */
  bool bound;                 /**< fo_worker_init() set this process's affinity to cpuset */
  int32_t device_index;       /**< accelerator of this rank (local_rank mod n_devices); -1 on
                                   FO_WORKER_CPU */
  int32_t n_devices;          /**< accelerators found; 0 on FO_WORKER_CPU */
  double start_delay_s;       /**< start_gap_s * local_rank: what the first call slept */
} fo_worker_info;

/** Write the defaults into `o`. Thread-safety: any thread. Cost: O(1). */
FO_API void fo_worker_opts_init(fo_worker_opts *o);

/**
 * Initialize this process as local rank `o->local_rank`: compute its share of the machine,
 * apply it (CPU affinity of all the process's threads; thread budget), sleep
 * start_gap_s * local_rank, and record the result process-wide. Later calls with equal options
 * (field by field; strings by content) change nothing and return the same info at once.
 *
 * @param o    options; borrowed for the call (strings are copied when kept).
 * @param out  receives the plan of this rank; untouched on failure.
 * @return FO_OK;
 *         FO_EINVAL if o or out is NULL; a rank, size or count is out of range (the message
 *         names the field and value); num_cpu_threads is not set in CPU mode; device is
 *         FO_WORKER_CPU without use_cpu_workers; both topology_xml and topology_synthetic are
 *         set or the synthetic description is invalid; local_world_size exceeds the physical
 *         cores without allow_shared_cores (the message gives both numbers); or an earlier
 *         call succeeded with different options (the message names the first differing field,
 *         in declaration order, with both values);
 *         FO_ENOSYS in CPU mode in a build without hwloc; in accelerator mode when no CUDA
 *         runtime or driver can be loaded or it reports no device (message says which);
 *         FO_EIO if the XML file cannot be read or the affinity cannot be set (strerror);
 *         FO_EFORMAT if the XML file is not hwloc XML; FO_ERANGE if a PU or NUMA OS index
 *         exceeds FO_WORKER_MAX_CPUS / FO_WORKER_MAX_NUMA; FO_ENOMEM.
 *         On failure nothing is recorded (a later call starts afresh); the affinity is
 *         unchanged unless setting it failed part way (FO_EIO).
 * Thread-safety: any thread; calls are serialized by a process-wide mutex, so a concurrent call
 * waits for the first, including its sleep. An injected topology plans without binding.
 * Cost: one hwloc topology load (about a millisecond on the machine; O(cores) synthetic) and
 * O(local_world_size + PUs), plus the dlopen of CUDA in accelerator mode, plus the sleep.
 */
FO_API int fo_worker_init(const fo_worker_opts *o, fo_worker_info *out);

/**
 * The plan of every local rank (0 .. o->local_world_size - 1) on the topology `o` names,
 * without side effects: nothing is bound, recorded or slept; o->local_rank is ignored.
 * What `fanout topo` prints.
 *
 * @param o    options, as for fo_worker_init().
 * @param out  [o->local_world_size] caller array; out[r] receives rank r's plan, with
 *             bound = false and start_delay_s = start_gap_s * r.
 * @return FO_OK, or the errors of fo_worker_init() except the idempotency and affinity ones.
 *         On error `out` is unspecified.
 * Thread-safety: any thread, reentrant. Cost: as fo_worker_init() without the sleep, plus
 * O(local_world_size * sizeof(fo_worker_info)) writes.
 */
FO_API int fo_worker_plan(const fo_worker_opts *o, fo_worker_info *out);

/**
 * The info that fo_worker_init() returned in this process.
 * @return FO_OK; FO_EINVAL if fo_worker_init() has not succeeded yet (`out` untouched).
 * Thread-safety: any thread (takes the runtime's mutex, so it waits for a running init).
 * Cost: O(sizeof(fo_worker_info)).
 */
FO_API int fo_worker_current(fo_worker_info *out);

/**
 * The process's thread budget: num_cpu_threads of the successful fo_worker_init(), or 0 when
 * it has not been called (or set none): loaders size their thread pools by it.
 * Thread-safety: any thread, lock-free. Cost: O(1).
 */
FO_API int32_t fo_worker_thread_budget(void);

/**
 * List the PU OS indexes of `info->cpuset` in ascending order.
 * @param out  [cap] caller buffer; receives the first min(cap, count) indexes; may be NULL
 *             when cap is 0.
 * @return the number of PUs in the set (which may exceed cap).
 * Thread-safety: any thread. Cost: O(FO_WORKER_MAX_CPUS / 64 + count).
 */
FO_API int32_t fo_worker_info_cpus(const fo_worker_info *info, int32_t *out, int32_t cap);

/**
 * List the NUMA node OS indexes of `info->numaset` in ascending order; as
 * fo_worker_info_cpus(). @return the number of nodes in the set.
 */
FO_API int32_t fo_worker_info_numa(const fo_worker_info *info, int32_t *out, int32_t cap);

/**
 * Count the accelerators visible to this process (CUDA_VISIBLE_DEVICES applies): loads the
 * CUDA runtime (libcudart.so, then versioned names) with dlopen and calls cudaGetDeviceCount,
 * or else the driver (libcuda.so.1: cuInit, cuDeviceGetCount). Libraries stay loaded.
 *
 * @param n_out  receives the count (>= 1), or 0 on failure.
 * @return FO_OK; FO_ENOSYS if neither library can be loaded (message lists what was tried and
 *         the last dlerror), or the one found fails or reports no device (message gives its
 *         error code). Note: like torch.cuda.device_count(), this initializes CUDA in the
 *         process; a child forked later cannot use CUDA.
 * Thread-safety: any thread. Cost: a dlopen and CUDA initialization on the first call
 * (milliseconds to seconds), microseconds after.
 */
FO_API int fo_worker_device_count(int32_t *n_out);

#ifdef __cplusplus
}
#endif
#endif
