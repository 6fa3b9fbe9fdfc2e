/*
 * Stored edge splits (import --edge-split, docs/FORMAT.md "edge_splits"): input positions become
 * the right edge ids (directed, undirected, self loops dropped, typed with reverse types), the
 * reader's checks at open (ids in range, dtype), fo_dataset_edge_endpoints, the link loader over
 * a split (the same batches as over its edges given explicitly), and every error with its code
 * and message.
 */
#include "support.h"

#include "fanout/partition.h"

#include "fanout/link.h"

#include <sys/stat.h>

/* input: 0->1 1->2 2->3 3->0 0->2 1->1 (self loop, position 5) 2->3 (a duplicate, position 6) */
static const int64_t S[] = {0, 1, 2, 3, 0, 1, 2}, D[] = {1, 2, 3, 0, 2, 1, 3};
#define M 7

static char *npy_ids(const char *dir, const char *name, const int64_t *v, int64_t n) {
  char *p = fot_path(dir, name);
  fot_write_npy(p, "<i8", 1, &n, v, (size_t)n * sizeof *v);
  return p;
}

/* Import S, D with one edge split "a=FILE" into tmp/g (o: extra options); the status. */
static int import_split(const char *tmp, const char *spec, fo_import_opts *o) {
  fo_import_edge_split es = {NULL, spec};
  char *out = fot_path(tmp, "g");
  int rc;
  o->edge_splits = &es;
  o->n_edge_splits = 1;
  o->force = true;
  o->csr = true;
  rc = fo_import_edges(S, D, M, out, o, NULL);
  free(out);
  return rc;
}

static void check_endpoints(const fo_dataset_t *d, int32_t et, const char *name,
                            const int64_t *want_pos, int64_t n) {
  const int64_t *ids;
  int64_t k, src[16], dst[16];
  assert_int_equal(fo_dataset_edge_split(d, et, name, &ids, &k), FO_OK);
  assert_int_equal(k, n);
  assert_int_equal(fo_dataset_edge_endpoints(d, et, ids, k, src, dst), FO_OK);
  for (int64_t j = 0; j < n; j++) {
    assert_int_equal(src[j], S[want_pos[j]]);
    assert_int_equal(dst[j], D[want_pos[j]]);
  }
}

static void untyped(void **state) {
  char *tmp = fot_tmpdir(), *g = fot_path(tmp, "g");
  const int64_t a[] = {4, 0, 3, 6}, b[] = {1, 2};
  char spec[1024];
  char *pa = npy_ids(tmp, "a.npy", a, 4), *pb = npy_ids(tmp, "b.npy", b, 2);
  fo_import_opts o;
  fo_dataset_t *d;
  (void)state;
  snprintf(spec, sizeof spec, "train=%s,test=%s", pa, pb);
  for (int mode = 0; mode < 2; mode++) {
    /* mode 1: undirected (reverse edges appended, ids reordered) */
    fo_import_opts_init(&o);
    o.undirected = mode == 1;
    if (mode == 1) {
      /* position 6 duplicates 2 and is dropped by undirected's dedup */
      assert_fo_error(import_split(tmp, spec, &o), FO_ERANGE,
                      "entry 3 is input edge 6, which the import dropped");
      snprintf(spec, sizeof spec, "train=%s,test=%s", pb, pb);
    }
    if (import_split(tmp, spec, &o) != FO_OK) fail_msg("%s", fo_last_error());
    assert_int_equal(fo_dataset_open(g, NULL, &d), FO_OK);
    assert_int_equal(fo_dataset_num_edge_splits(d, 0), 2);
    assert_string_equal(fo_dataset_edge_split_name(d, 0, 0), "train");
    assert_string_equal(fo_dataset_edge_split_name(d, 0, 1), "test");
    assert_null(fo_dataset_edge_split_name(d, 0, 2));
    check_endpoints(d, 0, "train", mode ? b : a, mode ? 2 : 4);
    check_endpoints(d, 0, "test", b, 2);
    assert_int_equal(fo_dataset_verify(d), FO_OK);
    {
      const int64_t *ids;
      int64_t n, s1;
      assert_fo_error(fo_dataset_edge_split(d, 0, "val", &ids, &n), FO_EINVAL,
                      "has no edge split 'val' (it has: train, test)");
      assert_fo_error(fo_dataset_edge_split(d, 1, "train", &ids, &n), FO_ERANGE, "edge type 1");
      assert_fo_error(fo_dataset_edge_endpoints(d, 0, &(int64_t){99}, 1, &s1, &n), FO_ERANGE,
                      "entry 0 is 99, not an edge id");
    }
    fo_dataset_close(d);
  }
  /* self loops removed: position 5 is gone */
  fo_import_opts_init(&o);
  o.remove_self_loops = true;
  {
    const int64_t c[] = {5};
    char *pc = npy_ids(tmp, "c.npy", c, 1);
    snprintf(spec, sizeof spec, "x=%s", pc);
    assert_fo_error(import_split(tmp, spec, &o), FO_ERANGE, "input edge 5, which the import dropped");
    free(pc);
  }
  free(pa);
  free(pb);
  free(g);
  fot_rmtree(tmp);
}

