/*
 * tests/prop/test_sampler_dist.c: distribution tests (Pearson chi-square) of every random mode
 * of the sampler and of fo_random_permutation.
 *
 * A draw is a pure function of (seed, epoch, batch index, hop, node[, seed index]), so
 * independent samples come from varying the batch index (or the epoch, or the user seed) with
 * everything else fixed. The seeds of these tests are fixed: each test is deterministic.
 *
 * Bound: a table of counts is rejected when its statistic exceeds df + 6 * sqrt(2 * df), i.e.
 * six standard deviations of the chi-square distribution above its mean (loose: the false-alarm
 * probability is below about 1e-5 for the df used here, so a correct sampler never trips it,
 * while a real bias of a few percent over >= 1000 expected counts per cell does). Every check
 * also proves that it CAN fail: the observed table with one cell doubled must be rejected (so the
 * number of draws is large enough to see such a bias), and chi2_helper_self_test pins the helper
 * itself on tables whose statistic is known.
 */
#include "support.h"

#include <math.h>

/* ---- chi-square helpers -------------------------------------------------------------------- */

static double chi2_bound(int64_t df) { return (double)df + 6.0 * sqrt(2.0 * (double)df); }

/* Pearson statistic of counts c[0..n) against cell probabilities prob[0..n) (NULL: uniform);
 * the expected count of cell i is total * prob[i]. */
static double chi2_stat(const int64_t *c, const double *prob, int64_t n) {
  double total = 0, stat = 0;
  for (int64_t i = 0; i < n; i++) total += (double)c[i];
  for (int64_t i = 0; i < n; i++) {
    double e = total * (prob ? prob[i] : 1.0 / (double)n);
    stat += ((double)c[i] - e) * ((double)c[i] - e) / e;
  }
  return stat;
}

static double chi2_uniform(const int64_t *c, int64_t n) { return chi2_stat(c, NULL, n); }

static bool uniform_rejected(const int64_t *c, int64_t n) {
  return chi2_uniform(c, n) > chi2_bound(n - 1);
}

/* counts must fit the probabilities (NULL: uniform); the same table with cell 0 doubled must
 * not (so that the test can fail). */
static void assert_fits(const char *what, const int64_t *c, const double *prob, int64_t n) {
  int64_t *biased = malloc((size_t)n * sizeof *biased);
  double stat = chi2_stat(c, prob, n);
  printf("%-56s chi2 %9.3f df %4lld bound %7.1f\n", what, stat, (long long)(n - 1),
         chi2_bound(n - 1));
  if (stat > chi2_bound(n - 1))
    fail_msg("%s: chi2 = %.1f > %.1f (df %lld): not the expected distribution", what, stat,
             chi2_bound(n - 1), (long long)(n - 1));
  memcpy(biased, c, (size_t)n * sizeof *biased);
  biased[0] = 2 * biased[0];
  if (chi2_stat(biased, prob, n) <= chi2_bound(n - 1))
    fail_msg("%s: a doubled cell (chi2 %.1f) is not rejected: too few draws", what,
             chi2_stat(biased, prob, n));
  free(biased);
}

static void assert_uniform(const char *what, const int64_t *c, int64_t n) {
  assert_fits(what, c, NULL, n);
}

/*
 * Per-leaf inclusion counts inc[0..k) of T uniform f-subsets of k leaves. Each leaf is in a
 * subset with p = f / k; the counts are exchangeable with a fixed sum (T f), and their
 * covariance is T p (1-p) k/(k-1) (I - J/k), so
 *   stat = (k-1)/k * sum (inc_i - T p)^2 / (T p (1-p))
 * is asymptotically chi-square with k - 1 degrees of freedom.
 */
static double chi2_inclusion(const int64_t *inc, int64_t k, int64_t f, int64_t T) {
  double p = (double)f / (double)k, e = (double)T * p, v = e * (1 - p), stat = 0;
  for (int64_t i = 0; i < k; i++) stat += ((double)inc[i] - e) * ((double)inc[i] - e) / v;
  return stat * (double)(k - 1) / (double)k;
}

