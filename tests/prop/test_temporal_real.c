/*
 * tests/prop/test_temporal_real.c: no future leaks on the real temporal graphs of
 * ../shared/data, checked exhaustively over whole epochs (every input node a seed once).
 *
 *  - CollegeMsg (59,835 timed messages, `src dst unix_seconds`): imported with --time-col 2,
 *    edge-time mode, in and out edges, uniform (with and without replacement) and last,
 *    inclusive and strict, with and without a window; seed times drawn over the time span;
 *  - JODIE Wikipedia (157,474 user-item edits, CSV with a header and CRLF): the header dropped,
 *    --time-col 2 with the comma separator, undirected (reverse edges carry their time);
 *  - cit-HepPh with the submission dates of its papers (node-time mode: a paper only reaches
 *    papers submitted no later than the seed paper; nodes without a date get INT64_MAX, so
 *    they are never eligible): dates parsed as ISO 8601 into a --node-time array, every dated
 *    paper a seed at its own date (the default seed time).
 * Every sampled edge of seed i's tree is checked: its time (or its neighbor's node time) is
 * eligible at seed i's time under the sampler's rule, and the neighbor joins tree i. `last`
 * is also checked against the reference sampler on one batch per setting. Skipped (77) without
 * the shared data. Bounded in time: about 1.5 M sampled edges per setting at most.
 */
#include "support.h"

#include "io/io_internal.h" /* fo__parse_iso8601 */

#include <zlib.h>

static void check_epoch(const fo_dataset_t *d, const fo_sampler_opts *so, const int64_t *inputs,
                        const int64_t *itime, int64_t n, const int64_t *node_time) {
  fo_loader_opts lo;
  fo_loader_t *L;
  fo_loader_batch_t *b;
  fo_topology t;
  int64_t batches = 0, edges = 0;
  assert_fo_ok(fo_dataset_topology(d, so->edge_dir, &t));
  fo_loader_opts_init(&lo);
  lo.sampler = *so;
  lo.batch_size = 512;
  lo.shuffle = true;
  lo.num_workers = 2;
  lo.input_nodes = inputs;
  lo.n_input_nodes = n;
  lo.input_time = itime;
  lo.features = lo.labels = false;
  assert_fo_ok(fo_loader_create(d, &lo, &L));
  while (fo_loader_next(L, &b) == FO_OK && b) {
    const fo_batch_t *s = b->sample;
    assert_non_null(b->input_time);
    for (int64_t e = 0; e < s->n_edges; e++) {
      const int64_t tree = s->batch[s->col[e]], tt = b->input_time[tree];
      int64_t x;
      if (so->time_attr == FO_TIME_ATTR_NODE) {
        x = node_time[s->node[s->row[e]]];
      } else {
        /* the edge id is its CSC position; the CSR finds it through its position's eid: the
         * edge ids of both directions index the primary (CSC) direction's times */
        fo_topology csc;
        assert_fo_ok(fo_dataset_topology(d, FO_EDGE_DIR_IN, &csc));
        x = csc.time[s->edge[e]];
      }
      if (!fot_time_eligible(so, x, tt))
        fail_msg("batch %lld: edge %lld has time %lld, its tree's seed %lld has time %lld "
                 "(strategy %d, mode %d, strict %d, window %lld)", (long long)b->index,
                 (long long)s->edge[e], (long long)x, (long long)s->node[tree], (long long)tt,
                 (int)so->temporal, (int)so->time_attr, (int)so->time_strict,
                 (long long)so->time_window);
      if (s->batch[s->row[e]] != tree) fail_msg("edge %lld leaves its tree", (long long)e);
    }
    edges += s->n_edges;
    batches++;
    fo_loader_release(L, b);
  }
  assert_int_equal(batches, fo_loader_num_batches(L));
  assert_true(edges > 0);
  fo_loader_destroy(L);
}

