/*
 * tests/unit/test_typed.c: typed (heterogeneous) datasets and the typed sampler.
 *
 * Exact batches on a tiny author/paper graph, the reader's view of types and its refusals, the
 * one-type equivalence with version-1 datasets, random typed graphs against the reference
 * (tests/support/typed.c) under every option, and a chi-square test of uniformity per edge
 * type.
 */
#include "support.h"

#include "store/store_internal.h"

#include <math.h>

/* authors a0..a2, papers p0..p3; writes: author -> paper, cites: paper -> paper */
static const int64_t W_SRC[] = {0, 0, 1, 2, 2, 1}, W_DST[] = {0, 1, 1, 2, 3, 3};
static const int64_t C_SRC[] = {1, 2, 3, 3}, C_DST[] = {0, 0, 1, 2};

typedef struct tiny {
  char *tmp, *dir;
  fot_edges w, c;
  fo_dataset_t *d;
} tiny;

static void tiny_open(tiny *g, bool csc, bool csr) {
  static const char *const names[] = {"author", "paper"};
  static const int64_t counts[] = {3, 4};
  fot_typed_et ets[2];
  memset(g, 0, sizeof *g);
  for (int i = 0; i < 6; i++) fot_edges_add(&g->w, W_SRC[i], W_DST[i]);
  for (int i = 0; i < 4; i++) fot_edges_add(&g->c, C_SRC[i], C_DST[i]);
  ets[0] = (fot_typed_et){"author", "writes", "paper", &g->w};
  ets[1] = (fot_typed_et){"paper", "cites", "paper", &g->c};
  g->tmp = fot_tmpdir();
  g->dir = fot_typed_dataset(g->tmp, "g", 2, names, counts, 2, ets, csc, csr);
  assert_fo_ok(fo_dataset_open(g->dir, NULL, &g->d));
}

static void tiny_close(tiny *g) {
  fo_dataset_close(g->d);
  fot_edges_free(&g->w);
  fot_edges_free(&g->c);
  free(g->dir);
  fot_rmtree(g->tmp);
}

static void same(const char *what, const int64_t *got, const int64_t *want, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (got[i] != want[i])
      fail_msg("%s[%lld] = %lld, want %lld", what, (long long)i, (long long)got[i], (long long)want[i]);
}

