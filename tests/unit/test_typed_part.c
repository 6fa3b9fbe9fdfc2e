/*
 * tests/unit/test_typed_part.c: partitions of typed (format-version-2) datasets.
 *
 * The exact arrays of a range partition of a tiny author/paper graph (books per node type,
 * rows, CSC and CSR rows per edge type with global edge ids, node data), book lookups per node
 * type for every method, the refusals (typed top level without a type, unknown input type,
 * parts of other partitionings, a corrupt book), and random typed graphs partitioned by every
 * method into 1, 2 and 4 parts giving the unpartitioned batches and loader digests, bit for bit.
 */
#include "support.h"

#include "dist/dist_internal.h"
#include "store/store_internal.h"

/* authors a0..a2, papers p0..p3; writes: author -> paper, cites: paper -> paper */
static const int64_t W_SRC[] = {0, 0, 1, 2, 2, 1}, W_DST[] = {0, 1, 1, 2, 3, 3};
static const int64_t C_SRC[] = {1, 2, 3, 3}, C_DST[] = {0, 0, 1, 2};

typedef struct tiny {
  char *tmp, *dir;
  fot_edges w, c;
} tiny;

static void tiny_make(tiny *g) {
  static const char *const names[] = {"author", "paper"};
  static const int64_t counts[] = {3, 4};
  fot_typed_et ets[2];
  memset(g, 0, sizeof *g);
  for (int i = 0; i < 6; i++) fot_edges_add(&g->w, W_SRC[i], W_DST[i]);
  for (int i = 0; i < 4; i++) fot_edges_add(&g->c, C_SRC[i], C_DST[i]);
  ets[0] = (fot_typed_et){"author", "writes", "paper", &g->w};
  ets[1] = (fot_typed_et){"paper", "cites", "paper", &g->c};
  g->tmp = fot_tmpdir();
  g->dir = fot_typed_dataset(g->tmp, "g", 2, names, counts, 2, ets, true, true);
}

