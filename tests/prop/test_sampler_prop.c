/*
 * tests/prop/test_sampler_prop.c: property tests of the sampler against the slow reference
 * (tests/support/ref_sampler.c) and the invariant checker, on random multigraphs and on real
 * graphs.
 *
 * Every random case prints FO_TEST_SEED=<n> first; `FO_TEST_SEED=<n> ./test_sampler_prop`
 * reruns just that case (in each test that draws from the seed). A case draws a random
 * multigraph (self loops, repeated edges, nodes of degree 0, sometimes hubs of degree > 32 so
 * that Floyd's hash-set branch runs), imports it with CSC and CSR at a random index width, then
 * samples several random configurations (fanouts -1, 0, small, above the degree; replace on/off;
 * disjoint on/off; edge_dir in/out; seeds with duplicates). Each batch must equal the
 * reference's exactly and pass fot_check_batch.
 *
 * The reference's id lookup is linear and the checker is quadratic in the batch's nodes, so
 * batches stay small (a few thousand nodes at most).
 *
 * Known library bug (reported): with replace = true, fanout -1 makes `degree` random draws
 * instead of taking every neighbor in stored order. Random configurations below avoid -1 with
 * replacement (so that the rest is still checked) and one dedicated test,
 * random_graphs_replace_fanout_all, covers that combination and fails until it is fixed.
 */
#include "support.h"

#define N_GRAPH_CASES 1000
#define CONFIGS_PER_GRAPH 8

static const fo_index_dtype dtypes[3] = {FO_INDEX_AUTO, FO_INDEX_INT32, FO_INDEX_INT64};

static uint64_t below(uint64_t *st, uint64_t n) { return fot_rand(st) % n; }

/* Coverage counters of the random cases, checked so that the generator keeps reaching the
 * harder paths: rows longer than 64 sampled without replacement with a fanout <= 32 and > 32
 * (the implementation's two Floyd variants for long rows; shorter rows use a bit mask), and
 * draws with replacement where the fanout exceeds the degree. */
static int64_t n_long_small, n_long_big, n_replace_over;

static void count_coverage(const fo_dataset_t *d, const fo_sampler_opts *o, const fo_batch_t *b) {
  fo_topology t;
  int64_t fb = 0;
  assert_fo_ok(fo_dataset_topology(d, o->edge_dir, &t));
  for (int h = 0; h < o->n_hops; h++) {
    int64_t fe = fb + b->num_sampled_nodes[h];
    int32_t f = o->fanouts[h];
    for (int64_t i = fb; i < fe; i++) {
      int64_t deg = t.indptr[b->node[i] + 1] - t.indptr[b->node[i]];
      if (!o->replace && deg > 64 && f > 0 && f <= 32 && f < deg) n_long_small++;
      if (!o->replace && deg > 64 && f > 32 && f < deg) n_long_big++;
      if (o->replace && f > deg && deg > 0) n_replace_over++;
    }
    fb = fe;
  }
}

/* Sample with a fresh sampler and batch and compare with the reference + invariants. */
static void check_one(const fo_dataset_t *d, const fo_sampler_opts *o, const int64_t *seeds,
                      int64_t n_seeds, uint64_t epoch, uint64_t batch_index, fo_sampler_t *s,
                      fo_batch_t *b) {
  fot_ref_batch r;
  const char *why;
  assert_fo_ok(fo_sampler_sample(s, seeds, n_seeds, epoch, batch_index, b));
  assert_int_equal(b->n_seeds, n_seeds);
  assert_int_equal(b->n_hops, o->n_hops);
  assert_int_equal(b->disjoint, o->disjoint);
  if (o->disjoint) assert_non_null(b->batch);
  assert_fo_ok(fot_ref_sample(d, o, seeds, n_seeds, epoch, batch_index, &r));
  fot_assert_same_batch(b, &r);
  fot_ref_free(&r);
  why = fot_check_batch(d, o, seeds, n_seeds, b);
  if (why) fail_msg("invariant broken: %s", why);
  count_coverage(d, o, b);
}

