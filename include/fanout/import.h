/*
 * fanout/import.h: importers that turn an edge list into a dataset directory.
 *
 * Formats (fo_format):
 *  - FO_FORMAT_EDGELIST: SNAP-style text, one edge "src dst [ignored...]" per line, separated by
 *    tabs, spaces or commas; lines starting with '#' or '%' are comments; CRLF accepted; gzip
 *    input is decompressed (zlib). `src_column`/`dst_column` pick other columns (0-based). Ids
 *    are non-negative integers kept as they are (n = max id + 1) unless `relabel` is set, or
 *    with `string_ids` any tokens (e.g. "n02084071"), numbered in order of first appearance and
 *    kept as string node_orig.
 *  - FO_FORMAT_PLANETOID: LINQS `<name>.content` (`<paper_id>\t<w_0>..\t<w_{D-1}>\t<label>`) and
 *    `<name>.cites` (`a\tb` = the edge b -> a: paper b cites paper a), in either order, each
 *    optionally .gz. Paper ids are strings; node ids follow the content file's order, then ids
 *    that appear only in the cites file, in order of first appearance (as PyG adds them as
 *    feature-less nodes), unless `drop_unknown` drops their edges instead.
 *  - FO_FORMAT_NPY: one `edge_index` .npy of shape [2, E], int32 or int64, C or Fortran order;
 *    row 0 holds sources, row 1 targets.
 *  - FO_FORMAT_MTX: Matrix Market `coordinate` (pattern, integer or real; general or
 *    symmetric); entry (i, j) (1-based) is the edge i -> j; values are ignored; `symmetric`
 *    adds (j, i) for every off-diagonal entry; n = max(rows, cols).
 *  - FO_FORMAT_OGB: one input, an Open Graph Benchmark dataset directory as OGB's download
 *    unpacks it (dataset/ogbn_arxiv): raw/edge.csv.gz ("src,dst", edges as stored: OGB keeps one
 *    direction of undirected graphs, so pass `undirected` for ogbn-products), num-node-list and
 *    num-edge-list (one graph), optional node-feat.csv.gz -> "x" (float32), node-label.csv.gz ->
 *    "y" ("nan" or empty = -1), raw/node_<name>.csv.gz (node_year) -> int64 node-data array
 *    "node_<name>" (manifest "node_data"), split/<scheme>/{train,valid,test}.csv.gz -> splits
 *    "train", "val", "test" (one scheme). The heterogeneous layout (ogbn-mag:
 *    raw/num-node-dict.csv.gz, raw/relations/<h>___<r>___<t>/, raw/node-feat/<type>/,
 *    raw/node-label/<type>/, split/<scheme>/<type>/) becomes a typed dataset (format_version
 *    2; reverse_edges, undirected, dedup apply per edge type as for typed imports; features,
 *    labels, splits, num_nodes, relabel must be unset). FO_ENOSYS for the binary layouts
 *    (raw/data.npz: the Python importer converts it; raw/edge_index_dict.npz); link prediction splits (.pt, torch pickles) are skipped with a
 *    warning (the Python importer reads them). No `relabel` or `num_nodes`. See docs/IMPORT.md.
 *
 * Node data (any format): `features`, `labels` and `splits` name .npy files whose shapes and
 * dtypes are checked against the graph. Planetoid brings its own: the word vectors (float32, or
 * uint8 with feature_dtype), the classes as labels (class names sorted, then numbered; nodes
 * only in cites get -1 and zero features) and the standard split of Kipf & Welling / PyG's
 * Planetoid(split="random"): per class 20 random train nodes, then 500 val and 1000 test nodes
 * from a random order of the remaining labeled nodes, drawn from `split_seed`, each split stored
 * sorted ascending. Dataset arrays: "x" [n, D] (+ "x_scale", "x_offset" [D] for uint8), "y" [n],
 * "<name>_idx" per split.
 *
 * Then, in this order: `remove_self_loops`; `undirected` (append the reverse of every edge,
 * then remove duplicates, as PyG's to_undirected coalesces); `dedup` (remove repeated (src, dst)
 * pairs, keeping the first occurrence). The CSC and/or CSR are built with a stable counting sort,
 * so each neighbor list keeps input order.
 *
 * Atomicity: the dataset is written into a hidden temporary directory beside `out_dir` and
 * renamed into place at the end; on any failure or cancellation the temporary directory is
 * removed and `out_dir` is untouched, so a failed import leaves no dataset behind.
 *
 * Memory: about 40 bytes per input edge at the peak (edge arrays, CSC, CSR, permutation).
 *
 * Typed (heterogeneous) import, format_version 2 of docs/FORMAT.md (edgelist format only).
 * Chosen by setting `edge_types` (one file per edge type) or `edge_type_column` (one file);
 * the homogeneous `num_nodes`, `relabel`, `features`, `labels` and `splits` must then be unset
 * (`node_type_opts` gives them per node type). Node type and relation names: 1..64 printable
 * ASCII bytes, no whitespace, none of , = : " / and backslash (relations may contain '=' and
 * backslash, as WordNet's pointer symbols do), no "__", no leading or trailing '_'.
 *  - One file per edge type (`edge_types`, the CLI's --edge-type SRC,REL,DST FILE): `inputs`
 *    must be empty. Ids are local to their node type: integers kept as they are (n_t = the
 *    largest id of the type in any edge type + 1, or the type's `num_nodes`); with `string_ids`
 *    tokens interned per node type in order of first appearance (edge types in the order
 *    given, each file in line order); with a type's `node_ids` file, looked up in that list
 *    (integers or, with `string_ids`, tokens), an id not listed being an error. Node types are
 *    numbered in order of first appearance in `edge_types` (src before dst).
 *  - One file, relation column (`edge_type_column`, the CLI's --edge-type-col K): every line
 *    is "... src ... rel ... dst ..." in columns src_column, edge_type_column, dst_column.
 *    Node ids are global tokens (integers, or any tokens with `string_ids`); each node has one
 *    type, given by `node_types` (a node listed twice or without a type is an error), by a
 *    type's `node_ids` list (all of that type), or else `default_node_type`. A node's index
 *    within its type is its position in those lists (node_types file, then node_ids files in
 *    the order of node_type_opts), then, for the default type, order of first appearance in
 *    the edges. Node types are numbered in order of first appearance in those lists. The edge
 *    types are inferred: every line is an edge of the type (type of src, rel, type of dst),
 *    numbered in order of first appearance; edge_orig positions count that type's lines.
 *  - For every edge type: `remove_self_loops` and `undirected` apply to types whose src and dst
 *    types are equal; `dedup`, `csc`, `csr` and `index_dtype` to all. `reverse_edges` then adds
 *    the reverse types, holding the same edges reversed (edge_orig: the original's position).
 *  - Node data per node type from node_type_opts (features, labels, splits; shapes checked
 *    against that type's count), stored as "n<k>.x", "n<k>.y", "n<k>.split.<name>"; node_orig
 *    "n<k>.node_orig" when ids are not kept as they are (string ids, node_ids, one-file form).
 *  - Errors (FO_EINVAL unless said; message naming the option, file and line, type, value): an
 *    option naming a node type that does not occur; a node type or edge type given twice; a
 *    name breaking the rules (FO_EFORMAT for a name read from a file); an id out of range for
 *    its type or not in its node_ids list (FO_ERANGE); a node listed twice or without a type
 *    (FO_EFORMAT); an endpoint with no type; input files besides the edge type files; a
 *    reverse type that exists already. As always, nothing is written on failure.
 */