static void import_errors(void **state) {
  char *tmp = fot_tmpdir(), *g = fot_path(tmp, "g");
  const int64_t bad[] = {0, 7}, neg[] = {-1};
  char *pbad = npy_ids(tmp, "bad.npy", bad, 2), *pneg = npy_ids(tmp, "neg.npy", neg, 1);
  char spec[1024];
  fo_import_opts o;
  struct stat st;
  (void)state;
  fo_import_opts_init(&o);
  snprintf(spec, sizeof spec, "train=%s", pbad);
  assert_fo_error(import_split(tmp, spec, &o), FO_ERANGE,
                  "bad.npy' entry 1 is 7, not an input edge position in [0, 7)");
  assert_true(stat(g, &st) != 0); /* nothing half-written */
  snprintf(spec, sizeof spec, "train=%s", pneg);
  assert_fo_error(import_split(tmp, spec, &o), FO_ERANGE, "entry 0 is -1");
  assert_fo_error(import_split(tmp, "train", &o), FO_EINVAL, "'train' is not NAME=FILE.npy");
  assert_fo_error(import_split(tmp, "tr-ain=x.npy", &o), FO_EINVAL, "is not NAME=FILE.npy");
  assert_fo_error(import_split(tmp, "", &o), FO_EINVAL, "no NAME=FILE.npy list");
  {
    const int64_t ok[] = {0};
    char *pok = npy_ids(tmp, "ok.npy", ok, 1);
    snprintf(spec, sizeof spec, "a=%s,a=%s", pok, pok);
    free(pok);
  }
  assert_fo_error(import_split(tmp, spec, &o), FO_EINVAL, "split 'a' given twice");
  assert_fo_error(import_split(tmp, "a=/nonexistent/x.npy", &o), FO_EIO, "--edge-split a");
  snprintf(spec, sizeof spec, "a=%s,b=%s,c=%s,d=%s,e=%s,f=%s,g=%s,h=%s,i=%s", pneg, pneg, pneg,
           pneg, pneg, pneg, pneg, pneg, pneg);
  assert_fo_error(import_split(tmp, spec, &o), FO_ERANGE, "entry 0 is -1"); /* read in order */
  {
    fo_import_edge_split es[2] = {{NULL, "a=x.npy"}, {NULL, "b=y.npy"}};
    o.edge_splits = es;
    o.n_edge_splits = 2;
    assert_fo_error(fo_import_edges(S, D, M, g, &o, NULL), FO_EINVAL, "edge type given twice");
    es[0].edge_type = "node__to__node";
    o.n_edge_splits = 1;
    assert_fo_error(fo_import_edges(S, D, M, g, &o, NULL), FO_EINVAL,
                    "an untyped import has one edge type");
    o.n_edge_splits = -1;
    assert_fo_error(fo_import_edges(S, D, M, g, &o, NULL), FO_EINVAL, "edge splits: -1 entries");
  }
  assert_true(stat(g, &st) != 0);
  free(pbad);
  free(pneg);
  free(g);
  fot_rmtree(tmp);
}

