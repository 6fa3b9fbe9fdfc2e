/*
 * store/edge_split.c: stored edge splits (manifest "edge_splits", docs/FORMAT.md): reading and
 * checking them at open, the accessors of dataset.h, and edge id -> endpoints.
 */
#include "store/store_internal.h"

#include <stdlib.h>
#include <string.h>

void fo__free_edge_splits(fo_dataset_t *d) {
  for (int64_t i = 0; i < d->n_edge_splits; i++) free(d->edge_splits[i].name);
  free(d->edge_splits);
  d->edge_splits = NULL;
  d->n_edge_splits = 0;
}

int fo__parse_edge_splits(fo_dataset_t *d, json_t *obj, bool top) {
  json_t *js = json_object_get(obj, "edge_splits"), *je = json_object_get(obj, "edge_split_ends"), *v;
  const char *key;
  if (!js) return FO_OK;
  if (!json_is_object(js)) return FO_FAIL(FO_EFORMAT, "%s: 'edge_splits' is not an object", FO_MANIFEST);
  if (top && !json_is_object(je))
    return FO_FAIL(FO_EFORMAT, "%s: a partitioned dataset's 'edge_splits' need 'edge_split_ends'",
                   FO_MANIFEST);
  if (!top && d->edge_id_bound != d->n_edges)
    return FO_FAIL(FO_EFORMAT, "%s: 'edge_splits' in one part of a partitioned dataset (edge "
                   "splits are not carried into partitions)", FO_MANIFEST);
  if (!(d->edge_splits = calloc(json_object_size(js) + 1, sizeof *d->edge_splits)))
    return FO_FAIL(FO_ENOMEM, "edge splits");
  json_object_foreach(js, key, v) {
    const fo__array *a = json_is_string(v) ? fo__dataset_find(d, json_string_value(v)) : NULL;
    const int64_t *ids;
    if (!a || a->ndim != 1 || strcmp(a->dtype, "<i8"))
      return FO_FAIL(FO_EFORMAT, "%s: edge split '%s' must name an int64 [k] array", FO_MANIFEST, key);
    ids = a->data;
    for (int64_t j = 0; j < a->shape[0]; j++)
      if (ids[j] < 0 || ids[j] >= d->n_edges)
        return FO_FAIL(FO_EFORMAT, "%s: edge split '%s' (%s): entry %lld is %lld, not an edge id "
                       "in [0, %lld)", FO_MANIFEST, key, a->file, (long long)j, (long long)ids[j],
                       (long long)d->n_edges);
    if (top) {
      json_t *jn = json_object_get(je, key);
      const fo__array *e = json_is_string(jn) ? fo__dataset_find(d, json_string_value(jn)) : NULL;
      if (!e || e->ndim != 2 || strcmp(e->dtype, "<i8") || e->shape[0] != 2 || e->shape[1] != a->shape[0])
        return FO_FAIL(FO_EFORMAT, "%s: edge split '%s': 'edge_split_ends' must name an int64 "
                       "[2, %lld] array", FO_MANIFEST, key, (long long)a->shape[0]);
      d->edge_splits[d->n_edge_splits].ends = e;
    }
    if (!(d->edge_splits[d->n_edge_splits].name = fo__strdup(key))) return FO_FAIL(FO_ENOMEM, "edge splits");
    d->edge_splits[d->n_edge_splits++].ids = a;
  }
  return FO_OK;
}

/* The edge type's view, or NULL (et out of range). */
static const fo_dataset_t *et_view(const fo_dataset_t *d, int32_t et) {
  if (!d || et < 0 || et >= d->n_etypes) return NULL;
  return d->etypes[et].view;
}

int64_t fo_dataset_num_edge_splits(const fo_dataset_t *d, int32_t et) {
  const fo_dataset_t *v = et_view(d, et);
  return v ? v->n_edge_splits : 0;
}

const char *fo_dataset_edge_split_name(const fo_dataset_t *d, int32_t et, int64_t i) {
  const fo_dataset_t *v = et_view(d, et);
  return v && i >= 0 && i < v->n_edge_splits ? v->edge_splits[i].name : NULL;
}

int fo_dataset_edge_split(const fo_dataset_t *d, int32_t et, const char *name, const int64_t **ids,
                          int64_t *n) {
  const fo_dataset_t *v = et_view(d, et);
  char have[512] = "";
  size_t len = 0;
  if (!ids || !n) return FO_FAIL(FO_EINVAL, "edge split: ids or n is NULL");
  *ids = NULL;
  *n = 0;
  if (!v) return FO_FAIL(FO_ERANGE, "edge split: edge type %d is out of range", (int)et);
  for (int64_t i = 0; i < v->n_edge_splits; i++)
    if (name && !strcmp(v->edge_splits[i].name, name)) {
      *ids = v->edge_splits[i].ids->data;
      *n = v->edge_splits[i].ids->shape[0];
      return FO_OK;
    }
  for (int64_t i = 0; i < v->n_edge_splits && len < sizeof have; i++)
    len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", i ? ", " : "", v->edge_splits[i].name);
  return FO_FAIL(FO_EINVAL, "dataset '%s': edge type '%s' has no edge split '%s' (%s%s)%s", d->path,
                 d->etypes[et].name, name ? name : "(null)",
                 v->n_edge_splits ? "it has: " : "it has none", have,
                 d->n_parts ? "; partitions made before edge splits were carried have none: "
                 "partition the dataset again" :
                 v->n_edge_splits ? "" : "; import --edge-split adds them");
}

