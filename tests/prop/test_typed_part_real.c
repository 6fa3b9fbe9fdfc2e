/*
 * tests/prop/test_typed_part_real.c: typed partitions of ../shared/data/dblp-hetero (papers,
 * authors, conferences, terms, with reverse edge types; imported as tests/prop/test_typed_real.c
 * does), by hash, range and METIS into 1, 2 and 4 parts: every partitioned dataset verifies, and
 * its batches (edge_dir in and out, disjoint or not, with and without replacement) and loader
 * digests are those of the unpartitioned dataset, bit for bit. Skipped (exit 77) when the shared
 * data is absent.
 */
#include "support.h"

static bool have_shared(void) {
  char *p;
  FILE *f;
  if (!fot_shared_data_dir()) return false;
  p = fot_path(fot_shared_data_dir(), "dblp-hetero/dblp_paper_author.tsv.gz");
  f = fopen(p, "rb");
  free(p);
  if (f) fclose(f);
  return f != NULL;
}

static uint64_t batch_hash(const fo_batch_t *b) {
  uint64_t h = UINT64_C(1469598103934665603);
#define MIX(p, n)                                                                             \
  for (int64_t i_ = 0; i_ < (n); i_++) h = (h ^ (uint64_t)(p)[i_]) * UINT64_C(1099511628211)
  for (int32_t t = 0; t < b->n_node_types; t++) {
    const fo_batch_t *x = fo_batch_node_type(b, t);
    MIX(x->node, x->n_nodes);
    if (x->batch) MIX(x->batch, x->n_nodes);
    MIX(x->num_sampled_nodes, x->n_hops + 1);
  }
  for (int32_t et = 0; et < b->n_edge_types; et++) {
    const fo_batch_t *x = fo_batch_edge_type(b, et);
    MIX(x->row, x->n_edges);
    MIX(x->col, x->n_edges);
    MIX(x->edge, x->n_edges);
    MIX(x->num_sampled_edges, x->n_hops);
  }
#undef MIX
  return h;
}

/* Hashes of 16 batches from every node type under varied options. */
static void batch_hashes(const fo_dataset_t *d, uint64_t *out) {
  const int32_t T = fo_dataset_num_node_types(d);
  uint64_t st = 77;
  for (int c = 0; c < 16; c++) {
    static const int32_t fan[4][2] = {{5, 3}, {-1, 2}, {10, 0}, {2, -1}};
    fo_sampler_opts o;
    fo_sampler_t *s;
    fo_batch_t *b;
    int32_t t = c % T;
    int64_t n_t = fo_dataset_num_nodes(fo_dataset_node_data(d, t)), seeds[8];
    fo_sampler_opts_init(&o);
    o.fanouts = fan[c % 4];
    o.n_hops = 2;
    o.replace = c % 3 == 1;
    o.disjoint = c % 5 == 2;
    o.edge_dir = c % 2 ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
    o.seed = 100 + (uint64_t)c;
    for (int i = 0; i < 8; i++) seeds[i] = (int64_t)(fot_rand(&st) % (uint64_t)n_t);
    assert_fo_ok(fo_sampler_create(d, &o, &s));
    assert_fo_ok(fo_batch_create(&b));
    assert_fo_ok(fo_sampler_sample_typed(s, t, seeds, 8, 2, (uint64_t)c, b));
    out[c] = batch_hash(b);
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
  }
}

static uint64_t epoch_digest(const fo_dataset_t *d, int32_t threads) {
  fo_loader_opts o;
  fo_loader_t *L;
  fo_loader_batch_t *b;
  uint64_t ds[16];
  int64_t n = 0;
  fo_loader_opts_init(&o);
  o.sampler.fanouts = (const int32_t[]){8, 4};
  o.sampler.n_hops = 2;
  o.sampler.seed = 5;
  o.batch_size = 256;
  o.shuffle = true;
  o.input_type = "author";
  o.num_workers = threads;
  assert_fo_ok(fo_loader_create(d, &o, &L));
  while (n < 16 && fo_loader_next(L, &b) == FO_OK && b) {
    ds[n++] = fo_loader_batch_digest(b);
    fo_loader_release(L, b);
  }
  fo_loader_destroy(L);
  return fo_digest_sequence(ds, n);
}

static void dblp_partitioned(void **state) {
  const char *dir = fot_shared_data_dir();
  char *pa = fot_path(dir, "dblp-hetero/dblp_paper_author.tsv.gz");
  char *pc = fot_path(dir, "dblp-hetero/dblp_paper_conference.tsv.gz");
  char *pt = fot_path(dir, "dblp-hetero/dblp_paper_term.tsv.gz");
  fo_import_edge_type et[3] = {{"paper", "writes", "author", pa},
                               {"paper", "published_in", "conference", pc},
                               {"paper", "has_term", "term", pt}};
  fo_import_opts o;
  fo_import_report irep;
  fo_dataset_t *d;
  char *tmp = fot_tmpdir(), *g = fot_path(tmp, "g");
  uint64_t want[16], got[16], want_epoch;
  double hash_cut[5] = {0};
  (void)state;
  fo_import_opts_init(&o);
  o.edge_types = et;
  o.n_edge_types = 3;
  o.reverse_edges = true;
  o.csr = true;
  assert_fo_ok(fo_import(NULL, 0, g, &o, &irep));
  assert_fo_ok(fo_dataset_open(g, NULL, &d));
  batch_hashes(d, want);
  want_epoch = epoch_digest(d, 1);
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
      rc = fo_partition(g, out, &po, &rep);
      if (rc == FO_ENOSYS && m == FO_PARTITION_METIS) { /* no libmetis here */
        free(out);
        continue;
      }
      assert_fo_ok(rc);
      assert_int_equal(rep.n_nodes, fo_dataset_num_nodes(d));
      assert_int_equal(rep.n_edges, fo_dataset_num_edges(d));
      if (m == FO_PARTITION_HASH) hash_cut[P] = rep.edge_cut;
      /* METIS over all types together cuts fewer edges than the random (hash) cut */
      if (m == FO_PARTITION_METIS && P > 1) assert_true(rep.edge_cut < hash_cut[P]);
      fo_partition_report_free(&rep);
      assert_fo_ok(fo_dataset_open(out, NULL, &pd));
      assert_fo_ok(fo_dataset_verify(pd));
      batch_hashes(pd, got);
      for (int c = 0; c < 16; c++)
        if (got[c] != want[c])
          fail_msg("%s: batch %d differs from the unpartitioned dataset's", name, c);
      assert_true(epoch_digest(pd, 1) == want_epoch);
      assert_true(epoch_digest(pd, 3) == want_epoch);
      fo_dataset_close(pd);
      free(out);
    }
  fo_dataset_close(d);
  free(g);
  fot_rmtree(tmp);
  free(pa);
  free(pc);
  free(pt);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(dblp_partitioned)};
  if (!have_shared()) {
    printf("skipped: dblp-hetero not found in the shared data directory (set FO_SHARED_DATA)\n");
    return 77;
  }
  return cmocka_run_group_tests(tests, NULL, NULL);
}
