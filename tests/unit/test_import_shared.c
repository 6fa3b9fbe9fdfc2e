/*
 * tests/unit/test_import_shared.c: import counts on the larger real graphs in the optional
 * ../shared/data (see its README.md for how each count was checked): SNAP email-Enron and
 * cit-HepPh; the typed graphs WordNet 3.0 (one typed edge list, 26 relations; one node type or
 * the five parts of speech), Debian bookworm's package relations (9 relations; packages and
 * virtual names) and DBLP (3 edge files, reverse edges, author labels, author, paper and term
 * features converted from the TSV node files to .npy here). The whole executable reports
 * "skipped" (exit 77) when that directory is absent.
 */
#include "support.h"

#include "io/io_internal.h"
#include "store/store_internal.h"

#include <jansson.h>
#include <unistd.h>

typedef struct imported {
  char *tmp, *out;
  fo_import_report rep;
  fo_dataset_t *d;
} imported;

static void import_shared(const char *rel, const fo_import_opts *o, imported *r) {
  char *in = fot_path(fot_shared_data_dir(), rel);
  const char *inputs[1] = {in};
  r->tmp = fot_tmpdir();
  r->out = fot_path(r->tmp, "g");
  assert_fo_ok(fo_import(inputs, 1, r->out, o, &r->rep));
  assert_fo_ok(fo_dataset_open(r->out, NULL, &r->d));
  assert_fo_ok(fo_dataset_verify(r->d));
  assert_int_equal(fo_dataset_num_nodes(r->d), r->rep.n_nodes);
  assert_int_equal(fo_dataset_num_edges(r->d), r->rep.n_edges);
  free(in);
}

static void imported_free(imported *r) {
  fo_dataset_close(r->d);
  free(r->out);
  fot_rmtree(r->tmp);
}

static void email_enron_undirected(void **state) {
  fo_import_opts o;
  imported r;
  fo_degree_stats st;
  (void)state;
  fo_import_opts_init(&o);
  o.undirected = true;
  import_shared("email-enron/email-Enron.undirected.tsv.gz", &o, &r);
  assert_int_equal(r.rep.n_nodes, 36692);
  assert_int_equal(r.rep.n_edges, 367662);
  assert_int_equal(r.rep.n_input_edges, 183831);
  assert_int_equal(r.rep.n_isolated, 0);
  assert_fo_ok(fo_dataset_degree_stats(r.d, FO_EDGE_DIR_IN, &st));
  assert_int_equal(st.max, 1383);
  assert_int_equal(st.argmax, 5038);
  imported_free(&r);
}

static void cit_hepph_directed(void **state) {
  fo_import_opts o;
  imported r;
  fo_degree_stats st;
  (void)state;
  fo_import_opts_init(&o);
  o.csc = true;
  o.csr = true;
  import_shared("cit-hepph/cit-HepPh.tsv.gz", &o, &r);
  assert_int_equal(r.rep.n_nodes, 34546);
  assert_int_equal(r.rep.n_edges, 421578);
  assert_int_equal(r.rep.n_isolated, 0);
  assert_fo_ok(fo_dataset_degree_stats(r.d, FO_EDGE_DIR_OUT, &st));
  assert_int_equal(st.max, 411);
  assert_fo_ok(fo_dataset_degree_stats(r.d, FO_EDGE_DIR_IN, &st));
  assert_int_equal(st.max, 846);
  imported_free(&r);
  o.remove_self_loops = true;
  import_shared("cit-hepph/cit-HepPh.tsv.gz", &o, &r);
  assert_int_equal(r.rep.n_self_loops_removed, 44);
  assert_int_equal(r.rep.n_edges, 421578 - 44);
  assert_int_equal(r.rep.n_nodes, 34546);
  imported_free(&r);
}

/* ---- typed graphs --------------------------------------------------------------------------- */

typedef struct typed_ds {
  char *tmp, *out;
  fo_import_report rep;
  json_t *man;
} typed_ds;

