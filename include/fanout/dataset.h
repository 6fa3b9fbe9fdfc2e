/*
 * fanout/dataset.h: the on-disk dataset (store layer), opened read-only.
 *
 * A dataset is a directory holding `fanout.json` (the manifest: format version, counts, the
 * array list with dtype, shape and xxh64 checksum of each array's data bytes, provenance) and
 * one NumPy `.npy` file (format 1.0, little-endian, C order) per array, so that
 * `numpy.load(path, mmap_mode="r")` reads any of them. See docs/FORMAT.md.
 *
 * Topology: CSC (in-neighbors: column v lists the sources of edges u->v) and/or CSR
 * (out-neighbors), each as `indptr` int64 [n_nodes+1] and `indices` int32 or int64 [n_edges]
 * (int32 when n_nodes <= INT32_MAX unless the importer was told otherwise). Neighbor lists keep
 * the input order of the edges. Edge ids: the edge id of an edge is its position in the CSC when
 * the dataset has a CSC, otherwise its position in the CSR; the other direction stores an `eid`
 * array (position -> edge id). `edge_orig` int32 or int64 [n_edges] (absent when it is the
 * identity) maps an edge id back to its position
 * in the imported edge list (reverse edges added by --undirected get n_input + i).
 * `node_orig` int64 or fixed-width bytes [n_nodes] maps a node id back to the input's id; when
 * absent, the input ids were kept as they are.
 *
 * Opening is O(1) in graph size: the manifest is parsed and each array is memory-mapped
 * read-only and checked against its .npy header and the file size, nothing more.
 * fo_dataset_verify() does the full O(n + m) check. Readers (the sampler) check every bound they
 * touch, so a corrupt dataset yields FO_EFORMAT, never a crash.
 *
 * Thread-safety: an open dataset is immutable; any number of threads may read it concurrently.
 */
#ifndef FANOUT_DATASET_H
#define FANOUT_DATASET_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fo_dataset fo_dataset_t;

/** How arrays are brought into memory. */
typedef enum fo_load_mode {
  /** Memory-map the files read-only (default): local processes share one copy through the
   *  page cache, opening costs O(1). */
  FO_LOAD_MMAP = 0,
  /** Copy the topology arrays and the node features into anonymous memory advised for
   *  transparent huge pages (2 MiB pages: about half the cost of a random load, and no TLB
   *  miss per feature row); O(n + m + n D) to open, private to the process. Other arrays stay
   *  memory-mapped. */
  FO_LOAD_HUGEPAGE = 1
} fo_load_mode;

typedef struct fo_dataset_opts {
  fo_load_mode load; /**< default FO_LOAD_MMAP */
  int32_t part;      /**< partitioned datasets: -1 (default) opens every part; k opens only
                          part k (the machine's own part in a distributed run: the others are
                          reached through fo_dist); ignored for plain datasets */
} fo_dataset_opts;

/** Write the defaults into `o`. Cost: O(1). */
FO_API void fo_dataset_opts_init(fo_dataset_opts *o);

/**
 * Open the dataset directory `path`.
 *
 * @param path  dataset directory (containing fanout.json); borrowed for the call.
 * @param o     options, or NULL for the defaults.
 * @param out   receives the handle, or NULL on failure. Close with fo_dataset_close().
 * @return FO_OK; FO_EINVAL if path is NULL or not a dataset; FO_EIO if a file cannot be
 *         opened or mapped (message has the path and strerror); FO_EFORMAT if the manifest or
 *         an .npy header is malformed, a dtype/shape disagrees with the manifest, a file is
 *         truncated, or indptr's first/last entries are not 0 and n_edges (message names the
 *         file and the value); FO_ENOMEM.
 * Thread-safety: any thread. Cost: O(number of arrays) for FO_LOAD_MMAP; O(n + m) copy for
 * FO_LOAD_HUGEPAGE.
 */
FO_API int fo_dataset_open(const char *path, const fo_dataset_opts *o, fo_dataset_t **out);