static void types_and_views(void **state) {
  tiny g;
  fo_edge_type et;
  fo_topology t;
  (void)state;
  tiny_open(&g, true, true);
  assert_true(fo_dataset_is_typed(g.d));
  assert_int_equal(fo_dataset_num_node_types(g.d), 2);
  assert_int_equal(fo_dataset_num_edge_types(g.d), 2);
  assert_int_equal(fo_dataset_num_nodes(g.d), 7);
  assert_int_equal(fo_dataset_num_edges(g.d), 10);
  assert_string_equal(fo_dataset_node_type_name(g.d, 1), "paper");
  assert_null(fo_dataset_node_type_name(g.d, 2));
  assert_int_equal(fo_dataset_node_type_find(g.d, "author"), 0);
  assert_int_equal(fo_dataset_node_type_find(g.d, "venue"), -1);
  assert_fo_ok(fo_dataset_edge_type(g.d, 0, &et));
  assert_string_equal(et.name, "author__writes__paper");
  assert_string_equal(et.rel, "writes");
  assert_int_equal(et.src_type, 0);
  assert_int_equal(et.dst_type, 1);
  assert_int_equal(et.n_edges, 6);
  assert_fo_error(fo_dataset_edge_type(g.d, 2, &et), FO_ERANGE, "edge type 2");
  assert_int_equal(fo_dataset_edge_type_find(g.d, "paper__cites__paper"), 1);
  assert_int_equal(fo_dataset_edge_type_find(g.d, "cites"), 1);
  assert_int_equal(fo_dataset_edge_type_find(g.d, "paper__writes__paper"), -1);
  /* CSC of writes: rows are papers, neighbors authors */
  assert_fo_ok(fo_dataset_edge_topology(g.d, 0, FO_EDGE_DIR_IN, &t));
  assert_int_equal(t.n_rows, 4);
  assert_int_equal(t.n_nodes, 3);
  same("csc indptr", t.indptr, (const int64_t[]){0, 1, 3, 4, 6}, 5);
  assert_fo_ok(fo_dataset_edge_topology(g.d, 0, FO_EDGE_DIR_OUT, &t));
  assert_int_equal(t.n_rows, 3);
  assert_int_equal(t.n_nodes, 4);
  same("csr indptr", t.indptr, (const int64_t[]){0, 2, 4, 6}, 4);
  assert_fo_error(fo_dataset_topology(g.d, FO_EDGE_DIR_IN, &t), FO_EINVAL, "typed");
  assert_int_equal(fo_dataset_num_nodes(fo_dataset_node_data(g.d, 0)), 3);
  assert_int_equal(fo_dataset_num_nodes(fo_dataset_node_data(g.d, 1)), 4);
  assert_null(fo_dataset_node_data(g.d, 2));
  assert_true(fo_dataset_has_features(fo_dataset_node_data(g.d, 1)));
  assert_true(fo_dataset_has_labels(fo_dataset_node_data(g.d, 0)));
  assert_false(fo_dataset_has_labels(fo_dataset_node_data(g.d, 1)));
  assert_false(fo_dataset_has_features(g.d));
  {
    fo_features f;
    const int64_t *ids;
    int64_t n;
    assert_fo_error(fo_dataset_features(g.d, &f), FO_EINVAL, "per node type");
    assert_fo_ok(fo_dataset_features(fo_dataset_node_data(g.d, 1), &f));
    assert_int_equal(f.n_rows, 4);
    assert_int_equal(f.dim, 2);
    assert_fo_ok(fo_dataset_split(fo_dataset_node_data(g.d, 0), "train", &ids, &n));
    assert_int_equal(n, 3);
  }
  assert_fo_ok(fo_dataset_verify(g.d));
  tiny_close(&g);
  {
    /* CSC only: the CSR is refused by name */
    tiny h;
    tiny_open(&h, true, false);
    assert_fo_error(fo_dataset_edge_topology(h.d, 1, FO_EDGE_DIR_OUT, &t), FO_EINVAL,
                    "edge type 'paper__cites__paper' has no CSR");
    assert_false(fo_dataset_has_topology(h.d, FO_EDGE_DIR_OUT));
    assert_true(fo_dataset_has_topology(h.d, FO_EDGE_DIR_IN));
    tiny_close(&h);
  }
}

static void version1_is_one_type(void **state) {
  fot_ds g;
  fot_edges e = {0};
  fo_edge_type et;
  (void)state;
  fot_cycle(5, &e);
  fot_ds_edges(&g, &e, NULL, NULL);
  assert_false(fo_dataset_is_typed(g.d));
  assert_int_equal(fo_dataset_num_node_types(g.d), 1);
  assert_int_equal(fo_dataset_num_edge_types(g.d), 1);
  assert_string_equal(fo_dataset_node_type_name(g.d, 0), "node");
  assert_fo_ok(fo_dataset_edge_type(g.d, 0, &et));
  assert_string_equal(et.name, "node__to__node");
  assert_int_equal(et.n_edges, 10);
  assert_ptr_equal(fo_dataset_node_data(g.d, 0), g.d);
  fot_ds_close(&g);
  fot_edges_free(&e);
}

/* Rewrite the manifest of `dir` through `edit`, then expect open to fail with `want`. */
static void manifest_fails(const char *dir, void (*edit)(json_t *), const char *want) {
  char *path = fot_path(dir, "fanout.json");
  json_error_t err;
  json_t *root = json_load_file(path, 0, &err), *orig;
  fo_dataset_t *d = NULL;
  assert_non_null(root);
  orig = json_deep_copy(root);
  edit(root);
  assert_int_equal(json_dump_file(root, path, 0), 0);
  assert_fo_error(fo_dataset_open(dir, NULL, &d), FO_EFORMAT, want);
  assert_null(d);
  assert_int_equal(json_dump_file(orig, path, 0), 0);
  json_decref(root);
  json_decref(orig);
  free(path);
}

