/*
 * bench/rmat.c: `fanout-rmat`, the R-MAT graph generator the benchmarks run on, writing a
 * dataset directory through the public import API.
 *
 * R-MAT (Chakrabarti, Zhan & Faloutsos, "R-MAT: A recursive model for graph mining", SDM 2004)
 * with the Graph500 parameters a = 0.57, b = 0.19, c = 0.19, d = 0.05 and edge factor 16: each
 * of 16 * 2^scale edges picks its (src, dst) quadrant bit by bit. Vertex ids are then scrambled
 * by a fixed pseudo-random permutation (so degree does not follow id order), and the dataset is
 * imported symmetrized (--undirected) with self loops and duplicates dropped, as the Graph500
 * kernel 1 input is. Deterministic for a given (scale, edge factor, seed).
 *
 * With --features D it also stores random float32 node features [n, D] (uniform in [-1, 1)),
 * labels in 0..classes-1 and a random train split of --train-fraction of the nodes, written as
 * .npy files into a scratch directory and imported with --features/--labels/--split.
 *
 * With --typed the same graph becomes a typed dataset (format version 2) with 2 node types and
 * 4 edge types: node v (after scrambling) is node v >> 1 of type "a" (v even) or "b" (v odd),
 * and an edge u -> v is an edge of type (type(u), "r", type(v)). Both directions of every
 * generated edge are written and duplicates and self loops dropped, so the typed dataset holds
 * exactly the edges of the one-type dataset of the same scale and seed (for the 1.25x goal of
 * typed against one-type sampling on the same graph).
 */
#include <fanout/fanout.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void usage(FILE *f) {
  fprintf(f, "usage: fanout-rmat --scale S [--edgefactor 16] [--seed 1] [--csr] [--force]\n"
             "                   [--features D [--classes 16] [--train-fraction 0.1]] [--typed]\n"
             "                   [--times T | --node-times T] [--weights] -o DIR\n"
             "Generate a Graph500-style R-MAT graph (2^S nodes, edgefactor * 2^S edges before\n"
             "symmetrizing) and import it as a fanout dataset (undirected, no self loops or\n"
             "duplicates, CSC; --csr adds the CSR), optionally with random node data; --typed\n"
             "writes it with 2 node types (a, b) and 4 edge types (a__r__a, a__r__b, ...);\n"
             "--times T adds random edge times and node times, uniform in [0, T) (int64);\n"
             "--node-times T node times only (rows are then ordered by neighbor node time);\n"
             "--weights adds random float32 edge weights, uniform in [0, 1).\n");
}

/* Write a C-order .npy file: header (numpy format 1.0, 64-byte aligned) then the data. */
static int write_npy(const char *path, const char *descr, int ndim, const int64_t *shape,
                     const void *data, size_t bytes) {
  char dict[256], hdr[320];
  int n;
  size_t total;
  FILE *f;
  if (ndim == 1)
    n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%lld,), }",
                 descr, (long long)shape[0]);
  else
    n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%lld, %lld), }",
                 descr, (long long)shape[0], (long long)shape[1]);
  total = (10 + (size_t)n + 1 + 63) / 64 * 64;
  memcpy(hdr, "\x93NUMPY\x01\x00", 8);
  hdr[8] = (char)((total - 10) & 0xff);
  hdr[9] = (char)((total - 10) >> 8);
  memcpy(hdr + 10, dict, (size_t)n);
  memset(hdr + 10 + n, ' ', total - 10 - (size_t)n - 1);
  hdr[total - 1] = '\n';
  if (!(f = fopen(path, "wb"))) return -1;
  if (fwrite(hdr, 1, total, f) != total || fwrite(data, 1, bytes, f) != bytes) {
    fclose(f);
    return -1;
  }
  return fclose(f);
}