static void assert_inclusion(const char *what, const int64_t *inc, int64_t k, int64_t f, int64_t T) {
  int64_t *biased = malloc((size_t)k * sizeof *biased);
  double stat = chi2_inclusion(inc, k, f, T);
  printf("%-56s chi2 %9.3f df %4lld bound %7.1f\n", what, stat, (long long)(k - 1),
         chi2_bound(k - 1));
  if (stat > chi2_bound(k - 1))
    fail_msg("%s: inclusion chi2 = %.1f > %.1f (df %lld): leaves not equally likely", what, stat,
             chi2_bound(k - 1), (long long)(k - 1));
  memcpy(biased, inc, (size_t)k * sizeof *biased);
  biased[0] = 2 * biased[0];
  if (chi2_inclusion(biased, k, f, T) <= chi2_bound(k - 1))
    fail_msg("%s: a doubled cell is not rejected: too few draws", what);
  free(biased);
}

/* The helpers themselves: known statistics, and both verdicts reachable. */
static void chi2_helper_self_test(void **state) {
  static const int64_t flat[4] = {1000, 1000, 1000, 1000};
  static const int64_t known[3] = {10, 20, 30};         /* e = 20: (100 + 0 + 100) / 20 = 10 */
  static const int64_t inc_exact[4] = {500, 500, 500, 500}; /* T = 1000, f = 2, k = 4 */
  int64_t table[20];
  (void)state;
  assert_true(fabs(chi2_uniform(flat, 4)) < 1e-12);
  assert_true(fabs(chi2_uniform(known, 3) - 10.0) < 1e-9);
  assert_true(fabs(chi2_bound(2) - (2 + 12.0)) < 1e-9);
  assert_false(uniform_rejected(flat, 4));
  assert_true(fabs(chi2_inclusion(inc_exact, 4, 2, 1000)) < 1e-12);
  /* 20 cells of 2000, one off by 10%: (200^2 / ~2010) ~ 20 < bound 19 + 37 = 56: accepted;
   * one doubled: ~1800 > 56: rejected. */
  for (int i = 0; i < 20; i++) table[i] = 2000;
  table[3] = 2200;
  assert_false(uniform_rejected(table, 20));
  table[3] = 4000;
  assert_true(uniform_rejected(table, 20));
}

/* ---- fixtures and sampling ----------------------------------------------------------------- */

typedef struct graph {
  fot_edges e;
  char *dir;
  fo_dataset_t *d;
} graph;

static void graph_open(graph *g) { fot_dataset(&g->e, true, true, FO_INDEX_AUTO, &g->dir, &g->d); }

static void graph_close(graph *g) {
  fo_dataset_close(g->d);
  fot_rmtree(g->dir);
  fot_edges_free(&g->e);
}

/* Which axis of the random key gives independent samples. */
typedef enum axis { AXIS_BATCH, AXIS_EPOCH, AXIS_SEED } axis;
static const char *const axis_name[] = {"batch index", "epoch", "seed"};

typedef struct drawer {
  const fo_dataset_t *d;
  fo_sampler_opts o;
  axis ax;
  fo_sampler_t *s;
  fo_batch_t *b;
} drawer;

static void drawer_init(drawer *dr, const fo_dataset_t *d, const fo_sampler_opts *o, axis ax) {
  dr->d = d;
  dr->o = *o;
  dr->ax = ax;
  dr->s = NULL;
  assert_fo_ok(fo_batch_create(&dr->b));
  if (ax != AXIS_SEED) assert_fo_ok(fo_sampler_create(d, o, &dr->s));
}

static void drawer_fini(drawer *dr) {
  fo_sampler_destroy(dr->s);
  fo_batch_destroy(dr->b);
}

/* Sample number i (an independent sample along the drawer's axis). */
static const fo_batch_t *drawer_sample(drawer *dr, const int64_t *seeds, int64_t n_seeds, uint64_t i) {
  uint64_t epoch = 3, bi = 5;
  if (dr->ax == AXIS_BATCH) bi = i;
  if (dr->ax == AXIS_EPOCH) epoch = i;
  if (dr->ax == AXIS_SEED) {
    fo_sampler_destroy(dr->s);
    dr->o.seed = i;
    assert_fo_ok(fo_sampler_create(dr->d, &dr->o, &dr->s));
  }
  assert_fo_ok(fo_sampler_sample(dr->s, seeds, n_seeds, epoch, bi, dr->b));
  return dr->b;
}

