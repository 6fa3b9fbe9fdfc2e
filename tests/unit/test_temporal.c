/*
 * tests/unit/test_temporal.c: edge and node times (import, storage, verify) and temporal
 * sampling (fo_sampler_opts.temporal, fo_sampler_sample_at, the loader's input_time).
 *
 * Exact tests on stars whose leaf times sit at, just below and just above the seed time: every
 * eligibility rule (inclusive, strict, window) in both modes; ties; `last` is exactly the most
 * recent eligible edges. Random graphs with random times against the temporal reference
 * (tests/support/ref_temporal.c), edge for edge, every strategy and mode. A chi-square test of
 * uniformity among the eligible edges (fixed seed; threshold at p ~ 1e-6, so a kernel drawing
 * from the whole row fails by orders of magnitude). Determinism across loader threads and
 * across parts (a partitioned dataset gives the unpartitioned batches). Error paths: code and
 * message substring.
 */
#include "support.h"

#include "io/io_internal.h" /* fo__parse_iso8601 */

#include <math.h>
#include <sys/stat.h>

typedef struct tds {
  char *tmp, *dir;
  fo_dataset_t *d;
} tds;

/* Import src[i] -> dst[i] with edge times et (NULL: none) and node times nt[n] (NULL: none),
 * CSC and CSR, and open it. */
static void tds_make(tds *g, const int64_t *src, const int64_t *dst, int64_t m, const int64_t *et,
                     const int64_t *nt, int64_t n, bool undirected) {
  fo_import_opts o;
  char *ep = NULL, *np = NULL;
  g->tmp = fot_tmpdir();
  g->dir = fot_path(g->tmp, "ds");
  fo_import_opts_init(&o);
  o.csc = o.csr = true;
  o.undirected = undirected;
  if (et) {
    int64_t shape[1] = {m};
    ep = fot_path(g->tmp, "t.npy");
    fot_write_npy(ep, "<i8", 1, shape, et, (size_t)m * 8);
    o.edge_time = ep;
  }
  if (nt) {
    int64_t shape[1] = {n};
    np = fot_path(g->tmp, "nt.npy");
    fot_write_npy(np, "<i8", 1, shape, nt, (size_t)n * 8);
    o.node_time = np;
    o.num_nodes = n;
  }
  assert_fo_ok(fo_import_edges(src, dst, m, g->dir, &o, NULL));
  assert_fo_ok(fo_dataset_open(g->dir, NULL, &g->d));
  free(ep);
  free(np);
}

static void tds_free(tds *g) {
  fo_dataset_close(g->d);
  free(g->dir);
  fot_rmtree(g->tmp);
}