#ifndef FANOUT_IMPORT_H
#define FANOUT_IMPORT_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fo_format {
  FO_FORMAT_EDGELIST = 0,
  FO_FORMAT_PLANETOID = 1,
  FO_FORMAT_NPY = 2,
  FO_FORMAT_MTX = 3,
  FO_FORMAT_OGB = 4
} fo_format;

/** On-disk dtype of node features. */
typedef enum fo_feature_dtype {
  FO_FEATURES_AUTO = 0,     /**< as the input (.npy float32/float16/uint8; float64 -> float32);
                                 planetoid: float32 (default) */
  FO_FEATURES_FLOAT32 = 1,
  FO_FEATURES_FLOAT16 = 2,  /**< IEEE half, round to nearest even */
  FO_FEATURES_BFLOAT16 = 3, /**< upper 16 bits of float32, round to nearest even; stored "<u2" */
  FO_FEATURES_UINT8 = 4     /**< per-column linear quantization: q = round((v - min) / scale),
                                 scale = (max - min) / 255, offset = min, both stored float32 [D];
                                 columns of integers in 0..255 keep scale 1, offset 0 (exact) */
} fo_feature_dtype;

/** On-disk integer width of `indices` and `eid` arrays. */
typedef enum fo_index_dtype {
  FO_INDEX_AUTO = 0,  /**< int32 when every value fits, else int64 (default) */
  FO_INDEX_INT32 = 1, /**< int32; FO_ERANGE if a value does not fit */
  FO_INDEX_INT64 = 2  /**< always int64 */
} fo_index_dtype;

