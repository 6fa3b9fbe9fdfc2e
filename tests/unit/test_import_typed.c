/*
 * tests/unit/test_import_typed.c: typed (heterogeneous) imports, format_version 2: a tiny graph
 * with every array checked exactly (CSC and CSR per edge type, edge ids, edge_orig, csr_eid, the
 * reverse types of reverse_edges, undirected and self loops only where src and dst types are
 * equal), string ids per node type and --node-ids lists, the one-file form with a relation
 * column (inferred edge types, node-types file, default type, edge_orig per type), per-type
 * node data, and every bad input (status, message naming file, line, type; nothing written).
 * The manifest and the .npy files are read directly (jansson, the .npy parser), and the datasets
 * are opened and verified through the typed accessors of dataset.h.
 */
#include "support.h"

#include "store/store_internal.h"

#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct ctx {
  char *tmp, *out;
  json_t *man;
} ctx;

static void ctx_init(ctx *c) {
  c->tmp = fot_tmpdir();
  c->out = fot_path(c->tmp, "g");
  c->man = NULL;
}

static void ctx_free(ctx *c) {
  json_decref(c->man);
  free(c->out);
  fot_rmtree(c->tmp);
}

static char *put(const ctx *c, const char *name, const char *text) {
  char *p = fot_path(c->tmp, name);
  fot_write_file(p, text);
  return p;
}

static bool exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

static void load_manifest(ctx *c) {
  char *p = fot_path(c->out, "fanout.json");
  json_error_t err;
  json_decref(c->man);
  c->man = json_load_file(p, 0, &err);
  if (!c->man) fail_msg("%s: %s", p, err.text);
  free(p);
}

/* Array `name` of the dataset as int64 (int32/int64 arrays); *n its length. */
static int64_t *read_ints(const ctx *c, const char *name, int64_t *n) {
  char file[128], *p;
  size_t len;
  fo__npy_header h;
  char *buf;
  int64_t *out;
  snprintf(file, sizeof file, "%s.npy", name);
  p = fot_path(c->out, file);
  if (!(buf = fot_read_file(p, &len))) fail_msg("cannot read %s", p);
  assert_fo_ok(fo__npy_parse(buf, len, &h));
  assert_int_equal(h.ndim, 1);
  out = calloc((size_t)h.shape[0] + 1, sizeof *out);
  for (int64_t i = 0; i < h.shape[0]; i++) {
    if (h.itemsize == 4) {
      int32_t v;
      memcpy(&v, buf + h.data_offset + 4 * i, 4);
      out[i] = v;
    } else {
      memcpy(&out[i], buf + h.data_offset + 8 * i, 8);
    }
  }
  *n = h.shape[0];
  free(buf);
  free(p);
  return out;
}

#define assert_ints(c, name, ...)                                                             \
  do {                                                                                        \
    const int64_t want_[] = {__VA_ARGS__};                                                    \
    int64_t n_;                                                                               \
    int64_t *got_ = read_ints((c), (name), &n_);                                              \
    if (n_ != (int64_t)(sizeof want_ / sizeof want_[0]))                                      \
      fail_msg("%s: %lld values, expected %lld", (name), (long long)n_,                        \
               (long long)(sizeof want_ / sizeof want_[0]));                                  \
    for (int64_t i_ = 0; i_ < n_; i_++)                                                       \
      if (got_[i_] != want_[i_])                                                              \
        fail_msg("%s[%lld] = %lld, expected %lld", (name), (long long)i_, (long long)got_[i_], \
                 (long long)want_[i_]);                                                       \
    free(got_);                                                                               \
  } while (0)

static json_t *get_path(json_t *j, const char *path) {
  char buf[256], *save = NULL, *tok;
  snprintf(buf, sizeof buf, "%s", path);
  for (tok = strtok_r(buf, ".", &save); tok && j; tok = strtok_r(NULL, ".", &save)) {
    if (*tok >= '0' && *tok <= '9') j = json_array_get(j, (size_t)atoi(tok));
    else j = json_object_get(j, tok);
  }
  return j;
}

static void assert_str_at(json_t *man, const char *path, const char *want) {
  json_t *j = get_path(man, path);
  if (!json_is_string(j)) fail_msg("%s: not a string", path);
  if (strcmp(json_string_value(j), want))
    fail_msg("%s = '%s', expected '%s'", path, json_string_value(j), want);
}

static void assert_int_at(json_t *man, const char *path, int64_t want) {
  json_t *j = get_path(man, path);
  if (!json_is_integer(j)) fail_msg("%s: not an integer", path);
  if (json_integer_value(j) != want)
    fail_msg("%s = %lld, expected %lld", path, (long long)json_integer_value(j), (long long)want);
}

static void assert_absent(json_t *man, const char *path) {
  if (get_path(man, path)) fail_msg("%s is present", path);
}

