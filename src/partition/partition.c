/*
 * partition/partition.c: `fanout partition`: assign every node to a part (hash, range, METIS),
 * measure the cut, and write the partitioned dataset (see partition.h and docs/FORMAT.md).
 *
 * Writing: the nodes of every part are collected in ascending order with one counting pass;
 * then part by part, its CSC rows are copied from the memory-mapped input (neighbor order kept,
 * global neighbor ids, global edge ids), with its feature rows, labels and split members, and its
 * rank directory (uint32 per 64 nodes: how many of the part's nodes come before each block). The
 * top level holds the book (uint8/uint16 per node, or the range bounds), the splits of the whole
 * graph (so a loader over the partitioned dataset sees the same seed order) and the report.
 */
#include "partition/partition_internal.h"

#include "store/store_internal.h"

#include <math.h>
#include <sys/random.h>
#include <unistd.h>

static const char *const method_names[] = {"hash", "range", "metis"};

json_t *fo__partition_provenance(const fo_dataset_t *d, const char *in_dir, int parts,
                                 const char *method, const char *balance, uint64_t seed) {
  json_t *p = json_pack("{s:s, s:s, s:i, s:s, s:s, s:I}", "tool", "fanout " FO_VERSION_STRING,
                        "input", in_dir, "parts", parts, "method", method, "balance", balance,
                        "seed", (json_int_t)seed);
  const char *text = fo_dataset_manifest(d);
  json_t *root = text ? json_loads(text, 0, NULL) : NULL;
  if (json_is_true(json_object_get(json_object_get(json_object_get(root, "provenance"), "options"),
                                   "undirected")))
    json_object_set_new(p, "options", json_pack("{s:b}", "undirected", 1));
  json_decref(root);
  return p;
}

void fo_partition_opts_init(fo_partition_opts *o) {
  memset(o, 0, sizeof *o);
  o->n_parts = 0;
  o->method = FO_PARTITION_HASH;
  o->balance = FO_BALANCE_NODES;
  o->train_split = "train";
  o->seed = 0;
}

int fo_partition_method_parse(const char *name, fo_partition_method *out) {
  for (int i = 0; i < 3; i++)
    if (name && !strcmp(name, method_names[i])) {
      *out = (fo_partition_method)i;
      return FO_OK;
    }
  return FO_FAIL(FO_EINVAL, "unknown partition method '%s' (expected hash, range or metis)",
                 name ? name : "(null)");
}

void fo_partition_report_free(fo_partition_report *rep) {
  if (!rep) return;
  free(rep->parts);
  rep->parts = NULL;
}

