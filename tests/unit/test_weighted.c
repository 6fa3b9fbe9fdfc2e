/*
 * tests/unit/test_weighted.c: edge weights (import --edge-weight, the "weight" arrays beside
 * each CSC/CSR, checks on open and by verify) and the weighted kernel (fo_sampler_opts.weighted).
 *
 * Exact tests: weights land at the right positions of both directions (undirected reverse edges
 * carry their edge's weight); zero-weight edges are never drawn; when all positive edges fit the
 * fanout they come in stored order; fanout -1 ignores weights. Statistical tests (fixed seeds, so
 * deterministic; thresholds at p ~ 1e-6 of the chi-square law, so a correct kernel passes and a
 * uniform or off-by-one one fails by orders of magnitude): draws with replacement against
 * w_j / sum(w), and 2-subsets without replacement against the exact probabilities of successive
 * sampling, P({a, b}) = w_a/W * w_b/(W - w_a) + w_b/W * w_a/(W - w_b), on stars whose weights
 * span 1000x (expected counts under 5 pooled).
 */
#include "support.h"
#include "sample/sample_internal.h"
#include "store/store_internal.h"

#include <math.h>
#include <sys/stat.h>

typedef struct wds {
  char *tmp, *dir;
  fo_dataset_t *d;
} wds;

/* Import edges src[i] -> dst[i] with weights w (float64 if f64, else float32) into a fresh
 * dataset (CSC and CSR) and open it. */
static void wds_make(wds *g, const int64_t *src, const int64_t *dst, int64_t m, const double *w,
                     bool f64, bool undirected) {
  fo_import_opts o;
  char *wp;
  int64_t shape[1] = {m};
  g->tmp = fot_tmpdir();
  g->dir = fot_path(g->tmp, "ds");
  wp = fot_path(g->tmp, "w.npy");
  if (f64) {
    fot_write_npy(wp, "<f8", 1, shape, w, (size_t)m * 8);
  } else {
    float *f = malloc((size_t)m * sizeof *f + 1);
    for (int64_t i = 0; i < m; i++) f[i] = (float)w[i];
    fot_write_npy(wp, "<f4", 1, shape, f, (size_t)m * 4);
    free(f);
  }
  fo_import_opts_init(&o);
  o.csc = o.csr = true;
  o.edge_weight = wp;
  o.undirected = undirected;
  assert_fo_ok(fo_import_edges(src, dst, m, g->dir, &o, NULL));
  assert_fo_ok(fo_dataset_open(g->dir, NULL, &g->d));
  free(wp);
}

static void wds_free(wds *g) {
  fo_dataset_close(g->d);
  free(g->dir);
  fot_rmtree(g->tmp);
}

/* Star: leaves 1..k point at 0 (edge i-1: i -> 0), so column 0 of the CSC lists them in order. */
static void star(wds *g, const double *w, int64_t k, bool f64) {
  int64_t *src = malloc((size_t)k * sizeof *src), *dst = malloc((size_t)k * sizeof *dst);
  for (int64_t i = 0; i < k; i++) {
    src[i] = i + 1;
    dst[i] = 0;
  }
  wds_make(g, src, dst, k, w, f64, false);
  free(src);
  free(dst);
}

static double topo_w(const fo_topology *t, int64_t p) {
  return t->weight_bytes == 4 ? ((const float *)t->weight)[p] : ((const double *)t->weight)[p];
}

static fo_sampler_t *wsampler(const fo_dataset_t *d, const int32_t *f, int32_t n_hops, bool replace,
                              uint64_t seed) {
  fo_sampler_opts o;
  fo_sampler_t *s;
  fo_sampler_opts_init(&o);
  o.fanouts = f;
  o.n_hops = n_hops;
  o.replace = replace;
  o.weighted = true;
  o.seed = seed;
  assert_fo_ok(fo_sampler_create(d, &o, &s));
  return s;
}

/* ---- data ---------------------------------------------------------------------------------- */

static void test_weights_stored_aligned(void **state) {
  (void)state;
  /* 0->1 (w 0.5), 2->1 (w 2), 3->0 (w 3), 2->0 (w 0); undirected adds the reverses */
  const int64_t src[] = {0, 2, 3, 2}, dst[] = {1, 1, 0, 0};
  const double w[] = {0.5, 2, 3, 0};
  for (int f64 = 0; f64 < 2; f64++)
    for (int und = 0; und < 2; und++) {
      wds g;
      fo_topology csc, csr;
      wds_make(&g, src, dst, 4, w, f64, und);
      assert_fo_ok(fo_dataset_topology(g.d, FO_EDGE_DIR_IN, &csc));
      assert_fo_ok(fo_dataset_topology(g.d, FO_EDGE_DIR_OUT, &csr));
      assert_non_null(csc.weight);
      assert_non_null(csr.weight);
      assert_int_equal(csc.weight_bytes, f64 ? 8 : 4);
      assert_int_equal(csr.weight_bytes, f64 ? 8 : 4);
      /* every stored edge (u, v) has the weight of the input edge between u and v */
      for (int dir = 0; dir < 2; dir++) {
        const fo_topology *t = dir ? &csr : &csc;
        for (int64_t v = 0; v < t->n_rows; v++)
          for (int64_t p = t->indptr[v]; p < t->indptr[v + 1]; p++) {
            int64_t u = t->indices_bytes == 4 ? ((const int32_t *)t->indices)[p]
                                              : ((const int64_t *)t->indices)[p];
            int64_t a = dir ? v : u, b = dir ? u : v; /* the edge a -> b */
            double want = -1;
            for (int i = 0; i < 4; i++)
              if ((src[i] == a && dst[i] == b) || (und && src[i] == b && dst[i] == a)) want = w[i];
            assert_true(want >= 0);
            assert_true(topo_w(t, p) == want);
          }
      }
      assert_fo_ok(fo_dataset_verify(g.d));
      wds_free(&g);
    }
}

static void write_w(const char *path, const char *descr, const void *w, int64_t m, int item) {
  int64_t shape[1] = {m};
  fot_write_npy(path, descr, 1, shape, w, (size_t)(m * item));
}

static void test_weight_errors(void **state) {
  (void)state;
  char *tmp = fot_tmpdir(), *dir = fot_path(tmp, "ds"), *wp = fot_path(tmp, "w.npy");
  const int64_t src[] = {0, 1, 2}, dst[] = {1, 2, 0};
  fo_import_opts o;
  struct stat st;
  const struct {
    double v;
    const char *msg;
  } bad[] = {{NAN, "weight[1] = nan is NaN"}, {INFINITY, "weight[1] = inf is infinite"},
             {-1.5, "weight[1] = -1.5 is negative"}};
  fo_import_opts_init(&o);
  o.edge_weight = wp;
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    double w[3] = {1, bad[k].v, 2};
    write_w(wp, "<f8", w, 3, 8);
    assert_fo_error(fo_import_edges(src, dst, 3, dir, &o, NULL), FO_ERANGE, bad[k].msg);
    assert_true(strstr(fo_last_error(), "w.npy") != NULL);
    assert_int_not_equal(stat(dir, &st), 0); /* nothing written */
    {
      float f[3] = {1, (float)bad[k].v, 2};
      write_w(wp, "<f4", f, 3, 4);
      assert_fo_error(fo_import_edges(src, dst, 3, dir, &o, NULL), FO_ERANGE, bad[k].msg);
      assert_int_not_equal(stat(dir, &st), 0);
    }
  }
  {
    double w[2] = {1, 2};
    write_w(wp, "<f8", w, 2, 8);
    assert_fo_error(fo_import_edges(src, dst, 3, dir, &o, NULL), FO_EFORMAT,
                    "shape must be (3,), one weight per input edge, is (2,)");
  }
  {
    int64_t w[3] = {1, 2, 3};
    write_w(wp, "<i8", w, 3, 8);
    assert_fo_error(fo_import_edges(src, dst, 3, dir, &o, NULL), FO_EFORMAT,
                    "dtype '<i8', expected float32");
  }
  {
    /* all-zero rows are fine */
    double w[3] = {0, 0, 0};
    fo_dataset_t *d;
    write_w(wp, "<f8", w, 3, 8);
    assert_fo_ok(fo_import_edges(src, dst, 3, dir, &o, NULL));
    assert_fo_ok(fo_dataset_open(dir, NULL, &d));
    assert_fo_ok(fo_dataset_verify(d));
    fo_dataset_close(d);
  }
  /* the sampler asks for weights the dataset lacks */
  {
    fo_dataset_t *d;
    fo_sampler_opts so;
    fo_sampler_t *s;
    const int32_t f[] = {2};
    char *d2 = fot_path(tmp, "plain");
    fo_import_opts_init(&o);
    assert_fo_ok(fo_import_edges(src, dst, 3, d2, &o, NULL));
    assert_fo_ok(fo_dataset_open(d2, NULL, &d));
    fo_sampler_opts_init(&so);
    so.fanouts = f;
    so.n_hops = 1;
    so.weighted = true;
    assert_fo_error(fo_sampler_create(d, &so, &s), FO_EINVAL, "stores no edge weights for its CSC (import with --edge-weight)");
    assert_null(s);
    fo_dataset_close(d);
    free(d2);
  }
  free(wp);
  free(dir);
  fot_rmtree(tmp);
}