static json_t *ntype(json_t *r, size_t i) { return json_array_get(json_object_get(r, "node_types"), i); }
static json_t *etype(json_t *r, size_t i) { return json_array_get(json_object_get(r, "edge_types"), i); }
static void e_dup_ntype(json_t *r) { json_object_set_new(ntype(r, 1), "name", json_string("author")); }
static void e_bad_name(json_t *r) { json_object_set_new(ntype(r, 1), "name", json_string("pa__per")); }
static void e_unknown_src(json_t *r) {
  json_object_set_new(etype(r, 0), "src", json_string("venue"));
  json_object_del(etype(r, 0), "name");
}
static void e_sum(json_t *r) { json_object_set_new(r, "num_nodes", json_integer(8)); }
static void e_name_mismatch(json_t *r) { json_object_set_new(etype(r, 1), "name", json_string("x__y__z")); }
static void e_dup_etype(json_t *r) {
  json_object_set_new(etype(r, 1), "src", json_string("author"));
  json_object_set_new(etype(r, 1), "rel", json_string("writes"));
  json_object_del(etype(r, 1), "name");
}
static void e_rows(json_t *r) {
  /* writes' CSC needs n_paper + 1 = 5 indptr entries: give it the CSR's 4 */
  json_t *csc = json_object_get(json_object_get(etype(r, 0), "topology"), "csc");
  json_object_set_new(csc, "indptr", json_string("e0.csr_indptr"));
}
static void e_no_types(json_t *r) { json_object_del(r, "node_types"); }
static void e_top_topology(json_t *r) { json_object_set_new(r, "topology", json_object()); }

static void manifest_errors(void **state) {
  tiny g;
  (void)state;
  tiny_open(&g, true, true);
  fo_dataset_close(g.d);
  g.d = NULL;
  manifest_fails(g.dir, e_dup_ntype, "node type 'author' is listed twice");
  manifest_fails(g.dir, e_bad_name, "not a valid type name");
  manifest_fails(g.dir, e_unknown_src, "node type 'venue' is not listed");
  manifest_fails(g.dir, e_sum, "not the sums over the types");
  manifest_fails(g.dir, e_name_mismatch, "'name' is not 'paper__cites__paper'");
  manifest_fails(g.dir, e_dup_etype, "edge type 'author__writes__paper' is listed twice");
  manifest_fails(g.dir, e_rows, "edge type 'author__writes__paper': e0.csr_indptr.npy: must be int64 [5]");
  manifest_fails(g.dir, e_no_types, "format_version 2 lacks 'node_types'");
  manifest_fails(g.dir, e_top_topology, "per type");
  assert_fo_ok(fo_dataset_open(g.dir, NULL, &g.d));
  tiny_close(&g);
}

