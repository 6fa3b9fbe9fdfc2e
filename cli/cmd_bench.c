/*
 * cli/cmd_bench.c: `fanout bench DIR --fanout 15,10,5 --batch-size 1024 [...] [--json]`:
 * sample batches whose seeds are all nodes in a seeded shuffled order (one epoch, or the first
 * --batches batches of it) on one thread and report throughput and peak memory.
 *
 * `mpirun -np R fanout bench PARTS --dist [...]`: every rank opens its machine's part and runs
 * a distributed loader over its share of the epoch (global batches b with b mod R = rank);
 * rank 0 gathers the per-batch digests and counters and prints the report. MPI is initialized
 * (MPI_THREAD_MULTIPLE) only with --dist; an error on any rank is printed by that rank as
 * "fanout: rank R: <message> (FO_E...)" and stops the whole job (MPI_Abort).
 */
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef FO_WITH_MPI
#include <mpi.h>
#endif

static void help(void) {
  fo_loader_opts o;
  fo_loader_opts_init(&o);
  printf("usage: fanout bench DIR --fanout F1,F2,... [--batch-size B] [options] [--json]\n"
         "\n"
         "Run the loader over epochs of seeds (all nodes, or a split, shuffled with --seed) and\n"
         "report batches, seconds, sampled nodes and edges, edges/s, feature bytes/s and peak RSS.\n"
         "\n"
         "  --fanout LIST        neighbors per hop, -1 = all (required)\n"
         "  --batch-size B       seeds per batch (default 1024)\n"
         "  --batches N          stop each epoch after N batches (default: the whole epoch)\n"
         "  --epochs E           epochs to run, starting at --epoch (default 1)\n"
         "  --threads T          loader worker threads; 0 samples on the calling thread (default %d)\n"
         "  --prefetch P         batches sampled ahead (default 2 x threads)\n"
         "  --fanout ET=LIST     typed datasets: the fanouts of edge type ET; repeatable\n"
         "  --split NAME         seeds from a split of the dataset (default: all nodes)\n"
         "  --split TYPE:NAME    typed datasets: a split of node type TYPE\n"
         "  --input-type TYPE    typed datasets: seeds are (all) nodes of node type TYPE\n"
         "  --features           gather x (features) and y (labels) into each batch (default off)\n"
         "  --digest             print the digest of the run: xxh64 over the per-batch digests of\n"
         "                       every epoch run, each the xxh64 of node, row, col, edge, x, y\n"
         "  --bare               no loader: sample batches in a loop on this thread\n"
         "  --memcpy             also measure this machine's single-thread memcpy bandwidth\n"
         "                       (256 MiB blocks, best of 3) and report gather / memcpy\n"
         "  --seed N             random seed (default %llu)\n"
         "  --epoch N            first epoch (default %llu)\n"
         "  --no-shuffle         seeds in input order (default: shuffled)\n"
         "  --drop-last          drop a last, smaller batch (default off)\n"
         , (int)o.num_workers, (unsigned long long)o.sampler.seed, (unsigned long long)o.epoch);
  printf("  --edge-seeds-split [ET:]NAME  link prediction: seed edges from stored edge split NAME\n"
         "                       (import --edge-split) of edge type ET, through the link loader\n"
         "                       (caller's thread; --batch-size counts seed edges); with\n"
         "                       --edge-type ET, --neg binary:R|triplet:K, --no-strict and\n"
         "                       --exclude-seed-edges as for sample; with --dist the\n"
         "                       distributed link loader (same digest as one process)\n"
         "  --edge-seeds S-D,...|@FILE  link prediction: these seed edges instead of a split\n"
         "                       (@FILE: the same S-D items in a text file, separated by\n"
         "                       commas, spaces or newlines; also for --anchors)\n"
         "  --anchors A,...|@FILE  anchor-based link prediction: the ABLP loader over these\n"
         "                       anchors (caller's thread; --batch-size counts anchors); with\n"
         "                       --supervision ET, --negative-type ET, --no-hard-negatives,\n"
         "                       --random-negatives K and --no-strict as for sample; with\n"
         "                       --dist the distributed ABLP loader (same digest as one process)\n"
         "  --anchors-split [TYPE:]NAME  the anchors from node split NAME of the anchor type\n"
         "  --replace            sample with replacement (default %s)\n"
         "  --weighted           draw neighbors by edge weight (import --edge-weight)\n"
         "  --temporal S         temporal sampling, uniform or last, each seed at its node time\n"
         "                       (import --node-time); --time edge|node, --strict, --window W\n"
         "                       as for sample\n"
         "  --edge-dir in|out    in-neighbors (CSC) or out-neighbors (CSR) (default %s)\n"
         "  --disjoint           one tree per seed (default %s)\n"
         "  --load mmap|hugepage how the topology is brought into memory (default mmap)\n"
         "  --json               print one JSON object\n"
         "  -q, --quiet          no progress line (drawn on stderr only when it is a terminal,\n"
         "                       never with --json)\n"
         "\n",
         o.sampler.replace ? "on" : "off", o.sampler.edge_dir == FO_EDGE_DIR_IN ? "in" : "out",
         o.sampler.disjoint ? "on" : "off");
  printf("Distributed (under mpirun; DIR is a partitioned dataset with one part per machine):\n"
         "  --dist               every rank samples its share of each epoch (global batches b\n"
         "                       with b mod ranks = rank) with remote hops and features; rank 0\n"
         "                       prints the totals, per-hop remote requests and bytes, and with\n"
         "                       --digest the epoch digest in global batch order (equal to the\n"
         "                       single-process digest over the unpartitioned dataset)\n"
         "  --procs-per-machine N  ranks per machine (default: the ranks sharing a host)\n"
         "  --deadline S         seconds a remote call may take (default %g)\n"
         "  --tail keep|drop|pad every batch once; or an equal number per rank, dropping the\n"
         "                       last ones or wrapping to the first ones (default keep)\n"
         "  --seed-placement global|local  global: batch b is the single-process batch b;\n"
         "                       local: each machine's ranks batch the seeds it owns (batch\n"
         "                       index j x machines + machine; default global)\n"
         "  --cache-mb M         keep M MiB of other machines' feature and label rows (default 0)\n"
         "  --cache-policy degree|frequency|lookahead  which rows: most edges into this part,\n"
         "                       most frequent in a pre-sampling pass, or Belady's rule over\n"
         "                       the batches sampled ahead (default degree)\n"
         "  --lookahead K        batches sampled ahead for --cache-policy lookahead (default 8)\n"
         "  --pipeline D         --cache-policy lookahead: D threads per rank sample those\n"
         "                       batches ahead of the loader threads, so that D batches'\n"
         "                       hop requests are in flight even with --threads 1 (0..64,\n"
         "                       default 0: each gather plans the batches after its own);\n"
         "                       link and ABLP batches (--edge-seeds-split, --anchors): D\n"
         "                       threads sample the next D batches, with their link and\n"
         "                       label requests\n"
         "  --batches N          with --dist: the batches of index 0..N-1 of each epoch\n",
         600.0);
}

/* AnonHugePages of this process in MiB, from /proc/self/smaps_rollup (0 if unavailable). */
static double huge_pages_mb(void) {
  FILE *f = fopen("/proc/self/smaps_rollup", "r");
  char line[256];
  double kb = 0;
  if (!f) return 0;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "AnonHugePages:", 14)) kb = strtod(line + 14, NULL);
  fclose(f);
  return kb / 1024.0;
}

enum { OPT_FANOUT = 256, OPT_BS, OPT_BATCHES, OPT_SEED, OPT_EPOCH, OPT_REPLACE, OPT_DIR,
       OPT_DISJOINT, OPT_LOAD, OPT_JSON, OPT_EPOCHS, OPT_THREADS, OPT_PREFETCH, OPT_SPLIT,
       OPT_FEATURES, OPT_DIGEST, OPT_BARE, OPT_NOSHUFFLE, OPT_DROPLAST, OPT_MEMCPY, OPT_DIST,
       OPT_PPM, OPT_DEADLINE, OPT_TAIL, OPT_INTYPE, OPT_WEIGHTED, OPT_SEEDS,
       OPT_CACHE_MB, OPT_CACHE_POLICY, OPT_LOOKAHEAD, OPT_PIPELINE, OPT_TEMPORAL, OPT_TIME,
       OPT_STRICT, OPT_WINDOW, OPT_EDGE_SPLIT, OPT_EDGE_TYPE, OPT_NEG, OPT_NO_STRICT, OPT_EXCLUDE,
       OPT_EDGE_SEEDS, OPT_ANCHORS, OPT_ANCHORS_SPLIT, OPT_SUPERVISION, OPT_NEG_TYPE, OPT_NO_HARD,
       OPT_RANDOM_NEG };

