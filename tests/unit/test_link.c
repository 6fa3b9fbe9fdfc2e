/*
 * Link sampler (include/fanout/link.h): label index and node seeds against their definition,
 * strict negatives (never an edge, among millions on email-Enron and typed DBLP; uniform over
 * the allowed destinations by chi-square, including the exact fallback and a node adjacent to
 * everything), seed-edge exclusion (exhaustively: no seed edge nor its reverse in its own
 * batch, and with fanout -1 every other edge of the endpoints' rows present), determinism, and
 * every error.
 */
#include "support.h"

#include "fanout/link.h"

#include <math.h>

static int cmp_pair(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  if (x[0] != y[0]) return (x[0] > y[0]) - (x[0] < y[0]);
  return (x[1] > y[1]) - (x[1] < y[1]);
}

static bool pair_in(const int64_t *pairs, int64_t n, int64_t u, int64_t v) {
  int64_t key[2] = {u, v};
  return bsearch(key, pairs, (size_t)n, 2 * sizeof *pairs, cmp_pair) != NULL;
}

/* The positives' and negatives' local ids point at the right global ids; negatives are never
 * edges (strict). */
static void check_labels(const fo_dataset_t *d, const fo_link_batch_t *lb, const int64_t *src,
                         const int64_t *dst, int64_t n, bool strict) {
  const fo_batch_t *S = fo_batch_node_type(lb->sample, lb->src_type);
  const fo_batch_t *D = fo_batch_node_type(lb->sample, lb->dst_type);
  const int64_t L = lb->n_label, *r0 = lb->edge_label_index, *r1 = lb->edge_label_index + L;
  assert_int_equal(lb->n_pos, n);
  for (int64_t i = 0; i < n; i++) {
    assert_int_equal(S->node[r0[i]], src[i]);
    assert_int_equal(D->node[r1[i]], dst[i]);
  }
  if (lb->k == 0) {
    for (int64_t j = n; j < L; j++) {
      assert_int_equal(lb->edge_label[j], 0);
      assert_true(r0[j] >= 0 && r0[j] < S->n_seeds && r1[j] >= 0 && r1[j] < D->n_seeds);
      if (strict) assert_int_equal(fo_link_has_edge(d, lb->edge_type, S->node[r0[j]], D->node[r1[j]]), 0);
    }
  } else {
    for (int64_t i = 0; i < n; i++) {
      assert_int_equal(S->node[lb->src_index[i]], src[i]);
      assert_int_equal(D->node[lb->dst_pos_index[i]], dst[i]);
      for (int64_t q = 0; q < lb->k; q++) {
        int64_t l = lb->dst_neg_index[i * lb->k + q];
        if (l < 0) continue;
        assert_true(l < D->n_seeds);
        if (strict) assert_int_equal(fo_link_has_edge(d, lb->edge_type, src[i], D->node[l]), 0);
      }
    }
  }
}

/* ---- tiny graphs: exact outputs ---------------------------------------------------------- */

