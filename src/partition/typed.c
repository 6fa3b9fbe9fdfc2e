/*
 * partition/typed.c: `fanout partition` of a typed dataset (format_version 2; docs/FORMAT.md,
 * "Partitioned datasets").
 *
 * Nodes get global ids off[t] + i (node types in dataset order) for the assignment: hash and
 * range assign each node type on its own (a type's ids hashed, or cut into P ranges), METIS
 * cuts the graph of all node and edge types together (every edge type's CSC merged into one
 * CSC over global ids, symmetrized by fo__partition_metis). The same merged CSC gives the
 * quality report (totals over the types; the manifest adds per-type counts).
 *
 * Each part is a typed dataset: per node type the nodes it owns (ascending), their rank
 * directory (array books) and their features, labels and split members; per edge type the CSC
 * rows of its owned destination nodes and, when the input has a CSR, the CSR rows of its owned
 * source nodes, with neighbor ids and edge ids of the unpartitioned dataset (local to their
 * types, never renumbered). The top level holds per node type the book (uint8/uint16 per node,
 * or the range bounds), the splits of the whole graph and the original ids.
 */
#include "partition/partition_internal.h"

#include "store/store_internal.h"

typedef struct tin {
  const fo_dataset_t *d;
  int32_t T, E, P;
  int32_t L;           /* labels-only (supervision) edge types */
  int64_t N, M;
  int64_t *off;        /* [T + 1] first global id of each node type */
  fo_topology *csc;    /* [E] */
  fo_topology *csr;    /* [E] when has_csr */
  fo_topology *lcsr;   /* [L] the labels-only types' CSRs (rows by anchor) */
  bool has_csr;
  int32_t *part;       /* [N] */
  uint8_t *train;      /* [N] or NULL */
  int64_t **bounds;    /* [T][P + 1] range partitions */
  json_t *man;         /* the input's manifest (edge types' per-position arrays to carry) */
} tin;