/* A weight array with a negative entry: opening works (shape and dtype are fine), verify names it. */
static void test_verify_bad_weight(void **state) {
  (void)state;
  wds g;
  const double w[] = {1, 2, 3};
  star(&g, w, 3, true);
  fo_dataset_close(g.d);
  {
    /* csc_weight[1] = -2.0 (float64: the same 8 bytes as an int64), checksum kept valid */
    double x = -2;
    int64_t bits;
    memcpy(&bits, &x, 8);
    fot_set_array_elem(g.dir, "csc_weight", 1, bits, true);
  }
  assert_fo_ok(fo_dataset_open(g.dir, NULL, &g.d));
  assert_fo_error(fo_dataset_verify(g.d), FO_EFORMAT,
                  "csc_weight[1] = -2: edge weights must be finite and >= 0");
  wds_free(&g);
}

/* ---- kernels: exact -------------------------------------------------------------------------- */

static void test_zero_weights_never_drawn(void **state) {
  (void)state;
  const double w[] = {0, 1, 0, 2, 0, 0, 5};
  wds g;
  const int32_t f2[] = {2}, f5[] = {5}, fall[] = {-1};
  fo_batch_t *b;
  star(&g, w, 7, false);
  assert_fo_ok(fo_batch_create(&b));
  for (int rep = 0; rep < 2; rep++) {
    fo_sampler_t *s = wsampler(g.d, f2, 1, rep, 7);
    const int64_t seed0 = 0;
    for (uint64_t bi = 0; bi < 500; bi++) {
      assert_fo_ok(fo_sampler_sample(s, &seed0, 1, 0, bi, b));
      assert_int_equal(b->n_edges, 2);
      for (int64_t e = 0; e < b->n_edges; e++) assert_true(w[b->edge[e]] > 0);
      if (!rep) assert_int_not_equal(b->edge[0], b->edge[1]);
    }
    fo_sampler_destroy(s);
  }
  {
    /* fanout >= positive edges without replacement: exactly the positive ones, stored order */
    fo_sampler_t *s = wsampler(g.d, f5, 1, false, 1);
    const int64_t seed0 = 0;
    assert_fo_ok(fo_sampler_sample(s, &seed0, 1, 0, 0, b));
    assert_int_equal(b->n_edges, 3);
    assert_int_equal(b->edge[0], 1);
    assert_int_equal(b->edge[1], 3);
    assert_int_equal(b->edge[2], 6);
    fo_sampler_destroy(s);
  }
  {
    /* fanout -1: every neighbor, weights ignored */
    fo_sampler_t *s = wsampler(g.d, fall, 1, false, 1);
    const int64_t seed0 = 0;
    assert_fo_ok(fo_sampler_sample(s, &seed0, 1, 0, 0, b));
    assert_int_equal(b->n_edges, 7);
    for (int64_t e = 0; e < 7; e++) assert_int_equal(b->edge[e], e);
    fo_sampler_destroy(s);
  }
  {
    /* an all-zero row (leaf 1 has no in-edges; make one with zeros): no draws, no error */
    const double z[] = {0, 0, 0};
    wds h;
    fo_sampler_t *s;
    const int64_t seed0 = 0;
    star(&h, z, 3, true);
    for (int rep = 0; rep < 2; rep++) {
      s = wsampler(h.d, f2, 1, rep, 1);
      assert_fo_ok(fo_sampler_sample(s, &seed0, 1, 0, 0, b));
      assert_int_equal(b->n_edges, 0);
      assert_int_equal(b->n_nodes, 1);
      fo_sampler_destroy(s);
    }
    wds_free(&h);
  }
  fo_batch_destroy(b);
  wds_free(&g);
}

static void test_deterministic(void **state) {
  (void)state;
  const int64_t src[] = {1, 2, 3, 4, 5, 0, 2, 3, 0, 1}, dst[] = {0, 0, 0, 0, 0, 1, 1, 2, 3, 4};
  const double w[] = {1, 2, 3, 4, 5, 1, 0.25, 8, 1, 1};
  const int32_t f[] = {2, 2};
  const int64_t seeds[] = {0, 1, 0};
  wds g;
  wds_make(&g, src, dst, 10, w, false, false);
  for (int rep = 0; rep < 2; rep++)
    for (int disj = 0; disj < 2; disj++) {
      fo_sampler_opts o;
      fo_sampler_t *s1, *s2;
      fo_batch_t *b1, *b2;
      bool differs = false;
      fo_sampler_opts_init(&o);
      o.fanouts = f;
      o.n_hops = 2;
      o.replace = rep;
      o.disjoint = disj;
      o.weighted = true;
      o.seed = 11;
      assert_fo_ok(fo_sampler_create(g.d, &o, &s1));
      assert_fo_ok(fo_sampler_create(g.d, &o, &s2));
      assert_fo_ok(fo_batch_create(&b1));
      assert_fo_ok(fo_batch_create(&b2));
      for (uint64_t bi = 0; bi < 20; bi++) {
        /* s2 samples another batch in between: no state carries over */
        assert_fo_ok(fo_sampler_sample(s2, seeds, 3, 1, bi + 100, b2));
        assert_fo_ok(fo_sampler_sample(s1, seeds, 3, 1, bi, b1));
        assert_fo_ok(fo_sampler_sample(s2, seeds, 3, 1, bi, b2));
        assert_int_equal(b1->n_edges, b2->n_edges);
        assert_int_equal(b1->n_nodes, b2->n_nodes);
        assert_memory_equal(b1->edge, b2->edge, (size_t)b1->n_edges * sizeof *b1->edge);
        assert_memory_equal(b1->row, b2->row, (size_t)b1->n_edges * sizeof *b1->row);
        assert_memory_equal(b1->node, b2->node, (size_t)b1->n_nodes * sizeof *b1->node);
        for (int64_t e = 0; e < b1->n_edges; e++) assert_true(w[b1->edge[e]] > 0);
        if (bi) {
          fo_batch_t *b3;
          assert_fo_ok(fo_batch_create(&b3));
          assert_fo_ok(fo_sampler_sample(s1, seeds, 3, 1, 0, b3));
          differs |= b3->n_edges != b1->n_edges ||
                     memcmp(b3->edge, b1->edge, (size_t)b1->n_edges * sizeof *b1->edge);
          fo_batch_destroy(b3);
        }
      }
      assert_true(differs); /* the batch index is part of the key */
      fo_batch_destroy(b1);
      fo_batch_destroy(b2);
      fo_sampler_destroy(s1);
      fo_sampler_destroy(s2);
    }
  wds_free(&g);
}

/* ---- kernels: distributions ------------------------------------------------------------------ */

static void test_with_replacement_distribution(void **state) {
  (void)state;
  const double w[] = {1, 10, 0, 100, 1000, 3, 0.5};
  const int K = 7;
  const int32_t f[] = {4};
  const int64_t seed0 = 0;
  const uint64_t N = 60000;
  double count[7] = {0}, expect[7], W = 0;
  wds g;
  fo_sampler_t *s;
  fo_batch_t *b;
  int df;
  star(&g, w, K, false);
  s = wsampler(g.d, f, 1, true, 2026);
  assert_fo_ok(fo_batch_create(&b));
  for (uint64_t bi = 0; bi < N; bi++) {
    assert_fo_ok(fo_sampler_sample(s, &seed0, 1, 0, bi, b));
    assert_int_equal(b->n_edges, 4);
    for (int64_t e = 0; e < 4; e++) count[b->edge[e]]++;
  }
  assert_true(count[2] == 0);
  for (int i = 0; i < K; i++) W += w[i];
  for (int i = 0; i < K; i++) expect[i] = 4.0 * (double)N * w[i] / W;
  {
    /* drop the zero-weight category (expected 0, count checked above) */
    double c2[6], e2[6];
    int j = 0;
    for (int i = 0; i < K; i++)
      if (w[i] > 0) {
        c2[j] = count[i];
        e2[j++] = expect[i];
      }
    double x = fot_chi2(c2, e2, j, &df);
    if (x > fot_chi2_limit(df)) fail_msg("with replacement: chi2 %.1f > %.1f (df %d)", x, fot_chi2_limit(df), df);
  }
  /* a uniform kernel would be far off: the test can fail */
  {
    double cu[6], eu[6];
    int j = 0;
    for (int i = 0; i < K; i++)
      if (w[i] > 0) {
        cu[j] = count[i];
        eu[j++] = 4.0 * (double)N / 6;
      }
    assert_true(fot_chi2(cu, eu, j, &df) > 100 * fot_chi2_limit(df));
  }
  fo_batch_destroy(b);
  fo_sampler_destroy(s);
  wds_free(&g);
}

/* Exact probability that successive sampling of k = 2 from weights w picks {a, b}. */
static double p_pair(const double *w, int n, int a, int b) {
  double W = 0;
  for (int i = 0; i < n; i++) W += w[i];
  return w[a] / W * w[b] / (W - w[a]) + w[b] / W * w[a] / (W - w[b]);
}