static void seeds_and_labels(void **state) {
  fot_edges e;
  char *dir;
  fo_dataset_t *d;
  fo_link_opts o;
  fo_link_sampler_t *ls;
  fo_link_batch_t *lb;
  int32_t f[1] = {0};
  int64_t src[3] = {0, 2, 0}, dst[3] = {1, 3, 4}, lab[3] = {7, 8, 9};
  (void)state;
  fot_random(10, 40, 3, &e);
  fot_dataset(&e, true, true, FO_INDEX_AUTO, &dir, &d);
  fo_link_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 1;
  o.neg = FO_NEG_BINARY;
  o.neg_amount = 2.0;
  o.strict = false;
  assert_fo_ok(fo_link_sampler_create(d, &o, &ls));
  assert_fo_ok(fo_link_batch_create(&lb));
  assert_fo_ok(fo_link_sampler_sample(ls, src, dst, lab, 3, 0, 0, lb));
  assert_int_equal(lb->n_label, 9);
  assert_int_equal(lb->n_neg, 6);
  assert_int_equal(lb->n_neg_missing, 0);
  for (int i = 0; i < 3; i++) assert_int_equal(lb->edge_label[i], lab[i]);
  check_labels(d, lb, src, dst, 3, false);
  {
    /* node seeds: [src, neg src, dst, neg dst] deduplicated in order of first appearance */
    const fo_batch_t *b = lb->sample;
    int64_t want[20], nw = 0;
    const int64_t *r0 = lb->edge_label_index, *r1 = r0 + 9;
    int64_t all[18];
    for (int i = 0; i < 9; i++) all[i] = b->node[r0[i]];
    for (int i = 0; i < 9; i++) all[9 + i] = b->node[r1[i]];
    for (int i = 0; i < 18; i++) {
      bool seen = false;
      for (int j = 0; j < nw; j++) seen |= want[j] == all[i];
      if (!seen) want[nw++] = all[i];
    }
    assert_int_equal(b->n_seeds, nw);
    for (int j = 0; j < nw; j++) assert_int_equal(b->node[j], want[j]);
    assert_int_equal(b->n_edges, 0);
  }
  fo_link_sampler_destroy(ls);
  /* triplet: [B, k] destinations, labels as given; the node batch equals the node sampler's
   * for the same seeds */
  o.neg = FO_NEG_TRIPLET;
  o.neg_amount = 3;
  o.strict = true;
  f[0] = 2;
  assert_fo_ok(fo_link_sampler_create(d, &o, &ls));
  assert_fo_ok(fo_link_sampler_sample(ls, src, dst, NULL, 3, 1, 5, lb));
  assert_int_equal(lb->k, 3);
  assert_int_equal(lb->n_label, 3);
  check_labels(d, lb, src, dst, 3, true);
  {
    fo_sampler_t *s;
    fo_batch_t *b;
    assert_fo_ok(fo_sampler_create(d, &o.sampler, &s));
    assert_fo_ok(fo_batch_create(&b));
    assert_fo_ok(fo_sampler_sample(s, lb->sample->node, lb->sample->n_seeds, 1, 5, b));
    assert_int_equal(b->n_nodes, lb->sample->n_nodes);
    assert_int_equal(b->n_edges, lb->sample->n_edges);
    assert_memory_equal(b->node, lb->sample->node, (size_t)b->n_nodes * 8);
    assert_memory_equal(b->edge, lb->sample->edge, (size_t)b->n_edges * 8);
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
  }
  {
    /* a pure function of (dataset, options, seeds, epoch, batch) */
    fo_link_batch_t *lb2;
    assert_fo_ok(fo_link_batch_create(&lb2));
    assert_fo_ok(fo_link_sampler_sample(ls, src, dst, NULL, 3, 1, 5, lb2));
    assert_memory_equal(lb->dst_neg_index, lb2->dst_neg_index, 9 * 8);
    assert_memory_equal(lb->sample->node, lb2->sample->node, (size_t)lb->sample->n_nodes * 8);
    fo_link_batch_destroy(lb2);
  }
  fo_link_batch_destroy(lb);
  fo_link_sampler_destroy(ls);
  fo_dataset_close(d);
  fot_rmtree(dir);
  fot_edges_free(&e);
}

/* Chi-square of `cnt[k]` against uniform over k cells; returns the statistic. */
static double chi2(const int64_t *cnt, int k) {
  int64_t tot = 0;
  double x = 0;
  for (int i = 0; i < k; i++) tot += cnt[i];
  for (int i = 0; i < k; i++) {
    double e = (double)tot / k, dlt = (double)cnt[i] - e;
    x += dlt * dlt / e;
  }
  return x;
}