static int64_t ld(const void *a, int bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

/* ---- assignment ------------------------------------------------------------------------- */

static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

void fo__partition_assign_hash(int64_t n, int32_t P, uint64_t seed, int32_t *part) {
  for (int64_t v = 0; v < n; v++)
    part[v] = (int32_t)(mix64((uint64_t)v * UINT64_C(0x9E3779B97F4A7C15) + seed) % (uint64_t)P);
}

/* Contiguous ranges: equal node counts, or equal counts of `weight` (train membership). */
void fo__partition_assign_range(int64_t n, int32_t P, const uint8_t *weight, int64_t total_weight,
                         int64_t *bounds, int32_t *part) {
  bounds[0] = 0;
  if (!weight || total_weight == 0) {
    /* floor(n k / P) without overflow: n = q P + r */
    for (int32_t k = 1; k <= P; k++) bounds[k] = (n / P) * k + (n % P) * k / P;
  } else {
    int64_t acc = 0, v = 0;
    for (int32_t k = 1; k < P; k++) {
      int64_t target = (total_weight / P) * k + (total_weight % P) * k / P;
      while (v < n && acc < target) acc += weight[v++];
      /* every part keeps at least one node when it can */
      if (v <= bounds[k - 1]) v = bounds[k - 1] + 1;
      if (v > n - (P - k)) v = n - (P - k);
      bounds[k] = v;
      acc = 0;
      for (int64_t u = 0; u < v; u++) acc += weight[u];
    }
    bounds[P] = n;
  }
  for (int32_t k = 0; k < P; k++)
    for (int64_t v = bounds[k]; v < bounds[k + 1]; v++) part[v] = k;
}

/* ---- quality ------------------------------------------------------------------------------ */

int fo__partition_quality(const fo_topology *t, const int32_t *part, int32_t P, const uint8_t *train,
                          fo_partition_report *rep) {
  uint64_t *seen;
  int64_t *rows_of = NULL, *start = NULL;
  const int64_t n = t->n_nodes;
  memset(rep, 0, sizeof *rep);
  rep->n_parts = P;
  rep->n_nodes = n;
  rep->n_edges = t->n_edges;
  if (!(rep->parts = calloc((size_t)P, sizeof *rep->parts)))
    return FO_FAIL(FO_ENOMEM, "partition report");
  seen = fo__calloc_n((n + 63) / 64, sizeof *seen);
  rows_of = fo__malloc_n(n, sizeof *rows_of);
  start = fo__calloc_n(P + 1, sizeof *start);
  if (!seen || !rows_of || !start) {
    free(seen);
    free(rows_of);
    free(start);
    fo_partition_report_free(rep);
    return FO_FAIL(FO_ENOMEM, "partition report");
  }
  /* nodes of each part, ascending */
  for (int64_t v = 0; v < n; v++) start[part[v] + 1]++;
  for (int32_t k = 0; k < P; k++) start[k + 1] += start[k];
  {
    int64_t *next = fo__malloc_n(P, sizeof *next);
    if (next) {
      memcpy(next, start, (size_t)P * sizeof *next);
      for (int64_t v = 0; v < n; v++) rows_of[next[part[v]]++] = v;
      free(next);
    }
  }
  for (int32_t k = 0; k < P; k++) {
    fo_partition_part *pp = &rep->parts[k];
    memset(seen, 0, (size_t)((n + 63) / 64) * sizeof *seen);
    for (int64_t i = start[k]; i < start[k + 1]; i++) {
      int64_t v = rows_of[i];
      pp->nodes++;
      if (train && train[v]) pp->train_nodes++;
      for (int64_t e = t->indptr[v]; e < t->indptr[v + 1]; e++) {
        int64_t u = ld(t->indices, t->indices_bytes, e);
        pp->edges++;
        if (part[u] == k) continue;
        rep->cut_edges++;
        if (!(seen[u >> 6] >> (u & 63) & 1)) {
          seen[u >> 6] |= UINT64_C(1) << (u & 63);
          pp->halo_nodes++;
        }
      }
    }
  }
  free(seen);
  free(rows_of);
  free(start);
  fo__partition_summarize(rep);
  return FO_OK;
}

void fo__partition_summarize(fo_partition_report *rep) {
  int64_t max_nodes = 0, max_train = 0, total = 0;
  rep->train_nodes = 0;
  for (int32_t k = 0; k < rep->n_parts; k++) {
    const fo_partition_part *pp = &rep->parts[k];
    if (pp->nodes > max_nodes) max_nodes = pp->nodes;
    if (pp->train_nodes > max_train) max_train = pp->train_nodes;
    rep->train_nodes += pp->train_nodes;
    total += pp->nodes + pp->halo_nodes;
  }
  rep->edge_cut = rep->n_edges ? (double)rep->cut_edges / (double)rep->n_edges : 0.0;
  rep->replication = rep->n_nodes ? (double)total / (double)rep->n_nodes : 0.0;
  rep->node_balance = rep->n_nodes ? (double)max_nodes * rep->n_parts / (double)rep->n_nodes : 1.0;
  rep->train_balance =
      rep->train_nodes ? (double)max_train * rep->n_parts / (double)rep->train_nodes : 1.0;
}

int fo_partition_quality(const fo_dataset_t *d, fo_partition_report *rep) {
  uint64_t *seen;
  const int64_t n = d->n_nodes;
  const int64_t *train = NULL;
  int64_t n_train = 0;
  uint8_t *is_train = NULL;
  memset(rep, 0, sizeof *rep);
  if (!d->n_parts) return FO_FAIL(FO_EINVAL, "dataset '%s' is not partitioned", d->path);
  if (d->typed) return fo__partition_quality_typed(d, rep);
  rep->n_parts = d->n_parts;
  rep->n_nodes = n;
  rep->n_edges = d->n_edges;
  if (!(rep->parts = calloc((size_t)d->n_parts, sizeof *rep->parts)) ||
      !(seen = fo__calloc_n((n + 63) / 64, sizeof *seen))) {
    fo_partition_report_free(rep);
    return FO_FAIL(FO_ENOMEM, "partition report");
  }
  if (fo_dataset_split(d, d->train_split, &train, &n_train) == FO_OK) {
    if ((is_train = fo__calloc_n(n, 1)))
      for (int64_t i = 0; i < n_train; i++)
        if (train[i] >= 0 && train[i] < n) is_train[train[i]] = 1;
  }
  fo_clear_error();
  for (int k = 0; k < d->n_parts; k++) {
    const fo_dataset_t *p = d->parts[k];
    const fo_topology *t = &p->topo[FO_EDGE_DIR_IN];
    const int64_t *rows = p->row_nodes->data;
    fo_partition_part *pp = &rep->parts[k];
    memset(seen, 0, (size_t)((n + 63) / 64) * sizeof *seen);
    pp->nodes = p->n_rows;
    pp->edges = p->n_edges;
    for (int64_t r = 0; r < p->n_rows; r++) {
      const int64_t a = t->indptr[r], b = t->indptr[r + 1];
      if (rows[r] < 0 || rows[r] >= n || a < 0 || b < a || b > t->n_edges) {
        free(seen);
        free(is_train);
        fo_partition_report_free(rep);
        memset(rep, 0, sizeof *rep);
        return rows[r] < 0 || rows[r] >= n
                   ? FO_FAIL(FO_EFORMAT, "part %d: %s[%lld] = %lld is not a node id in [0, %lld)",
                             k, p->row_nodes->name, (long long)r, (long long)rows[r], (long long)n)
                   : FO_FAIL(FO_EFORMAT, "part %d: %s[%lld..%lld] = %lld, %lld is not a valid row "
                             "in [0, %lld]", k, t->indptr_name, (long long)r, (long long)(r + 1),
                             (long long)a, (long long)b, (long long)t->n_edges);
      }
      if (is_train && is_train[rows[r]]) pp->train_nodes++;
      for (int64_t e = a; e < b; e++) {
        int64_t u = ld(t->indices, t->indices_bytes, e);
        if (u < 0 || u >= n || fo__owner(d, u) == k) continue;
        rep->cut_edges++;
        if (!(seen[u >> 6] >> (u & 63) & 1)) {
          seen[u >> 6] |= UINT64_C(1) << (u & 63);
          pp->halo_nodes++;
        }
      }
    }
  }
  free(seen);
  free(is_train);
  fo__partition_summarize(rep);
  return FO_OK;
}

/* ---- writing ------------------------------------------------------------------------------ */

/* A fresh 64-bit id for one run of the partitioner (16 hex digits), recorded in the top-level
 * manifest and in every part's, so that opening refuses parts of two different runs mixed in
 * one directory. Random (getrandom), falling back to the clock and pid mixed. */
void fo__partition_id(char out[17]) {
  uint64_t id = 0;
  if (getrandom(&id, sizeof id, GRND_NONBLOCK) != (ssize_t)sizeof id)
    id = mix64(fo__now_ns() ^ ((uint64_t)getpid() << 40) ^ (uint64_t)(uintptr_t)&id);
  snprintf(out, 17, "%016llx", (unsigned long long)id);
}

/* The per-position arrays of one direction besides indptr, indices and eid (edge times, edge
 * weights and their alias tables, and whatever the single-process format adds there later),
 * for a part's rows rows[0..nr) of `t` (whose manifest entry is `src`): every string key of
 * `src` naming an array whose first dimension is the direction's edge count is copied position
 * by position (its values follow their edge: they must not depend on where the row starts, as
 * the alias tables' row offsets do not) into "<prefix><key>" of pw and named in `dst`; other
 * string keys (row_order) are kept as they are; integers (num_edges) are the writer's. An array
 * of another shape is FO_ENOSYS (nothing a part could carry row by row). */
int fo__part_edge_splits(const fo_dataset_t *d, int32_t et, fo__writer *w, const char *prefix,
                         json_t *obj) {
  const int64_t n_splits = fo_dataset_num_edge_splits(d, et);
  json_t *js, *je;
  if (!n_splits) return FO_OK;
  json_object_set_new(obj, "edge_splits", js = json_object());
  json_object_set_new(obj, "edge_split_ends", je = json_object());
  for (int64_t i = 0; i < n_splits; i++) {
    const char *name = fo_dataset_edge_split_name(d, et, i);
    const int64_t *ids;
    int64_t k, *ends, shape[2];
    char a1[160], a2[176];
    int rc;
    if ((rc = fo_dataset_edge_split(d, et, name, &ids, &k)) != FO_OK) return rc;
    if (!(ends = fo__malloc_n(2 * k + 1, sizeof *ends)))
      return FO_FAIL(FO_ENOMEM, "edge split '%s': %lld endpoints", name, (long long)k);
    if ((rc = fo_dataset_edge_endpoints(d, et, ids, k, ends, ends + k)) != FO_OK) {
      free(ends);
      return fo__context(rc, "edge split '%s'", name);
    }
    snprintf(a1, sizeof a1, "%sedge_split.%s", prefix, name);
    snprintf(a2, sizeof a2, "%s.ends", a1);
    shape[0] = 2;
    shape[1] = k;
    rc = fo__writer_add(w, a1, "<i8", 1, &k, ids);
    if (rc == FO_OK) rc = fo__writer_add(w, a2, "<i8", 2, shape, ends);
    free(ends);
    if (rc != FO_OK) return rc;
    json_object_set_new(js, name, json_string(a1));
    json_object_set_new(je, name, json_string(a2));
  }
  return FO_OK;
}

int fo__part_edge_arrays(const fo_dataset_t *d, json_t *src, const fo_topology *t,
                         const int64_t *rows, int64_t nr, fo__writer *pw, const char *prefix,
                         json_t *dst) {
  const char *key;
  json_t *jv;
  if (!json_is_object(src)) return FO_OK;
  json_object_foreach(src, key, jv) {
    const fo__array *a;
    char name[160];
    unsigned char *buf;
    int64_t shape[2], m = 0;
    size_t rb;
    int rc;
    if (!json_is_string(jv) || !strcmp(key, "indptr") || !strcmp(key, "indices") || !strcmp(key, "eid"))
      continue;
    if (!strcmp(key, "row_order") || !(a = fo__dataset_find(d, json_string_value(jv)))) {
      json_object_set_new(dst, key, json_string(json_string_value(jv))); /* a value, not an array */
      continue;
    }
    if (a->ndim < 1 || a->shape[0] != t->n_edges)
      return FO_FAIL(FO_ENOSYS, "partition: topology key '%s' names array '%s' of %lld entries, "
                     "not one per edge (%lld): a part cannot carry it", key, a->name,
                     (long long)a->shape[0], (long long)t->n_edges);
    rb = (size_t)a->itemsize * (size_t)(a->ndim > 1 ? a->shape[1] : 1);
    for (int64_t r = 0; r < nr; r++) m += t->indptr[rows[r] + 1] - t->indptr[rows[r]];
    if (!(buf = fo__malloc_n(m ? m : 1, rb ? rb : 1))) return FO_FAIL(FO_ENOMEM, "part %s", key);
    for (int64_t r = 0, at = 0; r < nr; r++) {
      const int64_t b = t->indptr[rows[r]], deg = t->indptr[rows[r] + 1] - b;
      memcpy(buf + (size_t)at * rb, (const unsigned char *)a->data + (size_t)b * rb, (size_t)deg * rb);
      at += deg;
    }
    snprintf(name, sizeof name, "%s%s", prefix, key);
    shape[0] = m;
    shape[1] = a->ndim > 1 ? a->shape[1] : 0;
    rc = fo__writer_add(pw, name, a->dtype, a->ndim, shape, buf);
    free(buf);
    if (rc != FO_OK) return rc;
    json_object_set_new(dst, key, json_string(name));
  }
  return FO_OK;
}

typedef struct input {
  const fo_dataset_t *d;
  fo_topology t;
  fo_features f;
  bool has_x;
  const int64_t *y;
  int64_t num_classes;
  json_t *csc_entry; /* the input manifest's topology.csc (per-position arrays to carry) */
} input;

/* Part k's dataset: rows rows[0..nr), into subdirectory "part-<k>" of w. */
static int write_part(const input *in, int32_t k, int32_t P, const int64_t *rows, int64_t nr,
                      const uint32_t *rank, int64_t n_rank, fo__writer *w, json_t *parts_json,
                      const char *partition_id, const fo_partition_opts *o) {
  const fo_topology *t = &in->t;
  const int64_t n = t->n_nodes;
  char name[32];
  fo__writer *pw = NULL;
  int64_t *indptr = NULL, *idx = NULL, *eid = NULL, *reid = NULL, m_k = 0;
  void *xb = NULL;
  int64_t *yb = NULL;
  json_t *man, *js;
  int rc, iw = t->indices_bytes, ew = t->edge_id_bound - 1 <= INT32_MAX ? 4 : 8;
  snprintf(name, sizeof name, "part-%d", (int)k);
  if ((rc = fo__writer_begin_sub(w, name, &pw)) != FO_OK) return rc;
  man = fo__writer_manifest(pw);
  if (!(indptr = fo__malloc_n(nr + 1, sizeof *indptr))) {
    rc = FO_FAIL(FO_ENOMEM, "part %d indptr", (int)k);
    goto out;
  }
  indptr[0] = 0;
  for (int64_t r = 0; r < nr; r++) indptr[r + 1] = indptr[r] + (t->indptr[rows[r] + 1] - t->indptr[rows[r]]);
  m_k = indptr[nr];
  idx = fo__malloc_n(m_k, sizeof *idx);
  eid = fo__malloc_n(m_k, sizeof *eid);
  /* edge ids that are the input's CSC positions run consecutively along each row: row_eid */
  if (!t->eid) reid = fo__malloc_n(nr ? nr : 1, sizeof *reid);
  if (!idx || !eid || (!t->eid && !reid)) {
    rc = FO_FAIL(FO_ENOMEM, "part %d: %lld edges", (int)k, (long long)m_k);
    goto out;
  }
  for (int64_t r = 0; r < nr; r++) {
    int64_t a = t->indptr[rows[r]], b = t->indptr[rows[r] + 1], at = indptr[r];
    if (reid) reid[r] = a;
    for (int64_t e = a; e < b; e++) {
      idx[at + e - a] = ld(t->indices, t->indices_bytes, e);
      eid[at + e - a] = t->eid ? ld(t->eid, t->eid_bytes, e) : e;
    }
  }
  json_object_set_new(man, "num_nodes", json_integer(n));
  json_object_set_new(man, "num_edges", json_integer(m_k));
  json_object_set_new(man, "num_rows", json_integer(nr));
  json_object_set_new(man, "edge_id_bound", json_integer(t->edge_id_bound));
  json_object_set_new(man, "part", json_pack("{s:i, s:i}", "index", (int)k, "of", (int)P));
  json_object_set_new(man, "partition_id", json_string(partition_id));
  json_object_set_new(man, "topology", json_pack("{s:{s:s, s:s, s:s}}", "csc", "indptr", "csc_indptr",
                                                 "indices", "csc_indices", "eid", "csc_eid"));
  json_object_set_new(man, "edge_ids", json_string("global"));
  json_object_set_new(man, "row_nodes", json_string("row_nodes"));
  if ((rc = fo__writer_add_i64(pw, "csc_indptr", 8, indptr, nr + 1)) != FO_OK ||
      (rc = fo__writer_add_i64(pw, "csc_indices", iw, idx, m_k)) != FO_OK ||
      (rc = fo__writer_add_i64(pw, "csc_eid", ew, eid, m_k)) != FO_OK ||
      (rc = fo__writer_add_i64(pw, "row_nodes", 8, rows, nr)) != FO_OK)
    goto out;
  /* edge times, weights and alias tables travel with their rows (csc_time, csc_weight, ...) */
  if ((rc = fo__part_edge_arrays(in->d, in->csc_entry, t, rows, nr, pw, "csc_",
                                 json_object_get(json_object_get(man, "topology"), "csc"))) != FO_OK)
    goto out;
  if (reid) {
    if ((rc = fo__writer_add_i64(pw, "csc_row_eid", 8, reid, nr)) != FO_OK) goto out;
    json_object_set_new(json_object_get(json_object_get(man, "topology"), "csc"), "row_eid",
                        json_string("csc_row_eid"));
  }
  if (rank) {
    if ((rc = fo__writer_add(pw, "row_rank", "<u4", 1, &n_rank, rank)) != FO_OK) goto out;
    json_object_set_new(man, "row_rank", json_string("row_rank"));
  }
  if (in->has_x) {
    const size_t rb = (size_t)(in->f.dim * in->f.itemsize);
    const int64_t shape[2] = {nr, in->f.dim};
    static const struct {
      const char *name, *descr;
    } dt[] = {{"float32", "<f4"}, {"float16", "<f2"}, {"bfloat16", "<u2"}, {"uint8", "|u1"}};
    const char *descr = "<f4";
    json_t *jf;
    for (int i = 0; i < 4; i++)
      if (!strcmp(dt[i].name, in->f.dtype)) descr = dt[i].descr;
    if (!(xb = fo__malloc_n(nr, rb ? rb : 1))) {
      rc = FO_FAIL(FO_ENOMEM, "part %d features", (int)k);
      goto out;
    }
    for (int64_t r = 0; r < nr; r++)
      memcpy((char *)xb + (size_t)r * rb, (const char *)in->f.data + (size_t)rows[r] * rb, rb);
    if ((rc = fo__writer_add(pw, "x", descr, 2, shape, xb)) != FO_OK) goto out;
    jf = json_pack("{s:s, s:s}", "array", "x", "dtype", in->f.dtype);
    if (in->f.scale) {
      if ((rc = fo__writer_add(pw, "x_scale", "<f4", 1, &in->f.dim, in->f.scale)) != FO_OK ||
          (rc = fo__writer_add(pw, "x_offset", "<f4", 1, &in->f.dim, in->f.offset)) != FO_OK) {
        json_decref(jf);
        goto out;
      }
      json_object_set_new(jf, "scale", json_string("x_scale"));
      json_object_set_new(jf, "offset", json_string("x_offset"));
    }
    json_object_set_new(man, "features", jf);
  }
  if (in->y) {
    if (!(yb = fo__malloc_n(nr, sizeof *yb))) {
      rc = FO_FAIL(FO_ENOMEM, "part %d labels", (int)k);
      goto out;
    }
    for (int64_t r = 0; r < nr; r++) yb[r] = in->y[rows[r]];
    if ((rc = fo__writer_add(pw, "y", "<i8", 1, &nr, yb)) != FO_OK) goto out;
    json_object_set_new(man, "labels", json_pack("{s:s, s:I}", "array", "y", "num_classes",
                                                 (json_int_t)in->num_classes));
  }
  /* split members owned by this part, in the split's order (global ids) */
  js = json_object();
  json_object_set_new(man, "splits", js);
  for (int64_t i = 0; i < fo_dataset_num_splits(in->d); i++) {
    const char *sname = fo_dataset_split_name(in->d, i);
    const int64_t *ids;
    int64_t cnt, kept = 0, *mem;
    char arr[48];
    fo_dataset_split(in->d, sname, &ids, &cnt);
    if (!(mem = fo__malloc_n(cnt, sizeof *mem))) {
      rc = FO_FAIL(FO_ENOMEM, "part %d split '%s'", (int)k, sname);
      goto out;
    }
    for (int64_t j = 0; j < cnt; j++) {
      /* binary search: is ids[j] one of this part's rows? */
      int64_t lo = 0, hi = nr, v = ids[j];
      while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (rows[mid] < v) lo = mid + 1;
        else hi = mid;
      }
      if (lo < nr && rows[lo] == v) mem[kept++] = v;
    }
    snprintf(arr, sizeof arr, "%s_idx", sname);
    rc = fo__writer_add(pw, arr, "<i8", 1, &kept, mem);
    free(mem);
    if (rc != FO_OK) goto out;
    json_object_set_new(js, sname, json_string(arr));
  }
  if (o->cancel && *o->cancel) {
    rc = FO_FAIL(FO_ECANCELED, "partition interrupted");
    goto out;
  }
  json_array_append_new(parts_json, json_string(name));
  rc = fo__writer_commit(pw);
  pw = NULL;
out:
  fo__writer_abort(pw);
  free(indptr);
  free(idx);
  free(eid);
  free(reid);
  free(xb);
  free(yb);
  return rc;
}