/* Typed: paper -writes-> author (4 edges) and paper -cites-> paper (3), with --reverse-edges. */
static void typed(void **state) {
  char *tmp = fot_tmpdir(), *g = fot_path(tmp, "g"), *pa = fot_path(tmp, "pa.txt");
  char *pp = fot_path(tmp, "pp.txt"), spec1[512], spec2[512];
  const int64_t w[] = {3, 1}, c[] = {2};
  char *pw = npy_ids(tmp, "w.npy", w, 2), *pc = npy_ids(tmp, "c.npy", c, 1);
  fo_import_edge_type ets[2] = {{"paper", "writes", "author", pa}, {"paper", "cites", "paper", pp}};
  fo_import_edge_split es[2];
  fo_import_opts o;
  fo_dataset_t *d;
  int64_t src[2], dst[2], n;
  const int64_t *ids;
  int32_t et;
  (void)state;
  fot_write_file(pa, "0 1\n1 0\n2 1\n3 2\n");
  fot_write_file(pp, "1 0\n2 0\n3 1\n");
  snprintf(spec1, sizeof spec1, "train=%s", pw);
  snprintf(spec2, sizeof spec2, "val=%s,train=%s", pc, pc);
  es[0] = (fo_import_edge_split){"paper__writes__author", spec1};
  es[1] = (fo_import_edge_split){"paper__cites__paper", spec2};
  fo_import_opts_init(&o);
  o.edge_types = ets;
  o.n_edge_types = 2;
  o.reverse_edges = true;
  o.csr = true;
  o.edge_splits = es;
  o.n_edge_splits = 2;
  assert_int_equal(fo_import(NULL, 0, g, &o, NULL), FO_OK);
  assert_int_equal(fo_dataset_open(g, NULL, &d), FO_OK);
  et = fo_dataset_edge_type_find(d, "writes");
  assert_int_equal(fo_dataset_num_edge_splits(d, et), 1);
  assert_int_equal(fo_dataset_edge_split(d, et, "train", &ids, &n), FO_OK);
  assert_int_equal(n, 2);
  assert_int_equal(fo_dataset_edge_endpoints(d, et, ids, n, src, dst), FO_OK);
  assert_int_equal(src[0], 3);
  assert_int_equal(dst[0], 2);
  assert_int_equal(src[1], 1);
  assert_int_equal(dst[1], 0);
  et = fo_dataset_edge_type_find(d, "cites");
  assert_int_equal(fo_dataset_num_edge_splits(d, et), 2);
  assert_int_equal(fo_dataset_edge_split(d, et, "val", &ids, &n), FO_OK);
  assert_int_equal(fo_dataset_edge_endpoints(d, et, ids, n, src, dst), FO_OK);
  assert_int_equal(src[0], 3);
  assert_int_equal(dst[0], 1);
  assert_int_equal(fo_dataset_num_edge_splits(d, fo_dataset_edge_type_find(d, "rev_writes")), 0);
  assert_fo_error(fo_dataset_edge_split(d, fo_dataset_edge_type_find(d, "rev_writes"), "train",
                                        &ids, &n),
                  FO_EINVAL, "edge type 'author__rev_writes__paper' has no edge split 'train' (it has none)");
  fo_dataset_close(d);
  /* errors: a reverse type, an unknown type, no type with several types */
  o.force = true;
  es[0].edge_type = "author__rev_writes__paper";
  o.n_edge_splits = 1;
  assert_fo_error(fo_import(NULL, 0, g, &o, NULL), FO_EINVAL, "reverse types of --reverse-edges cannot be named");
  es[0].edge_type = "paper__nope__paper";
  assert_fo_error(fo_import(NULL, 0, g, &o, NULL), FO_EINVAL, "no input edge type 'paper__nope__paper'");
  es[0].edge_type = NULL;
  assert_fo_error(fo_import(NULL, 0, g, &o, NULL), FO_EINVAL, "the import has several edge types: name one");
  /* one edge type: no name needed */
  o.n_edge_types = 1;
  o.force = true;
  assert_int_equal(fo_import(NULL, 0, g, &o, NULL), FO_OK);
  assert_int_equal(fo_dataset_open(g, NULL, &d), FO_OK);
  assert_int_equal(fo_dataset_num_edge_splits(d, 0), 1);
  fo_dataset_close(d);
  free(pw);
  free(pc);
  free(pa);
  free(pp);
  free(g);
  fot_rmtree(tmp);
}

