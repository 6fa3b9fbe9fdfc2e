/*
 * partition/metis.c: METIS k-way partitioning, with libmetis loaded at run time.
 *
 * The input graph is symmetrized for METIS (which needs an undirected graph without self loops
 * or repeated edges): every CSC edge u -> v gives u - v, and each adjacency list is sorted and
 * deduplicated. libmetis is found with dlopen ("libmetis.so.5", or $FO_METIS_LIBRARY), so the
 * library builds without METIS and fails with FO_ENOSYS, naming the library, only when METIS is
 * asked for and missing. Debian's libmetis uses 32-bit idx_t: graphs past 2^31 - 1 nodes or
 * adjacency entries are FO_ERANGE.
 */
#include "partition/partition_internal.h"

#include <dlfcn.h>
#include <metis.h>
#include <pthread.h>
#include <unistd.h>

static pthread_mutex_t metis_lock = PTHREAD_MUTEX_INITIALIZER;

typedef int (*set_defaults_fn)(idx_t *options);
typedef int (*kway_fn)(idx_t *nvtxs, idx_t *ncon, idx_t *xadj, idx_t *adjncy, idx_t *vwgt,
                       idx_t *vsize, idx_t *adjwgt, idx_t *nparts, real_t *tpwgts, real_t *ubvec,
                       idx_t *options, idx_t *edgecut, idx_t *part);

