/*
 * io/import.c: the public entry points of the io layer: option defaults and checks, dispatch to
 * the format's parser, then the builder (build.c), with the error context "import '<out>'".
 */
#include "io/io_internal.h"
#include "store/store_internal.h"

void fo_import_opts_init(fo_import_opts *o) {
  memset(o, 0, sizeof *o);
  o->format = FO_FORMAT_EDGELIST;
  o->csc = true;
  o->csr = false;
  o->index_dtype = FO_INDEX_AUTO;
  o->num_nodes = -1;
  o->src_column = 0;
  o->dst_column = 1;
  o->edge_type_column = -1;
  o->weight_column = -1;
  o->time_column = -1;
  o->time_format = FO_TIME_UNIX;
}

static const char *const format_names[] = {"edgelist", "planetoid", "npy", "mtx", "ogb"};

int fo_format_parse(const char *name, fo_format *out) {
  for (int i = 0; i < 5; i++)
    if (name && !strcmp(name, format_names[i])) {
      *out = (fo_format)i;
      return FO_OK;
    }
  return FO_FAIL(FO_EINVAL, "unknown format '%s' (expected edgelist, planetoid, npy, mtx or ogb)",
                 name ? name : "(null)");
}

json_t *fo__provenance(const char *format, const char *const *inputs, int n_inputs,
                       const fo_import_opts *o) {
  json_t *p = json_object(), *ins = json_array(), *opts;
  for (int i = 0; i < n_inputs; i++) json_array_append_new(ins, json_string(inputs[i]));
  opts = json_pack("{s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:s, s:I, s:b, s:i, s:i}", "undirected", o->undirected,
                   "remove_self_loops", o->remove_self_loops, "dedup", o->dedup, "drop_unknown",
                   o->drop_unknown, "relabel", o->relabel, "csc", o->csc, "csr", o->csr,
                   "index_dtype",
                   o->index_dtype == FO_INDEX_INT32   ? "int32"
                   : o->index_dtype == FO_INDEX_INT64 ? "int64"
                                                      : "auto",
                   "num_nodes", (json_int_t)o->num_nodes, "string_ids", o->string_ids,
                   "src_column", (int)o->src_column, "dst_column", (int)o->dst_column);
  json_object_set_new(p, "tool", json_string("fanout " FO_VERSION_STRING));
  json_object_set_new(p, "format", json_string(format));
  json_object_set_new(p, "inputs", ins);
  if (o->features) json_object_set_new(opts, "features", json_string(o->features));
  if (o->labels) json_object_set_new(opts, "labels", json_string(o->labels));
  if (o->splits) json_object_set_new(opts, "splits", json_string(o->splits));
  if (o->node_arrays) json_object_set_new(opts, "node_arrays", json_string(o->node_arrays));
  if (o->edge_weight) json_object_set_new(opts, "edge_weight", json_string(o->edge_weight));
  if (o->arrays) json_object_set_new(opts, "arrays", json_string(o->arrays));
  if (o->edge_time) json_object_set_new(opts, "edge_time", json_string(o->edge_time));
  if (o->node_time) json_object_set_new(opts, "node_time", json_string(o->node_time));
  if (o->weight_column >= 0) json_object_set_new(opts, "weight_column", json_integer(o->weight_column));
  if (o->time_column >= 0) {
    json_object_set_new(opts, "time_column", json_integer(o->time_column));
    json_object_set_new(opts, "time_format",
                        json_string(o->time_format == FO_TIME_ISO8601 ? "iso8601" : "unix"));
  }
  if (o->feature_dtype != FO_FEATURES_AUTO) {
    static const char *const names[] = {"auto", "float32", "float16", "bfloat16", "uint8"};
    json_object_set_new(opts, "feature_dtype", json_string(names[o->feature_dtype]));
  }
  if (o->format == FO_FORMAT_PLANETOID)
    json_object_set_new(opts, "split_seed", json_integer((json_int_t)o->split_seed));
  json_object_set_new(p, "options", opts);
  return p;
}