static void exact_tiny(void **state) {
  tiny g;
  fo_sampler_opts o;
  fo_sampler_t *s;
  fo_batch_t *b;
  const fo_batch_t *a, *p, *w, *c;
  (void)state;
  tiny_open(&g, true, true);
  fo_sampler_opts_init(&o);
  o.fanouts = (const int32_t[]){-1, -1};
  o.n_hops = 2;
  assert_fo_ok(fo_sampler_create(g.d, &o, &s));
  assert_fo_ok(fo_batch_create(&b));
  assert_fo_error(fo_sampler_sample(s, (const int64_t[]){0}, 1, 0, 0, b), FO_EINVAL, "typed");
  assert_fo_error(fo_sampler_sample_typed(s, 1, (const int64_t[]){4}, 1, 0, 0, b), FO_ERANGE,
                  "node type 'paper'");
  assert_fo_error(fo_sampler_sample_typed(s, 2, (const int64_t[]){0}, 1, 0, 0, b), FO_EINVAL,
                  "seed node type 2");
  assert_fo_ok(fo_sampler_sample_typed(s, 1, (const int64_t[]){0}, 1, 0, 0, b));
  assert_true(b->typed);
  assert_int_equal(b->n_nodes, 7);
  assert_int_equal(b->n_edges, 8);
  a = fo_batch_node_type(b, 0);
  p = fo_batch_node_type(b, 1);
  w = fo_batch_edge_type(b, 0);
  c = fo_batch_edge_type(b, 1);
  assert_null(fo_batch_node_type(b, 2));
  assert_null(fo_batch_edge_type(b, 2));
  assert_int_equal(a->n_seeds, 0);
  assert_int_equal(p->n_seeds, 1);
  assert_int_equal(a->n_nodes, 3);
  assert_int_equal(p->n_nodes, 4);
  same("author node", a->node, (const int64_t[]){0, 1, 2}, 3);
  same("paper node", p->node, (const int64_t[]){0, 1, 2, 3}, 4);
  same("author nsn", a->num_sampled_nodes, (const int64_t[]){0, 1, 2}, 3);
  same("paper nsn", p->num_sampled_nodes, (const int64_t[]){1, 2, 1}, 3);
  assert_int_equal(w->n_edges, 4);
  same("writes row", w->row, (const int64_t[]){0, 0, 1, 2}, 4);
  same("writes col", w->col, (const int64_t[]){0, 1, 1, 2}, 4);
  same("writes edge", w->edge, (const int64_t[]){0, 1, 2, 3}, 4);
  same("writes nse", w->num_sampled_edges, (const int64_t[]){1, 3}, 2);
  assert_int_equal(c->n_edges, 4);
  same("cites row", c->row, (const int64_t[]){1, 2, 3, 3}, 4);
  same("cites col", c->col, (const int64_t[]){0, 0, 1, 2}, 4);
  same("cites edge", c->edge, (const int64_t[]){0, 1, 2, 3}, 4);
  same("cites nse", c->num_sampled_edges, (const int64_t[]){2, 2}, 2);
  fo_sampler_destroy(s);
  /* per-edge-type fanouts: cites 0 at both hops; out-edges from an author seed */
  o.edge_type_fanouts = (const int32_t[]){-1, -1, 0, 0};
  o.edge_dir = FO_EDGE_DIR_OUT;
  assert_fo_ok(fo_sampler_create(g.d, &o, &s));
  assert_fo_ok(fo_sampler_sample_typed(s, 0, (const int64_t[]){1}, 1, 0, 0, b));
  a = fo_batch_node_type(b, 0);
  p = fo_batch_node_type(b, 1);
  w = fo_batch_edge_type(b, 0);
  c = fo_batch_edge_type(b, 1);
  same("author node", a->node, (const int64_t[]){1}, 1);
  assert_int_equal(a->n_nodes, 1);
  same("paper node", p->node, (const int64_t[]){1, 3}, 2);
  assert_int_equal(p->n_nodes, 2);
  /* out: row = the neighbor (paper, local), col = the author it was sampled for */
  same("writes row", w->row, (const int64_t[]){0, 1}, 2);
  same("writes col", w->col, (const int64_t[]){0, 0}, 2);
  same("writes edge", w->edge, (const int64_t[]){2, 5}, 2);
  assert_int_equal(c->n_edges, 0);
  fo_sampler_destroy(s);
  o.edge_type_fanouts = (const int32_t[]){-1, -1, 3, -2};
  assert_fo_error(fo_sampler_create(g.d, &o, &s), FO_EINVAL,
                  "fanout of edge type 'paper__cites__paper' at hop 1 is -2");
  fo_batch_destroy(b);
  tiny_close(&g);
}

