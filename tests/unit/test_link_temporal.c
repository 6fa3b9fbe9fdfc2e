/*
 * Temporal and disjoint link sampling (include/fanout/link.h, "Disjoint and temporal mode"):
 * exhaustively over every edge of SNAP CollegeMsg as a seed edge (binary and triplet negatives,
 * uniform and last, <= and <), no sampled edge is later than its tree's seed edge, every tree's
 * endpoint is its seed edge's endpoint (negatives: their positive's time, PyG's rule); disjoint
 * mode keeps one tree per endpoint occurrence and excludes the seed edges in every hop; the link
 * loader over a stored edge split takes the stored edge times; and the errors.
 */
#include "support.h"

#include <math.h>
#include <string.h>

#include "fanout/link.h"
#include "fanout/partition.h"

static bool open_college(fot_ds *g) {
  char *in;
  const char *inputs[1];
  fo_import_opts o;
  FILE *f;
  if (!fot_shared_data_dir()) return false;
  in = fot_path(fot_shared_data_dir(), "collegemsg/CollegeMsg.txt.gz");
  if (!(f = fopen(in, "rb"))) {
    free(in);
    return false;
  }
  fclose(f);
  inputs[0] = in;
  fo_import_opts_init(&o);
  o.time_column = 2;
  o.csr = true;
  fot_ds_import(g, inputs, 1, &o);
  free(in);
  return true;
}

/* The time bound of every tree (seed position) of a temporal link batch from its label columns,
 * then every sampled edge checked against its tree's bound. */
static void check_batch(const fo_topology *csc, const fo_link_batch_t *lb, const int64_t *src,
                        const int64_t *dst, const int64_t *time, int64_t n, bool strict,
                        int64_t *tree_time, int64_t *n_checked) {
  const fo_batch_t *b = lb->sample;
  const int64_t L = lb->n_label, *r0 = lb->edge_label_index, *r1 = r0 + L;
  assert_int_equal(lb->n_neg_missing, 0);
  for (int64_t p = 0; p < b->n_seeds; p++) tree_time[p] = INT64_MIN;
  if (lb->k == 0) {
    for (int64_t c = 0; c < L; c++) {
      const int64_t t = time[c < n ? c : (c - n) % n];
      assert_true(tree_time[r0[c]] == INT64_MIN && tree_time[r1[c]] == INT64_MIN); /* one tree each */
      tree_time[r0[c]] = tree_time[r1[c]] = t;
      if (c < n) {
        assert_int_equal(b->node[r0[c]], src[c]);
        assert_int_equal(b->node[r1[c]], dst[c]);
      }
    }
  } else {
    for (int64_t i = 0; i < n; i++) {
      assert_int_equal(b->node[lb->src_index[i]], src[i]);
      assert_int_equal(b->node[lb->dst_pos_index[i]], dst[i]);
      tree_time[lb->src_index[i]] = tree_time[lb->dst_pos_index[i]] = time[i];
      for (int64_t q = 0; q < lb->k; q++) {
        const int64_t l = lb->dst_neg_index[i * lb->k + q];
        assert_true(l >= 0 && tree_time[l] == INT64_MIN);
        tree_time[l] = time[i];
      }
    }
  }
  for (int64_t p = 0; p < b->n_seeds; p++) assert_true(tree_time[p] != INT64_MIN);
  for (int64_t e = 0; e < b->n_edges; e++) {
    const int64_t tree = b->batch[b->col[e]], et = csc->time[b->edge[e]];
    assert_true(b->batch[b->row[e]] == tree);
    if (strict ? !(et < tree_time[tree]) : !(et <= tree_time[tree]))
      fail_msg("edge %lld (time %lld) in the tree of seed %lld (time %lld)", (long long)b->edge[e],
               (long long)et, (long long)tree, (long long)tree_time[tree]);
  }
  *n_checked += b->n_edges;
}

