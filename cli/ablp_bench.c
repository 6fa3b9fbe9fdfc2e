/*
 * cli/ablp_bench.c: `fanout bench DIR --anchors LIST|@FILE|--anchors-split [TYPE:]NAME ...`
 * (the ABLP loader on the caller's thread) and, with --dist under mpiexec, the distributed ABLP
 * loader (fo_dist_ablp_loader_create) over this rank's share of every epoch; rank 0 prints one
 * report with the digest of every batch in (epoch, index) order (that of one process over the
 * unpartitioned dataset) and the traffic per batch (LABEL requests and bytes, hop and fetch
 * requests).
 */
#include "cli.h"

#include "fanout/dist.h"

#include <stdlib.h>
#include <string.h>

#ifdef FO_WITH_MPI
#include <mpi.h>
#include <time.h>
#endif

/* --anchors: LIST or @FILE (whitespace and newlines as commas) into a new array. */
static int read_anchors(const char *arg, int64_t **out, int64_t *n) {
  return cli_i64_list_arg("bench", "--anchors", arg, "anchors", out, n);
}

/* The anchor type of --anchors-split NAME without TYPE: the source type of the supervision
 * type (--supervision, by full name or relation; else the only positive labels-only type). */
static int split_anchor_type(const fo_dataset_t *d, const char *sup, int32_t *out) {
  int32_t found = -1, n = 0;
  for (int32_t i = 0; i < fo_dataset_num_label_edge_types(d); i++) {
    fo_edge_type ty;
    const char *rel;
    fo_dataset_label_edge_type(d, i, &ty);
    if (ty.label != FO_LABEL_POSITIVE) continue;
    rel = strstr(ty.name, "__");
    if (sup && strcmp(ty.name, sup)) {
      const char *end = rel ? strstr(rel + 2, "__") : NULL;
      if (!end || (size_t)(end - (rel + 2)) != strlen(sup) || strncmp(rel + 2, sup, strlen(sup)))
        continue;
    }
    if (found != ty.src_type) n++;
    found = ty.src_type;
  }
  if (n == 0 && sup) {
    /* name the real problem: --supervision is not a positive labels-only type */
    char list[512] = "";
    size_t len = 0;
    for (int32_t i = 0; i < fo_dataset_num_label_edge_types(d) && len < sizeof list; i++) {
      fo_edge_type ty;
      fo_dataset_label_edge_type(d, i, &ty);
      if (ty.label != FO_LABEL_POSITIVE) continue;
      len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", ty.name);
    }
    return cli_usage_error("bench", "--anchors-split: --supervision '%s' is not a positive "
                           "labels-only edge type of '%s' (positive labels-only edge types: %s)",
                           sup, fo_dataset_path(d), len ? list : "none");
  }
  if (n != 1)
    return cli_usage_error("bench", "--anchors-split: cannot tell the anchor node type from the "
                           "supervision edge types of '%s' (%d candidates): give TYPE:NAME",
                           fo_dataset_path(d), (int)n);
  *out = found;
  return CLI_OK;
}

/* The anchors of --anchors-split [TYPE:]NAME (a node split of the anchor type), copied. */
static int split_anchors(const fo_dataset_t *d, const char *arg, const char *sup, int64_t **out,
                         int64_t *n) {
  char *type = NULL;
  const char *name;
  const int64_t *ids;
  int32_t t;
  int ret, rc;
  if ((ret = cli_typed_arg("bench", "--anchors-split", arg, &type, &name))) return ret;
  if (type) ret = cli_node_type(d, "--anchors-split", type, &t);
  else ret = split_anchor_type(d, sup, &t);
  free(type);
  if (ret) return ret;
  if ((rc = fo_dataset_split(fo_dataset_node_data(d, t), name, &ids, n)) != FO_OK) {
    /* name the option and the anchor type: the dataset's message names neither */
    char msg[1100];
    snprintf(msg, sizeof msg, "--anchors-split %s: node type '%s': %s", arg,
             fo_dataset_node_type_name(d, t), fo_last_error());
    return cli_fail(fo_set_error(rc, msg));
  }
  for (int64_t i = 0; i < *n; i++) {
    const int64_t nt = fo_dataset_num_nodes(fo_dataset_node_data(d, t));
    if (ids[i] < 0 || ids[i] >= nt) { /* a damaged split: say so, not "your anchor is wrong" */
      char msg[600];
      snprintf(msg, sizeof msg, "--anchors-split %s: entry %lld of the stored split is %lld, not a "
               "node id of type '%s' in [0, %lld) (a damaged dataset? fanout verify %s)", arg,
               (long long)i, (long long)ids[i], fo_dataset_node_type_name(d, t), (long long)nt,
               fo_dataset_path(d));
      return cli_fail(fo_set_error(FO_EFORMAT, msg));
    }
  }
  if (!(*out = malloc((size_t)(*n + 1) * sizeof **out))) return cli_fail(fo_set_error(FO_ENOMEM, "--anchors-split"));
  memcpy(*out, ids, (size_t)*n * sizeof **out);
  return CLI_OK;
}