static int check_opts(const fo_import_opts *o) {
  int rc;
  if ((unsigned)o->format > FO_FORMAT_OGB)
    return FO_FAIL(FO_EINVAL, "unknown format %d", (int)o->format);
  if (!o->csc && !o->csr) return FO_FAIL(FO_EINVAL, "neither csc nor csr: nothing to store");
  if (o->num_nodes < -1) return FO_FAIL(FO_EINVAL, "num_nodes %lld < -1", (long long)o->num_nodes);
  if (o->relabel && o->num_nodes >= 0)
    return FO_FAIL(FO_EINVAL, "--relabel and --num-nodes cannot be combined");
  if ((unsigned)o->index_dtype > FO_INDEX_INT64)
    return FO_FAIL(FO_EINVAL, "unknown index dtype %d", (int)o->index_dtype);
  if (o->src_column < 0 || o->dst_column < 0 || o->src_column > 1000 || o->dst_column > 1000 ||
      o->src_column == o->dst_column)
    return FO_FAIL(FO_EINVAL, "columns %d,%d: need two different columns in 0..1000",
                   (int)o->src_column, (int)o->dst_column);
  if (o->format != FO_FORMAT_EDGELIST && (o->string_ids || o->src_column != 0 || o->dst_column != 1))
    return FO_FAIL(FO_EINVAL, "--string-ids and --columns apply to --format edgelist only");
  if (o->string_ids && (o->relabel || o->num_nodes >= 0))
    return FO_FAIL(FO_EINVAL, "--string-ids numbers the ids itself: no --relabel or --num-nodes");
  if (o->format != FO_FORMAT_PLANETOID && (o->drop_unknown || o->split_seed))
    return FO_FAIL(FO_EINVAL, "%s applies to --format planetoid only",
                   o->drop_unknown ? "--drop-unknown" : "--split-seed");
  if (o->weight_column < -1 || o->weight_column > 1000 || o->time_column < -1 ||
      o->time_column > 1000)
    return FO_FAIL(FO_EINVAL, "--weight-col %d / --time-col %d: columns are in 0..1000",
                   (int)o->weight_column, (int)o->time_column);
  if (o->weight_column >= 0 && o->format != FO_FORMAT_EDGELIST && o->format != FO_FORMAT_MTX)
    return FO_FAIL(FO_EINVAL, "--weight-col applies to --format edgelist and mtx only (others: "
                   "--edge-weight)");
  if (o->time_column >= 0 && o->format != FO_FORMAT_EDGELIST)
    return FO_FAIL(FO_EINVAL, "--time-col applies to --format edgelist only (others: --edge-time)");
  if (o->weight_column >= 0 && (o->weight_column == o->src_column ||
                                o->weight_column == o->dst_column || o->weight_column == o->time_column))
    return FO_FAIL(FO_EINVAL, "--weight-col %d is also another column", (int)o->weight_column);
  if (o->time_column >= 0 && (o->time_column == o->src_column || o->time_column == o->dst_column))
    return FO_FAIL(FO_EINVAL, "--time-col %d is also the source or target column", (int)o->time_column);
  if (o->weight_column >= 0 && o->edge_weight)
    return FO_FAIL(FO_EINVAL, "--weight-col and --edge-weight both give edge weights: use one");
  if (o->time_column >= 0 && o->edge_time)
    return FO_FAIL(FO_EINVAL, "--time-col and --edge-time both give edge times: use one");
  if ((unsigned)o->time_format > FO_TIME_ISO8601)
    return FO_FAIL(FO_EINVAL, "unknown time format %d", (int)o->time_format);
  if (o->time_format != FO_TIME_UNIX && o->time_column < 0)
    return FO_FAIL(FO_EINVAL, "--time-format applies to --time-col");
  if ((rc = fo__edge_splits_check(o)) != FO_OK) return rc;
  if ((unsigned)o->feature_dtype > FO_FEATURES_UINT8)
    return FO_FAIL(FO_EINVAL, "unknown feature dtype %d", (int)o->feature_dtype);
  if (!fo__import_is_typed(o) && o->n_edge_weights)
    return FO_FAIL(FO_EINVAL, "--edge-weight %s=...: weights per edge type need a typed import "
                   "(--edge-type or --edge-type-col)", o->edge_weights[0].edge_type);
  if (!fo__import_is_typed(o) && o->n_edge_times)
    return FO_FAIL(FO_EINVAL, "--edge-time %s=...: times per edge type need a typed import "
                   "(--edge-type or --edge-type-col)", o->edge_times[0].edge_type);
  if (o->n_edge_times < 0 || (o->n_edge_times && !o->edge_times))
    return FO_FAIL(FO_EINVAL, "bad edge time list (n_edge_times %d)", (int)o->n_edge_times);
  if (o->n_node_times < 0 || (o->n_node_times && !o->node_times))
    return FO_FAIL(FO_EINVAL, "bad node time list (n_node_times %d)", (int)o->n_node_times);
  if (!fo__import_is_typed(o) && o->n_node_times)
    return FO_FAIL(FO_EINVAL, "--node-time %s=...: times per node type need a typed import "
                   "(--edge-type or --edge-type-col)", o->node_times[0].node_type);
  if (o->weight_column >= 0 && o->n_edge_weights)
    return FO_FAIL(FO_EINVAL, "--weight-col and --edge-weight %s=... both give edge weights: use one",
                   o->edge_weights[0].edge_type);
  if (o->time_column >= 0 && o->n_edge_times)
    return FO_FAIL(FO_EINVAL, "--time-col and --edge-time %s=... both give edge times: use one",
                   o->edge_times[0].edge_type);
  if (!fo__import_is_typed(o) && (o->n_label_edges || o->labels_only || o->negative_labels))
    return FO_FAIL(FO_EINVAL, "%s: supervision edge types need a typed import (--edge-type or "
                   "--edge-type-col)", o->n_label_edges ? (o->label_edges[0].negative ?
                   "--supervision-negatives" : "--supervision-edges") : o->labels_only ?
                   "--labels-only" : "--negative-labels");
  /* --reverse-edges also applies to OGB's heterogeneous layout (ogb.c refuses it otherwise) */
  if (!fo__import_is_typed(o) &&
      (o->n_node_type_opts || (o->reverse_edges && o->format != FO_FORMAT_OGB) || o->node_types ||
       o->default_node_type))
    return FO_FAIL(FO_EINVAL, "%s: per-type options need a typed import (--edge-type or "
                   "--edge-type-col)", o->reverse_edges ? "--reverse-edges" : o->node_types
                   ? "--node-types" : o->default_node_type ? "--default-node-type"
                   : "node type options");
  return FO_OK;
}

