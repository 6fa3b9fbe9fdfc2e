/*
 * io/build.c: from an edge list to a dataset directory.
 *
 * Steps, in this order (each optional step as fo_import_opts says):
 *  1. relabel: the distinct ids, sorted ascending, become 0..n-1 (node_orig keeps the old ids);
 *  2. n: the given num_nodes, or max id + 1 (string ids: their count);
 *  3. remove self loops;
 *  4. undirected: append (dst, src) for every edge, with original position n_input + i;
 *  5. dedup (implied by undirected): of equal (src, dst) pairs keep the first in list order;
 *  6. CSC: a stable counting sort by dst, so column v lists v's in-neighbors in list order;
 *     the CSC position of an edge is its edge id, and edge_orig maps it to its original
 *     position (written only when some edge id differs from its original position);
 *  7. CSR: a stable counting sort by src, with csr_eid mapping CSR positions to edge ids
 *     (when the CSC is not stored, CSR positions are the edge ids instead).
 * Then every array is written through the atomic writer (store/writer.c).
 *
 * Steps 3-7 are also the typed import's (typed.c), once per edge type on a bipartite
 * (n_src, n_dst) list: fo__edges_prepare (3-5), fo__topology_build and fo__topology_write (6-7,
 * arrays named with the edge type's prefix "e<k>.").
 */
#include "io/io_internal.h"
#include "store/store_internal.h"

typedef fo__edge_set edge_set;

/* Cancellation: every loop over nodes or edges polls the flag once per POLL iterations (a few
 * milliseconds of work), so that Ctrl-C stops an import within a fraction of a second
 * whatever its size; no step runs an uninterruptible library sort over the edges. */
#define POLL ((int64_t)1 << 18)
static inline bool stopped(const volatile int *cancel, int64_t i) {
  return (i & (POLL - 1)) == 0 && cancel && *cancel;
}
static int interrupted(void) { return FO_FAIL(FO_ECANCELED, "import interrupted"); }
#define POLL_OR_STOP(cancel, i)                                                               \
  do {                                                                                        \
    if (stopped((cancel), (i))) {                                                             \
      rc = interrupted();                                                                     \
      goto out;                                                                               \
    }                                                                                         \
  } while (0)

/* Sort a[n] ascending (LSD radix sort, 16 bits per pass, the sign bit flipped so negative ids
 * sort first), polling `cancel`; tmp[n] is scratch. */
static int radix_sort_i64(int64_t *a, int64_t *tmp, int64_t n, const volatile int *cancel) {
  int64_t *cnt = fo__malloc_n(65537, sizeof *cnt), *src = a, *dst = tmp;
  if (!cnt) return FO_FAIL(FO_ENOMEM, "sort scratch");
  for (int pass = 0; pass < 4; pass++) {
    const int sh = 16 * pass;
    memset(cnt, 0, 65537 * sizeof *cnt);
    for (int64_t i = 0; i < n; i++) {
      if (stopped(cancel, i)) {
        free(cnt);
        return interrupted();
      }
      cnt[((uint64_t)src[i] ^ (UINT64_C(1) << 63)) >> sh & 0xffff]++;
    }
    {
      int64_t acc = 0;
      bool one = false;
      for (int b = 0; b < 65536; b++) {
        int64_t c = cnt[b];
        if (c == n) one = true;
        cnt[b] = acc;
        acc += c;
      }
      if (one) continue;
    }
    for (int64_t i = 0; i < n; i++) {
      if (stopped(cancel, i)) {
        free(cnt);
        return interrupted();
      }
      dst[cnt[((uint64_t)src[i] ^ (UINT64_C(1) << 63)) >> sh & 0xffff]++] = src[i];
    }
    {
      int64_t *t = src;
      src = dst;
      dst = t;
    }
  }
  if (src != a) memcpy(a, src, (size_t)n * sizeof *a);
  free(cnt);
  return FO_OK;
}


