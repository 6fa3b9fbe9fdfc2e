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
 */
#include "io/io_internal.h"
#include "store/store_internal.h"

typedef struct edge_set {
  int64_t *src, *dst, *orig; /* [m] */
  int64_t m;
  const volatile int *cancel; /* fo_import_opts.cancel */
} edge_set;

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
 * ptr[n+1] receives the offsets (indptr). */
static int counting_sort(const int64_t *key, int64_t m, int64_t n, int64_t *ptr, int64_t *out_pos,
                         const volatile int *cancel) {
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
    for (int64_t i = 0; i < m; i++) {
      if (stopped(cancel, i)) {
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
static int dedup(edge_set *es, int64_t n, int64_t *removed) {
  int64_t m = es->m, *ptr = NULL, *pos = NULL, *by_src = NULL, *order = NULL, w = 0;
  uint8_t *dup = NULL;
  int rc = FO_OK;
  *removed = 0;
  ptr = fo__malloc_n(n + 1, sizeof *ptr);
  pos = fo__malloc_n(m, sizeof *pos);
  by_src = fo__malloc_n(m, sizeof *by_src);
  order = fo__malloc_n(m, sizeof *order);
  dup = fo__calloc_n(m, 1);
  if (!ptr || !pos || !by_src || !order || !dup) {
    rc = FO_FAIL(FO_ENOMEM, "dedup of %lld edges", (long long)m);
    goto out;
  }
  if ((rc = counting_sort(es->src, m, n, ptr, pos, es->cancel)) != FO_OK) goto out;
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

/* Write the string ids as offsets + bytes: "node_orig_offsets" int64 [n + 1] and
 * "node_orig_bytes" uint8 [total], id v being bytes [offsets[v], offsets[v + 1]) (no padding:
 * one long id does not make every id that long; docs/FORMAT.md). Sets the manifest's
 * "node_orig" to {"offsets": ..., "bytes": ...}. */
static int write_string_ids(fo__writer *w, json_t *man, const fo__strmap *sm, int64_t n) {
  int64_t *off, total = 0, have = fo__strmap_count(sm);
  char *buf;
  int rc;
  if (!(off = fo__malloc_n(n + 1, sizeof *off))) return FO_FAIL(FO_ENOMEM, "node_orig offsets");
  off[0] = 0;
  for (int64_t i = 0; i < n; i++) {
    size_t len = 0;
    if (i < have) fo__strmap_str(sm, i, &len);
    total += (int64_t)len;
    off[i + 1] = total;
  }
  if (!(buf = fo__malloc_n(total, 1))) {
    free(off);
    return FO_FAIL(FO_ENOMEM, "node_orig strings (%lld bytes)", (long long)total);
  }
  for (int64_t i = 0; i < n && i < have; i++) {
    size_t len;
    const char *str = fo__strmap_str(sm, i, &len);
    memcpy(buf + off[i], str, len);
  }
  if ((rc = fo__writer_add_i64(w, "node_orig_offsets", 8, off, n + 1)) == FO_OK &&
      (rc = fo__writer_add(w, "node_orig_bytes", "|u1", 1, &total, buf)) == FO_OK)
    json_object_set_new(man, "node_orig", json_pack("{s:s, s:s}", "offsets", "node_orig_offsets",
                                                    "bytes", "node_orig_bytes"));
  free(buf);
  free(off);
  return rc;
}

int fo__build_dataset(fo__graph_input *in, const char *out_dir, const fo_import_opts *o,
                      fo_import_report *rep) {
  edge_set es = {0};
  int64_t n = in->n_nodes, m_input = in->edges.n, *orig_ids = NULL;
  int64_t *csc_ptr = NULL, *csc_pos = NULL, *csc_idx = NULL, *edge_orig = NULL;
  int64_t *csr_ptr = NULL, *csr_pos = NULL, *csr_idx = NULL, *csr_eid = NULL;
  int64_t *out_deg = NULL, *in_deg = NULL;
  fo__writer *w = NULL;
  json_t *man, *topo;
  int rc = FO_OK, iw = 8, ew = 8;
  bool need_orig = false;
  fo_import_report r;

  memset(&r, 0, sizeof r);
  r.n_input_edges = m_input;
  r.n_unknown_nodes = in->n_unknown_nodes;
  r.n_unknown_edges_dropped = in->n_unknown_edges_dropped;
  if (!o->csc && !o->csr) return FO_FAIL(FO_EINVAL, "neither --csc nor --csr: nothing to store");

  /* Take over the parser's edge arrays; orig positions start as the identity. */
  es.src = in->edges.src;
  es.dst = in->edges.dst;
  es.m = m_input;
  es.cancel = o->cancel;
  in->edges.src = in->edges.dst = NULL;
  in->edges.n = in->edges.cap = 0;
  if (o->undirected && es.m > INT64_MAX / 2) {
    rc = FO_FAIL(FO_ERANGE, "too many edges");
    goto out;
  }
  {
    int64_t cap = o->undirected ? 2 * es.m : es.m;
    int64_t *s2 = realloc(es.src, (size_t)(cap ? cap : 1) * sizeof *s2);
    if (s2) es.src = s2;
    int64_t *d2 = realloc(es.dst, (size_t)(cap ? cap : 1) * sizeof *d2);
    if (d2) es.dst = d2;
    es.orig = fo__malloc_n(cap, sizeof *es.orig);
    if (!s2 || !d2 || !es.orig) {
      rc = FO_FAIL(FO_ENOMEM, "edge list of %lld edges", (long long)cap);
      goto out;
    }
    for (int64_t i = 0; i < es.m; i++) {
      POLL_OR_STOP(o->cancel, i);
      es.orig[i] = i;
    }
  }

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
  /* 3: self loops */
  if (o->remove_self_loops) {
    int64_t k = 0;
    for (int64_t i = 0; i < es.m; i++) {
      POLL_OR_STOP(o->cancel, i);
      if (es.src[i] == es.dst[i]) continue;
      es.src[k] = es.src[i];
      es.dst[k] = es.dst[i];
      es.orig[k] = es.orig[i];
      k++;
    }
    r.n_self_loops_removed = es.m - k;
    es.m = k;
  }
  /* 4: reverse edges */
  if (o->undirected) {
    int64_t m0 = es.m;
    for (int64_t i = 0; i < m0; i++) {
      POLL_OR_STOP(o->cancel, i);
      es.src[m0 + i] = es.dst[i];
      es.dst[m0 + i] = es.src[i];
      es.orig[m0 + i] = m_input + es.orig[i];
    }
    es.m = 2 * m0;
    r.n_reverse_added = m0;
  }
  /* 5: duplicates */
  if (o->undirected || o->dedup) {
    if ((rc = dedup(&es, n, &r.n_duplicates_removed)) != FO_OK) goto out;
  }
  if (o->cancel && *o->cancel) {
    rc = FO_FAIL(FO_ECANCELED, "import interrupted");
    goto out;
  }

  /* 6-7: CSC and CSR (each step below polls the cancel flag; so does the writer) */
  if ((rc = width_for(o->index_dtype, n - 1, "node ids", &iw)) != FO_OK ||
      (rc = width_for(o->index_dtype, es.m - 1, "edge ids", &ew)) != FO_OK)
    goto out;
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
  if (o->csc) {
    csc_ptr = fo__malloc_n(n + 1, sizeof *csc_ptr);
    csc_pos = fo__malloc_n(es.m, sizeof *csc_pos);
    csc_idx = fo__malloc_n(es.m, sizeof *csc_idx);
    if (!csc_ptr || !csc_pos || !csc_idx) {
      rc = FO_FAIL(FO_ENOMEM, "CSC of %lld edges", (long long)es.m);
      goto out;
    }
    if ((rc = counting_sort(es.dst, es.m, n, csc_ptr, csc_pos, o->cancel)) != FO_OK) goto out;
    for (int64_t i = 0; i < es.m; i++) {
      POLL_OR_STOP(o->cancel, i);
      csc_idx[csc_pos[i]] = es.src[i];
    }
  }
  if (o->cancel && *o->cancel) {
    rc = interrupted();
    goto out;
  }
  if (o->csr) {
    csr_ptr = fo__malloc_n(n + 1, sizeof *csr_ptr);
    csr_pos = fo__malloc_n(es.m, sizeof *csr_pos);
    csr_idx = fo__malloc_n(es.m, sizeof *csr_idx);
    if (!csr_ptr || !csr_pos || !csr_idx) {
      rc = FO_FAIL(FO_ENOMEM, "CSR of %lld edges", (long long)es.m);
      goto out;
    }
    if ((rc = counting_sort(es.src, es.m, n, csr_ptr, csr_pos, o->cancel)) != FO_OK) goto out;
    for (int64_t i = 0; i < es.m; i++) {
      POLL_OR_STOP(o->cancel, i);
      csr_idx[csr_pos[i]] = es.dst[i];
    }
    if (o->csc) {
      if (!(csr_eid = fo__malloc_n(es.m, sizeof *csr_eid))) {
        rc = FO_FAIL(FO_ENOMEM, "csr_eid");
        goto out;
      }
      for (int64_t i = 0; i < es.m; i++) {
        POLL_OR_STOP(o->cancel, i);
        csr_eid[csr_pos[i]] = csc_pos[i];
      }
    }
  }
  if (o->cancel && *o->cancel) {
    rc = interrupted();
    goto out;
  }
  /* edge ids are positions in the primary direction; edge_orig maps them back */
  {
    const int64_t *id_pos = o->csc ? csc_pos : csr_pos;
    if (!(edge_orig = fo__malloc_n(es.m, sizeof *edge_orig))) {
      rc = FO_FAIL(FO_ENOMEM, "edge_orig");
      goto out;
    }
    for (int64_t i = 0; i < es.m; i++) {
      POLL_OR_STOP(o->cancel, i);
      edge_orig[id_pos[i]] = es.orig[i];
      if (id_pos[i] != es.orig[i]) need_orig = true;
    }
  }
  r.n_nodes = n;
  r.n_edges = es.m;

  /* write */
  if ((rc = fo__writer_begin(out_dir, o->force, &w)) != FO_OK) goto out;
  fo__writer_set_cancel(w, o->cancel);
  man = fo__writer_manifest(w);
  json_object_set_new(man, "num_nodes", json_integer(n));
  json_object_set_new(man, "num_edges", json_integer(es.m));
  topo = json_object();
  json_object_set_new(man, "topology", topo);
  json_object_set_new(man, "edge_ids", json_string(o->csc ? "csc" : "csr"));
  if (o->csc) {
    json_object_set_new(topo, "csc", json_pack("{s:s, s:s}", "indptr", "csc_indptr", "indices",
                                               "csc_indices"));
    if ((rc = fo__writer_add_i64(w, "csc_indptr", 8, csc_ptr, n + 1)) != FO_OK ||
        (rc = fo__writer_add_i64(w, "csc_indices", iw, csc_idx, es.m)) != FO_OK)
      goto out;
  }
  if (o->csr) {
    json_t *t = json_pack("{s:s, s:s}", "indptr", "csr_indptr", "indices", "csr_indices");
    if (csr_eid) json_object_set_new(t, "eid", json_string("csr_eid"));
    json_object_set_new(topo, "csr", t);
    if ((rc = fo__writer_add_i64(w, "csr_indptr", 8, csr_ptr, n + 1)) != FO_OK ||
        (rc = fo__writer_add_i64(w, "csr_indices", iw, csr_idx, es.m)) != FO_OK ||
        (csr_eid && (rc = fo__writer_add_i64(w, "csr_eid", ew, csr_eid, es.m)) != FO_OK))
      goto out;
  }
  if (need_orig) {
    int ow = 8;
    int64_t maxo = 0;
    for (int64_t i = 0; i < es.m; i++) {
      POLL_OR_STOP(o->cancel, i);
      if (edge_orig[i] > maxo) maxo = edge_orig[i];
    }
    if ((rc = width_for(o->index_dtype == FO_INDEX_INT32 ? FO_INDEX_AUTO : o->index_dtype, maxo,
                        "edge positions", &ow)) != FO_OK ||
        (rc = fo__writer_add_i64(w, "edge_orig", ow, edge_orig, es.m)) != FO_OK)
      goto out;
    json_object_set_new(man, "edge_orig", json_string("edge_orig"));
  }
  if (orig_ids) {
    if ((rc = fo__writer_add_i64(w, "node_orig", 8, orig_ids, n)) != FO_OK) goto out;
    json_object_set_new(man, "node_orig", json_string("node_orig"));
  } else if (in->orig_str) {
    if ((rc = write_string_ids(w, man, in->orig_str, n)) != FO_OK) goto out;
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
  free(es.src);
  free(es.dst);
  free(es.orig);
  free(orig_ids);
  free(csc_ptr);
  free(csc_pos);
  free(csc_idx);
  free(csr_ptr);
  free(csr_pos);
  free(csr_idx);
  free(csr_eid);
  free(edge_orig);
  free(in_deg);
  free(out_deg);
  if (rc == FO_OK && rep) *rep = r;
  return rc;
}