static void typed_import(typed_ds *t, const char *const *inputs, int n, const fo_import_opts *o) {
  char *m;
  json_error_t err;
  t->tmp = fot_tmpdir();
  t->out = fot_path(t->tmp, "g");
  assert_fo_ok(fo_import(inputs, n, t->out, o, &t->rep));
  m = fot_path(t->out, "fanout.json");
  if (!(t->man = json_load_file(m, 0, &err))) fail_msg("%s: %s", m, err.text);
  free(m);
  assert_int_equal(json_integer_value(json_object_get(t->man, "format_version")), 2);
  assert_int_equal(json_integer_value(json_object_get(t->man, "num_nodes")), t->rep.n_nodes);
  assert_int_equal(json_integer_value(json_object_get(t->man, "num_edges")), t->rep.n_edges);
  /* the reader opens and verifies it, with the same types and counts */
  {
    fo_dataset_t *d;
    json_t *l = json_object_get(t->man, "edge_types"), *e;
    size_t i;
    assert_fo_ok(fo_dataset_open(t->out, NULL, &d));
    assert_fo_ok(fo_dataset_verify(d));
    assert_true(fo_dataset_is_typed(d));
    assert_int_equal(fo_dataset_num_node_types(d), t->rep.n_node_types);
    assert_int_equal(fo_dataset_num_edge_types(d), t->rep.n_edge_types);
    assert_int_equal(fo_dataset_num_nodes(d), t->rep.n_nodes);
    assert_int_equal(fo_dataset_num_edges(d), t->rep.n_edges);
    json_array_foreach(l, i, e) {
      fo_edge_type et;
      assert_fo_ok(fo_dataset_edge_type(d, (int32_t)i, &et));
      assert_string_equal(et.name, json_string_value(json_object_get(e, "name")));
      assert_int_equal(et.n_edges, json_integer_value(json_object_get(e, "num_edges")));
    }
    fo_dataset_close(d);
  }
}

static void typed_free(typed_ds *t) {
  json_decref(t->man);
  free(t->out);
  fot_rmtree(t->tmp);
}

/* The entry called `name` in the manifest's list `list` ("node_types", "edge_types"). */
static json_t *entry(const typed_ds *t, const char *list, const char *name) {
  json_t *l = json_object_get(t->man, list), *e;
  size_t i;
  json_array_foreach(l, i, e) {
    if (!strcmp(json_string_value(json_object_get(e, "name")), name)) return e;
  }
  fail_msg("%s has no entry '%s'", list, name);
  return NULL;
}

static int64_t count_of(const typed_ds *t, const char *list, const char *name) {
  json_t *e = entry(t, list, name);
  return json_integer_value(json_object_get(e, !strcmp(list, "node_types") ? "num_nodes" : "num_edges"));
}

/* Edges of relation `rel` summed over its edge types. */
static int64_t rel_count(const typed_ds *t, const char *rel) {
  json_t *l = json_object_get(t->man, "edge_types"), *e;
  size_t i;
  int64_t sum = 0;
  json_array_foreach(l, i, e) {
    if (!strcmp(json_string_value(json_object_get(e, "rel")), rel))
      sum += json_integer_value(json_object_get(e, "num_edges"));
  }
  return sum;
}

