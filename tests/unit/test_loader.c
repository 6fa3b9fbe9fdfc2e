/*
 * tests/unit/test_loader.c: the neighbor loader (include/fanout/loader.h).
 *
 * The loader's contract is that batch b of epoch e is a pure function of (dataset, options, e,
 * b): fo_sampler_sample(seeds of b, e, b) plus the feature rows of its nodes and the labels of
 * its seeds, where the seeds are input_nodes[order[b * bs ...]] and order is
 * fo_random_permutation(n, seed, e) with shuffle, the identity without. So every batch is
 * checked against the sampler called directly (check_batch), and sequences of batch digests
 * are compared across worker counts, prefetch depths, epoch restarts and held batches.
 * Then: epoch coverage and batch counts, the input sources (ids, splits, all nodes) and their
 * errors, x/y gather for every stored dtype, a worker's FO_EFORMAT travelling with its batch,
 * a consumer holding every batch, steady-state slot reuse, destroy at any point, and a
 * concurrency smoke test. The file also runs under ThreadSanitizer (label "threads").
 *
 * Datasets: SMALL (a random multigraph with float32 features, labels with -1 and three
 * splits, written as .npy files here), Cora (data/cora, planetoid import) and tiny fixtures.
 */
#include "support.h"

#include <math.h>

#include "store/store_internal.h"

#include <pthread.h>
#include <xxhash.h>

#define N_OF(a) ((int64_t)(sizeof(a) / sizeof((a)[0])))

/* ---- datasets ---------------------------------------------------------------------------- */

typedef fot_ds ds;

static void ds_open(ds *g) {
  g->d = NULL;
  assert_fo_ok(fo_dataset_open(g->dir, NULL, &g->d));
}

#define SMALL_N 400
#define SMALL_M 2400
#define SMALL_D 6

/* A random multigraph on n nodes with m edges, float32 features [n, D] (random values in
 * [-2, 2)), int64 labels (v % 7, or -1 when v % 11 == 0) and splits train (v % 3 == 0),
 * val (v % 3 == 1, descending) and test (v % 5 == 2), imported with feature dtype `fdt`. */
static void make_small(ds *g, int64_t n, int64_t m, fo_feature_dtype fdt, uint64_t seed) {
  fot_edges e;
  fo_import_opts o;
  float *x = malloc((size_t)(n * SMALL_D) * sizeof *x);
  int64_t *y = malloc((size_t)n * sizeof *y), *tr = malloc((size_t)n * 8), *va = malloc((size_t)n * 8),
          *te = malloc((size_t)n * 8);
  fot_nodedata nd = {.x = x, .dim = SMALL_D, .y = y, .train = tr, .val = va, .test = te};
  uint64_t st = seed;
  fot_random(n, m, seed, &e);
  for (int64_t i = 0; i < n * SMALL_D; i++)
    x[i] = (float)((int64_t)(fot_rand(&st) % 4096) - 2048) / 1024.0f;
  for (int64_t v = 0; v < n; v++) {
    y[v] = v % 11 == 0 ? -1 : v % 7;
    if (v % 3 == 0) tr[nd.n_train++] = v;
    if (v % 5 == 2) te[nd.n_test++] = v;
  }
  for (int64_t v = n - 1; v >= 0; v--)
    if (v % 3 == 1) va[nd.n_val++] = v;
  fo_import_opts_init(&o);
  o.num_nodes = n;
  o.feature_dtype = fdt;
  fot_ds_edges(g, &e, &nd, &o);
  fot_edges_free(&e);
  free(x);
  free(y);
  free(tr);
  free(va);
  free(te);
}

/* Topology only (no node data): import `e` into a fresh dir, CSC and CSR. */
static void make_plain(ds *g, const fot_edges *e) {
  fo_import_opts o;
  fo_import_opts_init(&o);
  o.num_nodes = e->n;
  o.csr = true;
  fot_ds_edges(g, e, NULL, &o);
}

/* ---- corrupting an array (as in test_store.c) ---------------------------------------------- */

/* Set element i of the 1-D integer array `name` of dataset dir `dir` to v and store the new
 * xxh64 in the manifest, so that open (and the checksum check) still pass. */
static int64_t array_elem(const fo_dataset_t *d, const char *name, int64_t i) {
  fo_array_info a;
  assert_fo_ok(fo_dataset_array(d, name, &a));
  assert_true(i >= 0 && i < a.shape[0]);
  return a.itemsize == 4 ? ((const int32_t *)a.data)[i] : ((const int64_t *)a.data)[i];
}

/* ---- shared datasets (group setup) ------------------------------------------------------- */

static ds SMALL; /* make_small(SMALL_N, SMALL_M, float32) */
static ds CORA;  /* fot_ds_cora(float32) */

static int group_setup(void **state) {
  (void)state;
  make_small(&SMALL, SMALL_N, SMALL_M, FO_FEATURES_AUTO, 42);
  fot_ds_cora(&CORA, FO_FEATURES_AUTO);
  return 0;
}

static int group_teardown(void **state) {
  (void)state;
  fot_ds_close(&SMALL);
  fot_ds_close(&CORA);
  return 0;
}

/* ---- loader helpers ---------------------------------------------------------------------- */

static const int32_t FAN2[2] = {4, 3};

static fo_loader_opts lopts(int64_t bs, int32_t workers, int32_t prefetch) {
  fo_loader_opts o;
  fo_loader_opts_init(&o);
  o.sampler.fanouts = FAN2;
  o.sampler.n_hops = 2;
  o.sampler.seed = 7;
  o.batch_size = bs;
  o.num_workers = workers;
  o.prefetch = prefetch;
  return o;
}

static fo_loader_t *create_ok(const fo_dataset_t *d, const fo_loader_opts *o) {
  fo_loader_t *L = NULL;
  assert_fo_ok(fo_loader_create(d, o, &L));
  assert_non_null(L);
  return L;
}

/* The digest as loader.h defines it, computed here independently. */
static uint64_t my_digest(const fo_loader_batch_t *b) {
  XXH64_state_t *st = XXH64_createState();
  const fo_batch_t *s = b->sample;
  uint64_t h;
  XXH64_reset(st, 0);
  XXH64_update(st, s->node, (size_t)s->n_nodes * 8);
  XXH64_update(st, s->row, (size_t)s->n_edges * 8);
  XXH64_update(st, s->col, (size_t)s->n_edges * 8);
  XXH64_update(st, s->edge, (size_t)s->n_edges * 8);
  if (b->x) XXH64_update(st, b->x, (size_t)(s->n_nodes * b->x_dim * b->x_itemsize));
  if (b->y) XXH64_update(st, b->y, (size_t)b->batch_size * 8);
  h = XXH64_digest(st);
  XXH64_freeState(st);
  return h;
}

/* Run the rest of the current epoch: digests of batches in order (index checked), released one
 * by one; the epoch must end with a NULL batch (twice). Returns the number of batches. */
static int64_t epoch_digests(fo_loader_t *L, uint64_t *dg, int64_t cap, int64_t first_index) {
  fo_loader_batch_t *b;
  int64_t k = 0;
  for (;;) {
    assert_fo_ok(fo_loader_next(L, &b));
    if (!b) break;
    assert_int_equal(b->index, first_index + k);
    if (k >= cap) fail_msg("more than %lld batches", (long long)cap);
    dg[k++] = fo_loader_batch_digest(b);
    fo_loader_release(L, b);
  }
  for (int i = 0; i < 2; i++) {
    b = (fo_loader_batch_t *)&b;
    assert_fo_ok(fo_loader_next(L, &b));
    assert_null(b);
  }
  return k;
}

