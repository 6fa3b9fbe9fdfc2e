/*
 * tests/fuzz/readers.c: fz_run_readers, every reader of a dataset directory in turn, as the CLI
 * (`info`, `verify`, `sample`, `bench --features`, `partition`) and the Python loader use them.
 *
 * Every reader runs on any dataset that opens, verified or not: open (mmap and huge-page, all
 * parts and each part alone), the info calls (per node type and edge type of a typed dataset),
 * verify, node_part over every node, sampling in both directions (uniform or weighted; per
 * seed type and with seeds of every type for a typed dataset; temporal in edge- or node-time
 * mode, with the seeds' node times or given times), a loader with features and
 * labels, partitioning of a single dataset, and the partition quality report and a loader over
 * a partitioned one. (Until issue 14's class 1 was closed, partitioning, the quality report
 * and the partitioned loader ran only on datasets that passed fo_dataset_verify.)
 */
#include "fixture.h"
#include "fuzz.h"

#include <fanout/fanout.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(int rc, const char *what) {
  if (rc == FO_OK) return;
  if (rc == FO_EINTERNAL || !fo_last_error()[0]) {
    fprintf(stderr, "%s: status %s, message '%s'\n", what, fo_status_name(rc), fo_last_error());
    abort();
  }
}

static void info_calls(const fo_dataset_t *d) {
  fo_array_info ai;
  fo_degree_stats ds;
  const int64_t *y, *ids;
  int64_t n, nc;
  fo_features f;
  volatile uint64_t sink = 0;
  (void)fo_dataset_manifest(d);
  for (int64_t i = 0; i < fo_dataset_num_arrays(d); i++)
    if (fo_dataset_array_at(d, i, &ai) == FO_OK && ai.nbytes > 0 && ai.data)
      sink += ((const unsigned char *)ai.data)[ai.nbytes - 1]; /* the whole array is mapped */
  for (int dir = 0; dir < 2; dir++) check(fo_dataset_degree_stats(d, (fo_edge_dir)dir, &ds), "degree stats");
  for (int64_t v = 0; v < fo_dataset_num_nodes(d) && v < 64; v++) {
    int64_t o;
    const char *s;
    size_t len;
    if (fo_dataset_node_orig_kind(d) == FO_ORIG_STRING) check(fo_dataset_node_orig_str(d, v, &s, &len), "orig");
    else check(fo_dataset_node_orig_int(d, v, &o), "orig");
  }
  if (fo_dataset_has_features(d) && fo_dataset_features(d, &f) == FO_OK && f.n_rows && f.dim)
    sink += ((const unsigned char *)f.data)[f.n_rows * f.dim * f.itemsize - 1];
  if (fo_dataset_has_labels(d) && fo_dataset_labels(d, &y, &n, &nc) == FO_OK && n) sink += (uint64_t)y[n - 1];
  for (int64_t i = 0; i < fo_dataset_num_splits(d); i++)
    if (fo_dataset_split(d, fo_dataset_split_name(d, i), &ids, &n) == FO_OK && n) sink += (uint64_t)ids[n - 1];
  (void)sink;
}

/* A typed dataset's per-type views and topologies. */
static void typed_info(const fo_dataset_t *d) {
  for (int32_t t = 0; t < fo_dataset_num_node_types(d); t++) {
    const fo_dataset_t *v = fo_dataset_node_data(d, t);
    if (!v || !fo_dataset_node_type_name(d, t)) abort();
    info_calls(v);
  }
  for (int32_t et = 0; et < fo_dataset_num_edge_types(d); et++) {
    fo_edge_type e;
    check(fo_dataset_edge_type(d, et, &e), "edge type");
    for (int dir = 0; dir < 2; dir++) {
      fo_degree_stats ds;
      fo_topology t;
      check(fo_dataset_edge_degree_stats(d, et, (fo_edge_dir)dir, &ds), "edge degree stats");
      check(fo_dataset_edge_topology(d, et, (fo_edge_dir)dir, &t), "edge topology");
    }
  }
}