/* Node 0's negatives, over many batches: uniform over the destinations it has no edge to. */
static void neg_uniform(fot_edges *e, int64_t n, const int *allowed, int n_allowed, double crit,
                        int64_t draws) {
  char *dir;
  fo_dataset_t *d;
  fo_link_opts o;
  fo_link_sampler_t *ls;
  fo_link_batch_t *lb;
  int32_t f[1] = {0};
  int64_t src[1] = {0}, dst[1] = {e->dst[0]}, cnt[64] = {0}, where[64];
  fot_dataset(e, true, true, FO_INDEX_AUTO, &dir, &d);
  for (int i = 0; i < 64; i++) where[i] = -1;
  for (int i = 0; i < n_allowed; i++) where[allowed[i]] = i;
  fo_link_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 1;
  o.neg = FO_NEG_TRIPLET;
  o.neg_amount = 100;
  assert_fo_ok(fo_link_sampler_create(d, &o, &ls));
  assert_fo_ok(fo_link_batch_create(&lb));
  for (int64_t b = 0; b * 100 < draws; b++) {
    assert_fo_ok(fo_link_sampler_sample(ls, src, dst, NULL, 1, 0, (uint64_t)b, lb));
    assert_int_equal(lb->n_neg_missing, 0);
    for (int q = 0; q < 100; q++) {
      int64_t v = lb->sample->node[lb->dst_neg_index[q]];
      assert_true(v >= 0 && v < n);
      assert_true(where[v] >= 0); /* never a neighbor of 0 */
      cnt[where[v]]++;
    }
  }
  {
    double x = chi2(cnt, n_allowed);
    print_message("chi-square %.2f over %d cells (critical %.1f)\n", x, n_allowed, crit);
    assert_true(x < crit);
  }
  fo_link_batch_destroy(lb);
  fo_link_sampler_destroy(ls);
  fo_dataset_close(d);
  fot_rmtree(dir);
}

static void strict_uniform(void **state) {
  fot_edges e;
  int allowed[20], na = 0;
  (void)state;
  /* 0 -> {1, 3, 3, 5, 7} (a multi-edge), plus noise among the others */
  memset(&e, 0, sizeof e);
  fot_edges_add(&e, 0, 1);
  fot_edges_add(&e, 0, 3);
  fot_edges_add(&e, 0, 3);
  fot_edges_add(&e, 0, 5);
  fot_edges_add(&e, 0, 7);
  for (int i = 1; i < 20; i++) fot_edges_add(&e, i, (i * 7) % 20);
  e.n = 20;
  for (int v = 0; v < 20; v++)
    if (v != 1 && v != 3 && v != 5 && v != 7) allowed[na++] = v;
  neg_uniform(&e, 20, allowed, na, 37.7 /* 15 dof, p = 0.001 */, 200000);
  fot_edges_free(&e);
  /* 0 adjacent to all but 4 and 11 (and itself): rejection fails often, the exact draw takes
   * over; still uniform */
  memset(&e, 0, sizeof e);
  for (int v = 1; v < 20; v++)
    if (v != 4 && v != 11) fot_edges_add(&e, 0, v);
  fot_edges_add(&e, 0, 0);
  e.n = 20;
  {
    int al[2] = {4, 11};
    neg_uniform(&e, 20, al, 2, 10.83 /* 1 dof, p = 0.001 */, 100000);
  }
  fot_edges_free(&e);
}