/* Print a configuration (only when rerunning one case with FO_TEST_SEED: keeps logs short). */
static void describe(const fo_sampler_opts *o, int64_t n_seeds) {
  if (!getenv("FO_TEST_SEED")) return;
  printf("  hops %d fanouts", (int)o->n_hops);
  for (int h = 0; h < o->n_hops; h++) printf(" %d", (int)o->fanouts[h]);
  printf(" replace %d disjoint %d dir %s seed %llu n_seeds %lld\n", o->replace, o->disjoint,
         o->edge_dir == FO_EDGE_DIR_IN ? "in" : "out", (unsigned long long)o->seed,
         (long long)n_seeds);
  fflush(stdout); /* keep the case description ahead of a failure message on stderr */
}

/* One random graph and CONFIGS_PER_GRAPH random configurations. `replace_all`: every config
 * uses replacement with some fanout -1 (the bug case). */
static void random_case(uint64_t seed, bool replace_all, int64_t *n_batches) {
  static const int32_t fan_choices[] = {-1, 0, 1, 1, 2, 2, 3, 5, 8, 33, 40, 1000};
  uint64_t st = seed;
  fot_edges e;
  char *dir;
  fo_dataset_t *d;
  int64_t n, m;
  int shape = (int)below(&st, 4);
  fot_note_seed(seed);
  fflush(stdout);
  if (shape == 0) { /* tiny and dense: hubs, many parallel edges and self loops */
    n = 1 + (int64_t)below(&st, 5);
    m = 40 + (int64_t)below(&st, 260);
  } else if (shape == 1) { /* sparse: many nodes of degree 0 */
    n = 1 + (int64_t)below(&st, 60);
    m = (int64_t)below(&st, (uint64_t)n + 1);
  } else {
    n = 1 + (int64_t)below(&st, 80);
    m = (int64_t)below(&st, (uint64_t)(6 * n + 1));
  }
  fot_random(n, m, fot_rand(&st), &e);
  e.n += (int64_t)below(&st, 3); /* isolated nodes at the end */
  n = e.n;
  fot_dataset(&e, true, true, dtypes[below(&st, 3)], &dir, &d);
  for (int c = 0; c < CONFIGS_PER_GRAPH; c++) {
    int32_t fans[4];
    int64_t seeds[12];
    fo_sampler_opts o;
    fo_sampler_t *s;
    fo_batch_t *b;
    int64_t n_seeds = (int64_t)below(&st, 13);
    uint64_t epoch = below(&st, 4), bi = fot_rand(&st);
    fo_sampler_opts_init(&o);
    o.n_hops = 1 + (int32_t)below(&st, 3);
    o.replace = replace_all || below(&st, 2);
    o.disjoint = below(&st, 2);
    o.edge_dir = below(&st, 2) ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
    o.seed = below(&st, 3) ? below(&st, 4) : fot_rand(&st);
    for (int h = 0; h < o.n_hops; h++) {
      fans[h] = fan_choices[below(&st, sizeof fan_choices / sizeof *fan_choices)];
      if (o.replace && fans[h] > 40) fans[h] = 40; /* keep batches small */
    }
    if (replace_all) fans[below(&st, (uint64_t)o.n_hops)] = -1;
    o.fanouts = fans;
    for (int64_t i = 0; i < n_seeds; i++)
      seeds[i] = i > 0 && below(&st, 4) == 0 ? seeds[below(&st, (uint64_t)i)] /* duplicate */
                                              : (int64_t)below(&st, (uint64_t)n);
    describe(&o, n_seeds);
    assert_fo_ok(fo_sampler_create(d, &o, &s));
    assert_fo_ok(fo_batch_create(&b));
    check_one(d, &o, seeds, n_seeds, epoch, bi, s, b);
    /* the same sampler and batch again with another key and a prefix of the seeds */
    check_one(d, &o, seeds, n_seeds / 2, epoch + 1, bi ^ 1, s, b);
    *n_batches += 2;
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
  }
  fo_dataset_close(d);
  fot_rmtree(dir);
  fot_edges_free(&e);
}