/* Digest of `epochs` whole epochs (o->epoch, o->epoch + 1, ...) of a fresh loader. */
static uint64_t run_seq(const fo_dataset_t *d, const fo_loader_opts *o, int epochs,
                        int64_t *n_out) {
  fo_loader_t *L = create_ok(d, o);
  int64_t nb = fo_loader_num_batches(L), n = 0;
  uint64_t *dg = malloc((size_t)(nb * epochs + 1) * sizeof *dg), h;
  for (int e = 0; e < epochs; e++) {
    if (e > 0) assert_fo_ok(fo_loader_start_epoch(L, o->epoch + (uint64_t)e));
    assert_int_equal(epoch_digests(L, dg + n, nb, 0), nb);
    n += nb;
  }
  h = fo_digest_sequence(dg, n);
  if (n_out) *n_out = n;
  free(dg);
  fo_loader_destroy(L);
  return h;
}

/* The inputs a loader over `d` with options `o` should use (malloc'ed; *n their number). */
static int64_t *expected_inputs(const fo_dataset_t *d, const fo_loader_opts *o, int64_t *n) {
  int64_t *in;
  if (o->input_nodes) {
    *n = o->n_input_nodes;
    in = malloc((size_t)(*n + 1) * 8);
    memcpy(in, o->input_nodes, (size_t)*n * 8);
  } else if (o->split) {
    const int64_t *ids;
    assert_fo_ok(fo_dataset_split(d, o->split, &ids, n));
    in = malloc((size_t)(*n + 1) * 8);
    memcpy(in, ids, (size_t)*n * 8);
  } else {
    *n = fo_dataset_num_nodes(d);
    in = malloc((size_t)(*n + 1) * 8);
    for (int64_t i = 0; i < *n; i++) in[i] = i;
  }
  return in;
}

/* This epoch's order of input positions (malloc'ed). */
static int64_t *expected_order(int64_t n, const fo_loader_opts *o, uint64_t epoch) {
  int64_t *order = malloc((size_t)(n + 1) * 8);
  if (o->shuffle) assert_fo_ok(fo_random_permutation(n, o->sampler.seed, epoch, order));
  else
    for (int64_t i = 0; i < n; i++) order[i] = i;
  return order;
}

static void same_i64(const char *what, int64_t index, const int64_t *got, const int64_t *want,
                     int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (got[i] != want[i])
      fail_msg("batch %lld: %s[%lld] = %lld, expected %lld", (long long)index, what, (long long)i,
               (long long)got[i], (long long)want[i]);
}

/* Batch `b` must be exactly what loader.h promises: seeds input_nodes[order[off + i]],
 * input_id = order[off + i], the sample equal to fo_sampler_sample(seeds, epoch, index) (with
 * sampler `s` over the same options, into scratch `ref`), x = the feature rows of node, y = the
 * labels of the seeds, and the digest as specified. */
static void check_batch(const fo_dataset_t *d, const fo_loader_opts *o, const int64_t *inputs,
                        int64_t n_inputs, const int64_t *order, uint64_t epoch,
                        const fo_loader_batch_t *b, fo_sampler_t *s, fo_batch_t *ref) {
  const fo_batch_t *smp = b->sample;
  const int64_t bs = o->batch_size, off = b->index * bs;
  const int64_t k = n_inputs - off < bs ? n_inputs - off : bs;
  int64_t *seeds;
  assert_int_equal(b->epoch, epoch);
  assert_true(b->index >= 0 && off < n_inputs);
  assert_non_null(smp);
  assert_int_equal(b->batch_size, k);
  assert_int_equal(smp->n_seeds, k);
  seeds = malloc((size_t)(k + 1) * 8);
  for (int64_t i = 0; i < k; i++) {
    if (b->input_id[i] != order[off + i])
      fail_msg("batch %lld: input_id[%lld] = %lld, expected %lld", (long long)b->index,
               (long long)i, (long long)b->input_id[i], (long long)order[off + i]);
    seeds[i] = inputs[order[off + i]];
  }
  same_i64("seed node", b->index, smp->node, seeds, k);
  assert_fo_ok(fo_sampler_sample(s, seeds, k, epoch, (uint64_t)b->index, ref));
  assert_int_equal(smp->n_nodes, ref->n_nodes);
  assert_int_equal(smp->n_edges, ref->n_edges);
  assert_int_equal(smp->n_hops, ref->n_hops);
  assert_int_equal(smp->disjoint, ref->disjoint);
  same_i64("node", b->index, smp->node, ref->node, ref->n_nodes);
  same_i64("row", b->index, smp->row, ref->row, ref->n_edges);
  same_i64("col", b->index, smp->col, ref->col, ref->n_edges);
  same_i64("edge", b->index, smp->edge, ref->edge, ref->n_edges);
  same_i64("num_sampled_nodes", b->index, smp->num_sampled_nodes, ref->num_sampled_nodes,
           ref->n_hops + 1);
  same_i64("num_sampled_edges", b->index, smp->num_sampled_edges, ref->num_sampled_edges,
           ref->n_hops);
  if (ref->disjoint) {
    assert_non_null(smp->batch);
    same_i64("batch", b->index, smp->batch, ref->batch, ref->n_nodes);
  }
  if (o->features && fo_dataset_has_features(d)) {
    fo_features f;
    size_t rb;
    assert_fo_ok(fo_dataset_features(d, &f));
    rb = (size_t)(f.dim * f.itemsize);
    assert_non_null(b->x);
    assert_int_equal(b->x_dim, f.dim);
    assert_int_equal(b->x_itemsize, f.itemsize);
    assert_non_null(b->x_dtype);
    assert_string_equal(b->x_dtype, f.dtype);
    for (int64_t i = 0; i < smp->n_nodes; i++)
      if (memcmp((const unsigned char *)b->x + (size_t)i * rb,
                 (const unsigned char *)f.data + (size_t)smp->node[i] * rb, rb))
        fail_msg("batch %lld: x row %lld differs from feature row of node %lld",
                 (long long)b->index, (long long)i, (long long)smp->node[i]);
  } else {
    assert_null(b->x);
  }
  if (o->labels && fo_dataset_has_labels(d)) {
    const int64_t *y;
    int64_t n;
    assert_fo_ok(fo_dataset_labels(d, &y, &n, NULL));
    assert_non_null(b->y);
    for (int64_t i = 0; i < k; i++)
      if (b->y[i] != y[seeds[i]])
        fail_msg("batch %lld: y[%lld] = %lld, label of node %lld is %lld", (long long)b->index,
                 (long long)i, (long long)b->y[i], (long long)seeds[i], (long long)y[seeds[i]]);
  } else {
    assert_null(b->y);
  }
  assert_true(fo_loader_batch_digest(b) == my_digest(b));
  free(seeds);
}

/* A checker bound to one loader configuration. */
typedef struct checker {
  const fo_dataset_t *d;
  fo_loader_opts o;
  int64_t *inputs, n_inputs, *order;
  uint64_t epoch;
  fo_sampler_t *s;
  fo_batch_t *ref;
} checker;

static void checker_init(checker *c, const fo_dataset_t *d, const fo_loader_opts *o) {
  memset(c, 0, sizeof *c);
  c->d = d;
  c->o = *o;
  c->inputs = expected_inputs(d, o, &c->n_inputs);
  c->o.input_nodes = c->inputs; /* the caller's array may change; ours does not */
  c->epoch = o->epoch;
  c->order = expected_order(c->n_inputs, o, c->epoch);
  assert_fo_ok(fo_sampler_create(d, &o->sampler, &c->s));
  assert_fo_ok(fo_batch_create(&c->ref));
}

static void checker_epoch(checker *c, uint64_t epoch) {
  free(c->order);
  c->epoch = epoch;
  c->order = expected_order(c->n_inputs, &c->o, epoch);
}

static void checker_check(checker *c, const fo_loader_batch_t *b) {
  check_batch(c->d, &c->o, c->inputs, c->n_inputs, c->order, c->epoch, b, c->s, c->ref);
}

static void checker_free(checker *c) {
  free(c->inputs);
  free(c->order);
  fo_sampler_destroy(c->s);
  fo_batch_destroy(c->ref);
}

/* Run the rest of the epoch checking every batch; returns the number of batches seen. */
static int64_t check_epoch(fo_loader_t *L, checker *c) {
  fo_loader_batch_t *b;
  int64_t k = 0;
  for (;;) {
    assert_fo_ok(fo_loader_next(L, &b));
    if (!b) break;
    assert_int_equal(b->index, k);
    checker_check(c, b);
    fo_loader_release(L, b);
    k++;
  }
  return k;
}