/* A node adjacent to every destination gets no negative: -1, counted. */
static void strict_missing(void **state) {
  fot_edges e;
  char *dir;
  fo_dataset_t *d;
  fo_link_opts o;
  fo_link_sampler_t *ls;
  fo_link_batch_t *lb;
  int32_t f[1] = {1};
  int64_t src[2] = {0, 1}, dst[2] = {1, 0};
  (void)state;
  memset(&e, 0, sizeof e);
  for (int v = 0; v < 6; v++) fot_edges_add(&e, 0, v);
  fot_edges_add(&e, 1, 0);
  e.n = 6;
  fot_dataset(&e, true, true, FO_INDEX_AUTO, &dir, &d);
  fo_link_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 1;
  o.neg = FO_NEG_TRIPLET;
  o.neg_amount = 4;
  assert_fo_ok(fo_link_sampler_create(d, &o, &ls));
  assert_fo_ok(fo_link_batch_create(&lb));
  assert_fo_ok(fo_link_sampler_sample(ls, src, dst, NULL, 2, 0, 0, lb));
  assert_int_equal(lb->n_neg_missing, 4);
  assert_int_equal(lb->n_neg, 4);
  for (int q = 0; q < 4; q++) {
    assert_int_equal(lb->dst_neg_index[q], -1);
    assert_true(lb->dst_neg_index[4 + q] >= 0);
  }
  check_labels(d, lb, src, dst, 2, true);
  fo_link_sampler_destroy(ls);
  /* binary: the missing negatives are left out */
  o.neg = FO_NEG_BINARY;
  o.neg_amount = 50;
  assert_fo_ok(fo_link_sampler_create(d, &o, &ls));
  assert_fo_ok(fo_link_sampler_sample(ls, src, dst, NULL, 2, 0, 0, lb));
  assert_true(lb->n_neg_missing > 0);
  assert_int_equal(lb->n_neg + lb->n_neg_missing, 100);
  assert_int_equal(lb->n_label, 2 + lb->n_neg);
  check_labels(d, lb, src, dst, 2, true);
  fo_link_batch_destroy(lb);
  fo_link_sampler_destroy(ls);
  fo_dataset_close(d);
  fot_rmtree(dir);
  fot_edges_free(&e);
}

/* ---- exclusion ---------------------------------------------------------------------------- */

/* Every edge of et as a seed, batch by batch, one hop with fanout -1 (and a second hop of 3):
 * no seed pair nor its reverse (where defined: `rev_et` of the reverse type, or et itself when
 * `undirected`) among the sampled edges, and every endpoint row has exactly deg - excluded
 * edges at hop 0. */
