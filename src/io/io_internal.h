/*
 * io/io_internal.h: what the importers share: a buffered line reader over plain or gzip files,
 * a growable edge list, a string-id table, and the builder that turns an edge list into a
 * dataset (build.c).
 */
#ifndef FO_IO_INTERNAL_H
#define FO_IO_INTERNAL_H

#include "core/internal.h"

#include <jansson.h>
#include <zlib.h>

/* ---- line reader (reader.c) ----------------------------------------------------------------- */

typedef struct fo__reader {
  gzFile gz;
  const char *path;   /* borrowed */
  int64_t lineno;     /* 1-based number of the line last returned */
  char *buf;
  size_t cap, pos, len;
  bool eof;
  uint64_t file_bytes;   /* size of the file on disk, for progress */
  uint64_t *progress_base; /* bytes of earlier files, added for progress (may be NULL) */
  fo__progress *progress;  /* may be NULL */
  const volatile int *cancel;
} fo__reader;

/* Open `path` (gzip or plain, detected from the content). FO_EIO naming the path on failure. */
int fo__reader_open(fo__reader *r, const char *path);
/* Next line without its "\n" or "\r\n", NUL-terminated and writable, valid until the next call.
 * Returns 1 with a line, 0 at the end, or a negative status (FO_EIO, FO_EFORMAT for corrupt
 * gzip data, FO_ENOMEM, FO_ECANCELED) with a message naming the file and line. */
int fo__reader_next(fo__reader *r, char **line, size_t *len);
/* Size of a regular file for progress (0 for FIFOs and errors; opening reports those). */
uint64_t fo__file_bytes(const char *path);
/* Compressed bytes consumed so far (for progress). */
uint64_t fo__reader_offset(const fo__reader *r);
void fo__reader_close(fo__reader *r);

/* ---- edge list ------------------------------------------------------------------------------ */

typedef struct fo__edges {
  int64_t *src, *dst;
  int64_t n, cap;
} fo__edges;

int fo__edges_reserve(fo__edges *e, int64_t need);
static inline int fo__edges_push(fo__edges *e, int64_t s, int64_t d) {
  if (FO_UNLIKELY(e->n == e->cap)) {
    int rc = fo__edges_reserve(e, e->n + 1);
    if (rc != FO_OK) return rc;
  }
  e->src[e->n] = s;
  e->dst[e->n] = d;
  e->n++;
  return FO_OK;
}
void fo__edges_free(fo__edges *e);

/* ---- string ids (strmap.c) ------------------------------------------------------------------ */

/* Interns byte strings, giving each distinct one the next id 0, 1, 2, ... */
typedef struct fo__strmap fo__strmap;
int fo__strmap_create(fo__strmap **out);
void fo__strmap_destroy(fo__strmap *m);
/* Look up `s[len]`; if absent and `add`, insert it with id = count. *id = -1 if absent and
 * !add. *added tells whether it was inserted (may be NULL). */
int fo__strmap_get(fo__strmap *m, const char *s, size_t len, bool add, int64_t *id, bool *added);
int64_t fo__strmap_count(const fo__strmap *m);
/* The string with id `i` (not NUL-terminated) and its length. */
const char *fo__strmap_str(const fo__strmap *m, int64_t i, size_t *len);
size_t fo__strmap_max_len(const fo__strmap *m);

/* ---- integer parsing ------------------------------------------------------------------------ */

/* Parse a decimal int64 from s[len] (optional leading '-' or '+'); false on junk or overflow. */
bool fo__parse_i64(const char *s, size_t len, int64_t *out);
/* An integer node id token at r's current line: FO_ERANGE "does not fit in int64" or FO_EFORMAT
 * "is not an integer node id", naming file and line. */
int fo__parse_int_token(const fo__reader *r, const char *tok, size_t tlen, int64_t *out);
/* A weight token (finite decimal >= 0): FO_EFORMAT/FO_ERANGE naming file, line and text. */
int fo__parse_weight_token(const fo__reader *r, const char *tok, size_t tlen, double *out);
/* A time token: a decimal int64, or with FO_TIME_ISO8601 a date / date-time as UNIX seconds;
 * FO_EFORMAT naming file, line and text. */
int fo__parse_time_token(const fo__reader *r, const char *tok, size_t tlen, fo_time_format fmt,
                         int64_t *out);
bool fo__parse_iso8601(const char *s, size_t n, int64_t *out);
/* The next field of line[*i..len) (fields are separated by tabs, spaces or commas). */
bool fo__next_token(const char *line, size_t len, size_t *i, const char **tok, size_t *tlen);

