/*
 * store/verify.c: the full O(n + m) dataset check behind `fanout verify`.
 *
 * In order: every array's xxh64 against the manifest; per stored direction, indptr starts at
 * 0, never decreases and ends at m, every indices entry lies in [0, n), and an eid array is a
 * permutation of [0, m) (one bit per edge); when both directions are stored, every CSR
 * position p in row u with eid e must be CSC position e with source u and lie in the column of
 * its CSR target, so the two hold exactly the same edges (and times); edge weights are finite
 * and >= 0; edge times are sorted within each row. The first failure is reported with
 * the array and position; nothing is modified.
 */
#include "store/store_internal.h"

#include <math.h>

static int64_t load_int(const void *a, int bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

static int check_topology(const fo_dataset_t *d, const fo_topology *t) {
  const int64_t n = t->n_nodes, m = t->n_edges, bound = t->edge_id_bound;
  uint64_t *seen = NULL;
  for (int64_t v = 0; v < t->n_rows; v++)
    if (t->indptr[v + 1] < t->indptr[v])
      return FO_FAIL(FO_EFORMAT, "%s: decreases at position %lld (%lld > %lld)", t->indptr_name,
                     (long long)v, (long long)t->indptr[v], (long long)t->indptr[v + 1]);
  for (int64_t e = 0; e < m; e++) {
    int64_t u = load_int(t->indices, t->indices_bytes, e);
    if (u < 0 || u >= n)
      return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld is not a node id in [0, %lld)", t->indices_name,
                     (long long)e, (long long)u, (long long)n);
  }
  for (int64_t v = 0; t->weight && v < t->n_rows; v++) {
    const int64_t a = t->indptr[v], deg = t->indptr[v + 1] - a;
    bool any = false;
    for (int64_t e = a; e < a + deg; e++) {
      double x = t->weight_bytes == 4 ? (double)((const float *)t->weight)[e]
                                      : ((const double *)t->weight)[e];
      if (!isfinite(x) || x < 0)
        return FO_FAIL(FO_EFORMAT, "%s[%lld] = %g: edge weights must be finite and >= 0",
                       t->weight_name, (long long)e, x);
      any |= x > 0;
    }
    for (int64_t e = a; e < a + deg; e++) {
      const uint64_t en = (uint64_t)t->weight_alias[e], off = en >> 32, th = en & 0xffffffffu;
      const double x = t->weight_bytes == 4 ? (double)((const float *)t->weight)[e]
                                            : ((const double *)t->weight)[e];
      double y;
      if (!any) {
        if (en)
          return FO_FAIL(FO_EFORMAT, "%s[%lld] = %llu: row %lld has no positive weight, its alias "
                         "entries must be 0", t->weight_alias_name, (long long)e,
                         (unsigned long long)en, (long long)v);
        continue;
      }
      if (off >= (uint64_t)deg)
        return FO_FAIL(FO_EFORMAT, "%s[%lld]: alias offset %llu is outside row %lld (%lld edges)",
                       t->weight_alias_name, (long long)e, (unsigned long long)off, (long long)v,
                       (long long)deg);
      y = t->weight_bytes == 4 ? (double)((const float *)t->weight)[a + (int64_t)off]
                               : ((const double *)t->weight)[a + (int64_t)off];
      if ((!(x > 0) && th) || (!(y > 0) && (int64_t)off != e - a) || (!(x > 0) && !(y > 0)))
        return FO_FAIL(FO_EFORMAT, "%s[%lld]: a zero-weight edge can be drawn", t->weight_alias_name,
                       (long long)e);
    }
  }
  for (int64_t v = 0; t->time && v < t->n_rows; v++)
    for (int64_t e = t->indptr[v] + 1; e < t->indptr[v + 1]; e++)
      if (t->time[e] < t->time[e - 1])
        return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld < %s[%lld] = %lld: row %lld is not sorted by "
                       "time", t->time_name, (long long)e, (long long)t->time[e], t->time_name,
                       (long long)(e - 1), (long long)t->time[e - 1], (long long)v);
  if (t->rows_by_node_time && !d->is_view && !t->row_nodes) {
    /* rows ordered by neighbor node time (version 1; typed views and parts, whose node times
     * are at the partitioned dataset's top level, are checked by the sampler's use only) */
    const int64_t *nt = d->node_time ? d->node_time->data : NULL;
    if (!nt)
      return FO_FAIL(FO_EFORMAT, "%s: rows are ordered by node time, but there are no node times",
                     t->indices_name);
    for (int64_t v = 0; v < t->n_rows; v++)
      for (int64_t e = t->indptr[v] + 1; e < t->indptr[v + 1]; e++)
        if (nt[load_int(t->indices, t->indices_bytes, e)] < nt[load_int(t->indices, t->indices_bytes, e - 1)])
          return FO_FAIL(FO_EFORMAT, "%s[%lld]: row %lld is not ordered by neighbor node time",
                         t->indices_name, (long long)e, (long long)v);
  }
  if (!t->eid) return FO_OK;
  /* row_eid (parts): each row's edge ids run from row_eid[r], the same ids as eid */
  for (int64_t r = 0; t->row_eid && r < t->n_rows; r++)
    for (int64_t p = t->indptr[r]; p < t->indptr[r + 1]; p++)
      if (load_int(t->eid, t->eid_bytes, p) != t->row_eid[r] + (p - t->indptr[r]))
        return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld: row %lld's edge ids do not run from it "
                       "(%s[%lld] = %lld)", t->row_eid_name, (long long)r, (long long)t->row_eid[r],
                       (long long)r, t->eid_name, (long long)p,
                       (long long)load_int(t->eid, t->eid_bytes, p));
  if (!(seen = fo__calloc_n((bound + 63) / 64, sizeof *seen))) return FO_FAIL(FO_ENOMEM, "verify eid");
  for (int64_t p = 0; p < m; p++) {
    int64_t e = load_int(t->eid, t->eid_bytes, p);
    if (e < 0 || e >= bound || (seen[e >> 6] >> (e & 63) & 1)) {
      free(seen);
      return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld: %s", t->eid_name, (long long)p, (long long)e,
                     e < 0 || e >= bound ? "not an edge id"
                     : bound == m        ? "repeated (not a permutation)"
                                         : "repeated");
    }
    seen[e >> 6] |= (uint64_t)1 << (e & 63);
  }
  free(seen);
  (void)d;
  return FO_OK;
}

