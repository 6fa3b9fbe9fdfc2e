/*
 * loader/gather.c: copy the feature rows of a batch's nodes into the batch (x[i] = X[node[i]]),
 * prefetching rows ahead because node ids are random, and look up the seeds' labels.
 * The rows are copied as stored (float32, float16, bfloat16 or quantized uint8).
 *
 * Random rows are the cost: on the benchmark machine a random 512-byte row copies at about a
 * third of sequential memcpy bandwidth whatever the prefetch distance (BENCHMARKS.md);
 * streaming stores for the destination were tried and did not help.
 */
#include "loader/loader_internal.h"

#include "store/store_internal.h"

#define PF_ROWS 4
#define PF_MAX_LINES 16

int fo__gather_init(fo__gather *g, const fo_dataset_t *d, bool features, bool labels) {
  fo_features f;
  const fo_dataset_t *src = NULL;
  int np = fo_dataset_num_parts(d);
  memset(g, 0, sizeof *g);
  if (!np) src = d;
  if (np) {
    g->pd = d;
    g->part_x = calloc((size_t)np, sizeof *g->part_x);
    g->part_y = calloc((size_t)np, sizeof *g->part_y);
    if (!g->part_x || !g->part_y) {
      fo__gather_fini(g);
      return FO_FAIL(FO_ENOMEM, "gather");
    }
    for (int k = 0; k < np && !src; k++) src = fo_dataset_part(d, k);
    if (!src) src = d;
  }
  /* one part holding the whole graph (fo__sole_part): node v is row v of part 0, so the plain
   * gather applies to the part's rows as they are (no book or row map per node) */
  const bool sole = np && fo__sole_part(d);
  if (features && fo_dataset_has_features(d)) {
    int rc = fo_dataset_features(src, &f);
    if (rc != FO_OK) return rc;
    g->x = f.data;
    g->n_rows = f.n_rows;
    g->dim = f.dim;
    g->itemsize = f.itemsize;
    g->row_bytes = f.dim * f.itemsize;
    g->dtype = f.dtype;
    for (int k = 0; k < np; k++) {
      fo_features pf;
      if (!fo_dataset_part(d, k)) continue; /* not open here (distributed: fetched remotely) */
      if ((rc = fo_dataset_features(fo_dataset_part(d, k), &pf)) != FO_OK) return rc;
      if (pf.dim != f.dim || strcmp(pf.dtype, f.dtype))
        return FO_FAIL(FO_EFORMAT, "part %d has %lld-column %s features, part 0 %lld-column %s", k,
                       (long long)pf.dim, pf.dtype, (long long)f.dim, f.dtype);
      g->part_x[k] = pf.data;
    }
    if (g->row_bytes == 0) g->x = NULL; /* D = 0: nothing to gather */
  }
  if (labels && fo_dataset_has_labels(d)) {
    int64_t n, k;
    int rc = fo_dataset_labels(src, &g->y, &n, &k);
    if (rc != FO_OK) return rc;
    for (int p = 0; p < np; p++)
      if (fo_dataset_part(d, p) &&
          (rc = fo_dataset_labels(fo_dataset_part(d, p), &g->part_y[p], &n, &k)) != FO_OK)
        return rc;
  }
  if (sole) g->pd = NULL;
  return FO_OK;
}

void fo__gather_fini(fo__gather *g) {
  free(g->part_x);
  free(g->part_y);
  g->part_x = NULL;
  g->part_y = NULL;
}

int fo__gather_labels(const fo__gather *g, const int64_t *node, int64_t n, int64_t *y) {
  if (!g->pd) {
    for (int64_t i = 0; i < n; i++) y[i] = g->y[node[i]];
    return FO_OK;
  }
  for (int64_t i = 0; i < n; i++) {
    int k, rc;
    int64_t r;
    if ((rc = fo__locate(g->pd, node[i], &k, &r)) != FO_OK) return fo__context(rc, "labels");
    y[i] = g->part_y[k][r];
  }
  return FO_OK;
}

