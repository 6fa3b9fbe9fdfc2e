/*
 * tests/unit/test_import_ogb.c: `--format ogb` (src/io/ogb.c). The tests write OGB-layout
 * directories (gzip CSV files as OGB's download holds them, see snap-stanford/ogb
 * ogb/io/read_graph_raw.py) from Cora in data/cora: its planetoid import gives the edges, the
 * features, the labels and the splits, the OGB directory is written from that dataset, and its
 * import must give the same arrays. Then malformed directories, each with its status code and
 * a piece of the message (file and line).
 */
#include "support.h"

#include <sys/stat.h>
#include <zlib.h>

/* mkdir -p the parent directories of dir/rel, then write `text` gzip-compressed there. */
static void write_gz(const char *dir, const char *rel, const char *text) {
  char *path = fot_path(dir, rel);
  gzFile gz;
  for (char *p = path + strlen(dir) + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(path, 0755);
      *p = '/';
    }
  if (!(gz = gzopen(path, "wb"))) fail_msg("cannot write %s", path);
  if (*text && gzwrite(gz, text, (unsigned)strlen(text)) <= 0) fail_msg("gzwrite %s", path);
  gzclose(gz);
  free(path);
}

/* A growable text buffer. */
typedef struct sbuf {
  char *s;
  size_t len, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
  va_list ap;
  int k;
  for (;;) {
    va_start(ap, fmt);
    k = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (b->s && (size_t)k < b->cap - b->len) break;
    b->cap = (b->cap + (size_t)k + 1) * 2;
    b->s = realloc(b->s, b->cap);
  }
  b->len += (size_t)k;
}

static void sb_write(sbuf *b, const char *dir, const char *rel) {
  write_gz(dir, rel, b->s ? b->s : "");
  free(b->s);
  memset(b, 0, sizeof *b);
}

static int64_t year_of(int64_t v) { return 1990 + v % 30; }

/* The planetoid import of Cora (directed, as the cites file) in p; its OGB form in tmp/ogb. */
static void cora_ogb(fot_ds *p, char **ogb_dir) {
  static const char *const split_files[3][2] = {{"train", "split/time/train.csv.gz"},
                                                {"val", "split/time/valid.csv.gz"},
                                                {"test", "split/time/test.csv.gz"}};
  char *content = fot_path(fot_data_dir(), "cora/cora.content.gz"),
       *cites = fot_path(fot_data_dir(), "cora/cora.cites");
  const char *inputs[2] = {content, cites};
  fo_import_opts o;
  fo_topology t;
  fo_features f;
  const int64_t *y, *ids;
  int64_t n, m, ny, k;
  char *dir;
  sbuf b = {0};
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_PLANETOID;
  fot_ds_import(p, inputs, 2, &o);
  n = fo_dataset_num_nodes(p->d);
  m = fo_dataset_num_edges(p->d);
  dir = *ogb_dir = fot_path(p->tmp, "ogb");
  mkdir(dir, 0755);
  sb_printf(&b, "%lld\n", (long long)n);
  sb_write(&b, dir, "raw/num-node-list.csv.gz");
  sb_printf(&b, "%lld\n", (long long)m);
  sb_write(&b, dir, "raw/num-edge-list.csv.gz");
  /* edges in CSC order: the OGB import's CSC must then be the same, entry for entry */
  assert_fo_ok(fo_dataset_topology(p->d, FO_EDGE_DIR_IN, &t));
  for (int64_t v = 0; v < n; v++)
    for (int64_t j = t.indptr[v]; j < t.indptr[v + 1]; j++) {
      int64_t u = t.indices_bytes == 4 ? ((const int32_t *)t.indices)[j] : ((const int64_t *)t.indices)[j];
      sb_printf(&b, "%lld,%lld\n", (long long)u, (long long)v);
    }
  sb_write(&b, dir, "raw/edge.csv.gz");
  assert_fo_ok(fo_dataset_features(p->d, &f));
  assert_string_equal(f.dtype, "float32");
  for (int64_t v = 0; v < n; v++)
    for (int64_t j = 0; j < f.dim; j++)
      sb_printf(&b, j + 1 < f.dim ? "%.9g," : "%.9g\n", (double)((const float *)f.data)[v * f.dim + j]);
  sb_write(&b, dir, "raw/node-feat.csv.gz");
  assert_fo_ok(fo_dataset_labels(p->d, &y, &ny, NULL));
  for (int64_t v = 0; v < n; v++) sb_printf(&b, "%lld\n", (long long)y[v]);
  sb_write(&b, dir, "raw/node-label.csv.gz");
  for (int64_t v = 0; v < n; v++) sb_printf(&b, "%lld\n", (long long)year_of(v));
  sb_write(&b, dir, "raw/node_year.csv.gz");
  for (int i = 0; i < 3; i++) {
    assert_fo_ok(fo_dataset_split(p->d, split_files[i][0], &ids, &k));
    for (int64_t j = 0; j < k; j++) sb_printf(&b, "%lld\n", (long long)ids[j]);
    sb_write(&b, dir, split_files[i][1]);
  }
  free(content);
  free(cites);
}