/* Open the dataset, verify it, and check its node and edge type counts. */
static fo_dataset_t *open_typed(const ctx *c, int32_t n_ntypes, int32_t n_etypes) {
  fo_dataset_t *d;
  assert_fo_ok(fo_dataset_open(c->out, NULL, &d));
  assert_fo_ok(fo_dataset_verify(d));
  assert_true(fo_dataset_is_typed(d));
  assert_int_equal(fo_dataset_num_node_types(d), n_ntypes);
  assert_int_equal(fo_dataset_num_edge_types(d), n_etypes);
  return d;
}

static void assert_topo(const fo_topology *t, const int64_t *indptr, int64_t n_rows,
                        const int64_t *indices, int64_t m) {
  assert_int_equal(t->n_rows, n_rows);
  assert_int_equal(t->n_edges, m);
  for (int64_t i = 0; i <= n_rows; i++) assert_int_equal(t->indptr[i], indptr[i]);
  for (int64_t i = 0; i < m; i++)
    assert_int_equal(t->indices_bytes == 4 ? ((const int32_t *)t->indices)[i]
                                           : ((const int64_t *)t->indices)[i], indices[i]);
}

/* ---- the tiny graph ------------------------------------------------------------------------ */

/* paper->author: 5 lines, the last (1, 1) not a self loop (two types); paper->paper cites with a
 * self loop (removed) and undirected; reverse_edges adds author__rev_writes__paper. */