/** Unmap and free. Accepts NULL. Pointers obtained from `d` become invalid. */
FO_API void fo_dataset_close(fo_dataset_t *d);

/** Number of nodes n (ids are 0..n-1). Cost: O(1). */
FO_API int64_t fo_dataset_num_nodes(const fo_dataset_t *d);
/** Number of (directed) edges m. Cost: O(1). */
FO_API int64_t fo_dataset_num_edges(const fo_dataset_t *d);
/** The directory the dataset was opened from; owned by `d`. */
FO_API const char *fo_dataset_path(const fo_dataset_t *d);
/** The manifest's text (fanout.json), NUL-terminated; owned by `d`, valid until close. */
FO_API const char *fo_dataset_manifest(const fo_dataset_t *d);

/** A read-only view of one stored direction of the topology; all pointers owned by the dataset. */
typedef struct fo_topology {
  fo_edge_dir dir;       /**< FO_EDGE_DIR_IN: CSC; FO_EDGE_DIR_OUT: CSR */
  int64_t n_nodes;       /**< n: node ids (and neighbor ids) lie in [0, n) */
  int64_t n_edges;       /**< m: edges stored */
  int64_t n_rows;        /**< rows of indptr: n, or for a part of a partitioned dataset the
                              nodes it owns */
  const int64_t *row_nodes; /**< [n_rows] node of each row (ascending), or NULL when row v is
                                 node v */
  int64_t edge_id_bound; /**< edge ids lie in [0, edge_id_bound): m, or the whole graph's edge
                              count for a part */
  const int64_t *indptr; /**< [n_rows+1]: row r's neighbors are positions indptr[r]..indptr[r+1]-1 */
  const void *indices;   /**< [m] neighbor node ids, int32 or int64 (see indices_bytes) */
  int indices_bytes;     /**< 4 or 8 */
  const void *eid;       /**< [m] edge id of each position (int32/int64, eid_bytes), or NULL
                              when the position is the edge id */
  int eid_bytes;         /**< 0 (eid NULL), 4 or 8 */
  const char *indices_name; /**< array names, for error messages */
  const char *indptr_name;
  const char *eid_name;
  const int64_t *row_eid; /**< [n_rows] or NULL: row r's edge ids are row_eid[r] + 0, 1, ...
                              (parts whose source's edge ids are its CSC positions: docs/FORMAT.md
                              "row_eid"); the same ids as eid, which stays stored */
  const char *row_eid_name;
  const void *weight;    /**< [m] edge weight of each position (float32 or float64, see
                              weight_bytes; finite, >= 0: checked by fo_dataset_verify), or NULL
                              when the dataset stores no weights (docs/FORMAT.md "weight") */
  int weight_bytes;      /**< 0 (weight NULL), 4 (float32) or 8 (float64) */
  const char *weight_name;
  const int64_t *weight_alias; /**< [m] with weight: each row's alias table (docs/FORMAT.md
                              "weight_alias": row offset << 32 | 32-bit threshold; verify checks
                              it), else NULL */
  const char *weight_alias_name;
  const int64_t *time;   /**< [m] edge time of each position (int64, import --edge-time or
                              --time-col), or NULL. Every row is sorted by time, ascending (ties
                              in input order; fo_dataset_verify checks it), so the edges of a
                              row up to a time t are a prefix (docs/FORMAT.md "time") */
  const char *time_name;
  bool rows_by_node_time; /**< every row is sorted by its neighbors' node times (stable; set
                              by imports with node times and no edge times: manifest
                              "row_order": "node_time"), so node-time temporal sampling
                              narrows a row by binary search */
} fo_topology;

/**
 * Get the view of direction `dir`.
 * @return FO_OK; FO_EINVAL if the dataset does not store that direction (the message says
 *         which import option adds it: --csc or --csr).
 * Cost: O(1). The view stays valid until fo_dataset_close(d).
 */
FO_API int fo_dataset_topology(const fo_dataset_t *d, fo_edge_dir dir, fo_topology *out);

/** Whether direction `dir` is stored. Cost: O(1). */
FO_API bool fo_dataset_has_topology(const fo_dataset_t *d, fo_edge_dir dir);