/* ---- options and digests ----------------------------------------------------------------- */

static void opts_defaults(void **state) {
  fo_loader_opts o;
  fo_sampler_opts so;
  (void)state;
  memset(&o, 0x5a, sizeof o);
  fo_loader_opts_init(&o);
  fo_sampler_opts_init(&so);
  assert_int_equal(o.batch_size, 1);
  assert_null(o.input_nodes);
  assert_int_equal(o.n_input_nodes, 0);
  assert_null(o.split);
  assert_false(o.shuffle);
  assert_false(o.drop_last);
  assert_int_equal(o.num_workers, 1);
  assert_int_equal(o.prefetch, 0);
  assert_int_equal(o.epoch, 0);
  assert_true(o.features);
  assert_true(o.labels);
  assert_null(o.sampler.fanouts);
  assert_int_equal(o.sampler.n_hops, so.n_hops);
  assert_int_equal(o.sampler.replace, so.replace);
  assert_int_equal(o.sampler.edge_dir, so.edge_dir);
  assert_int_equal(o.sampler.disjoint, so.disjoint);
  assert_int_equal(o.sampler.seed, so.seed);
  fo_loader_destroy(NULL);
}

static void digest_sequence_spec(void **state) {
  const uint64_t v[3] = {UINT64_C(0x0123456789abcdef), 0, UINT64_C(0xfedcba9876543210)};
  const uint64_t w[3] = {UINT64_C(0xfedcba9876543210), 0, UINT64_C(0x0123456789abcdef)};
  unsigned char le[24];
  (void)state;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 8; j++) le[8 * i + j] = (unsigned char)(v[i] >> (8 * j));
  assert_true(fo_digest_sequence(v, 3) == XXH64(le, 24, 0));
  assert_true(fo_digest_sequence(v, 1) == XXH64(le, 8, 0));
  assert_true(fo_digest_sequence(v, 0) == XXH64(le, 0, 0));
  assert_true(fo_digest_sequence(v, 3) != fo_digest_sequence(w, 3)); /* order matters */
}

/* ---- batches equal the sampler's ----------------------------------------------------------- */

static void batches_match_sampler(void **state) {
  int64_t inputs[150];
  uint64_t st = 99;
  (void)state;
  for (int64_t i = 0; i < N_OF(inputs); i++) inputs[i] = (int64_t)(fot_rand(&st) % SMALL_N);
  inputs[7] = inputs[3]; /* a duplicate seed: two positions, two input ids */
  for (int shuffle = 0; shuffle < 2; shuffle++)
    for (int disjoint = 0; disjoint < 2; disjoint++)
      for (int w = 0; w < 2; w++) {
        fo_loader_opts o = lopts(16, w ? 3 : 0, 0);
        fo_loader_t *L;
        checker c;
        o.shuffle = shuffle;
        o.sampler.disjoint = disjoint;
        o.input_nodes = inputs;
        o.n_input_nodes = N_OF(inputs);
        o.epoch = 3;
        L = create_ok(SMALL.d, &o);
        checker_init(&c, SMALL.d, &o);
        assert_int_equal(fo_loader_num_batches(L), 10);
        assert_int_equal(fo_loader_num_inputs(L), 150);
        assert_int_equal(check_epoch(L, &c), 10);
        assert_fo_ok(fo_loader_start_epoch(L, 4));
        checker_epoch(&c, 4);
        assert_int_equal(check_epoch(L, &c), 10);
        checker_free(&c);
        fo_loader_destroy(L);
      }
}

/* Every worker count and prefetch depth gives the same digests, batch by batch. */
static void determinism_across_workers(void **state) {
  static const int32_t workers[] = {0, 1, 2, 8}, prefetch[] = {0, 1, 2, 7};
  (void)state;
  for (int shuffle = 0; shuffle < 2; shuffle++)
    for (int disjoint = 0; disjoint < 2; disjoint++) {
      fo_loader_opts o = lopts(37, 0, 0);
      uint64_t ref;
      int64_t n;
      o.shuffle = shuffle;
      o.sampler.disjoint = disjoint;
      ref = run_seq(SMALL.d, &o, 2, &n);
      assert_int_equal(n, 2 * 11);
      for (int wi = 0; wi < N_OF(workers); wi++)
        for (int pi = 0; pi < N_OF(prefetch); pi++) {
          uint64_t got;
          o.num_workers = workers[wi];
          o.prefetch = prefetch[pi];
          got = run_seq(SMALL.d, &o, 2, NULL);
          if (got != ref)
            fail_msg("shuffle %d disjoint %d workers %d prefetch %d: digest %016llx, 0 workers: "
                     "%016llx", shuffle, disjoint, (int)workers[wi], (int)prefetch[pi],
                     (unsigned long long)got, (unsigned long long)ref);
        }
    }
  /* and the digest sees the difference: shuffle, disjoint, seed, features, labels */
  {
    fo_loader_opts o = lopts(37, 2, 0);
    uint64_t base = run_seq(SMALL.d, &o, 1, NULL);
    o.shuffle = true;
    assert_true(run_seq(SMALL.d, &o, 1, NULL) != base);
    o.shuffle = false;
    o.sampler.disjoint = true;
    assert_true(run_seq(SMALL.d, &o, 1, NULL) != base);
    o.sampler.disjoint = false;
    o.sampler.seed = 8;
    assert_true(run_seq(SMALL.d, &o, 1, NULL) != base);
    o.sampler.seed = 7;
    o.features = false;
    assert_true(run_seq(SMALL.d, &o, 1, NULL) != base);
    o.features = true;
    o.labels = false;
    assert_true(run_seq(SMALL.d, &o, 1, NULL) != base);
    o.labels = true;
    assert_true(run_seq(SMALL.d, &o, 1, NULL) == base);
  }
}

/* fo_loader_next_timed: timeouts of 0 (mostly gives up), 1 ms and 10 s give the epoch of
 * fo_loader_next, batch by batch in order; a bad timeout is FO_EINVAL. */
static void next_timed(void **state) {
  static const double timeouts[] = {0.0, 1e-3, 10.0};
  (void)state;
  for (int workers = 0; workers <= 2; workers += 2) {
    fo_loader_opts o = lopts(37, workers, 0);
    uint64_t ref, dg[64];
    int64_t n;
    o.shuffle = true;
    ref = run_seq(SMALL.d, &o, 1, &n);
    for (int ti = 0; ti < N_OF(timeouts); ti++) {
      fo_loader_t *L = create_ok(SMALL.d, &o);
      fo_loader_batch_t *b = NULL;
      int64_t k = 0, gave_up = 0;
      for (;;) {
        bool waited = true;
        assert_fo_ok(fo_loader_next_timed(L, &b, timeouts[ti], &waited));
        if (waited) {
          assert_null(b);
          gave_up++;
          continue;
        }
        if (!b) break;
        assert_int_equal(b->index, k);
        assert_true(k < 64);
        dg[k++] = fo_loader_batch_digest(b);
        fo_loader_release(L, b);
      }
      assert_int_equal(k, n);
      assert_true(fo_digest_sequence(dg, k) == ref);
      if (workers == 0) assert_int_equal(gave_up, 0); /* made in the call */
      assert_fo_error(fo_loader_next_timed(L, &b, -1.0, NULL), FO_EINVAL, "timeout -1");
      assert_fo_error(fo_loader_next_timed(L, &b, NAN, NULL), FO_EINVAL, "timeout");
      fo_loader_destroy(L);
    }
  }
}