/* No output that is, holds or lies inside a file the import reads (inputs, features, labels,
 * each split file of "name=path,..."). */
static int check_outputs(const char *const *inputs, int n_inputs, const char *out_dir,
                         const fo_import_opts *o) {
  int rc;
  for (int i = 0; i < n_inputs; i++)
    if ((rc = fo__writer_check_input(out_dir, inputs[i], "input")) != FO_OK) return rc;
  if ((o->features && (rc = fo__writer_check_input(out_dir, o->features, "features file")) != FO_OK) ||
      (o->labels && (rc = fo__writer_check_input(out_dir, o->labels, "labels file")) != FO_OK) ||
      (o->edge_weight && (rc = fo__writer_check_input(out_dir, o->edge_weight, "edge weight file")) != FO_OK) ||
      (o->edge_time && (rc = fo__writer_check_input(out_dir, o->edge_time, "edge time file")) != FO_OK) ||
      (o->node_time && (rc = fo__writer_check_input(out_dir, o->node_time, "node time file")) != FO_OK))
    return rc;
  if (o->splits) {
    char path[4096];
    const char *p = o->splits;
    while (*p) {
      const char *eq = strchr(p, '='), *end;
      size_t len;
      if (!eq) break;
      end = strchr(eq + 1, ',');
      len = end ? (size_t)(end - eq - 1) : strlen(eq + 1);
      if (len < sizeof path) {
        memcpy(path, eq + 1, len);
        path[len] = '\0';
        if ((rc = fo__writer_check_input(out_dir, path, "split file")) != FO_OK) return rc;
      }
      if (!end) break;
      p = end + 1;
    }
  }
  return FO_OK;
}

/* The typed import's files (edge files, node lists, per-type node data) are not the output. */
static int check_typed_outputs(const char *out_dir, const fo_import_opts *o) {
  int rc = FO_OK;
  for (int i = 0; i < o->n_edge_types && o->edge_types; i++)
    if (o->edge_types[i].path &&
        (rc = fo__writer_check_input(out_dir, o->edge_types[i].path, "edge type file")) != FO_OK)
      return rc;
  if (o->node_types && (rc = fo__writer_check_input(out_dir, o->node_types, "node types file")) != FO_OK)
    return rc;
  for (int i = 0; i < o->n_node_type_opts && o->node_type_opts; i++) {
    const fo_import_node_type *t = &o->node_type_opts[i];
    if ((t->node_ids && (rc = fo__writer_check_input(out_dir, t->node_ids, "node ids file")) != FO_OK) ||
        (t->features && (rc = fo__writer_check_input(out_dir, t->features, "features file")) != FO_OK) ||
        (t->labels && (rc = fo__writer_check_input(out_dir, t->labels, "labels file")) != FO_OK))
      return rc;
  }
  for (int i = 0; i < o->n_node_times && o->node_times; i++)
    if (o->node_times[i].path &&
        (rc = fo__writer_check_input(out_dir, o->node_times[i].path, "node time file")) != FO_OK)
      return rc;
  for (int i = 0; i < o->n_edge_weights && o->edge_weights; i++)
    if (o->edge_weights[i].path &&
        (rc = fo__writer_check_input(out_dir, o->edge_weights[i].path, "edge weight file")) != FO_OK)
      return rc;
  for (int i = 0; i < o->n_edge_times && o->edge_times; i++)
    if (o->edge_times[i].path &&
        (rc = fo__writer_check_input(out_dir, o->edge_times[i].path, "edge time file")) != FO_OK)
      return rc;
  return rc;
}