/* Both directions stored: they must describe the same edges. */
static int check_same_edges(const fo_topology *csc, const fo_topology *csr) {
  if (csc->row_nodes || csr->row_nodes) return FO_OK; /* parts store one direction */
  const fo_topology *ids = csc->eid ? csr : csc;   /* direction whose positions are edge ids */
  const fo_topology *other = csc->eid ? csc : csr;  /* direction with the eid array */
  for (int64_t v = 0; v < other->n_rows; v++) {
    for (int64_t p = other->indptr[v]; p < other->indptr[v + 1]; p++) {
      int64_t e = load_int(other->eid, other->eid_bytes, p);
      int64_t w = load_int(other->indices, other->indices_bytes, p);
      /* In `ids`, position e must lie in w's list and point back to v. */
      if (load_int(ids->indices, ids->indices_bytes, e) != v || e < ids->indptr[w] ||
          e >= ids->indptr[w + 1])
        return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld: edge (%lld, %lld) differs in %s",
                       other->eid_name, (long long)p, (long long)e, (long long)v, (long long)w,
                       ids->indices_name);
      if (!ids->time != !other->time || (ids->time && ids->time[e] != other->time[p]))
        return FO_FAIL(FO_EFORMAT, "%s[%lld]: edge %lld has another time in %s",
                       other->time_name ? other->time_name : ids->time_name, (long long)p,
                       (long long)e, ids->time_name ? ids->time_name : other->indices_name);
    }
  }
  return FO_OK;
}

/* Labels are -1 or >= 0; split entries are node ids; row_nodes ascend. */
static int check_node_data(const fo_dataset_t *d) {
  if (d->row_nodes) {
    const int64_t *r = d->row_nodes->data;
    for (int64_t i = 0; i < d->n_rows; i++)
      if (r[i] < 0 || r[i] >= d->n_nodes || (i && r[i] <= r[i - 1]))
        return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld: rows must be ascending node ids in [0, %lld)",
                       d->row_nodes->name, (long long)i, (long long)r[i], (long long)d->n_nodes);
  }
  if (d->y) {
    const int64_t *y = d->y->data;
    for (int64_t v = 0; v < d->n_rows; v++)
      if (y[v] < -1 || y[v] >= d->num_classes)
        return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld is not a label (-1 or in [0, %lld))",
                       d->y->name, (long long)v, (long long)y[v], (long long)d->num_classes);
  }
  if (d->node_orig_off) {
    const int64_t *o = d->node_orig_off->data;
    for (int64_t v = 0; v < d->n_nodes; v++)
      if (o[v + 1] < o[v])
        return FO_FAIL(FO_EFORMAT, "%s: decreases at position %lld (%lld > %lld)",
                       d->node_orig_off->name, (long long)v, (long long)o[v], (long long)o[v + 1]);
  }
  if (d->edge_orig) {
    for (int64_t e = 0; e < d->n_edges; e++) {
      int64_t p = load_int(d->edge_orig->data, (int)d->edge_orig->itemsize, e);
      if (p < 0)
        return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld is not an input position", d->edge_orig->name,
                       (long long)e, (long long)p);
    }
  }
  for (int64_t i = 0; i < d->n_splits; i++) {
    const fo__array *a = d->splits[i].ids;
    const int64_t *ids = a->data;
    for (int64_t j = 0; j < a->shape[0]; j++)
      if (ids[j] < 0 || ids[j] >= d->n_nodes)
        return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld is not a node id in [0, %lld)", a->name,
                       (long long)j, (long long)ids[j], (long long)d->n_nodes);
  }
  return FO_OK;
}