/* Random features, labels and a train split as .npy files in `dir`. */
static int write_node_data(const char *dir, int64_t n, int64_t dim, int64_t classes,
                           double train_fraction, uint64_t seed) {
  char path[4096];
  uint64_t st = seed ^ UINT64_C(0xfea7);
  float *x = malloc((size_t)(n * dim) * sizeof *x);
  int64_t *y = malloc((size_t)n * sizeof *y), *train = malloc((size_t)n * sizeof *train), k = 0;
  int64_t shape[2] = {n, dim};
  int rc = 0;
  if (!x || !y || !train) return -1;
  for (int64_t i = 0; i < n * dim; i++)
    x[i] = (float)((double)(splitmix(&st) >> 11) * 0x1.0p-52 - 1.0);
  for (int64_t v = 0; v < n; v++) {
    y[v] = (int64_t)(splitmix(&st) % (uint64_t)classes);
    if ((double)(splitmix(&st) >> 11) * 0x1.0p-53 < train_fraction) train[k++] = v;
  }
  snprintf(path, sizeof path, "%s/x.npy", dir);
  rc |= write_npy(path, "<f4", 2, shape, x, (size_t)(n * dim) * sizeof *x);
  snprintf(path, sizeof path, "%s/y.npy", dir);
  rc |= write_npy(path, "<i8", 1, &n, y, (size_t)n * sizeof *y);
  snprintf(path, sizeof path, "%s/train.npy", dir);
  rc |= write_npy(path, "<i8", 1, &k, train, (size_t)k * sizeof *train);
  free(x);
  free(y);
  free(train);
  return rc;
}

/* --typed: the edges by (type(u), type(v)) in four edge list files, both directions, imported
 * as a typed dataset with dedup and self loops removed. */
