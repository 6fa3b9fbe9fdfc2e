/*
 * runtime/worker.c: the worker runtime (include/fanout/worker.h, docs/WORKER.md): the plan of
 * which cores, threads and accelerator each local process owns, and fo_worker_init(), which
 * applies it once per process.
 *
 * The plan is a pure function of a CPU topology (topology_hwloc.c reduces hwloc's to physical
 * cores in logical order, each with its PUs and NUMA node) and of (local world size, sharing
 * option): fo__cpu_plan() below. Applying it (binding, thread budget, the optional stagger) and
 * the process-wide record that makes a second call a no-op are separate, in fo_worker_init().
 * Accelerators are counted through the CUDA runtime or driver loaded with dlopen, so nothing
 * here needs CUDA at build time. Without hwloc (FO_WITH_HWLOC unset) the topology functions
 * at the end of this file return FO_ENOSYS, and only accelerator-only mode works.
 */
#include "runtime/runtime_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

#define MAX_START_GAP_S 1e9

void fo_worker_opts_init(fo_worker_opts *o) {
  memset(o, 0, sizeof *o);
  o->machine_rank = 0;
  o->world_size = 1;
  o->local_rank = 0;
  o->local_world_size = 1;
  o->device = FO_WORKER_CPU;
  o->use_cpu_workers = true;
  o->num_cpu_threads = 0;
  o->start_gap_s = 0.0;
  o->allow_shared_cores = false;
  o->topology_xml = NULL;
  o->topology_synthetic = NULL;
  o->n_devices_override = -1;
}

/* ---- options ------------------------------------------------------------------------------ */

/* Check everything that does not need the topology; local_rank only when `check_rank`. */
static int check_opts(const fo_worker_opts *o, bool check_rank) {
  if (o->world_size < 1)
    return FO_FAIL(FO_EINVAL, "world_size %d is not >= 1 (number of machines)", (int)o->world_size);
  if (o->machine_rank < 0 || o->machine_rank >= o->world_size)
    return FO_FAIL(FO_EINVAL, "machine_rank %d is not in [0, %d) (world_size)",
                   (int)o->machine_rank, (int)o->world_size);
  if (o->local_world_size < 1)
    return FO_FAIL(FO_EINVAL, "local_world_size %d is not >= 1", (int)o->local_world_size);
  if (check_rank && (o->local_rank < 0 || o->local_rank >= o->local_world_size))
    return FO_FAIL(FO_EINVAL, "local_rank %d is not in [0, %d) (local_world_size)",
                   (int)o->local_rank, (int)o->local_world_size);
  if (o->device != FO_WORKER_CPU && o->device != FO_WORKER_ACCEL)
    return FO_FAIL(FO_EINVAL, "device %d is not FO_WORKER_CPU (0) or FO_WORKER_ACCEL (1)",
                   (int)o->device);
  if (o->device == FO_WORKER_CPU && !o->use_cpu_workers)
    return FO_FAIL(FO_EINVAL, "device is FO_WORKER_CPU but use_cpu_workers is false: training on "
                   "the CPU needs use_cpu_workers (or set device to FO_WORKER_ACCEL)");
  if (o->num_cpu_threads < 0)
    return FO_FAIL(FO_EINVAL, "num_cpu_threads %d is negative", (int)o->num_cpu_threads);
  if (o->use_cpu_workers && o->num_cpu_threads == 0)
    return FO_FAIL(FO_EINVAL, "num_cpu_threads is not set: CPU mode (use_cpu_workers) needs the "
                   "thread budget of the process's loaders");
  if (!(o->start_gap_s >= 0 && o->start_gap_s <= MAX_START_GAP_S)) /* also NaN */
    return FO_FAIL(FO_EINVAL, "start_gap_s %g is not in [0, %g] seconds", o->start_gap_s,
                   MAX_START_GAP_S);
  if (o->topology_xml && o->topology_synthetic)
    return FO_FAIL(FO_EINVAL, "both topology_xml and topology_synthetic are set; give at most one");
  if (o->n_devices_override < -1)
    return FO_FAIL(FO_EINVAL, "n_devices_override %d is not -1 (ask CUDA) or >= 0",
                   (int)o->n_devices_override);
  return FO_OK;
}