/* A version-1 dataset and the same graph as a one-type version-2 dataset give the same batch. */
static void one_type_same_draws(void **state) {
  static const char *const names[] = {"node"};
  fot_ds g;
  fot_edges e = {0};
  char *dir;
  fo_dataset_t *d2;
  fo_sampler_opts o;
  fo_sampler_t *s1, *s2;
  fo_batch_t *b1, *b2;
  (void)state;
  fot_random(200, 2000, 7, &e);
  fot_ds_edges(&g, &e, NULL, NULL);
  dir = fot_typed_dataset(g.tmp, "typed", 1, names, (const int64_t[]){e.n}, 1,
                          (const fot_typed_et[]){{"node", "to", "node", &e}}, true, false);
  assert_fo_ok(fo_dataset_open(dir, NULL, &d2));
  fo_sampler_opts_init(&o);
  o.fanouts = (const int32_t[]){5, 3, 2};
  o.n_hops = 3;
  o.seed = 11;
  assert_fo_ok(fo_sampler_create(g.d, &o, &s1));
  assert_fo_ok(fo_sampler_create(d2, &o, &s2));
  assert_fo_ok(fo_batch_create(&b1));
  assert_fo_ok(fo_batch_create(&b2));
  for (int rep = 0; rep < 2; rep++) {
    const int64_t seeds[] = {3, 17, 3, 150};
    const fo_batch_t *n2, *e2;
    o.disjoint = rep == 1;
    assert_fo_ok(fo_sampler_sample(s1, seeds, 4, 2, 5, b1));
    assert_fo_ok(fo_sampler_sample_typed(s2, 0, seeds, 4, 2, 5, b2));
    n2 = fo_batch_node_type(b2, 0);
    e2 = fo_batch_edge_type(b2, 0);
    assert_int_equal(b1->n_nodes, n2->n_nodes);
    assert_int_equal(b1->n_edges, e2->n_edges);
    same("node", n2->node, b1->node, b1->n_nodes);
    same("row", e2->row, b1->row, b1->n_edges);
    same("col", e2->col, b1->col, b1->n_edges);
    same("edge", e2->edge, b1->edge, b1->n_edges);
  }
  fo_batch_destroy(b1);
  fo_batch_destroy(b2);
  fo_sampler_destroy(s1);
  fo_sampler_destroy(s2);
  fo_dataset_close(d2);
  free(dir);
  fot_ds_close(&g);
  fot_edges_free(&e);
}

/* Random typed graphs: 3 node types, 5 edge types (two sharing a relation name, a self type),
 * every option, against the reference. */
static void random_typed(void **state) {
  static const char *const names[] = {"user", "item", "tag"};
  uint64_t base = fot_seed(4242);
  (void)state;
  for (int c = 0; c < 40; c++) {
    uint64_t seed = base + (uint64_t)c, st = seed * 7919 + 1;
    int64_t counts[3];
    fot_edges es[5];
    fot_typed_et ets[5];
    const int types[5][2] = {{0, 1}, {1, 0}, {0, 0}, {2, 1}, {1, 2}};
    const char *rels[5] = {"buys", "bought_by", "follows", "labels", "labels"};
    char *tmp, *dir;
    fo_dataset_t *d;
    fo_sampler_opts o;
    fo_sampler_t *s;
    fo_batch_t *b;
    int32_t fan[5 * 3];
    fot_note_seed(seed);
    for (int t = 0; t < 3; t++) counts[t] = 1 + (int64_t)(fot_rand(&st) % 40);
    for (int k = 0; k < 5; k++) {
      int64_t m = (int64_t)(fot_rand(&st) % 150);
      memset(&es[k], 0, sizeof es[k]);
      for (int64_t i = 0; i < m; i++)
        fot_edges_add(&es[k], (int64_t)(fot_rand(&st) % (uint64_t)counts[types[k][0]]),
                      (int64_t)(fot_rand(&st) % (uint64_t)counts[types[k][1]]));
      ets[k] = (fot_typed_et){names[types[k][0]], rels[k], names[types[k][1]], &es[k]};
    }
    tmp = fot_tmpdir();
    dir = fot_typed_dataset(tmp, "g", 3, names, counts, 5, ets, true, true);
    assert_fo_ok(fo_dataset_open(dir, NULL, &d));
    fo_sampler_opts_init(&o);
    o.n_hops = 1 + (int32_t)(fot_rand(&st) % 3);
    {
      static int32_t f0[3];
      for (int h = 0; h < o.n_hops; h++) f0[h] = (int32_t)(fot_rand(&st) % 6) - 1;
      o.fanouts = f0;
    }
    for (int k = 0; k < 5 * o.n_hops; k++) fan[k] = (int32_t)(fot_rand(&st) % 7) - 1;
    o.edge_type_fanouts = fot_rand(&st) % 2 ? fan : NULL;
    o.replace = fot_rand(&st) % 2;
    o.disjoint = fot_rand(&st) % 3 == 0;
    o.edge_dir = fot_rand(&st) % 2 ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
    o.seed = seed;
    assert_fo_ok(fo_sampler_create(d, &o, &s));
    assert_fo_ok(fo_batch_create(&b));
    for (int bi = 0; bi < 4; bi++) {
      int32_t t = (int32_t)(fot_rand(&st) % 3);
      int64_t seeds[8], n = 1 + (int64_t)(fot_rand(&st) % 8);
      fot_ref_typed r;
      const char *why;
      for (int64_t i = 0; i < n; i++) seeds[i] = (int64_t)(fot_rand(&st) % (uint64_t)counts[t]);
      assert_fo_ok(fo_sampler_sample_typed(s, t, seeds, n, (uint64_t)c, (uint64_t)bi, b));
      assert_fo_ok(fot_ref_sample_typed(d, &o, t, seeds, n, (uint64_t)c, (uint64_t)bi, &r));
      fot_assert_same_typed(b, &r);
      fot_ref_typed_free(&r);
      if ((why = fot_check_typed(d, &o, t, seeds, n, b))) fail_msg("invariant: %s", why);
    }
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
    fo_dataset_close(d);
    free(dir);
    fot_rmtree(tmp);
    for (int k = 0; k < 5; k++) fot_edges_free(&es[k]);
  }
}