/** How an edge list's time column (fo_import_opts.time_column) is written. */
typedef enum fo_time_format {
  FO_TIME_UNIX = 0,    /**< a decimal integer (int64), stored as it is (any unit) */
  FO_TIME_ISO8601 = 1  /**< `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS` (also ' ' for 'T') with an
                            optional `Z` or `+HH:MM`/`-HH:MM` offset: stored as seconds since
                            1970-01-01T00:00:00Z (dates alone: midnight UTC) */
} fo_time_format;

/** One edge type of a typed import with one edge list file per edge type. */
typedef struct fo_import_edge_type {
  const char *src;   /**< source node type */
  const char *rel;   /**< relation */
  const char *dst;   /**< destination node type */
  const char *path;  /**< its edge list (edgelist format: `src_column`, `dst_column`; .gz ok) */
} fo_import_edge_type;

/** Edge weights of one edge type of a typed import (`--edge-weight SRC__REL__DST=W.npy`). */
typedef struct fo_import_edge_weight {
  const char *edge_type; /**< "SRC__REL__DST": an edge type of the input (a reverse type of
                              reverse_edges takes its edge's weight and cannot be named).
                              The same pair names a type's edge times (edge_times) */
  const char *path;      /**< .npy [input edges of that type] float32 or float64, finite and
                              >= 0, in the order the type's edges are read (its file, or its
                              lines of the one typed edge list); stored as fo_import_opts.
                              edge_weight stores them */
} fo_import_edge_weight;

/**
 * Edge splits of one edge type (`--edge-split [SRC__REL__DST:]NAME=F.npy,...`), stored like node
 * splits (docs/FORMAT.md "edge_splits"): each file is an int64 or int32 [k] array of input edge
 * positions (0-based: the k-th edge of the edge type's input, the order edge_orig counts), stored
 * as the int64 edge ids those edges got, in the given order. With `undirected` the split names
 * the input edge (the link loader's exclusion covers its reverse); reverse types of
 * reverse_edges cannot be named. Errors (FO_EINVAL unless said): a bad NAME=FILE entry, a name
 * given twice, more than 8 splits per edge type, an unknown or reverse edge type or one named
 * twice, a typed import without edge_type naming one when it has several edge types; FO_ERANGE
 * for an entry that is not an input position (message: file, entry, value) or whose edge the
 * import dropped (a self loop or a duplicate).
 */
typedef struct fo_import_edge_split {
  const char *edge_type; /**< "SRC__REL__DST", or NULL: untyped, or the only edge type */
  const char *splits;    /**< "train=a.npy,val=b.npy" (names: letters, digits, '_', up to 31) */
} fo_import_edge_split;

/** Labels-only (supervision) edges of a typed import (`--supervision-edges S__R__D=FILE`,
 * `--supervision-negatives S__R__D=FILE`): stored as an edge type flagged labels_only (format
 * version 3, docs/FORMAT.md) that the sampler never traverses; ablp.h reads them. */
typedef struct fo_import_label_edges {
  const char *edge_type; /**< "SRC__REL__DST": SRC and DST are node types of the import's edge
                              types; the name is new (not an edge type of the import) */
  const char *path;      /**< its edge list (src_column, dst_column; .gz ok): ids of SRC and DST
                              as the import's edge types give them; an id that is no node of
                              that type is FO_ERANGE naming file, line and id. A file
                              without edges: positives FO_EFORMAT naming type and file
                              (nothing written); hard negatives a warning (FO_LOG_WARN),
                              the type stored empty (docs/IMPORT.md) */
  bool negative;         /**< hard negatives; default false: positives */
} fo_import_label_edges;