/* C(n, r) for small arguments (exact in uint64 for n <= 62). */
static uint64_t binom(int64_t n, int64_t r) {
  uint64_t c = 1;
  if (r < 0 || r > n) return 0;
  if (r > n - r) r = n - r;
  for (int64_t i = 1; i <= r; i++) c = c * (uint64_t)(n - r + i) / (uint64_t)i;
  return c;
}

/* Rank of a subset (in[c]: leaf c is in it, c < k) in the combinatorial number system: the
 * members c_1 < c_2 < ... < c_f give sum_j C(c_j, j), a bijection onto [0, C(k, f)). */
static uint64_t subset_rank(const bool *in, int64_t k) {
  uint64_t rank = 0;
  int64_t j = 0;
  for (int64_t c = 0; c < k; c++)
    if (in[c]) rank += binom(c, ++j);
  return rank;
}

static uint64_t mask_rank(uint64_t mask) {
  bool in[64];
  for (int c = 0; c < 64; c++) in[c] = mask >> c & 1;
  return subset_rank(in, 64);
}

/* ---- without replacement ------------------------------------------------------------------- */

/* Star with k leaves; seeds {0} (the center); fanout f < k without replacement: every leaf is
 * included with frequency f/k and every one of the C(k, f) subsets is equally frequent. */
static void subsets_case(int64_t k, int32_t f, fo_edge_dir dir, axis ax, int64_t per_cell) {
  static const int64_t seeds[] = {0};
  graph g;
  drawer dr;
  fo_sampler_opts o;
  uint64_t n_cells = binom(k, f);
  int64_t T = (int64_t)n_cells * per_cell, *cells = calloc(n_cells, sizeof *cells);
  int64_t *inc = calloc((size_t)k, sizeof *inc);
  bool *in = calloc((size_t)k, sizeof *in);
  char what[128];
  fot_star(k, &g.e);
  graph_open(&g);
  fo_sampler_opts_init(&o);
  o.fanouts = &f;
  o.n_hops = 1;
  o.edge_dir = dir;
  drawer_init(&dr, g.d, &o, ax);
  for (int64_t t = 0; t < T; t++) {
    const fo_batch_t *b = drawer_sample(&dr, seeds, 1, (uint64_t)t);
    if (b->n_edges != f) fail_msg("sample %lld: %lld edges, expected %d", (long long)t, (long long)b->n_edges, (int)f);
    memset(in, 0, (size_t)k * sizeof *in);
    for (int64_t e = 0; e < f; e++) {
      int64_t leaf = b->node[b->row[e]] - 1;
      assert_in_range(leaf, 0, k - 1);
      if (in[leaf]) fail_msg("sample %lld: leaf %lld twice without replacement", (long long)t, (long long)leaf);
      in[leaf] = true;
      inc[leaf]++;
    }
    cells[subset_rank(in, k)]++;
  }
  snprintf(what, sizeof what, "no-replace k=%lld f=%d %s, by %s: subsets", (long long)k, (int)f,
           dir == FO_EDGE_DIR_IN ? "in" : "out", axis_name[ax]);
  assert_uniform(what, cells, (int64_t)n_cells);
  snprintf(what, sizeof what, "no-replace k=%lld f=%d %s, by %s: leaves", (long long)k, (int)f,
           dir == FO_EDGE_DIR_IN ? "in" : "out", axis_name[ax]);
  assert_inclusion(what, inc, k, f, T);
  drawer_fini(&dr);
  graph_close(&g);
  free(cells);
  free(inc);
  free(in);
}

static void no_replace_subsets_small(void **state) {
  (void)state;
  subsets_case(6, 3, FO_EDGE_DIR_IN, AXIS_BATCH, 1000);  /* 20 subsets */
  subsets_case(6, 3, FO_EDGE_DIR_IN, AXIS_EPOCH, 1000);
  subsets_case(6, 3, FO_EDGE_DIR_IN, AXIS_SEED, 1000);
  subsets_case(6, 3, FO_EDGE_DIR_OUT, AXIS_BATCH, 1000); /* CSR + csr_eid */
  subsets_case(7, 2, FO_EDGE_DIR_IN, AXIS_BATCH, 1000);  /* 21 subsets */
  subsets_case(5, 1, FO_EDGE_DIR_IN, AXIS_BATCH, 4000);  /* a single pick */
}