static void import_ogb(const char *ogb_dir, const char *out, fo_import_opts *o, fo_import_report *rep) {
  const char *in[1] = {ogb_dir};
  o->format = FO_FORMAT_OGB;
  assert_fo_ok(fo_import(in, 1, out, o, rep));
}

static int64_t idx(const fo_topology *t, int64_t j) {
  return t->indices_bytes == 4 ? ((const int32_t *)t->indices)[j] : ((const int64_t *)t->indices)[j];
}

/* Cora as ogbn-style dataset: every array as the planetoid import's. */
static void cora_same_arrays(void **state) {
  fot_ds p = {.name = "cora"};
  char *ogb, *out;
  fo_import_opts o;
  fo_import_report rep;
  fo_dataset_t *d;
  fo_topology ta, tb;
  fo_features fa, fb;
  fo_array_info yr;
  const int64_t *ya, *yb, *sa, *sb, *nt;
  int64_t n, na, nb;
  (void)state;
  cora_ogb(&p, &ogb);
  out = fot_path(p.tmp, "g-ogb");
  fo_import_opts_init(&o);
  import_ogb(ogb, out, &o, &rep);
  assert_int_equal(rep.n_nodes, 2708);
  assert_int_equal(rep.n_edges, 5429);
  assert_fo_ok(fo_dataset_open(out, NULL, &d));
  assert_fo_ok(fo_dataset_verify(d));
  n = fo_dataset_num_nodes(d);
  assert_int_equal(n, fo_dataset_num_nodes(p.d));
  assert_int_equal(fo_dataset_num_edges(d), fo_dataset_num_edges(p.d));
  assert_fo_ok(fo_dataset_topology(p.d, FO_EDGE_DIR_IN, &ta));
  assert_fo_ok(fo_dataset_topology(d, FO_EDGE_DIR_IN, &tb));
  assert_memory_equal(ta.indptr, tb.indptr, (size_t)(n + 1) * sizeof *ta.indptr);
  /* node_year is the node time too, so every row is ordered by its neighbors' years (stable):
   * the same neighbors per row, in that order */
  assert_fo_ok(fo_dataset_node_time(d, &nt, &nb));
  assert_int_equal(nb, n);
  for (int64_t v = 0; v < n; v++) assert_int_equal(nt[v], year_of(v));
  for (int64_t v = 0; v < n; v++) {
    int64_t lo = ta.indptr[v], hi = ta.indptr[v + 1];
    for (int64_t j = lo; j < hi; j++) {
      int64_t u = idx(&ta, j), k = lo; /* u's place: stable order by year */
      for (int64_t i = lo; i < hi; i++)
        if (year_of(idx(&ta, i)) < year_of(u) || (year_of(idx(&ta, i)) == year_of(u) && i < j)) k++;
      assert_int_equal(idx(&tb, k), u);
    }
  }
  assert_fo_ok(fo_dataset_features(p.d, &fa));
  assert_fo_ok(fo_dataset_features(d, &fb));
  assert_string_equal(fb.dtype, "float32");
  assert_int_equal(fa.dim, fb.dim);
  assert_int_equal(fb.dim, 1433);
  assert_memory_equal(fa.data, fb.data, (size_t)(n * fa.dim) * sizeof(float));
  assert_fo_ok(fo_dataset_labels(p.d, &ya, &na, NULL));
  assert_fo_ok(fo_dataset_labels(d, &yb, &nb, NULL));
  assert_int_equal(na, nb);
  assert_memory_equal(ya, yb, (size_t)n * sizeof *ya);
  /* OGB's "valid" is stored as fanout's "val" */
  assert_int_equal(fo_dataset_num_splits(d), 3);
  for (int i = 0; i < 3; i++) {
    static const char *const names[3] = {"train", "val", "test"};
    assert_fo_ok(fo_dataset_split(p.d, names[i], &sa, &na));
    assert_fo_ok(fo_dataset_split(d, names[i], &sb, &nb));
    assert_int_equal(na, nb);
    assert_memory_equal(sa, sb, (size_t)na * sizeof *sa);
  }
  assert_fo_ok(fo_dataset_array(d, "node_year", &yr));
  assert_string_equal(yr.dtype, "<i8");
  assert_int_equal(yr.shape[0], n);
  for (int64_t v = 0; v < n; v++) assert_int_equal(((const int64_t *)yr.data)[v], year_of(v));
  fo_dataset_close(d);
  free(out);
  free(ogb);
  fot_ds_close(&p);
}