static void college_exhaustive(void **state) {
  fot_ds g = {0};
  fo_topology csc;
  int32_t f[2] = {5, 3};
  int64_t *src, *dst, *time, *tree_time, m, checked = 0;
  (void)state;
  if (!open_college(&g)) skip();
  assert_int_equal(fo_dataset_topology(g.d, FO_EDGE_DIR_IN, &csc), FO_OK);
  assert_non_null(csc.time);
  m = csc.n_edges;
  assert_int_equal(m, 59835);
  src = malloc((size_t)m * sizeof *src);
  dst = malloc((size_t)m * sizeof *dst);
  time = malloc((size_t)m * sizeof *time);
  tree_time = malloc(4096 * 8 * sizeof *tree_time);
  /* every edge of the graph is a seed edge at its own time */
  {
    int64_t *ids = malloc((size_t)m * sizeof *ids);
    for (int64_t e = 0; e < m; e++) ids[e] = e;
    assert_int_equal(fo_dataset_edge_endpoints(g.d, 0, ids, m, src, dst), FO_OK);
    for (int64_t e = 0; e < m; e++) time[e] = csc.time[e];
    free(ids);
  }
  for (int mode = 0; mode < 4; mode++) {
    fo_link_opts o;
    fo_link_sampler_t *ls;
    fo_link_batch_t *lb;
    const int64_t B = 1024;
    fo_link_opts_init(&o);
    o.sampler.fanouts = f;
    o.sampler.n_hops = 2;
    o.sampler.seed = 7;
    o.sampler.temporal = mode & 1 ? FO_TEMPORAL_LAST : FO_TEMPORAL_UNIFORM;
    o.sampler.time_strict = mode == 2;
    o.neg = mode < 2 ? FO_NEG_BINARY : FO_NEG_TRIPLET;
    o.neg_amount = mode < 2 ? 1.5 : 2;
    assert_int_equal(fo_link_sampler_create(g.d, &o, &ls), FO_OK);
    assert_int_equal(fo_link_batch_create(&lb), FO_OK);
    for (int64_t off = 0; off < m; off += B) {
      const int64_t k = m - off < B ? m - off : B;
      if (fo_link_sampler_sample_at(ls, src + off, dst + off, NULL, time + off, k, 0,
                                    (uint64_t)(off / B), lb) != FO_OK)
        fail_msg("%s", fo_last_error());
      check_batch(&csc, lb, src + off, dst + off, time + off, k, o.sampler.time_strict, tree_time,
                  &checked);
    }
    fo_link_batch_destroy(lb);
    fo_link_sampler_destroy(ls);
  }
  assert_true(checked > 1000000); /* the trees are not empty */
  free(src);
  free(dst);
  free(time);
  free(tree_time);
  fot_ds_close(&g);
}

/* Disjoint mode without time: one tree per endpoint occurrence (no dedup), the seed edges
 * excluded in every hop of every tree. */
static void disjoint_exclusion(void **state) {
  fot_edges e;
  char *dir;
  fo_dataset_t *d;
  fo_link_opts o;
  fo_link_sampler_t *ls;
  fo_link_batch_t *lb;
  fo_topology csc;
  int32_t f[3] = {-1, -1, 4};
  int64_t src[64], dst[64];
  (void)state;
  fot_random(40, 400, 9, &e);
  fot_dataset(&e, true, true, FO_INDEX_AUTO, &dir, &d);
  assert_int_equal(fo_dataset_topology(d, FO_EDGE_DIR_IN, &csc), FO_OK);
  fo_link_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 3;
  o.sampler.disjoint = true;
  o.exclude_seed_edges = true;
  o.neg = FO_NEG_BINARY;
  assert_int_equal(fo_link_sampler_create(d, &o, &ls), FO_OK);
  assert_int_equal(fo_link_batch_create(&lb), FO_OK);
  for (int b = 0; b < 20; b++) {
    const fo_batch_t *s;
    for (int i = 0; i < 64; i++) {
      const int64_t p = (b * 64 + i * 7) % e.m;
      src[i] = e.src[p];
      dst[i] = e.dst[p];
    }
    src[1] = src[0]; /* a repeated endpoint still gets a tree of its own */
    dst[1] = dst[0];
    assert_int_equal(fo_link_sampler_sample(ls, src, dst, NULL, 64, 0, (uint64_t)b, lb), FO_OK);
    s = lb->sample;
    assert_int_equal(s->n_seeds, 2 * lb->n_label);
    for (int64_t c = 0; c < lb->n_label; c++) {
      assert_int_equal(lb->edge_label_index[c], c);
      assert_int_equal(lb->edge_label_index[lb->n_label + c], lb->n_label + c);
    }
    for (int i = 0; i < 64; i++) {
      assert_int_equal(s->node[i], src[i]);
      assert_int_equal(s->node[lb->n_label + i], dst[i]);
    }
    for (int64_t q = 0; q < s->n_edges; q++) {
      const int64_t u = s->node[s->row[q]], v = s->node[s->col[q]];
      assert_int_equal(csc.indices_bytes == 4 ? ((const int32_t *)csc.indices)[s->edge[q]]
                                              : ((const int64_t *)csc.indices)[s->edge[q]], u);
      for (int i = 0; i < 64; i++)
        if (u == src[i] && v == dst[i])
          fail_msg("batch %d: seed edge %lld -> %lld sampled (edge %lld)", b, (long long)u,
                   (long long)v, (long long)s->edge[q]);
    }
  }
  fo_link_batch_destroy(lb);
  fo_link_sampler_destroy(ls);
  fo_dataset_close(d);
  fot_rmtree(dir);
  fot_edges_free(&e);
}