static void wordnet(void **state) {
  static const struct {
    const char *rel;
    int64_t n;
  } rels[] = {{"~", 89089}, {"@", 89089}, {"+", 74717}, {"&", 21386}, {"#m", 12293},
              {"%m", 12293}, {"#p", 9097}, {"%p", 9097}, {"~i", 8577}, {"@i", 8577},
              {"\\", 8023}, {"!", 7979}, {"-c", 6654}, {";c", 6654}, {"^", 3272},
              {"$", 1750}, {"-u", 1376}, {";u", 1376}, {"-r", 1360}, {";r", 1360},
              {"=", 1278}, {"#s", 797}, {"%s", 797}, {"*", 408}, {">", 220}, {"<", 73}};
  char *edges = fot_path(fot_shared_data_dir(), "wordnet30/wordnet30_edges.tsv.gz");
  char *nodes = fot_path(fot_shared_data_dir(), "wordnet30/wordnet30_nodes.tsv.gz");
  const char *in[1] = {edges};
  fo_import_node_type nt = {"synset", -1, nodes, NULL, NULL, NULL};
  fo_import_opts o;
  typed_ds t;
  int64_t sum = 0;
  (void)state;
  /* one node type: 26 edge types synset__<rel>__synset */
  fo_import_opts_init(&o);
  o.edge_type_column = 1;
  o.src_column = 0;
  o.dst_column = 2;
  o.string_ids = true;
  o.node_type_opts = &nt;
  o.n_node_type_opts = 1;
  typed_import(&t, in, 1, &o);
  assert_int_equal(t.rep.n_node_types, 1);
  assert_int_equal(t.rep.n_edge_types, 26);
  assert_int_equal(t.rep.n_nodes, 117659);
  assert_int_equal(t.rep.n_edges, 377592);
  for (size_t i = 0; i < sizeof rels / sizeof rels[0]; i++) {
    char name[64];
    snprintf(name, sizeof name, "synset__%s__synset", rels[i].rel);
    assert_int_equal(count_of(&t, "edge_types", name), rels[i].n);
    sum += rels[i].n;
  }
  assert_int_equal(sum, 377592);
  typed_free(&t);
  /* the parts of speech as node types (the node file's ss_type column) */
  o.n_node_type_opts = 0;
  o.node_types = nodes;
  typed_import(&t, in, 1, &o);
  assert_int_equal(t.rep.n_node_types, 5);
  assert_int_equal(count_of(&t, "node_types", "n"), 82115);
  assert_int_equal(count_of(&t, "node_types", "v"), 13767);
  assert_int_equal(count_of(&t, "node_types", "a"), 7463);
  assert_int_equal(count_of(&t, "node_types", "s"), 10693);
  assert_int_equal(count_of(&t, "node_types", "r"), 3621);
  for (size_t i = 0; i < sizeof rels / sizeof rels[0]; i++)
    assert_int_equal(rel_count(&t, rels[i].rel), rels[i].n);
  assert_int_equal(count_of(&t, "edge_types", "n__@__n"), 75850);
  assert_int_equal(t.rep.n_edges, 377592);
  typed_free(&t);
  free(edges);
  free(nodes);
}

static void debian_deps(void **state) {
  static const struct {
    const char *rel;
    int64_t rows, to_packages;
  } rels[] = {{"Depends", 286904, 252034},  {"Pre-Depends", 1031, 1001}, {"Recommends", 30729, 29212},
              {"Suggests", 28571, 23296},   {"Enhances", 2065, 1737},    {"Breaks", 11639, 6015},
              {"Conflicts", 6898, 1615},    {"Replaces", 11073, 3752},   {"Provides", 37595, 495}};
  char *edges = fot_path(fot_shared_data_dir(), "debian-deps-bookworm/debian_bookworm_amd64_edges.tsv.gz");
  char *nodes = fot_path(fot_shared_data_dir(), "debian-deps-bookworm/debian_bookworm_amd64_nodes.tsv.gz");
  const char *in[1] = {edges};
  fo_import_node_type nt = {"package", -1, nodes, NULL, NULL, NULL};
  fo_import_opts o;
  typed_ds t;
  (void)state;
  fo_import_opts_init(&o);
  o.edge_type_column = 1;
  o.src_column = 0;
  o.dst_column = 2;
  o.string_ids = true;
  o.node_type_opts = &nt;
  o.n_node_type_opts = 1;
  o.default_node_type = "virtual";
  typed_import(&t, in, 1, &o);
  assert_int_equal(t.rep.n_node_types, 2);
  assert_int_equal(count_of(&t, "node_types", "package"), 63681);
  assert_int_equal(count_of(&t, "node_types", "virtual"), 43857);
  assert_int_equal(t.rep.n_edge_types, 18);
  assert_int_equal(t.rep.n_edges, 416505);
  for (size_t i = 0; i < sizeof rels / sizeof rels[0]; i++) {
    char name[64];
    assert_int_equal(rel_count(&t, rels[i].rel), rels[i].rows);
    snprintf(name, sizeof name, "package__%s__package", rels[i].rel);
    assert_int_equal(count_of(&t, "edge_types", name), rels[i].to_packages);
    snprintf(name, sizeof name, "package__%s__virtual", rels[i].rel);
    assert_int_equal(count_of(&t, "edge_types", name), rels[i].rows - rels[i].to_packages);
  }
  assert_string_equal(json_string_value(json_object_get(json_object_get(entry(&t, "node_types",
                      "virtual"), "node_orig"), "offsets")), "n1.node_orig_offsets");
  typed_free(&t);
  free(edges);
  free(nodes);
}