/* Single-thread memcpy bandwidth in bytes/s: best of 3 copies of 256 MiB between touched
 * buffers (0 if the memory cannot be had). */
static double memcpy_bandwidth(void) {
  const size_t len = (size_t)256 << 20;
  char *a = malloc(len), *b = malloc(len);
  double best = 0;
  if (!a || !b) {
    free(a);
    free(b);
    return 0;
  }
  memset(a, 1, len);
  memset(b, 2, len);
  for (int i = 0; i < 3; i++) {
    double t = cli_now_s(), dt;
    memcpy(i & 1 ? a : b, i & 1 ? b : a, len);
    dt = cli_now_s() - t;
    if (dt > 0 && (double)len / dt > best) best = (double)len / dt;
  }
  /* keep the copies observable */
  if (a[len / 2] == 3) best += 1;
  free(a);
  free(b);
  return best;
}

typedef struct totals {
  int64_t batches, nodes, edges, x_bytes;
  uint64_t *digests;
  int64_t n_digests, cap_digests;
} totals;

static int add_digest(totals *t, uint64_t h) {
  if (t->n_digests == t->cap_digests) {
    int64_t cap = t->cap_digests ? 2 * t->cap_digests : 1024;
    uint64_t *nd = realloc(t->digests, (size_t)cap * sizeof *nd);
    if (!nd) return -1;
    t->digests = nd;
    t->cap_digests = cap;
  }
  t->digests[t->n_digests++] = h;
  return 0;
}

/* Progress of epoch e of `epochs` (cli/progress.c). */
typedef struct bench_pg {
  cli_progress *p;
  int64_t epoch, epochs;
} bench_pg;

/* One epoch through the loader. */
static int run_loader_epoch(fo_loader_t *L, int64_t max_batches, bool digest, totals *t,
                            const bench_pg *pg) {
  int64_t nb = fo_loader_num_batches(L);
  if (max_batches >= 0 && max_batches < nb) nb = max_batches;
  for (int64_t i = 0; max_batches < 0 || i < max_batches; i++) {
    fo_loader_batch_t *b;
    int rc = fo_loader_next(L, &b);
    if (rc != FO_OK) return rc;
    if (!b) break;
    t->batches++;
    t->nodes += b->sample->n_nodes;
    t->edges += b->sample->n_edges;
    if (b->x) t->x_bytes += b->sample->n_nodes * b->x_dim * b->x_itemsize;
    for (int32_t k = 0; b->x_types && k < b->n_node_types; k++)
      if (b->x_types[k].x)
        t->x_bytes += fo_batch_node_type(b->sample, k)->n_nodes * b->x_types[k].dim *
                      b->x_types[k].itemsize;
    cli_progress_batches(pg->p, pg->epoch, pg->epochs, i + 1, nb, t->edges);
    if (digest && add_digest(t, fo_loader_batch_digest(b)) != 0) {
      fo_loader_release(L, b);
      return fo_set_error(FO_ENOMEM, "bench: digest list");
    }
    fo_loader_release(L, b);
  }
  return FO_OK;
}

/* One epoch without the loader: the bare sampler loop (seeds shuffled the same way). */
static int run_bare_epoch(const fo_dataset_t *d, int32_t type, fo_sampler_t *s, fo_batch_t *b,
                          int64_t *perm, const fo_loader_opts *lo, uint64_t epoch,
                          int64_t max_batches, totals *t, const bench_pg *pg) {
  int64_t n = fo_dataset_num_nodes(fo_dataset_node_data(d, type)), bs = lo->batch_size;
  int64_t nb = n / bs + (!lo->drop_last && n % bs != 0);
  int rc;
  if (lo->shuffle) {
    if ((rc = fo_random_permutation(n, lo->sampler.seed, epoch, perm)) != FO_OK) return rc;
  } else {
    for (int64_t i = 0; i < n; i++) perm[i] = i;
  }
  if (max_batches >= 0 && max_batches < nb) nb = max_batches;
  for (int64_t i = 0; i < nb; i++) {
    int64_t off = i * bs, k = n - off < bs ? n - off : bs;
    if ((rc = fo_sampler_sample_typed(s, type, perm + off, k, epoch, (uint64_t)i, b)) != FO_OK)
      return rc;
    t->batches++;
    t->nodes += b->n_nodes;
    t->edges += b->n_edges;
    cli_progress_batches(pg->p, pg->epoch, pg->epochs, i + 1, nb, t->edges);
  }
  return FO_OK;
}

/* ---- --dist ---------------------------------------------------------------------------------- */

typedef struct dist_cfg {
  bool dist, dist_opt;
  int32_t procs_per_machine;
  double deadline_s;
  fo_dist_tail tail;
  bool quiet; /* no progress line (rank 0 draws it) */
  fo_dist_seed_placement seeds;
  int64_t cache_bytes;
  fo_dist_cache_policy cache_policy;
  int32_t lookahead;
  int32_t pipeline;
} dist_cfg;

#ifndef FO_WITH_MPI
static int bench_dist(const char *path, const fo_loader_opts *lo, const fo_dataset_opts *dopts,
                      const dist_cfg *dc, int64_t max_batches, int64_t epochs, bool json,
                      bool digest, cli_fanouts *fanouts, const char *in_type) {
  (void)path, (void)lo, (void)dopts, (void)dc, (void)max_batches, (void)epochs, (void)json,
      (void)digest, (void)fanouts, (void)in_type;
  return cli_fail(fo_set_error(FO_ENOSYS, "bench --dist: this fanout was built without MPI"));
}
#else
/* Counters summed over the ranks (one MPI_Reduce of int64). */
enum { SUM_BATCHES, SUM_NODES, SUM_EDGES, SUM_XBYTES, SUM_FETCH_REQ, SUM_FETCH_BYTES,
       SUM_REMOTE_ROWS, SUM_CACHE_HITS, SUM_CACHE_SAVED, SUM_AHEAD_REQ, SUM_AHEAD_BYTES, SUM_HOP_REQ,
       SUM_HOP_BYTES = SUM_HOP_REQ + 64, SUM_HOP_EDGES = SUM_HOP_BYTES + 64,
       SUM_N = SUM_HOP_EDGES + 64 };

/* One kept batch's traffic for the JSON report: epoch, index, fetch requests, fetch bytes,
 * remote rows, cache hits, then per hop requests, bytes, edges. */
enum { TR_EPOCH, TR_INDEX, TR_FETCH_REQ, TR_FETCH_BYTES, TR_ROWS, TR_HITS, TR_HOPS };
#define TR_LEN(h) (TR_HOPS + 3 * (h))