/* One batch against the temporal reference. */
static void check_reference(const fo_dataset_t *d, const fo_sampler_opts *so, const int64_t *seeds,
                            const int64_t *st, int64_t n) {
  fo_sampler_t *s;
  fo_batch_t *b;
  fot_ref_batch r;
  assert_fo_ok(fo_sampler_create(d, so, &s));
  assert_fo_ok(fo_batch_create(&b));
  assert_fo_ok(fo_sampler_sample_at(s, 0, seeds, st, n, 1, 2, b));
  assert_fo_ok(fot_ref_sample_temporal(d, so, seeds, st, n, 1, 2, &r));
  fot_assert_same_batch(b, &r);
  fot_ref_free(&r);
  fo_batch_destroy(b);
  fo_sampler_destroy(s);
}

/* Every node a seed, at a time drawn uniformly over [lo, hi]. */
static void edge_time_settings(const fo_dataset_t *d, int64_t lo, int64_t hi, bool both_dirs) {
  const int64_t n = fo_dataset_num_nodes(d);
  int64_t *inputs = malloc((size_t)n * 8), *itime = malloc((size_t)n * 8);
  const int32_t f[] = {10, 5};
  uint64_t st = fot_seed(17);
  fot_note_seed(st);
  for (int64_t v = 0; v < n; v++) {
    inputs[v] = v;
    itime[v] = lo + (int64_t)(fot_rand(&st) % (uint64_t)(hi - lo + 1));
  }
  for (int dir = 0; dir < (both_dirs ? 2 : 1); dir++)
    for (int strat = 1; strat <= 2; strat++)
      for (int rep = 0; rep < (strat == 1 ? 2 : 1); rep++)
        for (int strict = 0; strict < 2; strict++)
          for (int win = 0; win < 2; win++) {
            fo_sampler_opts so;
            fo_sampler_opts_init(&so);
            so.fanouts = f;
            so.n_hops = 2;
            so.temporal = (fo_temporal_strategy)strat;
            so.replace = rep;
            so.time_strict = strict;
            so.time_window = win ? (hi - lo) / 20 : -1;
            so.edge_dir = dir ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
            so.seed = 5;
            check_epoch(d, &so, inputs, itime, n, NULL);
            check_reference(d, &so, inputs, itime, n < 300 ? n : 300);
          }
  free(inputs);
  free(itime);
}

static void collegemsg(void **state) {
  (void)state;
  char *in = fot_path(fot_shared_data_dir(), "collegemsg/CollegeMsg.txt.gz");
  fot_ds g;
  fo_import_opts o;
  fo_import_opts_init(&o);
  o.time_column = 2;
  o.csc = o.csr = true;
  fot_ds_import(&g, (const char *const[]){in}, 1, &o);
  assert_int_equal(fo_dataset_num_edges(g.d), 59835);
  assert_fo_ok(fo_dataset_verify(g.d));
  /* 2004-04-15 14:56:01 .. 2004-10-26 07:52:22 UTC, a little beyond both ends */
  edge_time_settings(g.d, 1082040961 - 86400, 1098777142 + 86400, true);
  fot_ds_close(&g);
  free(in);
}

/* wikipedia.csv.gz without its header line, as a plain file in dir. */
static char *jodie_plain(const char *dir) {
  char *in = fot_path(fot_shared_data_dir(), "jodie-wikipedia/wikipedia.csv.gz");
  char *out = fot_path(dir, "wikipedia.csv"), buf[4096];
  gzFile z = gzopen(in, "rb");
  FILE *f = fopen(out, "w");
  bool first = true;
  assert_non_null(z);
  assert_non_null(f);
  while (gzgets(z, buf, sizeof buf)) {
    if (!first) fputs(buf, f);
    first = false;
  }
  gzclose(z);
  fclose(f);
  free(in);
  return out;
}

static void jodie_wikipedia(void **state) {
  (void)state;
  char *tmp = fot_tmpdir(), *csv = jodie_plain(tmp);
  fot_ds g;
  fo_import_opts o;
  fo_import_opts_init(&o);
  o.time_column = 2;
  o.undirected = true;
  fot_ds_import(&g, (const char *const[]){csv}, 1, &o);
  assert_int_equal(fo_dataset_num_nodes(g.d), 9227);
  assert_fo_ok(fo_dataset_verify(g.d));
  edge_time_settings(g.d, -10, 2678373 + 10, false);
  fot_ds_close(&g);
  free(csv);
  fot_rmtree(tmp);
}