static void free_input(fo__graph_input *in) {
  fo__edges_free(&in->edges);
  fo__node_data_free(&in->node);
  fo__strmap_destroy(in->orig_str);
  free(in->weight);
  free(in->time);
  json_decref(in->provenance);
  memset(in, 0, sizeof *in);
}

int fo_import(const char *const *inputs, int n_inputs, const char *out_dir,
              const fo_import_opts *o, fo_import_report *rep) {
  fo_import_opts defaults;
  fo__graph_input in;
  int rc;
  if (rep) memset(rep, 0, sizeof *rep);
  if (!o) {
    fo_import_opts_init(&defaults);
    o = &defaults;
  }
  if (!out_dir) return FO_FAIL(FO_EINVAL, "import: output directory is NULL");
  if (fo__import_is_typed(o)) {
    if (o->edge_weight)
      return fo__context(FO_FAIL(FO_EINVAL, "--edge-weight %s: a typed import takes weights per "
                                 "edge type (--edge-weight SRC__REL__DST=W.npy)", o->edge_weight),
                         "import '%s'", out_dir);
    if (o->edge_time || o->node_time)
      return fo__context(FO_FAIL(FO_EINVAL, "%s %s: a typed import takes %s", o->edge_time ?
                                 "--edge-time" : "--node-time", o->edge_time ? o->edge_time :
                                 o->node_time, o->edge_time ? "edge times per edge type "
                                 "(--edge-time SRC__REL__DST=T.npy)" : "node times per node type "
                                 "(--node-time TYPE=T.npy)"),
                         "import '%s'", out_dir);
    if (n_inputs < 0 || (n_inputs > 0 && !inputs))
      return fo__context(FO_FAIL(FO_EINVAL, "bad input list"), "import '%s'", out_dir);
    for (int i = 0; i < n_inputs; i++)
      if (!inputs[i]) return fo__context(FO_FAIL(FO_EINVAL, "input %d is NULL", i), "import '%s'", out_dir);
    if ((rc = check_opts(o)) == FO_OK && (rc = check_outputs(inputs, n_inputs, out_dir, o)) == FO_OK &&
        (rc = check_typed_outputs(out_dir, o)) == FO_OK)
      rc = fo__import_typed(inputs, n_inputs, out_dir, o, rep);
    if (rc != FO_OK) return fo__context(rc, "import '%s'", out_dir);
    return FO_OK;
  }
  if (!inputs || n_inputs < 1) return fo__context(FO_FAIL(FO_EINVAL, "no input files"), "import '%s'", out_dir);
  for (int i = 0; i < n_inputs; i++)
    if (!inputs[i]) return fo__context(FO_FAIL(FO_EINVAL, "input %d is NULL", i), "import '%s'", out_dir);
  if ((rc = check_opts(o)) != FO_OK || (rc = check_outputs(inputs, n_inputs, out_dir, o)) != FO_OK)
    return fo__context(rc, "import '%s'", out_dir);
  if (o->format == FO_FORMAT_OGB && n_inputs == 1 && fo__ogb_is_typed(inputs[0])) {
    if (o->n_edge_splits)
      return fo__context(FO_FAIL(FO_ENOSYS, "--edge-split: not supported for OGB's typed layout "
                                 "yet"), "import '%s'", out_dir);
    if ((rc = fo__import_ogb_typed(inputs[0], out_dir, o, rep)) != FO_OK)
      return fo__context(rc, "import '%s'", out_dir);
    return FO_OK;
  }
  memset(&in, 0, sizeof in);
  in.n_nodes = -1;
  switch (o->format) {
  case FO_FORMAT_EDGELIST: rc = fo__parse_edgelist(inputs, n_inputs, o, &in); break;
  case FO_FORMAT_PLANETOID: rc = fo__parse_planetoid(inputs, n_inputs, o, &in); break;
  case FO_FORMAT_NPY: rc = fo__parse_npy_edges(inputs, n_inputs, o, &in); break;
  case FO_FORMAT_MTX: rc = fo__parse_mtx(inputs, n_inputs, o, &in); break;
  case FO_FORMAT_OGB: rc = fo__parse_ogb(inputs, n_inputs, o, &in); break;
  }
  if (rc == FO_OK) rc = fo__node_data_load(&in.node, o);
  if (rc == FO_OK && o->edge_weight) rc = fo__edge_weights_load(&in, o->edge_weight);
  if (rc == FO_OK && o->edge_time) rc = fo__edge_times_load(&in, o->edge_time);
  if (rc == FO_OK && o->format == FO_FORMAT_PLANETOID && !o->splits && in.node.y)
    rc = fo__node_data_planetoid_split(&in.node, o->split_seed);
  if (rc == FO_OK) {
    in.provenance = fo__provenance(format_names[o->format], inputs, n_inputs, o);
    rc = fo__build_dataset(&in, out_dir, o, rep);
  }
  free_input(&in);
  if (rc != FO_OK) return fo__context(rc, "import '%s'", out_dir);
  return FO_OK;
}

