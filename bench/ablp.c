/*
 * bench/ablp.c (fanout-ablp-bench): an ABLP batch against the link batch of the same positive
 * label pairs and against the node batch of the same seeds, one thread (BENCHMARKS.md, "ABLP").
 * usage: fanout-ablp-bench DIR [BATCHES] [RUNS]
 *
 * DIR: a typed dataset with one positive labels-only edge type A__r__L (bench/ablp.sh makes
 * DBLP with a held-out tenth of paper-author edges) and a traversed edge type from A to L (the
 * link batch's edge type). Each batch: 256 anchors (A nodes with at least one positive, in
 * order), fanouts [15, 10]. Modes, interleaved per run, each over the same batches:
 *   node   fo_sampler_sample_hetero on the ABLP batch's own seeds (same sampled edges);
 *   ablp   the ABLP sampler, one strict random negative per anchor;
 *   link   the link sampler on the anchors' positive pairs as seed edges, binary 1:1 strict
 *          (one negative per positive; positives >= anchors, so it samples more).
 * Prints per mode the median over runs of microseconds per batch and ns per sampled edge.
 * A fourth argument names one mode to run alone (for callgrind: bench/ablp.sh CALLGRIND=1, which
 * runs valgrind --collect-atstart=no: the timed calls toggle collection themselves, as
 * --toggle-collect on a function name miscounts calls through the library's PLT).
 */
#include <fanout/fanout.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h> /* CALLGRIND_TOGGLE_COLLECT around each timed call */
#else
#define CALLGRIND_TOGGLE_COLLECT
#endif

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#define NA 256
#define MODES 3

