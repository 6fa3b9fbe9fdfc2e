/*
 * tests/unit/test_partition.c: partitioning (include/fanout/partition.h) and partitioned
 * datasets (fo_dataset_num_parts, fo_dataset_part, fo_dataset_node_part in dataset.h).
 *
 * Every partition written here is checked against the unpartitioned dataset it came from
 * (check_partition): every node is owned by exactly one part (the parts' row_nodes are disjoint,
 * ascending and cover 0..n-1); each row holds exactly that node's CSC list of the original, in
 * the same order, with the same global edge ids, so the parts' edges together are exactly the
 * original edges (every edge id seen once); feature rows, labels and split members of each part
 * are the original's; the top-level splits are the original's, in order; fo_dataset_node_part
 * and the book agree with ownership; the rank directories count what they should; range
 * partitions are contiguous, balanced and store no book; the report's counts, cut, halo and
 * ratios are recomputed here from the ownership; fo_partition_quality on the output gives the
 * same report; fo_dataset_verify passes. Then sampling the partitioned dataset (all parts in this
 * process) must give byte-identical batches to sampling the original, for random seeds,
 * fanouts, replace and disjoint, and a loader with features and labels over a split must give
 * the same epoch digests with 0 and 2 workers.
 *
 * Methods: hash, range (balance nodes and train) and METIS (balance nodes and train), for P in
 * {1, 2, 3, 7, n} on tiny fixtures (cycle, two cliques, a star with isolated nodes, random
 * multigraphs with self loops and repeats, int32 and int64 indices, four feature dtypes), on
 * Cora (planetoid, undirected) and on facebook-combined (undirected, with features, labels and
 * splits written here). Then: book width (uint8 up to 256 parts, uint16 beyond), METIS cuts far
 * fewer edges than hash, determinism, corruption caught by fo_dataset_verify, the error paths
 * (code and message), failed or cancelled partitions leave nothing behind, and the refusals
 * (sampling one part, edge_dir out).
 *
 * Partitions with P = n write n part directories; every file is fsync'ed, which on a disk takes
 * minutes for Cora, so the temporary directory is /dev/shm when TMPDIR is unset, and the P = n
 * cases on Cora and facebook-combined run only when it is a tmpfs (a note says when skipped).
 * Randomized cases print FO_TEST_SEED=<n>; rerun one with that variable set.
 */
#include "support.h"

#include "store/store_internal.h"

#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <xxhash.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define N_OF(a) ((int64_t)(sizeof(a) / sizeof((a)[0])))
#define TMPFS_MAGIC_ 0x01021994

static bool FAST_TMP; /* TMPDIR is a tmpfs: the P = n cases on the real graphs are affordable */
static char *METIS_ENV; /* FO_METIS_LIBRARY as the test started (tests change it) */

/* Before each test: FO_METIS_LIBRARY as it was (a failed test may have left it changed). */
static int reset_env(void **state) {
  (void)state;
  if (METIS_ENV) setenv("FO_METIS_LIBRARY", METIS_ENV, 1);
  else unsetenv("FO_METIS_LIBRARY");
  return 0;
}

static int64_t ld(const void *a, int bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

/* Compare n int64 values (no memcmp: pointers of empty arrays may be NULL). */
static void same_i64(const char *what, const int64_t *got, const int64_t *want, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (got[i] != want[i])
      fail_msg("%s[%lld] = %lld, expected %lld", what, (long long)i, (long long)got[i],
               (long long)want[i]);
}

static void same_bytes(const char *what, const void *got, const void *want, size_t n) {
  const unsigned char *g = got, *w = want;
  for (size_t i = 0; i < n; i++)
    if (g[i] != w[i]) fail_msg("%s: byte %zu is %u, expected %u", what, i, g[i], w[i]);
}

/* Entries of directory `dir` other than . and .. (0 if it does not exist). */
static int dir_entries(const char *dir, char *first, size_t cap) {
  DIR *d = opendir(dir);
  struct dirent *de;
  int n = 0;
  if (first && cap) first[0] = '\0';
  if (!d) return 0;
  while ((de = readdir(d)) != NULL) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    if (n == 0 && first) snprintf(first, cap, "%s", de->d_name);
    n++;
  }
  closedir(d);
  return n;
}

static bool exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

/* ---- datasets ---------------------------------------------------------------------------- */

typedef fot_ds ds;

typedef struct fx_opts {
  bool nodedata;            /* features, labels and splits train, val, test */
  bool empty_train;         /* train split present but empty */
  bool csr;                 /* also store the CSR */
  fo_index_dtype idx;
  fo_feature_dtype fdt;
} fx_opts;

#define FX_D 3

/* Import `e` (n nodes) into a fresh dir. With node data: features [n, 3] (distinct values per
 * row), labels v % 4 (-1 when v % 5 == 0), splits train (v % 3 == 0 ascending, then one of
 * them again), val (v % 3 == 1 descending) and test (v % 4 == 2, adjacent pairs swapped). */
static void make_graph(ds *g, const char *name, const fot_edges *e, int64_t n, const fx_opts *fo) {
  fo_import_opts o;
  fo_import_opts_init(&o);
  o.num_nodes = n;
  o.csr = fo->csr;
  o.index_dtype = fo->idx;
  o.feature_dtype = fo->fdt;
  g->name = name;
  if (fo->nodedata) {
    float *x = malloc((size_t)(n * FX_D + 1) * sizeof *x);
    int64_t *y = malloc((size_t)(n + 1) * 8), *tr = malloc((size_t)(n + 1) * 8),
            *va = malloc((size_t)(n + 1) * 8), *te = malloc((size_t)(n + 1) * 8);
    fot_nodedata nd = {.x = x, .dim = FX_D, .y = y, .train = tr, .val = va, .test = te};
    for (int64_t v = 0; v < n; v++) {
      for (int j = 0; j < FX_D; j++) x[v * FX_D + j] = (float)(v * FX_D + j) * 0.25f - 7.0f;
      y[v] = v % 5 == 0 ? -1 : v % 4;
      if (v % 3 == 0 && !fo->empty_train) tr[nd.n_train++] = v;
      if (v % 4 == 2) te[nd.n_test++] = v;
    }
    for (int64_t v = n - 1; v >= 0; v--)
      if (v % 3 == 1) va[nd.n_val++] = v;
    if (nd.n_train > 1) { /* a repeated train node (counted once) */
      int64_t again = tr[nd.n_train / 2];
      tr[nd.n_train++] = again;
    }
    for (int64_t i = 0; i + 1 < nd.n_test; i += 2) {
      int64_t t = te[i];
      te[i] = te[i + 1];
      te[i + 1] = t;
    }
    fot_ds_edges(g, e, &nd, &o);
    free(x);
    free(y);
    free(tr);
    free(va);
    free(te);
  } else {
    fot_ds_edges(g, e, NULL, &o);
  }
}

/* Cora (planetoid, undirected): 2708 nodes, 10556 edges, features, labels, train/val/test. */
static void make_cora(ds *g) {
  fo_import_opts o;
  fo_import_opts_init(&o);
  fot_ds_cora(g, o.feature_dtype);
  g->name = "cora";
}

#define FB_N 4039
#define FB_D 4

/* facebook-combined (undirected: 4039 nodes, 176468 edges) with float32 features [n, 4],
 * labels v % 5, a train split of every 7th node in a scrambled order and a val split. */
static void make_facebook(ds *g) {
  char *tsv = fot_path(fot_data_dir(), "facebook-combined/facebook_combined.tsv.gz");
  const char *inputs[1] = {tsv};
  fo_import_opts o;
  float *x = malloc((size_t)FB_N * FB_D * sizeof *x);
  int64_t *y = malloc(FB_N * 8), *tr = malloc(FB_N * 8), *va = malloc(FB_N * 8);
  int64_t n = FB_N, ntr = 0, nva = 0, shape[2] = {FB_N, FB_D};
  char *fx, *fy, *ftr, *fva, spec[4096];
  g->name = "facebook";
  g->tmp = fot_tmpdir();
  g->dir = fot_path(g->tmp, "g");
  fx = fot_path(g->tmp, "x.npy");
  fy = fot_path(g->tmp, "y.npy");
  ftr = fot_path(g->tmp, "train.npy");
  fva = fot_path(g->tmp, "val.npy");
  for (int64_t v = 0; v < n; v++) {
    for (int j = 0; j < FB_D; j++) x[v * FB_D + j] = (float)((v * 31 + j * 7) % 1000) / 8.0f;
    y[v] = v % 5;
  }
  /* train: the multiples of 7, visited in the order (i * 101) mod 577 (577 = ceil(4039 / 7)) */
  for (int64_t i = 0; i < 577; i++) tr[ntr++] = ((i * 101) % 577) * 7;
  for (int64_t v = 3; v < n; v += 11) va[nva++] = v;
  fot_write_npy(fx, "<f4", 2, shape, x, (size_t)FB_N * FB_D * sizeof *x);
  fot_write_npy(fy, "<i8", 1, &n, y, (size_t)n * 8);
  fot_write_npy(ftr, "<i8", 1, &ntr, tr, (size_t)ntr * 8);
  fot_write_npy(fva, "<i8", 1, &nva, va, (size_t)nva * 8);
  snprintf(spec, sizeof spec, "train=%s,val=%s", ftr, fva);
  fo_import_opts_init(&o);
  o.undirected = true;
  o.num_nodes = FB_N;
  o.features = fx;
  o.labels = fy;
  o.splits = spec;
  assert_fo_ok(fo_import(inputs, 1, g->dir, &o, NULL));
  assert_fo_ok(fo_dataset_open(g->dir, NULL, &g->d));
  assert_int_equal(fo_dataset_num_nodes(g->d), FB_N);
  assert_int_equal(fo_dataset_num_edges(g->d), 176468);
  free(tsv);
  free(x);
  free(y);
  free(tr);
  free(va);
  free(fx);
  free(fy);
  free(ftr);
  free(fva);
}

/* ---- partitions -------------------------------------------------------------------------- */

static const char *const METHOD[] = {"hash", "range", "metis"};

typedef struct pt {
  char *dir;
  fo_dataset_t *d;
  fo_partition_report rep;
  int32_t P;
  fo_partition_method method;
  fo_partition_balance balance;
  const char *train_split;
} pt;

static fo_partition_opts popts(int32_t P, fo_partition_method m, fo_partition_balance b,
                               uint64_t seed) {
  fo_partition_opts o;
  fo_partition_opts_init(&o);
  o.n_parts = P;
  o.method = m;
  o.balance = b;
  o.seed = seed;
  return o;
}

/* Partition g into g->tmp/<out_name> with options `o`, and open the result. */
static void partition_with(const ds *g, const char *out_name, const fo_partition_opts *o, pt *p) {
  memset(p, 0, sizeof *p);
  p->dir = fot_path(g->tmp, out_name);
  p->P = o->n_parts;
  p->method = o->method;
  p->balance = o->balance;
  p->train_split = o->train_split ? o->train_split : "train";
  memset(&p->rep, 0x5a, sizeof p->rep);
  {
    int rc = fo_partition(g->dir, p->dir, o, &p->rep);
    if (rc != FO_OK)
      fail_msg("%s: partition P=%d method %s balance %d: %s: %s", g->name, (int)o->n_parts,
               METHOD[o->method], (int)o->balance, fo_status_name(rc), fo_last_error());
  }
  assert_fo_ok(fo_dataset_open(p->dir, NULL, &p->d));
}

static void partition_ok(const ds *g, int32_t P, fo_partition_method m, fo_partition_balance b,
                         uint64_t seed, pt *p) {
  static int serial;
  fo_partition_opts o = popts(P, m, b, seed);
  char name[64];
  snprintf(name, sizeof name, "p-%s-%d-%d-%d", METHOD[m], (int)b, (int)P, serial++);
  partition_with(g, name, &o, p);
}

static void pt_free(pt *p) {
  fo_dataset_close(p->d);
  fo_partition_report_free(&p->rep);
  fot_rmtree(p->dir);
  memset(p, 0, sizeof *p);
}

/* NULL when the reports agree field by field (doubles within 1e-12), else what differs (a
 * static buffer). */