/* ---- the plan (pure) ---------------------------------------------------------------------- */

int fo__cpu_plan(const fo__cpu_topo *t, int32_t n_procs, bool allow_shared, fo__cpu_block *out) {
  int32_t C = t ? t->n_cores : 0, P = n_procs, q, S = 0, *len = NULL, *lo, *hi;
  int64_t sum_lo = 0, sum_hi = 0;
  bool aligned = true;
  if (P < 1) return FO_FAIL(FO_EINVAL, "local_world_size %d is not >= 1", (int)P);
  if (C < 1) return FO_FAIL(FO_EINVAL, "the topology has no physical core");
  /* Case 1: more processes than cores. */
  if (P > C) {
    if (!allow_shared)
      return FO_FAIL(FO_EINVAL, "local_world_size %d is more than the %d physical cores; set "
                     "allow_shared_cores to share them (rank r then gets core r mod %d)",
                     (int)P, (int)C, (int)C);
    for (int32_t r = 0; r < P; r++) out[r] = (fo__cpu_block){r % C, 1};
    return FO_OK;
  }
  q = C / P; /* >= 1 */
  /* The NUMA segments: maximal runs of consecutive cores with the same NUMA node. */
  for (int32_t i = 0; i < C; i++) S += i == 0 || t->cores[i].numa != t->cores[i - 1].numa;
  if (!(len = fo__malloc_n((int64_t)S * 3, sizeof *len)))
    return FO_FAIL(FO_ENOMEM, "plan over %d NUMA segments", (int)S);
  lo = len + S;
  hi = lo + S;
  for (int32_t i = 0, j = -1; i < C; i++) {
    if (i == 0 || t->cores[i].numa != t->cores[i - 1].numa) len[++j] = 0;
    len[j]++;
  }
  /* Segment j can hold p_j whole blocks of q or q + 1 cores iff p_j*q <= len_j <= p_j*(q+1),
   * i.e. lo_j = ceil(len_j / (q+1)) <= p_j <= hi_j = floor(len_j / q). */
  for (int32_t j = 0; j < S; j++) {
    lo[j] = (len[j] + q) / (q + 1);
    hi[j] = len[j] / q;
    aligned = aligned && lo[j] <= hi[j];
    sum_lo += lo[j];
    sum_hi += hi[j];
  }
  if (aligned && sum_lo <= P && P <= sum_hi) {
    /* Case 2: splits with no block straddling a segment exist. Take the one whose larger
     * blocks come first: give each segment as few ranks as the later segments allow (fewer
     * ranks, larger blocks), and in a segment of len_j cores and p_j ranks the larger blocks to
     * its first len_j - p_j*q ranks. When the plain split of case 3 straddles nothing, this is
     * the plain split. */
    int64_t left = P, rest_hi = sum_hi;
    int32_t r = 0, pos = 0;
    for (int32_t j = 0; j < S; j++) {
      int32_t p, big;
      rest_hi -= hi[j];
      p = (int32_t)(left - rest_hi > lo[j] ? left - rest_hi : lo[j]);
      big = len[j] - p * q;
      left -= p;
      for (int32_t k = 0; k < p; k++) {
        out[r++] = (fo__cpu_block){pos, q + (k < big)};
        pos += q + (k < big);
      }
    }
  } else {
    /* Case 3: the plain split: the first C mod P ranks get q + 1 cores, the others q. */
    int32_t big = C % P, pos = 0;
    for (int32_t r = 0; r < P; r++) {
      out[r] = (fo__cpu_block){pos, q + (r < big)};
      pos += q + (r < big);
    }
  }
  free(len);
  return FO_OK;
}

/* ---- accelerators ------------------------------------------------------------------------- */

typedef int (*cuda_count_fn)(int *);
typedef const char *(*cuda_errstr_fn)(int);
typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_count_fn)(int *);