int fo_import_edges(const int64_t *src, const int64_t *dst, int64_t n_edges, const char *out_dir,
                    const fo_import_opts *o, fo_import_report *rep) {
  fo_import_opts defaults;
  fo__graph_input in;
  int rc;
  if (rep) memset(rep, 0, sizeof *rep);
  if (!o) {
    fo_import_opts_init(&defaults);
    o = &defaults;
  }
  if (!out_dir) return FO_FAIL(FO_EINVAL, "import: output directory is NULL");
  if (n_edges < 0 || (n_edges > 0 && (!src || !dst)))
    return fo__context(FO_FAIL(FO_EINVAL, "bad edge arrays (n_edges %lld)", (long long)n_edges),
                       "import '%s'", out_dir);
  if ((rc = check_opts(o)) != FO_OK || (rc = check_outputs(NULL, 0, out_dir, o)) != FO_OK)
    return fo__context(rc, "import '%s'", out_dir);
  if (fo__import_is_typed(o))
    return fo__context(FO_FAIL(FO_EINVAL, "fo_import_edges builds untyped datasets only (use "
                               "fo_import with edge_types)"), "import '%s'", out_dir);
  for (int64_t i = 0; i < n_edges; i++) {
    int64_t s = src[i], d = dst[i];
    if (!o->relabel && (s < 0 || d < 0))
      return fo__context(FO_FAIL(FO_ERANGE, "edge %lld: node id %lld is negative", (long long)i,
                                 (long long)(s < 0 ? s : d)),
                         "import '%s'", out_dir);
    if (o->num_nodes >= 0 && (s >= o->num_nodes || d >= o->num_nodes))
      return fo__context(FO_FAIL(FO_ERANGE, "edge %lld: node id %lld is >= num_nodes %lld",
                                 (long long)i, (long long)(s >= o->num_nodes ? s : d),
                                 (long long)o->num_nodes),
                         "import '%s'", out_dir);
  }
  memset(&in, 0, sizeof in);
  in.n_nodes = -1;
  if ((rc = fo__edges_reserve(&in.edges, n_edges)) == FO_OK) {
    if (n_edges) {
      memcpy(in.edges.src, src, (size_t)n_edges * sizeof *src);
      memcpy(in.edges.dst, dst, (size_t)n_edges * sizeof *dst);
    }
    in.edges.n = n_edges;
    if ((rc = fo__node_data_load(&in.node, o)) == FO_OK &&
        (!o->edge_weight || (rc = fo__edge_weights_load(&in, o->edge_weight)) == FO_OK) &&
        (!o->edge_time || (rc = fo__edge_times_load(&in, o->edge_time)) == FO_OK)) {
      in.provenance = fo__provenance("memory", NULL, 0, o);
      rc = fo__build_dataset(&in, out_dir, o, rep);
    }
  }
  free_input(&in);
  if (rc != FO_OK) return fo__context(rc, "import '%s'", out_dir);
  return FO_OK;
}