int fo__edge_split_ends(const fo_dataset_t *d, int32_t et, const char *name, const int64_t **ends) {
  const fo_dataset_t *v = et_view(d, et);
  const int64_t *ids;
  int64_t n;
  int rc;
  *ends = NULL;
  if ((rc = fo_dataset_edge_split(d, et, name, &ids, &n)) != FO_OK) return rc;
  for (int64_t i = 0; i < v->n_edge_splits; i++)
    if (!strcmp(v->edge_splits[i].name, name) && v->edge_splits[i].ends) {
      *ends = v->edge_splits[i].ends->data;
      return FO_OK;
    }
  return FO_FAIL(FO_EINVAL, "dataset '%s': edge split '%s' has no stored endpoints (not a "
                 "partitioned dataset)", d->path, name);
}

int fo_dataset_edge_split_ends(const fo_dataset_t *d, int32_t et, const char *name,
                               const int64_t **ends, int64_t *n) {
  const int64_t *ids;
  int rc;
  if (!ends || !n) return FO_FAIL(FO_EINVAL, "edge split endpoints: ends or n is NULL");
  *ends = NULL;
  *n = 0;
  if ((rc = fo_dataset_edge_split(d, et, name, &ids, n)) != FO_OK) return rc;
  if (!d->n_parts) {
    *n = 0;
    return FO_FAIL(FO_EINVAL, "edge split endpoints: dataset '%s' is not partitioned (its "
                   "splits' endpoints are fo_dataset_edge_endpoints of their edge ids)", d->path);
  }
  if ((rc = fo__edge_split_ends(d, et, name, ends)) != FO_OK) *n = 0;
  return rc;
}

int fo_dataset_edge_endpoints(const fo_dataset_t *d, int32_t et, const int64_t *eids, int64_t n,
                              fo_nid_t *src, fo_nid_t *dst) {
  const fo_dataset_t *v = et_view(d, et);
  fo_topology t;
  int dir, rc;
  if (!d || n < 0 || (n > 0 && (!eids || !src || !dst)))
    return FO_FAIL(FO_EINVAL, "edge endpoints: NULL argument or n %lld < 0", (long long)n);
  if (!v) return FO_FAIL(FO_ERANGE, "edge endpoints: edge type %d is out of range", (int)et);
  if (d->n_parts)
    return FO_FAIL(FO_EINVAL, "edge endpoints: dataset '%s' is partitioned (not supported yet)", d->path);
  /* the edge-id direction is the stored one without an eid array */
  dir = v->has_topo[FO_EDGE_DIR_IN] && !v->topo[FO_EDGE_DIR_IN].eid ? FO_EDGE_DIR_IN : FO_EDGE_DIR_OUT;
  if ((rc = fo_dataset_edge_topology(d, et, (fo_edge_dir)dir, &t)) != FO_OK) return rc;
  for (int64_t i = 0; i < n; i++) {
    const int64_t e = eids[i];
    int64_t lo = 0, hi = t.n_rows - 1, nb;
    if (e < 0 || e >= t.n_edges)
      return FO_FAIL(FO_ERANGE, "edge endpoints: entry %lld is %lld, not an edge id of '%s' in "
                     "[0, %lld)", (long long)i, (long long)e, d->etypes[et].name, (long long)t.n_edges);
    /* the row holding position e: the last r with indptr[r] <= e and a non-empty row */
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo + 1) / 2;
      if (t.indptr[mid] <= e) lo = mid;
      else hi = mid - 1;
    }
    if (t.indptr[lo] > e || t.indptr[lo + 1] <= e)
      return FO_FAIL(FO_EFORMAT, "%s: no row holds position %lld (indptr not monotone)",
                     t.indptr_name, (long long)e);
    nb = t.indices_bytes == 4 ? ((const int32_t *)t.indices)[e] : ((const int64_t *)t.indices)[e];
    if (nb < 0 || nb >= t.n_nodes)
      return FO_FAIL(FO_EFORMAT, "%s[%lld] is %lld, not a node id in [0, %lld)", t.indices_name,
                     (long long)e, (long long)nb, (long long)t.n_nodes);
    if (dir == FO_EDGE_DIR_IN) {
      src[i] = nb;
      dst[i] = lo;
    } else {
      src[i] = lo;
      dst[i] = nb;
    }
  }
  return FO_OK;
}