/* ---- node data (nodedata.c) ----------------------------------------------------------------- */

#define FO_MAX_SPLITS 8
#define FO_MAX_ARRAYS 16

/* Features, labels and splits on their way into a dataset. Features are staged as float32. */
typedef struct fo__node_data {
  float *x;                /* [x_rows, x_dim] or NULL */
  int64_t x_rows, x_dim;
  fo_feature_dtype x_src;  /* the input's dtype, for FO_FEATURES_AUTO */
  bool allow_nonfinite;    /* fo_import_opts.allow_nonfinite (float64 past float32 kept as inf) */
  int64_t *y;              /* [y_rows] or NULL */
  int64_t y_rows;
  int n_splits;
  struct {
    char name[32];
    int64_t *ids;
    int64_t n;
  } splits[FO_MAX_SPLITS];
  int64_t *t;              /* [t_rows] node times (int64, --node-time), or NULL */
  int64_t t_rows;
  const char *t_source;    /* the input file, for messages (borrowed) */
  int n_arrays;            /* further int64 arrays: per node (OGB node_year), manifest
                              "node_data", or any (OGB link splits), manifest "extra" */
  struct {
    char name[32];         /* the array's name in the dataset and in the manifest */
    const char *source;    /* the input file, for messages (borrowed, may be NULL) */
    int64_t *v;            /* [n] or [shape[0], shape[1]] */
    int64_t n;             /* number of rows (shape[0]) */
    int64_t cols;          /* 0: 1-D; else the second dimension */
    bool per_node;         /* n must be the node count */
  } arrays[FO_MAX_ARRAYS];
} fo__node_data;

void fo__node_data_free(fo__node_data *nd);
/* Read o->features, o->labels and o->splits (.npy files) into `nd` (replacing what a parser
 * put there), checking dtypes; shapes are checked against n by fo__node_data_write. */
int fo__node_data_load(fo__node_data *nd, const fo_import_opts *o);
/* The same from explicit paths (each may be NULL); splits as "train=a.npy,val=b.npy". */
int fo__node_data_load_files(fo__node_data *nd, const char *features, const char *labels,
                             const char *splits);
/* The standard Planetoid split from the labels (see import.h). */
int fo__node_data_planetoid_split(fo__node_data *nd, uint64_t seed);

/* Labels a reader accepts: -1 (none) or a class id below FO_MAX_CLASSES, so that num_classes
 * (max + 1) fits the manifest's limit (INT32_MAX). FO_ERANGE naming `what`, entry and value. */
#define FO_MAX_CLASSES ((int64_t)INT32_MAX)
int fo__node_data_check_labels(const fo__node_data *nd, const char *what);
/* Check shapes and ids against n nodes, convert features to the target dtype and write the
 * arrays and the manifest's "features", "labels" and "splits" entries. */
struct fo__writer;
int fo__node_data_write(fo__node_data *nd, int64_t n, const fo_import_opts *o,
                        struct fo__writer *w, json_t *manifest);
/* The same for one node type of a typed dataset: arrays "<prefix>x", "<prefix>y",
 * "<prefix>split.<name>" (prefix "n<k>."), keys set in obj (the node type's entry); features
 * and labels name the input files for messages. */
int fo__node_data_write_as(fo__node_data *nd, int64_t n, const char *prefix, const char *features,
                           const char *labels, fo_feature_dtype dt, struct fo__writer *w,
                           json_t *obj);

/* ---- builder (build.c) ---------------------------------------------------------------------- */

/* What a parser hands to the builder. The builder may reorder or free `edges`. */
typedef struct fo__graph_input {
  fo__edges edges;           /* in input order; edge i has original position i */
  int64_t n_nodes;           /* -1: max id + 1 */
  fo__strmap *orig_str;      /* string ids (planetoid): node v's original id is string v */
  json_t *provenance;        /* owned; the builder stores it in the manifest */
  int64_t n_unknown_nodes;   /* planetoid counters, copied into the report */
  int64_t n_unknown_edges_dropped;
  fo__node_data node;        /* features, labels, splits (parser's or files') */
  double *weight;            /* [edges.n] edge weights in input order, or NULL */
  int weight_bytes;          /* 4 or 8: the dtype they are stored as; 0: none */
  int64_t *time;             /* [edges.n] edge times (int64) in input order, or NULL */
} fo__graph_input;
/* Read o->edge_time (.npy [m] int64/int32) into in->time. */
int fo__edge_times_load(fo__graph_input *in, const char *path);
/* Read a node-time file (.npy [n] int64/int32) into nd->t (what: the option, for messages). */
int fo__node_times_load(fo__node_data *nd, const char *path);
/* Read o->edge_weight (.npy [m] float32/float64, finite, >= 0) into in->weight. */
int fo__edge_weights_load(fo__graph_input *in, const char *path);