/** Settings of one node type of a typed import; every field but `name` is optional. */
typedef struct fo_import_node_type {
  const char *name;      /**< the node type (it must occur in the import) */
  int64_t num_nodes;     /**< -1 (default): infer; else n_t, and every integer id must be < n_t
                              (one file per edge type, integer ids without node_ids only) */
  const char *node_ids;  /**< file: the type's ids, one per line (first field; '#', '%'
                              comments), line k = node k: fixes the order and the count */
  const char *features;  /**< .npy [n_t, D], as fo_import_opts.features */
  const char *labels;    /**< .npy [n_t], as fo_import_opts.labels */
  const char *splits;    /**< "train=a.npy,val=b.npy": ids of this type, as fo_import_opts.splits */
} fo_import_node_type;

/** Node times of one node type of a typed import (`--node-time TYPE=T.npy`). */
typedef struct fo_import_node_time {
  const char *node_type; /**< a node type of the import */
  const char *path;      /**< .npy [nodes of the type] int64 or int32, as fo_import_opts.
                              node_time (a different length is FO_EINVAL); without edge times
                              the rows whose neighbors are of this type are then ordered by
                              their times (CSC by source time, CSR by target time) */
} fo_import_node_time;

typedef struct fo_import_opts {
  fo_format format;        /**< default FO_FORMAT_EDGELIST */
  bool undirected;         /**< add reverse edges, then remove duplicates; default false */
  bool remove_self_loops;  /**< drop edges v -> v; default false */
  bool dedup;              /**< drop repeated (src, dst), keep the first; default false */
  bool drop_unknown;       /**< planetoid: drop cites edges with ids not in the content file
                                instead of adding feature-less nodes; default false */
  bool relabel;            /**< integer formats: map the distinct ids, sorted ascending, to
                                0..n-1 and store `node_orig`; default false (ids kept) */
  bool string_ids;         /**< edgelist: ids are arbitrary tokens (see above); default false */
  int32_t src_column;      /**< edgelist: 0-based column of the source id; default 0 */
  int32_t dst_column;      /**< edgelist: 0-based column of the target id; default 1 */
  bool csc;                /**< store the CSC (in-neighbors); default true */
  bool csr;                /**< store the CSR (out-neighbors); default false */
  fo_index_dtype index_dtype; /**< default FO_INDEX_AUTO */
  int64_t num_nodes;       /**< -1 (default): infer; else n, and every id must be < n */
  const char *features;    /**< .npy [n_nodes, D] float32, float16, float64 or uint8: node
                                features, row v for node v (after relabel); default NULL */
  const char *labels;      /**< .npy [n_nodes] int64 or int32: node labels, -1 = none */
  const char *splits;      /**< "train=a.npy,val=b.npy,test=c.npy": int64/int32 node-id arrays
                                (names: letters, digits, '_'; up to 8 splits) */
  const char *node_arrays; /**< "NAME=F.npy,...": int64/int32 [n_nodes] arrays stored as int64
                                under the manifest's "node_data" (e.g. node_year); default NULL */
  const char *arrays;      /**< "NAME=F.npy,...": int64/int32 arrays [k] or [k, c] stored as
                                int64 under the manifest's "extra" (e.g. OGB link prediction
                                splits); default NULL. Names: letters, digits, '_' (up to 31),
                                not one fanout uses (x, y, csc_*, *_idx, ...); 16 arrays at most */
  const char *edge_weight; /**< .npy [n_input_edges] float32 or float64: one weight per input
                                edge, in input order (undirected reverse edges take their
                                edge's weight), stored as given beside each CSC/CSR
                                ("weight", docs/FORMAT.md) for weighted sampling; each must be
                                finite and >= 0 (FO_ERANGE naming the file, index and value);
                                a different length is FO_EFORMAT. Untyped imports only (typed:
                                edge_weights; FO_EINVAL). Default NULL */
  const char *edge_time;   /**< .npy [n_input_edges] int64 or int32: one time per input edge
                                (any unit; seconds for --time-format iso8601), input order
                                (undirected reverse edges take their edge's time). Stored as
                                int64 beside each CSC/CSR ("time", docs/FORMAT.md) and every
                                row is then kept sorted by time (stable: ties in input order),
                                so edge ids follow that order (edge_orig maps them back). A
                                different length is FO_EFORMAT. Untyped imports. Default NULL */
  const char *node_time;   /**< .npy [n_nodes] int64 or int32: node times, stored as int64
                                "node_time" (temporal sampling, time mode node); without
                                edge times every row is then ordered by its neighbors' node
                                times (stable; edge ids follow, edge_orig maps them back). A
                                different length is FO_EINVAL. Default NULL */
  int32_t weight_column;   /**< edgelist: 0-based column holding each edge's weight (a finite
                                decimal >= 0, stored float32; NaN, inf, negative or junk is
                                FO_EFORMAT/FO_ERANGE naming file, line and value); -1 (default)
                                none. Excludes edge_weight. */
  int32_t time_column;     /**< edgelist: 0-based column holding each edge's time (see
                                time_format); -1 (default) none. Excludes edge_time. */
  fo_time_format time_format; /**< how time_column is written; default FO_TIME_UNIX */
  fo_feature_dtype feature_dtype; /**< default FO_FEATURES_AUTO */
  uint64_t split_seed;     /**< planetoid: seed of the standard split (20 train nodes per
                                class, 500 val, 1000 test); default 0 */
  bool force;              /**< replace an existing `out_dir`; default false (FO_EINVAL) */
  bool allow_nonfinite;    /**< keep NaN and infinite feature values; default false: the
                                first one is FO_ERANGE naming the file, row and column */
  bool progress;           /**< draw a progress bar on stderr when it is a terminal; default false */
  const volatile int *cancel; /**< if set and it becomes non-zero (e.g. from a signal
                                   handler), stop with FO_ECANCELED; default NULL */
  /* ---- typed (heterogeneous) import: set edge_types or edge_type_column (see below) ---- */
  const fo_import_edge_type *edge_types; /**< [n_edge_types] one file per edge type; borrowed */
  int32_t n_edge_types;                  /**< default 0 */
  int32_t edge_type_column;   /**< >= 0: one typed edge list (the inputs), this 0-based column
                                   holds the relation; default -1 */
  const char *node_types;     /**< one-file form: file of lines "node_id<TAB>type" (further
                                   fields ignored; '#', '%' comments); default NULL */
  const char *default_node_type; /**< one-file form: the type of endpoints no list names (else
                                      such an endpoint is an error); default NULL */
  const fo_import_node_type *node_type_opts; /**< [n_node_type_opts] per-type settings; borrowed */
  int32_t n_node_type_opts;   /**< default 0 */
  const fo_import_edge_weight *edge_weights; /**< [n_edge_weights] typed: weights per edge
                                   type (types not named store none); borrowed. An unknown or
                                   reverse type, or one named twice: FO_EINVAL */
  int32_t n_edge_weights;     /**< default 0 */
  const fo_import_edge_weight *edge_times; /**< [n_edge_times] typed: edge times per edge type
                                   (`--edge-time SRC__REL__DST=T.npy`; path: .npy [input edges
                                   of the type] int64 or int32, as fo_import_opts.edge_time:
                                   that type's rows are then sorted by time, a reverse type has
                                   its edge's times); the same rules as edge_weights; borrowed */
  int32_t n_edge_times;       /**< default 0 */
  const fo_import_node_time *node_times; /**< [n_node_times] typed: node times per node type
                                   (types not named store none); an unknown type or one named
                                   twice: FO_EINVAL; borrowed */
  int32_t n_node_times;       /**< default 0 */
  bool reverse_edges;         /**< add (d, "rev_" + r, s) for every edge type (s, r, d) with
                                   s != d, after the original types; default false */
  const fo_import_edge_split *edge_splits; /**< [n_edge_splits] edge splits (see
                                   fo_import_edge_split); borrowed. Not with the typed OGB
                                   layout (FO_ENOSYS) */
  int32_t n_edge_splits;      /**< default 0; at most FO_IMPORT_MAX_EDGE_SPLIT_TYPES */
  const fo_import_label_edges *label_edges; /**< [n_label_edges] labels-only edge types from
                                   their own files (one file per edge type form only); their
                                   ids never add nodes; they get no reverse type, no undirected
                                   copy, no self-loop removal (dedup applies), and both a CSC and
                                   a CSR. Borrowed. */
  int32_t n_label_edges;      /**< default 0 */
  const char *labels_only;    /**< "REL,REL,...": edge types whose relation is listed are stored
                                   labels-only positive (either typed form; with --edge-type-col
                                   the node lists give the endpoints' types as for every line);
                                   default NULL */
  const char *negative_labels; /**< "REL,...": the same, stored as hard negatives; default NULL */
} fo_import_opts;