/* Chi-square per edge type: a paper with 12 citing papers and 9 authors, fanout 3 without
 * replacement over 4000 epochs; each neighbor's count is binomial(4000, 3/deg). */
static void uniform_per_edge_type(void **state) {
  static const char *const names[] = {"author", "paper"};
  fot_edges w = {0}, c = {0};
  char *tmp, *dir;
  fo_dataset_t *d;
  fo_sampler_opts o;
  fo_sampler_t *s;
  fo_batch_t *b;
  int64_t cnt_w[9] = {0}, cnt_c[12] = {0};
  const int epochs = 4000;
  (void)state;
  for (int i = 0; i < 9; i++) fot_edges_add(&w, i, 0);
  for (int i = 0; i < 12; i++) fot_edges_add(&c, 1 + i, 0);
  tmp = fot_tmpdir();
  dir = fot_typed_dataset(tmp, "g", 2, names, (const int64_t[]){9, 13}, 2,
                          (const fot_typed_et[]){{"author", "writes", "paper", &w},
                                                 {"paper", "cites", "paper", &c}},
                          true, false);
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  fo_sampler_opts_init(&o);
  o.fanouts = (const int32_t[]){3};
  o.n_hops = 1;
  assert_fo_ok(fo_sampler_create(d, &o, &s));
  assert_fo_ok(fo_batch_create(&b));
  for (int e = 0; e < epochs; e++) {
    const fo_batch_t *nb, *eb;
    assert_fo_ok(fo_sampler_sample_typed(s, 1, (const int64_t[]){0}, 1, (uint64_t)e, 0, b));
    eb = fo_batch_edge_type(b, 0);
    nb = fo_batch_node_type(b, 0);
    assert_int_equal(eb->n_edges, 3);
    for (int64_t k = 0; k < eb->n_edges; k++) cnt_w[nb->node[eb->row[k]]]++;
    eb = fo_batch_edge_type(b, 1);
    nb = fo_batch_node_type(b, 1);
    assert_int_equal(eb->n_edges, 3);
    for (int64_t k = 0; k < eb->n_edges; k++) cnt_c[nb->node[eb->row[k]] - 1]++;
  }
  {
    /* chi-square with deg - 1 degrees of freedom; 5 sigma of the chi-square distribution */
    double x2 = 0, exp_w = epochs * 3.0 / 9, exp_c = epochs * 3.0 / 12;
    for (int i = 0; i < 9; i++) x2 += (cnt_w[i] - exp_w) * (cnt_w[i] - exp_w) / exp_w;
    assert_true(x2 < 8 + 5 * sqrt(2 * 8.0));
    x2 = 0;
    for (int i = 0; i < 12; i++) x2 += (cnt_c[i] - exp_c) * (cnt_c[i] - exp_c) / exp_c;
    assert_true(x2 < 11 + 5 * sqrt(2 * 11.0));
  }
  fo_batch_destroy(b);
  fo_sampler_destroy(s);
  fo_dataset_close(d);
  free(dir);
  fot_rmtree(tmp);
  fot_edges_free(&w);
  fot_edges_free(&c);
}