/* A corrupt stored split (an id out of range, a wrong dtype in the manifest) fails at open. */
static void reader_checks(void **state) {
  char *tmp = fot_tmpdir(), *g = fot_path(tmp, "g"), *man, *text, *p;
  const int64_t a[] = {0, 1, 2};
  char *pa = npy_ids(tmp, "a.npy", a, 3), spec[512];
  fo_import_opts o;
  fo_dataset_t *d;
  size_t len;
  (void)state;
  fo_import_opts_init(&o);
  snprintf(spec, sizeof spec, "train=%s", pa);
  assert_int_equal(import_split(tmp, spec, &o), FO_OK);
  fot_set_array_elem(g, "edge_split.train", 1, 7, true);
  assert_fo_error(fo_dataset_open(g, NULL, &d), FO_EFORMAT,
                  "edge split 'train' (edge_split.train.npy): entry 1 is 7, not an edge id in [0, 7)");
  assert_null(d);
  fot_set_array_elem(g, "edge_split.train", 1, -3, true);
  assert_fo_error(fo_dataset_open(g, NULL, &d), FO_EFORMAT, "entry 1 is -3");
  fot_set_array_elem(g, "edge_split.train", 1, 1, true);
  assert_int_equal(fo_dataset_open(g, NULL, &d), FO_OK);
  fo_dataset_close(d);
  /* the manifest names another array (csc_indptr: int64, values past the edge ids), a missing one */
  man = fot_path(g, "fanout.json");
  text = fot_read_file(man, &len);
  p = strstr(text, "\"train\": \"edge_split.train\"");
  assert_non_null(p);
  memcpy(p, "\"train\": \"csc_indptr\"      ", 27);
  fot_write_bytes(man, text, len);
  assert_fo_error(fo_dataset_open(g, NULL, &d), FO_EFORMAT,
                  "edge split 'train' (csc_indptr.npy): entry 4 is 7, not an edge id");
  memcpy(p, "\"train\": \"nope\"            ", 27);
  fot_write_bytes(man, text, len);
  assert_fo_error(fo_dataset_open(g, NULL, &d), FO_EFORMAT,
                  "edge split 'train' must name an int64 [k] array");
  free(text);
  free(man);
  free(pa);
  free(g);
  fot_rmtree(tmp);
}