/* Cora with features: 0, 2 and 8 workers, shuffled, give one digest. */
static void determinism_cora(void **state) {
  static const int32_t workers[] = {0, 2, 8};
  fo_loader_opts o = lopts(256, 0, 0);
  uint64_t ref = 0;
  (void)state;
  o.shuffle = true;
  for (int i = 0; i < N_OF(workers); i++) {
    int64_t n;
    uint64_t h;
    o.num_workers = workers[i];
    o.prefetch = i == 2 ? 3 : 0;
    h = run_seq(CORA.d, &o, 1, &n);
    assert_int_equal(n, 11); /* ceil(2708 / 256) */
    if (i == 0) ref = h;
    else if (h != ref)
      fail_msg("cora: %d workers give %016llx, 0 workers %016llx", (int)workers[i],
               (unsigned long long)h, (unsigned long long)ref);
  }
}

/* ---- epoch coverage ---------------------------------------------------------------------- */

/* n inputs in batches of bs: the batch count, sizes, and every covered input position exactly
 * once (with drop_last, exactly the first n - n % bs positions of the order). */
static void coverage_case(int64_t n, int64_t bs, bool drop_last, bool shuffle, int32_t workers) {
  int64_t *inputs = malloc((size_t)(n + 1) * 8), *seen = calloc((size_t)(n + 1), 8), *order;
  int64_t want_nb = n / bs + (!drop_last && n % bs != 0), covered = drop_last ? want_nb * bs : n;
  int64_t nb = 0, total = 0;
  fo_loader_opts o = lopts(bs, workers, 0);
  fo_loader_t *L;
  fo_loader_batch_t *b;
  for (int64_t i = 0; i < n; i++) inputs[i] = (i * 37 + 5) % SMALL_N;
  o.input_nodes = inputs;
  o.n_input_nodes = n;
  o.drop_last = drop_last;
  o.shuffle = shuffle;
  o.epoch = 2;
  L = create_ok(SMALL.d, &o);
  assert_int_equal(fo_loader_num_inputs(L), n);
  assert_int_equal(fo_loader_num_batches(L), want_nb);
  order = expected_order(n, &o, 2);
  for (;;) {
    assert_fo_ok(fo_loader_next(L, &b));
    if (!b) break;
    assert_int_equal(b->index, nb);
    assert_int_equal(b->batch_size, nb == want_nb - 1 ? covered - nb * bs : bs);
    for (int64_t i = 0; i < b->batch_size; i++) {
      int64_t p = b->input_id[i];
      assert_true(p >= 0 && p < n);
      seen[p]++;
      assert_int_equal(b->sample->node[i], inputs[p]);
    }
    total += b->batch_size;
    nb++;
    fo_loader_release(L, b);
  }
  assert_int_equal(nb, want_nb);
  assert_int_equal(total, covered);
  for (int64_t i = 0; i < n; i++)
    assert_int_equal(seen[order[i]], i < covered ? 1 : 0);
  b = (fo_loader_batch_t *)&b;
  assert_fo_ok(fo_loader_next(L, &b));
  assert_null(b);
  fo_loader_destroy(L);
  free(order);
  free(inputs);
  free(seen);
}

static void epoch_coverage(void **state) {
  static const int64_t cases[][2] = {{10, 3}, {10, 5}, {10, 20}, {1, 1}, {10, 1}, {0, 4},
                                     {400, 37}, {400, 400}, {401, 400}};
  (void)state;
  for (int c = 0; c < N_OF(cases); c++)
    for (int dl = 0; dl < 2; dl++)
      for (int sh = 0; sh < 2; sh++)
        for (int w = 0; w < 2; w++) coverage_case(cases[c][0], cases[c][1], dl, sh, w ? 2 : 0);
}

/* A batch size past every input count (e.g. INT64_MAX as "one batch of everything") is one
 * batch, zero with drop_last: ceil(n / batch_size) must not overflow (it once did as
 * (n + bs - 1) / bs). */
static void batch_size_huge(void **state) {
  static const int64_t sizes[] = {INT64_MAX, INT64_MAX - 5, INT64_C(1) << 62};
  (void)state;
  for (int i = 0; i < N_OF(sizes); i++)
    for (int dl = 0; dl < 2; dl++) coverage_case(10, sizes[i], dl, i == 1, 1);
}

/* Whole-dataset epochs: ceil and floor; the batch count and inputs survive start_epoch. */
static void epoch_counts_all_nodes(void **state) {
  fo_loader_opts o = lopts(64, 1, 0);
  fo_loader_t *L;
  uint64_t dg[16];
  (void)state;
  L = create_ok(SMALL.d, &o);
  assert_int_equal(fo_loader_num_inputs(L), SMALL_N);
  assert_int_equal(fo_loader_num_batches(L), 7); /* 400 / 64 = 6.25 */
  assert_int_equal(epoch_digests(L, dg, 16, 0), 7);
  assert_fo_ok(fo_loader_start_epoch(L, 9));
  assert_int_equal(fo_loader_num_batches(L), 7);
  assert_int_equal(fo_loader_num_inputs(L), SMALL_N);
  assert_int_equal(epoch_digests(L, dg, 16, 0), 7);
  fo_loader_destroy(L);
  o.drop_last = true;
  L = create_ok(SMALL.d, &o);
  assert_int_equal(fo_loader_num_batches(L), 6);
  assert_int_equal(epoch_digests(L, dg, 16, 0), 6);
  fo_loader_destroy(L);
}

/* ---- input sources ----------------------------------------------------------------------- */

static void inputs_copied(void **state) {
  int64_t inputs[] = {5, 3, 3, 399, 0, 17, 200};
  int64_t keep[N_OF(inputs)];
  (void)state;
  memcpy(keep, inputs, sizeof inputs);
  for (int w = 0; w < 2; w++) {
    fo_loader_opts o = lopts(3, w ? 2 : 0, 0);
    int32_t fan[2] = {4, 3};
    fo_loader_t *L;
    checker c;
    memcpy(inputs, keep, sizeof inputs);
    o.input_nodes = inputs;
    o.n_input_nodes = N_OF(inputs);
    o.sampler.fanouts = fan;
    checker_init(&c, SMALL.d, &o); /* expects the original ids */
    L = create_ok(SMALL.d, &o);
    for (int64_t i = 0; i < N_OF(inputs); i++) inputs[i] = -1; /* the caller's array changes */
    fan[0] = fan[1] = -7;                                       /* and its fanouts */
    assert_int_equal(check_epoch(L, &c), 3);
    assert_fo_ok(fo_loader_start_epoch(L, 1));
    checker_epoch(&c, 1);
    assert_int_equal(check_epoch(L, &c), 3);
    checker_free(&c);
    fo_loader_destroy(L);
  }
}

static void inputs_from_splits(void **state) {
  static const char *names[] = {"train", "val", "test"};
  (void)state;
  assert_int_equal(fo_dataset_num_splits(SMALL.d), 3);
  for (int i = 0; i < 3; i++)
    for (int shuffle = 0; shuffle < 2; shuffle++) {
      fo_loader_opts o = lopts(32, 2, 0);
      const int64_t *ids;
      int64_t n;
      fo_loader_t *L;
      checker c;
      char name[16];
      assert_fo_ok(fo_dataset_split(SMALL.d, names[i], &ids, &n));
      snprintf(name, sizeof name, "%s", names[i]);
      o.split = name;
      o.shuffle = shuffle;
      checker_init(&c, SMALL.d, &o);
      L = create_ok(SMALL.d, &o);
      memset(name, 'z', sizeof name - 1); /* the split string is borrowed for the call only */
      assert_int_equal(fo_loader_num_inputs(L), n);
      assert_int_equal(fo_loader_num_batches(L), (n + 31) / 32);
      assert_int_equal(check_epoch(L, &c), (n + 31) / 32);
      checker_free(&c);
      fo_loader_destroy(L);
    }
  /* all nodes: the identity in order */
  {
    fo_loader_opts o = lopts(50, 2, 0);
    fo_loader_t *L = create_ok(SMALL.d, &o);
    checker c;
    checker_init(&c, SMALL.d, &o);
    assert_int_equal(fo_loader_num_inputs(L), SMALL_N);
    assert_int_equal(check_epoch(L, &c), 8);
    checker_free(&c);
    fo_loader_destroy(L);
  }
}

/* fo_loader_create must fail with `code` and every substring in `want` (NULL-terminated), the
 * message must carry the "create loader" context, and *out must be NULL. */