static void exclusion_all(const fo_dataset_t *d, int32_t et, int32_t rev_et, bool undirected,
                          int64_t bs) {
  fo_topology csc;
  fo_edge_type ty;
  fo_link_opts o;
  fo_link_sampler_t *ls;
  fo_link_batch_t *lb;
  int32_t f[2] = {-1, 3};
  int64_t m, *src, *dst, *pairs, checked = 0;
  assert_fo_ok(fo_dataset_edge_type(d, et, &ty));
  assert_fo_ok(fo_dataset_edge_topology(d, et, FO_EDGE_DIR_IN, &csc));
  m = csc.n_edges;
  src = malloc((size_t)m * 8);
  dst = malloc((size_t)m * 8);
  pairs = malloc((size_t)bs * 16);
  for (int64_t v = 0; v < csc.n_rows; v++)
    for (int64_t p = csc.indptr[v]; p < csc.indptr[v + 1]; p++) {
      src[p] = csc.indices_bytes == 4 ? ((const int32_t *)csc.indices)[p] : ((const int64_t *)csc.indices)[p];
      dst[p] = v;
    }
  {
    /* shuffle the seeds so batches mix rows */
    uint64_t st = 11;
    for (int64_t i = m - 1; i > 0; i--) {
      int64_t j = (int64_t)(fot_rand(&st) % (uint64_t)(i + 1)), t;
      t = src[i], src[i] = src[j], src[j] = t;
      t = dst[i], dst[i] = dst[j], dst[j] = t;
    }
  }
  fo_link_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 2;
  o.edge_type = ty.name;
  o.exclude_seed_edges = true;
  assert_fo_ok(fo_link_sampler_create(d, &o, &ls));
  assert_fo_ok(fo_link_batch_create(&lb));
  for (int64_t b0 = 0, bi = 0; b0 < m; b0 += bs, bi++) {
    const int64_t n = m - b0 < bs ? m - b0 : bs;
    int64_t x_expect = 0;
    assert_fo_ok(fo_link_sampler_sample(ls, src + b0, dst + b0, NULL, n, 0, (uint64_t)bi, lb));
    for (int64_t i = 0; i < n; i++) {
      pairs[2 * i] = src[b0 + i];
      pairs[2 * i + 1] = dst[b0 + i];
    }
    qsort(pairs, (size_t)n, 16, cmp_pair);
    for (int32_t k = 0; k < fo_dataset_num_edge_types(d); k++) {
      const fo_batch_t *eb = fo_batch_edge_type(lb->sample, k);
      fo_edge_type tk;
      const fo_batch_t *Sb, *Db;
      fo_dataset_edge_type(d, k, &tk);
      Sb = fo_batch_node_type(lb->sample, tk.src_type);
      Db = fo_batch_node_type(lb->sample, tk.dst_type);
      if (k != et && k != rev_et) continue;
      for (int64_t e = 0; e < eb->n_edges; e++) {
        const int64_t u = Sb->node[eb->row[e]], v = Db->node[eb->col[e]];
        if (k == et) assert_false(pair_in(pairs, n, u, v));
        if ((k == et && undirected) || k == rev_et) assert_false(pair_in(pairs, n, v, u));
        checked++;
      }
    }
    {
      /* hop 0 takes every eligible edge: deg - excluded per endpoint row */
      const fo_batch_t *eb = fo_batch_edge_type(lb->sample, et);
      const fo_batch_t *Db = fo_batch_node_type(lb->sample, ty.dst_type);
      int64_t hop0 = eb->num_sampled_edges[0], want = 0;
      for (int64_t i = 0; i < Db->n_seeds; i++) {
        const int64_t v = Db->node[i];
        want += csc.indptr[v + 1] - csc.indptr[v];
      }
      for (int64_t i = 0; i < Db->n_seeds; i++) {
        const int64_t v = Db->node[i];
        for (int64_t p = csc.indptr[v]; p < csc.indptr[v + 1]; p++) {
          int64_t u = csc.indices_bytes == 4 ? ((const int32_t *)csc.indices)[p] : ((const int64_t *)csc.indices)[p];
          x_expect += pair_in(pairs, n, u, v) || (undirected && pair_in(pairs, n, v, u));
        }
      }
      assert_int_equal(hop0, want - x_expect);
    }
    assert_true(lb->n_excluded >= n);
  }
  print_message("%s: %lld seed edges, %lld sampled edges checked\n", ty.name, (long long)m,
                (long long)checked);
  fo_link_batch_destroy(lb);
  fo_link_sampler_destroy(ls);
  free(src);
  free(dst);
  free(pairs);
}

static void exclusion_small(void **state) {
  fot_edges e;
  fot_ds g = {0};
  fo_import_opts o;
  (void)state;
  /* directed multigraph: only the seed pair itself */
  fot_random(30, 300, 5, &e);
  fo_import_opts_init(&o);
  o.csr = true;
  fot_ds_edges(&g, &e, NULL, &o);
  exclusion_all(g.d, 0, -1, false, 16);
  fot_ds_close(&g);
  /* undirected: the reverse too */
  fo_import_opts_init(&o);
  o.undirected = true;
  o.csr = true;
  fot_ds_edges(&g, &e, NULL, &o);
  exclusion_all(g.d, 0, -1, true, 16);
  fot_ds_close(&g);
  fot_edges_free(&e);
}

/* Long rows: directed, 8 nodes and 1200 edges (every CSC and CSR row ~150 positions, each
 * (row, nbr) pair ~19 of them); undirected (deduplicated), 48 nodes and 1500 input edges (rows
 * of ~45 distinct neighbors). The matches fall in the blocks and the tail of the exclusion's row
 * scan (find_eq in src/sample/link.c), for both index widths, and the CSC row and the CSR row
 * (through csr_eid) are each the shorter one. */