/* --undirected: as PyG's to_undirected, the planetoid import with --undirected has the same
 * edge set (10556 edges); neighbor order follows each input's order, so compare sorted lists. */
static int cmp64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static void cora_undirected(void **state) {
  fot_ds p = {.name = "cora"}, pu = {.name = "cora-undirected"};
  char *ogb, *out, *content = fot_path(fot_data_dir(), "cora/cora.content.gz"),
                   *cites = fot_path(fot_data_dir(), "cora/cora.cites");
  const char *inputs[2] = {content, cites};
  fo_import_opts o;
  fo_import_report rep;
  fo_dataset_t *d;
  fo_topology ta, tb;
  int64_t n, la[200], lb[200];
  (void)state;
  cora_ogb(&p, &ogb);
  out = fot_path(p.tmp, "g-ogb-u");
  fo_import_opts_init(&o);
  o.undirected = true;
  o.csr = true;
  import_ogb(ogb, out, &o, &rep);
  assert_int_equal(rep.n_edges, 10556);
  assert_int_equal(rep.n_reverse_added, 5429);
  assert_fo_ok(fo_dataset_open(out, NULL, &d));
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_PLANETOID;
  o.undirected = true;
  fot_ds_import(&pu, inputs, 2, &o);
  n = fo_dataset_num_nodes(d);
  assert_int_equal(fo_dataset_num_edges(d), fo_dataset_num_edges(pu.d));
  assert_fo_ok(fo_dataset_topology(pu.d, FO_EDGE_DIR_IN, &ta));
  assert_fo_ok(fo_dataset_topology(d, FO_EDGE_DIR_IN, &tb));
  assert_memory_equal(ta.indptr, tb.indptr, (size_t)(n + 1) * sizeof *ta.indptr);
  for (int64_t v = 0; v < n; v++) {
    int64_t k = ta.indptr[v + 1] - ta.indptr[v];
    if (k > 200) fail_msg("degree %lld", (long long)k);
    for (int64_t j = 0; j < k; j++) {
      la[j] = idx(&ta, ta.indptr[v] + j);
      lb[j] = idx(&tb, tb.indptr[v] + j);
    }
    qsort(la, (size_t)k, sizeof *la, cmp64);
    qsort(lb, (size_t)k, sizeof *lb, cmp64);
    assert_memory_equal(la, lb, (size_t)k * sizeof *la);
  }
  fo_dataset_close(d);
  fot_ds_close(&pu);
  free(out);
  free(ogb);
  free(content);
  free(cites);
  fot_ds_close(&p);
}