/* Exact probability of the 3-subset {a, b, c}: the sum over its 6 pick orders. */
static double p_triple(const double *w, int n, int a, int b, int c) {
  const int ord[6][3] = {{a, b, c}, {a, c, b}, {b, a, c}, {b, c, a}, {c, a, b}, {c, b, a}};
  double W = 0, p = 0;
  for (int i = 0; i < n; i++) W += w[i];
  for (int o = 0; o < 6; o++) {
    double q = 1, left = W;
    for (int t = 0; t < 3; t++) {
      q *= w[ord[o][t]] / left;
      left -= w[ord[o][t]];
    }
    p += q;
  }
  return p;
}

/* Exact probability that successive sampling's next c picks are the c members of m[] when the
 * weight not picked yet is `left`: the sum over the members picked first. */
static double p_set(const double *w, const int *m, int c, double left) {
  double p = 0;
  if (c == 0) return 1;
  for (int a = 0; a < c; a++) {
    int rest[8], r = 0;
    for (int b = 0; b < c; b++)
      if (b != a) rest[r++] = m[b];
    p += w[m[a]] / left * p_set(w, rest, c - 1, left - w[m[a]]);
  }
  return p;
}

/* Successive sampling of k (2, 3 or 4) from the leaves of a star with weights w[K] (at most 32
 * positive), N batches: every batch k distinct positive edges, the k-subsets' frequencies
 * against their exact probabilities. */
static void check_without(const double *w, int K, int32_t k, uint64_t N, uint64_t seed) {
  const int64_t seed0 = 0;
  const int32_t f[] = {k};
  double pw[32], *count, *expect, *sub;
  int idx[32], n = 0, cats = 0, df;
  wds g;
  fo_batch_t *b;
  fo_sampler_t *s;
  for (int i = 0; i < K; i++)
    if (w[i] > 0) {
      pw[n] = w[i];
      idx[n++] = i;
    }
  count = calloc((size_t)1 << K, sizeof *count);
  expect = calloc(8192, sizeof *expect);
  sub = calloc(8192, sizeof *sub);
  star(&g, w, K, true);
  assert_fo_ok(fo_batch_create(&b));
  s = wsampler(g.d, f, 1, false, seed);
  for (uint64_t bi = 0; bi < N; bi++) {
    uint64_t mask = 0;
    assert_fo_ok(fo_sampler_sample(s, &seed0, 1, 0, bi, b));
    assert_int_equal(b->n_edges, k);
    for (int64_t e = 0; e < k; e++) {
      assert_true(w[b->edge[e]] > 0);
      assert_false(mask >> b->edge[e] & 1); /* distinct */
      mask |= UINT64_C(1) << b->edge[e];
    }
    count[mask]++;
  }
  for (int a = 0; a < n && k <= 3; a++)
    for (int c = a + 1; c < n; c++) {
      if (k == 2) {
        expect[cats] = (double)N * p_pair(pw, n, a, c);
        sub[cats++] = count[(1u << idx[a]) | (1u << idx[c])];
        continue;
      }
      for (int e = c + 1; e < n; e++) {
        expect[cats] = (double)N * p_triple(pw, n, a, c, e);
        sub[cats++] = count[(1u << idx[a]) | (1u << idx[c]) | (1u << idx[e])];
      }
    }
  if (k == 4) {
    /* every 4-subset of the positive leaves (at most 12 of them here) */
    double W = 0;
    for (int i = 0; i < n; i++) W += pw[i];
    for (uint32_t m = 0; m < (1u << n); m++) {
      int mem[4], c = 0;
      uint64_t mask = 0;
      if (__builtin_popcount(m) != 4) continue;
      for (int i = 0; i < n; i++)
        if (m >> i & 1) {
          mem[c++] = i;
          mask |= UINT64_C(1) << idx[i];
        }
      expect[cats] = (double)N * p_set(pw, mem, 4, W);
      sub[cats++] = count[mask];
    }
  }
  {
    double total = 0;
    for (int i = 0; i < cats; i++) total += expect[i];
    assert_true(fabs(total - (double)N) < 1e-6 * (double)N); /* the subsets' law sums to 1 */
  }
  {
    double x = fot_chi2(sub, expect, cats, &df);
    if (x > fot_chi2_limit(df))
      fail_msg("without replacement, k=%d, %d leaves: chi2 %.1f > %.1f (df %d)", k, K, x,
               fot_chi2_limit(df), df);
  }
  fo_sampler_destroy(s);
  fo_batch_destroy(b);
  free(count);
  free(expect);
  free(sub);
  wds_free(&g);
}

static void test_without_replacement_distribution(void **state) {
  (void)state;
  /* weights spanning 1000x; leaf 2 has weight 0 and must never appear. k = 2: deg 6 > 2k, the
   * redraw path; k = 3: deg 6 > 1.25k, the redraw path too (the short rows' key path is taken
   * for deg <= 1.25k: k = 4 below). */
  const double w[] = {1, 10, 0, 100, 1000, 30};
  const double w5[] = {3, 10, 1, 100, 30};
  /* two heavy edges and many light ones: the third pick's redraws pile up and it falls back to
   * keys over the unpicked edges mid-row */
  const double heavy[] = {1000, 0.5, 1000, 1, 1, 2, 1, 1, 0, 1, 3, 1};
  check_without(w, 6, 2, 100000, 101);
  check_without(w, 6, 3, 100000, 102);
  check_without(heavy, 12, 3, 100000, 103);
  check_without(heavy, 12, 2, 50000, 104);
  /* k = 4: deg 6 > 1.25 k, the redraw path; deg 5 <= 1.25 k, the key path over the whole row */
  check_without(w, 6, 4, 100000, 105);
  check_without(w5, 5, 4, 100000, 106);
}

/* ---- weighted temporal: weights among the eligible edges ------------------------------------ */

/* A star (leaf i + 1 -> 0, i < K) with float64 weights w and edge times i (stored in input
 * order, each row sorted by time), sampled by weight at seed time T (window `win`, -1: none):
 * the eligible edges are those with T - win <= i <= T. With replacement: per-edge counts of k
 * draws against k w_j / (sum of eligible w); without: k-subset frequencies against successive
 * sampling's exact law on the eligible weights (k 2 or 3). Never an ineligible or zero-weight
 * edge, distinct without replacement. */