static void exclusion_hubs(void **state) {
  (void)state;
  for (int und = 0; und < 2; und++) {
    fot_edges e;
    fot_random(und ? 48 : 8, und ? 1500 : 1200, 9, &e);
    for (int w = 0; w < 2; w++) {
      fot_ds g = {0};
      fo_import_opts o;
      fo_topology t;
      fo_import_opts_init(&o);
      o.csr = true;
      o.undirected = und;
      o.index_dtype = w ? FO_INDEX_INT64 : FO_INDEX_INT32;
      fot_ds_edges(&g, &e, NULL, &o);
      assert_fo_ok(fo_dataset_edge_topology(g.d, 0, FO_EDGE_DIR_IN, &t));
      assert_int_equal(t.indices_bytes, w ? 8 : 4);
      assert_true(t.n_edges >= 1200);
      exclusion_all(g.d, 0, -1, und, 8);
      fot_ds_close(&g);
    }
    fot_edges_free(&e);
  }
}

/* ---- real graphs ---------------------------------------------------------------------------- */

static bool open_enron(fot_ds *g) {
  if (!fot_shared_data_dir()) return false;
  char *in = fot_path(fot_shared_data_dir(), "email-enron/email-Enron.undirected.tsv.gz");
  const char *inputs[1] = {in};
  fo_import_opts o;
  FILE *f = fopen(in, "rb");
  if (!f) {
    free(in);
    return false;
  }
  fclose(f);
  fo_import_opts_init(&o);
  o.undirected = true;
  o.csr = true;
  fot_ds_import(g, inputs, 1, &o);
  free(in);
  return true;
}

static void enron(void **state) {
  fot_ds g = {0};
  fo_link_opts o;
  fo_link_sampler_t *ls;
  fo_link_batch_t *lb;
  fo_topology csc;
  int32_t f[1] = {0};
  int64_t total = 0, *src, *dst;
  (void)state;
  if (!open_enron(&g)) skip();
  exclusion_all(g.d, 0, -1, true, 4096);
  /* strict negatives: 2 million, none an edge */
  assert_fo_ok(fo_dataset_topology(g.d, FO_EDGE_DIR_IN, &csc));
  src = malloc(1024 * 8);
  dst = malloc(1024 * 8);
  fo_link_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 1;
  o.neg = FO_NEG_TRIPLET;
  o.neg_amount = 50;
  assert_fo_ok(fo_link_sampler_create(g.d, &o, &ls));
  assert_fo_ok(fo_link_batch_create(&lb));
  for (int b = 0; b < 40; b++) {
    uint64_t st = (uint64_t)b + 1;
    for (int i = 0; i < 1024; i++) {
      int64_t p = (int64_t)(fot_rand(&st) % (uint64_t)csc.n_edges), v = 0;
      while (csc.indptr[v + 1] <= p) v++;
      src[i] = ((const int32_t *)csc.indices)[p];
      dst[i] = v;
    }
    assert_fo_ok(fo_link_sampler_sample(ls, src, dst, NULL, 1024, 0, (uint64_t)b, lb));
    assert_int_equal(lb->n_neg_missing, 0);
    check_labels(g.d, lb, src, dst, 1024, true);
    total += lb->n_neg;
  }
  fo_link_sampler_destroy(ls);
  /* binary too */
  o.neg = FO_NEG_BINARY;
  o.neg_amount = 20;
  assert_fo_ok(fo_link_sampler_create(g.d, &o, &ls));
  for (int b = 0; b < 10; b++) {
    assert_fo_ok(fo_link_sampler_sample(ls, src, dst, NULL, 1024, 1, (uint64_t)b, lb));
    check_labels(g.d, lb, src, dst, 1024, true);
    total += lb->n_neg;
  }
  print_message("email-Enron: %lld strict negatives, none an edge\n", (long long)total);
  assert_true(total >= 2000000);
  fo_link_batch_destroy(lb);
  fo_link_sampler_destroy(ls);
  free(src);
  free(dst);
  fot_ds_close(&g);
}