/* ---- small and malformed directories ------------------------------------------------------ */

/* A valid 4-node, 3-edge dataset in tmp/ogb (no node data). */
static char *tiny(const char *tmp) {
  char *dir = fot_path(tmp, "ogb");
  mkdir(dir, 0755);
  write_gz(dir, "raw/num-node-list.csv.gz", "4\n");
  write_gz(dir, "raw/num-edge-list.csv.gz", "3\n");
  write_gz(dir, "raw/edge.csv.gz", "0,1\n1,2\n2,3\n");
  return dir;
}

/* Import tmp/ogb into tmp/out expecting `code` and `substr`; nothing may be left behind. */
static void expect_error(const char *tmp, int code, const char *substr) {
  char *dir = fot_path(tmp, "ogb"), *out = fot_path(tmp, "out");
  const char *in[1] = {dir};
  fo_import_opts o;
  struct stat st;
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_OGB;
  assert_fo_error(fo_import(in, 1, out, &o, NULL), code, substr);
  assert_int_not_equal(stat(out, &st), 0);
  free(dir);
  free(out);
}

static void malformed_graph(void **state) {
  static const struct {
    const char *file, *text;
    int code;
    const char *msg;
  } cases[] = {
      {"raw/edge.csv.gz", "0,1\n1,x\n2,3\n", FO_EFORMAT, "edge.csv.gz:2: node id 'x' is not an integer"},
      {"raw/edge.csv.gz", "0,1\n1 2\n2,3\n", FO_EFORMAT, "edge.csv.gz:2: expected 'src,dst', got '1 2'"},
      {"raw/edge.csv.gz", "0,1\n1,2,5\n2,3\n", FO_EFORMAT, "edge.csv.gz:2: expected 'src,dst'"},
      {"raw/edge.csv.gz", "0,1\n1,2\n2,4\n", FO_ERANGE, "edge.csv.gz:3: node id 4 is not in [0, 4)"},
      {"raw/edge.csv.gz", "0,1\n-1,2\n2,3\n", FO_ERANGE, "edge.csv.gz:2: node id -1 is not in [0, 4)"},
      {"raw/edge.csv.gz", "0,1\n1,2\n", FO_EFORMAT, "edge.csv.gz: 2 edges, but num-edge-list.csv.gz says 3"},
      /* a count the small file contradicts: reported, without reserving 12 GB for it first
       * (found by the ogb fuzz harness) */
      {"raw/num-edge-list.csv.gz", "777777777\n", FO_EFORMAT,
       "edge.csv.gz: 3 edges, but num-edge-list.csv.gz says 777777777"},
      {"raw/edge.csv.gz", "0,1\n1,2\n2,3\n3,0\n", FO_EFORMAT,
       "edge.csv.gz:4: more edges than the 3 of num-edge-list.csv.gz"},
      {"raw/num-node-list.csv.gz", "4\n5\n", FO_EINVAL, "num-node-list.csv.gz:2: more than one graph"},
      {"raw/num-node-list.csv.gz", "four\n", FO_EFORMAT, "num-node-list.csv.gz:1: node count 'four' is not an integer"},
      {"raw/num-edge-list.csv.gz", "", FO_EFORMAT, "num-edge-list.csv.gz: empty"},
      {"raw/node-feat.csv.gz", "1,2\n3,4\n5,6\n", FO_EFORMAT, "node-feat.csv.gz: 3 rows, but the graph has 4 nodes"},
      {"raw/node-feat.csv.gz", "1,2\n3,4\n5\n7,8\n", FO_EFORMAT, "node-feat.csv.gz:3: 1 values, but line 1 has 2"},
      {"raw/node-feat.csv.gz", "1,2\n3,4\n5,abc\n7,8\n", FO_EFORMAT, "node-feat.csv.gz:3: value 1 is 'abc', not a number"},
      {"raw/node-label.csv.gz", "0\n1\n2.5\n3\n", FO_EFORMAT, "node-label.csv.gz:3: label '2.5' is not an integer"},
      {"raw/node-label.csv.gz", "0\n1\n-2\n3\n", FO_ERANGE, "node-label.csv.gz:3: label -2 is negative"},
      {"raw/node-label.csv.gz", "0,1\n1,0\n1,1\n0,0\n", FO_EINVAL, "node-label.csv.gz:1: 2 columns: fanout stores one label per node"},
      {"raw/node-label.csv.gz", "0\n1\n", FO_EFORMAT, "node-label.csv.gz: 2 lines, but the graph has 4 nodes"},
      {"raw/node_year.csv.gz", "2000\n2001\n20x2\n2003\n", FO_EFORMAT, "node_year.csv.gz:3: value '20x2' is not an integer"},
      {"split/time/train.csv.gz", "0\n7\n", FO_ERANGE, "train.csv.gz:2: node id 7 is not in [0, 4)"},
      {"split/time/valid.csv.gz", "1\nnope\n", FO_EFORMAT, "valid.csv.gz:2: node id 'nope' is not an integer"},
  };
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *tmp = fot_tmpdir(), *dir = tiny(tmp);
    write_gz(dir, cases[i].file, cases[i].text);
    expect_error(tmp, cases[i].code, cases[i].msg);
    free(dir);
    fot_rmtree(tmp);
  }
}