static void tiny_exact(void **state) {
  ctx c;
  fo_import_opts o;
  fo_import_report r;
  fo_import_edge_type et[2];
  fo_import_node_type nt[2];
  char *pa, *pp, *xa, *ya, *tr, split[256];
  const float x[6] = {1, 2, 3, 4, 5, 6};
  const int64_t y[2] = {1, 0}, train[2] = {0, 2};
  const int64_t xs[2] = {2, 3}, ys[1] = {2};
  (void)state;
  ctx_init(&c);
  pa = put(&c, "pa.txt", "# paper author\n0 1\n1 0\n2 1\n0 1\n1 1\n");
  pp = put(&c, "pp.txt", "0 1\n1 2\n2 2\n");
  xa = fot_path(c.tmp, "xa.npy");
  ya = fot_path(c.tmp, "ya.npy");
  tr = fot_path(c.tmp, "tr.npy");
  fot_write_npy(xa, "<f4", 2, xs, x, sizeof x);
  fot_write_npy(ya, "<i8", 1, ys, y, sizeof y);
  fot_write_npy(tr, "<i8", 1, ys, train, sizeof train);
  snprintf(split, sizeof split, "train=%s", tr);
  fo_import_opts_init(&o);
  et[0] = (fo_import_edge_type){"paper", "writes", "author", pa};
  et[1] = (fo_import_edge_type){"paper", "cites", "paper", pp};
  memset(nt, 0, sizeof nt);
  nt[0] = (fo_import_node_type){"author", -1, NULL, xa, ya, NULL};
  nt[1] = (fo_import_node_type){"paper", -1, NULL, NULL, NULL, split};
  o.edge_types = et;
  o.n_edge_types = 2;
  o.node_type_opts = nt;
  o.n_node_type_opts = 2;
  o.csc = o.csr = true;
  o.reverse_edges = true;
  o.undirected = true;
  o.remove_self_loops = true;
  assert_fo_ok(fo_import(NULL, 0, c.out, &o, &r));
  assert_int_equal(r.n_node_types, 2);
  assert_int_equal(r.n_edge_types, 3);
  assert_int_equal(r.n_nodes, 5);
  assert_int_equal(r.n_input_edges, 8);
  assert_int_equal(r.n_self_loops_removed, 1);
  assert_int_equal(r.n_reverse_added, 2 + 5);
  assert_int_equal(r.n_edges, 5 + 4 + 5);
  assert_int_equal(r.n_isolated, 0);
  load_manifest(&c);
  assert_str_at(c.man, "format", "fanout-dataset");
  assert_int_at(c.man, "format_version", 2);
  assert_int_at(c.man, "num_nodes", 5);
  assert_int_at(c.man, "num_edges", 14);
  assert_str_at(c.man, "node_types.0.name", "paper");
  assert_int_at(c.man, "node_types.0.num_nodes", 3);
  assert_str_at(c.man, "node_types.0.prefix", "n0");
  assert_str_at(c.man, "node_types.0.splits.train", "n0.split.train");
  assert_absent(c.man, "node_types.0.node_orig");
  assert_str_at(c.man, "node_types.1.name", "author");
  assert_int_at(c.man, "node_types.1.num_nodes", 2);
  assert_str_at(c.man, "node_types.1.features.array", "n1.x");
  assert_str_at(c.man, "node_types.1.features.dtype", "float32");
  assert_str_at(c.man, "node_types.1.labels.array", "n1.y");
  assert_int_at(c.man, "node_types.1.labels.num_classes", 2);
  assert_ints(&c, "n1.y", 1, 0);
  assert_ints(&c, "n0.split.train", 0, 2);

  /* e0 paper__writes__author: CSC over the 2 authors, CSR over the 3 papers, input order */
  assert_str_at(c.man, "edge_types.0.name", "paper__writes__author");
  assert_str_at(c.man, "edge_types.0.src", "paper");
  assert_str_at(c.man, "edge_types.0.rel", "writes");
  assert_str_at(c.man, "edge_types.0.dst", "author");
  assert_int_at(c.man, "edge_types.0.num_edges", 5);
  assert_str_at(c.man, "edge_types.0.prefix", "e0");
  assert_str_at(c.man, "edge_types.0.edge_ids", "csc");
  assert_str_at(c.man, "edge_types.0.topology.csc.indptr", "e0.csc_indptr");
  assert_str_at(c.man, "edge_types.0.topology.csr.eid", "e0.csr_eid");
  assert_str_at(c.man, "edge_types.0.edge_orig", "e0.edge_orig");
  assert_ints(&c, "e0.csc_indptr", 0, 1, 5);
  assert_ints(&c, "e0.csc_indices", 1, 0, 2, 0, 1);
  assert_ints(&c, "e0.edge_orig", 1, 0, 2, 3, 4);
  assert_ints(&c, "e0.csr_indptr", 0, 2, 4, 5);
  assert_ints(&c, "e0.csr_indices", 1, 1, 0, 1, 1);
  assert_ints(&c, "e0.csr_eid", 1, 3, 0, 4, 2);

  /* e1 paper__cites__paper: self loop 2->2 removed, then undirected (reverse of line i at
   * position 3 + i) */
  assert_str_at(c.man, "edge_types.1.name", "paper__cites__paper");
  assert_int_at(c.man, "edge_types.1.num_edges", 4);
  assert_ints(&c, "e1.csc_indptr", 0, 1, 3, 4);
  assert_ints(&c, "e1.csc_indices", 1, 0, 2, 1);
  assert_ints(&c, "e1.edge_orig", 3, 0, 4, 1);
  assert_ints(&c, "e1.csr_indptr", 0, 1, 3, 4);
  assert_ints(&c, "e1.csr_indices", 1, 2, 0, 1);
  assert_ints(&c, "e1.csr_eid", 1, 3, 0, 2);

  /* e2 author__rev_writes__paper: e0's edges reversed, after the originals; no reverse of the
   * paper->paper type */
  assert_str_at(c.man, "edge_types.2.name", "author__rev_writes__paper");
  assert_str_at(c.man, "edge_types.2.src", "author");
  assert_str_at(c.man, "edge_types.2.rel", "rev_writes");
  assert_str_at(c.man, "edge_types.2.dst", "paper");
  assert_str_at(c.man, "edge_types.2.prefix", "e2");
  assert_int_at(c.man, "edge_types.2.num_edges", 5);
  assert_ints(&c, "e2.csc_indptr", 0, 2, 4, 5);
  assert_ints(&c, "e2.csc_indices", 1, 1, 0, 1, 1);
  assert_ints(&c, "e2.edge_orig", 0, 3, 1, 4, 2);
  assert_ints(&c, "e2.csr_indptr", 0, 1, 5);
  assert_ints(&c, "e2.csr_indices", 1, 0, 2, 0, 1);
  assert_ints(&c, "e2.csr_eid", 2, 0, 4, 1, 3);
  assert_null(get_path(c.man, "edge_types.3"));

  /* the same through the reader */
  {
    fo_dataset_t *d = open_typed(&c, 2, 3);
    const fo_dataset_t *author, *paper;
    fo_edge_type e;
    fo_topology t;
    fo_features f;
    const int64_t *yy, *ids;
    int64_t n, k;
    const int64_t ip0[] = {0, 1, 5}, ix0[] = {1, 0, 2, 0, 1};
    const int64_t ip2[] = {0, 1, 5}, ix2[] = {1, 0, 2, 0, 1};
    assert_int_equal(fo_dataset_num_nodes(d), 5);
    assert_int_equal(fo_dataset_num_edges(d), 14);
    assert_string_equal(fo_dataset_node_type_name(d, 0), "paper");
    assert_int_equal(fo_dataset_node_type_find(d, "author"), 1);
    assert_fo_ok(fo_dataset_edge_type(d, 2, &e));
    assert_string_equal(e.name, "author__rev_writes__paper");
    assert_string_equal(e.rel, "rev_writes");
    assert_int_equal(e.src_type, 1);
    assert_int_equal(e.dst_type, 0);
    assert_int_equal(e.n_edges, 5);
    assert_int_equal(fo_dataset_edge_type_find(d, "paper__cites__paper"), 1);
    assert_int_equal(fo_dataset_edge_type_find(d, "writes"), 0);
    assert_fo_ok(fo_dataset_edge_topology(d, 0, FO_EDGE_DIR_IN, &t));
    assert_topo(&t, ip0, 2, ix0, 5);
    assert_int_equal(t.n_nodes, 3);
    assert_fo_ok(fo_dataset_edge_topology(d, 2, FO_EDGE_DIR_OUT, &t));
    assert_topo(&t, ip2, 2, ix2, 5);
    author = fo_dataset_node_data(d, 1);
    paper = fo_dataset_node_data(d, 0);
    assert_non_null(author);
    assert_int_equal(fo_dataset_num_nodes(author), 2);
    assert_fo_ok(fo_dataset_features(author, &f));
    assert_int_equal(f.n_rows, 2);
    assert_int_equal(f.dim, 3);
    assert_true(((const float *)f.data)[5] == 6.0f);
    assert_fo_ok(fo_dataset_labels(author, &yy, &n, &k));
    assert_int_equal(n, 2);
    assert_int_equal(k, 2);
    assert_int_equal(yy[0], 1);
    assert_false(fo_dataset_has_features(paper));
    assert_fo_ok(fo_dataset_split(paper, "train", &ids, &n));
    assert_int_equal(n, 2);
    assert_int_equal(ids[1], 2);
    fo_dataset_close(d);
  }
  free(pa);
  free(pp);
  free(xa);
  free(ya);
  free(tr);
  ctx_free(&c);
}