/**
 * Number of parts: P for a partitioned dataset (a directory written by `fanout partition`, see
 * partition.h; opening it opens every part, and samplers and loaders over it give the same
 * batches as over the unpartitioned dataset), 0 for a plain one. Cost: O(1).
 */
FO_API int fo_dataset_num_parts(const fo_dataset_t *d);

/**
 * Part k (0 <= k < fo_dataset_num_parts) of a partitioned dataset: itself a dataset whose rows
 * are the nodes the part owns (fo_topology.row_nodes); borrowed, valid until `d` is closed.
 * NULL when `d` is not partitioned, k is out of range, or part k was not opened
 * (fo_dataset_opts.part). Cost: O(1).
 */
FO_API const fo_dataset_t *fo_dataset_part(const fo_dataset_t *d, int k);

/**
 * Which part owns node v and at which row of that part. For a typed partitioned dataset ask
 * the node type's view (fo_dataset_node_data(d, t): partitioned itself, with that type's book;
 * fo_dataset_part on it gives part k's view of the type); the typed top level is FO_EINVAL.
 * @return FO_OK; FO_EINVAL if `d` is not partitioned or the owning part was not opened
 *         (fo_dataset_opts.part); FO_ERANGE if v is not in [0, n); FO_EFORMAT if the book
 *         names no part for v or the part's rank directory gives a row outside the part
 *         (message names the array and position: a corrupt dataset never gives a wild row).
 * Cost: O(log P) for range partitions, O(64) for the others (book and rank directory).
 */
FO_API int fo_dataset_node_part(const fo_dataset_t *d, fo_nid_t v, int *part, int64_t *row);

/**
 * Rows of `d`: for one part of a partitioned dataset (or a part's view of one node type, as
 * fo_dataset_node_data gives it) the nodes it owns; fo_dataset_num_nodes otherwise. Cost: O(1).
 */
FO_API int64_t fo_dataset_num_rows(const fo_dataset_t *d);

/** Partition method ("hash", "range", "metis"), or "" when not partitioned. Owned by `d`. */
FO_API const char *fo_dataset_partition_method(const fo_dataset_t *d);

/** Description of one stored array; pointers owned by the dataset, valid until close. */
typedef struct fo_array_info {
  const char *name;   /**< e.g. "csc_indptr" */
  const char *file;   /**< file name inside the dataset directory, e.g. "csc_indptr.npy" */
  const char *dtype;  /**< NumPy descr, e.g. "<i8", "<i4", "|S12" */
  int ndim;           /**< 1 or 2 */
  int64_t shape[2];   /**< shape[0] rows, shape[1] columns when ndim == 2 */
  int64_t itemsize;   /**< bytes per element */
  int64_t nbytes;     /**< data bytes = product(shape) * itemsize */
  uint64_t xxh64;     /**< XXH64 (seed 0) of the data bytes, from the manifest */
  const void *data;   /**< the data, read-only */
} fo_array_info;

/** Number of arrays in the manifest. Cost: O(1). */
FO_API int64_t fo_dataset_num_arrays(const fo_dataset_t *d);

/**
 * Describe array `i` (0 <= i < fo_dataset_num_arrays(d)), in manifest order.
 * @return FO_OK; FO_ERANGE if `i` is out of range. Cost: O(1).
 */
FO_API int fo_dataset_array_at(const fo_dataset_t *d, int64_t i, fo_array_info *out);

/**
 * Describe the array called `name`.
 * @return FO_OK; FO_EINVAL if there is none (message names it). Cost: O(number of arrays).
 */
FO_API int fo_dataset_array(const fo_dataset_t *d, const char *name, fo_array_info *out);

/** What the original node ids look like. */
typedef enum fo_orig_kind {
  FO_ORIG_IDENTITY = 0, /**< no map: node id v is the input's id v */
  FO_ORIG_INT64 = 1,    /**< `node_orig` int64 [n] */
  FO_ORIG_STRING = 2    /**< `node_orig` fixed-width bytes [n], NUL-padded (e.g. Planetoid) */
} fo_orig_kind;