/* Add batch b's traffic to sums and (when tr) append its record to *tr. */
static int add_traffic(const fo_loader_batch_t *b, int n_hops, int64_t *sums, int64_t **tr,
                       int64_t *n_tr, int64_t *cap_tr) {
  fo_dist_batch_stats bs;
  int64_t *r;
  fo_dist_batch_stats_get(b, &bs);
  sums[SUM_FETCH_REQ] += bs.fetch_requests;
  sums[SUM_FETCH_BYTES] += bs.fetch_bytes;
  sums[SUM_REMOTE_ROWS] += bs.remote_rows;
  sums[SUM_CACHE_HITS] += bs.cache_hits;
  sums[SUM_CACHE_SAVED] += bs.cache_bytes_saved;
  sums[SUM_AHEAD_REQ] += bs.ahead_requests;
  sums[SUM_AHEAD_BYTES] += bs.ahead_bytes;
  for (int h = 0; h < 64; h++) {
    sums[SUM_HOP_REQ + h] += bs.hop_requests[h];
    sums[SUM_HOP_BYTES + h] += bs.hop_bytes[h];
    sums[SUM_HOP_EDGES + h] += bs.hop_edges[h];
  }
  if (!tr) return FO_OK;
  if (*n_tr + TR_LEN(n_hops) > *cap_tr) {
    int64_t cap = *cap_tr ? 2 * *cap_tr : 64 * TR_LEN(n_hops), *nr = realloc(*tr, (size_t)cap * sizeof *nr);
    if (!nr) return fo_set_error(FO_ENOMEM, "bench: traffic list");
    *tr = nr;
    *cap_tr = cap;
  }
  r = *tr + *n_tr;
  r[TR_EPOCH] = (int64_t)b->epoch;
  r[TR_INDEX] = b->index;
  r[TR_FETCH_REQ] = bs.fetch_requests;
  r[TR_FETCH_BYTES] = bs.fetch_bytes;
  r[TR_ROWS] = bs.remote_rows;
  r[TR_HITS] = bs.cache_hits;
  for (int h = 0; h < n_hops; h++) {
    r[TR_HOPS + h] = bs.hop_requests[h];
    r[TR_HOPS + n_hops + h] = bs.hop_bytes[h];
    r[TR_HOPS + 2 * n_hops + h] = bs.hop_edges[h];
  }
  *n_tr += TR_LEN(n_hops);
  return FO_OK;
}

/* Gather every rank's int64 records (`len` words each) on rank 0: *all, *n_all words there. */
static int gather_records(MPI_Comm world, int rank, int size, const int64_t *mine, int64_t n,
                          int64_t **all, int64_t *n_all) {
  int *counts = NULL, *displs = NULL, cnt = (int)n, rc = FO_OK;
  *all = NULL;
  *n_all = 0;
  if (rank == 0 && (!(counts = calloc((size_t)size, sizeof *counts)) ||
                    !(displs = calloc((size_t)size, sizeof *displs))))
    rc = fo_set_error(FO_ENOMEM, "bench: gather");
  MPI_Gather(&cnt, 1, MPI_INT, counts, 1, MPI_INT, 0, world);
  if (rank == 0 && rc == FO_OK) {
    int64_t total = 0;
    for (int r = 0; r < size; r++) {
      displs[r] = (int)total;
      total += counts[r];
    }
    if (!(*all = malloc((size_t)(total ? total : 1) * sizeof **all))) rc = fo_set_error(FO_ENOMEM, "bench: gather");
    *n_all = total;
  }
  MPI_Gatherv(mine, cnt, MPI_INT64_T, *all, counts, displs, MPI_INT64_T, 0, world);
  free(counts);
  free(displs);
  return rc;
}

static int cmp_traffic(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  if (x[TR_EPOCH] != y[TR_EPOCH]) return x[TR_EPOCH] < y[TR_EPOCH] ? -1 : 1;
  if (x[TR_INDEX] != y[TR_INDEX]) return x[TR_INDEX] < y[TR_INDEX] ? -1 : 1;
  return 0;
}

/* One batch for the epoch digest: epoch, global index, digest (as int64). */
static int cmp_rec(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  if (x[1] != y[1]) return x[1] < y[1] ? -1 : 1;
  return 0;
}

/* Print this rank's error and stop the job. When the distributed context has failed, the other
 * ranks are being told (an ABORT notice) and print their own message: give them a moment first. */
static int dist_fail(int rank, int rc, bool told, double deadline_s) {
  fprintf(stderr, "fanout: rank %d: %s (%s)\n", rank, fo_last_error(), fo_status_name(rc));
  fflush(stderr);
  fflush(stdout);
  if (told) {
    double g = deadline_s / 4 < 1.0 ? deadline_s / 4 : 1.0;
    struct timespec ts = {(time_t)g, (long)((g - (double)(time_t)g) * 1e9)};
    nanosleep(&ts, NULL);
  }
  MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
  return CLI_FAIL;
}

static void json_f64_array(const double *a, int n) {
  printf("[");
  for (int i = 0; i < n; i++) printf("%s%.3f", i ? ", " : "", a[i]);
  printf("]");
}

/* "per_batch": every kept batch's traffic in (epoch, index) order (records sorted here). */
static void print_traffic(int64_t *r, int64_t n_words, int n_hops) {
  const int64_t len = TR_LEN(n_hops), n = n_words / len;
  qsort(r, (size_t)n, (size_t)len * sizeof *r, cmp_traffic);
  printf(", \"per_batch\": [");
  for (int64_t i = 0; i < n; i++) {
    const int64_t *t = r + i * len;
    printf("%s{\"epoch\": %lld, \"index\": %lld, \"remote_hop_requests\": ", i ? ", " : "",
           (long long)t[TR_EPOCH], (long long)t[TR_INDEX]);
    cli_json_i64_array(stdout, t + TR_HOPS, n_hops);
    printf(", \"remote_hop_bytes\": ");
    cli_json_i64_array(stdout, t + TR_HOPS + n_hops, n_hops);
    printf(", \"remote_hop_edges\": ");
    cli_json_i64_array(stdout, t + TR_HOPS + 2 * n_hops, n_hops);
    printf(", \"remote_feature_requests\": %lld, \"remote_feature_bytes\": %lld, "
           "\"remote_rows\": %lld, \"cache_hit_rate\": %.6f}",
           (long long)t[TR_FETCH_REQ], (long long)t[TR_FETCH_BYTES], (long long)t[TR_ROWS],
           t[TR_ROWS] ? (double)t[TR_HITS] / (double)t[TR_ROWS] : 0.0);
  }
  printf("]");
}