static const char *report_mismatch(const fo_partition_report *got,
                                   const fo_partition_report *want) {
  static char msg[512];
  const double gd[4] = {got->edge_cut, got->replication, got->node_balance, got->train_balance};
  const double wd[4] = {want->edge_cut, want->replication, want->node_balance, want->train_balance};
  static const char *const dn[4] = {"edge_cut", "replication", "node_balance", "train_balance"};
  if (got->n_parts != want->n_parts || got->n_nodes != want->n_nodes ||
      got->n_edges != want->n_edges || got->train_nodes != want->train_nodes ||
      got->cut_edges != want->cut_edges) {
    snprintf(msg, sizeof msg, "parts %d/%d nodes %lld/%lld edges %lld/%lld train %lld/%lld cut "
             "%lld/%lld (got/expected)", (int)got->n_parts, (int)want->n_parts,
             (long long)got->n_nodes, (long long)want->n_nodes, (long long)got->n_edges,
             (long long)want->n_edges, (long long)got->train_nodes, (long long)want->train_nodes,
             (long long)got->cut_edges, (long long)want->cut_edges);
    return msg;
  }
  for (int i = 0; i < 4; i++)
    if (fabs(gd[i] - wd[i]) > 1e-12 * (fabs(wd[i]) > 1 ? fabs(wd[i]) : 1)) {
      snprintf(msg, sizeof msg, "%s = %.17g, expected %.17g", dn[i], gd[i], wd[i]);
      return msg;
    }
  if (!got->parts) return "parts is NULL";
  for (int32_t k = 0; k < want->n_parts; k++) {
    const fo_partition_part *a = &got->parts[k], *b = &want->parts[k];
    if (a->nodes != b->nodes || a->edges != b->edges || a->train_nodes != b->train_nodes ||
        a->halo_nodes != b->halo_nodes) {
      snprintf(msg, sizeof msg, "part %d: nodes %lld/%lld edges %lld/%lld train %lld/%lld halo "
               "%lld/%lld (got/expected)", (int)k, (long long)a->nodes, (long long)b->nodes,
               (long long)a->edges, (long long)b->edges, (long long)a->train_nodes,
               (long long)b->train_nodes, (long long)a->halo_nodes, (long long)b->halo_nodes);
      return msg;
    }
  }
  return NULL;
}

static void same_report(const char *what, const fo_partition_report *got,
                        const fo_partition_report *want) {
  const char *diff = report_mismatch(got, want);
  if (diff) fail_msg("%s: %s", what, diff);
}

/* Range bounds from the partitioned manifest (malloc'ed [P + 1]); NULL when the book is not a
 * range. */
static int64_t *manifest_bounds(const fo_dataset_t *d) {
  json_error_t err;
  json_t *root = json_loads(fo_dataset_manifest(d), 0, &err), *book, *b;
  int64_t *bounds = NULL;
  size_t i;
  if (!root) fail_msg("manifest: %s", err.text);
  book = json_object_get(root, "book");
  assert_non_null(book);
  if (!strcmp(json_string_value(json_object_get(book, "kind")), "range")) {
    json_t *jb = json_object_get(book, "bounds");
    bounds = malloc((json_array_size(jb) + 1) * sizeof *bounds);
    json_array_foreach(jb, i, b) bounds[i] = (int64_t)json_integer_value(b);
  } else {
    assert_string_equal(json_string_value(json_object_get(book, "kind")), "array");
  }
  json_decref(root);
  return bounds;
}

/* The manifests as docs/FORMAT.md describes them: the top level's format, counts, method,
 * balance, part names and stored quality; each part's index, num_rows and edge_id_bound. */
static void check_manifests(const fo_dataset_t *d, const pt *p) {
  json_error_t err;
  json_t *root = json_loads(fo_dataset_manifest(d), 0, &err), *jp, *q, *qp;
  assert_non_null(root);
  assert_string_equal(json_string_value(json_object_get(root, "format")), "fanout-partitioned");
  assert_int_equal(json_integer_value(json_object_get(root, "num_parts")), p->P);
  assert_int_equal(json_integer_value(json_object_get(root, "num_nodes")), fo_dataset_num_nodes(d));
  assert_int_equal(json_integer_value(json_object_get(root, "num_edges")), fo_dataset_num_edges(d));
  assert_string_equal(json_string_value(json_object_get(root, "method")), METHOD[p->method]);
  assert_string_equal(json_string_value(json_object_get(root, "balance")),
                      p->balance == FO_BALANCE_TRAIN ? "train" : "nodes");
  jp = json_object_get(root, "parts");
  assert_int_equal(json_array_size(jp), p->P);
  q = json_object_get(root, "quality");
  assert_non_null(q);
  assert_int_equal(json_integer_value(json_object_get(q, "cut_edges")), p->rep.cut_edges);
  qp = json_object_get(q, "parts");
  assert_int_equal(json_array_size(qp), p->P);
  for (int32_t k = 0; k < p->P; k++) {
    char name[32];
    const fo_dataset_t *pp = fo_dataset_part(d, k);
    json_t *pr, *jq = json_array_get(qp, (size_t)k);
    snprintf(name, sizeof name, "part-%d", (int)k);
    assert_string_equal(json_string_value(json_array_get(jp, (size_t)k)), name);
    assert_int_equal(json_integer_value(json_object_get(jq, "nodes")), p->rep.parts[k].nodes);
    assert_int_equal(json_integer_value(json_object_get(jq, "edges")), p->rep.parts[k].edges);
    assert_int_equal(json_integer_value(json_object_get(jq, "train_nodes")), p->rep.parts[k].train_nodes);
    assert_int_equal(json_integer_value(json_object_get(jq, "halo_nodes")), p->rep.parts[k].halo_nodes);
    pr = json_loads(fo_dataset_manifest(pp), 0, &err);
    assert_non_null(pr);
    assert_string_equal(json_string_value(json_object_get(pr, "format")), "fanout-dataset");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(pr, "part"), "index")), k);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(pr, "part"), "of")), p->P);
    assert_int_equal(json_integer_value(json_object_get(pr, "num_rows")), p->rep.parts[k].nodes);
    assert_int_equal(json_integer_value(json_object_get(pr, "num_nodes")), fo_dataset_num_nodes(d));
    assert_int_equal(json_integer_value(json_object_get(pr, "edge_id_bound")), fo_dataset_num_edges(d));
    json_decref(pr);
  }
  json_decref(root);
}