static void create_fails(const fo_dataset_t *d, const fo_loader_opts *o, int code,
                         const char *const *want) {
  fo_loader_t *L = (fo_loader_t *)&L; /* garbage: create must reset it */
  int rc = fo_loader_create(d, o, &L);
  if (rc != code)
    fail_msg("create returned %s, expected %s (message: %s)", fo_status_name(rc),
             fo_status_name(code), fo_last_error());
  assert_null(L);
  if (!strstr(fo_last_error(), "create loader"))
    fail_msg("message '%s' lacks the context 'create loader'", fo_last_error());
  for (int i = 0; want[i]; i++)
    if (!strstr(fo_last_error(), want[i]))
      fail_msg("message '%s' lacks '%s'", fo_last_error(), want[i]);
}

#define WANT(...) ((const char *const[]){__VA_ARGS__, NULL})

static void create_errors(void **state) {
  fo_loader_opts o;
  int64_t bad[] = {0, 1, SMALL_N + 5, 2};
  int64_t neg[] = {3, -1};
  int64_t ok[] = {1, 2};
  const int32_t fan_bad[2] = {4, -2};
  (void)state;
  o = lopts(0, 1, 0);
  create_fails(SMALL.d, &o, FO_EINVAL, WANT("batch_size", "0"));
  o = lopts(-3, 1, 0);
  create_fails(SMALL.d, &o, FO_EINVAL, WANT("batch_size", "-3"));
  o = lopts(8, -1, 0);
  create_fails(SMALL.d, &o, FO_EINVAL, WANT("num_workers", "-1"));
  o = lopts(8, 257, 0);
  create_fails(SMALL.d, &o, FO_EINVAL, WANT("num_workers", "257"));
  o = lopts(8, 1, -1);
  create_fails(SMALL.d, &o, FO_EINVAL, WANT("prefetch", "-1"));
  o = lopts(8, 1, 0);
  o.split = "nope";
  create_fails(SMALL.d, &o, FO_EINVAL, WANT("nope", "train", "val", "test"));
  o = lopts(8, 1, 0);
  o.input_nodes = bad;
  o.n_input_nodes = N_OF(bad);
  create_fails(SMALL.d, &o, FO_ERANGE, WANT("position 2", "405"));
  o.input_nodes = neg;
  o.n_input_nodes = N_OF(neg);
  create_fails(SMALL.d, &o, FO_ERANGE, WANT("position 1", "-1"));
  o.input_nodes = ok;
  o.n_input_nodes = N_OF(ok);
  o.split = "train";
  create_fails(SMALL.d, &o, FO_EINVAL, WANT("input_nodes", "split"));
  o = lopts(8, 1, 0);
  o.sampler.fanouts = fan_bad;
  create_fails(SMALL.d, &o, FO_EINVAL, WANT("-2"));
  o = lopts(8, 1, 0);
  o.sampler.n_hops = 0;
  create_fails(SMALL.d, &o, FO_EINVAL, WANT("hops"));
  o = lopts(8, 1, 0);
  o.sampler.fanouts = NULL;
  create_fails(SMALL.d, &o, FO_EINVAL, WANT("fanouts"));
  o = lopts(8, 1, 0);
  o.sampler.edge_dir = FO_EDGE_DIR_OUT; /* SMALL has no CSR */
  create_fails(SMALL.d, &o, FO_EINVAL, WANT("CSR"));
  o = lopts(8, 1, 0);
  o.n_input_nodes = 3; /* with input_nodes NULL */
  create_fails(SMALL.d, &o, FO_EINVAL, WANT("input_nodes"));
  /* the bounds themselves are fine */
  {
    fo_loader_t *L;
    uint64_t dg[4];
    o = lopts(SMALL_N, 256, 1);
    L = create_ok(SMALL.d, &o);
    assert_int_equal(epoch_digests(L, dg, 4, 0), 1);
    fo_loader_destroy(L);
    o = lopts(SMALL_N, 0, 0);
    assert_true(run_seq(SMALL.d, &o, 1, NULL) == fo_digest_sequence(dg, 1));
  }
}

/* A dataset without splits lists none; a split entry that is not a node id is caught at create. */
static void split_errors(void **state) {
  fot_edges e;
  ds g;
  fo_loader_opts o = lopts(4, 1, 0);
  int64_t pos;
  (void)state;
  fot_cycle(6, &e);
  make_plain(&g, &e);
  o.split = "train";
  create_fails(g.d, &o, FO_EINVAL, WANT("train", "none"));
  fot_ds_close(&g);
  fot_edges_free(&e);

  make_small(&g, 60, 200, FO_FEATURES_AUTO, 5);
  fo_dataset_close(g.d);
  pos = 3;
  fot_set_array_elem(g.dir, "train_idx", pos, 60, true);
  ds_open(&g);
  o.split = "train";
  create_fails(g.d, &o, FO_ERANGE, WANT("position 3", "60", "train"));
  o.split = "val"; /* the other splits are fine */
  fo_loader_destroy(create_ok(g.d, &o));
  fot_ds_close(&g);
}

/* ---- new epochs -------------------------------------------------------------------------- */

static void start_epoch_reshuffles(void **state) {
  fo_loader_opts o = lopts(16, 2, 0);
  fo_loader_t *L, *F;
  uint64_t a0[32], a5[32], b0[32], f5[32];
  int64_t nb;
  (void)state;
  o.shuffle = true;
  L = create_ok(SMALL.d, &o);
  nb = fo_loader_num_batches(L);
  assert_int_equal(nb, 25);
  assert_int_equal(epoch_digests(L, a0, 32, 0), nb);
  assert_fo_ok(fo_loader_start_epoch(L, 5));
  assert_int_equal(epoch_digests(L, a5, 32, 0), nb);
  assert_fo_ok(fo_loader_start_epoch(L, 0));
  assert_int_equal(epoch_digests(L, b0, 32, 0), nb);
  assert_memory_equal(a0, b0, (size_t)nb * 8); /* the same epoch again: the same batches */
  assert_memory_not_equal(a0, a5, (size_t)nb * 8);
  o.epoch = 5;
  F = create_ok(SMALL.d, &o);
  assert_int_equal(epoch_digests(F, f5, 32, 0), nb);
  assert_memory_equal(a5, f5, (size_t)nb * 8); /* = a fresh loader started at epoch 5 */
  fo_loader_destroy(F);
  /* the order itself changes with the epoch (not only the draws) */
  {
    checker c;
    fo_loader_batch_t *b;
    int64_t first0;
    o.epoch = 0;
    checker_init(&c, SMALL.d, &o);
    assert_fo_ok(fo_loader_start_epoch(L, 0));
    assert_fo_ok(fo_loader_next(L, &b));
    checker_check(&c, b);
    first0 = b->input_id[0];
    fo_loader_release(L, b);
    assert_fo_ok(fo_loader_start_epoch(L, 1));
    checker_epoch(&c, 1);
    assert_fo_ok(fo_loader_next(L, &b));
    checker_check(&c, b);
    {
      int64_t *o0 = expected_order(SMALL_N, &o, 0);
      assert_memory_not_equal(o0, c.order, SMALL_N * 8);
      assert_int_equal(o0[0], first0);
      free(o0);
    }
    fo_loader_release(L, b);
    checker_free(&c);
  }
  fo_loader_destroy(L);
  /* without shuffle the order stays, the draws change with the epoch */
  o.shuffle = false;
  o.epoch = 0;
  L = create_ok(SMALL.d, &o);
  assert_int_equal(epoch_digests(L, a0, 32, 0), nb);
  assert_fo_ok(fo_loader_start_epoch(L, 5));
  assert_int_equal(epoch_digests(L, a5, 32, 0), nb);
  assert_memory_not_equal(a0, a5, (size_t)nb * 8);
  fo_loader_destroy(L);
}

/* start_epoch mid-epoch, with batches held and workers busy: the held batches stay intact,
 * the new epoch is complete and equal to a fresh loader's. */