/* --string-ids interns per node type; --node-ids fixes a type's order and count. */
static void string_ids_and_node_ids(void **state) {
  ctx c;
  fo_import_opts o;
  fo_import_report r;
  fo_import_edge_type et[1];
  fo_import_node_type nt[1];
  char *pa, *ids;
  (void)state;
  ctx_init(&c);
  pa = put(&c, "pa.txt", "p1\ta1\np2\ta1\np1\ta9\n");
  ids = put(&c, "authors.txt", "# the authors\na9\na1\na5\n");
  fo_import_opts_init(&o);
  et[0] = (fo_import_edge_type){"paper", "writes", "author", pa};
  nt[0] = (fo_import_node_type){"author", -1, ids, NULL, NULL, NULL};
  o.edge_types = et;
  o.n_edge_types = 1;
  o.node_type_opts = nt;
  o.n_node_type_opts = 1;
  o.string_ids = true;
  assert_fo_ok(fo_import(NULL, 0, c.out, &o, &r));
  assert_int_equal(r.n_nodes, 2 + 3);
  assert_int_equal(r.n_isolated, 1); /* a5 */
  load_manifest(&c);
  assert_int_at(c.man, "node_types.0.num_nodes", 2);
  assert_str_at(c.man, "node_types.0.node_orig.offsets", "n0.node_orig_offsets");
  assert_int_at(c.man, "node_types.1.num_nodes", 3);
  assert_str_at(c.man, "node_types.1.node_orig.offsets", "n1.node_orig_offsets");
  assert_str_at(c.man, "node_types.1.node_orig.bytes", "n1.node_orig_bytes");
  /* author ids: a9 = 0, a1 = 1, a5 = 2; papers p1 = 0, p2 = 1 */
  assert_ints(&c, "e0.csc_indptr", 0, 1, 3, 3);
  assert_ints(&c, "e0.csc_indices", 0, 0, 1);
  assert_ints(&c, "n1.node_orig_offsets", 0, 2, 4, 6);
  {
    char *p = fot_path(c.out, "n1.node_orig_bytes.npy");
    size_t len;
    char *buf = fot_read_file(p, &len);
    fo__npy_header h;
    assert_fo_ok(fo__npy_parse(buf, len, &h));
    assert_string_equal(h.descr, "|u1");
    assert_int_equal(h.shape[0], 6);
    assert_memory_equal(buf + h.data_offset, "a9a1a5", 6);
    free(buf);
    free(p);
  }
  {
    fo_dataset_t *d = open_typed(&c, 2, 1);
    const fo_dataset_t *author = fo_dataset_node_data(d, 1);
    const char *str;
    size_t len;
    assert_int_equal(fo_dataset_node_orig_kind(author), FO_ORIG_STRING);
    assert_fo_ok(fo_dataset_node_orig_str(author, 2, &str, &len));
    assert_int_equal(len, 2);
    assert_memory_equal(str, "a5", 2);
    fo_dataset_close(d);
  }
  /* an id missing from the list */
  fot_write_file(pa, "p1\ta1\np2\ta7\n");
  assert_fo_error(fo_import(NULL, 0, c.out, &o, &r), FO_ERANGE,
                  "pa.txt:2: node id 'a7' of type 'author' is not in --node-ids author=");
  /* integer ids with a list: matched as integers */
  fot_write_file(pa, "0 30\n1 10\n");
  fot_write_file(ids, "10\n20\n30\n");
  o.string_ids = false;
  o.force = true;
  assert_fo_ok(fo_import(NULL, 0, c.out, &o, &r));
  assert_ints(&c, "e0.csc_indptr", 0, 1, 1, 2);
  assert_ints(&c, "e0.csc_indices", 1, 0);
  assert_ints(&c, "n1.node_orig", 10, 20, 30);
  {
    fo_dataset_t *d = open_typed(&c, 2, 1);
    int64_t v;
    assert_fo_ok(fo_dataset_node_orig_int(fo_dataset_node_data(d, 1), 2, &v));
    assert_int_equal(v, 30);
    fo_dataset_close(d);
  }
  free(pa);
  free(ids);
  ctx_free(&c);
}