static void run_cases(uint64_t base, int n_cases, bool replace_all) {
  int64_t n_batches = 0;
  if (getenv("FO_TEST_SEED")) {
    random_case(fot_seed(0), replace_all, &n_batches);
    return;
  }
  n_long_small = n_long_big = n_replace_over = 0;
  for (int i = 0; i < n_cases; i++) random_case(base + (uint64_t)i, replace_all, &n_batches);
  printf("%d graphs, %lld batches checked; rows > 64 without replacement: %lld with fanout "
         "<= 32, %lld with fanout > 32; %lld draws with replacement beyond the degree\n",
         n_cases, (long long)n_batches, (long long)n_long_small, (long long)n_long_big,
         (long long)n_replace_over);
  if (!replace_all) {
    assert_true(n_long_small > 100);
    assert_true(n_long_big > 100);
    assert_true(n_replace_over > 100);
  }
}

static void random_graphs(void **state) {
  (void)state;
  run_cases(1000, N_GRAPH_CASES, false);
}

/* Replace + fanout -1 takes all neighbors in stored order (a past bug drew `degree` times). */
static void random_graphs_replace_fanout_all(void **state) {
  (void)state;
  run_cases(900000, 20, true);
}

/* ---- real graphs --------------------------------------------------------------------------- */

typedef struct real_graph {
  const char *name;
  char *tmp;
  fo_dataset_t *d;
} real_graph;

/* Import `inputs` (paths relative to `base`) into a temp dir with CSC and CSR; NULL base or a
 * missing input -> *skipped. */
static void import_real(const char *base, const char *const *rel, int n_in, fo_format fmt,
                        bool undirected, real_graph *g) {
  fo_import_opts io;
  char *paths[2], *out;
  fo_import_report rep;
  fo_import_opts_init(&io);
  io.format = fmt;
  io.undirected = undirected;
  io.csc = true;
  io.csr = true;
  for (int i = 0; i < n_in; i++) paths[i] = fot_path(base, rel[i]);
  g->tmp = fot_tmpdir();
  out = fot_path(g->tmp, "g");
  assert_fo_ok(fo_import((const char *const *)paths, n_in, out, &io, &rep));
  assert_fo_ok(fo_dataset_open(out, NULL, &g->d));
  printf("%s: %lld nodes, %lld edges\n", g->name, (long long)rep.n_nodes, (long long)rep.n_edges);
  for (int i = 0; i < n_in; i++) free(paths[i]);
  free(out);
}

static void close_real(real_graph *g) {
  fo_dataset_close(g->d);
  fot_rmtree(g->tmp);
  g->d = NULL;
  g->tmp = NULL;
}

static bool have_file(const char *base, const char *rel) {
  char *p;
  FILE *f;
  if (!base) return false;
  p = fot_path(base, rel);
  f = fopen(p, "rb");
  free(p);
  if (f) fclose(f);
  return f != NULL;
}

/* Batches on a real graph: each configuration below, a few batches with random seeds. Sizes
 * keep the reference (linear lookups) and the checker (quadratic) fast. */
static void sample_real(const real_graph *g, uint64_t case_seed, bool both_dirs) {
  static const int32_t f2[] = {10, 5}, f3[] = {15, 10, 5}, fall[] = {-1, 3}, fbig[] = {40, 2};
  static const struct {
    const int32_t *fans;
    int32_t n_hops;
    int64_t n_seeds;
    bool replace, disjoint;
  } cfg[] = {
      {f2, 2, 64, false, false}, {f2, 2, 48, true, false}, {f2, 2, 16, false, true},
      {f2, 2, 16, true, true},   {f3, 3, 16, false, false}, {f3, 3, 16, true, false},
      {fall, 2, 32, false, false}, {fbig, 2, 24, false, false},
  };
  const int64_t n = fo_dataset_num_nodes(g->d);
  uint64_t seed = fot_seed(case_seed), st = seed;
  fot_note_seed(seed);
  fflush(stdout);
  for (int dir = 0; dir < (both_dirs ? 2 : 1); dir++) {
    for (size_t c = 0; c < sizeof cfg / sizeof *cfg; c++) {
      fo_sampler_opts o;
      fo_sampler_t *s;
      fo_batch_t *b;
      int64_t seeds[64];
      fo_sampler_opts_init(&o);
      o.fanouts = cfg[c].fans;
      o.n_hops = cfg[c].n_hops;
      o.replace = cfg[c].replace;
      o.disjoint = cfg[c].disjoint;
      o.edge_dir = dir ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
      o.seed = fot_rand(&st);
      assert_fo_ok(fo_sampler_create(g->d, &o, &s));
      assert_fo_ok(fo_batch_create(&b));
      for (uint64_t bi = 0; bi < 2; bi++) {
        for (int64_t i = 0; i < cfg[c].n_seeds; i++)
          seeds[i] = i > 0 && below(&st, 16) == 0 ? seeds[i - 1] : (int64_t)below(&st, (uint64_t)n);
        check_one(g->d, &o, seeds, cfg[c].n_seeds, below(&st, 100), bi, s, b);
      }
      fo_batch_destroy(b);
      fo_sampler_destroy(s);
    }
  }
}