/* DBLP's TSV node file (rows "<id>\t[label\t]col:value ..." or dense values) as .npy: float32
 * for dense rows, uint8 for the sparse counts (values 1..5; 4 times smaller to write). */
static void dblp_npy(const char *tsv, int64_t rows, int64_t dim, bool has_label, bool dense,
                     const char *x_out, const char *y_out, int64_t *nonzeros) {
  fo__reader r;
  char *line;
  size_t len;
  int64_t row = 0, shape[2] = {rows, dim};
  float *x = calloc((size_t)(rows * dim), sizeof *x);
  int64_t *y = calloc((size_t)rows, sizeof *y);
  *nonzeros = 0;
  assert_fo_ok(fo__reader_open(&r, tsv));
  while (fo__reader_next(&r, &line, &len) == 1) {
    char *p = line, *f;
    if (line[0] == '#') continue;
    assert_true(row < rows);
    assert_int_equal(strtoll(p, &p, 10), row);
    if (*p == '\t') p++;
    if (has_label) {
      y[row] = strtoll(p, &p, 10);
      if (*p == '\t') p++;
    }
    if (dense) {
      for (int64_t j = 0; j < dim; j++) x[row * dim + j] = strtof(p, &p);
    } else {
      for (f = strtok(p, " "); f; f = strtok(NULL, " ")) {
        char *colon = strchr(f, ':');
        int64_t c = strtoll(f, NULL, 10);
        assert_non_null(colon);
        assert_true(c >= 0 && c < dim);
        x[row * dim + c] = strtof(colon + 1, NULL);
        (*nonzeros)++;
      }
    }
    row++;
  }
  fo__reader_close(&r);
  assert_int_equal(row, rows);
  if (dense) {
    fot_write_npy(x_out, "<f4", 2, shape, x, (size_t)(rows * dim) * sizeof *x);
  } else {
    uint8_t *q = malloc((size_t)(rows * dim));
    for (int64_t i = 0; i < rows * dim; i++) {
      assert_true(x[i] >= 0 && x[i] <= 255 && x[i] == (float)(int)x[i]);
      q[i] = (uint8_t)x[i];
    }
    fot_write_npy(x_out, "|u1", 2, shape, q, (size_t)(rows * dim));
    free(q);
  }
  if (y_out) fot_write_npy(y_out, "<i8", 1, shape, y, (size_t)rows * sizeof *y);
  free(x);
  free(y);
}

