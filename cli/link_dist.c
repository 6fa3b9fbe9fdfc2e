/*
 * cli/link_dist.c: `mpiexec -n R fanout bench PARTS --dist --edge-seeds-split [ET:]NAME ...`:
 * the distributed link loader (fo_dist_link_loader_create) over this rank's share of every
 * epoch; rank 0 prints one report with the digest of every batch in (epoch, index) order and
 * the link lookups' traffic per batch (remote LINK requests, bytes, rounds).
 */
#include "cli.h"

#include "fanout/dist.h"

#include <stdlib.h>
#include <string.h>

#ifndef FO_WITH_MPI
int cli_bench_link_dist(const char *path, const fo_dataset_opts *dopts, cli_fanouts *fanouts,
                        const fo_loader_opts *lo, cli_link_bench *lb, int64_t max_batches,
                        int64_t epochs, bool json, bool digest, int32_t procs_per_machine,
                        double deadline_s, int tail, int seed_placement,
                        int64_t cache_bytes, int cache_policy, int32_t lookahead,
                        int32_t pipeline) {
  (void)path, (void)dopts, (void)fanouts, (void)lo, (void)lb, (void)max_batches, (void)epochs,
      (void)json, (void)digest, (void)procs_per_machine, (void)deadline_s, (void)tail,
      (void)seed_placement, (void)cache_bytes, (void)cache_policy, (void)lookahead, (void)pipeline;
  return cli_fail(fo_set_error(FO_ENOSYS, "bench --dist: this fanout was built without MPI"));
}
#else
#include <mpi.h>
#include <time.h>

/* Per kept batch: epoch, index, digest, link requests, link bytes, link rounds, hop requests,
 * hop bytes, fetch requests, fetch bytes. */
enum { R_EPOCH, R_INDEX, R_DIGEST, R_LREQ, R_LBYTES, R_LROUNDS, R_HREQ, R_HBYTES, R_FREQ,
       R_FBYTES, R_CHITS, R_CSAVED, R_XREQ, R_XBYTES, R_LEN };
/* Summed over ranks. */
enum { S_BATCHES, S_SEEDS, S_NEG, S_MISSING, S_EXCL, S_NODES, S_EDGES, S_N };

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

