/*
 * loader/loader_internal.h: feature and label gather, shared by the loader (and later the
 * distributed loader).
 */
#ifndef FO_LOADER_INTERNAL_H
#define FO_LOADER_INTERNAL_H

#include "core/internal.h"

/* Where a batch's x and y come from; x/y NULL when not gathered. */
typedef struct fo__gather {
  const unsigned char *x; /* [n_rows, dim]; for a partitioned dataset: non-NULL marks "gather" */
  int64_t n_rows, dim, itemsize, row_bytes;
  const char *dtype;
  const int64_t *y;       /* [n_rows]; likewise */
  /* a partitioned dataset: every part's rows, found through the book */
  const fo_dataset_t *pd;
  const unsigned char **part_x;
  const int64_t **part_y;
} fo__gather;

void fo__gather_fini(fo__gather *g);
/* y[i] = label of node[i] for i < n. */
void fo__gather_labels(const fo__gather *g, const int64_t *node, int64_t n, int64_t *y);

/* Set up from the dataset: features when `features` and the dataset has them, labels likewise. */
int fo__gather_init(fo__gather *g, const fo_dataset_t *d, bool features, bool labels);

/* dst[i, :] = x[node[i], :] for i < n (rows of g->row_bytes; node ids already checked). */
void fo__gather_rows(const fo__gather *g, const int64_t *node, int64_t n, void *dst);

#endif