static void start_epoch_mid_epoch(void **state) {
  static const int32_t workers[] = {0, 1, 4};
  fo_loader_opts o = lopts(8, 4, 8);
  uint64_t ref[4][64], got[64];
  int64_t nb = 0;
  (void)state;
  o.shuffle = true;
  for (uint64_t e = 0; e < 4; e++) { /* references: 0 workers, fresh loader at epoch e */
    fo_loader_opts r = o;
    fo_loader_t *L;
    r.num_workers = 0;
    r.epoch = e;
    L = create_ok(SMALL.d, &r);
    nb = epoch_digests(L, ref[e], 64, 0);
    assert_int_equal(nb, 50);
    fo_loader_destroy(L);
  }
  for (int wi = 0; wi < N_OF(workers); wi++) {
    fo_loader_t *L;
    o.num_workers = workers[wi];
    L = create_ok(SMALL.d, &o);
    for (int it = 0; it < 48; it++) {
      fo_loader_batch_t *held[4];
      uint64_t held_dg[4], cur = (uint64_t)(it % 4), next = (uint64_t)((it * 7 + 1) % 4);
      int take = it % 4; /* 0..3 batches taken (and held) before the restart */
      for (int i = 0; i < take; i++) {
        assert_fo_ok(fo_loader_next(L, &held[i]));
        assert_non_null(held[i]);
        assert_int_equal(held[i]->index, i);
        assert_int_equal(held[i]->epoch, cur);
        held_dg[i] = fo_loader_batch_digest(held[i]);
        assert_true(held_dg[i] == ref[cur][i]);
      }
      assert_fo_ok(fo_loader_start_epoch(L, next));
      for (int i = 0; i < take; i++) { /* still valid, untouched */
        assert_true(fo_loader_batch_digest(held[i]) == held_dg[i]);
        if (i % 2) fo_loader_release(L, held[i]);
      }
      assert_int_equal(epoch_digests(L, got, 64, 0), nb);
      for (int64_t i = 0; i < nb; i++)
        if (got[i] != ref[next][i])
          fail_msg("workers %d, iteration %d: epoch %llu batch %lld differs after a restart",
                   (int)workers[wi], it, (unsigned long long)next, (long long)i);
      for (int i = 0; i < take; i += 2) { /* the ones still held, after a whole epoch */
        assert_true(fo_loader_batch_digest(held[i]) == held_dg[i]);
        fo_loader_release(L, held[i]);
      }
      /* restart into the epoch `cur` of the next iteration */
      assert_fo_ok(fo_loader_start_epoch(L, (uint64_t)((it + 1) % 4)));
    }
    fo_loader_destroy(L);
  }
}

/* ---- x / y gather ------------------------------------------------------------------------ */

static void check_some_batches(const fo_dataset_t *d, const fo_loader_opts *o, int64_t max) {
  fo_loader_t *L = create_ok(d, o);
  fo_loader_batch_t *b;
  checker c;
  checker_init(&c, d, o);
  for (int64_t k = 0; k < max; k++) {
    assert_fo_ok(fo_loader_next(L, &b));
    if (!b) break;
    checker_check(&c, b);
    fo_loader_release(L, b);
  }
  checker_free(&c);
  fo_loader_destroy(L);
}

static void gather_cora_dtypes(void **state) {
  static const struct {
    fo_feature_dtype fdt;
    const char *name;
    int64_t itemsize;
  } cases[] = {{FO_FEATURES_AUTO, "float32", 4},
               {FO_FEATURES_UINT8, "uint8", 1},
               {FO_FEATURES_FLOAT16, "float16", 2}};
  (void)state;
  for (int i = 0; i < N_OF(cases); i++) {
    ds g, *gp = &g;
    fo_loader_opts o = lopts(32, 2, 0);
    fo_loader_t *L;
    fo_loader_batch_t *b;
    if (i == 0) gp = &CORA;
    else fot_ds_cora(&g, cases[i].fdt);
    o.shuffle = true;
    check_some_batches(gp->d, &o, 4);
    L = create_ok(gp->d, &o);
    assert_fo_ok(fo_loader_next(L, &b));
    assert_non_null(b->x);
    assert_string_equal(b->x_dtype, cases[i].name);
    assert_int_equal(b->x_itemsize, cases[i].itemsize);
    assert_int_equal(b->x_dim, 1433);
    assert_non_null(b->y);
    for (int64_t k = 0; k < b->batch_size; k++) assert_true(b->y[k] >= 0 && b->y[k] < 7);
    if (cases[i].fdt == FO_FEATURES_UINT8) { /* cora's 0/1 words stay 0/1 */
      const uint8_t *x = b->x;
      for (int64_t k = 0; k < b->sample->n_nodes * 1433; k++) assert_true(x[k] <= 1);
    }
    fo_loader_release(L, b);
    fo_loader_destroy(L);
    if (i != 0) fot_ds_close(&g);
  }
}

static void gather_bfloat16_and_flags(void **state) {
  ds g;
  fo_loader_opts o = lopts(24, 2, 0);
  fo_loader_t *L;
  fo_loader_batch_t *b;
  (void)state;
  make_small(&g, 120, 600, FO_FEATURES_BFLOAT16, 11);
  check_some_batches(g.d, &o, 5);
  L = create_ok(g.d, &o);
  assert_fo_ok(fo_loader_next(L, &b));
  assert_string_equal(b->x_dtype, "bfloat16");
  assert_int_equal(b->x_itemsize, 2);
  assert_int_equal(b->x_dim, SMALL_D);
  fo_loader_release(L, b);
  fo_loader_destroy(L);
  fot_ds_close(&g);
  /* features / labels off */
  for (int f = 0; f < 2; f++)
    for (int l = 0; l < 2; l++) {
      o = lopts(24, 1, 0);
      o.features = f;
      o.labels = l;
      check_some_batches(SMALL.d, &o, 3); /* x NULL unless f, y NULL unless l */
      L = create_ok(SMALL.d, &o);
      assert_fo_ok(fo_loader_next(L, &b));
      assert_true((b->x != NULL) == f);
      assert_true((b->y != NULL) == l);
      if (f) assert_string_equal(b->x_dtype, "float32");
      fo_loader_release(L, b);
      fo_loader_destroy(L);
    }
}

/* A dataset without node data: x and y NULL even when asked for. */
static void gather_without_node_data(void **state) {
  fot_edges e;
  ds g;
  fo_loader_opts o = lopts(2, 2, 0);
  fo_loader_t *L;
  fo_loader_batch_t *b;
  int64_t k = 0;
  (void)state;
  fot_cycle(6, &e);
  make_plain(&g, &e);
  assert_false(fo_dataset_has_features(g.d));
  assert_true(o.features && o.labels);
  L = create_ok(g.d, &o);
  while (fo_loader_next(L, &b) == FO_OK && b) {
    assert_null(b->x);
    assert_null(b->y);
    assert_int_equal(b->sample->node[0], 2 * k);
    assert_int_equal(b->sample->node[1], 2 * k + 1);
    fo_loader_release(L, b);
    k++;
  }
  assert_int_equal(k, 3);
  fo_loader_destroy(L);
  check_some_batches(g.d, &o, 3);
  /* cycle_graph(6), fanout -1 on seed 0: the in-neighbors 1 and 5, exactly */
  {
    const int32_t all[1] = {-1};
    int64_t seed0[1] = {0};
    o = lopts(1, 1, 0);
    o.sampler.fanouts = all;
    o.sampler.n_hops = 1;
    o.input_nodes = seed0;
    o.n_input_nodes = 1;
    L = create_ok(g.d, &o);
    assert_fo_ok(fo_loader_next(L, &b));
    assert_int_equal(b->sample->n_nodes, 3);
    assert_int_equal(b->sample->node[1], 1);
    assert_int_equal(b->sample->node[2], 5);
    assert_int_equal(b->sample->n_edges, 2);
    assert_int_equal(b->sample->edge[0], 0);
    assert_int_equal(b->sample->edge[1], 1);
    assert_int_equal(b->input_id[0], 0);
    fo_loader_release(L, b);
    fo_loader_destroy(L);
  }
  fot_ds_close(&g);
  fot_edges_free(&e);
}

