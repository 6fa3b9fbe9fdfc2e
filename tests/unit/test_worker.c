/*
 * tests/unit/test_worker.c: the worker runtime (include/fanout/worker.h, docs/WORKER.md).
 *
 * The plan is checked on synthetic hwloc topologies only (never the host's): exact blocks for
 * siblings numbered adjacent (core 0 = PUs 0,1), round-robin (core 0 = PUs 0,C) and scrambled,
 * two sockets / two NUMA nodes, no SMT, uneven counts, no Core level, an hwloc XML file; then
 * the properties (disjoint, covering, contiguous, whole cores, sizes and remainder rule, no NUMA
 * straddling exactly when a brute-force search finds a split that avoids it) over many
 * topologies and all process counts, and over random NUMA layouts fed to the pure planner.
 * fo_worker_init is checked for idempotency (every field), errors (code and message), the
 * stagger, concurrent callers, and, in a forked child so that this process keeps its affinity,
 * that the affinity is really applied on this machine (read back with sched_getaffinity).
 */
#include "support.h"

#include "runtime/runtime_internal.h"

#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define N_OF(a) ((int32_t)(sizeof(a) / sizeof((a)[0])))

/* ---- helpers ------------------------------------------------------------------------------- */

static fo_worker_opts cpu_opts(const char *synthetic, int32_t procs, int32_t threads) {
  fo_worker_opts o;
  fo_worker_opts_init(&o);
  o.topology_synthetic = synthetic;
  o.local_world_size = procs;
  o.num_cpu_threads = threads;
  return o;
}

/* Plan `procs` ranks on `synthetic`; the caller frees the array. */
static fo_worker_info *plan_of(const char *synthetic, int32_t procs, bool shared) {
  fo_worker_opts o = cpu_opts(synthetic, procs, 3);
  fo_worker_info *p = calloc((size_t)procs, sizeof *p);
  assert_non_null(p);
  o.allow_shared_cores = shared;
  assert_fo_ok(fo_worker_plan(&o, p));
  return p;
}

static void assert_list(const char *what, int32_t rank, const int32_t *got, int32_t n_got,
                        const int32_t *want, int32_t n_want) {
  bool same = n_got == n_want;
  for (int32_t i = 0; same && i < n_want; i++) same = got[i] == want[i];
  if (!same) {
    char g[512] = "", w[512] = "";
    for (int32_t i = 0; i < n_got && strlen(g) < 480; i++)
      snprintf(g + strlen(g), sizeof g - strlen(g), "%d ", (int)got[i]);
    for (int32_t i = 0; i < n_want && strlen(w) < 480; i++)
      snprintf(w + strlen(w), sizeof w - strlen(w), "%d ", (int)want[i]);
    fail_msg("rank %d %s: got [%s], want [%s]", (int)rank, what, g, w);
  }
}

/* Rank r must own cores first..first+n-1, exactly the PUs `cpus` and the NUMA nodes `numa`. */
static void expect_rank(const fo_worker_info *in, int32_t first, int32_t n, const int32_t *cpus,
                        int32_t n_cpus, const int32_t *numa, int32_t n_numa) {
  int32_t got[FO_WORKER_MAX_CPUS];
  int32_t k;
  if (in->first_core != first || in->n_cores != n)
    fail_msg("rank %d: cores %d+%d, want %d+%d", (int)in->local_rank, (int)in->first_core,
             (int)in->n_cores, (int)first, (int)n);
  k = fo_worker_info_cpus(in, got, FO_WORKER_MAX_CPUS);
  assert_int_equal(k, in->n_cpus);
  assert_list("cpus", in->local_rank, got, k, cpus, n_cpus);
  k = fo_worker_info_numa(in, got, FO_WORKER_MAX_CPUS);
  assert_int_equal(k, in->n_numa);
  assert_list("numa", in->local_rank, got, k, numa, n_numa);
}

#define EXPECT(in, first, n, CPUS, NUMA)                                                     \
  do {                                                                                       \
    static const int32_t c_[] = CPUS, n_[] = NUMA;                                           \
    expect_rank((in), (first), (n), c_, N_OF(c_), n_, N_OF(n_));                             \
  } while (0)
#define L(...) {__VA_ARGS__}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int setup(void **state) {
  (void)state;
  fo__worker_reset();
  return 0;
}

/* ---- options ------------------------------------------------------------------------------- */

static void test_opts_defaults(void **state) {
  fo_worker_opts o;
  (void)state;
  memset(&o, 0x5a, sizeof o);
  fo_worker_opts_init(&o);
  assert_int_equal(o.machine_rank, 0);
  assert_int_equal(o.world_size, 1);
  assert_int_equal(o.local_rank, 0);
  assert_int_equal(o.local_world_size, 1);
  assert_int_equal(o.device, FO_WORKER_CPU);
  assert_true(o.use_cpu_workers);
  assert_int_equal(o.num_cpu_threads, 0);
  assert_true(o.start_gap_s == 0.0);
  assert_false(o.allow_shared_cores);
  assert_null(o.topology_xml);
  assert_null(o.topology_synthetic);
  assert_int_equal(o.n_devices_override, -1);
}

/* ---- exact plans --------------------------------------------------------------------------- */

static void skip_without_hwloc(void) {
  if (!fo__have_hwloc()) skip();
}

/* Siblings numbered adjacent (hwloc's synthetic default): core i = PUs 2i, 2i+1. */
static void test_plan_adjacent_siblings(void **state) {
  fo_worker_info *p;
  (void)state;
  skip_without_hwloc();
  p = plan_of("pack:2 core:4 pu:2", 2, false);
  EXPECT(&p[0], 0, 4, L(0, 1, 2, 3, 4, 5, 6, 7), L(0));
  EXPECT(&p[1], 4, 4, L(8, 9, 10, 11, 12, 13, 14, 15), L(0));
  assert_string_equal(p[1].group_name, "distributed-process-1");
  assert_int_equal(p[1].local_rank, 1);
  assert_int_equal(p[1].num_threads, 3);
  assert_int_equal(p[0].n_cores_total, 8);
  assert_int_equal(p[0].n_cpus_total, 16);
  assert_int_equal(p[0].n_numa_total, 1);
  assert_false(p[0].bound);
  assert_false(p[0].shared_cores);
  assert_int_equal(p[0].device_index, -1);
  free(p);
  /* 8 cores for 3 ranks: 8 mod 3 = 2 ranks get 3 cores, the last gets 2. */
  p = plan_of("pack:2 core:4 pu:2", 3, false);
  EXPECT(&p[0], 0, 3, L(0, 1, 2, 3, 4, 5), L(0));
  EXPECT(&p[1], 3, 3, L(6, 7, 8, 9, 10, 11), L(0));
  EXPECT(&p[2], 6, 2, L(12, 13, 14, 15), L(0));
  free(p);
  /* The same with the OS indexes written out. */
  p = plan_of("core:4 pu:2(indexes=0,1,2,3,4,5,6,7)", 2, false);
  EXPECT(&p[0], 0, 2, L(0, 1, 2, 3), L(0));
  EXPECT(&p[1], 2, 2, L(4, 5, 6, 7), L(0));
  free(p);
}