int main(int argc, char **argv) {
  static const char *names[MODES] = {"node", "ablp", "link"};
  const int nb = argc > 2 ? atoi(argv[2]) : 16, runs = argc > 3 ? atoi(argv[3]) : 5;
  const char *only = argc > 4 ? argv[4] : NULL;
  int32_t f[2] = {15, 10};
  fo_dataset_t *d;
  fo_edge_type lt, ty;
  fo_topology csr;
  int64_t *anchors, n_anchors = 0, **src, **dst, *npos, ***seeds, **nseeds;
  double us[MODES][32], nse[MODES][32], epb[MODES] = {0};
  fo_ablp_opts ao;
  fo_link_opts lo;
  fo_ablp_sampler_t *as;
  fo_link_sampler_t *ls;
  fo_sampler_t *s;
  fo_ablp_batch_t *ab;
  fo_link_batch_t *lb;
  fo_batch_t *b;
  char link_et[512] = "";
  if (argc < 2 || runs > 32) {
    fprintf(stderr, "usage: fanout-ablp-bench DIR [BATCHES] [RUNS<=32]\n");
    return 2;
  }
  if (fo_dataset_open(argv[1], NULL, &d) || fo_dataset_label_edge_type(d, 0, &lt) ||
      fo_dataset_label_edge_topology(d, 0, FO_EDGE_DIR_OUT, &csr)) {
    fprintf(stderr, "%s\n", fo_last_error());
    return 1;
  }
  for (int32_t et = 0; et < fo_dataset_num_edge_types(d); et++) {
    fo_dataset_edge_type(d, et, &ty);
    if (ty.src_type == lt.src_type && ty.dst_type == lt.dst_type) snprintf(link_et, sizeof link_et, "%s", ty.name);
  }
  anchors = malloc((size_t)nb * NA * sizeof *anchors);
  src = calloc((size_t)nb, sizeof *src);
  dst = calloc((size_t)nb, sizeof *dst);
  npos = calloc((size_t)nb, sizeof *npos);
  for (int64_t a = 0; a < csr.n_rows && n_anchors < (int64_t)nb * NA; a++)
    if (csr.indptr[a + 1] > csr.indptr[a]) anchors[n_anchors++] = a;
  if (n_anchors < (int64_t)nb * NA || !link_et[0]) {
    fprintf(stderr, "need %d anchors with positives and an edge type from %s to %s\n", nb * NA,
            lt.src, lt.dst);
    return 1;
  }
  for (int k = 0; k < nb; k++) {
    const int64_t *A = anchors + (int64_t)k * NA;
    int64_t m = 0;
    for (int i = 0; i < NA; i++) m += csr.indptr[A[i] + 1] - csr.indptr[A[i]];
    src[k] = malloc((size_t)m * 8);
    dst[k] = malloc((size_t)m * 8);
    m = 0;
    for (int i = 0; i < NA; i++)
      for (int64_t p = csr.indptr[A[i]]; p < csr.indptr[A[i] + 1]; p++, m++) {
        src[k][m] = A[i];
        dst[k][m] = csr.indices_bytes == 4 ? ((const int32_t *)csr.indices)[p] : ((const int64_t *)csr.indices)[p];
      }
    npos[k] = m;
  }
  fo_ablp_opts_init(&ao);
  ao.sampler.fanouts = f;
  ao.sampler.n_hops = 2;
  ao.num_random_negatives = 1;
  fo_link_opts_init(&lo);
  lo.sampler = ao.sampler;
  lo.edge_type = link_et;
  lo.neg = FO_NEG_BINARY;
  lo.neg_amount = 1;
  if (fo_ablp_sampler_create(d, &ao, &as) || fo_link_sampler_create(d, &lo, &ls) ||
      fo_sampler_create(d, &ao.sampler, &s) || fo_ablp_batch_create(&ab) ||
      fo_link_batch_create(&lb) || fo_batch_create(&b)) {
    fprintf(stderr, "%s\n", fo_last_error());
    return 1;
  }
  /* the node mode's seeds: each ABLP batch's own, made once */
  seeds = calloc((size_t)nb, sizeof *seeds);
  nseeds = calloc((size_t)nb, sizeof *nseeds);
  for (int k = 0; k < nb; k++) {
    const int32_t T = fo_dataset_num_node_types(d);
    if (fo_ablp_sampler_sample(as, anchors + (int64_t)k * NA, NA, 0, (uint64_t)k, ab)) return 1;
    seeds[k] = calloc((size_t)T, sizeof **seeds);
    nseeds[k] = calloc((size_t)T, sizeof **nseeds);
    for (int32_t ti = 0; ti < T; ti++) {
      const fo_batch_t *nbt = fo_batch_node_type(ab->sample, ti);
      nseeds[k][ti] = nbt->n_seeds;
      seeds[k][ti] = malloc((size_t)(nbt->n_seeds + 1) * 8);
      memcpy(seeds[k][ti], nbt->node, (size_t)nbt->n_seeds * 8);
    }
  }
  for (int r = 0; r < runs; r++)
    for (int m = 0; m < MODES; m++) {
      double t = 0;
      int64_t edges = 0;
      if (only && strcmp(only, names[m])) continue;
      for (int k = 0; k < nb; k++) {
        double t0;
        int rc;
        if (m == 0) {
          t0 = now();
          CALLGRIND_TOGGLE_COLLECT;
          rc = fo_sampler_sample_hetero(s, (const int64_t *const *)seeds[k], nseeds[k], 0, (uint64_t)k, b);
          CALLGRIND_TOGGLE_COLLECT;
          t += now() - t0;
          edges += b->n_edges;
        } else if (m == 1) {
          t0 = now();
          CALLGRIND_TOGGLE_COLLECT;
          rc = fo_ablp_sampler_sample(as, anchors + (int64_t)k * NA, NA, 0, (uint64_t)k, ab);
          CALLGRIND_TOGGLE_COLLECT;
          t += now() - t0;
          edges += ab->sample->n_edges;
        } else {
          t0 = now();
          CALLGRIND_TOGGLE_COLLECT;
          rc = fo_link_sampler_sample(ls, src[k], dst[k], NULL, npos[k], 0, (uint64_t)k, lb);
          CALLGRIND_TOGGLE_COLLECT;
          t += now() - t0;
          edges += lb->sample->n_edges;
        }
        if (rc) {
          fprintf(stderr, "%s: %s\n", names[m], fo_last_error());
          return 1;
        }
      }
      us[m][r] = t / nb * 1e6;
      epb[m] = (double)edges / nb;
      nse[m][r] = t / (double)edges * 1e9;
      if (r == 0 && m == 2) {
        int64_t tot = 0;
        for (int k = 0; k < nb; k++) tot += npos[k];
        fprintf(stderr, "link: %.1f positive pairs per batch of %d anchors\n", (double)tot / nb, NA);
      }
    }
  printf("{");
  for (int m = 0, first = 1; m < MODES; m++) {
    if (only && strcmp(only, names[m])) continue;
    qsort(us[m], (size_t)runs, sizeof us[m][0], cmpd);
    qsort(nse[m], (size_t)runs, sizeof nse[m][0], cmpd);
    printf("%s\"%s\": {\"us_per_batch\": %.1f, \"ns_per_edge\": %.1f, \"edges_per_batch\": %.0f}",
           first ? "" : ", ", names[m], us[m][runs / 2], nse[m][runs / 2], epb[m]);
    first = 0;
  }
  printf("}\n");
  return 0;
}
