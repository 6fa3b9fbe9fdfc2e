/*
 * bench/link.c (fanout-link-bench): link sampling against node sampling, one thread
 * (BENCHMARKS.md, "Link prediction"). usage: fanout-link-bench DIR [BATCHES] [RUNS]
 *
 * Each batch: 1024 seed edges drawn uniformly from the dataset's edges (fixed seed), fanouts
 * [15, 10, 5]. Modes, interleaved per run, each over the same batches:
 *   node      fo_sampler_sample on the link batch's own node seeds (the deduplicated
 *             endpoints of the positives and of binary 1:1 strict negatives), so the sampled
 *             edges are the same work;
 *   link      the link sampler, binary 1:1, non-strict, no exclusion;
 *   strict    binary 1:1 strict;
 *   exclude   binary 1:1 non-strict with exclude_seed_edges;
 *   both      strict + exclude.
 * Prints per mode the median over runs of ns per sampled edge and of sampled edges per second.
 * A fourth argument names one mode to run alone (for callgrind: bench/link.sh CALLGRIND=1).
 */
#include <fanout/fanout.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#define B 1024
#define MODES 5

int main(int argc, char **argv) {
  static const char *names[MODES] = {"node", "link", "strict", "exclude", "both"};
  const int nb = argc > 2 ? atoi(argv[2]) : 64, runs = argc > 3 ? atoi(argv[3]) : 5;
  const char *only = argc > 4 ? argv[4] : NULL;
  int32_t f[3] = {15, 10, 5};
  fo_dataset_t *d;
  fo_topology t;
  int64_t *src, *dst, *tm, **seeds, *nseeds;
  /* FO_LINK_TEMPORAL=uniform|last: the link modes temporal (edge time), each seed edge at its
   * own time (the dataset needs edge times: fanout-rmat --times); the node mode stays plain */
  const char *tenv = getenv("FO_LINK_TEMPORAL");
  const fo_temporal_strategy temporal = !tenv || !*tenv ? FO_TEMPORAL_NONE
                                        : !strcmp(tenv, "last") ? FO_TEMPORAL_LAST
                                                                : FO_TEMPORAL_UNIFORM;
  double ns[MODES][32], eps[MODES][32];
  int64_t nedges[MODES] = {0}; /* sampled edges of one run (all batches) per mode */
  fo_link_sampler_t *ls[MODES] = {0};
  fo_link_batch_t *lb;
  fo_sampler_t *s;
  fo_batch_t *b;
  uint64_t st = 88172645463325252ull;
  if (argc < 2 || runs > 32) {
    fprintf(stderr, "usage: fanout-link-bench DIR [BATCHES] [RUNS<=32]\n");
    return 2;
  }
  if (fo_dataset_open(argv[1], NULL, &d) || fo_dataset_topology(d, FO_EDGE_DIR_IN, &t)) {
    fprintf(stderr, "%s\n", fo_last_error());
    return 1;
  }
  src = malloc((size_t)nb * B * 8);
  dst = malloc((size_t)nb * B * 8);
  tm = malloc((size_t)nb * B * 8);
  if (temporal != FO_TEMPORAL_NONE && !t.time) {
    fprintf(stderr, "FO_LINK_TEMPORAL: '%s' stores no edge times (fanout-rmat --times)\n", argv[1]);
    return 1;
  }
  seeds = calloc((size_t)nb, sizeof *seeds);
  nseeds = calloc((size_t)nb, sizeof *nseeds);
  for (int64_t i = 0; i < (int64_t)nb * B; i++) {
    int64_t p, lo = 0, hi = t.n_rows;
    st ^= st << 13, st ^= st >> 7, st ^= st << 17;
    p = (int64_t)(st % (uint64_t)t.n_edges);
    while (hi - lo > 1) { /* the row holding position p */
      int64_t mid = (lo + hi) / 2;
      if (t.indptr[mid] <= p) lo = mid;
      else hi = mid;
    }
    src[i] = t.indices_bytes == 4 ? ((const int32_t *)t.indices)[p] : ((const int64_t *)t.indices)[p];
    dst[i] = lo;
    tm[i] = t.time ? t.time[p] : 0;
  }
  for (int m = 1; m < MODES; m++) {
    fo_link_opts o;
    fo_link_opts_init(&o);
    o.sampler.fanouts = f;
    o.sampler.n_hops = 3;
    o.sampler.seed = 1;
    o.neg = FO_NEG_BINARY;
    o.neg_amount = 1;
    o.strict = m == 2 || m == 4;
    o.exclude_seed_edges = m >= 3;
    o.sampler.temporal = temporal;
    if (fo_link_sampler_create(d, &o, &ls[m])) {
      fprintf(stderr, "%s\n", fo_last_error());
      return 1;
    }
  }
  {
    fo_sampler_opts so;
    fo_sampler_opts_init(&so);
    so.fanouts = f;
    so.n_hops = 3;
    so.seed = 1;
    fo_sampler_create(d, &so, &s);
  }
  fo_link_batch_create(&lb);
  fo_batch_create(&b);
  /* the node mode's seeds: each batch's strict link seeds */
  for (int k = 0; k < nb && (!only || !strcmp(only, "node")); k++) {
    fo_link_sampler_sample_at(ls[2], src + (int64_t)k * B, dst + (int64_t)k * B, NULL,
                              temporal ? tm + (int64_t)k * B : NULL, B, 0, (uint64_t)k, lb);
    nseeds[k] = lb->sample->n_seeds;
    seeds[k] = malloc((size_t)nseeds[k] * 8);
    memcpy(seeds[k], lb->sample->node, (size_t)nseeds[k] * 8);
  }
  for (int r = 0; r < runs; r++)
    for (int m = 0; m < MODES; m++) {
      int64_t edges = 0;
      if (only && strcmp(only, names[m])) {
        ns[m][r] = eps[m][r] = 0;
        continue;
      }
      double t0 = now(), dt;
      for (int k = 0; k < nb; k++) {
        int rc = m == 0 ? fo_sampler_sample(s, seeds[k], nseeds[k], 0, (uint64_t)k, b)
                        : fo_link_sampler_sample_at(ls[m], src + (int64_t)k * B, dst + (int64_t)k * B,
                                                    NULL, temporal ? tm + (int64_t)k * B : NULL, B,
                                                    0, (uint64_t)k, lb);
        if (rc) {
          fprintf(stderr, "%s\n", fo_last_error());
          return 1;
        }
        edges += m == 0 ? b->n_edges : lb->sample->n_edges;
      }
      dt = now() - t0;
      nedges[m] = edges;
      ns[m][r] = dt * 1e9 / (double)edges;
      eps[m][r] = (double)edges / dt;
    }
  printf("{\"dataset\": \"%s\", \"batches\": %d, \"runs\": %d, \"seed_edges\": %d", argv[1], nb, runs, B);
  for (int m = 0; m < MODES; m++) {
    qsort(ns[m], (size_t)runs, sizeof(double), cmpd);
    qsort(eps[m], (size_t)runs, sizeof(double), cmpd);
    printf(", \"%s\": {\"ns_per_edge\": %.2f, \"edges_per_s\": %.0f, \"edges\": %lld}", names[m],
           ns[m][runs / 2], eps[m][runs / 2], (long long)nedges[m]);
  }
  printf("}\n");
  for (int m = 1; m < MODES; m++) fo_link_sampler_destroy(ls[m]);
  for (int k = 0; k < nb; k++) free(seeds[k]); /* free(NULL) when not made */
  free(seeds);
  free(nseeds);
  free(src);
  free(dst);
  fo_link_batch_destroy(lb);
  fo_batch_destroy(b);
  fo_sampler_destroy(s);
  fo_dataset_close(d);
  return 0;
}