/** Most entries of fo_import_opts.edge_splits. */
#define FO_IMPORT_MAX_EDGE_SPLIT_TYPES 64

/** What an import did; every field is a count. */
typedef struct fo_import_report {
  int64_t n_nodes;              /**< nodes in the dataset */
  int64_t n_edges;              /**< edges in the dataset */
  int64_t n_input_edges;        /**< edges read from the input (symmetric mtx: after mirroring) */
  int64_t n_self_loops_removed;
  int64_t n_reverse_added;      /**< reverse edges appended by `undirected`, plus the edges of
                                     the reverse types of `reverse_edges` */
  int64_t n_duplicates_removed; /**< by `undirected` or `dedup` */
  int64_t n_unknown_nodes;      /**< planetoid: ids only in cites (added, or dropped) */
  int64_t n_unknown_edges_dropped; /**< planetoid with drop_unknown */
  int64_t n_isolated;           /**< nodes with no edge at all (typed: of any edge type) */
  int32_t n_node_types;         /**< typed import: node types written; 0 for version 1 */
  int32_t n_edge_types;         /**< typed import: edge types written (with reverse types) */
} fo_import_report;

/** Write the defaults into `o`. Cost: O(1). */
FO_API void fo_import_opts_init(fo_import_opts *o);

/** Parse a format name ("edgelist", "planetoid", "npy", "mtx", "ogb"). FO_EINVAL names a bad one. */
FO_API int fo_format_parse(const char *name, fo_format *out);