static void loader_opts(const fo_loader_opts *lo, const cli_ablp_bench *ab, fo_ablp_loader_opts *o) {
  fo_ablp_loader_opts_init(o);
  o->ablp = ab->ablp;
  o->batch_size = lo->batch_size;
  o->shuffle = lo->shuffle;
  o->drop_last = lo->drop_last;
  o->epoch = lo->epoch;
  o->features = lo->features;
}

static void print_head(const char *path, const fo_dataset_t *d, const fo_ablp_loader_opts *o,
                       const cli_ablp_bench *ab, const char *mode) {
  printf("{\"dataset\": ");
  cli_json_string(stdout, path, strlen(path));
  printf(", \"mode\": \"%s\", \"anchors_split\": ", mode);
  if (ab->split) cli_json_string(stdout, ab->split, strlen(ab->split));
  else printf("null");
  printf(", \"supervision\": ");
  if (o->ablp.supervision_edge_type)
    cli_json_string(stdout, o->ablp.supervision_edge_type, strlen(o->ablp.supervision_edge_type));
  else printf("null");
  printf(", \"num_random_negatives\": %lld, \"strict\": %s, \"no_hard_negatives\": %s, "
         "\"seed\": %llu, \"batch_size\": %lld", (long long)o->ablp.num_random_negatives,
         o->ablp.strict ? "true" : "false", o->ablp.no_hard_negatives ? "true" : "false",
         (unsigned long long)o->ablp.sampler.seed, (long long)o->batch_size);
  (void)d;
}

/* Sums of a run (summed over ranks under MPI). */
enum { S_BATCHES, S_ANCHORS, S_POS, S_NEG, S_RAND, S_MISSING, S_NODES, S_EDGES, S_N };

static void add_sums(int64_t *sums, const fo_ablp_loader_batch_t *b) {
  sums[S_BATCHES]++;
  sums[S_ANCHORS] += b->ablp->n_anchors;
  sums[S_POS] += b->ablp->n_pos;
  sums[S_NEG] += b->ablp->n_neg;
  sums[S_RAND] += b->ablp->n_anchors * b->ablp->k;
  sums[S_MISSING] += b->ablp->n_random_missing;
  sums[S_NODES] += b->ablp->sample->n_nodes;
  sums[S_EDGES] += b->ablp->sample->n_edges;
}

static void print_sums(const int64_t *s, double secs) {
  printf(", \"batches\": %lld, \"anchors\": %lld, \"y_positive\": %lld, \"y_negative\": %lld, "
         "\"random_negatives\": %lld, \"num_random_missing\": %lld, \"sampled_nodes\": %lld, "
         "\"sampled_edges\": %lld, \"seconds\": %.6f, \"edges_per_s\": %.1f",
         (long long)s[S_BATCHES], (long long)s[S_ANCHORS], (long long)s[S_POS], (long long)s[S_NEG],
         (long long)s[S_RAND], (long long)s[S_MISSING], (long long)s[S_NODES], (long long)s[S_EDGES],
         secs, secs > 0 ? (double)s[S_EDGES] / secs : 0.0);
}