/* ---- a worker's error travels with its batch ----------------------------------------------- */

/* Path 0 - 1 - ... - 39, both ways; the first in-neighbor of node 20 (19) becomes 1000 in the
 * CSC. With two hops of fanout -1, the batches that read column 20 fail with FO_EFORMAT naming
 * csc_indices (seeds 19, 20, 21 with batch size 1); the others come out unchanged. */
static void worker_error_propagates(void **state) {
  static const struct {
    int32_t workers, prefetch;
    int64_t bs;
    bool shuffle;
  } cases[] = {{0, 0, 1, false}, {2, 0, 1, false}, {2, 1, 1, true}, {8, 3, 1, true},
               {2, 0, 3, false}, {4, 16, 2, true}, {1, 0, 1, false}};
  const int32_t all[2] = {-1, -1};
  fot_edges e;
  ds g;
  int64_t pos;
  (void)state;
  fot_path_graph(40, &e);
  make_plain(&g, &e);
  pos = array_elem(g.d, "csc_indptr", 20);
  assert_int_equal(array_elem(g.d, "csc_indices", pos), 19);
  fo_dataset_close(g.d);
  fot_set_array_elem(g.dir, "csc_indices", pos, 1000, true);
  ds_open(&g); /* open cannot see it */
  for (int ci = 0; ci < N_OF(cases); ci++) {
    fo_loader_opts o = lopts(cases[ci].bs, cases[ci].workers, cases[ci].prefetch);
    fo_loader_t *L;
    checker c;
    o.sampler.fanouts = all;
    o.shuffle = cases[ci].shuffle;
    checker_init(&c, g.d, &o);
    L = create_ok(g.d, &o);
    for (uint64_t epoch = 0; epoch < 2; epoch++) {
      int64_t nb = fo_loader_num_batches(L), n_fail = 0;
      if (epoch) {
        assert_fo_ok(fo_loader_start_epoch(L, epoch));
        checker_epoch(&c, epoch);
      }
      for (int64_t k = 0; k < nb; k++) {
        /* what the sampler says for this batch, on this thread */
        int64_t off = k * o.batch_size, m = 40 - off < o.batch_size ? 40 - off : o.batch_size;
        int64_t seeds[8];
        char want[512];
        int want_rc, rc;
        bool reads20 = false;
        fo_loader_batch_t *b = (fo_loader_batch_t *)&b;
        for (int64_t i = 0; i < m; i++) {
          seeds[i] = c.inputs[c.order[off + i]];
          if (seeds[i] >= 19 && seeds[i] <= 21) reads20 = true;
        }
        want_rc = fo_sampler_sample(c.s, seeds, m, epoch, (uint64_t)k, c.ref);
        snprintf(want, sizeof want, "%s", fo_last_error());
        assert_int_equal(want_rc, reads20 ? FO_EFORMAT : FO_OK);
        fo_clear_error();
        rc = fo_loader_next(L, &b);
        if (want_rc != FO_OK) {
          if (rc != FO_EFORMAT)
            fail_msg("case %d epoch %llu batch %lld: next returned %s, expected FO_EFORMAT", ci,
                     (unsigned long long)epoch, (long long)k, fo_status_name(rc));
          assert_null(b);
          if (!strstr(fo_last_error(), "csc_indices"))
            fail_msg("case %d batch %lld: message '%s' lacks 'csc_indices'", ci, (long long)k,
                     fo_last_error());
          if (!strstr(fo_last_error(), want))
            fail_msg("case %d batch %lld: message '%s' lacks the sampler's '%s'", ci,
                     (long long)k, fo_last_error(), want);
          n_fail++;
        } else {
          if (rc != FO_OK)
            fail_msg("case %d epoch %llu batch %lld: next returned %s (%s)", ci,
                     (unsigned long long)epoch, (long long)k, fo_status_name(rc), fo_last_error());
          assert_non_null(b);
          assert_int_equal(b->index, k);
          checker_check(&c, b);
          fo_loader_release(L, b);
        }
      }
      assert_true(n_fail >= 1);
      {
        fo_loader_batch_t *b = (fo_loader_batch_t *)&b;
        assert_fo_ok(fo_loader_next(L, &b));
        assert_null(b);
      }
    }
    checker_free(&c);
    fo_loader_destroy(L);
  }
  /* destroying a loader whose failed batches were never asked for */
  for (int i = 0; i < 20; i++) {
    fo_loader_opts o = lopts(1, 4, 40);
    fo_loader_t *L;
    fo_loader_batch_t *b;
    o.sampler.fanouts = all;
    L = create_ok(g.d, &o);
    assert_fo_ok(fo_loader_next(L, &b));
    fo_loader_release(L, b);
    fo_loader_destroy(L);
  }
  fot_ds_close(&g);
  fot_edges_free(&e);
}

/* ---- holding batches, slot reuse, destroy ------------------------------------------------ */

/* The consumer holds every batch of an epoch (far more than prefetch): no deadlock, all valid. */
static void hold_all_batches(void **state) {
  static const struct {
    int32_t workers, prefetch;
  } cases[] = {{0, 0}, {1, 1}, {2, 1}, {2, 2}, {4, 3}, {8, 1}};
  (void)state;
  for (int ci = 0; ci < N_OF(cases); ci++) {
    fo_loader_opts o = lopts(10, cases[ci].workers, cases[ci].prefetch);
    fo_loader_batch_t *held[40];
    uint64_t dg[40], again[40], ref[40];
    fo_loader_t *L;
    checker c;
    o.shuffle = true;
    checker_init(&c, SMALL.d, &o);
    L = create_ok(SMALL.d, &o);
    assert_int_equal(fo_loader_num_batches(L), 40);
    for (int k = 0; k < 40; k++) {
      assert_fo_ok(fo_loader_next(L, &held[k]));
      assert_non_null(held[k]);
      assert_int_equal(held[k]->index, k);
      dg[k] = fo_loader_batch_digest(held[k]);
      for (int j = 0; j < k; j++) assert_ptr_not_equal(held[j], held[k]);
    }
    {
      fo_loader_batch_t *b = (fo_loader_batch_t *)&b;
      assert_fo_ok(fo_loader_next(L, &b));
      assert_null(b);
    }
    for (int k = 0; k < 40; k++) { /* none was overwritten */
      assert_true(fo_loader_batch_digest(held[k]) == dg[k]);
      checker_check(&c, held[k]);
    }
    for (int k = 39; k >= 0; k--) fo_loader_release(L, held[k]);
    fo_loader_release(L, NULL);
    /* the next epoch works as usual */
    assert_fo_ok(fo_loader_start_epoch(L, 1));
    assert_int_equal(epoch_digests(L, again, 40, 0), 40);
    {
      fo_loader_opts r = o;
      fo_loader_t *F;
      r.epoch = 1;
      r.num_workers = 0;
      F = create_ok(SMALL.d, &r);
      assert_int_equal(epoch_digests(F, ref, 40, 0), 40);
      fo_loader_destroy(F);
    }
    assert_memory_equal(again, ref, sizeof ref);
    /* hold them all again, then destroy with everything held */
    assert_fo_ok(fo_loader_start_epoch(L, 2));
    for (int k = 0; k < 40; k++) assert_fo_ok(fo_loader_next(L, &held[k]));
    checker_free(&c);
    fo_loader_destroy(L);
  }
}

/* Steady state: a consumer holding one batch at a time (release, then next) or two (next, then
 * release the previous) over four epochs sees at most prefetch (+ 1) distinct batch slots, so
 * no slot is added after the first epoch. */