/** Kind of original node ids. Cost: O(1). */
FO_API fo_orig_kind fo_dataset_node_orig_kind(const fo_dataset_t *d);

/**
 * Original id of node `v` as an integer (FO_ORIG_IDENTITY gives v itself).
 * @return FO_OK; FO_ERANGE if v is not in [0, n); FO_EINVAL if the ids are strings.
 * Cost: O(1).
 */
FO_API int fo_dataset_node_orig_int(const fo_dataset_t *d, fo_nid_t v, int64_t *out);

/**
 * Original id of node `v` as bytes (FO_ORIG_STRING): `*s` points into the mapped array and is
 * NOT NUL-terminated; `*len` is its length without padding.
 * @return FO_OK; FO_ERANGE if v is not in [0, n); FO_EINVAL if the ids are not strings.
 * Cost: O(width).
 */
FO_API int fo_dataset_node_orig_str(const fo_dataset_t *d, fo_nid_t v, const char **s,
                                    size_t *len);

/** Degree summary of one direction, computed by fo_dataset_degree_stats(). */
typedef struct fo_degree_stats {
  int64_t min, max;
  double mean;
  int64_t n_zero; /**< nodes with no neighbor in this direction */
  fo_nid_t argmax; /**< smallest node id with the maximum degree */
} fo_degree_stats;

/**
 * Degree statistics of direction `dir` from its indptr.
 * @return FO_OK; FO_EINVAL if `dir` is not stored; FO_EFORMAT if indptr decreases (names the
 *         position). Cost: O(n) sequential reads.
 */
FO_API int fo_dataset_degree_stats(const fo_dataset_t *d, fo_edge_dir dir, fo_degree_stats *out);

/** Node features [n_nodes, dim] as stored; pointers owned by the dataset. */
typedef struct fo_features {
  const void *data;     /**< [n_rows, dim], C order */
  int64_t n_rows;       /**< = number of nodes */
  int64_t dim;          /**< D (may be 0) */
  int64_t itemsize;     /**< bytes per element: 4, 2 or 1 */
  const char *dtype;    /**< "float32", "float16", "bfloat16" (stored as "<u2" bits) or "uint8" */
  const float *scale;   /**< [dim] for "uint8": value = q * scale[j] + offset[j]; else NULL */
  const float *offset;  /**< [dim] for "uint8"; else NULL */
} fo_features;

/** Whether the dataset stores node features. Cost: O(1). */
FO_API bool fo_dataset_has_features(const fo_dataset_t *d);

/**
 * The node features.
 * @return FO_OK; FO_EINVAL if the dataset has none (import with --features or planetoid).
 * Cost: O(1); valid until close.
 */
FO_API int fo_dataset_features(const fo_dataset_t *d, fo_features *out);

/**
 * Node times (import --node-time; temporal sampling in node-time mode): `*t` int64 [*n], one per
 * node (of the node type, for a node-type view from fo_dataset_node_data). A partitioned
 * dataset keeps every node's time at its top level (`fanout partition` carries them), so they
 * are read here too, for all nodes of every part.
 * @return FO_OK; FO_EINVAL if the dataset (or node type) has none, or `d` is typed (ask a node
 *         type's view). Cost: O(1); valid until close.
 */
FO_API int fo_dataset_node_time(const fo_dataset_t *d, const int64_t **t, int64_t *n);

/** Whether the dataset stores node labels. Cost: O(1). */
FO_API bool fo_dataset_has_labels(const fo_dataset_t *d);

/**
 * The node labels: `*y` int64 [*n] (n = number of nodes; -1 = no label) and the number of
 * classes (max label + 1, as recorded at import).
 * @return FO_OK; FO_EINVAL if the dataset has none. Cost: O(1); valid until close.
 */
FO_API int fo_dataset_labels(const fo_dataset_t *d, const int64_t **y, int64_t *n,
                             int64_t *num_classes);