int cli_bench_ablp(const char *path, const fo_dataset_opts *dopts, cli_fanouts *fanouts,
                   const fo_loader_opts *lo, cli_ablp_bench *ab, int64_t max_batches,
                   int64_t epochs, bool json, bool digest) {
  fo_ablp_loader_opts o;
  fo_dataset_t *d = NULL;
  fo_ablp_loader_t *L = NULL;
  uint64_t *digests = NULL;
  int64_t *anchors = NULL, n_anchors = 0, n_dig = 0, sums[S_N] = {0};
  double t0, secs;
  int rc = FO_OK, ret = CLI_OK;
  loader_opts(lo, ab, &o);
  if (ab->anchors && (ret = read_anchors(ab->anchors, &anchors, &n_anchors))) return ret;
  if ((rc = fo_dataset_open(path, dopts, &d)) != FO_OK) goto fail;
  o.ablp.sampler = lo->sampler;
  if ((ret = cli_fanouts_resolve("bench", d, fanouts, &o.ablp.sampler))) goto out;
  if (ab->split && (ret = split_anchors(d, ab->split, o.ablp.supervision_edge_type, &anchors, &n_anchors)))
    goto out;
  o.input_nodes = anchors;
  o.n_input_nodes = n_anchors;
  if ((rc = fo_ablp_loader_create(d, &o, &L)) != FO_OK) goto fail;
  if (!(digests = malloc((size_t)(fo_ablp_loader_num_batches(L) * epochs + 1) * sizeof *digests))) {
    rc = fo_set_error(FO_ENOMEM, "bench: digest list");
    goto fail;
  }
  t0 = cli_now_s();
  for (int64_t e = 0; e < epochs; e++) {
    int64_t nb = fo_ablp_loader_num_batches(L);
    if (max_batches >= 0 && max_batches < nb) nb = max_batches;
    if (e > 0 && (rc = fo_ablp_loader_start_epoch(L, lo->epoch + (uint64_t)e)) != FO_OK) goto fail;
    for (int64_t i = 0; i < nb; i++) {
      fo_ablp_loader_batch_t *b;
      if ((rc = fo_ablp_loader_next(L, &b)) != FO_OK) goto fail;
      if (!b) break;
      add_sums(sums, b);
      if (digest) digests[n_dig++] = fo_ablp_loader_batch_digest(b);
    }
  }
  secs = cli_now_s() - t0;
  if (json) {
    print_head(path, d, &o, ab, "ablp");
    print_sums(sums, secs);
    printf(", \"peak_rss_mb\": %.1f", cli_peak_rss_mb());
    if (digest) printf(", \"digest\": \"%016llx\"", (unsigned long long)fo_digest_sequence(digests, n_dig));
    printf("}\n");
  } else {
    printf("mode           ABLP loader over %lld anchors, caller's thread\n", (long long)n_anchors);
    printf("batches        %lld (batch size %lld anchors)\n", (long long)sums[S_BATCHES],
           (long long)o.batch_size);
    printf("labels         %lld positive, %lld hard negative, %lld random (%lld missing)\n",
           (long long)sums[S_POS], (long long)sums[S_NEG], (long long)sums[S_RAND],
           (long long)sums[S_MISSING]);
    printf("seconds        %.3f\n", secs);
    printf("sampled edges  %lld\n", (long long)sums[S_EDGES]);
    if (digest) printf("digest         %016llx\n", (unsigned long long)fo_digest_sequence(digests, n_dig));
  }
  goto out;
fail:
  ret = cli_fail(rc);
out:
  fo_ablp_loader_destroy(L);
  fo_dataset_close(d);
  free(digests);
  free(anchors);
  return ret;
}

#ifndef FO_WITH_MPI
int cli_bench_ablp_dist(const char *path, const fo_dataset_opts *dopts, cli_fanouts *fanouts,
                        const fo_loader_opts *lo, cli_ablp_bench *ab, int64_t max_batches,
                        int64_t epochs, bool json, bool digest, int32_t procs_per_machine,
                        double deadline_s, int tail, int seed_placement,
                        int64_t cache_bytes, int cache_policy, int32_t lookahead,
                        int32_t pipeline) {
  (void)path, (void)dopts, (void)fanouts, (void)lo, (void)ab, (void)max_batches, (void)epochs,
      (void)json, (void)digest, (void)procs_per_machine, (void)deadline_s, (void)tail,
      (void)seed_placement, (void)cache_bytes, (void)cache_policy, (void)lookahead, (void)pipeline;
  return cli_fail(fo_set_error(FO_ENOSYS, "bench --dist: this fanout was built without MPI"));
}
#else
/* Per kept batch: epoch, index, digest, label requests, label bytes, hop requests, hop bytes,
 * fetch requests, fetch bytes. */