/* ---- seed-edge exclusion in temporal mode ------------------------------------------------------
 * In-edges of node 0 (src@time, input order): 1@1, 2@2, 3@3, 1@3, 4@5, 2@6 (rows sorted by time,
 * ties in input order: 3@3 stands before 1@3, so at t = 3 and t = 4 the time prefix ends with an
 * excluded position); nodes 1..4 have no in-edges. Seed edge 1 -> 0: both copies of 1 -> 0 are
 * excluded. Node times (node mode) 0:0 1:1 2:2 3:3 4:5. */
static const int64_t XS[] = {1, 2, 3, 1, 4, 2}, XD[] = {0, 0, 0, 0, 0, 0}, XT[] = {1, 2, 3, 3, 5, 6};
static const int64_t XNT[] = {0, 1, 2, 3, 5};

/* kind 0: edge times; 1: edge and node times (node mode filters rows in input order); 2: node
 * times only (rows sorted by node time) */
static void xdataset(const char *tmp, int kind, fo_dataset_t **d) {
  char *g = fot_path(tmp, kind == 0 ? "g0" : kind == 1 ? "g1" : "g2"), *tp = fot_path(tmp, "xt.npy"),
       *np = fot_path(tmp, "xnt.npy");
  const int64_t n = 6, nn = 5;
  fo_import_opts io;
  fot_write_npy(tp, "<i8", 1, &n, XT, sizeof XT);
  fot_write_npy(np, "<i8", 1, &nn, XNT, sizeof XNT);
  fo_import_opts_init(&io);
  if (kind < 2) io.edge_time = tp;
  if (kind > 0) io.node_time = np;
  if (fo_import_edges(XS, XD, 6, g, &io, NULL) != FO_OK) fail_msg("%s", fo_last_error());
  assert_int_equal(fo_dataset_open(g, NULL, d), FO_OK);
  free(g);
  free(tp);
  free(np);
}

/* The sampled in-neighbors of the seed edge's dst tree (tree 1) as a sorted string of
 * "nbr@time" (edge time), "" for none; the src tree (1 has no in-edges) must be empty. */
static void dst_tree(const fo_dataset_t *d, const fo_link_batch_t *lb, char *buf, size_t cap) {
  const fo_batch_t *b = lb->sample;
  fo_topology csc;
  char items[16][32];
  int n = 0;
  assert_int_equal(fo_dataset_topology(d, FO_EDGE_DIR_IN, &csc), FO_OK);
  assert_int_equal(b->n_seeds, 2);
  for (int64_t e = 0; e < b->n_edges; e++) {
    const int64_t u = b->node[b->row[e]];
    assert_int_equal(b->batch[b->col[e]], 1);
    assert_true(n < 16);
    if (csc.time) snprintf(items[n++], 32, "%lld@%lld", (long long)u, (long long)csc.time[b->edge[e]]);
    else snprintf(items[n++], 32, "%lld", (long long)u);
    assert_int_not_equal(u, 1); /* the excluded seed edge 1 -> 0, any copy */
  }
  qsort(items, (size_t)n, sizeof items[0], (int (*)(const void *, const void *))strcmp);
  buf[0] = 0;
  for (int i = 0; i < n; i++) {
    if (i) strncat(buf, " ", cap - strlen(buf) - 1);
    strncat(buf, items[i], cap - strlen(buf) - 1);
  }
}