static void steady_state_slots(void **state) {
  static const struct {
    int32_t workers, prefetch;
  } cases[] = {{0, 0}, {1, 1}, {2, 2}, {4, 0}, {2, 5}};
  (void)state;
  for (int ci = 0; ci < N_OF(cases); ci++)
    for (int overlap = 0; overlap < 2; overlap++) {
      fo_loader_opts o = lopts(16, cases[ci].workers, cases[ci].prefetch);
      int32_t pf = cases[ci].prefetch ? cases[ci].prefetch
                                      : (cases[ci].workers ? 2 * cases[ci].workers : 1);
      const void *slots[128];
      int n_seen = 0;
      fo_loader_t *L;
      o.shuffle = true;
      L = create_ok(SMALL.d, &o);
      for (int epoch = 0; epoch < 4; epoch++) {
        fo_loader_batch_t *b, *prev = NULL;
        if (epoch) assert_fo_ok(fo_loader_start_epoch(L, (uint64_t)epoch));
        for (;;) {
          int seen = 0;
          if (!overlap) {
            fo_loader_release(L, prev);
            prev = NULL;
          }
          assert_fo_ok(fo_loader_next(L, &b));
          if (!b) break;
          for (int i = 0; i < n_seen; i++) seen |= slots[i] == (const void *)b;
          if (!seen) {
            assert_true(n_seen < 128);
            slots[n_seen++] = b;
          }
          if (overlap) fo_loader_release(L, prev);
          prev = b;
        }
        fo_loader_release(L, prev);
      }
      /* slots are never freed before destroy, so distinct pointers = slots ever used */
      if (n_seen > pf + overlap)
        fail_msg("workers %d prefetch %d overlap %d: %d distinct slots over 4 epochs, expected "
                 "<= %d (prefetch + batches held)", (int)cases[ci].workers,
                 (int)cases[ci].prefetch, overlap, n_seen, (int)pf + overlap);
      fo_loader_destroy(L);
    }
}

/* Destroy at any point of an epoch: right after create, after one batch, with a batch held,
 * after a restart; many times. Under ASan/TSan: no leak, no race, no hang. */
static void destroy_mid_epoch(void **state) {
  fo_loader_opts o = lopts(4, 4, 0);
  (void)state;
  o.shuffle = true;
  for (int i = 0; i < 200; i++) {
    fo_loader_t *L;
    fo_loader_batch_t *b = NULL;
    o.num_workers = i % 10 == 9 ? 0 : 4;
    o.prefetch = i % 3 == 0 ? 0 : (int32_t)(i % 7) + 1;
    L = create_ok(SMALL.d, &o);
    switch (i % 5) {
    case 0: break; /* at once */
    case 1:
      assert_fo_ok(fo_loader_next(L, &b));
      fo_loader_release(L, b);
      break;
    case 2: assert_fo_ok(fo_loader_next(L, &b)); break; /* held at destroy */
    case 3:
      assert_fo_ok(fo_loader_next(L, &b));
      assert_fo_ok(fo_loader_start_epoch(L, 1));
      break;
    default:
      assert_fo_ok(fo_loader_start_epoch(L, 2));
      assert_fo_ok(fo_loader_next(L, &b));
      assert_fo_ok(fo_loader_next(L, &b));
      break;
    }
    fo_loader_destroy(L);
  }
}

/* "one consumer thread ... (or several, serialized by the caller)": next() on one thread,
 * release() on another, start_epoch() on a third, and a worker's error message set on the
 * thread that called next(). */
typedef struct hop {
  fo_loader_t *L;
  fo_loader_batch_t *b;
  int rc;
  uint64_t epoch;
  enum { HOP_NEXT, HOP_RELEASE, HOP_START } what;
} hop;

static void *hop_main(void *arg) {
  hop *h = arg;
  switch (h->what) {
  case HOP_NEXT: h->rc = fo_loader_next(h->L, &h->b); break;
  case HOP_RELEASE: fo_loader_release(h->L, h->b); break;
  default: h->rc = fo_loader_start_epoch(h->L, h->epoch); break;
  }
  return NULL;
}

static void run_on_thread(hop *h) {
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, hop_main, h), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
}

static void consumer_threads_serialized(void **state) {
  fo_loader_opts o = lopts(16, 3, 2);
  uint64_t ref[2][32];
  fo_loader_t *L;
  (void)state;
  o.shuffle = true;
  for (uint64_t e = 0; e < 2; e++) {
    fo_loader_opts r = o;
    fo_loader_t *F;
    r.epoch = e;
    r.num_workers = 0;
    F = create_ok(SMALL.d, &r);
    assert_int_equal(epoch_digests(F, ref[e], 32, 0), 25);
    fo_loader_destroy(F);
  }
  L = create_ok(SMALL.d, &o);
  for (uint64_t e = 0; e < 2; e++) {
    if (e) {
      hop h = {L, NULL, -1, e, HOP_START};
      run_on_thread(&h);
      assert_fo_ok(h.rc);
    }
    for (int k = 0;; k++) {
      hop n = {L, NULL, -1, 0, HOP_NEXT};
      run_on_thread(&n);
      assert_fo_ok(n.rc);
      if (!n.b) {
        assert_int_equal(k, 25);
        break;
      }
      assert_int_equal(n.b->index, k);
      assert_true(fo_loader_batch_digest(n.b) == ref[e][k]);
      if (k % 2) { /* released here or on yet another thread */
        fo_loader_release(L, n.b);
      } else {
        n.what = HOP_RELEASE;
        run_on_thread(&n);
      }
    }
  }
  fo_loader_destroy(L);
}

/* Eight workers, prefetch 1 and 64, a few epochs: the same batches as on one thread. */
static void concurrency_smoke(void **state) {
  fo_loader_opts o = lopts(8, 0, 0);
  uint64_t ref;
  int64_t n;
  (void)state;
  o.shuffle = true;
  o.sampler.disjoint = false;
  ref = run_seq(SMALL.d, &o, 3, &n);
  assert_int_equal(n, 150);
  o.num_workers = 8;
  o.prefetch = 1;
  assert_true(run_seq(SMALL.d, &o, 3, NULL) == ref);
  o.prefetch = 64;
  assert_true(run_seq(SMALL.d, &o, 3, NULL) == ref);
  /* and with the consumer holding a varying number of batches */
  {
    fo_loader_t *L = create_ok(SMALL.d, &o);
    uint64_t dg[150];
    int64_t k = 0;
    for (uint64_t e = 0; e < 3; e++) {
      fo_loader_batch_t *held[8];
      int nh = 0, target = 1;
      if (e) assert_fo_ok(fo_loader_start_epoch(L, e));
      for (;;) {
        fo_loader_batch_t *b;
        assert_fo_ok(fo_loader_next(L, &b));
        if (!b) break;
        dg[k++] = fo_loader_batch_digest(b);
        held[nh++] = b;
        if (nh >= target) {
          while (nh) fo_loader_release(L, held[--nh]);
          target = 1 + (int)(k % 8);
        }
      }
      while (nh) fo_loader_release(L, held[--nh]);
    }
    assert_int_equal(k, 150);
    assert_true(fo_digest_sequence(dg, k) == ref);
    fo_loader_destroy(L);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(opts_defaults),
      cmocka_unit_test(digest_sequence_spec),
      cmocka_unit_test(batches_match_sampler),
      cmocka_unit_test(determinism_across_workers),
      cmocka_unit_test(determinism_cora),
      cmocka_unit_test(next_timed),
      cmocka_unit_test(epoch_coverage),
      cmocka_unit_test(epoch_counts_all_nodes),
      cmocka_unit_test(inputs_copied),
      cmocka_unit_test(inputs_from_splits),
      cmocka_unit_test(create_errors),
      cmocka_unit_test(split_errors),
      cmocka_unit_test(start_epoch_reshuffles),
      cmocka_unit_test(start_epoch_mid_epoch),
      cmocka_unit_test(gather_cora_dtypes),
      cmocka_unit_test(gather_bfloat16_and_flags),
      cmocka_unit_test(gather_without_node_data),
      cmocka_unit_test(worker_error_propagates),
      cmocka_unit_test(hold_all_batches),
      cmocka_unit_test(steady_state_slots),
      cmocka_unit_test(destroy_mid_epoch),
      cmocka_unit_test(consumer_threads_serialized),
      cmocka_unit_test(concurrency_smoke),
      cmocka_unit_test(batch_size_huge),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