/* The link loader over a split gives the batches of its edges given explicitly. */
static void loader(void **state) {
  fot_edges e;
  char *tmp = fot_tmpdir(), *g = fot_path(tmp, "g"), spec[512];
  int64_t pos[300], eli[600];
  int32_t f[2] = {3, 2};
  fo_import_edge_split es = {NULL, spec};
  fo_import_opts o;
  fo_dataset_t *d;
  fo_link_loader_opts lo;
  fo_link_loader_t *L1, *L2;
  const int64_t *ids;
  int64_t n;
  char *pp;
  (void)state;
  fot_random(200, 1500, 3, &e);
  for (int i = 0; i < 300; i++) pos[i] = (i * 37) % 1500;
  pp = npy_ids(tmp, "p.npy", pos, 300);
  snprintf(spec, sizeof spec, "train=%s", pp);
  fo_import_opts_init(&o);
  o.csr = true;
  o.edge_splits = &es;
  o.n_edge_splits = 1;
  o.num_nodes = 200;
  assert_int_equal(fo_import_edges(e.src, e.dst, e.m, g, &o, NULL), FO_OK);
  assert_int_equal(fo_dataset_open(g, NULL, &d), FO_OK);
  assert_int_equal(fo_dataset_edge_split(d, 0, "train", &ids, &n), FO_OK);
  assert_int_equal(n, 300);
  for (int i = 0; i < 300; i++) {
    eli[i] = e.src[pos[i]];
    eli[300 + i] = e.dst[pos[i]];
  }
  fo_link_loader_opts_init(&lo);
  lo.link.sampler.fanouts = f;
  lo.link.sampler.n_hops = 2;
  lo.link.neg = FO_NEG_BINARY;
  lo.link.exclude_seed_edges = true;
  lo.batch_size = 64;
  lo.shuffle = true;
  lo.edge_split = "train";
  assert_int_equal(fo_link_loader_create(d, &lo, &L1), FO_OK);
  lo.edge_split = NULL;
  lo.edge_label_index = eli;
  lo.n_edges = 300;
  assert_int_equal(fo_link_loader_create(d, &lo, &L2), FO_OK);
  assert_int_equal(fo_link_loader_num_batches(L1), 5);
  for (int ep = 0; ep < 2; ep++) {
    int nb = 0;
    for (;;) {
      fo_link_loader_batch_t *b1, *b2;
      uint64_t h1;
      assert_int_equal(fo_link_loader_next(L1, &b1), FO_OK);
      h1 = b1 ? fo_link_loader_batch_digest(b1) : 0;
      assert_int_equal(fo_link_loader_next(L2, &b2), FO_OK);
      assert_true(!b1 == !b2);
      if (!b1) break;
      assert_true(h1 == fo_link_loader_batch_digest(b2));
      nb++;
    }
    assert_int_equal(nb, 5);
    assert_int_equal(fo_link_loader_start_epoch(L1, (uint64_t)ep + 1), FO_OK);
    assert_int_equal(fo_link_loader_start_epoch(L2, (uint64_t)ep + 1), FO_OK);
  }
  fo_link_loader_destroy(L1);
  fo_link_loader_destroy(L2);
  /* over 2 and 3 hash parts: the split (with its stored endpoints) gives the same batches */
  for (int32_t P = 2; P <= 3; P++) {
    fo_partition_opts po;
    fo_dataset_t *pd;
    char *pdir = fot_path(tmp, P == 2 ? "p2" : "p3");
    const int64_t *pids;
    int64_t pn;
    fo_partition_opts_init(&po);
    po.n_parts = P;
    assert_fo_ok(fo_partition(g, pdir, &po, NULL));
    assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
    assert_fo_ok(fo_dataset_verify(pd));
    assert_fo_ok(fo_dataset_edge_split(pd, 0, "train", &pids, &pn));
    assert_int_equal(pn, 300);
    assert_memory_equal(pids, ids, 300 * sizeof *ids);
    { /* the stored endpoints: [2, 300], the split's edges in its order */
      const int64_t *ends;
      int64_t ne;
      assert_fo_ok(fo_dataset_edge_split_ends(pd, 0, "train", &ends, &ne));
      assert_int_equal(ne, 300);
      assert_memory_equal(ends, eli, 600 * sizeof *eli);
      assert_fo_error(fo_dataset_edge_split_ends(pd, 0, "val", &ends, &ne), FO_EINVAL,
                      "no edge split 'val'");
      assert_fo_error(fo_dataset_edge_split_ends(pd, 0, "train", NULL, &ne), FO_EINVAL,
                      "edge split endpoints: ends or n is NULL");
      assert_fo_error(fo_dataset_edge_split_ends(d, 0, "train", &ends, &ne), FO_EINVAL,
                      "is not partitioned");
    }
    lo.edge_label_index = NULL;
    lo.n_edges = 0;
    lo.edge_split = "train";
    assert_fo_ok(fo_link_loader_create(d, &lo, &L1));
    assert_fo_ok(fo_link_loader_create(pd, &lo, &L2));
    for (int nb = 0;; nb++) {
      fo_link_loader_batch_t *b1, *b2;
      uint64_t h1;
      assert_fo_ok(fo_link_loader_next(L1, &b1));
      h1 = b1 ? fo_link_loader_batch_digest(b1) : 0;
      assert_fo_ok(fo_link_loader_next(L2, &b2));
      assert_true(!b1 == !b2);
      if (!b1) {
        assert_int_equal(nb, 5);
        break;
      }
      assert_true(h1 == fo_link_loader_batch_digest(b2));
    }
    fo_link_loader_destroy(L1);
    fo_link_loader_destroy(L2);
    fo_dataset_close(pd);
    free(pdir);
  }
  lo.edge_split = NULL;
  lo.edge_label_index = eli;
  lo.n_edges = 300;
  /* errors: a split with explicit edges, an unknown split */
  lo.edge_split = "train";
  assert_fo_error(fo_link_loader_create(d, &lo, &L1), FO_EINVAL,
                  "edge split 'train' and edge_label_index or edge_label both given");
  assert_null(L1);
  lo.edge_label_index = NULL;
  lo.n_edges = 0;
  lo.edge_split = "test";
  assert_fo_error(fo_link_loader_create(d, &lo, &L1), FO_EINVAL, "has no edge split 'test' (it has: train)");
  assert_null(L1);
  fo_dataset_close(d);
  fot_edges_free(&e);
  free(pp);
  free(g);
  fot_rmtree(tmp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(untyped), cmocka_unit_test(import_errors), cmocka_unit_test(typed),
      cmocka_unit_test(reader_checks), cmocka_unit_test(loader),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