static int bench_dist(const char *path, const fo_loader_opts *lo_in, const fo_dataset_opts *dopts,
                      const dist_cfg *dc, int64_t max_batches, int64_t epochs, bool json,
                      bool digest, cli_fanouts *fanouts, const char *in_type) {
  static const char *const tails[] = {"keep", "drop", "pad"};
  fo_loader_opts lo_typed = *lo_in; /* typed datasets: fanouts and input type resolved below */
  const fo_loader_opts *lo = &lo_typed;
  MPI_Comm world = MPI_COMM_WORLD;
  fo_dist_opts o;
  fo_dist_t *dd = NULL;
  fo_dataset_t *d = NULL;
  fo_loader_t *L = NULL;
  fo_dist_stats st;
  int64_t *recs = NULL, n_recs = 0, cap_recs = 0, sums[SUM_N], tot[SUM_N];
  int64_t *all = NULL, *trs = NULL, n_trs = 0, cap_trs = 0, *all_trs = NULL, n_all_trs = 0;
  int *counts = NULL, *displs = NULL;
  double mine[3], maxs[3], t0, secs;
  int provided = 0, rank = 0, size = 1, rc = FO_OK, n_hops = lo->sampler.n_hops;
  int32_t machines = 0, local_size = 0;
  bool told = false;
  cli_progress pg = {0};

  if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
    return cli_fail(fo_set_error(FO_EMPI, "bench --dist: MPI_Init_thread failed"));
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  fo_dist_opts_init(&o);
  o.procs_per_machine = dc->procs_per_machine;
  o.deadline_s = dc->deadline_s;
  if ((rc = fo_dist_init_mpi(&world, &o, &dd)) != FO_OK) {
    /* it failed on every rank (each says why): leave cleanly */
    fprintf(stderr, "fanout: rank %d: %s (%s)\n", rank, fo_last_error(), fo_status_name(rc));
    MPI_Finalize();
    return CLI_FAIL;
  }
  machines = fo_dist_num_machines(dd);
  local_size = fo_dist_local_size(dd);
  t0 = cli_now_s();
  if ((rc = fo_dist_open_dataset(dd, path, dopts, &d)) != FO_OK) goto fail;
  mine[1] = cli_now_s() - t0;
  if (fanouts->n_typed || in_type || fo_dataset_is_typed(d)) {
    /* per-edge-type fanouts and the seeds' type need the dataset; the same on every rank (the
     * same dataset and arguments), so every rank fails alike, printing why */
    int32_t seed_type;
    int ret;
    if ((ret = cli_fanouts_resolve("bench", d, fanouts, &lo_typed.sampler)) ||
        (ret = cli_node_type(d, in_type && lo_typed.split ? "--split" : "--input-type", in_type,
                             &seed_type))) {
      fo_dist_finalize(dd); /* before closing d: the server thread reads it until then */
      fo_dataset_close(d);
      MPI_Finalize();
      return ret;
    }
    lo_typed.input_type = in_type;
    n_hops = lo_typed.sampler.n_hops;
  }
  {
    fo_dist_loader_opts dlo;
    fo_dist_loader_opts_init(&dlo);
    dlo.tail = dc->tail;
    dlo.seed_placement = dc->seeds;
    dlo.cache_bytes = dc->cache_bytes;
    dlo.cache_policy = dc->cache_policy;
    dlo.lookahead = dc->lookahead;
    dlo.pipeline = dc->pipeline;
    if ((rc = fo_dist_loader_create_ex(dd, d, lo, &dlo, &L)) != FO_OK) goto fail;
  }
  { /* this command's own options that every rank must share (the loader checked its own) */
    char ev[24], bv[24];
    fo_dist_option same[3] = {{"epochs", ev}, {"batches", bv}, {"digest", digest ? "true" : "false"}};
    snprintf(ev, sizeof ev, "%lld", (long long)epochs);
    if (max_batches < 0) snprintf(bv, sizeof bv, "all");
    else snprintf(bv, sizeof bv, "%lld", (long long)max_batches);
    if ((rc = fo_dist_check_same(dd, "bench --dist", same, 3)) != FO_OK) goto fail;
  }
  memset(sums, 0, sizeof sums);
  t0 = cli_now_s();
  cli_progress_start(&pg, rank == 0 && !dc->quiet && !json, "bench rank 0");
  for (int64_t e = 0; e < epochs; e++) {
    uint64_t epoch = lo->epoch + (uint64_t)e;
    if (e > 0 && (rc = fo_loader_start_epoch(L, epoch)) != FO_OK) goto fail;
    for (;;) {
      fo_loader_batch_t *b;
      if ((rc = fo_dist_status(dd)) != FO_OK) goto fail; /* another rank stopped the job */
      if ((rc = fo_loader_next(L, &b)) != FO_OK) goto fail;
      if (!b) break;
      if (max_batches >= 0 && b->index >= max_batches) {
        fo_loader_release(L, b);
        break;
      }
      sums[SUM_BATCHES]++;
      sums[SUM_NODES] += b->sample->n_nodes;
      sums[SUM_EDGES] += b->sample->n_edges;
      if (b->x) sums[SUM_XBYTES] += b->sample->n_nodes * b->x_dim * b->x_itemsize;
      /* requests and bytes of the batches kept only (not of those sampled ahead) */
      if ((rc = add_traffic(b, n_hops > 64 ? 64 : n_hops, sums, json ? &trs : NULL, &n_trs,
                            &cap_trs)) != FO_OK) {
        fo_loader_release(L, b);
        goto fail;
      }
      cli_progress_batches(&pg, e, epochs, b->index + 1, fo_loader_num_batches(L), sums[SUM_EDGES]);
      if (digest) {
        if (n_recs + 3 > cap_recs) {
          int64_t cap = cap_recs ? 2 * cap_recs : 3 * 256, *nr = realloc(recs, (size_t)cap * sizeof *nr);
          if (!nr) {
            fo_loader_release(L, b);
            rc = fo_set_error(FO_ENOMEM, "bench: digest list");
            goto fail;
          }
          recs = nr;
          cap_recs = cap;
        }
        recs[n_recs++] = (int64_t)b->epoch;
        recs[n_recs++] = b->index;
        recs[n_recs++] = (int64_t)fo_loader_batch_digest(b);
      }
      fo_loader_release(L, b);
    }
  }
  cli_progress_end(&pg);
  secs = cli_now_s() - t0;
  fo_loader_destroy(L);
  L = NULL;
  fo_dist_get_stats(dd, &st);
  /* the barrier: after it nobody needs this rank's server, and every rank is alive */
  rc = fo_dist_finalize(dd);
  dd = NULL;
  if (rc != FO_OK) {
    told = true;
    goto fail;
  }

  /* plain blocking collectives from here: every rank has passed the barrier */
  (void)st; /* every request made, also ahead: the report counts the kept batches' */
  mine[0] = secs;
  mine[2] = cli_peak_rss_mb();
  MPI_Reduce(sums, tot, SUM_N, MPI_INT64_T, MPI_SUM, 0, world);
  MPI_Reduce(mine, maxs, 3, MPI_DOUBLE, MPI_MAX, 0, world);
  if (digest) {
    int n = (int)n_recs;
    if (rank == 0 && (!(counts = calloc((size_t)size, sizeof *counts)) ||
                      !(displs = calloc((size_t)size, sizeof *displs)))) {
      rc = fo_set_error(FO_ENOMEM, "bench: digest gather");
      goto fail;
    }
    MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, world);
    if (rank == 0) {
      int64_t total = 0;
      for (int r = 0; r < size; r++) {
        displs[r] = (int)total;
        total += counts[r];
      }
      if (!(all = malloc((size_t)(total ? total : 1) * sizeof *all))) {
        rc = fo_set_error(FO_ENOMEM, "bench: digest gather");
        goto fail;
      }
      n_recs = total; /* rank 0 now holds every rank's */
    }
    MPI_Gatherv(recs, n, MPI_INT64_T, all, counts, displs, MPI_INT64_T, 0, world);
  }
  if (json && (rc = gather_records(world, rank, size, trs, n_trs, &all_trs, &n_all_trs)) != FO_OK)
    goto fail;
  if (rank == 0) {
    int64_t nb = tot[SUM_BATCHES];
    double s = maxs[0], rq[64], by[64];
    uint64_t dg = 0;
    if (digest) {
      uint64_t *seq = malloc((size_t)(n_recs / 3 + 1) * sizeof *seq);
      if (!seq) {
        rc = fo_set_error(FO_ENOMEM, "bench: digest");
        goto fail;
      }
      qsort(all, (size_t)(n_recs / 3), 3 * sizeof *all, cmp_rec);
      for (int64_t i = 0; i < n_recs / 3; i++) seq[i] = (uint64_t)all[3 * i + 2];
      dg = fo_digest_sequence(seq, n_recs / 3);
      free(seq);
    }
    for (int h = 0; h < n_hops && h < 64; h++) {
      rq[h] = nb ? (double)tot[SUM_HOP_REQ + h] / (double)nb : 0.0;
      by[h] = nb ? (double)tot[SUM_HOP_BYTES + h] / (double)nb : 0.0;
    }
    if (n_hops > 64) n_hops = 64;
    if (json) {
      int64_t f[64];
      printf("{\"dataset\": ");
      cli_json_string(stdout, path, strlen(path));
      printf(", \"num_nodes\": %lld, \"num_edges\": %lld, \"fanout\": ",
             (long long)fo_dataset_num_nodes(d), (long long)fo_dataset_num_edges(d));
      for (int h = 0; h < n_hops; h++) f[h] = lo->sampler.fanouts[h];
      cli_json_i64_array(stdout, f, n_hops);
      printf(", \"seed\": %llu, \"epoch\": %llu, \"epochs\": %lld, \"replace\": %s, "
             "\"edge_dir\": \"%s\", \"disjoint\": %s, \"split\": ",
             (unsigned long long)lo->sampler.seed, (unsigned long long)lo->epoch, (long long)epochs,
             lo->sampler.replace ? "true" : "false",
             lo->sampler.edge_dir == FO_EDGE_DIR_IN ? "in" : "out",
             lo->sampler.disjoint ? "true" : "false");
      if (lo->split) cli_json_string(stdout, lo->split, strlen(lo->split));
      else printf("null");
      printf(", \"load\": \"%s\", \"mode\": \"dist\", \"ranks\": %d, \"machines\": %d, "
             "\"procs_per_machine\": %d, \"deadline_s\": %g, \"tail\": \"%s\", "
             "\"seed_placement\": \"%s\", \"cache_bytes\": %lld, \"cache_policy\": \"%s\", "
             "\"lookahead\": %d, \"pipeline\": %d, "
             "\"threads\": %d, \"batch_size\": %lld, \"batches\": %lld, \"seconds\": %.6f, "
             "\"open_seconds\": %.6f, \"sampled_nodes\": %lld, \"sampled_edges\": %lld, "
             "\"edges_per_s\": %.1f, \"nodes_per_s\": %.1f, \"feature_bytes\": %lld, "
             "\"feature_bytes_per_s\": %.1f, \"peak_rss_mb\": %.1f",
             dopts->load == FO_LOAD_HUGEPAGE ? "hugepage" : "mmap", size, (int)machines,
             (int)local_size, dc->deadline_s, tails[dc->tail],
             dc->seeds == FO_DIST_SEEDS_LOCAL ? "local" : "global", (long long)dc->cache_bytes,
             dc->cache_policy == FO_DIST_CACHE_LOOKAHEAD ? "lookahead"
             : dc->cache_policy == FO_DIST_CACHE_FREQUENCY ? "frequency" : "degree",
             (int)dc->lookahead, (int)dc->pipeline, (int)lo->num_workers,
             (long long)lo->batch_size, (long long)nb, s, maxs[1], (long long)tot[SUM_NODES],
             (long long)tot[SUM_EDGES], s > 0 ? (double)tot[SUM_EDGES] / s : 0.0,
             s > 0 ? (double)tot[SUM_NODES] / s : 0.0, (long long)tot[SUM_XBYTES],
             s > 0 ? (double)tot[SUM_XBYTES] / s : 0.0, maxs[2]);
      print_traffic(all_trs, n_all_trs, n_hops);
      printf(", \"remote_hop_requests\": ");
      cli_json_i64_array(stdout, tot + SUM_HOP_REQ, n_hops);
      printf(", \"remote_hop_bytes\": ");
      cli_json_i64_array(stdout, tot + SUM_HOP_BYTES, n_hops);
      printf(", \"remote_hop_requests_per_batch\": ");
      json_f64_array(rq, n_hops);
      printf(", \"remote_hop_bytes_per_batch\": ");
      json_f64_array(by, n_hops);
      printf(", \"remote_fetch_requests\": %lld, \"remote_fetch_bytes\": %lld, "
             "\"remote_fetch_requests_per_batch\": %.3f, \"remote_fetch_bytes_per_batch\": %.3f",
             (long long)tot[SUM_FETCH_REQ], (long long)tot[SUM_FETCH_BYTES],
             nb ? (double)tot[SUM_FETCH_REQ] / (double)nb : 0.0,
             nb ? (double)tot[SUM_FETCH_BYTES] / (double)nb : 0.0);
      for (int h = 0; h < n_hops; h++) by[h] = nb ? (double)tot[SUM_HOP_EDGES + h] / (double)nb : 0.0;
      printf(", \"remote_hop_edges_per_batch\": ");
      json_f64_array(by, n_hops);
      printf(", \"remote_feature_bytes_per_batch\": %.3f, \"remote_rows_per_batch\": %.3f, "
             "\"cache_hit_rate\": %.6f, \"cache_bytes_saved_per_batch\": %.3f, "
             "\"lookahead_hop_requests_per_batch\": %.3f, \"lookahead_hop_bytes_per_batch\": %.3f",
             nb ? (double)tot[SUM_FETCH_BYTES] / (double)nb : 0.0,
             nb ? (double)tot[SUM_REMOTE_ROWS] / (double)nb : 0.0,
             tot[SUM_REMOTE_ROWS] ? (double)tot[SUM_CACHE_HITS] / (double)tot[SUM_REMOTE_ROWS] : 0.0,
             nb ? (double)tot[SUM_CACHE_SAVED] / (double)nb : 0.0,
             nb ? (double)tot[SUM_AHEAD_REQ] / (double)nb : 0.0,
             nb ? (double)tot[SUM_AHEAD_BYTES] / (double)nb : 0.0);
      if (digest) printf(", \"digest\": \"%016llx\"", (unsigned long long)dg);
      printf("}\n");
    } else {
      printf("dataset        %s (%lld nodes, %lld edges, load %s, opened in %.3f s)\n", path,
             (long long)fo_dataset_num_nodes(d), (long long)fo_dataset_num_edges(d),
             dopts->load == FO_LOAD_HUGEPAGE ? "hugepage" : "mmap", maxs[1]);
      printf("mode           distributed: %d ranks, %d machines x %d, %d worker thread%s each, "
             "tail %s%s\n", size, (int)machines, (int)local_size, (int)lo->num_workers,
             lo->num_workers == 1 ? "" : "s", tails[dc->tail],
             dc->seeds == FO_DIST_SEEDS_LOCAL ? ", seed placement local" : "");
      printf("batches        %lld (batch size %lld, %lld epoch%s)\n", (long long)nb,
             (long long)lo->batch_size, (long long)epochs, epochs == 1 ? "" : "s");
      printf("seconds        %.3f (slowest rank)\n", s);
      printf("sampled nodes  %lld\n", (long long)tot[SUM_NODES]);
      printf("sampled edges  %lld\n", (long long)tot[SUM_EDGES]);
      printf("edges/s        %.2f M\n", s > 0 ? (double)tot[SUM_EDGES] / s / 1e6 : 0.0);
      for (int h = 0; h < n_hops; h++)
        printf("remote hop %-3d %.2f requests, %.1f KiB per batch\n", h, rq[h], by[h] / 1024.0);
      printf("remote fetch   %.2f requests, %.1f KiB per batch\n",
             nb ? (double)tot[SUM_FETCH_REQ] / (double)nb : 0.0,
             nb ? (double)tot[SUM_FETCH_BYTES] / (double)nb / 1024.0 : 0.0);
      if (dc->cache_bytes > 0)
        printf("feature cache  %.1f MiB per rank, %s: hit rate %.3f, %.1f KiB saved per batch\n",
               (double)dc->cache_bytes / 1048576.0,
               dc->cache_policy == FO_DIST_CACHE_LOOKAHEAD ? "lookahead"
               : dc->cache_policy == FO_DIST_CACHE_FREQUENCY ? "frequency" : "degree",
               tot[SUM_REMOTE_ROWS] ? (double)tot[SUM_CACHE_HITS] / (double)tot[SUM_REMOTE_ROWS] : 0.0,
               nb ? (double)tot[SUM_CACHE_SAVED] / (double)nb / 1024.0 : 0.0);
      printf("peak RSS       %.1f MiB (largest rank)\n", maxs[2]);
      if (digest) printf("digest         %016llx\n", (unsigned long long)dg);
    }
    fflush(stdout);
  }
  free(recs);
  free(all);
  free(trs);
  free(all_trs);
  free(counts);
  free(displs);
  fo_dataset_close(d);
  MPI_Finalize();
  return CLI_OK;