int cli_bench_link_dist(const char *path, const fo_dataset_opts *dopts, cli_fanouts *fanouts,
                        const fo_loader_opts *lo, cli_link_bench *lb, int64_t max_batches,
                        int64_t epochs, bool json, bool digest, int32_t procs_per_machine,
                        double deadline_s, int tail, int seed_placement,
                        int64_t cache_bytes, int cache_policy, int32_t lookahead,
                        int32_t pipeline) {
  static const char *const tails[] = {"keep", "drop", "pad"};
  MPI_Comm world = MPI_COMM_WORLD;
  fo_dist_opts dop;
  fo_dist_loader_opts dlo;
  fo_link_loader_opts o;
  fo_dist_t *dd = NULL;
  fo_dataset_t *d = NULL;
  fo_link_loader_t *L = NULL;
  char *et_name = NULL;
  const char *split = NULL;
  int64_t *recs = NULL, n_recs = 0, cap_recs = 0, *all = NULL, sums[S_N], tot[S_N];
  int *counts = NULL, *displs = NULL;
  double mine[2], maxs[2], t0, secs;
  int provided = 0, rank = 0, size = 1, rc = FO_OK, ret;
  bool told = false;
  fo_edge_type ty;

  int64_t *ei = NULL;
  if (lb->split && (ret = cli_typed_arg("bench", "--edge-seeds-split", lb->split, &et_name, &split)))
    return ret;
  if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
    free(et_name);
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
    free(et_name);
    return CLI_FAIL;
  }
  fo_link_loader_opts_init(&o);
  o.link = lb->link;
  if (et_name) o.link.edge_type = et_name;
  o.batch_size = lo->batch_size;
  o.shuffle = lo->shuffle;
  o.drop_last = lo->drop_last;
  o.epoch = lo->epoch;
  o.features = lo->features;
  o.edge_split = split;
  if ((ret = cli_link_seed_edges("bench", lb->edges, &o, &ei))) {
    fo_dist_finalize(dd);
    MPI_Finalize();
    free(et_name);
    return ret;
  }
  t0 = cli_now_s();
  if ((rc = fo_dist_open_dataset(dd, path, dopts, &d)) != FO_OK) goto fail;
  mine[1] = cli_now_s() - t0;
  o.link.sampler = lo->sampler;
  if ((ret = cli_fanouts_resolve("bench", d, fanouts, &o.link.sampler))) {
    /* the same on every rank (same dataset and arguments): every rank fails alike */
    fo_dist_finalize(dd); /* before closing d: the server thread reads it until then */
    fo_dataset_close(d);
    MPI_Finalize();
    free(et_name);
    free(ei);
    return ret;
  }
  fo_dist_loader_opts_init(&dlo);
  dlo.tail = (fo_dist_tail)tail;
  dlo.seed_placement = (fo_dist_seed_placement)seed_placement;
  dlo.cache_bytes = cache_bytes;
  dlo.cache_policy = (fo_dist_cache_policy)cache_policy;
  dlo.lookahead = lookahead;
  dlo.pipeline = pipeline;
  if ((rc = fo_dist_link_loader_create(dd, d, &o, &dlo, &L)) != FO_OK) goto fail;
  {
    char ev[24], bv[24];
    fo_dist_option same[3] = {{"epochs", ev}, {"batches", bv}, {"digest", digest ? "true" : "false"}};
    snprintf(ev, sizeof ev, "%lld", (long long)epochs);
    if (max_batches < 0) snprintf(bv, sizeof bv, "all");
    else snprintf(bv, sizeof bv, "%lld", (long long)max_batches);
    if ((rc = fo_dist_check_same(dd, "bench --dist", same, 3)) != FO_OK) goto fail;
  }
  memset(sums, 0, sizeof sums);
  t0 = cli_now_s();
  for (int64_t e = 0; e < epochs; e++) {
    if (e > 0 && (rc = fo_link_loader_start_epoch(L, lo->epoch + (uint64_t)e)) != FO_OK) goto fail;
    for (;;) {
      fo_link_loader_batch_t *b;
      fo_dist_batch_stats bs;
      int64_t *r, hreq = 0, hby = 0;
      if ((rc = fo_dist_status(dd)) != FO_OK) goto fail; /* another rank stopped the job */
      if ((rc = fo_link_loader_next(L, &b)) != FO_OK) goto fail;
      if (!b) break;
      if (max_batches >= 0 && b->index >= max_batches) continue;
      fo_dist_link_loader_stats(L, &bs);
      for (int h = 0; h < 64; h++) {
        hreq += bs.hop_requests[h];
        hby += bs.hop_bytes[h];
      }
      sums[S_BATCHES]++;
      sums[S_SEEDS] += b->link->n_pos;
      sums[S_NEG] += b->link->n_neg;
      sums[S_MISSING] += b->link->n_neg_missing;
      sums[S_EXCL] += b->link->n_excluded;
      sums[S_NODES] += b->link->sample->n_nodes;
      sums[S_EDGES] += b->link->sample->n_edges;
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
      r[R_DIGEST] = digest ? (int64_t)fo_link_loader_batch_digest(b) : 0;
      r[R_LREQ] = bs.link_requests;
      r[R_LBYTES] = bs.link_bytes;
      r[R_LROUNDS] = bs.link_rounds;
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
  fo_dataset_edge_type(d, fo_link_loader_edge_type(L), &ty);
  fo_link_loader_destroy(L);
  L = NULL;
  rc = fo_dist_finalize(dd);
  dd = NULL;
  if (rc != FO_OK) {
    told = true;
    goto fail;
  }
  mine[0] = secs;
  MPI_Reduce(sums, tot, S_N, MPI_INT64_T, MPI_SUM, 0, world);
  MPI_Reduce(mine, maxs, 2, MPI_DOUBLE, MPI_MAX, 0, world);
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
    int64_t t[R_LEN] = {0}, max_lreq = 0;
    uint64_t dg = 0, *seq = malloc((size_t)(nb + 1) * sizeof *seq);
    const double s = maxs[0];
    if (!seq) {
      rc = fo_set_error(FO_ENOMEM, "bench: digest");
      goto fail;
    }
    qsort(all, (size_t)nb, R_LEN * sizeof *all, cmp_rec);
    for (int64_t i = 0; i < nb; i++) {
      seq[i] = (uint64_t)all[i * R_LEN + R_DIGEST];
      for (int k = R_LREQ; k < R_LEN; k++) t[k] += all[i * R_LEN + k];
      if (all[i * R_LEN + R_LREQ] > max_lreq) max_lreq = all[i * R_LEN + R_LREQ];
    }
    dg = fo_digest_sequence(seq, nb);
    free(seq);
    if (json) {
      printf("{\"dataset\": ");
      cli_json_string(stdout, path, strlen(path));
      printf(", \"mode\": \"dist-link\", \"edge_type\": ");
      cli_json_string(stdout, ty.name, strlen(ty.name));
      printf(", \"edge_split\": ");
      if (split) cli_json_string(stdout, split, strlen(split));
      else printf("null");
      printf(", \"neg\": \"%s\", \"neg_amount\": %g, \"strict\": %s, \"exclude_seed_edges\": %s, "
             "\"ranks\": %d, \"tail\": \"%s\", \"seed_placement\": \"%s\", \"seed\": %llu, "
             "\"epochs\": %lld, \"batch_size\": %lld, \"batches\": %lld, \"seconds\": %.6f, "
             "\"open_seconds\": %.6f, \"seed_edges\": %lld, \"num_neg\": %lld, "
             "\"num_neg_missing\": %lld, \"num_excluded\": %lld, \"sampled_nodes\": %lld, "
             "\"sampled_edges\": %lld, \"edges_per_s\": %.1f",
             o.link.neg == FO_NEG_BINARY ? "binary" : o.link.neg == FO_NEG_TRIPLET ? "triplet" : "none",
             o.link.neg == FO_NEG_NONE ? 0.0 : o.link.neg_amount, o.link.strict ? "true" : "false",
             o.link.exclude_seed_edges ? "true" : "false", size, tails[tail % 3],
             seed_placement ? "local" : "global", (unsigned long long)o.link.sampler.seed,
             (long long)epochs, (long long)o.batch_size, (long long)nb, s, maxs[1],
             (long long)tot[S_SEEDS], (long long)tot[S_NEG], (long long)tot[S_MISSING],
             (long long)tot[S_EXCL], (long long)tot[S_NODES], (long long)tot[S_EDGES],
             s > 0 ? (double)tot[S_EDGES] / s : 0.0);
      printf(", \"remote_link_requests\": %lld, \"remote_link_bytes\": %lld, "
             "\"remote_link_rounds\": %lld, \"remote_link_requests_per_batch\": %.3f, "
             "\"remote_link_bytes_per_batch\": %.3f, \"remote_link_requests_max_batch\": %lld, "
             "\"remote_hop_requests\": %lld, \"remote_hop_bytes\": %lld, "
             "\"remote_fetch_requests\": %lld, \"remote_fetch_bytes\": %lld",
             (long long)t[R_LREQ], (long long)t[R_LBYTES], (long long)t[R_LROUNDS],
             nb ? (double)t[R_LREQ] / (double)nb : 0.0, nb ? (double)t[R_LBYTES] / (double)nb : 0.0,
             (long long)max_lreq, (long long)t[R_HREQ], (long long)t[R_HBYTES],
             (long long)t[R_FREQ], (long long)t[R_FBYTES]);
      printf(", \"pipeline\": %d", (int)pipeline);
      printf(", \"cache_bytes\": %lld, \"cache_hits\": %lld, \"cache_bytes_saved\": %lld, "
             "\"remote_fetch_bytes_per_batch\": %.1f, \"lookahead_requests\": %lld, "
             "\"lookahead_bytes\": %lld", (long long)cache_bytes, (long long)t[R_CHITS],
             (long long)t[R_CSAVED], nb ? (double)t[R_FBYTES] / (double)nb : 0.0,
             (long long)t[R_XREQ], (long long)t[R_XBYTES]);
      printf(", \"per_batch\": [");
      for (int64_t i = 0; i < nb; i++) {
        const int64_t *r = all + i * R_LEN;
        printf("%s{\"epoch\": %lld, \"index\": %lld, \"remote_link_requests\": %lld, "
               "\"remote_link_bytes\": %lld, \"remote_link_rounds\": %lld}", i ? ", " : "",
               (long long)r[R_EPOCH], (long long)r[R_INDEX], (long long)r[R_LREQ],
               (long long)r[R_LBYTES], (long long)r[R_LROUNDS]);
      }
      printf("]");
      if (digest) printf(", \"digest\": \"%016llx\"", (unsigned long long)dg);
      printf("}\n");
    } else {
      printf("mode           distributed link loader over %s '%s' of %s: %d ranks\n",
             split ? "edge split" : "seed edges", split ? split : lb->edges, ty.name, size);
      printf("batches        %lld (batch size %lld seed edges)\n", (long long)nb, (long long)o.batch_size);
      printf("seconds        %.3f (slowest rank)\n", s);
      printf("sampled edges  %lld\n", (long long)tot[S_EDGES]);
      printf("remote link    %.2f requests, %.1f KiB per batch (at most %lld in one batch)\n",
             nb ? (double)t[R_LREQ] / (double)nb : 0.0,
             nb ? (double)t[R_LBYTES] / (double)nb / 1024.0 : 0.0, (long long)max_lreq);
      if (digest) printf("digest         %016llx\n", (unsigned long long)dg);
    }
    fflush(stdout);
  }
  free(recs);
  free(all);
  free(counts);
  free(displs);
  free(et_name);
  free(ei);
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