static void check_window_at(const double *w, int K, int64_t T, int64_t win, int32_t k, bool replace,
                            uint64_t N, uint64_t seed, bool node) {
  const int64_t seed0 = 0;
  const int32_t f[] = {k};
  int64_t src[32], dst[32], tm[32], nt[33], et[32], shape[1] = {K}, nshape[1] = {K + 1};
  double pw[32], *count, *expect, *sub, W = 0;
  int idx[32], n = 0, cats = 0, df;
  wds g;
  fo_import_opts o;
  fo_sampler_opts so;
  fo_batch_t *b;
  fo_sampler_t *s;
  char *wp, *tp, *np;
  nt[0] = 0;
  for (int i = 0; i < K; i++) {
    src[i] = i + 1;
    dst[i] = 0;
    tm[i] = i;
    /* node mode: leaf i + 1's node time is a permutation of the edge order (7i mod K, K not a
     * multiple of 7), so the rows (ordered by edge time) are not ordered by node time and the
     * eligible edges are scattered */
    nt[i + 1] = node ? (7 * (int64_t)i) % K : 0;
    et[i] = node ? nt[i + 1] : i; /* the time that decides edge i's eligibility */
  }
  for (int i = 0; i < K; i++)
    if (w[i] > 0 && et[i] <= T && (win < 0 || et[i] >= T - win)) {
      pw[n] = w[i];
      W += w[i];
      idx[n++] = i;
    }
  g.tmp = fot_tmpdir();
  g.dir = fot_path(g.tmp, "ds");
  wp = fot_path(g.tmp, "w.npy");
  tp = fot_path(g.tmp, "t.npy");
  fot_write_npy(wp, "<f8", 1, shape, w, (size_t)K * 8);
  fot_write_npy(tp, "<i8", 1, shape, tm, (size_t)K * 8);
  np = fot_path(g.tmp, "nt.npy");
  fot_write_npy(np, "<i8", 1, nshape, nt, (size_t)(K + 1) * 8);
  fo_import_opts_init(&o);
  o.edge_weight = wp;
  o.edge_time = tp;
  if (node) o.node_time = np;
  assert_fo_ok(fo_import_edges(src, dst, K, g.dir, &o, NULL));
  assert_fo_ok(fo_dataset_open(g.dir, NULL, &g.d));
  fo_sampler_opts_init(&so);
  so.fanouts = f;
  so.n_hops = 1;
  so.replace = replace;
  so.weighted = true;
  so.temporal = FO_TEMPORAL_UNIFORM;
  so.time_window = win;
  so.seed = seed;
  if (node) so.time_attr = FO_TIME_ATTR_NODE;
  assert_fo_ok(fo_sampler_create(g.d, &so, &s));
  assert_fo_ok(fo_batch_create(&b));
  count = calloc((size_t)1 << K, sizeof *count);
  expect = calloc(8192, sizeof *expect);
  sub = calloc(8192, sizeof *sub);
  for (uint64_t bi = 0; bi < N; bi++) {
    uint64_t mask = 0;
    assert_fo_ok(fo_sampler_sample_at(s, 0, &seed0, &T, 1, 0, bi, b));
    assert_int_equal(b->n_edges, replace ? k : (n < k ? n : k));
    for (int64_t e = 0; e < b->n_edges; e++) {
      const int64_t j = b->edge[e];
      assert_true(w[j] > 0 && et[j] <= T && (win < 0 || et[j] >= T - win)); /* eligible, positive */
      if (replace) {
        count[j]++;
        continue;
      }
      assert_false(mask >> j & 1); /* distinct */
      mask |= UINT64_C(1) << j;
    }
    count[mask] += !replace;
  }
  if (replace) {
    for (int a = 0; a < n; a++) {
      expect[cats] = (double)k * (double)N * pw[a] / W;
      sub[cats++] = count[idx[a]];
    }
  } else {
    for (int a = 0; a < n; a++)
      for (int c = a + 1; c < n; c++) {
        if (k == 2) {
          expect[cats] = (double)N * p_pair(pw, n, a, c);
          sub[cats++] = count[(1u << idx[a]) | (1u << idx[c])];
          continue;
        }
        for (int e = c + 1; e < n; e++) {
          expect[cats] = (double)N * p_triple(pw, n, a, c, e);
          sub[cats++] = count[(1u << idx[a]) | (1u << idx[c]) | (1u << idx[e])];
        }
      }
  }
  {
    double x = fot_chi2(sub, expect, cats, &df);
    if (x > fot_chi2_limit(df))
      fail_msg("weighted temporal (%s time), %s, k=%d, T=%lld: chi2 %.1f > %.1f (df %d)",
               node ? "node" : "edge", replace ? "with replacement" : "without", k, (long long)T, x,
               fot_chi2_limit(df), df);
    if (!replace || n > 2) {
      /* the law of the whole row (eligibility ignored) is far off: the test can fail */
      double ew[8192], tot = 0;
      for (int i = 0; i < cats; i++) tot += sub[i];
      for (int i = 0; i < cats; i++) ew[i] = tot / cats;
      assert_true(fot_chi2(sub, ew, cats, &df) > 10 * fot_chi2_limit(df));
    }
  }
  fo_sampler_destroy(s);
  fo_batch_destroy(b);
  free(count);
  free(expect);
  free(sub);
  free(wp);
  free(tp);
  free(np);
  wds_free(&g);
}

static void check_window(const double *w, int K, int64_t T, int64_t win, int32_t k, bool replace,
                         uint64_t N, uint64_t seed) {
  check_window_at(w, K, T, win, k, replace, N, seed, false);
}

static void test_weighted_temporal_distribution(void **state) {
  (void)state;
  /* weights spanning 1000x, one zero; edge i has time i */
  const double w[] = {1, 10, 0, 100, 1000, 30, 3, 0.5, 20, 200, 2, 5};
  /* the eligible prefix holds little of the row's weight: the redraws pile up and the
   * exact pass over the range (prefix sums, or keys) takes over */
  const double light[] = {1, 2, 0, 4, 1, 3, 1000, 1000, 1000, 1000, 1000, 1000};
  /* with replacement: the alias + rejection path (most weight eligible), with a window */
  check_window(w, 12, 11, -1, 4, true, 40000, 201);
  check_window(w, 12, 9, 6, 4, true, 40000, 202);
  check_window(light, 12, 5, -1, 4, true, 40000, 203);
  /* without: redraws (eligible > 2k), a window, keys (eligible <= 2k), the fallback */
  check_window(w, 12, 11, -1, 2, false, 60000, 204);
  check_window(w, 12, 10, 7, 2, false, 60000, 205);
  check_window(w, 12, 6, -1, 3, false, 60000, 206);
  check_window(light, 12, 5, -1, 2, false, 60000, 207);
}

/* Weighted node-time sampling on rows ordered by edge time, exactly at the boundaries: leaf
 * i + 1 -> 0 (edge i, time i) with node times {5, 3, 3, 0, 4, 1} and weights {1, 2, 0, 4, 8,
 * 16}, seed 0 at T = 3: inclusive eligible {1, 2, 3, 5} (positive {1, 3, 5}), strict {3, 5},
 * window 1 (2 <= time <= 3) {1, 2} (positive {1}); fanout -1 takes every eligible edge. */
static void test_weighted_node_time_boundary(void **state) {
  (void)state;
  const int64_t src[] = {1, 2, 3, 4, 5, 6}, dst[] = {0, 0, 0, 0, 0, 0}, tm[] = {0, 1, 2, 3, 4, 5};
  const int64_t nt[] = {0, 5, 3, 3, 0, 4, 1}, shape[1] = {6}, nshape[1] = {7}, seed0 = 0, T = 3;
  const double w[] = {1, 2, 0, 4, 8, 16};
  /* expected sets as bit masks of edge ids, per (strict, window, fanout -1) */
  struct {
    bool strict;
    int64_t win;
    int32_t f;
    bool replace;
    uint64_t set;
    int64_t n; /* edges per draw set (without replacement or fanout -1); -1: f */
  } cs[] = {{false, -1, 10, false, 0x2a, 3}, {true, -1, 10, false, 0x28, 2},
            {false, 1, 10, false, 0x02, 1},  {false, -1, -1, false, 0x2e, 4},
            {true, -1, -1, false, 0x28, 2},  {false, -1, 50, true, 0x2a, -1},
            {true, -1, 50, true, 0x28, -1},  {false, 1, 50, true, 0x02, -1},
            {false, 0, 10, false, 0x02, 1},  {true, 0, 10, false, 0, 0}};
  wds g;
  fo_import_opts o;
  fo_batch_t *b;
  char *wp, *tp, *np;
  g.tmp = fot_tmpdir();
  g.dir = fot_path(g.tmp, "ds");
  wp = fot_path(g.tmp, "w.npy");
  tp = fot_path(g.tmp, "t.npy");
  np = fot_path(g.tmp, "nt.npy");
  fot_write_npy(wp, "<f8", 1, shape, w, sizeof w);
  fot_write_npy(tp, "<i8", 1, shape, tm, sizeof tm);
  fot_write_npy(np, "<i8", 1, nshape, nt, sizeof nt);
  fo_import_opts_init(&o);
  o.edge_weight = wp;
  o.edge_time = tp;
  o.node_time = np;
  assert_fo_ok(fo_import_edges(src, dst, 6, g.dir, &o, NULL));
  assert_fo_ok(fo_dataset_open(g.dir, NULL, &g.d));
  assert_fo_ok(fo_batch_create(&b));
  for (size_t c = 0; c < sizeof cs / sizeof cs[0]; c++) {
    fo_sampler_opts so;
    fo_sampler_t *s;
    uint64_t seen = 0;
    fo_sampler_opts_init(&so);
    so.fanouts = &cs[c].f;
    so.n_hops = 1;
    so.weighted = true;
    so.replace = cs[c].replace;
    so.temporal = FO_TEMPORAL_UNIFORM;
    so.time_attr = FO_TIME_ATTR_NODE;
    so.time_strict = cs[c].strict;
    so.time_window = cs[c].win;
    assert_fo_ok(fo_sampler_create(g.d, &so, &s));
    for (uint64_t bi = 0; bi < 200; bi++) {
      assert_fo_ok(fo_sampler_sample_at(s, 0, &seed0, &T, 1, 0, bi, b));
      assert_int_equal(b->n_edges, cs[c].n < 0 ? cs[c].f : cs[c].n);
      for (int64_t e = 0; e < b->n_edges; e++) {
        assert_true(b->edge[e] >= 0 && b->edge[e] < 6);
        assert_true(cs[c].set >> b->edge[e] & 1); /* eligible (and positive unless fanout -1) */
        assert_int_equal(b->node[b->row[e]], b->edge[e] + 1);
        seen |= UINT64_C(1) << b->edge[e];
      }
    }
    assert_int_equal(seen, cs[c].set); /* every eligible positive edge is drawn */
    fo_sampler_destroy(s);
  }
  fo_batch_destroy(b);
  free(wp);
  free(tp);
  free(np);
  wds_free(&g);
}

/* Weighted node-time sampling on rows not ordered by node time (rows by edge time; leaf i + 1
 * has node time 7i mod 12): prefix sums over the scattered eligible edges (repeats redrawn
 * without replacement), keys for short rows and after piled-up repeats, with a window; k-subset
 * laws of successive sampling on the eligible weights. */