static void cit_hepph_dates(void **state) {
  (void)state;
  char *edges = fot_path(fot_shared_data_dir(), "cit-hepph/cit-HepPh.tsv.gz");
  char *dates = fot_path(fot_shared_data_dir(), "cit-hepph/cit-HepPh.nodedates.tsv.gz");
  char *tmp = fot_tmpdir(), *ntp = fot_path(tmp, "nt.npy"), line[512];
  const int64_t n = 34546;
  int64_t *nt = malloc((size_t)n * 8), *inputs = malloc((size_t)n * 8), k = 0;
  const int32_t f[] = {10, 5};
  gzFile z = gzopen(dates, "rb");
  fot_ds g;
  fo_import_opts o;
  assert_non_null(z);
  for (int64_t v = 0; v < n; v++) nt[v] = INT64_MAX; /* no date: never eligible */
  while (gzgets(z, line, sizeof line)) {
    long long node, snap;
    char date[32];
    int64_t t;
    if (line[0] == '#') continue;
    assert_int_equal(sscanf(line, "%lld\t%lld\t%31s", &node, &snap, date), 3);
    assert_true(fo__parse_iso8601(date, strlen(date), &t));
    assert_true(node >= 0 && node < n);
    nt[node] = t;
    inputs[k++] = node;
  }
  gzclose(z);
  assert_int_equal(k, 30558);
  fot_write_npy(ntp, "<i8", 1, &n, nt, (size_t)n * 8);
  fo_import_opts_init(&o);
  o.node_time = ntp;
  o.num_nodes = n;
  o.csc = o.csr = true;
  fot_ds_import(&g, (const char *const[]){edges}, 1, &o);
  assert_fo_ok(fo_dataset_verify(g.d));
  /* out-edges: a paper cites papers submitted before it; in-edges: it is cited later (so
   * in-neighbors are mostly not eligible: the check covers both) */
  for (int dir = 0; dir < 2; dir++)
    for (int strat = 1; strat <= 2; strat++)
      for (int strict = 0; strict < 2; strict++) {
        fo_sampler_opts so;
        fo_sampler_opts_init(&so);
        so.fanouts = f;
        so.n_hops = 2;
        so.temporal = (fo_temporal_strategy)strat;
        so.time_attr = FO_TIME_ATTR_NODE;
        so.time_strict = strict;
        so.time_window = strict ? 365 * 86400 : -1;
        so.edge_dir = dir ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
        so.seed = 2;
        /* seed times: each paper's own date (the loader's default, input_time NULL) */
        {
          int64_t *it = malloc((size_t)k * 8);
          for (int64_t i = 0; i < k; i++) it[i] = nt[inputs[i]];
          check_epoch(g.d, &so, inputs, it, k, nt);
          check_reference(g.d, &so, inputs, NULL, 300);
          free(it);
        }
      }
  fot_ds_close(&g);
  free(nt);
  free(inputs);
  free(ntp);
  free(edges);
  free(dates);
  fot_rmtree(tmp);
}

/* The distributed path in one process (P machines over pd): batch b of machine b mod P equals
 * batch b of the plain loader over d. */
static void dist_equal(const fo_dataset_t *d, const fo_dataset_t *pd, int P, const fo_loader_opts *o,
                       int64_t max_batches) {
  fo_loader_t *L0, *L[4];
  fo_dist_t *dd[4];
  fo_loader_batch_t *bt;
  uint64_t *want = malloc((size_t)max_batches * 8);
  int64_t nw = 0;
  assert_fo_ok(fo_loader_create(d, o, &L0));
  while (nw < max_batches && fo_loader_next(L0, &bt) == FO_OK && bt) {
    want[nw++] = fo_loader_batch_digest(bt);
    fo_loader_release(L0, bt);
  }
  fo_loader_destroy(L0);
  for (int r = 0; r < P; r++) {
    assert_fo_ok(fo_dist_init_local(pd, r, NULL, &dd[r]));
    assert_fo_ok(fo_dist_loader_create(dd[r], pd, o, FO_DIST_TAIL_KEEP, &L[r]));
  }
  for (int64_t b = 0; b < nw; b++) {
    assert_fo_ok(fo_loader_next(L[b % P], &bt));
    assert_non_null(bt);
    if (fo_loader_batch_digest(bt) != want[b]) fail_msg("batch %lld differs from one process", (long long)b);
    fo_loader_release(L[b % P], bt);
  }
  for (int r = 0; r < P; r++) {
    fo_loader_destroy(L[r]);
    assert_fo_ok(fo_dist_finalize(dd[r]));
  }
  free(want);
}

