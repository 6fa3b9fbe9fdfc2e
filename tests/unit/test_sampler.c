/*
 * tests/unit/test_sampler.c: exact unit tests of the multi-hop sampler (include/fanout/sampler.h).
 *
 * Exact expected arrays are written by hand only for deterministic settings (fanout -1, or
 * fanout >= degree without replacement), worked out on paper from the CSC/CSR the importer
 * builds (stable counting sort: each neighbor list keeps input order; the edge id of an edge is
 * its CSC position, and the CSR's csr_eid maps CSR positions to those ids). Random settings are
 * tested for determinism (same key -> same bytes), for sensitivity to every part of the key, and
 * against the invariant checker. Every error path is checked by code and message.
 *
 * cycle_graph(6) as fot_cycle(6) builds it: input edge list (index: src->dst)
 *   0:0->1  1:1->0  2:1->2  3:2->1  4:2->3  5:3->2  6:3->4  7:4->3  8:4->5  9:5->4  10:5->0  11:0->5
 * CSC (column v = in-neighbors of v, input order), edge id = position:
 *   indptr  [0, 2, 4, 6, 8, 10, 12]
 *   indices [1, 5 | 0, 2 | 1, 3 | 2, 4 | 3, 5 | 4, 0]
 * CSR (row v = out-neighbors of v, input order) and csr_eid (CSC position of the same edge):
 *   indices [1, 5 | 0, 2 | 1, 3 | 2, 4 | 3, 5 | 4, 0]
 *   csr_eid [2, 11 | 0, 4 | 3, 6 | 5, 8 | 7, 10 | 9, 1]
 */
#include "support.h"

#define N_OF(a) ((int64_t)(sizeof(a) / sizeof((a)[0])))

/* ---- helpers ------------------------------------------------------------------------------- */

typedef struct graph {
  fot_edges e;
  char *dir;
  fo_dataset_t *d;
} graph;

static void graph_open(graph *g, bool csc, bool csr, fo_index_dtype dt) {
  fot_dataset(&g->e, csc, csr, dt, &g->dir, &g->d);
}

static void graph_close(graph *g) {
  fo_dataset_close(g->d);
  fot_rmtree(g->dir);
  fot_edges_free(&g->e);
}

static fo_sampler_opts opts_of(const int32_t *fanouts, int32_t n_hops) {
  fo_sampler_opts o;
  fo_sampler_opts_init(&o);
  o.fanouts = fanouts;
  o.n_hops = n_hops;
  return o;
}

/* Sample once with a fresh sampler and batch; the caller destroys the batch. */
static fo_batch_t *sample_fresh(const fo_dataset_t *d, const fo_sampler_opts *o,
                                const int64_t *seeds, int64_t n_seeds, uint64_t epoch,
                                uint64_t batch_index) {
  fo_sampler_t *s;
  fo_batch_t *b;
  assert_fo_ok(fo_sampler_create(d, o, &s));
  assert_fo_ok(fo_batch_create(&b));
  assert_fo_ok(fo_sampler_sample(s, seeds, n_seeds, epoch, batch_index, b));
  fo_sampler_destroy(s);
  return b;
}

/* The batch must satisfy the invariants and equal the reference sampler's. */
static void cross_check(const fo_dataset_t *d, const fo_sampler_opts *o, const int64_t *seeds,
                        int64_t n_seeds, uint64_t epoch, uint64_t batch_index,
                        const fo_batch_t *b) {
  fot_ref_batch r;
  const char *why = fot_check_batch(d, o, seeds, n_seeds, b);
  if (why) fail_msg("invariant broken: %s", why);
  assert_fo_ok(fot_ref_sample(d, o, seeds, n_seeds, epoch, batch_index, &r));
  fot_assert_same_batch(b, &r);
  fot_ref_free(&r);
}

/* A hand-written expected batch. */
typedef struct want {
  int64_t n_seeds;
  int32_t n_hops;
  bool disjoint;
  int64_t n_nodes, n_edges;
  const int64_t *node, *batch, *row, *col, *edge, *nsn, *nse;
} want;

static void same(const char *what, const int64_t *got, const int64_t *exp, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (got[i] != exp[i])
      fail_msg("%s[%lld] = %lld, expected %lld", what, (long long)i, (long long)got[i],
               (long long)exp[i]);
}

static void assert_batch_is(const fo_batch_t *b, const want *w) {
  assert_int_equal(b->n_seeds, w->n_seeds);
  assert_int_equal(b->n_hops, w->n_hops);
  assert_int_equal(b->disjoint, w->disjoint);
  assert_int_equal(b->n_nodes, w->n_nodes);
  assert_int_equal(b->n_edges, w->n_edges);
  same("node", b->node, w->node, w->n_nodes);
  same("row", b->row, w->row, w->n_edges);
  same("col", b->col, w->col, w->n_edges);
  same("edge", b->edge, w->edge, w->n_edges);
  same("num_sampled_nodes", b->num_sampled_nodes, w->nsn, w->n_hops + 1);
  same("num_sampled_edges", b->num_sampled_edges, w->nse, w->n_hops);
  if (w->disjoint) {
    assert_non_null(b->batch);
    same("batch", b->batch, w->batch, w->n_nodes);
  }
}

/* A private copy of a batch (in the reference's struct, so fot_assert_same_batch compares). */
static void snap(const fo_batch_t *b, fot_ref_batch *r) {
  size_t nn = (size_t)(b->n_nodes ? b->n_nodes : 1) * 8, ne = (size_t)(b->n_edges ? b->n_edges : 1) * 8;
  memset(r, 0, sizeof *r);
  r->n_nodes = b->n_nodes;
  r->n_edges = b->n_edges;
  r->n_hops = b->n_hops;
  r->node = malloc(nn);
  r->row = malloc(ne);
  r->col = malloc(ne);
  r->edge = malloc(ne);
  if (b->n_nodes) memcpy(r->node, b->node, (size_t)b->n_nodes * 8);
  if (b->n_edges) {
    memcpy(r->row, b->row, (size_t)b->n_edges * 8);
    memcpy(r->col, b->col, (size_t)b->n_edges * 8);
    memcpy(r->edge, b->edge, (size_t)b->n_edges * 8);
  }
  if (b->disjoint) {
    r->batch = malloc(nn);
    if (b->n_nodes) memcpy(r->batch, b->batch, (size_t)b->n_nodes * 8);
  }
  memcpy(r->nsn, b->num_sampled_nodes, (size_t)(b->n_hops + 1) * 8);
  memcpy(r->nse, b->num_sampled_edges, (size_t)b->n_hops * 8);
}