static void xsample(const fo_dataset_t *d, fo_temporal_strategy st, fo_time_attr ta, bool strict,
                    bool replace, int32_t fanout, int64_t t, uint64_t batch, char *buf, size_t cap) {
  fo_link_opts o;
  fo_link_sampler_t *ls;
  fo_link_batch_t *lb;
  const int64_t S[1] = {1}, D[1] = {0}, T[1] = {t};
  int32_t f[1];
  f[0] = fanout;
  fo_link_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 1;
  o.sampler.temporal = st;
  o.sampler.time_attr = ta;
  o.sampler.time_strict = strict;
  o.sampler.replace = replace;
  o.exclude_seed_edges = true;
  if (fo_link_sampler_create(d, &o, &ls) != FO_OK) fail_msg("%s", fo_last_error());
  assert_int_equal(fo_link_batch_create(&lb), FO_OK);
  if (fo_link_sampler_sample_at(ls, S, D, NULL, T, 1, 0, batch, lb) != FO_OK)
    fail_msg("%s", fo_last_error());
  dst_tree(d, lb, buf, cap);
  fo_link_batch_destroy(lb);
  fo_link_sampler_destroy(ls);
}

#define XCHECK(want, ...)                                                                        \
  do {                                                                                           \
    char got_[256];                                                                              \
    xsample(__VA_ARGS__, got_, sizeof got_);                                                     \
    if (strcmp(got_, want)) fail_msg("line %d: got '%s', want '%s'", __LINE__, got_, want);      \
  } while (0)

static void temporal_exclusion_exact(void **state) {
  char *tmp = fot_tmpdir();
  fo_dataset_t *d0, *d1, *d2;
  const fo_temporal_strategy U = FO_TEMPORAL_UNIFORM, L = FO_TEMPORAL_LAST;
  const fo_time_attr TE = FO_TIME_ATTR_EDGE, TN = FO_TIME_ATTR_NODE;
  (void)state;
  xdataset(tmp, 0, &d0);
  xdataset(tmp, 1, &d1);
  xdataset(tmp, 2, &d2);
  /* edge time: all eligible minus the excluded copies 1@1, 1@3 */
  XCHECK("2@2 3@3", d0, U, TE, false, false, -1, 3, 0);
  XCHECK("2@2 3@3", d0, U, TE, false, false, 5, 3, 0);  /* fanout above the eligible count */
  XCHECK("2@2 3@3", d0, U, TE, false, false, -1, 4, 0); /* prefix ends at excluded 1@3 */
  XCHECK("2@2", d0, U, TE, true, false, -1, 3, 0);      /* strict: < 3 */
  XCHECK("", d0, U, TE, false, false, -1, 1, 0);        /* every eligible position excluded */
  XCHECK("", d0, U, TE, false, true, 4, 1, 0);          /* also with replacement */
  XCHECK("", d0, L, TE, false, false, 3, 1, 0);
  XCHECK("2@2 2@6 3@3 4@5", d0, U, TE, false, false, -1, 9, 0);
  /* last: the most recent eligible non-excluded edges */
  XCHECK("3@3", d0, L, TE, false, false, 1, 4, 0);
  XCHECK("2@2 3@3", d0, L, TE, false, false, 2, 3, 0);
  XCHECK("2@2 3@3", d0, L, TE, false, false, 3, 3, 0);
  XCHECK("2@6 4@5", d0, L, TE, false, false, 2, 6, 0);
  XCHECK("2@2", d0, L, TE, true, false, 1, 3, 0);
  /* node time (neighbor times 1:1 2:2 3:3 4:5), rows in input order (d1) and sorted (d2) */
  XCHECK("2@2 2@6", d1, U, TN, false, false, -1, 2, 0);
  XCHECK("", d1, U, TN, false, false, -1, 1, 0);
  XCHECK("3@3", d1, L, TN, false, false, 1, 4, 0);
  XCHECK("2@2 2@6 3@3", d1, L, TN, false, false, 5, 3, 0);
  XCHECK("2@2 2@6", d1, U, TN, true, false, -1, 3, 0);
  XCHECK("2 2", d2, U, TN, false, false, -1, 2, 0);
  XCHECK("", d2, U, TN, false, false, -1, 1, 0);
  XCHECK("3", d2, L, TN, false, false, 1, 4, 0);
  XCHECK("2 2 3 4", d2, L, TN, false, false, 4, 5, 0);
  /* uniform draws: over eligible minus excluded only, each equally likely */
  for (int mode = 0; mode < 4; mode++) {
    const fo_dataset_t *d = mode < 2 ? d0 : mode == 2 ? d1 : d2;
    const fo_time_attr ta = mode < 2 ? TE : TN;
    const bool rep = mode == 1;
    const int64_t t = mode < 2 ? 4 : 3;
    int64_t c2 = 0, c3 = 0, n = 0;
    for (uint64_t b = 0; b < 2000; b++) {
      char got[256];
      xsample(d, U, ta, false, rep, rep ? 3 : 1, t, b, got, sizeof got);
      for (char *p = got; *p; p++)
        if (p == got || p[-1] == ' ') {
          c2 += *p == '2';
          c3 += *p == '3';
          n++;
        }
    }
    /* mode 2 (node time 3, input order): eligible 2, 3, 2 (the two copies of 2) */
    {
      const double p2 = mode == 2 || mode == 3 ? 2.0 / 3 : 0.5, sd = sqrt((double)n * p2 * (1 - p2));
      assert_int_equal(n, rep ? 6000 : 2000);
      assert_int_equal(c2 + c3, n);
      if (fabs((double)c2 - n * p2) > 5 * sd)
        fail_msg("mode %d: %lld of %lld draws are node 2 (want %.0f)", mode, (long long)c2,
                 (long long)n, n * p2);
    }
  }
  fo_dataset_close(d0);
  fo_dataset_close(d1);
  fo_dataset_close(d2);
  fot_rmtree(tmp);
}