/* Long rows and large fanouts. Every subset is countable when one leaf is left out
 * (C(k, k-1) = k cells): k = 64 (rows of up to 64 neighbors) and k = 65 with fanout 64 (a long
 * row and a fanout above 32, where the implementation keeps its picks in a hash set). */
static void no_replace_subsets_long_rows(void **state) {
  (void)state;
  subsets_case(33, 32, FO_EDGE_DIR_IN, AXIS_BATCH, 1000);
  subsets_case(64, 63, FO_EDGE_DIR_IN, AXIS_BATCH, 1000);
  subsets_case(65, 64, FO_EDGE_DIR_IN, AXIS_BATCH, 1000);
}

/* Star with k leaves, fanout f well below k, without replacement: per-leaf inclusion uniform,
 * and the co-inclusion of leaf 0 with every other leaf uniform (given leaf 0 is in, the other
 * f-1 picks are a uniform (f-1)-subset of the k-1 other leaves). Long rows (k > 64) with fanout
 * <= 32 and > 32 reach both of the implementation's Floyd variants for long rows. */
static void inclusion_case(int64_t k, int32_t f, int64_t T) {
  static const int64_t seeds[] = {0};
  graph g;
  drawer dr;
  fo_sampler_opts o;
  int64_t *inc = calloc((size_t)k, sizeof *inc), *co = calloc((size_t)k, sizeof *co);
  int64_t *dist = calloc((size_t)k, sizeof *dist);
  bool *in = calloc((size_t)k, sizeof *in);
  char what[128];
  fot_star(k, &g.e);
  graph_open(&g);
  fo_sampler_opts_init(&o);
  o.fanouts = &f;
  o.n_hops = 1;
  o.seed = 9;
  drawer_init(&dr, g.d, &o, AXIS_BATCH);
  for (int64_t t = 0; t < T; t++) {
    const fo_batch_t *b = drawer_sample(&dr, seeds, 1, (uint64_t)t);
    assert_int_equal(b->n_edges, f);
    memset(in, 0, (size_t)k * sizeof *in);
    for (int64_t e = 0; e < f; e++) {
      int64_t leaf = b->node[b->row[e]] - 1;
      assert_in_range(leaf, 0, k - 1);
      if (in[leaf]) fail_msg("sample %lld: leaf %lld twice", (long long)t, (long long)leaf);
      in[leaf] = true;
      inc[leaf]++;
    }
    if (in[0])
      for (int64_t l = 1; l < k; l++) co[l - 1] += in[l];
    if (f == 2) {
      int64_t a = b->node[b->row[0]], c = b->node[b->row[1]];
      dist[(a > c ? a - c : c - a) - 1]++;
    }
  }
  snprintf(what, sizeof what, "no-replace k=%lld f=%d: leaves", (long long)k, (int)f);
  assert_inclusion(what, inc, k, f, T);
  snprintf(what, sizeof what, "no-replace k=%lld f=%d: partners of leaf 0", (long long)k, (int)f);
  if (f > 2) assert_inclusion(what, co, k - 1, f - 1, inc[0]);
  if (f == 2) {
    /* the distance d = |a - b| of the two picks: C(k,2) pairs, k - d of them at distance d */
    double *prob = malloc((size_t)(k - 1) * sizeof *prob);
    for (int64_t d = 1; d < k; d++) prob[d - 1] = (double)(k - d) / (double)binom(k, 2);
    snprintf(what, sizeof what, "no-replace k=%lld f=2: distance of the two picks", (long long)k);
    assert_fits(what, dist, prob, k - 1);
    free(prob);
  }
  drawer_fini(&dr);
  graph_close(&g);
  free(inc);
  free(co);
  free(dist);
  free(in);
}

static void no_replace_inclusion_long_rows(void **state) {
  (void)state;
  inclusion_case(80, 40, 20000);  /* fanout > 32 */
  inclusion_case(70, 20, 20000);  /* fanout <= 32 */
  inclusion_case(130, 2, 100000); /* two picks: offsets that agree mod 64 (0 and 64) included */
  inclusion_case(40, 20, 20000);  /* a short row, for comparison */
}