static int64_t ldi(const void *a, int bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

static fo_sampler_t *tsampler(const fo_dataset_t *d, const int32_t *f, int32_t hops,
                              fo_temporal_strategy st, fo_time_attr at, bool strict, int64_t window,
                              bool replace, fo_sampler_opts *out_o) {
  fo_sampler_opts o;
  fo_sampler_t *s;
  fo_sampler_opts_init(&o);
  o.fanouts = f;
  o.n_hops = hops;
  o.temporal = st;
  o.time_attr = at;
  o.time_strict = strict;
  o.time_window = window;
  o.replace = replace;
  o.seed = 7;
  assert_fo_ok(fo_sampler_create(d, &o, &s));
  if (out_o) *out_o = o;
  return s;
}

/* ---- data ---------------------------------------------------------------------------------- */

static void test_times_stored_sorted(void **state) {
  (void)state;
  /* column 0: 1 (t 30), 2 (t 10), 3 (t 20), 4 (t 10): sorted 2, 4, 3, 1 (ties in input order) */
  const int64_t src[] = {1, 2, 3, 4, 0}, dst[] = {0, 0, 0, 0, 1}, et[] = {30, 10, 20, 10, 5};
  for (int und = 0; und < 2; und++) {
    tds g;
    fo_topology csc, csr;
    const fo_array_info *unused = NULL;
    (void)unused;
    tds_make(&g, src, dst, 5, et, NULL, 0, und);
    assert_fo_ok(fo_dataset_topology(g.d, FO_EDGE_DIR_IN, &csc));
    assert_fo_ok(fo_dataset_topology(g.d, FO_EDGE_DIR_OUT, &csr));
    assert_non_null(csc.time);
    assert_non_null(csr.time);
    if (!und) {
      const int64_t want_nbr[] = {2, 4, 3, 1}, want_t[] = {10, 10, 20, 30};
      for (int j = 0; j < 4; j++) {
        assert_int_equal(ldi(csc.indices, csc.indices_bytes, csc.indptr[0] + j), want_nbr[j]);
        assert_int_equal(csc.time[csc.indptr[0] + j], want_t[j]);
      }
    }
    /* every stored edge (u, v) carries its input edge's time; rows ascend */
    for (int dir = 0; dir < 2; dir++) {
      const fo_topology *t = dir ? &csr : &csc;
      for (int64_t v = 0; v < t->n_rows; v++)
        for (int64_t p = t->indptr[v]; p < t->indptr[v + 1]; p++) {
          int64_t u = ldi(t->indices, t->indices_bytes, p), a = dir ? v : u, b = dir ? u : v;
          int64_t want = -1;
          /* the first copy wins: the input edge a -> b, else (undirected) the reverse of b -> a */
          for (int i = 4; i >= 0; i--)
            if (und && src[i] == b && dst[i] == a) want = et[i];
          for (int i = 4; i >= 0; i--)
            if (src[i] == a && dst[i] == b) want = et[i];
          assert_int_equal(t->time[p], want);
          if (p > t->indptr[v]) assert_true(t->time[p - 1] <= t->time[p]);
        }
    }
    assert_fo_ok(fo_dataset_verify(g.d));
    tds_free(&g);
  }
}

static void test_verify_unsorted_times(void **state) {
  (void)state;
  const int64_t src[] = {1, 2, 3}, dst[] = {0, 0, 0}, et[] = {1, 2, 3};
  tds g;
  tds_make(&g, src, dst, 3, et, NULL, 0, false);
  fo_dataset_close(g.d);
  fot_set_array_elem(g.dir, "csc_time", 0, 99, true);
  assert_fo_ok(fo_dataset_open(g.dir, NULL, &g.d));
  assert_fo_error(fo_dataset_verify(g.d), FO_EFORMAT, "is not sorted by time");
  tds_free(&g);
}

static void test_node_time_stored(void **state) {
  (void)state;
  /* column 0: sources 1 (t 5), 2 (t -3), 3 (t 7), 4 (t -3): ordered 2, 4, 1, 3; row 1 of the
   * CSR (1 -> 0, 1 -> 2, 1 -> 4): targets ordered 2, 4 (both -3), 0 */
  const int64_t src[] = {1, 2, 3, 4, 1, 1}, dst[] = {0, 0, 0, 0, 2, 4}, nt[] = {9, 5, -3, 7, -3};
  const int64_t *t;
  int64_t n;
  fo_topology csc, csr;
  tds g;
  tds_make(&g, src, dst, 6, NULL, nt, 5, false);
  assert_fo_ok(fo_dataset_node_time(g.d, &t, &n));
  assert_int_equal(n, 5);
  for (int i = 0; i < 5; i++) assert_int_equal(t[i], nt[i]);
  assert_fo_ok(fo_dataset_topology(g.d, FO_EDGE_DIR_IN, &csc));
  assert_fo_ok(fo_dataset_topology(g.d, FO_EDGE_DIR_OUT, &csr));
  assert_true(csc.rows_by_node_time && csr.rows_by_node_time);
  {
    const int64_t want_c[] = {2, 4, 1, 3}, want_r[] = {2, 4, 0};
    for (int j = 0; j < 4; j++) assert_int_equal(ldi(csc.indices, csc.indices_bytes, csc.indptr[0] + j), want_c[j]);
    for (int j = 0; j < 3; j++) assert_int_equal(ldi(csr.indices, csr.indices_bytes, csr.indptr[1] + j), want_r[j]);
  }
  assert_fo_ok(fo_dataset_verify(g.d));
  /* a node time changed after import breaks the order: verify names the row */
  fo_dataset_close(g.d);
  fot_set_array_elem(g.dir, "node_time", 2, 100, true);
  assert_fo_ok(fo_dataset_open(g.dir, NULL, &g.d));
  assert_fo_error(fo_dataset_verify(g.d), FO_EFORMAT, "is not ordered by neighbor node time");
  tds_free(&g);
}

static void test_import_time_errors(void **state) {
  (void)state;
  char *tmp = fot_tmpdir(), *dir = fot_path(tmp, "ds"), *el = fot_path(tmp, "e.txt");
  char *tp = fot_path(tmp, "t.npy");
  const int64_t src[] = {0, 1, 2}, dst[] = {1, 2, 0}, t2[] = {1, 2};
  fo_import_opts o;
  struct stat st;
  int64_t shape[1] = {2};
  /* an edge-time file of the wrong length */
  fot_write_npy(tp, "<i8", 1, shape, t2, 16);
  fo_import_opts_init(&o);
  o.edge_time = tp;
  assert_fo_error(fo_import_edges(src, dst, 3, dir, &o, NULL), FO_EFORMAT, "one time per input edge");
  assert_int_not_equal(stat(dir, &st), 0);
  /* a node-time file of the wrong length */
  fo_import_opts_init(&o);
  o.node_time = tp;
  assert_fo_error(fo_import_edges(src, dst, 3, dir, &o, NULL), FO_EINVAL, "has 2 entries, the graph has 3 nodes");
  assert_int_not_equal(stat(dir, &st), 0);
  /* time column: junk, an ISO date that does not exist, a missing column */
  {
    const struct {
      const char *text;
      fo_time_format fmt;
      int code;
      const char *msg;
    } bad[] = {
        {"0 1 5\n1 2 x7\n", FO_TIME_UNIX, FO_EFORMAT, "e.txt:2: time 'x7' is not an integer"},
        {"0 1 2024-02-30\n", FO_TIME_ISO8601, FO_EFORMAT, "e.txt:1: time '2024-02-30' is not an ISO 8601"},
        {"0 1 2023-02-29\n", FO_TIME_ISO8601, FO_EFORMAT, "time '2023-02-29'"},
        {"0 1 2024-01-01T25:00\n", FO_TIME_ISO8601, FO_EFORMAT, "2024-01-01T25:00"},
        {"0 1 5\n1 2\n", FO_TIME_UNIX, FO_EFORMAT, "e.txt:2: no time in column 2"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      fot_write_file(el, bad[i].text);
      fo_import_opts_init(&o);
      o.time_column = 2;
      o.time_format = bad[i].fmt;
      assert_fo_error(fo_import((const char *const[]){el}, 1, dir, &o, NULL), bad[i].code, bad[i].msg);
      assert_int_not_equal(stat(dir, &st), 0);
    }
  }
  /* weight column: NaN, inf, negative, junk */
  {
    const struct {
      const char *text;
      int code;
      const char *msg;
    } bad[] = {
        {"0 1 nan\n", FO_ERANGE, "e.txt:1: weight 'nan' is NaN"},
        {"0 1 1\n1 2 inf\n", FO_ERANGE, "e.txt:2: weight 'inf' is infinite"},
        {"0 1 -0.5\n", FO_ERANGE, "weight '-0.5' is negative"},
        {"0 1 1.5x\n", FO_EFORMAT, "weight '1.5x' is not a number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      fot_write_file(el, bad[i].text);
      fo_import_opts_init(&o);
      o.weight_column = 2;
      assert_fo_error(fo_import((const char *const[]){el}, 1, dir, &o, NULL), bad[i].code, bad[i].msg);
      assert_int_not_equal(stat(dir, &st), 0);
    }
  }
  /* option conflicts */
  fo_import_opts_init(&o);
  o.time_column = 2;
  o.edge_time = tp;
  assert_fo_error(fo_import((const char *const[]){el}, 1, dir, &o, NULL), FO_EINVAL, "use one");
  fo_import_opts_init(&o);
  o.time_format = FO_TIME_ISO8601;
  assert_fo_error(fo_import((const char *const[]){el}, 1, dir, &o, NULL), FO_EINVAL, "--time-format applies to --time-col");
  fo_import_opts_init(&o);
  o.time_column = 1;
  assert_fo_error(fo_import((const char *const[]){el}, 1, dir, &o, NULL), FO_EINVAL, "also the source or target");
  free(tp);
  free(el);
  free(dir);
  fot_rmtree(tmp);
}

static void test_iso8601(void **state) {
  (void)state;
  const struct {
    const char *s;
    int64_t want;
  } ok[] = {{"1970-01-01", 0},
            {"2004-04-15 14:56:01", 1082040961},
            {"2004-04-15T14:56:01Z", 1082040961},
            {"2004-04-15T16:56:01+02:00", 1082040961},
            {"2004-04-15T09:56:01-0500", 1082040961},
            {"2004-04-15T14:56", 1082040960},
            {"2004-04-15T14:56:01.999", 1082040961},
            {"2000-02-29", 951782400},
            {"1969-12-31", -86400}};
  const char *bad[] = {"", "2004-4-15", "2004-13-01", "2004-00-10", "2004-04-31", "1900-02-29",
                       "2004-04-15T", "2004-04-15T14", "2004-04-15T14:60", "2004-04-15X",
                       "2004-04-15T14:56:01+2", "2004-04-15T14:56:01.", "20040415"};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    int64_t v = 12345;
    if (!fo__parse_iso8601(ok[i].s, strlen(ok[i].s), &v) || v != ok[i].want)
      fail_msg("'%s' gave %lld, expected %lld", ok[i].s, (long long)v, (long long)ok[i].want);
  }
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    int64_t v;
    if (fo__parse_iso8601(bad[i], strlen(bad[i]), &v)) fail_msg("'%s' was accepted", bad[i]);
  }
}

static void test_edgelist_columns(void **state) {
  (void)state;
  /* time column (iso8601) and weight column: stored aligned, rows sorted by time */
  char *tmp = fot_tmpdir(), *dir = fot_path(tmp, "ds"), *el = fot_path(tmp, "e.txt");
  fo_import_opts o;
  fo_dataset_t *d;
  fo_topology t;
  fot_write_file(el, "1,0,2.5,2020-01-02\n2,0,0,2020-01-01\n3,0,1,2020-01-03T00:00:01Z\n");
  fo_import_opts_init(&o);
  o.weight_column = 2;
  o.time_column = 3;
  o.time_format = FO_TIME_ISO8601;
  assert_fo_ok(fo_import((const char *const[]){el}, 1, dir, &o, NULL));
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  assert_fo_ok(fo_dataset_topology(d, FO_EDGE_DIR_IN, &t));
  assert_int_equal(t.weight_bytes, 4);
  {
    const int64_t nbr[] = {2, 1, 3}, tm[] = {1577836800, 1577923200, 1578009601};
    const float w[] = {0, 2.5f, 1};
    for (int j = 0; j < 3; j++) {
      assert_int_equal(ldi(t.indices, t.indices_bytes, t.indptr[0] + j), nbr[j]);
      assert_int_equal(t.time[t.indptr[0] + j], tm[j]);
      assert_true(((const float *)t.weight)[t.indptr[0] + j] == w[j]);
    }
  }
  assert_fo_ok(fo_dataset_verify(d));
  fo_dataset_close(d);
  free(el);
  free(dir);
  fot_rmtree(tmp);
}

static void test_mtx_values_as_weights(void **state) {
  (void)state;
  char *tmp = fot_tmpdir(), *dir = fot_path(tmp, "ds"), *mp = fot_path(tmp, "m.mtx");
  fo_import_opts o;
  fo_dataset_t *d;
  fo_topology t;
  struct stat st;
  fot_write_file(mp, "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 0.25\n3 1 4\n");
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_MTX;
  o.weight_column = 2;
  assert_fo_ok(fo_import((const char *const[]){mp}, 1, dir, &o, NULL));
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  assert_fo_ok(fo_dataset_topology(d, FO_EDGE_DIR_IN, &t));
  assert_non_null(t.weight);
  for (int64_t v = 0; v < 3; v++)
    for (int64_t p = t.indptr[v]; p < t.indptr[v + 1]; p++) {
      int64_t u = ldi(t.indices, t.indices_bytes, p), lo = u < v ? u : v, hi = u < v ? v : u;
      float want = lo == 0 && hi == 1 ? 0.25f : 4.0f;
      assert_true(((const float *)t.weight)[p] == want);
    }
  fo_dataset_close(d);
  free(dir);
  dir = fot_path(tmp, "ds2");
  /* a negative value names file, line and value; a pattern file has no values */
  fot_write_file(mp, "%%MatrixMarket matrix coordinate real general\n3 3 2\n2 1 0.25\n3 1 -4\n");
  assert_fo_error(fo_import((const char *const[]){mp}, 1, dir, &o, NULL), FO_ERANGE, "m.mtx:4: weight '-4' is negative");
  assert_int_not_equal(stat(dir, &st), 0);
  fot_write_file(mp, "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n2 1\n");
  assert_fo_error(fo_import((const char *const[]){mp}, 1, dir, &o, NULL), FO_EINVAL, "column 2 of integer or real files");
  free(mp);
  free(dir);
  fot_rmtree(tmp);
}

/* ---- exact eligibility on stars ------------------------------------------------------------ */

/* Star: leaf j + 1 -> 0 with time tm[j] (edge mode) or node time tm[j] of leaf j + 1 (node
 * mode; node 0's time is 0). Sample seed 0 at time t with fanout -1 and return the sorted
 * times of the sampled edges in got[] (count). */
static int64_t star_sample(const int64_t *tm, int64_t k, fo_time_attr at, bool strict, int64_t window,
                           int64_t t, int64_t *got) {
  int64_t src[16], dst[16], nt[17];
  const int32_t f[] = {-1};
  tds g;
  fo_sampler_t *s;
  fo_batch_t *b;
  fo_topology top;
  const int64_t seed = 0;
  nt[0] = 0;
  for (int64_t j = 0; j < k; j++) {
    src[j] = j + 1;
    dst[j] = 0;
    nt[j + 1] = tm[j];
  }
  tds_make(&g, src, dst, k, at == FO_TIME_ATTR_EDGE ? tm : NULL, at == FO_TIME_ATTR_NODE ? nt : NULL,
           k + 1, false);
  s = tsampler(g.d, f, 1, FO_TEMPORAL_UNIFORM, at, strict, window, false, NULL);
  assert_fo_ok(fo_batch_create(&b));
  assert_fo_ok(fo_sampler_sample_at(s, 0, &seed, &t, 1, 0, 0, b));
  assert_fo_ok(fo_dataset_topology(g.d, FO_EDGE_DIR_IN, &top));
  for (int64_t e = 0; e < b->n_edges; e++) {
    const int64_t u = b->node[b->row[e]];
    got[e] = nt[u]; /* the leaf's time: its edge's (edge mode, by construction) or its node's */
    if (at == FO_TIME_ATTR_EDGE) got[e] = top.time[b->edge[e]];
  }
  for (int64_t x = 1; x < b->n_edges; x++)
    for (int64_t y = x; y > 0 && got[y - 1] > got[y]; y--) {
      int64_t z = got[y];
      got[y] = got[y - 1];
      got[y - 1] = z;
    }
  {
    const int64_t n = b->n_edges;
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
    tds_free(&g);
    return n;
  }
}

static void test_eligibility_boundaries(void **state) {
  (void)state;
  /* leaf times around t = 100: 98, 99, 100, 100, 101, -5, 90 */
  const int64_t tm[] = {98, 99, 100, 100, 101, -5, 90};
  const struct {
    bool strict;
    int64_t window, t;
    int64_t n;
    int64_t want[8];
  } cases[] = {
      {false, -1, 100, 6, {-5, 90, 98, 99, 100, 100}}, /* inclusive: ties at t are in */
      {true, -1, 100, 4, {-5, 90, 98, 99}},            /* strict: t itself is out */
      {false, 2, 100, 4, {98, 99, 100, 100}},           /* window [98, 100] */
      {true, 2, 100, 2, {98, 99}},                      /* [98, 100) */
      {false, 0, 100, 2, {100, 100}},                   /* window 0: exactly t */
      {true, 0, 100, 0, {0}},                           /* [100, 100): nothing */
      {false, -1, -6, 0, {0}},                          /* before every edge */
      {false, -1, -5, 1, {-5}},                         /* the earliest, inclusive */
      {true, -1, -5, 0, {0}},
      {false, -1, INT64_MAX, 7, {-5, 90, 98, 99, 100, 100, 101}},
      {true, 3, INT64_MIN, 0, {0}},
      {false, 1000, INT64_MIN + 5, 0, {0}},              /* a window reaching past INT64_MIN */
  };
  for (int mode = 0; mode < 2; mode++)
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      int64_t got[16];
      int64_t n = star_sample(tm, 7, mode ? FO_TIME_ATTR_NODE : FO_TIME_ATTR_EDGE, cases[c].strict,
                              cases[c].window, cases[c].t, got);
      if (n != cases[c].n) fail_msg("mode %d case %zu: %lld edges, expected %lld", mode, c, (long long)n, (long long)cases[c].n);
      for (int64_t j = 0; j < n; j++)
        if (got[j] != cases[c].want[j])
          fail_msg("mode %d case %zu: edge %lld has time %lld, expected %lld", mode, c, (long long)j,
                   (long long)got[j], (long long)cases[c].want[j]);
    }
}