/* Byte equality of a batch and a snapshot (all arrays and counts). */
static bool equals_snap(const fo_batch_t *b, const fot_ref_batch *r) {
  if (b->n_nodes != r->n_nodes || b->n_edges != r->n_edges || b->n_hops != r->n_hops) return false;
  if ((r->batch != NULL) != b->disjoint) return false;
  if (b->n_nodes && memcmp(b->node, r->node, (size_t)b->n_nodes * 8)) return false;
  if (b->n_edges && (memcmp(b->row, r->row, (size_t)b->n_edges * 8) ||
                     memcmp(b->col, r->col, (size_t)b->n_edges * 8) ||
                     memcmp(b->edge, r->edge, (size_t)b->n_edges * 8)))
    return false;
  if (r->batch && b->n_nodes && memcmp(b->batch, r->batch, (size_t)b->n_nodes * 8)) return false;
  if (memcmp(b->num_sampled_nodes, r->nsn, (size_t)(b->n_hops + 1) * 8)) return false;
  if (b->n_hops && memcmp(b->num_sampled_edges, r->nse, (size_t)b->n_hops * 8)) return false;
  return true;
}

static void assert_msg_has(const char *substr) {
  if (!strstr(fo_last_error(), substr))
    fail_msg("message '%s' lacks '%s'", fo_last_error(), substr);
}

/* ---- cycle_graph(6), seeds {0, 3}, fanouts {-1, -1}: worked out by hand -------------------- *
 * hop 0: node 0 (local 0) has in-neighbors 1 (pos 0), 5 (pos 1) -> new locals 2, 3;
 *        node 3 (local 1) has 2 (pos 6), 4 (pos 7) -> new locals 4, 5.
 * hop 1: node 1 (local 2): 0 (pos 2) -> 0, 2 (pos 3) -> 4; node 5 (local 3): 4 (pos 10) -> 5,
 *        0 (pos 11) -> 0; node 2 (local 4): 1 (pos 4) -> 2, 3 (pos 5) -> 1; node 4 (local 5):
 *        3 (pos 8) -> 1, 5 (pos 9) -> 3. No new node.
 */
static const int64_t cyc_node[] = {0, 3, 1, 5, 2, 4};
static const int64_t cyc_row[] = {2, 3, 4, 5, 0, 4, 5, 0, 2, 1, 1, 3};
static const int64_t cyc_col[] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5};
static const int64_t cyc_edge_in[] = {0, 1, 6, 7, 2, 3, 10, 11, 4, 5, 8, 9};
static const int64_t cyc_nsn[] = {2, 4, 0};
static const int64_t cyc_nse[] = {4, 8};
static const int64_t cyc_seeds[] = {0, 3};

static want cycle_want(const int64_t *edge) {
  want w = {.n_seeds = 2, .n_hops = 2, .n_nodes = 6, .n_edges = 12, .node = cyc_node,
            .row = cyc_row, .col = cyc_col, .edge = edge, .nsn = cyc_nsn, .nse = cyc_nse};
  return w;
}