int fo_worker_device_count(int32_t *n_out) {
  static const char *const runtimes[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12",
                                         "libcudart.so.11.0"};
  char last[256] = "";
  void *h;
  int n = 0, err;
  if (!n_out) return FO_FAIL(FO_EINVAL, "n_out is NULL");
  *n_out = 0;
  /* The CUDA runtime first: what PyTorch counts with. */
  for (size_t i = 0; i < sizeof runtimes / sizeof runtimes[0]; i++) {
    cuda_count_fn count;
    cuda_errstr_fn errstr;
    const char *e;
    if (!(h = dlopen(runtimes[i], RTLD_NOW | RTLD_LOCAL))) {
      if ((e = dlerror())) snprintf(last, sizeof last, "%s", e);
      continue;
    }
    if (!(count = (cuda_count_fn)(uintptr_t)dlsym(h, "cudaGetDeviceCount"))) {
      snprintf(last, sizeof last, "%s has no cudaGetDeviceCount", runtimes[i]);
      continue;
    }
    errstr = (cuda_errstr_fn)(uintptr_t)dlsym(h, "cudaGetErrorString");
    if ((err = count(&n)) != 0 || n < 1)
      return FO_FAIL(FO_ENOSYS, "no accelerator: cudaGetDeviceCount (%s) gave error %d (%s) and "
                     "%d devices", runtimes[i], err, errstr ? errstr(err) : "?", n);
    *n_out = n;
    return FO_OK;
  }
  /* Else the driver, which every machine with an NVIDIA GPU has. */
  if ((h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL))) {
    cu_init_fn init = (cu_init_fn)(uintptr_t)dlsym(h, "cuInit");
    cu_count_fn count = (cu_count_fn)(uintptr_t)dlsym(h, "cuDeviceGetCount");
    if (!init || !count)
      return FO_FAIL(FO_ENOSYS, "no accelerator: libcuda.so.1 lacks cuInit/cuDeviceGetCount");
    if ((err = init(0)) != 0 || (err = count(&n)) != 0 || n < 1)
      return FO_FAIL(FO_ENOSYS, "no accelerator: the CUDA driver (libcuda.so.1) gave error %d "
                     "and %d devices", err, n);
    *n_out = n;
    return FO_OK;
  } else {
    const char *e = dlerror();
    if (e) snprintf(last, sizeof last, "%s", e);
  }
  return FO_FAIL(FO_ENOSYS, "no accelerator: no CUDA runtime or driver found (tried libcudart.so, "
                 ".so.13, .so.12, .so.11.0 and libcuda.so.1; last error: %s)", last);
}

/* ---- plan of every rank ------------------------------------------------------------------- */

/* What a plan needs besides the options: the topology and blocks (CPU mode), the devices. */
typedef struct plan {
  fo__cpu_topo topo;
  fo__cpu_block *blocks; /* [local_world_size] in CPU mode, else NULL */
  int32_t n_devices;
} plan;

static void plan_free(plan *p) {
  fo__cpu_topo_free(&p->topo);
  free(p->blocks);
  memset(p, 0, sizeof *p);
}

static int plan_make(const fo_worker_opts *o, plan *p) {
  int rc;
  memset(p, 0, sizeof *p);
  if (o->use_cpu_workers) {
    if ((rc = fo__cpu_topo_load(o->topology_xml, o->topology_synthetic, &p->topo)) != FO_OK)
      return rc;
    if (!(p->blocks = fo__malloc_n(o->local_world_size, sizeof *p->blocks))) {
      rc = FO_FAIL(FO_ENOMEM, "plan of %d ranks", (int)o->local_world_size);
      goto fail;
    }
    if ((rc = fo__cpu_plan(&p->topo, o->local_world_size, o->allow_shared_cores, p->blocks)))
      goto fail;
  }
  if (o->device == FO_WORKER_ACCEL) {
    if (o->n_devices_override == 0) {
      rc = FO_FAIL(FO_ENOSYS, "no accelerator: n_devices_override is 0");
      goto fail;
    }
    if (o->n_devices_override > 0) p->n_devices = o->n_devices_override;
    else if ((rc = fo_worker_device_count(&p->n_devices)) != FO_OK) goto fail;
  }
  return FO_OK;
fail:
  plan_free(p);
  return rc;
}