enum { R_EPOCH, R_INDEX, R_DIGEST, R_AREQ, R_ABYTES, R_HREQ, R_HBYTES, R_FREQ, R_FBYTES, R_CHITS,
       R_CSAVED, R_XREQ, R_XBYTES, R_LEN };

static int cmp_rec(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  if (x[R_EPOCH] != y[R_EPOCH]) return x[R_EPOCH] < y[R_EPOCH] ? -1 : 1;
  if (x[R_INDEX] != y[R_INDEX]) return x[R_INDEX] < y[R_INDEX] ? -1 : 1;
  return 0;
}

static int rank_fail(int rank, int rc, bool told, double deadline_s) {
  fprintf(stderr, "fanout: rank %d: %s (%s)\n", rank, fo_last_error(), fo_status_name(rc));
  fflush(stderr);
  fflush(stdout);
  if (told) { /* the other ranks print their own message: give them a moment */
    double g = deadline_s / 4 < 1.0 ? deadline_s / 4 : 1.0;
    struct timespec ts = {(time_t)g, (long)((g - (double)(time_t)g) * 1e9)};
    nanosleep(&ts, NULL);
  }
  MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
  return CLI_FAIL;
}

int cli_bench_ablp_dist(const char *path, const fo_dataset_opts *dopts, cli_fanouts *fanouts,
                        const fo_loader_opts *lo, cli_ablp_bench *ab, int64_t max_batches,
                        int64_t epochs, bool json, bool digest, int32_t procs_per_machine,
                        double deadline_s, int tail, int seed_placement,
                        int64_t cache_bytes, int cache_policy, int32_t lookahead,
                        int32_t pipeline) {
  static const char *const tails[] = {"keep", "drop", "pad"};
  MPI_Comm world = MPI_COMM_WORLD;
  fo_dist_opts dop;
  fo_dist_loader_opts dlo;
  fo_ablp_loader_opts o;
  fo_dist_t *dd = NULL;
  fo_dataset_t *d = NULL;
  fo_ablp_loader_t *L = NULL;
  int64_t *recs = NULL, n_recs = 0, cap_recs = 0, *all = NULL, sums[S_N] = {0}, tot[S_N];
  int64_t *anchors = NULL, n_anchors = 0;
  int *counts = NULL, *displs = NULL;
  double mine, secs, t0;
  int provided = 0, rank = 0, size = 1, rc = FO_OK, ret;
  bool told = false;

  loader_opts(lo, ab, &o);
  if (ab->anchors && (ret = read_anchors(ab->anchors, &anchors, &n_anchors))) return ret;
  if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
    free(anchors);
    return cli_fail(fo_set_error(FO_EMPI, "bench --dist: MPI_Init_thread failed"));
  }
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  fo_dist_opts_init(&dop);
  dop.procs_per_machine = procs_per_machine;
  dop.deadline_s = deadline_s;
  if ((rc = fo_dist_init_mpi(&world, &dop, &dd)) != FO_OK) {
    fprintf(stderr, "fanout: rank %d: %s (%s)\n", rank, fo_last_error(), fo_status_name(rc));
    MPI_Finalize();
    free(anchors);
    return CLI_FAIL;
  }
  if ((rc = fo_dist_open_dataset(dd, path, dopts, &d)) != FO_OK) goto fail;
  o.ablp.sampler = lo->sampler;
  /* the same on every rank (same dataset and arguments): every rank fails alike */
  if ((ret = cli_fanouts_resolve("bench", d, fanouts, &o.ablp.sampler)) ||
      (ab->split && (ret = split_anchors(d, ab->split, o.ablp.supervision_edge_type, &anchors,
                                         &n_anchors)))) {
    fo_dist_finalize(dd); /* before closing d: the server thread reads it until then */
    fo_dataset_close(d);
    MPI_Finalize();
    free(anchors);
    return ret;
  }
  o.input_nodes = anchors;
  o.n_input_nodes = n_anchors;
  fo_dist_loader_opts_init(&dlo);
  dlo.tail = (fo_dist_tail)tail;
  dlo.seed_placement = (fo_dist_seed_placement)seed_placement;
  dlo.cache_bytes = cache_bytes;
  dlo.cache_policy = (fo_dist_cache_policy)cache_policy;
  dlo.lookahead = lookahead;
  dlo.pipeline = pipeline;
  if ((rc = fo_dist_ablp_loader_create(dd, d, &o, &dlo, &L)) != FO_OK) goto fail;
  {
    char ev[24], bv[24];
    fo_dist_option same[3] = {{"epochs", ev}, {"batches", bv}, {"digest", digest ? "true" : "false"}};
    snprintf(ev, sizeof ev, "%lld", (long long)epochs);
    if (max_batches < 0) snprintf(bv, sizeof bv, "all");
    else snprintf(bv, sizeof bv, "%lld", (long long)max_batches);
    if ((rc = fo_dist_check_same(dd, "bench --dist", same, 3)) != FO_OK) goto fail;
  }
  t0 = cli_now_s();
  for (int64_t e = 0; e < epochs; e++) {
    if (e > 0 && (rc = fo_ablp_loader_start_epoch(L, lo->epoch + (uint64_t)e)) != FO_OK) goto fail;
    for (;;) {
      fo_ablp_loader_batch_t *b;
      fo_dist_batch_stats bs;
      int64_t *r, hreq = 0, hby = 0;
      if ((rc = fo_dist_status(dd)) != FO_OK) goto fail; /* another rank stopped the job */
      if ((rc = fo_ablp_loader_next(L, &b)) != FO_OK) goto fail;
      if (!b) break;
      if (max_batches >= 0 && b->index >= max_batches) continue;
      fo_dist_ablp_loader_stats(L, &bs);
      for (int h = 0; h < 64; h++) {
        hreq += bs.hop_requests[h];
        hby += bs.hop_bytes[h];
      }
      add_sums(sums, b);
      if (n_recs + R_LEN > cap_recs) {
        int64_t cap = cap_recs ? 2 * cap_recs : 256 * R_LEN, *nr = realloc(recs, (size_t)cap * sizeof *nr);
        if (!nr) {
          rc = fo_set_error(FO_ENOMEM, "bench: batch records");
          goto fail;
        }
        recs = nr;
        cap_recs = cap;
      }
      r = recs + n_recs;
      n_recs += R_LEN;
      r[R_EPOCH] = (int64_t)b->epoch;
      r[R_INDEX] = b->index;
      r[R_DIGEST] = digest ? (int64_t)fo_ablp_loader_batch_digest(b) : 0;
      r[R_AREQ] = bs.label_requests;
      r[R_ABYTES] = bs.label_bytes;
      r[R_HREQ] = hreq;
      r[R_HBYTES] = hby;
      r[R_FREQ] = bs.fetch_requests;
      r[R_FBYTES] = bs.fetch_bytes;
      r[R_CHITS] = bs.cache_hits;
      r[R_CSAVED] = bs.cache_bytes_saved;
      r[R_XREQ] = bs.ahead_requests; /* cache policy lookahead: its loader's requests */
      r[R_XBYTES] = bs.ahead_bytes;
    }
  }
  secs = cli_now_s() - t0;
  fo_ablp_loader_destroy(L);
  L = NULL;
  rc = fo_dist_finalize(dd);
  dd = NULL;
  if (rc != FO_OK) {
    told = true;
    goto fail;
  }
  mine = secs;
  MPI_Reduce(sums, tot, S_N, MPI_INT64_T, MPI_SUM, 0, world);
  MPI_Reduce(&mine, &secs, 1, MPI_DOUBLE, MPI_MAX, 0, world);
  {
    int n = (int)n_recs;
    if (rank == 0 && (!(counts = calloc((size_t)size, sizeof *counts)) ||
                      !(displs = calloc((size_t)size, sizeof *displs)))) {
      rc = fo_set_error(FO_ENOMEM, "bench: gather");
      goto fail;
    }
    MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, world);
    if (rank == 0) {
      int64_t total = 0;
      for (int q = 0; q < size; q++) {
        displs[q] = (int)total;
        total += counts[q];
      }
      if (!(all = malloc((size_t)(total ? total : 1) * sizeof *all))) {
        rc = fo_set_error(FO_ENOMEM, "bench: gather");
        goto fail;
      }
      n_recs = total;
    }
    MPI_Gatherv(recs, n, MPI_INT64_T, all, counts, displs, MPI_INT64_T, 0, world);
  }
  if (rank == 0) {
    const int64_t nb = n_recs / R_LEN;
    int64_t t[R_LEN] = {0}, max_areq = 0;
    uint64_t dg, *seq = malloc((size_t)(nb + 1) * sizeof *seq);
    if (!seq) {
      rc = fo_set_error(FO_ENOMEM, "bench: digest");
      goto fail;
    }
    qsort(all, (size_t)nb, R_LEN * sizeof *all, cmp_rec);
    for (int64_t i = 0; i < nb; i++) {
      seq[i] = (uint64_t)all[i * R_LEN + R_DIGEST];
      for (int k = R_AREQ; k < R_LEN; k++) t[k] += all[i * R_LEN + k];
      if (all[i * R_LEN + R_AREQ] > max_areq) max_areq = all[i * R_LEN + R_AREQ];
    }
    dg = fo_digest_sequence(seq, nb);
    free(seq);
    if (json) {
      print_head(path, d, &o, ab, "dist-ablp");
      printf(", \"ranks\": %d, \"tail\": \"%s\", \"seed_placement\": \"%s\"", size, tails[tail % 3],
             seed_placement ? "local" : "global");
      print_sums(tot, secs);
      printf(", \"remote_label_requests\": %lld, \"remote_label_bytes\": %lld, "
             "\"remote_label_requests_per_batch\": %.3f, \"remote_label_bytes_per_batch\": %.1f, "
             "\"remote_label_requests_max_batch\": %lld, \"remote_hop_requests\": %lld, "
             "\"remote_hop_bytes\": %lld, \"remote_fetch_requests\": %lld, \"remote_fetch_bytes\": %lld",
             (long long)t[R_AREQ], (long long)t[R_ABYTES], nb ? (double)t[R_AREQ] / (double)nb : 0.0,
             nb ? (double)t[R_ABYTES] / (double)nb : 0.0, (long long)max_areq, (long long)t[R_HREQ],
             (long long)t[R_HBYTES], (long long)t[R_FREQ], (long long)t[R_FBYTES]);
      printf(", \"pipeline\": %d", (int)pipeline);
      printf(", \"cache_bytes\": %lld, \"cache_hits\": %lld, \"cache_bytes_saved\": %lld, "
             "\"remote_fetch_bytes_per_batch\": %.1f, \"lookahead_requests\": %lld, "
             "\"lookahead_bytes\": %lld", (long long)cache_bytes, (long long)t[R_CHITS],
             (long long)t[R_CSAVED], nb ? (double)t[R_FBYTES] / (double)nb : 0.0,
             (long long)t[R_XREQ], (long long)t[R_XBYTES]);
      if (digest) printf(", \"digest\": \"%016llx\"", (unsigned long long)dg);
      printf("}\n");
    } else {
      printf("mode           distributed ABLP loader over %lld anchors: %d ranks\n",
             (long long)n_anchors, size);
      printf("batches        %lld (batch size %lld anchors)\n", (long long)nb, (long long)o.batch_size);
      printf("seconds        %.3f (slowest rank)\n", secs);
      printf("sampled edges  %lld\n", (long long)tot[S_EDGES]);
      printf("remote labels  %.2f requests, %.1f KiB per batch (at most %lld in one batch)\n",
             nb ? (double)t[R_AREQ] / (double)nb : 0.0,
             nb ? (double)t[R_ABYTES] / (double)nb / 1024.0 : 0.0, (long long)max_areq);
      if (digest) printf("digest         %016llx\n", (unsigned long long)dg);
    }
    fflush(stdout);
  }
  free(recs);
  free(all);
  free(counts);
  free(displs);
  free(anchors);
  fo_dataset_close(d);
  MPI_Finalize();
  return CLI_OK;
fail:
  if (dd) {
    char text[1100];
    snprintf(text, sizeof text, "%s", fo_last_error());
    if (!fo_dist_failed(dd, NULL)) (void)fo_dist_abort_status(dd, rc, text);
    fo_set_error(rc, text);
    told = true;
  }
  return rank_fail(rank, rc, told, deadline_s);
}
#endif
