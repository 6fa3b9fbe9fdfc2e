/*
 * tests/unit/test_import_shared.c: import counts on the larger real graphs in the optional
 * ../shared/data (see its README.md for how each count was checked): SNAP email-Enron and
 * cit-HepPh. The whole executable reports "skipped" (exit 77) when that directory is absent.
 */
#include "support.h"

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(email_enron_undirected),
      cmocka_unit_test(cit_hepph_directed),
  };
  if (!fot_shared_data_dir()) {
    printf("shared data directory absent (set FO_SHARED_DATA): skipped\n");
    return FOT_SKIP;
  }
  return cmocka_run_group_tests(tests, NULL, NULL);
}
