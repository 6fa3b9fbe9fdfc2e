/*
 * tests/support/graphs.c: tiny graphs one knows by heart (pyg-lib runs its sampler tests on
 * cycle_graph(6)), a random multigraph generator, and their import into datasets.
 */
#include "support.h"

void fot_edges_free(fot_edges *e) {
  free(e->src);
  free(e->dst);
  memset(e, 0, sizeof *e);
}

void fot_edges_add(fot_edges *e, int64_t s, int64_t d) {
  if ((e->m & (e->m - 1)) == 0) { /* grow at powers of two */
    int64_t cap = e->m ? 2 * e->m : 1;
    e->src = realloc(e->src, (size_t)cap * sizeof *e->src);
    e->dst = realloc(e->dst, (size_t)cap * sizeof *e->dst);
  }
  e->src[e->m] = s;
  e->dst[e->m] = d;
  e->m++;
  if (s >= e->n) e->n = s + 1;
  if (d >= e->n) e->n = d + 1;
}

void fot_cycle(int64_t n, fot_edges *e) {
  memset(e, 0, sizeof *e);
  for (int64_t i = 0; i < n; i++) {
    fot_edges_add(e, i, (i + 1) % n);
    fot_edges_add(e, (i + 1) % n, i);
  }
  e->n = n;
}

void fot_path_graph(int64_t n, fot_edges *e) {
  memset(e, 0, sizeof *e);
  for (int64_t i = 0; i + 1 < n; i++) {
    fot_edges_add(e, i, i + 1);
    fot_edges_add(e, i + 1, i);
  }
  e->n = n;
}

void fot_star(int64_t k, fot_edges *e) {
  memset(e, 0, sizeof *e);
  for (int64_t i = 1; i <= k; i++) {
    fot_edges_add(e, 0, i);
    fot_edges_add(e, i, 0);
  }
  e->n = k + 1;
}

void fot_clique(int64_t n, fot_edges *e) {
  memset(e, 0, sizeof *e);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++)
      if (i != j) fot_edges_add(e, i, j);
  e->n = n;
}

void fot_two_cliques(int64_t a, int64_t b, fot_edges *e) {
  memset(e, 0, sizeof *e);
  for (int64_t i = 0; i < a; i++)
    for (int64_t j = 0; j < a; j++)
      if (i != j) fot_edges_add(e, i, j);
  for (int64_t i = 0; i < b; i++)
    for (int64_t j = 0; j < b; j++)
      if (i != j) fot_edges_add(e, a + i, a + j);
  fot_edges_add(e, 0, a);
  fot_edges_add(e, a, 0);
  e->n = a + b;
}

void fot_random(int64_t n, int64_t m, uint64_t seed, fot_edges *e) {
  uint64_t st = seed;
  memset(e, 0, sizeof *e);
  for (int64_t i = 0; i < m; i++) {
    int64_t s = (int64_t)(fot_rand(&st) % (uint64_t)n), d = (int64_t)(fot_rand(&st) % (uint64_t)n);
    fot_edges_add(e, s, d);
  }
  e->n = n;
}

void fot_dataset(const fot_edges *e, bool csc, bool csr, fo_index_dtype index_dtype,
                 char **dir_out, fo_dataset_t **d_out) {
  fo_import_opts o;
  char *tmp = fot_tmpdir(), *dir = fot_path(tmp, "g");
  fo_import_opts_init(&o);
  o.csc = csc;
  o.csr = csr;
  o.index_dtype = index_dtype;
  o.num_nodes = e->n;
  assert_fo_ok(fo_import_edges(e->src, e->dst, e->m, dir, &o, NULL));
  assert_fo_ok(fo_dataset_open(dir, NULL, d_out));
  free(dir);
  *dir_out = tmp;
}

void fot_ds_import(fot_ds *g, const char *const *inputs, int n, const fo_import_opts *o) {
  g->tmp = fot_tmpdir();
  g->dir = fot_path(g->tmp, "g");
  assert_fo_ok(fo_import(inputs, n, g->dir, o, NULL));
  assert_fo_ok(fo_dataset_open(g->dir, NULL, &g->d));
}

void fot_ds_edges(fot_ds *g, const fot_edges *e, const fot_nodedata *nd, fo_import_opts *o) {
  char *fx = NULL, *fy = NULL, *ftr = NULL, *fva = NULL, *fte = NULL, spec[8192];
  g->tmp = fot_tmpdir();
  g->dir = fot_path(g->tmp, "g");
  if (nd) {
    const int64_t n = o->num_nodes >= 0 ? o->num_nodes : e->n, shape[2] = {n, nd->dim};
    fx = fot_path(g->tmp, "x.npy");
    fy = fot_path(g->tmp, "y.npy");
    ftr = fot_path(g->tmp, "train.npy");
    fva = fot_path(g->tmp, "val.npy");
    fte = fot_path(g->tmp, "test.npy");
    fot_write_npy(fx, "<f4", 2, shape, nd->x, (size_t)(n * nd->dim) * sizeof *nd->x);
    fot_write_npy(fy, "<i8", 1, &n, nd->y, (size_t)n * 8);
    fot_write_npy(ftr, "<i8", 1, &nd->n_train, nd->train, (size_t)nd->n_train * 8);
    fot_write_npy(fva, "<i8", 1, &nd->n_val, nd->val, (size_t)nd->n_val * 8);
    fot_write_npy(fte, "<i8", 1, &nd->n_test, nd->test, (size_t)nd->n_test * 8);
    snprintf(spec, sizeof spec, "train=%s,val=%s,test=%s", ftr, fva, fte);
    o->features = fx;
    o->labels = fy;
    o->splits = spec;
  }
  assert_fo_ok(fo_import_edges(e->src, e->dst, e->m, g->dir, o, NULL));
  assert_fo_ok(fo_dataset_open(g->dir, NULL, &g->d));
  if (nd) {
    o->features = o->labels = o->splits = NULL; /* they pointed here */
    free(fx);
    free(fy);
    free(ftr);
    free(fva);
    free(fte);
  }
}

void fot_ds_cora(fot_ds *g, fo_feature_dtype fdt) {
  char *content = fot_path(fot_data_dir(), "cora/cora.content.gz");
  char *cites = fot_path(fot_data_dir(), "cora/cora.cites");
  const char *inputs[2] = {content, cites};
  fo_import_opts o;
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_PLANETOID;
  o.undirected = true;
  o.feature_dtype = fdt;
  fot_ds_import(g, inputs, 2, &o);
  assert_int_equal(fo_dataset_num_nodes(g->d), 2708);
  assert_int_equal(fo_dataset_num_edges(g->d), 10556);
  free(content);
  free(cites);
}

void fot_ds_close(fot_ds *g) {
  fo_dataset_close(g->d);
  free(g->dir);
  fot_rmtree(g->tmp);
  memset(g, 0, sizeof *g);
}