/* cit-HepPh as a typed dataset (one node type "paper", edge type paper__cites__paper, with
 * --node-time paper=dates and --edge-time paper__cites__paper=the citing paper's date): its
 * temporal batches equal the untyped import's, edge for edge (node-time and edge-time modes,
 * in and out edges), and over 4 parts and the distributed path in one process (4 machines)
 * they equal one process. */
static void cit_hepph_typed(void **state) {
  (void)state;
  char *edges = fot_path(fot_shared_data_dir(), "cit-hepph/cit-HepPh.tsv.gz");
  char *dates = fot_path(fot_shared_data_dir(), "cit-hepph/cit-HepPh.nodedates.tsv.gz");
  char *tmp = fot_tmpdir(), *ntp = fot_path(tmp, "nt.npy"), *etp = fot_path(tmp, "et.npy");
  char *tdir = fot_path(tmp, "typed"), *pdir = fot_path(tmp, "typed-p4"), line[512];
  const int64_t n = 34546;
  int64_t *nt = malloc((size_t)n * 8), *et = malloc((size_t)421578 * 8), m = 0, *seeds = malloc(64 * 8);
  gzFile z = gzopen(dates, "rb");
  fot_ds g;
  fo_dataset_t *td, *pd;
  fo_import_opts o;
  fo_import_edge_type ets[1] = {{"paper", "cites", "paper", edges}};
  fo_import_node_type nto[1] = {{"paper", 34546, NULL, NULL, NULL, NULL}};
  fo_import_node_time ntt[1] = {{"paper", ntp}};
  fo_import_edge_weight ett[1] = {{"paper__cites__paper", etp}};
  fo_partition_opts po;
  fo_batch_t *b1, *b2;
  uint64_t st = 5;
  assert_non_null(z);
  for (int64_t v = 0; v < n; v++) nt[v] = INT64_MAX / 2; /* no date: after every dated paper */
  while (gzgets(z, line, sizeof line)) {
    long long node, snap;
    char date[32];
    int64_t t;
    if (line[0] == '#') continue;
    assert_int_equal(sscanf(line, "%lld\t%lld\t%31s", &node, &snap, date), 3);
    assert_true(fo__parse_iso8601(date, strlen(date), &t));
    nt[node] = t;
  }
  gzclose(z);
  z = gzopen(edges, "rb");
  assert_non_null(z);
  while (gzgets(z, line, sizeof line)) {
    long long a, c;
    if (line[0] == '#') continue;
    assert_int_equal(sscanf(line, "%lld\t%lld", &a, &c), 2);
    et[m++] = nt[a]; /* a citation happens when the citing paper is submitted */
  }
  gzclose(z);
  assert_int_equal(m, 421578);
  fot_write_npy(ntp, "<i8", 1, &n, nt, (size_t)n * 8);
  fot_write_npy(etp, "<i8", 1, &m, et, (size_t)m * 8);
  /* untyped, and typed */
  fo_import_opts_init(&o);
  o.node_time = ntp;
  o.edge_time = etp;
  o.num_nodes = n;
  o.csc = o.csr = true;
  fot_ds_import(&g, (const char *const[]){edges}, 1, &o);
  fo_import_opts_init(&o);
  o.csc = o.csr = true;
  o.edge_types = ets;
  o.n_edge_types = 1;
  o.node_type_opts = nto;
  o.n_node_type_opts = 1;
  o.node_times = ntt;
  o.n_node_times = 1;
  o.edge_times = ett;
  o.n_edge_times = 1;
  assert_fo_ok(fo_import(NULL, 0, tdir, &o, NULL));
  assert_fo_ok(fo_dataset_open(tdir, NULL, &td));
  assert_fo_ok(fo_dataset_verify(td));
  fo_partition_opts_init(&po);
  po.n_parts = 4;
  assert_fo_ok(fo_partition(tdir, pdir, &po, NULL));
  assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
  assert_fo_ok(fo_batch_create(&b1));
  assert_fo_ok(fo_batch_create(&b2));
  for (int mode = 0; mode < 4; mode++) {
    fo_sampler_opts so;
    fo_sampler_t *s1, *s2;
    const int32_t f[] = {10, 5};
    int64_t edges_seen = 0;
    fo_sampler_opts_init(&so);
    so.fanouts = f;
    so.n_hops = 2;
    so.temporal = mode & 1 ? FO_TEMPORAL_LAST : FO_TEMPORAL_UNIFORM;
    so.time_attr = mode < 2 ? FO_TIME_ATTR_NODE : FO_TIME_ATTR_EDGE;
    so.time_strict = mode == 1;
    so.time_window = mode == 3 ? 2 * 365 * 86400 : -1;
    so.edge_dir = mode & 1 ? FO_EDGE_DIR_IN : FO_EDGE_DIR_OUT;
    so.seed = 6;
    assert_fo_ok(fo_sampler_create(g.d, &so, &s1));
    assert_fo_ok(fo_sampler_create(td, &so, &s2));
    for (uint64_t bi = 0; bi < 100; bi++) {
      int64_t times[64];
      for (int i = 0; i < 64; i++) {
        seeds[i] = (int64_t)(fot_rand(&st) % (uint64_t)n);
        /* out-edges at the paper's date; in-edges (later citations) at a later time */
        times[i] = nt[seeds[i]] < INT64_MAX / 2 ? nt[seeds[i]] + (mode & 1 ? 3 * 365 * 86400 : 0) : 1000000000;
      }
      assert_fo_ok(fo_sampler_sample_at(s1, 0, seeds, times, 64, 0, bi, b1));
      assert_fo_ok(fo_sampler_sample_at(s2, 0, seeds, times, 64, 0, bi, b2));
      {
        const fo_batch_t *x = fo_batch_node_type(b2, 0), *y = fo_batch_edge_type(b2, 0);
        assert_int_equal(b1->n_nodes, x->n_nodes);
        assert_int_equal(b1->n_edges, y->n_edges);
        assert_memory_equal(b1->node, x->node, (size_t)b1->n_nodes * 8);
        if (b1->n_edges) {
          assert_memory_equal(b1->row, y->row, (size_t)b1->n_edges * 8);
          assert_memory_equal(b1->col, y->col, (size_t)b1->n_edges * 8);
          assert_memory_equal(b1->edge, y->edge, (size_t)b1->n_edges * 8);
        }
        edges_seen += b1->n_edges;
      }
    }
    assert_true(edges_seen > 1000);
    fo_sampler_destroy(s1);
    fo_sampler_destroy(s2);
    {
      /* over the parts and the distributed path (typed parts carry both directions) */
      fo_loader_opts lo;
      fo_loader_opts_init(&lo);
      lo.sampler = so;
      lo.batch_size = 256;
      lo.shuffle = true;
      lo.num_workers = 1;
      lo.features = lo.labels = false;
      dist_equal(td, pd, 4, &lo, 24);
    }
  }
  fo_batch_destroy(b1);
  fo_batch_destroy(b2);
  fo_dataset_close(pd);
  fo_dataset_close(td);
  fot_ds_close(&g);
  free(nt), free(et), free(seeds), free(ntp), free(etp), free(tdir), free(pdir), free(edges), free(dates);
  fot_rmtree(tmp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(collegemsg),
      cmocka_unit_test(jodie_wikipedia),
      cmocka_unit_test(cit_hepph_dates),
      cmocka_unit_test(cit_hepph_typed),
  };
  if (!fot_shared_data_dir()) {
    printf("shared data directory absent (set FO_SHARED_DATA): skipped\n");
    return FOT_SKIP;
  }
  return cmocka_run_group_tests(tests, NULL, NULL);
}