/* The whole check of partition `p` of dataset `o` (see the file comment). */
static void check_partition(const fo_dataset_t *o, const pt *p) {
  const fo_dataset_t *d = p->d;
  const int64_t n = fo_dataset_num_nodes(o), m = fo_dataset_num_edges(o);
  const int32_t P = p->P;
  fo_topology ot;
  int32_t *owner = malloc((size_t)(n + 1) * sizeof *owner), *stamp;
  int64_t *rowof = malloc((size_t)(n + 1) * sizeof *rowof), sum_edges = 0, T = 0;
  uint8_t *eseen = calloc((size_t)(m + 1), 1), *is_train = calloc((size_t)(n + 1), 1);
  fo_partition_report want;
  const int64_t *tr_ids;
  int64_t n_tr;
  bool has_train = fo_dataset_split(o, p->train_split, &tr_ids, &n_tr) == FO_OK;
  char what[160];

  snprintf(what, sizeof what, "partition %s P=%d balance %d", METHOD[p->method], (int)P,
           (int)p->balance);
  fo_clear_error();
  if (has_train)
    for (int64_t i = 0; i < n_tr; i++)
      if (!is_train[tr_ids[i]]) {
        is_train[tr_ids[i]] = 1;
        T++;
      }
  assert_fo_ok(fo_dataset_topology(o, FO_EDGE_DIR_IN, &ot));
  assert_int_equal(fo_dataset_num_parts(o), 0);
  assert_int_equal(fo_dataset_num_parts(d), P);
  assert_int_equal(fo_dataset_num_nodes(d), n);
  assert_int_equal(fo_dataset_num_edges(d), m);
  assert_string_equal(fo_dataset_partition_method(d), METHOD[p->method]);
  assert_null(fo_dataset_part(d, -1));
  assert_null(fo_dataset_part(d, P));
  assert_null(fo_dataset_part(o, 0));
  for (int64_t v = 0; v < n; v++) owner[v] = -1;

  memset(&want, 0, sizeof want);
  want.n_parts = P;
  want.n_nodes = n;
  want.n_edges = m;
  want.parts = calloc((size_t)P, sizeof *want.parts);

  for (int32_t k = 0; k < P; k++) {
    const fo_dataset_t *pp = fo_dataset_part(d, k);
    fo_topology t;
    assert_non_null(pp);
    assert_int_equal(fo_dataset_num_parts(pp), 0);
    assert_int_equal(fo_dataset_num_nodes(pp), n);
    assert_fo_ok(fo_dataset_topology(pp, FO_EDGE_DIR_IN, &t));
    assert_false(fo_dataset_has_topology(pp, FO_EDGE_DIR_OUT));
    assert_int_equal(t.dir, FO_EDGE_DIR_IN);
    assert_int_equal(t.n_nodes, n);
    assert_int_equal(t.edge_id_bound, m);
    assert_int_equal(t.n_edges, fo_dataset_num_edges(pp));
    assert_int_equal(t.indptr[0], 0);
    assert_int_equal(t.indptr[t.n_rows], t.n_edges);
    assert_int_equal(t.indices_bytes, ot.indices_bytes); /* the index width is kept */
    if (t.n_rows > 0) assert_non_null(t.row_nodes);
    if (t.n_edges > 0) assert_non_null(t.eid);
    sum_edges += t.n_edges;
    want.parts[k].nodes = t.n_rows;
    want.parts[k].edges = t.n_edges;
    for (int64_t r = 0; r < t.n_rows; r++) {
      int64_t v = t.row_nodes[r], a, b, pa;
      if (v < 0 || v >= n) fail_msg("%s: part %d row %lld is node %lld", what, (int)k, (long long)r, (long long)v);
      if (r > 0 && v <= t.row_nodes[r - 1])
        fail_msg("%s: part %d rows not ascending at %lld", what, (int)k, (long long)r);
      if (owner[v] >= 0)
        fail_msg("%s: node %lld owned by parts %d and %d", what, (long long)v, owner[v], (int)k);
      owner[v] = k;
      rowof[v] = r;
      if (is_train[v]) want.parts[k].train_nodes++;
      a = ot.indptr[v];
      b = ot.indptr[v + 1];
      pa = t.indptr[r];
      if (t.indptr[r + 1] - pa != b - a)
        fail_msg("%s: node %lld has %lld in-edges in part %d, %lld in the original", what,
                 (long long)v, (long long)(t.indptr[r + 1] - pa), (int)k, (long long)(b - a));
      for (int64_t e = a; e < b; e++) {
        int64_t u = ld(t.indices, t.indices_bytes, pa + e - a);
        int64_t id = ld(t.eid, t.eid_bytes, pa + e - a);
        int64_t want_id = ot.eid ? ld(ot.eid, ot.eid_bytes, e) : e;
        if (u != ld(ot.indices, ot.indices_bytes, e) || id != want_id)
          fail_msg("%s: node %lld neighbor %lld is (%lld, edge %lld) in part %d, (%lld, edge "
                   "%lld) in the original", what, (long long)v, (long long)(e - a), (long long)u,
                   (long long)id, (int)k, (long long)ld(ot.indices, ot.indices_bytes, e),
                   (long long)want_id);
        if (id < 0 || id >= m || eseen[id])
          fail_msg("%s: edge id %lld seen twice", what, (long long)id);
        eseen[id] = 1;
      }
    }
    /* node data of the part */
    assert_int_equal(fo_dataset_has_features(pp), fo_dataset_has_features(o));
    if (fo_dataset_has_features(o)) {
      fo_features of, pf;
      size_t rb;
      assert_fo_ok(fo_dataset_features(o, &of));
      assert_fo_ok(fo_dataset_features(pp, &pf));
      assert_string_equal(pf.dtype, of.dtype);
      assert_int_equal(pf.dim, of.dim);
      assert_int_equal(pf.itemsize, of.itemsize);
      assert_int_equal(pf.n_rows, t.n_rows);
      rb = (size_t)(of.dim * of.itemsize);
      for (int64_t r = 0; r < t.n_rows; r++)
        same_bytes("feature row", (const char *)pf.data + (size_t)r * rb,
                   (const char *)of.data + (size_t)t.row_nodes[r] * rb, rb);
      assert_int_equal(pf.scale != NULL, of.scale != NULL);
      if (of.scale) {
        same_bytes("x_scale", pf.scale, of.scale, (size_t)of.dim * 4);
        same_bytes("x_offset", pf.offset, of.offset, (size_t)of.dim * 4);
      }
    }
    assert_int_equal(fo_dataset_has_labels(pp), fo_dataset_has_labels(o));
    if (fo_dataset_has_labels(o)) {
      const int64_t *oy, *py;
      int64_t on, pn, oc, pc;
      assert_fo_ok(fo_dataset_labels(o, &oy, &on, &oc));
      assert_fo_ok(fo_dataset_labels(pp, &py, &pn, &pc));
      assert_int_equal(pn, t.n_rows);
      assert_int_equal(pc, oc);
      for (int64_t r = 0; r < t.n_rows; r++)
        if (py[r] != oy[t.row_nodes[r]])
          fail_msg("%s: part %d label of row %lld", what, (int)k, (long long)r);
    }
    /* split members owned by the part, in the split's order */
    assert_int_equal(fo_dataset_num_splits(pp), fo_dataset_num_splits(o));
    for (int64_t i = 0; i < fo_dataset_num_splits(o); i++) {
      const char *sn = fo_dataset_split_name(o, i);
      const int64_t *oids, *pids;
      int64_t on, pn, j = 0;
      assert_fo_ok(fo_dataset_split(o, sn, &oids, &on));
      assert_fo_ok(fo_dataset_split(pp, sn, &pids, &pn));
      for (int64_t q = 0; q < on; q++) {
        /* owner[] of this part's rows is set already; other nodes may still be -1 */
        int64_t v = oids[q], lo = 0, hi = t.n_rows;
        while (lo < hi) {
          int64_t mid = lo + (hi - lo) / 2;
          if (t.row_nodes[mid] < v) lo = mid + 1;
          else hi = mid;
        }
        if (lo < t.n_rows && t.row_nodes[lo] == v) {
          if (j >= pn || pids[j] != v)
            fail_msg("%s: part %d split '%s' member %lld should be node %lld", what, (int)k, sn,
                     (long long)j, (long long)v);
          j++;
        }
      }
      if (j != pn) fail_msg("%s: part %d split '%s' has %lld members, expected %lld", what, (int)k, sn, (long long)pn, (long long)j);
    }
    /* rank directory: rows of the part before each block of 64 node ids */
    {
      fo_array_info ra;
      if (p->method == FO_PARTITION_RANGE) {
        assert_int_equal(fo_dataset_array(pp, "row_rank", &ra), FO_EINVAL);
      } else {
        int64_t nb = (n + 63) / 64 + 1, r = 0;
        assert_fo_ok(fo_dataset_array(pp, "row_rank", &ra));
        assert_string_equal(ra.dtype, "<u4");
        assert_int_equal(ra.shape[0], nb);
        for (int64_t b = 0; b < nb; b++) {
          while (r < t.n_rows && t.row_nodes[r] < 64 * b) r++;
          if ((int64_t)((const uint32_t *)ra.data)[b] != r)
            fail_msg("%s: part %d row_rank[%lld] = %u, expected %lld", what, (int)k, (long long)b,
                     ((const uint32_t *)ra.data)[b], (long long)r);
        }
      }
    }
  }
  /* every node owned once, every edge once */
  for (int64_t v = 0; v < n; v++)
    if (owner[v] < 0) fail_msg("%s: node %lld is owned by no part", what, (long long)v);
  assert_int_equal(sum_edges, m);
  for (int64_t e = 0; e < m; e++)
    if (!eseen[e]) fail_msg("%s: edge id %lld is in no part", what, (long long)e);

  /* fo_dataset_node_part agrees with the rows */
  for (int64_t v = 0; v < n; v++) {
    int k = -1;
    int64_t r = -1;
    assert_fo_ok(fo_dataset_node_part(d, v, &k, &r));
    if (k != owner[v] || r != rowof[v])
      fail_msg("%s: node_part(%lld) = (%d, %lld), the parts say (%d, %lld)", what, (long long)v, k,
               (long long)r, owner[v], (long long)rowof[v]);
  }
  {
    int k;
    int64_t r;
    assert_fo_error(fo_dataset_node_part(d, -1, &k, &r), FO_ERANGE, "-1");
    assert_fo_error(fo_dataset_node_part(d, n, &k, &r), FO_ERANGE, "not in");
  }

  /* the book */
  {
    fo_array_info ba;
    int64_t *bounds = manifest_bounds(d);
    if (p->method == FO_PARTITION_RANGE) {
      assert_non_null(bounds);
      assert_int_equal(fo_dataset_array(d, "book", &ba), FO_EINVAL);
      for (int32_t k = 0; k < P; k++) {
        const fo_dataset_t *pp = fo_dataset_part(d, k);
        fo_topology t;
        assert_fo_ok(fo_dataset_topology(pp, FO_EDGE_DIR_IN, &t));
        /* contiguous ranges in part order, none empty */
        assert_int_equal(t.n_rows, bounds[k + 1] - bounds[k]);
        if (t.n_rows == 0) fail_msg("%s: range part %d is empty", what, (int)k);
        for (int64_t r = 0; r < t.n_rows; r++) assert_int_equal(t.row_nodes[r], bounds[k] + r);
        if (p->balance == FO_BALANCE_NODES &&
            (t.n_rows < n / P || t.n_rows > (n + P - 1) / P))
          fail_msg("%s: range part %d has %lld nodes, not n / P rounded", what, (int)k,
                   (long long)t.n_rows);
      }
      /* balance train: when T >= P and no part had to be stretched to stay non-empty, the
       * train counts differ by at most one */
      if (p->balance == FO_BALANCE_TRAIN && T >= P) {
        int64_t *pos = malloc((size_t)(T + 1) * 8), c = 0, lo = INT64_MAX, hi = 0;
        bool clamped = false;
        for (int64_t v = 0; v < n; v++)
          if (is_train[v]) pos[c++] = v;
        for (int32_t k = 1; k < P; k++) {
          int64_t tk = T * k / P;
          if (pos[tk - 1] + 1 > n - (P - k)) clamped = true;
        }
        for (int32_t k = 0; k < P; k++) {
          if (want.parts[k].train_nodes < lo) lo = want.parts[k].train_nodes;
          if (want.parts[k].train_nodes > hi) hi = want.parts[k].train_nodes;
        }
        if (!clamped && hi - lo > 1)
          fail_msg("%s: train nodes per range part from %lld to %lld", what, (long long)lo,
                   (long long)hi);
        free(pos);
      }
    } else {
      assert_null(bounds);
      assert_fo_ok(fo_dataset_array(d, "book", &ba));
      assert_string_equal(ba.dtype, P <= 256 ? "|u1" : "<u2");
      assert_int_equal(ba.ndim, 1);
      assert_int_equal(ba.shape[0], n);
      for (int64_t v = 0; v < n; v++) {
        int64_t bk = P <= 256 ? ((const uint8_t *)ba.data)[v] : ((const uint16_t *)ba.data)[v];
        if (bk != owner[v]) fail_msg("%s: book[%lld] = %lld, owner %d", what, (long long)v, (long long)bk, owner[v]);
      }
    }
    free(bounds);
  }

  /* the report, recomputed: cut edges and distinct halo in-neighbors per part */
  stamp = malloc((size_t)(n + 1) * sizeof *stamp);
  for (int64_t v = 0; v < n; v++) stamp[v] = -1;
  for (int32_t k = 0; k < P; k++) {
    const fo_dataset_t *pp = fo_dataset_part(d, k);
    fo_topology t;
    assert_fo_ok(fo_dataset_topology(pp, FO_EDGE_DIR_IN, &t));
    for (int64_t r = 0; r < t.n_rows; r++) {
      int64_t v = t.row_nodes[r];
      for (int64_t e = ot.indptr[v]; e < ot.indptr[v + 1]; e++) {
        int64_t u = ld(ot.indices, ot.indices_bytes, e);
        if (owner[u] == k) continue;
        want.cut_edges++;
        if (stamp[u] != k) {
          stamp[u] = k;
          want.parts[k].halo_nodes++;
        }
      }
    }
  }
  {
    int64_t max_nodes = 0, max_train = 0, total = 0;
    for (int32_t k = 0; k < P; k++) {
      if (want.parts[k].nodes > max_nodes) max_nodes = want.parts[k].nodes;
      if (want.parts[k].train_nodes > max_train) max_train = want.parts[k].train_nodes;
      want.train_nodes += want.parts[k].train_nodes;
      total += want.parts[k].nodes + want.parts[k].halo_nodes;
    }
    assert_int_equal(want.train_nodes, T);
    want.edge_cut = m ? (double)want.cut_edges / (double)m : 0.0;
    want.replication = (double)total / (double)n;
    want.node_balance = (double)max_nodes / ((double)n / P);
    want.train_balance = T ? (double)max_train / ((double)T / P) : 1.0;
  }
  same_report(what, &p->rep, &want);
  /* fo_partition_quality on the output gives the report fo_partition returned */
  if (!strcmp(p->train_split, "train")) {
    fo_partition_report q;
    assert_fo_ok(fo_partition_quality(d, &q));
    snprintf(what + strlen(what), sizeof what - strlen(what), " (quality)");
    same_report(what, &q, &p->rep);
    fo_partition_report_free(&q);
  }

  /* the top-level splits are the original's, in order */
  assert_int_equal(fo_dataset_num_splits(d), fo_dataset_num_splits(o));
  for (int64_t i = 0; i < fo_dataset_num_splits(o); i++) {
    const int64_t *a, *b;
    int64_t na, nb;
    assert_string_equal(fo_dataset_split_name(d, i), fo_dataset_split_name(o, i));
    assert_fo_ok(fo_dataset_split(o, fo_dataset_split_name(o, i), &a, &na));
    assert_fo_ok(fo_dataset_split(d, fo_dataset_split_name(o, i), &b, &nb));
    assert_int_equal(nb, na);
    same_i64("top-level split", b, a, na);
  }
  /* node data lives in the parts */
  assert_int_equal(fo_dataset_has_features(d), fo_dataset_has_features(o));
  assert_int_equal(fo_dataset_has_labels(d), fo_dataset_has_labels(o));
  {
    fo_features f;
    fo_topology t;
    assert_fo_error(fo_dataset_features(d, &f), FO_EINVAL, "partitioned");
    assert_fo_error(fo_dataset_topology(d, FO_EDGE_DIR_IN, &t), FO_EINVAL, "partitioned");
  }
  /* original node ids carried over */
  assert_int_equal(fo_dataset_node_orig_kind(d), fo_dataset_node_orig_kind(o));
  if (fo_dataset_node_orig_kind(o) == FO_ORIG_STRING)
    for (int64_t v = 0; v < n; v += 97) {
      const char *s1, *s2;
      size_t l1, l2;
      assert_fo_ok(fo_dataset_node_orig_str(o, v, &s1, &l1));
      assert_fo_ok(fo_dataset_node_orig_str(d, v, &s2, &l2));
      assert_int_equal(l1, l2);
      same_bytes("node_orig", s1, s2, l1);
    }
  check_manifests(d, p);
  assert_fo_ok(fo_dataset_verify(d));

  free(want.parts);
  free(stamp);
  free(owner);
  free(rowof);
  free(eseen);
  free(is_train);
}

/* ---- sampling equality ------------------------------------------------------------------- */

static void same_batch(const char *what, const fo_batch_t *a, const fo_batch_t *b) {
  if (a->n_seeds != b->n_seeds || a->n_nodes != b->n_nodes || a->n_edges != b->n_edges ||
      a->n_hops != b->n_hops || a->disjoint != b->disjoint)
    fail_msg("%s: seeds %lld/%lld nodes %lld/%lld edges %lld/%lld hops %d/%d (partitioned/"
             "original)", what, (long long)a->n_seeds, (long long)b->n_seeds,
             (long long)a->n_nodes, (long long)b->n_nodes, (long long)a->n_edges,
             (long long)b->n_edges, (int)a->n_hops, (int)b->n_hops);
  same_i64("node", a->node, b->node, b->n_nodes);
  same_i64("row", a->row, b->row, b->n_edges);
  same_i64("col", a->col, b->col, b->n_edges);
  same_i64("edge", a->edge, b->edge, b->n_edges);
  same_i64("num_sampled_nodes", a->num_sampled_nodes, b->num_sampled_nodes, b->n_hops + 1);
  same_i64("num_sampled_edges", a->num_sampled_edges, b->num_sampled_edges, b->n_hops);
  assert_int_equal(a->batch != NULL, b->batch != NULL);
  if (b->batch) same_i64("batch", a->batch, b->batch, b->n_nodes);
}

/* `rounds` random configurations (seeds, fanouts, replace, disjoint, sampler seed, epoch,
 * batch index): fo_sampler_sample over the partitioned dataset `pd` must give the batch the
 * original `o` gives, byte for byte. `big`: keep fanout -1 to the first hop. */