static void dblp_hetero(void **state) {
  const char *dir = fot_shared_data_dir();
  char *pa = fot_path(dir, "dblp-hetero/dblp_paper_author.tsv.gz");
  char *pc = fot_path(dir, "dblp-hetero/dblp_paper_conference.tsv.gz");
  char *pt = fot_path(dir, "dblp-hetero/dblp_paper_term.tsv.gz");
  char *a_tsv = fot_path(dir, "dblp-hetero/dblp_author.tsv.gz");
  char *p_tsv = fot_path(dir, "dblp-hetero/dblp_paper.tsv.gz");
  char *t_tsv = fot_path(dir, "dblp-hetero/dblp_term.tsv.gz");
  char *npy = fot_tmpdir();
  char *ax = fot_path(npy, "author_x.npy"), *ay = fot_path(npy, "author_y.npy");
  char *px = fot_path(npy, "paper_x.npy"), *tx = fot_path(npy, "term_x.npy");
  fo_import_edge_type et[3] = {{"paper", "writes", "author", pa},
                               {"paper", "published_in", "conference", pc},
                               {"paper", "has_term", "term", pt}};
  fo_import_node_type nt[4] = {{"paper", 14328, NULL, px, NULL, NULL},
                               {"author", 4057, NULL, ax, ay, NULL},
                               {"term", 7723, NULL, tx, NULL, NULL},
                               {"conference", 20, NULL, NULL, NULL, NULL}};
  int64_t nz, counts[4] = {0, 0, 0, 0};
  fo_import_opts o;
  typed_ds t;
  (void)state;
  dblp_npy(a_tsv, 4057, 334, true, false, ax, ay, &nz);
  assert_int_equal(nz, 48810);
  dblp_npy(p_tsv, 14328, 4231, false, false, px, NULL, &nz);
  assert_int_equal(nz, 95030);
  dblp_npy(t_tsv, 7723, 50, false, true, tx, NULL, &nz);
  fo_import_opts_init(&o);
  o.edge_types = et;
  o.n_edge_types = 3;
  o.node_type_opts = nt;
  o.n_node_type_opts = 4;
  o.reverse_edges = true;
  o.feature_dtype = FO_FEATURES_AUTO;
  typed_import(&t, NULL, 0, &o);
  assert_int_equal(t.rep.n_node_types, 4);
  assert_int_equal(t.rep.n_edge_types, 6);
  assert_int_equal(t.rep.n_nodes, 4057 + 14328 + 7723 + 20);
  assert_int_equal(t.rep.n_edges, 2 * 119783);
  assert_int_equal(t.rep.n_isolated, 0);
  assert_int_equal(count_of(&t, "node_types", "author"), 4057);
  assert_int_equal(count_of(&t, "node_types", "paper"), 14328);
  assert_int_equal(count_of(&t, "node_types", "term"), 7723);
  assert_int_equal(count_of(&t, "node_types", "conference"), 20);
  assert_int_equal(count_of(&t, "edge_types", "paper__writes__author"), 19645);
  assert_int_equal(count_of(&t, "edge_types", "paper__published_in__conference"), 14328);
  assert_int_equal(count_of(&t, "edge_types", "paper__has_term__term"), 85810);
  assert_int_equal(count_of(&t, "edge_types", "author__rev_writes__paper"), 19645);
  assert_int_equal(count_of(&t, "edge_types", "conference__rev_published_in__paper"), 14328);
  assert_int_equal(count_of(&t, "edge_types", "term__rev_has_term__paper"), 85810);
  assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(t.man,
                      "edge_types"), 3), "name")), "author__rev_writes__paper");
  {
    json_t *a = entry(&t, "node_types", "author");
    const char *y = json_string_value(json_object_get(json_object_get(a, "labels"), "array"));
    char file[64], *p, *buf;
    size_t len;
    fo__npy_header h;
    assert_int_equal(json_integer_value(json_object_get(json_object_get(a, "labels"), "num_classes")), 4);
    assert_string_equal(json_string_value(json_object_get(json_object_get(a, "features"), "dtype")), "uint8");
    assert_string_equal(json_string_value(json_object_get(json_object_get(entry(&t, "node_types", "term"),
                        "features"), "dtype")), "float32");
    assert_non_null(json_object_get(entry(&t, "node_types", "paper"), "features"));
    assert_non_null(json_object_get(entry(&t, "node_types", "term"), "features"));
    assert_null(json_object_get(entry(&t, "node_types", "conference"), "features"));
    snprintf(file, sizeof file, "%s.npy", y);
    p = fot_path(t.out, file);
    buf = fot_read_file(p, &len);
    assert_fo_ok(fo__npy_parse(buf, len, &h));
    assert_int_equal(h.shape[0], 4057);
    for (int64_t i = 0; i < 4057; i++) {
      int64_t v;
      memcpy(&v, buf + h.data_offset + 8 * i, 8);
      assert_true(v >= 0 && v < 4);
      counts[v]++;
    }
    assert_int_equal(counts[0], 1197);
    assert_int_equal(counts[1], 745);
    assert_int_equal(counts[2], 1109);
    assert_int_equal(counts[3], 1006);
    free(buf);
    free(p);
  }
  typed_free(&t);
  free(pa);
  free(pc);
  free(pt);
  free(a_tsv);
  free(p_tsv);
  free(t_tsv);
  free(ax);
  free(ay);
  free(px);
  free(tx);
  fot_rmtree(npy);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(email_enron_undirected),
      cmocka_unit_test(cit_hepph_directed),
      cmocka_unit_test(wordnet),
      cmocka_unit_test(debian_deps),
      cmocka_unit_test(dblp_hetero),
  };
  if (!fot_shared_data_dir()) {
    printf("shared data directory absent (set FO_SHARED_DATA): skipped\n");
    return FOT_SKIP;
  }
  return cmocka_run_group_tests(tests, NULL, NULL);
}