/* Siblings numbered round-robin (GCP style): core i = PUs i and i + C. */
static void test_plan_round_robin_siblings(void **state) {
  fo_worker_info *p;
  (void)state;
  skip_without_hwloc();
  p = plan_of("core:4 pu:2(indexes=0,4,1,5,2,6,3,7)", 2, false);
  EXPECT(&p[0], 0, 2, L(0, 1, 4, 5), L(0));
  EXPECT(&p[1], 2, 2, L(2, 3, 6, 7), L(0));
  free(p);
  p = plan_of("pack:2 core:4 pu:2(indexes=2*8:1*2)", 2, false);
  EXPECT(&p[0], 0, 4, L(0, 1, 2, 3, 8, 9, 10, 11), L(0));
  EXPECT(&p[1], 4, 4, L(4, 5, 6, 7, 12, 13, 14, 15), L(0));
  free(p);
  p = plan_of("pack:2 core:4 pu:2(indexes=2*8:1*2)", 8, false);
  for (int32_t r = 0; r < 8; r++) {
    int32_t want[2] = {r, r + 8}, got[4];
    assert_int_equal(fo_worker_info_cpus(&p[r], got, 4), 2);
    assert_list("cpus", r, got, 2, want, 2);
  }
  free(p);
  /* Any numbering: the cores are {7,2}, {0,5}, {1,6}, {3,4}; hwloc orders them by their
   * first PU, so logical cores 0..3 are {0,5}, {1,6}, {2,7}, {3,4}. */
  p = plan_of("core:4 pu:2(indexes=7,2,0,5,1,6,3,4)", 2, false);
  EXPECT(&p[0], 0, 2, L(0, 1, 5, 6), L(0));
  EXPECT(&p[1], 2, 2, L(2, 3, 4, 7), L(0));
  free(p);
}

static void test_plan_numa(void **state) {
  fo_worker_info *p;
  (void)state;
  skip_without_hwloc();
  /* Two NUMA nodes of 4 cores: 2 ranks, one node each. */
  p = plan_of("numa:2 core:4 pu:2", 2, false);
  EXPECT(&p[0], 0, 4, L(0, 1, 2, 3, 4, 5, 6, 7), L(0));
  EXPECT(&p[1], 4, 4, L(8, 9, 10, 11, 12, 13, 14, 15), L(1));
  assert_int_equal(p[0].n_numa_total, 2);
  free(p);
  /* 3 ranks: sizes 3,3,2 cannot avoid the boundary at 4: the plain rule, rank 1 straddles. */
  p = plan_of("numa:2 core:4 pu:2", 3, false);
  EXPECT(&p[0], 0, 3, L(0, 1, 2, 3, 4, 5), L(0));
  EXPECT(&p[1], 3, 3, L(6, 7, 8, 9, 10, 11), L(0, 1));
  EXPECT(&p[2], 6, 2, L(12, 13, 14, 15), L(1));
  free(p);
  /* Two sockets with a NUMA node each, 3 cores each, 4 ranks: the plain rule (2,2,1,1) would
   * straddle; 2,1 | 2,1 does not. */
  p = plan_of("pack:2 numa:1 core:3 pu:2", 4, false);
  EXPECT(&p[0], 0, 2, L(0, 1, 2, 3), L(0));
  EXPECT(&p[1], 2, 1, L(4, 5), L(0));
  EXPECT(&p[2], 3, 2, L(6, 7, 8, 9), L(1));
  EXPECT(&p[3], 5, 1, L(10, 11), L(1));
  free(p);
  /* 3 ranks of 2 cores over 3 + 3: unavoidable straddle, plain rule. */
  p = plan_of("pack:2 numa:1 core:3 pu:2", 3, false);
  EXPECT(&p[0], 0, 2, L(0, 1, 2, 3), L(0));
  EXPECT(&p[1], 2, 2, L(4, 5, 6, 7), L(0, 1));
  EXPECT(&p[2], 4, 2, L(8, 9, 10, 11), L(1));
  free(p);
  /* NUMA nodes as memory children of packages (hwloc 2 style). */
  p = plan_of("pack:2 [numa] core:2 pu:1", 2, false);
  EXPECT(&p[0], 0, 2, L(0, 1), L(0));
  EXPECT(&p[1], 2, 2, L(2, 3), L(1));
  free(p);
}

static void test_plan_no_smt_uneven(void **state) {
  fo_worker_info *p;
  (void)state;
  skip_without_hwloc();
  p = plan_of("core:6 pu:1", 4, false); /* 6 = 2+2+1+1 */
  EXPECT(&p[0], 0, 2, L(0, 1), L(0));
  EXPECT(&p[1], 2, 2, L(2, 3), L(0));
  EXPECT(&p[2], 4, 1, L(4), L(0));
  EXPECT(&p[3], 5, 1, L(5), L(0));
  free(p);
  p = plan_of("core:7 pu:2", 3, false); /* 7 = 3+2+2 */
  EXPECT(&p[0], 0, 3, L(0, 1, 2, 3, 4, 5), L(0));
  EXPECT(&p[1], 3, 2, L(6, 7, 8, 9), L(0));
  EXPECT(&p[2], 5, 2, L(10, 11, 12, 13), L(0));
  free(p);
  p = plan_of("core:5 pu:1", 1, false);
  EXPECT(&p[0], 0, 5, L(0, 1, 2, 3, 4), L(0));
  free(p);
  /* No Core level: each PU is a core. */
  p = plan_of("pu:4", 2, false);
  EXPECT(&p[0], 0, 2, L(0, 1), L(0));
  EXPECT(&p[1], 2, 2, L(2, 3), L(0));
  free(p);
}