/* A partitioned dataset: every part verifies, every node is owned by exactly the part the book
 * says, at the row the rank directory (or the range) says, and the parts hold m edges. */
typedef struct vctx {
  const fo_verify_opts *o;
  fo__progress prog;
  uint64_t done; /* bytes hashed so far, over the dataset and its parts */
} vctx;

static int verify(const fo_dataset_t *d, vctx *c);

/* The book of `d` (a one-type partitioned dataset, or one node type's view of a typed one)
 * against the parts' rows: every row is the node the book places there, and (all parts open)
 * the parts own every node once. */
static int check_book(const fo_dataset_t *d) {
  for (int k = 0; k < d->n_parts; k++) {
    const fo_dataset_t *p = d->parts[k];
    const int64_t *rows;
    if (!p) continue; /* not opened here */
    rows = p->row_nodes->data;
    for (int64_t r = 0; r < p->n_rows; r++) {
      int owner = fo__owner(d, rows[r]);
      if (owner != k || fo__owner_row(d, k, rows[r]) != r ||
          (d->book_kind == FO_BOOK_ARRAY && fo__rank_row(d, k, rows[r]) != r))
        return FO_FAIL(FO_EFORMAT, "part %d row %lld holds node %lld, but the book says part %d "
                       "row %lld", k, (long long)r, (long long)rows[r], owner,
                       owner == k ? (long long)(d->book_kind == FO_BOOK_ARRAY ? fo__rank_row(d, k, rows[r])
                                                                                : fo__owner_row(d, k, rows[r]))
                                  : -1LL);
    }
  }
  if (d->only_part >= 0) return FO_OK; /* the totals need every part */
  if (d->book) {
    int64_t owned = 0;
    for (int k = 0; k < d->n_parts; k++) owned += d->parts[k]->n_rows;
    for (int64_t v = 0; v < d->n_nodes; v++)
      if (fo__owner(d, v) >= d->n_parts)
        return FO_FAIL(FO_EFORMAT, "%s[%lld] = %d is not a part in [0, %d)", d->book->name,
                       (long long)v, fo__owner(d, v), d->n_parts);
    if (owned != d->n_nodes)
      return FO_FAIL(FO_EFORMAT, "the parts own %lld nodes, the graph has %lld", (long long)owned,
                     (long long)d->n_nodes);
  }
  return FO_OK;
}

static int check_partitioned(const fo_dataset_t *d, vctx *c) {
  int64_t edges = 0;
  int rc;
  for (int k = 0; k < d->n_parts; k++) {
    if (!d->parts[k]) continue; /* not opened here */
    if ((rc = verify(d->parts[k], c)) != FO_OK) return rc;
    edges += d->parts[k]->n_edges;
  }
  if (!d->typed) {
    if ((rc = check_book(d)) != FO_OK) return rc;
  } else {
    /* a book per node type; the edges of every edge type once over the parts' CSCs */
    for (int32_t t = 0; t < d->n_ntypes; t++)
      if ((rc = check_book(d->ntypes[t].view)) != FO_OK)
        return fo__context(rc, "node type '%s'", d->ntypes[t].name);
    /* labels-only types: every supervision edge once, in its anchor's part */
    for (int32_t i = 0; i < d->n_ltypes && d->only_part < 0; i++) {
      const int32_t et = d->n_etypes + i;
      int64_t m = 0;
      for (int k = 0; k < d->n_parts; k++) m += d->parts[k]->etypes[et].view->n_edges;
      if (m != d->etypes[et].view->n_edges)
        return FO_FAIL(FO_EFORMAT, "labels-only edge type '%s': the parts hold %lld edges, the "
                       "dataset has %lld", d->etypes[et].name, (long long)m,
                       (long long)d->etypes[et].view->n_edges);
    }
    for (int32_t et = 0; et < d->n_etypes && d->only_part < 0; et++) {
      int64_t m = 0;
      for (int k = 0; k < d->n_parts; k++) m += d->parts[k]->etypes[et].view->n_edges;
      if (m != d->etypes[et].view->n_edges)
        return FO_FAIL(FO_EFORMAT, "edge type '%s': the parts hold %lld edges, the graph has %lld",
                       d->etypes[et].name, (long long)m, (long long)d->etypes[et].view->n_edges);
    }
  }
  if (d->only_part >= 0) return FO_OK; /* the totals need every part */
  if (edges != d->n_edges)
    return FO_FAIL(FO_EFORMAT, "the parts hold %lld edges, the graph has %lld", (long long)edges,
                   (long long)d->n_edges);
  return FO_OK;
}

