/*
 * tests/unit/test_import_real.c: import counts on the real graphs shipped in data/ (acceptance
 * criteria, the numbers in data/README.md and PyG's Planetoid): Cora and CiteSeer (planetoid,
 * string ids) and SNAP ego-Facebook (gzip edge list). Each dataset is also fully verified.
 */
#include "support.h"

typedef struct imported {
  char *tmp, *out;
  fo_import_report rep;
  fo_dataset_t *d;
} imported;

/* Import data/<folder>/<files...> with `o` into a temp dir, open and verify it. */
static void import_real(const char *folder, const char *const *files, int n_files,
                        const fo_import_opts *o, imported *r) {
  const char *inputs[4];
  char *paths[4], *dir = fot_path(fot_data_dir(), folder);
  assert_true(n_files <= 4);
  for (int i = 0; i < n_files; i++) inputs[i] = paths[i] = fot_path(dir, files[i]);
  r->tmp = fot_tmpdir();
  r->out = fot_path(r->tmp, "g");
  assert_fo_ok(fo_import(inputs, n_files, r->out, o, &r->rep));
  assert_fo_ok(fo_dataset_open(r->out, NULL, &r->d));
  assert_fo_ok(fo_dataset_verify(r->d));
  assert_int_equal(fo_dataset_num_nodes(r->d), r->rep.n_nodes);
  assert_int_equal(fo_dataset_num_edges(r->d), r->rep.n_edges);
  for (int i = 0; i < n_files; i++) free(paths[i]);
  free(dir);
}

static void imported_free(imported *r) {
  fo_dataset_close(r->d);
  free(r->out);
  fot_rmtree(r->tmp);
}

static void cora_undirected(void **state) {
  static const char *const files[] = {"cora.content.gz", "cora.cites"};
  fo_import_opts o;
  imported r;
  const char *s;
  size_t len;
  (void)state;
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_PLANETOID;
  o.undirected = true;
  import_real("cora", files, 2, &o, &r);
  assert_int_equal(r.rep.n_nodes, 2708);
  assert_int_equal(r.rep.n_edges, 10556);
  assert_int_equal(r.rep.n_input_edges, 5429);
  assert_int_equal(r.rep.n_unknown_nodes, 0);
  assert_int_equal(r.rep.n_isolated, 0);
  /* node 0 is the content file's first paper */
  assert_int_equal(fo_dataset_node_orig_kind(r.d), FO_ORIG_STRING);
  assert_fo_ok(fo_dataset_node_orig_str(r.d, 0, &s, &len));
  assert_int_equal(len, 5);
  assert_memory_equal(s, "31336", 5);
  imported_free(&r);
}

static void citeseer_undirected_no_loops(void **state) {
  static const char *const files[] = {"citeseer.cites", "citeseer.content.gz"};
  fo_import_opts o;
  imported r;
  int64_t n_keep;
  (void)state;
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_PLANETOID;
  o.undirected = true;
  o.remove_self_loops = true;
  import_real("citeseer", files, 2, &o, &r);
  assert_int_equal(r.rep.n_nodes, 3327);
  assert_int_equal(r.rep.n_edges, 9104);
  assert_int_equal(r.rep.n_unknown_nodes, 15);
  assert_int_equal(r.rep.n_unknown_edges_dropped, 0);
  assert_int_equal(r.rep.n_input_edges, 4732);
  assert_int_equal(r.rep.n_self_loops_removed, 124);
  n_keep = r.rep.n_edges;
  imported_free(&r);
  /* drop_unknown: only the content file's papers. */
  o.drop_unknown = true;
  import_real("citeseer", files, 2, &o, &r);
  assert_int_equal(r.rep.n_nodes, 3312);
  assert_int_equal(r.rep.n_unknown_nodes, 15);
  assert_true(r.rep.n_unknown_edges_dropped > 0);
  assert_true(r.rep.n_edges < n_keep);
  assert_int_equal(r.rep.n_input_edges, 4732 - r.rep.n_unknown_edges_dropped);
  imported_free(&r);
}

static void facebook_undirected(void **state) {
  static const char *const files[] = {"facebook_combined.tsv.gz"};
  fo_import_opts o;
  imported r;
  fo_degree_stats st;
  (void)state;
  fo_import_opts_init(&o);
  o.undirected = true;
  o.csr = true;
  import_real("facebook-combined", files, 1, &o, &r);
  assert_int_equal(r.rep.n_nodes, 4039);
  assert_int_equal(r.rep.n_edges, 176468);
  assert_int_equal(r.rep.n_input_edges, 88234);
  assert_int_equal(r.rep.n_duplicates_removed, 0);
  assert_int_equal(r.rep.n_isolated, 0);
  assert_fo_ok(fo_dataset_degree_stats(r.d, FO_EDGE_DIR_IN, &st));
  assert_int_equal(st.max, 1045);
  assert_int_equal(st.argmax, 107);
  assert_int_equal(st.n_zero, 0);
  assert_fo_ok(fo_dataset_degree_stats(r.d, FO_EDGE_DIR_OUT, &st));
  assert_int_equal(st.max, 1045);
  assert_int_equal(st.argmax, 107);
  imported_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cora_undirected),
      cmocka_unit_test(citeseer_undirected_no_loops),
      cmocka_unit_test(facebook_undirected),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