static int64_t ldi(const void *a, int bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

/* All edge types' CSC as one CSC over global ids (row: global dst, indices: global src). */
static int merged_csc(const tin *in, fo_topology *t, int64_t **indptr_out, int64_t **idx_out) {
  int64_t *ip = fo__calloc_n(in->N + 1, sizeof *ip), *ix = fo__malloc_n(in->M, sizeof *ix);
  int64_t *at;
  if (!ip || !ix) {
    free(ip);
    free(ix);
    return FO_FAIL(FO_ENOMEM, "merged graph of %lld nodes and %lld edges", (long long)in->N,
                   (long long)in->M);
  }
  for (int32_t et = 0; et < in->E; et++) {
    fo_edge_type ty;
    fo_dataset_edge_type(in->d, et, &ty);
    for (int64_t v = 0; v < in->csc[et].n_rows; v++)
      ip[in->off[ty.dst_type] + v + 1] += in->csc[et].indptr[v + 1] - in->csc[et].indptr[v];
  }
  for (int64_t v = 0; v < in->N; v++) ip[v + 1] += ip[v];
  if (!(at = fo__malloc_n(in->N, sizeof *at))) {
    free(ip);
    free(ix);
    return FO_FAIL(FO_ENOMEM, "merged graph");
  }
  memcpy(at, ip, (size_t)in->N * sizeof *at);
  for (int32_t et = 0; et < in->E; et++) {
    fo_edge_type ty;
    const fo_topology *c = &in->csc[et];
    fo_dataset_edge_type(in->d, et, &ty);
    for (int64_t v = 0; v < c->n_rows; v++)
      for (int64_t e = c->indptr[v]; e < c->indptr[v + 1]; e++)
        ix[at[in->off[ty.dst_type] + v]++] = in->off[ty.src_type] + ldi(c->indices, c->indices_bytes, e);
  }
  free(at);
  memset(t, 0, sizeof *t);
  t->dir = FO_EDGE_DIR_IN;
  t->n_nodes = t->n_rows = in->N;
  t->n_edges = t->edge_id_bound = in->M;
  t->indptr = ip;
  t->indices = ix;
  t->indices_bytes = 8;
  *indptr_out = ip;
  *idx_out = ix;
  return FO_OK;
}

/* The input manifest's entry of edge type ty (traversed or labels-only), matched by its
 * src, rel and dst (labels-only types need not be listed last). */
static json_t *man_etype(const tin *in, const fo_edge_type *ty) {
  json_t *je = json_object_get(in->man, "edge_types"), *t;
  size_t i;
  json_array_foreach(je, i, t) {
    json_t *s = json_object_get(t, "src"), *r = json_object_get(t, "rel"), *d = json_object_get(t, "dst");
    if (json_is_string(s) && json_is_string(r) && json_is_string(d) &&
        !strcmp(json_string_value(s), ty->src) && !strcmp(json_string_value(r), ty->rel) &&
        !strcmp(json_string_value(d), ty->dst))
      return t;
  }
  return NULL;
}

/* One part's rows of topology `t` (rows: the owned nodes of its row type), into arrays
 * "<prefix>.<dir>_indptr/_indices/_eid" (and _row_eid when the input's edge ids are its
 * positions in this direction) of pw, described in `jt`; `ety` is the input manifest's entry
 * of the edge type (its per-position arrays travel along). */
static int write_rows(const tin *in, json_t *ety, fo__writer *pw, const char *prefix, const char *dir,
                      const fo_topology *t, const int64_t *rows, int64_t nr, int64_t id_bound,
                      json_t *jt, int64_t *m_out) {
  int64_t *indptr = fo__malloc_n(nr + 1, sizeof *indptr), *idx = NULL, *eid = NULL, *reid = NULL, m;
  char a1[96], a2[96], a3[96], a4[96];
  json_t *src = json_object_get(json_object_get(ety, "topology"), dir);
  int rc;
  if (!indptr) return FO_FAIL(FO_ENOMEM, "part rows");
  indptr[0] = 0;
  for (int64_t r = 0; r < nr; r++) indptr[r + 1] = indptr[r] + (t->indptr[rows[r] + 1] - t->indptr[rows[r]]);
  m = indptr[nr];
  idx = fo__malloc_n(m, sizeof *idx);
  eid = fo__malloc_n(m, sizeof *eid);
  /* edge ids that are the input's positions in this direction run along each row: row_eid */
  if (!t->eid) reid = fo__malloc_n(nr ? nr : 1, sizeof *reid);
  if (!idx || !eid || (!t->eid && !reid)) {
    rc = FO_FAIL(FO_ENOMEM, "part: %lld edges", (long long)m);
    goto out;
  }
  for (int64_t r = 0; r < nr; r++) {
    const int64_t a = t->indptr[rows[r]], b = t->indptr[rows[r] + 1], at = indptr[r];
    if (reid) reid[r] = a;
    for (int64_t e = a; e < b; e++) {
      idx[at + e - a] = ldi(t->indices, t->indices_bytes, e);
      eid[at + e - a] = t->eid ? ldi(t->eid, t->eid_bytes, e) : e;
    }
  }
  snprintf(a1, sizeof a1, "%s.%s_indptr", prefix, dir);
  snprintf(a2, sizeof a2, "%s.%s_indices", prefix, dir);
  snprintf(a3, sizeof a3, "%s.%s_eid", prefix, dir);
  if ((rc = fo__writer_add_i64(pw, a1, 8, indptr, nr + 1)) != FO_OK ||
      (rc = fo__writer_add_i64(pw, a2, t->indices_bytes, idx, m)) != FO_OK ||
      (rc = fo__writer_add_i64(pw, a3, id_bound - 1 <= INT32_MAX ? 4 : 8, eid, m)) != FO_OK)
    goto out;
  json_object_set_new(jt, dir, json_pack("{s:s, s:s, s:s}", "indptr", a1, "indices", a2, "eid", a3));
  if (reid) {
    snprintf(a4, sizeof a4, "%s.%s_row_eid", prefix, dir);
    if ((rc = fo__writer_add_i64(pw, a4, 8, reid, nr)) != FO_OK) goto out;
    json_object_set_new(json_object_get(jt, dir), "row_eid", json_string(a4));
  }
  /* the CSR holds the out-edges of the owned source nodes: other edges than the CSC's */
  if (!strcmp(dir, "csr")) json_object_set_new(json_object_get(jt, dir), "num_edges", json_integer(m));
  /* edge times, weights and alias tables travel with their rows ("<prefix>.<dir>_time", ...) */
  snprintf(a1, sizeof a1, "%s.%s_", prefix, dir);
  if ((rc = fo__part_edge_arrays(in->d, src, t, rows, nr, pw, a1, json_object_get(jt, dir))) != FO_OK)
    goto out;
  *m_out = m;
out:
  free(indptr);
  free(idx);
  free(eid);
  free(reid);
  return rc;
}

/* Node type t's data for the owned rows: features, labels, split members (split order). */
static int write_node_data(fo__writer *pw, const fo_dataset_t *v, const char *prefix,
                           const int64_t *rows, int64_t nr, json_t *jt) {
  fo_features f;
  const int64_t *y;
  int64_t ny, nc;
  char arr[160];
  json_t *js;
  int rc = FO_OK;
  if (fo_dataset_features(v, &f) == FO_OK) {
    static const struct {
      const char *name, *descr;
    } dt[] = {{"float32", "<f4"}, {"float16", "<f2"}, {"bfloat16", "<u2"}, {"uint8", "|u1"}};
    const size_t rb = (size_t)(f.dim * f.itemsize);
    const int64_t shape[2] = {nr, f.dim};
    const char *descr = "<f4";
    void *xb = fo__malloc_n(nr ? nr : 1, rb ? rb : 1);
    json_t *jf;
    for (int i = 0; i < 4; i++)
      if (!strcmp(dt[i].name, f.dtype)) descr = dt[i].descr;
    if (!xb) return FO_FAIL(FO_ENOMEM, "part features");
    for (int64_t r = 0; r < nr; r++)
      memcpy((char *)xb + (size_t)r * rb, (const char *)f.data + (size_t)rows[r] * rb, rb);
    snprintf(arr, sizeof arr, "%s.x", prefix);
    rc = fo__writer_add(pw, arr, descr, 2, shape, xb);
    free(xb);
    if (rc != FO_OK) return rc;
    jf = json_pack("{s:s, s:s}", "array", arr, "dtype", f.dtype);
    json_object_set_new(jt, "features", jf);
    if (f.scale) {
      char a2[160];
      snprintf(arr, sizeof arr, "%s.x_scale", prefix);
      snprintf(a2, sizeof a2, "%s.x_offset", prefix);
      if ((rc = fo__writer_add(pw, arr, "<f4", 1, &f.dim, f.scale)) != FO_OK ||
          (rc = fo__writer_add(pw, a2, "<f4", 1, &f.dim, f.offset)) != FO_OK)
        return rc;
      json_object_set_new(jf, "scale", json_string(arr));
      json_object_set_new(jf, "offset", json_string(a2));
    }
  }
  if (fo_dataset_labels(v, &y, &ny, &nc) == FO_OK) {
    int64_t *yb = fo__malloc_n(nr, sizeof *yb);
    if (!yb) return FO_FAIL(FO_ENOMEM, "part labels");
    for (int64_t r = 0; r < nr; r++) yb[r] = y[rows[r]];
    snprintf(arr, sizeof arr, "%s.y", prefix);
    rc = fo__writer_add(pw, arr, "<i8", 1, &nr, yb);
    free(yb);
    if (rc != FO_OK) return rc;
    json_object_set_new(jt, "labels", json_pack("{s:s, s:I}", "array", arr, "num_classes",
                                                (json_int_t)nc));
  }
  fo_clear_error();
  js = json_object();
  json_object_set_new(jt, "splits", js);
  for (int64_t i = 0; i < fo_dataset_num_splits(v); i++) {
    const char *sname = fo_dataset_split_name(v, i);
    const int64_t *ids;
    int64_t cnt, kept = 0, *mem;
    fo_dataset_split(v, sname, &ids, &cnt);
    if (!(mem = fo__malloc_n(cnt, sizeof *mem))) return FO_FAIL(FO_ENOMEM, "part split '%s'", sname);
    for (int64_t j = 0; j < cnt; j++) {
      int64_t lo = 0, hi = nr, x = ids[j];
      while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (rows[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      if (lo < nr && rows[lo] == x) mem[kept++] = x;
    }
    snprintf(arr, sizeof arr, "%s.split.%s", prefix, sname);
    rc = fo__writer_add(pw, arr, "<i8", 1, &kept, mem);
    free(mem);
    if (rc != FO_OK) return rc;
    json_object_set_new(js, sname, json_string(arr));
  }
  return FO_OK;
}

/* Part k: a typed dataset in subdirectory "part-<k>". Fills the per-type counts of the part
 * (nodes[t], edges[et] of its CSC). */
static int write_part(const tin *in, int32_t k, fo__writer *w, json_t *parts_json,
                      const char *partition_id, const fo_partition_opts *o, int64_t *nodes_t,
                      int64_t *edges_et) {
  const fo_dataset_t *d = in->d;
  char name[32];
  fo__writer *pw = NULL;
  json_t *man, *jn, *je;
  int64_t **rows = calloc((size_t)in->T, sizeof *rows), *nrows = calloc((size_t)in->T, sizeof *nrows);
  int64_t m_k = 0;
  uint32_t *rank = NULL;
  int rc;
  if (!rows || !nrows) {
    rc = FO_FAIL(FO_ENOMEM, "part %d", (int)k);
    goto out;
  }
  snprintf(name, sizeof name, "part-%d", (int)k);
  if ((rc = fo__writer_begin_sub(w, name, &pw)) != FO_OK) goto out;
  man = fo__writer_manifest(pw);
  json_object_set_new(man, "format_version",
                      json_integer(in->L ? FO_FORMAT_VERSION_LABELS : FO_FORMAT_VERSION_TYPED));
  json_object_set_new(man, "num_nodes", json_integer(in->N));
  json_object_set_new(man, "part", json_pack("{s:i, s:i}", "index", (int)k, "of", (int)in->P));
  json_object_set_new(man, "partition_id", json_string(partition_id));
  json_object_set_new(man, "node_types", jn = json_array());
  json_object_set_new(man, "edge_types", je = json_array());
  for (int32_t t = 0; t < in->T; t++) {
    const int64_t n_t = in->off[t + 1] - in->off[t];
    const int32_t *pt = in->part + in->off[t];
    char prefix[16], arr[48];
    json_t *jt;
    int64_t nr = 0;
    for (int64_t v = 0; v < n_t; v++) nr += pt[v] == k;
    if (!(rows[t] = fo__malloc_n(nr, sizeof **rows))) {
      rc = FO_FAIL(FO_ENOMEM, "part %d rows", (int)k);
      goto out;
    }
    nr = 0;
    for (int64_t v = 0; v < n_t; v++)
      if (pt[v] == k) rows[t][nr++] = v;
    nrows[t] = nr;
    nodes_t[t] = nr;
    snprintf(prefix, sizeof prefix, "n%d", (int)t);
    jt = json_pack("{s:s, s:I, s:I}", "name", fo_dataset_node_type_name(d, t), "num_nodes",
                   (json_int_t)n_t, "num_rows", (json_int_t)nr);
    json_array_append_new(jn, jt);
    snprintf(arr, sizeof arr, "%s.row_nodes", prefix);
    if ((rc = fo__writer_add_i64(pw, arr, 8, rows[t], nr)) != FO_OK) goto out;
    json_object_set_new(jt, "row_nodes", json_string(arr));
    if (o->method != FO_PARTITION_RANGE) {
      const int64_t n_rank = (n_t + FO_RANK_BLOCK - 1) / FO_RANK_BLOCK + 1;
      int64_t cnt = 0;
      free(rank);
      if (!(rank = fo__malloc_n(n_rank, sizeof *rank))) {
        rc = FO_FAIL(FO_ENOMEM, "rank directory");
        goto out;
      }
      for (int64_t b = 0; b < n_rank; b++) {
        rank[b] = (uint32_t)cnt;
        for (int64_t v = b * FO_RANK_BLOCK; v < (b + 1) * FO_RANK_BLOCK && v < n_t; v++) cnt += pt[v] == k;
      }
      snprintf(arr, sizeof arr, "%s.row_rank", prefix);
      if ((rc = fo__writer_add(pw, arr, "<u4", 1, &n_rank, rank)) != FO_OK) goto out;
      json_object_set_new(jt, "row_rank", json_string(arr));
    }
    if ((rc = write_node_data(pw, fo_dataset_node_data(d, t), prefix, rows[t], nr, jt)) != FO_OK)
      goto out;
  }
  for (int32_t et = 0; et < in->E; et++) {
    fo_edge_type ty;
    char prefix[16];
    json_t *jt, *jtopo = json_object();
    int64_t m = 0, m_out = 0;
    fo_dataset_edge_type(d, et, &ty);
    snprintf(prefix, sizeof prefix, "e%d", (int)et);
    jt = json_pack("{s:s, s:s, s:s, s:s}", "name", ty.name, "src", ty.src, "rel", ty.rel, "dst", ty.dst);
    json_array_append_new(je, jt);
    json_object_set_new(jt, "topology", jtopo);
    if ((rc = write_rows(in, man_etype(in, &ty), pw, prefix, "csc", &in->csc[et], rows[ty.dst_type], nrows[ty.dst_type],
                         ty.n_edges, jtopo, &m)) != FO_OK)
      goto out;
    if (in->has_csr &&
        (rc = write_rows(in, man_etype(in, &ty), pw, prefix, "csr", &in->csr[et], rows[ty.src_type], nrows[ty.src_type],
                         ty.n_edges, jtopo, &m_out)) != FO_OK)
      goto out;
    json_object_set_new(jt, "num_edges", json_integer(m));
    json_object_set_new(jt, "edge_id_bound", json_integer(ty.n_edges));
    json_object_set_new(jt, "edge_ids", json_string("global"));
    edges_et[et] = m;
    m_k += m;
  }
  /* labels-only types: the CSR rows of the anchors (source nodes) the part owns, never a CSC;
   * the sampler never sees them (dataset.h), the ABLP sampler reads them (label_rows.c) */
  for (int32_t i = 0; i < in->L; i++) {
    fo_edge_type ty;
    char prefix[16];
    json_t *jt, *jtopo = json_object();
    int64_t m_out = 0;
    fo_dataset_label_edge_type(d, i, &ty);
    snprintf(prefix, sizeof prefix, "l%d", (int)i);
    jt = json_pack("{s:s, s:s, s:s, s:s, s:b, s:s}", "name", ty.name, "src", ty.src, "rel", ty.rel,
                   "dst", ty.dst, "labels_only", 1, "label",
                   ty.label == FO_LABEL_NEGATIVE ? "negative" : "positive");
    json_array_append_new(je, jt);
    json_object_set_new(jt, "topology", jtopo);
    if ((rc = write_rows(in, man_etype(in, &ty), pw, prefix, "csr", &in->lcsr[i], rows[ty.src_type],
                         nrows[ty.src_type], ty.n_edges, jtopo, &m_out)) != FO_OK)
      goto out;
    json_object_set_new(jt, "num_edges", json_integer(m_out));
    json_object_set_new(jt, "edge_id_bound", json_integer(ty.n_edges));
    json_object_set_new(jt, "edge_ids", json_string("global"));
  }
  json_object_set_new(man, "num_edges", json_integer(m_k));
  if (o->cancel && *o->cancel) {
    rc = FO_FAIL(FO_ECANCELED, "partition interrupted");
    goto out;
  }
  json_array_append_new(parts_json, json_string(name));
  rc = fo__writer_commit(pw);
  pw = NULL;
out:
  fo__writer_abort(pw);
  for (int32_t t = 0; rows && t < in->T; t++) free(rows[t]);
  free(rows);
  free(nrows);
  free(rank);
  return rc;
}

/* The input's original ids of node type t, unchanged, into the top level. */
static int copy_node_orig(fo__writer *w, const fo_dataset_t *v, json_t *jt) {
  int rc;
  if (v->node_orig_off) {
    if ((rc = fo__writer_add(w, v->node_orig_off->name, "<i8", 1, v->node_orig_off->shape,
                             v->node_orig_off->data)) != FO_OK ||
        (rc = fo__writer_add(w, v->node_orig->name, "|u1", 1, v->node_orig->shape,
                             v->node_orig->data)) != FO_OK)
      return rc;
    json_object_set_new(jt, "node_orig", json_pack("{s:s, s:s}", "offsets", v->node_orig_off->name,
                                                   "bytes", v->node_orig->name));
  } else if (v->node_orig) {
    if ((rc = fo__writer_add(w, v->node_orig->name, v->node_orig->dtype, 1, v->node_orig->shape,
                             v->node_orig->data)) != FO_OK)
      return rc;
    json_object_set_new(jt, "node_orig", json_string(v->node_orig->name));
  }
  return FO_OK;
}

static void free_tin(tin *in) {
  free(in->off);
  free(in->csc);
  free(in->csr);
  free(in->lcsr);
  free(in->part);
  free(in->train);
  for (int32_t t = 0; in->bounds && t < in->T; t++) free(in->bounds[t]);
  free(in->bounds);
  json_decref(in->man);
}

int fo__partition_typed(const fo_dataset_t *d, const char *in_dir, const char *out_dir,
                        const fo_partition_opts *o, fo_partition_report *rep, fo__progress *prog) {
  static const char *const method_names[] = {"hash", "range", "metis"};
  tin in;
  fo_topology merged;
  int64_t *m_ip = NULL, *m_ix = NULL, *nodes_kt = NULL, *edges_ke = NULL, *train_kt = NULL;
  fo__writer *w = NULL;
  json_t *man, *parts_json, *jn, *je, *q;
  char partition_id[17];
  const char *split = o->train_split ? o->train_split : "train";
  bool any_train = false;
  int rc;

  memset(&in, 0, sizeof in);
  memset(rep, 0, sizeof *rep);
  in.d = d;
  in.T = fo_dataset_num_node_types(d);
  in.E = fo_dataset_num_edge_types(d);
  in.L = fo_dataset_num_label_edge_types(d);
  in.P = o->n_parts;
  in.N = fo_dataset_num_nodes(d);
  in.M = fo_dataset_num_edges(d);
  in.has_csr = fo_dataset_has_topology(d, FO_EDGE_DIR_OUT);
  if (!(in.man = json_loads(d->manifest_text, 0, NULL))) {
    rc = FO_FAIL(FO_EFORMAT, "input '%s': manifest", in_dir);
    goto out;
  }
  if (!(in.off = calloc((size_t)in.T + 1, sizeof *in.off)) ||
      !(in.csc = calloc((size_t)in.E, sizeof *in.csc)) ||
      !(in.csr = calloc((size_t)in.E, sizeof *in.csr)) ||
      !(in.lcsr = calloc((size_t)in.L + 1, sizeof *in.lcsr)) ||
      !(in.bounds = calloc((size_t)in.T, sizeof *in.bounds)) ||
      !(in.part = fo__malloc_n(in.N, sizeof *in.part)) ||
      !(nodes_kt = fo__calloc_n((int64_t)in.P * in.T, sizeof *nodes_kt)) ||
      !(train_kt = fo__calloc_n((int64_t)in.P * in.T, sizeof *train_kt)) ||
      !(edges_ke = fo__calloc_n((int64_t)in.P * in.E, sizeof *edges_ke))) {
    rc = FO_FAIL(FO_ENOMEM, "partition of %lld nodes", (long long)in.N);
    goto out;
  }
  for (int32_t t = 0; t < in.T; t++)
    in.off[t + 1] = in.off[t] + fo_dataset_num_nodes(fo_dataset_node_data(d, t));
  for (int32_t et = 0; et < in.E; et++) {
    if ((rc = fo_dataset_edge_topology(d, et, FO_EDGE_DIR_IN, &in.csc[et])) != FO_OK ||
        (in.has_csr && (rc = fo_dataset_edge_topology(d, et, FO_EDGE_DIR_OUT, &in.csr[et])) != FO_OK))
      goto out;
  }
  for (int32_t i = 0; i < in.L; i++)
    if ((rc = fo_dataset_label_edge_topology(d, i, FO_EDGE_DIR_OUT, &in.lcsr[i])) != FO_OK) {
      rc = fo__context(rc, "partition: the parts carry supervision edges as CSR rows by anchor");
      goto out;
    }
  /* train membership per node type (types without the split have none) */
  for (int32_t t = 0; t < in.T; t++) {
    const fo_dataset_t *v = fo_dataset_node_data(d, t);
    const int64_t *ids;
    int64_t cnt;
    if (fo_dataset_split(v, split, &ids, &cnt) != FO_OK) continue;
    if (!in.train && !(in.train = fo__calloc_n(in.N, 1))) {
      rc = FO_FAIL(FO_ENOMEM, "train membership");
      goto out;
    }
    any_train = true;
    for (int64_t i = 0; i < cnt; i++) in.train[in.off[t] + ids[i]] = 1; /* checked by check_structure */
  }
  fo_clear_error();
  if (o->balance == FO_BALANCE_TRAIN && !any_train) {
    rc = FO_FAIL(FO_EINVAL, "balance train: no node type of '%s' has a split '%s'", in_dir, split);
    goto out;
  }
  if ((rc = merged_csc(&in, &merged, &m_ip, &m_ix)) != FO_OK) goto out;
  fo__progress_spin(prog, o->progress, o->method == FO_PARTITION_METIS ? "partition: metis"
                                       : o->method == FO_PARTITION_RANGE ? "partition: range"
                                                                         : "partition: hash");
  if (o->method == FO_PARTITION_METIS) {
    if ((rc = fo__partition_metis(&merged, in.P, o->balance == FO_BALANCE_TRAIN ? in.train : NULL,
                                  o->seed, in.part)) != FO_OK)
      goto out;
  } else {
    for (int32_t t = 0; t < in.T; t++) {
      const int64_t n_t = in.off[t + 1] - in.off[t];
      if (o->method == FO_PARTITION_HASH) {
        fo__partition_assign_hash(n_t, in.P, o->seed, in.part + in.off[t]);
        continue;
      }
      int64_t tw = 0;
      const uint8_t *wt = o->balance == FO_BALANCE_TRAIN && in.train ? in.train + in.off[t] : NULL;
      if (!(in.bounds[t] = fo__malloc_n(in.P + 1, sizeof **in.bounds))) {
        rc = FO_FAIL(FO_ENOMEM, "range bounds");
        goto out;
      }
      for (int64_t v = 0; wt && v < n_t; v++) tw += wt[v];
      /* fewer nodes than parts: equal counts (some parts own none of this type) */
      fo__partition_assign_range(n_t, in.P, n_t >= in.P ? wt : NULL, tw, in.bounds[t], in.part + in.off[t]);
    }
  }
  fo__progress_end(prog);
  if (o->cancel && *o->cancel) {
    rc = FO_FAIL(FO_ECANCELED, "partition interrupted");
    goto out;
  }
  for (int32_t t = 0; t < in.T; t++)
    for (int64_t v = in.off[t]; v < in.off[t + 1]; v++) {
      nodes_kt[(int64_t)in.part[v] * in.T + t]++;
      if (in.train && in.train[v]) train_kt[(int64_t)in.part[v] * in.T + t]++;
    }
  for (int64_t i = 0; i < (int64_t)in.P * in.T; i++)
    if (nodes_kt[i] > UINT32_MAX) {
      rc = FO_FAIL(FO_ERANGE, "part %d would own %lld nodes of node type '%s' (at most 2^32 - 1)",
                   (int)(i / in.T), (long long)nodes_kt[i], fo_dataset_node_type_name(d, (int32_t)(i % in.T)));
      goto out;
    }
  fo__progress_spin(prog, o->progress, "partition: quality");
  if ((rc = fo__partition_quality(&merged, in.part, in.P, in.train, rep)) != FO_OK) goto out;
  fo__progress_end(prog);
  free(m_ix);
  m_ix = NULL;

  if ((rc = fo__writer_begin(out_dir, o->force, &w)) != FO_OK) goto out;
  fo__writer_set_cancel(w, o->cancel);
  man = fo__writer_manifest(w);
  json_object_set_new(man, "format", json_string(FO_PARTITIONED_NAME));
  /* version 3 with labels-only types: readers of version 2 refuse it rather than miss them */
  json_object_set_new(man, "format_version",
                      json_integer(in.L ? FO_FORMAT_VERSION_LABELS : FO_FORMAT_VERSION_TYPED));
  json_object_set_new(man, "num_nodes", json_integer(in.N));
  json_object_set_new(man, "num_edges", json_integer(in.M));
  json_object_set_new(man, "num_parts", json_integer(in.P));
  fo__partition_id(partition_id);
  json_object_set_new(man, "partition_id", json_string(partition_id));
  json_object_set_new(man, "method", json_string(method_names[o->method]));
  json_object_set_new(man, "balance", json_string(o->balance == FO_BALANCE_TRAIN ? "train" : "nodes"));
  json_object_set_new(man, "train_split", json_string(split));
  json_object_set_new(man, "node_types", jn = json_array());
  json_object_set_new(man, "edge_types", je = json_array());
  for (int32_t t = 0; t < in.T; t++) {
    const fo_dataset_t *v = fo_dataset_node_data(d, t);
    const int64_t n_t = in.off[t + 1] - in.off[t];
    json_t *jt = json_pack("{s:s, s:I}", "name", fo_dataset_node_type_name(d, t), "num_nodes",
                           (json_int_t)n_t), *js;
    char arr[160];
    json_array_append_new(jn, jt);
    if (o->method == FO_PARTITION_RANGE) {
      json_t *jb = json_array();
      for (int32_t k = 0; k <= in.P; k++) json_array_append_new(jb, json_integer(in.bounds[t][k]));
      json_object_set_new(jt, "book", json_pack("{s:s, s:o}", "kind", "range", "bounds", jb));
    } else {
      void *book = fo__malloc_n(n_t ? n_t : 1, in.P <= 256 ? 1 : 2);
      if (!book) {
        rc = FO_FAIL(FO_ENOMEM, "book");
        goto out;
      }
      for (int64_t i = 0; i < n_t; i++) {
        if (in.P <= 256) ((uint8_t *)book)[i] = (uint8_t)in.part[in.off[t] + i];
        else ((uint16_t *)book)[i] = (uint16_t)in.part[in.off[t] + i];
      }
      snprintf(arr, sizeof arr, "n%d.book", (int)t);
      rc = fo__writer_add(w, arr, in.P <= 256 ? "|u1" : "<u2", 1, &n_t, book);
      free(book);
      if (rc != FO_OK) goto out;
      json_object_set_new(jt, "book", json_pack("{s:s, s:s}", "kind", "array", "array", arr));
    }
    /* the whole graph's splits, in their order: the loader's seed order over the parts */
    json_object_set_new(jt, "splits", js = json_object());
    for (int64_t i = 0; i < fo_dataset_num_splits(v); i++) {
      const char *sname = fo_dataset_split_name(v, i);
      const int64_t *ids;
      int64_t cnt;
      fo_dataset_split(v, sname, &ids, &cnt);
      snprintf(arr, sizeof arr, "n%d.split.%s", (int)t, sname);
      if ((rc = fo__writer_add(w, arr, "<i8", 1, &cnt, ids)) != FO_OK) goto out;
      json_object_set_new(js, sname, json_string(arr));
    }
    if ((rc = copy_node_orig(w, v, jt)) != FO_OK) goto out;
    /* node times, whole, beside the book (seeds' default times, node-time sampling) */
    if (v->node_time) {
      snprintf(arr, sizeof arr, "n%d.node_time", (int)t);
      if ((rc = fo__writer_add(w, arr, "<i8", 1, v->node_time->shape, v->node_time->data)) != FO_OK)
        goto out;
      json_object_set_new(jt, "node_time", json_string(arr));
    }
  }
  for (int32_t et = 0; et < in.E; et++) {
    fo_edge_type ty;
    json_t *jt;
    char prefix[16];
    fo_dataset_edge_type(d, et, &ty);
    jt = json_pack("{s:s, s:s, s:s, s:s, s:I}", "name", ty.name, "src", ty.src, "rel", ty.rel,
                   "dst", ty.dst, "num_edges", (json_int_t)ty.n_edges);
    json_array_append_new(je, jt);
    snprintf(prefix, sizeof prefix, "e%d.", (int)et);
    if ((rc = fo__part_edge_splits(d, et, w, prefix, jt)) != FO_OK) goto out;
  }
  for (int32_t i = 0; i < in.L; i++) {
    fo_edge_type ty;
    fo_dataset_label_edge_type(d, i, &ty);
    json_array_append_new(je, json_pack("{s:s, s:s, s:s, s:s, s:I, s:b, s:s}", "name", ty.name,
                                        "src", ty.src, "rel", ty.rel, "dst", ty.dst, "num_edges",
                                        (json_int_t)ty.n_edges, "labels_only", 1, "label",
                                        ty.label == FO_LABEL_NEGATIVE ? "negative" : "positive"));
  }
  parts_json = json_array();
  json_object_set_new(man, "parts", parts_json);
  fo__progress_start_items(prog, o->progress, "partition: write", (uint64_t)in.P, "parts");
  for (int32_t k = 0; k < in.P; k++) {
    if ((rc = write_part(&in, k, w, parts_json, partition_id, o, nodes_kt + (int64_t)k * in.T,
                         edges_ke + (int64_t)k * in.E)) != FO_OK)
      goto out;
    fo__progress_update(prog, (uint64_t)k + 1);
  }
  q = fo__partition_report_json(rep);
  {
    /* per node type and edge type, per part: what `fanout info` shows */
    json_t *qn = json_object(), *qe = json_object();
    for (int32_t t = 0; t < in.T; t++) {
      json_t *a = json_array(), *b = json_array();
      for (int32_t k = 0; k < in.P; k++) {
        json_array_append_new(a, json_integer(nodes_kt[(int64_t)k * in.T + t]));
        json_array_append_new(b, json_integer(train_kt[(int64_t)k * in.T + t]));
      }
      json_object_set_new(qn, fo_dataset_node_type_name(d, t),
                          json_pack("{s:o, s:o}", "nodes", a, "train_nodes", b));
    }
    for (int32_t et = 0; et < in.E; et++) {
      fo_edge_type ty;
      json_t *a = json_array();
      fo_dataset_edge_type(d, et, &ty);
      for (int32_t k = 0; k < in.P; k++) json_array_append_new(a, json_integer(edges_ke[(int64_t)k * in.E + et]));
      json_object_set_new(qe, ty.name, json_pack("{s:o}", "edges", a));
    }
    json_object_set_new(q, "node_types", qn);
    json_object_set_new(q, "edge_types", qe);
  }
  json_object_set_new(man, "quality", q);
  json_object_set_new(man, "provenance",
                      fo__partition_provenance(d, in_dir, (int)in.P, method_names[o->method],
                                               o->balance == FO_BALANCE_TRAIN ? "train" : "nodes",
                                               o->seed));
  rc = fo__writer_commit(w);
  w = NULL;
out:
  fo__progress_end(prog);
  fo__writer_abort(w);
  free(m_ip);
  free(m_ix);
  free(nodes_kt);
  free(train_kt);
  free(edges_ke);
  free_tin(&in);
  return rc;
}

/* fo_partition_quality of an opened typed partitioned dataset: totals over the types, from the
 * parts' CSCs (neighbors' parts through their node type's book). */
int fo__partition_quality_typed(const fo_dataset_t *d, fo_partition_report *rep) {
  const int32_t T = d->n_ntypes, E = d->n_etypes, P = d->n_parts;
  const int64_t N = d->n_nodes;
  int64_t *off = calloc((size_t)T + 1, sizeof *off);
  uint64_t *seen = fo__calloc_n((N + 63) / 64, sizeof *seen);
  rep->n_parts = P;
  rep->n_nodes = N;
  rep->n_edges = d->n_edges;
  if (!off || !seen || !(rep->parts = calloc((size_t)P, sizeof *rep->parts))) {
    free(off);
    free(seen);
    fo_partition_report_free(rep);
    return FO_FAIL(FO_ENOMEM, "partition report");
  }
  for (int32_t t = 0; t < T; t++) off[t + 1] = off[t] + d->ntypes[t].view->n_nodes;
  for (int k = 0; k < P; k++) {
    const fo_dataset_t *p = d->parts[k];
    fo_partition_part *pp = &rep->parts[k];
    if (!p) continue;
    memset(seen, 0, (size_t)((N + 63) / 64) * sizeof *seen);
    for (int32_t t = 0; t < T; t++) {
      const fo_dataset_t *pv = p->ntypes[t].view;
      const int64_t *ids;
      int64_t cnt;
      pp->nodes += pv->n_rows;
      if (fo_dataset_split(pv, d->train_split, &ids, &cnt) == FO_OK) pp->train_nodes += cnt;
      fo_clear_error();
    }
    for (int32_t et = 0; et < E; et++) {
      const fo_dataset_t *ev = p->etypes[et].view, *src = d->ntypes[d->etypes[et].src_t].view;
      const fo_topology *t = &ev->topo[FO_EDGE_DIR_IN];
      const int64_t ns = src->n_nodes, base = off[d->etypes[et].src_t];
      pp->edges += t->n_edges;
      for (int64_t r = 0; r < t->n_rows; r++) {
        const int64_t a = t->indptr[r], b = t->indptr[r + 1];
        if (a < 0 || b < a || b > t->n_edges) {
          free(off);
          free(seen);
          fo_partition_report_free(rep);
          memset(rep, 0, sizeof *rep);
          return FO_FAIL(FO_EFORMAT, "part %d: %s[%lld..%lld] = %lld, %lld is not a valid row in "
                         "[0, %lld]", k, t->indptr_name, (long long)r, (long long)(r + 1),
                         (long long)a, (long long)b, (long long)t->n_edges);
        }
        for (int64_t e = a; e < b; e++) {
          const int64_t u = ldi(t->indices, t->indices_bytes, e);
          if (u < 0 || u >= ns || fo__owner(src, u) == k) continue;
          rep->cut_edges++;
          if (!(seen[(base + u) >> 6] >> ((base + u) & 63) & 1)) {
            seen[(base + u) >> 6] |= UINT64_C(1) << ((base + u) & 63);
            pp->halo_nodes++;
          }
        }
      }
    }
  }
  free(off);
  free(seen);
  fo__partition_summarize(rep);
  return FO_OK;
}