static void dblp(void **state) {
  const char *dir = fot_shared_data_dir();
  if (!dir) skip();
  char *pa = fot_path(dir, "dblp-hetero/dblp_paper_author.tsv.gz");
  char *pt = fot_path(dir, "dblp-hetero/dblp_paper_term.tsv.gz");
  fo_import_edge_type et[2] = {{"paper", "writes", "author", pa}, {"paper", "has_term", "term", pt}};
  fo_import_node_type nt[3] = {{"paper", 14328, NULL, NULL, NULL, NULL},
                               {"author", 4057, NULL, NULL, NULL, NULL},
                               {"term", 7723, NULL, NULL, NULL, NULL}};
  fot_ds g = {0};
  fo_import_opts o;
  fo_link_opts lo;
  fo_link_sampler_t *ls;
  fo_link_batch_t *lb;
  int32_t f[1] = {0}, w, rw;
  fo_topology csc;
  int64_t total = 0, src[1024], dst[1024];
  FILE *fp = fopen(pa, "rb");
  (void)state;
  if (!fp) {
    free(pa);
    free(pt);
    skip();
  }
  fclose(fp);
  fo_import_opts_init(&o);
  o.edge_types = et;
  o.n_edge_types = 2;
  o.node_type_opts = nt;
  o.n_node_type_opts = 3;
  o.reverse_edges = true;
  o.csr = true;
  fot_ds_import(&g, NULL, 0, &o);
  w = fo_dataset_edge_type_find(g.d, "paper__writes__author");
  rw = fo_dataset_edge_type_find(g.d, "author__rev_writes__paper");
  assert_true(w >= 0 && rw >= 0);
  exclusion_all(g.d, w, rw, false, 2048);
  exclusion_all(g.d, rw, w, false, 2048);
  /* strict negatives on paper__writes__author: 1 million */
  assert_fo_ok(fo_dataset_edge_topology(g.d, w, FO_EDGE_DIR_IN, &csc));
  fo_link_opts_init(&lo);
  lo.sampler.fanouts = f;
  lo.sampler.n_hops = 1;
  lo.edge_type = "writes";
  lo.neg = FO_NEG_BINARY;
  lo.neg_amount = 50;
  assert_fo_ok(fo_link_sampler_create(g.d, &lo, &ls));
  assert_fo_ok(fo_link_batch_create(&lb));
  for (int b = 0; b < 20; b++) {
    uint64_t st = (uint64_t)b + 7;
    for (int i = 0; i < 1024; i++) {
      int64_t p = (int64_t)(fot_rand(&st) % (uint64_t)csc.n_edges), v = 0;
      while (csc.indptr[v + 1] <= p) v++;
      src[i] = ((const int32_t *)csc.indices)[p];
      dst[i] = v;
    }
    assert_fo_ok(fo_link_sampler_sample(ls, src, dst, NULL, 1024, 0, (uint64_t)b, lb));
    check_labels(g.d, lb, src, dst, 1024, true);
    total += lb->n_neg;
  }
  print_message("DBLP writes: %lld strict negatives, none an edge\n", (long long)total);
  assert_true(total >= 1000000);
  fo_link_batch_destroy(lb);
  fo_link_sampler_destroy(ls);
  fot_ds_close(&g);
  free(pa);
  free(pt);
}

/* ---- errors --------------------------------------------------------------------------------- */

