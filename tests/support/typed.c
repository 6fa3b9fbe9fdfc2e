/*
 * tests/support/typed.c: typed (format version 2) test datasets written directly through the
 * store's writer, and the typed reference sampler.
 *
 * The writer here is deliberately independent of the importers: it builds each edge type's CSC
 * (stable by dst) and CSR (stable by src, with csr_eid) from an edge list in the obvious way, so
 * the reader and the sampler can be tested against datasets whose every array is known.
 *
 * The reference is the textbook loop of fo_sampler_sample_typed's specification: per hop, per
 * edge type in dataset order, per frontier node of the edge type's frontier type in order, the
 * node's own random stream (key with the edge type), linear-time id lookups per node type.
 */
#include "support.h"

#include "sample/sample_internal.h"
#include "store/store_internal.h"

static int64_t ld(const void *a, int bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

static void push(int64_t **a, int64_t n, int64_t v) {
  if ((n & (n - 1)) == 0) *a = realloc(*a, (size_t)(n ? 2 * n : 1) * sizeof **a);
  (*a)[n] = v;
}

/* Stable counting sort by key: ptr[n+1], perm[m] (perm[new position] = edge). */
static void sort_by(const int64_t *key, int64_t m, int64_t n, int64_t *ptr, int64_t *perm) {
  int64_t *next = calloc((size_t)n + 1, sizeof *next);
  memset(ptr, 0, (size_t)(n + 1) * sizeof *ptr);
  for (int64_t i = 0; i < m; i++) ptr[key[i] + 1]++;
  for (int64_t v = 0; v < n; v++) ptr[v + 1] += ptr[v];
  memcpy(next, ptr, (size_t)n * sizeof *next);
  for (int64_t i = 0; i < m; i++) perm[next[key[i]]++] = i;
  free(next);
}

char *fot_typed_dataset(const char *dir, const char *name, int n_nt, const char *const *nt_names,
                        const int64_t *nt_counts, int n_et, const fot_typed_et *ets, bool csc,
                        bool csr) {
  char *out = fot_path(dir, name);
  fo__writer *w;
  json_t *m, *jn, *je;
  int64_t sum_n = 0, sum_m = 0;
  assert_fo_ok(fo__writer_begin(out, true, &w));
  m = fo__writer_manifest(w);
  json_object_set_new(m, "format_version", json_integer(FO_FORMAT_VERSION_TYPED));
  jn = json_array();
  je = json_array();
  for (int t = 0; t < n_nt; t++) {
    json_t *o = json_object();
    char prefix[16];
    snprintf(prefix, sizeof prefix, "n%d", t);
    json_object_set_new(o, "name", json_string(nt_names[t]));
    json_object_set_new(o, "num_nodes", json_integer(nt_counts[t]));
    json_object_set_new(o, "prefix", json_string(prefix));
    {
      /* node data: x[v] = (t, v) float32 for every type; type 0 also y[v] = v % 3, train = all */
      int64_t n = nt_counts[t], shape[2] = {n, 2};
      float *x = calloc((size_t)n * 2 + 1, sizeof *x);
      int64_t *y = calloc((size_t)n + 1, sizeof *y);
      char nm[64];
      json_t *f = json_object();
      for (int64_t v = 0; v < n; v++) {
        x[2 * v] = (float)t;
        x[2 * v + 1] = (float)v;
        y[v] = v % 3;
      }
      snprintf(nm, sizeof nm, "n%d.x", t);
      assert_fo_ok(fo__writer_add(w, nm, "<f4", 2, shape, x));
      json_object_set_new(f, "array", json_string(nm));
      json_object_set_new(f, "dtype", json_string("float32"));
      json_object_set_new(o, "features", f);
      if (t == 0) {
        json_t *l = json_object(), *sp = json_object();
        snprintf(nm, sizeof nm, "n%d.y", t);
        assert_fo_ok(fo__writer_add_i64(w, nm, 8, y, n));
        json_object_set_new(l, "array", json_string(nm));
        json_object_set_new(l, "num_classes", json_integer(n < 3 ? n : 3));
        json_object_set_new(o, "labels", l);
        for (int64_t v = 0; v < n; v++) y[v] = v;
        snprintf(nm, sizeof nm, "n%d.split.train", t);
        assert_fo_ok(fo__writer_add_i64(w, nm, 8, y, n));
        json_object_set_new(sp, "train", json_string(nm));
        json_object_set_new(o, "splits", sp);
      }
      free(x);
      free(y);
    }
    json_array_append_new(jn, o);
    sum_n += nt_counts[t];
  }
  for (int k = 0; k < n_et; k++) {
    const fot_typed_et *et = &ets[k];
    const int64_t M = et->e->m;
    int64_t ns = -1, nd = -1, *ptr, *perm, *ind, *eid;
    json_t *o = json_object(), *topo = json_object();
    char nm[64], full[256];
    for (int t = 0; t < n_nt; t++) {
      if (!strcmp(nt_names[t], et->src)) ns = nt_counts[t];
      if (!strcmp(nt_names[t], et->dst)) nd = nt_counts[t];
    }
    assert_true(ns >= 0 && nd >= 0);
    ptr = calloc((size_t)(ns > nd ? ns : nd) + 1, sizeof *ptr);
    perm = calloc((size_t)M + 1, sizeof *perm);
    ind = calloc((size_t)M + 1, sizeof *ind);
    eid = calloc((size_t)M + 1, sizeof *eid);
    snprintf(full, sizeof full, "%s__%s__%s", et->src, et->rel, et->dst);
    json_object_set_new(o, "name", json_string(full));
    json_object_set_new(o, "src", json_string(et->src));
    json_object_set_new(o, "rel", json_string(et->rel));
    json_object_set_new(o, "dst", json_string(et->dst));
    json_object_set_new(o, "num_edges", json_integer(M));
    snprintf(nm, sizeof nm, "e%d", k);
    json_object_set_new(o, "prefix", json_string(nm));
    if (csc) {
      json_t *c = json_object();
      sort_by(et->e->dst, M, nd, ptr, perm);
      for (int64_t p = 0; p < M; p++) ind[p] = et->e->src[perm[p]];
      snprintf(nm, sizeof nm, "e%d.csc_indptr", k);
      assert_fo_ok(fo__writer_add_i64(w, nm, 8, ptr, nd + 1));
      json_object_set_new(c, "indptr", json_string(nm));
      snprintf(nm, sizeof nm, "e%d.csc_indices", k);
      assert_fo_ok(fo__writer_add_i64(w, nm, 4, ind, M));
      json_object_set_new(c, "indices", json_string(nm));
      json_object_set_new(topo, "csc", c);
      /* edge ids are CSC positions: edge_orig maps them to input positions */
      snprintf(nm, sizeof nm, "e%d.edge_orig", k);
      assert_fo_ok(fo__writer_add_i64(w, nm, 8, perm, M));
      json_object_set_new(o, "edge_orig", json_string(nm));
      for (int64_t p = 0; p < M; p++) eid[perm[p]] = p; /* input position -> edge id */
    } else {
      for (int64_t i = 0; i < M; i++) eid[i] = i;
    }
    if (csr) {
      json_t *c = json_object();
      sort_by(et->e->src, M, ns, ptr, perm);
      for (int64_t p = 0; p < M; p++) ind[p] = et->e->dst[perm[p]];
      snprintf(nm, sizeof nm, "e%d.csr_indptr", k);
      assert_fo_ok(fo__writer_add_i64(w, nm, 8, ptr, ns + 1));
      json_object_set_new(c, "indptr", json_string(nm));
      snprintf(nm, sizeof nm, "e%d.csr_indices", k);
      assert_fo_ok(fo__writer_add_i64(w, nm, 4, ind, M));
      json_object_set_new(c, "indices", json_string(nm));
      if (csc) {
        for (int64_t p = 0; p < M; p++) ind[p] = eid[perm[p]];
        snprintf(nm, sizeof nm, "e%d.csr_eid", k);
        assert_fo_ok(fo__writer_add_i64(w, nm, 4, ind, M));
        json_object_set_new(c, "eid", json_string(nm));
      }
      json_object_set_new(topo, "csr", c);
    }
    json_object_set_new(o, "topology", topo);
    json_object_set_new(o, "edge_ids", json_string(csc ? "csc" : "csr"));
    json_array_append_new(je, o);
    sum_m += M;
    free(ptr);
    free(perm);
    free(ind);
    free(eid);
  }
  json_object_set_new(m, "num_nodes", json_integer(sum_n));
  json_object_set_new(m, "num_edges", json_integer(sum_m));
  json_object_set_new(m, "node_types", jn);
  json_object_set_new(m, "edge_types", je);
  assert_fo_ok(fo__writer_commit(w));
  return out;
}

/* ---- typed reference sampler ------------------------------------------------------------- */

int fot_ref_sample_typed(const fo_dataset_t *d, const fo_sampler_opts *o, int32_t seed_type,
                         const int64_t *seeds, int64_t n_seeds, uint64_t epoch,
                         uint64_t batch_index, fot_ref_typed *out) {
  const int32_t T = fo_dataset_num_node_types(d), E = fo_dataset_num_edge_types(d);
  int64_t begin[FOT_MAX_TYPES], end[FOT_MAX_TYPES];
  int rc;
  memset(out, 0, sizeof *out);
  assert_true(T <= FOT_MAX_TYPES && E <= FOT_MAX_TYPES);
  out->n_nt = T;
  out->n_et = E;
  for (int32_t t = 0; t < T; t++) begin[t] = end[t] = 0;
  for (int64_t i = 0; i < n_seeds; i++) {
    fot_ref_batch *nb = &out->nt[seed_type];
    push(&nb->node, nb->n_nodes, seeds[i]);
    push(&nb->batch, nb->n_nodes, i);
    nb->n_nodes++;
  }
  end[seed_type] = n_seeds;
  for (int32_t t = 0; t < T; t++) out->nt[t].nsn[0] = end[t];
  for (int hop = 0; hop < o->n_hops; hop++) {
    for (int32_t et = 0; et < E; et++) {
      fo_edge_type ty;
      fo_topology t;
      int32_t ft, nt;
      fot_ref_batch *eb = &out->et[et];
      int64_t e_hop = eb->n_edges;
      int32_t f;
      fo_dataset_edge_type(d, et, &ty);
      if ((rc = fo_dataset_edge_topology(d, et, o->edge_dir, &t)) != FO_OK) return rc;
      ft = o->edge_dir == FO_EDGE_DIR_IN ? ty.dst_type : ty.src_type;
      nt = o->edge_dir == FO_EDGE_DIR_IN ? ty.src_type : ty.dst_type;
      f = o->edge_type_fanouts ? o->edge_type_fanouts[et * o->n_hops + hop] : o->fanouts[hop];
      for (int64_t i = begin[ft]; i < end[ft]; i++) {
        fot_ref_batch *fr = &out->nt[ft], *nb = &out->nt[nt];
        int64_t v = fr->node[i], a = t.indptr[v], deg = t.indptr[v + 1] - a;
        int64_t *pos = NULL, k = 0;
        fo__rng r;
        uint64_t tag = (uint64_t)hop | (uint64_t)et << 48;
        if (o->disjoint) tag |= ((uint64_t)fr->batch[i] + 1) << 8;
        fo__rng_init(&r, o->seed, epoch, batch_index, tag, (uint64_t)v);
        if (f < 0 || (!o->replace && f >= deg)) {
          for (int64_t j = 0; j < deg; j++) push(&pos, k++, a + j);
        } else if (o->replace) {
          for (int64_t j = 0; deg > 0 && j < f; j++)
            push(&pos, k++, a + (int64_t)fo__rng_below(&r, (uint64_t)deg));
        } else {
          for (int64_t j = deg - f; j < deg; j++) {
            int64_t x = (int64_t)fo__rng_below(&r, (uint64_t)j + 1);
            bool seen = false;
            for (int64_t q = 0; q < k; q++) seen |= pos[q] == a + x;
            push(&pos, k, a + (seen ? j : x));
            k++;
          }
        }
        for (int64_t q = 0; q < k; q++) {
          int64_t p = pos[q], u = ld(t.indices, t.indices_bytes, p), local = -1;
          int64_t tree = fr->batch[i];
          for (int64_t x = 0; x < nb->n_nodes && local < 0; x++)
            if (nb->node[x] == u && (!o->disjoint || nb->batch[x] == tree)) local = x;
          if (local < 0) {
            push(&nb->node, nb->n_nodes, u);
            push(&nb->batch, nb->n_nodes, tree);
            local = nb->n_nodes++;
          }
          push(&eb->row, eb->n_edges, local);
          push(&eb->col, eb->n_edges, i);
          push(&eb->edge, eb->n_edges, t.eid ? ld(t.eid, t.eid_bytes, p) : p);
          eb->n_edges++;
        }
        free(pos);
      }
      eb->nse[hop] = eb->n_edges - e_hop;
    }
    for (int32_t t = 0; t < T; t++) {
      out->nt[t].nsn[hop + 1] = out->nt[t].n_nodes - end[t];
      begin[t] = end[t];
      end[t] = out->nt[t].n_nodes;
    }
  }
  for (int32_t t = 0; t < T; t++) {
    out->nt[t].n_hops = o->n_hops;
    if (!o->disjoint) {
      free(out->nt[t].batch);
      out->nt[t].batch = NULL;
    }
  }
  for (int32_t et = 0; et < E; et++) out->et[et].n_hops = o->n_hops;
  return FO_OK;
}

void fot_ref_typed_free(fot_ref_typed *r) {
  for (int32_t t = 0; t < r->n_nt; t++) fot_ref_free(&r->nt[t]);
  for (int32_t t = 0; t < r->n_et; t++) fot_ref_free(&r->et[t]);
  memset(r, 0, sizeof *r);
}

static void same_array(const char *what, int32_t type, const int64_t *a, const int64_t *b,
                       int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (a[i] != b[i])
      fail_msg("type %d %s[%lld]: sampler %lld, reference %lld", (int)type, what, (long long)i,
               (long long)a[i], (long long)b[i]);
}

void fot_assert_same_typed(const fo_batch_t *b, const fot_ref_typed *r) {
  for (int32_t t = 0; t < r->n_nt; t++) {
    const fo_batch_t *nb = fo_batch_node_type(b, t);
    const fot_ref_batch *x = &r->nt[t];
    assert_non_null(nb);
    if (nb->n_nodes != x->n_nodes)
      fail_msg("node type %d: sampler %lld nodes, reference %lld", (int)t, (long long)nb->n_nodes,
               (long long)x->n_nodes);
    same_array("node", t, nb->node, x->node, x->n_nodes);
    same_array("num_sampled_nodes", t, nb->num_sampled_nodes, x->nsn, x->n_hops + 1);
    if (x->batch) same_array("batch", t, nb->batch, x->batch, x->n_nodes);
  }
  for (int32_t t = 0; t < r->n_et; t++) {
    const fo_batch_t *eb = fo_batch_edge_type(b, t);
    const fot_ref_batch *x = &r->et[t];
    assert_non_null(eb);
    if (eb->n_edges != x->n_edges)
      fail_msg("edge type %d: sampler %lld edges, reference %lld", (int)t, (long long)eb->n_edges,
               (long long)x->n_edges);
    same_array("row", t, eb->row, x->row, x->n_edges);
    same_array("col", t, eb->col, x->col, x->n_edges);
    same_array("edge", t, eb->edge, x->edge, x->n_edges);
    same_array("num_sampled_edges", t, eb->num_sampled_edges, x->nse, x->n_hops);
  }
}

static char msg[512];
#define BAD(...) (snprintf(msg, sizeof msg, __VA_ARGS__), msg)

const char *fot_check_typed(const fo_dataset_t *d, const fo_sampler_opts *o, int32_t seed_type,
                            const int64_t *seeds, int64_t n_seeds, const fo_batch_t *b) {
  const int32_t T = fo_dataset_num_node_types(d), E = fo_dataset_num_edge_types(d);
  if (!b->typed || b->n_node_types != T || b->n_edge_types != E) return BAD("not a typed batch");
  for (int32_t t = 0; t < T; t++) {
    const fo_batch_t *nb = fo_batch_node_type(b, t);
    int64_t n_t = fo_dataset_num_nodes(fo_dataset_node_data(d, t)), sum = 0;
    if (nb->n_seeds != (t == seed_type ? n_seeds : 0)) return BAD("type %d: n_seeds", (int)t);
    for (int64_t i = 0; t == seed_type && i < n_seeds; i++)
      if (nb->node[i] != seeds[i]) return BAD("type %d: seed %lld not first", (int)t, (long long)i);
    for (int64_t i = 0; i < nb->n_nodes; i++)
      if (nb->node[i] < 0 || nb->node[i] >= n_t) return BAD("type %d: node out of range", (int)t);
    /* local ids are a bijection onto distinct (node[, tree]) pairs (the seeds may repeat) */
    for (int64_t i = nb->n_seeds; i < nb->n_nodes; i++)
      for (int64_t j = 0; j < i; j++)
        if (nb->node[j] == nb->node[i] && (!o->disjoint || nb->batch[j] == nb->batch[i]))
          return BAD("type %d: node %lld appears twice", (int)t, (long long)nb->node[i]);
    for (int h = 0; h <= o->n_hops; h++) sum += nb->num_sampled_nodes[h];
    if (sum != nb->n_nodes) return BAD("type %d: num_sampled_nodes", (int)t);
  }
  for (int32_t et = 0; et < E; et++) {
    const fo_batch_t *eb = fo_batch_edge_type(b, et);
    fo_edge_type ty;
    fo_topology t;
    int64_t sum = 0;
    const fo_batch_t *rb, *cb;
    fo_dataset_edge_type(d, et, &ty);
    if (fo_dataset_edge_topology(d, et, o->edge_dir, &t) != FO_OK) return BAD("no topology");
    rb = fo_batch_node_type(b, o->edge_dir == FO_EDGE_DIR_IN ? ty.src_type : ty.dst_type);
    cb = fo_batch_node_type(b, o->edge_dir == FO_EDGE_DIR_IN ? ty.dst_type : ty.src_type);
    for (int h = 0; h < o->n_hops; h++) sum += eb->num_sampled_edges[h];
    if (sum != eb->n_edges) return BAD("edge type %s: num_sampled_edges", ty.name);
    for (int64_t e = 0; e < eb->n_edges; e++) {
      int64_t r = eb->row[e], c = eb->col[e], u, v, found = 0;
      if (r < 0 || r >= rb->n_nodes || c < 0 || c >= cb->n_nodes)
        return BAD("edge type %s: local id out of range at %lld", ty.name, (long long)e);
      u = rb->node[r];
      v = cb->node[c];
      /* the edge (u in v's row) exists with this edge id */
      for (int64_t p = t.indptr[v]; p < t.indptr[v + 1]; p++)
        if (ld(t.indices, t.indices_bytes, p) == u &&
            (t.eid ? ld(t.eid, t.eid_bytes, p) : p) == eb->edge[e])
          found = 1;
      if (!found) return BAD("edge type %s: edge %lld (%lld -> %lld, id %lld) is not in the graph",
                             ty.name, (long long)e, (long long)u, (long long)v, (long long)eb->edge[e]);
    }
  }
  return NULL;
}