/* A typed batch's sub-batches index their own node lists. */
static void check_typed_batch(const fo_dataset_t *d, const fo_batch_t *b) {
  for (int32_t et = 0; et < fo_dataset_num_edge_types(d); et++) {
    const fo_batch_t *be = fo_batch_edge_type(b, et);
    fo_edge_type e;
    if (!be || fo_dataset_edge_type(d, et, &e) != FO_OK) abort();
    for (int64_t i = 0; i < be->n_edges; i++) {
      const fo_batch_t *s = fo_batch_node_type(b, e.src_type), *t = fo_batch_node_type(b, e.dst_type);
      if (!s || !t) abort();
      /* edge_dir in: row indexes the src type's nodes, col the dst type's; out: the reverse */
      if (!((be->row[i] >= 0 && be->col[i] >= 0) &&
            ((be->row[i] < s->n_nodes && be->col[i] < t->n_nodes) ||
             (be->row[i] < t->n_nodes && be->col[i] < s->n_nodes))))
        abort();
    }
  }
  for (int32_t t = 0; t < fo_dataset_num_node_types(d); t++) {
    const fo_batch_t *bt = fo_batch_node_type(b, t);
    int64_t n = fo_dataset_num_nodes(fo_dataset_node_data(d, t));
    if (!bt) abort();
    for (int64_t i = 0; i < bt->n_nodes; i++)
      if (bt->node[i] < 0 || bt->node[i] >= n) abort();
  }
}

static void sample_typed(const fo_dataset_t *d, fo_sampler_t *s, unsigned flags, fo_batch_t *b) {
  int32_t T = fo_dataset_num_node_types(d);
  fo_nid_t seeds[8][4];
  const fo_nid_t *sp[8];
  int64_t ns[8];
  for (int32_t t = 0; t < T && t < 8; t++) {
    int64_t n = fo_dataset_num_nodes(fo_dataset_node_data(d, t));
    int rc;
    ns[t] = n > 0 ? 4 : 0;
    sp[t] = n > 0 ? seeds[t] : NULL;
    for (int i = 0; i < ns[t]; i++) seeds[t][i] = (fo_nid_t)(((uint64_t)i * 2654435761u + flags) % (uint64_t)n);
    if (!ns[t]) continue;
    rc = fo_sampler_sample_typed(s, t, seeds[t], ns[t], 0, (uint64_t)t, b);
    check(rc, "sample typed");
    if (rc == FO_OK) check_typed_batch(d, b);
  }
  if (T <= 8) {
    int rc = fo_sampler_sample_hetero(s, sp, ns, 1, 0, b);
    check(rc, "sample hetero");
    if (rc == FO_OK) check_typed_batch(d, b);
  }
}

static void sample(const fo_dataset_t *d, unsigned flags) {
  fo_sampler_opts so;
  fo_sampler_t *s = NULL;
  fo_batch_t *b = NULL;
  int32_t fan[3] = {5, 3, -1};
  int64_t n = fo_dataset_num_nodes(d);
  fo_nid_t seeds[16];
  fo_sampler_opts_init(&so);
  so.fanouts = fan;
  so.n_hops = 1 + (int32_t)(flags % 3);
  so.replace = flags & 4;
  so.disjoint = flags & 8;
  so.edge_dir = (flags & 16) ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN;
  so.seed = flags;
  so.weighted = flags & 256;
  /* temporal (bits 10-13): bits 10-11 none / uniform / last / uniform with a window of 700,
   * bit 12 node-time mode, bit 13 strict */
  so.temporal = ((flags >> 10) & 3) == 0 ? FO_TEMPORAL_NONE
                : ((flags >> 10) & 3) == 2 ? FO_TEMPORAL_LAST : FO_TEMPORAL_UNIFORM;
  so.time_attr = (flags & (1u << 12)) ? FO_TIME_ATTR_NODE : FO_TIME_ATTR_EDGE;
  so.time_strict = flags & (1u << 13);
  so.time_window = ((flags >> 10) & 3) == 3 ? 700 : -1;
  if (fo_batch_create(&b) != FO_OK) abort();
  int rc = fo_sampler_create(d, &so, &s);
  check(rc, "sampler create");
  if (rc == FO_OK && fo_dataset_is_typed(d)) {
    sample_typed(d, s, flags, b);
    rc = -1; /* not the version-1 calls below */
  }
  for (int rep = 0; rc == FO_OK && rep < 3 && n > 0; rep++) {
    for (int i = 0; i < 16; i++) seeds[i] = (fo_nid_t)(((uint64_t)(rep * 16 + i) * 2654435761u + flags) % (uint64_t)n);
    if (so.temporal != FO_TEMPORAL_NONE) {
      int64_t t[16];
      for (int i = 0; i < 16; i++) t[i] = (int64_t)((uint64_t)(rep * 16 + i) * 977u % 7000u);
      /* rep 0: the seeds' node times */
      rc = fo_sampler_sample_at(s, 0, seeds, rep ? t : NULL, 16, 0, (uint64_t)rep, b);
    } else {
      rc = fo_sampler_sample(s, seeds, 16, 0, (uint64_t)rep, b);
    }
    check(rc, "sample");
    if (rc == FO_OK)
      for (int64_t e = 0; e < b->n_edges; e++)
        if (b->row[e] < 0 || b->row[e] >= b->n_nodes || b->col[e] < 0 || b->col[e] >= b->n_nodes) abort();
    if (rc == FO_OK)
      for (int64_t i = 0; i < b->n_nodes; i++)
        if (b->node[i] < 0 || b->node[i] >= n) abort();
  }
  fo_sampler_destroy(s);
  fo_batch_destroy(b);
}