static void sample_equal(const fo_dataset_t *o, const fo_dataset_t *pd, int rounds, uint64_t seed,
                         bool big) {
  const int64_t n = fo_dataset_num_nodes(o);
  fo_batch_t *a, *b;
  uint64_t st = seed;
  assert_fo_ok(fo_batch_create(&a));
  assert_fo_ok(fo_batch_create(&b));
  for (int r = 0; r < rounds; r++) {
    fo_sampler_opts so;
    fo_sampler_t *sa = NULL, *sb = NULL;
    int32_t fan[4];
    int64_t seeds[24], ns;
    uint64_t epoch, bi;
    int ra, rb;
    char what[200];
    fo_sampler_opts_init(&so);
    so.n_hops = 1 + (int32_t)(fot_rand(&st) % 3);
    for (int h = 0; h < so.n_hops; h++) {
      fan[h] = (int32_t)(fot_rand(&st) % 8) - 1; /* -1 .. 6 */
      if (big && h > 0 && fan[h] < 0) fan[h] = 3;
      if (fot_rand(&st) % 10 == 0) fan[h] = 40;
    }
    so.fanouts = fan;
    so.replace = fot_rand(&st) % 2;
    so.disjoint = fot_rand(&st) % 3 == 0;
    so.seed = fot_rand(&st) % 1000;
    ns = r == 0 ? 0 : 1 + (int64_t)(fot_rand(&st) % (so.disjoint && big ? 4 : N_OF(seeds)));
    for (int64_t i = 0; i < ns; i++) seeds[i] = (int64_t)(fot_rand(&st) % (uint64_t)n);
    if (ns > 3) seeds[2] = seeds[1]; /* a repeated seed */
    epoch = fot_rand(&st) % 4;
    bi = fot_rand(&st) % 100;
    snprintf(what, sizeof what, "round %d: hops %d fanouts %d,%d,%d replace %d disjoint %d "
             "seed %llu, %lld seeds", r, (int)so.n_hops, (int)fan[0], so.n_hops > 1 ? (int)fan[1] : 0,
             so.n_hops > 2 ? (int)fan[2] : 0, (int)so.replace, (int)so.disjoint,
             (unsigned long long)so.seed, (long long)ns);
    assert_fo_ok(fo_sampler_create(pd, &so, &sa));
    assert_fo_ok(fo_sampler_create(o, &so, &sb));
    ra = fo_sampler_sample(sa, seeds, ns, epoch, bi, a);
    if (ra != FO_OK) fail_msg("%s: partitioned: %s: %s", what, fo_status_name(ra), fo_last_error());
    rb = fo_sampler_sample(sb, seeds, ns, epoch, bi, b);
    if (rb != FO_OK) fail_msg("%s: original: %s: %s", what, fo_status_name(rb), fo_last_error());
    same_batch(what, a, b);
    /* a seed out of range: the same error */
    if (r == 1) {
      int64_t bad[2] = {0, n};
      assert_fo_error(fo_sampler_sample(sa, bad, 2, 0, 0, a), FO_ERANGE, "not a node id");
      assert_int_equal(a->n_nodes, 0);
    }
    fo_sampler_destroy(sa);
    fo_sampler_destroy(sb);
  }
  fo_batch_destroy(a);
  fo_batch_destroy(b);
}

/* Digest of two shuffled epochs of a loader over split `split` with features and labels;
 * *had_x: some batch carried x. */
static uint64_t loader_digest(const fo_dataset_t *d, const char *split, int32_t workers,
                              int64_t bs, bool disjoint, bool *had_x) {
  static const int32_t F[2] = {5, 3};
  fo_loader_opts o;
  fo_loader_t *L = NULL;
  fo_loader_batch_t *b;
  uint64_t dg[4096], h;
  int64_t k = 0;
  fo_loader_opts_init(&o);
  o.sampler.fanouts = F;
  o.sampler.n_hops = 2;
  o.sampler.seed = 11;
  o.sampler.disjoint = disjoint;
  o.batch_size = bs;
  o.split = split;
  o.shuffle = true;
  o.num_workers = workers;
  o.features = true;
  o.labels = true;
  assert_fo_ok(fo_loader_create(d, &o, &L));
  *had_x = false;
  for (int e = 0; e < 2; e++) {
    if (e) assert_fo_ok(fo_loader_start_epoch(L, (uint64_t)e));
    for (;;) {
      assert_fo_ok(fo_loader_next(L, &b));
      if (!b) break;
      if (b->x) *had_x = true;
      assert_non_null(b->y);
      if (k >= N_OF(dg)) fail_msg("too many batches");
      dg[k++] = fo_loader_batch_digest(b);
      fo_loader_release(L, b);
    }
  }
  h = fo_digest_sequence(dg, k);
  fo_loader_destroy(L);
  return h;
}

/* The loader over the partitioned dataset gives the original's epoch digests, 0 and 2 workers. */
static void loader_equal(const fo_dataset_t *o, const fo_dataset_t *pd, const char *split,
                         int64_t bs) {
  for (int disjoint = 0; disjoint < 2; disjoint++) {
    bool hx_o, hx_p;
    uint64_t ref = loader_digest(o, split, 0, bs, disjoint, &hx_o);
    for (int32_t w = 0; w <= 2; w += 2) {
      uint64_t got = loader_digest(pd, split, w, bs, disjoint, &hx_p);
      assert_int_equal(hx_p, hx_o);
      if (got != ref)
        fail_msg("loader over split '%s' (batch %lld, disjoint %d, %d workers): partitioned "
                 "digest %016llx, original %016llx", split, (long long)bs, disjoint, (int)w,
                 (unsigned long long)got, (unsigned long long)ref);
    }
  }
}

/* ---- the method x P matrix ----------------------------------------------------------------- */

typedef struct variant {
  fo_partition_method m;
  fo_partition_balance b;
} variant;

static const variant VARIANTS[] = {{FO_PARTITION_HASH, FO_BALANCE_NODES},
                                   {FO_PARTITION_RANGE, FO_BALANCE_NODES},
                                   {FO_PARTITION_RANGE, FO_BALANCE_TRAIN},
                                   {FO_PARTITION_METIS, FO_BALANCE_NODES},
                                   {FO_PARTITION_METIS, FO_BALANCE_TRAIN}};

/* Partition g every way for each P of Ps (values > n skipped) and check everything. */
static void run_matrix(const ds *g, const int32_t *Ps, int nP, int rounds, bool big,
                       int64_t loader_bs) {
  const int64_t *ids;
  int64_t nt;
  bool has_train = fo_dataset_split(g->d, "train", &ids, &nt) == FO_OK;
  uint64_t seed = fot_seed(1000 + (uint64_t)fo_dataset_num_nodes(g->d));
  fo_clear_error();
  fot_note_seed(seed);
  for (int i = 0; i < nP; i++)
    for (int64_t vi = 0; vi < N_OF(VARIANTS); vi++) {
      const variant *va = &VARIANTS[vi];
      pt p;
      if (Ps[i] > fo_dataset_num_nodes(g->d)) continue;
      if (va->b == FO_BALANCE_TRAIN && !has_train) continue;
      printf("  %s: P=%d %s balance %s\n", g->name, (int)Ps[i], METHOD[va->m],
             va->b == FO_BALANCE_TRAIN ? "train" : "nodes");
      fflush(stdout);
      partition_ok(g, Ps[i], va->m, va->b, (uint64_t)i, &p);
      check_partition(g->d, &p);
      sample_equal(g->d, p.d, rounds, seed + (uint64_t)(i * 10 + vi), big);
      if (loader_bs > 0 && has_train && (Ps[i] == 3 || vi == 0)) {
        loader_equal(g->d, p.d, "train", loader_bs);
        if (!big) loader_equal(g->d, p.d, "val", loader_bs);
      }
      pt_free(&p);
    }
}

static void fixtures_matrix(void **state) {
  typedef struct fx {
    const char *name;
    int kind;
    int64_t n;
    fx_opts fo;
  } fx;
  static const fx F[] = {
      {"cycle6", 0, 6, {true, false, false, FO_INDEX_AUTO, FO_FEATURES_AUTO}},
      {"two_cliques_4_5", 1, 9, {true, false, false, FO_INDEX_AUTO, FO_FEATURES_AUTO}},
      {"star5_isolated3", 2, 9, {true, false, true, FO_INDEX_AUTO, FO_FEATURES_AUTO}},
      {"random40_self_loops_repeats", 3, 40, {true, false, false, FO_INDEX_AUTO, FO_FEATURES_AUTO}},
      {"random130_int64_csr_f16", 4, 130, {true, false, true, FO_INDEX_INT64, FO_FEATURES_FLOAT16}},
      {"random150_uint8", 5, 150, {true, false, false, FO_INDEX_AUTO, FO_FEATURES_UINT8}},
      {"random90_bf16", 6, 90, {true, false, false, FO_INDEX_INT32, FO_FEATURES_BFLOAT16}},
      {"random70_no_node_data", 7, 70, {false, false, false, FO_INDEX_AUTO, FO_FEATURES_AUTO}},
  };
  (void)state;
  for (int64_t i = 0; i < N_OF(F); i++) {
    fot_edges e;
    ds g;
    int32_t Ps[5] = {1, 2, 3, 7, (int32_t)F[i].n};
    switch (F[i].kind) {
    case 0: fot_cycle(6, &e); break;
    case 1: fot_two_cliques(4, 5, &e); break;
    case 2: fot_star(5, &e); break; /* nodes 6, 7, 8 isolated */
    case 3: fot_random(40, 200, 3, &e); break;
    case 4: fot_random(130, 900, 4, &e); break;
    case 5: fot_random(150, 700, 5, &e); break;
    case 6: fot_random(90, 500, 6, &e); break;
    default: fot_random(70, 300, 7, &e); break;
    }
    if (F[i].kind >= 3) { /* make sure of self loops and repeated edges */
      fot_edges_add(&e, 5, 5);
      fot_edges_add(&e, 1, 2);
      fot_edges_add(&e, 1, 2);
    }
    e.n = F[i].n;
    make_graph(&g, F[i].name, &e, F[i].n, &F[i].fo);
    run_matrix(&g, Ps, 5, 40, false, 4);
    fot_ds_close(&g);
    fot_edges_free(&e);
  }
}

static ds CORA, FB;

static void cora_matrix(void **state) {
  const int32_t Ps[5] = {1, 2, 3, 7, 2708};
  (void)state;
  if (!FAST_TMP) printf("note: skipping P = n on cora: TMPDIR is not a tmpfs\n");
  run_matrix(&CORA, Ps, FAST_TMP ? 5 : 4, 60, false, 16);
}

static void facebook_matrix(void **state) {
  const int32_t Ps[5] = {1, 2, 3, 7, FB_N};
  (void)state;
  if (!FAST_TMP) printf("note: skipping P = n on facebook-combined: TMPDIR is not a tmpfs\n");
  run_matrix(&FB, Ps, FAST_TMP ? 5 : 4, 40, true, 64);
}

/* Many more random sampling configurations on a few partitions of Cora and facebook, and a
 * partitioned dataset opened with huge pages. */
static void sampling_many(void **state) {
  uint64_t seed = fot_seed(77);
  pt p;
  (void)state;
  fot_note_seed(seed);
  partition_ok(&CORA, 3, FO_PARTITION_HASH, FO_BALANCE_NODES, 9, &p);
  sample_equal(CORA.d, p.d, 400, seed, false);
  {
    fo_dataset_opts dopts;
    fo_dataset_t *h = NULL;
    fo_dataset_opts_init(&dopts);
    dopts.load = FO_LOAD_HUGEPAGE;
    assert_fo_ok(fo_dataset_open(p.dir, &dopts, &h));
    assert_int_equal(fo_dataset_num_parts(h), 3);
    sample_equal(CORA.d, h, 100, seed + 1, false);
    loader_equal(CORA.d, h, "train", 32);
    fo_dataset_close(h);
  }
  pt_free(&p);
  partition_ok(&CORA, 7, FO_PARTITION_METIS, FO_BALANCE_TRAIN, 0, &p);
  sample_equal(CORA.d, p.d, 400, seed + 2, false);
  pt_free(&p);
  partition_ok(&FB, 3, FO_PARTITION_METIS, FO_BALANCE_NODES, 0, &p);
  sample_equal(FB.d, p.d, 200, seed + 3, true);
  pt_free(&p);
}

/* ---- book width, quality, determinism ------------------------------------------------------- */

static void book_width(void **state) {
  fot_edges e;
  ds g;
  fx_opts fo = {true, false, false, FO_INDEX_AUTO, FO_FEATURES_AUTO};
  static const int32_t Ps[] = {255, 256, 257, 300, 400};
  (void)state;
  fot_random(400, 2000, 11, &e);
  make_graph(&g, "random400", &e, 400, &fo);
  for (int64_t i = 0; i < N_OF(Ps); i++)
    for (int m = 0; m < 3; m++) {
      pt p;
      fo_array_info ba;
      partition_ok(&g, Ps[i], (fo_partition_method)m, FO_BALANCE_NODES, 1, &p);
      if (m == FO_PARTITION_RANGE) {
        assert_int_equal(fo_dataset_array(p.d, "book", &ba), FO_EINVAL);
      } else {
        assert_fo_ok(fo_dataset_array(p.d, "book", &ba));
        assert_string_equal(ba.dtype, Ps[i] <= 256 ? "|u1" : "<u2");
        assert_int_equal(ba.itemsize, Ps[i] <= 256 ? 1 : 2);
      }
      check_partition(g.d, &p);
      sample_equal(g.d, p.d, 20, 5 + (uint64_t)i, false);
      pt_free(&p);
    }
  fot_ds_close(&g);
  fot_edges_free(&e);
  /* Cora, P = 300: a uint16 book on a real graph; the loader reads node data through it */
  {
    pt p;
    fo_array_info ba;
    partition_ok(&CORA, 300, FO_PARTITION_HASH, FO_BALANCE_NODES, 2, &p);
    assert_fo_ok(fo_dataset_array(p.d, "book", &ba));
    assert_string_equal(ba.dtype, "<u2");
    check_partition(CORA.d, &p);
    sample_equal(CORA.d, p.d, 30, 17, false);
    loader_equal(CORA.d, p.d, "train", 16);
    pt_free(&p);
    partition_ok(&CORA, 300, FO_PARTITION_RANGE, FO_BALANCE_NODES, 2, &p);
    assert_int_equal(fo_dataset_array(p.d, "book", &ba), FO_EINVAL);
    check_partition(CORA.d, &p);
    pt_free(&p);
  }
}