/* ---- with replacement ---------------------------------------------------------------------- */

/* Star with k leaves, fanout f with replacement: each draw uniform over the k neighbors, and
 * consecutive draws independent (the pairs (d0, d1), (d2, d3), ... uniform over k^2 cells). */
static void replace_case(int64_t k, int32_t f, fo_edge_dir dir, int64_t T) {
  static const int64_t seeds[] = {0};
  graph g;
  drawer dr;
  fo_sampler_opts o;
  int64_t *single = calloc((size_t)k, sizeof *single), *pairs = calloc((size_t)(k * k), sizeof *pairs);
  char what[128];
  fot_star(k, &g.e);
  graph_open(&g);
  fo_sampler_opts_init(&o);
  o.fanouts = &f;
  o.n_hops = 1;
  o.replace = true;
  o.edge_dir = dir;
  o.seed = 123;
  drawer_init(&dr, g.d, &o, AXIS_BATCH);
  for (int64_t t = 0; t < T; t++) {
    const fo_batch_t *b = drawer_sample(&dr, seeds, 1, (uint64_t)t);
    int64_t prev = -1;
    assert_int_equal(b->n_edges, f);
    for (int64_t e = 0; e < f; e++) {
      int64_t leaf = b->node[b->row[e]] - 1;
      assert_in_range(leaf, 0, k - 1);
      single[leaf]++;
      if (e % 2 == 1) pairs[prev * k + leaf]++;
      prev = leaf;
    }
  }
  snprintf(what, sizeof what, "replace k=%lld f=%d %s: each draw", (long long)k, (int)f,
           dir == FO_EDGE_DIR_IN ? "in" : "out");
  assert_uniform(what, single, k);
  snprintf(what, sizeof what, "replace k=%lld f=%d %s: consecutive pairs", (long long)k, (int)f,
           dir == FO_EDGE_DIR_IN ? "in" : "out");
  assert_uniform(what, pairs, k * k);
  drawer_fini(&dr);
  graph_close(&g);
  free(single);
  free(pairs);
}

static void replace_uniform_independent(void **state) {
  (void)state;
  replace_case(5, 4, FO_EDGE_DIR_IN, 25000);  /* 50000 pairs over 25 cells */
  replace_case(3, 8, FO_EDGE_DIR_IN, 4000);   /* fanout > degree: 16000 pairs over 9 cells */
  replace_case(7, 2, FO_EDGE_DIR_OUT, 49000); /* 49000 pairs over 49 cells */
}

/* ---- independence between nodes and between disjoint trees --------------------------------- */

/* K_{2,k}: centers 0 and 1 share the in-neighbors 2..k+1. Seeds {0, 1}, fanout 1: the two
 * centers' picks are independent (the node id is part of the key): uniform over k^2 pairs. */
static void nodes_independent(void **state) {
  static const int64_t seeds[] = {0, 1};
  const int64_t k = 6, T = 36000;
  (void)state;
  for (int rep = 0; rep < 2; rep++) {
    graph g;
    drawer dr;
    fo_sampler_opts o;
    int32_t f = 1;
    int64_t pairs[36] = {0};
    memset(&g.e, 0, sizeof g.e);
    for (int64_t l = 0; l < k; l++) {
      fot_edges_add(&g.e, 2 + l, 0);
      fot_edges_add(&g.e, 2 + l, 1);
    }
    graph_open(&g);
    fo_sampler_opts_init(&o);
    o.fanouts = &f;
    o.n_hops = 1;
    o.replace = rep;
    drawer_init(&dr, g.d, &o, AXIS_BATCH);
    for (int64_t t = 0; t < T; t++) {
      const fo_batch_t *b = drawer_sample(&dr, seeds, 2, (uint64_t)t);
      int64_t pick[2];
      assert_int_equal(b->n_edges, 2);
      for (int e = 0; e < 2; e++) pick[b->col[e]] = b->node[b->row[e]] - 2;
      pairs[pick[0] * k + pick[1]]++;
    }
    assert_uniform(rep ? "two nodes, replace: joint picks" : "two nodes, no replace: joint picks",
                   pairs, k * k);
    drawer_fini(&dr);
    graph_close(&g);
  }
}