static void test_weighted_node_time_unordered(void **state) {
  (void)state;
  const double w[] = {1, 10, 0, 100, 1000, 30, 3, 0.5, 20, 200, 2, 5};
  check_window_at(w, 12, 11, -1, 4, true, 40000, 301, true);
  check_window_at(w, 12, 6, 4, 4, true, 40000, 302, true);
  check_window_at(w, 12, 11, -1, 2, false, 60000, 303, true);
  check_window_at(w, 12, 8, -1, 3, false, 60000, 304, true);
  check_window_at(w, 12, 9, 5, 2, false, 60000, 305, true);
  {
    /* two heavy edges: the third pick's redraws pile up and the keys take over mid-row */
    const double heavy[] = {1000, 0.5, 1000, 1, 1, 2, 1, 1, 0, 1, 3, 1};
    check_window_at(heavy, 12, 11, -1, 3, false, 100000, 306, true);
    check_window_at(heavy, 12, 10, -1, 2, false, 60000, 307, true);
  }
}

static void test_weighted_temporal_edges(void **state) {
  (void)state;
  /* edge i has time i; weights: eligible positive edges 0 and 3 only up to time 4 */
  const double w[] = {1, 0, 0, 7, 0, 1000, 1000};
  const int64_t seed0 = 0, src[] = {1, 2, 3, 4, 5, 6, 7}, dst[] = {0, 0, 0, 0, 0, 0, 0};
  const int64_t tm[] = {0, 1, 2, 3, 4, 5, 6}, shape[1] = {7};
  int32_t f[] = {5};
  wds g;
  fo_import_opts o;
  fo_sampler_opts so;
  fo_batch_t *b;
  fo_sampler_t *s;
  char *wp, *tp;
  int64_t T;
  g.tmp = fot_tmpdir();
  g.dir = fot_path(g.tmp, "ds");
  wp = fot_path(g.tmp, "w.npy");
  tp = fot_path(g.tmp, "t.npy");
  fot_write_npy(wp, "<f8", 1, shape, w, 7 * 8);
  fot_write_npy(tp, "<i8", 1, shape, tm, 7 * 8);
  fo_import_opts_init(&o);
  o.edge_weight = wp;
  o.edge_time = tp;
  assert_fo_ok(fo_import_edges(src, dst, 7, g.dir, &o, NULL));
  assert_fo_ok(fo_dataset_open(g.dir, NULL, &g.d));
  assert_fo_ok(fo_batch_create(&b));
  fo_sampler_opts_init(&so);
  so.fanouts = f;
  so.n_hops = 1;
  so.weighted = true;
  so.temporal = FO_TEMPORAL_UNIFORM;
  /* without replacement, fanout >= eligible positive edges: exactly those, in stored order */
  assert_fo_ok(fo_sampler_create(g.d, &so, &s));
  T = 4;
  assert_fo_ok(fo_sampler_sample_at(s, 0, &seed0, &T, 1, 0, 0, b));
  assert_int_equal(b->n_edges, 2);
  assert_int_equal(b->edge[0], 0);
  assert_int_equal(b->edge[1], 3);
  /* an eligible range of zero weights: no draws (the row has positive weight later) */
  T = 2;
  so.time_window = 1;
  fo_sampler_destroy(s);
  assert_fo_ok(fo_sampler_create(g.d, &so, &s));
  assert_fo_ok(fo_sampler_sample_at(s, 0, &seed0, &T, 1, 0, 0, b));
  assert_int_equal(b->n_edges, 0);
  fo_sampler_destroy(s);
  so.replace = true;
  assert_fo_ok(fo_sampler_create(g.d, &so, &s));
  for (uint64_t bi = 0; bi < 50; bi++) {
    assert_fo_ok(fo_sampler_sample_at(s, 0, &seed0, &T, 1, 0, bi, b));
    assert_int_equal(b->n_edges, 0);
  }
  fo_sampler_destroy(s);
  so.time_window = -1;
  /* fanout -1: every eligible edge in stored order, weights ignored */
  f[0] = -1;
  so.replace = false;
  assert_fo_ok(fo_sampler_create(g.d, &so, &s));
  T = 3;
  assert_fo_ok(fo_sampler_sample_at(s, 0, &seed0, &T, 1, 0, 0, b));
  assert_int_equal(b->n_edges, 4);
  for (int64_t e = 0; e < 4; e++) assert_int_equal(b->edge[e], e);
  fo_sampler_destroy(s);
  /* `last` is deterministic: weighted does not apply */
  so.temporal = FO_TEMPORAL_LAST;
  assert_fo_error(fo_sampler_create(g.d, &so, &s), FO_EINVAL, "weighted applies to temporal uniform, not last");
  so.temporal = FO_TEMPORAL_UNIFORM;
  /* node-time mode needs node times: this dataset has none */
  so.time_attr = FO_TIME_ATTR_NODE;
  assert_int_not_equal(fo_sampler_create(g.d, &so, &s), FO_OK);
  fo_batch_destroy(b);
  free(wp);
  free(tp);
  wds_free(&g);
}

/* ---- typed datasets: weights per edge type (--edge-weight SRC__REL__DST=W.npy) -------------- */

/* Typed import of two edge types into the center i:0: u__r__i (leaf u:j -> i:0, weight wr[j])
 * and v__q__i (v:j -> i:0, weight wq[j]), plus i__s__i (i:0 -> i:1) with weights only if
 * `all`; --reverse-edges; CSC and CSR. Returns the dataset dir (free it). */
static char *typed_weighted(const char *tmp, const char *name, const double *wr, int kr,
                            const double *wq, int kq, bool all) {
  char *fr = fot_path(tmp, "r.txt"), *fq = fot_path(tmp, "q.txt"), *fs = fot_path(tmp, "s.txt");
  char *wrp = fot_path(tmp, "wr.npy"), *wqp = fot_path(tmp, "wq.npy"), *wsp = fot_path(tmp, "ws.npy");
  char *dir = fot_path(tmp, name), line[64], *text = calloc(4096, 1);
  const double ws[1] = {2};
  fo_import_edge_type et[3] = {{"u", "r", "i", fr}, {"v", "q", "i", fq}, {"i", "s", "i", fs}};
  fo_import_edge_weight ew[3] = {{"u__r__i", wrp}, {"v__q__i", wqp}, {"i__s__i", wsp}};
  fo_import_opts o;
  for (int j = 0; j < kr; j++) {
    snprintf(line, sizeof line, "%d 0\n", j);
    strcat(text, line);
  }
  fot_write_file(fr, text);
  text[0] = '\0';
  for (int j = 0; j < kq; j++) {
    snprintf(line, sizeof line, "%d 0\n", j);
    strcat(text, line);
  }
  fot_write_file(fq, text);
  fot_write_file(fs, "0 1\n");
  write_w(wrp, "<f8", wr, kr, 8);
  {
    float f[32];
    for (int j = 0; j < kq; j++) f[j] = (float)wq[j];
    write_w(wqp, "<f4", f, kq, 4);
  }
  write_w(wsp, "<f8", ws, 1, 8);
  fo_import_opts_init(&o);
  o.csc = o.csr = true;
  o.edge_types = et;
  o.n_edge_types = 3;
  o.edge_weights = ew;
  o.n_edge_weights = all ? 3 : 2;
  o.reverse_edges = true;
  assert_fo_ok(fo_import(NULL, 0, dir, &o, NULL));
  free(fr);
  free(fq);
  free(fs);
  free(wrp);
  free(wqp);
  free(wsp);
  free(text);
  return dir;
}

static void test_typed_weights_stored(void **state) {
  (void)state;
  const double wr[] = {1, 0, 3}, wq[] = {0.5, 8};
  char *tmp = fot_tmpdir(), *dir = typed_weighted(tmp, "ds", wr, 3, wq, 2, false);
  fo_dataset_t *d;
  fo_sampler_opts so;
  fo_sampler_t *s;
  const int32_t f[] = {2};
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  assert_fo_ok(fo_dataset_verify(d));
  /* each type's weights at its own positions, both directions; a reverse type has its edge's */
  {
    const char *names[] = {"u__r__i", "v__q__i", "i__rev_r__u", "i__rev_q__v"};
    const double *want[] = {wr, wq, wr, wq};
    const int bytes[] = {8, 4, 8, 4};
    for (int k = 0; k < 4; k++) {
      int32_t et = fo_dataset_edge_type_find(d, names[k]);
      assert_true(et >= 0);
      for (int dir_ = 0; dir_ < 2; dir_++) {
        fo_topology t;
        assert_fo_ok(fo_dataset_edge_topology(d, et, dir_ ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN, &t));
        assert_non_null(t.weight);
        assert_non_null(t.weight_alias);
        assert_int_equal(t.weight_bytes, bytes[k]);
        for (int64_t v = 0; v < t.n_rows; v++)
          for (int64_t p = t.indptr[v]; p < t.indptr[v + 1]; p++) {
            int64_t u = t.indices_bytes == 4 ? ((const int32_t *)t.indices)[p]
                                             : ((const int64_t *)t.indices)[p];
            /* the leaf is the src of u__r__i / v__q__i and the dst of the reverse types */
            bool leaf_is_row = (k < 2) == (dir_ == 1);
            int64_t leaf = leaf_is_row ? v : u;
            assert_true(topo_w(&t, p) == want[k][leaf]);
          }
      }
    }
    /* the type without --edge-weight stores none */
    {
      fo_topology t;
      assert_fo_ok(fo_dataset_edge_topology(d, fo_dataset_edge_type_find(d, "i__s__i"), FO_EDGE_DIR_IN, &t));
      assert_null(t.weight);
    }
  }
  /* so weighted sampling names it */
  fo_sampler_opts_init(&so);
  so.fanouts = f;
  so.n_hops = 1;
  so.weighted = true;
  assert_fo_error(fo_sampler_create(d, &so, &s), FO_EINVAL, "(edge type 'i__s__i') stores no edge weights for its CSC");
  assert_null(s);
  fo_dataset_close(d);
  free(dir);
  fot_rmtree(tmp);
}