/* METIS cuts far fewer edges than a random (hash) cut, with balanced parts; hash parts are
 * balanced within 5 sigma of a binomial. */
static void metis_quality(void **state) {
  static const int32_t Ps[] = {2, 3, 7};
  const ds *gs[2] = {&CORA, &FB};
  (void)state;
  for (int gi = 0; gi < 2; gi++)
    for (int64_t i = 0; i < N_OF(Ps); i++) {
      pt h, me, mt;
      double n = (double)fo_dataset_num_nodes(gs[gi]->d), P = Ps[i];
      partition_ok(gs[gi], Ps[i], FO_PARTITION_HASH, FO_BALANCE_NODES, 0, &h);
      partition_ok(gs[gi], Ps[i], FO_PARTITION_METIS, FO_BALANCE_NODES, 0, &me);
      partition_ok(gs[gi], Ps[i], FO_PARTITION_METIS, FO_BALANCE_TRAIN, 0, &mt);
      printf("  %s P=%d: cut edges hash %lld, metis %lld, metis balance train %lld; node balance "
             "hash %.4f metis %.4f; train balance metis %.4f, metis balance train %.4f\n",
             gs[gi]->name, (int)Ps[i], (long long)h.rep.cut_edges, (long long)me.rep.cut_edges,
             (long long)mt.rep.cut_edges, h.rep.node_balance, me.rep.node_balance,
             me.rep.train_balance, mt.rep.train_balance);
      if (!(2 * me.rep.cut_edges < h.rep.cut_edges))
        fail_msg("%s P=%d: metis cuts %lld edges, hash %lld", gs[gi]->name, (int)Ps[i],
                 (long long)me.rep.cut_edges, (long long)h.rep.cut_edges);
      if (!(2 * mt.rep.cut_edges < h.rep.cut_edges))
        fail_msg("%s P=%d: metis (balance train) cuts %lld edges, hash %lld", gs[gi]->name,
                 (int)Ps[i], (long long)mt.rep.cut_edges, (long long)h.rep.cut_edges);
      assert_true(me.rep.node_balance <= 1.10);
      assert_true(mt.rep.node_balance <= 1.10);
      assert_true(mt.rep.train_balance <= 1.25);
      assert_true(h.rep.node_balance <= 1.0 + 5.0 * sqrt(P * (1.0 - 1.0 / P) / n));
      pt_free(&h);
      pt_free(&me);
      pt_free(&mt);
    }
}

static uint64_t book_hash(const fo_dataset_t *d) {
  fo_array_info ba;
  assert_fo_ok(fo_dataset_array(d, "book", &ba));
  return XXH64(ba.data, (size_t)ba.nbytes, 0);
}

/* The same options give the same book; another hash seed another one. */
static void determinism(void **state) {
  fo_partition_opts o;
  pt a, b;
  (void)state;
  for (int m = 0; m <= 2; m += 2) {
    o = popts(5, (fo_partition_method)m, FO_BALANCE_NODES, 4);
    partition_with(&CORA, "a", &o, &a);
    partition_with(&CORA, "b", &o, &b);
    assert_true(book_hash(a.d) == book_hash(b.d));
    same_report("same options twice", &b.rep, &a.rep);
    pt_free(&b);
    o.seed = 5;
    partition_with(&CORA, "b", &o, &b);
    if (m == FO_PARTITION_HASH) assert_true(book_hash(a.d) != book_hash(b.d));
    check_partition(CORA.d, &b);
    pt_free(&a);
    pt_free(&b);
  }
}

/* force replaces an existing partitioned dataset (or an empty directory). */
static void force_replaces(void **state) {
  fo_partition_opts o = popts(2, FO_PARTITION_HASH, FO_BALANCE_NODES, 0);
  pt p;
  fo_partition_report r;
  (void)state;
  partition_with(&CORA, "forced", &o, &p);
  fo_dataset_close(p.d);
  p.d = NULL;
  o.n_parts = 4;
  assert_fo_error(fo_partition(CORA.dir, p.dir, &o, &r), FO_EINVAL, "already exists");
  assert_null(r.parts);
  o.force = true;
  fo_partition_report_free(&p.rep);
  assert_fo_ok(fo_partition(CORA.dir, p.dir, &o, &p.rep));
  assert_int_equal(p.rep.n_parts, 4);
  p.P = 4;
  assert_fo_ok(fo_dataset_open(p.dir, NULL, &p.d));
  check_partition(CORA.d, &p);
  {
    /* no hidden temporary directory (nor the replaced dataset) left beside it */
    DIR *dh = opendir(CORA.tmp);
    struct dirent *de;
    while ((de = readdir(dh)) != NULL)
      if (strstr(de->d_name, ".tmp")) fail_msg("left behind: %s", de->d_name);
    closedir(dh);
  }
  pt_free(&p);
}

/* ---- edge cases ---------------------------------------------------------------------------- */

/* A graph without edges, a single node, an empty train split. */
static void edge_cases(void **state) {
  (void)state;
  {
    fot_edges e;
    ds g;
    fx_opts fo = {true, false, false, FO_INDEX_AUTO, FO_FEATURES_AUTO};
    const int32_t Ps[4] = {1, 2, 3, 10};
    memset(&e, 0, sizeof e);
    e.n = 10;
    make_graph(&g, "edgeless10", &e, 10, &fo);
    run_matrix(&g, Ps, 4, 10, false, 3);
    fot_ds_close(&g);
  }
  {
    fot_edges e;
    ds g;
    fx_opts fo = {true, false, false, FO_INDEX_AUTO, FO_FEATURES_AUTO};
    const int32_t Ps[2] = {1, 2};
    memset(&e, 0, sizeof e);
    fot_edges_add(&e, 0, 0);
    e.n = 1;
    make_graph(&g, "one_node_self_loop", &e, 1, &fo);
    run_matrix(&g, Ps, 2, 10, false, 1);
    fot_ds_close(&g);
    fot_edges_free(&e);
  }
  {
    /* the train split exists but is empty: balance train has nothing to balance */
    fot_edges e;
    ds g;
    fx_opts fo = {true, true, false, FO_INDEX_AUTO, FO_FEATURES_AUTO};
    const int32_t Ps[3] = {1, 3, 7};
    fot_random(60, 300, 21, &e);
    make_graph(&g, "random60_empty_train", &e, 60, &fo);
    run_matrix(&g, Ps, 3, 10, false, 0);
    fot_ds_close(&g);
    fot_edges_free(&e);
  }
}

/* The report counts the split named by train_split; fo_partition_quality on the output must
 * give the report fo_partition returned (partition.h), with balance nodes and train. */
static void quality_custom_train_split(void **state) {
  fot_edges e;
  ds g;
  fx_opts fo = {true, false, false, FO_INDEX_AUTO, FO_FEATURES_AUTO};
  (void)state;
  fot_random(100, 500, 31, &e);
  make_graph(&g, "random100", &e, 100, &fo);
  for (int m = 0; m < 3; m++)
    for (int b = 0; b < 2; b++) {
      fo_partition_opts o = popts(3, (fo_partition_method)m, (fo_partition_balance)b, 0);
      fo_partition_report q;
      const char *diff;
      char msg[600];
      pt p;
      o.train_split = "val";
      partition_with(&g, "pv", &o, &p);
      check_partition(g.d, &p); /* the report counts val members as train nodes */
      assert_int_equal(p.rep.train_nodes, 33);
      /* (fo_partition_quality once counted the split "train" whatever train_split the
       * partition used; the output now records its train_split.) */
      assert_fo_ok(fo_partition_quality(p.d, &q));
      diff = report_mismatch(&q, &p.rep);
      snprintf(msg, sizeof msg, "%s", diff ? diff : "");
      fo_partition_report_free(&q);
      pt_free(&p);
      if (diff) {
        fot_ds_close(&g);
        fot_edges_free(&e);
        fail_msg("%s balance %d: quality after train_split=val differs from the partition's "
                 "report: %s", METHOD[m], b, msg);
      }
    }
  fot_ds_close(&g);
  fot_edges_free(&e);
}

/* libmetis prints diagnostics ("***You are trying to partition a graph into too many parts!",
 * "***Cannot bisect a graph with 0 vertices!") on stdout when asked for many parts with two
 * constraints; none of it may reach the process's stdout, where `fanout partition --json`
 * writes its report (partition.h: while libmetis runs, fd 1 is pointed at stderr). */