/* The narrowing over rows of any time distribution: hubs of 1 to 3000 edges whose times are
 * spread evenly, skewed (powers of two, cubes), clustered at both ends of int64, all equal,
 * mostly equal with outliers, or INT64_MIN / 0 / INT64_MAX; seed times at, just below and just
 * above edge times and at the int64 extremes; inclusive, strict and windows; edge and node
 * time (rows ordered by neighbor time). fanout -1 samples every eligible edge, so each tree's
 * edges must be exactly the row's eligible ones (count, and each edge's time in bounds). The
 * interpolation search's every path (the short rows, its scan either way, the binary search
 * past the scan) gives the lower bound whatever the probes. */
static int64_t dist_time(int dist, int64_t j, int64_t deg, uint64_t *st) {
  const uint64_t r = fot_rand(st);
  switch (dist) {
  case 0: return (int64_t)(r % 1000);                                    /* even, ties */
  case 1: return 5;                                                      /* all equal */
  case 2: return (int64_t)1 << (r % 62);                                 /* powers of two */
  case 3: return r % 2 ? (int64_t)(r % 100) : INT64_MAX - (int64_t)(r % 100); /* two clusters */
  case 4: return r % 3 == 0 ? INT64_MIN : r % 3 == 1 ? 0 : INT64_MAX;     /* the extremes */
  case 5: return j * 7;                                                  /* exactly even */
  case 6: return j * j * j;                                              /* cubes */
  default: return r % 100 ? 0 : (int64_t)1000000000000 + (int64_t)(r % (uint64_t)(deg + 1)); /* outliers */
  }
}

static void test_narrow_any_times(void **state) {
  (void)state;
  static const int64_t degs[] = {1, 2, 8, 9, 10, 11, 12, 40, 300, 3000};
  enum { H = sizeof degs / sizeof degs[0], TPH = 40, NS = H * TPH };
  int64_t m = 0;
  for (int h = 0; h < H; h++) m += degs[h];
  const int64_t n = H + m; /* hubs 0..H-1, then one leaf per edge */
  int64_t *src = malloc((size_t)m * 8), *dst = malloc((size_t)m * 8), *et = malloc((size_t)m * 8);
  int64_t *nt = malloc((size_t)n * 8), *lt = malloc((size_t)n * 8), *first = malloc((size_t)H * 8);
  int64_t seeds[NS], times[NS], cnt[NS];
  const int32_t f[] = {-1};
  const int64_t windows[] = {-1, 0, 3, (int64_t)1 << 40};
  fo_batch_t *b;
  uint64_t st = fot_seed(23);
  fot_note_seed(st);
  assert_fo_ok(fo_batch_create(&b));
  for (int dist = 0; dist < 8; dist++)
    for (int at = 0; at < 2; at++) {
      tds g;
      int64_t e = 0;
      for (int h = 0; h < H; h++) {
        first[h] = e;
        nt[h] = 0;
        for (int64_t j = 0; j < degs[h]; j++, e++) {
          src[e] = H + e;
          dst[e] = h;
          et[e] = dist_time(dist, j, degs[h], &st);
          nt[H + e] = lt[H + e] = et[e]; /* the leaf's time: its edge's or its node's */
        }
      }
      tds_make(&g, src, dst, m, at ? NULL : et, at ? nt : NULL, n, false);
      if (at) {
        fo_topology top;
        assert_fo_ok(fo_dataset_topology(g.d, FO_EDGE_DIR_IN, &top));
        assert_true(top.rows_by_node_time);
      }
      for (int h = 0, k = 0; h < H; h++)
        for (int i = 0; i < TPH; i++, k++) {
          const uint64_t r = fot_rand(&st);
          seeds[k] = h;
          if (i < 4) times[k] = i == 0 ? INT64_MIN : i == 1 ? INT64_MAX : i == 2 ? INT64_MIN + 1 : INT64_MAX - 1;
          else if (i < 6) times[k] = (int64_t)fot_rand(&st);
          else {
            const int64_t x = et[first[h] + (int64_t)(r % (uint64_t)degs[h])], d = (int64_t)(r >> 40) % 3 - 1;
            times[k] = (d < 0 && x == INT64_MIN) || (d > 0 && x == INT64_MAX) ? x : x + d;
          }
        }
      for (int strict = 0; strict < 2; strict++)
        for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
          fo_sampler_t *s = tsampler(g.d, f, 1, FO_TEMPORAL_UNIFORM, at ? FO_TIME_ATTR_NODE : FO_TIME_ATTR_EDGE,
                                     strict, windows[w], false, NULL);
          assert_fo_ok(fo_sampler_sample_at(s, 0, seeds, times, NS, 0, 0, b));
          memset(cnt, 0, sizeof cnt);
          for (int64_t x = 0; x < b->n_edges; x++) {
            const int64_t i = b->col[x], u = b->node[b->row[x]], t = times[i];
            const int64_t hi = strict && t > INT64_MIN ? t - 1 : t; /* strict at INT64_MIN: nothing (below) */
            const int64_t lo = windows[w] < 0 || t < INT64_MIN + windows[w] ? INT64_MIN : t - windows[w];
            assert_true(i >= 0 && i < NS && u >= H && u < n);
            if (lt[u] > hi || lt[u] < lo || (strict && t == INT64_MIN))
              fail_msg("dist %d mode %d strict %d window %lld: seed %lld at %lld got a leaf at %lld", dist,
                       at, strict, (long long)windows[w], (long long)seeds[i], (long long)t, (long long)lt[u]);
            cnt[i]++;
          }
          for (int64_t i = 0; i < NS; i++) {
            const int h = (int)seeds[i];
            const int64_t t = times[i], hi = strict && t > INT64_MIN ? t - 1 : t;
            const int64_t lo = windows[w] < 0 || t < INT64_MIN + windows[w] ? INT64_MIN : t - windows[w];
            int64_t want = 0;
            for (int64_t j = first[h]; j < first[h] + degs[h]; j++)
              want += !(strict && t == INT64_MIN) && et[j] >= lo && et[j] <= hi;
            if (cnt[i] != want)
              fail_msg("dist %d mode %d strict %d window %lld: hub %d (%lld edges) at %lld: %lld edges, "
                       "expected %lld", dist, at, strict, (long long)windows[w], h, (long long)degs[h],
                       (long long)t, (long long)cnt[i], (long long)want);
          }
          fo_sampler_destroy(s);
        }
      tds_free(&g);
    }
  fo_batch_destroy(b);
  free(src);
  free(dst);
  free(et);
  free(nt);
  free(lt);
  free(first);
}

