/*
 * store/label_rows.c: the rows of a labels-only (supervision) edge type by anchor (its source
 * node), the one reader of supervision rows (store_internal.h fo__label_rows): the CSR of an
 * unpartitioned dataset, or the CSR rows a partitioned dataset's parts hold for the anchors
 * they own (docs/FORMAT.md, typed partitioned datasets, format_version 3), found through the
 * anchor type's book as the sampler finds a frontier node's row.
 */
#include "store/store_internal.h"

#include <stdlib.h>
#include <string.h>

void fo__label_rows_fini(fo__label_rows *r) {
  if (!r) return;
  if (r->shards != &r->whole) free(r->shards);
  memset(r, 0, sizeof *r);
}

int fo__label_rows_init(const fo_dataset_t *d, int32_t i, fo__label_rows *r) {
  fo_edge_type ty;
  int rc;
  memset(r, 0, sizeof *r);
  if ((rc = fo_dataset_label_edge_type(d, i, &ty)) != FO_OK) return rc;
  r->n_dst = fo_dataset_num_nodes(fo_dataset_node_data(d, ty.dst_type));
  r->name = d->etypes[d->n_etypes + i].name;
  if (!d->n_parts) {
    if ((rc = fo_dataset_label_edge_topology(d, i, FO_EDGE_DIR_OUT, &r->whole)) != FO_OK) return rc;
    if (r->whole.row_nodes)
      return FO_FAIL(FO_EINVAL, "'%s' is one part of a partitioned dataset: read its supervision "
                     "edges through the partitioned dataset's directory", d->path);
    r->shards = &r->whole;
    r->n_shards = 1;
    return FO_OK;
  }
  /* partitioned: the anchor type's book, every open part's CSR rows of the type */
  r->book = fo_dataset_node_data(d, ty.src_type);
  r->n_shards = d->n_parts;
  if (!(r->shards = calloc((size_t)d->n_parts, sizeof *r->shards)))
    return FO_FAIL(FO_ENOMEM, "supervision rows of %d parts", d->n_parts);
  for (int k = 0; k < d->n_parts; k++) {
    if (!d->parts[k]) continue; /* not open here: its rows are another machine's */
    if ((rc = fo_dataset_label_edge_topology(d->parts[k], i, FO_EDGE_DIR_OUT, &r->shards[k])) != FO_OK) {
      fo__label_rows_fini(r);
      return fo__context(rc, "part %d", k);
    }
  }
  return FO_OK;
}

int fo__label_rows_get(const fo__label_rows *r, int64_t u, const fo_topology **t, int64_t *a,
                       int64_t *b) {
  const fo_topology *s;
  int64_t row = u;
  *t = NULL;
  *a = *b = 0;
  if (r->book) {
    const fo_dataset_t *bk = r->book;
    int k;
    if (u < 0 || u >= bk->n_nodes)
      return FO_FAIL(FO_ERANGE, "anchor %lld not in [0, %lld)", (long long)u, (long long)bk->n_nodes);
    k = fo__owner(bk, u);
    if (FO_UNLIKELY(k < 0 || k >= r->n_shards))
      return FO_FAIL(FO_EFORMAT, "partition book: anchor %lld is in part %d of %d", (long long)u, k,
                     r->n_shards);
    if (FO_UNLIKELY(!r->shards[k].indptr))
      return FO_FAIL(FO_EINVAL, "anchor %lld belongs to part %d, which is not open here "
                     "(supervision rows of '%s')", (long long)u, k, r->name);
    s = &r->shards[k];
    row = fo__owner_row(bk, k, u);
    if (FO_UNLIKELY(row < 0 || row >= s->n_rows || (s->row_nodes && s->row_nodes[row] != u)))
      return FO_FAIL(FO_EFORMAT, "part %d: anchor %lld maps to row %lld of %lld of %s", k,
                     (long long)u, (long long)row, (long long)s->n_rows, s->indptr_name);
  } else {
    s = &r->shards[0];
    if (u < 0 || u >= s->n_rows)
      return FO_FAIL(FO_ERANGE, "anchor %lld not in [0, %lld)", (long long)u, (long long)s->n_rows);
  }
  *a = s->indptr[row];
  *b = s->indptr[row + 1];
  if (FO_UNLIKELY(*a < 0 || *b < *a || *b > s->n_edges))
    return FO_FAIL(FO_EFORMAT, "%s[%lld..%lld] = %lld, %lld is not a valid row in [0, %lld]",
                   s->indptr_name, (long long)row, (long long)(row + 1), (long long)*a, (long long)*b,
                   (long long)s->n_edges);
  for (int64_t p = *a; p < *b; p++) {
    const int64_t v = fo__label_rows_at(s, p);
    if (FO_UNLIKELY(v < 0 || v >= r->n_dst))
      return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld is not a node id in [0, %lld)", s->indices_name,
                     (long long)p, (long long)v, (long long)r->n_dst);
  }
  *t = s;
  return FO_OK;
}