static void load(const fo_dataset_t *d, unsigned flags) {
  fo_loader_opts lo;
  fo_loader_t *L = NULL;
  int32_t fan[2] = {4, 2};
  int rc;
  fo_loader_opts_init(&lo);
  lo.sampler.fanouts = fan;
  lo.sampler.n_hops = 2;
  lo.sampler.seed = flags;
  lo.batch_size = 64;
  lo.split = (flags & 32) ? NULL : "train";
  lo.shuffle = flags & 64;
  lo.num_workers = (flags & 128) ? 1 : 0;
  /* temporal (as in sample(): bits 10-11), seeds at their node times */
  lo.sampler.temporal = ((flags >> 10) & 3) == 0 ? FO_TEMPORAL_NONE
                        : ((flags >> 10) & 3) == 2 ? FO_TEMPORAL_LAST : FO_TEMPORAL_UNIFORM;
  lo.sampler.time_attr = (flags & (1u << 12)) ? FO_TIME_ATTR_NODE : FO_TIME_ATTR_EDGE;
  if (fo_dataset_is_typed(d)) lo.input_type = fo_dataset_node_type_name(d, (int32_t)((flags >> 9) % 2));
  rc = fo_loader_create(d, &lo, &L);
  check(rc, "loader create");
  for (int i = 0; rc == FO_OK && i < 4; i++) {
    fo_loader_batch_t *b = NULL;
    rc = fo_loader_next(L, &b);
    check(rc, "loader next");
    if (rc == FO_OK && b) {
      volatile uint64_t sink = 0;
      if (b->x && b->sample->n_nodes && b->x_dim)
        sink += ((const unsigned char *)b->x)[b->sample->n_nodes * b->x_dim * b->x_itemsize - 1];
      if (b->y && b->batch_size) sink += (uint64_t)b->y[b->batch_size - 1];
      (void)sink;
      fo_loader_release(L, b);
    }
    if (rc == FO_OK && !b) break; /* end of the epoch */
  }
  fo_loader_destroy(L);
}

void fz_run_readers(const char *path, unsigned flags) {
  fo_dataset_opts o;
  fo_dataset_t *d = NULL;
  int rc;
  fo_dataset_opts_init(&o);
  o.load = (flags & 1) ? FO_LOAD_HUGEPAGE : FO_LOAD_MMAP;
  rc = fo_dataset_open(path, &o, &d);
  check(rc, "open");
  if (rc != FO_OK) return;
  info_calls(d);
  if (fo_dataset_is_typed(d)) typed_info(d);
  check(fo_dataset_verify(d), "verify");
  sample(d, flags >> 1);
  if (fo_dataset_num_parts(d) == 0) {
    load(d, flags >> 1);
    {
      fo_partition_opts po;
      fo_partition_opts_init(&po);
      po.n_parts = 2 + (int32_t)((flags >> 3) & 1);
      po.method = (flags & 4) ? FO_PARTITION_RANGE : FO_PARTITION_HASH;
      po.force = true;
      check(fo_partition(path, fz_path(7, "partition-out"), &po, NULL), "partition");
      fz_rm_rf(fz_path(7, "partition-out"));
    }
  } else {
    int64_t n = fo_dataset_num_nodes(d);
    for (int64_t v = 0; v < n; v++) {
      int part;
      int64_t row;
      check(fo_dataset_node_part(d, v, &part, &row), "node_part");
    }
    {
      fo_partition_report rep;
      memset(&rep, 0, sizeof rep);
      check(fo_partition_quality(d, &rep), "partition quality");
      fo_partition_report_free(&rep);
      load(d, flags >> 1);
    }
    /* each part alone, as a rank of a distributed job opens it */
    for (int k = 0; k < fo_dataset_num_parts(d); k++) {
      fo_dataset_t *dk = NULL;
      o.part = k;
      rc = fo_dataset_open(path, &o, &dk);
      check(rc, "open one part");
      if (rc == FO_OK) {
        for (int64_t v = 0; v < n; v += 7) {
          int part;
          int64_t row;
          check(fo_dataset_node_part(dk, v, &part, &row), "node_part (one part open)");
        }
        info_calls(fo_dataset_part(dk, k));
      }
      fo_dataset_close(dk);
    }
  }
  fo_dataset_close(d);
}
