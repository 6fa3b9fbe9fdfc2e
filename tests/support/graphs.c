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