/* Rank r's info from the plan (pure). */
static void plan_fill(const fo_worker_opts *o, const plan *p, int32_t r, fo_worker_info *info) {
  memset(info, 0, sizeof *info);
  snprintf(info->group_name, sizeof info->group_name, "distributed-process-%d", (int)r);
  info->machine_rank = o->machine_rank;
  info->world_size = o->world_size;
  info->local_rank = r;
  info->local_world_size = o->local_world_size;
  info->cpu_mode = o->use_cpu_workers;
  info->num_threads = o->num_cpu_threads;
  info->first_core = -1;
  info->device_index = -1;
  info->start_delay_s = o->start_gap_s * r;
  if (o->use_cpu_workers) {
    const fo__cpu_topo *t = &p->topo;
    fo__cpu_block b = p->blocks[r];
    int32_t C = t->n_cores, c0 = b.first;
    info->first_core = b.first;
    info->n_cores = b.n;
    /* Ranks on core c0 when shared: r' = c0, c0 + C, ... < P. */
    info->shared_cores = o->local_world_size > C && (o->local_world_size - 1 - c0) / C >= 1;
    for (int32_t c = b.first; c < b.first + b.n; c++) {
      const fo__core *core = &t->cores[c];
      for (int32_t k = 0; k < core->n_pus; k++) {
        int32_t pu = t->pus[core->pu_first + k];
        info->cpuset[pu / 64] |= UINT64_C(1) << (pu % 64);
      }
      if (core->numa >= 0) info->numaset[core->numa / 64] |= UINT64_C(1) << (core->numa % 64);
    }
    info->n_cpus = fo_worker_info_cpus(info, NULL, 0);
    info->n_numa = fo_worker_info_numa(info, NULL, 0);
    info->n_cores_total = C;
    info->n_cpus_total = t->n_pus;
    info->n_numa_total = t->n_numa;
  }
  if (o->device == FO_WORKER_ACCEL) {
    info->n_devices = p->n_devices;
    info->device_index = r % p->n_devices;
  }
}

int fo_worker_plan(const fo_worker_opts *o, fo_worker_info *out) {
  plan p;
  int rc;
  if (!o) return FO_FAIL(FO_EINVAL, "plan workers: options are NULL");
  if (!out) return FO_FAIL(FO_EINVAL, "plan workers: out is NULL");
  if ((rc = check_opts(o, false)) != FO_OK || (rc = plan_make(o, &p)) != FO_OK)
    return fo__context(rc, "plan workers");
  for (int32_t r = 0; r < o->local_world_size; r++) plan_fill(o, &p, r, &out[r]);
  plan_free(&p);
  return FO_OK;
}

/* ---- the process-wide runtime ------------------------------------------------------------- */

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static bool g_done;          /* fo_worker_init succeeded; under g_lock */
static fo_worker_opts g_opts; /* its options (strings owned); under g_lock */
static fo_worker_info g_info; /* its result; under g_lock */
static int32_t g_budget;     /* thread budget; atomic */

int32_t fo_worker_thread_budget(void) { return __atomic_load_n(&g_budget, __ATOMIC_ACQUIRE); }

static const char *str_or_none(const char *s) { return s ? s : "(none)"; }

static bool same_str(const char *a, const char *b) {
  return a == b || (a && b && !strcmp(a, b));
}