static void test_typed_weight_errors(void **state) {
  (void)state;
  char *tmp = fot_tmpdir(), *dir = fot_path(tmp, "ds"), *fr = fot_path(tmp, "r.txt");
  char *wp = fot_path(tmp, "w.npy");
  fo_import_edge_type et[1] = {{"u", "r", "i", fr}};
  fo_import_edge_weight ew[2] = {{"u__r__i", wp}, {"u__r__i", wp}};
  const double w3[] = {1, 2, 3}, w2[] = {1, 2}, wneg[] = {1, -2, 3};
  const int64_t src[] = {0, 1}, dst[] = {1, 0};
  fo_import_opts o;
  struct stat st;
  fot_write_file(fr, "0 0\n1 0\n2 0\n");
  write_w(wp, "<f8", w3, 3, 8);
  fo_import_opts_init(&o);
  o.edge_types = et;
  o.n_edge_types = 1;
  o.edge_weights = ew;
  o.n_edge_weights = 2;
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EINVAL, "--edge-weight u__r__i given twice");
  assert_int_not_equal(stat(dir, &st), 0); /* nothing written */
  ew[1].edge_type = "u__x__i";
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EINVAL, "the import has no edge type 'u__x__i'");
  ew[1].edge_type = "i__rev_r__u";
  o.reverse_edges = true;
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EINVAL,
                  "--edge-weight i__rev_r__u=");
  assert_true(strstr(fo_last_error(), "takes the weights of its edge type") != NULL);
  o.n_edge_weights = 1;
  write_w(wp, "<f8", w2, 2, 8);
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EFORMAT,
                  "edge type u__r__i: --edge-weight");
  assert_true(strstr(fo_last_error(), "shape must be (3,), one weight per input edge, is (2,)") != NULL);
  write_w(wp, "<f8", wneg, 3, 8);
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_ERANGE, "weight[1] = -2 is negative");
  assert_int_not_equal(stat(dir, &st), 0);
  /* one weight file for a whole typed import, and weights per type for an untyped one */
  o.n_edge_weights = 0;
  o.edge_weight = wp;
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EINVAL, "a typed import takes weights per edge type");
  fo_import_opts_init(&o);
  o.edge_weights = ew;
  o.n_edge_weights = 1;
  assert_fo_error(fo_import_edges(src, dst, 2, dir, &o, NULL), FO_EINVAL,
                  "--edge-weight u__r__i=...: weights per edge type need a typed import");
  assert_int_not_equal(stat(dir, &st), 0);
  free(fr);
  free(wp);
  free(dir);
  fot_rmtree(tmp);
}

/* Weighted draws on a typed graph follow each edge type's own weights: the center i:0 draws
 * from u__r__i and from v__q__i at one hop; with replacement, counts per leaf against w / W per
 * type; without replacement (k = 2), 2-subsets per type against successive sampling. */
static void test_typed_weighted_distribution(void **state) {
  (void)state;
  const double wr[] = {1, 10, 0, 100, 1000, 3}, wq[] = {50, 1, 5, 0, 20, 400, 2};
  const int kr = 6, kq = 7;
  char *tmp = fot_tmpdir(), *dir = typed_weighted(tmp, "ds", wr, kr, wq, kq, true);
  fo_dataset_t *d;
  fo_batch_t *b;
  const int32_t fr[] = {4}, fw[] = {2};
  const int64_t seed0 = 0;
  int32_t ti, eru, eqv, tu, tv;
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  assert_fo_ok(fo_batch_create(&b));
  ti = fo_dataset_node_type_find(d, "i");
  tu = fo_dataset_node_type_find(d, "u");
  tv = fo_dataset_node_type_find(d, "v");
  eru = fo_dataset_edge_type_find(d, "u__r__i");
  eqv = fo_dataset_edge_type_find(d, "v__q__i");
  for (int replace = 1; replace >= 0; replace--) {
    const uint64_t N = replace ? 40000 : 60000;
    const int32_t k = replace ? 4 : 2;
    fo_sampler_t *s = wsampler(d, replace ? fr : fw, 1, replace, 77 + (uint64_t)replace);
    double cr[64] = {0}, cq[128] = {0};
    for (uint64_t bi = 0; bi < N; bi++) {
      assert_fo_ok(fo_sampler_sample_typed(s, ti, &seed0, 1, 0, bi, b));
      for (int side = 0; side < 2; side++) {
        const fo_batch_t *eb = fo_batch_edge_type(b, side ? eqv : eru);
        const fo_batch_t *nb = fo_batch_node_type(b, side ? tv : tu);
        const double *w = side ? wq : wr;
        uint64_t mask = 0;
        assert_int_equal(eb->n_edges, k);
        for (int64_t e = 0; e < eb->n_edges; e++) {
          int64_t leaf = nb->node[eb->row[e]];
          assert_true(w[leaf] > 0); /* zero weights never drawn */
          if (replace) {
            (side ? cq : cr)[leaf]++;
          } else {
            assert_false(mask >> leaf & 1);
            mask |= UINT64_C(1) << leaf;
          }
        }
        if (!replace) (side ? cq : cr)[mask]++;
      }
    }
    for (int side = 0; side < 2; side++) {
      const double *w = side ? wq : wr, *cnt = side ? cq : cr;
      const int K = side ? kq : kr;
      double pw[16], c[64], ex[64], W = 0, x;
      int idx[16], n = 0, cats = 0, df;
      for (int j = 0; j < K; j++)
        if (w[j] > 0) {
          pw[n] = w[j];
          idx[n++] = j;
          W += w[j];
        }
      if (replace) {
        for (int a = 0; a < n; a++) {
          c[cats] = cnt[idx[a]];
          ex[cats++] = (double)k * (double)N * pw[a] / W;
        }
      } else {
        for (int a = 0; a < n; a++)
          for (int e = a + 1; e < n; e++) {
            c[cats] = cnt[(1u << idx[a]) | (1u << idx[e])];
            ex[cats++] = (double)N * p_pair(pw, n, a, e);
          }
      }
      x = fot_chi2(c, ex, cats, &df);
      if (x > fot_chi2_limit(df))
        fail_msg("typed %s, %s replacement: chi2 %.1f > %.1f (df %d)", side ? "v__q__i" : "u__r__i",
                 replace ? "with" : "without", x, fot_chi2_limit(df), df);
      /* the other type's weights would be far off: the test can fail */
      if (replace) {
        const double *ow = side ? wr : wq;
        double oc[16], oe[16], OW = 0;
        int m = 0;
        for (int j = 0; j < (side ? kr : kq) && j < K; j++) OW += ow[j] > 0 && w[j] > 0 ? ow[j] : 0;
        for (int j = 0; j < K && j < (side ? kr : kq); j++)
          if (w[j] > 0 && ow[j] > 0) {
            oc[m] = cnt[j];
            oe[m++] = ow[j] / OW;
          }
        {
          double tot = 0;
          for (int j = 0; j < m; j++) tot += oc[j];
          for (int j = 0; j < m; j++) oe[j] *= tot;
        }
        assert_true(fot_chi2(oc, oe, m, &df) > 100 * fot_chi2_limit(df));
      }
    }
    fo_sampler_destroy(s);
  }
  fo_batch_destroy(b);
  fo_dataset_close(d);
  free(dir);
  fot_rmtree(tmp);
}

/* ---- partitioned datasets ------------------------------------------------------------------ */

/* Batches of two samplers are equal, type by type (a version-1 batch is its own only type). */
static void same_typed(const fo_batch_t *a, const fo_batch_t *b) {
  assert_int_equal(a->n_node_types, b->n_node_types);
  assert_int_equal(a->n_edge_types, b->n_edge_types);
  for (int32_t t = 0; t < (a->n_node_types ? a->n_node_types : 1); t++) {
    const fo_batch_t *x = a->n_node_types ? fo_batch_node_type(a, t) : a;
    const fo_batch_t *y = b->n_node_types ? fo_batch_node_type(b, t) : b;
    assert_int_equal(x->n_nodes, y->n_nodes);
    if (x->n_nodes) assert_memory_equal(x->node, y->node, (size_t)x->n_nodes * sizeof *x->node);
  }
  for (int32_t et = 0; et < (a->n_edge_types ? a->n_edge_types : 1); et++) {
    const fo_batch_t *x = a->n_edge_types ? fo_batch_edge_type(a, et) : a;
    const fo_batch_t *y = b->n_edge_types ? fo_batch_edge_type(b, et) : b;
    assert_int_equal(x->n_edges, y->n_edges);
    if (!x->n_edges) continue;
    assert_memory_equal(x->row, y->row, (size_t)x->n_edges * sizeof *x->row);
    assert_memory_equal(x->col, y->col, (size_t)x->n_edges * sizeof *x->col);
    assert_memory_equal(x->edge, y->edge, (size_t)x->n_edges * sizeof *x->edge);
  }
}