fail:
  cli_progress_end(&pg);
  if (dd) { /* tell the other ranks (unless the context did already): they print it too */
    char text[1100];
    snprintf(text, sizeof text, "%s", fo_last_error());
    if (!fo_dist_failed(dd, NULL)) (void)fo_dist_abort_status(dd, rc, text);
    fo_set_error(rc, text);
    told = true;
  }
  return dist_fail(rank, rc, told, dc->deadline_s);
}
#endif

int cmd_bench(int argc, char **argv) {
  static const struct option lopts[] = {
      {"fanout", required_argument, NULL, OPT_FANOUT}, {"batch-size", required_argument, NULL, OPT_BS},
      {"batches", required_argument, NULL, OPT_BATCHES}, {"seed", required_argument, NULL, OPT_SEED},
      {"epoch", required_argument, NULL, OPT_EPOCH}, {"replace", no_argument, NULL, OPT_REPLACE},
      {"weighted", no_argument, NULL, OPT_WEIGHTED},
      {"temporal", required_argument, NULL, OPT_TEMPORAL}, {"time", required_argument, NULL, OPT_TIME},
      {"strict", no_argument, NULL, OPT_STRICT}, {"window", required_argument, NULL, OPT_WINDOW},
      {"edge-dir", required_argument, NULL, OPT_DIR}, {"disjoint", no_argument, NULL, OPT_DISJOINT},
      {"load", required_argument, NULL, OPT_LOAD}, {"json", no_argument, NULL, OPT_JSON},
      {"epochs", required_argument, NULL, OPT_EPOCHS}, {"threads", required_argument, NULL, OPT_THREADS},
      {"prefetch", required_argument, NULL, OPT_PREFETCH}, {"split", required_argument, NULL, OPT_SPLIT},
      {"features", no_argument, NULL, OPT_FEATURES}, {"digest", no_argument, NULL, OPT_DIGEST},
      {"bare", no_argument, NULL, OPT_BARE}, {"no-shuffle", no_argument, NULL, OPT_NOSHUFFLE},
      {"drop-last", no_argument, NULL, OPT_DROPLAST}, {"memcpy", no_argument, NULL, OPT_MEMCPY},
      {"dist", no_argument, NULL, OPT_DIST}, {"procs-per-machine", required_argument, NULL, OPT_PPM},
      {"deadline", required_argument, NULL, OPT_DEADLINE}, {"tail", required_argument, NULL, OPT_TAIL},
      {"input-type", required_argument, NULL, OPT_INTYPE},
      {"seed-placement", required_argument, NULL, OPT_SEEDS},
      {"cache-mb", required_argument, NULL, OPT_CACHE_MB},
      {"cache-policy", required_argument, NULL, OPT_CACHE_POLICY},
      {"lookahead", required_argument, NULL, OPT_LOOKAHEAD},
      {"edge-seeds-split", required_argument, NULL, OPT_EDGE_SPLIT},
      {"edge-seeds", required_argument, NULL, OPT_EDGE_SEEDS},
      {"edge-type", required_argument, NULL, OPT_EDGE_TYPE}, {"neg", required_argument, NULL, OPT_NEG},
      {"no-strict", no_argument, NULL, OPT_NO_STRICT},
      {"exclude-seed-edges", no_argument, NULL, OPT_EXCLUDE},
      {"pipeline", required_argument, NULL, OPT_PIPELINE},
      {"anchors", required_argument, NULL, OPT_ANCHORS},
      {"anchors-split", required_argument, NULL, OPT_ANCHORS_SPLIT},
      {"supervision", required_argument, NULL, OPT_SUPERVISION},
      {"negative-type", required_argument, NULL, OPT_NEG_TYPE},
      {"no-hard-negatives", no_argument, NULL, OPT_NO_HARD},
      {"random-negatives", required_argument, NULL, OPT_RANDOM_NEG},
      {"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  fo_loader_opts lo;
  fo_dataset_opts dopts;
  cli_fanouts fanouts = {0};
  char *in_type = NULL;
  int32_t seed_type = 0;
  int64_t max_batches = -1, epochs = 1, v, *perm = NULL;
  uint64_t epoch0 = 0;
  bool json = false, digest = false, bare = false, want_memcpy = false, loader_opt = false;
  bool quiet = false;
  cli_progress pg = {0};
  dist_cfg dc = {false, false, 0, 600.0, FO_DIST_TAIL_KEEP, false, FO_DIST_SEEDS_GLOBAL, 0,
                 FO_DIST_CACHE_DEGREE, 8, 0};
  cli_link_bench lk = {0};
  cli_ablp_bench ab = {0};
  double memcpy_bps = 0;
  fo_loader_stats ls;
  fo_dataset_t *d = NULL;
  fo_loader_t *L = NULL;
  fo_sampler_t *s = NULL;
  fo_batch_t *b = NULL;
  totals t;
  double t0, t_open, t_start, secs;
  int c, rc = FO_OK, ret = CLI_OK;

  memset(&t, 0, sizeof t);
  fo_link_opts_init(&lk.link);
  fo_ablp_opts_init(&ab.ablp);
  fo_loader_opts_init(&lo);
  fo_dataset_opts_init(&dopts);
  lo.batch_size = 1024;
  lo.shuffle = true;
  lo.features = lo.labels = false;
  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":qh", lopts, NULL)) != -1) {
    switch (c) {
    case OPT_FANOUT:
      if ((ret = cli_fanout_arg("bench", optarg, &fanouts))) goto out;
      lo.sampler.fanouts = fanouts.all; /* resolved once the dataset is open */
      lo.sampler.n_hops = fanouts.n_all;
      break;
    case OPT_INTYPE:
      free(in_type);
      if (!(in_type = strdup(optarg))) {
        ret = cli_fail(fo_set_error(FO_ENOMEM, "--input-type"));
        goto out;
      }
      break;
    case OPT_BS:
      if ((ret = cli_i64("bench", "--batch-size", optarg, &lo.batch_size))) goto out;
      if (lo.batch_size < 1) {
        ret = cli_usage_error("bench", "--batch-size: %s is not >= 1", optarg);
        goto out;
      }
      break;
    case OPT_BATCHES:
      if ((ret = cli_i64("bench", "--batches", optarg, &max_batches))) goto out;
      if (max_batches < 0) {
        ret = cli_usage_error("bench", "--batches: %s is negative", optarg);
        goto out;
      }
      break;
    case OPT_EPOCHS:
      if ((ret = cli_i64("bench", "--epochs", optarg, &epochs))) goto out;
      if (epochs < 1) {
        ret = cli_usage_error("bench", "--epochs: %s is not >= 1", optarg);
        goto out;
      }
      break;
    case OPT_THREADS:
      if ((ret = cli_i64("bench", "--threads", optarg, &v))) goto out;
      if (v < 0 || v > 256) {
        ret = cli_usage_error("bench", "--threads: %s is not in 0..256", optarg);
        goto out;
      }
      lo.num_workers = (int32_t)v;
      loader_opt = true;
      break;
    case OPT_PREFETCH:
      if ((ret = cli_i64("bench", "--prefetch", optarg, &v))) goto out;
      if (v < 1 || v > 65536) {
        ret = cli_usage_error("bench", "--prefetch: %s is not in 1..65536", optarg);
        goto out;
      }
      lo.prefetch = (int32_t)v;
      loader_opt = true;
      break;
    case OPT_SPLIT: {
      char *ty = NULL;
      if ((ret = cli_typed_arg("bench", "--split", optarg, &ty, &lo.split))) goto out;
      if (ty) {
        free(in_type);
        in_type = ty;
      }
      break;
    }
    case OPT_FEATURES: lo.features = lo.labels = true; break;
    case OPT_DIGEST: digest = true; break;
    case OPT_BARE: bare = true; break;
    case OPT_NOSHUFFLE: lo.shuffle = false; break;
    case OPT_DROPLAST: lo.drop_last = true; break;
    case OPT_MEMCPY: want_memcpy = true; break;
    case OPT_SEED: if ((ret = cli_u64("bench", "--seed", optarg, &lo.sampler.seed))) goto out; break;
    case OPT_EPOCH: if ((ret = cli_u64("bench", "--epoch", optarg, &epoch0))) goto out; break;
    case OPT_REPLACE: lo.sampler.replace = true; break;
    case OPT_WEIGHTED: lo.sampler.weighted = true; break;
    case OPT_TEMPORAL:
    case OPT_TIME:
    case OPT_WINDOW:
      if ((ret = cli_temporal_opt("bench", c == OPT_TEMPORAL ? "--temporal" : c == OPT_TIME ? "--time" : "--window",
                                  optarg, &lo.sampler, NULL, NULL)))
        goto out;
      break;
    case OPT_STRICT: lo.sampler.time_strict = true; break;
    case OPT_DIR: if ((ret = cli_edge_dir("bench", optarg, &lo.sampler.edge_dir))) goto out; break;
    case OPT_DISJOINT: lo.sampler.disjoint = true; break;
    case OPT_LOAD: if ((ret = cli_load_mode("bench", optarg, &dopts.load))) goto out; break;
    case OPT_JSON: json = true; break;
    case OPT_DIST: dc.dist = true; break;
    case OPT_PPM:
      if ((ret = cli_i64("bench", "--procs-per-machine", optarg, &v))) goto out;
      if (v < 1 || v > 65536) {
        ret = cli_usage_error("bench", "--procs-per-machine: %s is not in 1..65536", optarg);
        goto out;
      }
      dc.procs_per_machine = (int32_t)v;
      dc.dist_opt = true;
      break;
    case OPT_DEADLINE: {
      char *end;
      dc.deadline_s = strtod(optarg, &end);
      if (end == optarg || *end || !isfinite(dc.deadline_s) || !(dc.deadline_s > 0)) {
        ret = cli_usage_error("bench", "--deadline: %s is not a number of seconds > 0", optarg);
        goto out;
      }
      dc.dist_opt = true;
      break;
    }
    case OPT_TAIL:
      if (!strcmp(optarg, "keep")) dc.tail = FO_DIST_TAIL_KEEP;
      else if (!strcmp(optarg, "drop")) dc.tail = FO_DIST_TAIL_DROP;
      else if (!strcmp(optarg, "pad")) dc.tail = FO_DIST_TAIL_PAD;
      else {
        ret = cli_usage_error("bench", "--tail: '%s' is not keep, drop or pad", optarg);
        goto out;
      }
      dc.dist_opt = true;
      break;
    case OPT_SEEDS:
      if (!strcmp(optarg, "global")) dc.seeds = FO_DIST_SEEDS_GLOBAL;
      else if (!strcmp(optarg, "local")) dc.seeds = FO_DIST_SEEDS_LOCAL;
      else {
        ret = cli_usage_error("bench", "--seed-placement: '%s' is not global or local", optarg);
        goto out;
      }
      dc.dist_opt = true;
      break;
    case OPT_CACHE_MB: {
      char *end;
      double mb = strtod(optarg, &end);
      if (end == optarg || *end || !isfinite(mb) || mb < 0 || mb > 1e9) {
        ret = cli_usage_error("bench", "--cache-mb: %s is not a number of MiB >= 0", optarg);
        goto out;
      }
      dc.cache_bytes = (int64_t)(mb * 1048576.0);
      dc.dist_opt = true;
      break;
    }
    case OPT_CACHE_POLICY:
      if (!strcmp(optarg, "degree")) dc.cache_policy = FO_DIST_CACHE_DEGREE;
      else if (!strcmp(optarg, "frequency")) dc.cache_policy = FO_DIST_CACHE_FREQUENCY;
      else if (!strcmp(optarg, "lookahead")) dc.cache_policy = FO_DIST_CACHE_LOOKAHEAD;
      else {
        ret = cli_usage_error("bench", "--cache-policy: '%s' is not degree, frequency or lookahead",
                              optarg);
        goto out;
      }
      dc.dist_opt = true;
      break;
    case OPT_LOOKAHEAD:
      if ((ret = cli_i64("bench", "--lookahead", optarg, &v))) goto out;
      if (v < 1 || v > 1024) {
        ret = cli_usage_error("bench", "--lookahead: %s is not in 1..1024", optarg);
        goto out;
      }
      dc.lookahead = (int32_t)v;
      dc.dist_opt = true;
      break;
    case OPT_EDGE_SPLIT: lk.split = optarg; break;
    case OPT_EDGE_SEEDS: lk.edges = optarg; break;
    case OPT_EDGE_TYPE: lk.link.edge_type = optarg; lk.link_opt = true; break;
    case OPT_NEG:
      if ((ret = cli_neg_arg("bench", optarg, &lk.link.neg, &lk.link.neg_amount))) goto out;
      lk.link_opt = true;
      break;
    case OPT_NO_STRICT: lk.link.strict = ab.ablp.strict = false; lk.link_opt = true; break;
    case OPT_ANCHORS: ab.anchors = optarg; break;
    case OPT_ANCHORS_SPLIT: ab.split = optarg; break;
    case OPT_SUPERVISION: ab.ablp.supervision_edge_type = optarg; ab.ablp_opt = true; break;
    case OPT_NEG_TYPE: ab.ablp.negative_edge_type = optarg; ab.ablp_opt = true; break;
    case OPT_NO_HARD: ab.ablp.no_hard_negatives = ab.ablp_opt = true; break;
    case OPT_RANDOM_NEG: {
      uint64_t k;
      if ((ret = cli_u64("bench", "--random-negatives", optarg, &k))) goto out;
      ab.ablp.num_random_negatives = k > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)k;
      ab.ablp_opt = true;
      break;
    }
    case OPT_EXCLUDE: lk.link.exclude_seed_edges = true; lk.link_opt = true; break;
    case OPT_PIPELINE:
      if ((ret = cli_i64("bench", "--pipeline", optarg, &v))) goto out;
      if (v < 0 || v > 64) {
        ret = cli_usage_error("bench", "--pipeline: %s is not in 0..64", optarg);
        goto out;
      }
      dc.pipeline = (int32_t)v;
      dc.dist_opt = true;
      break;
    case 'q': quiet = dc.quiet = true; break;
    case 'h': help(); goto out;
    default: ret = cli_bad_option("bench", c, argv, lopts); goto out;
    }
  }
  if (optind + 1 != argc) {
    ret = cli_usage_error("bench", "expected one dataset directory");
    goto out;
  }
  if (!cli_fanouts_given(&fanouts)) {
    ret = cli_usage_error("bench", "missing --fanout");
    goto out;
  }
  if (bare && (lo.split || lo.features || digest || loader_opt)) {
    ret = cli_usage_error("bench", "--bare samples all nodes without the loader: no --split, "
                          "--features, --digest, --threads or --prefetch");
    goto out;
  }
  if (dc.dist_opt && !dc.dist) {
    ret = cli_usage_error("bench", "--procs-per-machine, --deadline, --tail, --seed-placement, "
                          "--cache-mb, --cache-policy, --lookahead and --pipeline need --dist");
    goto out;
  }
  lo.epoch = epoch0;
  if (lk.split && lk.edges) {
    ret = cli_usage_error("bench", "--edge-seeds-split and --edge-seeds both given: use one");
    goto out;
  }
  if (lk.edges) lk.split = NULL;
  if (ab.anchors || ab.split) {
    /* the ABLP loader (cli/ablp_bench.c): caller's thread; --no-strict is its strictness */
    if (ab.anchors && ab.split) {
      ret = cli_usage_error("bench", "--anchors and --anchors-split both given: use one");
      goto out;
    }
    if (lk.split || lk.edges || lk.link.edge_type || lk.link.neg != FO_NEG_NONE ||
        lk.link.exclude_seed_edges) {
      ret = cli_usage_error("bench", "--anchors runs the ABLP loader: no --edge-seeds-split, "
                            "--edge-seeds, --edge-type, --neg or --exclude-seed-edges");
      goto out;
    }
    if (bare || loader_opt || lo.split || in_type || want_memcpy) {
      ret = cli_usage_error("bench", "--anchors runs the ABLP loader on this thread: no --bare, "
                            "--threads, --prefetch, --split, --input-type or --memcpy");
      goto out;
    }
    if (dc.dist) {
      ret = cli_bench_ablp_dist(argv[optind], &dopts, &fanouts, &lo, &ab, max_batches, epochs, json,
                                digest, dc.procs_per_machine, dc.deadline_s, (int)dc.tail,
                                (int)dc.seeds, dc.cache_bytes, (int)dc.cache_policy, dc.lookahead,
                                dc.pipeline);
      goto out;
    }
    ret = cli_bench_ablp(argv[optind], &dopts, &fanouts, &lo, &ab, max_batches, epochs, json, digest);
    goto out;
  }
  if (ab.ablp_opt) {
    ret = cli_usage_error("bench", "--supervision, --negative-type, --no-hard-negatives and "
                          "--random-negatives need --anchors or --anchors-split");
    goto out;
  }
  if (lk.link_opt && !lk.split && !lk.edges) {
    ret = cli_usage_error("bench", "--edge-type, --neg, --no-strict and --exclude-seed-edges "
                          "need --edge-seeds-split or --edge-seeds");
    goto out;
  }
  if (lk.split || lk.edges) {
    /* the link loader (cli/link.c): caller's thread, single process */
    if (bare || loader_opt || lo.split || in_type || want_memcpy) {
      ret = cli_usage_error("bench", "--edge-seeds-split runs the link loader on this thread: no "
                            "--bare, --threads, --prefetch, --split, --input-type or --memcpy");
      goto out;
    }
    if (dc.dist) {
      /* the distributed link loader (cli/link_dist.c) */
      ret = cli_bench_link_dist(argv[optind], &dopts, &fanouts, &lo, &lk, max_batches, epochs,
                                json, digest, dc.procs_per_machine, dc.deadline_s, (int)dc.tail,
                                (int)dc.seeds, dc.cache_bytes, (int)dc.cache_policy, dc.lookahead,
                                dc.pipeline);
      goto out;
    }
    ret = cli_bench_link(argv[optind], &dopts, &fanouts, &lo, &lk, max_batches, epochs, json,
                         digest, quiet);
    goto out;
  }
  lo.epoch = epoch0;
  if (dc.dist) {
    if (bare || want_memcpy) {
      ret = cli_usage_error("bench", "--dist runs the distributed loader: no --bare or --memcpy");
      goto out;
    }
    ret = bench_dist(argv[optind], &lo, &dopts, &dc, max_batches, epochs, json, digest, &fanouts,
                     in_type);
    goto out;
  }
  memset(&ls, 0, sizeof ls);
  if (want_memcpy) memcpy_bps = memcpy_bandwidth();
  t0 = cli_now_s();
  if ((rc = fo_dataset_open(argv[optind], &dopts, &d)) != FO_OK) goto fail;
  t_open = cli_now_s() - t0;
  if ((ret = cli_fanouts_resolve("bench", d, &fanouts, &lo.sampler)) ||
      (ret = cli_node_type(d, in_type && lo.split ? "--split" : "--input-type", in_type, &seed_type)))
    goto out;
  lo.input_type = in_type;
  if (bare) {
    int64_t n = fo_dataset_num_nodes(fo_dataset_node_data(d, seed_type));
    if (!(perm = malloc((size_t)(n ? n : 1) * sizeof *perm))) {
      rc = fo_set_error(FO_ENOMEM, "bench: seed permutation");
      goto fail;
    }
    if ((rc = fo_sampler_create(d, &lo.sampler, &s)) != FO_OK || (rc = fo_batch_create(&b)) != FO_OK)
      goto fail;
  } else if ((rc = fo_loader_create(d, &lo, &L)) != FO_OK) {
    goto fail;
  }
  t_start = cli_now_s();
  cli_progress_start(&pg, !quiet && !json, "bench");
  for (int64_t e = 0; e < epochs; e++) {
    uint64_t epoch = epoch0 + (uint64_t)e;
    bench_pg bp = {&pg, e, epochs};
    if (bare) {
      rc = run_bare_epoch(d, seed_type, s, b, perm, &lo, epoch, max_batches, &t, &bp);
    } else {
      if (e > 0 && (rc = fo_loader_start_epoch(L, epoch)) != FO_OK) goto fail;
      rc = run_loader_epoch(L, max_batches, digest, &t, &bp);
    }
    if (rc != FO_OK) goto fail;
  }
  cli_progress_end(&pg);
  secs = cli_now_s() - t_start;
  if (L) fo_loader_get_stats(L, &ls);
  if (json) {
    printf("{\"dataset\": ");
    cli_json_string(stdout, argv[optind], strlen(argv[optind]));
    printf(", \"num_nodes\": %lld, \"num_edges\": %lld, \"fanout\": ",
           (long long)fo_dataset_num_nodes(d), (long long)fo_dataset_num_edges(d));
    {
      int64_t f[64];
      for (int h = 0; h < lo.sampler.n_hops && h < 64; h++) f[h] = lo.sampler.fanouts[h];
      cli_json_i64_array(stdout, f, lo.sampler.n_hops < 64 ? lo.sampler.n_hops : 64);
    }
    printf(", \"seed\": %llu, \"epoch\": %llu, \"epochs\": %lld, \"replace\": %s, "
           "\"weighted\": %s, \"edge_dir\": \"%s\", \"disjoint\": %s, ",
           (unsigned long long)lo.sampler.seed, (unsigned long long)epoch0, (long long)epochs,
           lo.sampler.replace ? "true" : "false", lo.sampler.weighted ? "true" : "false",
           lo.sampler.edge_dir == FO_EDGE_DIR_IN ? "in" : "out", lo.sampler.disjoint ? "true" : "false");
    if (lo.sampler.temporal != FO_TEMPORAL_NONE)
      printf("\"temporal\": \"%s\", \"time\": \"%s\", \"strict\": %s, \"window\": %lld, \"split\": ",
             lo.sampler.temporal == FO_TEMPORAL_LAST ? "last" : "uniform",
             lo.sampler.time_attr == FO_TIME_ATTR_NODE ? "node" : "edge",
             lo.sampler.time_strict ? "true" : "false", (long long)lo.sampler.time_window);
    else
      printf("\"split\": ");
    if (lo.split) cli_json_string(stdout, lo.split, strlen(lo.split));
    else printf("null");
    printf(", \"load\": \"%s\", \"mode\": \"%s\", \"threads\": %d, \"batch_size\": %lld, "
           "\"batches\": %lld, \"seconds\": %.6f, \"open_seconds\": %.6f, "
           "\"sampled_nodes\": %lld, \"sampled_edges\": %lld, \"edges_per_s\": %.1f, "
           "\"nodes_per_s\": %.1f, \"feature_bytes\": %lld, \"feature_bytes_per_s\": %.1f, "
           "\"peak_rss_mb\": %.1f, \"huge_pages_mb\": %.1f",
           dopts.load == FO_LOAD_HUGEPAGE ? "hugepage" : "mmap", bare ? "bare" : "loader",
           bare ? 1 : (int)lo.num_workers, (long long)lo.batch_size, (long long)t.batches, secs,
           t_open, (long long)t.nodes, (long long)t.edges, secs > 0 ? (double)t.edges / secs : 0.0,
           secs > 0 ? (double)t.nodes / secs : 0.0, (long long)t.x_bytes,
           secs > 0 ? (double)t.x_bytes / secs : 0.0, cli_peak_rss_mb(), huge_pages_mb());
    if (!bare)
      printf(", \"sample_seconds\": %.6f, \"gather_seconds\": %.6f, \"gather_bytes_per_s\": %.1f, "
             "\"wait_seconds\": %.6f", (double)ls.sample_ns / 1e9, (double)ls.gather_ns / 1e9,
             ls.gather_ns > 0 ? (double)ls.gather_bytes / ((double)ls.gather_ns / 1e9) : 0.0,
             (double)ls.wait_ns / 1e9);
    if (want_memcpy)
      printf(", \"memcpy_bytes_per_s\": %.1f, \"gather_vs_memcpy\": %.3f", memcpy_bps,
             memcpy_bps > 0 && ls.gather_ns > 0
                 ? (double)ls.gather_bytes / ((double)ls.gather_ns / 1e9) / memcpy_bps
                 : 0.0);
    if (digest) printf(", \"digest\": \"%016llx\"", (unsigned long long)fo_digest_sequence(t.digests, t.n_digests));
    printf("}\n");
  } else {
    printf("dataset        %s (%lld nodes, %lld edges, load %s, opened in %.3f s)\n", argv[optind],
           (long long)fo_dataset_num_nodes(d), (long long)fo_dataset_num_edges(d),
           dopts.load == FO_LOAD_HUGEPAGE ? "hugepage" : "mmap", t_open);
    if (bare) printf("mode           bare sampler loop, 1 thread\n");
    else printf("mode           loader, %d worker thread%s\n", (int)lo.num_workers, lo.num_workers == 1 ? "" : "s");
    printf("batches        %lld (batch size %lld, %lld epoch%s)\n", (long long)t.batches,
           (long long)lo.batch_size, (long long)epochs, epochs == 1 ? "" : "s");
    printf("seconds        %.3f\n", secs);
    printf("sampled nodes  %lld\n", (long long)t.nodes);
    printf("sampled edges  %lld\n", (long long)t.edges);
    printf("edges/s        %.2f M\n", secs > 0 ? (double)t.edges / secs / 1e6 : 0.0);
    if (lo.features) printf("features       %.1f MiB/s over the run; gather alone %.1f MiB/s\n",
                            secs > 0 ? (double)t.x_bytes / secs / 1048576.0 : 0.0,
                            ls.gather_ns > 0 ? (double)ls.gather_bytes / ((double)ls.gather_ns / 1e9) / 1048576.0 : 0.0);
    if (want_memcpy) printf("memcpy         %.1f MiB/s (1 thread)\n", memcpy_bps / 1048576.0);
    printf("peak RSS       %.1f MiB\n", cli_peak_rss_mb());
    if (digest) printf("digest         %016llx\n", (unsigned long long)fo_digest_sequence(t.digests, t.n_digests));
  }
  goto out;
fail:
  cli_progress_end(&pg);
  ret = cli_fail(rc);
out:
  fo_loader_destroy(L);
  fo_batch_destroy(b);
  fo_sampler_destroy(s);
  fo_dataset_close(d);
  free(perm);
  cli_fanouts_free(&fanouts);
  free(in_type);
  free(t.digests);
  return ret;
}