/** Number of stored splits (e.g. train, val, test). Cost: O(1). */
FO_API int64_t fo_dataset_num_splits(const fo_dataset_t *d);

/** Name of split `i` (0 <= i < fo_dataset_num_splits), or NULL out of range. Owned by `d`. */
FO_API const char *fo_dataset_split_name(const fo_dataset_t *d, int64_t i);

/**
 * The node ids of split `name`: `*ids` int64 [*n], in stored order. Ids are not checked here
 * (the loader checks each id it uses; fo_dataset_verify checks all).
 * @return FO_OK; FO_EINVAL if there is no such split (message lists the ones there are).
 * Cost: O(number of splits); valid until close.
 */
FO_API int fo_dataset_split(const fo_dataset_t *d, const char *name, const int64_t **ids,
                            int64_t *n);

/* ---- typed (heterogeneous) datasets: format_version 2, docs/FORMAT.md ------------------------ */

/**
 * Whether the dataset is typed (format_version 2: named node and edge types, PyG `HeteroData`).
 * A version-1 dataset is not typed but still answers every function below as one node type
 * "node" and one edge type "node__to__node" (type index 0), so code written for typed datasets
 * runs on it unchanged. Cost: O(1).
 */
FO_API bool fo_dataset_is_typed(const fo_dataset_t *d);

/** Number of node types T >= 1 (1 for a version-1 dataset). Cost: O(1). */
FO_API int32_t fo_dataset_num_node_types(const fo_dataset_t *d);

/** Number of edge types >= 1 (1 for a version-1 dataset). Cost: O(1). */
FO_API int32_t fo_dataset_num_edge_types(const fo_dataset_t *d);

/** Name of node type t (0 <= t < T), owned by `d`; NULL when t is out of range. Cost: O(1). */
FO_API const char *fo_dataset_node_type_name(const fo_dataset_t *d, int32_t t);

/** Index of the node type called `name`, or -1 when there is none. Cost: O(T). */
FO_API int32_t fo_dataset_node_type_find(const fo_dataset_t *d, const char *name);

/** One edge type, the canonical triple (src, rel, dst); strings owned by the dataset. */
typedef struct fo_edge_type {
  const char *name;   /**< "src__rel__dst" */
  const char *src, *rel, *dst;
  int32_t src_type;   /**< node type index of src */
  int32_t dst_type;   /**< node type index of dst */
  int64_t n_edges;    /**< edges of this type; their ids are 0..n_edges-1 */
  int32_t label;      /**< 0 for a traversed edge type; FO_LABEL_POSITIVE or
                           FO_LABEL_NEGATIVE for a labels-only (supervision) edge type */
} fo_edge_type;

/** fo_edge_type.label of a labels-only edge type (docs/FORMAT.md, format_version 3). */
#define FO_LABEL_POSITIVE 1
#define FO_LABEL_NEGATIVE 2

/**
 * Describe edge type `et` (0 <= et < fo_dataset_num_edge_types(d)), in manifest order.
 * @return FO_OK; FO_ERANGE if `et` is out of range (message gives it). Cost: O(1).
 */
FO_API int fo_dataset_edge_type(const fo_dataset_t *d, int32_t et, fo_edge_type *out);

/**
 * Index of an edge type by name: the canonical "src__rel__dst", or a relation name alone when
 * exactly one edge type has it (PyG accepts both). @return the index, -1 when there is none,
 * -2 when a bare relation name is ambiguous. Cost: O(number of edge types).
 */
FO_API int32_t fo_dataset_edge_type_find(const fo_dataset_t *d, const char *name);

/**
 * The view of direction `dir` of edge type `et`: FO_EDGE_DIR_IN is the CSC (rows are the dst
 * type's nodes, n_rows = n_dst; indices are src-type ids, n_nodes = n_src), FO_EDGE_DIR_OUT
 * the CSR (rows: src type; indices: dst-type ids). Edge ids are per edge type.
 * For a version-1 dataset, et 0 is fo_dataset_topology().
 * @return FO_OK; FO_ERANGE if `et` is out of range; FO_EINVAL if that direction is not stored
 *         (message names the edge type and the import option that adds it) or the dataset is
 *         partitioned. Cost: O(1); valid until fo_dataset_close(d).
 */