/* One file, relation column: types from the node-types file and the default type. */
static void one_file_relation_column(void **state) {
  ctx c;
  fo_import_opts o;
  fo_import_report r;
  char *e, *types;
  (void)state;
  ctx_init(&c);
  e = put(&c, "e.tsv", "#src\trel\tdst\n"
                       "u1\tlikes\ti1\n"
                       "u1\tfollows\tu2\n"
                       "u2\tlikes\ti2\n"
                       "u2\tlikes\tv9\n"
                       "u1\tfollows\tu2\n"
                       "i2\t@~#m;c\\=\tu1\n");
  types = put(&c, "types.tsv", "#node\ttype\tignored\nu1\tuser\tx\nu2\tuser\ni1\titem\ni2\titem\n");
  fo_import_opts_init(&o);
  o.edge_type_column = 1;
  o.src_column = 0;
  o.dst_column = 2;
  o.string_ids = true;
  o.node_types = types;
  o.default_node_type = "other";
  o.dedup = true;
  assert_fo_ok(fo_import((const char *const *)&e, 1, c.out, &o, &r));
  assert_int_equal(r.n_node_types, 3);
  assert_int_equal(r.n_edge_types, 4);
  assert_int_equal(r.n_input_edges, 6);
  assert_int_equal(r.n_duplicates_removed, 1);
  assert_int_equal(r.n_edges, 5);
  load_manifest(&c);
  assert_str_at(c.man, "node_types.0.name", "user");
  assert_str_at(c.man, "node_types.1.name", "item");
  assert_str_at(c.man, "node_types.2.name", "other");
  assert_int_at(c.man, "node_types.2.num_nodes", 1);
  assert_str_at(c.man, "edge_types.0.name", "user__likes__item");
  assert_str_at(c.man, "edge_types.1.name", "user__follows__user");
  assert_str_at(c.man, "edge_types.2.name", "user__likes__other");
  assert_str_at(c.man, "edge_types.3.name", "item__@~#m;c\\=__user");
  assert_str_at(c.man, "edge_types.3.rel", "@~#m;c\\=");
  assert_int_at(c.man, "edge_types.0.num_edges", 2);
  assert_int_at(c.man, "edge_types.1.num_edges", 1);
  assert_ints(&c, "e0.csc_indptr", 0, 1, 2);
  assert_ints(&c, "e0.csc_indices", 0, 1);
  assert_absent(c.man, "edge_types.0.edge_orig");
  assert_ints(&c, "e1.csc_indptr", 0, 0, 1);
  assert_ints(&c, "e2.csc_indices", 1);
  assert_ints(&c, "e3.csc_indptr", 0, 1, 1);
  assert_ints(&c, "e3.csc_indices", 1);
  {
    fo_dataset_t *d = open_typed(&c, 3, 4);
    fo_edge_type et;
    assert_fo_ok(fo_dataset_edge_type(d, 3, &et));
    assert_string_equal(et.rel, "@~#m;c\\=");
    assert_int_equal(fo_dataset_edge_type_find(d, "item__@~#m;c\\=__user"), 3);
    fo_dataset_close(d);
  }
  /* the same positions within a type's lines: a later line of type e0 after others */
  fot_write_file(e, "u2\tlikes\ti2\nu1\tfollows\tu2\nu1\tlikes\ti2\nu1\tlikes\ti1\n");
  o.force = true;
  o.dedup = false;
  assert_fo_ok(fo_import((const char *const *)&e, 1, c.out, &o, &r));
  assert_ints(&c, "e0.csc_indptr", 0, 1, 3);
  assert_ints(&c, "e0.csc_indices", 0, 1, 0);
  assert_ints(&c, "e0.edge_orig", 2, 0, 1);
  /* one node type from a list: every relation is synset__<rel>__synset */
  fot_write_file(types, "#synset\tpos\na\tn\nb\tv\n");
  o.node_types = NULL;
  o.default_node_type = NULL;
  {
    fo_import_node_type nt = {"synset", -1, types, NULL, NULL, NULL};
    fot_write_file(e, "a\t@\tb\nb\t~\ta\n");
    o.node_type_opts = &nt;
    o.n_node_type_opts = 1;
    assert_fo_ok(fo_import((const char *const *)&e, 1, c.out, &o, &r));
    load_manifest(&c);
    assert_str_at(c.man, "edge_types.0.name", "synset__@__synset");
    assert_str_at(c.man, "edge_types.1.name", "synset__~__synset");
    assert_str_at(c.man, "node_types.0.node_orig.bytes", "n0.node_orig_bytes");
  }
  free(e);
  free(types);
  ctx_free(&c);
}