/* Apply the edge options (self loops, relabel, undirected, dedup), build the CSC and/or CSR,
 * and write the dataset to `out_dir` atomically. Frees nothing in `in` (the caller does). */
int fo__build_dataset(fo__graph_input *in, const char *out_dir, const fo_import_opts *o,
                      fo_import_report *rep);

/* The pieces fo__build_dataset is made of, shared with the typed import (typed.c), which runs
 * them once per edge type on a bipartite (n_src, n_dst) edge list. */
typedef struct fo__edge_set {
  int64_t *src, *dst, *orig; /* [m]: endpoints and original positions */
  int64_t m;
  const volatile int *cancel; /* fo_import_opts.cancel, polled by every loop */
  /* optional node times (borrowed): order each CSC column by nt_src[source] and each CSR row
   * by nt_dst[target] (stable), recorded as "row_order": "node_time" */
  const int64_t *nt_src, *nt_dst;
} fo__edge_set;
/* Take over e's arrays (e is left empty), with room for 2 m edges if `undirected`; orig = i. */
int fo__edges_take(fo__edges *e, bool undirected, const volatile int *cancel, fo__edge_set *es);
void fo__edge_set_free(fo__edge_set *es);
/* Steps 3-5 of build.c: drop self loops, append reverse edges (original position m_input + i),
 * drop duplicates (implied by undirected); counts are added to r. */
int fo__edges_prepare(fo__edge_set *es, int64_t m_input, int64_t n_src, int64_t n_dst,
                      bool self_loops, bool undirected, bool dedup, fo_import_report *r);
/* CSC (over n_dst columns) and/or CSR (over n_src rows) of an edge set, edge ids, edge_orig. */
typedef struct fo__topology {
  int64_t n_src, n_dst, m;
  bool csc, need_orig;
  int iw, ew; /* bytes per index / edge id */
  int64_t *csc_ptr, *csc_pos, *csc_idx, *csr_ptr, *csr_pos, *csr_idx, *csr_eid, *edge_orig;
  /* optional edge weights in input order (borrowed): edge id e has weight
   * w_in[edge_orig[e] mod w_m_in] (reverse edges of undirected imports: their edge's) */
  const double *w_in;
  int64_t w_m_in;
  int w_bytes; /* 4: float32, 8: float64 */
  /* optional edge times in input order (borrowed), indexed like w_in; the edge set was put in
   * time order by fo__edges_sort_by_time, so every row is sorted by time */
  const int64_t *t_in;
  int64_t t_m_in;
  bool by_node_time;     /* CSC rows ordered by neighbor node time (fo__edge_set.nt_src) */
  bool csr_by_node_time; /* CSR rows ordered by neighbor node time (fo__edge_set.nt_dst) */
} fo__topology;
/* Reorder the edge set stably by time t_in[orig mod m_input] (LSD radix sort, polling the
 * cancel flag), so that the stable counting sorts of the CSC and CSR leave every row sorted by
 * time, ties in list order. O(m). */
int fo__edges_sort_by_time(fo__edge_set *es, const int64_t *t_in, int64_t m_input);
int fo__topology_build(const fo__edge_set *es, int64_t n_src, int64_t n_dst,
                       const fo_import_opts *o, fo__topology *t);
/* The index and edge id widths (4 or 8 bytes) o->index_dtype gives; FO_ERANGE if int32 is
 * asked for and a value does not fit. O(1): check it before allocating per-node arrays. */
int fo__topology_widths(int64_t n_src, int64_t n_dst, int64_t m, const fo_import_opts *o,
                        int *iw, int *ew);
/* Write the arrays "<prefix>csc_indptr" ... and set "topology", "edge_ids" and "edge_orig" in
 * obj (the manifest for version 1, an edge type's entry for version 2). */
struct fo__writer;
int fo__topology_write(const fo__topology *t, const fo_import_opts *o, const char *prefix,
                       struct fo__writer *w, json_t *obj);
