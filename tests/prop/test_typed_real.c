/*
 * tests/prop/test_typed_real.c: the typed sampler on the real typed graphs of ../shared/data
 * (DBLP with reverse edge types, WordNet with its parts of speech as node types, Debian's
 * package relations with virtual packages as a second node type), against the typed
 * reference (tests/support/typed.c) and its invariants, and loader digests equal for 1, 2 and
 * 8 threads. Skipped (exit 77) when the shared data is absent.
 */
#include "support.h"

typedef struct real {
  char *tmp, *dir;
  fo_dataset_t *d;
} real;

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

static void open_imported(real *r, const char *const *in, int n_in, const fo_import_opts *o) {
  fo_import_report rep;
  r->tmp = fot_tmpdir();
  r->dir = fot_path(r->tmp, "g");
  assert_fo_ok(fo_import(in, n_in, r->dir, o, &rep));
  assert_fo_ok(fo_dataset_open(r->dir, NULL, &r->d));
  assert_true(fo_dataset_is_typed(r->d));
}

static void close_real(real *r) {
  fo_dataset_close(r->d);
  free(r->dir);
  fot_rmtree(r->tmp);
}

/* Random batches from every node type with some in-edges: sampler == reference, invariants. */
static void sample_cases(const fo_dataset_t *d, uint64_t seed, bool csr) {
  const int32_t T = fo_dataset_num_node_types(d);
  uint64_t st = seed;
  for (int c = 0; c < 24; c++) {
    fo_sampler_opts o;
    fo_sampler_t *s;
    fo_batch_t *b;
    fot_ref_typed r;
    int32_t t = (int32_t)(fot_rand(&st) % (uint64_t)T);
    int64_t n_t = fo_dataset_num_nodes(fo_dataset_node_data(d, t)), seeds[6], n;
    const char *why;
    static const int32_t fan[3][2] = {{5, 3}, {-1, 2}, {10, 0}};
    if (!n_t) continue;
    fot_note_seed(seed + (uint64_t)c);
    fo_sampler_opts_init(&o);
    o.fanouts = fan[c % 3];
    o.n_hops = 2;
    o.replace = c % 4 == 1;
    o.disjoint = c % 5 == 2;
    o.edge_dir = csr && c % 2 ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
    o.seed = seed + (uint64_t)c;
    n = 1 + (int64_t)(fot_rand(&st) % 6);
    for (int64_t i = 0; i < n; i++) seeds[i] = (int64_t)(fot_rand(&st) % (uint64_t)n_t);
    assert_fo_ok(fo_sampler_create(d, &o, &s));
    assert_fo_ok(fo_batch_create(&b));
    assert_fo_ok(fo_sampler_sample_typed(s, t, seeds, n, (uint64_t)c, 3, b));
    assert_fo_ok(fot_ref_sample_typed(d, &o, t, seeds, n, (uint64_t)c, 3, &r));
    fot_assert_same_typed(b, &r);
    fot_ref_typed_free(&r);
    if ((why = fot_check_typed(d, &o, t, seeds, n, b))) fail_msg("invariant: %s", why);
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
  }
}

/* The digest of two epochs of the loader over node type `type`, with `threads` workers. */
static uint64_t epoch_digest(const fo_dataset_t *d, const char *type, const char *split,
                             int32_t threads) {
  fo_loader_opts o;
  fo_loader_t *L;
  fo_loader_batch_t *b;
  uint64_t ds[256];
  int64_t n = 0;
  fo_loader_opts_init(&o);
  o.sampler.fanouts = (const int32_t[]){8, 4};
  o.sampler.n_hops = 2;
  o.sampler.seed = 5;
  o.batch_size = 256;
  o.shuffle = true;
  o.input_type = type;
  o.split = split;
  o.num_workers = threads;
  assert_fo_ok(fo_loader_create(d, &o, &L));
  for (int e = 0; e < 2; e++) {
    if (e) assert_fo_ok(fo_loader_start_epoch(L, 1));
    for (int k = 0; k < 8 && fo_loader_next(L, &b) == FO_OK && b; k++) {
      assert_true(n < 256);
      ds[n++] = fo_loader_batch_digest(b);
      fo_loader_release(L, b);
    }
  }
  fo_loader_destroy(L);
  return fo_digest_sequence(ds, n);
}

