/*
 * tests/mpi/mpi_dist.c: the MPI transport under mpiexec, one mode per run (CTest runs them
 * through tests/mpi/run.sh and add_test lines in tests/CMakeLists.txt, label "mpi"):
 *
 *   check PARTS PLAIN PPM      seed lists owned entirely by one machine, through distributed
 *                              samplers (compared array by array with a plain sampler over the
 *                              unpartitioned PLAIN) and distributed loaders (epoch digest on
 *                              rank 0 equal to the plain loader's), while the last rank opens
 *                              its dataset a second late (start-up skew: its requests queue);
 *   frozen PARTS PPM D         the last rank SIGSTOPs itself after start-up; every other rank
 *                              must fail within 2 D with a message naming it (prints
 *                              "failed after T s: MESSAGE"; tests/mpi/faults.sh checks);
 *   crash PARTS PPM D          the same with SIGKILL: the job ends (Open MPI ends every rank
 *                              when one dies, or the deadline fails the others), never hangs;
 *   corrupt PARTS PPM D        PARTS has a corrupt part 1: machine 0 samples its own seeds, whose
 *                              second hop reaches part 1; its server answers with an ERROR and
 *                              every rank fails with that message (faults.sh checks);
 *   init PARTS4                start-up errors on every rank (4 ranks): procs_per_machine not
 *                              dividing or differing, a dataset with the wrong number of parts,
 *                              the machines found from shared memory, init_worker;
 *   thread-level               MPI initialized with MPI_THREAD_FUNNELED: FO_EINVAL everywhere;
 *   disagree PARTS PPM         each loader option differing on one rank: FO_EINVAL on every
 *                              rank naming it and both values (fo_dist_check_same);
 *   nostart D                  the last rank never starts the context: the others' start-up
 *                              fails within about D;
 *   oversize PARTS PPM         max_message_bytes 4096: answers over it are refused by their
 *                              server with an ERROR naming both sizes, on every rank;
 *   transfer PARTS PPM D OUT   large answers in flight while run.sh stops (SIGSTOP) and later
 *                              continues one rank: each rank writes how it failed to OUT.
 *
 * Exit status 0 when every check passed on every rank (check, init, thread-level); frozen and
 * corrupt end in MPI_Abort by design.
 */
#include <fanout/fanout.h>

#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int g_rank, g_size, g_fails;

#define CHECK(cond, ...)                                                                      \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      printf("mpi_dist: rank %d: FAIL line %d: ", g_rank, __LINE__);                         \
      printf(__VA_ARGS__);                                                                    \
      printf("\n");                                                                           \
      fflush(stdout);                                                                         \
      g_fails++;                                                                              \
    }                                                                                         \
  } while (0)