void fo__copy_rows(unsigned char *const *dst, const unsigned char *const *src, int64_t n,
                   size_t rb) {
  const size_t lines = (rb + 63) / 64 < PF_MAX_LINES ? (rb + 63) / 64 : PF_MAX_LINES;
  for (int64_t i = 0; i < n; i++) {
    if (i + PF_ROWS < n)
      for (size_t l = 0; l < lines; l++) __builtin_prefetch(src[i + PF_ROWS] + 64 * l, 0, 3);
    memcpy(dst[i], src[i], rb);
  }
}

int64_t fo__copy_rows_direct(unsigned char *dst, const unsigned char *x, const int64_t *node,
                             int64_t n, size_t rb, int64_t n_rows) {
  const size_t lines = (rb + 63) / 64 < PF_MAX_LINES ? (rb + 63) / 64 : PF_MAX_LINES;
  for (int64_t i = 0; i < n; i++) {
    const int64_t v = node[i];
    if (FO_UNLIKELY((uint64_t)v >= (uint64_t)n_rows)) return i;
    if (i + PF_ROWS < n) {
      const unsigned char *p = x + (size_t)node[i + PF_ROWS] * rb;
      if ((uint64_t)node[i + PF_ROWS] < (uint64_t)n_rows)
        for (size_t l = 0; l < lines; l++) __builtin_prefetch(p + 64 * l, 0, 3);
    }
    memcpy(dst + (size_t)i * rb, x + (size_t)v * rb, rb);
  }
  return -1;
}

int fo__gather_rows(const fo__gather *g, const int64_t *node, int64_t n, void *dst) {
  const size_t rb = (size_t)g->row_bytes;
  unsigned char *out = dst;
  if (g->pd) {
    /* partitioned: each row from its part (the sampler found every node's part already) */
    unsigned char *d[FO__COPY_CHUNK];
    const unsigned char *src[FO__COPY_CHUNK];
    for (int64_t i0 = 0; i0 < n; i0 += FO__COPY_CHUNK) {
      const int64_t m = n - i0 < FO__COPY_CHUNK ? n - i0 : FO__COPY_CHUNK;
      const fo_dataset_t *pd = g->pd;
      for (int64_t j = 0; j < m; j++) {
        const int64_t v = node[i0 + j];
        int k, rc;
        int64_t r;
        /* fo__locate's lookups inline (book and row map: two loads), its checks kept; the
         * out-of-line call only to name what is wrong */
        if (FO_LIKELY(v >= 0 && v < pd->n_nodes && (k = fo__owner(pd, v)) < pd->n_parts &&
                      pd->parts[k] && (r = fo__owner_row(pd, k, v)) >= 0 && r < pd->parts[k]->n_rows)) {
          src[j] = g->part_x[k] + (size_t)r * rb;
        } else {
          if ((rc = fo__locate(pd, v, &k, &r)) != FO_OK) return fo__context(rc, "features");
          src[j] = g->part_x[k] + (size_t)r * rb;
        }
        d[j] = out + (size_t)(i0 + j) * rb;
      }
      fo__copy_rows(d, src, m, rb);
    }
    return FO_OK;
  }
  /* prefetch whole rows PF_ROWS ahead (rows of up to PF_MAX_LINES cache lines) */
  const size_t lines = (rb + 63) / 64 < PF_MAX_LINES ? (rb + 63) / 64 : PF_MAX_LINES;
  for (int64_t i = 0; i < n; i++) {
    if (i + PF_ROWS < n) {
      const unsigned char *p = g->x + (size_t)node[i + PF_ROWS] * rb;
      for (size_t l = 0; l < lines; l++) __builtin_prefetch(p + 64 * l, 0, 3);
    }
    memcpy(out + (size_t)i * rb, g->x + (size_t)node[i] * rb, rb);
  }
  return FO_OK;
}