/* ---- bad input ------------------------------------------------------------------------------ */

typedef struct bad {
  ctx c;
  fo_import_opts o;
  fo_import_edge_type et[3];
  fo_import_node_type nt[2];
  char *pa, *pc;
} bad;

static void bad_init(bad *b) {
  ctx_init(&b->c);
  b->pa = put(&b->c, "pa.txt", "0 1\n1 0\n");
  b->pc = put(&b->c, "pc.txt", "0 0\n1 0\n");
  fo_import_opts_init(&b->o);
  b->et[0] = (fo_import_edge_type){"paper", "writes", "author", b->pa};
  b->et[1] = (fo_import_edge_type){"paper", "in", "conf", b->pc};
  b->o.edge_types = b->et;
  b->o.n_edge_types = 2;
  memset(b->nt, 0, sizeof b->nt);
  b->nt[0].num_nodes = b->nt[1].num_nodes = -1;
}

static void bad_free(bad *b) {
  assert_false(exists(b->c.out));
  free(b->pa);
  free(b->pc);
  ctx_free(&b->c);
}

#define IMPORT_FAILS(b, inputs, n, code, substr)                                              \
  do {                                                                                        \
    fo_import_report r_;                                                                      \
    assert_fo_error(fo_import((inputs), (n), (b)->c.out, &(b)->o, &r_), (code), (substr));    \
    assert_false(exists((b)->c.out));                                                         \
  } while (0)

static void bad_per_type(void **state) {
  bad b;
  const char *in[1];
  (void)state;
  bad_init(&b);
  /* an option naming a type that does not occur */
  b.nt[0].name = "autor";
  b.nt[0].features = "x.npy";
  b.o.node_type_opts = b.nt;
  b.o.n_node_type_opts = 1;
  IMPORT_FAILS(&b, NULL, 0, FO_EINVAL, "--features: no node type 'autor' in the edge types");
  /* num_nodes too small: file, line and type */
  b.nt[0] = (fo_import_node_type){"author", 1, NULL, NULL, NULL, NULL};
  IMPORT_FAILS(&b, NULL, 0, FO_ERANGE,
               "pa.txt:1: node id 1 of type 'author' is >= --num-nodes author=1");
  /* a node type given twice in the options */
  b.nt[0] = (fo_import_node_type){"author", -1, NULL, NULL, NULL, NULL};
  b.nt[1] = (fo_import_node_type){"author", -1, NULL, NULL, NULL, NULL};
  b.o.n_node_type_opts = 2;
  IMPORT_FAILS(&b, NULL, 0, FO_EINVAL, "node type 'author' has two entries");
  b.o.n_node_type_opts = 0;
  /* an edge type given twice */
  b.et[2] = b.et[0];
  b.o.n_edge_types = 3;
  IMPORT_FAILS(&b, NULL, 0, FO_EINVAL, "--edge-type paper__writes__author given twice");
  b.o.n_edge_types = 2;
  /* a file given for no type */
  in[0] = b.pa;
  IMPORT_FAILS(&b, in, 1, FO_EINVAL, "belongs to no edge type");
  /* names */
  b.et[2] = (fo_import_edge_type){"pa/per", "x", "author", b.pa};
  b.o.n_edge_types = 3;
  IMPORT_FAILS(&b, NULL, 0, FO_EINVAL, "node type 'pa/per' is not a valid name");
  b.et[2] = (fo_import_edge_type){"paper", "a__b", "author", b.pa};
  IMPORT_FAILS(&b, NULL, 0, FO_EINVAL, "relation 'a__b' is not a valid name");
  b.et[2] = (fo_import_edge_type){"paper", "x", "author=", b.pa};
  IMPORT_FAILS(&b, NULL, 0, FO_EINVAL, "node type 'author=' is not a valid name");
  b.et[2] = (fo_import_edge_type){"paper_", "x", "author", b.pa};
  IMPORT_FAILS(&b, NULL, 0, FO_EINVAL, "starts or ends with '_'");
  /* the reverse type exists already */
  b.et[2] = (fo_import_edge_type){"author", "rev_writes", "paper", b.pa};
  b.o.reverse_edges = true;
  IMPORT_FAILS(&b, NULL, 0, FO_EINVAL,
               "the reverse type author__rev_writes__paper of paper__writes__author exists");
  b.o.reverse_edges = false;
  b.o.n_edge_types = 2;
  /* bad ids */
  fot_write_file(b.pc, "0 0\n-1 0\n");
  IMPORT_FAILS(&b, NULL, 0, FO_ERANGE, "pc.txt:2: node id -1 of type 'paper' is negative");
  fot_write_file(b.pc, "0 0\n1 c7\n");
  IMPORT_FAILS(&b, NULL, 0, FO_EFORMAT, "pc.txt:2: 'c7' is not an integer node id");
  fot_write_file(b.pc, "0 0\n1\n");
  IMPORT_FAILS(&b, NULL, 0, FO_EFORMAT, "pc.txt:2: expected two node ids, got 1 field");
  /* int32 cannot hold ids of a huge type: FO_ERANGE before anything per node is allocated */
  fot_write_file(b.pc, "0 0\n");
  b.nt[0] = (fo_import_node_type){"conf", (int64_t)INT32_MAX + 2, NULL, NULL, NULL, NULL};
  b.o.node_type_opts = b.nt;
  b.o.n_node_type_opts = 1;
  b.o.index_dtype = FO_INDEX_INT32;
  IMPORT_FAILS(&b, NULL, 0, FO_ERANGE,
               "edge type paper__in__conf: node ids up to 2147483648 do not fit in int32");
  b.o.index_dtype = FO_INDEX_AUTO;
  b.o.n_node_type_opts = 0;
  /* homogeneous options in a typed import */
  b.o.num_nodes = 5;
  IMPORT_FAILS(&b, NULL, 0, FO_EINVAL, "a typed import takes --num-nodes per node type");
  b.o.num_nodes = -1;
  b.o.node_arrays = "year=y.npy";
  IMPORT_FAILS(&b, NULL, 0, FO_EINVAL, "--node-array applies to untyped imports only");
  b.o.node_arrays = NULL;
  b.o.n_edge_types = 0;
  b.o.reverse_edges = true;
  in[0] = b.pa;
  IMPORT_FAILS(&b, in, 1, FO_EINVAL, "--reverse-edges: per-type options need a typed import");
  bad_free(&b);
}