/* A neighbor id out of range met by the node-time search (the rows ordered by neighbor time)
 * fails with the array, position and value, in a long row (the search's end read) and a short
 * one (counted through). */
static void test_node_time_bad_index(void **state) {
  (void)state;
  for (int longrow = 0; longrow < 2; longrow++) {
    const int64_t k = longrow ? 40 : 5;
    int64_t src[40], dst[40], nt[41];
    const int32_t f[] = {-1};
    const int64_t seed = 0, t = 1000, tnone = -1;
    tds g;
    fo_batch_t *b;
    nt[0] = 0;
    for (int64_t j = 0; j < k; j++) {
      src[j] = j + 1;
      dst[j] = 0;
      nt[j + 1] = 10 * j;
    }
    tds_make(&g, src, dst, k, NULL, nt, k + 1, false);
    fo_dataset_close(g.d);
    {
      /* csc_indices[0] (the hub's row starts the array) := 1000 */
      char *p = fot_path(g.dir, "csc_indices.npy"), hdr[256];
      FILE *fp = fopen(p, "r+b");
      size_t n;
      long off;
      assert_non_null(fp);
      n = fread(hdr, 1, sizeof hdr, fp);
      assert_true(n > 10);
      off = (long)(memchr(hdr, '\n', n) ? (char *)memchr(hdr, '\n', n) - hdr + 1 : 0);
      assert_true(off > 0);
      fseek(fp, off, SEEK_SET);
      if (strstr(hdr, "<i4")) {
        const int32_t v = 1000;
        assert_int_equal(fwrite(&v, 4, 1, fp), 1);
      } else {
        const int64_t v = 1000;
        assert_int_equal(fwrite(&v, 8, 1, fp), 1);
      }
      fclose(fp);
      free(p);
    }
    assert_fo_ok(fo_dataset_open(g.dir, NULL, &g.d));
    fo_sampler_t *s = tsampler(g.d, f, 1, FO_TEMPORAL_UNIFORM, FO_TIME_ATTR_NODE, false, -1, false, NULL);
    assert_fo_ok(fo_batch_create(&b));
    /* t 1000: every edge eligible; t -1: none (only the search reads the bad id) */
    for (int c = 0; c < 2; c++)
      assert_fo_error(fo_sampler_sample_at(s, 0, &seed, c ? &tnone : &t, 1, 0, 0, b), FO_EFORMAT,
                      "csc_indices[0] = 1000 is not a node id in [0, ");
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
    tds_free(&g);
  }
}