/**
 * Import `inputs` into a new dataset directory `out_dir`.
 *
 * @param inputs    [n_inputs] file paths; edgelist: one or more files (concatenated);
 *                  planetoid: the .content and the .cites file; npy, mtx: one file;
 *                  ogb: the dataset directory; typed with edge_types: none (n_inputs 0, the
 *                  files are in edge_types); typed with edge_type_column: the typed edge
 *                  list(s), read as one.
 * @param out_dir   the dataset directory to create; its parent must exist.
 * @param o         options, or NULL for the defaults.
 * @param rep       if not NULL, filled on success (zeroed on failure).
 * @return FO_OK; FO_EINVAL for bad options, a wrong number of inputs, or an existing
 *         `out_dir` without `force`; FO_EIO if a file cannot be read or written; FO_EFORMAT
 *         for a malformed input (message: file, line and the offending text or value);
 *         FO_ERANGE for an id out of range (negative, >= num_nodes, or past int64);
 *         FO_ECANCELED if `cancel` was raised; FO_ENOMEM. On failure nothing is left behind.
 * Thread-safety: any thread; concurrent imports must use different `out_dir`s.
 * Cost: O(input bytes + m log(max degree)) time when deduplicating, O(input + n + m) otherwise.
 */
FO_API int fo_import(const char *const *inputs, int n_inputs, const char *out_dir,
                     const fo_import_opts *o, fo_import_report *rep);

/**
 * Import an in-memory edge list: edge i is src[i] -> dst[i]. Same options (format and
 * drop_unknown are ignored), same atomic write, same errors as fo_import(). The arrays are
 * borrowed for the call.
 * Cost: O(n + m) plus deduplication.
 */
FO_API int fo_import_edges(const int64_t *src, const int64_t *dst, int64_t n_edges,
                           const char *out_dir, const fo_import_opts *o, fo_import_report *rep);

#ifdef __cplusplus
}
#endif
#endif