/* FO_EINVAL naming the first field (declaration order) where `o` differs from the first call. */
static int compare_opts(const fo_worker_opts *o, const fo_worker_opts *g) {
#define DIFF_INT(f)                                                                          \
  if (o->f != g->f)                                                                          \
    return FO_FAIL(FO_EINVAL, #f " is %d, the first call had %d", (int)o->f, (int)g->f);
  DIFF_INT(machine_rank)
  DIFF_INT(world_size)
  DIFF_INT(local_rank)
  DIFF_INT(local_world_size)
  DIFF_INT(device)
  if (o->use_cpu_workers != g->use_cpu_workers)
    return FO_FAIL(FO_EINVAL, "use_cpu_workers is %s, the first call had %s",
                   o->use_cpu_workers ? "true" : "false", g->use_cpu_workers ? "true" : "false");
  DIFF_INT(num_cpu_threads)
  if (!(o->start_gap_s == g->start_gap_s))
    return FO_FAIL(FO_EINVAL, "start_gap_s is %g, the first call had %g", o->start_gap_s,
                   g->start_gap_s);
  if (o->allow_shared_cores != g->allow_shared_cores)
    return FO_FAIL(FO_EINVAL, "allow_shared_cores is %s, the first call had %s",
                   o->allow_shared_cores ? "true" : "false",
                   g->allow_shared_cores ? "true" : "false");
  if (!same_str(o->topology_xml, g->topology_xml))
    return FO_FAIL(FO_EINVAL, "topology_xml is '%s', the first call had '%s'",
                   str_or_none(o->topology_xml), str_or_none(g->topology_xml));
  if (!same_str(o->topology_synthetic, g->topology_synthetic))
    return FO_FAIL(FO_EINVAL, "topology_synthetic is '%s', the first call had '%s'",
                   str_or_none(o->topology_synthetic), str_or_none(g->topology_synthetic));
  DIFF_INT(n_devices_override)
#undef DIFF_INT
  return FO_OK;
}

static void sleep_s(double s) {
  struct timespec ts, rem;
  if (!(s > 0)) return;
  ts.tv_sec = (time_t)s;
  ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
  if (ts.tv_nsec >= 1000000000L) ts.tv_nsec = 999999999L;
  while (nanosleep(&ts, &rem) != 0 && errno == EINTR) ts = rem;
}

static void free_opts_strings(fo_worker_opts *o) {
  free((char *)o->topology_xml);
  free((char *)o->topology_synthetic);
  o->topology_xml = o->topology_synthetic = NULL;
}

int fo_worker_init(const fo_worker_opts *o, fo_worker_info *out) {
  fo_worker_info info;
  fo_worker_opts keep;
  plan p;
  int rc;
  if (!o) return FO_FAIL(FO_EINVAL, "init worker: options are NULL");
  if (!out) return FO_FAIL(FO_EINVAL, "init worker: out is NULL");
  pthread_mutex_lock(&g_lock);
  /* A second call: a no-op with the same options, an error with others. */
  if (g_done) {
    if ((rc = compare_opts(o, &g_opts)) != FO_OK) {
      pthread_mutex_unlock(&g_lock);
      return fo__context(rc, "init worker: already initialized with other options");
    }
    memcpy(out, &g_info, sizeof *out);
    pthread_mutex_unlock(&g_lock);
    return FO_OK;
  }
  if ((rc = check_opts(o, true)) != FO_OK || (rc = plan_make(o, &p)) != FO_OK) {
    pthread_mutex_unlock(&g_lock);
    return fo__context(rc, "init worker (local rank %d)", (int)o->local_rank);
  }
  plan_fill(o, &p, o->local_rank, &info);
  keep = *o;
  keep.topology_xml = keep.topology_synthetic = NULL;
  if ((o->topology_xml && !(keep.topology_xml = fo__strdup(o->topology_xml))) ||
      (o->topology_synthetic && !(keep.topology_synthetic = fo__strdup(o->topology_synthetic)))) {
    rc = FO_FAIL(FO_ENOMEM, "copy of the topology option");
    goto fail;
  }
  /* CPU mode on this machine: bind every thread of the process to the block. */
  if (o->use_cpu_workers && p.topo.this_system) {
    if ((rc = fo__cpu_bind(&p.topo, info.cpuset)) != FO_OK) goto fail;
    info.bound = true;
  }
  plan_free(&p);
  g_opts = keep;
  memcpy(&g_info, &info, sizeof g_info);
  g_done = true;
  __atomic_store_n(&g_budget, info.num_threads, __ATOMIC_RELEASE);
  /* The optional stagger, under the lock: a concurrent call waits for it too. */
  sleep_s(info.start_delay_s);
  pthread_mutex_unlock(&g_lock);
  /* Log outside the lock: a log handler may call back into the runtime. */
  FO_LOG(FO_LOG_INFO, "machine %d local rank %d: %s, cores %d..%d, %d CPUs%s, %d threads, "
         "device %d", (int)info.machine_rank, (int)info.local_rank, info.group_name,
         (int)info.first_core, (int)(info.first_core + info.n_cores - 1), (int)info.n_cpus,
         info.bound ? " (bound)" : "", (int)info.num_threads, (int)info.device_index);
  if (info.bound && info.num_threads > info.n_cpus)
    FO_LOG(FO_LOG_WARN, "local rank %d: num_cpu_threads %d exceeds its %d CPUs",
           (int)info.local_rank, (int)info.num_threads, (int)info.n_cpus);
  memcpy(out, &info, sizeof *out);
  return FO_OK;
fail:
  free_opts_strings(&keep);
  plan_free(&p);
  pthread_mutex_unlock(&g_lock);
  return fo__context(rc, "init worker (local rank %d)", (int)o->local_rank);
}

int fo_worker_current(fo_worker_info *out) {
  int rc = FO_OK;
  if (!out) return FO_FAIL(FO_EINVAL, "worker info: out is NULL");
  pthread_mutex_lock(&g_lock);
  if (g_done) memcpy(out, &g_info, sizeof *out);
  else rc = FO_FAIL(FO_EINVAL, "fo_worker_init has not succeeded in this process");
  pthread_mutex_unlock(&g_lock);
  return rc;
}

void fo__worker_reset(void) {
  pthread_mutex_lock(&g_lock);
  free_opts_strings(&g_opts);
  memset(&g_opts, 0, sizeof g_opts);
  memset(&g_info, 0, sizeof g_info);
  g_done = false;
  __atomic_store_n(&g_budget, 0, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&g_lock);
}

/* ---- bit sets ----------------------------------------------------------------------------- */

static int32_t list_bits(const uint64_t *words, int32_t n_words, int32_t *out, int32_t cap) {
  int32_t n = 0;
  for (int32_t w = 0; w < n_words; w++)
    for (uint64_t x = words[w]; x; x &= x - 1) {
      if (out && n < cap) out[n] = w * 64 + __builtin_ctzll(x);
      n++;
    }
  return n;
}

int32_t fo_worker_info_cpus(const fo_worker_info *info, int32_t *out, int32_t cap) {
  return info ? list_bits(info->cpuset, FO_WORKER_MAX_CPUS / 64, out, cap) : 0;
}

int32_t fo_worker_info_numa(const fo_worker_info *info, int32_t *out, int32_t cap) {
  return info ? list_bits(info->numaset, FO_WORKER_MAX_NUMA / 64, out, cap) : 0;
}

/* ---- without hwloc ------------------------------------------------------------------------ */

#ifndef FO_WITH_HWLOC
bool fo__have_hwloc(void) { return false; }

int fo__cpu_topo_load(const char *xml_path, const char *synthetic, fo__cpu_topo *out) {
  memset(out, 0, sizeof *out);
  return FO_FAIL(FO_ENOSYS, "CPU mode needs the CPU topology from hwloc, and this build has no "
                 "hwloc (configured with FO_WITH_HWLOC=OFF)");
}

void fo__cpu_topo_free(fo__cpu_topo *t) {
  if (!t) return;
  free(t->cores);
  free(t->pus);
  memset(t, 0, sizeof *t);
}

int fo__cpu_bind(const fo__cpu_topo *t, const uint64_t *cpuset) {
  return FO_FAIL(FO_ENOSYS, "binding needs hwloc, and this build has none");
}
#endif