void fo__topology_free(fo__topology *t);
/* Edge splits (edge_split.c, fo_import_opts.edge_splits): check the entries (O(entries^2));
 * write the entries matching edge type et_name (NULL: untyped; only_type: the typed import's only
 * input edge type, which also takes entries without a type) as "<prefix>edge_split.<name>" and
 * obj's "edge_splits", marking seen[i]; then the first entry no edge type took is an error. */
int fo__edge_splits_check(const fo_import_opts *o);
int fo__edge_splits_write(const fo_import_opts *o, const char *et_name, bool only_type,
                          const fo__topology *t, int64_t m_input, const char *prefix,
                          struct fo__writer *w, json_t *obj, unsigned char *seen);
int fo__edge_splits_unmatched(const fo_import_opts *o, const unsigned char *seen);
/* String ids as "<prefix>node_orig_offsets" + "<prefix>node_orig_bytes" (docs/FORMAT.md), id v
 * being string which[v] of sm (which == NULL: string v); sets obj's "node_orig". */
int fo__write_string_ids(struct fo__writer *w, json_t *obj, const char *prefix,
                         const fo__strmap *sm, const int64_t *which, int64_t n);
json_t *fo__report_json(const fo_import_report *r);

static inline bool fo__import_is_typed(const fo_import_opts *o) {
  return o->n_edge_types > 0 || o->edge_type_column >= 0;
}
/* Typed import (typed.c): one edge file per edge type, or one file with a relation column. */
int fo__import_typed(const char *const *inputs, int n_inputs, const char *out_dir,
                     const fo_import_opts *o, fo_import_report *rep);
/* A typed graph already read into memory (ogb.c's heterogeneous layout), written as
 * fo__import_typed writes its own: node types numbered in array order, edge types in array
 * order (then the reverse types of o->reverse_edges); o's edge options apply per edge type. */
typedef struct fo__typed_node {
  char name[65];               /* a valid node type name (fo__valid_type_name) */
  int64_t n;                   /* nodes of this type */
  fo__node_data nd;            /* features, labels, splits of this type; taken over */
  const char *x_file, *y_file; /* their sources, for messages (borrowed) */
} fo__typed_node;
typedef struct fo__typed_edge {
  int src, dst;                /* node type numbers */
  char rel[65];                /* a valid relation name */
  fo__edges edges;             /* local ids in [0, n_src) x [0, n_dst), input order; taken over */
} fo__typed_edge;
typedef struct fo__typed_graph {
  fo__typed_node *nt;
  int n_nt;
  fo__typed_edge *et;
  int n_et;
  json_t *provenance;          /* taken over: stored in the manifest (with the report) */
} fo__typed_graph;
/* Write g to out_dir atomically (format_version 2). The arrays g owns are moved out of it;
 * the caller still frees g's tables. Same errors as fo__import_typed's writing half. */
int fo__import_typed_graph(fo__typed_graph *g, const char *out_dir, const fo_import_opts *o,
                           fo_import_report *rep);
/* OGB's heterogeneous CSV layout (ogb.c): true if dir has one of its marker files. */
bool fo__ogb_is_typed(const char *dir);
/* Import it (the typed half of --format ogb). */
int fo__import_ogb_typed(const char *dir, const char *out_dir, const fo_import_opts *o,
                         fo_import_report *rep);

/* A node type or relation name as docs/FORMAT.md allows (relation: also '=' and '\'). */
bool fo__valid_type_name(const char *s, size_t len, bool relation);

/* Provenance skeleton {"tool", "format", "inputs": [{"path","bytes"}], "options"}. */
json_t *fo__provenance(const char *format, const char *const *inputs, int n_inputs,
                       const fo_import_opts *o);

/* ---- parsers (one file each) ---------------------------------------------------------------- */

int fo__parse_edgelist(const char *const *inputs, int n_inputs, const fo_import_opts *o,
                       fo__graph_input *in);
int fo__parse_planetoid(const char *const *inputs, int n_inputs, const fo_import_opts *o,
                        fo__graph_input *in);
int fo__parse_mtx(const char *const *inputs, int n_inputs, const fo_import_opts *o,
                  fo__graph_input *in);
/* OGB: inputs[0] is the dataset directory (ogb.c). */
int fo__parse_ogb(const char *const *inputs, int n_inputs, const fo_import_opts *o,
                  fo__graph_input *in);
int fo__parse_npy_edges(const char *const *inputs, int n_inputs, const fo_import_opts *o,
                        fo__graph_input *in);

#endif