/* Binary search of v in sorted ids[n]. */
static int64_t find_sorted(const int64_t *ids, int64_t n, int64_t v) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (ids[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Step 1: map ids to ranks among the sorted distinct ids. */
static int relabel(edge_set *es, int64_t **orig_out, int64_t *n_out) {
  int64_t *ids, *tmp, k = 0;
  int rc;
  *orig_out = NULL;
  if (es->m > INT64_MAX / 2 || !(ids = fo__malloc_n(2 * es->m, sizeof *ids)))
    return FO_FAIL(FO_ENOMEM, "relabel: %lld ids", (long long)(2 * es->m));
  if (!(tmp = fo__malloc_n(2 * es->m, sizeof *tmp))) {
    free(ids);
    return FO_FAIL(FO_ENOMEM, "relabel: %lld ids", (long long)(2 * es->m));
  }
  memcpy(ids, es->src, (size_t)es->m * sizeof *ids);
  memcpy(ids + es->m, es->dst, (size_t)es->m * sizeof *ids);
  rc = radix_sort_i64(ids, tmp, 2 * es->m, es->cancel);
  free(tmp);
  if (rc != FO_OK) {
    free(ids);
    return rc;
  }
  for (int64_t i = 0; i < 2 * es->m; i++)
    if (i == 0 || ids[i] != ids[k - 1]) ids[k++] = ids[i];
  for (int64_t i = 0; i < es->m; i++) {
    if (stopped(es->cancel, i)) {
      free(ids);
      return interrupted();
    }
    es->src[i] = find_sorted(ids, k, es->src[i]);
    es->dst[i] = find_sorted(ids, k, es->dst[i]);
  }
  *orig_out = ids;
  *n_out = k;
  return FO_OK;
}

/* Stable counting sort of edges by key[] in [0, n): out_pos[i] = new position of edge i;
 * ptr[n+1] receives the offsets (indptr). Edges with equal keys are placed in the order
 * `order` visits them (NULL: list order). */
static int counting_sort_in(const int64_t *key, int64_t m, int64_t n, int64_t *ptr, int64_t *out_pos,
                            const int64_t *order, const volatile int *cancel);
static int counting_sort(const int64_t *key, int64_t m, int64_t n, int64_t *ptr, int64_t *out_pos,
                         const volatile int *cancel) {
  return counting_sort_in(key, m, n, ptr, out_pos, NULL, cancel);
}
static int counting_sort_in(const int64_t *key, int64_t m, int64_t n, int64_t *ptr, int64_t *out_pos,
                            const int64_t *order, const volatile int *cancel) {
  memset(ptr, 0, (size_t)(n + 1) * sizeof *ptr);
  for (int64_t i = 0; i < m; i++) {
    if (stopped(cancel, i)) return interrupted();
    ptr[key[i] + 1]++;
  }
  for (int64_t v = 0; v < n; v++) ptr[v + 1] += ptr[v];
  {
    int64_t *next = fo__malloc_n(n, sizeof *next);
    if (!next) return FO_FAIL(FO_ENOMEM, "counting sort over %lld nodes", (long long)n);
    memcpy(next, ptr, (size_t)n * sizeof *next);
    for (int64_t j = 0; j < m; j++) {
      const int64_t i = order ? order[j] : j;
      if (stopped(cancel, j)) {
        free(next);
        return interrupted();
      }
      out_pos[i] = next[key[i]]++;
    }
    free(next);
  }
  return FO_OK;
}

/* Step 5: drop repeated (src, dst), keeping the first in list order. Two stable counting
 * sorts (by src, then by dst) put the edges in (dst, src) order with list order among equal
 * pairs, so every repeat follows its first occurrence: O(n + m), polling the cancel flag. */
/* (n_src, n_dst: the id ranges of sources and targets; equal for one node type) */
static int dedup(edge_set *es, int64_t n_src, int64_t n, int64_t *removed) {
  int64_t m = es->m, *ptr = NULL, *pos = NULL, *by_src = NULL, *order = NULL, w = 0;
  uint8_t *dup = NULL;
  int rc = FO_OK;
  *removed = 0;
  ptr = fo__malloc_n((n_src > n ? n_src : n) + 1, sizeof *ptr);
  pos = fo__malloc_n(m, sizeof *pos);
  by_src = fo__malloc_n(m, sizeof *by_src);
  order = fo__malloc_n(m, sizeof *order);
  dup = fo__calloc_n(m, 1);
  if (!ptr || !pos || !by_src || !order || !dup) {
    rc = FO_FAIL(FO_ENOMEM, "dedup of %lld edges", (long long)m);
    goto out;
  }
  if ((rc = counting_sort(es->src, m, n_src, ptr, pos, es->cancel)) != FO_OK) goto out;
  for (int64_t i = 0; i < m; i++) {
    POLL_OR_STOP(es->cancel, i);
    by_src[pos[i]] = i;
  }
  /* stable by dst over the src order: order[] = edges by (dst, src, list position) */
  memset(ptr, 0, (size_t)(n + 1) * sizeof *ptr);
  for (int64_t i = 0; i < m; i++) {
    POLL_OR_STOP(es->cancel, i);
    ptr[es->dst[i] + 1]++;
  }
  for (int64_t v = 0; v < n; v++) {
    POLL_OR_STOP(es->cancel, v);
    ptr[v + 1] += ptr[v];
  }
  for (int64_t j = 0; j < m; j++) {
    const int64_t e = by_src[j];
    if (stopped(es->cancel, j)) {
      rc = interrupted();
      goto out;
    }
    order[ptr[es->dst[e]]++] = e;
  }
  for (int64_t j = 1; j < m; j++) {
    POLL_OR_STOP(es->cancel, j);
    const int64_t e = order[j], f = order[j - 1];
    if (es->dst[e] == es->dst[f] && es->src[e] == es->src[f]) dup[e] = 1;
  }
  for (int64_t i = 0; i < m; i++) {
    POLL_OR_STOP(es->cancel, i);
    if (dup[i]) continue;
    es->src[w] = es->src[i];
    es->dst[w] = es->dst[i];
    es->orig[w] = es->orig[i];
    w++;
  }
  *removed = m - w;
  es->m = w;
out:
  free(ptr);
  free(pos);
  free(by_src);
  free(order);
  free(dup);
  return rc;
}

static int width_for(fo_index_dtype dt, int64_t max_value, const char *what, int *width) {
  if (dt == FO_INDEX_INT64) {
    *width = 8;
  } else if (max_value <= INT32_MAX) {
    *width = 4;
  } else if (dt == FO_INDEX_INT32) {
    return FO_FAIL(FO_ERANGE, "%s up to %lld do not fit in int32 (use --index-dtype int64)", what,
                   (long long)max_value);
  } else {
    *width = 8;
  }
  return FO_OK;
}

static json_t *report_json(const fo_import_report *r) {
  return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "num_nodes", (json_int_t)r->n_nodes,
                   "num_edges", (json_int_t)r->n_edges, "input_edges", (json_int_t)r->n_input_edges,
                   "self_loops_removed", (json_int_t)r->n_self_loops_removed, "reverse_added",
                   (json_int_t)r->n_reverse_added, "duplicates_removed",
                   (json_int_t)r->n_duplicates_removed, "unknown_nodes", (json_int_t)r->n_unknown_nodes,
                   "unknown_edges_dropped", (json_int_t)r->n_unknown_edges_dropped, "isolated_nodes",
                   (json_int_t)r->n_isolated);
}

/* Write the string ids as offsets + bytes: "<prefix>node_orig_offsets" int64 [n + 1] and
 * "<prefix>node_orig_bytes" uint8 [total], id v being bytes [offsets[v], offsets[v + 1]) (no
 * padding: one long id does not make every id that long; docs/FORMAT.md); string v is
 * which[v] of sm (which NULL: v). Sets obj's "node_orig" to {"offsets": ..., "bytes": ...}. */
int fo__write_string_ids(fo__writer *w, json_t *obj, const char *prefix, const fo__strmap *sm,
                         const int64_t *which, int64_t n) {
  int64_t *off, total = 0, have = fo__strmap_count(sm);
  char *buf, ao[96], ab[96];
  int rc;
  if (!(off = fo__malloc_n(n + 1, sizeof *off))) return FO_FAIL(FO_ENOMEM, "node_orig offsets");
  off[0] = 0;
  for (int64_t i = 0; i < n; i++) {
    size_t len = 0;
    if (which || i < have) fo__strmap_str(sm, which ? which[i] : i, &len);
    total += (int64_t)len;
    off[i + 1] = total;
  }
  if (!(buf = fo__malloc_n(total, 1))) {
    free(off);
    return FO_FAIL(FO_ENOMEM, "node_orig strings (%lld bytes)", (long long)total);
  }
  for (int64_t i = 0; i < n && (which || i < have); i++) {
    size_t len;
    const char *str = fo__strmap_str(sm, which ? which[i] : i, &len);
    memcpy(buf + off[i], str, len);
  }
  snprintf(ao, sizeof ao, "%snode_orig_offsets", prefix);
  snprintf(ab, sizeof ab, "%snode_orig_bytes", prefix);
  if ((rc = fo__writer_add_i64(w, ao, 8, off, n + 1)) == FO_OK &&
      (rc = fo__writer_add(w, ab, "|u1", 1, &total, buf)) == FO_OK)
    json_object_set_new(obj, "node_orig", json_pack("{s:s, s:s}", "offsets", ao, "bytes", ab));
  free(buf);
  free(off);
  return rc;
}

int fo__edges_take(fo__edges *e, bool undirected, const volatile int *cancel, fo__edge_set *es) {
  int64_t cap;
  int rc = FO_OK;
  memset(es, 0, sizeof *es);
  es->src = e->src;
  es->dst = e->dst;
  es->m = e->n;
  es->cancel = cancel;
  e->src = e->dst = NULL;
  e->n = e->cap = 0;
  if (undirected && es->m > INT64_MAX / 2) return FO_FAIL(FO_ERANGE, "too many edges");
  cap = undirected ? 2 * es->m : es->m;
  {
    int64_t *s2 = realloc(es->src, (size_t)(cap ? cap : 1) * sizeof *s2);
    if (s2) es->src = s2;
    int64_t *d2 = realloc(es->dst, (size_t)(cap ? cap : 1) * sizeof *d2);
    if (d2) es->dst = d2;
    es->orig = fo__malloc_n(cap, sizeof *es->orig);
    if (!s2 || !d2 || !es->orig) return FO_FAIL(FO_ENOMEM, "edge list of %lld edges", (long long)cap);
  }
  for (int64_t i = 0; i < es->m; i++) {
    POLL_OR_STOP(cancel, i);
    es->orig[i] = i;
  }
out:
  return rc;
}

void fo__edge_set_free(fo__edge_set *es) {
  free(es->src);
  free(es->dst);
  free(es->orig);
  memset(es, 0, sizeof *es);
}

int fo__edges_prepare(fo__edge_set *es, int64_t m_input, int64_t n_src, int64_t n_dst,
                      bool self_loops, bool undirected, bool dedup_edges, fo_import_report *r) {
  int rc = FO_OK;
  /* 3: self loops */
  if (self_loops) {
    int64_t k = 0;
    for (int64_t i = 0; i < es->m; i++) {
      POLL_OR_STOP(es->cancel, i);
      if (es->src[i] == es->dst[i]) continue;
      es->src[k] = es->src[i];
      es->dst[k] = es->dst[i];
      es->orig[k] = es->orig[i];
      k++;
    }
    r->n_self_loops_removed += es->m - k;
    es->m = k;
  }
  /* 4: reverse edges (the caller reserved 2 m) */
  if (undirected) {
    int64_t m0 = es->m;
    for (int64_t i = 0; i < m0; i++) {
      POLL_OR_STOP(es->cancel, i);
      es->src[m0 + i] = es->dst[i];
      es->dst[m0 + i] = es->src[i];
      es->orig[m0 + i] = m_input + es->orig[i];
    }
    es->m = 2 * m0;
    r->n_reverse_added += m0;
  }
  /* 5: duplicates */
  if (undirected || dedup_edges) {
    int64_t removed = 0;
    if ((rc = dedup(es, n_src, n_dst, &removed)) != FO_OK) return rc;
    r->n_duplicates_removed += removed;
  }
  if (es->cancel && *es->cancel) return interrupted();
out:
  return rc;
}

void fo__topology_free(fo__topology *t) {
  free(t->csc_ptr);
  free(t->csc_pos);
  free(t->csc_idx);
  free(t->csr_ptr);
  free(t->csr_pos);
  free(t->csr_idx);
  free(t->csr_eid);
  free(t->edge_orig);
  memset(t, 0, sizeof *t);
}

int fo__topology_widths(int64_t n_src, int64_t n_dst, int64_t m, const fo_import_opts *o,
                        int *iw, int *ew) {
  int rc;
  *iw = *ew = 8;
  if ((rc = width_for(o->index_dtype, (n_src > n_dst ? n_src : n_dst) - 1, "node ids", iw)) != FO_OK)
    return rc;
  return width_for(o->index_dtype, m - 1, "edge ids", ew);
}

/* ord[0..m): the edges stably sorted by nt[end[i]] (LSD radix, sign bit flipped). */
static int order_by_node_time(const int64_t *end, const int64_t *nt, int64_t m, int64_t *ord,
                              const volatile int *cancel) {
  int64_t *tmp = fo__malloc_n(m ? m : 1, sizeof *tmp), *cnt = fo__malloc_n(65537, sizeof *cnt);
  int64_t *a = ord, *b = tmp;
  int rc = FO_OK;
  if (!tmp || !cnt) {
    rc = FO_FAIL(FO_ENOMEM, "order of %lld edges by node time", (long long)m);
    goto out;
  }
  for (int64_t i = 0; i < m; i++) a[i] = i;
  for (int pass = 0; pass < 4; pass++) {
    const int sh = 16 * pass;
    int64_t acc = 0;
    bool one = false;
    memset(cnt, 0, 65537 * sizeof *cnt);
    for (int64_t i = 0; i < m; i++) {
      POLL_OR_STOP(cancel, i);
      cnt[((uint64_t)nt[end[a[i]]] ^ (UINT64_C(1) << 63)) >> sh & 0xffff]++;
    }
    for (int k = 0; k < 65536; k++) {
      int64_t c = cnt[k];
      if (c == m) one = true;
      cnt[k] = acc;
      acc += c;
    }
    if (one) continue;
    for (int64_t i = 0; i < m; i++) {
      POLL_OR_STOP(cancel, i);
      b[cnt[((uint64_t)nt[end[a[i]]] ^ (UINT64_C(1) << 63)) >> sh & 0xffff]++] = a[i];
    }
    {
      int64_t *x = a;
      a = b;
      b = x;
    }
  }
  if (a != ord) memcpy(ord, a, (size_t)m * sizeof *ord);
out:
  free(tmp);
  free(cnt);
  return rc;
}

/* One direction of a topology: rows keyed by `row` [m] (n_rows of them), neighbor `nbr`; with
 * node times of the neighbors (`nt_nbr`, node times and no edge times), each row ordered by
 * them (stable), through *ord (made on first use, [m], shared by both directions). Fills
 * *ptr [n_rows + 1], *pos [m] (each input edge's place) and *idx [m]; the caller frees them. */
static int one_direction(const int64_t *row, const int64_t *nbr, const int64_t *nt_nbr, int64_t m,
                         int64_t n_rows, int64_t **ptr, int64_t **pos, int64_t **idx, int64_t **ord,
                         const char *what, const fo_import_opts *o) {
  int rc;
  *ptr = fo__malloc_n(n_rows + 1, sizeof **ptr);
  *pos = fo__malloc_n(m, sizeof **pos);
  *idx = fo__malloc_n(m, sizeof **idx);
  if (!*ptr || !*pos || !*idx) return FO_FAIL(FO_ENOMEM, "%s of %lld edges", what, (long long)m);
  if (nt_nbr && !*ord && !(*ord = fo__malloc_n(m ? m : 1, sizeof **ord)))
    return FO_FAIL(FO_ENOMEM, "%s of %lld edges", what, (long long)m);
  if (nt_nbr && (rc = order_by_node_time(nbr, nt_nbr, m, *ord, o->cancel)) != FO_OK) return rc;
  if ((rc = counting_sort_in(row, m, n_rows, *ptr, *pos, nt_nbr ? *ord : NULL, o->cancel)) != FO_OK)
    return rc;
  for (int64_t i = 0; i < m; i++) {
    if (stopped(o->cancel, i)) return interrupted();
    (*idx)[(*pos)[i]] = nbr[i];
  }
  return FO_OK;
}

int fo__topology_build(const fo__edge_set *es, int64_t n_src, int64_t n_dst,
                       const fo_import_opts *o, fo__topology *t) {
  int64_t *ord = NULL;
  int rc;
  memset(t, 0, sizeof *t);
  t->n_src = n_src;
  t->n_dst = n_dst;
  t->m = es->m;
  t->csc = o->csc;
  if ((rc = fo__topology_widths(n_src, n_dst, es->m, o, &t->iw, &t->ew)) != FO_OK) return rc;
  /* 6: CSC (rows: targets, neighbors: sources) */
  if (o->csc && (rc = one_direction(es->dst, es->src, es->nt_src, es->m, n_dst, &t->csc_ptr, &t->csc_pos,
                                    &t->csc_idx, &ord, "CSC", o)) != FO_OK)
    goto out;
  if (o->cancel && *o->cancel) {
    rc = interrupted();
    goto out;
  }
  /* 7: CSR (rows: sources, neighbors: targets) */
  if (o->csr) {
    if ((rc = one_direction(es->src, es->dst, es->nt_dst, es->m, n_src, &t->csr_ptr, &t->csr_pos,
                            &t->csr_idx, &ord, "CSR", o)) != FO_OK)
      goto out;
    if (o->csc) {
      if (!(t->csr_eid = fo__malloc_n(es->m, sizeof *t->csr_eid))) {
        rc = FO_FAIL(FO_ENOMEM, "csr_eid");
        goto out;
      }
      for (int64_t i = 0; i < es->m; i++) {
        POLL_OR_STOP(o->cancel, i);
        t->csr_eid[t->csr_pos[i]] = t->csc_pos[i];
      }
    }
  }
  if (o->cancel && *o->cancel) {
    rc = interrupted();
    goto out;
  }
  /* edge ids are positions in the primary direction; edge_orig maps them back */
  {
    const int64_t *id_pos = o->csc ? t->csc_pos : t->csr_pos;
    if (!(t->edge_orig = fo__malloc_n(es->m, sizeof *t->edge_orig))) {
      rc = FO_FAIL(FO_ENOMEM, "edge_orig");
      goto out;
    }
    for (int64_t i = 0; i < es->m; i++) {
      POLL_OR_STOP(o->cancel, i);
      t->edge_orig[id_pos[i]] = es->orig[i];
      if (id_pos[i] != es->orig[i]) t->need_orig = true;
    }
  }
  t->by_node_time = es->nt_src != NULL;
  t->csr_by_node_time = es->nt_dst != NULL;
  free(ord);
  return FO_OK;
out:
  free(ord);
  fo__topology_free(t);
  return rc;
}

/* "<prefix><what>" into buf. */
static const char *pname(char *buf, size_t cap, const char *prefix, const char *what) {
  snprintf(buf, cap, "%s%s", prefix, what);
  return buf;
}

/* The weights of one direction, aligned with its positions: position p holds edge id
 * ids ? ids[p] : p, whose input edge is edge_orig[id] (mod w_m_in: reverse edges of undirected
 * imports carry their edge's weight). Written as float32 or float64 (t->w_bytes) under `name`,
 * and each row's alias table (Walker 1977, Vose's construction) under `aname`, for the weighted
 * kernel's O(1) draws: int64 entry p = alias_offset << 32 | threshold, where a draw at row
 * offset j with a uniform 32-bit u keeps j if u < threshold and takes the row offset
 * alias_offset otherwise (offsets are relative to the row start). Entries of probability 1
 * alias themselves; zero-weight edges have threshold 0 and alias a positive edge; an all-zero
 * row is all zeros (entry 0 == 0 only then). */
static void alias_row(const double *w, int64_t deg, double *q, int64_t *small, int64_t *large,
                      int64_t *out) {
  double total = 0;
  int64_t ns = 0, nl = 0, any = -1;
  for (int64_t j = 0; j < deg; j++) {
    total += w[j];
    if (w[j] > 0) any = j;
  }
  if (any < 0) {
    for (int64_t j = 0; j < deg; j++) out[j] = 0;
    return;
  }
  for (int64_t j = 0; j < deg; j++) {
    q[j] = w[j] * (double)deg / total;
    if (q[j] < 1) small[ns++] = j;
    else large[nl++] = j;
  }
  while (ns && nl) {
    int64_t l = small[--ns], g = large[nl - 1];
    double th = q[l] * 4294967296.0;
    uint64_t t32 = th >= 4294967295.0 ? UINT64_C(4294967295) : (uint64_t)th;
    out[l] = (int64_t)((uint64_t)g << 32 | t32);
    q[g] = (q[g] + q[l]) - 1;
    if (q[g] < 1) {
      nl--;
      small[ns++] = g;
    }
  }
  /* what is left has probability 1 up to rounding: keep itself (zero weights: alias `any`) */
  while (nl) {
    int64_t g = large[--nl];
    out[g] = (int64_t)((uint64_t)g << 32 | UINT64_C(4294967295));
  }
  while (ns) {
    int64_t l = small[--ns];
    out[l] = w[l] > 0 ? (int64_t)((uint64_t)l << 32 | UINT64_C(4294967295)) : (int64_t)((uint64_t)any << 32);
  }
  for (int64_t j = 0; j < deg; j++)
    if (!(w[j] > 0) && (int64_t)((uint64_t)out[j] >> 32) == j) out[j] = (int64_t)((uint64_t)any << 32);
}

static int write_weights(const fo__topology *t, const int64_t *ptr, int64_t rows, const int64_t *ids,
                         const char *name, const char *aname, fo__writer *w) {
  const int64_t shape[1] = {t->m};
  void *buf = fo__malloc_n(t->m ? t->m : 1, (size_t)t->w_bytes);
  int64_t *alias = fo__malloc_n(t->m ? t->m : 1, sizeof *alias), maxdeg = 1;
  double *row = NULL, *q = NULL;
  int64_t *small = NULL, *large = NULL;
  int rc = FO_OK;
  for (int64_t r = 0; r < rows; r++)
    if (ptr[r + 1] - ptr[r] > maxdeg) maxdeg = ptr[r + 1] - ptr[r];
  if (maxdeg >= ((int64_t)1 << 31)) {
    rc = FO_FAIL(FO_ERANGE, "%s: a row of %lld edges is too long for edge weights (2^31 - 1 at "
                 "most)", name, (long long)maxdeg);
    goto out;
  }
  row = fo__malloc_n(maxdeg, sizeof *row);
  q = fo__malloc_n(maxdeg, sizeof *q);
  small = fo__malloc_n(maxdeg, sizeof *small);
  large = fo__malloc_n(maxdeg, sizeof *large);
  if (!buf || !alias || !row || !q || !small || !large) {
    rc = FO_FAIL(FO_ENOMEM, "%s: %lld weights", name, (long long)t->m);
    goto out;
  }
  for (int64_t p = 0; p < t->m; p++) {
    int64_t id = ids ? ids[p] : p, in = t->edge_orig[id];
    double x = t->w_in[in >= t->w_m_in ? in - t->w_m_in : in];
    if (t->w_bytes == 4) ((float *)buf)[p] = (float)x;
    else ((double *)buf)[p] = x;
  }
  for (int64_t r = 0; r < rows; r++) {
    const int64_t a = ptr[r], deg = ptr[r + 1] - a;
    for (int64_t j = 0; j < deg; j++)
      row[j] = t->w_bytes == 4 ? (double)((float *)buf)[a + j] : ((double *)buf)[a + j];
    alias_row(row, deg, q, small, large, alias + a);
  }
  rc = fo__writer_add(w, name, t->w_bytes == 4 ? "<f4" : "<f8", 1, shape, buf);
  if (rc == FO_OK) rc = fo__writer_add(w, aname, "<i8", 1, shape, alias);
out:
  free(buf);
  free(alias);
  free(row);
  free(q);
  free(small);
  free(large);
  return rc;
}

/* The times of one direction, aligned with its positions (as write_weights): int64 `name`. */
static int write_times(const fo__topology *t, const int64_t *ids, const char *name, fo__writer *w) {
  int64_t *buf = fo__malloc_n(t->m ? t->m : 1, sizeof *buf);
  int rc;
  if (!buf) return FO_FAIL(FO_ENOMEM, "%s: %lld times", name, (long long)t->m);
  for (int64_t p = 0; p < t->m; p++) {
    int64_t id = ids ? ids[p] : p, in = t->edge_orig[id];
    buf[p] = t->t_in[in >= t->t_m_in ? in - t->t_m_in : in];
  }
  rc = fo__writer_add_i64(w, name, 8, buf, t->m);
  free(buf);
  return rc;
}

int fo__edges_sort_by_time(fo__edge_set *es, const int64_t *t_in, int64_t m_input) {
  const int64_t m = es->m;
  int64_t *key = fo__malloc_n(m ? m : 1, sizeof *key), *tmp = fo__malloc_n(m ? m : 1, sizeof *tmp);
  int64_t *ord = fo__malloc_n(m ? m : 1, sizeof *ord), *ord2 = fo__malloc_n(m ? m : 1, sizeof *ord2);
  int64_t *cnt = fo__malloc_n(65537, sizeof *cnt);
  int rc = FO_OK;
  if (!key || !tmp || !ord || !ord2 || !cnt) {
    rc = FO_FAIL(FO_ENOMEM, "sort of %lld edges by time", (long long)m);
    goto out;
  }
  for (int64_t i = 0; i < m; i++) {
    const int64_t in = es->orig[i];
    POLL_OR_STOP(es->cancel, i);
    key[i] = t_in[in >= m_input ? in - m_input : in];
    ord[i] = i;
  }
  /* LSD radix sort of positions by key (sign bit flipped), 16 bits per pass: stable */
  for (int pass = 0; pass < 4; pass++) {
    const int sh = 16 * pass;
    int64_t acc = 0;
    bool one = false;
    memset(cnt, 0, 65537 * sizeof *cnt);
    for (int64_t i = 0; i < m; i++) {
      POLL_OR_STOP(es->cancel, i);
      cnt[((uint64_t)key[ord[i]] ^ (UINT64_C(1) << 63)) >> sh & 0xffff]++;
    }
    for (int b = 0; b < 65536; b++) {
      int64_t c = cnt[b];
      if (c == m) one = true;
      cnt[b] = acc;
      acc += c;
    }
    if (one) continue;
    for (int64_t i = 0; i < m; i++) {
      POLL_OR_STOP(es->cancel, i);
      ord2[cnt[((uint64_t)key[ord[i]] ^ (UINT64_C(1) << 63)) >> sh & 0xffff]++] = ord[i];
    }
    {
      int64_t *x = ord;
      ord = ord2;
      ord2 = x;
    }
  }
  /* apply the order to src, dst, orig */
  for (int a = 0; a < 3; a++) {
    int64_t *v = a == 0 ? es->src : a == 1 ? es->dst : es->orig;
    for (int64_t i = 0; i < m; i++) tmp[i] = v[ord[i]];
    memcpy(v, tmp, (size_t)m * sizeof *v);
  }
out:
  free(key);
  free(tmp);
  free(ord);
  free(ord2);
  free(cnt);
  return rc;
}

int fo__topology_write(const fo__topology *t, const fo_import_opts *o, const char *prefix,
                       fo__writer *w, json_t *obj) {
  char a[96], b[96], c[96];
  json_t *topo = json_object();
  int rc = FO_OK;
  json_object_set_new(obj, "topology", topo);
  json_object_set_new(obj, "edge_ids", json_string(t->csc ? "csc" : "csr"));
  if (t->csc_ptr) {
    pname(a, sizeof a, prefix, "csc_indptr");
    pname(b, sizeof b, prefix, "csc_indices");
    json_t *j = json_pack("{s:s, s:s}", "indptr", a, "indices", b);
    json_object_set_new(topo, "csc", j);
    if (t->by_node_time) json_object_set_new(j, "row_order", json_string("node_time"));
    if ((rc = fo__writer_add_i64(w, a, 8, t->csc_ptr, t->n_dst + 1)) != FO_OK ||
        (rc = fo__writer_add_i64(w, b, t->iw, t->csc_idx, t->m)) != FO_OK)
      return rc;
    if (t->w_in) {
      /* CSC positions are the edge ids */
      pname(c, sizeof c, prefix, "csc_weight");
      pname(a, sizeof a, prefix, "csc_weight_alias");
      json_object_set_new(j, "weight", json_string(c));
      json_object_set_new(j, "weight_alias", json_string(a));
      if ((rc = write_weights(t, t->csc_ptr, t->n_dst, NULL, c, a, w)) != FO_OK) return rc;
    }
    if (t->t_in) {
      pname(c, sizeof c, prefix, "csc_time");
      json_object_set_new(j, "time", json_string(c));
      if ((rc = write_times(t, NULL, c, w)) != FO_OK) return rc;
    }
  }
  if (t->csr_ptr) {
    json_t *j;
    pname(a, sizeof a, prefix, "csr_indptr");
    pname(b, sizeof b, prefix, "csr_indices");
    pname(c, sizeof c, prefix, "csr_eid");
    j = json_pack("{s:s, s:s}", "indptr", a, "indices", b);
    if (t->csr_eid) json_object_set_new(j, "eid", json_string(c));
    if (t->csr_by_node_time) json_object_set_new(j, "row_order", json_string("node_time"));
    json_object_set_new(topo, "csr", j);
    if ((rc = fo__writer_add_i64(w, a, 8, t->csr_ptr, t->n_src + 1)) != FO_OK ||
        (rc = fo__writer_add_i64(w, b, t->iw, t->csr_idx, t->m)) != FO_OK ||
        (t->csr_eid && (rc = fo__writer_add_i64(w, c, t->ew, t->csr_eid, t->m)) != FO_OK))
      return rc;
    if (t->w_in) {
      pname(a, sizeof a, prefix, "csr_weight");
      pname(b, sizeof b, prefix, "csr_weight_alias");
      json_object_set_new(j, "weight", json_string(a));
      json_object_set_new(j, "weight_alias", json_string(b));
      if ((rc = write_weights(t, t->csr_ptr, t->n_src, t->csr_eid, a, b, w)) != FO_OK) return rc;
    }
    if (t->t_in) {
      pname(a, sizeof a, prefix, "csr_time");
      json_object_set_new(j, "time", json_string(a));
      if ((rc = write_times(t, t->csr_eid, a, w)) != FO_OK) return rc;
    }
  }
  if (t->need_orig) {
    int ow = 8;
    int64_t maxo = 0;
    for (int64_t i = 0; i < t->m; i++) {
      POLL_OR_STOP(o->cancel, i);
      if (t->edge_orig[i] > maxo) maxo = t->edge_orig[i];
    }
    pname(a, sizeof a, prefix, "edge_orig");
    if ((rc = width_for(o->index_dtype == FO_INDEX_INT32 ? FO_INDEX_AUTO : o->index_dtype, maxo,
                        "edge positions", &ow)) != FO_OK ||
        (rc = fo__writer_add_i64(w, a, ow, t->edge_orig, t->m)) != FO_OK)
      return rc;
    json_object_set_new(obj, "edge_orig", json_string(a));
  }
out:
  return rc;
}

json_t *fo__report_json(const fo_import_report *r) { return report_json(r); }

int fo__build_dataset(fo__graph_input *in, const char *out_dir, const fo_import_opts *o,
                      fo_import_report *rep) {
  edge_set es = {0};
  int64_t n = in->n_nodes, m_input = in->edges.n, *orig_ids = NULL;
  int64_t *out_deg = NULL, *in_deg = NULL;
  fo__topology t;
  fo__writer *w = NULL;
  json_t *man;
  int rc = FO_OK, iw = 8;
  fo_import_report r;

  memset(&r, 0, sizeof r);
  memset(&t, 0, sizeof t);
  r.n_input_edges = m_input;
  r.n_unknown_nodes = in->n_unknown_nodes;
  r.n_unknown_edges_dropped = in->n_unknown_edges_dropped;
  if (!o->csc && !o->csr) return FO_FAIL(FO_EINVAL, "neither --csc nor --csr: nothing to store");

  /* Take over the parser's edge arrays; orig positions start as the identity. */
  if ((rc = fo__edges_take(&in->edges, o->undirected, o->cancel, &es)) != FO_OK) goto out;

  /* 1-2: ids and n */
  if (o->relabel && !in->orig_str) {
    if ((rc = relabel(&es, &orig_ids, &n)) != FO_OK) goto out;
  } else if (n < 0) {
    n = in->orig_str ? fo__strmap_count(in->orig_str) : 0;
    for (int64_t i = 0; i < es.m; i++) {
      POLL_OR_STOP(o->cancel, i);
      if (es.src[i] >= n) n = es.src[i] + 1;
      if (es.dst[i] >= n) n = es.dst[i] + 1;
    }
  }
  if (o->num_nodes >= 0 && !o->relabel) {
    if (n > o->num_nodes) {
      rc = FO_FAIL(FO_ERANGE, "node id %lld is >= --num-nodes %lld", (long long)(n - 1),
                   (long long)o->num_nodes);
      goto out;
    }
    n = o->num_nodes;
  }
  if (n >= INT64_MAX - 1) {
    rc = FO_FAIL(FO_ERANGE, "node id %lld is too large", (long long)n);
    goto out;
  }
  /* A stray huge id would make every per-node array enormous: ask for intent. */
  if (o->num_nodes < 0 && !o->relabel && !in->orig_str && n > ((int64_t)1 << 24) &&
      n / 64 > m_input + 1) {
    rc = FO_FAIL(FO_ERANGE, "the largest node id %lld implies %lld nodes for %lld edges: use "
                 "--relabel to number sparse ids densely, or --num-nodes %lld to confirm",
                 (long long)(n - 1), (long long)n, (long long)m_input, (long long)n);
    goto out;
  }

  /* What the per-node and per-edge arrays below will take, checked against the memory the
   * machine has (a huge --num-nodes or id is FO_ENOMEM with the size, not the OOM killer). */
  if ((rc = width_for(o->index_dtype, n - 1, "node ids", &iw)) != FO_OK) goto out;
  {
    const double nn = (double)n + 1, mm = (double)es.m * (o->undirected ? 2.0 : 1.0);
    const double need = 16 * nn + (double)(o->csc + o->csr) * (8 * nn + 16 * mm) +
                        (o->csc && o->csr ? 8 * mm : 0) + 8 * mm;
    if (need > 1.8e19 ||
        (rc = fo__mem_check((uint64_t)need, "storing them")) != FO_OK) {
      if (need > 1.8e19) rc = FO_FAIL(FO_ENOMEM, "storing them needs %.3g bytes", need);
      rc = fo__context(rc, "%lld nodes and %lld edges", (long long)n, (long long)es.m);
      goto out;
    }
  }
  if (o->cancel && *o->cancel) {
    rc = interrupted();
    goto out;
  }
  /* 3-5: self loops, reverse edges, duplicates */
  if ((rc = fo__edges_prepare(&es, m_input, n, n, o->remove_self_loops, o->undirected,
                              o->dedup, &r)) != FO_OK)
    goto out;
  /* edge times: every row sorted by time (the counting sorts below are stable); node times
   * without edge times: every row sorted by its neighbors' node times (CSC by source, CSR by
   * target), for node-time temporal sampling by binary search */
  if (in->time && (rc = fo__edges_sort_by_time(&es, in->time, m_input)) != FO_OK) goto out;
  if (!in->time && in->node.t && in->node.t_rows == n) es.nt_src = es.nt_dst = in->node.t;

  /* 6-7: CSC and CSR (each step below polls the cancel flag; so does the writer) */
  {
    int ew;
    if ((rc = fo__topology_widths(n, n, es.m, o, &iw, &ew)) != FO_OK) goto out;
  }
  in_deg = fo__calloc_n(n, sizeof *in_deg);
  out_deg = fo__calloc_n(n, sizeof *out_deg);
  if (!in_deg || !out_deg) {
    rc = FO_FAIL(FO_ENOMEM, "degrees of %lld nodes", (long long)n);
    goto out;
  }
  for (int64_t i = 0; i < es.m; i++) {
    POLL_OR_STOP(o->cancel, i);
    in_deg[es.dst[i]]++;
    out_deg[es.src[i]]++;
  }
  for (int64_t v = 0; v < n; v++) {
    POLL_OR_STOP(o->cancel, v);
    r.n_isolated += !in_deg[v] && !out_deg[v];
  }
  if ((rc = fo__topology_build(&es, n, n, o, &t)) != FO_OK) goto out;
  if (in->weight) {
    t.w_in = in->weight;
    t.w_m_in = m_input;
    t.w_bytes = in->weight_bytes;
  }
  if (in->time) {
    t.t_in = in->time;
    t.t_m_in = m_input;
  }
  r.n_nodes = n;
  r.n_edges = es.m;

  /* write */
  if ((rc = fo__writer_begin(out_dir, o->force, &w)) != FO_OK) goto out;
  fo__writer_set_cancel(w, o->cancel);
  man = fo__writer_manifest(w);
  json_object_set_new(man, "num_nodes", json_integer(n));
  json_object_set_new(man, "num_edges", json_integer(es.m));
  if ((rc = fo__topology_write(&t, o, "", w, man)) != FO_OK) goto out;
  if (o->n_edge_splits) {
    unsigned char seen[FO_IMPORT_MAX_EDGE_SPLIT_TYPES] = {0};
    if ((rc = fo__edge_splits_write(o, NULL, true, &t, m_input, "", w, man, seen)) != FO_OK ||
        (rc = fo__edge_splits_unmatched(o, seen)) != FO_OK)
      goto out;
  }
  if (orig_ids) {
    if ((rc = fo__writer_add_i64(w, "node_orig", 8, orig_ids, n)) != FO_OK) goto out;
    json_object_set_new(man, "node_orig", json_string("node_orig"));
  } else if (in->orig_str) {
    if ((rc = fo__write_string_ids(w, man, "", in->orig_str, NULL, n)) != FO_OK) goto out;
  }
  if ((rc = fo__node_data_write(&in->node, n, o, w, man)) != FO_OK) goto out;
  if (in->provenance) {
    json_object_set_new(in->provenance, "report", report_json(&r));
    json_object_set(man, "provenance", in->provenance);
  }
  if (o->cancel && *o->cancel) {
    rc = FO_FAIL(FO_ECANCELED, "import interrupted");
    goto out;
  }
  rc = fo__writer_commit(w);
  w = NULL;
out:
  fo__writer_abort(w);
  fo__edge_set_free(&es);
  fo__topology_free(&t);
  free(orig_ids);
  free(in_deg);
  free(out_deg);
  if (rc == FO_OK && rep) *rep = r;
  return rc;
}