/* hwloc XML (exported from "pack:2 core:2 pu:2(indexes=2*4:1*2)"): round-robin siblings. */
static const char RR_XML[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
    "<topology version=\"2.0\">\n"
    "<object type=\"Machine\" os_index=\"0\" cpuset=\"0xff\" complete_cpuset=\"0xff\" "
    "allowed_cpuset=\"0xff\" nodeset=\"0x1\" complete_nodeset=\"0x1\" allowed_nodeset=\"0x1\">\n"
    "<object type=\"NUMANode\" os_index=\"0\" cpuset=\"0xff\" complete_cpuset=\"0xff\" "
    "nodeset=\"0x1\" complete_nodeset=\"0x1\" local_memory=\"1073741824\"/>\n"
#define XPU(os, m)                                                                            \
  "<object type=\"PU\" os_index=\"" #os "\" cpuset=\"" m "\" complete_cpuset=\"" m            \
  "\" nodeset=\"0x1\" complete_nodeset=\"0x1\"/>\n"
#define XOBJ(type, os, m)                                                                     \
  "<object type=\"" type "\" os_index=\"" #os "\" cpuset=\"" m "\" complete_cpuset=\"" m      \
  "\" nodeset=\"0x1\" complete_nodeset=\"0x1\">\n"
    XOBJ("Package", 0, "0x33") XOBJ("Core", 0, "0x11") XPU(0, "0x01") XPU(4, "0x10") "</object>\n"
    XOBJ("Core", 1, "0x22") XPU(1, "0x02") XPU(5, "0x20") "</object>\n</object>\n"
    XOBJ("Package", 1, "0xcc") XOBJ("Core", 2, "0x44") XPU(2, "0x04") XPU(6, "0x40") "</object>\n"
    XOBJ("Core", 3, "0x88") XPU(3, "0x08") XPU(7, "0x80") "</object>\n</object>\n"
    "</object>\n</topology>\n";

static void test_plan_xml(void **state) {
  char *dir = fot_tmpdir(), *xml = fot_path(dir, "rr.xml"), *bad = fot_path(dir, "bad.xml");
  fo_worker_opts o = cpu_opts(NULL, 2, 2);
  fo_worker_info p[2];
  (void)state;
  if (!fo__have_hwloc()) {
    fot_rmtree(dir);
    free(xml);
    free(bad);
    skip();
  }
  fot_write_file(xml, RR_XML);
  fot_write_file(bad, "<not a topology>\n");
  o.topology_xml = xml;
  assert_fo_ok(fo_worker_plan(&o, p));
  EXPECT(&p[0], 0, 2, L(0, 1, 4, 5), L(0));
  EXPECT(&p[1], 2, 2, L(2, 3, 6, 7), L(0));
  o.topology_xml = bad;
  assert_fo_error(fo_worker_plan(&o, p), FO_EFORMAT, "is not hwloc XML");
  assert_fo_error(fo_worker_plan(&o, p), FO_EFORMAT, "bad.xml");
  o.topology_xml = "/nonexistent/fanout-topo.xml";
  assert_fo_error(fo_worker_plan(&o, p), FO_EIO, "'/nonexistent/fanout-topo.xml': No such file");
  free(xml);
  free(bad);
  fot_rmtree(dir);
}

/* ---- properties ---------------------------------------------------------------------------- */

/* Exhaustive search: is there a split of cores with numa[C] into P contiguous blocks of q or
 * q+1 cores (r = C mod P of them q+1) where no block holds two NUMA nodes? Tries both sizes
 * for every block in turn (depth first; a (block, position) pair known to fail is not
 * retried). */
static bool split_from(const int32_t *numa, int32_t C, int32_t P, int32_t k, int32_t pos,
                       uint8_t *dead) {
  int32_t q = C / P;
  if (k == P) return pos == C;
  if (dead[k * (C + 1) + pos]) return false;
  for (int32_t size = q; size <= q + 1; size++) {
    bool ok = pos + size <= C;
    for (int32_t i = pos + 1; ok && i < pos + size; i++) ok = numa[i] == numa[i - 1];
    if (ok && split_from(numa, C, P, k + 1, pos + size, dead)) return true;
  }
  dead[k * (C + 1) + pos] = 1;
  return false;
}

/* The reference answer: whether a split without straddling exists and, if so, the one with
 * the larger blocks first (block by block, q + 1 whenever a straddle-free completion exists). */
static bool reference_split(const int32_t *numa, int32_t C, int32_t P, int32_t *sizes) {
  int32_t q = C / P, pos = 0;
  uint8_t *dead = calloc((size_t)(P + 1) * (size_t)(C + 1), 1);
  bool found;
  assert_non_null(dead);
  found = split_from(numa, C, P, 0, 0, dead); /* sizes sum to C, so r blocks have q+1 */
  for (int32_t k = 0; found && k < P; k++) {
    for (int32_t size = q + 1; size >= q; size--) {
      bool ok = pos + size <= C;
      for (int32_t i = pos + 1; ok && i < pos + size; i++) ok = numa[i] == numa[i - 1];
      if (ok && split_from(numa, C, P, k + 1, pos + size, dead)) {
        sizes[k] = size;
        break;
      }
      assert_true(size == q + 1); /* q must work when q + 1 does not */
    }
    pos += sizes[k];
  }
  free(dead);
  return found;
}

/* Check blocks b[P] over cores with numa[C] against the rules. */
static void check_blocks(const char *name, const int32_t *numa, int32_t C, int32_t P,
                         const fo__cpu_block *b) {
  int32_t q = C / P, r = C % P, n_big = 0, pos = 0;
  bool straddle = false, plain = true;
  for (int32_t k = 0; k < P; k++) {
    if (b[k].first != pos) fail_msg("%s P=%d: block %d starts at %d, not %d", name, P, k,
                                    b[k].first, pos);
    if (b[k].n != q && b[k].n != q + 1)
      fail_msg("%s P=%d: block %d has %d cores, not %d or %d", name, P, k, b[k].n, q, q + 1);
    n_big += b[k].n == q + 1;
    plain = plain && b[k].n == q + (k < r);
    for (int32_t i = pos + 1; i < pos + b[k].n; i++) straddle = straddle || numa[i] != numa[i - 1];
    pos += b[k].n;
  }
  if (pos != C) fail_msg("%s P=%d: blocks cover %d of %d cores", name, P, pos, C);
  if (n_big != r) fail_msg("%s P=%d: %d blocks of %d, want C mod P = %d", name, P, n_big, q + 1, r);
  {
    int32_t ref[64];
    assert_true(P <= 64);
    if (reference_split(numa, C, P, ref)) {
      if (straddle)
        fail_msg("%s P=%d: a block straddles NUMA nodes, but a split avoids it", name, P);
      for (int32_t k = 0; k < P; k++)
        if (b[k].n != ref[k])
          fail_msg("%s P=%d: block %d has %d cores; the straddle-free split with the larger "
                   "blocks first gives it %d", name, P, k, b[k].n, ref[k]);
    } else if (!plain) {
      fail_msg("%s P=%d: no straddle-free split exists, so the first %d ranks should get %d "
               "cores", name, P, r, q + 1);
    }
  }
}

static const char *const TOPOS[] = {
    "pack:2 core:4 pu:2", "core:4 pu:2(indexes=2*4:1*2)", "pack:2 core:4 pu:2(indexes=2*8:1*2)",
    "numa:2 core:4 pu:2", "pack:2 numa:1 core:3 pu:2", "core:6 pu:1", "core:7 pu:2",
    "pack:3 numa:1 core:5 pu:1", "pack:2 numa:2 core:3 pu:4", "numa:3 core:2 pu:2",
    "pack:2 [numa] core:5 pu:2", "numa:2 core:7 pu:1", "pu:5", "core:1 pu:2",
    "pack:4 numa:1 core:3 pu:2(indexes=2*12:1*2)"};

/* Every synthetic topology, every P in 1..C: the public plan agrees with the topology. */
static void test_plan_properties(void **state) {
  (void)state;
  skip_without_hwloc();
  for (int32_t t = 0; t < N_OF(TOPOS); t++) {
    fo__cpu_topo topo;
    int32_t numa[64];
    assert_fo_ok(fo__cpu_topo_load(NULL, TOPOS[t], &topo));
    assert_false(topo.this_system);
    assert_true(topo.n_cores <= 64);
    for (int32_t i = 0; i < topo.n_cores; i++) numa[i] = topo.cores[i].numa;
    for (int32_t P = 1; P <= topo.n_cores; P++) {
      fo_worker_info *p = plan_of(TOPOS[t], P, false);
      fo__cpu_block b[64];
      uint64_t seen[FO_WORKER_MAX_CPUS / 64] = {0};
      int32_t total = 0;
      for (int32_t r = 0; r < P; r++) {
        fo_worker_info want;
        memset(&want, 0, sizeof want);
        b[r] = (fo__cpu_block){p[r].first_core, p[r].n_cores};
        /* whole cores: the cpuset is exactly the PUs of cores first..first+n-1 */
        for (int32_t c = b[r].first; c < b[r].first + b[r].n; c++) {
          const fo__core *core = &topo.cores[c];
          for (int32_t k = 0; k < core->n_pus; k++) {
            int32_t pu = topo.pus[core->pu_first + k];
            want.cpuset[pu / 64] |= UINT64_C(1) << (pu % 64);
          }
          want.numaset[core->numa / 64] |= UINT64_C(1) << (core->numa % 64);
        }
        if (memcmp(want.cpuset, p[r].cpuset, sizeof want.cpuset) ||
            memcmp(want.numaset, p[r].numaset, sizeof want.numaset))
          fail_msg("%s P=%d rank %d: cpuset or NUMA set is not that of its cores", TOPOS[t], P, r);
        /* disjoint */
        for (int32_t w = 0; w < FO_WORKER_MAX_CPUS / 64; w++) {
          if (seen[w] & p[r].cpuset[w])
            fail_msg("%s P=%d: rank %d shares a CPU with an earlier rank", TOPOS[t], P, r);
          seen[w] |= p[r].cpuset[w];
        }
        total += p[r].n_cpus;
        assert_int_equal(p[r].num_threads, 3);
        assert_false(p[r].shared_cores);
      }
      /* covering: every PU of the topology */
      assert_int_equal(total, topo.n_pus);
      for (int32_t i = 0; i < topo.n_pus; i++)
        assert_true(seen[topo.pus[i] / 64] >> (topo.pus[i] % 64) & 1);
      check_blocks(TOPOS[t], numa, topo.n_cores, P, b);
      free(p);
    }
    fo__cpu_topo_free(&topo);
  }
}

/* Random NUMA layouts (runs of cores per node, nodes possibly repeated) into the pure planner. */
static void test_plan_random_layouts(void **state) {
  uint64_t seed = fot_seed(20240611), st;
  (void)state;
  fot_note_seed(seed);
  st = seed;
  for (int iter = 0; iter < 300; iter++) {
    fo__core cores[40];
    fo__cpu_topo t;
    int32_t numa[40], C = 0, n_seg = 1 + (int32_t)(fot_rand(&st) % 5);
    fo__cpu_block b[48];
    char name[64];
    memset(&t, 0, sizeof t);
    for (int32_t s = 0; s < n_seg; s++) {
      int32_t len = 1 + (int32_t)(fot_rand(&st) % 7), node = (int32_t)(fot_rand(&st) % 3) - 1;
      for (int32_t k = 0; k < len && C < 40; k++, C++) {
        cores[C] = (fo__core){node, C, 1};
        numa[C] = node;
      }
    }
    t.n_cores = C;
    t.cores = cores;
    snprintf(name, sizeof name, "layout %d (C=%d)", iter, C);
    for (int32_t P = 1; P <= C && P <= 16; P++) {
      assert_fo_ok(fo__cpu_plan(&t, P, false, b));
      check_blocks(name, numa, C, P, b);
    }
    /* P > C: refused, or core r mod C each when shared */
    assert_fo_error(fo__cpu_plan(&t, C + 1, false, b), FO_EINVAL, "physical cores");
    assert_fo_ok(fo__cpu_plan(&t, C + 7, true, b));
    for (int32_t r = 0; r < C + 7; r++) {
      assert_int_equal(b[r].first, r % C);
      assert_int_equal(b[r].n, 1);
    }
  }
}

/* Hand-made layouts whose answer is known. */
static void test_plan_pure_exact(void **state) {
  fo__core cores[12];
  fo__cpu_topo t;
  fo__cpu_block b[12];
  const int32_t l53[8] = {0, 0, 0, 0, 0, 1, 1, 1}, split[6] = {0, 0, 1, 1, 0, 0};
  (void)state;
  memset(&t, 0, sizeof t);
  t.cores = cores;
  /* NUMA nodes of 5 and 3 cores, 3 ranks: plain 3,3,2 straddles; 3,2 | 3 does not. */
  for (int i = 0; i < 8; i++) cores[i] = (fo__core){l53[i], i, 1};
  t.n_cores = 8;
  assert_fo_ok(fo__cpu_plan(&t, 3, false, b));
  assert_int_equal(b[0].first, 0), assert_int_equal(b[0].n, 3);
  assert_int_equal(b[1].first, 3), assert_int_equal(b[1].n, 2);
  assert_int_equal(b[2].first, 5), assert_int_equal(b[2].n, 3);
  /* Nodes of 6 and 6 cores, 5 ranks: the plain split 3,3 | 2,2,2 straddles nothing and is
   * kept (2,2,2 | 3,3 would not straddle either). */
  for (int i = 0; i < 12; i++) cores[i] = (fo__core){i / 6, i, 1};
  t.n_cores = 12;
  assert_fo_ok(fo__cpu_plan(&t, 5, false, b));
  {
    const int32_t want[5] = {3, 3, 2, 2, 2};
    for (int k = 0, pos = 0; k < 5; pos += want[k], k++)
      assert_int_equal(b[k].first, pos), assert_int_equal(b[k].n, want[k]);
  }
  /* A node split in two runs (0 0 | 1 1 | 0 0): each run is a segment. */
  for (int i = 0; i < 6; i++) cores[i] = (fo__core){split[i], i, 1};
  t.n_cores = 6;
  assert_fo_ok(fo__cpu_plan(&t, 3, false, b));
  for (int k = 0; k < 3; k++) assert_int_equal(b[k].first, 2 * k), assert_int_equal(b[k].n, 2);
  /* errors */
  assert_fo_error(fo__cpu_plan(&t, 0, false, b), FO_EINVAL, "local_world_size 0");
  assert_fo_error(fo__cpu_plan(&t, 7, false, b), FO_EINVAL,
                  "local_world_size 7 is more than the 6 physical cores");
  t.n_cores = 0;
  assert_fo_error(fo__cpu_plan(&t, 1, false, b), FO_EINVAL, "no physical core");
}

static void test_plan_shared_cores(void **state) {
  fo_worker_opts o = cpu_opts("core:4 pu:2", 6, 1);
  fo_worker_info p[6];
  (void)state;
  skip_without_hwloc();
  assert_fo_error(fo_worker_plan(&o, p), FO_EINVAL,
                  "local_world_size 6 is more than the 4 physical cores");
  assert_fo_error(fo_worker_plan(&o, p), FO_EINVAL, "allow_shared_cores");
  o.allow_shared_cores = true;
  assert_fo_ok(fo_worker_plan(&o, p));
  for (int32_t r = 0; r < 6; r++) {
    int32_t want[2] = {2 * (r % 4), 2 * (r % 4) + 1}, got[4];
    assert_int_equal(p[r].first_core, r % 4);
    assert_int_equal(p[r].n_cores, 1);
    assert_int_equal(fo_worker_info_cpus(&p[r], got, 4), 2);
    assert_list("cpus", r, got, 2, want, 2);
    /* cores 0 and 1 carry two ranks each, cores 2 and 3 one */
    assert_int_equal(p[r].shared_cores, r % 4 < 2);
  }
}

/* ---- accelerators -------------------------------------------------------------------------- */

static void test_accel_assignment(void **state) {
  fo_worker_opts o;
  fo_worker_info p[8];
  (void)state;
  fo_worker_opts_init(&o);
  o.device = FO_WORKER_ACCEL;
  o.use_cpu_workers = false;
  o.local_world_size = 8;
  o.n_devices_override = 3;
  assert_fo_ok(fo_worker_plan(&o, p));
  for (int32_t r = 0; r < 8; r++) {
    assert_int_equal(p[r].device_index, r % 3);
    assert_int_equal(p[r].n_devices, 3);
    assert_false(p[r].cpu_mode);
    assert_int_equal(p[r].first_core, -1);
    assert_int_equal(p[r].n_cpus, 0);
    assert_int_equal(p[r].num_threads, 0);
  }
  o.n_devices_override = 8;
  assert_fo_ok(fo_worker_plan(&o, p));
  for (int32_t r = 0; r < 8; r++) assert_int_equal(p[r].device_index, r);
  o.n_devices_override = 0;
  assert_fo_error(fo_worker_plan(&o, p), FO_ENOSYS, "no accelerator");
  /* Accelerator and CPU workers together. */
  if (fo__have_hwloc()) {
    o.n_devices_override = 2;
    o.use_cpu_workers = true;
    o.num_cpu_threads = 2;
    o.topology_synthetic = "core:8 pu:1";
    o.local_world_size = 4;
    assert_fo_ok(fo_worker_plan(&o, p));
    EXPECT(&p[3], 6, 2, L(6, 7), L(0));
    assert_int_equal(p[3].device_index, 1);
  }
}

/* The real discovery: on a machine without CUDA a clean FO_ENOSYS, never a crash. */
static void test_accel_discovery(void **state) {
  int32_t n = -5;
  int rc;
  fo_worker_opts o;
  fo_worker_info info;
  (void)state;
  assert_fo_error(fo_worker_device_count(NULL), FO_EINVAL, "n_out");
  rc = fo_worker_device_count(&n);
  fo_worker_opts_init(&o);
  o.device = FO_WORKER_ACCEL;
  o.use_cpu_workers = false;
  if (rc == FO_OK) { /* a machine with a GPU: the count is used */
    assert_true(n >= 1);
    assert_fo_ok(fo_worker_plan(&o, &info));
    assert_int_equal(info.n_devices, n);
    assert_int_equal(info.device_index, 0);
    return;
  }
  assert_int_equal(rc, FO_ENOSYS);
  assert_int_equal(n, 0);
  assert_non_null(strstr(fo_last_error(), "no accelerator"));
  assert_fo_error(fo_worker_plan(&o, &info), FO_ENOSYS, "no accelerator");
  assert_fo_error(fo_worker_init(&o, &info), FO_ENOSYS, "init worker (local rank 0)");
  assert_fo_error(fo_worker_current(&info), FO_EINVAL, "has not succeeded");
}

/* ---- errors -------------------------------------------------------------------------------- */

typedef struct bad_case {
  const char *what;
  void (*edit)(fo_worker_opts *o);
  int code;
  const char *msg;
} bad_case;

static void e_world(fo_worker_opts *o) { o->world_size = 0; }
static void e_mrank(fo_worker_opts *o) { o->machine_rank = 2; o->world_size = 2; }
static void e_mrank_neg(fo_worker_opts *o) { o->machine_rank = -1; }
static void e_lws(fo_worker_opts *o) { o->local_world_size = 0; }
static void e_lrank(fo_worker_opts *o) { o->local_rank = 2; }
static void e_lrank_neg(fo_worker_opts *o) { o->local_rank = -1; }
static void e_device(fo_worker_opts *o) { o->device = (fo_worker_device)7; }
static void e_cpu_nocpu(fo_worker_opts *o) { o->use_cpu_workers = false; }
static void e_threads0(fo_worker_opts *o) { o->num_cpu_threads = 0; }
static void e_threads_neg(fo_worker_opts *o) { o->num_cpu_threads = -2; }
static void e_gap_neg(fo_worker_opts *o) { o->start_gap_s = -1; }
static void e_gap_nan(fo_worker_opts *o) { o->start_gap_s = __builtin_nan(""); }
static void e_both_topo(fo_worker_opts *o) { o->topology_xml = "x.xml"; }
static void e_ndev(fo_worker_opts *o) { o->n_devices_override = -2; }
static void e_synthetic(fo_worker_opts *o) { o->topology_synthetic = "foo:3"; }
static void e_synthetic_empty(fo_worker_opts *o) { o->topology_synthetic = ""; }
static void e_too_many(fo_worker_opts *o) { o->local_world_size = 9; }
static void e_accel_none(fo_worker_opts *o) {
  o->device = FO_WORKER_ACCEL;
  o->use_cpu_workers = false;
  o->n_devices_override = 0;
}

static const bad_case BAD[] = {
    {"world_size", e_world, FO_EINVAL, "world_size 0 is not >= 1"},
    {"machine_rank", e_mrank, FO_EINVAL, "machine_rank 2 is not in [0, 2)"},
    {"machine_rank<0", e_mrank_neg, FO_EINVAL, "machine_rank -1 is not in [0, 1)"},
    {"local_world_size", e_lws, FO_EINVAL, "local_world_size 0 is not >= 1"},
    {"local_rank", e_lrank, FO_EINVAL, "local_rank 2 is not in [0, 2)"},
    {"local_rank<0", e_lrank_neg, FO_EINVAL, "local_rank -1 is not in [0, 2)"},
    {"device", e_device, FO_EINVAL, "device 7 is not"},
    {"cpu without workers", e_cpu_nocpu, FO_EINVAL, "use_cpu_workers is false"},
    {"threads unset", e_threads0, FO_EINVAL, "num_cpu_threads is not set"},
    {"threads<0", e_threads_neg, FO_EINVAL, "num_cpu_threads -2 is negative"},
    {"gap<0", e_gap_neg, FO_EINVAL, "start_gap_s -1 is not in"},
    {"gap nan", e_gap_nan, FO_EINVAL, "start_gap_s"},
    {"two topologies", e_both_topo, FO_EINVAL, "both topology_xml and topology_synthetic"},
    {"n_devices_override", e_ndev, FO_EINVAL, "n_devices_override -2"},
    {"synthetic", e_synthetic, FO_EINVAL, "invalid synthetic topology 'foo:3'"},
    {"synthetic empty", e_synthetic_empty, FO_EINVAL, "invalid synthetic topology ''"},
    {"P > C", e_too_many, FO_EINVAL, "local_world_size 9 is more than the 8 physical cores"},
    {"no accelerator", e_accel_none, FO_ENOSYS, "no accelerator: n_devices_override is 0"},
};

static void test_errors(void **state) {
  fo_worker_info info[16];
  (void)state;
  assert_fo_error(fo_worker_init(NULL, info), FO_EINVAL, "options are NULL");
  assert_fo_error(fo_worker_plan(NULL, info), FO_EINVAL, "options are NULL");
  {
    fo_worker_opts o = cpu_opts("core:2", 1, 1);
    assert_fo_error(fo_worker_init(&o, NULL), FO_EINVAL, "out is NULL");
    assert_fo_error(fo_worker_plan(&o, NULL), FO_EINVAL, "out is NULL");
    assert_fo_error(fo_worker_current(NULL), FO_EINVAL, "out is NULL");
  }
  for (int32_t i = 0; i < N_OF(BAD); i++) {
    fo_worker_opts o = cpu_opts("pack:2 core:4 pu:2", 2, 2);
    int rc;
    o.local_rank = 1;
    BAD[i].edit(&o);
    if (!fo__have_hwloc() && o.use_cpu_workers && BAD[i].code == FO_EINVAL &&
        (strstr(BAD[i].msg, "synthetic") || strstr(BAD[i].msg, "physical")))
      continue; /* needs the topology */
    rc = fo_worker_init(&o, info);
    if (rc != BAD[i].code || !strstr(fo_last_error(), BAD[i].msg))
      fail_msg("case '%s': init gave %s '%s', want %s '%s'", BAD[i].what, fo_status_name(rc),
               fo_last_error(), fo_status_name(BAD[i].code), BAD[i].msg);
    assert_non_null(strstr(fo_last_error(), "init worker (local rank "));
    if (!strstr(BAD[i].msg, "local_rank")) { /* the plan ignores local_rank */
      rc = fo_worker_plan(&o, info);
      if (rc != BAD[i].code || !strstr(fo_last_error(), BAD[i].msg))
        fail_msg("case '%s': plan gave %s '%s'", BAD[i].what, fo_status_name(rc), fo_last_error());
      assert_non_null(strstr(fo_last_error(), "plan workers: "));
    }
    /* a failed init records nothing */
    assert_int_equal(fo_worker_thread_budget(), 0);
    assert_fo_error(fo_worker_current(info), FO_EINVAL, "fo_worker_init has not succeeded");
  }
}

static void test_no_hwloc_build(void **state) {
  fo_worker_opts o = cpu_opts(NULL, 1, 1);
  fo_worker_info info;
  (void)state;
  if (fo__have_hwloc()) skip();
  assert_fo_error(fo_worker_plan(&o, &info), FO_ENOSYS, "FO_WITH_HWLOC=OFF");
  assert_fo_error(fo_worker_init(&o, &info), FO_ENOSYS, "FO_WITH_HWLOC=OFF");
}

/* ---- fo_worker_init: idempotency ----------------------------------------------------------- */

typedef struct diff_case {
  void (*edit)(fo_worker_opts *o);
  const char *msg;
} diff_case;

static void d_mrank(fo_worker_opts *o) { o->machine_rank = 0; }
static void d_world(fo_worker_opts *o) { o->world_size = 3; }
static void d_lrank(fo_worker_opts *o) { o->local_rank = 0; }
static void d_lws(fo_worker_opts *o) { o->local_world_size = 4; }
static void d_device(fo_worker_opts *o) { o->device = FO_WORKER_ACCEL; }
static void d_cpu(fo_worker_opts *o) { o->use_cpu_workers = false; }
static void d_threads(fo_worker_opts *o) { o->num_cpu_threads = 8; }
static void d_gap(fo_worker_opts *o) { o->start_gap_s = 0.5; }
static void d_shared(fo_worker_opts *o) { o->allow_shared_cores = true; }
static void d_xml(fo_worker_opts *o) { o->topology_xml = "x.xml"; }
static void d_syn(fo_worker_opts *o) { o->topology_synthetic = "core:4"; }
static void d_syn_null(fo_worker_opts *o) { o->topology_synthetic = NULL; }
static void d_ndev(fo_worker_opts *o) { o->n_devices_override = 2; }
static void d_two(fo_worker_opts *o) { o->num_cpu_threads = 9; o->machine_rank = 0; }

static const diff_case DIFF[] = {
    {d_mrank, "machine_rank is 0, the first call had 1"},
    {d_world, "world_size is 3, the first call had 2"},
    {d_lrank, "local_rank is 0, the first call had 1"},
    {d_lws, "local_world_size is 4, the first call had 2"},
    {d_device, "device is 1, the first call had 0"},
    {d_cpu, "use_cpu_workers is false, the first call had true"},
    {d_threads, "num_cpu_threads is 8, the first call had 4"},
    {d_gap, "start_gap_s is 0.5, the first call had 0"},
    {d_shared, "allow_shared_cores is true, the first call had false"},
    {d_xml, "topology_xml is 'x.xml', the first call had '(none)'"},
    {d_syn, "topology_synthetic is 'core:4', the first call had 'pack:2 core:4 pu:2'"},
    {d_syn_null, "topology_synthetic is '(none)', the first call had 'pack:2 core:4 pu:2'"},
    {d_ndev, "n_devices_override is 2, the first call had -1"},
    {d_two, "machine_rank is 0"},
};

static void test_init_idempotent(void **state) {
  fo_worker_opts o = cpu_opts("pack:2 core:4 pu:2", 2, 4), o2;
  fo_worker_info a, b, c;
  char syn[] = "pack:2 core:4 pu:2";
  (void)state;
  skip_without_hwloc();
  o.local_rank = 1;
  o.machine_rank = 1;
  o.world_size = 2;
  assert_int_equal(fo_worker_thread_budget(), 0);
  assert_fo_error(fo_worker_current(&c), FO_EINVAL, "fo_worker_init has not succeeded");
  memset(&a, 0x11, sizeof a);
  assert_fo_ok(fo_worker_init(&o, &a));
  assert_string_equal(a.group_name, "distributed-process-1");
  assert_int_equal(a.machine_rank, 1);
  assert_int_equal(a.world_size, 2);
  assert_int_equal(a.local_world_size, 2);
  assert_false(a.bound); /* an injected topology is never bound */
  EXPECT(&a, 4, 4, L(8, 9, 10, 11, 12, 13, 14, 15), L(0));
  assert_int_equal(fo_worker_thread_budget(), 4);
  /* The same as fo_worker_plan's rank 1. */
  {
    fo_worker_info p[2];
    assert_fo_ok(fo_worker_plan(&o, p));
    assert_memory_equal(&p[1], &a, sizeof a);
  }
  /* Same options again (a string with the same content at another address): the same info. */
  o2 = o;
  o2.topology_synthetic = syn;
  memset(&b, 0x22, sizeof b);
  assert_fo_ok(fo_worker_init(&o2, &b));
  assert_memory_equal(&a, &b, sizeof a);
  assert_fo_ok(fo_worker_current(&c));
  assert_memory_equal(&a, &c, sizeof a);
  /* Each differing field is named; the record stays as it was. */
  for (int32_t i = 0; i < N_OF(DIFF); i++) {
    o2 = o;
    DIFF[i].edit(&o2);
    memset(&b, 0x33, sizeof b);
    assert_fo_error(fo_worker_init(&o2, &b), FO_EINVAL, DIFF[i].msg);
    assert_fo_error(fo_worker_init(&o2, &b), FO_EINVAL,
                    "init worker: already initialized with other options: ");
    assert_int_equal(b.local_rank, 0x33333333); /* untouched */
    assert_fo_ok(fo_worker_current(&c));
    assert_memory_equal(&a, &c, sizeof a);
    assert_int_equal(fo_worker_thread_budget(), 4);
  }
  /* After a reset a new configuration is accepted. */
  fo__worker_reset();
  assert_int_equal(fo_worker_thread_budget(), 0);
  o.num_cpu_threads = 6;
  assert_fo_ok(fo_worker_init(&o, &b));
  assert_int_equal(fo_worker_thread_budget(), 6);
  assert_int_equal(b.num_threads, 6);
}

/* A failed first call records nothing; the next one starts afresh. */
static void test_init_failure_then_success(void **state) {
  fo_worker_opts o;
  fo_worker_info info;
  (void)state;
  fo_worker_opts_init(&o);
  o.device = FO_WORKER_ACCEL;
  o.use_cpu_workers = false;
  o.n_devices_override = 0;
  assert_fo_error(fo_worker_init(&o, &info), FO_ENOSYS, "no accelerator");
  o.n_devices_override = 4;
  o.local_world_size = 8;
  o.local_rank = 6;
  o.num_cpu_threads = 5; /* reported even outside CPU mode */
  assert_fo_ok(fo_worker_init(&o, &info));
  assert_int_equal(info.device_index, 2);
  assert_int_equal(info.n_devices, 4);
  assert_false(info.cpu_mode);
  assert_false(info.bound);
  assert_int_equal(info.num_threads, 5);
  assert_int_equal(fo_worker_thread_budget(), 5);
  assert_string_equal(info.group_name, "distributed-process-6");
}

/* ---- fo_worker_init: the stagger ----------------------------------------------------------- */

static void test_start_gap(void **state) {
  fo_worker_opts o;
  fo_worker_info info;
  double t0, dt;
  (void)state;
  fo_worker_opts_init(&o);
  o.device = FO_WORKER_ACCEL;
  o.use_cpu_workers = false;
  o.n_devices_override = 1;
  o.local_world_size = 4;
  o.local_rank = 3;
  o.start_gap_s = 0.05;
  t0 = now_s();
  assert_fo_ok(fo_worker_init(&o, &info));
  dt = now_s() - t0;
  if (dt < 0.149) fail_msg("first call slept %.3f s, want >= 0.15 (0.05 x rank 3)", dt);
  assert_true(info.start_delay_s > 0.1499 && info.start_delay_s < 0.1501);
  t0 = now_s();
  assert_fo_ok(fo_worker_init(&o, &info));
  dt = now_s() - t0;
  if (dt > 0.1) fail_msg("second call took %.3f s: it must not sleep again", dt);
  /* Default 0: rank 3 does not wait. */
  fo__worker_reset();
  o.start_gap_s = 0;
  t0 = now_s();
  assert_fo_ok(fo_worker_init(&o, &info));
  dt = now_s() - t0;
  if (dt > 0.1) fail_msg("start_gap_s 0 took %.3f s", dt);
  /* Plans report the delay per rank, without sleeping. */
  {
    fo_worker_info p[4];
    o.start_gap_s = 10;
    t0 = now_s();
    assert_fo_ok(fo_worker_plan(&o, p));
    assert_true(now_s() - t0 < 1);
    for (int r = 0; r < 4; r++) assert_true(p[r].start_delay_s == 10.0 * r);
  }
}

/* ---- fo_worker_init: concurrent callers ---------------------------------------------------- */

typedef struct racer {
  pthread_barrier_t *go;
  fo_worker_opts o;
  fo_worker_info info;
  int rc;
  char msg[256];
} racer;

static void *race(void *arg) {
  racer *r = arg;
  pthread_barrier_wait(r->go);
  r->rc = fo_worker_init(&r->o, &r->info);
  snprintf(r->msg, sizeof r->msg, "%s", fo_last_error());
  (void)fo_worker_thread_budget();
  return NULL;
}

static void test_init_concurrent(void **state) {
  enum { N = 8 };
  pthread_barrier_t go;
  pthread_t th[N];
  racer rs[N];
  fo_worker_info cur;
  (void)state;
  for (int round = 0; round < 2; round++) {
    int n_ok = 0;
    fo__worker_reset();
    pthread_barrier_init(&go, NULL, N);
    for (int i = 0; i < N; i++) {
      memset(&rs[i], 0, sizeof rs[i]);
      rs[i].go = &go;
      fo_worker_opts_init(&rs[i].o);
      rs[i].o.device = FO_WORKER_ACCEL;
      rs[i].o.use_cpu_workers = false;
      rs[i].o.n_devices_override = 2;
      rs[i].o.local_world_size = 4;
      rs[i].o.local_rank = 1;
      /* round 0: all equal; round 1: two different thread budgets */
      rs[i].o.num_cpu_threads = round == 0 ? 3 : 3 + i % 2;
      assert_int_equal(pthread_create(&th[i], NULL, race, &rs[i]), 0);
    }
    for (int i = 0; i < N; i++) pthread_join(th[i], NULL);
    pthread_barrier_destroy(&go);
    assert_fo_ok(fo_worker_current(&cur));
    for (int i = 0; i < N; i++) {
      if (rs[i].rc == FO_OK) {
        n_ok++;
        assert_memory_equal(&rs[i].info, &cur, sizeof cur);
      } else {
        assert_int_equal(rs[i].rc, FO_EINVAL);
        assert_int_not_equal(rs[i].o.num_cpu_threads, cur.num_threads);
        assert_non_null(strstr(rs[i].msg, "num_cpu_threads is"));
      }
    }
    /* round 0: everyone; round 1: exactly the four that asked for the winner's budget */
    assert_int_equal(n_ok, round == 0 ? N : N / 2);
    assert_int_equal(fo_worker_thread_budget(), cur.num_threads);
  }
}

/* ---- the real machine: affinity applied, in a child process -------------------------------- */

static int pipe_fd[2];

static void *parked(void *arg) {
  char c;
  (void)arg;
  while (read(pipe_fd[0], &c, 1) < 0) {
  }
  return NULL;
}

static void *report_affinity(void *arg) {
  sched_getaffinity(0, sizeof(cpu_set_t), (cpu_set_t *)arg);
  return NULL;
}

static bool same_as_info(const cpu_set_t *s, const fo_worker_info *in) {
  int32_t n = 0;
  for (int c = 0; c < CPU_SETSIZE && c < FO_WORKER_MAX_CPUS; c++) {
    bool want = in->cpuset[c / 64] >> (c % 64) & 1;
    if ((bool)CPU_ISSET(c, s) != want) return false;
    n += want;
  }
  return n == in->n_cpus && n > 0;
}

/* The child: returns its exit code (0 = all good). */
static int child_affinity(void) {
  fo_worker_opts o;
  fo_worker_info all[2], info;
  cpu_set_t one, s_main, s_old, s_new;
  pthread_t old_thread, new_thread;
  int first = -1;
  fo_worker_opts_init(&o);
  o.num_cpu_threads = 1;
  if (fo_worker_plan(&o, all) != FO_OK) return 10;
  /* Two ranks when the machine has two cores or more; we are the last. */
  o.local_world_size = all[0].n_cores_total >= 2 ? 2 : 1;
  o.local_rank = o.local_world_size - 1;
  /* Start from a different affinity: the first CPU only. */
  CPU_ZERO(&one);
  if (sched_getaffinity(0, sizeof s_main, &s_main) != 0) return 11;
  for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
    if (CPU_ISSET(c, &s_main)) first = c;
  CPU_SET(first, &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0) return 12;
  /* A thread started before init must be moved too (the whole process is bound). */
  if (pipe(pipe_fd) != 0 || pthread_create(&old_thread, NULL, parked, NULL) != 0) return 13;
  if (fo_worker_init(&o, &info) != FO_OK) {
    fprintf(stderr, "child: %s\n", fo_last_error());
    return 14;
  }
  if (!info.bound) return 15;
  if (sched_getaffinity(0, sizeof s_main, &s_main) != 0 || !same_as_info(&s_main, &info)) return 16;
  if (pthread_getaffinity_np(old_thread, sizeof s_old, &s_old) != 0 || !same_as_info(&s_old, &info))
    return 17;
  if (write(pipe_fd[1], "x", 1) != 1) return 18;
  pthread_join(old_thread, NULL);
  /* A thread started after init inherits it. */
  CPU_ZERO(&s_new);
  if (pthread_create(&new_thread, NULL, report_affinity, &s_new) != 0) return 19;
  pthread_join(new_thread, NULL);
  if (!same_as_info(&s_new, &info)) return 20;
  /* With two ranks, rank 1 does not own the first core: the affinity really changed. */
  if (o.local_world_size == 2 && (info.cpuset[first / 64] >> (first % 64) & 1)) return 21;
  /* The plan's rank and init agree. */
  if (fo_worker_plan(&o, all) != FO_OK) return 22;
  all[o.local_rank].bound = true;
  if (memcmp(&all[o.local_rank], &info, sizeof info) != 0) return 23;
  return 0;
}

static void test_real_affinity(void **state) {
  cpu_set_t before, after;
  pid_t pid;
  int status;
  (void)state;
  skip_without_hwloc();
  assert_int_equal(sched_getaffinity(0, sizeof before, &before), 0);
  fflush(NULL);
  pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) _exit(child_affinity());
  assert_int_equal(waitpid(pid, &status, 0), pid);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    fail_msg("child failed: status %d (exit code %d; see child_affinity)", status,
             WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  /* This process was not touched. */
  assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
  assert_true(CPU_EQUAL(&before, &after));
}

/* An injected topology plans but never binds this process. */
static void test_injected_topology_not_bound(void **state) {
  cpu_set_t before, after;
  fo_worker_opts o = cpu_opts("core:2 pu:1", 2, 1);
  fo_worker_info info;
  (void)state;
  skip_without_hwloc();
  o.local_rank = 1;
  assert_int_equal(sched_getaffinity(0, sizeof before, &before), 0);
  assert_fo_ok(fo_worker_init(&o, &info));
  assert_false(info.bound);
  assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
  assert_true(CPU_EQUAL(&before, &after));
}

static void test_info_lists(void **state) {
  fo_worker_info in;
  int32_t out[3] = {-1, -1, -1};
  (void)state;
  memset(&in, 0, sizeof in);
  in.cpuset[0] = UINT64_C(1) << 63 | 1;
  in.cpuset[1] = 2;
  in.cpuset[FO_WORKER_MAX_CPUS / 64 - 1] = UINT64_C(1) << 63;
  assert_int_equal(fo_worker_info_cpus(&in, out, 2), 4);
  assert_int_equal(out[0], 0);
  assert_int_equal(out[1], 63);
  assert_int_equal(out[2], -1); /* cap respected */
  assert_int_equal(fo_worker_info_cpus(&in, NULL, 0), 4);
  assert_int_equal(fo_worker_info_cpus(NULL, NULL, 0), 0);
  {
    int32_t all[4];
    assert_int_equal(fo_worker_info_cpus(&in, all, 4), 4);
    assert_int_equal(all[2], 65);
    assert_int_equal(all[3], FO_WORKER_MAX_CPUS - 1);
  }
  in.numaset[0] = 6;
  assert_int_equal(fo_worker_info_numa(&in, out, 3), 2);
  assert_int_equal(out[0], 1);
  assert_int_equal(out[1], 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_opts_defaults),
      cmocka_unit_test(test_plan_adjacent_siblings),
      cmocka_unit_test(test_plan_round_robin_siblings),
      cmocka_unit_test(test_plan_numa),
      cmocka_unit_test(test_plan_no_smt_uneven),
      cmocka_unit_test(test_plan_xml),
      cmocka_unit_test(test_plan_properties),
      cmocka_unit_test(test_plan_random_layouts),
      cmocka_unit_test(test_plan_pure_exact),
      cmocka_unit_test(test_plan_shared_cores),
      cmocka_unit_test(test_accel_assignment),
      cmocka_unit_test_setup(test_accel_discovery, setup),
      cmocka_unit_test_setup(test_errors, setup),
      cmocka_unit_test_setup(test_no_hwloc_build, setup),
      cmocka_unit_test_setup(test_init_idempotent, setup),
      cmocka_unit_test_setup(test_init_failure_then_success, setup),
      cmocka_unit_test_setup(test_start_gap, setup),
      cmocka_unit_test_setup(test_init_concurrent, setup),
      cmocka_unit_test_setup(test_real_affinity, setup),
      cmocka_unit_test_setup(test_injected_topology_not_bound, setup),
      cmocka_unit_test(test_info_lists),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