static void corrupt_gzip(void **state) {
  char *tmp = fot_tmpdir(), *dir = tiny(tmp), *path = fot_path(dir, "raw/edge.csv.gz");
  size_t len;
  char *bytes = fot_read_file(path, &len);
  (void)state;
  fot_write_bytes(path, bytes, len - 6); /* cut the trailer and some data */
  expect_error(tmp, FO_EFORMAT, "edge.csv.gz: corrupt gzip data");
  free(bytes);
  free(path);
  free(dir);
  fot_rmtree(tmp);
}

static void other_layouts(void **state) {
  char *tmp, *dir, *p;
  (void)state;
  /* heterogeneous (ogbn-mag): imported as a typed dataset (tests/python/test_import_ogb_typed.py
   * checks it against DBLP); a relation without num-edge-list.csv.gz is an error naming it, and
   * the binary heterogeneous layout is FO_ENOSYS */
  tmp = fot_tmpdir();
  dir = fot_path(tmp, "ogb");
  mkdir(dir, 0755);
  write_gz(dir, "raw/num-node-dict.csv.gz", "author,paper\n3,4\n");
  write_gz(dir, "raw/triplet-type-list.csv.gz", "author,writes,paper\n");
  write_gz(dir, "raw/relations/author___writes___paper/edge.csv.gz", "0,1\n");
  expect_error(tmp, FO_EIO, "author___writes___paper/num-edge-list.csv.gz");
  write_gz(dir, "raw/relations/author___writes___paper/num-edge-list.csv.gz", "1\n");
  {
    char *out = fot_path(tmp, "typed");
    const char *in[1] = {dir};
    fo_import_opts o;
    fo_import_report rep;
    fo_import_opts_init(&o);
    o.format = FO_FORMAT_OGB;
    assert_fo_ok(fo_import(in, 1, out, &o, &rep));
    assert_int_equal(rep.n_node_types, 2);
    assert_int_equal(rep.n_edge_types, 1);
    assert_int_equal(rep.n_nodes, 7);
    assert_int_equal(rep.n_edges, 1);
    free(out);
  }
  p = fot_path(dir, "raw/edge_index_dict.npz");
  fot_write_file(p, "PK");
  free(p);
  expect_error(tmp, FO_ENOSYS, "binary heterogeneous OGB dataset (raw/edge_index_dict.npz)");
  free(dir);
  fot_rmtree(tmp);
  /* binary (ogbn-papers100M): FO_ENOSYS pointing at the Python importer */
  tmp = fot_tmpdir();
  dir = fot_path(tmp, "ogb");
  mkdir(dir, 0755);
  p = fot_path(dir, "raw");
  mkdir(p, 0755);
  free(p);
  p = fot_path(dir, "raw/data.npz");
  fot_write_file(p, "PK");
  free(p);
  expect_error(tmp, FO_ENOSYS, "binary OGB dataset (raw/data.npz");
  free(dir);
  fot_rmtree(tmp);
  /* not an OGB directory; a file instead of a directory */
  tmp = fot_tmpdir();
  dir = fot_path(tmp, "ogb");
  mkdir(dir, 0755);
  expect_error(tmp, FO_EINVAL, "is not an OGB dataset directory: no raw/edge.csv.gz");
  fot_rmtree(tmp);
  free(dir);
  tmp = fot_tmpdir();
  dir = fot_path(tmp, "ogb");
  fot_write_file(dir, "x");
  expect_error(tmp, FO_EINVAL, "is not a directory: --format ogb takes the dataset directory");
  free(dir);
  fot_rmtree(tmp);
  /* two split schemes */
  tmp = fot_tmpdir();
  dir = tiny(tmp);
  write_gz(dir, "split/a/train.csv.gz", "0\n");
  write_gz(dir, "split/b/train.csv.gz", "1\n");
  expect_error(tmp, FO_EINVAL, "holds more than one split scheme");
  free(dir);
  fot_rmtree(tmp);
}