/* Topology and node data of one dataset or type view. */
static int verify_one(const fo_dataset_t *d) {
  int rc;
  for (int dir = 0; dir < 2; dir++)
    if (d->has_topo[dir] && (rc = check_topology(d, &d->topo[dir])) != FO_OK) return rc;
  if (d->has_topo[0] && d->has_topo[1] &&
      (rc = check_same_edges(&d->topo[FO_EDGE_DIR_IN], &d->topo[FO_EDGE_DIR_OUT])) != FO_OK)
    return rc;
  return check_node_data(d);
}

int fo__dataset_check_structure(const fo_dataset_t *d) {
  int rc;
  if (!d->typed) return verify_one(d);
  for (int32_t t = 0; t < d->n_etypes + d->n_ltypes; t++) /* labels-only types too */
    if ((rc = verify_one(d->etypes[t].view)) != FO_OK)
      return fo__context(rc, "verify '%s': edge type '%s'", d->path, d->etypes[t].name);
  for (int32_t t = 0; t < d->n_ntypes; t++)
    if ((rc = verify_one(d->ntypes[t].view)) != FO_OK)
      return fo__context(rc, "verify '%s': node type '%s'", d->path, d->ntypes[t].name);
  return FO_OK;
}

/* Bytes of all arrays of d and its opened parts, for the progress bar. */
static uint64_t total_bytes(const fo_dataset_t *d) {
  uint64_t t = 0;
  for (int64_t i = 0; i < d->n_arrays; i++) t += (uint64_t)d->arrays[i].nbytes;
  for (int k = 0; k < d->n_parts; k++)
    if (d->parts[k]) t += total_bytes(d->parts[k]);
  return t;
}

static int verify(const fo_dataset_t *d, vctx *c) {
  int rc;
  for (int64_t i = 0; i < d->n_arrays; i++) {
    const fo__array *a = &d->arrays[i];
    uint64_t h = fo__xxh64(a->data, (size_t)a->nbytes);
    if (h != a->xxh64)
      return fo__context(FO_FAIL(FO_EFORMAT, "%s: xxh64 %016llx, manifest says %016llx", a->file,
                                 (unsigned long long)h, (unsigned long long)a->xxh64),
                         "verify '%s'", d->path);
    c->done += (uint64_t)a->nbytes;
    fo__progress_update(&c->prog, c->done);
    if (c->o->cancel && *c->o->cancel)
      return fo__context(FO_FAIL(FO_ECANCELED, "interrupted"), "verify '%s'", d->path);
  }
  if ((rc = fo__dataset_check_structure(d)) != FO_OK) {
    if (d->typed) return rc; /* the message names the type */
    return fo__context(rc, "verify '%s'", d->path);
  }
  if (d->n_parts && (rc = check_partitioned(d, c)) != FO_OK) return fo__context(rc, "verify '%s'", d->path);
  return FO_OK;
}

void fo_verify_opts_init(fo_verify_opts *o) { memset(o, 0, sizeof *o); }

int fo_dataset_verify_with(const fo_dataset_t *d, const fo_verify_opts *o) {
  fo_verify_opts defaults;
  vctx c;
  int rc;
  if (!d) return FO_FAIL(FO_EINVAL, "verify: dataset is NULL");
  if (!o) {
    fo_verify_opts_init(&defaults);
    o = &defaults;
  }
  memset(&c, 0, sizeof c);
  c.o = o;
  fo__progress_start(&c.prog, o->progress, "verify", total_bytes(d));
  rc = verify(d, &c);
  fo__progress_end(&c.prog);
  return rc;
}

int fo_dataset_verify(const fo_dataset_t *d) { return fo_dataset_verify_with(d, NULL); }
