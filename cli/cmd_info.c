/*
 * cli/cmd_info.c: `fanout info DIR [--json]`: counts, degree summary per stored direction and
 * the array list. Reads indptr once (O(n)); never the edges.
 */
#include "cli.h"

#include <getopt.h>
#include <string.h>

static void human_bytes(char *buf, size_t cap, int64_t b) {
  if (b < 1024) snprintf(buf, cap, "%lld B", (long long)b);
  else if (b < 1024 * 1024) snprintf(buf, cap, "%.1f KiB", (double)b / 1024);
  else if (b < 1024LL * 1024 * 1024) snprintf(buf, cap, "%.1f MiB", (double)b / 1048576);
  else snprintf(buf, cap, "%.2f GiB", (double)b / 1073741824.0);
}

static const char *kind_name(fo_orig_kind k) {
  return k == FO_ORIG_INT64 ? "int64" : k == FO_ORIG_STRING ? "string" : "identity";
}

static void print_arrays(const fo_dataset_t *d, bool json);
static void print_edge_splits(const fo_dataset_t *d, bool json);

/* A typed dataset: counts per node type and edge type, degrees per edge type and direction,
 * node data per node type, then the arrays. */
static int info_typed(const fo_dataset_t *d, const char *path, bool json) {
  const int32_t T = fo_dataset_num_node_types(d), E = fo_dataset_num_edge_types(d);
  int rc;
  if (json) {
    printf("{\"path\": ");
    cli_json_string(stdout, path, strlen(path));
    printf(", \"num_nodes\": %lld, \"num_edges\": %lld, \"node_types\": {",
           (long long)fo_dataset_num_nodes(d), (long long)fo_dataset_num_edges(d));
  } else {
    printf("dataset    %s\n", path);
    printf("nodes      %lld in %d node types\n", (long long)fo_dataset_num_nodes(d), (int)T);
    printf("edges      %lld in %d edge types\n", (long long)fo_dataset_num_edges(d), (int)E);
  }
  for (int32_t t = 0; t < T; t++) {
    const char *nm = fo_dataset_node_type_name(d, t);
    int64_t n = fo_dataset_num_nodes(fo_dataset_node_data(d, t));
    if (json) {
      printf("%s", t ? ", " : "");
      cli_json_string(stdout, nm, strlen(nm));
      printf(": %lld", (long long)n);
    } else {
      printf("  node type %-24s %lld nodes\n", nm, (long long)n);
    }
  }
  if (json) printf("}, \"edge_types\": {");
  for (int32_t et = 0; et < E; et++) {
    fo_edge_type ty;
    fo_dataset_edge_type(d, et, &ty);
    if (json) {
      printf("%s", et ? ", " : "");
      cli_json_string(stdout, ty.name, strlen(ty.name));
      printf(": %lld", (long long)ty.n_edges);
    } else {
      printf("  edge type %-40s %lld edges\n", ty.name, (long long)ty.n_edges);
    }
  }
  /* labels-only (supervision) edge types: listed apart, never sampled */
  if (json && fo_dataset_num_label_edge_types(d)) printf("}, \"label_edge_types\": {");
  for (int32_t i = 0; i < fo_dataset_num_label_edge_types(d); i++) {
    fo_edge_type ty;
    const char *kind;
    fo_dataset_label_edge_type(d, i, &ty);
    kind = ty.label == FO_LABEL_NEGATIVE ? "negative" : "positive";
    if (json) {
      printf("%s", i ? ", " : "");
      cli_json_string(stdout, ty.name, strlen(ty.name));
      printf(": {\"label\": \"%s\", \"num_edges\": %lld}", kind, (long long)ty.n_edges);
    } else {
      printf("  label type %-39s %lld edges (%s, labels only: never sampled)\n", ty.name,
             (long long)ty.n_edges, kind);
    }
  }
  if (fo_dataset_num_parts(d)) {
    /* a typed partitioned dataset: per part, its nodes of each node type and edges of each
     * edge type (the CSC rows of the destination nodes it owns) */
    if (json) printf("}, \"partition\": {\"method\": \"%s\", \"parts\": [", fo_dataset_partition_method(d));
    else printf("partition  %s, %d parts\n", fo_dataset_partition_method(d), fo_dataset_num_parts(d));
    for (int k = 0; k < fo_dataset_num_parts(d); k++) {
      const fo_dataset_t *p = fo_dataset_part(d, k);
      if (json) printf("%s{\"nodes\": {", k ? ", " : "");
      else printf("  part %-4d nodes", k);
      for (int32_t t = 0; t < T; t++) {
        const char *nm = fo_dataset_node_type_name(d, t);
        int64_t r = fo_dataset_num_rows(fo_dataset_node_data(p, t));
        if (json) {
          printf("%s", t ? ", " : "");
          cli_json_string(stdout, nm, strlen(nm));
          printf(": %lld", (long long)r);
        } else {
          printf("%s %s %lld", t ? "," : "", nm, (long long)r);
        }
      }
      if (json) printf("}, \"edges\": {");
      else printf("; edges");
      for (int32_t et = 0; et < E; et++) {
        fo_edge_type ty;
        fo_dataset_edge_type(p, et, &ty);
        if (json) {
          printf("%s", et ? ", " : "");
          cli_json_string(stdout, ty.name, strlen(ty.name));
          printf(": %lld", (long long)ty.n_edges);
        } else {
          printf("%s %s %lld", et ? "," : "", ty.name, (long long)ty.n_edges);
        }
      }
      if (json) printf("}}");
      else printf("\n");
    }
    if (json) printf("]");
  }
  if (json) printf("}, \"degree\": {");
  for (int32_t et = 0; et < E; et++) {
    fo_edge_type ty;
    bool first = true;
    fo_dataset_edge_type(d, et, &ty);
    if (json) {
      printf("%s", et ? ", " : "");
      cli_json_string(stdout, ty.name, strlen(ty.name));
      printf(": {");
    }
    for (int dir = 0; dir < 2; dir++) {
      fo_degree_stats st;
      fo_topology t;
      if (fo_dataset_edge_topology(d, et, (fo_edge_dir)dir, &t) != FO_OK) {
        fo_clear_error();
        continue;
      }
      if ((rc = fo_dataset_edge_degree_stats(d, et, (fo_edge_dir)dir, &st)) != FO_OK) {
        if (json) printf("}}}\n");
        return cli_fail(rc);
      }
      if (json)
        printf("%s\"%s\": {\"min\": %lld, \"mean\": %.4f, \"max\": %lld, \"argmax\": %lld, "
               "\"zero\": %lld}", first ? "" : ", ", dir == FO_EDGE_DIR_IN ? "in" : "out",
               (long long)st.min, st.mean, (long long)st.max, (long long)st.argmax,
               (long long)st.n_zero);
      else
        printf("  %-40s %-3s degree min %lld, mean %.2f, max %lld (%s %lld); zero: %lld\n",
               ty.name, dir == FO_EDGE_DIR_IN ? "in" : "out", (long long)st.min, st.mean,
               (long long)st.max, dir == FO_EDGE_DIR_IN ? ty.dst : ty.src, (long long)st.argmax,
               (long long)st.n_zero);
      first = false;
    }
    if (json) printf("}");
  }
  if (json) printf("}, \"node_data\": {");
  for (int32_t t = 0; t < T; t++) {
    const fo_dataset_t *v = fo_dataset_node_data(d, t);
    /* partitioned: the node data's dtype and classes from part 0 */
    const fo_dataset_t *src = fo_dataset_num_parts(v) && fo_dataset_part(v, 0) ? fo_dataset_part(v, 0) : v;
    const char *nm = fo_dataset_node_type_name(d, t);
    fo_features f;
    const int64_t *y;
    int64_t ny, nc;
    bool hf = fo_dataset_features(src, &f) == FO_OK, hl = fo_dataset_labels(src, &y, &ny, &nc) == FO_OK;
    fo_clear_error();
    if (json) {
      printf("%s", t ? ", " : "");
      cli_json_string(stdout, nm, strlen(nm));
      printf(": {\"node_ids\": \"%s\", \"features\": ", kind_name(fo_dataset_node_orig_kind(v)));
      if (hf) printf("{\"dim\": %lld, \"dtype\": \"%s\"}", (long long)f.dim, f.dtype);
      else printf("null");
      printf(", \"num_classes\": ");
      if (hl) printf("%lld", (long long)nc);
      else printf("null");
      printf(", \"splits\": {");
    } else if (hf || hl || fo_dataset_num_splits(v)) {
      printf("  %s:", nm);
      if (hf) printf(" features %lld x %lld %s;", (long long)fo_dataset_num_nodes(v), (long long)f.dim, f.dtype);
      if (hl) printf(" labels %lld classes;", (long long)nc);
    }
    for (int64_t i = 0; i < fo_dataset_num_splits(v); i++) {
      const int64_t *ids;
      int64_t k = 0;
      const char *sn = fo_dataset_split_name(v, i);
      fo_dataset_split(v, sn, &ids, &k);
      if (json) printf("%s\"%s\": %lld", i ? ", " : "", sn, (long long)k);
      else printf(" %s %lld", sn, (long long)k);
    }
    if (json) printf("}}");
    else if (hf || hl || fo_dataset_num_splits(v)) printf("\n");
  }
  if (json) printf("}");
  print_edge_splits(d, json);
  print_arrays(d, json);
  return CLI_OK;
}