static void real_cora(void **state) {
  static const char *const in[] = {"cora/cora.content.gz", "cora/cora.cites"};
  real_graph g = {.name = "cora"};
  (void)state;
  import_real(fot_data_dir(), in, 2, FO_FORMAT_PLANETOID, true, &g);
  assert_int_equal(fo_dataset_num_nodes(g.d), 2708);
  assert_int_equal(fo_dataset_num_edges(g.d), 10556);
  sample_real(&g, 1, true);
  close_real(&g);
}

static void real_citeseer(void **state) {
  static const char *const in[] = {"citeseer/citeseer.content.gz", "citeseer/citeseer.cites"};
  real_graph g = {.name = "citeseer"};
  (void)state;
  /* undirected, self loops kept: they are ordinary edges */
  import_real(fot_data_dir(), in, 2, FO_FORMAT_PLANETOID, true, &g);
  assert_int_equal(fo_dataset_num_nodes(g.d), 3327);
  sample_real(&g, 2, true);
  close_real(&g);
}

static void real_facebook(void **state) {
  static const char *const in[] = {"facebook-combined/facebook_combined.tsv.gz"};
  real_graph g = {.name = "facebook-combined"};
  (void)state;
  import_real(fot_data_dir(), in, 1, FO_FORMAT_EDGELIST, true, &g);
  assert_int_equal(fo_dataset_num_nodes(g.d), 4039);
  assert_int_equal(fo_dataset_num_edges(g.d), 176468);
  sample_real(&g, 3, true);
  close_real(&g);
}

static void real_email_enron(void **state) {
  static const char *const in[] = {"email-enron/email-Enron.undirected.tsv.gz"};
  const char *base = fot_shared_data_dir();
  real_graph g = {.name = "email-enron"};
  (void)state;
  if (!have_file(base, in[0])) {
    printf("email-enron: ../shared/data/%s absent: skipped\n", in[0]);
    skip();
  }
  import_real(base, in, 1, FO_FORMAT_EDGELIST, true, &g);
  assert_int_equal(fo_dataset_num_nodes(g.d), 36692);
  assert_int_equal(fo_dataset_num_edges(g.d), 2 * 183831);
  sample_real(&g, 4, false);
  close_real(&g);
}

static void real_cit_hepph(void **state) {
  static const char *const in[] = {"cit-hepph/cit-HepPh.tsv.gz"};
  const char *base = fot_shared_data_dir();
  real_graph g = {.name = "cit-hepph"};
  (void)state;
  if (!have_file(base, in[0])) {
    printf("cit-hepph: ../shared/data/%s absent: skipped\n", in[0]);
    skip();
  }
  import_real(base, in, 1, FO_FORMAT_EDGELIST, false, &g); /* directed: in and out differ */
  assert_int_equal(fo_dataset_num_nodes(g.d), 34546);
  assert_int_equal(fo_dataset_num_edges(g.d), 421578);
  sample_real(&g, 5, true);
  close_real(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(random_graphs),
      cmocka_unit_test(random_graphs_replace_fanout_all),
      cmocka_unit_test(real_cora),
      cmocka_unit_test(real_citeseer),
      cmocka_unit_test(real_facebook),
      cmocka_unit_test(real_email_enron),
      cmocka_unit_test(real_cit_hepph),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