static void cycle_in_all(void **state) {
  graph g;
  fo_sampler_opts o = opts_of((const int32_t[]){-1, -1}, 2);
  want w = cycle_want(cyc_edge_in);
  (void)state;
  fot_cycle(6, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  for (uint64_t bi = 0; bi < 3; bi++) { /* no randomness: any key gives the same batch */
    fo_batch_t *b = sample_fresh(g.d, &o, cyc_seeds, 2, bi, 7 * bi);
    assert_batch_is(b, &w);
    assert_null(b->batch); /* not disjoint */
    cross_check(g.d, &o, cyc_seeds, 2, bi, 7 * bi, b);
    fo_batch_destroy(b);
  }
  graph_close(&g);
}

/* fanout >= degree without replacement takes every neighbor in stored order, like -1. */
static void cycle_in_fanout_ge_degree(void **state) {
  graph g;
  const int32_t fans[][2] = {{2, 2}, {2, 7}, {3, -1}, {-1, 1000}};
  want w = cycle_want(cyc_edge_in);
  (void)state;
  fot_cycle(6, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  for (int c = 0; c < 4; c++) {
    fo_sampler_opts o = opts_of(fans[c], 2);
    fo_batch_t *b = sample_fresh(g.d, &o, cyc_seeds, 2, 3, 5);
    assert_batch_is(b, &w);
    cross_check(g.d, &o, cyc_seeds, 2, 3, 5, b);
    fo_batch_destroy(b);
  }
  graph_close(&g);
}

/* edge_dir OUT on a csc+csr dataset: the same walk over the CSR (which, for the symmetric cycle,
 * lists the same neighbors), but edge ids come from csr_eid:
 * hop 0: node 0: 1 (csr pos 0, id 2), 5 (pos 1, id 11); node 3: 2 (pos 6, id 5), 4 (pos 7, id 8).
 * hop 1: node 1: 0 (id 0), 2 (id 4); node 5: 4 (id 9), 0 (id 1); node 2: 1 (id 3), 3 (id 6);
 *        node 4: 3 (id 7), 5 (id 10). */
static void cycle_out_all(void **state) {
  static const int64_t edge_out[] = {2, 11, 5, 8, 0, 4, 9, 1, 3, 6, 7, 10};
  graph g;
  fo_sampler_opts o = opts_of((const int32_t[]){-1, -1}, 2);
  want w = cycle_want(edge_out);
  (void)state;
  o.edge_dir = FO_EDGE_DIR_OUT;
  fot_cycle(6, &g.e);
  graph_open(&g, true, true, FO_INDEX_AUTO);
  {
    fo_batch_t *b = sample_fresh(g.d, &o, cyc_seeds, 2, 0, 0);
    assert_batch_is(b, &w);
    cross_check(g.d, &o, cyc_seeds, 2, 0, 0, b);
    fo_batch_destroy(b);
  }
  {
    fo_sampler_opts in = o; /* IN on the same dataset still gives CSC ids */
    want wi = cycle_want(cyc_edge_in);
    fo_batch_t *b;
    in.edge_dir = FO_EDGE_DIR_IN;
    b = sample_fresh(g.d, &in, cyc_seeds, 2, 0, 0);
    assert_batch_is(b, &wi);
    fo_batch_destroy(b);
  }
  graph_close(&g);
}

/* A CSR-only dataset: edge ids are CSR positions, and IN needs the CSC (message says --csc). */
static void cycle_out_csr_only(void **state) {
  static const int64_t edge_csr[] = {0, 1, 6, 7, 2, 3, 10, 11, 4, 5, 8, 9};
  graph g;
  fo_sampler_opts o = opts_of((const int32_t[]){-1, -1}, 2);
  want w = cycle_want(edge_csr);
  fo_sampler_t *s = (fo_sampler_t *)&g;
  (void)state;
  o.edge_dir = FO_EDGE_DIR_OUT;
  fot_cycle(6, &g.e);
  graph_open(&g, false, true, FO_INDEX_AUTO);
  {
    fo_batch_t *b = sample_fresh(g.d, &o, cyc_seeds, 2, 0, 0);
    assert_batch_is(b, &w);
    cross_check(g.d, &o, cyc_seeds, 2, 0, 0, b);
    fo_batch_destroy(b);
  }
  o.edge_dir = FO_EDGE_DIR_IN;
  assert_fo_error(fo_sampler_create(g.d, &o, &s), FO_EINVAL, "--csc");
  assert_null(s);
  graph_close(&g);
}

/* Disjoint mode, cycle_graph(6), seeds {0, 3}, fanouts {-1, -1}:
 * hop 0 as above (trees 0, 0, 1, 1 for locals 2..5).
 * hop 1: node 1 (local 2, tree 0): 0 -> 0, 2 -> new 6 (tree 0); node 5 (local 3, tree 0):
 *        4 -> new 7 (tree 0), 0 -> 0; node 2 (local 4, tree 1): 1 -> new 8 (tree 1), 3 -> 1;
 *        node 4 (local 5, tree 1): 3 -> 1, 5 -> new 9 (tree 1). */
static void cycle_disjoint_all(void **state) {
  static const int64_t node[] = {0, 3, 1, 5, 2, 4, 2, 4, 1, 5};
  static const int64_t bat[] = {0, 1, 0, 0, 1, 1, 0, 0, 1, 1};
  static const int64_t row[] = {2, 3, 4, 5, 0, 6, 7, 0, 8, 1, 1, 9};
  static const int64_t nsn[] = {2, 4, 4};
  graph g;
  fo_sampler_opts o = opts_of((const int32_t[]){-1, -1}, 2);
  want w = {.n_seeds = 2, .n_hops = 2, .disjoint = true, .n_nodes = 10, .n_edges = 12,
            .node = node, .batch = bat, .row = row, .col = cyc_col, .edge = cyc_edge_in,
            .nsn = nsn, .nse = cyc_nse};
  (void)state;
  o.disjoint = true;
  fot_cycle(6, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  {
    fo_batch_t *b = sample_fresh(g.d, &o, cyc_seeds, 2, 1, 2);
    assert_batch_is(b, &w);
    cross_check(g.d, &o, cyc_seeds, 2, 1, 2, b);
    fo_batch_destroy(b);
  }
  graph_close(&g);
}

/* Fanout 0 samples nothing at its hop; a later hop then has an empty frontier. */
static void fanout_zero(void **state) {
  static const int64_t node2[] = {0, 3};
  static const int64_t node6[] = {0, 3, 1, 5, 2, 4};
  static const int64_t row4[] = {2, 3, 4, 5}, col4[] = {0, 0, 1, 1}, edge4[] = {0, 1, 6, 7};
  graph g;
  (void)state;
  fot_cycle(6, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  for (int rep = 0; rep < 2; rep++) { /* without, then with replacement */
    {
      fo_sampler_opts o = opts_of((const int32_t[]){0}, 1);
      want w = {.n_seeds = 2, .n_hops = 1, .n_nodes = 2, .node = node2,
                .nsn = (const int64_t[]){2, 0}, .nse = (const int64_t[]){0}};
      fo_batch_t *b;
      o.replace = rep;
      b = sample_fresh(g.d, &o, cyc_seeds, 2, 0, 0);
      assert_batch_is(b, &w);
      cross_check(g.d, &o, cyc_seeds, 2, 0, 0, b);
      fo_batch_destroy(b);
    }
    {
      fo_sampler_opts o = opts_of((const int32_t[]){0, -1}, 2);
      want w = {.n_seeds = 2, .n_hops = 2, .n_nodes = 2, .node = node2,
                .nsn = (const int64_t[]){2, 0, 0}, .nse = (const int64_t[]){0, 0}};
      fo_batch_t *b;
      o.replace = rep;
      b = sample_fresh(g.d, &o, cyc_seeds, 2, 0, 0);
      assert_batch_is(b, &w);
      fo_batch_destroy(b);
    }
    if (!rep) { /* -1 then 0 (-1 with replacement: see replace_fanout_all_is_deterministic) */
      fo_sampler_opts o = opts_of((const int32_t[]){-1, 0}, 2);
      want w = {.n_seeds = 2, .n_hops = 2, .n_nodes = 6, .n_edges = 4, .node = node6,
                .row = row4, .col = col4, .edge = edge4,
                .nsn = (const int64_t[]){2, 4, 0}, .nse = (const int64_t[]){4, 0}};
      fo_batch_t *b = sample_fresh(g.d, &o, cyc_seeds, 2, 0, 0);
      assert_batch_is(b, &w);
      cross_check(g.d, &o, cyc_seeds, 2, 0, 0, b);
      fo_batch_destroy(b);
    }
  }
  graph_close(&g);
}

/* Duplicate seeds keep their own positions and are each expanded; a neighbor equal to a
 * duplicated seed maps to its first position. */
static void duplicate_seeds(void **state) {
  graph g;
  (void)state;
  fot_cycle(6, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  {
    /* seeds {0, 0, 3}, fanouts {-1}: both copies of 0 give 1 (pos 0) -> 3 and 5 (pos 1) -> 4;
     * node 3 gives 2 -> 5, 4 -> 6. */
    static const int64_t seeds[] = {0, 0, 3};
    static const int64_t node[] = {0, 0, 3, 1, 5, 2, 4};
    static const int64_t row[] = {3, 4, 3, 4, 5, 6}, col[] = {0, 0, 1, 1, 2, 2};
    static const int64_t edge[] = {0, 1, 0, 1, 6, 7};
    fo_sampler_opts o = opts_of((const int32_t[]){-1}, 1);
    want w = {.n_seeds = 3, .n_hops = 1, .n_nodes = 7, .n_edges = 6, .node = node, .row = row,
              .col = col, .edge = edge, .nsn = (const int64_t[]){3, 4},
              .nse = (const int64_t[]){6}};
    fo_batch_t *b = sample_fresh(g.d, &o, seeds, 3, 0, 0);
    assert_batch_is(b, &w);
    cross_check(g.d, &o, seeds, 3, 0, 0, b);
    fo_batch_destroy(b);
  }
  {
    /* seeds {0, 1, 1}, fanouts {-1, -1}:
     * hop 0: node 0: 1 (pos 0) -> 1 (the FIRST copy of seed 1), 5 (pos 1) -> new 3;
     *        node 1 (local 1): 0 (pos 2) -> 0, 2 (pos 3) -> new 4; local 2: the same edges.
     * hop 1: node 5 (local 3): 4 (pos 10) -> new 5, 0 (pos 11) -> 0;
     *        node 2 (local 4): 1 (pos 4) -> 1, 3 (pos 5) -> new 6. */
    static const int64_t seeds[] = {0, 1, 1};
    static const int64_t node[] = {0, 1, 1, 5, 2, 4, 3};
    static const int64_t row[] = {1, 3, 0, 4, 0, 4, 5, 0, 1, 6};
    static const int64_t col[] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4};
    static const int64_t edge[] = {0, 1, 2, 3, 2, 3, 10, 11, 4, 5};
    fo_sampler_opts o = opts_of((const int32_t[]){-1, -1}, 2);
    want w = {.n_seeds = 3, .n_hops = 2, .n_nodes = 7, .n_edges = 10, .node = node, .row = row,
              .col = col, .edge = edge, .nsn = (const int64_t[]){3, 2, 2},
              .nse = (const int64_t[]){6, 4}};
    fo_batch_t *b = sample_fresh(g.d, &o, seeds, 3, 0, 0);
    assert_batch_is(b, &w);
    cross_check(g.d, &o, seeds, 3, 0, 0, b);
    fo_batch_destroy(b);
  }
  {
    /* Disjoint, seeds {0, 0}, fanouts {-1}: each copy grows its own tree. */
    static const int64_t seeds[] = {0, 0};
    static const int64_t node[] = {0, 0, 1, 5, 1, 5}, bat[] = {0, 1, 0, 0, 1, 1};
    static const int64_t row[] = {2, 3, 4, 5}, col[] = {0, 0, 1, 1}, edge[] = {0, 1, 0, 1};
    fo_sampler_opts o = opts_of((const int32_t[]){-1}, 1);
    want w = {.n_seeds = 2, .n_hops = 1, .disjoint = true, .n_nodes = 6, .n_edges = 4,
              .node = node, .batch = bat, .row = row, .col = col, .edge = edge,
              .nsn = (const int64_t[]){2, 4}, .nse = (const int64_t[]){4}};
    fo_batch_t *b;
    o.disjoint = true;
    b = sample_fresh(g.d, &o, seeds, 2, 0, 0);
    assert_batch_is(b, &w);
    cross_check(g.d, &o, seeds, 2, 0, 0, b);
    fo_batch_destroy(b);
  }
  graph_close(&g);
}

/* Non-disjoint copies of a seed share its random stream, so they draw the same neighbors;
 * disjoint copies have their own streams and (somewhere among 20 batches) differ. */
static void duplicate_seeds_share_stream(void **state) {
  static const int64_t seeds[] = {2, 5, 2};
  graph g;
  (void)state;
  fot_clique(9, &g.e); /* every degree is 8 */
  graph_open(&g, true, false, FO_INDEX_AUTO);
  for (int mode = 0; mode < 4; mode++) {
    fo_sampler_opts o = opts_of((const int32_t[]){3}, 1);
    fo_sampler_t *s;
    fo_batch_t *b;
    int n_differ = 0;
    o.replace = mode & 1;
    o.disjoint = (mode & 2) != 0;
    assert_fo_ok(fo_sampler_create(g.d, &o, &s));
    assert_fo_ok(fo_batch_create(&b));
    for (uint64_t bi = 0; bi < 20; bi++) {
      int64_t e0[3], e2[3], r0[3], r2[3], k0 = 0, k2 = 0;
      assert_fo_ok(fo_sampler_sample(s, seeds, 3, 0, bi, b));
      cross_check(g.d, &o, seeds, 3, 0, bi, b);
      for (int64_t e = 0; e < b->n_edges; e++) {
        if (b->col[e] == 0 && k0 < 3) e0[k0] = b->edge[e], r0[k0++] = b->node[b->row[e]];
        if (b->col[e] == 2 && k2 < 3) e2[k2] = b->edge[e], r2[k2++] = b->node[b->row[e]];
      }
      assert_int_equal(k0, 3);
      assert_int_equal(k2, 3);
      if (memcmp(e0, e2, sizeof e0) || memcmp(r0, r2, sizeof r0)) n_differ++;
    }
    if (o.disjoint)
      assert_true(n_differ > 0);
    else
      assert_int_equal(n_differ, 0);
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
  }
  graph_close(&g);
}

/* No seeds: an empty batch with every count zero, also after a non-empty batch (stale counts
 * must be overwritten) and in disjoint mode. */
static void empty_seeds(void **state) {
  graph g;
  (void)state;
  fot_cycle(6, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  for (int dis = 0; dis < 2; dis++) {
    fo_sampler_opts o = opts_of((const int32_t[]){-1, 2, -1}, 3);
    fo_sampler_t *s;
    fo_batch_t *b;
    static const int64_t one = 0;
    o.disjoint = dis;
    assert_fo_ok(fo_sampler_create(g.d, &o, &s));
    assert_fo_ok(fo_batch_create(&b));
    for (int round = 0; round < 2; round++) {
      assert_fo_ok(fo_sampler_sample(s, NULL, 0, 0, 0, b));
      assert_int_equal(b->n_seeds, 0);
      assert_int_equal(b->n_nodes, 0);
      assert_int_equal(b->n_edges, 0);
      assert_int_equal(b->n_hops, 3);
      for (int h = 0; h <= 3; h++) assert_int_equal(b->num_sampled_nodes[h], 0);
      for (int h = 0; h < 3; h++) assert_int_equal(b->num_sampled_edges[h], 0);
      assert_null(fot_check_batch(g.d, &o, NULL, 0, b));
      /* fill it, then the next round empties it again */
      assert_fo_ok(fo_sampler_sample(s, &one, 1, 0, 0, b));
      assert_true(b->n_edges > 0);
    }
    /* a non-NULL seeds pointer with 0 seeds is fine too */
    assert_fo_ok(fo_sampler_sample(s, &one, 0, 0, 0, b));
    assert_int_equal(b->n_nodes, 0);
    assert_int_equal(b->num_sampled_nodes[0], 0);
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
  }
  graph_close(&g);
}

/* A seed without neighbors gives no edge in any mode (none for degree 0 even with
 * replacement); cycle(6) plus isolated node 6. */
static void isolated_seed(void **state) {
  graph g;
  (void)state;
  fot_cycle(6, &g.e);
  g.e.n = 7;
  graph_open(&g, true, true, FO_INDEX_AUTO);
  for (int mode = 0; mode < 8; mode++) {
    static const int64_t seeds[] = {6};
    static const int32_t fans_all[] = {-1, 3}, fans_rep[] = {5, 3};
    fo_sampler_opts o = opts_of(fans_all, 2);
    want w = {.n_seeds = 1, .n_hops = 2, .disjoint = (mode & 2) != 0, .n_nodes = 1,
              .node = seeds, .batch = (const int64_t[]){0},
              .nsn = (const int64_t[]){1, 0, 0}, .nse = (const int64_t[]){0, 0}};
    fo_batch_t *b;
    o.replace = mode & 1;
    o.disjoint = (mode & 2) != 0;
    o.edge_dir = (mode & 4) ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
    if (o.replace) o.fanouts = fans_rep; /* (-1 with replacement: see the bug test) */
    b = sample_fresh(g.d, &o, seeds, 1, 4, 9);
    assert_batch_is(b, &w);
    cross_check(g.d, &o, seeds, 1, 4, 9, b);
    fo_batch_destroy(b);
  }
  {
    /* seeds {6, 0}, fanouts {-1}: only node 0 (local 1) has edges: 1 -> 2, 5 -> 3. */
    static const int64_t seeds[] = {6, 0};
    static const int64_t node[] = {6, 0, 1, 5}, row[] = {2, 3}, col[] = {1, 1}, edge[] = {0, 1};
    fo_sampler_opts o = opts_of((const int32_t[]){-1}, 1);
    want w = {.n_seeds = 2, .n_hops = 1, .n_nodes = 4, .n_edges = 2, .node = node, .row = row,
              .col = col, .edge = edge, .nsn = (const int64_t[]){2, 2},
              .nse = (const int64_t[]){2}};
    fo_batch_t *b = sample_fresh(g.d, &o, seeds, 2, 0, 0);
    assert_batch_is(b, &w);
    cross_check(g.d, &o, seeds, 2, 0, 0, b);
    fo_batch_destroy(b);
  }
  graph_close(&g);
}

/* Self loops and multi-edges are ordinary edges. Input: 0:0->0 1:1->0 2:1->0 3:2->1 4:0->1.
 * CSC: indptr [0, 3, 5, 5], indices [0, 1, 1 | 2, 0].
 * seeds {0}, fanouts {-1, -1}: hop 0: node 0: 0 (pos 0) -> 0 (itself), 1 (pos 1) -> new 1,
 * 1 (pos 2) -> 1; hop 1: node 1: 2 (pos 3) -> new 2, 0 (pos 4) -> 0. */
static void self_loops_multi_edges(void **state) {
  static const int64_t seeds[] = {0};
  static const int64_t node[] = {0, 1, 2}, row[] = {0, 1, 1, 2, 0}, col[] = {0, 0, 0, 1, 1};
  static const int64_t edge[] = {0, 1, 2, 3, 4};
  const int32_t fans[][2] = {{-1, -1}, {3, 2}, {5, -1}};
  graph g;
  (void)state;
  memset(&g.e, 0, sizeof g.e);
  fot_edges_add(&g.e, 0, 0);
  fot_edges_add(&g.e, 1, 0);
  fot_edges_add(&g.e, 1, 0);
  fot_edges_add(&g.e, 2, 1);
  fot_edges_add(&g.e, 0, 1);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  for (int c = 0; c < 3; c++) {
    fo_sampler_opts o = opts_of(fans[c], 2);
    want w = {.n_seeds = 1, .n_hops = 2, .n_nodes = 3, .n_edges = 5, .node = node, .row = row,
              .col = col, .edge = edge, .nsn = (const int64_t[]){1, 1, 1},
              .nse = (const int64_t[]){3, 2}};
    fo_batch_t *b = sample_fresh(g.d, &o, seeds, 1, 0, 0);
    assert_batch_is(b, &w);
    cross_check(g.d, &o, seeds, 1, 0, 0, b);
    fo_batch_destroy(b);
  }
  {
    /* fanout 2 < degree 3 without replacement: two distinct positions; the two parallel
     * edges 1->0 (ids 1 and 2) are distinct positions, so both are taken together in some
     * batches (probability 1/3 each). */
    fo_sampler_opts o = opts_of((const int32_t[]){2}, 1);
    fo_sampler_t *s;
    fo_batch_t *b;
    int both = 0, with_loop = 0;
    assert_fo_ok(fo_sampler_create(g.d, &o, &s));
    assert_fo_ok(fo_batch_create(&b));
    for (uint64_t bi = 0; bi < 60; bi++) {
      int64_t ids;
      assert_fo_ok(fo_sampler_sample(s, seeds, 1, 0, bi, b));
      cross_check(g.d, &o, seeds, 1, 0, bi, b);
      assert_int_equal(b->n_edges, 2);
      assert_true(b->edge[0] != b->edge[1]);
      ids = (1 << b->edge[0]) | (1 << b->edge[1]);
      if (ids == 6) {
        both++;
        assert_int_equal(b->n_nodes, 2); /* one new node: 1, reached twice */
        assert_int_equal(b->row[0], 1);
        assert_int_equal(b->row[1], 1);
      }
      if (ids & 1) {
        with_loop++;
        for (int e = 0; e < 2; e++)
          if (b->edge[e] == 0) assert_int_equal(b->row[e], 0); /* self loop: row = col */
      }
    }
    assert_true(both > 0);
    assert_true(with_loop > 0);
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
  }
  graph_close(&g);
}

/* With replacement: exactly `fanout` draws even when fanout > degree, all from the node's own
 * neighbors; star(3), seeds {0} (the center). */
static void replace_exact_count(void **state) {
  static const int64_t seeds[] = {0};
  graph g;
  fo_sampler_opts o = opts_of((const int32_t[]){10}, 1);
  bool seen[3] = {false, false, false};
  (void)state;
  o.replace = true;
  fot_star(3, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  for (uint64_t bi = 0; bi < 10; bi++) {
    fo_batch_t *b = sample_fresh(g.d, &o, seeds, 1, 0, bi);
    assert_int_equal(b->n_edges, 10);
    assert_int_equal(b->num_sampled_edges[0], 10);
    assert_true(b->n_nodes >= 2 && b->n_nodes <= 4);
    for (int64_t e = 0; e < 10; e++) {
      assert_int_equal(b->col[e], 0);
      assert_in_range(b->edge[e], 0, 2); /* the center's column is CSC positions 0..2 */
      seen[b->edge[e]] = true;
    }
    cross_check(g.d, &o, seeds, 1, 0, bi, b);
    fo_batch_destroy(b);
  }
  assert_true(seen[0] && seen[1] && seen[2]);
  graph_close(&g);
}

/* sampler.h: "fanout -1: all neighbors, in stored order", independently of `replace` (with
 * replacement, "exactly `fanout` draws" has no meaning for -1); the reference and pyg-lib
 * (`count < 0 || (!replace && count >= population)`) agree. The library once made `degree`
 * random draws with replacement instead. */
static void replace_fanout_all_is_deterministic(void **state) {
  graph g;
  fo_sampler_opts o = opts_of((const int32_t[]){-1, -1}, 2);
  want w = cycle_want(cyc_edge_in);
  (void)state;
  o.replace = true;
  fot_cycle(6, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  for (uint64_t bi = 0; bi < 4; bi++) {
    fo_batch_t *b = sample_fresh(g.d, &o, cyc_seeds, 2, 0, bi);
    assert_batch_is(b, &w);
    fo_batch_destroy(b);
  }
  graph_close(&g);
}

/* The fanouts array is copied by create. */
static void fanouts_copied(void **state) {
  graph g;
  int32_t fans[2] = {-1, -1};
  fo_sampler_opts o = opts_of(fans, 2);
  fo_sampler_t *s;
  fo_batch_t *b;
  want w = cycle_want(cyc_edge_in);
  (void)state;
  fot_cycle(6, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  assert_fo_ok(fo_sampler_create(g.d, &o, &s));
  fans[0] = fans[1] = 0;
  assert_fo_ok(fo_batch_create(&b));
  assert_fo_ok(fo_sampler_sample(s, cyc_seeds, 2, 0, 0, b));
  assert_batch_is(b, &w);
  fo_batch_destroy(b);
  fo_sampler_destroy(s);
  graph_close(&g);
}

/* 64 hops is the maximum and works. */
static void max_hops(void **state) {
  graph g;
  int32_t fans[64];
  fo_sampler_opts o;
  fo_batch_t *b;
  static const int64_t seeds[] = {0};
  (void)state;
  for (int h = 0; h < 64; h++) fans[h] = h % 3 == 0 ? -1 : 1;
  o = opts_of(fans, 64);
  fot_path_graph(200, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  b = sample_fresh(g.d, &o, seeds, 1, 0, 0);
  assert_int_equal(b->n_hops, 64);
  cross_check(g.d, &o, seeds, 1, 0, 0, b);
  fo_batch_destroy(b);
  graph_close(&g);
}

/* ---- determinism --------------------------------------------------------------------------- */

static void random_seeds(uint64_t *st, int64_t n_nodes, int64_t k, int64_t *out) {
  for (int64_t i = 0; i < k; i++) out[i] = (int64_t)(fot_rand(st) % (uint64_t)n_nodes);
}

/* Same (dataset, options, seeds, epoch, batch index) -> identical bytes from fresh samplers,
 * from repeated calls on one sampler, with other keys sampled in between. */
static void determinism_fresh_and_repeated(void **state) {
  graph g;
  uint64_t st = 11;
  int64_t seeds[24];
  (void)state;
  fot_random(300, 3000, 99, &g.e);
  graph_open(&g, true, true, FO_INDEX_AUTO);
  random_seeds(&st, 300, 24, seeds);
  seeds[5] = seeds[17]; /* a duplicate */
  for (int mode = 0; mode < 8; mode++) {
    fo_sampler_opts o = opts_of((const int32_t[]){5, 3, 2}, 3);
    fo_sampler_t *s;
    fo_batch_t *b, *b2;
    fot_ref_batch first;
    o.replace = mode & 1;
    o.disjoint = (mode & 2) != 0;
    o.edge_dir = (mode & 4) ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
    o.seed = 1234;
    b = sample_fresh(g.d, &o, seeds, 24, 3, 17);
    cross_check(g.d, &o, seeds, 24, 3, 17, b);
    snap(b, &first);
    b2 = sample_fresh(g.d, &o, seeds, 24, 3, 17);
    assert_true(equals_snap(b2, &first));
    fo_batch_destroy(b2);
    assert_fo_ok(fo_sampler_create(g.d, &o, &s));
    for (int rep = 0; rep < 3; rep++) {
      assert_fo_ok(fo_sampler_sample(s, seeds, 24, 3, 17, b));
      assert_true(equals_snap(b, &first));
      assert_fo_ok(fo_sampler_sample(s, seeds + 3, 10, 4, (uint64_t)rep, b)); /* something else */
    }
    fot_ref_free(&first);
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
  }
  graph_close(&g);
}

/* One sampler and one batch reused across batch sizes that grow and shrink give exactly what a
 * fresh sampler and batch give. The batch is also handed between samplers of different modes. */
static void determinism_reuse_grow_shrink(void **state) {
  static const int64_t sizes[] = {1, 40, 3, 150, 0, 7, 150, 2, 64};
  graph g;
  uint64_t st = 5;
  int64_t seeds[150];
  fo_sampler_t *s[4];
  fo_batch_t *shared;
  (void)state;
  fot_random(400, 4000, 7, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  assert_fo_ok(fo_batch_create(&shared));
  for (int mode = 0; mode < 4; mode++) {
    fo_sampler_opts o = opts_of((const int32_t[]){6, 4}, 2);
    o.replace = mode & 1;
    o.disjoint = (mode & 2) != 0;
    assert_fo_ok(fo_sampler_create(g.d, &o, &s[mode]));
  }
  for (int64_t i = 0; i < N_OF(sizes); i++) {
    random_seeds(&st, 400, sizes[i], seeds);
    for (int mode = 0; mode < 4; mode++) {
      fo_sampler_opts o = opts_of((const int32_t[]){6, 4}, 2);
      fo_batch_t *fresh;
      fot_ref_batch want_b;
      o.replace = mode & 1;
      o.disjoint = (mode & 2) != 0;
      fresh = sample_fresh(g.d, &o, seeds, sizes[i], 0, (uint64_t)i);
      snap(fresh, &want_b);
      assert_fo_ok(fo_sampler_sample(s[mode], seeds, sizes[i], 0, (uint64_t)i, shared));
      if (!equals_snap(shared, &want_b))
        fail_msg("size %lld mode %d: reused sampler/batch differs from a fresh one",
                 (long long)sizes[i], mode);
      fot_ref_free(&want_b);
      fo_batch_destroy(fresh);
    }
  }
  for (int mode = 0; mode < 4; mode++) fo_sampler_destroy(s[mode]);
  fo_batch_destroy(shared);
  graph_close(&g);
}

/* fo_batch_t documents `batch` as "[N] disjoint mode ...; NULL otherwise": a batch filled by a
 * disjoint sampler and then reused by a non-disjoint one must not keep a stale pointer. */
static void batch_field_null_when_not_disjoint(void **state) {
  graph g;
  fo_sampler_opts od = opts_of((const int32_t[]){-1}, 1), on = od;
  fo_sampler_t *sd, *sn;
  fo_batch_t *b;
  (void)state;
  od.disjoint = true;
  fot_cycle(6, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  assert_fo_ok(fo_sampler_create(g.d, &od, &sd));
  assert_fo_ok(fo_sampler_create(g.d, &on, &sn));
  assert_fo_ok(fo_batch_create(&b));
  assert_fo_ok(fo_sampler_sample(sn, cyc_seeds, 2, 0, 0, b));
  assert_null(b->batch);
  assert_fo_ok(fo_sampler_sample(sd, cyc_seeds, 2, 0, 0, b));
  assert_non_null(b->batch);
  assert_true(b->disjoint);
  assert_fo_ok(fo_sampler_sample(sn, cyc_seeds, 2, 0, 0, b));
  assert_false(b->disjoint);
  assert_null(b->batch);
  fo_batch_destroy(b);
  fo_sampler_destroy(sd);
  fo_sampler_destroy(sn);
  graph_close(&g);
}

/* Every part of the random key matters: changing the epoch, the batch index or the user seed
 * changes a random batch (in every random mode). */
static void key_changes_batch(void **state) {
  graph g;
  static const int64_t seeds[] = {0, 1, 2, 3, 4, 5, 6, 7};
  (void)state;
  fot_clique(16, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  for (int mode = 0; mode < 4; mode++) {
    fo_sampler_opts o = opts_of((const int32_t[]){3, 2}, 2);
    fo_batch_t *b;
    fot_ref_batch base;
    o.replace = mode & 1;
    o.disjoint = (mode & 2) != 0;
    o.seed = 77;
    b = sample_fresh(g.d, &o, seeds, 8, 5, 9);
    snap(b, &base);
    fo_batch_destroy(b);
    b = sample_fresh(g.d, &o, seeds, 8, 6, 9); /* epoch */
    assert_false(equals_snap(b, &base));
    cross_check(g.d, &o, seeds, 8, 6, 9, b);
    fo_batch_destroy(b);
    b = sample_fresh(g.d, &o, seeds, 8, 5, 10); /* batch index */
    assert_false(equals_snap(b, &base));
    fo_batch_destroy(b);
    o.seed = 78; /* user seed */
    b = sample_fresh(g.d, &o, seeds, 8, 5, 9);
    assert_false(equals_snap(b, &base));
    cross_check(g.d, &o, seeds, 8, 5, 9, b);
    fo_batch_destroy(b);
    o.seed = 77; /* and back: the same again */
    b = sample_fresh(g.d, &o, seeds, 8, 5, 9);
    assert_true(equals_snap(b, &base));
    fo_batch_destroy(b);
    fot_ref_free(&base);
  }
  graph_close(&g);
}

/* int32 and int64 index arrays (and the huge-page load mode) give identical batches. */
static void index_dtypes_identical(void **state) {
  fot_edges e;
  char *dir[3];
  fo_dataset_t *d[4];
  fo_dataset_opts dop;
  char *hp_path;
  uint64_t st = 3;
  int64_t seeds[20];
  const fo_index_dtype dts[3] = {FO_INDEX_INT32, FO_INDEX_INT64, FO_INDEX_AUTO};
  (void)state;
  fot_random(250, 2500, 21, &e);
  for (int i = 0; i < 3; i++) fot_dataset(&e, true, true, dts[i], &dir[i], &d[i]);
  {
    fo_topology t32, t64;
    assert_fo_ok(fo_dataset_topology(d[0], FO_EDGE_DIR_OUT, &t32));
    assert_fo_ok(fo_dataset_topology(d[1], FO_EDGE_DIR_OUT, &t64));
    assert_int_equal(t32.indices_bytes, 4);
    assert_int_equal(t64.indices_bytes, 8);
    assert_non_null(t32.eid);
    assert_int_equal(t64.eid_bytes, 8);
  }
  fo_dataset_opts_init(&dop);
  dop.load = FO_LOAD_HUGEPAGE;
  hp_path = fot_path(dir[2], "g");
  assert_fo_ok(fo_dataset_open(hp_path, &dop, &d[3]));
  random_seeds(&st, 250, 20, seeds);
  for (int mode = 0; mode < 8; mode++) {
    static const int32_t fans[] = {4, -1, 2}, fans_rep[] = {4, 1, 2};
    fo_sampler_opts o = opts_of(fans, 3);
    fot_ref_batch base;
    fo_batch_t *b;
    o.replace = mode & 1;
    o.disjoint = (mode & 2) != 0;
    o.edge_dir = (mode & 4) ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
    if (o.replace) o.fanouts = fans_rep; /* (-1 with replacement: see the bug test) */
    b = sample_fresh(d[0], &o, seeds, 20, 1, 2);
    cross_check(d[0], &o, seeds, 20, 1, 2, b);
    snap(b, &base);
    fo_batch_destroy(b);
    for (int i = 1; i < 4; i++) {
      b = sample_fresh(d[i], &o, seeds, 20, 1, 2);
      if (!equals_snap(b, &base)) fail_msg("mode %d: dataset %d differs from int32", mode, i);
      fo_batch_destroy(b);
    }
    fot_ref_free(&base);
  }
  free(hp_path);
  for (int i = 0; i < 4; i++) fo_dataset_close(d[i]);
  for (int i = 0; i < 3; i++) fot_rmtree(dir[i]);
  fot_edges_free(&e);
}

/* ---- errors -------------------------------------------------------------------------------- */

static void create_errors(void **state) {
  graph g;
  fo_sampler_t *s;
  fo_sampler_opts o;
  (void)state;
  fot_cycle(6, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);

  s = (fo_sampler_t *)&g; /* *out must be set to NULL on failure */
  assert_fo_error(fo_sampler_create(g.d, NULL, &s), FO_EINVAL, "NULL");
  assert_null(s);

  o = opts_of(NULL, 2);
  s = (fo_sampler_t *)&g;
  assert_fo_error(fo_sampler_create(g.d, &o, &s), FO_EINVAL, "fanouts");
  assert_null(s);

  o = opts_of((const int32_t[]){1}, 0);
  assert_fo_error(fo_sampler_create(g.d, &o, &s), FO_EINVAL, "hops");
  assert_null(s);
  {
    int32_t fans[65];
    for (int i = 0; i < 65; i++) fans[i] = 1;
    o = opts_of(fans, 65);
    assert_fo_error(fo_sampler_create(g.d, &o, &s), FO_EINVAL, "65");
    assert_null(s);
    o = opts_of(fans, -1);
    assert_fo_error(fo_sampler_create(g.d, &o, &s), FO_EINVAL, "-1");
  }

  /* the message names the hop (fanouts[7]: hop 7 counting from 0, or hop 8 counting from 1)
   * and the value */
  o = opts_of((const int32_t[]){3, 3, 3, 3, 3, 3, 3, -9, 3}, 9);
  assert_fo_error(fo_sampler_create(g.d, &o, &s), FO_EINVAL, "-9");
  if (!strstr(fo_last_error(), "hop 7") && !strstr(fo_last_error(), "hop 8"))
    fail_msg("message '%s' does not name the hop", fo_last_error());
  assert_null(s);
  o = opts_of((const int32_t[]){INT32_MIN}, 1);
  assert_fo_error(fo_sampler_create(g.d, &o, &s), FO_EINVAL, "-2147483648");

  o = opts_of((const int32_t[]){-1}, 1);
  o.edge_dir = FO_EDGE_DIR_OUT; /* the dataset has only the CSC */
  s = (fo_sampler_t *)&g;
  assert_fo_error(fo_sampler_create(g.d, &o, &s), FO_EINVAL, "--csr");
  assert_null(s);

  fo_sampler_destroy(NULL); /* accepted */
  fo_batch_destroy(NULL);
  graph_close(&g);
}

/* Sampling errors: code and message; the batch is then empty but valid (reusable). */
static void sample_errors(void **state) {
  graph g;
  fo_sampler_t *s;
  fo_batch_t *b;
  fo_sampler_opts o = opts_of((const int32_t[]){-1, -1}, 2);
  want w = cycle_want(cyc_edge_in);
  (void)state;
  fot_cycle(6, &g.e);
  graph_open(&g, true, false, FO_INDEX_AUTO);
  assert_fo_ok(fo_sampler_create(g.d, &o, &s));
  assert_fo_ok(fo_batch_create(&b));

#define FILL_THEN(call, code, substr)                                                         \
  do {                                                                                        \
    assert_fo_ok(fo_sampler_sample(s, cyc_seeds, 2, 0, 0, b));                                \
    assert_true(b->n_nodes > 0);                                                              \
    assert_fo_error(call, code, substr);                                                      \
    assert_int_equal(b->n_nodes, 0);                                                          \
    assert_int_equal(b->n_edges, 0);                                                          \
  } while (0)

  /* the message gives the seed's index and value */
  FILL_THEN(fo_sampler_sample(s, (const int64_t[]){0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 7777}, 12, 0,
                              0, b),
            FO_ERANGE, "7777");
  assert_msg_has("11");
  FILL_THEN(fo_sampler_sample(s, (const int64_t[]){4, 4, 4, 4, 4, 4, 4, 4, 4, -55}, 10, 0, 0, b),
            FO_ERANGE, "-55");
  assert_msg_has("9");
  FILL_THEN(fo_sampler_sample(s, (const int64_t[]){6}, 1, 0, 0, b), FO_ERANGE, "6"); /* = n */
  FILL_THEN(fo_sampler_sample(s, cyc_seeds, -3, 0, 0, b), FO_EINVAL, "-3");
  FILL_THEN(fo_sampler_sample(s, NULL, 2, 0, 0, b), FO_EINVAL, "NULL");
#undef FILL_THEN

  /* still valid: a correct call gives the right batch */
  assert_fo_ok(fo_sampler_sample(s, cyc_seeds, 2, 0, 0, b));
  assert_batch_is(b, &w);
  fo_batch_destroy(b);
  fo_sampler_destroy(s);
  graph_close(&g);
}

/* Patch element `i` (int64) of the .npy file `name` in dataset directory `dir`. */
static void patch_npy_i64(const char *dir, const char *name, int64_t i, int64_t value) {
  char *path = fot_path(dir, name);
  FILE *f = fopen(path, "r+b");
  unsigned char h[12];
  long data;
  if (!f) fail_msg("cannot open %s", path);
  assert_int_equal(fread(h, 1, sizeof h, f), sizeof h);
  assert_memory_equal(h, "\x93NUMPY", 6);
  if (h[6] == 1)
    data = 10 + (long)(h[8] | h[9] << 8);
  else
    data = 12 + (long)((uint32_t)h[8] | (uint32_t)h[9] << 8 | (uint32_t)h[10] << 16 | (uint32_t)h[11] << 24);
  assert_int_equal(fseek(f, data + (long)i * 8, SEEK_SET), 0);
  assert_int_equal(fwrite(&value, 8, 1, f), 1);
  fclose(f);
  free(path);
}

/* A corrupt dataset (indices, eid or indptr out of range where the sampler reads) gives
 * FO_EFORMAT naming the array and position, in every sampling branch, never a crash. */
static void corrupt_dataset(void **state) {
  static const struct {
    const char *file, *name, *value_text;
    int64_t value;
    fo_edge_dir dir;
  } cases[] = {
      /* node 1's CSC column is positions 2..3; node 1's CSR row is positions 2..3 */
      {"csc_indices.npy", "csc_indices[", "= 99", 99, FO_EDGE_DIR_IN},
      {"csr_eid.npy", "csr_eid[", "= 12", 12, FO_EDGE_DIR_OUT},
      {"csc_indptr.npy", "csc_indptr", "100", 100, FO_EDGE_DIR_IN},
      {"csr_indices.npy", "csr_indices[", "= -4", -4, FO_EDGE_DIR_OUT},
  };
  static const int64_t seeds[] = {1};
  (void)state;
  for (int c = 0; c < 4; c++) {
    graph g;
    char *path;
    fot_cycle(6, &g.e);
    graph_open(&g, true, true, FO_INDEX_INT64);
    fo_dataset_close(g.d);
    path = fot_path(g.dir, "g");
    /* both positions of node 1 (entries 2 and 3; for indptr, node 1's end and node 2's start),
     * so that every random pick hits a bad one */
    patch_npy_i64(path, cases[c].file, 2, cases[c].value);
    patch_npy_i64(path, cases[c].file, 3, cases[c].value);
    assert_fo_ok(fo_dataset_open(path, NULL, &g.d));
    for (int mode = 0; mode < 3; mode++) {
      /* -1 (all), 1 with replacement, 1 without (Floyd) */
      fo_sampler_opts o = opts_of(mode == 0 ? (const int32_t[]){-1} : (const int32_t[]){1}, 1);
      fo_sampler_t *s;
      fo_batch_t *b;
      o.replace = mode == 1;
      o.edge_dir = cases[c].dir;
      assert_fo_ok(fo_sampler_create(g.d, &o, &s));
      assert_fo_ok(fo_batch_create(&b));
      assert_fo_error(fo_sampler_sample(s, seeds, 1, 0, 0, b), FO_EFORMAT, cases[c].name);
      assert_msg_has(cases[c].value_text);
      assert_int_equal(b->n_nodes, 0);
      assert_int_equal(b->n_edges, 0);
      /* a seed whose row is intact still works */
      assert_fo_ok(fo_sampler_sample(s, (const int64_t[]){4}, 1, 0, 0, b));
      assert_int_equal(b->n_edges, mode == 0 ? 2 : 1);
      fo_batch_destroy(b);
      fo_sampler_destroy(s);
    }
    free(path);
    graph_close(&g);
  }
}

/* ---- fo_random_permutation ----------------------------------------------------------------- */

static bool is_permutation(const int64_t *p, int64_t n) {
  char *seen = calloc((size_t)n + 1, 1);
  bool ok = true;
  for (int64_t i = 0; i < n && ok; i++) {
    if (p[i] < 0 || p[i] >= n || seen[p[i]]) ok = false;
    else seen[p[i]] = 1;
  }
  free(seen);
  return ok;
}

static void permutation(void **state) {
  int64_t a[1001], b[1001];
  (void)state;
  for (int64_t n = 0; n <= 1000; n = n < 4 ? n + 1 : n * 5) {
    memset(a, 0xff, sizeof a);
    assert_fo_ok(fo_random_permutation(n, 42, 3, a));
    assert_true(is_permutation(a, n));
    assert_int_equal(a[n], -1); /* nothing written past n */
    assert_fo_ok(fo_random_permutation(n, 42, 3, b));
    assert_memory_equal(a, b, (size_t)n * sizeof *a);
  }
  assert_fo_ok(fo_random_permutation(1000, 42, 3, a));
  {
    int64_t fixed = 0;
    for (int64_t i = 0; i < 1000; i++) fixed += a[i] == i;
    assert_true(fixed < 20); /* a shuffle, not the identity (expected 1 fixed point) */
  }
  assert_fo_ok(fo_random_permutation(1000, 42, 4, b)); /* another epoch */
  assert_true(is_permutation(b, 1000));
  assert_memory_not_equal(a, b, sizeof a);
  assert_fo_ok(fo_random_permutation(1000, 43, 3, b)); /* another seed */
  assert_memory_not_equal(a, b, sizeof a);
  assert_fo_ok(fo_random_permutation(0, 1, 1, NULL)); /* n = 0 needs no buffer */
  assert_fo_error(fo_random_permutation(-1, 42, 3, a), FO_EINVAL, "-1");
  assert_fo_error(fo_random_permutation(5, 42, 3, NULL), FO_EINVAL, "5");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cycle_in_all),
      cmocka_unit_test(cycle_in_fanout_ge_degree),
      cmocka_unit_test(cycle_out_all),
      cmocka_unit_test(cycle_out_csr_only),
      cmocka_unit_test(cycle_disjoint_all),
      cmocka_unit_test(fanout_zero),
      cmocka_unit_test(duplicate_seeds),
      cmocka_unit_test(duplicate_seeds_share_stream),
      cmocka_unit_test(empty_seeds),
      cmocka_unit_test(isolated_seed),
      cmocka_unit_test(self_loops_multi_edges),
      cmocka_unit_test(replace_exact_count),
      cmocka_unit_test(replace_fanout_all_is_deterministic),
      cmocka_unit_test(fanouts_copied),
      cmocka_unit_test(max_hops),
      cmocka_unit_test(determinism_fresh_and_repeated),
      cmocka_unit_test(determinism_reuse_grow_shrink),
      cmocka_unit_test(batch_field_null_when_not_disjoint),
      cmocka_unit_test(key_changes_batch),
      cmocka_unit_test(index_dtypes_identical),
      cmocka_unit_test(create_errors),
      cmocka_unit_test(sample_errors),
      cmocka_unit_test(corrupt_dataset),
      cmocka_unit_test(permutation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