/* Stored edge splits (import --edge-split): nothing when there are none (so the output of
 * datasets without them is unchanged); JSON ", \"edge_splits\": {ET: {NAME: k}}". */
static void print_edge_splits(const fo_dataset_t *d, bool json) {
  bool any = false;
  for (int32_t et = 0; et < fo_dataset_num_edge_types(d); et++) any |= fo_dataset_num_edge_splits(d, et) > 0;
  if (!any) return;
  printf(json ? ", \"edge_splits\": {" : "edge splits");
  for (int32_t et = 0, first = 1; et < fo_dataset_num_edge_types(d); et++) {
    fo_edge_type ty;
    if (!fo_dataset_num_edge_splits(d, et)) continue;
    fo_dataset_edge_type(d, et, &ty);
    if (json) printf("%s\"%s\": {", first ? "" : ", ", ty.name);
    else printf("%s%s:", first ? " " : "; ", ty.name);
    first = 0;
    for (int64_t i = 0; i < fo_dataset_num_edge_splits(d, et); i++) {
      const char *nm = fo_dataset_edge_split_name(d, et, i);
      const int64_t *ids;
      int64_t k = 0;
      fo_dataset_edge_split(d, et, nm, &ids, &k);
      if (json) printf("%s\"%s\": %lld", i ? ", " : "", nm, (long long)k);
      else printf(" %s %lld", nm, (long long)k);
    }
    if (json) printf("}");
  }
  printf(json ? "}" : "\n");
}