/* The loader over a typed dataset: batches equal the sampler's, x per node type, y of the
 * seeds' type, digests equal for 0, 1, 2 and 8 threads; input_type errors. */
static void typed_loader(void **state) {
  tiny g;
  fo_loader_opts o;
  fo_loader_t *L;
  uint64_t digest[4];
  (void)state;
  tiny_open(&g, true, true);
  fo_loader_opts_init(&o);
  o.sampler.fanouts = (const int32_t[]){2, 2};
  o.sampler.n_hops = 2;
  o.sampler.seed = 3;
  o.batch_size = 2;
  o.shuffle = true;
  assert_fo_error(fo_loader_create(g.d, &o, &L), FO_EINVAL, "set input_type");
  o.input_type = "venue";
  assert_fo_error(fo_loader_create(g.d, &o, &L), FO_EINVAL, "it has: author, paper");
  o.input_type = "paper";
  o.split = "train";
  assert_fo_error(fo_loader_create(g.d, &o, &L), FO_EINVAL, "node type 'paper'");
  o.split = NULL;
  o.input_nodes = (const int64_t[]){0, 5};
  o.n_input_nodes = 2;
  assert_fo_error(fo_loader_create(g.d, &o, &L), FO_ERANGE, "of node type 'paper'");
  o.input_nodes = NULL;
  o.n_input_nodes = 0;
  for (int w = 0; w < 4; w++) {
    fo_loader_batch_t *b;
    uint64_t ds[8];
    int64_t n = 0;
    fo_sampler_t *s;
    fo_batch_t *ref;
    o.num_workers = (int32_t[]){0, 1, 2, 8}[w];
    assert_fo_ok(fo_loader_create(g.d, &o, &L));
    assert_int_equal(fo_loader_num_batches(L), 2);
    assert_fo_ok(fo_sampler_create(g.d, &o.sampler, &s));
    assert_fo_ok(fo_batch_create(&ref));
    while (fo_loader_next(L, &b) == FO_OK && b) {
      const fo_batch_t *p = fo_batch_node_type(b->sample, 1), *rp;
      int64_t seeds[2];
      assert_int_equal(b->input_type, 1);
      assert_int_equal(b->n_node_types, 2);
      assert_null(b->x);
      assert_null(b->y); /* papers have no labels */
      for (int64_t i = 0; i < b->batch_size; i++) seeds[i] = p->node[i];
      assert_fo_ok(fo_sampler_sample_typed(s, 1, seeds, b->batch_size, 0, (uint64_t)b->index, ref));
      rp = fo_batch_node_type(ref, 1);
      assert_int_equal(rp->n_nodes, p->n_nodes);
      same("paper node", p->node, rp->node, p->n_nodes);
      for (int32_t t = 0; t < 2; t++) {
        const fo_batch_t *nb = fo_batch_node_type(b->sample, t);
        const float *x = b->x_types[t].x;
        assert_non_null(x);
        assert_int_equal(b->x_types[t].dim, 2);
        assert_string_equal(b->x_types[t].dtype, "float32");
        for (int64_t i = 0; i < nb->n_nodes; i++) {
          assert_true(x[2 * i] == (float)t);
          assert_true(x[2 * i + 1] == (float)nb->node[i]);
        }
      }
      ds[n++] = fo_loader_batch_digest(b);
      fo_loader_release(L, b);
    }
    assert_int_equal(n, 2);
    digest[w] = fo_digest_sequence(ds, n);
    fo_batch_destroy(ref);
    fo_sampler_destroy(s);
    fo_loader_destroy(L);
  }
  for (int w = 1; w < 4; w++) assert_true(digest[w] == digest[0]);
  /* authors: labels of the seeds, per-edge-type fanouts copied */
  o.input_type = "author";
  o.split = "train";
  o.num_workers = 2;
  o.sampler.edge_type_fanouts = (const int32_t[]){-1, -1, 0, 0};
  o.sampler.edge_dir = FO_EDGE_DIR_OUT;
  assert_fo_ok(fo_loader_create(g.d, &o, &L));
  {
    fo_loader_batch_t *b;
    int64_t seen = 0;
    while (fo_loader_next(L, &b) == FO_OK && b) {
      const fo_batch_t *a = fo_batch_node_type(b->sample, 0);
      assert_non_null(b->y);
      for (int64_t i = 0; i < b->batch_size; i++) assert_int_equal(b->y[i], a->node[i] % 3);
      assert_int_equal(fo_batch_edge_type(b->sample, 1)->n_edges, 0);
      seen += b->batch_size;
      fo_loader_release(L, b);
    }
    assert_int_equal(seen, 3);
  }
  fo_loader_destroy(L);
  tiny_close(&g);
}