/* Disjoint mode: two seeds of the same node (the center of a star) grow their own trees with
 * their own streams: the two trees' picks are independent, jointly uniform. */
static void disjoint_copies_independent(void **state) {
  static const int64_t seeds[] = {0, 0};
  const int64_t k = 6;
  (void)state;
  for (int c = 0; c < 3; c++) {
    /* c = 0: fanout 1 without replacement; 1: with replacement; 2: fanout 2, 2-subsets */
    int32_t f = c == 2 ? 2 : 1;
    int64_t n_single = c == 2 ? (int64_t)binom(k, 2) : k, n_cells = n_single * n_single;
    int64_t T = n_cells * (c == 2 ? 600 : 1000), *cells = calloc((size_t)n_cells, sizeof *cells);
    graph g;
    drawer dr;
    fo_sampler_opts o;
    fot_star(k, &g.e);
    graph_open(&g);
    fo_sampler_opts_init(&o);
    o.fanouts = &f;
    o.n_hops = 1;
    o.replace = c == 1;
    o.disjoint = true;
    drawer_init(&dr, g.d, &o, AXIS_BATCH);
    for (int64_t t = 0; t < T; t++) {
      const fo_batch_t *b = drawer_sample(&dr, seeds, 2, (uint64_t)t);
      uint64_t mask[2] = {0, 0};
      int64_t single[2];
      assert_int_equal(b->n_edges, 2 * f);
      for (int64_t e = 0; e < b->n_edges; e++) {
        int64_t tree = b->batch[b->col[e]];
        assert_int_equal(tree, b->col[e]); /* the seeds are the frontier */
        assert_int_equal(b->batch[b->row[e]], tree);
        mask[tree] |= UINT64_C(1) << (b->node[b->row[e]] - 1);
      }
      for (int s = 0; s < 2; s++)
        single[s] = (int64_t)(f == 1 ? (uint64_t)__builtin_ctzll(mask[s]) : mask_rank(mask[s]));
      cells[single[0] * n_single + single[1]]++;
    }
    assert_uniform(c == 0   ? "disjoint copies, f=1 no replace: joint"
                   : c == 1 ? "disjoint copies, f=1 replace: joint"
                            : "disjoint copies, f=2 no replace: joint subsets",
                   cells, n_cells);
    drawer_fini(&dr);
    graph_close(&g);
    free(cells);
  }
}

/* ---- fo_random_permutation ----------------------------------------------------------------- */

/* All 120 permutations of 5 elements equally frequent (by epoch), and for n = 10 the position
 * of every element uniform (by seed). */
static void permutation_uniform(void **state) {
  (void)state;
  {
    const int64_t n = 5, T = 120000;
    int64_t cells[120] = {0}, p[5];
    for (int64_t t = 0; t < T; t++) {
      int64_t rank = 0;
      assert_fo_ok(fo_random_permutation(n, 2024, (uint64_t)t, p));
      for (int64_t i = 0; i < n; i++) { /* Lehmer code */
        int64_t smaller = 0;
        for (int64_t j = i + 1; j < n; j++) smaller += p[j] < p[i];
        rank = rank * (n - i) + smaller;
      }
      cells[rank]++;
    }
    assert_uniform("permutation n=5, by epoch: all 120 orders", cells, 120);
  }
  {
    const int64_t n = 10, T = 50000;
    int64_t pos[10][10] = {{0}}, p[10];
    for (int64_t t = 0; t < T; t++) {
      assert_fo_ok(fo_random_permutation(n, (uint64_t)t, 7, p));
      for (int64_t i = 0; i < n; i++) pos[p[i]][i]++;
    }
    for (int64_t x = 0; x < n; x++) {
      char what[64];
      snprintf(what, sizeof what, "permutation n=10, by seed: position of %lld", (long long)x);
      assert_uniform(what, pos[x], n);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(chi2_helper_self_test),
      cmocka_unit_test(no_replace_subsets_small),
      cmocka_unit_test(no_replace_subsets_long_rows),
      cmocka_unit_test(no_replace_inclusion_long_rows),
      cmocka_unit_test(replace_uniform_independent),
      cmocka_unit_test(nodes_independent),
      cmocka_unit_test(disjoint_copies_independent),
      cmocka_unit_test(permutation_uniform),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