static int64_t ld(const void *a, int bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

static int cmp_idx(const void *a, const void *b) {
  idx_t x = *(const idx_t *)a, y = *(const idx_t *)b;
  return (x > y) - (x < y);
}

/* The symmetrized adjacency (CSR of u - v, no self loops, no repeats). */
static int symmetrize(const fo_topology *t, idx_t **xadj_out, idx_t **adj_out) {
  const int64_t n = t->n_nodes, m = t->n_edges;
  int64_t *deg = NULL, *pos = NULL;
  idx_t *xadj = NULL, *adj = NULL;
  int rc = FO_OK;
  if (n >= INT32_MAX || 2 * m >= INT32_MAX)
    return FO_FAIL(FO_ERANGE, "METIS (32-bit idx_t) cannot take %lld nodes and %lld edges",
                   (long long)n, (long long)m);
  deg = fo__calloc_n(n + 1, sizeof *deg);
  pos = fo__malloc_n(n + 1, sizeof *pos);
  xadj = fo__malloc_n(n + 1, sizeof *xadj);
  adj = fo__malloc_n(2 * m, sizeof *adj);
  if (!deg || !pos || !xadj || !adj) {
    rc = FO_FAIL(FO_ENOMEM, "METIS input of %lld edges", (long long)m);
    goto out;
  }
  for (int64_t v = 0; v < n; v++)
    for (int64_t e = t->indptr[v]; e < t->indptr[v + 1]; e++) {
      int64_t u = ld(t->indices, t->indices_bytes, e);
      if (u == v) continue;
      deg[u]++;
      deg[v]++;
    }
  pos[0] = 0;
  for (int64_t v = 0; v < n; v++) pos[v + 1] = pos[v] + deg[v];
  memcpy(deg, pos, (size_t)n * sizeof *deg); /* deg: next free slot */
  for (int64_t v = 0; v < n; v++)
    for (int64_t e = t->indptr[v]; e < t->indptr[v + 1]; e++) {
      int64_t u = ld(t->indices, t->indices_bytes, e);
      if (u == v) continue;
      adj[deg[u]++] = (idx_t)v;
      adj[deg[v]++] = (idx_t)u;
    }
  /* sort and deduplicate each list, compacting in place */
  {
    int64_t w = 0;
    xadj[0] = 0;
    for (int64_t v = 0; v < n; v++) {
      int64_t a = pos[v], b = pos[v + 1], start = w;
      qsort(adj + a, (size_t)(b - a), sizeof *adj, cmp_idx);
      for (int64_t i = a; i < b; i++)
        if (i == a || adj[i] != adj[i - 1]) adj[w++] = adj[i];
      (void)start;
      xadj[v + 1] = (idx_t)w;
    }
  }
  *xadj_out = xadj;
  *adj_out = adj;
  xadj = adj = NULL;
out:
  free(deg);
  free(pos);
  free(xadj);
  free(adj);
  return rc;
}

int fo__partition_metis(const fo_topology *t, int32_t P, const uint8_t *train, uint64_t seed,
                        int32_t *part) {
  const char *lib = getenv("FO_METIS_LIBRARY");
  void *h;
  set_defaults_fn set_defaults;
  kway_fn kway;
  idx_t *xadj = NULL, *adj = NULL, *vwgt = NULL, *p32 = NULL, options[METIS_NOPTIONS];
  idx_t nv, ncon = train ? 2 : 1, np = P, cut = 0;
  int rc, mrc;
  if (!lib || !*lib) lib = "libmetis.so.5";
  if (P == 1) {
    for (int64_t v = 0; v < t->n_nodes; v++) part[v] = 0;
    return FO_OK;
  }
  if (!(h = dlopen(lib, RTLD_NOW | RTLD_LOCAL)))
    return FO_FAIL(FO_ENOSYS, "METIS is not available: cannot load '%s' (%s); install libmetis5 "
                   "or use --method hash or range", lib, dlerror());
  set_defaults = (set_defaults_fn)(uintptr_t)dlsym(h, "METIS_SetDefaultOptions");
  kway = (kway_fn)(uintptr_t)dlsym(h, "METIS_PartGraphKway");
  if (!set_defaults || !kway) {
    dlclose(h);
    return FO_FAIL(FO_ENOSYS, "'%s' lacks METIS_SetDefaultOptions or METIS_PartGraphKway", lib);
  }
  if ((rc = symmetrize(t, &xadj, &adj)) != FO_OK) goto out;
  nv = (idx_t)t->n_nodes;
  p32 = fo__malloc_n(t->n_nodes, sizeof *p32);
  if (train) vwgt = fo__malloc_n(2 * t->n_nodes, sizeof *vwgt);
  if (!p32 || (train && !vwgt)) {
    rc = FO_FAIL(FO_ENOMEM, "METIS output");
    goto out;
  }
  if (train)
    for (int64_t v = 0; v < t->n_nodes; v++) {
      vwgt[2 * v] = 1;
      vwgt[2 * v + 1] = train[v];
    }
  set_defaults(options);
  options[METIS_OPTION_SEED] = (idx_t)(seed & 0x7fffffff);
  options[METIS_OPTION_OBJTYPE] = METIS_OBJTYPE_CUT;
  {
    /* libmetis prints diagnostics ("***Cannot bisect a graph with 0 vertices!") on stdout,
     * where they would corrupt a caller's output (`fanout partition --json`): send its stdout to
     * stderr for the duration of the call */
    int saved;
    /* one METIS call at a time: the redirection is process-wide state */
    pthread_mutex_lock(&metis_lock);
    fflush(stdout);
    saved = dup(STDOUT_FILENO);
    if (saved >= 0) dup2(STDERR_FILENO, STDOUT_FILENO);
    mrc = kway(&nv, &ncon, xadj, adj, vwgt, NULL, NULL, &np, NULL, NULL, options, &cut, p32);
    fflush(stdout);
    if (saved >= 0) {
      dup2(saved, STDOUT_FILENO);
      close(saved);
    }
    pthread_mutex_unlock(&metis_lock);
  }
  if (mrc != METIS_OK) {
    rc = FO_FAIL(mrc == METIS_ERROR_MEMORY ? FO_ENOMEM : FO_EINTERNAL,
                 "METIS_PartGraphKway failed with status %d", mrc);
    goto out;
  }
  for (int64_t v = 0; v < t->n_nodes; v++) {
    if (p32[v] < 0 || p32[v] >= P) {
      rc = FO_FAIL(FO_EINTERNAL, "METIS put node %lld in part %d of %d", (long long)v, (int)p32[v], P);
      goto out;
    }
    part[v] = (int32_t)p32[v];
  }
  rc = FO_OK;
out:
  free(xadj);
  free(adj);
  free(vwgt);
  free(p32);
  dlclose(h);
  return rc;
}