static void bad_one_file(void **state) {
  bad b;
  char *e, *types;
  fo_import_node_type nt = {"package", -1, NULL, NULL, NULL, NULL};
  (void)state;
  bad_init(&b);
  b.o.n_edge_types = 0;
  b.o.edge_type_column = 1;
  b.o.dst_column = 2;
  b.o.string_ids = true;
  e = put(&b.c, "e.tsv", "a\tDepends\tb\nb\tDepends\tc\n");
  types = put(&b.c, "t.tsv", "a\tpackage\nb\tpackage\n");
  /* no type source */
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EINVAL, "--edge-type-col needs node types");
  /* an endpoint without a type */
  b.o.node_types = types;
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EFORMAT, "e.tsv:2: node 'c' has no type");
  /* a node listed twice, a line without a type, a bad type name */
  fot_write_file(types, "a\tpackage\nb\tpackage\nc\tvirtual\na\tvirtual\n");
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EFORMAT, "t.tsv:4: node 'a' is listed twice");
  fot_write_file(types, "a\tpackage\nb\n");
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EFORMAT,
               "t.tsv:2: expected 'node_id<TAB>type', got 1 field");
  fot_write_file(types, "a\tpackage\nb\tpack:age\n");
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EFORMAT,
               "t.tsv:2: node type 'pack:age' is not a valid name");
  /* a node in both the node-types file and a --node-ids list */
  fot_write_file(types, "a\tpackage\nb\tpackage\nc\tvirtual\n");
  nt.node_ids = types;
  b.o.node_type_opts = &nt;
  b.o.n_node_type_opts = 1;
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EFORMAT,
               "t.tsv:1: node 'a' is listed twice (it has type 'package' already)");
  b.o.n_node_type_opts = 0;
  /* a relation breaking the name rules: file, line and name */
  fot_write_file(e, "a\tDepends\tb\nb\tre/l\tc\n");
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EFORMAT, "e.tsv:2: relation 're/l' is not a valid name");
  fot_write_file(e, "a\tDepends\tb\nb\tx__y\tc\n");
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EFORMAT, "e.tsv:2: relation 'x__y' is not a valid name");
  /* a line without a relation, the relation column on an id column */
  fot_write_file(e, "a\tDepends\tb\nb\tc\n");
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EFORMAT,
               "e.tsv:2: expected a node id, a relation and a node id, got 2 fields");
  b.o.edge_type_column = 2;
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EINVAL, "--edge-type-col 2 is also a node id column");
  b.o.edge_type_column = 1;
  /* --num-nodes with the one-file form, an option for an unknown type */
  nt = (fo_import_node_type){"package", 7, NULL, NULL, NULL, NULL};
  b.o.n_node_type_opts = 1;
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EINVAL, "--num-nodes package: with --edge-type-col");
  nt = (fo_import_node_type){"nope", -1, NULL, NULL, "y.npy", NULL};
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EINVAL, "--labels: no node type 'nope'");
  b.o.n_node_type_opts = 0;
  /* node types but no edge line: no dataset with an empty edge_types list, which no reader
   * opens (found by the typed_import fuzz harness) */
  /* a type name with a NUL byte read from a file: refused, not two types that print alike
   * (found by the typed_import fuzz harness) */
  {
    FILE *f = fopen(types, "wb");
    fwrite("a\tpackage\nb\tpack\0age\n", 1, 22, f);
    fclose(f);
  }
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EFORMAT, "t.tsv:2: node type 'pack");
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EFORMAT, "(it contains a NUL byte)");
  fot_write_file(types, "a\tpackage\nb\tpackage\nc\tvirtual\n");
  fot_write_file(e, "# only a comment\n");
  IMPORT_FAILS(&b, (const char *const *)&e, 1, FO_EFORMAT, "no edges: a typed dataset needs at "
               "least one edge type");
  free(e);
  free(types);
  bad_free(&b);
}