static void metis_quiet(void **state) {
  char *cap[2] = {fot_path(CORA.tmp, "stdout.txt"), fot_path(CORA.tmp, "stderr.txt")};
  char *out = fot_path(CORA.tmp, "metis1000"), *text[2];
  fo_partition_opts o = popts(1000, FO_PARTITION_METIS, FO_BALANCE_TRAIN, 0);
  fo_partition_report r;
  size_t len[2];
  int saved[2], rc;
  pt p;
  (void)state;
  fflush(stdout);
  fflush(stderr);
  for (int i = 0; i < 2; i++) {
    int fd = open(cap[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    saved[i] = dup(1 + i);
    assert_true(saved[i] >= 0 && fd >= 0);
    dup2(fd, 1 + i);
    close(fd);
  }
  rc = fo_partition(CORA.dir, out, &o, &r);
  fflush(stdout);
  fflush(stderr);
  for (int i = 0; i < 2; i++) {
    dup2(saved[i], 1 + i);
    close(saved[i]);
  }
  if (rc != FO_OK) fail_msg("metis P=1000: %s: %s", fo_status_name(rc), fo_last_error());
  /* the partition itself is right */
  memset(&p, 0, sizeof p);
  p.dir = out;
  p.P = 1000;
  p.method = FO_PARTITION_METIS;
  p.balance = FO_BALANCE_TRAIN;
  p.train_split = "train";
  p.rep = r;
  assert_fo_ok(fo_dataset_open(p.dir, NULL, &p.d));
  check_partition(CORA.d, &p);
  pt_free(&p);
  for (int i = 0; i < 2; i++) {
    text[i] = fot_read_file(cap[i], &len[i]);
    free(cap[i]);
  }
  /* (libmetis's output, 7176 bytes here, once reached stdout and corrupted the report of
   * `fanout partition --json -n 1000 --method metis --balance train`.) */
  printf("  libmetis wrote %zu bytes, now on stderr\n", len[1]);
  if (len[0]) {
    char head[120];
    snprintf(head, sizeof head, "%s", text[0]);
    free(text[0]);
    free(text[1]);
    fail_msg("fo_partition wrote %zu bytes to stdout: '%s'", len[0], head);
  }
  free(text[0]);
  free(text[1]);
}

typedef struct job {
  const ds *g;
  fo_partition_opts o;
  char name[32];
  int rc;
  char msg[256];
  fo_partition_report rep;
} job;

static void *run_job(void *arg) {
  job *j = arg;
  char *out = fot_path(j->g->tmp, j->name);
  j->rc = fo_partition(j->g->dir, out, &j->o, &j->rep);
  snprintf(j->msg, sizeof j->msg, "%s", j->rc ? fo_last_error() : "");
  free(out);
  return NULL;
}

/* Partitions in several threads at once (any thread may call fo_partition): each output is
 * right, and equal to the same partition made alone. */
static void concurrent_partitions(void **state) {
  job jobs[4];
  pthread_t th[4];
  (void)state;
  for (int i = 0; i < 4; i++) {
    memset(&jobs[i], 0, sizeof jobs[i]);
    jobs[i].g = i % 2 ? &FB : &CORA;
    jobs[i].o = popts(3 + i, i < 2 ? FO_PARTITION_METIS : FO_PARTITION_HASH, FO_BALANCE_NODES, 1);
    snprintf(jobs[i].name, sizeof jobs[i].name, "concurrent-%d", i);
    assert_int_equal(pthread_create(&th[i], NULL, run_job, &jobs[i]), 0);
  }
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < 4; i++) {
    pt p, alone;
    if (jobs[i].rc != FO_OK) fail_msg("thread %d: %s: %s", i, fo_status_name(jobs[i].rc), jobs[i].msg);
    memset(&p, 0, sizeof p);
    p.dir = fot_path(jobs[i].g->tmp, jobs[i].name);
    p.P = jobs[i].o.n_parts;
    p.method = jobs[i].o.method;
    p.balance = jobs[i].o.balance;
    p.train_split = "train";
    p.rep = jobs[i].rep;
    assert_fo_ok(fo_dataset_open(p.dir, NULL, &p.d));
    check_partition(jobs[i].g->d, &p);
    partition_ok(jobs[i].g, p.P, p.method, p.balance, 1, &alone);
    assert_true(book_hash(alone.d) == book_hash(p.d));
    pt_free(&alone);
    pt_free(&p);
  }
}

/* METIS partitions in several threads at once, while fd 1 is a file of ours: when they are
 * done, fd 1 must be that file again (the library points fd 1 at stderr while libmetis runs,
 * and must restore it whatever the interleaving of the calls). A few rounds, since the bad
 * interleaving (a call that starts while another has fd 1 redirected, and ends after it) is a
 * matter of timing. */
static void metis_threads_restore_stdout(void **state) {
  char *cap = fot_path(CORA.tmp, "stdout-threads.txt");
  struct stat want, got;
  int saved, fd, bad_round = -1;
  (void)state;
  fflush(stdout);
  saved = dup(1);
  fd = open(cap, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  assert_true(saved >= 0 && fd >= 0);
  dup2(fd, 1);
  close(fd);
  assert_int_equal(fstat(1, &want), 0);
  for (int round = 0; round < 6 && bad_round < 0; round++) {
    job jobs[6];
    pthread_t th[6];
    for (int i = 0; i < 6; i++) {
      memset(&jobs[i], 0, sizeof jobs[i]);
      jobs[i].g = i % 3 == 2 ? &FB : &CORA;
      jobs[i].o = popts(2 + (i + round) % 6, FO_PARTITION_METIS,
                        (fo_partition_balance)(i % 2), (uint64_t)round);
      snprintf(jobs[i].name, sizeof jobs[i].name, "mt-%d-%d", round, i);
      assert_int_equal(pthread_create(&th[i], NULL, run_job, &jobs[i]), 0);
    }
    for (int i = 0; i < 6; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 6; i++) {
      char *out = fot_path(jobs[i].g->tmp, jobs[i].name);
      fo_partition_report_free(&jobs[i].rep);
      fot_rmtree(out);
    }
    for (int i = 0; i < 6; i++)
      if (jobs[i].rc != FO_OK) {
        dup2(saved, 1);
        close(saved);
        fail_msg("round %d thread %d: %s: %s", round, i, fo_status_name(jobs[i].rc), jobs[i].msg);
      }
    assert_int_equal(fstat(1, &got), 0);
    if (got.st_ino != want.st_ino || got.st_dev != want.st_dev) bad_round = round;
  }
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  free(cap);
  /* metis.c points fd 1 at stderr around METIS_PartGraphKway and restores it; unserialized,
   * a call starting during another's redirection once saved (and later "restored") stderr. */
  if (bad_round >= 0)
    fail_msg("after concurrent METIS partitions (round %d), fd 1 no longer refers to the file "
             "it was before", bad_round);
}

/* ---- corruption ---------------------------------------------------------------------------- */

/* Overwrite `len` bytes at byte offset `off` of the data of array `name` in dataset dir `dir`
 * and store the new xxh64 in its manifest, so that the corruption passes the checksum. */
static void patch_array(const char *dir, const char *name, int64_t off, const void *bytes,
                        size_t len) {
  char file[256], hex[17], *path, *buf, *mpath;
  size_t flen;
  fo__npy_header h;
  json_error_t err;
  json_t *root, *e;
  size_t k;
  bool found = false;
  snprintf(file, sizeof file, "%s.npy", name);
  path = fot_path(dir, file);
  buf = fot_read_file(path, &flen);
  if (fo__npy_parse(buf, flen, &h) != FO_OK) fail_msg("%s: %s", path, fo_last_error());
  if (off < 0 || (int64_t)(off + (int64_t)len) > h.count * h.itemsize)
    fail_msg("%s: bytes %lld+%zu out of range", path, (long long)off, len);
  memcpy(buf + h.data_offset + off, bytes, len);
  fot_write_bytes(path, buf, flen);
  mpath = fot_path(dir, FO_MANIFEST);
  root = json_load_file(mpath, JSON_PRESERVE_ORDER, &err);
  if (!root) fail_msg("%s: %s", mpath, err.text);
  snprintf(hex, sizeof hex, "%016llx",
           (unsigned long long)XXH64(buf + h.data_offset, (size_t)(h.count * h.itemsize), 0));
  json_array_foreach(json_object_get(root, "arrays"), k, e) {
    if (!strcmp(json_string_value(json_object_get(e, "name")), name)) {
      json_object_set_new(e, "xxh64", json_string(hex));
      found = true;
    }
  }
  if (!found) fail_msg("%s has no array '%s'", mpath, name);
  if (json_dump_file(root, mpath, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
    fail_msg("write %s", mpath);
  json_decref(root);
  free(mpath);
  free(buf);
  free(path);
}

/* Copy dataset directory tree src to dst (cp -r). */
static void copy_tree(const char *src, const char *dst) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "cp -r '%s' '%s'", src, dst);
  if (system(cmd) != 0) fail_msg("%s failed", cmd);
}

/* Open a fresh copy of partition `src` corrupted by `patch`, expect verify to fail with
 * FO_EFORMAT and `substr`, and sampling every node to fail cleanly or succeed (never crash). */
typedef void (*patch_fn)(const char *dir, const void *arg);

static void expect_corrupt(const ds *g, const char *src, patch_fn patch, const void *arg,
                           const char *substr) {
  char *dst = fot_path(g->tmp, "corrupt");
  fo_dataset_t *d = NULL;
  fo_sampler_opts so;
  fo_sampler_t *s = NULL;
  fo_batch_t *b;
  const int32_t fan[2] = {-1, 3};
  copy_tree(src, dst);
  patch(dst, arg);
  assert_fo_ok(fo_dataset_open(dst, NULL, &d));
  assert_fo_error(fo_dataset_verify(d), FO_EFORMAT, substr);
  fo_sampler_opts_init(&so);
  so.fanouts = fan;
  so.n_hops = 2;
  assert_fo_ok(fo_sampler_create(d, &so, &s));
  assert_fo_ok(fo_batch_create(&b));
  for (int64_t v = 0; v < fo_dataset_num_nodes(d); v++) {
    int rc = fo_sampler_sample(s, &v, 1, 0, 0, b);
    if (rc != FO_OK && rc != FO_EFORMAT)
      fail_msg("sampling node %lld of a corrupt dataset: %s: %s", (long long)v, fo_status_name(rc),
               fo_last_error());
  }
  fo_batch_destroy(b);
  fo_sampler_destroy(s);
  fo_dataset_close(d);
  fot_rmtree(dst);
}

/* Open a fresh copy of partition `src` corrupted by `patch`, expect the open itself to fail
 * with FO_EFORMAT and `substr` (the book's per-part node counts are checked against the parts'
 * rows at open, where the row map is built). */
static void expect_corrupt_open(const ds *g, const char *src, patch_fn patch, const void *arg,
                                const char *substr) {
  char *dst = fot_path(g->tmp, "corrupt");
  fo_dataset_t *d = NULL;
  copy_tree(src, dst);
  patch(dst, arg);
  assert_fo_error(fo_dataset_open(dst, NULL, &d), FO_EFORMAT, substr);
  assert_null(d);
  fot_rmtree(dst);
}

typedef struct book_patch {
  int64_t v;
  uint32_t value;
  int width; /* 1 or 2 */
} book_patch;

static void patch_book(const char *dir, const void *arg) {
  const book_patch *bp = arg;
  if (bp->width == 1) {
    uint8_t x = (uint8_t)bp->value;
    patch_array(dir, "book", bp->v, &x, 1);
  } else {
    uint16_t x = (uint16_t)bp->value;
    patch_array(dir, "book", bp->v * 2, &x, 2);
  }
}

typedef struct rows_patch {
  int part;
  int64_t row;
  int64_t value;
} rows_patch;

static void patch_row_nodes(const char *dir, const void *arg) {
  const rows_patch *rp = arg;
  char sub[32], *pd;
  snprintf(sub, sizeof sub, "part-%d", rp->part);
  pd = fot_path(dir, sub);
  patch_array(pd, "row_nodes", rp->row * 8, &rp->value, 8);
  free(pd);
}

static void patch_row_rank(const char *dir, const void *arg) {
  const rows_patch *rp = arg;
  char sub[32], *pd;
  uint32_t x = (uint32_t)rp->value;
  snprintf(sub, sizeof sub, "part-%d", rp->part);
  pd = fot_path(dir, sub);
  patch_array(pd, "row_rank", rp->row * 4, &x, 4);
  free(pd);
}

static void patch_row_eid(const char *dir, const void *arg) {
  const rows_patch *rp = arg;
  char sub[32], *pd;
  snprintf(sub, sizeof sub, "part-%d", rp->part);
  pd = fot_path(dir, sub);
  patch_array(pd, "csc_row_eid", rp->row * 8, &rp->value, 8);
  free(pd);
}

static void verify_detects_corruption(void **state) {
  fot_edges e;
  ds g;
  fx_opts fo = {true, false, false, FO_INDEX_AUTO, FO_FEATURES_AUTO};
  pt p;
  (void)state;
  fot_random(200, 1200, 41, &e);
  make_graph(&g, "random200", &e, 200, &fo);
  partition_ok(&g, 3, FO_PARTITION_HASH, FO_BALANCE_NODES, 0, &p);
  {
    /* find node v = 100's part k, and a node of another part */
    int k, k2;
    int64_t r, w = -1, last, last_node, row0, row1;
    fo_topology t;
    assert_fo_ok(fo_dataset_node_part(p.d, 100, &k, &r));
    for (int64_t u = 0; u < 200 && w < 0; u++) {
      assert_fo_ok(fo_dataset_node_part(p.d, u, &k2, &r));
      (void)r;
      if (k2 != k) w = u;
    }
    assert_fo_ok(fo_dataset_topology(fo_dataset_part(p.d, k), FO_EDGE_DIR_IN, &t));
    last = t.n_rows - 1;
    last_node = t.row_nodes[last];
    row0 = t.row_nodes[0];
    row1 = t.row_nodes[1];
    assert_fo_ok(fo_dataset_node_part(p.d, 100, &k, &r));
    fo_dataset_close(p.d);
    p.d = NULL;
    {
      /* the book moves node 100 to another valid part */
      book_patch bp = {100, (uint32_t)((k + 1) % 3), 1};
      expect_corrupt_open(&g, p.dir, patch_book, &bp, "nodes, the part");
      /* to a part that does not exist */
      bp.value = 9;
      expect_corrupt_open(&g, p.dir, patch_book, &bp, "nodes, the part");
      bp.value = 255;
      expect_corrupt_open(&g, p.dir, patch_book, &bp, "nodes, the part");
    }
    {
      /* a part's row_nodes: the last row becomes a node past every other (owned elsewhere or
       * out of range), or a row repeats its predecessor */
      rows_patch rp = {k, last, 199};
      fo_dataset_t *d;
      if (last_node != 199) {
        int k199;
        int64_t r199;
        assert_fo_ok(fo_dataset_open(p.dir, NULL, &d));
        assert_fo_ok(fo_dataset_node_part(d, 199, &k199, &r199));
        fo_dataset_close(d);
        if (k199 != k) expect_corrupt(&g, p.dir, patch_row_nodes, &rp, "book says");
      }
      rp.value = 200;
      expect_corrupt(&g, p.dir, patch_row_nodes, &rp, "row_nodes");
      rp.row = 1;
      rp.value = -1;
      expect_corrupt(&g, p.dir, patch_row_nodes, &rp, "row_nodes");
      rp.row = 0;
      rp.value = w; /* a node of another part: out of order, or the book disagrees */
      expect_corrupt(&g, p.dir, patch_row_nodes, &rp, w < row1 ? "holds node" : "ascending");
      rp.value = row0 + 1 < row1 ? row0 + 1 : row0; /* a node between rows 0 and 1 (or row 0) */
      if (rp.value != row0) expect_corrupt(&g, p.dir, patch_row_nodes, &rp, "holds node");
      /* the rank directory of block 1 (nodes 64..127) off by one */
      rp.row = 1;
      assert_fo_ok(fo_dataset_open(p.dir, NULL, &d));
      {
        fo_array_info ra;
        assert_fo_ok(fo_dataset_array(fo_dataset_part(d, k), "row_rank", &ra));
        rp.value = ((const uint32_t *)ra.data)[1] + 1;
      }
      fo_dataset_close(d);
      expect_corrupt(&g, p.dir, patch_row_rank, &rp, "book says part");
    }
    {
      /* a part's row_eid: row 0's first edge id off by one (ids still in range: wrong edge ids,
       * which verify names), and past the edge ids (the sampler refuses the row) */
      fo_topology pt0;
      int64_t id0;
      fo_dataset_t *d = NULL;
      assert_fo_ok(fo_dataset_open(p.dir, NULL, &d));
      assert_fo_ok(fo_dataset_topology(fo_dataset_part(d, k), FO_EDGE_DIR_IN, &pt0));
      assert_non_null(pt0.row_eid); /* the input's edge ids are its CSC positions */
      id0 = pt0.row_eid[0];
      fo_dataset_close(d);
      {
        rows_patch rp = {k, 0, id0 > 0 ? id0 - 1 : id0 + 1};
        expect_corrupt(&g, p.dir, patch_row_eid, &rp, "edge ids do not run from it");
        rp.value = INT64_C(1) << 40;
        expect_corrupt(&g, p.dir, patch_row_eid, &rp, "edge ids do not run from it");
        rp.value = -5;
        expect_corrupt(&g, p.dir, patch_row_eid, &rp, "edge ids do not run from it");
      }
    }
  }
  /* a uint16 book (P = 300 > 256 on a graph of 400 nodes) */
  pt_free(&p);
  fot_ds_close(&g);
  fot_edges_free(&e);
  fot_random(400, 1600, 43, &e);
  make_graph(&g, "random400", &e, 400, &fo);
  partition_ok(&g, 300, FO_PARTITION_HASH, FO_BALANCE_NODES, 0, &p);
  {
    int k;
    int64_t r;
    fo_array_info ba;
    assert_fo_ok(fo_dataset_array(p.d, "book", &ba));
    assert_string_equal(ba.dtype, "<u2");
    assert_fo_ok(fo_dataset_node_part(p.d, 333, &k, &r));
    fo_dataset_close(p.d);
    p.d = NULL;
    {
      book_patch bp = {333, (uint32_t)((k + 1) % 300), 2};
      expect_corrupt_open(&g, p.dir, patch_book, &bp, "nodes, the part");
      bp.value = 300;
      expect_corrupt_open(&g, p.dir, patch_book, &bp, "nodes, the part");
      bp.value = 65535;
      expect_corrupt_open(&g, p.dir, patch_book, &bp, "nodes, the part");
    }
  }
  pt_free(&p);
  /* a range book whose bounds were edited: the parts no longer match, open refuses */
  partition_ok(&g, 3, FO_PARTITION_RANGE, FO_BALANCE_NODES, 0, &p);
  fo_dataset_close(p.d);
  p.d = NULL;
  {
    char *mpath = fot_path(p.dir, FO_MANIFEST);
    json_error_t err;
    json_t *root = json_load_file(mpath, JSON_PRESERVE_ORDER, &err), *bounds;
    fo_dataset_t *d = NULL;
    assert_non_null(root);
    bounds = json_object_get(json_object_get(root, "book"), "bounds");
    json_array_set_new(bounds, 1, json_integer(json_integer_value(json_array_get(bounds, 1)) + 1));
    assert_int_equal(json_dump_file(root, mpath, JSON_INDENT(2) | JSON_PRESERVE_ORDER), 0);
    json_decref(root);
    assert_fo_error(fo_dataset_open(p.dir, NULL, &d), FO_EFORMAT, "part 0");
    assert_null(d);
    free(mpath);
  }
  pt_free(&p);
  /* a book entry naming no part: the book's counts no longer match the parts' rows, and open
   * (which builds the row map from the book) refuses, naming the part and both counts */
  partition_ok(&g, 2, FO_PARTITION_HASH, FO_BALANCE_NODES, 0, &p);
  fo_dataset_close(p.d);
  p.d = NULL;
  {
    uint8_t x = 7, k0, k1;
    int64_t a = -1, b2 = -1;
    fo_dataset_t *d = NULL;
    fo_array_info ba;
    patch_array(p.dir, "book", 10, &x, 1);
    assert_fo_error(fo_dataset_open(p.dir, NULL, &d), FO_EFORMAT, "the book gives part");
    assert_null(d);
    pt_free(&p);
    /* two nodes of different parts swapped in the book: counts match, so open succeeds; rows
     * then hold other nodes than the book says: sampling never crashes, verify names it */
    partition_ok(&g, 2, FO_PARTITION_HASH, FO_BALANCE_NODES, 0, &p);
    assert_fo_ok(fo_dataset_array(p.d, "book", &ba));
    for (int64_t v = 0; v < fo_dataset_num_nodes(p.d) && b2 < 0; v++) {
      const uint8_t *bk = ba.data;
      if (a < 0) a = v;
      else if (bk[v] != bk[a]) b2 = v;
    }
    assert_true(b2 > 0);
    k0 = ((const uint8_t *)ba.data)[a];
    k1 = ((const uint8_t *)ba.data)[b2];
    fo_dataset_close(p.d);
    p.d = NULL;
    {
      char *dst = fot_path(g.tmp, "swapped");
      fo_sampler_opts so;
      fo_sampler_t *s;
      fo_batch_t *b;
      const int32_t fan[2] = {-1, 3};
      copy_tree(p.dir, dst);
      patch_array(dst, "book", a, &k1, 1);
      patch_array(dst, "book", b2, &k0, 1);
      assert_fo_ok(fo_dataset_open(dst, NULL, &d));
      fo_sampler_opts_init(&so);
      so.fanouts = fan;
      so.n_hops = 2;
      assert_fo_ok(fo_sampler_create(d, &so, &s));
      assert_fo_ok(fo_batch_create(&b));
      for (int64_t v = 0; v < fo_dataset_num_nodes(d); v++) {
        int rc = fo_sampler_sample(s, &v, 1, 0, 0, b);
        if (rc != FO_OK && rc != FO_EFORMAT)
          fail_msg("sampling node %lld of a swapped book: %s", (long long)v, fo_last_error());
      }
      fo_batch_destroy(b);
      fo_sampler_destroy(s);
      assert_fo_error(fo_dataset_verify(d), FO_EFORMAT, "book says part");
      fo_dataset_close(d);
      fot_rmtree(dst);
    }
  }
  pt_free(&p);
  fot_ds_close(&g);
  fot_edges_free(&e);
}

/* Parts without "row_eid" (written before it existed) open and sample through their eid
 * arrays: the same batches as with it, and as the original graph. */
static void parts_without_row_eid(void **state) {
  fot_edges e;
  ds g;
  fx_opts fo = {true, false, false, FO_INDEX_AUTO, FO_FEATURES_AUTO};
  pt p;
  fo_dataset_t *d = NULL;
  fo_topology t;
  (void)state;
  fot_random(300, 2000, 47, &e);
  make_graph(&g, "random300", &e, 300, &fo);
  partition_ok(&g, 3, FO_PARTITION_HASH, FO_BALANCE_NODES, 0, &p);
  assert_fo_ok(fo_dataset_topology(fo_dataset_part(p.d, 1), FO_EDGE_DIR_IN, &t));
  assert_non_null(t.row_eid);
  fo_dataset_close(p.d);
  p.d = NULL;
  for (int k = 0; k < 3; k++) {
    char sub[32], *pd, *mpath;
    json_error_t err;
    json_t *root, *csc;
    snprintf(sub, sizeof sub, "part-%d", k);
    pd = fot_path(p.dir, sub);
    mpath = fot_path(pd, FO_MANIFEST);
    root = json_load_file(mpath, JSON_PRESERVE_ORDER, &err);
    if (!root) fail_msg("%s: %s", mpath, err.text);
    csc = json_object_get(json_object_get(root, "topology"), "csc");
    assert_int_equal(json_object_del(csc, "row_eid"), 0);
    if (json_dump_file(root, mpath, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) fail_msg("write %s", mpath);
    json_decref(root);
    free(mpath);
    free(pd);
  }
  assert_fo_ok(fo_dataset_open(p.dir, NULL, &d));
  assert_fo_ok(fo_dataset_topology(fo_dataset_part(d, 1), FO_EDGE_DIR_IN, &t));
  assert_null(t.row_eid);
  sample_equal(g.d, d, 40, 3, false);
  sample_equal(g.d, d, 40, 4, true);
  assert_fo_ok(fo_dataset_verify(d));
  fo_dataset_close(d);
  pt_free(&p);
  fot_ds_close(&g);
  fot_edges_free(&e);
}

/* ---- errors -------------------------------------------------------------------------------- */

/* fo_partition(in, root/out, o) must fail with `code` and `substr`, zero the report, and leave
 * `root` empty. */
static void expect_fail(const char *in, const char *root, const fo_partition_opts *o, int code,
                        const char *substr) {
  char *out = fot_path(root, "out"), first[256];
  fo_partition_report r;
  memset(&r, 0x5a, sizeof r);
  assert_fo_error(fo_partition(in, out, o, &r), code, substr);
  assert_null(r.parts);
  assert_int_equal(r.n_parts, 0);
  assert_int_equal(r.n_nodes, 0);
  assert_int_equal(r.cut_edges, 0);
  if (dir_entries(root, first, sizeof first) != 0)
    fail_msg("a failed partition left '%s' in %s", first, root);
  assert_false(exists(out));
  free(out);
}

static void errors(void **state) {
  fot_edges e;
  ds g, plain, csr_only;
  fx_opts fo = {true, false, false, FO_INDEX_AUTO, FO_FEATURES_AUTO};
  fx_opts fo_plain = {false, false, false, FO_INDEX_AUTO, FO_FEATURES_AUTO};
  fo_partition_opts o;
  char *root;
  (void)state;
  fot_random(50, 200, 51, &e);
  make_graph(&g, "random50", &e, 50, &fo);
  make_graph(&plain, "random50_plain", &e, 50, &fo_plain);
  memset(&csr_only, 0, sizeof csr_only);
  csr_only.name = "csr_only";
  fot_dataset(&e, false, true, FO_INDEX_AUTO, &csr_only.tmp, &csr_only.d);
  csr_only.dir = fot_path(csr_only.tmp, "g");
  root = fot_path(g.tmp, "root");
  assert_int_equal(mkdir(root, 0755), 0);

  o = popts(0, FO_PARTITION_HASH, FO_BALANCE_NODES, 0);
  expect_fail(g.dir, root, &o, FO_EINVAL, "number of parts 0");
  o.n_parts = -3;
  expect_fail(g.dir, root, &o, FO_EINVAL, "number of parts -3");
  o.n_parts = 51; /* n + 1 */
  expect_fail(g.dir, root, &o, FO_EINVAL, "number of parts 51 is more than the 50 nodes");
  for (int m = 0; m < 3; m++) {
    o.method = (fo_partition_method)m;
    o.n_parts = 51;
    expect_fail(g.dir, root, &o, FO_EINVAL, "51");
    o.n_parts = 70000;
    expect_fail(g.dir, root, &o, FO_EINVAL, "70000");
    o.n_parts = 65537;
    expect_fail(g.dir, root, &o, FO_EINVAL, "65537");
  }
  o = popts(2, FO_PARTITION_HASH, FO_BALANCE_NODES, 0);
  /* no CSC */
  expect_fail(csr_only.dir, root, &o, FO_EINVAL, "no CSC");
  /* unknown method or balance */
  o.method = (fo_partition_method)7;
  expect_fail(g.dir, root, &o, FO_EINVAL, "unknown partition method 7");
  o.method = FO_PARTITION_HASH;
  o.balance = (fo_partition_balance)5;
  expect_fail(g.dir, root, &o, FO_EINVAL, "unknown balance 5");
  /* balance train without a train split, for range and metis (and hash, which ignores it) */
  for (int m = 0; m < 3; m++) {
    o = popts(2, (fo_partition_method)m, FO_BALANCE_TRAIN, 0);
    expect_fail(plain.dir, root, &o, FO_EINVAL, "train");
    o.train_split = "nope";
    expect_fail(g.dir, root, &o, FO_EINVAL, "nope");
  }
  /* NULL arguments, a missing input */
  {
    fo_partition_report r;
    char *out = fot_path(root, "out"), *missing = fot_path(g.tmp, "missing");
    o = popts(2, FO_PARTITION_HASH, FO_BALANCE_NODES, 0);
    assert_fo_error(fo_partition(NULL, out, &o, &r), FO_EINVAL, "NULL");
    assert_fo_error(fo_partition(g.dir, NULL, &o, &r), FO_EINVAL, "NULL");
    assert_int_not_equal(fo_partition(missing, out, &o, &r), FO_OK);
    assert_true(strstr(fo_last_error(), "missing") != NULL);
    assert_null(r.parts);
    /* no options: n_parts 0 must be set */
    assert_fo_error(fo_partition(g.dir, out, NULL, &r), FO_EINVAL, "number of parts 0");
    assert_int_equal(dir_entries(root, NULL, 0), 0);
    free(out);
    free(missing);
  }
  /* an already partitioned input */
  {
    pt p;
    partition_ok(&g, 2, FO_PARTITION_HASH, FO_BALANCE_NODES, 0, &p);
    o = popts(2, FO_PARTITION_HASH, FO_BALANCE_NODES, 0);
    expect_fail(p.dir, root, &o, FO_EINVAL, "already partitioned");
    o.n_parts = 1;
    expect_fail(p.dir, root, &o, FO_EINVAL, "already partitioned");
    pt_free(&p);
  }
  /* the output exists: refused without force (named), and left as it was */
  {
    char *out = fot_path(root, "out"), *keep = fot_path(out, "keep.txt");
    fo_partition_report r;
    size_t len;
    char *text;
    assert_int_equal(mkdir(out, 0755), 0);
    fot_write_file(keep, "keep me");
    o = popts(2, FO_PARTITION_HASH, FO_BALANCE_NODES, 0);
    assert_fo_error(fo_partition(g.dir, out, &o, &r), FO_EINVAL, "already exists");
    assert_true(strstr(fo_last_error(), out) != NULL);
    assert_null(r.parts);
    o.force = true; /* not a dataset: not replaced either */
    assert_fo_error(fo_partition(g.dir, out, &o, &r), FO_EINVAL, "not a fanout dataset");
    text = fot_read_file(keep, &len);
    assert_string_equal(text, "keep me");
    assert_int_equal(dir_entries(root, NULL, 0), 1); /* just "out" */
    free(text);
    free(keep);
    fot_rmtree(out);
  }
  /* METIS without libmetis: FO_ENOSYS naming the library, for balance nodes and train */
  {
    setenv("FO_METIS_LIBRARY", "/nonexistent.so", 1);
    for (int b = 0; b < 2; b++) {
      o = popts(2, FO_PARTITION_METIS, (fo_partition_balance)b, 0);
      expect_fail(g.dir, root, &o, FO_ENOSYS, "/nonexistent.so");
      o.n_parts = 7;
      expect_fail(CORA.dir, root, &o, FO_ENOSYS, "/nonexistent.so");
    }
    /* a library without the METIS symbols */
    setenv("FO_METIS_LIBRARY", "libc.so.6", 1);
    o = popts(2, FO_PARTITION_METIS, FO_BALANCE_NODES, 0);
    expect_fail(g.dir, root, &o, FO_ENOSYS, "libc.so.6");
    /* hash and range do not need it */
    setenv("FO_METIS_LIBRARY", "/nonexistent.so", 1);
    for (int m = 0; m < 2; m++) {
      pt p;
      partition_ok(&g, 2, (fo_partition_method)m, FO_BALANCE_NODES, 0, &p);
      check_partition(g.d, &p);
      pt_free(&p);
    }
    reset_env(NULL);
  }
  assert_int_equal(dir_entries(root, NULL, 0), 0);
  /* fo_partition_method_parse */
  {
    fo_partition_method m = (fo_partition_method)9;
    assert_fo_ok(fo_partition_method_parse("hash", &m));
    assert_int_equal(m, FO_PARTITION_HASH);
    assert_fo_ok(fo_partition_method_parse("range", &m));
    assert_int_equal(m, FO_PARTITION_RANGE);
    assert_fo_ok(fo_partition_method_parse("metis", &m));
    assert_int_equal(m, FO_PARTITION_METIS);
    assert_fo_error(fo_partition_method_parse("bogus", &m), FO_EINVAL, "bogus");
    assert_fo_error(fo_partition_method_parse("METIS", &m), FO_EINVAL, "METIS");
    assert_fo_error(fo_partition_method_parse(NULL, &m), FO_EINVAL, "method");
    assert_int_equal(m, FO_PARTITION_METIS);
  }
  free(root);
  fot_ds_close(&g);
  fot_ds_close(&plain);
  fot_ds_close(&csr_only);
  fot_edges_free(&e);
}

static void opts_defaults(void **state) {
  fo_partition_opts o;
  (void)state;
  memset(&o, 0x5a, sizeof o);
  fo_partition_opts_init(&o);
  assert_int_equal(o.n_parts, 0);
  assert_int_equal(o.method, FO_PARTITION_HASH);
  assert_int_equal(o.balance, FO_BALANCE_NODES);
  assert_non_null(o.train_split);
  assert_string_equal(o.train_split, "train");
  assert_int_equal(o.seed, 0);
  assert_false(o.force);
  assert_false(o.progress);
  assert_null(o.cancel);
  fo_partition_report_free(NULL);
}

/* ---- failed partitions leave nothing behind ------------------------------------------------ */

typedef struct watch {
  const char *parent;
  volatile int *flag;
  volatile int stop;
  int saw;
} watch;

/* Raise the cancel flag as soon as a hidden temporary directory appears in `parent`. */
static void *watch_tmp(void *arg) {
  watch *w = arg;
  while (!w->stop) {
    DIR *d = opendir(w->parent);
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL)
      if (de->d_name[0] == '.' && strstr(de->d_name, ".tmp-")) {
        *w->flag = 1;
        w->saw = 1;
      }
    if (d) closedir(d);
    if (w->saw) break;
  }
  return NULL;
}

static void failures_leave_nothing(void **state) {
  char *root = fot_path(CORA.tmp, "root2");
  fo_partition_opts o;
  volatile int flag = 0;
  (void)state;
  assert_int_equal(mkdir(root, 0755), 0);
  /* cancelled before anything is written */
  flag = 1;
  for (int m = 0; m < 3; m++) {
    o = popts(3, (fo_partition_method)m, FO_BALANCE_NODES, 0);
    o.cancel = &flag;
    expect_fail(CORA.dir, root, &o, FO_ECANCELED, "interrupted");
  }
  /* METIS missing */
  setenv("FO_METIS_LIBRARY", "/nonexistent.so", 1);
  o = popts(3, FO_PARTITION_METIS, FO_BALANCE_NODES, 0);
  expect_fail(CORA.dir, root, &o, FO_ENOSYS, "nonexistent");
  reset_env(NULL);
  /* cancelled while the parts are written (the flag rises when the temporary directory
   * appears); a run that beat the watcher is retried */
  for (int m = 0; m < 3; m += 2) {
    int tries = 0;
    for (;;) {
      pthread_t th;
      watch w = {root, &flag, 0, 0};
      char *out = fot_path(root, "out"), first[256];
      fo_partition_report r;
      int rc;
      flag = 0;
      o = popts(300, (fo_partition_method)m, FO_BALANCE_NODES, 0);
      o.cancel = &flag;
      assert_int_equal(pthread_create(&th, NULL, watch_tmp, &w), 0);
      rc = fo_partition(CORA.dir, out, &o, &r);
      w.stop = 1;
      pthread_join(th, NULL);
      if (rc == FO_OK && ++tries < 5) {
        fo_partition_report_free(&r);
        fot_rmtree(out);
        continue;
      }
      if (rc != FO_ECANCELED)
        fail_msg("cancel mid-write: %s: %s", fo_status_name(rc), fo_last_error());
      assert_true(w.saw);
      assert_true(strstr(fo_last_error(), "interrupted") != NULL);
      assert_null(r.parts);
      if (dir_entries(root, first, sizeof first) != 0)
        fail_msg("a cancelled partition left '%s' behind", first);
      free(out);
      break;
    }
  }
  fot_rmtree(root);
}

/* ---- refusals ------------------------------------------------------------------------------ */

static void refusals(void **state) {
  fot_edges e;
  ds g;
  fx_opts fo = {true, false, true, FO_INDEX_AUTO, FO_FEATURES_AUTO}; /* with a CSR */
  pt p;
  fo_sampler_opts so;
  fo_sampler_t *s = (fo_sampler_t *)&s;
  fo_loader_opts lo;
  fo_loader_t *L = (fo_loader_t *)&L;
  fo_partition_report q;
  const int32_t fan[2] = {2, 2};
  (void)state;
  fot_random(80, 400, 61, &e);
  make_graph(&g, "random80_csr", &e, 80, &fo);
  partition_ok(&g, 3, FO_PARTITION_HASH, FO_BALANCE_NODES, 0, &p);
  check_partition(g.d, &p);
  fo_sampler_opts_init(&so);
  so.fanouts = fan;
  so.n_hops = 2;
  /* one part sampled directly */
  for (int k = 0; k < 3; k++) {
    assert_fo_error(fo_sampler_create(fo_dataset_part(p.d, k), &so, &s), FO_EINVAL, "one part");
    assert_null(s);
    s = (fo_sampler_t *)&s;
  }
  /* out-neighbors: the parts store in-neighbor lists only */
  so.edge_dir = FO_EDGE_DIR_OUT;
  assert_fo_error(fo_sampler_create(p.d, &so, &s), FO_EINVAL, "in-neighbors only");
  assert_null(s);
  assert_fo_ok(fo_sampler_create(g.d, &so, &s)); /* the original has a CSR */
  fo_sampler_destroy(s);
  /* a loader over one part, or with edge_dir out */
  fo_loader_opts_init(&lo);
  lo.sampler.fanouts = fan;
  lo.sampler.n_hops = 2;
  assert_int_equal(fo_loader_create(fo_dataset_part(p.d, 0), &lo, &L), FO_EINVAL);
  assert_null(L);
  lo.sampler.edge_dir = FO_EDGE_DIR_OUT;
  L = (fo_loader_t *)&L;
  assert_int_equal(fo_loader_create(p.d, &lo, &L), FO_EINVAL);
  assert_null(L);
  /* quality and node_part need a partitioned dataset */
  assert_fo_error(fo_partition_quality(g.d, &q), FO_EINVAL, "not partitioned");
  assert_null(q.parts);
  {
    int k;
    int64_t r;
    assert_fo_error(fo_dataset_node_part(g.d, 0, &k, &r), FO_EINVAL, "not partitioned");
  }
  assert_string_equal(fo_dataset_partition_method(g.d), "");
  /* a part's directory opened on its own is a dataset (its rows), but not one to sample */
  {
    char *pd = fot_path(p.dir, "part-1");
    fo_dataset_t *one = NULL;
    fo_topology t;
    assert_fo_ok(fo_dataset_open(pd, NULL, &one));
    assert_int_equal(fo_dataset_num_parts(one), 0);
    assert_fo_ok(fo_dataset_topology(one, FO_EDGE_DIR_IN, &t));
    assert_non_null(t.row_nodes);
    assert_fo_ok(fo_dataset_verify(one));
    so.edge_dir = FO_EDGE_DIR_IN;
    s = (fo_sampler_t *)&s;
    assert_fo_error(fo_sampler_create(one, &so, &s), FO_EINVAL, "one part");
    assert_null(s);
    lo.sampler.edge_dir = FO_EDGE_DIR_IN;
    L = (fo_loader_t *)&L;
    assert_int_equal(fo_loader_create(one, &lo, &L), FO_EINVAL);
    assert_null(L);
    assert_fo_error(fo_partition_quality(one, &q), FO_EINVAL, "not partitioned");
    fo_dataset_close(one);
    free(pd);
  }
  pt_free(&p);
  fot_ds_close(&g);
  fot_edges_free(&e);
}

/* ---- main ---------------------------------------------------------------------------------- */

static int group_setup(void **state) {
  (void)state;
  make_cora(&CORA);
  make_facebook(&FB);
  return 0;
}

static int group_teardown(void **state) {
  (void)state;
  fot_ds_close(&CORA);
  fot_ds_close(&FB);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(opts_defaults, reset_env),
      cmocka_unit_test_setup(fixtures_matrix, reset_env),
      cmocka_unit_test_setup(edge_cases, reset_env),
      cmocka_unit_test_setup(cora_matrix, reset_env),
      cmocka_unit_test_setup(facebook_matrix, reset_env),
      cmocka_unit_test_setup(sampling_many, reset_env),
      cmocka_unit_test_setup(book_width, reset_env),
      cmocka_unit_test_setup(metis_quality, reset_env),
      cmocka_unit_test_setup(determinism, reset_env),
      cmocka_unit_test_setup(force_replaces, reset_env),
      cmocka_unit_test_setup(verify_detects_corruption, reset_env),
      cmocka_unit_test_setup(parts_without_row_eid, reset_env),
      cmocka_unit_test_setup(errors, reset_env),
      cmocka_unit_test_setup(failures_leave_nothing, reset_env),
      cmocka_unit_test_setup(refusals, reset_env),
      cmocka_unit_test_setup(concurrent_partitions, reset_env),
      cmocka_unit_test_setup(quality_custom_train_split, reset_env),
      cmocka_unit_test_setup(metis_quiet, reset_env),
      cmocka_unit_test_setup(metis_threads_restore_stdout, reset_env),
  };
  struct statfs sf;
  const char *tmp = getenv("TMPDIR");
  int rc;
  if (getenv("FO_METIS_LIBRARY")) METIS_ENV = strdup(getenv("FO_METIS_LIBRARY"));
  /* outputs of P = n hold n part directories, each file fsync'ed: use /dev/shm by default */
  if ((!tmp || !*tmp) && access("/dev/shm", W_OK) == 0) setenv("TMPDIR", "/dev/shm", 1);
  tmp = getenv("TMPDIR");
  FAST_TMP = statfs(tmp && *tmp ? tmp : "/tmp", &sf) == 0 && sf.f_type == TMPFS_MAGIC_;
  rc = cmocka_run_group_tests(tests, group_setup, group_teardown);
  free(METIS_ENV);
  return rc;
}