static void errors(void **state) {
  fot_edges e;
  char *dir;
  fo_dataset_t *d;
  fo_link_opts o;
  fo_link_sampler_t *ls;
  fo_link_batch_t *lb;
  int32_t f[1] = {2};
  int64_t src[2] = {0, 1}, dst[2] = {1, 99}, neg[2] = {-1, 0};
  (void)state;
  fot_random(10, 30, 1, &e);
  fot_dataset(&e, true, true, FO_INDEX_AUTO, &dir, &d);
  fo_link_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 1;
  o.neg = FO_NEG_BINARY;
  o.neg_amount = 0;
  assert_fo_error(fo_link_sampler_create(d, &o, &ls), FO_EINVAL, "negative amount 0 is not > 0");
  assert_null(ls);
  o.neg_amount = -2;
  assert_fo_error(fo_link_sampler_create(d, &o, &ls), FO_EINVAL, "negative amount -2 is not > 0");
  o.neg = FO_NEG_TRIPLET;
  o.neg_amount = 1.5;
  assert_fo_error(fo_link_sampler_create(d, &o, &ls), FO_EINVAL, "triplet negative amount 1.5 is not an integer");
  o.neg = 7;
  assert_fo_error(fo_link_sampler_create(d, &o, &ls), FO_EINVAL, "unknown negative sampling mode 7");
  o.neg = FO_NEG_BINARY;
  o.neg_amount = 1;
  o.edge_type = "node__cites__node";
  assert_fo_error(fo_link_sampler_create(d, &o, &ls), FO_EINVAL,
                  "edge type 'node__cites__node' is not an edge type of");
  o.edge_type = NULL;
  f[0] = -3;
  assert_fo_error(fo_link_sampler_create(d, &o, &ls), FO_EINVAL, "fanouts[0] = -3");
  f[0] = 2;
  assert_fo_ok(fo_link_sampler_create(d, &o, &ls));
  assert_fo_ok(fo_link_batch_create(&lb));
  assert_fo_error(fo_link_sampler_sample(ls, src, dst, NULL, 2, 0, 3, lb), FO_ERANGE,
                  "seed edge 1: destination 99 is not a node id of type 'node' in [0, 10)");
  assert_int_equal(lb->n_label, 0);
  assert_fo_error(fo_link_sampler_sample(ls, neg, dst, NULL, 1, 0, 3, lb), FO_ERANGE,
                  "seed edge 0: source -1 is not a node id");
  assert_fo_error(fo_link_sampler_sample(ls, NULL, dst, NULL, 1, 0, 3, lb), FO_EINVAL,
                  "seed edges are NULL");
  assert_fo_error(fo_link_sampler_sample(ls, src, dst, NULL, -1, 0, 3, lb), FO_EINVAL,
                  "number of seed edges -1 is negative");
  assert_fo_ok(fo_link_sampler_sample(ls, src, src, NULL, 0, 0, 3, lb));
  assert_int_equal(lb->n_label, 0);
  assert_int_equal(lb->sample->n_nodes, 0);
  assert_int_equal(fo_link_has_edge(d, 0, 0, 100), FO_ERANGE);
  assert_int_equal(fo_link_has_edge(d, 3, 0, 1), FO_ERANGE);
  {
    /* partitioned datasets in process: as the plain one (test_link_part.c); across machines
     * (a part not open here): FO_ENOSYS, said clearly (test_link_part.c) */
    fo_partition_opts po;
    fo_partition_report rep;
    fo_dataset_t *pd;
    char *gdir = fot_path(dir, "g"), *pdir = fot_path(dir, "parts");
    fo_link_sampler_t *ps = NULL;
    fo_partition_opts_init(&po);
    po.n_parts = 2;
    assert_fo_ok(fo_partition(gdir, pdir, &po, &rep));
    fo_partition_report_free(&rep);
    assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
    assert_fo_ok(fo_link_sampler_create(pd, &o, &ps));
    fo_link_sampler_destroy(ps);
    fo_dataset_close(pd);
    free(pdir);
    free(gdir);
  }
  fo_link_batch_destroy(lb);
  fo_link_sampler_destroy(ls);
  fo_dataset_close(d);
  fot_rmtree(dir);
  fot_edges_free(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(seeds_and_labels), cmocka_unit_test(strict_uniform),
      cmocka_unit_test(strict_missing),   cmocka_unit_test(exclusion_small),
      cmocka_unit_test(exclusion_hubs),
      cmocka_unit_test(enron),            cmocka_unit_test(dblp),
      cmocka_unit_test(errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