static void test_last_is_most_recent(void **state) {
  (void)state;
  /* edge mode: times 5, 1, 9, 3, 9, 7 (ties 9, 9 in input order: leaves 3 then 5) */
  const int64_t src[] = {1, 2, 3, 4, 5, 6}, dst[] = {0, 0, 0, 0, 0, 0}, et[] = {5, 1, 9, 3, 9, 7};
  const int64_t nt[] = {0, 5, 1, 9, 3, 9, 7};
  const int64_t seed = 0;
  for (int mode = 0; mode < 2; mode++) {
    tds g;
    fo_batch_t *b;
    tds_make(&g, src, dst, 6, mode ? NULL : et, mode ? nt : NULL, 7, false);
    assert_fo_ok(fo_batch_create(&b));
    const struct {
      int32_t f;
      int64_t t;
      int64_t n, leaves[6];
    } cases[] = {
        {2, 8, 2, {1, 6}},       /* eligible 2(1), 4(3), 1(5), 6(7): the last two */
        {3, 9, 3, {6, 3, 5}},    /* with the ties at 9, in input order */
        {10, 4, 2, {2, 4}},      /* fewer eligible than the fanout */
        {-1, 100, 6, {2, 4, 1, 6, 3, 5}},
        {0, 100, 0, {0}},
        {1, 0, 0, {0}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
      for (int rep = 0; rep < 2; rep++) {
        fo_sampler_t *s = tsampler(g.d, &cases[c].f, 1, FO_TEMPORAL_LAST,
                                   mode ? FO_TIME_ATTR_NODE : FO_TIME_ATTR_EDGE, false, -1, rep, NULL);
        assert_fo_ok(fo_sampler_sample_at(s, 0, &seed, &cases[c].t, 1, 3, 1, b));
        if (b->n_edges != cases[c].n)
          fail_msg("mode %d case %zu: %lld edges, expected %lld", mode, c, (long long)b->n_edges,
                   (long long)cases[c].n);
        for (int64_t e = 0; e < b->n_edges; e++) assert_int_equal(b->node[b->row[e]], cases[c].leaves[e]);
        fo_sampler_destroy(s);
      }
    fo_batch_destroy(b);
    tds_free(&g);
  }
}

/* ---- against the reference ----------------------------------------------------------------- */

static void random_temporal_as(tds *g, int64_t n, int64_t m, uint64_t seed, int64_t tmax, bool und,
                               bool edge_times);
static void random_temporal(tds *g, int64_t n, int64_t m, uint64_t seed, int64_t tmax, bool und) {
  random_temporal_as(g, n, m, seed, tmax, und, true);
}
/* edge_times false: node times only, so rows are ordered by neighbor node time at import */
static void random_temporal_as(tds *g, int64_t n, int64_t m, uint64_t seed, int64_t tmax, bool und,
                               bool edge_times) {
  uint64_t st = seed;
  int64_t *src = malloc((size_t)m * 8), *dst = malloc((size_t)m * 8), *et = malloc((size_t)m * 8);
  int64_t *nt = malloc((size_t)n * 8);
  for (int64_t i = 0; i < m; i++) {
    src[i] = (int64_t)(fot_rand(&st) % (uint64_t)n);
    dst[i] = (int64_t)(fot_rand(&st) % (uint64_t)(n / 4 + 1)); /* hubs: long rows */
    et[i] = (int64_t)(fot_rand(&st) % (uint64_t)tmax);
  }
  for (int64_t v = 0; v < n; v++) nt[v] = (int64_t)(fot_rand(&st) % (uint64_t)tmax);
  tds_make(g, src, dst, m, edge_times ? et : NULL, nt, n, und);
  free(src);
  free(dst);
  free(et);
  free(nt);
}

static void test_against_reference(void **state) {
  (void)state;
  tds g;
  fo_batch_t *b;
  const int32_t fans[][3] = {{5, 3, 2}, {-1, 2, 0}, {40, 1, 1}, {100, 70, 3}};
  uint64_t seed = fot_seed(11);
  fot_note_seed(seed);
  assert_fo_ok(fo_batch_create(&b));
  /* edge and node times (node-time mode filters rows sorted by edge time), then node times
   * only (rows ordered by neighbor node time: node-time mode narrows by binary search) */
  for (int layout = 0; layout < 2; layout++) {
  random_temporal_as(&g, 600, 9000, seed, 1000, false, layout == 0);
  if (layout) {
    fo_topology top;
    assert_fo_ok(fo_dataset_topology(g.d, FO_EDGE_DIR_IN, &top));
    assert_true(top.rows_by_node_time);
  }
  for (int st = 1; st <= 2; st++)
    for (int at = layout; at < 2; at++)
      for (int rep = 0; rep < 2; rep++)
        for (int strict = 0; strict < 2; strict++)
          for (int win = 0; win < 2; win++)
            for (size_t fi = 0; fi < sizeof fans / sizeof fans[0]; fi++)
              for (int dir = 0; dir < 2; dir++) {
                fo_sampler_opts o;
                fo_sampler_t *s;
                int64_t seeds[24], times[24];
                uint64_t rs = seed + (uint64_t)(fi * 131 + (size_t)st * 7 + (size_t)at * 3);
                fot_ref_batch r;
                fo_sampler_opts_init(&o);
                o.fanouts = fans[fi];
                o.n_hops = 3;
                o.temporal = (fo_temporal_strategy)st;
                o.time_attr = (fo_time_attr)at;
                o.time_strict = strict;
                o.time_window = win ? 300 : -1;
                o.replace = rep;
                o.edge_dir = dir ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
                o.seed = 3;
                assert_fo_ok(fo_sampler_create(g.d, &o, &s));
                for (int i = 0; i < 24; i++) {
                  seeds[i] = (int64_t)(fot_rand(&rs) % 150);
                  times[i] = (int64_t)(fot_rand(&rs) % 1100);
                }
                /* given seed times, then the seeds' node times */
                for (int given = 0; given < 2; given++) {
                  assert_fo_ok(fo_sampler_sample_at(s, 0, seeds, given ? times : NULL, 24, 2, 5, b));
                  assert_fo_ok(fot_ref_sample_temporal(g.d, &o, seeds, given ? times : NULL, 24, 2, 5, &r));
                  fot_assert_same_batch(b, &r);
                  fot_ref_free(&r);
                }
                fo_sampler_destroy(s);
              }
  tds_free(&g);
  }
  fo_batch_destroy(b);
}

/* No sampled edge is later than its tree's seed time: over the whole graph, every node a seed. */
static void test_no_future_random(void **state) {
  (void)state;
  tds g;
  fo_batch_t *b;
  fo_topology top;
  const int64_t *nt;
  int64_t n_nt;
  const int32_t f[] = {10, 10};
  random_temporal(&g, 400, 6000, 5, 500, true);
  assert_fo_ok(fo_dataset_node_time(g.d, &nt, &n_nt));
  assert_fo_ok(fo_dataset_topology(g.d, FO_EDGE_DIR_IN, &top));
  assert_fo_ok(fo_batch_create(&b));
  for (int at = 0; at < 2; at++)
    for (int strict = 0; strict < 2; strict++) {
      fo_sampler_opts o;
      fo_sampler_t *s = tsampler(g.d, f, 2, FO_TEMPORAL_UNIFORM, (fo_time_attr)at, strict, -1, false, &o);
      for (int64_t v0 = 0; v0 < 400; v0 += 50) {
        int64_t seeds[50];
        for (int i = 0; i < 50; i++) seeds[i] = v0 + i;
        assert_fo_ok(fo_sampler_sample(s, seeds, 50, 0, (uint64_t)v0, b));
        for (int64_t e = 0; e < b->n_edges; e++) {
          const int64_t tree = b->batch[b->col[e]], tt = nt[seeds[tree]];
          const int64_t x = at ? nt[b->node[b->row[e]]] : top.time[b->edge[e]];
          if (!fot_time_eligible(&o, x, tt))
            fail_msg("mode %d strict %d: edge %lld (time %lld) in the tree of seed %lld at %lld", at,
                     strict, (long long)b->edge[e], (long long)x, (long long)seeds[tree], (long long)tt);
          assert_int_equal(b->batch[b->row[e]], tree); /* disjoint: the neighbor joins the tree */
        }
      }
      fo_sampler_destroy(s);
    }
  fo_batch_destroy(b);
  tds_free(&g);
}

/* ---- uniformity ---------------------------------------------------------------------------- */

static void test_uniform_among_eligible(void **state) {
  (void)state;
  /* star of 40 leaves with times 0..39; at t = 19 (inclusive) leaves with times 0..19 are
   * eligible; draws with replacement (fanout 4) and 3-subsets without, over many batches:
   * each eligible leaf is drawn equally often, no other ever */
  int64_t src[40], dst[40], et[40];
  const int64_t seed = 0, t = 19;
  tds g;
  fo_batch_t *b;
  fo_topology top;
  for (int j = 0; j < 40; j++) {
    src[j] = j + 1;
    dst[j] = 0;
    et[j] = (j * 17) % 40; /* a permutation of 0..39, not in time order */
  }
  tds_make(&g, src, dst, 40, et, NULL, 0, false);
  assert_fo_ok(fo_dataset_topology(g.d, FO_EDGE_DIR_IN, &top));
  assert_fo_ok(fo_batch_create(&b));
  for (int rep = 0; rep < 2; rep++) {
    const int32_t f[] = {rep ? 4 : 3};
    fo_sampler_t *s = tsampler(g.d, f, 1, FO_TEMPORAL_UNIFORM, FO_TIME_ATTR_EDGE, false, -1, rep, NULL);
    double cnt[40] = {0}, total = 0, chi = 0;
    const int B = 20000;
    for (int k = 0; k < B; k++) {
      assert_fo_ok(fo_sampler_sample_at(s, 0, &seed, &t, 1, 0, (uint64_t)k, b));
      assert_int_equal(b->n_edges, f[0]);
      for (int64_t e = 0; e < b->n_edges; e++) {
        int64_t tm = top.time[b->edge[e]];
        if (tm > t) fail_msg("drew an edge of time %lld > %lld", (long long)tm, (long long)t);
        cnt[tm]++;
        total++;
      }
    }
    for (int j = 0; j <= 19; j++) {
      double ex = total / 20;
      chi += (cnt[j] - ex) * (cnt[j] - ex) / ex;
    }
    /* 19 degrees of freedom: P(chi2 > 55) ~ 2e-5; a kernel over the whole row fails by far */
    if (chi > 55) fail_msg("chi-square %.1f over 19 degrees of freedom (replace %d)", chi, rep);
    fo_sampler_destroy(s);
  }
  fo_batch_destroy(b);
  tds_free(&g);
}

/* ---- determinism: threads and parts -------------------------------------------------------- */

typedef struct tmode {
  fo_temporal_strategy st;
  fo_time_attr at;
  bool strict;
  int64_t window;
} tmode;

/* The loader options of an epoch in mode m. */
static void epoch_opts(fo_loader_opts *lo, int workers, const int64_t *inputs, const int64_t *itime,
                       int64_t n, tmode m) {
  static const int32_t f[] = {6, 4};
  fo_loader_opts_init(lo);
  lo->sampler.fanouts = f;
  lo->sampler.n_hops = 2;
  lo->sampler.temporal = m.st;
  lo->sampler.time_attr = m.at;
  lo->sampler.time_strict = m.strict;
  lo->sampler.time_window = m.window;
  lo->sampler.seed = 9;
  lo->batch_size = 16;
  lo->shuffle = true;
  lo->num_workers = workers;
  lo->input_nodes = inputs;
  lo->n_input_nodes = n;
  lo->input_time = itime;
  lo->features = lo->labels = false;
}

/* The digest of a loader epoch (up to 256 batches) with options lo. */
static uint64_t epoch_digest_typed(const fo_dataset_t *d, const fo_loader_opts *lo) {
  fo_loader_t *L;
  fo_loader_batch_t *bb;
  uint64_t dig[256];
  int64_t k = 0;
  assert_fo_ok(fo_loader_create(d, lo, &L));
  while (k < 256 && fo_loader_next(L, &bb) == FO_OK && bb) {
    dig[k++] = fo_loader_batch_digest(bb);
    fo_loader_release(L, bb);
  }
  fo_loader_destroy(L);
  assert_true(k > 0);
  return fo_digest_sequence(dig, k);
}

static uint64_t epoch_digest_as(const fo_dataset_t *d, int workers, const int64_t *inputs,
                                const int64_t *itime, int64_t n, tmode m) {
  fo_loader_opts lo;
  fo_loader_t *L;
  fo_loader_batch_t *bb;
  uint64_t dig[256];
  int64_t k = 0;
  const int32_t f[] = {6, 4};
  fo_loader_opts_init(&lo);
  lo.sampler.fanouts = f;
  lo.sampler.n_hops = 2;
  lo.sampler.temporal = m.st;
  lo.sampler.time_attr = m.at;
  lo.sampler.time_strict = m.strict;
  lo.sampler.time_window = m.window;
  lo.sampler.seed = 9;
  lo.batch_size = 16;
  lo.shuffle = true;
  lo.num_workers = workers;
  lo.input_nodes = inputs;
  lo.n_input_nodes = n;
  lo.input_time = itime;
  lo.features = lo.labels = false;
  assert_fo_ok(fo_loader_create(d, &lo, &L));
  while (fo_loader_next(L, &bb) == FO_OK && bb) {
    if (itime) {
      assert_non_null(bb->input_time);
      for (int64_t i = 0; i < bb->batch_size; i++)
        assert_int_equal(bb->input_time[i], itime[bb->input_id[i]]);
    }
    dig[k++] = fo_loader_batch_digest(bb);
    fo_loader_release(L, bb);
  }
  fo_loader_destroy(L);
  assert_true(k > 0);
  return fo_digest_sequence(dig, k);
}

static uint64_t epoch_digest(const fo_dataset_t *d, int workers, const int64_t *inputs,
                             const int64_t *itime, int64_t n, fo_temporal_strategy st) {
  return epoch_digest_as(d, workers, inputs, itime, n, (tmode){st, FO_TIME_ATTR_EDGE, false, -1});
}

/* Over parts (hash, range and both layouts: rows by edge time, or by neighbor node time), every
 * mode gives the unpartitioned epoch: node times are carried into the partitioned dataset's top
 * level, edge times with their rows; seed times given, or defaulting to the node times. */
static void test_parts_every_mode(void **state) {
  (void)state;
  int64_t inputs[200], itime[200];
  uint64_t st = 5;
  const tmode modes[] = {{FO_TEMPORAL_UNIFORM, FO_TIME_ATTR_EDGE, false, -1},
                         {FO_TEMPORAL_LAST, FO_TIME_ATTR_EDGE, true, 300},
                         {FO_TEMPORAL_UNIFORM, FO_TIME_ATTR_NODE, false, -1},
                         {FO_TEMPORAL_UNIFORM, FO_TIME_ATTR_NODE, true, 250},
                         {FO_TEMPORAL_LAST, FO_TIME_ATTR_NODE, false, -1},
                         {FO_TEMPORAL_LAST, FO_TIME_ATTR_NODE, true, 400}};
  for (int i = 0; i < 200; i++) {
    inputs[i] = (int64_t)(fot_rand(&st) % 500);
    itime[i] = (int64_t)(fot_rand(&st) % 1000);
  }
  for (int layout = 0; layout < 2; layout++) {
    tds g;
    random_temporal_as(&g, 500, 8000, 31 + (uint64_t)layout, 1000, layout == 0, layout == 0);
    for (int method = 0; method < 2; method++) {
      char *pdir = fot_path(g.tmp, method ? "range" : "hash");
      fo_dataset_t *pd;
      fo_partition_opts po;
      const int64_t *nt;
      int64_t nn;
      fo_partition_opts_init(&po);
      po.n_parts = 3;
      po.method = method ? FO_PARTITION_RANGE : FO_PARTITION_HASH;
      assert_fo_ok(fo_partition(g.dir, pdir, &po, NULL));
      assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
      assert_fo_ok(fo_dataset_verify(pd));
      assert_fo_ok(fo_dataset_node_time(pd, &nt, &nn));
      assert_int_equal(nn, 500);
      for (size_t q = 0; q < sizeof modes / sizeof *modes; q++) {
        if (layout == 1 && modes[q].at == FO_TIME_ATTR_EDGE) continue; /* no edge times */
        const uint64_t d1 = epoch_digest_as(g.d, 0, inputs, itime, 200, modes[q]);
        assert_int_equal(epoch_digest_as(pd, 2, inputs, itime, 200, modes[q]), d1);
        /* default seed times: the seeds' node times, read from the top level */
        assert_int_equal(epoch_digest_as(pd, 0, inputs, NULL, 200, modes[q]),
                         epoch_digest_as(g.d, 0, inputs, NULL, 200, modes[q]));
        /* distributed, in one process: 3 machines */
        {
          fo_loader_opts lo;
          epoch_opts(&lo, 0, inputs, q % 2 ? NULL : itime, 200, modes[q]);
          fot_dist_same(g.d, pd, 3, &lo);
        }
      }
      fo_dataset_close(pd);
      free(pdir);
    }
    tds_free(&g);
  }
}

static void test_determinism_threads_and_parts(void **state) {
  (void)state;
  tds g;
  int64_t inputs[200], itime[200];
  uint64_t st = 3;
  char *pdir;
  fo_dataset_t *pd;
  fo_partition_opts po;
  random_temporal(&g, 500, 8000, 21, 1000, true);
  for (int i = 0; i < 200; i++) {
    inputs[i] = (int64_t)(fot_rand(&st) % 500);
    itime[i] = (int64_t)(fot_rand(&st) % 1000);
  }
  pdir = fot_path(g.tmp, "parts");
  fo_partition_opts_init(&po);
  po.n_parts = 3;
  assert_fo_ok(fo_partition(g.dir, pdir, &po, NULL));
  assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
  assert_fo_ok(fo_dataset_verify(pd));
  for (int s = 1; s <= 2; s++) {
    const uint64_t d1 = epoch_digest(g.d, 0, inputs, itime, 200, (fo_temporal_strategy)s);
    assert_int_equal(epoch_digest(g.d, 1, inputs, itime, 200, (fo_temporal_strategy)s), d1);
    assert_int_equal(epoch_digest(g.d, 4, inputs, itime, 200, (fo_temporal_strategy)s), d1);
    assert_int_equal(epoch_digest(pd, 2, inputs, itime, 200, (fo_temporal_strategy)s), d1);
  }
  fo_dataset_close(pd);
  free(pdir);
  tds_free(&g);
}

/* ---- typed imports and sampling -------------------------------------------------------------- */

/* A random bipartite typed graph a -r-> b (and b -s-> b), written as edge lists with a time
 * column and as .npy times, imported with --reverse-edges: per edge type --edge-time (or
 * --time-col), --node-time per node type. */
typedef struct tgraph {
  char *tmp, *dir;
  fo_dataset_t *d;
} tgraph;

static void tgraph_make(tgraph *g, uint64_t seed, bool edge_times, bool time_col) {
  char *fr = NULL, *fs = NULL, *tr = NULL, *ts = NULL, *na = NULL, *nb = NULL;
  const int64_t na_n = 120, nb_n = 80, mr = 1500, ms = 900;
  int64_t *t_r = malloc((size_t)mr * 8), *t_s = malloc((size_t)ms * 8);
  int64_t *nt_a = malloc((size_t)na_n * 8), *nt_b = malloc((size_t)nb_n * 8);
  char *text_r = malloc((size_t)mr * 40 + 1), *text_s = malloc((size_t)ms * 40 + 1);
  size_t at_r = 0, at_s = 0;
  uint64_t st = seed;
  fo_import_edge_type et[2];
  fo_import_edge_weight etimes[2];
  fo_import_node_time ntimes[2];
  fo_import_opts o;
  g->tmp = fot_tmpdir();
  g->dir = fot_path(g->tmp, "ds");
  fr = fot_path(g->tmp, "r.txt");
  fs = fot_path(g->tmp, "s.txt");
  tr = fot_path(g->tmp, "tr.npy");
  ts = fot_path(g->tmp, "ts.npy");
  na = fot_path(g->tmp, "na.npy");
  nb = fot_path(g->tmp, "nb.npy");
  for (int64_t i = 0; i < mr; i++) {
    t_r[i] = (int64_t)(fot_rand(&st) % 1000);
    at_r += (size_t)sprintf(text_r + at_r, "%lld %lld %lld\n", (long long)(fot_rand(&st) % (uint64_t)na_n),
                            (long long)(fot_rand(&st) % (uint64_t)(nb_n / 4)), (long long)t_r[i]);
  }
  for (int64_t i = 0; i < ms; i++) {
    t_s[i] = (int64_t)(fot_rand(&st) % 1000);
    at_s += (size_t)sprintf(text_s + at_s, "%lld %lld %lld\n", (long long)(fot_rand(&st) % (uint64_t)nb_n),
                            (long long)(fot_rand(&st) % (uint64_t)nb_n), (long long)t_s[i]);
  }
  for (int64_t v = 0; v < na_n; v++) nt_a[v] = (int64_t)(fot_rand(&st) % 1000);
  for (int64_t v = 0; v < nb_n; v++) nt_b[v] = (int64_t)(fot_rand(&st) % 1000);
  fot_write_file(fr, text_r);
  fot_write_file(fs, text_s);
  fot_write_npy(tr, "<i8", 1, &mr, t_r, (size_t)mr * 8);
  fot_write_npy(ts, "<i8", 1, &ms, t_s, (size_t)ms * 8);
  fot_write_npy(na, "<i8", 1, &na_n, nt_a, (size_t)na_n * 8);
  fot_write_npy(nb, "<i8", 1, &nb_n, nt_b, (size_t)nb_n * 8);
  et[0] = (fo_import_edge_type){"a", "r", "b", fr};
  et[1] = (fo_import_edge_type){"b", "s", "b", fs};
  etimes[0] = (fo_import_edge_weight){"a__r__b", tr};
  etimes[1] = (fo_import_edge_weight){"b__s__b", ts};
  ntimes[0] = (fo_import_node_time){"a", na};
  ntimes[1] = (fo_import_node_time){"b", nb};
  fo_import_opts_init(&o);
  o.csc = o.csr = true;
  o.edge_types = et;
  o.n_edge_types = 2;
  o.reverse_edges = true;
  o.node_times = ntimes;
  o.n_node_times = 2;
  if (edge_times && time_col) o.time_column = 2;
  if (edge_times && !time_col) {
    o.edge_times = etimes;
    o.n_edge_times = 2;
  }
  assert_fo_ok(fo_import(NULL, 0, g->dir, &o, NULL));
  assert_fo_ok(fo_dataset_open(g->dir, NULL, &g->d));
  assert_fo_ok(fo_dataset_verify(g->d));
  free(fr), free(fs), free(tr), free(ts), free(na), free(nb);
  free(t_r), free(t_s), free(nt_a), free(nt_b), free(text_r), free(text_s);
}

static void tgraph_free(tgraph *g) {
  fo_dataset_close(g->d);
  free(g->dir);
  fot_rmtree(g->tmp);
}

/* Typed imports store times as untyped ones do: each edge type's rows sorted by time (the
 * reverse type with its edge's times), node times per node type, rows ordered by neighbor node
 * time without edge times (the CSC by the source type's, the CSR by the target type's); the
 * time column and the .npy give the same dataset. Temporal sampling in every mode never goes
 * past a tree's time, and over parts (and distributed, in one process) equals one process. */
static void test_typed_times(void **state) {
  (void)state;
  tgraph g[3];
  tgraph_make(&g[0], 71, true, false);
  tgraph_make(&g[1], 71, true, true);
  tgraph_make(&g[2], 72, false, false);
  for (int k = 0; k < 3; k++) {
    const fo_dataset_t *d = g[k].d;
    for (int32_t et = 0; et < fo_dataset_num_edge_types(d); et++) {
      fo_edge_type ty;
      fo_dataset_edge_type(d, et, &ty);
      for (int dir = 0; dir < 2; dir++) {
        fo_topology t;
        const int64_t *nt;
        int64_t nn;
        assert_fo_ok(fo_dataset_edge_topology(d, et, dir ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN, &t));
        assert_fo_ok(fo_dataset_node_time(fo_dataset_node_data(d, dir ? ty.dst_type : ty.src_type), &nt, &nn));
        assert_true(k == 2 ? !t.time && t.rows_by_node_time : t.time && !t.rows_by_node_time);
        for (int64_t v = 0; v < t.n_rows; v++)
          for (int64_t p = t.indptr[v] + 1; p < t.indptr[v + 1]; p++) {
            if (t.time) assert_true(t.time[p - 1] <= t.time[p]);
            else assert_true(nt[ldi(t.indices, t.indices_bytes, p - 1)] <= nt[ldi(t.indices, t.indices_bytes, p)]);
          }
      }
    }
  }
  /* --time-col 2 and --edge-time give the same arrays */
  assert_int_equal(fo_dataset_num_edge_types(g[0].d), 3); /* a__r__b, b__s__b, b__rev_r__a */
  for (int32_t et = 0; et < 3; et++) {
    fo_topology a, b;
    assert_fo_ok(fo_dataset_edge_topology(g[0].d, et, FO_EDGE_DIR_IN, &a));
    assert_fo_ok(fo_dataset_edge_topology(g[1].d, et, FO_EDGE_DIR_IN, &b));
    assert_int_equal(a.n_edges, b.n_edges);
    assert_memory_equal(a.time, b.time, (size_t)a.n_edges * 8);
    assert_memory_equal(a.indices, b.indices, (size_t)a.n_edges * (size_t)a.indices_bytes);
  }
  /* sampling: no future leaks; parts and the distributed path equal one process */
  for (int k = 0; k < 3; k += 2) {
    char *pdir = fot_path(g[k].tmp, "p");
    fo_dataset_t *pd;
    fo_partition_opts po;
    fo_partition_opts_init(&po);
    po.n_parts = 3;
    assert_fo_ok(fo_partition(g[k].dir, pdir, &po, NULL));
    assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
    assert_fo_ok(fo_dataset_verify(pd));
    for (int m = 0; m < 4; m++) {
      fo_loader_opts lo;
      fo_loader_t *L;
      fo_loader_batch_t *bb;
      const int32_t f[] = {5, 3};
      const fo_time_attr at = k == 2 || m >= 2 ? FO_TIME_ATTR_NODE : FO_TIME_ATTR_EDGE;
      const int32_t ta = fo_dataset_node_type_find(g[k].d, m & 1 ? "a" : "b");
      const int64_t *nt_seed;
      int64_t nn, checked = 0;
      fo_loader_opts_init(&lo);
      lo.sampler.fanouts = f;
      lo.sampler.n_hops = 2;
      lo.sampler.temporal = m & 1 ? FO_TEMPORAL_LAST : FO_TEMPORAL_UNIFORM;
      lo.sampler.time_attr = at;
      lo.sampler.time_strict = m == 1;
      lo.sampler.time_window = m == 3 ? 250 : -1;
      lo.sampler.edge_dir = m & 1 ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
      lo.sampler.seed = 4;
      lo.batch_size = 8;
      lo.input_type = m & 1 ? "a" : "b";
      lo.features = lo.labels = false;
      assert_fo_ok(fo_dataset_node_time(fo_dataset_node_data(g[k].d, ta), &nt_seed, &nn));
      /* the tree time bounds every sampled edge (seeds at their node times) */
      assert_fo_ok(fo_loader_create(g[k].d, &lo, &L));
      while (fo_loader_next(L, &bb) == FO_OK && bb) {
        const fo_batch_t *b = bb->sample;
        for (int32_t et = 0; et < b->n_edge_types; et++) {
          const fo_batch_t *eb = fo_batch_edge_type(b, et);
          fo_edge_type ty;
          fo_topology csc;
          const int64_t *ntn;
          fo_dataset_edge_type(g[k].d, et, &ty);
          assert_fo_ok(fo_dataset_edge_topology(g[k].d, et, FO_EDGE_DIR_IN, &csc));
          assert_fo_ok(fo_dataset_node_time(fo_dataset_node_data(g[k].d, lo.sampler.edge_dir == FO_EDGE_DIR_IN ? ty.src_type : ty.dst_type), &ntn, &nn));
          for (int64_t e = 0; e < eb->n_edges; e++) {
            const fo_batch_t *fr = fo_batch_node_type(b, lo.sampler.edge_dir == FO_EDGE_DIR_IN ? ty.dst_type : ty.src_type);
            const fo_batch_t *nbt = fo_batch_node_type(b, lo.sampler.edge_dir == FO_EDGE_DIR_IN ? ty.src_type : ty.dst_type);
            const int64_t tree = fr->batch[eb->col[e]], tt = bb->input_time[tree];
            const int64_t x = at == FO_TIME_ATTR_NODE ? ntn[nbt->node[eb->row[e]]] : csc.time[eb->edge[e]];
            fo_sampler_opts so = lo.sampler;
            assert_true(fot_time_eligible(&so, x, tt));
            checked++;
          }
        }
        fo_loader_release(L, bb);
      }
      fo_loader_destroy(L);
      assert_true(checked > 0);
      assert_int_equal(epoch_digest_typed(pd, &lo), epoch_digest_typed(g[k].d, &lo));
      fot_dist_same(g[k].d, pd, 3, &lo);
    }
    fo_dataset_close(pd);
    free(pdir);
  }
  for (int k = 0; k < 3; k++) tgraph_free(&g[k]);
}

/* Typed time imports: the homogeneous checks and messages (file, value; nothing written). */
static void test_typed_time_errors(void **state) {
  (void)state;
  char *tmp = fot_tmpdir(), *dir = fot_path(tmp, "ds"), *fr = fot_path(tmp, "r.txt");
  char *tp = fot_path(tmp, "t.npy"), *bad = fot_path(tmp, "bad.txt");
  fo_import_edge_type et[1] = {{"a", "r", "b", fr}};
  fo_import_edge_weight ts[2] = {{"a__r__b", tp}, {"a__r__b", tp}};
  fo_import_node_time nts[2] = {{"a", tp}, {"a", tp}};
  const int64_t t3[] = {1, 2, 3}, t2[] = {1, 2};
  const int64_t n3 = 3, n2 = 2;
  fo_import_opts o;
  struct stat st;
  fot_write_file(fr, "0 0 5\n1 0 2020-01-01\n2 1 7\n");
  fot_write_npy(tp, "<i8", 1, &n3, t3, sizeof t3);
  fo_import_opts_init(&o);
  o.edge_types = et;
  o.n_edge_types = 1;
  o.edge_times = ts;
  o.n_edge_times = 2;
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EINVAL, "--edge-time a__r__b given twice");
  ts[1].edge_type = "a__x__b";
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EINVAL, "the import has no edge type 'a__x__b'");
  ts[1].edge_type = "b__rev_r__a";
  o.reverse_edges = true;
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EINVAL, "takes the times of its edge type");
  o.reverse_edges = false;
  o.n_edge_times = 1;
  fot_write_npy(tp, "<i8", 1, &n2, t2, sizeof t2);
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EFORMAT, "shape must be (3,), one time per input edge, is (2,)");
  /* a time column that does not parse: file, line and value */
  o.n_edge_times = 0;
  o.time_column = 2;
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EFORMAT, "r.txt:2: time '2020-01-01' is not an integer");
  o.time_format = FO_TIME_ISO8601;
  fot_write_file(bad, "0 0 2020-01-01\n1 0 yesterday\n");
  et[0].path = bad;
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EFORMAT, "bad.txt:2: time 'yesterday'");
  fot_write_file(bad, "0 0 1.5\n1 0\n");
  o.time_format = FO_TIME_UNIX;
  o.time_column = -1;
  o.weight_column = 2;
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EFORMAT, "bad.txt:2: expected two node ids, a weight in column 2");
  fot_write_file(bad, "0 0 1.5\n1 0 -2\n");
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_ERANGE, "bad.txt:2");
  o.n_edge_weights = 1;
  o.edge_weights = ts;
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EINVAL, "--weight-col and --edge-weight a__r__b=... both");
  o.n_edge_weights = 0;
  o.weight_column = -1;
  /* node times */
  et[0].path = fr;
  fot_write_npy(tp, "<i8", 1, &n3, t3, sizeof t3);
  o.node_times = nts;
  o.n_node_times = 2;
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EINVAL, "--node-time a given twice");
  nts[1].node_type = "c";
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EINVAL, "--node-time c=");
  assert_true(strstr(fo_last_error(), "the import has no node type 'c'") != NULL);
  o.n_node_times = 1;
  fot_write_npy(tp, "<i8", 1, &n2, t2, sizeof t2);
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EINVAL, "--node-time a=");
  assert_true(strstr(fo_last_error(), "has 2 entries, node type 'a' has 3 nodes") != NULL);
  /* untyped options in a typed import, typed ones in an untyped import */
  o.n_node_times = 0;
  o.edge_time = tp;
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EINVAL, "a typed import takes edge times per edge type");
  o.edge_time = NULL;
  o.node_time = tp;
  assert_fo_error(fo_import(NULL, 0, dir, &o, NULL), FO_EINVAL, "a typed import takes node times per node type");
  assert_int_not_equal(stat(dir, &st), 0); /* nothing written */
  {
    const int64_t src[] = {0}, dst[] = {1};
    fo_import_opts u;
    fo_import_opts_init(&u);
    u.edge_times = ts;
    u.n_edge_times = 1;
    assert_fo_error(fo_import_edges(src, dst, 1, dir, &u, NULL), FO_EINVAL, "times per edge type need a typed import");
    fo_import_opts_init(&u);
    u.node_times = nts;
    u.n_node_times = 1;
    assert_fo_error(fo_import_edges(src, dst, 1, dir, &u, NULL), FO_EINVAL, "times per node type need a typed import");
  }
  assert_int_not_equal(stat(dir, &st), 0);
  free(dir), free(fr), free(tp), free(bad);
  fot_rmtree(tmp);
}