/* Options that do not apply, and what is accepted: "nan" labels, val.csv.gz, .pt splits. */
static void options_and_variants(void **state) {
  char *tmp = fot_tmpdir(), *dir = tiny(tmp), *out = fot_path(tmp, "out"), *p;
  const char *in[1] = {dir};
  fo_import_opts o;
  fo_dataset_t *d;
  const int64_t *y, *ids;
  int64_t n;
  (void)state;
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_OGB;
  o.relabel = true;
  assert_fo_error(fo_import(in, 1, out, &o, NULL), FO_EINVAL, "no --relabel or --num-nodes");
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_OGB;
  assert_fo_error(fo_import((const char *[]){dir, dir}, 2, out, &o, NULL), FO_EINVAL,
                  "--format ogb takes one input, the dataset directory (got 2)");
  assert_fo_ok(fo_format_parse("ogb", &o.format));
  assert_int_equal(o.format, FO_FORMAT_OGB);
  write_gz(dir, "raw/node-label.csv.gz", "3\nnan\n\n1.0\n");
  write_gz(dir, "split/sales/train.csv.gz", "0\n3\n");
  write_gz(dir, "split/sales/val.csv.gz", "1\n");
  p = fot_path(dir, "split/sales/test.pt");
  fot_write_file(p, "not read");
  free(p);
  assert_fo_ok(fo_import(in, 1, out, &o, NULL));
  assert_fo_ok(fo_dataset_open(out, NULL, &d));
  assert_fo_ok(fo_dataset_labels(d, &y, &n, NULL));
  assert_int_equal(n, 4);
  assert_int_equal(y[0], 3);
  assert_int_equal(y[1], -1);
  assert_int_equal(y[2], -1);
  assert_int_equal(y[3], 1);
  assert_int_equal(fo_dataset_num_splits(d), 2);
  assert_fo_ok(fo_dataset_split(d, "val", &ids, &n));
  assert_int_equal(n, 1);
  assert_int_equal(ids[0], 1);
  assert_false(fo_dataset_has_features(d));
  fo_dataset_close(d);
  free(out);
  free(dir);
  fot_rmtree(tmp);
}

/* --node-array and --array (fo_import_opts node_arrays / arrays): stored as int64, listed in
 * the manifest, checked; fo_dataset_verify_with: cancel and defaults. */