int cmd_info(int argc, char **argv) {
  static const struct option lopts[] = {{"json", no_argument, NULL, 256},
                                        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  bool json = false;
  int c, rc;
  fo_dataset_t *d;
  const char *path;
  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", lopts, NULL)) != -1) {
    if (c == 256) json = true;
    else if (c == 'h') {
      printf("usage: fanout info DIR [--json]\n\n"
             "Print the node and edge counts, the degree min/mean/max per stored direction\n"
             "(in: CSC, out: CSR) and the arrays with their dtype, shape, size and xxh64.\n");
      return CLI_OK;
    } else return cli_bad_option("info", c, argv, lopts);
  }
  if (optind + 1 != argc) return cli_usage_error("info", "expected one dataset directory");
  path = argv[optind];
  if ((rc = fo_dataset_open(path, NULL, &d)) != FO_OK) return cli_fail(rc);
  if (fo_dataset_is_typed(d)) {
    rc = info_typed(d, path, json);
    fo_dataset_close(d);
    return rc;
  }
  if (json) {
    printf("{\"path\": ");
    cli_json_string(stdout, path, strlen(path));
    printf(", \"num_nodes\": %lld, \"num_edges\": %lld, \"node_ids\": \"%s\", \"degree\": {",
           (long long)fo_dataset_num_nodes(d), (long long)fo_dataset_num_edges(d),
           kind_name(fo_dataset_node_orig_kind(d)));
  } else {
    printf("dataset    %s\n", path);
    printf("nodes      %lld\n", (long long)fo_dataset_num_nodes(d));
    printf("edges      %lld\n", (long long)fo_dataset_num_edges(d));
    printf("node ids   %s\n", kind_name(fo_dataset_node_orig_kind(d)));
  }
  {
    bool first = true;
    for (int dir = 0; dir < 2; dir++) {
      fo_degree_stats st;
      const char *name = dir == FO_EDGE_DIR_IN ? "in" : "out";
      if (!fo_dataset_has_topology(d, (fo_edge_dir)dir)) continue;
      if ((rc = fo_dataset_degree_stats(d, (fo_edge_dir)dir, &st)) != FO_OK) {
        if (json) printf("}}\n");
        fo_dataset_close(d);
        return cli_fail(rc);
      }
      if (json)
        printf("%s\"%s\": {\"min\": %lld, \"mean\": %.4f, \"max\": %lld, \"argmax\": %lld, \"zero\": %lld}",
               first ? "" : ", ", name, (long long)st.min, st.mean, (long long)st.max,
               (long long)st.argmax, (long long)st.n_zero);
      else if (fo_dataset_num_nodes(d) == 0)
        printf("%-3s degree: no nodes (%s)\n", name, dir == FO_EDGE_DIR_IN ? "CSC" : "CSR");
      else
        printf("%-3s degree min %lld, mean %.2f, max %lld (node %lld); zero-degree nodes: %lld (%s)\n",
               name, (long long)st.min, st.mean, (long long)st.max, (long long)st.argmax,
               (long long)st.n_zero, dir == FO_EDGE_DIR_IN ? "CSC" : "CSR");
      first = false;
    }
  }
  bool times_open = false; /* JSON: a "times" object replaces the still open "degree" one */
  for (int dir = 0; dir < 2 && !fo_dataset_num_parts(d); dir++) {
    /* edge times: rows are sorted, so the range is over first and last entries (O(n)) */
    fo_topology t;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    if (!fo_dataset_has_topology(d, (fo_edge_dir)dir) || fo_dataset_topology(d, (fo_edge_dir)dir, &t) != FO_OK ||
        !t.time)
      continue;
    for (int64_t v = 0; v < t.n_rows; v++)
      if (t.indptr[v + 1] > t.indptr[v]) {
        if (t.time[t.indptr[v]] < lo) lo = t.time[t.indptr[v]];
        if (t.time[t.indptr[v + 1] - 1] > hi) hi = t.time[t.indptr[v + 1] - 1];
      }
    if (json)
      printf("%s\"%s\": {\"array\": \"%s\", \"min\": %lld, \"max\": %lld}",
             times_open ? ", " : "}, \"times\": {", dir ? "out" : "in", t.time_name,
             (long long)(t.n_edges ? lo : 0), (long long)(t.n_edges ? hi : 0));
    else
      printf("%-3s edge times %lld..%lld (%s, rows sorted by time)\n", dir ? "out" : "in",
             (long long)(t.n_edges ? lo : 0), (long long)(t.n_edges ? hi : 0), t.time_name);
    times_open = true;
  }
  if (!fo_dataset_num_parts(d)) {
    const int64_t *nt;
    int64_t n_nt, lo = 0, hi = 0;
    if (fo_dataset_node_time(d, &nt, &n_nt) == FO_OK) {
      for (int64_t v = 0; v < n_nt; v++) {
        if (!v || nt[v] < lo) lo = nt[v];
        if (!v || nt[v] > hi) hi = nt[v];
      }
      if (json)
        printf("%s\"node\": {\"min\": %lld, \"max\": %lld}", times_open ? ", " : "}, \"times\": {",
               (long long)lo, (long long)hi);
      else printf("node times %lld..%lld (node_time)\n", (long long)lo, (long long)hi);
    } else {
      fo_clear_error();
    }
  }
  if (fo_dataset_num_parts(d)) {
    /* a partitioned dataset: its parts instead of degrees */
    if (json) {
      printf("}, \"partition\": {\"method\": \"%s\", \"parts\": [", fo_dataset_partition_method(d));
    } else {
      printf("partition  %s, %d parts\n", fo_dataset_partition_method(d), fo_dataset_num_parts(d));
    }
    for (int k = 0; k < fo_dataset_num_parts(d); k++) {
      const fo_dataset_t *p = fo_dataset_part(d, k);
      fo_topology t;
      fo_dataset_topology(p, FO_EDGE_DIR_IN, &t);
      if (json)
        printf("%s{\"nodes\": %lld, \"edges\": %lld}", k ? ", " : "", (long long)t.n_rows,
               (long long)t.n_edges);
      else
        printf("  part %-4d %lld nodes, %lld edges\n", k, (long long)t.n_rows, (long long)t.n_edges);
    }
    if (json) printf("]");
  }
  {
    const fo_dataset_t *src = fo_dataset_num_parts(d) ? fo_dataset_part(d, 0) : d;
    fo_features f;
    const int64_t *y;
    int64_t ny, nc;
    bool hf = fo_dataset_features(src, &f) == FO_OK, hl = fo_dataset_labels(src, &y, &ny, &nc) == FO_OK;
    fo_clear_error();
    if (json) {
      printf("}, \"features\": ");
      if (hf) printf("{\"dim\": %lld, \"dtype\": \"%s\"}", (long long)f.dim, f.dtype);
      else printf("null");
      printf(", \"num_classes\": ");
      if (hl) printf("%lld", (long long)nc);
      else printf("null");
      printf(", \"splits\": {");
    } else {
      if (hf) printf("features   %lld x %lld %s\n", (long long)fo_dataset_num_nodes(d), (long long)f.dim, f.dtype);
      if (hl) printf("labels     %lld classes\n", (long long)nc);
      if (fo_dataset_num_splits(d)) printf("splits    ");
    }
    for (int64_t i = 0; i < fo_dataset_num_splits(d); i++) {
      const int64_t *ids;
      int64_t k = 0;
      const char *nm = fo_dataset_split_name(d, i);
      fo_dataset_split(d, nm, &ids, &k);
      if (json) printf("%s\"%s\": %lld", i ? ", " : "", nm, (long long)k);
      else printf(" %s %lld", nm, (long long)k);
    }
    if (json) printf("}");
    else if (fo_dataset_num_splits(d)) printf("\n");
  }
  print_edge_splits(d, json);
  print_arrays(d, json);
  fo_dataset_close(d);
  return CLI_OK;
}

/* The array list, closing the JSON object. */
static void print_arrays(const fo_dataset_t *d, bool json) {
  if (json) printf(", \"arrays\": [");
  else printf("arrays\n");
  for (int64_t i = 0; i < fo_dataset_num_arrays(d); i++) {
    fo_array_info a;
    char shape[64], size[32];
    fo_dataset_array_at(d, i, &a);
    if (a.ndim == 2) snprintf(shape, sizeof shape, "[%lld, %lld]", (long long)a.shape[0], (long long)a.shape[1]);
    else snprintf(shape, sizeof shape, "[%lld]", (long long)a.shape[0]);
    if (json) {
      printf("%s{\"name\": \"%s\", \"dtype\": \"%s\", \"shape\": %s, \"bytes\": %lld, \"xxh64\": \"%016llx\"}",
             i ? ", " : "", a.name, a.dtype, shape, (long long)a.nbytes, (unsigned long long)a.xxh64);
    } else {
      human_bytes(size, sizeof size, a.nbytes);
      printf("  %-12s %-5s %-16s %10s  xxh64 %016llx\n", a.name, a.dtype, shape, size,
             (unsigned long long)a.xxh64);
    }
  }
  if (json) printf("]}\n");
}