static void tiny_free(tiny *g) {
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

static int64_t ld(const void *a, int bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

/* Topology `t` equals (indptr, indices, eid). */
static void same_topo(const char *what, const fo_topology *t, const int64_t *ip, int64_t rows,
                      const int64_t *ix, const int64_t *eid) {
  int64_t m = ip[rows], got[16];
  assert_int_equal(t->n_rows, rows);
  assert_int_equal(t->n_edges, m);
  same(what, t->indptr, ip, rows + 1);
  for (int64_t e = 0; e < m; e++) got[e] = ld(t->indices, t->indices_bytes, e);
  same(what, got, ix, m);
  assert_non_null(t->eid);
  for (int64_t e = 0; e < m; e++) got[e] = ld(t->eid, t->eid_bytes, e);
  same(what, got, eid, m);
}

static char *partition_to(const char *in, const char *tmp, const char *name, fo_partition_method m,
                          int32_t P, fo_partition_report *rep) {
  fo_partition_opts o;
  char *out = fot_path(tmp, name);
  fo_partition_opts_init(&o);
  o.n_parts = P;
  o.method = m;
  assert_fo_ok(fo_partition(in, out, &o, rep));
  return out;
}

/* Range into 2 parts: authors [0, 1) [1, 3), papers [0, 2) [2, 4); every array of both parts. */
static void exact_range(void **state) {
  tiny g;
  fo_partition_report rep;
  fo_dataset_t *pd;
  char *out;
  (void)state;
  tiny_make(&g);
  out = partition_to(g.dir, g.tmp, "p", FO_PARTITION_RANGE, 2, &rep);
  /* totals over the types: 7 nodes, 10 edges */
  assert_int_equal(rep.n_nodes, 7);
  assert_int_equal(rep.n_edges, 10);
  assert_int_equal(rep.parts[0].nodes, 3);
  assert_int_equal(rep.parts[1].nodes, 4);
  assert_int_equal(rep.parts[0].edges, 6); /* writes 3 + cites 3 into p0, p1 */
  assert_int_equal(rep.parts[1].edges, 4);
  assert_int_equal(rep.parts[0].train_nodes, 1); /* type 0's split "train": all authors */
  assert_int_equal(rep.parts[1].train_nodes, 2);
  fo_partition_report_free(&rep);
  assert_fo_ok(fo_dataset_open(out, NULL, &pd));
  assert_fo_ok(fo_dataset_verify(pd));
  assert_true(fo_dataset_is_typed(pd));
  assert_int_equal(fo_dataset_num_parts(pd), 2);
  assert_string_equal(fo_dataset_partition_method(pd), "range");
  assert_true(fo_dataset_has_topology(pd, FO_EDGE_DIR_IN));
  assert_true(fo_dataset_has_topology(pd, FO_EDGE_DIR_OUT));
  {
    /* part 0: author 0, papers 0, 1 */
    const fo_dataset_t *p0 = fo_dataset_part(pd, 0), *p1 = fo_dataset_part(pd, 1);
    fo_topology t;
    fo_features f;
    const int64_t *y, *ids;
    int64_t ny, nc, n;
    assert_int_equal(fo_dataset_num_rows(fo_dataset_node_data(p0, 0)), 1);
    assert_int_equal(fo_dataset_num_rows(fo_dataset_node_data(p0, 1)), 2);
    assert_int_equal(fo_dataset_num_rows(fo_dataset_node_data(p1, 0)), 2);
    assert_int_equal(fo_dataset_num_rows(fo_dataset_node_data(p1, 1)), 2);
    assert_int_equal(fo_dataset_num_nodes(fo_dataset_node_data(p1, 1)), 4);
    /* writes CSC: rows of owned papers, neighbor ids and edge ids of the whole graph */
    assert_fo_ok(fo_dataset_edge_topology(p0, 0, FO_EDGE_DIR_IN, &t));
    same_topo("p0 writes csc", &t, (const int64_t[]){0, 1, 3}, 2, (const int64_t[]){0, 0, 1},
              (const int64_t[]){0, 1, 2});
    same("p0 paper rows", t.row_nodes, (const int64_t[]){0, 1}, 2);
    assert_fo_ok(fo_dataset_edge_topology(p1, 0, FO_EDGE_DIR_IN, &t));
    same_topo("p1 writes csc", &t, (const int64_t[]){0, 1, 3}, 2, (const int64_t[]){2, 2, 1},
              (const int64_t[]){3, 4, 5});
    same("p1 paper rows", t.row_nodes, (const int64_t[]){2, 3}, 2);
    /* writes CSR: rows of owned authors */
    assert_fo_ok(fo_dataset_edge_topology(p0, 0, FO_EDGE_DIR_OUT, &t));
    same_topo("p0 writes csr", &t, (const int64_t[]){0, 2}, 1, (const int64_t[]){0, 1},
              (const int64_t[]){0, 1});
    same("p0 author rows", t.row_nodes, (const int64_t[]){0}, 1);
    assert_fo_ok(fo_dataset_edge_topology(p1, 0, FO_EDGE_DIR_OUT, &t));
    same_topo("p1 writes csr", &t, (const int64_t[]){0, 2, 4}, 2, (const int64_t[]){1, 3, 2, 3},
              (const int64_t[]){2, 5, 3, 4});
    /* cites */
    assert_fo_ok(fo_dataset_edge_topology(p0, 1, FO_EDGE_DIR_IN, &t));
    same_topo("p0 cites csc", &t, (const int64_t[]){0, 2, 3}, 2, (const int64_t[]){1, 2, 3},
              (const int64_t[]){0, 1, 2});
    assert_fo_ok(fo_dataset_edge_topology(p1, 1, FO_EDGE_DIR_IN, &t));
    same_topo("p1 cites csc", &t, (const int64_t[]){0, 1, 1}, 2, (const int64_t[]){3},
              (const int64_t[]){3});
    assert_fo_ok(fo_dataset_edge_topology(p1, 1, FO_EDGE_DIR_OUT, &t));
    same_topo("p1 cites csr", &t, (const int64_t[]){0, 1, 3}, 2, (const int64_t[]){0, 1, 2},
              (const int64_t[]){1, 2, 3});
    /* node data: x[v] = (t, v), author labels v % 3, split members owned */
    assert_fo_ok(fo_dataset_features(fo_dataset_node_data(p1, 1), &f));
    assert_int_equal(f.n_rows, 2);
    assert_int_equal(f.dim, 2);
    assert_true(((const float *)f.data)[0] == 1.0f && ((const float *)f.data)[1] == 2.0f);
    assert_true(((const float *)f.data)[2] == 1.0f && ((const float *)f.data)[3] == 3.0f);
    assert_fo_ok(fo_dataset_labels(fo_dataset_node_data(p1, 0), &y, &ny, &nc));
    assert_int_equal(ny, 2);
    same("p1 author labels", y, (const int64_t[]){1, 2}, 2);
    assert_fo_ok(fo_dataset_split(fo_dataset_node_data(p1, 0), "train", &ids, &n));
    same("p1 train", ids, (const int64_t[]){1, 2}, 2);
    assert_int_equal(n, 2);
    /* the whole graph's split at the top */
    assert_fo_ok(fo_dataset_split(fo_dataset_node_data(pd, 0), "train", &ids, &n));
    assert_int_equal(n, 3);
  }
  {
    /* books per node type: range bounds */
    int k;
    int64_t r;
    const fo_dataset_t *pa = fo_dataset_node_data(pd, 0), *pp = fo_dataset_node_data(pd, 1);
    assert_int_equal(fo_dataset_num_parts(pa), 2);
    assert_fo_ok(fo_dataset_node_part(pa, 0, &k, &r));
    assert_true(k == 0 && r == 0);
    assert_fo_ok(fo_dataset_node_part(pa, 2, &k, &r));
    assert_true(k == 1 && r == 1);
    assert_fo_ok(fo_dataset_node_part(pp, 3, &k, &r));
    assert_true(k == 1 && r == 1);
    assert_fo_error(fo_dataset_node_part(pa, 3, &k, &r), FO_ERANGE, "node 3 not in [0, 3)");
    assert_fo_error(fo_dataset_node_part(pd, 0, &k, &r), FO_EINVAL, "is typed: a node's part is per node type");
  }
  {
    /* the quality report recomputed from the parts */
    fo_partition_report q;
    assert_fo_ok(fo_partition_quality(pd, &q));
    assert_int_equal(q.parts[0].nodes, 3);
    assert_int_equal(q.parts[1].edges, 4);
    assert_int_equal(q.parts[1].train_nodes, 2);
    fo_partition_report_free(&q);
  }
  fo_dataset_close(pd);
  free(out);
  tiny_free(&g);
}

/* Hash and METIS: every node of every type is in the part and row its type's book says. */
static void books(void **state) {
  tiny g;
  (void)state;
  tiny_make(&g);
  for (int m = 0; m < 3; m++) {
    for (int32_t P = 1; P <= 3; P++) {
      fo_partition_opts o;
      fo_partition_report rep;
      fo_dataset_t *pd;
      char name[32], *out;
      int rc;
      snprintf(name, sizeof name, "b%d-%d", m, (int)P);
      out = fot_path(g.tmp, name);
      fo_partition_opts_init(&o);
      o.n_parts = P;
      o.method = (fo_partition_method)m;
      rc = fo_partition(g.dir, out, &o, &rep);
      if (rc == FO_ENOSYS && m == FO_PARTITION_METIS) { /* no libmetis here */
        free(out);
        continue;
      }
      assert_fo_ok(rc);
      fo_partition_report_free(&rep);
      assert_fo_ok(fo_dataset_open(out, NULL, &pd));
      assert_fo_ok(fo_dataset_verify(pd));
      for (int32_t t = 0; t < 2; t++) {
        const fo_dataset_t *v = fo_dataset_node_data(pd, t);
        int64_t owned = 0;
        for (int k = 0; k < P; k++) owned += fo_dataset_num_rows(fo_dataset_part(v, k));
        assert_int_equal(owned, fo_dataset_num_nodes(v));
        for (int64_t x = 0; x < fo_dataset_num_nodes(v); x++) {
          int k;
          int64_t r;
          fo_topology tp;
          assert_fo_ok(fo_dataset_node_part(v, x, &k, &r));
          /* the row holds x: the part's CSC of an edge type into t, or its CSR out of t */
          assert_fo_ok(fo_dataset_edge_topology(fo_dataset_part(pd, k), t == 0 ? 0 : 1,
                                                t == 0 ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN, &tp));
          assert_int_equal(tp.row_nodes[r], x);
        }
      }
      fo_dataset_close(pd);
      free(out);
    }
  }
  tiny_free(&g);
}

static void edit_part_manifest(const char *dir, const char *part, void (*edit)(json_t *)) {
  char *pdir = fot_path(dir, part), *path = fot_path(pdir, "fanout.json");
  json_error_t jerr;
  json_t *root = json_load_file(path, 0, &jerr);
  assert_non_null(root);
  edit(root);
  assert_int_equal(json_dump_file(root, path, JSON_INDENT(1)), 0);
  json_decref(root);
  free(path);
  free(pdir);
}

static void e_rename_etype(json_t *r) {
  json_t *et = json_array_get(json_object_get(r, "edge_types"), 1);
  json_object_set_new(et, "rel", json_string("quotes"));
  json_object_set_new(et, "name", json_string("paper__quotes__paper"));
}

static void errors(void **state) {
  tiny g;
  fo_partition_opts o;
  fo_partition_report rep;
  fo_dataset_t *pd, *p0;
  char *out, *other, *p0dir;
  (void)state;
  tiny_make(&g);
  out = fot_path(g.tmp, "p");
  fo_partition_opts_init(&o);
  o.n_parts = 0;
  assert_fo_error(fo_partition(g.dir, out, &o, &rep), FO_EINVAL, "number of parts 0");
  o.n_parts = 8;
  assert_fo_error(fo_partition(g.dir, out, &o, &rep), FO_EINVAL, "more than the 7 nodes");
  o.n_parts = 2;
  o.balance = FO_BALANCE_TRAIN;
  o.train_split = "nope";
  assert_fo_error(fo_partition(g.dir, out, &o, &rep), FO_EINVAL, "no node type of");
  assert_fo_error(fo_partition(g.dir, out, &o, &rep), FO_EINVAL, "has a split 'nope'");
  o.train_split = "train";
  o.method = FO_PARTITION_RANGE; /* balance train: authors only (papers have no train split) */
  assert_fo_ok(fo_partition(g.dir, out, &o, &rep));
  fo_partition_report_free(&rep);
  {
    char *pp = fot_path(g.tmp, "pp");
    assert_fo_error(fo_partition(out, pp, &o, &rep), FO_EINVAL, "already partitioned");
    free(pp);
  }
  assert_fo_ok(fo_dataset_open(out, NULL, &pd));
  {
    /* the sampler: unknown seed type, weighted, a part opened on its own */
    fo_sampler_opts so;
    fo_sampler_t *s;
    fo_batch_t *b;
    fo_loader_opts lo;
    fo_loader_t *L;
    fo_sampler_opts_init(&so);
    so.fanouts = (const int32_t[]){2};
    so.n_hops = 1;
    assert_fo_ok(fo_sampler_create(pd, &so, &s));
    assert_fo_ok(fo_batch_create(&b));
    assert_fo_error(fo_sampler_sample_typed(s, 2, (const int64_t[]){0}, 1, 0, 0, b), FO_EINVAL,
                    "seed node type 2 is not in [0, 2)");
    assert_fo_error(fo_sampler_sample_typed(s, 0, (const int64_t[]){3}, 1, 0, 0, b), FO_ERANGE,
                    "of node type 'author' in [0, 3)");
    assert_fo_error(fo_sampler_sample(s, (const int64_t[]){0}, 1, 0, 0, b), FO_EINVAL, "is typed");
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
    so.weighted = true;
    assert_fo_error(fo_sampler_create(pd, &so, &s), FO_EINVAL, "stores no edge weights for its CSC (import with --edge-weight, then partition)");
    so.weighted = false;
    p0dir = fot_path(out, "part-0");
    assert_fo_ok(fo_dataset_open(p0dir, NULL, &p0));
    assert_fo_error(fo_sampler_create(p0, &so, &s), FO_EINVAL, "one part of a partitioned dataset");
    fo_dataset_close(p0);
    fo_loader_opts_init(&lo);
    lo.sampler = so;
    lo.batch_size = 2;
    lo.input_type = "venue";
    assert_fo_error(fo_loader_create(pd, &lo, &L), FO_EINVAL, "input_type 'venue' is not a node type");
    lo.input_type = NULL;
    assert_fo_error(fo_loader_create(pd, &lo, &L), FO_EINVAL, "has 2 node types: set input_type");
  }
  fo_dataset_close(pd);
  /* a part whose edge types differ, a part of another partitioning */
  edit_part_manifest(out, "part-1", e_rename_etype);
  assert_fo_error(fo_dataset_open(out, NULL, &pd), FO_EFORMAT, "does not belong to this partitioned");
  other = fot_path(g.tmp, "q");
  o.balance = FO_BALANCE_NODES;
  o.method = FO_PARTITION_HASH;
  assert_fo_ok(fo_partition(g.dir, other, &o, &rep));
  fo_partition_report_free(&rep);
  {
    char *a = fot_path(out, "part-1"), *b = fot_path(other, "part-1"), cmd[4096];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s' '%s'", a, b, a);
    assert_int_equal(system(cmd), 0);
    assert_fo_error(fo_dataset_open(out, NULL, &pd), FO_EFORMAT, "comes from another partitioning");
    free(a);
    free(b);
  }
  /* a part's row that is not where the book puts it (checksum fixed): verify names the type,
   * the part and the row */
  {
    char *p1 = fot_path(other, "part-1");
    fo_dataset_t *q;
    int k;
    int64_t r;
    assert_fo_ok(fo_dataset_open(other, NULL, &q));
    assert_fo_ok(fo_dataset_node_part(fo_dataset_node_data(q, 1), 0, &k, &r));
    fo_dataset_close(q);
    /* paper 0 into the first row of the part that does not own it (rows stay ascending) */
    free(p1);
    p1 = fot_path(other, k ? "part-0" : "part-1");
    fot_set_array_elem(p1, "n1.row_nodes", 0, 0, true);
    assert_fo_ok(fo_dataset_open(other, NULL, &pd));
    assert_fo_error(fo_dataset_verify(pd), FO_EFORMAT, "node type 'paper'");
    assert_fo_error(fo_dataset_verify(pd), FO_EFORMAT, "holds node 0, but the book says part");
    fo_dataset_close(pd);
    free(p1);
  }
  free(p0dir);
  free(other);
  free(out);
  tiny_free(&g);
}

/* Batches of two samplers (typed) are equal, array by array. */
static void same_batches(const fo_batch_t *a, const fo_batch_t *b) {
  assert_int_equal(a->n_node_types, b->n_node_types);
  assert_int_equal(a->n_edge_types, b->n_edge_types);
  for (int32_t t = 0; t < a->n_node_types; t++) {
    const fo_batch_t *x = fo_batch_node_type(a, t), *y = fo_batch_node_type(b, t);
    assert_int_equal(x->n_nodes, y->n_nodes);
    assert_int_equal(x->n_seeds, y->n_seeds);
    same("node", x->node, y->node, x->n_nodes);
    if (x->batch) same("batch", x->batch, y->batch, x->n_nodes);
    same("num_sampled_nodes", x->num_sampled_nodes, y->num_sampled_nodes, x->n_hops + 1);
  }
  for (int32_t et = 0; et < a->n_edge_types; et++) {
    const fo_batch_t *x = fo_batch_edge_type(a, et), *y = fo_batch_edge_type(b, et);
    assert_int_equal(x->n_edges, y->n_edges);
    same("row", x->row, y->row, x->n_edges);
    same("col", x->col, y->col, x->n_edges);
    same("edge", x->edge, y->edge, x->n_edges);
    same("num_sampled_edges", x->num_sampled_edges, y->num_sampled_edges, x->n_hops);
  }
}

static uint64_t loader_digest(const fo_dataset_t *d, const char *type, int32_t threads) {
  fo_loader_opts o;
  fo_loader_t *L;
  fo_loader_batch_t *b;
  uint64_t ds[64];
  int64_t n = 0;
  fo_loader_opts_init(&o);
  o.sampler.fanouts = (const int32_t[]){3, 2};
  o.sampler.n_hops = 2;
  o.sampler.seed = 11;
  o.batch_size = 4;
  o.shuffle = true;
  o.input_type = type;
  o.num_workers = threads;
  o.features = true;
  o.labels = !strcmp(type, "t0");
  assert_fo_ok(fo_loader_create(d, &o, &L));
  while (n < 64 && fo_loader_next(L, &b) == FO_OK && b) {
    ds[n++] = fo_loader_batch_digest(b);
    fo_loader_release(L, b);
  }
  fo_loader_destroy(L);
  return fo_digest_sequence(ds, n);
}

/* Random typed graphs, partitioned by every method into 1, 2, 4 parts: batches and loader
 * digests (features of every node type, labels) equal the unpartitioned dataset's. */
static void random_partitioned(void **state) {
  static const char *const names[] = {"t0", "t1", "t2"};
  static const char *const rels[] = {"r0", "r1", "r2", "r3", "r4"};
  static const int types[5][2] = {{0, 1}, {1, 0}, {1, 1}, {2, 0}, {0, 2}};
  uint64_t base = fot_seed(9191);
  (void)state;
  for (int c = 0; c < 4; c++) {
    uint64_t seed = base + (uint64_t)c, st = seed;
    int64_t counts[3];
    fot_edges es[5];
    fot_typed_et ets[5];
    char *tmp, *dir;
    fo_dataset_t *d;
    fot_note_seed(seed);
    for (int t = 0; t < 3; t++) counts[t] = 4 + (int64_t)(fot_rand(&st) % 40);
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
    for (int m = 0; m < 3; m++)
      for (int32_t P = 1; P <= 4; P *= 2) {
        fo_partition_opts po;
        fo_partition_report rep;
        fo_dataset_t *pd;
        char name[32], *out;
        int rc;
        snprintf(name, sizeof name, "p%d-%d", m, (int)P);
        out = fot_path(tmp, name);
        fo_partition_opts_init(&po);
        po.n_parts = P;
        po.method = (fo_partition_method)m;
        po.seed = seed;
        rc = fo_partition(dir, out, &po, &rep);
        if (rc == FO_ENOSYS && m == FO_PARTITION_METIS) {
          free(out);
          continue;
        }
        assert_fo_ok(rc);
        fo_partition_report_free(&rep);
        assert_fo_ok(fo_dataset_open(out, NULL, &pd));
        assert_fo_ok(fo_dataset_verify(pd));
        for (int k = 0; k < 8; k++) {
          fo_sampler_opts o;
          fo_sampler_t *s1, *s2;
          fo_batch_t *b1, *b2;
          int32_t t = (int32_t)(fot_rand(&st) % 3), fan[2] = {(int32_t)(fot_rand(&st) % 5) - 1, 2};
          int64_t seeds[4], n = 1 + (int64_t)(fot_rand(&st) % 4);
          for (int64_t i = 0; i < n; i++) seeds[i] = (int64_t)(fot_rand(&st) % (uint64_t)counts[t]);
          fo_sampler_opts_init(&o);
          o.fanouts = fan;
          o.n_hops = 2;
          o.replace = k % 3 == 1;
          o.disjoint = k % 4 == 2;
          o.edge_dir = k % 2 ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
          o.seed = seed + (uint64_t)k;
          assert_fo_ok(fo_sampler_create(d, &o, &s1));
          assert_fo_ok(fo_sampler_create(pd, &o, &s2));
          assert_fo_ok(fo_batch_create(&b1));
          assert_fo_ok(fo_batch_create(&b2));
          assert_fo_ok(fo_sampler_sample_typed(s1, t, seeds, n, 1, (uint64_t)k, b1));
          assert_fo_ok(fo_sampler_sample_typed(s2, t, seeds, n, 1, (uint64_t)k, b2));
          same_batches(b1, b2);
          fo_batch_destroy(b1);
          fo_batch_destroy(b2);
          fo_sampler_destroy(s1);
          fo_sampler_destroy(s2);
        }
        assert_true(loader_digest(pd, "t0", 1) == loader_digest(d, "t0", 1));
        assert_true(loader_digest(pd, "t1", 2) == loader_digest(d, "t1", 1));
        fo_dataset_close(pd);
        free(out);
      }
    fo_dataset_close(d);
    for (int k = 0; k < 5; k++) fot_edges_free(&es[k]);
    free(dir);
    fot_rmtree(tmp);
  }
}

/* Seed placement local over typed partitions: machine r's batches (index j * P + r) hold only
 * seeds of the input type that r owns, every node of that type is a seed once over all
 * machines, and each machine's batches are the same with 0 and 2 loader threads. */
static void typed_local_seeds(const fo_dataset_t *pd, const fo_loader_opts *base, int32_t P) {
  const int32_t st = fo_dataset_node_type_find(pd, base->input_type);
  const fo_dataset_t *nd = fo_dataset_node_data(pd, st);
  const int64_t n = fo_dataset_num_nodes(nd);
  char *seen = calloc((size_t)n, 1);
  int64_t total = 0;
  assert_non_null(seen);
  for (int32_t r = 0; r < P; r++) {
    uint64_t dg[2] = {0, 0};
    for (int t = 0; t < 2; t++) {
      fo_dist_loader_opts dlo;
      fo_loader_opts o = *base;
      fo_dist_t *dd;
      fo_loader_t *L;
      fo_loader_batch_t *bt;
      uint64_t d[64];
      int64_t j = 0;
      fo_dist_loader_opts_init(&dlo);
      dlo.seed_placement = FO_DIST_SEEDS_LOCAL;
      o.num_workers = 2 * t;
      assert_fo_ok(fo_dist_init_local(pd, r, NULL, &dd));
      assert_fo_ok(fo_dist_loader_create_ex(dd, pd, &o, &dlo, &L));
      while (fo_loader_next(L, &bt) == FO_OK && bt) {
        const int64_t *seeds = fo_batch_node_type(bt->sample, st)->node;
        assert_true(j < 64);
        assert_int_equal(bt->index, j * P + r);
        assert_int_equal(bt->input_type, st);
        for (int64_t i = 0; i < bt->batch_size; i++) {
          assert_int_equal(fo__owner(nd, seeds[i]), r);
          if (!t) {
            assert_int_equal(seen[seeds[i]], 0);
            seen[seeds[i]] = 1;
            total++;
          }
        }
        d[j++] = fo_loader_batch_digest(bt);
        fo_loader_release(L, bt);
      }
      fo_loader_destroy(L);
      assert_fo_ok(fo_dist_finalize(dd));
      dg[t] = fo_digest_sequence(d, j);
    }
    assert_true(dg[0] == dg[1]);
  }
  assert_int_equal(total, n);
  free(seen);
}

/* The remote feature cache of typed parts (one store per node type under one byte budget,
 * about a fifth of the rows here; rows of 8 bytes, the seed type's with its label 16), every
 * policy, with 0 and 2 loader threads: batches equal the plain loader's (want[0..nw)); each
 * batch's hits plus fetched rows are its remote rows, bytes saved are those of its hits, and
 * hits[policy] adds the hits. */
static void typed_cache(const fo_dataset_t *pd, const fo_loader_opts *o0, int32_t P,
                        const uint64_t *want, int64_t nw, int64_t *hits, int64_t *ahead) {
  /* policy, loader threads, pipelining threads */
  static const int cfg[][3] = {{0, 0, 0}, {0, 2, 0}, {1, 0, 0}, {1, 2, 0}, {2, 0, 0}, {2, 2, 0},
                               {2, 0, 2}, {2, 1, 2}, {2, 0, 8}, {2, 2, 8}};
  int64_t want_rows = -1;
  for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; k++) {
      const int pol = cfg[k][0], th = cfg[k][1], pipe = cfg[k][2];
      const int64_t ahead0 = __atomic_load_n(&fo__cache_rows_ahead, __ATOMIC_RELAXED);
      fo_loader_opts o = *o0;
      fo_dist_loader_opts dlo;
      fo_loader_t *L[3];
      fo_dist_t *dd[3];
      int64_t total = 0, rows = 0;
      o.num_workers = th;
      fo_dist_loader_opts_init(&dlo);
      dlo.cache_bytes = 200;
      dlo.cache_policy = (fo_dist_cache_policy)pol;
      dlo.lookahead = 3;
      dlo.pipeline = pipe;
      for (int r = 0; r < P; r++) {
        assert_fo_ok(fo_dist_init_local(pd, r, NULL, &dd[r]));
        assert_fo_ok(fo_dist_loader_create_ex(dd[r], pd, &o, &dlo, &L[r]));
        total += fo_loader_num_batches(L[r]);
      }
      assert_int_equal(total, nw);
      for (int64_t b = 0; b < total; b++) {
        fo_loader_batch_t *bt;
        fo_dist_batch_stats bs;
        assert_fo_ok(fo_loader_next(L[b % P], &bt));
        assert_non_null(bt);
        assert_int_equal(bt->index, b);
        if (fo_loader_batch_digest(bt) != want[b])
          fail_msg("P %d, cache policy %d, %d threads, pipeline %d: batch %lld differs from the "
                   "plain loader's", (int)P, pol, th, pipe, (long long)b);
        fo_dist_batch_stats_get(bt, &bs);
        rows += bs.remote_rows;
        assert_true(bs.cache_hits >= 0 && bs.cache_hits <= bs.remote_rows);
        assert_true(bs.cache_bytes_saved >= 8 * bs.cache_hits && bs.cache_bytes_saved <= 16 * bs.cache_hits);
        hits[pol] += bs.cache_hits;
        fo_loader_release(L[b % P], bt);
      }
      for (int r = 0; r < P; r++) {
        fo_loader_destroy(L[r]);
        assert_fo_ok(fo_dist_finalize(dd[r]));
      }
      /* every remote row counted once with its batch: a hit, fetched ahead, or fetched */
      if (want_rows < 0) want_rows = rows;
      else if (rows != want_rows)
        fail_msg("P %d, cache policy %d, %d threads, pipeline %d: %lld remote rows, %lld without "
                 "pipelining", (int)P, pol, th, pipe, (long long)rows, (long long)want_rows);
      if (pipe) *ahead += __atomic_load_n(&fo__cache_rows_ahead, __ATOMIC_RELAXED) - ahead0;
  }
}

/* The distributed path in one process (fo_dist_init_local): one loader per machine, batches
 * merged by index, equal the plain loader's (features of every node type, labels, edge_dir in
 * and out, disjoint); one hop request per remote machine per hop for all edge types, one feature
 * request per remote machine per batch; seed placement local (typed_local_seeds); the remote
 * feature cache with every policy (typed_cache), lookahead also with 2 and 8 pipelining
 * threads; a corrupt part fails a pipelined loader with the server's error. */
static void dist_local(void **state) {
  static const char *const names[] = {"t0", "t1", "t2"};
  static const char *const rels[] = {"r0", "r1", "r2", "r3", "r4"};
  static const int types[5][2] = {{0, 1}, {1, 0}, {1, 1}, {2, 0}, {0, 2}};
  uint64_t st = fot_seed(515);
  int64_t counts[3] = {30, 25, 12};
  fot_edges es[5];
  fot_typed_et ets[5];
  char *tmp = fot_tmpdir(), *dir;
  fo_dataset_t *d;
  int64_t cache_hits[3] = {0}, rows_ahead = 0;
  (void)state;
  for (int k = 0; k < 5; k++) {
    memset(&es[k], 0, sizeof es[k]);
    for (int64_t i = 0; i < 90; i++)
      fot_edges_add(&es[k], (int64_t)(fot_rand(&st) % (uint64_t)counts[types[k][0]]),
                    (int64_t)(fot_rand(&st) % (uint64_t)counts[types[k][1]]));
    ets[k] = (fot_typed_et){names[types[k][0]], rels[k], names[types[k][1]], &es[k]};
  }
  dir = fot_typed_dataset(tmp, "g", 3, names, counts, 5, ets, true, true);
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  for (int32_t P = 2; P <= 3; P++)
    for (int c = 0; c < 4; c++) {
      fo_partition_opts po;
      fo_partition_report rep;
      fo_dataset_t *pd;
      fo_loader_opts o;
      fo_loader_t *L0, *L[3];
      fo_dist_t *dd[3];
      fo_loader_batch_t *bt;
      uint64_t want[64], got[64];
      int64_t nw = 0, total = 0, fetches = 0, hops = 0, batches[3] = {0};
      char name[32], *out;
      snprintf(name, sizeof name, "d%d-%d", (int)P, c);
      out = fot_path(tmp, name);
      fo_partition_opts_init(&po);
      po.n_parts = P;
      po.method = c % 2 ? FO_PARTITION_RANGE : FO_PARTITION_HASH;
      assert_fo_ok(fo_partition(dir, out, &po, &rep));
      fo_partition_report_free(&rep);
      assert_fo_ok(fo_dataset_open(out, NULL, &pd));
      fo_loader_opts_init(&o);
      o.sampler.fanouts = (const int32_t[]){3, 2};
      o.sampler.n_hops = 2;
      o.sampler.seed = 21 + (uint64_t)c;
      o.sampler.edge_dir = c >= 2 ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
      o.sampler.disjoint = c == 1;
      o.sampler.replace = c == 3;
      o.batch_size = 4;
      o.shuffle = true;
      o.input_type = c == 2 ? "t1" : "t0";
      o.features = true;
      o.labels = true;
      assert_fo_ok(fo_loader_create(d, &o, &L0));
      while (nw < 64 && fo_loader_next(L0, &bt) == FO_OK && bt) {
        want[nw++] = fo_loader_batch_digest(bt);
        fo_loader_release(L0, bt);
      }
      fo_loader_destroy(L0);
      for (int r = 0; r < P; r++) {
        assert_fo_ok(fo_dist_init_local(pd, r, NULL, &dd[r]));
        assert_fo_ok(fo_dist_loader_create(dd[r], pd, &o, FO_DIST_TAIL_KEEP, &L[r]));
        total += fo_loader_num_batches(L[r]);
      }
      assert_int_equal(total, nw);
      for (int64_t b = 0; b < total; b++) {
        assert_fo_ok(fo_loader_next(L[b % P], &bt));
        assert_non_null(bt);
        assert_int_equal(bt->index, b);
        got[b] = fo_loader_batch_digest(bt);
        batches[b % P]++;
        fo_loader_release(L[b % P], bt);
      }
      for (int64_t b = 0; b < total; b++)
        if (got[b] != want[b]) fail_msg("%s: batch %lld differs from the plain loader's", name, (long long)b);
      for (int r = 0; r < P; r++) {
        fo_dist_stats ds;
        fo_dist_get_stats(dd[r], &ds);
        /* at most one request per remote machine per hop and per batch (prefetched batches
         * count too: at most 2 x prefetch extra) */
        for (int h = 0; h < 2; h++) hops += ds.hop_requests[h];
        fetches += ds.fetch_requests;
        assert_true(ds.hop_requests[0] <= (batches[r] + 4) * (P - 1));
        assert_true(ds.fetch_requests <= (batches[r] + 4) * (P - 1));
        fo_loader_destroy(L[r]);
        assert_fo_ok(fo_dist_finalize(dd[r]));
      }
      assert_true(hops > 0 && fetches > 0); /* remote machines were really asked */
      typed_cache(pd, &o, P, want, nw, cache_hits, &rows_ahead);
      typed_local_seeds(pd, &o, P);
      fo_dataset_close(pd);
      free(out);
    }
  /* every policy found rows in its cache (the budget holds about a fifth of the rows) */
  for (int pol = 0; pol < 3; pol++) assert_true(cache_hits[pol] > 0);
  /* the pipelining threads' prefetched rows were used by their batches' gathers */
  assert_true(rows_ahead > 0);
  {
    /* a corrupt part: its server answers with an ERROR, the asking machine fails with it */
    fo_partition_opts po;
    fo_partition_report rep;
    fo_dataset_t *pd;
    fo_loader_opts o;
    fo_loader_t *L;
    fo_loader_batch_t *bt;
    fo_dist_t *dd;
    char *out = fot_path(tmp, "bad"), *p1 = fot_path(out, "part-1");
    int rc = FO_OK;
    fo_partition_opts_init(&po);
    po.n_parts = 2;
    assert_fo_ok(fo_partition(dir, out, &po, &rep));
    fo_partition_report_free(&rep);
    for (int64_t i = 0; i < 20; i++) fot_set_array_elem(p1, "e1.csc_indices", i, 1000000, true);
    assert_fo_ok(fo_dataset_open(out, NULL, &pd));
    fo_loader_opts_init(&o);
    o.sampler.fanouts = (const int32_t[]){-1, -1};
    o.sampler.n_hops = 2;
    o.batch_size = 64;
    o.input_type = "t0";
    assert_fo_ok(fo_dist_init_local(pd, 0, NULL, &dd));
    {
      /* pipelined: the threads' failure fails the loader (or its creation's pre-sampling
       * pass) with the server's error, no hang */
      fo_dist_loader_opts dlo;
      fo_dist_t *dp;
      fo_loader_t *Lc = NULL;
      int rp;
      fo_dist_loader_opts_init(&dlo);
      dlo.cache_bytes = 1 << 20;
      dlo.cache_policy = FO_DIST_CACHE_LOOKAHEAD;
      dlo.pipeline = 2;
      assert_fo_ok(fo_dist_init_local(pd, 0, NULL, &dp));
      rp = fo_dist_loader_create_ex(dp, pd, &o, &dlo, &Lc);
      while (rp == FO_OK && (rp = fo_loader_next(Lc, &bt)) == FO_OK && bt) fo_loader_release(Lc, bt);
      assert_int_equal(rp, FO_EFORMAT);
      assert_non_null(strstr(fo_last_error(), "machine serving part 1"));
      fo_loader_destroy(Lc);
      assert_int_equal(fo_dist_finalize(dp), FO_EFORMAT);
    }
    assert_fo_ok(fo_dist_loader_create(dd, pd, &o, FO_DIST_TAIL_KEEP, &L));
    while (rc == FO_OK && (rc = fo_loader_next(L, &bt)) == FO_OK && bt) fo_loader_release(L, bt);
    assert_int_equal(rc, FO_EFORMAT);
    assert_non_null(strstr(fo_last_error(), "machine serving part 1"));
    assert_true(fo_dist_failed(dd, NULL));
    fo_loader_destroy(L);
    assert_int_equal(fo_dist_finalize(dd), FO_EFORMAT);
    fo_dataset_close(pd);
    free(p1);
    free(out);
  }
  fo_dataset_close(d);
  for (int k = 0; k < 5; k++) fot_edges_free(&es[k]);
  free(dir);
  fot_rmtree(tmp);
}

/* One machine whose single part holds every node of every type (the typed one-part shortcuts
 * of the distributed sampler and gather): batches equal the reference sampler's with and
 * without replacement, both directions, features are the part's rows per type, and a node id
 * out of its type's range is FO_EFORMAT naming the node and type. */
static void one_part_whole_graph(void **state) {
  tiny g;
  fo_partition_report rep;
  fo_dataset_t *pd, *d;
  fo_dist_t *dd;
  char *out;
  (void)state;
  tiny_make(&g);
  out = partition_to(g.dir, g.tmp, "p1", FO_PARTITION_HASH, 1, &rep);
  fo_partition_report_free(&rep);
  assert_fo_ok(fo_dataset_open(g.dir, NULL, &d));
  assert_fo_ok(fo_dataset_open(out, NULL, &pd));
  assert_fo_ok(fo_dist_init_local(pd, 0, NULL, &dd));
  for (int mode = 0; mode < 4; mode++) {
    fo_sampler_opts o;
    fo_sampler_t *ds;
    fo_batch_t *b;
    fot_ref_typed ref;
    const int64_t seeds[2] = {3, 0};
    fo_sampler_opts_init(&o);
    o.fanouts = (const int32_t[]){2, 2};
    o.n_hops = 2;
    o.seed = 11;
    o.replace = mode & 1;
    o.edge_dir = mode & 2 ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
    assert_fo_ok(fo_dist_sampler_create(dd, pd, &o, &ds));
    assert_fo_ok(fo_batch_create(&b));
    /* seeds: papers 3 and 0 (in-neighbors: authors and papers; out: papers) */
    assert_fo_ok(fo_sampler_sample_typed(ds, 1, seeds, 2, 4, 9, b));
    assert_fo_ok(fot_ref_sample_typed(d, &o, 1, seeds, 2, 4, 9, &ref));
    fot_assert_same_typed(b, &ref);
    fot_ref_typed_free(&ref);
    if (mode == 0) {
      fo_batch_t *pa = (fo_batch_t *)fo_batch_node_type(b, 1);
      const fo_batch_t *au = fo_batch_node_type(b, 0);
      unsigned char *x[2];
      const int64_t rb[2] = {8, 8};
      assert_true(au->n_nodes > 0 && pa->n_nodes > 1);
      x[0] = malloc((size_t)(au->n_nodes * 8));
      x[1] = malloc((size_t)(pa->n_nodes * 8));
      assert_fo_ok(fo__dist_gather_batch(dd, pd, b, x, rb));
      for (int t = 0; t < 2; t++) { /* x[v] = (t, v) as float32 */
        const fo_batch_t *bt = fo_batch_node_type(b, t);
        for (int64_t i = 0; i < bt->n_nodes; i++) {
          const float *r = (const float *)(x[t] + i * 8);
          assert_true(r[0] == (float)t && r[1] == (float)bt->node[i]);
        }
      }
      pa->node[1] = 4;
      assert_fo_error(fo__dist_gather_batch(dd, pd, b, x, rb), FO_EFORMAT,
                      "distributed gather: node 4 of node type 'paper' is not a node id in [0, 4)");
      free(x[0]);
      free(x[1]);
    }
    fo_batch_destroy(b);
    fo_sampler_destroy(ds);
  }
  assert_fo_ok(fo_dist_finalize(dd));
  fo_dataset_close(pd);
  fo_dataset_close(d);
  free(out);
  tiny_free(&g);
}

/* A typed hop request (HOPS) with replacement whose answer could pass the server's limit (the
 * transport's max_message_bytes) is refused before sampling, naming the edge type and both
 * sizes; the groups count together; under the limit it is answered. One-type requests (HOP,
 * FETCH) to a typed part are refused. */
static void server_refuses_oversize_typed_draws(void **state) {
  tiny g;
  fo_partition_report rep;
  fo_dataset_t *pd;
  fo__server sv;
  fo__buf b = {0};
  fo__hop_req r[2];
  const int64_t v[2] = {0, 1};
  char *out;
  (void)state;
  tiny_make(&g);
  out = partition_to(g.dir, g.tmp, "p", FO_PARTITION_RANGE, 2, &rep); /* papers [0, 2) in part 0 */
  fo_partition_report_free(&rep);
  assert_fo_ok(fo_dataset_open(out, NULL, &pd));
  assert_fo_ok(fo__server_init(&sv, pd, 0));
  sv.max_answer_words = 4096 / 8;
  memset(r, 0, sizeof r);
  for (int i = 0; i < 2; i++) {
    r[i].part = 0;
    r[i].replace = true;
    r[i].etype = i; /* author writes paper, paper cites paper: frontier papers */
    r[i].fanout = 1 << 30;
    r[i].n = 2;
    r[i].nodes = v;
  }
  assert_fo_ok(fo__enc_hops_req(&b, r, 2));
  assert_fo_ok(fo__server_answer(&sv, b.w, (size_t)b.n * 8));
  assert_fo_error(fo__dec_hops_res(sv.out.w, (size_t)sv.out.n * 8, pd, r, 2, (fo__hop_res[2]){{0}}),
                  FO_ERANGE, "hop request for 2 nodes of edge type 0 with fanout 1073741824 and "
                  "replacement: its answer could hold 2147483648 edges, more than the transport's "
                  "limit of 4096 bytes");
  /* each group alone fits, both together do not */
  r[0].fanout = r[1].fanout = 120;
  fo__buf_free(&b);
  assert_fo_ok(fo__enc_hops_req(&b, r, 2));
  assert_fo_ok(fo__server_answer(&sv, b.w, (size_t)b.n * 8));
  assert_fo_error(fo__dec_hops_res(sv.out.w, (size_t)sv.out.n * 8, pd, r, 2, (fo__hop_res[2]){{0}}),
                  FO_ERANGE, "of edge type 1 with fanout 120");
  r[0].fanout = r[1].fanout = 10;
  fo__buf_free(&b);
  assert_fo_ok(fo__enc_hops_req(&b, r, 2));
  assert_fo_ok(fo__server_answer(&sv, b.w, (size_t)b.n * 8));
  assert_int_equal(fo__msg_kind(sv.out.w, (size_t)sv.out.n * 8), FO_MSG_HOPS_RESP);
  fo__buf_free(&b);
  /* one-type requests reaching a typed part are refused (the fetch read the NULL top-level
   * book: tests/fuzz/regress/wire/one-type-fetch-to-typed-part) */
  {
    fo__fetch_req f = {.x = true, .part = 0, .n = 2, .nodes = v};
    fo__hop_req h = {.part = 0, .fanout = 2, .n = 2, .nodes = v};
    assert_fo_ok(fo__enc_fetch_req(&b, &f));
    assert_fo_ok(fo__server_answer(&sv, b.w, (size_t)b.n * 8));
    assert_fo_error(fo__dec_error(sv.out.w, (size_t)sv.out.n * 8), FO_EINVAL,
                    "one-type fetch request, but");
    fo__buf_free(&b);
    assert_fo_ok(fo__enc_hop_req(&b, &h));
    assert_fo_ok(fo__server_answer(&sv, b.w, (size_t)b.n * 8));
    assert_fo_error(fo__dec_error(sv.out.w, (size_t)sv.out.n * 8), FO_EINVAL,
                    "one-type hop request, but");
    fo__buf_free(&b);
  }
  fo__server_fini(&sv);
  fo_dataset_close(pd);
  free(out);
  tiny_free(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(exact_range), cmocka_unit_test(books),
                                     cmocka_unit_test(errors), cmocka_unit_test(random_partitioned),
                                     cmocka_unit_test(dist_local),
                                     cmocka_unit_test(one_part_whole_graph),
                                     cmocka_unit_test(server_refuses_oversize_typed_draws)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