static void node_arrays_and_extra(void **state) {
  char *tmp = fot_tmpdir(), *out = fot_path(tmp, "out"), *a = fot_path(tmp, "year.npy"),
       *b = fot_path(tmp, "pairs.npy"), *c = fot_path(tmp, "short.npy"), *spec;
  const char *man;
  const int32_t year[4] = {2001, 2002, 2003, 2004};
  const int64_t pairs[6] = {0, 1, 1, 2, 2, 3}, shp1 = 4, shp2[2] = {3, 2}, shp3 = 3;
  const int64_t src[3] = {0, 1, 2}, dst[3] = {1, 2, 3};
  fo_import_opts o;
  fo_dataset_t *d;
  fo_array_info ai;
  fo_verify_opts vo;
  volatile int cancel = 1;
  (void)state;
  fot_write_npy(a, "<i4", 1, &shp1, year, sizeof year);
  fot_write_npy(b, "<i8", 2, shp2, pairs, sizeof pairs);
  fot_write_npy(c, "<i8", 1, &shp3, pairs, 3 * sizeof *pairs);
  fo_import_opts_init(&o);
  spec = malloc(strlen(a) + 16);
  sprintf(spec, "node_year=%s", a);
  o.node_arrays = spec;
  o.arrays = NULL;
  {
    char *ex = malloc(strlen(b) + 16);
    sprintf(ex, "train_edge=%s", b);
    o.arrays = ex;
    assert_fo_ok(fo_import_edges(src, dst, 3, out, &o, NULL));
    free(ex);
  }
  assert_fo_ok(fo_dataset_open(out, NULL, &d));
  assert_fo_ok(fo_dataset_array(d, "node_year", &ai));
  assert_string_equal(ai.dtype, "<i8");
  assert_int_equal(((const int64_t *)ai.data)[3], 2004);
  assert_fo_ok(fo_dataset_array(d, "train_edge", &ai));
  assert_int_equal(ai.ndim, 2);
  assert_int_equal(ai.shape[0], 3);
  assert_int_equal(ai.shape[1], 2);
  assert_memory_equal(ai.data, pairs, sizeof pairs);
  man = strstr(fo_dataset_manifest(d), "\"node_data\"");
  assert_non_null(man);
  assert_non_null(strstr(man, "\"node_year\""));
  man = strstr(fo_dataset_manifest(d), "\"extra\"");
  assert_non_null(man);
  assert_non_null(strstr(man, "\"train_edge\""));
  fo_verify_opts_init(&vo);
  assert_false(vo.progress);
  assert_fo_ok(fo_dataset_verify_with(d, &vo));
  assert_fo_ok(fo_dataset_verify_with(d, NULL));
  vo.cancel = &cancel;
  assert_fo_error(fo_dataset_verify_with(d, &vo), FO_ECANCELED, "interrupted");
  fo_dataset_close(d);
  /* errors: wrong length, a taken name, a float array, a bad spec */
  o.force = true;
  o.arrays = NULL;
  sprintf(spec, "node_year=%s", c);
  assert_fo_error(fo_import_edges(src, dst, 3, out, &o, NULL), FO_EINVAL,
                  "node array 'node_year' (--node-array) has 3 entries, the graph has 4 nodes");
  sprintf(spec, "y=%s", a);
  assert_fo_error(fo_import_edges(src, dst, 3, out, &o, NULL), FO_EINVAL, "--node-array: array name 'y' is taken");
  sprintf(spec, "val_idx=%s", a);
  assert_fo_error(fo_import_edges(src, dst, 3, out, &o, NULL), FO_EINVAL, "array name 'val_idx' is taken");
  sprintf(spec, "node_year=%s", b);
  assert_fo_error(fo_import_edges(src, dst, 3, out, &o, NULL), FO_EFORMAT, "must be a 1-D int64 or int32 array");
  o.node_arrays = "nofile";
  assert_fo_error(fo_import_edges(src, dst, 3, out, &o, NULL), FO_EINVAL, "--node-array: 'nofile' is not NAME=FILE.npy");
  free(spec);
  free(a);
  free(b);
  free(c);
  free(out);
  fot_rmtree(tmp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cora_same_arrays),     cmocka_unit_test(cora_undirected),
      cmocka_unit_test(malformed_graph),      cmocka_unit_test(corrupt_gzip),
      cmocka_unit_test(other_layouts),        cmocka_unit_test(options_and_variants),
      cmocka_unit_test(node_arrays_and_extra),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