/* ---- errors -------------------------------------------------------------------------------- */

static void test_errors(void **state) {
  (void)state;
  const int64_t src[] = {1, 2}, dst[] = {0, 0}, et[] = {1, 2};
  const int32_t f[] = {2};
  const int64_t seed = 0, t = 5;
  fo_sampler_opts o;
  fo_sampler_t *s;
  fo_batch_t *b;
  tds plain, timed;
  tds_make(&plain, src, dst, 2, NULL, NULL, 0, false);
  tds_make(&timed, src, dst, 2, et, NULL, 0, false);
  assert_fo_ok(fo_batch_create(&b));
  fo_sampler_opts_init(&o);
  o.fanouts = f;
  o.n_hops = 1;
  o.temporal = FO_TEMPORAL_UNIFORM;
  assert_fo_error(fo_sampler_create(plain.d, &o, &s), FO_EINVAL, "stores no edge times for its CSC (import with --edge-time");
  o.time_attr = FO_TIME_ATTR_NODE;
  assert_fo_error(fo_sampler_create(timed.d, &o, &s), FO_EINVAL, "has no node times (import with --node-time)");
  o.time_attr = FO_TIME_ATTR_EDGE;
  o.weighted = true;
  assert_fo_error(fo_sampler_create(timed.d, &o, &s), FO_EINVAL, "stores no edge weights");
  o.weighted = false;
  o.time_window = -2;
  assert_fo_error(fo_sampler_create(timed.d, &o, &s), FO_EINVAL, "time window -2");
  o.time_window = -1;
  o.temporal = (fo_temporal_strategy)7;
  assert_fo_error(fo_sampler_create(timed.d, &o, &s), FO_EINVAL, "unknown temporal strategy 7");
  o.temporal = FO_TEMPORAL_NONE;
  o.time_strict = true;
  assert_fo_error(fo_sampler_create(timed.d, &o, &s), FO_EINVAL, "applies to temporal sampling only");
  o.time_strict = false;
  /* seed times on a non-temporal sampler; no seed times and no node times */
  assert_fo_ok(fo_sampler_create(timed.d, &o, &s));
  assert_fo_error(fo_sampler_sample_at(s, 0, &seed, &t, 1, 0, 0, b), FO_EINVAL, "the sampler is not temporal");
  fo_sampler_destroy(s);
  o.temporal = FO_TEMPORAL_LAST;
  assert_fo_ok(fo_sampler_create(timed.d, &o, &s));
  assert_fo_error(fo_sampler_sample(s, &seed, 1, 0, 0, b), FO_EINVAL, "no seed times given (--seed-time");
  assert_int_equal(b->n_edges, 0);
  fo_sampler_destroy(s);
  /* the loader: input_time needs input_nodes and a temporal sampler */
  {
    fo_loader_opts lo;
    fo_loader_t *L;
    fo_loader_opts_init(&lo);
    lo.sampler.fanouts = f;
    lo.sampler.n_hops = 1;
    lo.input_time = &t;
    assert_fo_error(fo_loader_create(timed.d, &lo, &L), FO_EINVAL, "input_time needs input_nodes");
    lo.input_nodes = &seed;
    lo.n_input_nodes = 1;
    assert_fo_error(fo_loader_create(timed.d, &lo, &L), FO_EINVAL, "the sampler is not temporal");
  }
  /* over a partitioned dataset: node-time mode without node times, edge-time mode without
   * edge times */
  {
    char *pdir;
    fo_dataset_t *pd;
    fo_partition_opts po;
    pdir = fot_path(timed.tmp, "p");
    fo_partition_opts_init(&po);
    po.n_parts = 2;
    assert_fo_ok(fo_partition(timed.dir, pdir, &po, NULL));
    assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
    o.temporal = FO_TEMPORAL_UNIFORM;
    o.time_attr = FO_TIME_ATTR_NODE;
    assert_fo_error(fo_sampler_create(pd, &o, &s), FO_EINVAL, "has no node times (import with --node-time)");
    fo_dataset_close(pd);
    free(pdir);
    pdir = fot_path(plain.tmp, "p");
    assert_fo_ok(fo_partition(plain.dir, pdir, &po, NULL));
    assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
    o.time_attr = FO_TIME_ATTR_EDGE;
    assert_fo_error(fo_sampler_create(pd, &o, &s), FO_EINVAL, "stores no edge times (import with --edge-time or --time-col, then partition)");
    fo_dataset_close(pd);
    free(pdir);
  }
  fo_batch_destroy(b);
  tds_free(&plain);
  tds_free(&timed);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_times_stored_sorted),
      cmocka_unit_test(test_verify_unsorted_times),
      cmocka_unit_test(test_node_time_stored),
      cmocka_unit_test(test_import_time_errors),
      cmocka_unit_test(test_iso8601),
      cmocka_unit_test(test_edgelist_columns),
      cmocka_unit_test(test_mtx_values_as_weights),
      cmocka_unit_test(test_eligibility_boundaries),
      cmocka_unit_test(test_last_is_most_recent),
      cmocka_unit_test(test_narrow_any_times),
      cmocka_unit_test(test_node_time_bad_index),
      cmocka_unit_test(test_against_reference),
      cmocka_unit_test(test_no_future_random),
      cmocka_unit_test(test_uniform_among_eligible),
      cmocka_unit_test(test_determinism_threads_and_parts),
      cmocka_unit_test(test_parts_every_mode),
      cmocka_unit_test(test_typed_times),
      cmocka_unit_test(test_typed_time_errors),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