static void digests_agree(const fo_dataset_t *d, const char *type) {
  uint64_t one = epoch_digest(d, type, NULL, 1);
  assert_true(epoch_digest(d, type, NULL, 2) == one);
  assert_true(epoch_digest(d, type, NULL, 8) == one);
}

static void dblp(void **state) {
  const char *dir = fot_shared_data_dir();
  char *pa = fot_path(dir, "dblp-hetero/dblp_paper_author.tsv.gz");
  char *pc = fot_path(dir, "dblp-hetero/dblp_paper_conference.tsv.gz");
  char *pt = fot_path(dir, "dblp-hetero/dblp_paper_term.tsv.gz");
  fo_import_edge_type et[3] = {{"paper", "writes", "author", pa},
                               {"paper", "published_in", "conference", pc},
                               {"paper", "has_term", "term", pt}};
  fo_import_opts o;
  real r;
  (void)state;
  fo_import_opts_init(&o);
  o.edge_types = et;
  o.n_edge_types = 3;
  o.reverse_edges = true;
  o.csr = true;
  open_imported(&r, NULL, 0, &o);
  assert_int_equal(fo_dataset_num_edge_types(r.d), 6);
  sample_cases(r.d, 1600, true);
  digests_agree(r.d, "author");
  close_real(&r);
  free(pa);
  free(pc);
  free(pt);
}

static void wordnet(void **state) {
  char *edges = fot_path(fot_shared_data_dir(), "wordnet30/wordnet30_edges.tsv.gz");
  char *nodes = fot_path(fot_shared_data_dir(), "wordnet30/wordnet30_nodes.tsv.gz");
  const char *in[1] = {edges};
  fo_import_opts o;
  real r;
  (void)state;
  fo_import_opts_init(&o);
  o.edge_type_column = 1;
  o.src_column = 0;
  o.dst_column = 2;
  o.string_ids = true;
  o.node_types = nodes;
  open_imported(&r, in, 1, &o);
  assert_int_equal(fo_dataset_num_node_types(r.d), 5);
  sample_cases(r.d, 2600, false);
  digests_agree(r.d, "n");
  close_real(&r);
  free(edges);
  free(nodes);
}

static void debian(void **state) {
  char *edges = fot_path(fot_shared_data_dir(), "debian-deps-bookworm/debian_bookworm_amd64_edges.tsv.gz");
  char *nodes = fot_path(fot_shared_data_dir(), "debian-deps-bookworm/debian_bookworm_amd64_nodes.tsv.gz");
  const char *in[1] = {edges};
  fo_import_node_type nt = {"package", -1, nodes, NULL, NULL, NULL};
  fo_import_opts o;
  real r;
  (void)state;
  fo_import_opts_init(&o);
  o.edge_type_column = 1;
  o.src_column = 0;
  o.dst_column = 2;
  o.string_ids = true;
  o.node_type_opts = &nt;
  o.n_node_type_opts = 1;
  o.default_node_type = "virtual";
  o.csr = true;
  open_imported(&r, in, 1, &o);
  assert_int_equal(fo_dataset_num_edge_types(r.d), 18);
  sample_cases(r.d, 3600, true);
  digests_agree(r.d, "package");
  close_real(&r);
  free(edges);
  free(nodes);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(dblp), cmocka_unit_test(wordnet),
                                     cmocka_unit_test(debian)};
  if (!have_shared()) {
    printf("shared data directory absent (set FO_SHARED_DATA): skipped\n");
    return 77;
  }
  return cmocka_run_group_tests(tests, NULL, NULL);
}