FO_API int fo_dataset_edge_topology(const fo_dataset_t *d, int32_t et, fo_edge_dir dir,
                                    fo_topology *out);

/**
 * Degree statistics of direction `dir` of edge type `et` (per row of its CSC or CSR: the dst
 * type's in-degrees, or the src type's out-degrees).
 * @return as fo_dataset_edge_topology; FO_EFORMAT if indptr decreases. Cost: O(rows).
 */
FO_API int fo_dataset_edge_degree_stats(const fo_dataset_t *d, int32_t et, fo_edge_dir dir,
                                        fo_degree_stats *out);

/* ---- edge splits (import --edge-split; docs/FORMAT.md "edge_splits") ---------------------- */

/** Number of stored edge splits of edge type `et` (0 when out of range). A partitioned dataset
 * keeps them whole at its top level, with their endpoints (docs/FORMAT.md "edge_split_ends"),
 * so the link loader's edge_split works over parts (fo_dataset_edge_split_ends reads them);
 * fo_dataset_edge_endpoints does not (the parts hold no edge id -> row map). Cost: O(1). */
FO_API int64_t fo_dataset_num_edge_splits(const fo_dataset_t *d, int32_t et);

/** Name of edge split `i` of edge type `et`, or NULL out of range. Owned by `d`. Cost: O(1). */
FO_API const char *fo_dataset_edge_split_name(const fo_dataset_t *d, int32_t et, int64_t i);

/**
 * The edge ids of edge split `name` of edge type `et`: `*ids` int64 [*n], in stored order, each
 * in [0, n_edges of et) (checked when the dataset was opened).
 * @return FO_OK; FO_EINVAL for NULL ids or n, or no such split (message names the edge type and
 *         lists the splits it has); FO_ERANGE if `et` is out of range.
 * Cost: O(number of edge splits); valid until close.
 */
FO_API int fo_dataset_edge_split(const fo_dataset_t *d, int32_t et, const char *name,
                                 const int64_t **ids, int64_t *n);

/**
 * The stored endpoints of edge split `name` of edge type `et` of a partitioned dataset (its top
 * level keeps them, docs/FORMAT.md "edge_split_ends"): `*ends` int64 [2, *n], row 0 the
 * sources and row 1 the destinations (ids of the edge type's src and dst node types), in the
 * split's stored order, so `ends[i]`, `ends[*n + i]` are the endpoints of split edge i.
 * Over a dataset that is not partitioned use fo_dataset_edge_endpoints of fo_dataset_edge_split.
 * @return FO_OK; FO_EINVAL for NULL ends or n, no such split (as fo_dataset_edge_split), or a
 *         dataset that is not partitioned; FO_ERANGE if `et` is out of range.
 * Cost: O(number of edge splits); owned by `d`, valid until close; thread-safe (read only).
 */
FO_API int fo_dataset_edge_split_ends(const fo_dataset_t *d, int32_t et, const char *name,
                                      const int64_t **ends, int64_t *n);

/**
 * The endpoints of edges `eids` [n] of edge type `et` (edge ids: positions in the edge-id
 * direction): src[i] (an id of et's src node type) and dst[i] (of its dst type).
 * @return FO_OK; FO_EINVAL for NULL arrays with n > 0, n < 0, or a partitioned dataset;
 *         FO_ERANGE for et or an edge id out of range (message gives the position and value);
 *         FO_EFORMAT for a corrupt indptr or index on the way (naming the array).
 * Thread-safety: any thread. Cost: O(n log rows).
 */
FO_API int fo_dataset_edge_endpoints(const fo_dataset_t *d, int32_t et, const int64_t *eids,
                                     int64_t n, fo_nid_t *src, fo_nid_t *dst);