/* Node data checked against its type's count, messages naming the type. */
static void bad_node_data(void **state) {
  bad b;
  char *x;
  const float v[3] = {1, 2, 3};
  const int64_t shape[2] = {3, 1};
  (void)state;
  bad_init(&b);
  x = fot_path(b.c.tmp, "x.npy");
  fot_write_npy(x, "<f4", 2, shape, v, sizeof v);
  b.nt[0] = (fo_import_node_type){"author", -1, NULL, x, NULL, NULL};
  b.o.node_type_opts = b.nt;
  b.o.n_node_type_opts = 1;
  IMPORT_FAILS(&b, NULL, 0, FO_EINVAL, "node type 'author': features '");
  IMPORT_FAILS(&b, NULL, 0, FO_EINVAL, "have 3 rows, the graph has 2 nodes");
  b.nt[0] = (fo_import_node_type){"paper", -1, NULL, NULL, NULL, "train=nope.npy"};
  IMPORT_FAILS(&b, NULL, 0, FO_EIO, "nope.npy");
  free(x);
  bad_free(&b);
}

/* dedup on a bipartite type with more sources than targets (the sort by src spans n_src). */
static void dedup_bipartite(void **state) {
  ctx c;
  fo_import_opts o;
  fo_import_report r;
  fo_import_edge_type et[1];
  char *pc;
  (void)state;
  ctx_init(&c);
  pc = put(&c, "pc.txt", "9 0\n9 0\n3 0\n9 1\n");
  fo_import_opts_init(&o);
  et[0] = (fo_import_edge_type){"paper", "in", "conf", pc};
  o.edge_types = et;
  o.n_edge_types = 1;
  o.dedup = true;
  o.csr = true;
  assert_fo_ok(fo_import(NULL, 0, c.out, &o, &r));
  assert_int_equal(r.n_duplicates_removed, 1);
  assert_ints(&c, "e0.csc_indptr", 0, 2, 3);
  assert_ints(&c, "e0.csc_indices", 9, 3, 9);
  assert_ints(&c, "e0.csr_indptr", 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 3);
  assert_ints(&c, "e0.csr_indices", 0, 0, 1);
  free(pc);
  ctx_free(&c);
}

/* A homogeneous import still writes format_version 1. */
static void homogeneous_stays_v1(void **state) {
  ctx c;
  fo_import_opts o;
  char *p;
  (void)state;
  ctx_init(&c);
  p = put(&c, "e.txt", "0 1\n1 2\n");
  fo_import_opts_init(&o);
  assert_int_equal(o.edge_type_column, -1);
  assert_fo_ok(fo_import((const char **)&p, 1, c.out, &o, NULL));
  load_manifest(&c);
  assert_int_at(c.man, "format_version", 1);
  assert_absent(c.man, "node_types");
  assert_str_at(c.man, "topology.csc.indptr", "csc_indptr");
  free(p);
  ctx_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(tiny_exact),
      cmocka_unit_test(string_ids_and_node_ids),
      cmocka_unit_test(one_file_relation_column),
      cmocka_unit_test(bad_per_type),
      cmocka_unit_test(bad_one_file),
      cmocka_unit_test(bad_node_data),
      cmocka_unit_test(dedup_bipartite),
      cmocka_unit_test(homogeneous_stays_v1),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