#define CHECK_OK(expr)                                                                        \
  do {                                                                                        \
    int rc_ = (expr);                                                                         \
    CHECK(rc_ == FO_OK, "%s: %s (%s)", #expr, fo_last_error(), fo_status_name(rc_));         \
  } while (0)
#define CHECK_ERR(expr, code, substr)                                                         \
  do {                                                                                        \
    int rc_ = (expr);                                                                         \
    CHECK(rc_ == (code) && strstr(fo_last_error(), (substr)), "%s: %s (%s), expected %s "   \
          "with '%s'", #expr, fo_last_error(), fo_status_name(rc_), fo_status_name(code), substr); \
  } while (0)

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_s(double s) {
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  nanosleep(&ts, NULL);
}

/* Every rank's failures summed; rank 0 says how it went. */
static int finish(void) {
  int total = 0;
  MPI_Allreduce(&g_fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0 && total) printf("mpi_dist: %d failed checks\n", total);
  else if (g_rank == 0) printf("mpi_dist: ok\n");
  MPI_Finalize();
  return total ? 1 : 0;
}

/* Print how this rank failed, let the others print too, stop the job. */
static void stop_job(double t0, int rc, const char *msg) {
  printf("mpi_dist: rank %d: failed after %.2f s: %s (%s)\n", g_rank, now_s() - t0, msg,
         fo_status_name(rc));
  fflush(stdout);
  sleep_s(0.5);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

/* Nodes of the partitioned dataset `path` owned by part k (malloc'ed, *n of them). It is
 * opened whole here: fo_dataset_node_part needs the owning part open for the row. */
static int64_t *owned_by(const char *path, int k, int64_t *n) {
  fo_dataset_t *d = NULL;
  int64_t N, *out;
  *n = 0;
  CHECK_OK(fo_dataset_open(path, NULL, &d));
  if (!d) return NULL;
  N = fo_dataset_num_nodes(d);
  out = malloc((size_t)N * sizeof *out);
  for (int64_t v = 0; v < N; v++) {
    int part;
    int64_t row;
    if (fo_dataset_node_part(d, v, &part, &row) == FO_OK && part == k) out[(*n)++] = v;
  }
  fo_dataset_close(d);
  return out;
}

static bool same_batch(const fo_batch_t *a, const fo_batch_t *b) {
  return a->n_nodes == b->n_nodes && a->n_edges == b->n_edges &&
         !memcmp(a->node, b->node, (size_t)a->n_nodes * 8) &&
         !memcmp(a->row, b->row, (size_t)a->n_edges * 8) &&
         !memcmp(a->col, b->col, (size_t)a->n_edges * 8) &&
         !memcmp(a->edge, b->edge, (size_t)a->n_edges * 8) &&
         (!a->disjoint || !memcmp(a->batch, b->batch, (size_t)a->n_nodes * 8));
}

/* The epoch digest of this rank's share of L's epoch, in global batch order, on rank 0. */
static uint64_t dist_epoch_digest(fo_loader_t *L) {
  int64_t rec[2 * 64], n = 0, *all = NULL;
  uint64_t seq[64], dg = 0;
  int counts[64], displs[64], cnt;
  fo_loader_batch_t *b;
  for (;;) {
    int rc = fo_loader_next(L, &b);
    CHECK(rc == FO_OK, "loader: %s (%s)", fo_last_error(), fo_status_name(rc));
    if (rc != FO_OK || !b) break;
    if (n < 2 * 64) {
      rec[n++] = b->index;
      rec[n++] = (int64_t)fo_loader_batch_digest(b);
    }
    fo_loader_release(L, b);
  }
  cnt = (int)n;
  MPI_Gather(&cnt, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (g_rank == 0) {
    int total = 0;
    for (int r = 0; r < g_size; r++) {
      displs[r] = total;
      total += counts[r];
    }
    all = malloc((size_t)(total + 1) * sizeof *all);
    MPI_Gatherv(rec, cnt, MPI_INT64_T, all, counts, displs, MPI_INT64_T, 0, MPI_COMM_WORLD);
    for (int i = 0; i < total / 2 && i < 64; i++) {
      int64_t idx = all[2 * i];
      CHECK(idx >= 0 && idx < 64, "batch index %lld", (long long)idx);
      if (idx >= 0 && idx < 64) seq[idx] = (uint64_t)all[2 * i + 1];
    }
    dg = fo_digest_sequence(seq, total / 2 < 64 ? total / 2 : 64);
    free(all);
  } else {
    MPI_Gatherv(rec, cnt, MPI_INT64_T, NULL, NULL, NULL, MPI_INT64_T, 0, MPI_COMM_WORLD);
  }
  return dg;
}

static uint64_t plain_epoch_digest(const fo_dataset_t *d, const fo_loader_opts *o) {
  fo_loader_t *L;
  fo_loader_batch_t *b;
  uint64_t seq[64];
  int64_t n = 0;
  CHECK_OK(fo_loader_create(d, o, &L));
  while (fo_loader_next(L, &b) == FO_OK && b) {
    if (n < 64) seq[n++] = fo_loader_batch_digest(b);
    fo_loader_release(L, b);
  }
  fo_loader_destroy(L);
  return fo_digest_sequence(seq, n);
}

static int mode_check(const char *parts, const char *plain_path, int ppm) {
  fo_dist_opts o;
  fo_dist_t *dd;
  fo_dataset_t *d = NULL, *plain = NULL;
  int64_t *owned[64] = {0}, n_owned[64] = {0};
  int M;
  fo_dist_opts_init(&o);
  o.procs_per_machine = ppm;
  o.deadline_s = 60;
  CHECK_OK(fo_dist_init_mpi(&(MPI_Comm){MPI_COMM_WORLD}, &o, &dd));
  if (!dd) return finish();
  M = fo_dist_num_machines(dd);
  /* start-up skew: the last rank opens its dataset (and starts serving) a second late, while
   * the others already send it requests */
  if (g_rank == g_size - 1) sleep_s(1.0);
  CHECK_OK(fo_dist_open_dataset(dd, parts, NULL, &d));
  CHECK_OK(fo_dataset_open(plain_path, NULL, &plain));
  if (!d || !plain || M > 64) return finish();
  for (int k = 0; k < M; k++) owned[k] = owned_by(parts, k, &n_owned[k]);

  /* samplers: every rank, seeds of one machine at a time (local for that machine's ranks,
   * remote at the first hop for everyone else) */
  for (int variant = 0; variant < 3; variant++) {
    fo_sampler_opts so;
    fo_sampler_t *ds = NULL, *ps = NULL;
    fo_batch_t *db = NULL, *pb = NULL;
    int32_t fans[3] = {4, 3, 2};
    fo_sampler_opts_init(&so);
    so.fanouts = fans;
    so.n_hops = 2 + (variant == 2);
    so.seed = 5 + (uint64_t)variant;
    so.replace = variant == 1;
    so.disjoint = variant == 2;
    CHECK_OK(fo_dist_sampler_create(dd, d, &so, &ds));
    CHECK_OK(fo_sampler_create(plain, &so, &ps));
    CHECK_OK(fo_batch_create(&db));
    CHECK_OK(fo_batch_create(&pb));
    for (int k = 0; ds && ps && k < M; k++)
      for (int b = 0; b < 3; b++) {
        int64_t n = n_owned[k] < 24 ? n_owned[k] : 24, off = n_owned[k] ? (g_rank * 7 + b * 24) % n_owned[k] : 0;
        int64_t seeds[24];
        for (int64_t i = 0; i < n; i++) seeds[i] = owned[k][(off + i) % n_owned[k]];
        CHECK_OK(fo_sampler_sample(ds, seeds, n, 2, (uint64_t)b, db));
        CHECK_OK(fo_sampler_sample(ps, seeds, n, 2, (uint64_t)b, pb));
        CHECK(same_batch(db, pb), "variant %d: seeds of machine %d, batch %d: distributed batch "
              "differs from the plain one (%lld/%lld nodes, %lld/%lld edges)", variant, k, b,
              (long long)db->n_nodes, (long long)pb->n_nodes, (long long)db->n_edges,
              (long long)pb->n_edges);
      }
    fo_batch_destroy(db);
    fo_batch_destroy(pb);
    fo_sampler_destroy(ds);
    fo_sampler_destroy(ps);
  }

  /* loaders over the seeds of machine 0, then of the last machine, with features and labels */
  for (int which = 0; which < 2; which++) {
    int k = which ? M - 1 : 0;
    fo_loader_opts lo;
    fo_loader_t *L = NULL;
    uint64_t got, want = 0;
    fo_loader_opts_init(&lo);
    lo.sampler.fanouts = (const int32_t[]){5, 5};
    lo.sampler.n_hops = 2;
    lo.sampler.seed = 9;
    lo.batch_size = 16;
    lo.shuffle = true;
    lo.num_workers = 2;
    lo.input_nodes = owned[k];
    lo.n_input_nodes = n_owned[k] < 16 * 40 ? n_owned[k] : 16 * 40;
    CHECK_OK(fo_dist_loader_create(dd, d, &lo, FO_DIST_TAIL_KEEP, &L));
    if (!L) continue;
    got = dist_epoch_digest(L);
    fo_loader_destroy(L);
    if (g_rank == 0) {
      want = plain_epoch_digest(plain, &lo);
      CHECK(got == want, "loader over the %lld seeds of machine %d: digest %016llx, plain "
            "%016llx", (long long)lo.n_input_nodes, k, (unsigned long long)got,
            (unsigned long long)want);
    }
  }
  CHECK_OK(fo_dist_finalize(dd));
  for (int k = 0; k < M; k++) free(owned[k]);
  fo_dataset_close(d);
  fo_dataset_close(plain);
  return finish();
}

/* frozen, crash and corrupt: sample until the context fails, then report and stop the job.
 * Every rank creates its loader (a collective); machine 1 only serves in the corrupt mode. */
static int mode_fault(bool frozen, bool crash, const char *parts, int ppm, double deadline) {
  fo_dist_opts o;
  fo_dist_t *dd;
  fo_dataset_t *d = NULL;
  double t0, limit = frozen ? 4 * deadline : 30;
  const char *msg;
  fo_loader_opts lo;
  fo_loader_t *L = NULL;
  int64_t n = 0, *seeds;
  int rc;
  fo_dist_opts_init(&o);
  o.procs_per_machine = ppm;
  o.deadline_s = deadline;
  CHECK_OK(fo_dist_init_mpi(&(MPI_Comm){MPI_COMM_WORLD}, &o, &dd));
  if (!dd) return finish();
  CHECK_OK(fo_dist_open_dataset(dd, parts, NULL, &d));
  seeds = frozen ? NULL : owned_by(parts, 0, &n);
  fo_loader_opts_init(&lo);
  lo.sampler.fanouts = (const int32_t[]){-1, -1};
  lo.sampler.n_hops = 2;
  lo.batch_size = 8;
  lo.shuffle = true;
  lo.num_workers = 2;
  lo.input_nodes = seeds;
  lo.n_input_nodes = n;
  CHECK_OK(fo_dist_loader_create(dd, d, &lo, FO_DIST_TAIL_KEEP, &L));
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = now_s();
  if (frozen && g_rank == g_size - 1) {
    printf("mpi_dist: rank %d: pid %d %s itself (machine %d, local rank %d)\n", g_rank,
           (int)getpid(), crash ? "kills" : "stops", (int)fo_dist_machine_rank(dd),
           (int)fo_dist_local_rank(dd));
    fflush(stdout);
    raise(crash ? SIGKILL : SIGSTOP);
    for (;;) pause(); /* mpiexec continues it only to end it */
  }
  if (!frozen && fo_dist_machine_rank(dd) != 0) {
    /* machine 1's ranks do not sample: they only serve, and must hear of the failure */
    while (!fo_dist_failed(dd, &msg) && now_s() - t0 < limit) sleep_s(0.01);
    if (fo_dist_failed(dd, &msg)) stop_job(t0, FO_EMPI, msg);
  } else {
    for (uint64_t e = 1; L && now_s() - t0 < limit; e++) {
      fo_loader_batch_t *b;
      while ((rc = fo_loader_next(L, &b)) == FO_OK && b) fo_loader_release(L, b);
      if (rc != FO_OK) {
        char text[1200];
        snprintf(text, sizeof text, "%s", fo_last_error());
        fo_loader_destroy(L);
        stop_job(t0, rc, text);
      }
      if (fo_dist_failed(dd, &msg)) stop_job(t0, FO_EMPI, msg);
      CHECK_OK(fo_loader_start_epoch(L, e));
    }
  }
  free(seeds);
  printf("mpi_dist: rank %d: FAIL: no failure within %.0f s\n", g_rank, limit);
  fflush(stdout);
  MPI_Abort(MPI_COMM_WORLD, 4);
  return 1;
}

/* disagree PARTS PPM: every option the loaders must share, one at a time, differs on one rank
 * (rank k mod size for option k): every rank fails with FO_EINVAL naming the option and both
 * values; the context stays usable, and agreeing options then work. */
static int mode_disagree(const char *parts, int ppm) {
  fo_dist_opts o;
  fo_dist_t *dd = NULL;
  fo_dataset_t *d = NULL;
  int64_t nodes_a[4] = {1, 2, 3, 4}, nodes_b[4] = {1, 2, 3, 5};
  const int32_t fa[2] = {10, 10}, fb[2] = {10, 5};
  fo_dist_opts_init(&o);
  o.procs_per_machine = ppm;
  o.deadline_s = 30;
  CHECK_OK(fo_dist_init_mpi(&(MPI_Comm){MPI_COMM_WORLD}, &o, &dd));
  if (!dd) return finish();
  CHECK_OK(fo_dist_open_dataset(dd, parts, NULL, &d));
  if (!d) return finish();
  for (int k = 0; k <= 19; k++) {
    fo_loader_opts lo;
    fo_loader_t *L = NULL;
    fo_dist_tail tail = FO_DIST_TAIL_KEEP;
    int who = k % g_size, rc;
    bool odd = g_rank == who && k < 19; /* k == 19: all agree */
    const int64_t times_a[4] = {10, 20, 30, 40}, times_b[4] = {10, 20, 30, 41};
    char want[200];
    const char *name = "";
    fo_loader_opts_init(&lo);
    lo.sampler.fanouts = fa;
    lo.sampler.n_hops = 2;
    lo.batch_size = 16;
    lo.num_workers = 0;
    lo.split = NULL;
    switch (k) {
    case 0: name = "fanouts"; if (odd) lo.sampler.fanouts = fb; break;
    case 1: name = "replace"; lo.sampler.replace = odd; break;
    case 2: name = "edge_dir"; if (odd) lo.sampler.edge_dir = FO_EDGE_DIR_OUT; break;
    case 3: name = "disjoint"; lo.sampler.disjoint = odd; break;
    case 4: name = "seed"; lo.sampler.seed = odd ? 8 : 7; break;
    case 5: name = "batch_size"; lo.batch_size = odd ? 32 : 16; break;
    case 6: name = "input_nodes"; lo.input_nodes = odd ? nodes_b : nodes_a; lo.n_input_nodes = 4; break;
    case 7: name = "split"; lo.split = odd ? "val" : "train"; break;
    case 8: name = "shuffle"; lo.shuffle = odd; break;
    case 9: name = "drop_last"; lo.drop_last = odd; break;
    case 10: name = "epoch"; lo.epoch = odd ? 3 : 0; break;
    case 11: name = "features"; lo.features = !odd; break;
    case 12: name = "labels"; lo.labels = !odd; break;
    case 13: name = "tail"; tail = odd ? FO_DIST_TAIL_PAD : FO_DIST_TAIL_KEEP; break;
    case 14: name = "input_type"; lo.input_type = odd ? "paper" : NULL; break;
    case 15: name = "edge_type_fanouts"; lo.sampler.edge_type_fanouts = odd ? fb : NULL; break;
    case 16: name = "weighted"; lo.sampler.weighted = odd; break;
    case 17:
      name = "temporal";
      lo.sampler.temporal = FO_TEMPORAL_UNIFORM;
      lo.sampler.time_strict = odd;
      break;
    case 18:
      name = "input_time";
      lo.sampler.temporal = FO_TEMPORAL_UNIFORM;
      lo.input_nodes = nodes_a;
      lo.n_input_nodes = 4;
      lo.input_time = odd ? times_b : times_a;
      break;
    default: break;
    }
    rc = fo_dist_loader_create(dd, d, &lo, tail, &L);
    if (k == 19) {
      CHECK(rc == FO_OK, "agreeing options: %s (%s)", fo_last_error(), fo_status_name(rc));
    } else {
      char second[32];
      snprintf(want, sizeof want, "option %s differs between processes: rank 0 has ", name);
      snprintf(second, sizeof second, ", rank %d has ", who ? who : 1); /* the first differing */
      CHECK(rc == FO_EINVAL && strstr(fo_last_error(), want) && strstr(fo_last_error(), second),
            "option %s differing on rank %d: %s (%s)", name, who, fo_last_error(),
            fo_status_name(rc));
      if (k == 0) CHECK(strstr(fo_last_error(), "rank 0 has 10,5, rank 1 has 10,10") ||
                        who != 0, "fanouts: %s", fo_last_error());
      if (k == 0 && g_rank == 0) printf("mpi_dist: %s\n", fo_last_error());
      CHECK(!fo_dist_failed(dd, NULL), "the context failed after a disagreement");
    }
    fo_loader_destroy(L);
  }
  /* the CLI's own options go through the same check */
  {
    char v[16];
    fo_dist_option opt[2] = {{"epochs", "2"}, {"batches", v}};
    snprintf(v, sizeof v, "%d", g_rank == g_size - 1 ? 5 : 4);
    CHECK_ERR(fo_dist_check_same(dd, "bench --dist", opt, 2), FO_EINVAL,
              "option batches differs between processes: rank 0 has 4, rank");
    CHECK_ERR(fo_dist_check_same(dd, "x", opt, 65), FO_EINVAL, "65 options");
    opt[1].value = "4";
    CHECK_OK(fo_dist_check_same(dd, "bench --dist", opt, 2));
    /* a different number of options (a different program) */
    CHECK_ERR(fo_dist_check_same(dd, "x", opt, g_rank == 1 ? 1 : 2), FO_EINVAL,
              "different numbers of options (rank 0 2, rank 1 1)");
    /* different calls (a link loader on one rank, a node loader on the others) are named */
    CHECK_ERR(fo_dist_check_same(dd, g_rank == 1 ? "create distributed link loader"
                                                 : "create distributed loader", opt, 2),
              FO_EINVAL, "the processes do different things: rank 0 calls 'create distributed "
              "loader', rank 1 'create distributed link loader'");
  }
  CHECK_OK(fo_dist_finalize(dd));
  fo_dataset_close(d);
  return finish();
}

/* nostart D: the last rank never starts fanout's context (it sleeps 4 D, as if it ran another
 * program); the others fail within about D (start-up deadline) and say so. */
static int mode_nostart(double deadline) {
  fo_dist_opts o;
  fo_dist_t *dd = NULL;
  double t0 = now_s();
  int rc;
  if (g_rank == g_size - 1) {
    sleep_s(4 * deadline);
    printf("mpi_dist: rank %d: FAIL: not ended after %.0f s\n", g_rank, 4 * deadline);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 4);
  }
  fo_dist_opts_init(&o);
  o.procs_per_machine = 1;
  o.deadline_s = deadline;
  rc = fo_dist_init_mpi(&(MPI_Comm){MPI_COMM_WORLD}, &o, &dd);
  printf("mpi_dist: rank %d: init returned %s after %.2f s: %s\n", g_rank, fo_status_name(rc),
         now_s() - t0, rc ? fo_last_error() : "");
  fflush(stdout);
  sleep_s(0.5);
  MPI_Abort(MPI_COMM_WORLD, 3);
  return 1;
}

/* oversize PARTS PPM: max_message_bytes 4096: the feature answers (1433 floats a row) are over
 * it; the server refuses them with an ERROR naming both sizes, and every rank fails with it. */
static int mode_oversize(const char *parts, int ppm) {
  fo_dist_opts o;
  fo_dist_t *dd = NULL;
  fo_dataset_t *d = NULL;
  fo_loader_opts lo;
  fo_loader_t *L = NULL;
  fo_loader_batch_t *b;
  double t0 = now_s();
  const char *msg;
  int rc = FO_OK;
  fo_dist_opts_init(&o);
  o.procs_per_machine = ppm;
  o.deadline_s = 30;
  o.max_message_bytes = 100;
  CHECK_ERR(fo_dist_init_mpi(&(MPI_Comm){MPI_COMM_WORLD}, &o, &dd), FO_EINVAL,
            "max_message_bytes 100 is outside 4096 .. 4294967296");
  o.max_message_bytes = g_rank == 1 ? 8192 : 4096;
  CHECK_ERR(fo_dist_init_mpi(&(MPI_Comm){MPI_COMM_WORLD}, &o, &dd), FO_EINVAL,
            "max_message_bytes differs between processes (4096 to 8192)");
  o.max_message_bytes = 4096;
  CHECK_OK(fo_dist_init_mpi(&(MPI_Comm){MPI_COMM_WORLD}, &o, &dd));
  if (!dd) return finish();
  CHECK_OK(fo_dist_open_dataset(dd, parts, NULL, &d));
  fo_loader_opts_init(&lo);
  lo.sampler.fanouts = (const int32_t[]){5, 5};
  lo.sampler.n_hops = 2;
  lo.batch_size = 16;
  lo.num_workers = 1;
  CHECK_OK(fo_dist_loader_create(dd, d, &lo, FO_DIST_TAIL_KEEP, &L));
  while (L && (rc = fo_loader_next(L, &b)) == FO_OK && b) fo_loader_release(L, b);
  if (rc != FO_OK) stop_job(t0, rc, fo_last_error());
  while (!fo_dist_failed(dd, &msg) && now_s() - t0 < 30) sleep_s(0.01);
  if (fo_dist_failed(dd, &msg)) stop_job(t0, FO_EMPI, msg);
  printf("mpi_dist: rank %d: FAIL: no failure within 30 s\n", g_rank);
  fflush(stdout);
  MPI_Abort(MPI_COMM_WORLD, 4);
  return 1;
}

/* transfer PARTS PPM D OUT: every rank samples Cora with all neighbors and features (answers
 * of hundreds of KB, in fragments over TCP) until its context fails; run.sh SIGSTOPs one rank
 * meanwhile (and SIGCONTs it later). Each rank writes OUT/rank-R.txt ("failed after T s:
 * MESSAGE") and waits for OUT/go before it ends the job, so that the stopped one can report
 * too once continued. */
static int mode_transfer(const char *parts, int ppm, double deadline, const char *out) {
  fo_dist_opts o;
  fo_dist_t *dd = NULL;
  fo_dataset_t *d = NULL;
  fo_loader_opts lo;
  fo_loader_t *L = NULL;
  char path[4096], text[1300];
  double t0, t_fail = 0;
  const char *msg;
  int rc = FO_OK;
  FILE *f;
  fo_dist_opts_init(&o);
  o.procs_per_machine = ppm;
  o.deadline_s = deadline;
  CHECK_OK(fo_dist_init_mpi(&(MPI_Comm){MPI_COMM_WORLD}, &o, &dd));
  if (!dd) return finish();
  CHECK_OK(fo_dist_open_dataset(dd, parts, NULL, &d));
  fo_loader_opts_init(&lo);
  lo.sampler.fanouts = (const int32_t[]){-1, -1};
  lo.sampler.n_hops = 2;
  lo.batch_size = 32;
  lo.shuffle = true;
  lo.num_workers = 2;
  CHECK_OK(fo_dist_loader_create(dd, d, &lo, FO_DIST_TAIL_KEEP, &L));
  MPI_Barrier(MPI_COMM_WORLD);
  printf("mpi_dist: rank %d: pid %d samples\n", g_rank, (int)getpid());
  fflush(stdout);
  t0 = now_s();
  for (uint64_t e = 1; L && now_s() - t0 < 120; e++) {
    fo_loader_batch_t *b;
    while ((rc = fo_loader_next(L, &b)) == FO_OK && b) fo_loader_release(L, b);
    if (rc != FO_OK) break;
    CHECK_OK(fo_loader_start_epoch(L, e));
  }
  t_fail = wall_s();
  snprintf(text, sizeof text, "%s (%s)", rc ? fo_last_error() : "no failure", fo_status_name(rc));
  if (fo_dist_failed(dd, &msg) && rc == FO_OK) snprintf(text, sizeof text, "%s", msg);
  snprintf(path, sizeof path, "%s/rank-%d.txt", out, g_rank);
  if ((f = fopen(path, "w"))) {
    /* wall-clock time, as run.sh's `date +%s.%N` */
    fprintf(f, "failed at %.3f s: %s\n", t_fail, text);
    fclose(f);
  }
  snprintf(path, sizeof path, "%s/go", out);
  for (double w0 = now_s(); access(path, F_OK) != 0 && now_s() - w0 < 120;) sleep_s(0.05);
  fo_loader_destroy(L);
  sleep_s(0.2);
  MPI_Abort(MPI_COMM_WORLD, 3);
  return 1;
}

static int mode_init(const char *parts4) {
  fo_dist_opts o;
  fo_dist_t *dd = NULL;
  fo_dataset_t *d = NULL;
  MPI_Comm world = MPI_COMM_WORLD;
  char want[128];
  CHECK(g_size == 4, "run with 4 ranks, not %d", g_size);
  fo_dist_opts_init(&o);
  /* arguments */
  CHECK_ERR(fo_dist_init_mpi(NULL, &o, &dd), FO_EINVAL, "NULL");
  CHECK(dd == NULL, "out not NULL after a failure");
  o.deadline_s = 0;
  CHECK_ERR(fo_dist_init_mpi(&world, &o, &dd), FO_EINVAL, "deadline 0");
  /* procs_per_machine: every rank fails, naming both numbers */
  fo_dist_opts_init(&o);
  o.procs_per_machine = 3;
  snprintf(want, sizeof want, "procs_per_machine 3 does not divide the number of processes %d", g_size);
  CHECK_ERR(fo_dist_init_mpi(&world, &o, &dd), FO_EINVAL, want);
  o.procs_per_machine = g_rank == 0 ? 1 : 2;
  CHECK_ERR(fo_dist_init_mpi(&world, &o, &dd), FO_EINVAL, "differs between processes (1 to 2)");
  /* machines from shared memory: one host = one machine of 4 */
  o.procs_per_machine = 0;
  CHECK_OK(fo_dist_init_mpi(&world, &o, &dd));
  if (dd) {
    CHECK(fo_dist_num_machines(dd) == 1 && fo_dist_machine_rank(dd) == 0 &&
          fo_dist_local_size(dd) == g_size && fo_dist_local_rank(dd) == g_rank &&
          fo_dist_rank(dd) == g_rank && fo_dist_size(dd) == g_size,
          "shared-memory machines: machine %d of %d, local rank %d of %d",
          (int)fo_dist_machine_rank(dd), (int)fo_dist_num_machines(dd),
          (int)fo_dist_local_rank(dd), (int)fo_dist_local_size(dd));
    CHECK_ERR(fo_dist_open_dataset(dd, parts4, NULL, &d), FO_EINVAL,
              "it has 4 parts, the job has 1 machine (machine m serves part m; procs_per_machine,");
    CHECK(d == NULL, "dataset not NULL after a failure");
    /* the first open failed: the context is failed (no barrier), with that message */
    CHECK(fo_dist_failed(dd, NULL), "context not failed after its first open failed");
    CHECK_ERR(fo_dist_finalize(dd), FO_EINVAL, "it has 4 parts");
  }
  /* 2 machines x 2, contiguous, with the worker runtime */
  o.procs_per_machine = 2;
  o.init_worker = true;
  o.worker.allow_shared_cores = true;
  o.worker.num_cpu_threads = 1;
  CHECK_OK(fo_dist_init_mpi(&world, &o, &dd));
  if (dd) {
    fo_worker_info wi;
    CHECK(fo_dist_machine_rank(dd) == g_rank / 2 && fo_dist_local_rank(dd) == g_rank % 2 &&
          fo_dist_num_machines(dd) == 2 && fo_dist_local_size(dd) == 2,
          "procs_per_machine 2: machine %d, local rank %d", (int)fo_dist_machine_rank(dd),
          (int)fo_dist_local_rank(dd));
    CHECK_OK(fo_worker_current(&wi));
    CHECK(wi.machine_rank == g_rank / 2 && wi.world_size == 2 && wi.local_rank == g_rank % 2 &&
          wi.local_world_size == 2, "worker runtime: machine %d of %d, local rank %d of %d",
          (int)wi.machine_rank, (int)wi.world_size, (int)wi.local_rank, (int)wi.local_world_size);
    CHECK_ERR(fo_dist_open_dataset(dd, parts4, NULL, &d), FO_EINVAL, "the job has 2 machines");
    CHECK_ERR(fo_dist_finalize(dd), FO_EINVAL, "the job has 2 machines");
  }
  /* fo_dist_abort on rank 1: every rank hears it (its message) and finalize skips the barrier */
  o.init_worker = false;
  CHECK_OK(fo_dist_init_mpi(&world, &o, &dd));
  if (dd) {
    const char *msg = NULL;
    double t0 = now_s();
    if (g_rank == 1) CHECK_ERR(fo_dist_abort(dd, "a test"), FO_ECANCELED, "stopped the job");
    while (!fo_dist_failed(dd, &msg) && now_s() - t0 < 20) sleep_s(0.01);
    CHECK(msg && strstr(msg, "rank 1 (machine 0, local rank 1) stopped the job: a test"),
          "abort notice: '%s'", msg ? msg : "(none)");
    if (g_rank == 1) /* a second abort reports the context's (first) failure */
      CHECK_ERR(fo_dist_abort(dd, "again"), FO_ECANCELED, "stopped the job: a test");
    CHECK_ERR(fo_dist_finalize(dd), FO_ECANCELED, "stopped the job: a test");
  }
  CHECK_ERR(fo_dist_abort(NULL, "x"), FO_EINVAL, "no context");
  CHECK_OK(fo_dist_finalize(NULL));
  return finish();
}

int main(int argc, char **argv) {
  int provided = 0;
  const char *mode = argc > 1 ? argv[1] : "";
  bool thread_level = !strcmp(mode, "thread-level");
  MPI_Init_thread(&argc, &argv, thread_level ? MPI_THREAD_FUNNELED : MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  if (!strcmp(mode, "check") && argc == 5) return mode_check(argv[2], argv[3], atoi(argv[4]));
  if ((!strcmp(mode, "frozen") || !strcmp(mode, "crash") || !strcmp(mode, "corrupt")) &&
      argc == 5)
    return mode_fault(strcmp(mode, "corrupt") != 0, !strcmp(mode, "crash"), argv[2],
                      atoi(argv[3]), atof(argv[4]));
  if (!strcmp(mode, "init") && argc == 3) return mode_init(argv[2]);
  if (!strcmp(mode, "disagree") && argc == 4) return mode_disagree(argv[2], atoi(argv[3]));
  if (!strcmp(mode, "nostart") && argc == 3) return mode_nostart(atof(argv[2]));
  if (!strcmp(mode, "oversize") && argc == 4) return mode_oversize(argv[2], atoi(argv[3]));
  if (!strcmp(mode, "transfer") && argc == 6)
    return mode_transfer(argv[2], atoi(argv[3]), atof(argv[4]), argv[5]);
  if (thread_level) {
    fo_dist_t *dd = NULL;
    CHECK(provided < MPI_THREAD_MULTIPLE, "asked for MPI_THREAD_FUNNELED, got level %d", provided);
    CHECK_ERR(fo_dist_init_mpi(&(MPI_Comm){MPI_COMM_WORLD}, NULL, &dd), FO_EINVAL,
              "MPI_THREAD_MULTIPLE");
    CHECK(dd == NULL, "out not NULL after a failure");
    return finish();
  }
  if (g_rank == 0)
    fprintf(stderr, "usage: mpi_dist check PARTS PLAIN PPM | frozen|crash PARTS PPM D | "
                    "corrupt PARTS PPM D | init PARTS4 | thread-level | disagree PARTS PPM | "
                    "nostart D | oversize PARTS PPM | transfer PARTS PPM D OUT\n");
  MPI_Finalize();
  return 2;
}