json_t *fo__partition_report_json(const fo_partition_report *r) {
  json_t *parts = json_array();
  for (int32_t k = 0; k < r->n_parts; k++) {
    const fo_partition_part *p = &r->parts[k];
    json_array_append_new(parts, json_pack("{s:I, s:I, s:I, s:I}", "nodes", (json_int_t)p->nodes,
                                           "edges", (json_int_t)p->edges, "train_nodes",
                                           (json_int_t)p->train_nodes, "halo_nodes",
                                           (json_int_t)p->halo_nodes));
  }
  return json_pack("{s:I, s:f, s:f, s:f, s:f, s:o}", "cut_edges", (json_int_t)r->cut_edges,
                   "edge_cut", r->edge_cut, "replication", r->replication, "node_balance",
                   r->node_balance, "train_balance", r->train_balance, "parts", parts);
}

static int check(const fo_dataset_t *d, const fo_partition_opts *o) {
  int64_t n = fo_dataset_num_nodes(d);
  if (fo_dataset_num_parts(d))
    return FO_FAIL(FO_EINVAL, "'%s' is already partitioned", fo_dataset_path(d));
  if (!fo_dataset_has_topology(d, FO_EDGE_DIR_IN))
    return FO_FAIL(FO_EINVAL, "'%s' has no CSC%s (import with --csc): parts store in-neighbor lists",
                   fo_dataset_path(d), fo_dataset_is_typed(d) ? " for every edge type" : "");
  if (o->n_parts < 1 || o->n_parts > 65536)
    return FO_FAIL(FO_EINVAL, "number of parts %d is not in 1..65536", (int)o->n_parts);
  if (o->n_parts > n)
    return FO_FAIL(FO_EINVAL, "number of parts %d is more than the %lld nodes", (int)o->n_parts,
                   (long long)n);
  if ((unsigned)o->method > FO_PARTITION_METIS)
    return FO_FAIL(FO_EINVAL, "unknown partition method %d", (int)o->method);
  if ((unsigned)o->balance > FO_BALANCE_TRAIN)
    return FO_FAIL(FO_EINVAL, "unknown balance %d", (int)o->balance);
  return FO_OK;
}