/* Weights and alias tables travel with their rows into the parts, so weighted sampling over a
 * partitioned dataset (hash and range, 3 parts) gives the unpartitioned batches, with and
 * without replacement, disjoint or not; and a loader epoch's digest. */
static void test_parts_equal(void **state) {
  (void)state;
  const int64_t n = 300, m = 6000;
  int64_t *src = malloc((size_t)m * 8), *dst = malloc((size_t)m * 8);
  double *w = malloc((size_t)m * 8);
  uint64_t st = 41;
  wds g;
  fo_batch_t *b1, *b2;
  for (int64_t i = 0; i < m; i++) {
    src[i] = (int64_t)(fot_rand(&st) % (uint64_t)n);
    dst[i] = (int64_t)(fot_rand(&st) % (uint64_t)(n / 5)); /* long rows */
    w[i] = fot_rand(&st) % 7 == 0 ? 0 : (double)(1 + fot_rand(&st) % 1000) / 10;
  }
  wds_make(&g, src, dst, m, w, false, true);
  assert_fo_ok(fo_batch_create(&b1));
  assert_fo_ok(fo_batch_create(&b2));
  for (int method = 0; method < 2; method++) {
    char *pdir = fot_path(g.tmp, method ? "range" : "hash");
    fo_partition_opts po;
    fo_dataset_t *pd;
    fo_partition_opts_init(&po);
    po.n_parts = 3;
    po.method = method ? FO_PARTITION_RANGE : FO_PARTITION_HASH;
    assert_fo_ok(fo_partition(g.dir, pdir, &po, NULL));
    assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
    assert_fo_ok(fo_dataset_verify(pd));
    for (int k = 0; k < 4; k++) {
      const int32_t f[] = {k == 3 ? 60 : 5, 3};
      fo_sampler_t *s1 = wsampler(g.d, f, 2, k & 1, 13 + (uint64_t)k);
      fo_sampler_t *s2 = wsampler(pd, f, 2, k & 1, 13 + (uint64_t)k);
      for (uint64_t bi = 0; bi < 30; bi++) {
        int64_t seeds[8];
        for (int i = 0; i < 8; i++) seeds[i] = (int64_t)(fot_rand(&st) % (uint64_t)n);
        assert_fo_ok(fo_sampler_sample(s1, seeds, 8, 2, bi, b1));
        assert_fo_ok(fo_sampler_sample(s2, seeds, 8, 2, bi, b2));
        assert_true(b1->n_edges > 0);
        same_typed(b1, b2);
      }
      fo_sampler_destroy(s1);
      fo_sampler_destroy(s2);
      {
        /* distributed, in one process: the hop requests say weighted */
        fo_loader_opts lo;
        fo_loader_opts_init(&lo);
        lo.sampler.fanouts = f;
        lo.sampler.n_hops = 2;
        lo.sampler.replace = k & 1;
        lo.sampler.disjoint = k == 2;
        lo.sampler.weighted = true;
        lo.sampler.seed = 3 + (uint64_t)k;
        lo.batch_size = 32;
        lo.shuffle = true;
        lo.features = lo.labels = false;
        fot_dist_same(g.d, pd, 3, &lo);
        /* and loader threads: the distributed epoch with 3 threads per machine equals the
         * plain one without */
        {
          fo_loader_opts l3 = lo;
          l3.num_workers = 3;
          fot_dist_same(g.d, pd, 3, &l3);
        }
      }
    }
    fo_dataset_close(pd);
    free(pdir);
  }
  fo_batch_destroy(b1);
  fo_batch_destroy(b2);
  free(src);
  free(dst);
  free(w);
  wds_free(&g);
}

/* Weighted temporal (weights among the eligible edges) over parts and over the distributed
 * path in one process: the parts carry weights, alias tables and edge times with their rows and
 * the hop requests carry both modes, so every batch equals the unpartitioned one. */
static void test_temporal_parts_equal(void **state) {
  (void)state;
  const int64_t n = 300, m = 6000;
  int64_t *src = malloc((size_t)m * 8), *dst = malloc((size_t)m * 8), *tm = malloc((size_t)m * 8);
  int64_t shape[1] = {m}, itime[400], inputs[400];
  double *w = malloc((size_t)m * 8);
  uint64_t st = 43;
  wds g;
  fo_import_opts o;
  char *wp, *tp;
  for (int64_t i = 0; i < m; i++) {
    src[i] = (int64_t)(fot_rand(&st) % (uint64_t)n);
    dst[i] = (int64_t)(fot_rand(&st) % (uint64_t)(n / 5));
    tm[i] = (int64_t)(fot_rand(&st) % 1000);
    w[i] = fot_rand(&st) % 7 == 0 ? 0 : (double)(1 + fot_rand(&st) % 1000) / 10;
  }
  for (int i = 0; i < 400; i++) {
    inputs[i] = (int64_t)(fot_rand(&st) % (uint64_t)n);
    itime[i] = (int64_t)(fot_rand(&st) % 1200);
  }
  g.tmp = fot_tmpdir();
  g.dir = fot_path(g.tmp, "ds");
  wp = fot_path(g.tmp, "w.npy");
  tp = fot_path(g.tmp, "t.npy");
  fot_write_npy(wp, "<f8", 1, shape, w, (size_t)m * 8);
  fot_write_npy(tp, "<i8", 1, shape, tm, (size_t)m * 8);
  fo_import_opts_init(&o);
  o.csc = o.csr = true;
  o.edge_weight = wp;
  o.edge_time = tp;
  assert_fo_ok(fo_import_edges(src, dst, m, g.dir, &o, NULL));
  assert_fo_ok(fo_dataset_open(g.dir, NULL, &g.d));
  /* hash and range over 3 machines, and one machine owning the whole graph (every hop stays
   * home: the distributed hop runs the sampler's own kernel on the batch) */
  for (int method = 0; method < 3; method++) {
    char *pdir = fot_path(g.tmp, method == 1 ? "range" : method ? "one" : "hash");
    const int P = method == 2 ? 1 : 3;
    fo_partition_opts po;
    fo_dataset_t *pd;
    fo_partition_opts_init(&po);
    po.n_parts = P;
    po.method = method == 1 ? FO_PARTITION_RANGE : FO_PARTITION_HASH;
    assert_fo_ok(fo_partition(g.dir, pdir, &po, NULL));
    assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
    for (int k = 0; k < 4; k++) {
      const int32_t f[] = {k == 3 ? 40 : 5, 3};
      fo_loader_opts lo;
      fo_loader_opts_init(&lo);
      lo.sampler.fanouts = f;
      lo.sampler.n_hops = 2;
      lo.sampler.replace = k & 1;
      lo.sampler.weighted = true;
      lo.sampler.temporal = FO_TEMPORAL_UNIFORM;
      lo.sampler.time_strict = k == 2;
      lo.sampler.time_window = k == 1 ? 300 : -1;
      lo.sampler.seed = 5 + (uint64_t)k;
      lo.batch_size = 32;
      lo.shuffle = true;
      lo.input_nodes = inputs;
      lo.n_input_nodes = 400;
      lo.input_time = itime;
      lo.features = lo.labels = false;
      fot_dist_same(g.d, pd, P, &lo);
      lo.num_workers = 2;
      fot_dist_same(g.d, pd, P, &lo);
    }
    fo_dataset_close(pd);
    free(pdir);
  }
  free(wp);
  free(tp);
  free(src);
  free(dst);
  free(tm);
  free(w);
  wds_free(&g);
}

/* The same on a typed dataset: every edge type's weights (float32 and float64) in its parts, CSC
 * and CSR, so both directions give the unpartitioned batches. */