static int cmp_i64(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Exclusion in temporal mode over SNAP CollegeMsg (directed): every edge a seed edge at its own
 * time, two epochs, uniform and last: no sampled edge has the endpoints of a positive seed edge
 * of its batch (any copy), and none is later than its tree's seed time. */
static void college_exclusion(void **state) {
  fot_ds g = {0};
  fo_topology csc;
  int32_t f[2] = {10, 5};
  int64_t *src, *dst, *time, *tree_time, m, checked = 0;
  (void)state;
  if (!open_college(&g)) skip();
  assert_int_equal(fo_dataset_topology(g.d, FO_EDGE_DIR_IN, &csc), FO_OK);
  m = csc.n_edges;
  src = malloc((size_t)m * sizeof *src);
  dst = malloc((size_t)m * sizeof *dst);
  time = malloc((size_t)m * sizeof *time);
  tree_time = malloc(4096 * 8 * sizeof *tree_time);
  {
    int64_t *ids = malloc((size_t)m * sizeof *ids);
    for (int64_t e = 0; e < m; e++) ids[e] = e;
    assert_int_equal(fo_dataset_edge_endpoints(g.d, 0, ids, m, src, dst), FO_OK);
    for (int64_t e = 0; e < m; e++) time[e] = csc.time[e];
    free(ids);
  }
  for (int mode = 0; mode < 4; mode++) {
    fo_link_opts o;
    fo_link_sampler_t *ls;
    fo_link_batch_t *lb;
    const int64_t B = 512;
    fo_link_opts_init(&o);
    o.sampler.fanouts = f;
    o.sampler.n_hops = 2;
    o.sampler.seed = 11;
    o.sampler.temporal = mode & 1 ? FO_TEMPORAL_LAST : FO_TEMPORAL_UNIFORM;
    o.sampler.replace = mode == 2;
    o.neg = FO_NEG_BINARY;
    o.neg_amount = 1;
    o.exclude_seed_edges = true;
    assert_int_equal(fo_link_sampler_create(g.d, &o, &ls), FO_OK);
    assert_int_equal(fo_link_batch_create(&lb), FO_OK);
    for (uint64_t epoch = 0; epoch < 2; epoch++)
      for (int64_t off = 0; off < m; off += B) {
        const int64_t k = m - off < B ? m - off : B;
        const fo_batch_t *b;
        int64_t *pairs;
        if (fo_link_sampler_sample_at(ls, src + off, dst + off, NULL, time + off, k, epoch,
                                      (uint64_t)(off / B), lb) != FO_OK)
          fail_msg("%s", fo_last_error());
        check_batch(&csc, lb, src + off, dst + off, time + off, k, false, tree_time, &checked);
        b = lb->sample;
        /* the batch's positive pairs, sorted, and every sampled edge looked up */
        pairs = malloc((size_t)k * sizeof *pairs);
        for (int64_t i = 0; i < k; i++) pairs[i] = src[off + i] * 4096 + dst[off + i];
        qsort(pairs, (size_t)k, sizeof *pairs, cmp_i64);
        for (int64_t e = 0; e < b->n_edges; e++) {
          const int64_t key = b->node[b->row[e]] * 4096 + b->node[b->col[e]];
          if (bsearch(&key, pairs, (size_t)k, sizeof *pairs, cmp_i64))
            fail_msg("mode %d epoch %llu batch %lld: seed edge %lld -> %lld sampled", mode,
                     (unsigned long long)epoch, (long long)(off / B),
                     (long long)b->node[b->row[e]], (long long)b->node[b->col[e]]);
        }
        free(pairs);
      }
    fo_link_batch_destroy(lb);
    fo_link_sampler_destroy(ls);
  }
  assert_true(checked > 1000000);
  free(src);
  free(dst);
  free(time);
  free(tree_time);
  fot_ds_close(&g);
}

/* The link loader over a stored split of a temporal graph takes the stored edge times; errors. */
static void loader_and_errors(void **state) {
  char *tmp = fot_tmpdir(), *g = fot_path(tmp, "g"), *sp = fot_path(tmp, "s.npy"), spec[600];
  const int64_t S[] = {0, 1, 2, 3, 0, 2}, D[] = {1, 2, 3, 0, 2, 1}, T[] = {5, 1, 9, 3, 7, 2};
  const int64_t pos[] = {2, 4, 0}, k = 3;
  char *tp = fot_path(tmp, "t.npy");
  fo_import_edge_split es = {NULL, spec};
  fo_import_opts io;
  fo_dataset_t *d;
  fo_link_loader_opts lo;
  fo_link_loader_t *L;
  fo_link_loader_batch_t *b;
  fo_link_opts o;
  fo_link_sampler_t *ls;
  fo_link_batch_t *lb;
  int32_t f[1] = {-1};
  int64_t n = 6;
  (void)state;
  fot_write_npy(sp, "<i8", 1, &k, pos, sizeof pos);
  fot_write_npy(tp, "<i8", 1, &n, T, sizeof T);
  snprintf(spec, sizeof spec, "train=%s", sp);
  fo_import_opts_init(&io);
  io.edge_time = tp;
  io.edge_splits = &es;
  io.n_edge_splits = 1;
  assert_int_equal(fo_import_edges(S, D, 6, g, &io, NULL), FO_OK);
  assert_int_equal(fo_dataset_open(g, NULL, &d), FO_OK);
  fo_link_loader_opts_init(&lo);
  lo.link.sampler.fanouts = f;
  lo.link.sampler.n_hops = 1;
  lo.link.sampler.temporal = FO_TEMPORAL_UNIFORM;
  lo.edge_split = "train";
  lo.batch_size = 3;
  assert_int_equal(fo_link_loader_create(d, &lo, &L), FO_OK);
  assert_int_equal(fo_link_loader_next(L, &b), FO_OK);
  {
    /* seeds 2->3 @9, 0->2 @7, 0->1 @5 (split order), trees in the order 2@9 0@7 0@5 3@9 2@7
     * 1@5; in-neighbors with times: 0: 3@3; 1: 0@5, 2@2; 2: 1@1, 0@7; 3: 2@9 */
    const fo_batch_t *s = b->link->sample;
    const int64_t want[6] = {2, 1, 1, 1, 2, 2};
    int64_t got[6] = {0};
    assert_int_equal(s->n_seeds, 6);
    for (int64_t q = 0; q < s->n_edges; q++) got[s->batch[s->col[q]]]++;
    for (int i = 0; i < 6; i++) assert_int_equal(got[i], want[i]);
    lo.link.sampler.time_strict = true; /* < : the tree of 3@9 loses 2@9, of 2@7 loses 0@7 */
    fo_link_loader_destroy(L);
    assert_int_equal(fo_link_loader_create(d, &lo, &L), FO_OK);
    assert_int_equal(fo_link_loader_next(L, &b), FO_OK);
    assert_int_equal(b->link->sample->n_edges, 9 - 2 - 1); /* 2@9: 0@7 stays; 1@5: 0@5 goes */
    lo.link.sampler.time_strict = false;
  }
  fo_link_loader_destroy(L);
  /* errors */
  fo_link_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 1;
  o.sampler.temporal = FO_TEMPORAL_UNIFORM;
  assert_int_equal(fo_link_sampler_create(d, &o, &ls), FO_OK);
  assert_int_equal(fo_link_batch_create(&lb), FO_OK);
  assert_fo_error(fo_link_sampler_sample(ls, S, D, NULL, 2, 0, 0, lb), FO_EINVAL,
                  "temporal link sampling needs the seed edges' times");
  fo_link_sampler_destroy(ls);
  o.sampler.temporal = FO_TEMPORAL_NONE;
  assert_int_equal(fo_link_sampler_create(d, &o, &ls), FO_OK);
  assert_fo_error(fo_link_sampler_sample_at(ls, S, D, NULL, T, 2, 0, 0, lb), FO_EINVAL,
                  "seed edge times (edge_label_time) given, but the sampler is not temporal");
  fo_link_sampler_destroy(ls);
  fo_link_batch_destroy(lb);
  lo.edge_split = NULL;
  lo.edge_label_index = S; /* [2, 3]: S[0..2] -> S[3..5] */
  lo.n_edges = 3;
  assert_fo_error(fo_link_loader_create(d, &lo, &L), FO_EINVAL,
                  "temporal sampling needs edge_label_time");
  lo.link.sampler.temporal = FO_TEMPORAL_NONE;
  lo.edge_label_time = T;
  assert_fo_error(fo_link_loader_create(d, &lo, &L), FO_EINVAL,
                  "edge_label_time given, but the sampler is not temporal");
  {
    /* over parts: the split's endpoints are carried, its edge times not yet; the message says
     * so (not "import --edge-time": the dataset has them), and edge_label_time still works */
    char *pdir = fot_path(tmp, "p2");
    fo_partition_opts po;
    fo_dataset_t *pd;
    fo_partition_opts_init(&po);
    po.n_parts = 2;
    assert_fo_ok(fo_partition(g, pdir, &po, NULL));
    assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
    lo.link.sampler.temporal = FO_TEMPORAL_UNIFORM;
    lo.edge_label_index = NULL;
    lo.n_edges = 0;
    lo.edge_label_time = NULL;
    lo.edge_split = "train";
    assert_fo_error(fo_link_loader_create(pd, &lo, &L), FO_EINVAL,
                    "partitions do not carry the split's edge times yet");
    assert_null(L);
    lo.edge_label_time = (const int64_t[]){9, 7, 5};
    assert_fo_ok(fo_link_loader_create(pd, &lo, &L));
    fo_link_loader_destroy(L);
    lo.edge_split = NULL;
    lo.edge_label_time = T;
    lo.edge_label_index = S;
    lo.n_edges = 3;
    lo.link.sampler.temporal = FO_TEMPORAL_NONE;
    fo_dataset_close(pd);
    free(pdir);
  }
  fo_dataset_close(d);
  /* a split of a dataset without edge times */
  io.edge_time = NULL;
  io.force = true;
  assert_int_equal(fo_import_edges(S, D, 6, g, &io, NULL), FO_OK);
  assert_int_equal(fo_dataset_open(g, NULL, &d), FO_OK);
  lo.link.sampler.temporal = FO_TEMPORAL_UNIFORM;
  lo.edge_label_time = NULL;
  lo.edge_label_index = NULL;
  lo.n_edges = 0;
  lo.edge_split = "train";
  assert_fo_error(fo_link_loader_create(d, &lo, &L), FO_EINVAL,
                  "edge-time temporal sampling, but dataset");
  fo_dataset_close(d);
  free(sp);
  free(tp);
  free(g);
  fot_rmtree(tmp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(college_exhaustive),
      cmocka_unit_test(disjoint_exclusion),
      cmocka_unit_test(loader_and_errors),
      cmocka_unit_test(temporal_exclusion_exact),
      cmocka_unit_test(college_exclusion),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