static int run(const char *in_dir, const char *out_dir, const fo_partition_opts *o,
               fo_partition_report *rep) {
  fo_dataset_t *d = NULL;
  input in;
  int32_t *part = NULL, P = o->n_parts;
  int64_t n, *bounds = NULL, *rows = NULL, *start = NULL, n_rank;
  uint8_t *train = NULL;
  int64_t n_train = 0;
  uint32_t *rank = NULL;
  fo__writer *w = NULL;
  fo__progress prog;
  json_t *man, *parts_json, *src_man = NULL;
  char partition_id[17];
  int rc;

  memset(&in, 0, sizeof in);
  fo__progress_start(&prog, o->progress, "partition", 0);
  if ((rc = fo__writer_check_input(out_dir, in_dir, "input dataset")) != FO_OK) goto out;
  if ((rc = fo_dataset_open(in_dir, NULL, &d)) != FO_OK) goto out;
  if ((rc = check(d, o)) != FO_OK) goto out;
  /* Every array the partitioner walks is checked first (it reads them all anyway): a corrupt
   * indptr, index, edge id, label or split entry is FO_EFORMAT naming it, never a crash or a
   * wrong partition written with exit status 0. */
  if ((rc = fo__dataset_check_structure(d)) != FO_OK) {
    rc = fo__context(rc, "input '%s'", in_dir);
    goto out;
  }
  if (fo_dataset_is_typed(d)) {
    /* typed: per node type books, every edge type in every part (typed.c) */
    rc = fo__partition_typed(d, in_dir, out_dir, o, rep, &prog);
    goto out;
  }
  n = fo_dataset_num_nodes(d);
  in.d = d;
  if (!(src_man = json_loads(d->manifest_text, 0, NULL))) {
    rc = FO_FAIL(FO_EFORMAT, "input '%s': manifest", in_dir);
    goto out;
  }
  in.csc_entry = json_object_get(json_object_get(src_man, "topology"), "csc");
  fo_dataset_topology(d, FO_EDGE_DIR_IN, &in.t);
  in.has_x = fo_dataset_features(d, &in.f) == FO_OK;
  if (fo_dataset_has_labels(d)) {
    int64_t ny;
    fo_dataset_labels(d, &in.y, &ny, &in.num_classes);
  }
  fo_clear_error();
  /* train membership, for balance and the report */
  {
    const char *split = o->train_split ? o->train_split : "train";
    const int64_t *ids;
    if (fo_dataset_split(d, split, &ids, &n_train) == FO_OK) {
      if (!(train = fo__calloc_n(n, 1))) {
        rc = FO_FAIL(FO_ENOMEM, "train membership");
        goto out;
      }
      for (int64_t i = 0; i < n_train; i++) {
        if (ids[i] < 0 || ids[i] >= n) {
          rc = FO_FAIL(FO_EFORMAT, "split '%s' entry %lld is %lld, not a node id", split, (long long)i,
                       (long long)ids[i]);
          goto out;
        }
        train[ids[i]] = 1;
      }
    } else if (o->balance == FO_BALANCE_TRAIN) {
      rc = fo__context(FO_EINVAL, "balance train");
      goto out;
    }
    fo_clear_error();
  }
  if (!(part = fo__malloc_n(n, sizeof *part))) {
    rc = FO_FAIL(FO_ENOMEM, "partition of %lld nodes", (long long)n);
    goto out;
  }
  /* progress: a spinner for the phases that report nothing (METIS is one opaque call), then a
   * bar over the parts written */
  fo__progress_spin(&prog, o->progress, o->method == FO_PARTITION_METIS ? "partition: metis"
                                        : o->method == FO_PARTITION_RANGE ? "partition: range"
                                                                          : "partition: hash");
  switch (o->method) {
  case FO_PARTITION_HASH: fo__partition_assign_hash(n, P, o->seed, part); break;
  case FO_PARTITION_RANGE: {
    int64_t tw = 0;
    if (!(bounds = fo__malloc_n(P + 1, sizeof *bounds))) {
      rc = FO_FAIL(FO_ENOMEM, "range bounds");
      goto out;
    }
    for (int64_t v = 0; train && v < n; v++) tw += train[v];
    fo__partition_assign_range(n, P, o->balance == FO_BALANCE_TRAIN ? train : NULL, tw, bounds, part);
    break;
  }
  case FO_PARTITION_METIS:
    if ((rc = fo__partition_metis(&in.t, P, o->balance == FO_BALANCE_TRAIN ? train : NULL, o->seed,
                                  part)) != FO_OK)
      goto out;
    break;
  }
  if (o->cancel && *o->cancel) {
    rc = FO_FAIL(FO_ECANCELED, "partition interrupted");
    goto out;
  }
  fo__progress_end(&prog);
  fo__progress_spin(&prog, o->progress, "partition: quality");
  if ((rc = fo__partition_quality(&in.t, part, P, train, rep)) != FO_OK) goto out;
  fo__progress_end(&prog);

  /* nodes of each part, ascending; rank directories */
  rows = fo__malloc_n(n, sizeof *rows);
  start = fo__calloc_n(P + 1, sizeof *start);
  if (!rows || !start) {
    rc = FO_FAIL(FO_ENOMEM, "part rows");
    goto out;
  }
  for (int64_t v = 0; v < n; v++) start[part[v] + 1]++;
  for (int32_t k = 0; k < P; k++) {
    if (start[k + 1] > UINT32_MAX) {
      rc = FO_FAIL(FO_ERANGE, "part %d would own %lld nodes (at most 2^32 - 1)", (int)k,
                   (long long)start[k + 1]);
      goto out;
    }
    start[k + 1] += start[k];
  }
  {
    int64_t *next = fo__malloc_n(P, sizeof *next);
    if (!next) {
      rc = FO_FAIL(FO_ENOMEM, "part rows");
      goto out;
    }
    memcpy(next, start, (size_t)P * sizeof *next);
    for (int64_t v = 0; v < n; v++) rows[next[part[v]]++] = v;
    free(next);
  }
  n_rank = (n + FO_RANK_BLOCK - 1) / FO_RANK_BLOCK + 1;
  if (o->method != FO_PARTITION_RANGE && !(rank = fo__malloc_n(n_rank, sizeof *rank))) {
    rc = FO_FAIL(FO_ENOMEM, "rank directory");
    goto out;
  }

  if ((rc = fo__writer_begin(out_dir, o->force, &w)) != FO_OK) goto out;
  fo__writer_set_cancel(w, o->cancel);
  man = fo__writer_manifest(w);
  json_object_set_new(man, "format", json_string(FO_PARTITIONED_NAME));
  json_object_set_new(man, "num_nodes", json_integer(n));
  json_object_set_new(man, "num_edges", json_integer(fo_dataset_num_edges(d)));
  json_object_set_new(man, "num_parts", json_integer(P));
  fo__partition_id(partition_id);
  json_object_set_new(man, "partition_id", json_string(partition_id));
  json_object_set_new(man, "method", json_string(method_names[o->method]));
  json_object_set_new(man, "balance", json_string(o->balance == FO_BALANCE_TRAIN ? "train" : "nodes"));
  json_object_set_new(man, "train_split", json_string(o->train_split ? o->train_split : "train"));
  if (o->method == FO_PARTITION_RANGE) {
    json_t *jb = json_array();
    for (int32_t k = 0; k <= P; k++) json_array_append_new(jb, json_integer(bounds[k]));
    json_object_set_new(man, "book", json_pack("{s:s, s:o}", "kind", "range", "bounds", jb));
  } else {
    void *book = fo__malloc_n(n, P <= 256 ? 1 : 2);
    if (!book) {
      rc = FO_FAIL(FO_ENOMEM, "book");
      goto out;
    }
    for (int64_t v = 0; v < n; v++) {
      if (P <= 256) ((uint8_t *)book)[v] = (uint8_t)part[v];
      else ((uint16_t *)book)[v] = (uint16_t)part[v];
    }
    rc = fo__writer_add(w, "book", P <= 256 ? "|u1" : "<u2", 1, &n, book);
    free(book);
    if (rc != FO_OK) goto out;
    json_object_set_new(man, "book", json_pack("{s:s, s:s}", "kind", "array", "array", "book"));
  }
  parts_json = json_array();
  json_object_set_new(man, "parts", parts_json);
  fo__progress_start_items(&prog, o->progress, "partition: write", (uint64_t)P, "parts");
  for (int32_t k = 0; k < P; k++) {
    if (rank) {
      int64_t cnt = 0;
      for (int64_t b = 0; b < n_rank; b++) {
        rank[b] = (uint32_t)cnt;
        for (int64_t v = b * FO_RANK_BLOCK; v < (b + 1) * FO_RANK_BLOCK && v < n; v++) cnt += part[v] == k;
      }
    }
    if ((rc = write_part(&in, k, P, rows + start[k], start[k + 1] - start[k], rank, n_rank, w,
                         parts_json, partition_id, o)) != FO_OK)
      goto out;
    fo__progress_update(&prog, (uint64_t)k + 1);
  }
  /* the whole graph's splits, in their order: the loader's seed order over the parts */
  {
    json_t *js = json_object();
    json_object_set_new(man, "splits", js);
    for (int64_t i = 0; i < fo_dataset_num_splits(d); i++) {
      const char *sname = fo_dataset_split_name(d, i);
      const int64_t *ids;
      int64_t cnt;
      char arr[48];
      fo_dataset_split(d, sname, &ids, &cnt);
      snprintf(arr, sizeof arr, "%s_idx", sname);
      if ((rc = fo__writer_add(w, arr, "<i8", 1, &cnt, ids)) != FO_OK) goto out;
      json_object_set_new(js, sname, json_string(arr));
    }
  }
  /* the edge splits, whole, with their endpoints (edge ids do not change either) */
  if ((rc = fo__part_edge_splits(d, 0, w, "", man)) != FO_OK) goto out;
  /* the input's original node ids, unchanged (node ids do not change) */
  {
    fo_array_info oa;
    if (d->node_orig_off) {
      /* string ids as offsets + bytes: both arrays, unchanged */
      if ((rc = fo__writer_add(w, "node_orig_offsets", "<i8", 1, d->node_orig_off->shape,
                               d->node_orig_off->data)) != FO_OK ||
          (rc = fo__writer_add(w, "node_orig_bytes", "|u1", 1, d->node_orig->shape,
                               d->node_orig->data)) != FO_OK)
        goto out;
      json_object_set_new(man, "node_orig", json_pack("{s:s, s:s}", "offsets", "node_orig_offsets",
                                                      "bytes", "node_orig_bytes"));
    } else if (fo_dataset_node_orig_kind(d) != FO_ORIG_IDENTITY &&
               fo_dataset_array(d, "node_orig", &oa) == FO_OK) {
      if ((rc = fo__writer_add(w, "node_orig", oa.dtype, 1, oa.shape, oa.data)) != FO_OK) goto out;
      json_object_set_new(man, "node_orig", json_string("node_orig"));
    }
    fo_clear_error();
  }
  /* node times, whole, beside the book: seeds' default times and node-time sampling read them
   * for any node, on every machine */
  if (d->node_time) {
    if ((rc = fo__writer_add(w, "node_time", "<i8", 1, d->node_time->shape, d->node_time->data)) != FO_OK)
      goto out;
    json_object_set_new(man, "node_time", json_string("node_time"));
  }
  json_object_set_new(man, "quality", fo__partition_report_json(rep));
  json_object_set_new(man, "provenance",
                      fo__partition_provenance(d, in_dir, (int)P, method_names[o->method],
                                               o->balance == FO_BALANCE_TRAIN ? "train" : "nodes",
                                               o->seed));
  rc = fo__writer_commit(w);
  w = NULL;
out:
  fo__progress_end(&prog);
  fo__writer_abort(w);
  json_decref(src_man);
  fo_dataset_close(d);
  free(part);
  free(bounds);
  free(rows);
  free(start);
  free(train);
  free(rank);
  return rc;
}

int fo_partition(const char *in_dir, const char *out_dir, const fo_partition_opts *o,
                 fo_partition_report *rep) {
  fo_partition_opts defaults;
  fo_partition_report local;
  int rc;
  if (!rep) rep = &local;
  memset(rep, 0, sizeof *rep);
  if (!o) {
    fo_partition_opts_init(&defaults);
    o = &defaults;
  }
  if (!in_dir || !out_dir) return FO_FAIL(FO_EINVAL, "partition: input or output is NULL");
  rc = run(in_dir, out_dir, o, rep);
  if (rc != FO_OK || rep == &local) fo_partition_report_free(rep);
  if (rc != FO_OK) {
    memset(rep, 0, sizeof *rep);
    return fo__context(rc, "partition '%s'", in_dir);
  }
  return FO_OK;
}