/* Seeds of several node types (link prediction's two endpoint types): each type's seeds come
 * first in its node list; disjoint trees number the seeds in type order; partitioning refuses
 * typed datasets. */
static void hetero_seeds(void **state) {
  tiny g;
  fo_sampler_opts o;
  fo_sampler_t *s;
  fo_batch_t *b;
  const fo_batch_t *a, *p;
  const fo_nid_t *seeds[2] = {(const int64_t[]){2}, (const int64_t[]){3, 0}};
  const int64_t n[2] = {1, 2};
  (void)state;
  tiny_open(&g, true, true);
  fo_sampler_opts_init(&o);
  o.fanouts = (const int32_t[]){-1};
  o.n_hops = 1;
  o.disjoint = true;
  assert_fo_ok(fo_sampler_create(g.d, &o, &s));
  assert_fo_ok(fo_batch_create(&b));
  assert_fo_ok(fo_sampler_sample_hetero(s, seeds, n, 0, 0, b));
  a = fo_batch_node_type(b, 0);
  p = fo_batch_node_type(b, 1);
  assert_int_equal(b->n_seeds, 3);
  assert_int_equal(a->n_seeds, 1);
  assert_int_equal(p->n_seeds, 2);
  assert_int_equal(a->node[0], 2);
  assert_int_equal(p->node[0], 3);
  assert_int_equal(p->node[1], 0);
  same("paper batch", p->batch, (const int64_t[]){1, 2}, 2);
  assert_int_equal(a->batch[0], 0);
  /* in-neighbors: p3 <- a2 (tree 1, a new copy of a2), a1; p0 <- a0 (tree 2) */
  same("author node", a->node, (const int64_t[]){2, 2, 1, 0}, 4);
  same("author batch", a->batch, (const int64_t[]){0, 1, 1, 2}, 4);
  assert_fo_error(fo_sampler_sample_hetero(s, seeds, (const int64_t[]){1, -1}, 0, 0, b), FO_EINVAL,
                  "negative");
  assert_int_equal(b->n_nodes, 0);
  fo_batch_destroy(b);
  fo_sampler_destroy(s);
  {
    char *out = fot_path(g.tmp, "parts");
    fo_partition_opts po;
    fo_partition_opts_init(&po);
    po.n_parts = 2;
    /* typed partitions: tests/unit/test_typed_part.c */
    assert_fo_ok(fo_partition(g.dir, out, &po, NULL));
    free(out);
  }
  tiny_close(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(types_and_views),   cmocka_unit_test(version1_is_one_type),
      cmocka_unit_test(manifest_errors),   cmocka_unit_test(exact_tiny),
      cmocka_unit_test(one_type_same_draws), cmocka_unit_test(random_typed),
      cmocka_unit_test(uniform_per_edge_type), cmocka_unit_test(typed_loader),
      cmocka_unit_test(hetero_seeds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