static void test_typed_parts_equal(void **state) {
  (void)state;
  const double wr[] = {1, 10, 0, 100, 1000, 3}, wq[] = {50, 1, 5, 0, 20, 400, 2};
  char *tmp = fot_tmpdir(), *dir = typed_weighted(tmp, "ds", wr, 6, wq, 7, true);
  char *pdir = fot_path(tmp, "p");
  fo_dataset_t *d, *pd;
  fo_partition_opts po;
  fo_batch_t *b1, *b2;
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  fo_partition_opts_init(&po);
  po.n_parts = 2;
  assert_fo_ok(fo_partition(dir, pdir, &po, NULL));
  assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
  assert_fo_ok(fo_dataset_verify(pd));
  assert_fo_ok(fo_batch_create(&b1));
  assert_fo_ok(fo_batch_create(&b2));
  for (int k = 0; k < 4; k++) {
    const int32_t f[] = {2, 2};
    fo_sampler_opts o;
    fo_sampler_t *s1, *s2;
    const int32_t ti = fo_dataset_node_type_find(d, k & 2 ? "u" : "i");
    fo_sampler_opts_init(&o);
    o.fanouts = f;
    o.n_hops = 2;
    o.replace = k & 1;
    o.weighted = true;
    o.edge_dir = k & 2 ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
    o.seed = 5;
    assert_fo_ok(fo_sampler_create(d, &o, &s1));
    assert_fo_ok(fo_sampler_create(pd, &o, &s2));
    for (uint64_t bi = 0; bi < 50; bi++) {
      const int64_t seeds[] = {0, 1};
      assert_fo_ok(fo_sampler_sample_typed(s1, ti, seeds, 2, 0, bi, b1));
      assert_fo_ok(fo_sampler_sample_typed(s2, ti, seeds, 2, 0, bi, b2));
      assert_true(b1->n_edges > 0);
      same_typed(b1, b2);
    }
    fo_sampler_destroy(s1);
    fo_sampler_destroy(s2);
    {
      fo_loader_opts lo;
      fo_loader_opts_init(&lo);
      lo.sampler = o;
      lo.batch_size = 1;
      lo.input_type = k & 2 ? "u" : "i";
      lo.features = lo.labels = false;
      fot_dist_same(d, pd, 2, &lo);
    }
  }
  fo_batch_destroy(b1);
  fo_batch_destroy(b2);
  fo_dataset_close(pd);
  fo_dataset_close(d);
  free(pdir);
  free(dir);
  fot_rmtree(tmp);
}

/* ---- the one-word alias draw (sample_internal.h) ------------------------------------------- */

/* One draw at a row of deg edges from the words x then c (fed through the stream's buffer, no
 * Philox): its result and the words it took. */
static int64_t one_draw(const fo__aliasrow *a, uint32_t x, uint32_t c, int *used) {
  fo__rng r;
  int64_t j;
  uint32_t d;
  memset(&r, 0, sizeof r);
  r.used = 0;
  r.out[0] = x;
  r.out[1] = c;
  r.out[2] = 0xdeadbeef; /* never reached by a draw that needs at most two words */
  fo__alias_pick(&r, a, 1, &j, &d);
  j = fo__alias_one(&r, a, j, d);
  *used = r.used;
  return j;
}

/* Exhaustively over the words that land on offset j of a row of deg edges, whose entry has
 * threshold thr and alias g: exactly L = floor(2^32 / deg) words are accepted (the others are
 * Lemire's rejections and take the next word), a word decides alone except in one block, where
 * the second word c keeps j iff c < thr L mod 2^32, and the probability of keeping j summed over
 * the accepted words and second words is thr L / 2^32, i.e. P(keep | j) = thr / 2^32 exactly. */
static void check_one_word(int64_t deg, int64_t *al, int64_t j, uint32_t thr) {
  fo__aliasrow a;
  const int64_t g = (j + 1) % deg;
  const uint64_t L = (UINT64_C(1) << 32) / (uint64_t)deg;
  const uint64_t frac = (uint64_t)thr * L & 0xffffffffu;
  const uint64_t x0 = (((uint64_t)j << 32) + (uint64_t)deg - 1) / (uint64_t)deg;
  const uint64_t x1 = ((((uint64_t)j + 1) << 32) - 1) / (uint64_t)deg;
  uint64_t acc = 0, amb = 0, keep = 0; /* keep: in units of 2^-32 */
  int used;
  al[j] = (int64_t)((uint64_t)g << 32 | thr);
  fo__alias_row_init(&a, al, deg);
  assert_int_equal(a.L, L);
  assert_int_equal(a.t, (UINT64_C(1) << 32) - L * (uint64_t)deg);
  for (uint64_t x = x0; x <= x1 && x <= UINT32_MAX; x++) {
    const uint32_t lo = (uint32_t)(x * (uint64_t)deg);
    int64_t k0, k1;
    if (lo < a.t) {
      /* rejected: the draw is the next word's (x0 of this offset's range, or the one after) */
      const uint32_t y = (uint32_t)(x == x0 ? x1 : x0);
      if ((uint32_t)((uint64_t)y * (uint64_t)deg) < a.t) continue;
      k0 = one_draw(&a, (uint32_t)x, y, &used);
      assert_true(used >= 2);
      assert_true(k0 == j || k0 == g);
      continue;
    }
    acc++;
    k0 = one_draw(&a, (uint32_t)x, 0, &used);
    if (used == 1) {
      k1 = one_draw(&a, (uint32_t)x, UINT32_MAX, &used);
      assert_int_equal(used, 1);
      assert_int_equal(k0, k1);
      assert_true(k0 == j || k0 == g);
      keep += k0 == j ? UINT64_C(1) << 32 : 0;
    } else {
      /* the one block the word cannot decide: the second word against thr L mod 2^32 */
      assert_int_equal(used, 2);
      amb++;
      assert_int_equal(k0, frac > 0 ? j : g);
      if (frac > 0) {
        assert_int_equal(one_draw(&a, (uint32_t)x, (uint32_t)(frac - 1), &used), j);
        assert_int_equal(one_draw(&a, (uint32_t)x, (uint32_t)frac, &used), g);
      }
      keep += frac;
    }
  }
  assert_int_equal(acc, L);
  assert_int_equal(amb, 1);
  assert_int_equal(keep, (uint64_t)thr * L);
  if (thr == 0) assert_int_equal(keep, 0); /* a zero-weight edge is never kept */
}

static void test_alias_one_word_exact(void **state) {
  /* rows with L = 4294, 2047 and 1365 words per offset (each checked offset enumerated whole);
   * thresholds at both ends, mid and odd values */
  const int64_t degs[] = {1000003, (INT64_C(1) << 21) + 1, 3 * (INT64_C(1) << 20) + 5};
  const uint32_t thrs[] = {0, 1, 12345, UINT32_C(0x80000000), UINT32_C(0x9E3779B9),
                           UINT32_MAX - 1, UINT32_MAX};
  (void)state;
  for (int di = 0; di < 3; di++) {
    const int64_t deg = degs[di];
    int64_t *al = calloc((size_t)deg, sizeof *al); /* pages not touched stay unallocated */
    const int64_t js[] = {0, deg / 2, deg - 1};
    assert_non_null(al);
    for (int ji = 0; ji < 3; ji++)
      for (int ti = 0; ti < 7; ti++) check_one_word(deg, al, js[ji], thrs[ti]);
    free(al);
  }
  {
    /* deg 1: L = 2^32, t = 0; the word is the coin, word == thr is the undecided block */
    int64_t al1[1] = {(int64_t)UINT32_C(1000)};
    fo__aliasrow a;
    int used;
    fo__alias_row_init(&a, al1, 1);
    assert_int_equal(a.L, UINT64_C(1) << 32);
    assert_int_equal(a.t, 0);
    assert_int_equal(one_draw(&a, 999, 0, &used), 0);
    assert_int_equal(used, 1);
    assert_int_equal(one_draw(&a, 1000, 0, &used), 0); /* alias of offset 0 is 0 */
    assert_int_equal(used, 2);
  }
  {
    /* rows of more than 2^31 edges: L = 1, every draw takes the second word (the two-word draw) */
    fo__aliasrow a;
    fo__alias_row_init(&a, NULL, (INT64_C(1) << 31) + 3);
    assert_int_equal(a.L, 1);
    assert_int_equal(a.t, (UINT64_C(1) << 32) - ((UINT64_C(1) << 31) + 3));
    fo__alias_row_init(&a, NULL, UINT32_MAX);
    assert_int_equal(a.L, 1);
    assert_int_equal(a.t, 1);
    fo__alias_row_init(&a, NULL, INT64_C(1) << 32);
    assert_int_equal(a.L, 1);
    assert_int_equal(a.t, 0);
    fo__alias_row_init(&a, NULL, INT64_C(1) << 20); /* a power of two: no rejection */
    assert_int_equal(a.L, UINT64_C(1) << 12);
    assert_int_equal(a.t, 0);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_weights_stored_aligned),
      cmocka_unit_test(test_weight_errors),
      cmocka_unit_test(test_verify_bad_weight),
      cmocka_unit_test(test_zero_weights_never_drawn),
      cmocka_unit_test(test_deterministic),
      cmocka_unit_test(test_with_replacement_distribution),
      cmocka_unit_test(test_without_replacement_distribution),
      cmocka_unit_test(test_alias_one_word_exact),
      cmocka_unit_test(test_weighted_temporal_distribution),
      cmocka_unit_test(test_weighted_node_time_unordered),
      cmocka_unit_test(test_weighted_node_time_boundary),
      cmocka_unit_test(test_weighted_temporal_edges),
      cmocka_unit_test(test_typed_weights_stored),
      cmocka_unit_test(test_typed_weight_errors),
      cmocka_unit_test(test_typed_weighted_distribution),
      cmocka_unit_test(test_parts_equal),
      cmocka_unit_test(test_temporal_parts_equal),
      cmocka_unit_test(test_typed_parts_equal),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