static int import_typed(const int64_t *src, const int64_t *dst, int64_t m, int64_t n,
                        const char *out, const fo_import_opts *base, fo_import_report *rep) {
  static const char *const names[2] = {"a", "b"};
  const char *tmp = getenv("TMPDIR");
  char dir[4096], path[4][4200];
  FILE *f[4];
  fo_import_edge_type et[4];
  fo_import_node_type nt[2];
  fo_import_opts o = *base;
  int rc = FO_OK;
  snprintf(dir, sizeof dir, "%s/fanout-rmat-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) return fo_set_error(FO_EIO, "fanout-rmat: scratch directory");
  for (int k = 0; k < 4; k++) {
    snprintf(path[k], sizeof path[k], "%s/e%d.tsv", dir, k);
    if (!(f[k] = fopen(path[k], "w"))) return fo_set_error(FO_EIO, "fanout-rmat: scratch file");
    et[k] = (fo_import_edge_type){names[k >> 1], "r", names[k & 1], path[k]};
  }
  for (int64_t i = 0; i < m; i++) {
    int64_t u = src[i], v = dst[i];
    fprintf(f[(u & 1) << 1 | (v & 1)], "%lld\t%lld\n", (long long)(u >> 1), (long long)(v >> 1));
    fprintf(f[(v & 1) << 1 | (u & 1)], "%lld\t%lld\n", (long long)(v >> 1), (long long)(u >> 1));
  }
  for (int k = 0; k < 4; k++) fclose(f[k]);
  for (int t = 0; t < 2; t++) {
    memset(&nt[t], 0, sizeof nt[t]);
    nt[t].name = names[t];
    nt[t].num_nodes = (n + 1 - t) / 2;
  }
  o.undirected = false; /* both directions are in the files */
  o.dedup = true;
  o.remove_self_loops = true;
  o.num_nodes = -1;
  o.edge_types = et;
  o.n_edge_types = 4;
  o.node_type_opts = nt;
  o.n_node_type_opts = 2;
  rc = fo_import(NULL, 0, out, &o, rep);
  for (int k = 0; k < 4; k++) remove(path[k]);
  remove(dir);
  return rc;
}

int main(int argc, char **argv) {
  static const struct option lopts[] = {
      {"scale", required_argument, NULL, 's'}, {"edgefactor", required_argument, NULL, 'e'},
      {"seed", required_argument, NULL, 'S'}, {"csr", no_argument, NULL, 'c'},
      {"force", no_argument, NULL, 'f'}, {"output", required_argument, NULL, 'o'},
      {"features", required_argument, NULL, 'F'}, {"classes", required_argument, NULL, 'C'},
      {"train-fraction", required_argument, NULL, 'T'}, {"typed", no_argument, NULL, 'Y'},
      {"times", required_argument, NULL, 'M'}, {"node-times", required_argument, NULL, 'N'},
      {"weights", no_argument, NULL, 'W'},
      {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  int scale = -1, c, rc, typed = 0;
  int64_t ef = 16, n, m, *src, *dst, *perm, dim = 0, classes = 16, tmax = 0;
  int node_only = 0, weights = 0;
  char tdir[4096] = "", etpath[4200], ntpath[4200], wdir[4096] = "", wpath[4200];
  double train_fraction = 0.1;
  char scratch[4096] = "", fpath[4200], lpath[4200], spath[4300];
  uint64_t seed = 1, st;
  const char *out = NULL;
  fo_import_opts o;
  fo_import_report rep;
  double t0, t1;
  /* thresholds for one 2-bit quadrant choice, as fractions of 2^32 */
  const uint64_t ta = (uint64_t)(0.57 * 4294967296.0), tb = (uint64_t)(0.76 * 4294967296.0),
                 tc = (uint64_t)(0.95 * 4294967296.0);

  fo_import_opts_init(&o);
  o.undirected = true;
  o.remove_self_loops = true;
  while ((c = getopt_long(argc, argv, "s:e:o:", lopts, NULL)) != -1) {
    switch (c) {
    case 's': scale = atoi(optarg); break;
    case 'e': ef = atoll(optarg); break;
    case 'S': seed = strtoull(optarg, NULL, 10); break;
    case 'c': o.csr = true; break;
    case 'f': o.force = true; break;
    case 'o': out = optarg; break;
    case 'F': dim = atoll(optarg); break;
    case 'C': classes = atoll(optarg); break;
    case 'T': train_fraction = atof(optarg); break;
    case 'Y': typed = 1; break;
    case 'W': weights = 1; break;
    case 'M': tmax = atoll(optarg); break;
    case 'N':
      tmax = atoll(optarg);
      node_only = 1;
      break;
    case 'h': usage(stdout); return 0;
    default: usage(stderr); return 2;
    }
  }
  if (tmax < 0 || ((tmax > 0 || weights) && typed)) {
    fprintf(stderr, "fanout-rmat: --times must be >= 1; --times and --weights without --typed\n");
    return 2;
  }
  if (typed && dim > 0) {
    fprintf(stderr, "fanout-rmat: --typed writes no node data (no --features)\n");
    return 2;
  }
  if (scale < 1 || scale > 40 || ef < 1 || !out || optind != argc || dim < 0 || classes < 1 ||
      !(train_fraction >= 0 && train_fraction <= 1)) {
    fprintf(stderr, "fanout-rmat: %s\n",
            !out ? "missing -o DIR"
            : optind != argc ? "unexpected argument"
            : scale < 1 || scale > 40 ? "--scale must be in 1..40"
            : ef < 1 ? "--edgefactor must be >= 1"
            : dim < 0 ? "--features must be >= 0"
            : classes < 1 ? "--classes must be >= 1"
                          : "--train-fraction must be in [0, 1]");
    usage(stderr);
    return 2;
  }
  n = (int64_t)1 << scale;
  m = ef * n;
  src = malloc((size_t)m * sizeof *src);
  dst = malloc((size_t)m * sizeof *dst);
  perm = malloc((size_t)n * sizeof *perm);
  if (!src || !dst || !perm) {
    fprintf(stderr, "fanout-rmat: out of memory for %lld edges\n", (long long)m);
    return 1;
  }
  t0 = now_s();
  st = seed;
  for (int64_t i = 0; i < m; i++) {
    int64_t u = 0, v = 0;
    uint64_t r = 0;
    for (int bit = 0; bit < scale; bit++) {
      uint64_t x;
      if ((bit & 1) == 0) r = splitmix(&st);
      x = (bit & 1) ? r >> 32 : r & 0xffffffffu;
      u <<= 1;
      v <<= 1;
      if (x < ta) {
      } else if (x < tb) {
        v |= 1;
      } else if (x < tc) {
        u |= 1;
      } else {
        u |= 1;
        v |= 1;
      }
    }
    src[i] = u;
    dst[i] = v;
  }
  /* scramble ids with a fixed permutation (Fisher-Yates from the same seed) */
  for (int64_t i = 0; i < n; i++) perm[i] = i;
  st = seed ^ UINT64_C(0x5DEECE66D);
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = (int64_t)(splitmix(&st) % (uint64_t)(i + 1)), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  for (int64_t i = 0; i < m; i++) {
    src[i] = perm[src[i]];
    dst[i] = perm[dst[i]];
  }
  free(perm);
  if (dim > 0) {
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/fanout-rmat-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(scratch) || write_node_data(scratch, n, dim, classes, train_fraction, seed) != 0) {
      fprintf(stderr, "fanout-rmat: cannot write node data in %s\n", scratch);
      return 1;
    }
    snprintf(fpath, sizeof fpath, "%s/x.npy", scratch);
    snprintf(lpath, sizeof lpath, "%s/y.npy", scratch);
    snprintf(spath, sizeof spath, "train=%s/train.npy", scratch);
    o.features = fpath;
    o.labels = lpath;
    o.splits = spath;
  }
  if (tmax > 0) {
    /* random edge times (one per generated edge) and node times, uniform in [0, tmax) */
    const char *tmp = getenv("TMPDIR");
    int64_t *tv = malloc((size_t)(m > n ? m : n) * sizeof *tv);
    int wr = 0;
    snprintf(tdir, sizeof tdir, "%s/fanout-rmat-t-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!tv || !mkdtemp(tdir)) {
      fprintf(stderr, "fanout-rmat: cannot write times\n");
      return 1;
    }
    st = seed ^ UINT64_C(0x7133);
    for (int64_t i = 0; i < m; i++) tv[i] = (int64_t)(splitmix(&st) % (uint64_t)tmax);
    snprintf(etpath, sizeof etpath, "%s/et.npy", tdir);
    wr |= write_npy(etpath, "<i8", 1, &m, tv, (size_t)m * sizeof *tv);
    for (int64_t v = 0; v < n; v++) tv[v] = (int64_t)(splitmix(&st) % (uint64_t)tmax);
    snprintf(ntpath, sizeof ntpath, "%s/nt.npy", tdir);
    wr |= write_npy(ntpath, "<i8", 1, &n, tv, (size_t)n * sizeof *tv);
    free(tv);
    if (wr) {
      fprintf(stderr, "fanout-rmat: cannot write times in %s\n", tdir);
      return 1;
    }
    if (!node_only) o.edge_time = etpath;
    o.node_time = ntpath;
  }
  if (weights) {
    /* random float32 edge weights (one per generated edge), uniform in [0, 1) */
    const char *tmp = getenv("TMPDIR");
    float *wv = malloc((size_t)(m ? m : 1) * sizeof *wv);
    snprintf(wdir, sizeof wdir, "%s/fanout-rmat-w-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!wv || !mkdtemp(wdir)) {
      fprintf(stderr, "fanout-rmat: cannot write weights\n");
      return 1;
    }
    st = seed ^ UINT64_C(0x3e19);
    for (int64_t i = 0; i < m; i++) wv[i] = (float)(splitmix(&st) >> 40) * 0x1p-24f;
    snprintf(wpath, sizeof wpath, "%s/w.npy", wdir);
    if (write_npy(wpath, "<f4", 1, &m, wv, (size_t)m * sizeof *wv)) {
      fprintf(stderr, "fanout-rmat: cannot write weights in %s\n", wdir);
      free(wv);
      return 1;
    }
    free(wv);
    o.edge_weight = wpath;
  }
  t1 = now_s();
  o.num_nodes = n;
  if (typed) rc = import_typed(src, dst, m, n, out, &o, &rep);
  else rc = fo_import_edges(src, dst, m, out, &o, &rep);
  free(src);
  free(dst);
  if (scratch[0]) {
    remove(fpath);
    remove(lpath);
    remove(spath + 6);
    remove(scratch);
  }
  if (tdir[0]) {
    remove(etpath);
    remove(ntpath);
    remove(tdir);
  }
  if (wdir[0]) {
    remove(wpath);
    remove(wdir);
  }
  if (rc != FO_OK) {
    fprintf(stderr, "fanout-rmat: %s (%s)\n", fo_last_error(), fo_status_name(rc));
    return 1;
  }
  printf("rmat scale %d edgefactor %lld seed %llu: %lld nodes, %lld edges (%lld generated, %lld "
         "self loops, %lld duplicates dropped, %lld isolated); generate %.1f s, import %.1f s\n",
         scale, (long long)ef, (unsigned long long)seed, (long long)rep.n_nodes,
         (long long)rep.n_edges, (long long)m, (long long)rep.n_self_loops_removed,
         (long long)rep.n_duplicates_removed, (long long)rep.n_isolated, t1 - t0, now_s() - t1);
  return 0;
}