/*
 * Labels-only (supervision) edge types (format_version 3; `fanout import --supervision-edges`):
 * edge types the sampler never traverses, read to label anchor-based link prediction batches
 * (ablp.h). They are a table of their own, indexed 0..fo_dataset_num_label_edge_types(d)-1:
 * fo_dataset_num_edge_types(), fo_dataset_edge_type(), fo_dataset_edge_type_find() and
 * fo_dataset_edge_topology() never see them, so no edge type index the sampler or a batch uses
 * names one, and fo_dataset_num_edges() does not count their edges.
 */

/** Number of labels-only edge types (0 for datasets without, and every version 1 or 2). */
FO_API int32_t fo_dataset_num_label_edge_types(const fo_dataset_t *d);

/** Describe labels-only edge type i (label FO_LABEL_POSITIVE or _NEGATIVE).
 * @return FO_OK; FO_ERANGE if i is out of range. Cost: O(1). */
FO_API int fo_dataset_label_edge_type(const fo_dataset_t *d, int32_t i, fo_edge_type *out);

/** Index of a labels-only edge type by "src__rel__dst" or a relation only one of them has;
 * -1 when there is none, -2 when a bare relation is ambiguous. Cost: O(labels-only types). */
FO_API int32_t fo_dataset_label_edge_type_find(const fo_dataset_t *d, const char *name);

/** The CSC (FO_EDGE_DIR_IN) or CSR of labels-only edge type i, as fo_dataset_edge_topology.
 * A partitioned dataset's rows are in its parts (fo_dataset_part): each part stores the CSR rows
 * of the anchors (source nodes) it owns (row_nodes set, global edge ids) and no CSC.
 * @return FO_OK; FO_ERANGE for i out of range; FO_EINVAL if the direction is not stored (or
 *         `d` is the top level of a partitioned dataset).
 * Cost: O(1); valid until fo_dataset_close(d). */
FO_API int fo_dataset_label_edge_topology(const fo_dataset_t *d, int32_t i, fo_edge_dir dir,
                                          fo_topology *out);

/**
 * The node data of node type t, as a dataset view: fo_dataset_num_nodes() gives n_t and
 * fo_dataset_features(), _labels(), _split*(), _node_orig_*() answer for that type (ids local
 * to the type). For a version-1 dataset, t = 0 gives `d` itself. The view is owned by `d`,
 * valid until fo_dataset_close(d), and must not be closed. @return NULL when t is out of
 * range. Cost: O(1).
 */
FO_API const fo_dataset_t *fo_dataset_node_data(const fo_dataset_t *d, int32_t t);

/**
 * Full check of the dataset, O(n + m): each array's xxh64 against the manifest; each indptr
 * starts at 0, never decreases and ends at m; each indices/eid entry is in range; each eid array
 * is a permutation of [0, m); the CSC and CSR (when both are stored) hold the same edges;
 * labels are -1 or below num_classes; split entries are node ids; edge_orig entries are >= 0.
 * @return FO_OK; FO_EFORMAT naming the first bad array and position (or checksum);
 *         FO_ENOMEM. Thread-safety: any thread. Cost: O(n + m) time, O(m) bits of memory for
 *         the permutation check.
 */
FO_API int fo_dataset_verify(const fo_dataset_t *d);

/** Options of fo_dataset_verify_with(). */
typedef struct fo_verify_opts {
  bool progress;              /**< a progress bar (bytes checksummed) on stderr when it is a
                                   terminal; default false */
  const volatile int *cancel; /**< stop with FO_ECANCELED (between arrays) when it becomes
                                   non-zero, e.g. from a signal handler; default NULL */
} fo_verify_opts;

/** Write the defaults into `o`. Cost: O(1). */
FO_API void fo_verify_opts_init(fo_verify_opts *o);

/**
 * fo_dataset_verify() with options (NULL = defaults, which is fo_dataset_verify()). Same checks,
 * errors and cost; FO_ECANCELED if `cancel` was raised. Thread-safety: as fo_dataset_verify();
 * with `progress`, only one verify at a time should draw.
 */
FO_API int fo_dataset_verify_with(const fo_dataset_t *d, const fo_verify_opts *o);

#ifdef __cplusplus
}
#endif
#endif
